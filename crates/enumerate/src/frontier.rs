//! Frontier enumeration over any [`StateSpace`]: only the last two levels are kept (one, for
//! states that carry their moves back), as sorted arrays of states.
//!
//! Level `d + 1` is made from level `d` by listing every neighbour of every state (threads
//! write into one array at offsets known in advance from each state's number of moves),
//! sorting it in parallel, removing repeats, and removing what is already in levels `d - 1` or
//! `d` (the only levels a neighbour of level `d` can be in; only `d - 1` when the space says no
//! move keeps the distance) by a linear merge. Memory per level is therefore
//! `(|L(d-1)| + |L(d)| + candidates) * state bytes`, and it is checked against the budget
//! before anything is allocated, so the run stops with exact counts instead of being killed.
//! Sorted arrays beat a hash set here by a wide margin: 8 bytes a position for the 15-puzzle,
//! no per-entry overhead, and sequential memory traffic.
//!
//! A space whose states carry their moves back ([`crate::back_moves`]: the tiles) lists only
//! the moves forward, so every neighbour is new: repeats are joined (their moves back united),
//! nothing is removed, and level `d - 1` is not kept. Memory per level is then
//! `(|L(d)| + candidates) * state bytes` with about a third fewer candidates: the 15-puzzle
//! reaches depth 31 in memory instead of 28.
//!
//! The same loop serves spaces of symmetry classes (the 3x3x3 under its 48 symmetries): a
//! level holds one state per class and counts positions by summing the exact class sizes.
//! A space whose positions have several names ([`StateSpace::for_each_alias`]) gets every
//! name of each new position into its level, as the table engine sets them all: aliases are
//! at the same distance, so they are new exactly when the state is (their memory is not in
//! the budget check; only small table graphs have them).

use crate::back_moves::join_repeats;
use crate::count_last::count_next;
use crate::level_store::{LevelStore, SortedLevels};
use crate::shares::{grow_in_parallel, slices_by_lengths};
use crate::{Enumeration, KeyState, Limits, Progress, Stop};
use godsearch_core::StateSpace;
use rayon::prelude::*;

/// Positions a rayon task expands at most; a task writes its neighbours into its own slice.
const POSITIONS_PER_TASK: usize = 1 << 14;

/// Tasks a thread gets at least when a level is expanded, where the level is long enough for
/// one position a task: a level of a few times [`POSITIONS_PER_TASK`] in tasks of that size
/// left one thread working alone at its end, for seconds where a position's neighbours cost
/// microseconds (the 4x4x4's symmetry classes).
const TASKS_PER_THREAD: usize = 8;

/// Positions a rayon task of [`degrees_by`] and [`expand_by`] expands for a level of
/// `positions`: the same for both, so that a task's degrees and its slice of the neighbours
/// agree.
fn positions_per_task(positions: usize) -> usize {
    let tasks = rayon::current_num_threads() * TASKS_PER_THREAD;
    positions.div_ceil(tasks).clamp(1, POSITIONS_PER_TASK)
}

/// Enumerates level by level from the goal until the space is exhausted, `limits.max_depth` is
/// reached, or the next level would not fit in `limits.memory_bytes`.
///
/// Exact: every level reported is the true number of positions at that distance (and of
/// classes, for a space with symmetry classes).
pub fn enumerate<P: StateSpace>(
    puzzle: &P,
    limits: &Limits,
    progress: &dyn Progress,
) -> Enumeration<P::State>
where
    P::State: KeyState,
{
    enumerate_in(puzzle, SortedLevels::default(), limits, progress)
}

