//! `godsearch bench --section distributed`: the distributed backend against the frontier
//! engine alone (as `bfs` runs it in one process: states with their moves back, as the
//! backend's workers keep them) on the same board and depth, measured in the same run: the
//! backend in one process (one and two workers), then 2, 3 and 4 processes on loopback
//! (started as this program's `bfs --processes K`). Prints each run's time as a ratio to the
//! engine alone, the
//! states and bytes the workers sent each other, and the network volume a simple model
//! predicts from the 2-process run (docs/distributed.md uses these figures).

use anyhow::{ensure, Context, Result};
use godsearch_app::units::{format_bytes, format_count};
use godsearch_console::outln;
use godsearch_enumerate::back_moves::BackMoves;
use godsearch_enumerate::{frontier, Limits, NoProgress};
use godsearch_puzzles::tiles::{Board, Shape, TileSpace};
use std::process::Command;
use std::time::Instant;

/// Depth of the 4x4 run (about 2.5 s for the engine alone here); `--large` goes deeper.
const DEPTH: u32 = 25;
/// Depth with `--large` (the engine alone needs about 3 GB and 15 s).
const LARGE_DEPTH: u32 = 28;
/// Bits a gap grows by when the workers double (see the model in `run`).
const GAP_BITS_PER_DOUBLING: f64 = 2.0;
/// The process counts run on loopback.
const PROCESSES: [usize; 3] = [2, 3, 4];

/// One run's figures.
struct Run {
    case: String,
    seconds: f64,
    levels: Vec<u64>,
    sent_states: u64,
    sent_bytes: u64,
}

/// The distributed section: 4x4 through depth 25, or 28 with `large`.
pub fn run(large: bool) -> Result<()> {
    let depth = if large { LARGE_DEPTH } else { DEPTH };
    outln!("== distributed: 4x4 through depth {depth}, the frontier engine alone against the backend\n");
    let tiles = TileSpace::<u64>::new(Board::goal(Shape::new(4, 4)?))?;
    let space = BackMoves::ranked(tiles).context("4x4 states with their moves back")?;
    let limits = Limits {
        max_depth: Some(depth),
        memory_bytes: godsearch_console::machine::memory_budget(None),
        antipode_cap: 0,
        count_last: false,
    };
    let started = Instant::now();
    let alone = frontier::enumerate(&space, &limits, &NoProgress);
    let alone = Run {
        case: "frontier engine alone".into(),
        seconds: started.elapsed().as_secs_f64(),
        levels: alone.levels,
        sent_states: 0,
        sent_bytes: 0,
    };
    let depth_arg = depth.to_string();
    let mut runs = vec![];
    for (case, extra) in [
        ("1 process, 1 worker", vec!["--workers", "1"]),
        ("1 process, 2 workers", vec!["--workers", "2"]),
    ] {
        runs.push(backend(case, &depth_arg, &extra)?);
    }
    for k in PROCESSES {
        let count = k.to_string();
        let case = format!("{k} processes on loopback");
        runs.push(backend(&case, &depth_arg, &["--processes", &count])?);
    }
    for r in &runs {
        ensure!(
            r.levels == alone.levels,
            "{}: counts differ from the engine alone",
            r.case
        );
    }
    let positions: u64 = alone.levels.iter().sum();
    outln!(
        "{:<26} {:>9} {:>9} {:>16} {:>11} {:>8} {:>14} {:>14}",
        "run",
        "seconds",
        "x alone",
        "states sent",
        "bytes sent",
        "B/state",
        "model: bytes",
        "model: seconds"
    );
    let two = runs
        .iter()
        .find(|r| r.case.starts_with("2 processes"))
        .context("the 2-process run")?;
    // The model: every worker lists the candidates of its share and sends the (K - 1) / K of
    // them that others own; with 2 processes that is half of what they list. A sent state
    // costs the bytes of its gap, and the gaps of one sender to one owner grow as K^2 (each
    // holds 1/K of the states, of which 1/K go to each owner): 2 more bits, 2/7 of a varint
    // byte, each time K doubles.
    //
    // Time: the 1-process run's work, plus a fixed cost for every state sent (hashing, the
    // owner's second sort, encoding, decoding, the transfer), both spread over the cores; the
    // cost a state is what the 2-process run took over the 1-process run.
    let listed = 2 * two.sent_states;
    let bytes_per_state = two.sent_bytes as f64 / two.sent_states.max(1) as f64;
    let one = runs.first().context("the 1-process run")?;
    let cores = available_cores() as f64;
    let core_seconds_a_sent_state =
        (two.seconds - one.seconds).max(0.0) * cores / two.sent_states.max(1) as f64;
    for r in std::iter::once(&alone).chain(&runs) {
        let model = match r.case.split(' ').next().and_then(|k| k.parse::<f64>().ok()) {
            Some(k) if r.case.contains("processes") => {
                let states = listed as f64 * (k - 1.0) / k;
                let per_state = bytes_per_state + GAP_BITS_PER_DOUBLING / 7.0 * (k / 2.0).log2();
                let seconds = one.seconds + states * core_seconds_a_sent_state / cores;
                (format_bytes(states * per_state), format!("{seconds:.2}"))
            }
            _ => ("-".into(), "-".into()),
        };
        outln!(
            "{:<26} {:>9.2} {:>9.2} {:>16} {:>11} {:>8.2} {:>14} {:>14}",
            r.case,
            r.seconds,
            r.seconds / alone.seconds,
            format_count(r.sent_states),
            format_bytes(r.sent_bytes as f64),
            r.sent_bytes as f64 / r.sent_states.max(1) as f64,
            model.0,
            model.1
        );
    }
    outln!(
        "\n{} positions; per core: {} positions/s with 1 process, and {:.0} ns of core time a state sent",
        format_count(positions),
        format_count((positions as f64 / one.seconds / cores) as u64),
        core_seconds_a_sent_state * 1e9
    );
    Ok(())
}

fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `godsearch bfs 4x4 --max-depth DEPTH --json EXTRA` in a child process.
fn backend(case: &str, depth: &str, extra: &[&str]) -> Result<Run> {
    let exe = std::env::current_exe().context("finding this program")?;
    let out = Command::new(exe)
        .args(["bfs", "4x4", "--max-depth", depth, "--json"])
        .args(extra)
        .output()
        .with_context(|| format!("{case}: starting it"))?;
    ensure!(
        out.status.success(),
        "{case}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    let levels = serde_json::from_value(report["levels"].clone())?;
    let per_level = report["distributed"]["levels"]
        .as_array()
        .context("a distributed report")?;
    let sum = |key: &str| -> u64 { per_level.iter().filter_map(|l| l[key].as_u64()).sum() };
    Ok(Run {
        case: case.into(),
        seconds: report["seconds"].as_f64().unwrap_or(0.0),
        levels,
        sent_states: sum("sent_states"),
        sent_bytes: sum("sent_bytes"),
    })
}
