//! The `godsearch` binary as a user meets it: outputs, saved tables, and every bad-input case
//! (one clear line on stderr, exit code 2, never a panic).

use crate::common;

use common::{
    godsearch, json, json_lines, levels_of, refused, refused_with_stdin, stderr, stdout, with_stdin,
};
use godsearch_testdata::levels;
use std::path::Path;

#[test]
fn bfs_json_matches_the_published_eight_puzzle() {
    let v = json(&["bfs", "3x3", "--json"]);
    assert_eq!(levels_of(&v), levels("sliding-3x3.txt"));
    assert_eq!(v["total"], 181_440);
    assert_eq!(v["diameter"], 31);
    assert_eq!(v["bytes_per_state"], 0.25, "2 bits a position");
    assert_eq!(v["complete"], true);
    assert_eq!(
        v["antipodes"],
        serde_json::json!(["6,4,7,8,5,0,3,2,1", "8,6,7,2,5,4,3,0,1"])
    );
    for field in [
        "puzzle", "levels", "total", "diameter", "complete", "seconds",
    ] {
        assert!(v.get(field).is_some(), "missing {field}");
    }
}

#[test]
fn bfs_count_last_counts_the_level_it_does_not_store() {
    let published = levels("sliding-4x4.txt");
    let v = json(&["bfs", "4x4", "--max-depth", "20", "--count-last", "--json"]);
    assert_eq!(levels_of(&v), published[..=20]);
    assert_eq!(v["last_counted_only"], true);
    assert_eq!(v["engine"], "frontier");
    assert_eq!(v["bytes_per_state"], 8.0, "a 64-bit rank a state");
    // The level that does not fit in memory is counted rather than dropped.
    let tight = json(&["bfs", "4x4", "--memory", "1M", "--count-last", "--json"]);
    let n = levels_of(&tight).len();
    assert_eq!(levels_of(&tight), published[..n]);
    assert_eq!(tight["last_counted_only"], true);
    let stored = json(&["bfs", "4x4", "--memory", "1M", "--json"]);
    assert_eq!(levels_of(&stored).len(), n - 1);
    let out = godsearch(&["bfs", "3x3", "--max-depth", "9", "--count-last"]);
    assert!(
        stdout(&out).contains("level 9 was counted without being stored"),
        "{}",
        stdout(&out)
    );
    let cube = json(&["bfs", "2x2x2", "--max-depth", "6", "--count-last", "--json"]);
    assert_eq!(levels_of(&cube), levels("cube2x2x2-htm.txt")[..=6]);
    refused(
        &["bfs", "3x3", "--count-last", "--engine", "table"],
        "only the frontier engine",
    );
    refused(
        &["bfs", "3x3", "--count-last", "--save", "x.tbl"],
        "do not go together",
    );
}

/// The lines of `err` written out for a log (`--progress-every`): each after the time of day it
/// was written, which is checked and taken off.
fn logged_lines(err: &str) -> Vec<&str> {
    err.lines()
        .filter_map(|line| {
            let (stamp, text) = line.split_once(' ')?;
            humantime::parse_rfc3339(stamp).ok()?;
            Some(text)
        })
        .collect()
}

