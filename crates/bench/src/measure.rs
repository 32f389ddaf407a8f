//! What the benchmark sections share: a measured row, the limits they run under, and
//! best-of-n timing.

use anyhow::Result;
use godsearch_app::units::{format_bytes, format_count, format_rate};
use godsearch_console::machine;
use godsearch_console::outln;
use godsearch_core::StateSpace;
use godsearch_enumerate::disk::{enumerate_on_disk, DiskOptions, DiskRun, DEFAULT_BUCKET_STATES};
use godsearch_enumerate::{KeyState, Limits, NoProgress};
use std::time::Instant;

/// One measured enumeration.
#[derive(Default)]
pub(crate) struct Row {
    pub case: String,
    pub engine: &'static str,
    pub positions: u64,
    pub seconds: f64,
    pub engine_bytes: u64,
    /// Bytes a stored state takes (in memory, or on disk for a run on disk); 0 for none.
    pub bytes_per_state: f64,
    /// The most bytes a run on disk had on disk; 0 for runs in memory.
    pub disk_bytes: u64,
}

impl Row {
    /// The row of a run on disk: its counts and its disk figures.
    pub fn on_disk<S>(case: String, engine: &'static str, run: &DiskRun<S>, seconds: f64) -> Row {
        let written: u64 = run
            .costs
            .iter()
            .filter(|c| c.disk_bytes > 0)
            .map(|c| run.enumeration.classes[c.depth as usize])
            .sum();
        let bytes: u64 = run.costs.iter().map(|c| c.disk_bytes).sum();
        Row {
            case,
            engine,
            positions: run.enumeration.total(),
            seconds,
            engine_bytes: run.enumeration.peak_bytes,
            bytes_per_state: bytes as f64 / written.max(1) as f64,
            disk_bytes: run.peak_disk_bytes,
        }
    }
}

/// Prints `rows` as a table, each rate also as a ratio to `base_rate(row)`; `per_thread` adds
/// a positions-a-second-a-thread column (the baselines, marked by a zero `engine_bytes`, run
/// on one).
pub(crate) fn print_rows(rows: &[Row], threads: usize, base_rate: impl Fn(&Row) -> f64) {
    outln!(
        "{:<18} {:<34} {:>14} {:>9} {:>11} {:>11} {:>9} {:>11} {:>8} {:>10}",
        "case",
        "engine",
        "positions",
        "seconds",
        "pos/s",
        "pos/s/thr",
        "vs base",
        "engine mem",
        "B/state",
        "disk peak"
    );
    let or_dash = |bytes: u64| match bytes {
        0 => "-".to_string(),
        b => format_bytes(b as f64),
    };
    for r in rows {
        let rate = r.positions as f64 / r.seconds;
        let on_threads = if r.engine_bytes == 0 { 1 } else { threads };
        outln!(
            "{:<18} {:<34} {:>14} {:>9.3} {:>11} {:>11} {:>8.1}x {:>11} {:>8} {:>10}",
            r.case,
            r.engine,
            format_count(r.positions),
            r.seconds,
            format_rate(rate),
            format_rate(rate / on_threads as f64),
            rate / base_rate(r),
            or_dash(r.engine_bytes),
            match r.bytes_per_state {
                0.0 => "-".to_string(),
                b => format!("{b:.2}"),
            },
            or_dash(r.disk_bytes),
        );
    }
}

pub(crate) fn limits(max_depth: Option<u32>) -> Limits {
    Limits {
        max_depth,
        memory_bytes: machine::default_memory_budget(),
        antipode_cap: 0,
        count_last: false,
    }
}

/// Enumerates `space` with its levels on disk in a fresh temporary folder (removed after),
/// with the default bucket size.
pub(crate) fn on_disk<P>(space: &P, limits: &Limits) -> Result<DiskRun<P::State>>
where
    P: StateSpace,
    P::State: KeyState,
{
    let dir = tempfile::tempdir()?;
    let options = DiskOptions {
        workdir: dir.path(),
        run: "bench",
        resume: false,
        keep_levels: false,
        bucket_states: DEFAULT_BUCKET_STATES,
        disk_bytes: None,
    };
    Ok(enumerate_on_disk(space, &options, limits, &NoProgress)?)
}

/// Runs `f` `repeats` times and keeps the fastest run.
pub(crate) fn best_of<T>(repeats: usize, mut f: impl FnMut() -> Result<T>) -> Result<(T, f64)> {
    let mut best: Option<(T, f64)> = None;
    for _ in 0..repeats {
        let started = Instant::now();
        let value = f()?;
        let seconds = started.elapsed().as_secs_f64();
        if best.as_ref().is_none_or(|(_, b)| seconds < *b) {
            best = Some((value, seconds));
        }
    }
    Ok(best.expect("at least one repeat"))
}
