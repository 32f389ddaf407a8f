//! Progress reporting: the engines call a sink, the front end decides what to show.
//!
//! Every long-running engine (enumeration, table builds, searches) reports through [`Progress`];
//! nothing below the front ends prints.

/// Receives progress from a running enumeration. All methods may be called from any thread.
pub trait Progress: Sync {
    /// Work on the level at `depth` begins; it consists of `units` steps (positions scanned or
    /// expanded).
    fn level_started(&self, depth: u32, units: u64) {
        let _ = (depth, units);
    }
    /// `units` more steps of the current level are done.
    fn advanced(&self, units: u64) {
        let _ = units;
    }
    /// The level at `depth` is complete with `positions` positions.
    fn level_finished(&self, depth: u32, positions: u64) {
        let _ = (depth, positions);
    }
    /// Where the current level stands, in words (its phase, the disk used), for a display
    /// beside the counts.
    fn detail(&self, text: &str) {
        let _ = text;
    }
    /// Whether the caller wants the run to stop. Engines ask between levels and stop with the
    /// levels finished so far, each exact.
    fn cancelled(&self) -> bool {
        false
    }
}

/// A sink that ignores everything.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProgress;

impl Progress for NoProgress {}