/// Off a terminal the level bar is not drawn; --progress-every writes the level under way out
/// whole for a log, and the counts are those of the run without it.
#[test]
fn bfs_in_the_background_logs_its_levels() {
    let published = levels("sliding-4x4.txt");
    // About two seconds on two cores: the line is written from the first second on.
    let run = ["bfs", "4x4", "--max-depth", "25", "--json"];
    let out = godsearch(&[&run[..], &["--progress-every", "0.25"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    let lines = logged_lines(&err);
    assert_eq!(lines.len(), err.lines().count(), "{err}");
    let depths: Vec<u32> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("depth ")?.split(' ').next()?.parse().ok())
        .collect();
    assert!(!depths.is_empty(), "{err}");
    assert!(depths.iter().all(|&depth| depth <= 25), "{err}");
    assert!(lines.iter().all(|l| l.contains("%), ")), "{err}");
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(levels_of(&v), published[..=25]);
    assert!(!stderr(&godsearch(&run)).contains("depth"));
    // On disk each line names the level's phase: its bar starts again for the buckets written,
    // which read as the level begun anew when unnamed (`depth 25 (0%)` after `depth 25:
    // expanding ... (75%)`).
    let dir = tempfile::tempdir().unwrap();
    let workdir = dir.path().join("levels");
    let on_disk = [
        &run[..],
        &[
            "--workdir",
            workdir.to_str().unwrap(),
            "--progress-every",
            "0.25",
        ],
    ]
    .concat();
    let out = godsearch(&on_disk);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    let lines = logged_lines(&err);
    assert!(!lines.is_empty(), "{err}");
    for line in lines {
        let phase = line.split_once(": ").map(|(_, phase)| phase);
        assert!(
            phase.is_some_and(|p| p.starts_with("expanding") || p.starts_with("writing")),
            "{err}"
        );
    }
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(levels_of(&v), published[..=25]);
}

#[test]
fn bfs_human_output_lists_levels_and_antipodes() {
    let out = godsearch(&["bfs", "8-puzzle"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("181,440"), "{text}");
    assert!(text.contains("diameter 31"), "{text}");
    assert!(text.contains("antipodes (2)"), "{text}");
}

#[test]
fn bfs_other_goals_and_limits() {
    let centre = json(&["bfs", "3x3", "--goal", "1,2,3,4,0,5,6,7,8", "--json"]);
    assert_eq!(levels_of(&centre), levels("sliding-3x3-center.txt"));
    let partial = json(&["bfs", "4x4", "--max-depth", "12", "--json"]);
    assert_eq!(levels_of(&partial), levels("sliding-4x4.txt")[..=12]);
    assert_eq!(partial["complete"], false);
    assert_eq!(partial["engine"], "frontier");
    assert!(partial["diameter"].is_null());
    let tight = json(&["bfs", "4x4", "--memory", "1M", "--json"]);
    assert_eq!(tight["complete"], false);
    assert!(
        tight["stopped"].as_str().unwrap().contains("did not fit"),
        "{tight}"
    );
    let n = levels_of(&tight).len();
    assert_eq!(levels_of(&tight), levels("sliding-4x4.txt")[..n]);
    let forced = json(&["bfs", "2x4", "--engine", "frontier", "--json"]);
    assert_eq!(levels_of(&forced), levels("sliding-2x4.txt"));
}

#[test]
fn saved_table_solves_optimally_and_damaged_tables_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("8.tbl");
    let t = table.to_str().unwrap();
    assert!(godsearch(&["bfs", "3x3", "--save", t]).status.success());
    let v = json(&["solve", "3x3", "--table", t, "--json", "867254301"]);
    assert_eq!(v["length"], 31);
    assert_eq!(v["optimal"], true);
    let out = godsearch(&[
        "solve", "3x3", "--table", t, "2", "4", "0", "1", "8", "5", "3", "6", "7",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("replayed"));
    let solved = json(&["solve", "3x3", "--table", t, "--json", "123456780"]);
    assert_eq!(solved["algorithm"], "table");
    assert_eq!(solved["length"], 0);

    // A table for another goal, a truncated table, and a file that is not a table.
    refused_file(
        &[
            "solve",
            "3x3",
            "--goal",
            "0,1,2,3,4,5,6,7,8",
            "--table",
            t,
            "123456780",
        ],
        "not tiles 3x3 goal 0,1",
    );
    let bytes = std::fs::read(&table).unwrap();
    let cut = dir.path().join("cut.tbl");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    refused_file(
        &[
            "solve",
            "3x3",
            "--table",
            cut.to_str().unwrap(),
            "123456780",
        ],
        "truncated",
    );
    let junk = dir.path().join("junk.tbl");
    std::fs::write(&junk, b"hello").unwrap();
    refused_file(
        &[
            "solve",
            "3x3",
            "--table",
            junk.to_str().unwrap(),
            "123456780",
        ],
        "not a godsearch table",
    );
    let flipped = dir.path().join("flipped.tbl");
    let mut damaged = bytes.clone();
    damaged[bytes.len() / 2] ^= 0x10;
    std::fs::write(&flipped, &damaged).unwrap();
    refused_file(
        &[
            "solve",
            "3x3",
            "--table",
            flipped.to_str().unwrap(),
            "123456780",
        ],
        "checksum",
    );
    let seven = dir.path().join("7.tbl");
    assert!(
        godsearch(&["bfs", "2x4", "--save", seven.to_str().unwrap()])
            .status
            .success()
    );
    refused_file(
        &[
            "solve",
            "3x3",
            "--table",
            seven.to_str().unwrap(),
            "123456780",
        ],
        "tiles 2x4",
    );
    assert!(!Path::new(&dir.path().join("missing.tbl")).exists());
    refused_file(
        &[
            "solve",
            "3x3",
            "--table",
            dir.path().join("missing.tbl").to_str().unwrap(),
            "123456780",
        ],
        "No such file",
    );
}

/// A table problem: exit code 1 (not bad input), one line naming the cause.
fn refused_file(args: &[&str], needle: &str) {
    let out = godsearch(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: expected '{needle}' in: {err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn every_algorithm_and_heuristic_agrees_on_small_boards() {
    let board = "8,6,7,2,5,4,3,0,1";
    let default = json(&["solve", "3x3", "--json", board]);
    assert_eq!(default["length"], 31);
    assert_eq!(default["algorithm"], "astar");
    assert_eq!(default["heuristic"], "pdb 4-4 + reflection");
    let table = json(&["solve", "3x3", "--json", "--algorithm", "table", board]);
    assert_eq!(table["length"], 31);
    refused(
        &[
            "solve",
            "3x3",
            "--algorithm",
            "table",
            "--heuristic",
            "pdb",
            board,
        ],
        "--heuristic is used only by IDA* and A*, not by --algorithm table",
    );
    for algorithm in ["ida", "astar", "parallel-ida"] {
        for heuristic in ["manhattan", "linear-conflict", "pdb"] {
            let v = json(&[
                "solve",
                "3x3",
                "--json",
                "--algorithm",
                algorithm,
                "--heuristic",
                heuristic,
                board,
            ]);
            assert_eq!(v["length"], 31, "{algorithm} {heuristic}");
            assert_eq!(v["optimal"], true);
        }
    }
    let v = json(&[
        "solve",
        "2x4",
        "--json",
        "--algorithm",
        "table",
        "0,7,6,5,4,3,2,1",
    ]);
    assert!(v["length"].as_u64().unwrap() <= 36);
    refused(
        &["solve", "4x4", "--algorithm", "table", "123456789ABCDEF0"],
        "distance table",
    );
    refused(
        &[
            "solve",
            "3x3",
            "--table",
            "x.tbl",
            "--algorithm",
            "ida",
            "123456780",
        ],
        "--table",
    );
    refused(
        &["solve", "3x3", "--pdb", "9-9", "123456780"],
        "unknown partition",
    );
    refused(
        &["solve", "3x3", "--pdb", "1,2/2,3", "123456780"],
        "more than once",
    );
}

#[test]
fn korf_file_lines_are_solved_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let korf = godsearch_testdata::data_dir().join("korf100.txt");
    let text = std::fs::read_to_string(korf).unwrap();
    let easy: Vec<&str> = text
        .lines()
        .filter(|l| ["55 ", "16 ", "42 "].iter().any(|id| l.starts_with(id)))
        .collect();
    // The file declares its goal, as korf100.txt does: no --goal needed.
    let file = dir.path().join("easy.txt");
    let lines = easy.join("\n");
    std::fs::write(
        &file,
        format!("# three easy ones\n# goal: blank-first\n{lines}\n"),
    )
    .unwrap();
    let goal = "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15";
    let docs = json_lines(&[
        "solve",
        "4x4",
        "--pdb",
        "5-5-5",
        "--json",
        "--file",
        file.to_str().unwrap(),
    ]);
    assert_eq!(docs.len(), 4, "three solutions and a summary");
    for d in &docs[..3] {
        assert_eq!(d["length"], d["expected_length"]);
        // The report names the goal its length is for, which is not the default.
        assert_eq!(d["goal"], goal);
        assert_eq!(d["algorithm"], "parallel-ida");
        assert!(d["thresholds"].as_array().unwrap().len() >= 2);
        let per_iteration: Vec<u64> = d["iteration_expanded"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .collect();
        assert_eq!(
            per_iteration.len(),
            d["thresholds"].as_array().unwrap().len()
        );
        assert_eq!(per_iteration.iter().sum::<u64>(), d["nodes_expanded"]);
    }
    assert_eq!(docs[3]["summary"], true);
    assert_eq!(docs[3]["solved"], 3);
    let human = stdout(&godsearch(&[
        "solve",
        "4x4",
        "--goal",
        goal,
        "--pdb",
        "5-5-5",
        "--file",
        file.to_str().unwrap(),
    ]));
    assert!(human.contains("solved 3 boards"), "{human}");
    assert_eq!(human.matches(&format!("goal       {goal}\n")).count(), 3);
    // Another goal than the file's is refused before any search; without the declaration the
    // boards (of this even width) cannot reach the default goal, and are refused for parity.
    refused(
        &[
            "solve",
            "4x4",
            "--goal",
            "blank-last",
            "--file",
            file.to_str().unwrap(),
        ],
        "is not the goal",
    );
    let undeclared = dir.path().join("undeclared.txt");
    std::fs::write(&undeclared, format!("{lines}\n")).unwrap();
    refused(
        &[
            "solve",
            "4x4",
            "--pdb",
            "5-5-5",
            "--file",
            undeclared.to_str().unwrap(),
        ],
        "undeclared.txt line 1",
    );
    refused(
        &["solve", "pancake-16", "--file", file.to_str().unwrap()],
        "declares a goal (blank-first), which only boards have",
    );
    // Two declarations of different goals: refused, naming both lines.
    let two_goals = dir.path().join("two-goals.txt");
    std::fs::write(
        &two_goals,
        format!("# goal: blank-first\n{lines}\n# goal: blank-last\n"),
    )
    .unwrap();
    refused(
        &["solve", "4x4", "--file", two_goals.to_str().unwrap()],
        "two-goals.txt: line 5 declares the goal blank-last, and line 1 another (blank-first)",
    );

    // A wrong length in the file is reported and fails the run: exit 1, naming the instance.
    let wrong = dir.path().join("wrong.txt");
    let fifty_five = easy.iter().find(|l| l.starts_with("55 41 ")).unwrap();
    std::fs::write(&wrong, fifty_five.replacen("55 41 ", "55 40 ", 1)).unwrap();
    let out = godsearch(&[
        "solve",
        "4x4",
        "--goal",
        goal,
        "--pdb",
        "5-5-5",
        "--file",
        wrong.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("BUT THE FILE SAYS 40"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("differ from the file's: 55"),
        "{}",
        stderr(&out)
    );
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "1 2 3\n").unwrap();
    refused(
        &["solve", "4x4", "--file", bad.to_str().unwrap()],
        "bad.txt line 1",
    );
}

#[test]
fn pattern_databases_are_cached_and_stale_files_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().to_str().unwrap();
    let first = stdout(&godsearch(&[
        "pdb", "build", "3x3", "--pdb", "4-4", "--cache", cache,
    ]));
    assert_eq!(first.matches("built in").count(), 2, "{first}");
    let again = stdout(&godsearch(&[
        "pdb", "build", "3x3", "--pdb", "4-4", "--cache", cache,
    ]));
    assert_eq!(again.matches("already cached").count(), 2, "{again}");
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        let mut bytes = std::fs::read(&path).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0xFF;
        std::fs::write(&path, bytes).unwrap();
    }
    let rebuilt = stdout(&godsearch(&[
        "pdb", "build", "3x3", "--pdb", "4-4", "--cache", cache,
    ]));
    assert_eq!(rebuilt.matches("checksum").count(), 2, "{rebuilt}");
    let v = json(&[
        "solve",
        "3x3",
        "--cache",
        cache,
        "--pdb",
        "4-4",
        "--json",
        "867254301",
    ]);
    assert_eq!(v["length"], 31);
}

#[test]
fn bad_boards_are_refused_with_the_reason() {
    refused(
        &["solve", "3x3", "1,2,3"],
        "a 3x3 board has 9 cells but the board given has 3",
    );
    refused(
        &["solve", "3x3", "1,2,3,4,5,6,7,8,8"],
        "tile 8 appears more than once and tile 0 is missing",
    );
    refused(
        &["solve", "3x3", "1,2,3,4,5,6,7,8,9"],
        "tile 9 is out of range",
    );
    refused(
        &["solve", "3x3", "1,2,3,4,x,6,7,8,0"],
        "'x' is not a tile number",
    );
    refused(&["solve", "3x3", "2,1,3,4,5,6,7,8,0"], "unsolvable");
    refused(
        &["solve", "4x4", "2,1,3,4,5,6,7,8,9,10,11,12,13,14,15,0"],
        "even width",
    );
    refused(&["solve", "3x3", "12345678"], "8 digits");
    refused(&["solve", "3x3", ""], "empty board");
    refused(&["bfs", "3x3", "--goal", "1,1,2,3,4,5,6,7,8"], "--goal");
}

#[test]
fn bad_options_are_refused() {
    refused(&["bfs", "cube7"], "unknown puzzle");
    refused(&["bfs", "1x9"], "at least 2");
    refused(&["bfs", "6x6"], "128 bits");
    refused(&["bfs", "3x3", "--memory", "lots"], "not a memory size");
    refused(&["bfs", "4x4", "--save", "x.tbl"], "needs the table engine");
    refused(
        &["bfs", "4x4", "--engine", "table", "--memory", "1G"],
        "--engine frontier",
    );
    refused(&["--threads", "0", "bfs", "3x3"], "0 is not in 1..=1024");
    assert_eq!(
        godsearch(&["bfs"]).status.code(),
        Some(2),
        "clap usage errors exit 2 too"
    );
}

/// `bench --against` times two builds side by side (here the same one) on a command, and a
/// run that fails stops it with that run's own error.
#[test]
fn bench_against_times_two_builds_side_by_side() {
    let this = env!("CARGO_BIN_EXE_godsearch");
    let out = godsearch(&[
        "bench",
        "--against",
        this,
        "--pairs",
        "2",
        "--",
        "bfs",
        "2x3",
    ]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    let pairs: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with(['1', '2']))
        .collect();
    assert_eq!(pairs.len(), 2, "{text}");
    assert!(text.contains("new/old: median"), "{text}");
    let failed = godsearch(&["bench", "--against", this, "--", "bfs", "cube7"]);
    assert!(!failed.status.success());
    assert!(
        stderr(&failed).contains("unknown puzzle"),
        "{}",
        stderr(&failed)
    );
    refused(&["bench", "--pairs", "2"], "--against");
    refused(&["bench", "--against", this], "COMMAND");
}

#[test]
fn info_computes_the_storage_table() {
    let out = godsearch(&["info", "15-puzzle"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("10,461,394,944,000 = 16!/2"), "{text}");
    assert!(text.contains("bits in a perfect rank        44"), "{text}");
    assert!(text.contains("80 moves"), "{text}");
    assert!(text.contains("2.4 TiB"), "{text}");
    let big = stdout(&godsearch(&["info", "30x30"]));
    assert!(big.contains("not known"), "{big}");
    // Counts of more than 30 digits as a power of ten, in full with --exact.
    let ten = stdout(&godsearch(&["info", "10x10"]));
    assert!(ten.contains("4.67e157 (158 digits"), "{ten}");
    let exact = stdout(&godsearch(&["info", "10x10", "--exact"]));
    assert!(exact.contains("46,663,107,721,972,076,340"), "{exact}");
    assert!(exact.contains(",000,000 = 100!/2"), "{exact}");
}

#[test]
fn info_describes_the_cubes() {
    let three = json(&["info", "3x3x3", "--json"]);
    assert_eq!(three["positions"], "43252003274489856000");
    assert_eq!(three["rank_bits"], 66);
    assert_eq!(three["symmetry_classes"], "901083404981813616");
    let gods: Vec<(u64, bool)> = three["gods_numbers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["moves"].as_u64().unwrap(), g["exact"].as_bool().unwrap()))
        .collect();
    // htm and qtm proven; stm bounded by htm's.
    assert_eq!(gods, [(20, true), (26, true), (20, false)]);
    // The 2x2x2's figures agree with its published distributions.
    let two = json(&["info", "2x2x2", "--json"]);
    for (metric, file) in [("htm", "cube2x2x2-htm.txt"), ("qtm", "cube2x2x2-qtm.txt")] {
        let published = levels(file);
        assert_eq!(
            two["positions"].as_str().unwrap(),
            published.iter().sum::<u64>().to_string()
        );
        let god = two["gods_numbers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["metric"] == metric)
            .unwrap()["moves"]
            .as_u64()
            .unwrap();
        assert_eq!(god as usize, published.len() - 1, "{metric}");
    }
    let text = stdout(&godsearch(&["info", "3x3x3"]));
    assert!(text.contains("43,252,003,274,489,856,000 = 8!"), "{text}");
    assert!(
        text.contains("God's number, qtm             26 moves"),
        "{text}"
    );
}

#[test]
fn subgoal_solvers_give_checked_non_optimal_solutions() {
    let v = json(&[
        "solve",
        "3x3",
        "--algorithm",
        "two-stage",
        "--json",
        "867254301",
    ]);
    assert_eq!(v["optimal"], false);
    assert!(v["length"].as_u64().unwrap() >= 31);
    let korf = godsearch_testdata::data_dir().join("korf100-blank-last.txt");
    let docs = json_lines(&[
        "solve",
        "4x4",
        "--algorithm",
        "subgoal",
        "--json",
        "--file",
        korf.to_str().unwrap(),
    ]);
    let summary = docs.last().unwrap();
    assert_eq!(summary["solved"], 100);
    assert_eq!(summary["mean_expected_length"], 53.05);
    let mean = summary["mean_length"].as_f64().unwrap();
    assert!(
        mean <= 64.0,
        "mean length {mean} over 20% above the optimal 53.05"
    );
    for d in &docs[..100] {
        assert!(d["length"].as_u64() >= d["expected_length"].as_u64(), "{d}");
    }
    let wide = json(&[
        "solve",
        "7x3",
        "--algorithm",
        "subgoal",
        "--stages",
        "1,8,15/2,9,16",
        "--json",
        "0,20,19,18,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1",
    ]);
    assert_eq!(wide["optimal"], false);
    // The time line counts the stages; --verbose writes them out.
    let board = "6,18,24,5,19,14,20,10,0,2,11,12,15,7,8,16,9,1,21,22,13,4,23,3,17";
    let short = stdout(&godsearch(&[
        "solve",
        "5x5",
        "--algorithm",
        "subgoal",
        board,
    ]));
    assert!(
        short.contains("plans of 6 stages; --verbose lists them"),
        "{short}"
    );
    let long = stdout(&godsearch(&[
        "solve",
        "5x5",
        "--algorithm",
        "subgoal",
        "--verbose",
        board,
    ]));
    assert!(long.contains("(subgoal, stages 1,"), "{long}");
    refused(
        &["solve", "3x3", "--verbose", "867254301"],
        "--verbose is used only by",
    );
    refused(
        &[
            "solve",
            "4x4",
            "--algorithm",
            "two-stage",
            "123456789ABCDEF0",
        ],
        "3x3",
    );
    refused(
        &[
            "solve",
            "4x4",
            "--algorithm",
            "subgoal",
            "--stages",
            "1,2/2",
            "123456789ABCDEF0",
        ],
        "more than one stage",
    );
}

#[test]
fn a_slow_default_heuristic_says_how_to_cache_a_strong_one() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().to_str().unwrap();
    let easy = "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,0,24";
    let out = godsearch(&["solve", "5x5", easy, "--cache", cache]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("linear-conflict"), "{}", stdout(&out));
    let hint = format!("`godsearch pdb build 5x5 --pdb 6-6-6-6 --cache {cache}`");
    assert!(stderr(&out).contains(&hint), "{}", stderr(&out));
}

#[test]
fn timeout_reports_a_proven_lower_bound_and_goes_on() {
    let hard = "9,7,24,2,6,4,23,0,20,17,11,14,10,15,19,1,12,8,5,21,22,13,16,3,18";
    let easy = "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,0,24";
    let out = godsearch(&[
        "solve",
        "5x5",
        "--heuristic",
        "manhattan",
        "--timeout",
        "0.3",
        hard,
        easy,
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("1 of 2 boards ran past --timeout"));
    let docs: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(docs[0]["timed_out"], true);
    assert!(docs[0]["lower_bound"].as_u64().unwrap() >= 60);
    assert_eq!(docs[1]["length"], 1);
    assert_eq!(docs[2]["solved"], 1);
    assert_eq!(docs[2]["timed_out"], 1);
    refused(
        &["solve", "3x3", "123456780", "--timeout", "0"],
        "positive number",
    );
    refused(
        &[
            "solve",
            "4x4",
            "123456789ABCDEF0",
            "--algorithm",
            "astar",
            "--timeout",
            "1",
        ],
        "--timeout is used only by IDA*",
    );
}

/// The lengths of the solutions of a `--json` run's output.
fn lengths(out: &std::process::Output) -> Vec<u64> {
    stdout(out)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["length"].as_u64())
        .collect()
}

/// `scramble --goal` draws boards that reach that goal: on the 4x2 (even width, the blank's
/// rows of the two goals one apart) no board reaches both, so the default goal refuses them.
#[test]
fn scrambles_are_drawn_for_the_goal_asked() {
    let args = ["scramble", "4x2", "--goal", "blank-first", "--count", "20"];
    let boards = stdout(&godsearch(&[&args[..], &["--seed", "1"]].concat()));
    assert_eq!(boards.lines().count(), 20, "{boards}");
    let solve = [
        "solve",
        "4x2",
        "--goal",
        "blank-first",
        "--file",
        "-",
        "--json",
    ];
    let out = with_stdin(&solve, &boards);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(lengths(&out).len(), 20);
    refused_with_stdin(
        &["solve", "4x2", "--file", "-"],
        &boards,
        "standard input line 1: board",
    );
    // A walk starts from the goal: of no moves, it is the goal.
    let walk = stdout(&godsearch(&[
        "scramble",
        "3x3",
        "--goal",
        "blank-first",
        "--moves",
        "0",
    ]));
    assert_eq!(walk.trim(), "0,1,2,3,4,5,6,7,8");
    refused(
        &["scramble", "3x3x3", "--goal", "blank-first"],
        "--goal is for sliding-tile boards",
    );
}

#[test]
fn boards_come_from_standard_input_and_as_json_arrays() {
    let from_stdin = ["solve", "3x3", "--file", "-", "--json"];
    let out = with_stdin(&from_stdin, "8,6,7,2,5,4,3,0,1\n[1,2,3,4,5,6,7,0,8]\n");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(lengths(&out), [31, 1]);
    // A goal declared on standard input cannot be read ahead: refused where no --goal is given,
    // rather than the boards solved for the default goal.
    let korf_goal = "# goal: blank-first\n1,0,2,3,4,5,6,7,8\n";
    refused_with_stdin(
        &from_stdin,
        korf_goal,
        "standard input line 1 declares the goal blank-first",
    );
    let out = with_stdin(
        &[&from_stdin[..], &["--goal", "blank-first"]].concat(),
        korf_goal,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(lengths(&out), [1]);
    let v = json(&["solve", "3x3", "[2,4,0,1,8,5,3,6,7]", "--json"]);
    assert_eq!(v["start"], "2,4,0,1,8,5,3,6,7", "a list stays a list");
    let v = json(&["solve", "3x3", "240185367", "--json"]);
    assert_eq!(v["start"], "240185367", "hex stays hex");
    assert!(
        v.get("goal").is_none(),
        "the default goal is not named: {v}"
    );
    let v = json(&[
        "solve",
        "3x3",
        "102345678",
        "--goal",
        "blank-first",
        "--json",
    ]);
    assert_eq!(
        v["goal"], "012345678",
        "another goal is named as the start is written"
    );
    refused(&["solve", "3x3", "[2,4,0,1"], "not a tile number");
}

#[test]
fn completions_and_the_manual_page_are_generated() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = godsearch(&["completions", shell]);
        assert!(out.status.success(), "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        assert!(script.contains("godsearch"), "{shell}");
        assert!(
            script.contains("verify"),
            "{shell}: every subcommand completes"
        );
    }
    // The bash script parses, where bash is installed.
    let script = stdout(&godsearch(&["completions", "bash"]));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("godsearch.bash");
    std::fs::write(&path, script).unwrap();
    if let Ok(check) = std::process::Command::new("bash")
        .arg("-n")
        .arg(&path)
        .output()
    {
        assert!(check.status.success(), "{}", stderr(&check));
    }
    let page = stdout(&godsearch(&["man"]));
    assert!(page.contains(".TH godsearch 1"), "{page}");
    assert!(page.contains("verify"), "the subcommands are listed");
    refused(&["completions", "tcsh"], "invalid value");
}

#[test]
fn solutions_written_as_tiles_or_tile_directions_with_run_lengths() {
    let start = "8,6,7,2,5,4,3,0,1";
    let plain = json(&["solve", "3x3", start, "--json"]);
    let blank = plain["solution"].as_str().unwrap().to_string();
    assert!(plain.get("written").is_none(), "only when asked for");
    let tiles = json(&["solve", "3x3", start, "--as", "tiles", "--json"]);
    assert_eq!(
        tiles["solution"],
        blank.as_str(),
        "the JSON keeps the blank's moves"
    );
    let moved: Vec<&str> = tiles["written"].as_str().unwrap().split(' ').collect();
    assert_eq!(moved.len(), 31);
    assert_eq!(
        moved[0], "3",
        "the blank goes left first: tile 3 slides right"
    );
    let directions = json(&["solve", "3x3", start, "--as", "tile-directions", "--json"]);
    let flipped: String = blank
        .chars()
        .map(|c| match c {
            'U' => 'D',
            'D' => 'U',
            'L' => 'R',
            _ => 'L',
        })
        .collect();
    assert_eq!(directions["written"], flipped.as_str());
    // Run lengths expand back to the same letters.
    let runs = json(&["solve", "3x3", start, "--runs", "--json"]);
    let expanded: String = runs["written"]
        .as_str()
        .unwrap()
        .split(' ')
        .map(|run| {
            let (letter, count) = run.split_at(1);
            letter.repeat(count.parse().unwrap_or(1))
        })
        .collect();
    assert_eq!(expanded, blank);
    refused(
        &["solve", "3x3", start, "--as", "tiles", "--runs"],
        "--runs",
    );
    refused(
        &["solve", "3x3x3", "--moves", "R U", "--as", "tiles"],
        "--as",
    );
}

#[test]
fn half_depth_agrees_with_ida_on_korf_boards_within_twice_its_depth() {
    // Korf's boards of at most 42 moves (4 of the 100), met with the positions within 21 moves
    // of the goal; each length is checked against the file's, and against IDA* here.
    let dir = tempfile::tempdir().unwrap();
    let korf = godsearch_testdata::data_dir().join("korf100.txt");
    let text = std::fs::read_to_string(korf).unwrap();
    let near: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter(|l| {
            l.split_whitespace()
                .nth(1)
                .is_some_and(|n| n.parse::<u32>().unwrap() <= 42)
        })
        .collect();
    assert_eq!(near.len(), 4);
    let file = dir.path().join("near.txt");
    std::fs::write(&file, near.join("\n")).unwrap();
    let goal = "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15";
    let solve = |extra: &[&str]| -> Vec<u64> {
        let mut args = vec![
            "solve",
            "4x4",
            "--goal",
            goal,
            "--json",
            "--file",
            file.to_str().unwrap(),
        ];
        args.extend(extra);
        let docs = json_lines(&args);
        docs[..4]
            .iter()
            .map(|d| d["length"].as_u64().unwrap())
            .collect()
    };
    let half = solve(&["--algorithm", "half-depth", "--depth", "21"]);
    let ida = solve(&["--algorithm", "ida", "--pdb", "5-5-5"]);
    assert_eq!(half, ida);
    // Beyond twice the depth: a lower bound, exit code 1.
    let out = godsearch(&[
        "solve",
        "4x4",
        "--goal",
        goal,
        "--algorithm",
        "half-depth",
        "--depth",
        "12",
        "--file",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("every solution has at least 25 moves"),
        "{}",
        stdout(&out)
    );
    refused(
        &["solve", "3x3", "--depth", "5", "123456780"],
        "--algorithm half-depth",
    );
}

/// Korf's instance 1 of the 15-puzzle (blank-first goal): 57 moves, about 100 M nodes with
/// Manhattan distance.
const KORF_1: &str = "14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3";
/// Korf and Felner's #1 (95 moves), to the blank-first goal ([`blank_first_goal_5x5`]).
const KORF_FELNER_1: &str = "14,5,9,2,18,8,23,19,12,17,15,0,10,20,4,6,11,21,1,7,24,3,16,22,13";

/// The 24-puzzle's blank-first goal, as `--goal` takes it.
fn blank_first_goal_5x5() -> String {
    (0..25).map(|t| t.to_string()).collect::<Vec<_>>().join(",")
}

/// `solve` of Korf and Felner's #1 with Manhattan distance to the blank-first goal (`goal`,
/// [`blank_first_goal_5x5`]): a search of hours, to be stopped; options go after it.
fn korf_felner_1_by_manhattan(goal: &str) -> [&str; 7] {
    [
        "solve",
        "5x5",
        "--goal",
        goal,
        "--heuristic",
        "manhattan",
        KORF_FELNER_1,
    ]
}

/// Whether `file` exists within `seconds` (looked at every 20 ms).
fn appears(file: &Path, seconds: u64) -> bool {
    let started = std::time::Instant::now();
    while !file.exists() && started.elapsed() < std::time::Duration::from_secs(seconds) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    file.exists()
}

/// `solve` on a 15-puzzle board to the blank-first goal with `algorithm` and Manhattan
/// distance.
fn solve_korf_1<'a>(algorithm: &'a str, board: &'a str) -> [&'a str; 9] {
    let goal = "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15";
    let heuristic = "manhattan";
    [
        "solve",
        "4x4",
        "--goal",
        goal,
        "--heuristic",
        heuristic,
        "--algorithm",
        algorithm,
        board,
    ]
}

/// A search stopped by --timeout says the bound it proved; --resume-from that bound starts
/// there (none of the finished iterations again) and ends with the optimal length.
#[test]
fn a_search_stopped_at_its_timeout_resumes_from_its_bound() {
    let base = solve_korf_1("ida", KORF_1);
    let stopped = godsearch(&[&base[..], &["--timeout", "0.2", "--json"]].concat());
    assert_eq!(stopped.status.code(), Some(1));
    let report: serde_json::Value =
        serde_json::from_str(stdout(&stopped).lines().next().unwrap()).unwrap();
    assert_eq!(report["timed_out"], true);
    let bound = report["lower_bound"].as_u64().unwrap();
    assert!((41..=57).contains(&bound), "{report}");
    let bound_text = bound.to_string();
    let resumed = json(&[&base[..], &["--resume-from", &bound_text, "--json"]].concat());
    assert_eq!(resumed["length"], 57);
    assert_eq!(resumed["resumed_from"], bound);
    assert_eq!(resumed["thresholds"][0], bound);
    let human = stdout(&godsearch(&[&base[..], &["--timeout", "0.2"]].concat()));
    assert!(human.contains("continue   with --resume-from"), "{human}");
    refused(
        &[
            &base[..],
            &[
                "3,1,2,0,4,5,6,7,8,9,10,11,12,13,14,15",
                "--resume-from",
                "50",
            ],
        ]
        .concat(),
        "one position",
    );
    refused(
        &[
            "solve",
            "3x3",
            "--algorithm",
            "astar",
            "--resume-from",
            "20",
            "1,2,3,4,5,6,7,0,8",
        ],
        "--resume-from is used only by IDA*",
    );
    refused(
        &["solve", "3x3x3", "--resume-from", "10", "R U"],
        "--resume-from is for sliding-tile boards",
    );
}

/// Off a terminal the search line is not drawn; --progress-every writes it out whole for a
/// log (a search in the background with its stderr in a file), as the search goes on. A run
/// that continues a checkpoint estimates the iteration it resumes from the nodes the file
/// kept (before, a resumed search had no estimate until two more iterations had finished).
#[test]
fn a_search_in_the_background_logs_its_progress_line_every_period() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k.json");
    let goal = blank_first_goal_5x5();
    let search = [
        &korf_felner_1_by_manhattan(&goal)[..],
        &["--checkpoint", file.to_str().unwrap()],
    ]
    .concat();
    // Stopped early in an iteration, so that the next run's first line is within its forecast.
    let unlogged = godsearch(&[&search[..], &["--timeout", "1.5"]].concat());
    assert_eq!(unlogged.status.code(), Some(1));
    assert!(
        !stderr(&unlogged).contains("threshold"),
        "{}",
        stderr(&unlogged)
    );
    let kept: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    // The iteration stopped in, and the two before it, which it is forecast from.
    let expanded = &kept["expanded"];
    assert!(expanded["in_iteration"].as_u64() > Some(0), "{kept}");
    let before = [0, 1].map(|i| expanded["before"][i].as_u64().unwrap());
    assert!(0 < before[0] && before[0] < before[1], "{kept}");
    let logged = godsearch(
        &[
            &search[..],
            &["--timeout", "2.5", "--progress-every", "0.5"],
        ]
        .concat(),
    );
    assert_eq!(logged.status.code(), Some(1));
    let err = stderr(&logged);
    // The line is shown from the search's first second, then every half second (the
    // schedule's own test counts them; a loaded machine may start the search late).
    let lines: Vec<&str> = logged_lines(&err)
        .into_iter()
        .filter(|l| l.starts_with("threshold "))
        .collect();
    assert!(!lines.is_empty(), "{err}");
    for line in &lines {
        assert!(line.contains(" nodes expanded, "), "{line}");
        assert!(line.contains("nodes/s"), "{line}");
    }
    let resumed = format!("threshold {}, ", kept["lower_bound"]);
    assert!(lines[0].starts_with(&resumed), "{err}");
    assert!(lines[0].contains("; this iteration about "), "{err}");
    refused(
        &[&search[..], &["--progress-every", "0.5", "--quiet"]].concat(),
        "cannot be used with",
    );
    refused(
        &[&search[..], &["--progress-every", "0"]].concat(),
        "it must be a positive number of seconds",
    );
}

/// Probes logged (`--probe` with `--progress-every`): each line says which way of how many is
/// probed, by the name the report gives ways, and then which way goes on.
#[test]
fn a_probing_search_logs_the_way_it_probes_by_name() {
    let goal = blank_first_goal_5x5();
    let probing = [
        &korf_felner_1_by_manhattan(&goal)[..],
        // Lines are logged four times a second from the first second on: during each probe,
        // and after the choice (and the automata the way chosen builds first, about a second).
        &["--both-ways", "--probe", "1.5", "--timeout", "5"],
        &["--progress-every", "0.25"],
    ]
    .concat();
    let out = godsearch(&probing);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    let lines = logged_lines(&err);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("probe 1 of 2, forwards: threshold ")),
        "{err}"
    );
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("probe 2 of 2"))
            .all(|l| l.starts_with("probe 2 of 2, backwards: threshold ")),
        "{err}"
    );
    let chosen = |l: &&str| {
        let way = l
            .strip_prefix("threshold ")
            .and_then(|l| l.split_once(" by "));
        way.is_some_and(|(_, way)| way.starts_with("forwards, ") || way.starts_with("backwards, "))
    };
    assert!(lines.iter().any(chosen), "{err}");
}

/// --checkpoint keeps the bound and the subtrees finished in a file as the search runs: a run
/// killed without a word continues from it, and so does one stopped by its timeout; once
/// solved it keeps the report, and the same command searches no more; the file is refused for another board, and where it would do nothing. A new file may start from a
/// report's bound and token.
#[test]
fn a_checkpoint_file_keeps_a_search_killed_without_warning() {
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("korf-1.json");
    let file_text = file.to_str().unwrap();
    let base = solve_korf_1("parallel-ida", KORF_1);
    let keep = [&base[..], &["--checkpoint", file_text]].concat();
    let mut child = Command::new(env!("CARGO_BIN_EXE_godsearch"))
        .args(&keep)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Killed once the file is there (it may have been solved first: resumed all the same).
    appears(&file, 20);
    let _ = child.kill();
    child.wait().unwrap();
    let kept: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let bound = kept["lower_bound"].as_u64().unwrap();
    assert!((41..=57).contains(&bound), "{kept}");
    assert_eq!(kept["search"]["board"], KORF_1);
    // Solved before the kill, the file holds the report instead.
    let resumed = match kept["solved"].is_null() {
        true => {
            let resumed = json(&[&keep[..], &["--json"]].concat());
            assert_eq!(resumed["thresholds"][0], bound, "{resumed}");
            resumed
        }
        false => kept["solved"].clone(),
    };
    assert_eq!(resumed["length"], 57, "{resumed}");
    // Solved, the file keeps the report, and the same command prints it again without a
    // search, saying so.
    let kept: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(kept["lower_bound"], 57, "{kept}");
    assert_eq!(kept["solved"], resumed, "{kept}");
    // --status tells it from the file alone, with the time its runs took.
    assert!(kept["timed"]["seconds"].as_f64() > Some(0.0), "{kept}");
    let status = godsearch(&["solve", "--checkpoint", file_text, "--status"]);
    assert_eq!(status.status.code(), Some(0), "{}", stderr(&status));
    let told = stdout(&status);
    assert!(told.contains("one board's search (4x4 --goal"), "{told}");
    assert!(
        told.contains(&format!("«{KORF_1}»: solved in 57 moves")),
        "{told}"
    );
    assert!(told.contains("s of runs since 20"), "{told}");
    let again = godsearch(&[&keep[..], &["--json"]].concat());
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("solved in an earlier run (57 moves)"),
        "{}",
        stderr(&again)
    );
    let printed: serde_json::Value =
        serde_json::from_str(stdout(&again).lines().next().unwrap()).unwrap();
    assert_eq!(
        printed_again(&printed, &file),
        resumed,
        "the kept report, as it was printed"
    );
    // The same search with its goal given by name and its board in hex is the one kept.
    let mut named = keep.clone();
    named[3] = "blank-first";
    named[8] = "EDF7BC95602148A3";
    let again = godsearch(&named);
    assert!(
        stderr(&again).contains("solved in an earlier run (57 moves)"),
        "{}",
        stderr(&again)
    );
    let human = godsearch(&keep);
    assert!(
        stdout(&human).contains("length     57 (optimal"),
        "{}",
        stdout(&human)
    );
    assert!(
        stdout(&human).contains(&format!("kept       in {}", file.display())),
        "{}",
        stdout(&human)
    );
    // A kept solution that no longer reaches the goal (the file edited) is refused.
    let text = std::fs::read_to_string(&file).unwrap();
    let moves = resumed["solution"].as_str().unwrap();
    std::fs::write(&file, text.replace(moves, &moves[1..])).unwrap();
    refused_file(&keep, "its report of board");
    // Stopped by its timeout, the end is kept too: the file has the report's bound and token.
    std::fs::remove_file(&file).unwrap();
    let stopped = godsearch(&[&keep[..], &["--timeout", "0.5", "--json"]].concat());
    assert_eq!(stopped.status.code(), Some(1), "{}", stderr(&stopped));
    let stopped: serde_json::Value =
        serde_json::from_str(stdout(&stopped).lines().next().unwrap()).unwrap();
    let kept: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        kept["lower_bound"], stopped["lower_bound"],
        "{kept} {stopped}"
    );
    assert_eq!(
        kept["resume_subtrees"], stopped["searched_subtrees"],
        "{kept} {stopped}"
    );
    // A new file starts where a report left the search.
    let seeded = dir.path().join("seeded.json");
    let seeded_text = seeded.to_str().unwrap();
    let bound = stopped["lower_bound"].to_string();
    let mut from = vec!["--checkpoint", seeded_text, "--resume-from", &bound];
    if let Some(token) = stopped["searched_subtrees"].as_str() {
        from.extend(["--resume-subtrees", token]);
    }
    let resumed = json(&[&base[..], &from, &["--json"]].concat());
    assert_eq!(resumed["length"], 57, "{resumed}");
    assert_eq!(
        resumed["thresholds"][0], stopped["lower_bound"],
        "{resumed}"
    );
    // Kept once the search moved past where it started (at 57 it may end without a move).
    if let Ok(text) = std::fs::read_to_string(&seeded) {
        let kept: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(kept["search"]["board"], KORF_1);
        assert!(kept["lower_bound"].as_u64() >= stopped["lower_bound"].as_u64());
        std::fs::remove_file(&seeded).unwrap();
    } else {
        assert_eq!(stopped["lower_bound"], 57, "{stopped}");
    }
    refused(
        &[
            &base[..],
            &from[..4],
            &["--resume-subtrees", "12.6.0.174.59:0-200"],
        ]
        .concat(),
        "--resume-subtrees",
    );
    assert!(!seeded.exists(), "a refused token is not kept");
    let other = solve_korf_1("parallel-ida", "14,13,15,7,11,12,9,5,6,2,0,1,4,8,10,3");
    refused_file(
        &[&other[..], &["--checkpoint", file_text]].concat(),
        "kept for another search",
    );
    // Finished subtrees recorded by another build (whose iterations split otherwise): refused,
    // with what to do about it.
    let mut foreign = kept.clone();
    foreign["lower_bound"] = 55.into();
    foreign["resume_subtrees"] = "14.6.0badf00d.216.57:0-3".into();
    std::fs::write(&file, foreign.to_string()).unwrap();
    refused_file(&keep, "set its \"resume_subtrees\" to null there");
    std::fs::write(&file, "{ not json").unwrap();
    refused_file(&keep, "not a checkpoint this build writes");
    refused(
        &[&keep[..], &["--resume-from", "50"]].concat(),
        "leave out --resume-from",
    );
    refused(
        &["solve", "3x3x3", "R U", "--checkpoint", file_text],
        "--checkpoint keeps the search of a board",
    );
}

