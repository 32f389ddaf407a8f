//! What front ends hold while the work runs, from the engines below: the [`Progress`] sink they
//! implement (levels, table builds, cancel), [`NoProgress`] where nothing is shown, a tile
//! search's [`Watch`] (threshold, nodes, the iteration's forecast) that a status line reads, and
//! the [`Notice`]s the work gives of its tables (built, rebuilt, worth caching).

pub use godsearch_core::{CancelOnly, Cancelled, NoProgress, Progress};
pub use godsearch_search::tiles::{Direction, ResumedIteration, SearchedSubtrees, Watch};
use std::path::PathBuf;

/// What the work did with its tables that the user should hear about (a puzzle's heuristic
/// choice, a solver's tables).
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// A cached database was unusable and is rebuilt.
    Rebuilding {
        /// Why the cached file was not used.
        why: String,
    },
    /// A pattern database was built.
    Built {
        /// The group's tiles.
        tiles: Vec<u16>,
        /// Its entries.
        entries: u64,
        /// Seconds the build took.
        seconds: f64,
        /// The folder it was saved in, or why it was not saved.
        saved: Result<PathBuf, String>,
    },
    /// Subgoal stage tables were built.
    StagesBuilt {
        /// The plan, as `--stages` writes it.
        plan: String,
        /// Seconds the build took.
        seconds: f64,
        /// The folder they were saved in, or why they were not saved.
        saved: Result<PathBuf, String>,
    },
    /// Nothing strong enough is cached: `auto` fell back to a weaker heuristic, and caching
    /// `partition` once would make long boards far faster.
    NothingCached {
        /// The strongest named partition for this board.
        partition: &'static str,
        /// The board size, as `pdb build` takes it.
        puzzle: String,
        /// The goal as a tile list, when it is not the standard one (`pdb build --goal`).
        goal: Option<String>,
    },
    /// Tables a solver needs (the cube's two-phase or optimal tables) were built.
    TablesBuilt {
        /// Which tables, in words (`the two-phase tables`).
        what: String,
        /// Seconds the build took.
        seconds: f64,
        /// Why a cached file was not used, if there was one.
        replaced: Option<String>,
        /// The folder they were saved in, or why they were not saved.
        saved: Result<PathBuf, String>,
    },
    /// Half-depth search holds the positions near the goal: boards within twice `depth`
    /// moves are solved (all of them when `all`).
    HalfDepthHeld {
        /// Positions held.
        positions: u64,
        /// The depth held.
        depth: u32,
        /// Whether every position is held.
        all: bool,
    },
}
