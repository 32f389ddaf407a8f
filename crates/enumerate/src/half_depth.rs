//! Half-depth search (meet in the middle): with every position within `n` moves of the goal
//! held, level by level ([`GoalBall`]), a position within `2n` moves is solved optimally by
//! growing the positions around it level by level and intersecting each level with the held
//! ones by a sorted merge.
//!
//! A position `P` at distance `d <= 2n` has, on every shortest path, a position `M` at distance
//! `min(d, n)` from the goal and `d - min(d, n) <= n` from `P`. The positions at exactly `i`
//! moves from `P` are found as the frontier engine finds levels (neighbours, sorted, repeats
//! and the two levels before removed). For `P` farther than `n`, the first of these levels to
//! meet the goal's is level `d - n`, and it meets goal level `n` only (a meeting at `(i, j)`
//! gives `d <= i + j <= i + n`): so each level is merged with goal level `n` alone, and the
//! first meeting is a shortest solution. The path is read back by descent through both sets
//! of levels. It needs no heuristic and no
//! group structure, so it serves tiles (not a group) and the 2x2x2 alike, and its answers are
//! an independent check of IDA* and table descent.
//!
//! Memory: the goal's levels 0..n as sorted states (8 bytes each for tiles: 4x4 n = 24 holds
//! 43 million positions in 343 MB, n = 26 144 million in 1.2 GB, n = 28 465 million in 3.7 GB),
//! and about as many again for the levels around the position being solved.

use crate::keys::KeyState;
use crate::level_store::retain_absent;
use crate::{frontier, Limits, NoProgress, Progress, Stop};
use godsearch_core::{AutomatonState, MoveIdx, SequenceAutomaton, StateSpace};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;
use thiserror::Error;

/// Every position within `depth` moves of the goal, level by level, each sorted.
#[derive(Debug, Clone)]
pub struct GoalBall<S> {
    levels: Vec<Vec<S>>,
    complete: bool,
}

/// Why the goal's levels could not be held.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum HalfDepthError {
    /// A level would not fit in the memory budget.
    #[error("the positions within {depth} moves of the goal need more than the budget of {budget} bytes (the level that did not fit: {needed} bytes with those before it)")]
    TooLarge {
        /// The depth asked for.
        depth: u32,
        /// Bytes needed (the levels up to where the budget ran out, and the next).
        needed: u64,
        /// The memory limit.
        budget: u64,
    },
    /// The build was cancelled (its progress sink said so) between two levels.
    #[error("the half-depth search was cancelled while it held the goal's positions")]
    Cancelled,
}

/// How a half-depth search ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HalfDepthOutcome {
    /// An optimal solution: the moves from the position to the goal.
    Solved(Vec<MoveIdx>),
    /// The position is farther than twice the held depth: at least this many moves.
    Beyond {
        /// A proven lower bound on its distance.
        lower_bound: u32,
    },
}

impl<S: KeyState> GoalBall<S> {
    /// The positions within `depth` moves of the goal of `space` (fewer levels when the space
    /// is exhausted sooner; without `depth`, as many levels as fit), built with the frontier
    /// engine, within `memory_bytes`; `progress` hears of its levels, and a cancel is heard
    /// between two of them.
    pub fn build<P>(
        space: &P,
        depth: Option<u32>,
        memory_bytes: u64,
        progress: &dyn Progress,
    ) -> Result<Self, HalfDepthError>
    where
        P: StateSpace<State = S>,
    {
        let mut levels: Vec<Vec<S>> = Vec::new();
        let limits = Limits {
            max_depth: depth,
            memory_bytes,
            antipode_cap: 0,
            count_last: false,
        };
        let e = frontier::enumerate_in(
            space,
            KeepAll {
                levels: &mut levels,
            },
            &limits,
            progress,
        );
        match (e.stop, depth) {
            (Stop::Cancelled(_), _) => Err(HalfDepthError::Cancelled),
            (Stop::Memory { needed, budget, .. }, Some(depth)) => Err(HalfDepthError::TooLarge {
                depth,
                needed,
                budget,
            }),
            (Stop::Memory { .. }, None) if levels.len() < 2 => Err(HalfDepthError::TooLarge {
                depth: 1,
                needed: 0,
                budget: memory_bytes,
            }),
            (stop, _) => Ok(GoalBall {
                levels,
                complete: stop == Stop::Complete,
            }),
        }
    }

    /// The deepest level held (`n`).
    pub fn depth(&self) -> u32 {
        self.levels.len() as u32 - 1
    }