/// A checkpoint that cannot be written is refused before the search where that is known (its
/// folder missing), and said on stderr where it is found out during the search (the folder
/// removed): the search goes on, and its report is printed all the same.
#[test]
fn a_checkpoint_that_cannot_be_written_loses_no_report() {
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing").join("k.json");
    let board = solve_korf_1("parallel-ida", KORF_1);
    refused_file(
        &[&board[..], &["--checkpoint", missing.to_str().unwrap()]].concat(),
        "cannot write there",
    );
    refused_file(
        &[
            &board[..8],
            &[KORF_1, KORF_1, "--checkpoint", missing.to_str().unwrap()],
        ]
        .concat(),
        "cannot write there",
    );
    // Korf and Felner's #1 (95 moves) with Manhattan distance: searched to the timeout.
    let folder = dir.path().join("runs");
    std::fs::create_dir(&folder).unwrap();
    let file = folder.join("k.json");
    let goal = blank_first_goal_5x5();
    let child = Command::new(env!("CARGO_BIN_EXE_godsearch"))
        .args(korf_felner_1_by_manhattan(&goal))
        .args([
            "--timeout",
            "6",
            "--json",
            "--checkpoint",
            file.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(appears(&file, 5), "kept within its first seconds");
    std::fs::remove_dir_all(&folder).unwrap();
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("warning: keeping the checkpoint"), "{err}");
    assert_eq!(err.matches("warning:").count(), 1, "said once: {err}");
    let report: serde_json::Value =
        serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
    assert_eq!(report["timed_out"], true, "{report}");
    assert!(report["lower_bound"].as_u64() > Some(80), "{report}");
}

/// Interrupted, a search kept in a checkpoint says that the same command continues from it
/// (not `--resume-from`, which beside an existing file is refused), and it does.
#[test]
fn an_interrupted_search_with_a_checkpoint_is_continued_by_the_same_command() {
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k.json");
    let goal = blank_first_goal_5x5();
    let search = [
        &korf_felner_1_by_manhattan(&goal)[..],
        &["--checkpoint", file.to_str().unwrap()],
    ]
    .concat();
    let child = Command::new(env!("CARGO_BIN_EXE_godsearch"))
        .args(&search)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(appears(&file, 10), "kept within its first seconds");
    common::interrupt(child.id());
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert!(
        err.contains("keeps where the search stands: the same command continues"),
        "{err}"
    );
    assert!(!err.contains("--resume-from"), "{err}");
    let kept: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let continued = godsearch(&[&search[..], &["--timeout", "0.5", "--json"]].concat());
    assert_eq!(continued.status.code(), Some(1), "{}", stderr(&continued));
    let report: serde_json::Value =
        serde_json::from_str(stdout(&continued).lines().next().unwrap()).unwrap();
    assert_eq!(report["resumed_from"], kept["lower_bound"], "{report}");
}

/// A report printed again from `file`: it names `file` as where it was kept, and is otherwise
/// the report that was kept there.
fn printed_again(printed: &serde_json::Value, file: &Path) -> serde_json::Value {
    assert_eq!(printed["kept_in"], file.to_str().unwrap(), "{printed}");
    let mut report = printed.clone();
    report.as_object_mut().unwrap().remove("kept_in");
    report
}

/// A solved board's checkpoint as the builds of 2026-12 write it: what later builds must read
/// back (a field added to the report takes a default), or a run of hours would be searched again.
const KEPT_BY_AN_EARLIER_BUILD: &str = r#"{
  "format": "godsearch solve checkpoint 1",
  "search": {
    "puzzle": "4x4",
    "board": "14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3",
    "goal": "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15",
    "algorithm": "Auto",
    "heuristic": "Auto",
    "pdb": null,
    "no_reflection": false,
    "reverse": false,
    "both_ways": false
  },
  "lower_bound": 57,
  "resume_subtrees": null,
  "solved": {
    "puzzle": "4x4",
    "id": null,
    "start": "14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3",
    "solution": "ULDDRUUULDDDRUURRDLDLUURULLDRDRUURDDDLUUURDDDLULUURRDLLLU",
    "length": 57,
    "expected_length": null,
    "optimal": true,
    "algorithm": "parallel-ida",
    "heuristic": "pdb 6-6-3 + reflection",
    "nodes_expanded": 50219,
    "nodes_generated": 99547,
    "thresholds": [
      47,
      49,
      51,
      53,
      55,
      57
    ],
    "iteration_expanded": [
      7,
      42,
      395,
      3213,
      22504,
      24058
    ],
    "seconds": 0.019641569,
    "timed_out": false,
    "lower_bound": null,
    "resumed_from": null,
    "searched_subtrees": null,
    "memory_bytes": 33558528
  }
}"#;

