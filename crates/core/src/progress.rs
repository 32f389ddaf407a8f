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
    /// Loading or building a table begins: `what` names it in words (`the 6-6-6-6 pattern
    /// databases, 2 of 4`). Until [`tables_ready`](Self::tables_ready) the work is on tables
    /// a later request reuses, which a job does not charge to its own time limit.
    fn tables_started(&self, what: &str) {
        let _ = what;
    }
    /// The tables named by [`tables_started`](Self::tables_started) are loaded or built.
    fn tables_ready(&self) {}
}

/// Runs `work` between [`Progress::tables_started`] and [`Progress::tables_ready`], so that a
/// job shows which tables it is on and does not charge their time to its limit.
pub fn on_tables<T>(progress: &dyn Progress, what: &str, work: impl FnOnce() -> T) -> T {
    progress.tables_started(what);
    let done = work();
    progress.tables_ready();
    done
}

/// A build stopped because its [`Progress`] said [`cancelled`](Progress::cancelled): nothing
/// it made is complete, so nothing of it may be kept or saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("cancelled before it was complete")]
pub struct Cancelled;

/// Forwards only [`cancelled`](Progress::cancelled) to another sink: for work inside a larger
/// one (several small tables built at once) whose levels are not the larger work's levels.
pub struct CancelOnly<'a>(pub &'a dyn Progress);

impl Progress for CancelOnly<'_> {
    fn cancelled(&self) -> bool {
        self.0.cancelled()
    }
}

/// A sink that ignores everything.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProgress;

impl Progress for NoProgress {}
