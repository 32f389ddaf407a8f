//! IDA* (Korf 1985), serial and parallel.
//!
//! The depth-first search changes one [`Node`] in place (slide, recurse, slide back), follows
//! an automaton that refuses duplicate move strings ([`DuplicateAutomaton`]: never undo the
//! last move, and, once an iteration is expected to be large, no string of up to 12 or 14
//! moves that a shorter or earlier one replaces: [`PRUNING`]), tries children in the
//! fixed order `U D L R` (high in the tree, in order of their estimate: [`ORDERED_MIN_SLACK`]),
//! and keeps the heuristic's cache on the stack: no allocation and no hashing per node.
//!
//! The parallel version splits each iteration below the root: the tree is expanded breadth-first
//! (within the threshold) until there are [`SUBTREES_PER_THREAD`] subtrees per thread, and the
//! threads take subtrees from a shared queue. Subtree sizes vary by orders of magnitude, so a
//! thread that finds the queue empty says so, and a busy thread then hands over the children
//! of the next node it expands whose cost is at least [`MIN_SHARED_SLACK`] below the threshold:
//! no thread waits long while another still has work to give. A solution found at the
//! threshold is optimal (every shorter bound failed), so the first one found stops all threads.
//!
//! Each piece of work remembers which subtree of the split it came from, and a subtree is
//! finished once every piece of it is: a search stopped inside an iteration reports the subtrees
//! it finished ([`SearchedSubtrees`]), and a later run of that iteration skips them.

use super::both_ways::Direction;
use super::checkpoint::{split_fingerprint, SearchedSubtrees};
use super::heuristic::TileHeuristic;
use super::node::{Geometry, Node};
use super::SearchError;
use crate::stats::SearchStats;
use godsearch_puzzles::tiles::{Board, DuplicateAutomaton, DuplicateState, Move};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Instant;

/// Subtrees made per thread for each parallel iteration: enough that the last ones finish
/// close together, few enough that splitting costs nothing measurable.
const SUBTREES_PER_THREAD: usize = 64;
/// Moves the parallel split may look ahead; beyond this the tree is too thin to split.
const MAX_SPLIT_DEPTH: usize = 12;
/// A busy thread hands work to an idle one only from nodes whose `f` is at least this far below
/// the threshold (the subtree below grows about 2.4 times with each unit of this slack): smaller
/// subtrees cost less to finish than to pass on.
const MIN_SHARED_SLACK: u32 = 8;
/// Nodes at least this far below the threshold search their children in order of their
/// estimate, lowest first. Only the last iteration gains (the others search every node within
/// the threshold whatever the order): it ends at the first solution, which more often lies
/// below the children that come closer to the goal. Nodes this high in the tree head subtrees
/// of thousands of nodes, so ordering their children costs nothing measurable; ordering every
/// node took as many nodes at a lower node rate. Handing out the parallel split's subtrees
/// lowest cost first was measured too and left out: from 2.3 times fewer nodes to 3 times
/// more, depending on the board (docs/performance.md has the figures).
const ORDERED_MIN_SLACK: u32 = 12;
/// A search looks at the clock once every this many expansions (a power of two).
pub const CLOCK_EVERY: u64 = 1 << 16;

/// The automata the search follows, shortest duplicate strings first, each with the nodes an
/// iteration must be expected to expand for it to be used. Each is built once a process, when
/// first wanted: the undone moves at once; strings of 12 moves in about 0.1 s, for 40% fewer
/// nodes on the 24-puzzle (Korf and Felner's #5 and #44); of 14 in about 0.9 s, for 10% fewer
/// again. The expected nodes are the last iteration's times its growth over the one before
/// (about a second's search for 12, half a minute's for 14).
const PRUNING: [(u64, usize); 3] = [(0, 2), (1 << 25, 12), (1 << 30, 14)];

/// The nodes the next iteration may be expected to expand, from the two before it (`before`,
/// then `last`): `last` times its growth over `before`. `None` unless both expanded nodes.
pub(super) fn forecast(before: u64, last: u64) -> Option<u64> {
    (before > 0 && last > 0).then(|| (last as f64 * (last as f64 / before as f64)) as u64)
}

/// The automaton for an iteration expected to expand `forecast` nodes (see [`PRUNING`]);
/// `None` for the first step, the undone moves, which [`UndoneMoves`] refuses faster.
fn pruning_for(forecast: u64) -> Option<&'static DuplicateAutomaton> {
    let step = PRUNING
        .iter()
        .rposition(|&(least, _)| forecast >= least)
        .expect("the first step takes every forecast");
    (step > 0).then(|| pruning_step(step))
}

/// The automaton of `PRUNING[step]`, built on first use.
fn pruning_step(step: usize) -> &'static DuplicateAutomaton {
    static BUILT: [OnceLock<DuplicateAutomaton>; PRUNING.len()] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    BUILT[step].get_or_init(|| {
        DuplicateAutomaton::new(PRUNING[step].1).expect("within the longest packed string")
    })
}

/// Builds every automaton the IDA* may follow now rather than when an iteration first wants
/// it, and returns them, shortest strings first: for a caller that times searches apart from
/// the builds (a benchmark), or would rather pay for them up front (a server).
pub fn prepare_pruning() -> Vec<&'static DuplicateAutomaton> {
    (0..PRUNING.len()).map(pruning_step).collect()
}

/// The move strings a search follows: a state carried from a node to its children, and the
/// moves it refuses.
trait MoveFilter: Sync {
    /// What a node carries (small and `Copy`).
    type State: Copy + Send;

    /// The state before any move.
    fn start(&self) -> Self::State;

    /// The state after `mv`, or `None` when it is refused.
    fn next(&self, state: Self::State, mv: u8) -> Option<Self::State>;

    /// The length of the duplicate strings refused, as [`SearchedSubtrees`] records it.
    fn pruning_length(&self) -> u8;

    /// The state after the moves of `path`, a path the search made (so one it accepts).
    fn after(&self, path: &[u8]) -> Self::State {
        path.iter().fold(self.start(), |state, &mv| {
            self.next(state, mv)
                .expect("the search follows its move filter")
        })
    }
}

impl MoveFilter for DuplicateAutomaton {
    type State = DuplicateState;

    fn start(&self) -> DuplicateState {
        DuplicateAutomaton::START
    }

    fn pruning_length(&self) -> u8 {
        u8::try_from(self.max_length()).expect("within the longest packed string")
    }

    #[inline]
    fn next(&self, state: DuplicateState, mv: u8) -> Option<DuplicateState> {
        DuplicateAutomaton::next(self, state, mv)
    }
}

/// The undone moves alone (what [`DuplicateAutomaton`] refuses up to length 2), with the last
/// move as the state: one comparison a child rather than a table read, which is 6-8% of the
/// node rate with Manhattan distance. Every iteration below [`PRUNING`]'s second step uses it.
struct UndoneMoves {
    /// `refused[m]`: the move that undoes move `m`; [`NO_MOVE`] (the state before any move)
    /// refuses nothing.
    refused: [u8; NO_MOVE as usize + 1],
}

/// The state of [`UndoneMoves`] before any move: no move is refused.
const NO_MOVE: u8 = Move::ALL.len() as u8;

impl UndoneMoves {
    fn new() -> Self {
        UndoneMoves {
            refused: std::array::from_fn(|m| match Move::ALL.get(m) {
                Some(mv) => mv.inverse().index(),
                None => NO_MOVE,
            }),
        }
    }
}

impl MoveFilter for UndoneMoves {
    type State = u8;

    fn start(&self) -> u8 {
        NO_MOVE
    }

    fn pruning_length(&self) -> u8 {
        PRUNING[0].1 as u8
    }

    #[inline]
    fn next(&self, last: u8, mv: u8) -> Option<u8> {
        (mv != self.refused[last as usize]).then_some(mv)
    }
}

/// An optimal solution and how it was found.
#[derive(Debug, Clone)]
pub struct SearchOutcome {
    /// The moves of the blank, start to goal.
    pub moves: Vec<Move>,
    /// Work done.
    pub stats: SearchStats,
}

