//! Optimal search for sliding-tile boards: heuristics and the IDA* and parallel IDA* engines
//! that use them, and A* (the generic engine, over ranks).
//!
//! The IDA* engines work on a [`Node`]: fixed-size arrays of the tiles by cell and the cells by
//! tile, changed in place by one slide and undone the same way, so the depth-first searches
//! neither allocate nor hash per node. Heuristics are updated incrementally from the one tile
//! that moved ([`TileHeuristic::update`]).

mod astar;
mod both_ways;
mod checkpoint;
mod heuristic;
mod ida;
mod node;
mod probe;
#[cfg(test)]
mod testing;

pub use crate::stats::SearchStats;
pub use astar::{astar, astar_watched, RankedEstimate};
pub use both_ways::{race_both_ways, Direction, Race, Raced, Turn};
pub use checkpoint::SearchedSubtrees;
pub use godsearch_tables::TableBytes;
pub use heuristic::{LinearConflict, Manhattan, PatternHeuristic, ReflectedLookup, TileHeuristic};
pub use ida::{
    ida_star, ida_star_resumed, ida_star_until, ida_star_watched, prepare_pruning, Resume,
    ResumedIteration, SearchOutcome, TurnIteration, Watch,
};
pub use node::{Geometry, Node, MAX_SEARCH_CELLS};
pub use probe::{probe_ways, Probe, Probed, Probing, SWITCH_MARGIN};

use thiserror::Error;

/// Why a search did not produce a solution.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SearchError {
    /// The board is larger than the engines' fixed arrays.
    #[error("optimal search supports boards of at most {MAX_SEARCH_CELLS} cells")]
    BoardTooLarge,
    /// Linear conflict keeps a fixed number of lines.
    #[error("linear conflict supports boards of at most {0} rows and columns")]
    TooManyLines(usize),
    /// A partition with more groups than the pattern heuristic holds.
    #[error("a partition may have at most {most} groups, this one has {groups}")]
    TooManyGroups {
        /// Groups in the partition.
        groups: usize,
        /// The most the heuristic holds.
        most: usize,
    },
    /// The pattern heuristic was given another number of databases than the partition has
    /// groups, or a database of the wrong size (a caller's mistake, not a user's).
    #[error("internal error: the pattern databases do not match the partition ({0})")]
    DatabasesMismatch(&'static str),
    /// A* reached its memory limit before finding a solution.
    #[error("A* stopped at its memory limit after storing {0} positions; use IDA* («algorithm» ida) for this board")]
    OutOfMemory(u64),
    /// A* needs a perfect ranking of the board's positions (at most 20 cells).
    #[error("A* supports boards of at most 20 cells; use IDA* («algorithm» ida)")]
    AStarTooLarge,
    /// The deadline passed first. Every solution has at least `lower_bound` moves (the IDA*
    /// bound under which the whole tree was searched).
    #[error("no solution within the time limit; every solution has at least {lower_bound} moves ({} nodes expanded)", .stats.expanded)]
    Timeout {
        /// A proven lower bound on the solution length.
        lower_bound: u32,
        /// The work done before giving up: IDA*'s iterations, the stopped one last (its
        /// threshold `lower_bound`, its nodes those expanded before the stop). Boxed: every
        /// error of a search would otherwise be as large.
        stats: Box<SearchStats>,
        /// The subtrees of the last iteration (the one of `lower_bound`) searched to the end,
        /// when the parallel search finished any: [`Resume::searched`] skips them.
        searched: Option<SearchedSubtrees>,
    },
    /// The subtrees given to skip were recorded for another split (another board, goal,
    /// direction, threshold or build, or a heuristic that cuts off moves near the start):
    /// skipping them could miss a solution.
    #[error("the searched subtrees given were not recorded by this search: {0}; they are kept only by a search of the same board, goal, direction and bound that splits its iteration alike (the same build)")]
    ResumeMismatch(String),
    /// No solution exists (the start cannot reach the goal); callers check solvability first.
    #[error("the search space was exhausted without reaching the goal")]
    Exhausted,
}