/// A report kept by an earlier build is printed again by the same command, as it was printed.
#[test]
fn a_report_kept_by_an_earlier_build_is_printed_again() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("korf-1.json");
    std::fs::write(&file, KEPT_BY_AN_EARLIER_BUILD).unwrap();
    let goal = "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15";
    let search = [
        "solve",
        "4x4",
        "--goal",
        goal,
        "--checkpoint",
        file.to_str().unwrap(),
        KORF_1,
    ];
    let printed = json_lines(&[&search[..], &["--json"]].concat());
    let kept: serde_json::Value = serde_json::from_str(KEPT_BY_AN_EARLIER_BUILD).unwrap();
    assert_eq!(printed_again(&printed[0], &file), kept["solved"]);
    let human = godsearch(&search);
    assert_eq!(human.status.code(), Some(0), "{}", stderr(&human));
    assert!(stdout(&human).contains(kept["solved"]["solution"].as_str().unwrap()));
}

/// Interrupted before the checkpoint's first look (a second after the search starts), the
/// search is kept all the same: the signal has the file written once more before the process
/// ends, so what it says ("FILE keeps where the search stands") is true. (Before, no file was
/// there at all.)
#[test]
fn a_search_interrupted_between_looks_is_kept_all_the_same() {
    use std::process::{Command, Stdio};
    let goal = blank_first_goal_5x5();
    for _attempt in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("k.json");
        let child = Command::new(env!("CARGO_BIN_EXE_godsearch"))
            .args(korf_felner_1_by_manhattan(&goal))
            .args(["--checkpoint", file.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(300));
        common::interrupt(child.id());
        let out = child.wait_with_output().unwrap();
        let err = stderr(&out);
        // Not yet searching when the signal came (a slow start): nothing to keep; again.
        let Some(said) = err.split("at least ").nth(1) else {
            continue;
        };
        let said: u64 = said.split(' ').next().unwrap().parse().unwrap();
        assert!(err.contains("keeps where the search stands"), "{err}");
        let kept: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let bound = kept["lower_bound"].as_u64().unwrap();
        assert!(bound > 0 && bound <= said, "{kept} {err}");
        let leftovers = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(leftovers, 1, "the file alone, no temporary beside it");
        return;
    }
    panic!("no run was interrupted inside its search");
}

