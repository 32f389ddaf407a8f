//! IDA* (Korf 1985) over any [`StateSpace`] and [`Heuristic`]: the one depth-first iterative
//! deepening search of godsearch, following canonical move sequences only.
//!
//! Each iteration searches every canonical sequence whose cost `g + h` stays within the bound,
//! and the next bound is the smallest cost that went over. Children of a node are generated
//! into a buffer kept per depth (allocated once, reused), so no node allocates or hashes.
//! An iteration whose bound passes two moves is split among rayon's threads: one task per
//! canonical sequence of two moves, each searched depth-first, their solutions taken in the
//! tasks' order, so that any number of threads finds the solutions one thread finds, in the
//! same order (a task behind one that found enough stops within 1,024 expansions).
//!
//! The sliding-tile searches keep their own engine ([`crate::tiles`]): it updates its
//! heuristics incrementally from the one tile that moved (this engine computes the heuristic
//! afresh at every node) and hands work between threads as it goes; that is how it reaches about
//! 100 M nodes/s with Manhattan distance on one thread. This engine on the same instance, over
//! [`TileSpace`](godsearch_puzzles::tiles::TileSpace) ranks with
//! [`RankedEstimate`](crate::tiles::RankedEstimate), makes 5-8 M nodes/s: 9-14x slower
//! (`godsearch bench --section search` prints both).

use crate::stats::SearchStats;
use godsearch_core::{AutomatonState, Heuristic, MoveIdx, SequenceAutomaton, StateSpace};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
    let mut found = ida_star_solutions(space, heuristic, start, 1, deadline, cancel)?;
    match found.stopped_at {
        Some(lower_bound) => Err(IdaError::Timeout {
            lower_bound,
            expanded: found.stats.expanded,
        }),
        None => Ok(Path {
            moves: found.solutions.swap_remove(0),
            stats: found.stats,
        }),
    }
}

/// The shortest solutions of a position, in order of length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paths {
    /// Distinct canonical move sequences from the start to a goal, shortest first: every
    /// solution shorter than the last one's length, then some of that length (with
    /// `stopped_at`, fewer than asked).
    pub solutions: Vec<Vec<MoveIdx>>,
    /// Work done.
    pub stats: SearchStats,
    /// Set when the deadline or the cancel came before enough solutions were found: every
    /// solution not listed has at least this many moves.
    pub stopped_at: Option<u32>,
}

/// The `count` shortest canonical solutions of `start` (an alg search, as twips's
/// `--min-num-solutions`): each iteration of IDA* with bound `b` records the solutions of
/// exactly `b` moves (the shorter ones were recorded by earlier iterations, whose bounds
/// take every solution length in turn), and the search ends once `count` are recorded. No
/// solution passes through a goal. Gives up at `deadline` or a cancel with what it found and
/// the bound proven (an error when it found none); fewer than `count` are returned only then,
/// or when no goal is reachable beyond them (an error when none is).
pub fn ida_star_solutions<P: StateSpace, H: Heuristic<P::State>>(
    space: &P,
    heuristic: &H,
    start: P::State,
    count: usize,
    deadline: Option<Instant>,
    cancel: Option<&AtomicBool>,
) -> Result<Paths, IdaError> {
    ida_star_deepening(
        space,
        |_, _| Some(heuristic),
        start,
        count,
        deadline,
        cancel,
    )
}

