//! The table cache as several users meet it: runs that need the same missing table build it
//! once, `cache list` and `cache clean` show and remove it, and files are written 0644 (0600
//! with --private).

mod common;

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
    std::fs::write(dir.path().join("pdb-3x3-00000000-9.tbl"), b"damaged").unwrap();
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