/// --both-ways races each iteration between the board's search and the goal's: stopped by its
/// timeout it reports the bound proved and the token of the direction that spent the more on
/// its iteration, which a run continued both ways takes up; it keeps a checkpoint of its own,
/// and is refused beside --reverse.
#[test]
fn a_search_both_ways_stops_and_continues() {
    let base = [&solve_korf_1("parallel-ida", KORF_1)[..], &["--both-ways"]].concat();
    let stopped = godsearch(&[&base[..], &["--timeout", "0.2", "--json"]].concat());
    assert_eq!(stopped.status.code(), Some(1), "{}", stderr(&stopped));
    let stopped: serde_json::Value =
        serde_json::from_str(stdout(&stopped).lines().next().unwrap()).unwrap();
    let bound = stopped["lower_bound"].to_string();
    // The report of the stop holds the work of both directions, iteration by iteration, the
    // stopped iteration last; the solution's report holds the same for its run.
    let counts = |report: &serde_json::Value| {
        let per_iteration: u64 = report["iteration_expanded"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .sum();
        let generated = report["nodes_generated"].as_u64().unwrap();
        let expanded = report["nodes_expanded"].as_u64().unwrap();
        assert_eq!(per_iteration, expanded, "{report}");
        assert!(generated >= expanded, "{report}");
    };
    counts(&stopped);
    let thresholds = stopped["thresholds"].as_array().unwrap();
    assert_eq!(thresholds.last().unwrap().to_string(), bound, "{stopped}");
    let mut from = vec!["--resume-from", &bound];
    if let Some(token) = stopped["searched_subtrees"].as_str() {
        from.extend(["--resume-subtrees", token]);
    }
    let resumed = json(&[&base[..], &from, &["--json"]].concat());
    assert_eq!(resumed["length"], 57, "{resumed}");
    counts(&resumed);
    let heuristic = resumed["heuristic"].as_str().unwrap();
    assert!(heuristic.contains("both ways: solved"), "{heuristic}");
    // A one-way search's checkpoint is not the race's.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("korf-1.json");
    let keep = ["--checkpoint", file.to_str().unwrap(), "--timeout", "0.2"];
    let one_way = godsearch(&[&solve_korf_1("parallel-ida", KORF_1)[..], &keep].concat());
    assert_eq!(one_way.status.code(), Some(1), "{}", stderr(&one_way));
    refused_file(&[&base[..], &keep].concat(), "kept for another search");
    refused(&[&base[..], &["--reverse"]].concat(), "--reverse");
    refused(
        &[&solve_korf_1("astar", KORF_1)[..], &["--both-ways"]].concat(),
        "--both-ways is used only by IDA*",
    );
}

/// --probe: each direction probed, then the better alone; a stop after the choice keeps the
/// way chosen in --checkpoint's file, and the same command goes on with that way, its token
/// with it; the report of a stop without a file says how to continue by that way alone.
#[test]
fn a_probed_search_keeps_the_way_chosen_and_continues_with_it() {
    let base = [
        &solve_korf_1("parallel-ida", KORF_1)[..],
        &["--both-ways", "--probe", "0.05"],
    ]
    .concat();
    let stopped = godsearch(&[&base[..], &["--timeout", "0.4"]].concat());
    assert_eq!(stopped.status.code(), Some(1), "{}", stderr(&stopped));
    let told = stdout(&stopped);
    assert!(
        told.contains("the way the probes chose alone (no --probe"),
        "{told}"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("korf-1.json");
    let keep = ["--checkpoint", file.to_str().unwrap()];
    let stopped = godsearch(&[&base[..], &keep, &["--timeout", "0.4"]].concat());
    assert_eq!(stopped.status.code(), Some(1), "{}", stderr(&stopped));
    let kept: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let reverse = kept["chosen_way"]["reverse"].as_bool().expect("a way kept");
    assert!(kept["lower_bound"].as_u64().unwrap() > 41, "{kept}");
    let solved = json(&[&base[..], &keep, &["--json"]].concat());
    assert_eq!(solved["length"], 57, "{solved}");
    // Continued by the way kept alone: no probes again.
    let heuristic = solved["heuristic"].as_str().unwrap();
    assert_eq!(heuristic.contains("from the goal to the board"), reverse);
    assert!(!heuristic.contains("probes"), "{heuristic}");
    assert_eq!(solved["resumed_from"], kept["lower_bound"], "{solved}");
    // Its report names the way, chosen by the run before; so does the report kept.
    assert_eq!(solved["chosen_way"], kept["chosen_way"], "{solved}");
    let kept_report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(kept_report["solved"]["chosen_way"], kept["chosen_way"]);
    refused(
        &[&solve_korf_1("parallel-ida", KORF_1)[..], &["--probe", "1"]].concat(),
        "--probe chooses among ways",
    );
}

/// A file in `dir` of Korf's #1 (57 moves, about 1.5 s) and #55 (41, at once), in Korf's
/// format, for campaigns.
fn korf_1_and_55(dir: &Path) -> std::path::PathBuf {
    let boards = dir.join("korf.txt");
    std::fs::write(
        &boards,
        format!(
            "1 57 {}\n55 41 13 8 14 3 9 1 0 7 15 5 4 10 12 2 6 11\n",
            KORF_1.replace(',', " ")
        ),
    )
    .unwrap();
    boards
}

/// --checkpoint over a file of boards keeps a campaign: a run stopped by its timeout keeps
/// each board's bound and finished subtrees, the next run continues each from there and
/// keeps the solved boards' reports, and a run after that skips them.
#[test]
fn a_checkpoint_over_a_file_keeps_each_boards_search() {
    let dir = tempfile::tempdir().unwrap();
    let boards = korf_1_and_55(dir.path());
    let file = dir.path().join("campaign.json");
    let base = solve_korf_1("parallel-ida", "");
    let campaign = [
        &base[..8],
        &[
            "--file",
            boards.to_str().unwrap(),
            "--checkpoint",
            file.to_str().unwrap(),
            "--json",
        ],
    ]
    .concat();
    let read = || -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap()
    };
    let stopped = godsearch(&[&campaign[..], &["--timeout", "0.3"]].concat());
    assert_eq!(stopped.status.code(), Some(1), "{}", stderr(&stopped));
    let kept = read();
    let first = &kept["boards"][0];
    let bound = first["lower_bound"].as_u64().unwrap();
    assert!((41..57).contains(&bound), "{kept}");
    assert!(first["solved"].is_null(), "{kept}");
    // Past its first iteration (41, the start's estimate), the nodes of the one before are
    // kept for the next run's estimate.
    let nodes_before = first["expanded"]["before"][1].as_u64();
    assert_eq!(nodes_before > Some(0), bound > 41, "{kept}");
    assert_eq!(kept["boards"][1]["solved"]["length"], 41, "{kept}");
    // --status tells where each board stands, from the file alone.
    let status = godsearch(&["solve", "--checkpoint", file.to_str().unwrap(), "--status"]);
    assert_eq!(status.status.code(), Some(0), "{}", stderr(&status));
    let told = stdout(&status);
    for line in [
        "a campaign of 2 boards, 1 solved, 1 left (4x4 ",
        &format!("#1 (57 moves given): at least {bound} moves; its iteration of {bound}: "),
        "#55 (41 moves given): solved in 41 moves, the run that solved it ",
        "in all ",
    ] {
        assert!(told.contains(line), "{line} in {told}");
    }
    refused_file(
        &[
            "solve",
            "--checkpoint",
            boards.to_str().unwrap(),
            "--status",
        ],
        "not a checkpoint this build writes",
    );
    // The next run continues #1 from its bound and does not search #55 again (its kept
    // report is printed in its place).
    let resumed = godsearch(&campaign);
    assert_eq!(resumed.status.code(), Some(0), "{}", stderr(&resumed));
    let reports: Vec<serde_json::Value> = stdout(&resumed)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|r: &serde_json::Value| r.get("length").is_some())
        .collect();
    assert_eq!(reports.len(), 2, "{}", stdout(&resumed));
    assert_eq!(reports[0]["length"], 57);
    assert_eq!(reports[0]["thresholds"][0], bound);
    assert_eq!(
        printed_again(&reports[1], &file),
        kept["boards"][1]["solved"]
    );
    assert!(stderr(&resumed).contains("solved in an earlier run (41 moves)"));
    let kept = read();
    assert_eq!(kept["boards"][0]["solved"]["length"], 57, "{kept}");
    assert_eq!(kept["boards"][0]["lower_bound"], 57, "{kept}");
    assert!(kept["boards"][0].get("expanded").is_none(), "{kept}");
    // All solved: nothing is searched, and both kept reports are printed again.
    let again = godsearch(&campaign);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert_eq!(
        stderr(&again).matches("solved in an earlier run").count(),
        2
    );
    let printed: Vec<serde_json::Value> = stdout(&again)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kept = read();
    assert_eq!(
        printed_again(&printed[0], &file),
        kept["boards"][0]["solved"]
    );
    assert_eq!(
        printed_again(&printed[1], &file),
        kept["boards"][1]["solved"]
    );
    assert_eq!(printed[2]["solved"], 2, "the summary counts them");
    // Kept for this search alone.
    let with = |algorithm| -> Vec<&str> {
        let mut args = campaign.clone();
        args[7] = algorithm;
        args
    };
    refused_file(&with("ida"), "kept for another search");
    refused(
        &[&campaign[..], &["--resume-from", "50"]].concat(),
        "keeps each board's bound itself",
    );
    refused(&with("astar"), "--checkpoint keeps an IDA* search");
    // A one-board checkpoint is not a campaign, nor the other way round.
    refused_file(
        &[
            &base[..8],
            &[KORF_1, "--checkpoint", file.to_str().unwrap()],
        ]
        .concat(),
        "it keeps a campaign over several boards",
    );
    // A board's finished subtrees recorded by another build: refused, with what to do.
    let mut foreign = read();
    foreign["boards"][0]["solved"] = serde_json::Value::Null;
    foreign["boards"][0]["lower_bound"] = 55.into();
    foreign["boards"][0]["resume_subtrees"] = "14.6.0badf00d.216.57:0-3".into();
    std::fs::write(&file, foreign.to_string()).unwrap();
    refused_file(&campaign, "set its \"resume_subtrees\" to null there");
}

