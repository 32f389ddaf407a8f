//! Helpers shared by the command-line tests: run the binary, read its JSON, check refusals.

#![allow(dead_code)]

use std::process::{Command, Output};

pub fn godsearch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_godsearch"))
        .args(args)
        .output()
        .expect("the binary runs")
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every JSON document the command printed, one a line.
pub fn json_lines(args: &[&str]) -> Vec<serde_json::Value> {
    let out = godsearch(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON document a line"))
        .collect()
}

/// The first JSON document the command printed.
pub fn json(args: &[&str]) -> serde_json::Value {
    json_lines(args).remove(0)
}

/// Asserts a bad-input failure: exit code 2, one line on stderr containing `needle`, no panic.
pub fn refused(args: &[&str], needle: &str) {
    let out = godsearch(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: expected '{needle}' in: {err}"
    );
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: one line please: {err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

pub fn levels_of(v: &serde_json::Value) -> Vec<u64> {
    v["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}
