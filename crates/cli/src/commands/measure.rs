//! What the benchmark sections share: a measured row, the limits they run under, and
//! best-of-n timing.

use crate::machine;
use anyhow::Result;
use godsearch_enumerate::Limits;
use std::time::Instant;

/// One measured enumeration.
pub(crate) struct Row {
    pub case: String,
    pub engine: &'static str,
    pub positions: u64,
    pub seconds: f64,
    pub engine_bytes: u64,
}

pub(crate) fn limits(max_depth: Option<u32>) -> Limits {
    Limits {
        max_depth,
        memory_bytes: machine::default_memory_budget(),
        antipode_cap: 0,
        count_last: false,
    }
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