/// A campaign's boards take their turns round: a run begins with the board the last run was
/// stopped in (the file's `next`, written as each turn begins), goes round to it, and leaves
/// `next` at the board it began with once the round is whole.
#[test]
fn a_campaign_goes_on_with_the_board_its_last_run_was_stopped_in() {
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let korf_55 = "55 41 13 8 14 3 9 1 0 7 15 5 4 10 12 2 6 11";
    // Hours with Manhattan distance: killed in its turn.
    let korf_88 = "88 65 15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4";
    let one_move = "2 1 1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
    let file = dir.path().join("campaign.json");
    let base = solve_korf_1("parallel-ida", "");
    let campaign_of = |lines: &[&str]| -> Vec<String> {
        let boards = dir.path().join("boards.txt");
        std::fs::write(&boards, lines.join("\n") + "\n").unwrap();
        let given = [
            "--file",
            boards.to_str().unwrap(),
            "--checkpoint",
            file.to_str().unwrap(),
            "--json",
        ];
        base[..8]
            .iter()
            .chain(&given)
            .map(|a| a.to_string())
            .collect()
    };
    let read = || -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap_or_default())
            .unwrap_or_default()
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_godsearch"))
        .args(campaign_of(&[korf_55, korf_88]))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while read()["next"] != korf_88 && started.elapsed().as_secs() < 20 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = child.kill();
    child.wait().unwrap();
    assert_eq!(read()["next"], korf_88, "written as its turn began");
    let status = godsearch(&["solve", "--checkpoint", file.to_str().unwrap(), "--status"]);
    let told = stdout(&status);
    assert!(
        told.contains("the next run begins with #88 (65 moves given)"),
        "{told}"
    );
    std::fs::remove_file(&file).unwrap();
    // Whole rounds, their reports in turn order.
    let campaign = campaign_of(&[korf_55, one_move]);
    let args: Vec<&str> = campaign.iter().map(String::as_str).collect();
    let ids = |out: &std::process::Output| -> Vec<String> {
        assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
        stdout(out)
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter_map(|r| r["id"].as_str().map(str::to_string))
            .collect()
    };
    assert_eq!(ids(&godsearch(&args)), ["55", "2"]);
    assert_eq!(read()["next"], korf_55, "a whole round from the first");
    // As though the last run was stopped in #2's turn: this one begins there.
    let mut stopped = read();
    stopped["next"] = one_move.into();
    std::fs::write(&file, stopped.to_string()).unwrap();
    assert_eq!(ids(&godsearch(&args)), ["2", "55"]);
    assert_eq!(read()["next"], one_move, "the next round begins there too");
    // A board no longer in the file: from the first.
    let mut gone = read();
    gone["next"] = "7 1 2 3".into();
    std::fs::write(&file, gone.to_string()).unwrap();
    assert_eq!(ids(&godsearch(&args)), ["55", "2"]);
}