/// What a running IDA* has done so far, for a front end to show while it runs (read from any
/// thread): the threshold of the iteration under way, and about how many nodes have been
/// expanded (counted in blocks of `CLOCK_EVERY`, when each search thread looks at the clock).
/// It also carries the front end's brakes: [`Watch::cancel`] and a node limit stop the search
/// the way its deadline does ([`SearchError::Timeout`] with the proven lower bound), within
/// `CLOCK_EVERY` nodes a thread.
#[derive(Debug, Default)]
pub struct Watch {
    threshold: AtomicU32,
    expanded: AtomicU64,
    cancelled: AtomicBool,
    node_limit: Option<u64>,
    /// [`Watch::expanded`] when the iteration under way began.
    iteration_base: AtomicU64,
    /// Nodes of the last two finished iterations: the one before last, then the last.
    finished: [AtomicU64; 2],
    /// The subtrees of the iteration under way finished so far.
    searched: Mutex<Option<SearchedSubtrees>>,
    /// Which end a race both ways searches from now ([`Watch::direction`]).
    direction: AtomicU8,
    /// In a race, what the race said of the iteration the turn under way resumes
    /// ([`Watch::begin_turn`]): its threshold, the nodes its direction expanded on it in
    /// earlier turns, and that direction's forecast for it (0: none). In a search resumed from
    /// earlier runs ([`Watch::resume_iteration`]), the iteration it resumes and their nodes on
    /// it (its forecast is then `finished`'s).
    turn_threshold: AtomicU32,
    turn_carried: AtomicU64,
    turn_forecast: AtomicU64,
    /// Ways probed ([`Watch::probing`]): the one probing now, from 1 (0: no probe), of how many.
    probe_way: AtomicUsize,
    probe_ways: AtomicUsize,
    /// The way chosen by the probes, from 1 (0: none yet).
    chosen_way: AtomicUsize,
    /// How the front end names the ways probed, in their order ([`Watch::name_ways`]).
    way_names: Mutex<Vec<String>>,
}

/// What a race says of the iteration a turn resumes ([`Watch::begin_turn`]), so that the
/// watch's figures for the iteration are the turn's direction's over all its turns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TurnIteration {
    /// The iteration's threshold.
    pub threshold: u32,
    /// Nodes the turn's direction expanded on it in its earlier turns.
    pub carried: u64,
    /// Nodes that direction may be expected to expand on it in all, from the two iterations
    /// before it (`None` unless it finished both: a guess, never used by the search).
    pub forecast: Option<u64>,
}

/// What earlier runs left of the iteration a search resumes (`--resume-from`), kept with its
/// checkpoint, so that the watch's estimate of the iteration goes on where theirs stood
/// ([`Watch::resume_iteration`]). Figures for a progress line only: never used by the search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ResumedIteration {
    /// The iteration's threshold: the bound resumed from.
    pub threshold: u32,
    /// Nodes the earlier runs expanded on it (about: a run stopped inside a subtree counts
    /// that subtree's nodes, which the next run searches again).
    pub carried: u64,
    /// Nodes of the two iterations before it, the earlier first (0 where not known).
    pub before: [u64; 2],
}

impl ResumedIteration {
    /// A guess at the nodes the iteration will expand in all, from the growth of the two
    /// before it, as [`Watch::iteration_forecast`] makes it (`None` unless both are known).
    pub fn forecast(&self) -> Option<u64> {
        forecast(self.before[0], self.before[1])
    }
}

/// [`Watch::direction`]'s values for each [`Direction`] (0, the default: not racing).
const RACING_FORWARDS: u8 = 1;
const RACING_BACKWARDS: u8 = 2;

impl Watch {
    /// A watch that stops the search once about `limit` nodes are expanded.
    pub fn with_node_limit(limit: u64) -> Self {
        Watch {
            node_limit: Some(limit),
            ..Watch::default()
        }
    }

    /// Asks the search to stop at its next look at the clock.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether [`Watch::cancel`] was called or the node limit was passed.
    pub fn stopped(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
            || self.node_limit.is_some_and(|l| self.expanded() >= l)
    }

    /// The threshold of the iteration under way (0 before the first).
    pub fn threshold(&self) -> u32 {
        self.threshold.load(Ordering::Relaxed)
    }

    /// Nodes expanded so far, within `CLOCK_EVERY` a thread.
    pub fn expanded(&self) -> u64 {
        self.expanded.load(Ordering::Relaxed)
    }

    /// Nodes expanded so far in the iteration under way, within `CLOCK_EVERY` a thread; in a
    /// race, by the turn's direction over all its turns on it; resumed, with the earlier runs'
    /// nodes on it ([`Watch::resume_iteration`]).
    pub fn iteration_expanded(&self) -> u64 {
        let this_run = self
            .expanded()
            .saturating_sub(self.iteration_base.load(Ordering::Relaxed));
        match self.on_turn_iteration() {
            true => this_run + self.turn_carried.load(Ordering::Relaxed),
            false => this_run,
        }
    }

    /// A guess at the nodes the iteration under way will expand in all: the last finished
    /// iteration's times its growth over the one before (IDA*'s iterations grow by a roughly
    /// steady factor, the heuristic branching factor). `None` until two iterations have
    /// finished (in this run, or in the earlier runs of one resumed). In a race, the turn's
    /// direction's nodes on it, as the race forecast them from the two iterations before that
    /// this direction finished (`None` where it did not, and once the turn has moved on to
    /// another iteration). Only a guess, for an estimate of the time left: never used by the
    /// search.
    pub fn iteration_forecast(&self) -> Option<u64> {
        if self.direction().is_some() {
            let forecast = self.turn_forecast.load(Ordering::Relaxed);
            return (self.on_turn_iteration() && forecast > 0).then_some(forecast);
        }
        let before = self.finished[0].load(Ordering::Relaxed);
        let last = self.finished[1].load(Ordering::Relaxed);
        forecast(before, last)
    }

