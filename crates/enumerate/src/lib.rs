//! God's algorithm: breadth-first enumeration of a whole state space from its goal.
//!
//! Two engines, each written once, both multi-threaded with rayon:
//!
//! - [`table`], over any [`RankedSpace`] and any entry encoding
//!   ([`LevelTable`](godsearch_tables::LevelTable)): a rank-indexed table of every position's
//!   distance, 2 bits mod 3 (`state_count / 4` bytes) or a byte exact; the result is also a
//!   distance table from which any position is solved by descent. It builds the tiles' and the
//!   2x2x2's distance tables, the subgoal stage tables and the two-phase pruning tables.
//! - [`frontier`], over any [`StateSpace`](godsearch_core::StateSpace): only the levels needed
//!   to make the next one, as sorted state arrays; for spaces whose table would not fit (the 15-
//!   and 24-puzzle) and for spaces of symmetry classes (the 3x3x3, counting positions exactly).
//!   Stops cleanly at a depth or memory limit, optionally after counting one level more than
//!   it stores ([`count_last`], Bryan's method). Its levels live in a
//!   [`LevelStore`](level_store::LevelStore) (sorted arrays in memory).
//! - [`disk`], the frontier engine's form for levels that do not fit in memory: each level a
//!   set of bucket files on disk, made bucket by bucket (delayed duplicate detection), durable
//!   level by level and resumable. A level on disk is never held whole, so this is not a
//!   `LevelStore` (whose `newest()` is a slice); it shares the frontier's expansion and
//!   counting code.
//! - [`state_levels`], the frontier engine's search for spaces whose states have no integer
//!   key (more positions than 128 bits number: the megaminx, the 4x4x4), states sorted whole
//!   and the newest level expanded a share at a time.
//! - [`distributed`] (feature `distributed`), the frontier engine across threads, processes
//!   and machines on timely dataflow: every state owned by one worker by a fixed hash, each
//!   level's neighbours exchanged to their owners, levels in memory or, per worker, as the
//!   disk engine keeps them (routed through its `Router` hook).
//!
//! [`half_depth`] solves positions optimally by meeting in the middle over the frontier
//! engine's levels; [`keys`] is what lets states be sorted by radix and written as key gaps.
//!
//! [`pattern_db`] builds the sliding tiles' pattern databases, specialised: its moves cost 0
//! (the blank passing through cells the group does not hold) or 1, which the unit-cost engines
//! cannot express, and its region flood fill is what makes the 7-8 databases build in 51 s
//! rather than the 224 s of a queue (docs/performance.md).
//!
//! [`reference`](mod@reference) is a deliberately plain hash-set BFS over any state type: the independent check
//! the tests compare the engines with, and the baseline the benchmark measures them against.
//! Progress goes to a [`Progress`] sink; nothing here prints.

pub mod back_moves;
pub mod count_last;
pub mod disk;
#[cfg(feature = "distributed")]
pub mod distributed;
pub mod frontier;
pub mod half_depth;
pub mod hashed_ball;
pub mod keys;
pub mod level_store;
pub mod pattern_db;
pub mod reference;
mod shares;
pub mod state_levels;
pub mod table;

use godsearch_core::RankedSpace;
pub use godsearch_core::{NoProgress, Progress};
pub use keys::KeyState;
use thiserror::Error;

/// Limits an enumeration must respect.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Stop after the level at this distance (inclusive); `None` for no limit.
    pub max_depth: Option<u32>,
    /// Bytes the engine may hold in its tables and level arrays.
    pub memory_bytes: u64,
    /// Record the positions of the last level when there are at most this many.
    pub antipode_cap: usize,
    /// Frontier engine: count one level more than is stored ([`count_last`]). The level at
    /// `max_depth`, or the one that would not fit in `memory_bytes`, is counted exactly
    /// without being stored, and the run stops after it. The table engine, which stores every
    /// position anyway, ignores it.
    pub count_last: bool,
}

/// Why an enumeration ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Every reachable position was counted; the last level is the diameter.
    Complete,
    /// The level at `max_depth` was counted and the run stopped there (or where the caller's
    /// observer of the levels stopped it, [`table::enumerate_observed`]).
    MaxDepth(u32),
    /// The caller cancelled the run ([`Progress::cancelled`])
    /// after the level at this depth was counted.
    Cancelled(u32),
    /// The level at `depth` would need `needed` bytes, more than the `budget`; the levels before
    /// it are exact, and with [`Limits::count_last`] so is its own count (not stored).
    Memory {
        /// The level that did not fit.
        depth: u32,
        /// Bytes it would have needed (with the levels kept beside it).
        needed: u64,
        /// The memory limit.
        budget: u64,
    },
    /// The level at `depth` would need about `needed` bytes of disk, more than the `available`
    /// (or the disk filled while it was made); the levels before it are exact and durable,
    /// and with [`Limits::count_last`] its own count is exact (not written).
    Disk {
        /// The level that did not fit.
        depth: u32,
        /// Bytes it would need, estimated.
        needed: u64,
        /// Bytes free when it was to start.
        available: u64,
    },
}

/// The result of an enumeration: exact counts of the levels it reached.
#[derive(Debug, Clone)]
pub struct Enumeration<R> {
    /// `levels[d]` = exact number of positions at distance `d` from the goal.
    pub levels: Vec<u64>,
    /// `classes[d]` = exact number of states stored at distance `d`: symmetry classes for a
    /// space that has them, otherwise equal to `levels[d]`.
    pub classes: Vec<u64>,
    /// Why it ended.
    pub stop: Stop,
    /// The positions of the last level (the antipodes when complete), when there were at most
    /// [`Limits::antipode_cap`] of them.
    pub last_level: Option<Vec<R>>,
    /// The most bytes the engine's own tables and arrays held at once.
    pub peak_bytes: u64,
    /// The last level was counted without being stored ([`Limits::count_last`]).
    pub last_counted_only: bool,
}

impl<R> Enumeration<R> {
    /// Positions counted, over all levels.
    pub fn total(&self) -> u64 {
        self.levels.iter().sum()
    }

    /// The diameter (largest distance), known only when the run is complete.
    pub fn diameter(&self) -> Option<u32> {
        (self.stop == Stop::Complete).then(|| self.levels.len() as u32 - 1)
    }
}

/// The enumeration could not start.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum EnumerateError {
    /// The full table does not fit in the memory budget.
    #[error("a table of {states} positions needs {needed} bytes, more than the budget of {budget} bytes")]
    TableTooLarge {
        /// Positions in the space.
        states: u128,
        /// Bytes the table would take.
        needed: u128,
        /// The memory limit.
        budget: u64,
    },
    /// A level deeper than the table's entries can hold.
    #[error("level {depth} is deeper than this table's entries hold (at most {most})")]
    TooDeep {
        /// The level that did not fit.
        depth: u32,
        /// The deepest level the encoding holds.
        most: u32,
    },
}

/// Which engine to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// [`table`]: the whole space at 2 bits a position.
    Table,
    /// [`frontier`]: sorted rank arrays of the last levels only.
    Frontier,
}

/// The table engine when its table fits in `memory_bytes`, the frontier engine otherwise.
pub fn choose_engine<P: RankedSpace>(puzzle: &P, memory_bytes: u64) -> Engine {
    if table::table_bytes(puzzle.state_count()) <= memory_bytes as u128 {
        Engine::Table
    } else {
        Engine::Frontier
    }
}
