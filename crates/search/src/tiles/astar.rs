//! A* with a closed set, for boards small enough to rank (at most 20 cells).
//!
//! Positions are identified by their perfect rank, so the closed set is a map from `u64`. A
//! position is reopened when reached by a shorter path, so the result is optimal with any
//! admissible heuristic, consistent or not. The search stops with
//! [`SearchError::OutOfMemory`] once it has stored `max_positions` positions.

use super::heuristic::TileHeuristic;
use super::ida::SearchOutcome;
use super::node::Node;
use super::SearchError;
use crate::stats::SearchStats;
use godsearch_puzzles::tiles::{Board, Move, TileSpace};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// What A* remembers of a position.
struct Seen {
    g: u32,
    parent: u64,
    via: Move,
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
    let space = TileSpace::<u64>::new(goal.clone()).map_err(|_| SearchError::AStarTooLarge)?;
    let mut stats = SearchStats::default();
    let start_rank = space.rank(start);
    let goal_rank = space.rank(goal);
    let h0 = heuristic.evaluate(&Node::from_board(start)).1;
    let mut seen: HashMap<u64, Seen> = HashMap::from([(
        start_rank,
        Seen {
            g: 0,
            parent: start_rank,
            via: Move::Up,
        },
    )]);
    // Ties on f go to the deeper position: it is closer to a goal on average.
    let mut open = BinaryHeap::from([Reverse((h0, Reverse(0u32), start_rank))]);
    while let Some(Reverse((_, Reverse(g), rank))) = open.pop() {
        if seen[&rank].g != g {
            continue; // a stale entry: reached more cheaply since
        }
        if rank == goal_rank {
            let mut moves = Vec::with_capacity(g as usize);
            let mut at = rank;
            while at != start_rank {
                let s = &seen[&at];
                moves.push(s.via);
                at = s.parent;
            }
            moves.reverse();
            return Ok(SearchOutcome { moves, stats });
        }
        stats.expanded += 1;
        let board = space.unrank(rank);
        for (mv, child) in board.successors() {
            stats.generated += 1;
            let child_rank = space.rank(&child);
            let better = seen.get(&child_rank).is_none_or(|s| g + 1 < s.g);
            if better {
                if seen.len() as u64 >= max_positions {
                    return Err(SearchError::OutOfMemory(seen.len() as u64));
                }
                seen.insert(
                    child_rank,
                    Seen {
                        g: g + 1,
                        parent: rank,
                        via: mv,
                    },
                );
                let h = heuristic.evaluate(&Node::from_board(&child)).1;
                open.push(Reverse((g + 1 + h, Reverse(g + 1), child_rank)));
            }
        }
    }
    Err(SearchError::Exhausted)
}
