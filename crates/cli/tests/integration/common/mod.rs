//! Helpers shared by the command-line tests: run the binary, read its JSON, check refusals.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The `XDG_CACHE_HOME` every command-line test runs the binary with, in cargo's folder for
/// test files (kept between runs): tables a test does not build on purpose (the two-phase
/// tables above all, half a minute on two cores) are built once for every test, and
/// never into the user's own cache. A test of building gives `--cache` a folder of its own.
pub fn shared_cache_home() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cache-home")
}

pub fn godsearch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_godsearch"))
        .args(args)
        .env("XDG_CACHE_HOME", shared_cache_home())
        .output()
        .expect("the binary runs")
}

/// `godsearch ARGS` with `input` on its standard input.
pub fn with_stdin(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_godsearch"))
        .args(args)
        .env("XDG_CACHE_HOME", shared_cache_home())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Sends SIGINT (Ctrl-C) to the process `pid`.
pub fn interrupt(pid: u32) {
    let sent = std::process::Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -INT {pid}");
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every JSON document the command printed, one a line, each checked against the schema.
pub fn json_lines(args: &[&str]) -> Vec<serde_json::Value> {
    let out = godsearch(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let schema = godsearch_app::report::json_schema();
    stdout(&out)
        .lines()
        .map(|l| {
            let doc = serde_json::from_str(l).expect("a JSON document a line");
            assert!(
                fits_schema(&doc, &schema),
                "{args:?}: not in the schema: {l}"
            );
            doc
        })
        .collect()
}

/// Whether `doc` is one of the report types of `schema` (docs/report.schema.json): every
/// field one of its properties (nested objects alike), every required field there.
pub fn fits_schema(doc: &serde_json::Value, schema: &serde_json::Value) -> bool {
    let defs = schema["$defs"].as_object().expect("definitions");
    defs.values().any(|def| fits(doc, def, schema))
}

fn fits(doc: &serde_json::Value, def: &serde_json::Value, schema: &serde_json::Value) -> bool {
    let (Some(fields), Some(properties)) = (doc.as_object(), def["properties"].as_object()) else {
        return false;
    };
    let required_there = def["required"]
        .as_array()
        .into_iter()
        .flatten()
        .all(|k| fields.contains_key(k.as_str().unwrap_or_default()));
    required_there
        && fields.iter().all(|(key, value)| {
            let Some(property) = properties.get(key) else {
                return false;
            };
            // A list of objects refers to another definition: its items must fit it.
            match (value.as_array(), property["items"]["$ref"].as_str()) {
                (Some(items), Some(reference)) => {
                    let name = reference.trim_start_matches("#/$defs/");
                    items
                        .iter()
                        .all(|i| fits(i, &schema["$defs"][name], schema))
                }
                _ => true,
            }
        })
}

/// The first JSON document the command printed.
pub fn json(args: &[&str]) -> serde_json::Value {
    json_lines(args).remove(0)
}

/// Asserts a bad-input failure: exit code 2, one line on stderr containing `needle`, no panic.
pub fn refused(args: &[&str], needle: &str) {
    refused_with(args, godsearch(args), needle);
}

/// As [`refused`], `input` given on standard input.
pub fn refused_with_stdin(args: &[&str], input: &str, needle: &str) {
    refused_with(args, with_stdin(args, input), needle);
}

/// Checks that `out`, the output of `godsearch ARGS`, is a refusal: exit 2, one line naming
/// `needle`, no panic.
fn refused_with(args: &[&str], out: Output, needle: &str) {
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