    /// The subtrees of the iteration under way that are finished, as a search stopped now
    /// would report them in [`SearchError::Timeout`]: for a front end that ends the process on
    /// a signal to say how to continue. `None` until a subtree is finished, for serial IDA*,
    /// which does not split its iterations, and while ways are probed.
    pub fn searched(&self) -> Option<SearchedSubtrees> {
        if self.probing().is_some() {
            return None;
        }
        self.searched
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Which way of how many is being probed ([`probe_ways`](super::probe_ways)), numbered
    /// from 0; `None` when no probe is under way (none began, or a way was chosen).
    pub fn probing(&self) -> Option<(usize, usize)> {
        let way = self.probe_way.load(Ordering::Relaxed);
        (way > 0 && self.chosen_way().is_none())
            .then(|| (way - 1, self.probe_ways.load(Ordering::Relaxed)))
    }

    /// The way the probes chose ([`probe_ways`](super::probe_ways)), numbered from 0, which
    /// searches now (or solved the board in its probe); `None` before the choice or without
    /// probes.
    pub fn chosen_way(&self) -> Option<usize> {
        self.chosen_way.load(Ordering::SeqCst).checked_sub(1)
    }

    /// How many ways the probes of the search under way compare (0: no probes): the count
    /// [`Watch::probing`] gives, kept once a way is chosen.
    pub fn ways_probed(&self) -> usize {
        match self.probe_way.load(Ordering::Relaxed) {
            0 => 0,
            _ => self.probe_ways.load(Ordering::Relaxed),
        }
    }

    /// Says that `way` of `ways` is probed now: from here until a way is chosen, the
    /// iterations and subtrees published are its probe's, and [`Watch::searched`] says none
    /// (they belong to a way that may not be chosen).
    pub fn begin_probe(&self, way: usize, ways: usize) {
        // A watch that followed an earlier search's probes forgets its choice.
        self.chosen_way.store(0, Ordering::SeqCst);
        self.probe_ways.store(ways, Ordering::Relaxed);
        self.probe_way.store(way + 1, Ordering::Relaxed);
        for finished in &self.finished {
            finished.store(0, Ordering::Relaxed);
        }
    }

    /// Names the ways the next probes compare, in the order they are probed, for a front end
    /// to show ([`Watch::way_name`]); the search never reads them.
    pub fn name_ways(&self, names: Vec<String>) {
        *self
            .way_names
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = names;
    }

    /// The name [`Watch::name_ways`] gave `way` (numbered from 0), if it named that many.
    pub fn way_name(&self, way: usize) -> Option<String> {
        let names = self
            .way_names
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        names.get(way).cloned()
    }

    /// Says that the probe of `way` solved the board: it is the way chosen, with nothing
    /// left to search.
    pub fn probe_solved(&self, way: usize) {
        self.chosen_way.store(way + 1, Ordering::SeqCst);
    }

    /// Says that the probes chose `way`, which goes on resuming `resumed` (its own iteration
    /// of the bound, with the nodes its probe expanded on it and on the two before).
    pub fn choose_way(&self, way: usize, resumed: ResumedIteration) {
        // The last probe's subtrees are forgotten before the choice is seen: whoever sees it
        // and then reads the subtrees reads the chosen way's.
        *self.searched.lock().unwrap_or_else(PoisonError::into_inner) = None;
        self.threshold.store(resumed.threshold, Ordering::Relaxed);
        self.resume_iteration(resumed);
        self.chosen_way.store(way + 1, Ordering::SeqCst);
    }

    /// The end a race both ways ([`race_both_ways`](super::race_both_ways)) is searching from
    /// in the turn under way; `None` for a search one way. The threshold and the subtrees
    /// finished are then that turn's search's (which resumes the iteration where its direction
    /// left it); the nodes expanded count every turn.
    pub fn direction(&self) -> Option<Direction> {
        match self.direction.load(Ordering::Relaxed) {
            RACING_FORWARDS => Some(Direction::Forwards),
            RACING_BACKWARDS => Some(Direction::Backwards),
            _ => None,
        }
    }

    /// Says that a race's turn begins: `direction` searches, resuming `iteration`. Until the
    /// turn moves on to another iteration, [`Watch::iteration_expanded`] counts the
    /// direction's earlier turns on it too, and [`Watch::iteration_forecast`] is the race's.
    pub fn begin_turn(&self, direction: Direction, iteration: TurnIteration) {
        self.turn_threshold
            .store(iteration.threshold, Ordering::Relaxed);
        self.turn_carried
            .store(iteration.carried, Ordering::Relaxed);
        self.turn_forecast
            .store(iteration.forecast.unwrap_or(0), Ordering::Relaxed);
        self.iteration_base
            .store(self.expanded(), Ordering::Relaxed);
        let value = match direction {
            Direction::Forwards => RACING_FORWARDS,
            Direction::Backwards => RACING_BACKWARDS,
        };
        self.direction.store(value, Ordering::Relaxed);
    }

    /// Says that the search resumes an iteration that earlier runs stopped in: while the
    /// search is on it, [`Watch::iteration_expanded`] counts their nodes on it too, and
    /// [`Watch::iteration_forecast`] forecasts it from the two iterations before it, which
    /// they finished; once it is finished, the next one is forecast from it whole.
    pub fn resume_iteration(&self, resumed: ResumedIteration) {
        self.turn_threshold
            .store(resumed.threshold, Ordering::Relaxed);
        self.turn_carried.store(resumed.carried, Ordering::Relaxed);
        self.turn_forecast.store(0, Ordering::Relaxed);
        for (finished, nodes) in self.finished.iter().zip(resumed.before) {
            finished.store(nodes, Ordering::Relaxed);
        }
    }

    /// What [`Watch::resume_iteration`] last said of an iteration resumed, as it stands (the
    /// two iterations before it as finished since); `None` where none was resumed.
    pub fn resumed_iteration(&self) -> Option<ResumedIteration> {
        let threshold = self.turn_threshold.load(Ordering::Relaxed);
        (threshold != 0).then(|| ResumedIteration {
            threshold,
            carried: self.turn_carried.load(Ordering::Relaxed),
            before: self.finished_iterations(),
        })
    }

    /// Nodes of the last two finished iterations, the earlier first (0 where fewer have
    /// finished; those earlier runs finished count where [`Watch::resume_iteration`] said).
    pub fn finished_iterations(&self) -> [u64; 2] {
        [0, 1].map(|i| self.finished[i].load(Ordering::Relaxed))
    }

    /// Whether the search is on the iteration a race's turn began on, or the one it resumes
    /// from earlier runs, whose nodes [`Watch::iteration_expanded`] counts too.
    fn on_turn_iteration(&self) -> bool {
        let carried = self.turn_threshold.load(Ordering::Relaxed);
        carried != 0 && self.threshold() == carried
    }

    /// Records the subtrees of the iteration under way finished so far, read off the queue
    /// while the record is held: threads that finish subtrees at once publish in turn, and
    /// the last to publish reads every subtree finished before it (a copy taken before the
    /// lock could overwrite a newer one).
    fn publish<C>(&self, queue: &WorkQueue<C>) {
        let mut searched = self.searched.lock().unwrap_or_else(PoisonError::into_inner);
        *searched = Some(queue.searched());
    }

    /// Records that an iteration of `threshold` begins.
    fn begin_iteration(&self, threshold: u32) {
        *self.searched.lock().unwrap_or_else(PoisonError::into_inner) = None;
        self.threshold.store(threshold, Ordering::Relaxed);
        self.iteration_base
            .store(self.expanded(), Ordering::Relaxed);
    }

    /// Records that an iteration ended after expanding `nodes` (and, one resumed, the nodes of
    /// the runs before).
    fn end_iteration(&self, nodes: u64) {
        let nodes = match self.on_turn_iteration() {
            true => nodes + self.turn_carried.load(Ordering::Relaxed),
            false => nodes,
        };
        let last = self.finished[1].load(Ordering::Relaxed);
        self.finished[0].store(last, Ordering::Relaxed);
        self.finished[1].store(nodes, Ordering::Relaxed);
    }
}

struct Dfs<'a, H: TileHeuristic, F: MoveFilter> {
    heuristic: &'a H,
    /// The move strings followed.
    moves: &'a F,
    geometry: &'a Geometry,
    goal: &'a Node,
    cells: usize,
    node: Node,
    path: Vec<u8>,
    threshold: u32,
    next_threshold: u32,
    expanded: u64,
    generated: u64,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    timed_out: &'a AtomicBool,
    /// The parallel iteration's shared work, if any.
    shared: Option<&'a WorkQueue<H::Cache>>,
    /// The subtree of the split the node searched belongs to (parallel iterations).
    root: u32,
    /// Hand work over only from nodes at least this far below the threshold.
    min_shared_slack: u32,
    /// Times this search handed its children over.
    handovers: u64,
    /// Where the progress is published, if anyone watches.
    watch: Option<&'a Watch>,
}