/// A campaign probing both directions (`--both-ways --probe`) gives a board's first turn its
/// forwards ways only (here one, searched alone): #55, solved in it, never pays for the
/// backwards ways; #1, stopped, has them probed in its next turn against the way it kept,
/// and after that goes on with the way chosen alone.
#[test]
fn a_campaign_probes_backwards_only_the_boards_that_outlast_their_first_turn() {
    let dir = tempfile::tempdir().unwrap();
    let boards = korf_1_and_55(dir.path());
    let file = dir.path().join("campaign.json");
    let base = solve_korf_1("parallel-ida", "");
    let campaign = [
        &base[..8],
        &["--file", boards.to_str().unwrap()],
        &["--checkpoint", file.to_str().unwrap()],
        &["--both-ways", "--probe", "0.05", "--json"],
    ]
    .concat();
    let read = || -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap()
    };
    let first = godsearch(&[&campaign[..], &["--timeout", "0.3"]].concat());
    assert_eq!(first.status.code(), Some(1), "{}", stderr(&first));
    let kept = read();
    let (one, fifty_five) = (&kept["boards"][0], &kept["boards"][1]);
    assert_eq!(one["chosen_way"]["reverse"], false, "{kept}");
    assert!(one.get("backwards_probed").is_none(), "{kept}");
    assert!(one["solved"].is_null(), "{kept}");
    let heuristic = fifty_five["solved"]["heuristic"].as_str().unwrap();
    assert_eq!(fifty_five["solved"]["length"], 41, "{kept}");
    assert!(!heuristic.contains("probes"), "{heuristic}");
    assert!(!heuristic.contains("from the goal"), "{heuristic}");
    // The next turn probes both ways from the start, then goes on from the bound kept.
    let second = godsearch(&[&campaign[..], &["--timeout", "0.2"]].concat());
    assert_eq!(second.status.code(), Some(1), "{}", stderr(&second));
    let report: serde_json::Value =
        serde_json::from_str(stdout(&second).lines().next().unwrap()).unwrap();
    let heuristic = report["heuristic"].as_str().unwrap();
    assert!(heuristic.contains("probes of 2 ways"), "{heuristic}");
    let probed = read();
    let again = &probed["boards"][0];
    assert_eq!(again["backwards_probed"], true, "{probed}");
    assert!(again["lower_bound"].as_u64() >= one["lower_bound"].as_u64());
    if (&again["chosen_way"], &again["lower_bound"]) == (&one["chosen_way"], &one["lower_bound"]) {
        // The way kept, chosen again in the same iteration, kept its finished subtrees.
        let done = |b: &serde_json::Value| -> u64 {
            let Some((_, ranges)) = b["resume_subtrees"]
                .as_str()
                .and_then(|t| t.split_once(':'))
            else {
                return 0;
            };
            let size = |r: &str| -> u64 {
                let (a, b) = r.split_once('-').unwrap_or((r, r));
                b.parse::<u64>().unwrap() - a.parse::<u64>().unwrap() + 1
            };
            ranges.split(',').filter(|r| !r.is_empty()).map(size).sum()
        };
        assert!(done(again) >= done(one), "{kept}\n{probed}");
    }
    // Then the way chosen alone, to the end.
    let last = godsearch(&campaign);
    assert_eq!(last.status.code(), Some(0), "{}", stderr(&last));
    let solved: serde_json::Value =
        serde_json::from_str(stdout(&last).lines().next().unwrap()).unwrap();
    assert_eq!(solved["length"], 57, "{solved}");
    assert!(!solved["heuristic"].as_str().unwrap().contains("probes"));
    assert_eq!(solved["resumed_from"], again["lower_bound"], "{solved}");
    // Its report names the way that solved it, chosen by the turn before; so does the file.
    assert_eq!(solved["chosen_way"], again["chosen_way"], "{solved}");
    let kept = read();
    assert_eq!(
        kept["boards"][0]["solved"]["chosen_way"],
        again["chosen_way"]
    );
}