/// [`enumerate`] with its levels kept in `store`.
pub fn enumerate_in<P: StateSpace, L: LevelStore<P::State>>(
    puzzle: &P,
    mut store: L,
    limits: &Limits,
    progress: &dyn Progress,
) -> Enumeration<P::State>
where
    P::State: KeyState,
{
    let bytes = std::mem::size_of::<P::State>() as u64;
    let mut goals = Vec::new();
    puzzle.for_each_goal(|g| goals.push(g));
    goals.sort_unstable();
    goals.dedup();
    let aliases = aliases_of(puzzle, &goals);
    merge_sorted(&mut goals, aliases);
    let mut levels = vec![positions_in(puzzle, &goals)];
    let mut classes = vec![goals.len() as u64];
    store.start(goals);
    let mut peak_bytes = store.held() * bytes;
    let mut last_counted_only = false;
    // States that carry their moves back list new states only (`back_moves`): repeats are
    // joined, and no earlier level is kept to remove known ones.
    let back_bits = puzzle.back_move_bits();
    let stop = loop {
        let depth = levels.len() as u32 - 1;
        if limits.max_depth.is_some_and(|m| depth >= m) {
            break Stop::MaxDepth(depth);
        }
        if progress.cancelled() {
            break Stop::Cancelled(depth);
        }
        let current = store.newest();
        let degrees = degrees_of(puzzle, current);
        let candidates: usize = degrees.iter().sum();
        let needed = (store.held() + candidates as u64) * bytes;
        let last_wanted = limits.max_depth == Some(depth + 1);
        let memory_stop = Stop::Memory {
            depth: depth + 1,
            needed,
            budget: limits.memory_bytes,
        };
        if limits.count_last && (last_wanted || needed > limits.memory_bytes) {
            progress.level_started(depth + 1, current.len() as u64);
            let next = count_next(puzzle, store.previous(), current, progress);
            // Cancelled part way, the count is short: not reported.
            if progress.cancelled() {
                break Stop::Cancelled(depth);
            }
            if next.classes == 0 {
                break Stop::Complete;
            }
            levels.push(next.positions);
            classes.push(next.classes);
            progress.level_finished(depth + 1, next.positions);
            last_counted_only = true;
            break if last_wanted {
                Stop::MaxDepth(depth + 1)
            } else {
                memory_stop
            };
        }
        if needed > limits.memory_bytes {
            break memory_stop;
        }
        peak_bytes = peak_bytes.max(needed);
        progress.level_started(depth + 1, current.len() as u64);
        let mut next = Vec::new();
        expand_cancellable(puzzle, current, &degrees, &mut next, progress);
        // A cancel during the expansion leaves it part done and spares the sort and the joins
        // (seconds on large levels): the level is incomplete and not counted.
        if progress.cancelled() {
            break Stop::Cancelled(depth);
        }
        P::State::sort_all(&mut next);
        join_repeats(&mut next, back_bits);
        if back_bits == 0 {
            store.remove_known(&mut next, puzzle.same_level_possible());
        }
        let aliases = aliases_of(puzzle, &next);
        merge_sorted(&mut next, aliases);
        next.shrink_to_fit();
        if next.is_empty() {
            break Stop::Complete;
        }
        let count = positions_in(puzzle, &next);
        levels.push(count);
        classes.push(next.len() as u64);
        progress.level_finished(depth + 1, count);
        store.push(next);
        if back_bits > 0 {
            store.forget_previous();
        }
    };
    let newest = store.into_newest();
    let last_level = (!last_counted_only && newest.len() <= limits.antipode_cap).then_some(newest);
    Enumeration {
        levels,
        classes,
        stop,
        last_level,
        peak_bytes,
        last_counted_only,
    }
}

/// Every other name of the states of `level` (none for most spaces: the default
/// `for_each_alias` is empty, and the loop then does nothing).
pub(crate) fn aliases_of<P: StateSpace>(puzzle: &P, level: &[P::State]) -> Vec<P::State> {
    level
        .par_iter()
        .fold(Vec::new, |mut found, &s| {
            puzzle.for_each_alias(s, |a| found.push(a));
            found
        })
        .reduce(Vec::new, |mut a, mut b| {
            a.append(&mut b);
            a
        })
}

/// Adds `more` to the sorted, repeat-free `level`, keeping it so.
pub(crate) fn merge_sorted<S: KeyState>(level: &mut Vec<S>, more: Vec<S>) {
    if more.is_empty() {
        return;
    }
    level.extend(more);
    S::sort_all(level);
    level.dedup();
}

/// Positions the states of a level stand for: its length, or the sum of class sizes.
pub(crate) fn positions_in<P: StateSpace>(puzzle: &P, level: &[P::State]) -> u64 {
    if P::HAS_CLASSES {
        level.par_iter().map(|&s| puzzle.class_size(s)).sum()
    } else {
        level.len() as u64
    }
}

/// Which neighbours an expansion lists: all of them, or those of the moves marked for the
/// state's part ([`StateSpace::parts`]; indexed by part, then by move), as the disk engine
/// asks when it makes a level part by part.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Moves<'a> {
    All,
    ByPart(&'a [Vec<bool>]),
    /// All, by tasks that skip their share once the progress is cancelled.
    Cancellable,
}

/// The number of neighbours of each task's share of `current`: what [`expand_into`] writes.
pub(crate) fn degrees_of<P: StateSpace>(puzzle: &P, current: &[P::State]) -> Vec<usize> {
    degrees_by(puzzle, current, Moves::All)
}

/// [`degrees_of`] for the neighbours of `moves` only.
pub(crate) fn degrees_by<P: StateSpace>(
    puzzle: &P,
    current: &[P::State],
    moves: Moves,
) -> Vec<usize> {
    let degree = |r: P::State| match moves {
        Moves::All | Moves::Cancellable => puzzle.degree(r),
        Moves::ByPart(allowed) => puzzle.degree_by(r, &allowed[puzzle.part_of(r)]),
    };
    current
        .par_chunks(positions_per_task(current.len()))
        .map(|c| c.iter().map(|&r| degree(r)).sum())
        .collect()
}

