//! Hostile input, as the reliability issue found it, kind by kind: each defect class has a
//! regression test here, and one test throws a list of hostile values at every option of every
//! subcommand. The contract: exit code 0, 1 or 2; on failure exactly one line on stderr;
//! never a panic (101) or an abort (134); never a hang.

use crate::common;

use common::{godsearch, json, refused, refused_with_stdin, stderr, stdout};
use std::ffi::OsString;
use std::io::{BufRead, BufReader};
use std::os::unix::ffi::OsStringExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// No run of a hostile case may take longer (the slowest valid case builds a 3x3 pattern
/// database in milliseconds).
const CASE_LIMIT: Duration = Duration::from_secs(60);

/// Runs the binary in `dir` with stdin closed, killing it after [`CASE_LIMIT`].
fn run_in(dir: &Path, args: &[OsString]) -> (Output, Duration) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_godsearch"))
        .args(args)
        .current_dir(dir)
        .env("XDG_CACHE_HOME", dir.join("cache-home"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    loop {
        if child.try_wait().expect("waiting").is_some() {
            break;
        }
        if started.elapsed() > CASE_LIMIT {
            child.kill().expect("killing a hung run");
            let out = child.wait_with_output().expect("output");
            panic!(
                "{args:?} ran past {CASE_LIMIT:?}; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let out = child.wait_with_output().expect("output");
    (out, started.elapsed())
}

/// Checks the contract for one run.
fn check_contract(args: &[OsString], out: &Output) {
    let err = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    assert!(
        matches!(code, Some(0..=2)),
        "{args:?}: exit {:?} (101 is a panic, 134 an abort, none a signal): {err}",
        out.status
    );
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    if code != Some(0) {
        let lines: Vec<&str> = err.trim_end().lines().collect();
        assert_eq!(lines.len(), 1, "{args:?}: one line please: {err}");
        assert!(lines[0].starts_with("error: "), "{args:?}: {err}");
    }
}

fn hostile_values() -> Vec<OsString> {
    let mut values: Vec<OsString> = [
        "0",
        "-1",
        "99999999999999999999999",
        "18446744073709551616",
        "1e300",
        "-1e300",
        "1e-300",
        "NaN",
        "inf",
        "",
        " ",
        "1,,2",
        "+1",
        "x",
        "0x10",
        "\n",
    ]
    .iter()
    .map(OsString::from)
    .collect();
    values.push(OsString::from("9".repeat(10_000)));
    values.push(OsString::from_vec(vec![b'4', 0xff, 0xfe]));
    values
}

/// Each base command (fast whatever the option) with the options it takes.
type Case = (Vec<&'static str>, Vec<&'static str>);

fn cases() -> Vec<Case> {
    vec![
        (
            vec!["bfs", "2x3"],
            vec![
                "--max-depth",
                "--memory",
                "--show-antipodes",
                "--symmetry",
                "--metric",
                "--goal",
                "--engine",
                "--save",
                "--threads",
            ],
        ),
        (
            vec!["bfs", "2x2x2"],
            vec!["--metric", "--symmetry", "--max-depth", "--memory"],
        ),
        (
            vec!["solve", "3x3", "8,6,7,2,5,4,3,0,1"],
            vec![
                "--timeout",
                "--max-length",
                "--effort",
                "--memory",
                "--pdb",
                "--heuristic",
                "--algorithm",
                "--goal",
                "--stages",
                "--table",
                "--cache",
                "--file",
                "--metric",
                "--threads",
            ],
        ),
        (
            vec!["solve", "2x2x2", "R U F"],
            vec![
                "--metric",
                "--max-length",
                "--timeout",
                "--table",
                "--cache",
                "--file",
            ],
        ),
        (
            vec!["scramble", "3x3"],
            vec!["--count", "--seed", "--moves", "--metric", "--cache"],
        ),
        (
            vec!["scramble", "2x2x2"],
            vec!["--count", "--seed", "--moves", "--metric"],
        ),
        (
            vec!["pdb", "build", "3x3", "--pdb", "4-4", "--cache", "pdbs"],
            vec!["--pdb", "--goal", "--memory", "--cache"],
        ),
        (vec!["info", "3x3"], vec!["--threads"]),
        (vec!["info", "3x3x3"], vec!["--threads"]),
        (vec!["bench"], vec!["--section"]),
        (vec!["scramble", "3x3"], vec!["--format"]),
        (
            vec!["verify", "3x3x3", "R", "R'"],
            vec!["--metric", "--notation"],
        ),
        (vec!["cache", "list"], vec!["--cache"]),
        (
            vec!["cache", "clean", "--dry-run"],
            vec!["--older-than", "--cache"],
        ),
    ]
}

#[test]
fn every_subcommand_survives_hostile_option_values() {
    let dir = tempfile::tempdir().unwrap();
    let values = hostile_values();
    let mut runs = 0;
    for (base, options) in cases() {
        for option in options {
            for value in &values {
                let mut args: Vec<OsString> = base.iter().map(OsString::from).collect();
                args.push(option.into());
                args.push(value.clone());
                let (out, _) = run_in(dir.path(), &args);
                check_contract(&args, &out);
                runs += 1;
            }
        }
        // The positionals (puzzle name, board) get the same treatment.
        let first = if base[0] == "pdb" { 2 } else { 1 };
        for at in (first..base.len()).filter(|&i| !base[i].starts_with("--")) {
            for value in &values {
                let mut args: Vec<OsString> = base.iter().map(OsString::from).collect();
                args[at] = value.clone();
                let (out, _) = run_in(dir.path(), &args);
                check_contract(&args, &out);
                runs += 1;
            }
        }
    }
    assert!(runs > 400, "{runs} runs");
}

#[test]
fn every_board_size_gets_an_answer_or_a_clear_refusal() {
    let dir = tempfile::tempdir().unwrap();
    let os = |v: &[&str]| v.iter().map(OsString::from).collect::<Vec<_>>();
    for size in ["2x2", "2x3", "3x3", "5x2", "6x6", "9x9", "2x2048", "64x64"] {
        let (out, _) = run_in(dir.path(), &os(&["scramble", size, "--seed", "7"]));
        check_contract(&os(&["scramble", size]), &out);
        let board = String::from_utf8_lossy(&out.stdout).trim().to_string();
        for args in [
            vec!["solve", size, board.as_str(), "--timeout", "2"],
            vec!["solve", size, board.as_str(), "--algorithm", "table"],
            vec!["bfs", size, "--max-depth", "3"],
            vec!["info", size, "--json"],
            vec!["scramble", size, "--moves", "50"],
        ] {
            let args = os(&args);
            let (out, _) = run_in(dir.path(), &args);
            check_contract(&args, &out);
        }
    }
}

#[test]
fn kind1_a_cube_string_is_solved_only_as_the_user_meant_it() {
    let spaced = "RLBF LDRB DURF FDDL URLU FBUB";
    refused(
        &["solve", "2x2x2", spaced],
        "both a 24-sticker facelet string and a 24-move sequence; say which with --facelets or --moves",
    );
    refused(
        &["solve", "2x2x2", "RLBFLDRBDURFFDDLURLUFBU"],
        "written like a facelet string with 23 stickers, not 24",
    );
    refused(
        &["solve", "3x3x3", &"RLBFUD".repeat(9)],
        "both a 54-sticker facelet string",
    );
    // Said which, each reading is solved and replayed.
    let as_stickers = json(&["solve", "2x2x2", "--facelets", spaced, "--json"]);
    let as_moves = json(&["solve", "2x2x2", "--moves", spaced, "--json"]);
    assert_ne!(as_stickers["facelets"], as_moves["facelets"]);
    // Any six characters are stickers, digits too.
    let digits = json(&["solve", "2x2x2", "000011112222333344445555", "--json"]);
    assert_eq!(digits["length"], 0);
    // Fewer than six kinds is a move sequence, however long.
    let long = json(&["solve", "2x2x2", &"RU".repeat(30), "--json"]);
    assert_eq!(long["algorithm"], "table");
}

#[test]
fn kind2_numbers_out_of_range_are_refused_when_parsed() {
    let board = "8,6,7,2,5,4,3,0,1";
    for t in ["1e300", "1e-110", "0", "-5", "NaN", "inf", "forever"] {
        refused(
            &["solve", "3x3", &format!("--timeout={t}"), board],
            "--timeout",
        );
    }
    for m in ["100T", "1e400", "-1G", "lots", "101%"] {
        refused(&["bfs", "4x4", &format!("--memory={m}")], "--memory");
    }
    refused(&["bfs", "4x4", "--memory", "100T"], "more than the");
    refused(
        &["scramble", "3x3x3", "--moves", "99999999999999"],
        "not in 0..=1000000",
    );
    refused(
        &[
            "solve",
            "3x3",
            "--algorithm",
            "subgoal",
            "--effort",
            "0",
            board,
        ],
        "not in 1..=1000",
    );
    refused(&["scramble", "3x3", "--count", "0"], "--count");
}

#[test]
fn kind3_enormous_sizes_are_refused_at_once() {
    let started = Instant::now();
    refused(&["bfs", "18446744073709551614-puzzle"], "unknown puzzle");
    refused(
        &["info", "18446744073709551615-puzzle"],
        "far larger than the 4096 cells",
    );
    refused(
        &["bfs", "99999999999x99999999999"],
        "9999999999800000000001 cells, more than the 4096",
    );
    refused(&["--threads", "99999999999", "info", "3x3"], "--threads");
    let cores = std::thread::available_parallelism().unwrap().get();
    let too_many = (cores * 4 + 1).to_string();
    refused(&["--threads", &too_many, "info", "3x3"], "--oversubscribe");
    let out = godsearch(&["--threads", &too_many, "--oversubscribe", "info", "3x3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    // Boards beyond what a search's node holds are refused, whichever heuristic (this one
    // used to panic building linear conflict for an 81-cell board).
    let scrambled = godsearch(&["scramble", "9x9", "--seed", "1"]);
    let board81 = stdout(&scrambled).trim().to_string();
    for extra in [
        &[][..],
        &["--algorithm", "ida"],
        &["--heuristic", "manhattan"],
    ] {
        let mut args = vec!["solve", "9x9", board81.as_str()];
        args.extend_from_slice(extra);
        refused(&args, "at most 64 cells");
    }
    refused(&["pdb", "build", "9x9", "--pdb", "1,2,3"], "at most");
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn kind4_an_unusable_cache_only_warns() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"not a folder").unwrap();
    // /proc takes no new folders, even from root.
    for cache in [file.to_str().unwrap(), "/proc/godsearch-cache"] {
        let out = godsearch(&["solve", "3x3", "--cache", cache, "8,6,7,2,5,4,3,0,1"]);
        assert!(out.status.success(), "{cache}: {}", stderr(&out));
        assert!(stdout(&out).contains("length     31"), "{}", stdout(&out));
        assert!(stderr(&out).contains("not cached ("), "{}", stderr(&out));
    }
    // Caching is what `pdb build` is for: there it is an error.
    let out = godsearch(&["pdb", "build", "3x3", "--pdb", "4-4", "--cache", "/proc/x"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("could not be cached"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn kind5_scrambles_stream_as_they_are_made() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_godsearch"))
        .args(["scramble", "4x4", "--count", "1000000000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let second = lines.next().unwrap().unwrap();
    assert_ne!(first, second);
    // Closing the pipe (as `| head -2` does) ends the program quietly and at once.
    drop(lines);
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(started.elapsed() < Duration::from_secs(10), "still running");
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

/// A child solving `quick` boards of the 15-puzzle (one a line), then Korf's instance 17 (66
/// moves, here for the blank-last goal), which IDA* with Manhattan distance alone takes
/// minutes over; its stdout is piped. The folder holds the file.
fn slow_batch(quick: &str) -> (tempfile::TempDir, std::process::Child) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("boards.txt");
    std::fs::write(
        &file,
        format!("{quick}17 66 4 6 14 13 7 8 11 9 3 10 15 5 12 0 2 1\n"),
    )
    .unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_godsearch"))
        .args([
            "solve",
            "4x4",
            "--algorithm",
            "ida",
            "--heuristic",
            "manhattan",
            "--file",
        ])
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    (dir, child)
}

#[test]
fn kind5_solutions_stream_as_they_are_found() {
    // The first answer must not wait for the second.
    let (_dir, mut child) = slow_batch("1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15\n");
    let stdout = child.stdout.take().unwrap();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(stdout).lines().map_while(Result::ok);
        let first = lines.by_ref().find(|l| l.starts_with("length"));
        let _ = sender.send(first);
        // Keep reading: a pipe closed here would end the child with a write error when it
        // prints the rest of its first result, and the test would blame the batch.
        lines.for_each(drop);
    });
    let first_result = receiver
        .recv_timeout(Duration::from_secs(30))
        .expect("the first result was held back")
        .expect("a length line");
    assert!(first_result.starts_with("length     1 "), "{first_result}");
    assert!(
        child.try_wait().unwrap().is_none(),
        "the batch ended already"
    );
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn kind6_save_targets_are_checked_before_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    // 3x4 takes many seconds to enumerate; a bad target is refused before that.
    let missing = dir.path().join("missing").join("t.tbl");
    let out = godsearch(&["bfs", "3x4", "--save", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no such folder"), "{}", stderr(&out));
    let fifo = dir.path().join("fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    for (target, what) in [
        (fifo.to_str().unwrap(), "is a FIFO"),
        ("/dev/null", "is a device"),
        (dir.path().to_str().unwrap(), "is a directory"),
    ] {
        let out = godsearch(&["bfs", "3x4", "--save", target]);
        assert_eq!(out.status.code(), Some(1), "{target}");
        assert!(stderr(&out).contains(what), "{}", stderr(&out));
        assert_eq!(stderr(&out).lines().count(), 1);
    }
    assert!(started.elapsed() < Duration::from_secs(5));
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    // A table read from a directory, a FIFO or a device is refused the same way (and a FIFO
    // is not opened, which would wait for a writer forever).
    let out = godsearch(&[
        "solve",
        "3x3",
        "--table",
        fifo.to_str().unwrap(),
        "123456780",
    ]);
    assert!(stderr(&out).contains("is a FIFO"), "{}", stderr(&out));
    let out = godsearch(&["solve", "3x3", "--table", "/tmp", "123456780"]);
    assert!(stderr(&out).contains("is a directory"), "{}", stderr(&out));
    // So is a file of boards that is endless or never written.
    for (puzzle, path, what) in [
        ("3x3", "/dev/zero", "is a device"),
        ("3x3x3", fifo.to_str().unwrap(), "is a FIFO"),
    ] {
        let out = godsearch(&["solve", puzzle, "--file", path]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(stderr(&out).contains(what), "{}", stderr(&out));
    }
}

#[test]
fn data_loss3_save_onto_a_symbolic_link_writes_its_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("kept").join("levels.tbl");
    std::fs::create_dir(target.parent().unwrap()).unwrap();
    std::fs::write(&target, b"an old table").unwrap();
    let link = dir.path().join("levels.tbl");
    std::os::unix::fs::symlink("kept/levels.tbl", &link).unwrap();
    let out = godsearch(&["bfs", "2x3", "--save", link.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.file_type().is_symlink(), "the link is kept");
    // The saved table is the link's target, and reads back through the link.
    let out = godsearch(&[
        "solve",
        "2x3",
        "--table",
        link.to_str().unwrap(),
        "1,2,3,4,0,5",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read(&target)
        .unwrap()
        .starts_with(b"godsearch-table"));
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 2, "no temporary file beside the link");
}

#[test]
fn kind6_an_interrupted_save_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("t.tbl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_godsearch"))
        .args(["bfs", "3x4", "--save", target.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // What the writer's half-written table looks like when the signal comes (the real one
    // appears only after the enumeration; its name carries the writer's pid).
    let partial = dir
        .path()
        .join(format!(".godsearch-{}-abc123.tmp", child.id()));
    std::fs::write(&partial, vec![0u8; 4096]).unwrap();
    // Signal only once the program catches SIGTERM (bit 15 of SigCgt in /proc), so that a slow
    // start on a busy machine cannot make the test fail.
    let status_file = format!("/proc/{}/status", child.id());
    let catches_term = || {
        std::fs::read_to_string(&status_file)
            .ok()
            .and_then(|s| {
                let line = s.lines().find(|l| l.starts_with("SigCgt:"))?.to_string();
                u64::from_str_radix(line["SigCgt:".len()..].trim(), 16).ok()
            })
            .is_some_and(|mask| mask & (1 << (15 - 1)) != 0)
    };
    let started = Instant::now();
    while !catches_term() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "no SIGTERM handler"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert!(
        status.signal() == Some(15) || status.code() == Some(128 + 15),
        "{status:?}"
    );
    assert!(!partial.exists(), "the temporary file was left behind");
    assert!(!target.exists());
}

#[test]
fn kind6_stale_temporary_files_are_cleared_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    std::fs::create_dir(&cache).unwrap();
    let stale = cache.join(".godsearch-1-dead.tmp");
    let fresh = cache.join(".godsearch-2-live.tmp");
    std::fs::write(&stale, b"left by a killed run").unwrap();
    std::fs::write(&fresh, b"being written").unwrap();
    let old = std::time::SystemTime::now() - Duration::from_secs(2 * 60 * 60);
    std::fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(old)
        .unwrap();
    let out = godsearch(&[
        "solve",
        "3x3",
        "--cache",
        cache.to_str().unwrap(),
        "8,6,7,2,5,4,3,0,1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stale.exists() && fresh.exists());
}

#[test]
fn kind7_messages_are_one_line_with_one_exit_code_rule() {
    // The argument parser's errors: one line, exit 2; help still whole.
    refused(&["bfs"], "required arguments were not provided: <PUZZLE>");
    refused(&[], "a command is needed");
    refused(
        &["bfs", "3x3", "--json", "--frobnicate"],
        "unexpected argument",
    );
    refused(
        &["bfs", "3x3", "--max-depth", "-1"],
        "unexpected argument '-1'",
    );
    let help = godsearch(&["solve", "--help"]);
    assert!(help.status.success());
    assert!(stdout(&help).lines().count() > 20);
    // A memory budget too small is bad input whatever finds it out.
    refused(
        &["bfs", "3x3", "--engine", "table", "--memory", "1K"],
        "budget",
    );
    refused(&["bfs", "2x2x2", "--memory", "1K"], "budget");
    refused(
        &[
            "pdb", "build", "4x4", "--pdb", "6-6-3", "--memory", "1M", "--cache", "/proc/x",
        ],
        "budget",
    );
    refused(
        &[
            "solve",
            "3x3",
            "--algorithm",
            "astar",
            "--memory",
            "1K",
            "8,6,7,2,5,4,3,0,1",
        ],
        "memory limit",
    );
    // Refused before anything else is said (no note about heuristics first).
    let big = "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,0,24";
    refused(
        &["solve", "5x5", "--algorithm", "astar", big],
        "A* supports boards of at most 20 cells",
    );
    // An OS error is said once; a directory is called one.
    let out = godsearch(&["solve", "3x3", "--table", "/nonexistent.tbl", "123456780"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out).matches("No such file").count(),
        1,
        "{}",
        stderr(&out)
    );
    // Long input is cut in messages, and line breaks do not break the line.
    let long = "1".repeat(100_000);
    let out = godsearch(&["solve", "3x3", &long]);
    assert!(stderr(&out).len() < 1000, "{}", stderr(&out).len());
    refused(&["solve", "3x3", "1 2 3\n4 5 6\n7 0 9"], "out of range");
    // Options that would do nothing are refused, not ignored.
    let board = "1,2,3,4,5,6,7,0,8";
    refused(
        &["solve", "3x3", "--stages", "1,2/3", board],
        "--stages is used only by --algorithm subgoal",
    );
    refused(
        &["solve", "3x3", "--effort", "3", board],
        "--effort is used only by",
    );
    refused(
        &[
            "solve",
            "3x3",
            "--algorithm",
            "table",
            "--pdb",
            "4-4",
            board,
        ],
        "--pdb is used only by",
    );
    refused(
        &[
            "solve",
            "3x3",
            "--heuristic",
            "manhattan",
            "--no-reflection",
            board,
        ],
        "--no-reflection is used only by pattern databases",
    );
    refused(
        &["solve", "2x2x2", "--cache", "x", "R"],
        "--cache is for the 3x3x3",
    );
    refused(
        &["solve", "3x3x3", "--memory", "1G", "R"],
        "--memory is used only by --algorithm half-depth",
    );
    refused(
        &["scramble", "4x4", "--cache", "x"],
        "--cache is for the 3x3x3",
    );
    // Tiles are plain numbers, one between each pair of commas.
    refused(&["solve", "3x3", "1,,2,3,4,5,6,7,8,0"], "empty entry");
    refused(
        &["solve", "3x3", "+1,2,3,4,5,6,7,8,0"],
        "'+1' is not a tile number",
    );
    // info says which boards bfs cannot enumerate, and speaks JSON.
    let out = godsearch(&["info", "7x7"]);
    assert!(
        !stdout(&out).contains("frontier engine"),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("at most 128 bits"));
    let v = json(&["info", "4x4", "--json"]);
    assert_eq!(v["positions"], "10461394944000");
    assert_eq!(v["bfs_supported"], true);
}

#[test]
fn kind5_ctrl_c_prints_the_summary_of_what_was_solved() {
    let (_dir, mut child) = slow_batch(
        "1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15\n1,2,3,4,5,6,7,8,9,10,11,12,13,0,14,15\n",
    );
    let stdout = child.stdout.take().unwrap();
    let (sender, receiver) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut seen = Vec::new();
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if line.starts_with("length     2 ") {
                let _ = sender.send(());
            }
            seen.push(line);
        }
        seen
    });
    receiver
        .recv_timeout(Duration::from_secs(30))
        .expect("the second board's result");
    common::interrupt(child.id());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), None, "ended by the signal: {status:?}");
    let seen = reader.join().unwrap();
    assert!(
        seen.iter()
            .any(|l| l.starts_with("interrupted: solved 2 boards")),
        "{seen:#?}"
    );
}

#[test]
fn kind5_a_length_that_differs_from_the_file_does_not_stop_the_batch() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k.txt");
    std::fs::write(
        &file,
        "a 31 8 6 7 2 5 4 3 0 1\nb 5 8 6 7 2 5 4 3 0 1\nc 26 2 4 0 1 8 5 3 6 7\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_godsearch"))
        .args(["solve", "3x3", "--file"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("replayed to the goal").count(), 3, "{text}");
    assert!(text.contains("BUT THE FILE SAYS 5"), "{text}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("1 boards' optimal lengths differ from the file's: b"),
        "{err}"
    );
}

#[test]
fn crash4_an_empty_korf_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "# only a comment\n").unwrap();
    refused(
        &[
            "bench",
            "--section",
            "search",
            "--korf",
            empty.to_str().unwrap(),
        ],
        "no instances",
    );
}

/// A Korf-style file read from standard input (`--korf -`) is named as such in its errors,
/// as solve's and verify's are.
#[test]
fn a_korf_file_on_standard_input_is_named_so() {
    let args = ["bench", "--section", "search", "--korf", "-"];
    refused_with_stdin(&args, "1 0 2 3 x\n", "standard input line 1: 'x'");
    let two_goals = "# goal: blank-first\n# goal: blank-last\n";
    refused_with_stdin(&args, two_goals, "standard input: line 2 declares");
}

#[test]
fn crash5_workers_processes_and_rayon_threads_are_bounded_when_read() {
    for (args, needle) in [
        (
            vec!["bfs", "2x3", "--workers", "18446744073709551615"],
            "not in 0..=1024",
        ),
        (
            vec!["bfs", "2x3", "--workers", "4294967296"],
            "not in 0..=1024",
        ),
        (vec!["bfs", "2x3", "--workers", "1000"], "a core"),
        (
            vec!["bfs", "2x3", "--processes", "100000"],
            "not in 0..=1024",
        ),
        (vec!["bfs", "2x3", "--processes", "1000"], "a core"),
    ] {
        let started = Instant::now();
        refused(&args, needle);
        assert!(started.elapsed() < Duration::from_secs(5), "{args:?}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_godsearch"))
        .args(["bfs", "2x3"])
        .env("RAYON_NUM_THREADS", "100000")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("RAYON_NUM_THREADS=100000"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn crash6_a_failed_write_to_stderr_never_changes_the_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    // A fresh cache: the run notes the databases it builds, to a full stderr, and still prints
    // its solution with success.
    let out = Command::new(env!("CARGO_BIN_EXE_godsearch"))
        .args([
            "solve",
            "3x3",
            "--cache",
            dir.path().to_str().unwrap(),
            "867254301",
        ])
        .stderr(full.try_clone().unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("solution"), "{}", stdout(&out));
    // An error is still the error's exit code, not a panic's.
    let out = Command::new(env!("CARGO_BIN_EXE_godsearch"))
        .args(["solve", "3x3", "1,1"])
        .stderr(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn contract13_apply_refuses_the_options_only_verify_uses() {
    refused(
        &["apply", "3x3x3", "--prove", "", "R U"],
        "--prove is for verify",
    );
    refused(
        &["apply", "3x3", "--table", "t.tbl", "1,2,3,4,5,6,7,8,0", "L"],
        "--table is for verify",
    );
    let out = godsearch(&["apply", "3x3x3", "", "R U"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("end"));
}

#[test]
fn contract16_unclear_inputs_are_refused_or_read_alike() {
    refused(
        &[
            "solve",
            "3x3",
            "--pdb",
            "4-4",
            "--heuristic",
            "manhattan",
            "1,2,3,4,5,6,7,0,8",
        ],
        "--pdb names pattern databases",
    );
    refused(&["solve", "3x3x3", "--moves", "[R, U, F]"], "has two parts");
    // A name with spaces around it reads the same for every puzzle.
    for name in ["2x2x2 ", " 3x3"] {
        let out = godsearch(&["scramble", name, "--seed", "1"]);
        assert!(out.status.success(), "'{name}': {}", stderr(&out));
    }
    let out = godsearch(&["solve", "2x2x2 ", "R U"]);
    assert!(
        stdout(&out).contains("solution   U' R'"),
        "{}",
        stdout(&out)
    );
}

/// `solve --file -` solves as it reads, in constant memory: each board's solution comes out
/// while standard input is still open (an endless `yes BOARD` is a stream, not a file to read
/// whole), for boards and cubes alike.
#[test]
fn contract15_solve_file_stdin_streams() {
    for (puzzle, line, expected) in [("3x3", "1,2,3,4,5,6,7,0,8", "R"), ("2x2x2", "R U", "U' R'")] {
        let args = ["solve", puzzle, "--moves-only", "--file", "-"];
        feed_line_by_line(&args, line, |answer| {
            assert_eq!(answer.trim(), expected, "{puzzle}")
        });
    }
}

/// Runs the command with `args`, writes `line` to its standard input three times, and checks
/// each answer with `check` before the next line is written (so the command must answer as
/// it reads); then closes its input and expects success.
fn feed_line_by_line(args: &[&str], line: &str, check: impl Fn(&str)) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_godsearch"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..3 {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        stdout.read_line(&mut answer).unwrap();
        check(&answer);
    }
    drop(stdin);
    assert!(child.wait().unwrap().success(), "{args:?}");
}

/// `verify --file -` checks each line as it is read, as `solve --file -` does: an answer
/// comes back for a line before the next is written (it read the whole input first before).
#[test]
fn contract15_verify_file_stdin_streams() {
    let args = ["verify", "3x3", "--json", "--file", "-"];
    feed_line_by_line(&args, "1,2,3,4,5,6,0,7,8 RR", |answer| {
        let report: serde_json::Value = serde_json::from_str(answer).unwrap();
        assert_eq!(report["reaches_goal"], true, "{answer}");
        assert_eq!(report["optimal"], true, "{answer}");
    });
}
