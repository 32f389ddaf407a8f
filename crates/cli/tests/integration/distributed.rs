//! `bfs --processes/--process/--hostfile`: distributed runs on loopback give the counts of the
//! single-process engine; a process killed in the middle of a level makes the others stop
//! within seconds with an error naming it, and `--resume` finishes the run to the same counts;
//! processes started with different options refuse each other.

use crate::common;

use common::{godsearch, json, stderr};
use godsearch_testdata::{column, levels};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long the surviving processes may take to notice a killed one and stop.
const NOTICE_WITHIN: Duration = Duration::from_secs(15);
/// How long the processes of a launcher that was killed or interrupted may take to end (they
/// are told at once, and remove only their temporary files).
const DIE_WITHIN: Duration = Duration::from_secs(2);
/// Give up waiting for a kill point after this long.
const PATIENCE: Duration = Duration::from_secs(120);

fn levels_of(report: &serde_json::Value, key: &str) -> Vec<u64> {
    serde_json::from_value(report[key].clone()).unwrap()
}

/// The report of `bfs ARGS --processes K --json`, checked to be a distributed run of `k`
/// workers.
fn distributed(args: &[&str], k: usize) -> serde_json::Value {
    let processes = k.to_string();
    let mut all = vec!["bfs"];
    all.extend(args);
    all.extend(["--processes", &processes, "--json"]);
    let report = json(&all);
    assert_eq!(report["engine"], "frontier, distributed", "{all:?}");
    assert_eq!(report["distributed"]["workers"], k as u64);
    assert_eq!(report["distributed"]["processes"], k as u64);
    report
}

