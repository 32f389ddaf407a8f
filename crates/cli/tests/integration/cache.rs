//! The table cache as several users meet it: runs that need the same missing table build it
//! once, `cache list` and `cache clean` show and remove it, and files are written 0644 (0600
//! with --private).

use crate::common;

use common::{godsearch, json_lines, stderr, stdout};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_godsearch");

#[test]
fn runs_that_need_the_same_missing_database_build_it_once() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().to_str().unwrap();
    // Two runs at once, each needing 6-6-3 (three databases, about a second each to build)
    // for the same goal.
    let children: Vec<_> = (0..2)
        .map(|_| {
            Command::new(BIN)
                .args(["pdb", "build", "4x4", "--pdb", "6-6-3", "--cache", cache])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let outputs: Vec<String> = children
        .into_iter()
        .map(|c| {
            let out = c.wait_with_output().unwrap();
            assert!(out.status.success(), "{}", stderr(&out));
            stdout(&out) + &stderr(&out)
        })
        .collect();
    let builds: usize = outputs.iter().map(|o| o.matches("built in").count()).sum();
    assert_eq!(
        builds, 3,
        "each database is built by one run only:\n{outputs:#?}"
    );
    let listed = json_lines(&["cache", "list", "--cache", cache, "--json"]);
    let kinds: Vec<&str> = listed.iter().map(|f| f["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds, ["pattern database"; 3],
        "no lock or temporary file is left"
    );
}

#[test]
fn cache_list_and_clean_show_and_remove_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().to_str().unwrap();
    let out = godsearch(&["cache", "list", "--cache", cache]);
    assert!(stdout(&out).contains("is empty"), "{}", stdout(&out));
    let out = godsearch(&["pdb", "build", "3x3", "--pdb", "4-4", "--cache", cache]);
    assert!(out.status.success(), "{}", stderr(&out));
    // A damaged table of the cache's: its header is godsearch's, its payload cut short.
    let good_table = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "tbl"))
        .unwrap();
    let bytes = std::fs::read(good_table).unwrap();
    std::fs::write(
        dir.path().join("pdb-3x3-00000000-9.tbl"),
        &bytes[..bytes.len() / 2],
    )
    .unwrap();
    let listed = json_lines(&["cache", "list", "--cache", cache, "--json"]);
    assert_eq!(listed.len(), 3);
    let good: Vec<_> = listed.iter().filter(|f| f["problem"].is_null()).collect();
    assert_eq!(good.len(), 2);
    assert!(good
        .iter()
        .all(|f| f["puzzle"] == "tiles 3x3 goal 1,2,3,4,5,6,7,8,0"));
    assert!(good[0]["contents"].as_str().unwrap().starts_with("tiles "));
    let human = stdout(&godsearch(&["cache", "list", "--cache", cache]));
    assert!(human.contains("unreadable: "), "{human}");
    assert!(human.contains("3 files"), "{human}");
    // Nothing is a day old; a dry run removes nothing; then everything goes.
    let out = stdout(&godsearch(&[
        "cache",
        "clean",
        "--cache",
        cache,
        "--older-than",
        "1d",
    ]));
    assert!(out.contains("removed 0 files"), "{out}");
    let out = stdout(&godsearch(&[
        "cache",
        "clean",
        "--cache",
        cache,
        "--dry-run",
    ]));
    assert!(out.contains("would remove 3 files"), "{out}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
    let out = stdout(&godsearch(&["cache", "clean", "--cache", cache]));
    assert!(out.contains("removed 3 files"), "{out}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let out = godsearch(&["cache", "clean", "--older-than", "soon"]);
    assert_eq!(out.status.code(), Some(2));
}

/// The files a clean run removed, from its output.
fn removed_files(out: &str, verb: &str) -> Vec<String> {
    let mut files: Vec<String> = out
        .lines()
        .filter_map(|l| l.strip_prefix(verb))
        .filter_map(|rest| rest.trim().split(' ').next().map(str::to_string))
        .filter(|f| f.starts_with('/'))
        .collect();
    files.sort();
    files
}

#[test]
fn cache_clean_removes_only_godsearchs_files_and_the_dry_run_says_exactly_which() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().to_str().unwrap();
    let out = godsearch(&["pdb", "build", "3x3", "--pdb", "4-4", "--cache", cache]);
    assert!(out.status.success(), "{}", stderr(&out));
    let path = |name: &str| dir.path().join(name);
    // godsearch's: a stale build lock (empty, held by nobody) beside the two databases.
    let ours = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect::<Vec<_>>();
    std::fs::write(path("pdb-3x3-00000000-1-2.lock"), b"").unwrap();
    // The user's: lock files of other programs, a table `bfs --save` wrote, a file with a
    // cache table's name that godsearch did not write, a lock with contents, and a text file.
    std::fs::write(path(".pwd.lock"), b"").unwrap();
    std::fs::write(path("editor.lock"), b"").unwrap();
    std::fs::write(path("pdb-mine.tbl"), b"my own notes").unwrap();
    std::fs::write(path("pdb-3x3-00000000-5.lock"), b"pid 42").unwrap();
    std::fs::write(path("notes.txt"), b"keep").unwrap();
    let saved = path("level-table.tbl");
    let out = godsearch(&["bfs", "2x3", "--save", saved.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let users = [
        ".pwd.lock",
        "editor.lock",
        "pdb-mine.tbl",
        "pdb-3x3-00000000-5.lock",
        "notes.txt",
        "level-table.tbl",
    ];

    let dry = stdout(&godsearch(&[
        "cache",
        "clean",
        "--cache",
        cache,
        "--dry-run",
    ]));
    let would = removed_files(&dry, "would remove");
    let mut expected: Vec<String> = ours
        .iter()
        .map(|p| p.display().to_string())
        .chain([path("pdb-3x3-00000000-1-2.lock").display().to_string()])
        .collect();
    expected.sort();
    assert_eq!(would, expected, "{dry}");
    assert!(
        dry.contains("3 not written by godsearch's cache left alone"),
        "{dry}"
    );

    let real = stdout(&godsearch(&["cache", "clean", "--cache", cache]));
    assert_eq!(removed_files(&real, "removed"), would, "{real}");
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    let mut users: Vec<String> = users.iter().map(|u| u.to_string()).collect();
    users.sort();
    assert_eq!(left, users, "only godsearch's cache files go");
}

#[test]
fn tables_are_readable_by_others_unless_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let mode_of = |private: bool| {
        let file = dir.path().join(format!("t{private}.tbl"));
        let command = format!(
            "umask 022 && exec '{BIN}' bfs 2x3 --save '{}' {}",
            file.display(),
            if private { "--private" } else { "" }
        );
        let out = Command::new("sh").args(["-c", &command]).output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        std::fs::metadata(&file).unwrap().permissions().mode() & 0o777
    };
    assert_eq!(mode_of(false), 0o644);
    assert_eq!(mode_of(true), 0o600);
}

/// The rows a terminal shows after `output`, drawn by a program that writes text, line feeds,
/// carriage returns and the escapes `indicatif` draws with (cursor up and down, erase the
/// line), on a terminal wide enough that nothing wraps.
fn screen(output: &str) -> Vec<String> {
    let mut rows: Vec<Vec<char>> = vec![Vec::new()];
    let (mut row, mut col) = (0usize, 0usize);
    let mut chars = output.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => col = 0,
            '\n' => {
                row += 1;
                if rows.len() <= row {
                    rows.push(Vec::new());
                }
            }
            '\x1b' if chars.peek() == Some(&'[') => {
                chars.next();
                let mut parameter = String::new();
                while let Some(&p) = chars.peek() {
                    if !(p.is_ascii_digit() || p == ';' || p == '?') {
                        break;
                    }
                    parameter.push(p);
                    chars.next();
                }
                let n = parameter.parse::<usize>().unwrap_or(1);
                match chars.next() {
                    Some('A') => row = row.saturating_sub(n),
                    Some('B') => {
                        row += n;
                        rows.resize(rows.len().max(row + 1), Vec::new());
                    }
                    Some('K') if parameter == "2" => rows[row].clear(),
                    Some('K') => rows[row].truncate(col),
                    _ => {}
                }
            }
            c if !c.is_control() => {
                let line = &mut rows[row];
                if line.len() <= col {
                    line.resize(col + 1, ' ');
                }
                line[col] = c;
                col += 1;
            }
            _ => {}
        }
    }
    rows.into_iter()
        .map(|r| r.into_iter().collect::<String>().trim_end().to_string())
        .collect()
}

