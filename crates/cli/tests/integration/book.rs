//! Every command the README and the book (`docs/*.md`) show in a `sh` block runs as shown:
//! each `godsearch ...` line (and `cargo run --release -- ...`, as the same command) is run by
//! `sh` in a fresh folder that holds `data/`, with a home of its own and the command-line
//! tests' shared cache ([`common::shared_cache_home`]: a table one test builds, the others
//! read, and two that need it at once build it once), and must exit 0; every figure its
//! comment quotes with thousands separators (`181,440 positions`) must be in its output.
//! Commands too long for the normal run ([`PARSED_ONLY`]) are checked with `--help` appended
//! (their options parse) and run whole by the `#[ignore]`d test.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Commands (as their line begins) that take more than a few seconds, or never end (`serve`):
/// the normal run checks that they parse; `every_book_command_runs_including_the_long_ones`
/// runs them.
const PARSED_ONLY: &[&str] = &[
    "godsearch bfs 4x4 --max-depth 28 --count-last", // 37 s
    "godsearch solve 3x3x3 --moves",                 // the two-phase tables build: 30 s
    // The <R, U> group, 6-7 s each (definitions.rs enumerates it in both metrics anyway).
    "godsearch bfs data/definitions/3x3x3-ru.tws",
    "godsearch bfs data/definitions/3x3x3.kpuzzle.json --generators R,U",
    // The 4x4x4 to 7 on disk (90 s on two cores, 3.1 GiB of files) and its squares group to
    // 10 (about 30 s): app/tests/integration/definitions.rs runs both code paths on smaller cases.
    "godsearch bfs 4x4x4 --max-depth 7 --workdir",
    "godsearch bfs 4x4x4 --generators U2,2U2,2D2,R2,2R2,2L2,F2,2F2,2B2,3Uw2,3Rw2,3Fw2",
    "godsearch serve", // runs until stopped
    "godsearch bench", // minutes
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `godsearch` lines of the `sh` blocks of the README and the book, with their file.
fn shown_commands() -> Vec<(String, String)> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let mut commands = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let mut in_sh = false;
        for line in text.lines() {
            let line = line.trim();
            if line.starts_with("```") {
                in_sh = line == "```sh";
                continue;
            }
            if !in_sh {
                continue;
            }
            let line = match line.strip_prefix("cargo run --release -- ") {
                Some(rest) => format!("godsearch {rest}"),
                None => line.to_string(),
            };
            if line.starts_with("godsearch ") || line.starts_with("mkdir ") {
                commands.push((name.clone(), line));
            }
        }
    }
    commands
}

/// The figures a command's comment quotes with thousands separators (`3,149,280`).
fn quoted_figures(line: &str) -> Vec<String> {
    let Some((_, comment)) = line.split_once(" #") else {
        return Vec::new();
    };
    comment
        .split(|c: char| !(c.is_ascii_digit() || c == ','))
        .map(|t| t.trim_matches(','))
        .filter(|t| t.contains(',') && t.split(',').skip(1).all(|g| g.len() == 3))
        .map(str::to_string)
        .collect()
}

/// Runs every shown command in one fresh folder, in the order shown (a table saved by one
/// is read by the next); `long` runs the [`PARSED_ONLY`] ones whole too.
fn run_book(long: bool) {
    let folder = tempfile::tempdir().unwrap();
    let home = folder.path().join("home");
    std::fs::create_dir(&home).unwrap();
    std::os::unix::fs::symlink(root().join("data"), folder.path().join("data")).unwrap();
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_godsearch"));
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let commands = shown_commands();
    assert!(
        commands.len() >= 30,
        "only {} commands found",
        commands.len()
    );
    for (file, line) in commands {
        let slow = PARSED_ONLY.iter().any(|p| line.starts_with(p));
        let script = match (slow && !long, line.split_once(" #")) {
            (true, Some((command, _))) => format!("{command} --help"),
            (true, None) => format!("{line} --help"),
            (false, _) => line.clone(),
        };
        let output = Command::new("sh")
            .arg("-c")
            .arg(&script)
            .current_dir(folder.path())
            .env("PATH", &path)
            .env("HOME", &home)
            .env("XDG_CACHE_HOME", common::shared_cache_home())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{file}: `{script}` failed ({}):\n{stdout}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        if slow && !long {
            continue;
        }
        for figure in quoted_figures(&line) {
            assert!(
                stdout.contains(&figure),
                "{file}: `{line}` says {figure}, its output does not:\n{stdout}"
            );
        }
    }
}

#[test]
fn every_book_command_runs_as_shown() {
    run_book(false);
}

#[test]
#[ignore = "runs the long commands too: about four minutes"]
fn every_book_command_runs_including_the_long_ones() {
    run_book(true);
}

#[test]
fn figures_are_read_from_comments() {
    assert_eq!(
        quoted_figures("godsearch bfs 3x3   # 181,440 positions, diameter 31, 3,674,160"),
        ["181,440", "3,674,160"]
    );
    assert!(quoted_figures("godsearch solve 3x3 2,4,0,1,8,5,3,6,7").is_empty());
}