    /// Whether every position of the space is held (the space's diameter is at most `n`).
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// Positions held.
    pub fn len(&self) -> u64 {
        self.levels.iter().map(|l| l.len() as u64).sum()
    }

    /// Whether nothing is held (never: the goal is).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes the levels take.
    pub fn bytes(&self) -> u64 {
        self.len() * std::mem::size_of::<S>() as u64
    }

    /// The distance of `state` from the goal when it is at most `n`.
    pub fn distance(&self, state: S) -> Option<u32> {
        self.levels
            .iter()
            .position(|l| l.binary_search(&state).is_ok())
            .map(|d| d as u32)
    }

    /// Moves from `state`, at distance `distance`, to the goal, by descent through the levels.
    fn descend<P: StateSpace<State = S>>(
        &self,
        space: &P,
        mut state: S,
        distance: u32,
    ) -> Vec<MoveIdx> {
        let mut path = Vec::with_capacity(distance as usize);
        for d in (1..=distance as usize).rev() {
            let below = &self.levels[d - 1];
            let (m, next) = space
                .find_neighbour(state, |n| below.binary_search(&n).is_ok())
                .expect("a position at distance d has a neighbour at d - 1");
            path.push(m);
            state = next;
        }
        path
    }

    /// Solves `start` optimally if it is within twice the held depth (within the held depth
    /// alone when the space is complete: then every position is), holding at most
    /// `memory_bytes` of positions around it. Exact: the moves returned are a shortest
    /// solution, and `Beyond` is a proven lower bound (`i + n + 1` when the positions within
    /// `i` moves of the start were all the budget held, `2n + 1` past that).
    pub fn solve<P: StateSpace<State = S>>(
        &self,
        space: &P,
        start: S,
        memory_bytes: u64,
    ) -> HalfDepthOutcome {
        if let Some(d) = self.distance(start) {
            return HalfDepthOutcome::Solved(self.descend(space, start, d));
        }
        let n = self.depth();
        if self.complete {
            // Every reachable position is held; this one is not reachable (callers check
            // solvability first, so this does not happen for their positions).
            return HalfDepthOutcome::Beyond {
                lower_bound: u32::MAX,
            };
        }
        let same_level = space.same_level_possible();
        let state_bytes = std::mem::size_of::<S>() as u64;
        let farthest = &self.levels[n as usize];
        let mut around: Vec<Vec<S>> = vec![vec![start]];
        let mut held = state_bytes;
        let mut met = None;
        for i in 1..=n {
            let newest = around.last().expect("the start's level");
            let bound = (newest.len() * space.max_degree()) as u64 * state_bytes;
            if held + bound > memory_bytes {
                // No meeting within i - 1 moves of the start: at least i + n moves away.
                return HalfDepthOutcome::Beyond { lower_bound: i + n };
            }
            let next = self.next_level_around(space, &around, same_level);
            held += next.len() as u64 * state_bytes;
            if next.is_empty() {
                break;
            }
            // The first level around the start to meet the goal's levels meets level n, at
            // i = d - n: a meeting at (i, j) means d <= i + j <= i + n, and the start is
            // farther than n. So only level n is looked at, and the first meeting is optimal.
            let meeting = first_common(&next, farthest);
            around.push(next);
            if let Some(m) = meeting {
                met = Some((i, m));
                break;
            }
        }
        let Some((i, meeting)) = met else {
            return HalfDepthOutcome::Beyond {
                lower_bound: 2 * n + 1,
            };
        };
        let length = i + n;
        // From the meeting position back to the start through the levels around it, then
        // forward: each step back is a move from the start's side undone.
        let mut back = Vec::with_capacity(i as usize);
        let mut state = meeting;
        for k in (1..=i as usize).rev() {
            let below = &around[k - 1];
            let (m, prev) = space
                .find_neighbour(state, |p| below.binary_search(&p).is_ok())
                .expect("a position at i moves from the start has a neighbour at i - 1");
            back.push(space.inverse_move(m));
            state = prev;
        }
        back.reverse();
        back.extend(self.descend(space, meeting, length - i));
        HalfDepthOutcome::Solved(back)
    }

    /// The positions at one move more from the start than the newest of `around`.
    fn next_level_around<P: StateSpace<State = S>>(
        &self,
        space: &P,
        around: &[Vec<S>],
        same_level: bool,
    ) -> Vec<S> {
        let newest = around.last().expect("the start's level");
        let degrees = frontier::degrees_of(space, newest);
        let mut next = Vec::new();
        frontier::expand_into(space, newest, &degrees, &mut next, &NoProgress);
        S::sort_all(&mut next);
        next.dedup();
        let previous: &[S] = match around.len() {
            1 => &[],
            k => &around[k - 2],
        };
        let same: &[S] = if same_level { newest } else { &[] };
        retain_absent(&mut next, previous, same);
        next
    }
}