impl<'a, H: TileHeuristic, F: MoveFilter> Dfs<'a, H, F> {
    /// A search of the same iteration (same threshold, tables and stop flag) with its own board,
    /// path and counters, for another thread.
    fn worker<'b>(&self, shared: &'b WorkQueue<H::Cache>) -> Dfs<'b, H, F>
    where
        'a: 'b,
    {
        Dfs {
            path: Vec::new(),
            next_threshold: u32::MAX,
            expanded: 0,
            generated: 0,
            handovers: 0,
            shared: Some(shared),
            ..*self
        }
    }

    #[inline]
    fn is_goal(&self, h: u32) -> bool {
        h == 0 && self.node.cells[..self.cells] == self.goal.cells[..self.cells]
    }

    /// Depth-first below the current node; `true` with `path` holding the moves when the goal
    /// is reached within the threshold.
    fn search(&mut self, g: u32, h: u32, cache: &H::Cache, state: F::State) -> bool {
        let f = g + h;
        if f > self.threshold {
            self.next_threshold = self.next_threshold.min(f);
            return false;
        }
        if self.is_goal(h) {
            return true;
        }
        if self.stop.load(Ordering::Relaxed) {
            return false;
        }
        if self.expanded % CLOCK_EVERY == 0 {
            if let (Some(watch), true) = (self.watch, self.expanded > 0) {
                watch.expanded.fetch_add(CLOCK_EVERY, Ordering::Relaxed);
            }
            let braked = self.watch.is_some_and(Watch::stopped);
            if braked || self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.timed_out.store(true, Ordering::Relaxed);
                self.stop.store(true, Ordering::Relaxed);
                return false;
            }
        }
        self.expanded += 1;
        if let Some(shared) = self.shared {
            if self.threshold - f >= self.min_shared_slack && shared.wanted() {
                self.hand_over(shared, g, cache);
                return false;
            }
        }
        let blank = self.node.blank();
        if self.threshold - f >= ORDERED_MIN_SLACK {
            return self.search_ordered(g, cache, state, blank);
        }
        // A child is pruned when g + 1 + h exceeds the threshold.
        let bound = self.threshold.saturating_sub(g + 1);
        // Where each child's cache is written, and read by its search. (Not a copy of
        // `cache`: its bytes were just written, and a copy would wait for them.)
        let mut child = H::Cache::default();
        for mv in 0..4u8 {
            let Some((_, next, h)) = self.step_into(cache, &mut child, blank, mv, state, bound)
            else {
                continue;
            };
            if h > bound {
                // Pruned here rather than in the call: most children are.
                self.next_threshold = self.next_threshold.min(g + 1 + h);
                self.node.slide(blank);
                continue;
            }
            self.path.push(mv);
            if self.search(g + 1, h, &child, next) {
                return true;
            }
            self.path.pop();
            self.node.slide(blank);
        }
        false
    }

    /// Slides the blank (at `blank`) by `mv`, unless that is off the board or the automaton
    /// (in `state`) refuses it, and estimates the child, stopping early above `bound` (see
    /// [`TileHeuristic::update_within`]): the cell the blank moved to, the automaton's next
    /// state and the child's estimate, its cache written into `child` when within `bound`.
    /// The node is left as the child.
    #[inline(always)]
    fn step_into(
        &mut self,
        cache: &H::Cache,
        child: &mut H::Cache,
        blank: u8,
        mv: u8,
        state: F::State,
        bound: u32,
    ) -> Option<(u8, F::State, u32)> {
        let next = self.moves.next(state, mv)?;
        let to = self.geometry.step(blank, mv as usize)?;
        let tile = self.node.slide(to);
        self.generated += 1;
        let h = self
            .heuristic
            .update_within(cache, child, &self.node, tile, to, blank, bound);
        Some((to, next, h))
    }

    /// [`search`](Self::search)'s loop over the children of a node at depth `g` (its blank
    /// at `blank`), searching those within the threshold in order of their estimate, lowest
    /// first (ties in move order).
    fn search_ordered(&mut self, g: u32, cache: &H::Cache, state: F::State, blank: u8) -> bool {
        let mut kids: [Option<OrderedChild<H::Cache, F::State>>; 4] = [None; 4];
        let mut n = 0;
        let bound = self.threshold.saturating_sub(g + 1);
        let mut child = H::Cache::default();
        for mv in 0..4u8 {
            let Some((to, next, h)) = self.step_into(cache, &mut child, blank, mv, state, bound)
            else {
                continue;
            };
            self.node.slide(blank);
            if h > bound {
                self.next_threshold = self.next_threshold.min(g + 1 + h);
                continue;
            }
            let mut i = n;
            while i > 0 && kids[i - 1].is_some_and(|k| k.h > h) {
                kids[i] = kids[i - 1];
                i -= 1;
            }
            kids[i] = Some(OrderedChild {
                h,
                mv,
                to,
                state: next,
                cache: child,
            });
            n += 1;
        }
        for &OrderedChild {
            h,
            mv,
            to,
            state,
            cache,
        } in kids[..n].iter().flatten()
        {
            self.node.slide(to);
            self.path.push(mv);
            if self.search(g + 1, h, &cache, state) {
                return true;
            }
            self.path.pop();
            self.node.slide(blank);
        }
        false
    }

    /// Puts the children of the current node (at depth `g`) on the shared queue instead of
    /// searching them here; the node itself is left as it was.
    fn hand_over(&mut self, shared: &WorkQueue<H::Cache>, g: u32, cache: &H::Cache) {
        let mut children = Vec::with_capacity(3);
        let path = std::mem::take(&mut self.path);
        let node = self.node;
        self.children_within(&node, cache, &path, g, self.root, &mut children);
        self.path = path;
        shared.push(self.root, children);
        self.handovers += 1;
    }

    /// The filter's state after `path`, a path the search made.
    fn state_after(&self, path: &[u8]) -> F::State {
        self.moves.after(path)
    }

    /// Appends to `out` the children of `node` (at depth `g`, reached by `path`, in the split's
    /// subtree `root`) whose cost is within the threshold, as subtrees; the others only lower
    /// `next_threshold`.
    fn children_within(
        &mut self,
        node: &Node,
        cache: &H::Cache,
        path: &[u8],
        g: u32,
        root: u32,
        out: &mut Vec<Subtree<H::Cache>>,
    ) {
        let blank = node.blank();
        let state = self.state_after(path);
        for mv in 0..4u8 {
            if self.moves.next(state, mv).is_none() {
                continue;
            }
            let Some(to) = self.geometry.step(blank, mv as usize) else {
                continue;
            };
            let mut child = *node;
            let tile = child.slide(to);
            self.generated += 1;
            let (cache, h) = self.heuristic.update(cache, &child, tile, to, blank);
            if g + 1 + h > self.threshold {
                self.next_threshold = self.next_threshold.min(g + 1 + h);
                continue;
            }
            let mut child_path = Vec::with_capacity(path.len() + 1);
            child_path.extend_from_slice(path);
            child_path.push(mv);
            out.push(Subtree {
                path: child_path,
                node: child,
                cache,
                h,
                root,
            });
        }
    }
}

/// A child within the threshold, waiting its turn in [`Dfs::search_ordered`].
#[derive(Clone, Copy)]
struct OrderedChild<C, S> {
    h: u32,
    mv: u8,
    to: u8,
    state: S,
    cache: C,
}

/// The subtrees of one parallel iteration not yet taken, how many threads wait for one, and
/// which subtrees of the split are finished.
struct WorkQueue<C> {
    subtrees: Mutex<VecDeque<Subtree<C>>>,
    /// Subtrees in the queue (read without the lock by busy threads).
    queued: AtomicUsize,
    /// Threads that found the queue empty and wait for work or the end of the iteration.
    idle: AtomicUsize,
    /// Whether busy threads hand over with no thread waiting ([`Sharing::eager`]).
    eager: bool,
    /// Per subtree of the split, its pieces not yet searched to the end (queued or under
    /// way): 0 once it is finished.
    pending: Vec<AtomicU32>,
    /// The least cost above the threshold met by the pieces finished so far.
    next_seen: AtomicU32,
    /// What a report of the finished subtrees says besides which they are.
    split: SplitRecord,
}

/// An iteration's split, as [`SearchedSubtrees`] records it.
#[derive(Debug, Clone, Copy)]
struct SplitRecord {
    pruning: u8,
    depth: u8,
    fingerprint: u32,
    /// The least cost above the threshold met before the threads started: in the split and,
    /// resumed, in the subtrees an earlier run finished.
    next_threshold: u32,
}

impl<C> WorkQueue<C> {
    /// The queue of the split's subtrees but those `done` already (indices, ascending).
    fn new(split: Vec<Subtree<C>>, done: &[u32], record: SplitRecord, eager: bool) -> Self {
        let pending: Vec<AtomicU32> = (0..split.len() as u32)
            .map(|i| AtomicU32::new(u32::from(done.binary_search(&i).is_err())))
            .collect();
        let subtrees: VecDeque<_> = split
            .into_iter()
            .filter(|s| pending[s.root as usize].load(Ordering::Relaxed) > 0)
            .collect();
        Self {
            queued: AtomicUsize::new(subtrees.len()),
            subtrees: Mutex::new(subtrees),
            idle: AtomicUsize::new(0),
            eager,
            pending,
            next_seen: AtomicU32::new(u32::MAX),
            split: record,
        }
    }

    /// Records that a piece of subtree `root` was searched to the end, by a thread whose least
    /// cost above the threshold so far is `next_threshold`; `true` when that finished the
    /// subtree.
    fn finish(&self, root: u32, next_threshold: u32) -> bool {
        self.next_seen.fetch_min(next_threshold, Ordering::AcqRel);
        self.pending[root as usize].fetch_sub(1, Ordering::AcqRel) == 1
    }

    /// The subtrees finished so far, with the least cost above the threshold met.
    fn searched(&self) -> SearchedSubtrees {
        // The finished subtrees first: a subtree read as finished had its pieces' costs
        // recorded before (`finish`), so the cost read after covers them.
        let done = (0..self.pending.len() as u32)
            .filter(|&i| self.pending[i as usize].load(Ordering::Acquire) == 0)
            .collect();
        let next_seen = self.next_seen.load(Ordering::Acquire);
        SearchedSubtrees {
            pruning: self.split.pruning,
            depth: self.split.depth,
            split: self.split.fingerprint,
            subtrees: self.pending.len() as u32,
            next_threshold: next_seen.min(self.split.next_threshold),
            done,
        }
    }

    /// Whether a thread waits and nothing is queued for it: a busy thread should hand over.
    #[inline]
    fn wanted(&self) -> bool {
        (self.eager || self.idle.load(Ordering::Relaxed) > 0)
            && self.queued.load(Ordering::Relaxed) == 0
    }

    /// Queues `children`, pieces of subtree `root` handed over by the thread searching it.
    fn push(&self, root: u32, children: Vec<Subtree<C>>) {
        // Counted before the handing piece can finish, so the subtree never looks finished.
        self.pending[root as usize].fetch_add(children.len() as u32, Ordering::AcqRel);
        let mut queue = self.subtrees.lock().expect("no thread panics holding it");
        self.queued.fetch_add(children.len(), Ordering::SeqCst);
        queue.extend(children);
    }

    fn pop(&self) -> Option<Subtree<C>> {
        let mut queue = self.subtrees.lock().expect("no thread panics holding it");
        let subtree = queue.pop_front()?;
        self.queued.fetch_sub(1, Ordering::SeqCst);
        Some(subtree)
    }

    /// The next subtree for a thread; `None` once every thread waits with the queue empty (the
    /// iteration is over: only busy threads add work) or `stop` is set.
    fn next(&self, threads: usize, stop: &AtomicBool) -> Option<Subtree<C>> {
        loop {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            if let Some(subtree) = self.pop() {
                return Some(subtree);
            }
            // Waiting: counted as idle until work shows up or every thread waits.
            self.idle.fetch_add(1, Ordering::SeqCst);
            loop {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                if self.queued.load(Ordering::SeqCst) > 0 {
                    self.idle.fetch_sub(1, Ordering::SeqCst);
                    break;
                }
                if self.idle.load(Ordering::SeqCst) == threads {
                    return None;
                }
                std::thread::yield_now();
            }
        }
    }
}