/// Appends all neighbours of `current`, with repeats, to `out` (exactly the sum of `degrees`,
/// as [`degrees_of`] counted them).
pub(crate) fn expand_into<P: StateSpace>(
    puzzle: &P,
    current: &[P::State],
    degrees: &[usize],
    out: &mut Vec<P::State>,
    progress: &dyn Progress,
) {
    expand_by(puzzle, current, degrees, out, progress, Moves::All);
}

/// [`expand_into`] whose tasks do nothing once `progress` is cancelled, leaving their share of
/// `out` unwritten: only for a caller that then looks at the cancel and throws `out` away.
fn expand_cancellable<P: StateSpace>(
    puzzle: &P,
    current: &[P::State],
    degrees: &[usize],
    out: &mut Vec<P::State>,
    progress: &dyn Progress,
) {
    expand_by(puzzle, current, degrees, out, progress, Moves::Cancellable);
}

/// [`expand_into`] for the neighbours of `moves` only (`degrees` as [`degrees_by`] counted
/// them with the same `moves`).
pub(crate) fn expand_by<P: StateSpace>(
    puzzle: &P,
    current: &[P::State],
    degrees: &[usize],
    out: &mut Vec<P::State>,
    progress: &dyn Progress,
    moves: Moves,
) {
    let start = out.len();
    let added = degrees.iter().sum::<usize>();
    if out.is_empty() && out.capacity() < added {
        // Zeroed pages from the allocator, not written: a measurable part of a big level.
        *out = vec![P::State::default(); added];
    } else {
        grow_in_parallel(out, added);
    }
    let per_task = positions_per_task(current.len());
    assert_eq!(
        degrees.len(),
        current.len().div_ceil(per_task),
        "degrees counted in other tasks"
    );
    let slices = slices_by_lengths(&mut out[start..], degrees.iter().copied());
    current
        .par_chunks(per_task)
        .zip(slices)
        .for_each(|(chunk, slot)| {
            let mut at = 0;
            let mut put = |_, nb| {
                slot[at] = nb;
                at += 1;
            };
            match moves {
                Moves::Cancellable if progress.cancelled() => return,
                Moves::All | Moves::Cancellable => chunk
                    .iter()
                    .for_each(|&r| puzzle.for_each_neighbour(r, &mut put)),
                Moves::ByPart(allowed) => chunk.iter().for_each(|&r| {
                    puzzle.for_each_neighbour_by(r, &allowed[puzzle.part_of(r)], &mut put)
                }),
            }
            debug_assert_eq!(at, slot.len());
            progress.advanced(chunk.len() as u64);
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use godsearch_puzzles::tiles::{Board, Shape, TileSpace};
    use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

    /// Cancels at the first step of the level at `depth`.
    struct CancelDuring {
        depth: u32,
        now: AtomicU32,
        cancelled: AtomicBool,
    }

    impl Progress for CancelDuring {
        fn level_started(&self, depth: u32, _units: u64) {
            self.now.store(depth, Ordering::Relaxed);
        }
        fn advanced(&self, _units: u64) {
            if self.now.load(Ordering::Relaxed) == self.depth {
                self.cancelled.store(true, Ordering::Relaxed);
            }
        }
        fn cancelled(&self) -> bool {
            self.cancelled.load(Ordering::Relaxed)
        }
    }

    /// A cancel during a level's expansion stops the run there: the levels before it are
    /// those of the whole run, the level under way is not counted.
    #[test]
    fn a_cancel_during_an_expansion_stops_with_the_levels_before_it() {
        let space = TileSpace::<u64>::new(Board::goal(Shape::new(3, 3).unwrap())).unwrap();
        let limits = Limits {
            max_depth: None,
            memory_bytes: 1 << 30,
            antipode_cap: 0,
            count_last: false,
        };
        let whole = enumerate(&space, &limits, &crate::NoProgress);
        let cancel = CancelDuring {
            depth: 12,
            now: AtomicU32::new(0),
            cancelled: AtomicBool::new(false),
        };
        let stopped = enumerate(&space, &limits, &cancel);
        assert_eq!(stopped.stop, Stop::Cancelled(11));
        assert_eq!(stopped.levels[..], whole.levels[..12]);
        // The same while the last level is only counted: its short count is not reported.
        let counting = Limits {
            max_depth: Some(13),
            count_last: true,
            ..limits
        };
        let cancel = CancelDuring {
            depth: 13,
            now: AtomicU32::new(0),
            cancelled: AtomicBool::new(false),
        };
        let stopped = enumerate(&space, &counting, &cancel);
        assert_eq!(stopped.stop, Stop::Cancelled(12));
        assert_eq!(stopped.levels[..], whole.levels[..13]);
    }
}