impl<S: KeyState> GoalBall<S> {
    /// Half-depth search in the group form: every canonical sequence of `k` moves from the
    /// start (`order`: the space's sequence automaton), for `k = 0, 1, ...` rising, is followed
    /// depth first, and where it ends is looked up in the held levels. The first `k` at which
    /// one ends in level `n` (at `k = 0`: the start held at any level) gives a shortest
    /// solution of `k + n` moves, read on by descent through the levels.
    ///
    /// Nothing around the start is held, so it suits spaces whose states are classes: the
    /// moves are made on positions (`apply`; `None` where a move does not apply) and `key`
    /// gives a position's state, so on the 3x3x3 the search turns real cubes and looks up their
    /// class keys, and the moves returned solve the start itself.
    ///
    /// Exact, for the same reason as [`solve`](Self::solve): a position farther than `n`
    /// meets the held levels first at `k = d - n`, in level `n`. Past `max_k` moves from the
    /// start, `Beyond` with the proven lower bound `max_k + n + 1`. The subtrees below the
    /// first move are searched on the threads of the current rayon pool; the solution returned
    /// is the first in move order, whatever the threads.
    pub fn search_from<C, Apply, Key>(
        &self,
        start: &C,
        order: &SequenceAutomaton,
        apply: Apply,
        key: Key,
        max_k: u32,
    ) -> HalfDepthOutcome
    where
        C: Clone + Send + Sync,
        Apply: Fn(&C, MoveIdx) -> Option<C> + Sync,
        Key: Fn(&C) -> S + Sync,
    {
        self.search_from_within(start, order, apply, key, max_k, &GroupBrakes::default())
            .outcome
    }

    /// [`search_from`](Self::search_from) that gives up at `brakes.deadline` or when
    /// `brakes.stop` is set, with the bound proven so far (`k + n` while sequences of `k`
    /// moves were being tried: every shorter one was), and counts the positions it visits.
    /// A solution found is optimal even then: every shorter length was searched whole.
    pub fn search_from_within<C, Apply, Key>(
        &self,
        start: &C,
        order: &SequenceAutomaton,
        apply: Apply,
        key: Key,
        max_k: u32,
        brakes: &GroupBrakes,
    ) -> GroupOutcome
    where
        C: Clone + Send + Sync,
        Apply: Fn(&C, MoveIdx) -> Option<C> + Sync,
        Key: Fn(&C) -> S + Sync,
    {
        let n = self.depth();
        let done = |outcome, nodes, stopped| GroupOutcome {
            outcome,
            nodes,
            stopped,
        };
        if let Some(d) = self.distance(key(start)) {
            let path = self.descend_from(start, d, order, &apply, &key);
            return done(HalfDepthOutcome::Solved(path), 1, false);
        }
        if self.complete {
            let beyond = HalfDepthOutcome::Beyond {
                lower_bound: u32::MAX,
            };
            return done(beyond, 1, false);
        }
        let search = GroupSearch {
            ball: self,
            order,
            apply: &apply,
            key: &key,
            brakes,
            nodes: AtomicU64::new(1),
            stopped: AtomicBool::new(false),
        };
        for k in 1..=max_k {
            let found = (0..order.move_count() as MoveIdx)
                .into_par_iter()
                .filter_map(|m| {
                    let state = order.next(SequenceAutomaton::START, m)?;
                    let next = apply(start, m)?;
                    let mut path = vec![m];
                    let mut visited = 0;
                    let found = search.dfs(&next, state, k - 1, &mut path, &mut visited);
                    search.nodes.fetch_add(visited, Ordering::Relaxed);
                    found.then_some(path)
                })
                .find_map_first(Some);
            let nodes = search.nodes.load(Ordering::Relaxed);
            if let Some(path) = found {
                let mut end = start.clone();
                for &m in &path {
                    end = apply(&end, m).expect("the path's moves apply");
                }
                let mut moves = path;
                moves.extend(self.descend_from(&end, n, order, &apply, &key));
                return done(HalfDepthOutcome::Solved(moves), nodes, false);
            }
            if search.stopped.load(Ordering::Relaxed) {
                let bound = HalfDepthOutcome::Beyond { lower_bound: k + n };
                return done(bound, nodes, true);
            }
        }
        let beyond = HalfDepthOutcome::Beyond {
            lower_bound: max_k + n + 1,
        };
        done(beyond, search.nodes.load(Ordering::Relaxed), false)
    }

