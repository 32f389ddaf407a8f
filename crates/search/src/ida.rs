//! IDA* (Korf 1985) over any [`StateSpace`] and [`Heuristic`]: the one depth-first iterative
//! deepening search of godsearch, following canonical move sequences only.
//!
//! Each iteration searches every canonical sequence whose cost `g + h` stays within the bound,
//! and the next bound is the smallest cost that went over. Children of a node are generated
//! into a buffer kept per depth (allocated once, reused), so no node allocates or hashes.
//!
//! The sliding-tile searches keep their own engine ([`crate::tiles`]): it updates its
//! heuristics incrementally from the one tile that moved (this engine computes the heuristic
//! afresh at every node) and splits iterations among threads; that is how it reaches about
//! 100 M nodes/s with Manhattan distance on one thread. This engine on the same instance, over
//! [`TileSpace`](godsearch_puzzles::tiles::TileSpace) ranks with
//! [`RankedEstimate`](crate::tiles::RankedEstimate), makes 5-8 M nodes/s: 9-14x slower
//! (`godsearch bench --section search` prints both).

use crate::stats::SearchStats;
use godsearch_core::{AutomatonState, Heuristic, MoveIdx, SequenceAutomaton, StateSpace};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The search looks at the clock once every this many expansions (a power of two).
const CLOCK_EVERY: u64 = 1 << 16;

/// A shortest move sequence and the work it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path {
    /// Moves from the start to a goal (indices into the space's move list).
    pub moves: Vec<MoveIdx>,
    /// Work done.
    pub stats: SearchStats,
}

/// Why IDA* returned no path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdaError {
    /// The deadline passed first; every solution has at least `lower_bound` moves.
    #[error("no solution within the time limit; every solution has at least {lower_bound} moves ({expanded} nodes expanded)")]
    Timeout {
        /// The bound under which the whole tree was searched.
        lower_bound: u32,
        /// Nodes expanded before giving up.
        expanded: u64,
    },
    /// No goal is reachable from the start.
    #[error("the search space was exhausted without reaching a goal")]
    Exhausted,
}

/// A shortest path from `start` to a goal of `space`.
///
/// Optimal when `heuristic` is admissible (its contract): every canonical sequence cheaper
/// than the one returned was searched, and the space's automaton keeps a shortest solution of
/// every position. Gives up at `deadline` with the proven lower bound.
pub fn ida_star<P: StateSpace, H: Heuristic<P::State>>(
    space: &P,
    heuristic: &H,
    start: P::State,
    deadline: Option<Instant>,
) -> Result<Path, IdaError> {
    ida_star_until(space, heuristic, start, deadline, None)
}

/// [`ida_star`] that also gives up, with the proven lower bound, soon after `cancel` is set
/// (it is looked at with the clock, every 65,536 expansions).
pub fn ida_star_until<P: StateSpace, H: Heuristic<P::State>>(
    space: &P,
    heuristic: &H,
    start: P::State,
    deadline: Option<Instant>,
    cancel: Option<&AtomicBool>,
) -> Result<Path, IdaError> {
    let automaton = space.sequence_automaton();
    let mut search = Dfs {
        space,
        heuristic,
        automaton: &automaton,
        path: Vec::new(),
        children: Vec::new(),
        bound: heuristic.lower_bound(start),
        next_bound: u32::MAX,
        stats: SearchStats::default(),
        deadline,
        cancel,
        timed_out: false,
    };
    loop {
        search.next_bound = u32::MAX;
        let before = search.stats.expanded;
        search.stats.thresholds.push(search.bound);
        let found = search.dfs(start, 0, SequenceAutomaton::START);
        search
            .stats
            .iteration_expanded
            .push(search.stats.expanded - before);
        if found {
            return Ok(Path {
                moves: search.path,
                stats: search.stats,
            });
        }
        if search.timed_out {
            return Err(IdaError::Timeout {
                lower_bound: search.bound,
                expanded: search.stats.expanded,
            });
        }
        if search.next_bound == u32::MAX {
            return Err(IdaError::Exhausted);
        }
        search.bound = search.next_bound;
    }
}

