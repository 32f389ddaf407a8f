//! `bfs --workdir`: a run killed with SIGKILL in the middle of a level, or while it writes its
//! manifest, continues with `--resume` to exactly the counts of an uninterrupted run; a folder
//! that holds a run is not overwritten; the report gives the disk figures.

use crate::common;

use common::{json, refused};
use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The run the kills interrupt: the 3x4 board to depth 27 (a few seconds) in small buckets
/// with a small memory budget, so levels split and spill.
const RUN: &[&str] = &[
    "bfs",
    "3x4",
    "--max-depth",
    "27",
    "--memory",
    "16M",
    "--bucket-states",
    "20000",
    "--json",
];
/// Give up waiting for a kill point after this long.
const PATIENCE: Duration = Duration::from_secs(120);

fn start(dir: &Path, resume: bool) -> Child {
    let mut args: Vec<&str> = RUN.to_vec();
    let workdir = dir.to_str().unwrap();
    args.extend(["--workdir", workdir]);
    if resume {
        args.push("--resume");
    }
    Command::new(env!("CARGO_BIN_EXE_godsearch"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs")
}

/// The level counts of a run in `dir` (resumed when `resume`), from its JSON report.
fn levels(dir: &Path, resume: bool) -> Vec<u64> {
    let workdir = dir.to_str().unwrap();
    let mut args: Vec<&str> = RUN.to_vec();
    args.extend(["--workdir", workdir]);
    if resume {
        args.push("--resume");
    }
    let report = json(&args);
    assert_eq!(report["engine"], "frontier on disk");
    serde_json::from_value(report["levels"].clone()).unwrap()
}

/// Whether `dir` (not its subfolders) holds a temporary file: the manifest being written.
fn manifest_being_written(dir: &Path) -> bool {
    fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
    })
}

/// Bucket files written so far in level `depth`.
fn buckets_written(dir: &Path, depth: u32) -> usize {
    fs::read_dir(dir.join(format!("level-{depth:03}")))
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("bucket-"))
                .count()
        })
        .unwrap_or(0)
}

/// Starts the run in `dir` and SIGKILLs it as soon as `kill_point` holds; `false` if the run
/// ended first.
fn kill_when(dir: &Path, kill_point: impl Fn(&Path) -> bool) -> bool {
    let mut child = start(dir, false);
    let started = Instant::now();
    loop {
        if kill_point(dir) {
            child.kill().expect("SIGKILL");
            child.wait().expect("reaped");
            return true;
        }
        if child.try_wait().expect("waiting").is_some() || started.elapsed() > PATIENCE {
            child.kill().ok();
            child.wait().ok();
            return false;
        }
    }
}

#[test]
fn killed_runs_resume_to_the_uninterrupted_counts() {
    let whole = tempfile::tempdir().unwrap();
    let expected = levels(whole.path(), false);
    assert_eq!(expected.len(), 28);

    // In the middle of a level: some of its buckets written, not all.
    let mid_level = tempfile::tempdir().unwrap();
    assert!(kill_when(mid_level.path(), |d| buckets_written(d, 24) >= 3));
    assert_eq!(levels(mid_level.path(), true), expected, "killed mid-level");

    // While the manifest is written (its temporary file seen), past the first levels. The
    // window is short; a few tries catch it.
    let mut caught = false;
    for _ in 0..5 {
        let dir = tempfile::tempdir().unwrap();
        if kill_when(dir.path(), |d| {
            buckets_written(d, 15) > 0 && manifest_being_written(d)
        }) {
            assert_eq!(
                levels(dir.path(), true),
                expected,
                "killed writing the manifest"
            );
            caught = true;
            break;
        }
    }
    assert!(caught, "no run was caught writing its manifest");

    // A folder that holds a run is not started over without --resume.
    let workdir = whole.path().to_str().unwrap();
    let mut args: Vec<&str> = RUN.to_vec();
    args.extend(["--workdir", workdir]);
    refused(&args, "--resume");
}

#[test]
fn the_report_gives_disk_figures() {
    let dir = tempfile::tempdir().unwrap();
    let workdir = dir.path().to_str().unwrap();
    let report = json(&[
        "bfs",
        "4x4",
        "--max-depth",
        "18",
        "--workdir",
        workdir,
        "--json",
    ]);
    let costs = report["level_costs"].as_array().unwrap();
    assert_eq!(costs.len(), 19);
    assert!(report["peak_disk_bytes"].as_u64().unwrap() > 0);
    let per_state = report["bytes_per_state"].as_f64().unwrap();
    assert!(per_state > 1.0 && per_state < 8.0, "{per_state}");
    refused(
        &["bfs", "3x3", "--workdir", workdir, "--save", "x.table"],
        "--workdir",
    );
    refused(&["bfs", "3x3", "--resume"], "--workdir");
    refused(
        &["bfs", "3x3", "--workdir", workdir, "--disk", "50%"],
        "50G",
    );

    // A disk budget stops the run with exact counts and says what to free.
    let tight = tempfile::tempdir().unwrap();
    let out = common::godsearch(&[
        "bfs",
        "3x4",
        "--max-depth",
        "24",
        "--workdir",
        tight.path().to_str().unwrap(),
        "--disk",
        "300K",
    ]);
    assert!(out.status.success());
    let text = common::stdout(&out);
    assert!(text.contains("did not fit on disk"), "{text}");
    assert!(text.contains("--resume"), "{text}");
}

/// A file given as --workdir is refused as not a folder; a folder refused for holding other
/// files keeps no lock file of ours; a damaged manifest stops a resume with exit 1 (a damaged
/// file is the run's failure, not the request's).
#[test]
fn refused_folders_are_left_as_they_were_and_damage_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    fs::write(&file, "mine").unwrap();
    refused(
        &["bfs", "3x3", "--workdir", file.to_str().unwrap()],
        "not a folder",
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), "mine");
    let busy = dir.path().join("holds-mine");
    fs::create_dir(&busy).unwrap();
    fs::write(busy.join("notes.txt"), "mine").unwrap();
    refused(
        &["bfs", "3x3", "--workdir", busy.to_str().unwrap()],
        "holds other files",
    );
    let left: Vec<_> = fs::read_dir(&busy)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("notes.txt")]);

    let run = dir.path().join("run");
    let workdir = run.to_str().unwrap();
    json(&[
        "bfs",
        "3x3",
        "--workdir",
        workdir,
        "--max-depth",
        "8",
        "--json",
    ]);
    fs::write(run.join("manifest"), "not a manifest").unwrap();
    let out = common::godsearch(&["bfs", "3x3", "--workdir", workdir, "--resume"]);
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    assert!(common::stderr(&out).contains("damaged run manifest"));
}