#[test]
fn two_and_three_processes_count_what_one_does() {
    for k in [2, 3] {
        let r = distributed(&["3x3"], k);
        assert_eq!(levels_of(&r, "levels"), levels("sliding-3x3.txt"));
        assert_eq!(r["antipode_count"], 2);
        assert_eq!(r["antipodes"].as_array().map(Vec::len), Some(2));
        let r = distributed(&["2x2x2"], k);
        assert_eq!(levels_of(&r, "levels"), levels("cube2x2x2-htm.txt"));
        let r = distributed(&["4x4", "--max-depth", "24"], k);
        assert_eq!(levels_of(&r, "levels"), levels("sliding-4x4.txt")[..=24]);
        let sent: u64 = r["distributed"]["levels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["sent_states"].as_u64().unwrap())
            .sum();
        assert!(sent > 0, "states cross processes");
        let r = distributed(&["3x3x3", "--max-depth", "7"], k);
        assert_eq!(levels_of(&r, "levels"), column("cube3x3x3-htm.txt", 1, 8));
        assert_eq!(levels_of(&r, "classes"), column("cube3x3x3-htm.txt", 2, 8));
    }
    let single = json(&["bfs", "3x3x3", "--max-depth", "7", "--json"]);
    let r = distributed(&["3x3x3", "--max-depth", "7"], 2);
    assert_eq!(r["levels"], single["levels"]);
    assert_eq!(r["classes"], single["classes"]);
}

/// Ports free on loopback now.
fn free_ports(count: usize) -> Vec<u16> {
    let listeners: Vec<TcpListener> = (0..count)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    listeners
        .iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect()
}

/// A hostfile of `count` free loopback addresses in `dir`.
fn hostfile(dir: &Path, count: usize) -> String {
    let path = dir.join("hosts");
    let lines: String = free_ports(count)
        .iter()
        .map(|p| format!("127.0.0.1:{p}\n"))
        .collect();
    std::fs::write(&path, lines).unwrap();
    path.to_str().unwrap().to_string()
}

/// Process `process` of a run of `args` with `hosts`, its stderr piped.
fn member(args: &[&str], process: usize, hosts: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_godsearch"))
        .args(args)
        .args(["--process", &process.to_string(), "--hostfile", hosts])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// The 4x4 to depth 24 with checkpoints in `workdir`.
fn checkpointed(workdir: &str) -> Vec<&str> {
    vec![
        "bfs",
        "4x4",
        "--max-depth",
        "24",
        "--workdir",
        workdir,
        "--json",
    ]
}

#[test]
fn a_killed_process_stops_the_others_and_the_run_resumes_to_the_same_counts() {
    let dir = tempfile::tempdir().unwrap();
    let workdir = dir.path().join("run");
    let workdir = workdir.to_str().unwrap();
    let hosts = hostfile(dir.path(), 3);
    let args = checkpointed(workdir);
    let mut children: Vec<Child> = (0..3).map(|p| member(&args, p, &hosts)).collect();
    // Process 1 is killed once its worker has saved level 20: it is then making level 21.
    let saved_20 = Path::new(workdir).join("worker-001/level-020");
    let started = Instant::now();
    while !saved_20.exists() {
        assert!(started.elapsed() < PATIENCE, "level 20 never saved");
        assert!(
            children[1].try_wait().unwrap().is_none(),
            "ended before the kill"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    children[1].kill().expect("SIGKILL");
    children[1].wait().unwrap();
    let killed = Instant::now();
    for p in [0, 2] {
        let out = children
            .remove(if p == 0 { 0 } else { 1 })
            .wait_with_output()
            .unwrap();
        let message = String::from_utf8_lossy(&out.stderr);
        assert!(
            killed.elapsed() < NOTICE_WITHIN,
            "process {p} took {:?}",
            killed.elapsed()
        );
        assert_eq!(out.status.code(), Some(1), "process {p}: {message}");
        assert!(
            message.contains("the connection to process 1 closed"),
            "process {p}: {message}"
        );
        assert!(message.contains("--resume"), "process {p}: {message}");
        assert!(!message.contains("panicked"), "process {p}: {message}");
    }
    let mut resumed = checkpointed(workdir);
    resumed.extend(["--resume", "--processes", "3"]);
    let r = json(&resumed);
    let from = r["resumed_from"].as_u64().expect("resumed");
    assert!((19..=21).contains(&from), "resumed from {from}");
    assert_eq!(levels_of(&r, "levels"), levels("sliding-4x4.txt")[..=24]);
}

/// How many running processes have `text` in their command line.
fn processes_mentioning(text: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .filter(|line| String::from_utf8_lossy(line).contains(text))
        .count()
}

/// The hostfile folders a launcher left in `tmp`.
fn hostfile_folders(tmp: &Path) -> Vec<String> {
    std::fs::read_dir(tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("godsearch-hosts-"))
        .collect()
}

#[test]
fn the_processes_die_with_their_launcher_and_the_run_resumes_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let workdir = dir.path().join("run");
    let workdir = workdir.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = checkpointed(workdir);
        args.extend(["--processes", "2"]);
        args.extend(extra);
        Command::new(env!("CARGO_BIN_EXE_godsearch"))
            .args(&args)
            .env("TMPDIR", &tmp)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    for (round, signal) in ["TERM", "INT", "HUP", "KILL"].into_iter().enumerate() {
        // Wait until the run is past where the round before stopped it: a level it saves
        // itself (the round before may have saved more than the level it waited for, and a
        // signal sent before this launcher is under way would test nothing).
        let level = |n: usize| Path::new(workdir).join(format!("worker-001/level-{n:03}"));
        let first_new = (17 + round..).find(|&n| !level(n).exists()).unwrap();
        let saved = level(first_new);
        let mut launcher = run(if round == 0 { &[] } else { &["--resume"] });
        let started = Instant::now();
        while !saved.exists() {
            assert!(started.elapsed() < PATIENCE, "{signal}: level never saved");
            assert!(
                launcher.try_wait().unwrap().is_none(),
                "{signal}: ended early"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        let sent = Command::new("kill")
            .args(["-s", signal, &launcher.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let status = launcher.wait().unwrap();
        assert!(!status.success(), "{signal}");
        let killed = Instant::now();
        while processes_mentioning(workdir) > 0 {
            assert!(
                killed.elapsed() < DIE_WITHIN,
                "{signal}: a process outlived its launcher"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        let last = Path::new(workdir).join("worker-001/level-024");
        assert!(!last.exists(), "{signal}: a process finished the run alone");
        if signal != "KILL" {
            assert_eq!(hostfile_folders(&tmp), Vec::<String>::new(), "{signal}");
        }
    }
    // SIGKILL left the launcher no time to clean up; the next launch removes its folder.
    assert_eq!(hostfile_folders(&tmp).len(), 1);
    let out = run(&["--resume"]).wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(report["resumed_from"].as_u64().expect("resumed") >= 19);
    assert_eq!(
        levels_of(&report, "levels"),
        levels("sliding-4x4.txt")[..=24]
    );
    assert_eq!(hostfile_folders(&tmp), Vec::<String>::new());
}

#[test]
fn processes_with_different_options_refuse_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = hostfile(dir.path(), 2);
    let a = member(&["bfs", "3x3"], 0, &hosts);
    let b = member(&["bfs", "3x4"], 1, &hosts);
    for (p, child) in [a, b].into_iter().enumerate() {
        let out = child.wait_with_output().unwrap();
        let message = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "process {p}");
        assert!(
            message.contains("runs another enumeration"),
            "process {p}: {message}"
        );
    }
}

#[test]
fn distributed_options_are_checked() {
    let refused = |args: &[&str], needle: &str| {
        let out = godsearch(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
    };
    refused(&["bfs", "3x3", "--processes", "0"], "at least 1");
    refused(&["bfs", "3x3", "--workers", "0"], "at least 1");
    refused(
        &["bfs", "3x3", "--processes", "2", "--count-last"],
        "--count-last",
    );
    refused(
        &["bfs", "3x3", "--processes", "2", "--save", "t.bin"],
        "--save",
    );
    let dir = tempfile::tempdir().unwrap();
    let hosts = hostfile(dir.path(), 2);
    refused(
        &["bfs", "3x3", "--process", "2", "--hostfile", &hosts],
        "processes 0 to 1",
    );
    refused(
        &[
            "bfs",
            "3x3",
            "--process",
            "0",
            "--processes",
            "3",
            "--hostfile",
            &hosts,
        ],
        "lists 2 processes",
    );
}