/// A subtree root for the parallel split: the moves leading to it from the start.
struct Subtree<C> {
    path: Vec<u8>,
    node: Node,
    cache: C,
    h: u32,
    /// The subtree of the split this one is, or lies in (its index).
    root: u32,
}

/// Finds a shortest solution from `start` to `goal` with IDA* guided by `heuristic`, on
/// `threads` threads (1 for plain serial IDA*).
///
/// Exact: the result is optimal when `heuristic` is admissible. `start` must reach `goal`
/// (check with [`Board::check_solvable`]); otherwise the search would not end.
pub fn ida_star<H: TileHeuristic>(
    start: &Board,
    goal: &Board,
    heuristic: &H,
    threads: usize,
) -> Result<SearchOutcome, SearchError> {
    ida_star_until(start, goal, heuristic, threads, None)
}

/// [`ida_star`] that gives up at `deadline` with [`SearchError::Timeout`], which carries the
/// bound the search had proved: every solution has at least that many moves.
pub fn ida_star_until<H: TileHeuristic>(
    start: &Board,
    goal: &Board,
    heuristic: &H,
    threads: usize,
    deadline: Option<Instant>,
) -> Result<SearchOutcome, SearchError> {
    ida_star_watched(start, goal, heuristic, threads, deadline, None)
}

/// [`ida_star_until`] that publishes its threshold and node count to `watch` as it goes.
pub fn ida_star_watched<H: TileHeuristic>(
    start: &Board,
    goal: &Board,
    heuristic: &H,
    threads: usize,
    deadline: Option<Instant>,
    watch: Option<&Watch>,
) -> Result<SearchOutcome, SearchError> {
    ida_star_resumed(
        start,
        goal,
        heuristic,
        threads,
        deadline,
        watch,
        &Resume::default(),
    )
}

/// Where a search stopped earlier left off: the lower bound it proved and, if it was stopped
/// inside that bound's iteration, the subtrees of it it finished.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resume {
    /// The first threshold, when above the start's estimate.
    pub lower_bound: u32,
    /// The subtrees of the first iteration to skip: those a stopped search of the same board,
    /// heuristic and threshold finished ([`SearchError::Timeout`]).
    pub searched: Option<SearchedSubtrees>,
}

/// [`ida_star_watched`] that continues a search stopped by its deadline (whose error carries
/// the bound it proved and the subtrees it finished of that bound's iteration) without doing
/// its finished work again: the first threshold is `resume.lower_bound` when that is above the
/// start's estimate, and that iteration skips `resume.searched`. The solution is shortest when
/// the bound is a true lower bound (no solution is shorter) and the subtrees skipped were
/// searched to the end under it, as a stopped search reports them; given a bound above the
/// start's distance, the search returns the first solution within it. Subtrees recorded for
/// another split (another board, goal, direction, threshold or build, or a heuristic that
/// cuts off moves near the start) are refused with [`SearchError::ResumeMismatch`], never
/// skipped; those of a search with another heuristic that splits alike are exact to skip.
pub fn ida_star_resumed<H: TileHeuristic>(
    start: &Board,
    goal: &Board,
    heuristic: &H,
    threads: usize,
    deadline: Option<Instant>,
    watch: Option<&Watch>,
    resume: &Resume,
) -> Result<SearchOutcome, SearchError> {
    let run = Run {
        deadline,
        watch,
        resume,
        pruning: None,
    };
    iterate(start, goal, heuristic, threads, Sharing::DEFAULT, run).map(|(outcome, _)| outcome)
}

/// What bounds one search besides the board: when it gives up, who watches it, and where it
/// starts.
#[derive(Debug, Clone, Copy)]
struct Run<'w> {
    deadline: Option<Instant>,
    watch: Option<&'w Watch>,
    resume: &'w Resume,
    /// The automaton of every iteration, in place of [`pruning_for`]'s choice (tests).
    pruning: Option<&'w DuplicateAutomaton>,
}

#[cfg(test)]
impl Default for Run<'_> {
    fn default() -> Self {
        static FROM_THE_START: Resume = Resume {
            lower_bound: 0,
            searched: None,
        };
        Run {
            deadline: None,
            watch: None,
            resume: &FROM_THE_START,
            pruning: None,
        }
    }
}

/// How the parallel search divides an iteration.
#[derive(Debug, Clone, Copy)]
struct Sharing {
    /// Subtrees made by the split, per thread.
    subtrees_per_thread: usize,
    /// Hand work over only from nodes at least this far below the threshold.
    min_slack: u32,
    /// Hand work over whenever the queue is empty, not only when a thread waits (tests: makes
    /// hand-overs independent of thread timing).
    eager: bool,
}

impl Sharing {
    const DEFAULT: Sharing = Sharing {
        subtrees_per_thread: SUBTREES_PER_THREAD,
        min_slack: MIN_SHARED_SLACK,
        eager: false,
    };
}

/// The automaton that refuses duplicate strings of `length` moves, as [`PRUNING`] has it
/// (`None` for its first step, the undone moves); a length it does not have was recorded by
/// another build.
fn pruning_of_length(length: u8) -> Result<Option<&'static DuplicateAutomaton>, SearchError> {
    match PRUNING.iter().position(|&(_, l)| l == usize::from(length)) {
        Some(0) => Ok(None),
        Some(step) => Ok(Some(pruning_step(step))),
        None => Err(SearchError::ResumeMismatch(format!(
            "this build prunes no duplicate strings of {length} moves"
        ))),
    }
}

/// The IDA* iterations, with the division of work as a parameter (tests force hand-overs with
/// one subtree and no slack); also returns how many times work was handed over.
fn iterate<H: TileHeuristic>(
    start: &Board,
    goal: &Board,
    heuristic: &H,
    threads: usize,
    sharing: Sharing,
    run: Run,
) -> Result<(SearchOutcome, u64), SearchError> {
    let Run {
        deadline,
        watch,
        resume,
        pruning,
    } = run;
    let geometry = Geometry::new(start.shape())?;
    let goal_node = Node::from_board(goal);
    let root = Node::from_board(start);
    let (root_cache, root_h) = heuristic.evaluate(&root);
    let mut stats = SearchStats::default();
    let mut handovers = 0;
    let mut threshold = root_h.max(resume.lower_bound);
    let stop = AtomicBool::new(false);
    let timed_out = AtomicBool::new(false);
    // A search resumed above the start's estimate is a long one: it takes the deepest
    // automaton at once.
    let resumed = threshold > root_h;
    // The finished subtrees given are of the first iteration.
    let mut skipped = resume.searched.as_ref();
    let undone = UndoneMoves::new();
    loop {
        let expected = match stats.iteration_expanded[..] {
            _ if resumed => u64::MAX,
            [.., before, last] => forecast(before, last).unwrap_or(last),
            [last] => last,
            [] => 0,
        };
        let automaton = match (pruning, skipped) {
            (Some(automaton), _) => Some(automaton),
            (None, Some(searched)) => pruning_of_length(searched.pruning)?,
            (None, None) => pruning_for(expected),
        };
        stats.thresholds.push(threshold);
        if let Some(watch) = watch {
            watch.begin_iteration(threshold);
        }
        let expanded_before = stats.expanded;
        // The first search of the iteration, following `moves`.
        macro_rules! first {
            ($moves:expr) => {
                Dfs {
                    heuristic,
                    moves: $moves,
                    geometry: &geometry,
                    goal: &goal_node,
                    cells: start.shape().cells(),
                    node: root,
                    path: Vec::new(),
                    threshold,
                    next_threshold: u32::MAX,
                    expanded: 0,
                    generated: 0,
                    stop: &stop,
                    deadline,
                    timed_out: &timed_out,
                    shared: None,
                    root: 0,
                    min_shared_slack: sharing.min_slack,
                    handovers: 0,
                    watch,
                }
            };
        }
        let iteration = Iteration {
            root: (root_cache, root_h),
            threads,
            sharing,
            skipped,
        };
        let end = match automaton {
            Some(automaton) => {
                one_iteration(first!(automaton), iteration, &mut stats, &mut handovers)?
            }
            None => one_iteration(first!(&undone), iteration, &mut stats, &mut handovers)?,
        };
        skipped = None;
        stats
            .iteration_expanded
            .push(stats.expanded - expanded_before);
        if timed_out.load(Ordering::Relaxed) {
            // The watch keeps the iteration under way: it was stopped, not finished.
            return Err(SearchError::Timeout {
                lower_bound: threshold,
                stats: Box::new(stats),
                searched: end.searched.filter(|s| !s.done.is_empty()),
            });
        }
        if let Some(watch) = watch {
            watch.end_iteration(stats.expanded - expanded_before);
        }
        match end.found {
            Ok(path) => {
                let moves = path.into_iter().map(Move::from_index).collect();
                return Ok((SearchOutcome { moves, stats }, handovers));
            }
            Err(u32::MAX) => return Err(SearchError::Exhausted),
            Err(next) => threshold = next,
        }
    }
}

