//! A* for boards small enough to rank (at most 20 cells): the generic engine
//! ([`crate::astar`]) over [`TileSpace`] ranks, with a tile heuristic read through
//! [`RankedEstimate`].
//!
//! Positions are stored by their perfect rank. A position reached more cheaply later is
//! reopened, so the result is optimal with any admissible heuristic, consistent or not. The
//! search stops with [`SearchError::OutOfMemory`] once it has stored `max_positions` positions.

use super::heuristic::TileHeuristic;
use super::ida::{SearchOutcome, Watch};
use super::node::Node;
use super::SearchError;
use crate::astar::AStarError;
use crate::SearchStats;
use godsearch_core::Heuristic;
use godsearch_puzzles::tiles::{Board, Move, TileSpace};

/// A tile heuristic as a [`Heuristic`] of ranks: each estimate unranks the board and
/// evaluates it afresh. Admissible whenever the tile heuristic is (the same numbers).
pub struct RankedEstimate<'a, H> {
    space: &'a TileSpace<u64>,
    heuristic: &'a H,
}

impl<'a, H: TileHeuristic> RankedEstimate<'a, H> {
    /// The estimates of `heuristic` for the ranks of `space`.
    pub fn new(space: &'a TileSpace<u64>, heuristic: &'a H) -> Self {
        Self { space, heuristic }
    }
}

impl<H: TileHeuristic> Heuristic<u64> for RankedEstimate<'_, H> {
    /// Pattern databases are admissible only (see [`PatternHeuristic`](super::PatternHeuristic)).
    const CONSISTENT: bool = false;

    fn lower_bound(&self, rank: u64) -> u32 {
        let board = self.space.unrank(rank);
        self.heuristic.evaluate(&Node::from_board(&board)).1
    }
}

/// Finds a shortest solution with A*; stores at most `max_positions` positions.
///
/// Exact when `heuristic` is admissible. `start` must reach `goal`.
pub fn astar<H: TileHeuristic>(
    start: &Board,
    goal: &Board,
    heuristic: &H,
    max_positions: u64,
) -> Result<SearchOutcome, SearchError> {
    astar_watched(start, goal, heuristic, max_positions, None)
}

/// [`astar`] that stops when `watch` is cancelled, with [`SearchError::Timeout`] and the
/// lower bound it proved, as IDA* does.
pub fn astar_watched<H: TileHeuristic>(
    start: &Board,
    goal: &Board,
    heuristic: &H,
    max_positions: u64,
    watch: Option<&Watch>,
) -> Result<SearchOutcome, SearchError> {
    let space = TileSpace::<u64>::new(goal.clone()).map_err(|_| SearchError::AStarTooLarge)?;
    let estimate = RankedEstimate::new(&space, heuristic);
    let stop = || watch.is_some_and(Watch::stopped);
    match crate::astar::astar_until(&space, &estimate, space.rank(start), max_positions, &stop) {
        Ok(path) => Ok(SearchOutcome {
            moves: path.moves.into_iter().map(Move::from_index).collect(),
            stats: path.stats,
        }),
        Err(AStarError::OutOfMemory(stored)) => Err(SearchError::OutOfMemory(stored)),
        Err(AStarError::Exhausted) => Err(SearchError::Exhausted),
        Err(AStarError::Stopped {
            lower_bound,
            expanded,
        }) => Err(SearchError::Timeout {
            lower_bound,
            stats: Box::new(SearchStats {
                expanded,
                ..SearchStats::default()
            }),
            searched: None,
        }),
    }
}