/// On a terminal, the notices of the databases a search builds for its board (searching from
/// the goal, each board gets its own) land on rows of their own: the progress lines are
/// cleared first. They were written onto the search's line, drawn at threshold 0 once the
/// builds had lasted a second (`threshold 0, 0 nodes expanded, ... 1.26 s   built pattern
/// database ...`). `script` gives the run a terminal and hands back what it drew.
#[test]
fn notices_on_a_terminal_are_not_written_over_the_progress_lines() {
    let dir = tempfile::tempdir().unwrap();
    let goal: Vec<String> = (0..25).map(|t| t.to_string()).collect();
    // Five groups of about half a second each, and a board one move from the goal, on a
    // terminal wide enough for the bars' lines (named by the partition).
    let command = format!(
        "stty cols 250 rows 50; {BIN} solve 5x5 --cache {} --goal {} --pdb {} --reverse {}",
        dir.path().display(),
        goal.join(","),
        "1,2,5,6,7/3,4,8,9,10/11,12,15,16,17/13,14,18,19,20/21,22,23,24",
        "5,1,2,3,4,0,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24"
    );
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("util-linux's script runs (Debian's bsdutils)");
    let terminal = stdout(&out);
    assert!(out.status.success(), "{terminal}");
    let rows = screen(&terminal);
    let notices: Vec<&String> = rows
        .iter()
        .filter(|row| row.contains("built pattern database"))
        .collect();
    // One a group, the partition's five and its mirror image's: no mirror keeps the board's
    // blank, beside a corner.
    assert_eq!(notices.len(), 10, "one a group:\n{rows:#?}");
    for row in notices {
        assert!(
            row.starts_with("built pattern database"),
            "a notice drawn over: {row:?}\n{terminal:?}"
        );
    }
    assert!(
        rows.iter()
            .any(|row| row.starts_with("length     1 (optimal")),
        "{rows:#?}"
    );
}

/// `pdb build` builds what a solve reads: on the 2x4, whose goal no mirror keeps, the mirror
/// image's databases beside the partition's, unless given `--no-reflection`.
#[test]
fn pdb_build_builds_the_mirror_image_where_reflection_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().to_str().unwrap();
    let build = |more: &[&str]| {
        let mut args = vec![
            "pdb",
            "build",
            "2x4",
            "--pdb",
            "1,2,3/4,5,6,7",
            "--cache",
            cache,
        ];
        args.extend(more);
        let out = godsearch(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let alone = build(&["--no-reflection"]);
    assert_eq!(alone.matches("built in").count(), 2, "{alone}");
    assert!(!alone.contains("mirror image"), "{alone}");
    let both = build(&[]);
    assert_eq!(both.matches("already cached").count(), 2, "{both}");
    assert_eq!(both.matches("(mirror image)").count(), 2, "{both}");
    assert_eq!(both.matches("built in").count(), 2, "{both}");
}