/// One iteration's setting besides its first search.
#[derive(Clone, Copy)]
struct Iteration<'r, C> {
    /// The root's cache and estimate.
    root: (C, u32),
    threads: usize,
    sharing: Sharing,
    /// The subtrees of this iteration an earlier run finished.
    skipped: Option<&'r SearchedSubtrees>,
}

/// How one iteration ended: `Ok(path)` of a solution or `Err(next bound)`, and for a parallel
/// one the subtrees of its split finished.
struct IterationEnd {
    found: Result<Vec<u8>, u32>,
    searched: Option<SearchedSubtrees>,
}

/// One iteration from the root, on `threads` threads (serial, without a split, for one thread
/// unless it skips subtrees); the work done is added to `stats` and `handovers`.
fn one_iteration<H: TileHeuristic, F: MoveFilter>(
    mut first: Dfs<'_, H, F>,
    iteration: Iteration<'_, H::Cache>,
    stats: &mut SearchStats,
    handovers: &mut u64,
) -> Result<IterationEnd, SearchError> {
    let Iteration {
        root: (root_cache, root_h),
        threads,
        sharing,
        skipped,
    } = iteration;
    if threads <= 1 && skipped.is_none() {
        let found = first.search(0, root_h, &root_cache, first.moves.start());
        stats.expanded += first.expanded;
        stats.generated += first.generated;
        return Ok(IterationEnd {
            found: found.then_some(first.path).ok_or(first.next_threshold),
            searched: None,
        });
    }
    let threads = threads.max(1);
    let split_to = match skipped {
        Some(searched) => SplitTo::Depth(usize::from(searched.depth)),
        None => SplitTo::Subtrees(threads * sharing.subtrees_per_thread),
    };
    let ends = [first.node.cells, first.goal.cells];
    let split = split(&mut first, root_cache, root_h, split_to);
    stats.expanded += first.expanded;
    stats.generated += first.generated;
    let Split { subtrees, depth } = match split {
        Err(path) => {
            return Ok(IterationEnd {
                found: Ok(path),
                searched: None,
            })
        }
        Ok(split) => split,
    };
    let pruning = first.moves.pruning_length();
    let fingerprint = split_fingerprint(
        ends.each_ref().map(|cells| &cells[..first.cells]),
        first.threshold,
        pruning,
        depth,
        subtrees.iter().map(|s| &s.path[..]),
    );
    let (done, skipped_next): (&[u32], u32) = match skipped {
        None => (&[], u32::MAX),
        Some(searched) => {
            if (searched.split, searched.subtrees) != (fingerprint, subtrees.len() as u32) {
                return Err(SearchError::ResumeMismatch(format!(
                    "the iteration of {} splits into {} subtrees {:08x}, not {} {:08x}",
                    first.threshold,
                    subtrees.len(),
                    fingerprint,
                    searched.subtrees,
                    searched.split
                )));
            }
            (&searched.done, searched.next_threshold)
        }
    };
    let record = SplitRecord {
        pruning,
        depth,
        fingerprint,
        next_threshold: first.next_threshold.min(skipped_next),
    };
    let queue = WorkQueue::new(subtrees, done, record, sharing.eager);
    if let (Some(watch), false) = (first.watch, done.is_empty()) {
        // Stopped before it finishes another, the run still reports those skipped.
        watch.publish(&queue);
    }
    let found = run_parallel(&first, &queue, threads, stats, handovers)
        .map_err(|next| next.min(record.next_threshold));
    Ok(IterationEnd {
        found,
        searched: Some(queue.searched()),
    })
}

/// Where the parallel split stops.
#[derive(Debug, Clone, Copy)]
enum SplitTo {
    /// At the first depth with at least this many subtrees (or at [`MAX_SPLIT_DEPTH`]).
    Subtrees(usize),
    /// At this depth (at most [`MAX_SPLIT_DEPTH`]): the split a resumed iteration repeats.
    Depth(usize),
}

/// Expands the tree breadth-first within the threshold until `to` says stop (the root is
/// within it: every threshold is at least the root's estimate): the subtrees, numbered in
/// order, and their depth. `Err(path)` if the goal itself turns up on the way.
fn split<H: TileHeuristic, F: MoveFilter>(
    dfs: &mut Dfs<'_, H, F>,
    root_cache: H::Cache,
    root_h: u32,
    to: SplitTo,
) -> Result<Split<H::Cache>, Vec<u8>> {
    let mut level = vec![Subtree {
        path: Vec::new(),
        node: dfs.node,
        cache: root_cache,
        h: root_h,
        root: 0,
    }];
    let mut depth = 0;
    while depth < MAX_SPLIT_DEPTH {
        let enough = match to {
            SplitTo::Subtrees(wanted) => level.len() >= wanted,
            SplitTo::Depth(wanted) => depth >= wanted,
        };
        if enough {
            break;
        }
        let mut next = Vec::with_capacity(level.len() * 3);
        for s in &level {
            dfs.node = s.node;
            if dfs.is_goal(s.h) {
                return Err(s.path.clone());
            }
            dfs.expanded += 1;
            dfs.children_within(&s.node, &s.cache, &s.path, depth as u32, 0, &mut next);
        }
        level = next;
        depth += 1;
    }
    for (i, s) in level.iter_mut().enumerate() {
        s.root = i as u32;
    }
    Ok(Split {
        subtrees: level,
        depth: depth as u8,
    })
}

/// The subtrees of an iteration's split, numbered in order, and their depth.
struct Split<C> {
    subtrees: Vec<Subtree<C>>,
    depth: u8,
}