/// Parallel IDA* stopped inside an iteration reports the subtrees of it that it finished;
/// --resume-subtrees skips them, and the search still ends with the optimal length. A token
/// for another board, or a malformed one, is refused.
#[test]
fn a_search_stopped_inside_an_iteration_resumes_past_its_finished_subtrees() {
    let base = solve_korf_1("parallel-ida", KORF_1);
    // A stop inside an iteration with a subtree finished: not too soon after one begins, nor
    // after the search ends (about 1.5 s on a quiet machine), whatever the load.
    let (bound, token) = (1..=15)
        .find_map(|tenths| {
            let timeout = format!("{}", tenths as f64 / 10.0);
            let stopped = godsearch(&[&base[..], &["--timeout", &timeout, "--json"]].concat());
            let report: serde_json::Value =
                serde_json::from_str(stdout(&stopped).lines().next()?).ok()?;
            let token = report["searched_subtrees"].as_str()?.to_string();
            Some((report["lower_bound"].as_u64()?.to_string(), token))
        })
        .expect("a stop with finished subtrees");
    let resume = ["--resume-from", &bound, "--resume-subtrees", &token];
    let resumed = json(&[&base[..], &resume, &["--json"]].concat());
    assert_eq!(resumed["length"], 57, "{resumed}");
    assert_eq!(resumed["thresholds"][0].to_string(), bound);
    // One move away from Korf's instance 1.
    let other = solve_korf_1("parallel-ida", "14,13,15,7,11,12,9,5,6,2,0,1,4,8,10,3");
    refused(
        &[&other[..], &resume].concat(),
        "were not recorded by this search",
    );
    refused(
        &[
            &base[..],
            &["--resume-from", &bound, "--resume-subtrees", "1.2.3"],
        ]
        .concat(),
        "searched subtrees «1.2.3»",
    );
    refused(
        &[&base[..], &["--resume-subtrees", &token]].concat(),
        "--resume-from",
    );
    let human = stdout(&godsearch(&[&base[..], &["--timeout", "0.3"]].concat()));
    assert!(human.contains("continue   with --resume-from"), "{human}");
}

/// A bad line anywhere in a `--file` is refused before any table is built (a 5x5 board's
/// databases take minutes), in a batch and in a campaign kept with `--checkpoint`; so is a bad
/// board given beside others in a campaign.
#[test]
fn a_bad_line_is_refused_before_any_table_is_built() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let file = dir.path().join("boards.txt");
    std::fs::write(
        &file,
        "# two good, then a short one\n\
         1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n\
         1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n\
         1 2 3\n",
    )
    .unwrap();
    let checkpoint = dir.path().join("campaign.json");
    let (cache, file, checkpoint) = (
        cache.to_str().unwrap(),
        file.to_str().unwrap(),
        checkpoint.to_str().unwrap(),
    );
    let runs: [&[&str]; 3] = [
        &["solve", "4x4", "--cache", cache, "--file", file],
        &[
            "solve",
            "4x4",
            "--cache",
            cache,
            "--file",
            file,
            "--checkpoint",
            checkpoint,
        ],
        &[
            "solve",
            "4x4",
            "--cache",
            cache,
            "--checkpoint",
            checkpoint,
            "1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15",
            "1,2,3",
        ],
    ];
    for args in runs {
        let needle = match args.contains(&"--file") {
            true => "boards.txt line 4",
            false => "board '1,2,3'",
        };
        refused(args, needle);
        let tables = std::fs::read_dir(cache).map_or(0, |d| d.count());
        assert_eq!(tables, 0, "{args:?}: nothing is built before the refusal");
        assert!(!Path::new(checkpoint).exists(), "{args:?}: nor kept");
    }
}
