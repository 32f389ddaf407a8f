//! A* over any [`StateSpace`] and [`Heuristic`]: best-first search with a closed set, for
//! spaces small enough to store what it visits.
//!
//! States are numbered as they are first seen (a hash map from state to number, the one
//! per-node hash here, with the Fx hash: SipHash took a fifth of a 20x20 subgoal solve); the open list is a binary heap on `f = g + h`, deeper nodes first on
//! ties, with stale entries skipped when popped. With a consistent heuristic no state is
//! expanded twice; with an admissible one a state reached more cheaply later is reopened, so
//! the result is optimal either way.
//!
//! Sliding boards use it too ([`crate::tiles::astar()`]), on their perfect ranks.

use crate::ida::Path;
use crate::stats::SearchStats;
use godsearch_core::{Heuristic, MoveIdx, StateSpace};
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Why A* returned no path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AStarError {
    /// It stored `limit` states without reaching a goal.
    #[error("A* stopped at its limit of {0} stored states")]
    OutOfMemory(u64),
    /// No goal is reachable from the start.
    #[error("the search space was exhausted without reaching a goal")]
    Exhausted,
    /// Its caller asked it to stop. Every path to a goal has at least `lower_bound` moves
    /// (the least `f` left open: with an admissible heuristic, a node of a shortest path is
    /// open with an `f` at most that path's length).
    #[error("A* was stopped; every solution has at least {lower_bound} moves")]
    Stopped {
        /// A proven lower bound on the length of a shortest path.
        lower_bound: u32,
        /// States expanded before it stopped.
        expanded: u64,
    },
}

/// States expanded between two looks at the caller's stop.
const STOP_EVERY: u64 = 1 << 12;

struct Seen<S> {
    state: S,
    g: u32,
    parent: usize,
    via: Option<MoveIdx>,
}

/// A shortest path from `start` to a goal of `space`, storing at most `max_states` states.
///
/// Optimal when `heuristic` is admissible (its contract).
pub fn astar<P: StateSpace, H: Heuristic<P::State>>(
    space: &P,
    heuristic: &H,
    start: P::State,
    max_states: u64,
) -> Result<Path, AStarError> {
    astar_until(space, heuristic, start, max_states, &|| false)
}

/// [`astar`] that ends with [`AStarError::Stopped`] and its proven lower bound once `stop`
/// says so (asked every `STOP_EVERY` states expanded).
pub fn astar_until<P: StateSpace, H: Heuristic<P::State>>(
    space: &P,
    heuristic: &H,
    start: P::State,
    max_states: u64,
    stop: &dyn Fn() -> bool,
) -> Result<Path, AStarError> {
    let mut stats = SearchStats::default();
    let mut seen = vec![Seen {
        state: start,
        g: 0,
        parent: 0,
        via: None,
    }];
    let mut ids: FxHashMap<P::State, usize> = FxHashMap::default();
    ids.insert(start, 0);
    let mut open = BinaryHeap::from([(Reverse(heuristic.lower_bound(start)), 0u32, 0usize)]);
    while let Some((Reverse(f), g, id)) = open.pop() {
        if seen[id].g != g {
            continue;
        }
        if stats.expanded % STOP_EVERY == 0 && stats.expanded > 0 && stop() {
            return Err(AStarError::Stopped {
                lower_bound: f,
                expanded: stats.expanded,
            });
        }
        let state = seen[id].state;
        if space.is_goal(state) {
            let mut moves = Vec::new();
            let mut at = id;
            while let Some(m) = seen[at].via {
                moves.push(m);
                at = seen[at].parent;
            }
            moves.reverse();
            stats.stored = seen.len() as u64;
            return Ok(Path { moves, stats });
        }
        stats.expanded += 1;
        let mut full = false;
        space.for_each_neighbour(state, |m, next| {
            stats.generated += 1;
            let g = g + 1;
            let j = match ids.get(&next) {
                Some(&j) if seen[j].g <= g => return,
                Some(&j) => j,
                None if seen.len() as u64 >= max_states => {
                    full = true;
                    return;
                }
                None => {
                    seen.push(Seen {
                        state: next,
                        g,
                        parent: id,
                        via: Some(m),
                    });
                    ids.insert(next, seen.len() - 1);
                    seen.len() - 1
                }
            };
            seen[j].g = g;
            seen[j].parent = id;
            seen[j].via = Some(m);
            open.push((Reverse(g + heuristic.lower_bound(next)), g, j));
        });
        if full {
            return Err(AStarError::OutOfMemory(max_states));
        }
    }
    Err(AStarError::Exhausted)
}