struct Dfs<'a, P: StateSpace, H> {
    space: &'a P,
    heuristic: &'a H,
    automaton: &'a SequenceAutomaton,
    /// Moves from the start to the node being searched.
    path: Vec<MoveIdx>,
    /// Children buffers, one per depth, reused across nodes and iterations.
    children: Vec<Vec<(MoveIdx, P::State)>>,
    bound: u32,
    next_bound: u32,
    stats: SearchStats,
    deadline: Option<Instant>,
    cancel: Option<&'a AtomicBool>,
    timed_out: bool,
}

impl<P: StateSpace, H: Heuristic<P::State>> Dfs<'_, P, H> {
    /// Searches below `state` at cost `g`; `true` when a goal is found (its moves in `path`).
    fn dfs(&mut self, state: P::State, g: u32, at: AutomatonState) -> bool {
        let f = g + self.heuristic.lower_bound(state);
        if f > self.bound {
            self.next_bound = self.next_bound.min(f);
            return false;
        }
        if self.space.is_goal(state) {
            return true;
        }
        self.stats.expanded += 1;
        if self.stats.expanded % CLOCK_EVERY == 0
            && (self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)))
        {
            self.timed_out = true;
        }
        if self.timed_out {
            return false;
        }
        let depth = g as usize;
        if self.children.len() <= depth {
            self.children
                .push(Vec::with_capacity(self.space.max_degree()));
        }
        let mut children = std::mem::take(&mut self.children[depth]);
        children.clear();
        self.space
            .for_each_neighbour(state, |m, next| children.push((m, next)));
        self.stats.generated += children.len() as u64;
        let mut found = false;
        for &(m, next) in &children {
            let Some(after) = self.automaton.next(at, m) else {
                continue;
            };
            self.path.push(m);
            if self.dfs(next, g + 1, after) {
                found = true;
                break;
            }
            self.path.pop();
        }
        self.children[depth] = children;
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use godsearch_core::NoEstimate;
    use godsearch_puzzles::tiles::{Board, Move, Shape, TileSpace};

    fn space(w: usize, h: usize) -> TileSpace<u64> {
        TileSpace::new(Board::goal(Shape::new(w, h).unwrap())).unwrap()
    }

    #[test]
    fn iterative_deepening_finds_a_shortest_path() {
        let space = space(3, 3);
        // A board six moves from the goal; with no estimate each bound is searched whole.
        let start = Board::parse(Shape::new(3, 3).unwrap(), "4,1,3,7,2,6,0,5,8").unwrap();
        let path = ida_star(&space, &NoEstimate, space.rank(&start), None).unwrap();
        let mut board = start;
        for &m in &path.moves {
            assert!(board.apply(Move::from_index(m)));
        }
        assert_eq!(&board, space.goal());
        assert_eq!(path.moves.len(), 6);
        assert_eq!(path.stats.thresholds, (0..=6).collect::<Vec<u32>>());
        assert_eq!(
            path.stats.iteration_expanded.iter().sum::<u64>(),
            path.stats.expanded
        );
    }

    #[test]
    fn a_cancel_stops_the_search_with_the_bound_searched() {
        let space = space(4, 4);
        let far = Board::parse(
            Shape::new(4, 4).unwrap(),
            "15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0",
        )
        .unwrap();
        let cancel = AtomicBool::new(true);
        let result = ida_star_until(&space, &NoEstimate, space.rank(&far), None, Some(&cancel));
        assert!(
            matches!(result, Err(IdaError::Timeout { .. })),
            "{result:?}"
        );
    }

    #[test]
    fn a_passed_deadline_gives_the_bound_searched() {
        let space = space(4, 4);
        let far = Board::parse(
            Shape::new(4, 4).unwrap(),
            "15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0",
        )
        .unwrap();
        let result = ida_star(&space, &NoEstimate, space.rank(&far), Some(Instant::now()));
        match result {
            Err(IdaError::Timeout {
                lower_bound,
                expanded,
            }) => {
                assert!(expanded >= CLOCK_EVERY);
                assert!(lower_bound >= 1);
            }
            other => panic!("expected a timeout, got {other:?}"),
        }
    }
}