    /// Moves from `position`, whose state is at distance `distance`, to the goal: at each step
    /// a move to a position one level down.
    fn descend_from<C, Apply, Key>(
        &self,
        position: &C,
        distance: u32,
        order: &SequenceAutomaton,
        apply: &Apply,
        key: &Key,
    ) -> Vec<MoveIdx>
    where
        Apply: Fn(&C, MoveIdx) -> Option<C>,
        Key: Fn(&C) -> S,
        C: Clone,
    {
        let mut path = Vec::with_capacity(distance as usize);
        let mut at = position.clone();
        for d in (1..=distance as usize).rev() {
            let below = &self.levels[d - 1];
            let (m, next) = (0..order.move_count() as MoveIdx)
                .find_map(|m| {
                    let next = apply(&at, m)?;
                    below
                        .binary_search(&key(&next))
                        .is_ok()
                        .then_some((m, next))
                })
                .expect("a position at distance d has a neighbour at d - 1");
            path.push(m);
            at = next;
        }
        path
    }
}

/// When a group-form search gives up ([`GoalBall::search_from_within`]).
#[derive(Debug, Default, Clone, Copy)]
pub struct GroupBrakes<'a> {
    /// Give up at this moment.
    pub deadline: Option<Instant>,
    /// Give up once this is set (a front end's cancel switch).
    pub stop: Option<&'a AtomicBool>,
}

/// What a group-form search found, and what it cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupOutcome {
    /// The solution, or the bound proven.
    pub outcome: HalfDepthOutcome,
    /// Positions visited (each one move made and, at the last step, one look-up).
    pub nodes: u64,
    /// Whether the deadline or the stop switch ended it (the bound is then the one proven).
    pub stopped: bool,
}

/// Positions a search task visits between looks at the clock and the stop switch.
const CHECK_EVERY: u64 = 1 << 14;

/// The depth-first part of [`GoalBall::search_from_within`].
struct GroupSearch<'a, S, Apply, Key> {
    ball: &'a GoalBall<S>,
    order: &'a SequenceAutomaton,
    apply: &'a Apply,
    key: &'a Key,
    brakes: &'a GroupBrakes<'a>,
    nodes: AtomicU64,
    stopped: AtomicBool,
}

impl<S: KeyState, Apply, Key> GroupSearch<'_, S, Apply, Key> {
    /// Whether a canonical sequence of `left` more moves from `at` ends in the held level `n`;
    /// its moves are left on `path`. `visited` counts the positions seen; `false` also when
    /// the search was stopped.
    fn dfs<C>(
        &self,
        at: &C,
        state: AutomatonState,
        left: u32,
        path: &mut Vec<MoveIdx>,
        visited: &mut u64,
    ) -> bool
    where
        Apply: Fn(&C, MoveIdx) -> Option<C>,
        Key: Fn(&C) -> S,
    {
        *visited += 1;
        if *visited % CHECK_EVERY == 0 && self.should_stop() {
            return false;
        }
        if left == 0 {
            let farthest = self.ball.levels.last().expect("level 0");
            return farthest.binary_search(&(self.key)(at)).is_ok();
        }
        for m in 0..self.order.move_count() as MoveIdx {
            let Some(next_state) = self.order.next(state, m) else {
                continue;
            };
            let Some(next) = (self.apply)(at, m) else {
                continue;
            };
            path.push(m);
            if self.dfs(&next, next_state, left - 1, path, visited) {
                return true;
            }
            path.pop();
            if self.stopped.load(Ordering::Relaxed) {
                return false;
            }
        }
        false
    }

    /// Looks at the clock and the stop switch; once either says so, every task stops.
    #[cold]
    fn should_stop(&self) -> bool {
        let braked = self.brakes.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.brakes.deadline.is_some_and(|d| Instant::now() >= d);
        if braked {
            self.stopped.store(true, Ordering::Relaxed);
        }
        self.stopped.load(Ordering::Relaxed)
    }
}