/// [`ida_star_solutions`] with a heuristic made for each iteration: `heuristic_for(bound,
/// last)` gives the one the iteration of that bound searches with, `last` the nodes the
/// iteration before expanded (`heuristic_for(0, 0)` the one that estimates the start), so a
/// table can grow with the bound as the search's cost grows, as twsearch grows its prune
/// table. Each must be admissible; they need not agree. The answers stay optimal: a solution
/// of `L` moves between two bounds would have had, under the earlier iteration's heuristic, a
/// node cut at a cost of at most `L`, so the next bound (the least cost cut) is at most `L`.
/// `None` from `heuristic_for` gives up before that iteration, as the deadline does, with
/// `bound` proven (a caller that searches the near bounds one way and the far ones another).
pub fn ida_star_deepening<P: StateSpace, H: Heuristic<P::State>>(
    space: &P,
    mut heuristic_for: impl FnMut(u32, u64) -> Option<H>,
    start: P::State,
    count: usize,
    deadline: Option<Instant>,
    cancel: Option<&AtomicBool>,
) -> Result<Paths, IdaError> {
    let automaton = space.sequence_automaton();
    let Some(first) = heuristic_for(0, 0) else {
        return Err(IdaError::Timeout {
            lower_bound: 0,
            expanded: 0,
        });
    };
    let bound = first.lower_bound(start);
    let mut search = Dfs {
        space,
        heuristic: first,
        automaton: &automaton,
        path: Vec::new(),
        children: Vec::new(),
        bound,
        next_bound: u32::MAX,
        wanted: count.max(1),
        single: count <= 1,
        found: Vec::new(),
        stats: SearchStats::default(),
        deadline,
        cancel,
        timed_out: false,
        overtaken_by: None,
        overtaken: false,
    };
    loop {
        if search.bound > 0 {
            let last = search.stats.iteration_expanded.last().copied().unwrap_or(0);
            match heuristic_for(search.bound, last) {
                Some(heuristic) => search.heuristic = heuristic,
                None => {
                    let proven = search.bound;
                    return search.finish(Some(proven));
                }
            }
        }
        search.next_bound = u32::MAX;
        let before = search.stats.expanded;
        search.stats.thresholds.push(search.bound);
        let enough = search.iterate(start);
        search
            .stats
            .iteration_expanded
            .push(search.stats.expanded - before);
        let stopped_at = match (enough, search.timed_out, search.next_bound) {
            (true, _, _) => None,
            (false, true, _) => Some(search.bound),
            (false, false, u32::MAX) => None,
            (false, false, next) => {
                search.bound = next;
                continue;
            }
        };
        return search.finish(stopped_at);
    }
}

/// A node's children the automaton lets the search take, and their estimates.
struct Children<S> {
    /// Each child's move and the automaton's state after it.
    steps: Vec<(MoveIdx, AutomatonState)>,
    states: Vec<S>,
    /// [`Heuristic::lower_bounds_past`] of `states`, asked for together.
    bounds: Vec<u32>,
}

impl<S> Default for Children<S> {
    fn default() -> Self {
        Self::with_capacity(0)
    }
}

impl<S> Children<S> {
    fn with_capacity(n: usize) -> Self {
        Children {
            steps: Vec::with_capacity(n),
            states: Vec::with_capacity(n),
            bounds: Vec::with_capacity(n),
        }
    }
}

struct Dfs<'a, P: StateSpace, H> {
    space: &'a P,
    heuristic: H,
    automaton: &'a SequenceAutomaton,
    /// Moves from the start to the node being searched.
    path: Vec<MoveIdx>,
    /// Children buffers, one per depth, reused across nodes and iterations.
    children: Vec<Children<P::State>>,
    bound: u32,
    next_bound: u32,
    /// Solutions to find before the search ends.
    wanted: usize,
    /// Whether one solution is all the whole search wants (then a goal is recorded at any
    /// cost, not only at the bound).
    single: bool,
    /// Solutions found so far, shortest first.
    found: Vec<Vec<MoveIdx>>,
    stats: SearchStats,
    deadline: Option<Instant>,
    cancel: Option<&'a AtomicBool>,
    timed_out: bool,
    /// For a task of a split iteration: the lowest index of a task that found enough, and
    /// this task's index; a task behind one that found enough stops.
    overtaken_by: Option<(&'a AtomicUsize, usize)>,
    overtaken: bool,
}

/// Iterations of a bound above this many moves are split among the threads: one task per
/// canonical sequence of this many moves within the bound.
const SPLIT_DEPTH: u32 = 2;

/// A task looks every this many expansions whether an earlier one found enough (a power of
/// two dividing [`CLOCK_EVERY`]).
const OVERTAKEN_EVERY: u64 = 1 << 10;