/// Searches the queue's subtrees on `threads` threads; `Ok(path)` of a solution or `Err(next
/// bound)`. As each subtree of the split is finished, the watch (if any) is told.
fn run_parallel<H: TileHeuristic, F: MoveFilter>(
    template: &Dfs<'_, H, F>,
    queue: &WorkQueue<H::Cache>,
    threads: usize,
    stats: &mut SearchStats,
    handovers: &mut u64,
) -> Result<Vec<u8>, u32> {
    let next_threshold = AtomicU32::new(template.next_threshold);
    let solution: Mutex<Option<Vec<u8>>> = Mutex::new(None);
    let counts: Vec<(u64, u64, u64)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut dfs = template.worker(queue);
                    while let Some(s) = queue.next(threads, template.stop) {
                        dfs.node = s.node;
                        dfs.root = s.root;
                        dfs.path.clear();
                        dfs.path.extend_from_slice(&s.path);
                        let state = dfs.state_after(&s.path);
                        if dfs.search(s.path.len() as u32, s.h, &s.cache, state) {
                            template.stop.store(true, Ordering::Relaxed);
                            *solution.lock().expect("no thread panics holding it") =
                                Some(dfs.path.clone());
                            break;
                        }
                        // A piece the stop cut short is not finished.
                        let stopped = template.stop.load(Ordering::Relaxed);
                        if !stopped && queue.finish(s.root, dfs.next_threshold) {
                            if let Some(watch) = template.watch {
                                watch.publish(queue);
                            }
                        }
                    }
                    next_threshold.fetch_min(dfs.next_threshold, Ordering::Relaxed);
                    (dfs.expanded, dfs.generated, dfs.handovers)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("search threads do not panic"))
            .collect()
    });
    template.stop.store(false, Ordering::Relaxed);
    for (e, g, h) in counts {
        stats.expanded += e;
        stats.generated += g;
        *handovers += h;
    }
    solution
        .into_inner()
        .expect("no thread panicked")
        .ok_or(next_threshold.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::testing::random_walk;
    use crate::tiles::{LinearConflict, Manhattan};
    use godsearch_puzzles::tiles::Shape;
    use rand::SeedableRng;
    use std::time::Duration;

    /// The whole tree as one subtree, handed over from any node whenever the queue is empty.
    const HAND_OVER_EVERYWHERE: Sharing = Sharing {
        subtrees_per_thread: 0,
        min_slack: 0,
        eager: true,
    };

    /// In a race, the watch counts the turn's direction's nodes on the iteration over all its
    /// turns and gives the race's forecast, until the turn moves on to another iteration; one
    /// way, it forecasts from the two iterations before.
    #[test]
    fn a_races_watch_counts_the_turns_direction_over_its_turns() {
        let watch = Watch::default();
        let expanded = |n| watch.expanded.store(n, Ordering::Relaxed);
        for (threshold, nodes) in [(51, 100), (53, 400)] {
            watch.begin_iteration(threshold);
            watch.end_iteration(nodes);
        }
        watch.begin_iteration(55);
        assert_eq!(watch.iteration_forecast(), Some(1600));
        expanded(1000);
        let resumed = TurnIteration {
            threshold: 55,
            carried: 300,
            forecast: Some(2000),
        };
        watch.begin_turn(Direction::Backwards, resumed);
        watch.begin_iteration(55);
        expanded(1100);
        assert_eq!(watch.direction(), Some(Direction::Backwards));
        assert_eq!(watch.iteration_expanded(), 400);
        assert_eq!(watch.iteration_forecast(), Some(2000));
        // The turn finishes the iteration and goes on: its own count, no forecast.
        watch.end_iteration(400);
        watch.begin_iteration(57);
        expanded(1150);
        assert_eq!(watch.iteration_expanded(), 50);
        assert_eq!(watch.iteration_forecast(), None);
        // A direction without a forecast has none.
        let unforecast = TurnIteration {
            forecast: None,
            ..resumed
        };
        watch.begin_turn(Direction::Forwards, unforecast);
        watch.begin_iteration(55);
        assert_eq!(watch.iteration_forecast(), None);
    }

    /// Resumed from earlier runs, the watch counts their nodes on the iteration and forecasts
    /// it from the two iterations before, which they finished; once it is finished, the next is
    /// forecast from it whole.
    #[test]
    fn a_resumed_watch_carries_the_earlier_runs_nodes_and_forecast() {
        let watch = Watch::default();
        let expanded = |n| watch.expanded.store(n, Ordering::Relaxed);
        watch.resume_iteration(ResumedIteration {
            threshold: 55,
            carried: 700,
            before: [100, 400],
        });
        watch.begin_iteration(55);
        expanded(300);
        assert_eq!(watch.iteration_expanded(), 1000);
        assert_eq!(watch.iteration_forecast(), Some(1600));
        watch.end_iteration(300);
        assert_eq!(watch.finished_iterations(), [400, 1000]);
        watch.begin_iteration(57);
        expanded(350);
        assert_eq!(watch.iteration_expanded(), 50);
        assert_eq!(watch.iteration_forecast(), Some(2500));
        // Nothing resumed: nothing carried, no forecast before two iterations.
        let fresh = Watch::default();
        fresh.begin_iteration(55);
        assert_eq!(fresh.iteration_forecast(), None);
        assert_eq!(fresh.finished_iterations(), [0, 0]);
    }

    /// Handing work over must not lose or repeat any: every iteration that ends without a
    /// solution expands exactly the nodes serial IDA* expands, and the solution has the serial
    /// (optimal) length.
    #[test]
    fn handing_work_over_keeps_solutions_optimal() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let sizes = [(3, 3, 40), (4, 4, 60), (4, 4, 90)];
        for board in 0..4 * sizes.len() {
            let (w, h, walk) = sizes[board % sizes.len()];
            let goal = Board::goal(Shape::new(w, h).unwrap());
            let manhattan = Manhattan::new(&goal).unwrap();
            let start = random_walk(&goal, walk, &mut rng);
            let (serial, _) = iterate(
                &start,
                &goal,
                &manhattan,
                1,
                Sharing::DEFAULT,
                Run::default(),
            )
            .unwrap();
            let (parallel, handovers) = iterate(
                &start,
                &goal,
                &manhattan,
                4,
                HAND_OVER_EVERYWHERE,
                Run::default(),
            )
            .unwrap();
            assert_eq!(parallel.moves.len(), serial.moves.len(), "{start}");
            let (serial, parallel_stats) = (&serial.stats, &parallel.stats);
            let complete = serial.iteration_expanded.len() - 1;
            assert_eq!(parallel_stats.thresholds, serial.thresholds, "{start}");
            assert_eq!(
                parallel_stats.iteration_expanded[..complete],
                serial.iteration_expanded[..complete],
                "{start}"
            );
            let mut board = start.clone();
            for &mv in &parallel.moves {
                assert!(board.apply(mv), "{start}: a move off the board");
            }
            assert_eq!(board, goal, "{start}");
            assert!(handovers > 0, "{start}: no work was handed over");
        }
    }

    /// Every automaton the search may follow keeps it optimal: the same thresholds and
    /// solution length as with the undone moves alone, and no more nodes in any iteration
    /// before the last.
    #[test]
    fn every_pruning_automaton_keeps_solutions_optimal() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let manhattan = Manhattan::new(&goal).unwrap();
        let automata: Vec<DuplicateAutomaton> = PRUNING
            .iter()
            .map(|&(_, length)| DuplicateAutomaton::new(length).unwrap())
            .collect();
        for walk in [40, 60, 80, 100, 120, 140] {
            let start = random_walk(&goal, walk, &mut rng);
            let runs: Vec<SearchOutcome> = automata
                .iter()
                .map(|automaton| {
                    let run = Run {
                        pruning: Some(automaton),
                        ..Run::default()
                    };
                    iterate(&start, &goal, &manhattan, 1, Sharing::DEFAULT, run)
                        .unwrap()
                        .0
                })
                .collect();
            let plain = &runs[0];
            for (run, automaton) in runs.iter().zip(&automata).skip(1) {
                let length = automaton.max_length();
                assert_eq!(run.moves.len(), plain.moves.len(), "{start}, {length}");
                assert_eq!(run.stats.thresholds, plain.stats.thresholds, "{start}");
                let complete = plain.stats.iteration_expanded.len() - 1;
                for (fewer, more) in run.stats.iteration_expanded[..complete]
                    .iter()
                    .zip(&plain.stats.iteration_expanded)
                {
                    assert!(fewer <= more, "{start}, {length}");
                }
                let mut board = start.clone();
                assert!(run.moves.iter().all(|&m| board.apply(m)), "{start}");
                assert_eq!(board, goal, "{start}");
            }
        }
    }

    /// A search resumed from the bound a stopped one proved does none of the finished
    /// iterations again and finds a solution of the same, optimal, length; a bound below the
    /// start's estimate changes nothing. The watch forecasts an iteration from the growth of
    /// the two before it.
    #[test]
    fn a_search_resumes_from_a_proven_bound() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let manhattan = Manhattan::new(&goal).unwrap();
        for _ in 0..4 {
            let start = random_walk(&goal, 70, &mut rng);
            let watch = Watch::default();
            let full = ida_star_resumed(&start, &goal, &manhattan, 2, None, Some(&watch), &from(0))
                .unwrap();
            let thresholds = &full.stats.thresholds;
            if thresholds.len() >= 3 {
                assert!(watch.iteration_forecast().is_some(), "{start}");
            }
            let bound = thresholds[thresholds.len().saturating_sub(2)];
            let resumed =
                ida_star_resumed(&start, &goal, &manhattan, 2, None, None, &from(bound)).unwrap();
            assert_eq!(resumed.moves.len(), full.moves.len(), "{start}");
            assert_eq!(resumed.stats.thresholds[0], bound, "{start}");
            assert!(resumed.stats.thresholds.len() <= 2, "{start}");
            let mut board = start.clone();
            assert!(resumed.moves.iter().all(|&m| board.apply(m)), "{start}");
            assert_eq!(board, goal, "{start}");
            let below =
                ida_star_resumed(&start, &goal, &manhattan, 1, None, None, &from(1)).unwrap();
            assert_eq!(&below.stats.thresholds, thresholds, "{start}");
        }
    }

    /// High above the root's estimate nothing near the root is cut off, so every board with
    /// its blank on one cell splits alike: a token still belongs to its own board, goal and
    /// direction, and is refused for any other; a search of its board with another heuristic
    /// that cuts nothing off there either splits alike and takes it.
    #[test]
    fn a_token_belongs_to_its_board_goal_and_direction() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        // Two far boards with the blank brought home (down, then right): the goal's blank cell.
        let far = |rng: &mut rand::rngs::StdRng| {
            let mut board = random_walk(&goal, 400, rng);
            while board.apply(Move::Down) || board.apply(Move::Right) {}
            board
        };
        let (one, other) = (far(&mut rng), far(&mut rng));
        assert_eq!(one.blank(), other.blank());
        let (for_goal, for_one) = (
            Manhattan::new(&goal).unwrap(),
            Manhattan::new(&one).unwrap(),
        );
        // Split into four pieces a thread at least: three moves from the blank's corner (ten
        // pieces), six above both estimates, so the split cuts nothing off for either board.
        // Ten pieces on two threads leave a wide span of work with some finished and some not
        // (with two, one board's span was a single doubling of the node limit, missed in CI).
        const SPLIT_DEPTH: u32 = 3;
        fn run<H: TileHeuristic>(
            (start, to): (&Board, &Board),
            h: &H,
            resume: &Resume,
            watch: Option<&Watch>,
        ) -> Result<SearchOutcome, SearchError> {
            let sharing = Sharing {
                subtrees_per_thread: 4,
                ..Sharing::DEFAULT
            };
            let run = Run {
                resume,
                watch,
                ..Run::default()
            };
            iterate(start, to, h, 2, sharing, run).map(|(outcome, _)| outcome)
        }
        let conflicts = LinearConflict::new(&goal).unwrap();
        let estimate = [
            for_goal.evaluate(&Node::from_board(&one)).1,
            for_goal.evaluate(&Node::from_board(&other)).1,
            conflicts.evaluate(&Node::from_board(&one)).1,
        ];
        let high = from(estimate.into_iter().max().unwrap() + 2 * SPLIT_DEPTH);
        // Stopped after ever more work, a clock's look at a time, until a stop finds pieces
        // finished (the threads' interleaving moves where that happens, not whether).
        let stopped = (1..=16)
            .find_map(|looks| {
                let watch = Watch::with_node_limit(CLOCK_EVERY * looks);
                match run((&one, &goal), &for_goal, &high, Some(&watch)) {
                    Err(SearchError::Timeout {
                        lower_bound,
                        searched: Some(searched),
                        ..
                    }) => Some(Resume {
                        lower_bound,
                        searched: Some(searched),
                    }),
                    _ => None,
                }
            })
            .expect("a search stopped with a subtree finished");
        let depth = stopped.searched.as_ref().map(|s| u32::from(s.depth));
        assert_eq!(depth, Some(SPLIT_DEPTH));
        // Taken by the search that recorded it ...
        let watch = Watch::with_node_limit(CLOCK_EVERY);
        let taken = run((&one, &goal), &for_goal, &stopped, Some(&watch));
        assert!(
            !matches!(taken, Err(SearchError::ResumeMismatch(_))),
            "{taken:?}"
        );
        // ... and by one of the same board with another heuristic (the subtrees finished hold
        // no solution within the bound, whichever admissible heuristic searched them) ...
        let watch = Watch::with_node_limit(CLOCK_EVERY);
        let taken = run((&one, &goal), &conflicts, &stopped, Some(&watch));
        assert!(
            !matches!(taken, Err(SearchError::ResumeMismatch(_))),
            "{taken:?}"
        );
        // ... and refused for another board, and for the search from the goal to the board.
        let refused = [
            run((&other, &goal), &for_goal, &stopped, None),
            run((&goal, &one), &for_one, &stopped, None),
        ];
        for refused in refused {
            assert!(
                matches!(refused, Err(SearchError::ResumeMismatch(_))),
                "{refused:?}"
            );
        }
    }

    fn from(lower_bound: u32) -> Resume {
        Resume {
            lower_bound,
            searched: None,
        }
    }

    /// Stops `start`'s search from `resume` after about `nodes` expansions: the bound proved
    /// and the subtrees finished of its iteration, and the nodes expanded (`None` if it was
    /// solved first).
    fn try_stop_after(
        start: &Board,
        heuristic: &Manhattan,
        resume: &Resume,
        nodes: u64,
    ) -> Option<(Resume, u64)> {
        let goal = Board::goal(start.shape());
        let watch = Watch::with_node_limit(nodes);
        match ida_star_resumed(start, &goal, heuristic, 2, None, Some(&watch), resume) {
            Err(SearchError::Timeout {
                lower_bound,
                searched,
                stats,
            }) => {
                // What the watch offers a front end ending on a signal is what was finished.
                assert_eq!(
                    watch.searched().map(|s| s.done),
                    searched.clone().map(|s| s.done)
                );
                let resume = Resume {
                    lower_bound,
                    searched,
                };
                Some((resume, stats.expanded))
            }
            Ok(_) => None,
            Err(e) => panic!("{start}: {e}"),
        }
    }

    /// [`try_stop_after`] that must stop.
    fn stopped_after(
        start: &Board,
        heuristic: &Manhattan,
        resume: &Resume,
        nodes: u64,
    ) -> (Resume, u64) {
        try_stop_after(start, heuristic, resume, nodes).expect("stopped before a solution")
    }

    #[test]
    fn a_search_stopped_inside_an_iteration_skips_what_it_finished() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(23);
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let manhattan = Manhattan::new(&goal).unwrap();
        let (mut boards, mut lasts) = (0, 0);
        for _ in 0..100 {
            let start = random_walk(&goal, 400, &mut rng);
            let soon = Some(Instant::now() + Duration::from_secs(2));
            let Ok(full) = ida_star_until(&start, &goal, &manhattan, 2, soon) else {
                continue;
            };
            let thresholds = &full.stats.thresholds;
            if thresholds.len() < 2 {
                continue;
            }
            // The iteration before the last searches its whole tree, whatever the order; it
            // is measured as a resumed search runs it (with the deepest pruning).
            let earlier = thresholds[thresholds.len() - 2];
            let whole =
                ida_star_resumed(&start, &goal, &manhattan, 2, None, None, &from(earlier)).unwrap();
            let nodes = whole.stats.iteration_expanded[0];
            if nodes < 16 * CLOCK_EVERY {
                continue;
            }
            // Stopped twice inside that iteration, each time continued from the token as
            // text, then searched to the end.
            let (first, first_work) = stopped_after(&start, &manhattan, &from(earlier), nodes / 3);
            assert_eq!(first.lower_bound, earlier, "{start}");
            let token = first
                .searched
                .clone()
                .expect("subtrees finished")
                .to_string();
            let first = Resume {
                searched: Some(token.parse().unwrap()),
                ..first
            };
            let (second, second_work) = stopped_after(&start, &manhattan, &first, nodes / 3);
            assert_eq!(second.lower_bound, earlier, "{start}");
            let (was, now) = (&first.searched, &second.searched);
            let (was, now) = (&was.as_ref().unwrap().done, &now.as_ref().unwrap().done);
            assert!(
                was.iter().all(|i| now.contains(i)),
                "{start}: {was:?} {now:?}"
            );
            assert!(now.len() > was.len(), "{start}: {was:?} {now:?}");
            let resumed =
                ida_star_resumed(&start, &goal, &manhattan, 2, None, None, &second).unwrap();
            // The skipped part's cut-off costs carry the next threshold: the same iterations.
            assert_eq!(resumed.stats.thresholds, whole.stats.thresholds, "{start}");
            // A whole iteration expands the same nodes however it is shared out: the part
            // skipped (the whole less what the last run searched) is no more than the runs
            // before did, so only subtrees searched to the end were skipped.
            let rest = resumed.stats.iteration_expanded[0];
            assert!(rest < nodes, "{start}");
            assert!(nodes - rest <= first_work + second_work, "{start}");
            let after_first = ida_star_resumed(&start, &goal, &manhattan, 2, None, None, &first)
                .unwrap()
                .stats
                .iteration_expanded[0];
            assert!(nodes - after_first <= first_work, "{start}");
            assert_eq!(resumed.moves.len(), full.moves.len(), "{start}");
            let mut board = start.clone();
            assert!(resumed.moves.iter().all(|&m| board.apply(m)), "{start}");
            assert_eq!(board, goal, "{start}");
            // Stopped in the last iteration, where the solution is, before it is found (at
            // eighths of its work, so some stop cuts the subtree that holds it short): that
            // subtree is not finished, so the run continued finds a solution as short.
            let bound = *thresholds.last().unwrap();
            let last = whole.stats.iteration_expanded[1];
            for eighths in 1..8 {
                let nodes = last * eighths / 8;
                let Some((stopped, _)) = try_stop_after(&start, &manhattan, &from(bound), nodes)
                else {
                    continue;
                };
                if stopped.searched.is_some() {
                    let resumed =
                        ida_star_resumed(&start, &goal, &manhattan, 2, None, None, &stopped)
                            .unwrap();
                    assert_eq!(resumed.moves.len(), full.moves.len(), "{start}");
                    lasts += 1;
                }
            }
            // Given to another board, or as another split, the token is refused.
            let other = random_walk(&goal, 120, &mut rng);
            let refused = ida_star_resumed(&other, &goal, &manhattan, 2, None, None, &second);
            assert!(
                matches!(refused, Err(SearchError::ResumeMismatch(_))),
                "{other}: {refused:?}"
            );
            let mut tampered = second.clone();
            tampered.searched.as_mut().unwrap().split ^= 1;
            let refused = ida_star_resumed(&start, &goal, &manhattan, 1, None, None, &tampered);
            assert!(
                matches!(refused, Err(SearchError::ResumeMismatch(_))),
                "{refused:?}"
            );
            boards += 1;
            if boards == 3 && lasts > 0 {
                return;
            }
        }
        panic!("only {boards} boards with large iterations, {lasts} stopped in the last");
    }
}