/// A state in both sorted lists (the smallest), or `None`. The shorter list's chunks are
/// looked for in parallel. Where the longer list is [`GALLOP_RATIO`] times as long or more,
/// each state is found by galloping (exponential, then binary search) from where the last was:
/// a linear merge walked all of goal level 28 (205 million states, about 0.5 s) for each of the
/// few thousand states around a 41-move board, 6.5 s a board.
fn first_common<S: Ord + Copy + Send + Sync>(a: &[S], b: &[S]) -> Option<S> {
    const CHUNK: usize = 1 << 16;
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let gallop = long.len() / short.len().max(1) >= GALLOP_RATIO;
    short
        .par_chunks(CHUNK)
        .filter_map(|chunk| {
            let from = long.partition_point(|x| x < &chunk[0]);
            let mut rest = &long[from..];
            for x in chunk {
                let skip = if gallop {
                    first_not_below(rest, x)
                } else {
                    rest.iter().position(|y| y >= x).unwrap_or(rest.len())
                };
                rest = &rest[skip..];
                match rest.first() {
                    None => return None,
                    Some(y) if y == x => return Some(*x),
                    Some(_) => {}
                }
            }
            None
        })
        .min()
}

/// How many times longer one list must be than the other for [`first_common`] to gallop
/// through it instead of walking it.
const GALLOP_RATIO: usize = 16;

/// The first index of sorted `s` whose state is not below `x` (`s.len()` if none), in
/// O(log i) comparisons for an answer `i`.
fn first_not_below<S: Ord>(s: &[S], x: &S) -> usize {
    let mut bound = 1;
    while bound <= s.len() && s[bound - 1] < *x {
        bound *= 2;
    }
    let lo = bound / 2;
    let hi = bound.min(s.len());
    lo + s[lo..hi].partition_point(|y| y < x)
}

/// A level store that keeps every level (the goal's ball needs them all).
struct KeepAll<'a, S> {
    levels: &'a mut Vec<Vec<S>>,
}

impl<S: Ord + Copy> crate::level_store::LevelStore<S> for KeepAll<'_, S> {
    fn start(&mut self, level: Vec<S>) {
        self.levels.clear();
        self.levels.push(level);
    }

    fn newest(&self) -> &[S] {
        self.levels.last().expect("level 0")
    }

    fn previous(&self) -> &[S] {
        match self.levels.len() {
            0 | 1 => &[],
            k => &self.levels[k - 2],
        }
    }

    fn held(&self) -> u64 {
        self.levels.iter().map(|l| l.len() as u64).sum()
    }

    fn remove_known(&self, candidates: &mut Vec<S>, same_level: bool) {
        let previous = self.previous();
        let same: &[S] = if same_level { self.newest() } else { &[] };
        retain_absent(candidates, previous, same);
    }

    fn push(&mut self, level: Vec<S>) {
        self.levels.push(level);
    }

    fn into_newest(self) -> Vec<S> {
        // The levels stay in the borrowed list; the engine's antipodes are not wanted here.
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` sorted distinct multiples of `step` from a simple generator, from `seed`.
    fn sorted(n: usize, step: u64, seed: u64) -> Vec<u64> {
        let mut x = seed;
        let mut v: Vec<u64> = (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 40) * step
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    fn brute(a: &[u64], b: &[u64]) -> Option<u64> {
        a.iter()
            .copied()
            .filter(|x| b.binary_search(x).is_ok())
            .min()
    }

    #[test]
    fn first_common_finds_the_smallest_shared_state_walking_or_galloping() {
        for (short, long) in [(0, 50), (1, 1), (3, 200_000), (40, 300_000), (5_000, 6_000)] {
            for (step_a, step_b) in [(3, 5), (7, 11), (2, 4)] {
                let a = sorted(short, step_a, short as u64 + 1);
                let b = sorted(long, step_b, long as u64 + 7);
                assert_eq!(first_common(&a, &b), brute(&a, &b), "{short} {long}");
                assert_eq!(first_common(&b, &a), brute(&a, &b), "{long} {short}");
            }
        }
        // Disjoint, and the only shared state at either end of the longer list.
        let long: Vec<u64> = (0..100_000).map(|i| 2 * i).collect();
        assert_eq!(first_common(&[1, 3, 99_999], &long), None);
        assert_eq!(first_common(&[1, 199_998], &long), Some(199_998));
        assert_eq!(first_common(&[0, 7], &long), Some(0));
    }

    #[test]
    fn first_not_below_is_the_partition_point() {
        let s: Vec<u32> = (0..1000).map(|i| i * 3).collect();
        for x in [0, 1, 2, 3, 500, 1499, 2997, 2998, 5000] {
            assert_eq!(
                first_not_below(&s, &x),
                s.partition_point(|y| *y < x),
                "{x}"
            );
        }
        assert_eq!(first_not_below::<u32>(&[], &4), 0);
    }
}