/// A start of a split iteration's task: the moves to it, the state and the automaton's state.
type Task<S> = (Vec<MoveIdx>, S, AutomatonState);

impl<P: StateSpace, H: Heuristic<P::State>> Dfs<'_, P, H> {
    /// What the search gives: the solutions found, given up with `stopped_at` proven when set;
    /// an error when none was found.
    fn finish(self, stopped_at: Option<u32>) -> Result<Paths, IdaError> {
        if self.found.is_empty() {
            return Err(match stopped_at {
                Some(lower_bound) => IdaError::Timeout {
                    lower_bound,
                    expanded: self.stats.expanded,
                },
                None => IdaError::Exhausted,
            });
        }
        Ok(Paths {
            solutions: self.found,
            stats: self.stats,
            stopped_at,
        })
    }

    /// One iteration from `start` at the current bound; `true` once enough solutions are
    /// found. Past [`SPLIT_DEPTH`] it is split among the threads, one task per sequence of
    /// that many moves, and the tasks' solutions taken in the tasks' order: the same solutions,
    /// in the same order, as one thread finds (a task behind one that found enough stops).
    fn iterate(&mut self, start: P::State) -> bool {
        if self.bound <= SPLIT_DEPTH || rayon::current_num_threads() < 2 {
            let estimate = self.heuristic.lower_bound(start);
            return self.dfs(start, 0, estimate, SequenceAutomaton::START);
        }
        let mut tasks = Vec::new();
        if self.split(start, 0, SequenceAutomaton::START, &mut tasks) {
            return true;
        }
        let first_enough = AtomicUsize::new(usize::MAX);
        let still_wanted = self.wanted - self.found.len();
        let heuristic = &self.heuristic;
        let outcomes: Vec<_> = tasks
            .into_par_iter()
            .enumerate()
            .map(|(i, (path, state, at))| {
                let mut task = Dfs {
                    space: self.space,
                    heuristic,
                    automaton: self.automaton,
                    path,
                    children: Vec::new(),
                    bound: self.bound,
                    next_bound: u32::MAX,
                    wanted: still_wanted,
                    single: self.single,
                    found: Vec::new(),
                    stats: SearchStats::default(),
                    deadline: self.deadline,
                    cancel: self.cancel,
                    timed_out: false,
                    overtaken_by: Some((&first_enough, i)),
                    overtaken: false,
                };
                // At 0 expansions this looks at the clock too: tasks smaller than
                // CLOCK_EVERY expansions would otherwise never look.
                task.look_up();
                let estimate = task.heuristic.lower_bound(state);
                if !(task.overtaken || task.timed_out) && task.dfs(state, SPLIT_DEPTH, estimate, at)
                {
                    first_enough.fetch_min(i, Ordering::Relaxed);
                }
                (task.found, task.next_bound, task.stats, task.timed_out)
            })
            .collect();
        let first_enough = first_enough.into_inner();
        for (i, (found, next_bound, stats, timed_out)) in outcomes.into_iter().enumerate() {
            self.stats.expanded += stats.expanded;
            self.stats.generated += stats.generated;
            self.timed_out |= timed_out;
            if i > first_enough || self.found.len() >= self.wanted {
                continue;
            }
            self.next_bound = self.next_bound.min(next_bound);
            let room = self.wanted - self.found.len();
            self.found.extend(found.into_iter().take(room));
        }
        self.found.len() >= self.wanted
    }

    /// The tasks of a split iteration below `state` at cost `g`: what [`dfs`](Self::dfs) does
    /// down to [`SPLIT_DEPTH`] moves, each node there a task instead; `true` once enough
    /// solutions are found before it.
    fn split(
        &mut self,
        state: P::State,
        g: u32,
        at: AutomatonState,
        tasks: &mut Vec<Task<P::State>>,
    ) -> bool {
        if g == SPLIT_DEPTH {
            tasks.push((self.path.clone(), state, at));
            return false;
        }
        let estimate = self.heuristic.lower_bound(state);
        if let Some(enough) = self.arrive(state, g, estimate) {
            return enough;
        }
        let mut children = Vec::with_capacity(self.space.max_degree());
        self.space
            .for_each_neighbour(state, |m, next| children.push((m, next)));
        self.stats.generated += children.len() as u64;
        for (m, next) in children {
            let Some(after) = self.automaton.next(at, m) else {
                continue;
            };
            self.path.push(m);
            let enough = self.split(next, g + 1, after, tasks);
            self.path.pop();
            if enough {
                return true;
            }
        }
        false
    }

    /// What the bound and the goal say of `state` at cost `g`, estimated `estimate` moves
    /// from the goal: `Some(false)` when its cost passes the bound (kept for the next one);
    /// `Some(enough)` at a goal (recorded where it counts); `None` when it is to be expanded
    /// (and counted as expanded).
    #[inline]
    fn arrive(&mut self, state: P::State, g: u32, estimate: u32) -> Option<bool> {
        let f = g + estimate;
        if f > self.bound {
            self.next_bound = self.next_bound.min(f);
            return Some(false);
        }
        if self.space.is_goal(state) {
            // Shorter solutions were recorded by the iteration whose bound was their length.
            if g == self.bound || self.single {
                self.found.push(self.path.clone());
            }
            return Some(self.found.len() >= self.wanted);
        }
        self.stats.expanded += 1;
        None
    }

    /// Looks whether to stop: at the clock and the cancel every [`CLOCK_EVERY`] expansions,
    /// and whether an earlier task found enough.
    fn look_up(&mut self) {
        if self.stats.expanded % CLOCK_EVERY == 0
            && (self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)))
        {
            self.timed_out = true;
        }
        if let Some((first_enough, i)) = self.overtaken_by {
            self.overtaken = first_enough.load(Ordering::Relaxed) < i;
        }
    }

    /// Searches below `state` at cost `g` (estimated `estimate` moves from the goal); `true`
    /// once enough solutions are found (each recorded from `path` as it reaches a goal at the
    /// bound).
    fn dfs(&mut self, state: P::State, g: u32, estimate: u32, at: AutomatonState) -> bool {
        if let Some(enough) = self.arrive(state, g, estimate) {
            return enough;
        }
        if self.stats.expanded % OVERTAKEN_EVERY == 0 {
            self.look_up();
        }
        if self.timed_out || self.overtaken {
            return false;
        }
        let depth = g as usize;
        // A task of a split iteration starts below the root: buffers for every depth above.
        while self.children.len() <= depth {
            let degree = self.space.max_degree();
            self.children.push(Children::with_capacity(degree));
        }
        let mut children = std::mem::take(&mut self.children[depth]);
        children.steps.clear();
        children.states.clear();
        let (automaton, mut generated) = (self.automaton, 0);
        self.space.for_each_neighbour(state, |m, next| {
            generated += 1;
            if let Some(after) = automaton.next(at, m) {
                children.steps.push((m, after));
                children.states.push(next);
            }
        });
        self.stats.generated += generated;
        children.bounds.resize(children.states.len(), 0);
        // A child at g + 1 whose estimate reaches bound - g is cut, whatever its value.
        let cut = self.bound.saturating_sub(g);
        self.heuristic
            .lower_bounds_past(&children.states, &mut children.bounds, cut);
        let mut enough = false;
        for (i, &(m, after)) in children.steps.iter().enumerate() {
            self.path.push(m);
            enough = self.dfs(children.states[i], g + 1, children.bounds[i], after);
            self.path.pop();
            if enough {
                break;
            }
        }
        self.children[depth] = children;
        enough
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

    /// Every canonical sequence of at most `longest` moves from `state` that reaches a goal
    /// first at its end, by plain depth-first enumeration.
    fn every_solution(
        space: &TileSpace<u64>,
        state: u64,
        at: AutomatonState,
        longest: usize,
        path: &mut Vec<MoveIdx>,
        out: &mut Vec<Vec<MoveIdx>>,
    ) {
        if space.is_goal(state) {
            out.push(path.clone());
            return;
        }
        if path.len() == longest {
            return;
        }
        let automaton = space.sequence_automaton();
        space.for_each_neighbour(state, |m, next| {
            if let Some(after) = automaton.next(at, m) {
                path.push(m);
                every_solution(space, next, after, longest, path, out);
                path.pop();
            }
        });
    }

    /// The solutions IDA* lists are exactly the canonical ones, shortest first, as a plain
    /// enumeration of every sequence finds them; asking for all of those up to a length gives
    /// that set, and asking for one gives the first.
    #[test]
    fn the_shortest_solutions_are_every_solution_in_order_of_length() {
        let space = space(3, 3);
        let start = Board::parse(Shape::new(3, 3).unwrap(), "4,1,3,7,2,6,0,5,8").unwrap();
        let start = space.rank(&start);
        let mut expected = Vec::new();
        every_solution(
            &space,
            start,
            SequenceAutomaton::START,
            18,
            &mut Vec::new(),
            &mut expected,
        );
        expected.sort_by_key(|s| s.len());
        assert!(expected.len() > 10, "{}", expected.len());
        let found =
            ida_star_solutions(&space, &NoEstimate, start, expected.len(), None, None).unwrap();
        assert_eq!(found.stopped_at, None);
        assert!(found.solutions.windows(2).all(|w| w[0].len() <= w[1].len()));
        let mut listed = found.solutions.clone();
        let mut all = expected.clone();
        listed.sort();
        all.sort();
        assert_eq!(listed, all);
        let one = ida_star(&space, &NoEstimate, start, None).unwrap();
        assert_eq!(one.moves.len(), expected[0].len());
    }

    /// A split iteration's tasks give the solutions one thread gives, in the same order, for
    /// one solution and for many.
    #[test]
    fn threads_find_what_one_thread_finds_in_the_same_order() {
        let space = space(3, 3);
        let start = Board::parse(Shape::new(3, 3).unwrap(), "8,1,3,4,0,2,7,6,5").unwrap();
        let start = space.rank(&start);
        let manhattan = crate::tiles::Manhattan::new(space.goal()).unwrap();
        let heuristic = crate::tiles::RankedEstimate::new(&space, &manhattan);
        let run = |threads: usize, count: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                ida_star_solutions(&space, &heuristic, start, count, None, None).unwrap()
            })
        };
        for count in [1, 7, 40] {
            let one = run(1, count);
            for threads in [2, 4] {
                let many = run(threads, count);
                assert_eq!(many.solutions, one.solutions, "{threads} threads, {count}");
                assert_eq!(many.stats.thresholds, one.stats.thresholds);
            }
            assert!(one.solutions[0].len() > SPLIT_DEPTH as usize);
        }
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
    fn a_declined_iteration_stops_the_search_with_its_bound_proven() {
        let space = space(3, 3);
        let two_away = Board::parse(Shape::new(3, 3).unwrap(), "1,2,3,4,5,6,0,7,8").unwrap();
        let far = Board::parse(Shape::new(3, 3).unwrap(), "8,7,6,5,4,3,2,1,0").unwrap();
        let near_bounds = |bound: u32, _| (bound <= 6).then_some(&NoEstimate);
        let result = ida_star_deepening(&space, near_bounds, space.rank(&far), 1, None, None);
        assert!(
            matches!(result, Err(IdaError::Timeout { lower_bound: 7, .. })),
            "{result:?}"
        );
        // Solutions found before the declined bound are given, with the bound proven (the
        // 8-puzzle has no other within six moves: its shortest cycle is longer).
        let found =
            ida_star_deepening(&space, near_bounds, space.rank(&two_away), 1000, None, None)
                .unwrap();
        assert_eq!(found.stopped_at, Some(7));
        assert_eq!(found.solutions[0].len(), 2);
        assert!(found.solutions.iter().all(|s| s.len() <= 6));
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
                // The first iterations are too small to look at the clock; the split ones
                // look at it as each task starts.
                assert!(expanded > 0);
                assert!(lower_bound >= 1);
            }
            other => panic!("expected a timeout, got {other:?}"),
        }
    }
}
