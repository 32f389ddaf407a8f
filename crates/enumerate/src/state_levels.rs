//! God's algorithm for spaces whose positions have no integer key: more positions than 128
//! bits number (the megaminx's 10^69, the 4x4x4's 10^47), so neither the table engine nor the
//! frontier engine's keys can hold them. The search is the frontier engine's: the last two
//! levels kept as sorted arrays, each new level the neighbours of the newest less the states
//! of those two. Here a state is sorted and compared whole ([`Ord`]), and the newest level is
//! expanded a share at a time, each share's neighbours sorted, stripped of repeats and of
//! known states, and merged into the level being made: the neighbours of a whole level never
//! sit in memory at once (those of the megaminx's 5-move level, 31 million positions with 48
//! moves each, would take 97 GB).
//!
//! With [`Limits::count_last`] the last level (the one asked for, or the one the budget cannot
//! hold) is counted without being stored: its states are split by a hash into as many parts
//! as the budget needs, and each part is made as a level is (all of the newest level
//! expanded, a share at a time) keeping only the neighbours whose hash falls in it. The parts
//! are disjoint, so their counts add up exactly; each costs a whole expansion, the price of
//! holding a part of the level instead of all of it. (Bryan's method, which [`crate::count_last`]
//! uses for spaces with integer keys, makes one pass but looks each new state's neighbours up
//! in the newest level, a binary search over whole states a try; the parts trade those lookups
//! for repeated expansions, which are sequential work.)
//!
//! Exact: every level reported is the number of distinct positions at that distance. Such
//! spaces are never exhausted within memory, so a run ends at its depth, its memory budget
//! ([`Stop::Memory`], the levels before exact, and with `count_last` that level counted too)
//! or a cancel.

use crate::frontier::{aliases_of, degrees_of, expand_into, positions_in};
use crate::hashed_ball::spread_hash;
use crate::level_store::{dedup_absent, union};
use crate::shares::{grow_in_parallel, slices_by_lengths};
use crate::{Enumeration, Limits, Progress, Stop};
use godsearch_core::StateSpace;
use rayon::prelude::*;

/// The share of the newest level expanded at once is sized so that its neighbours take at
/// most this fraction of the memory budget: the rest holds the levels.
const SHARE_OF_BUDGET: u64 = 8;

/// States of the newest level a rayon task expands when a level is counted.
const STATES_PER_TASK: usize = 1 << 10;

/// A counted level's parts are sized for this many times the states their share of the
/// neighbours could hold at most, so that a part a little over its even share (hashes are not
/// perfectly even) still fits.
const PART_MARGIN: f64 = 1.25;

/// Every level of `space` from its goals, as described in the module docs, until
/// `limits.max_depth`, the level that would not fit `limits.memory_bytes`, or a cancel; with
/// `limits.count_last` the level at `max_depth`, or the one that would not fit, is counted
/// without being stored and the run stops after it.
pub fn enumerate<P>(space: &P, limits: &Limits, progress: &dyn Progress) -> Enumeration<P::State>
where
    P: StateSpace,
{
    let bytes = std::mem::size_of::<P::State>() as u64;
    let mut goals = Vec::new();
    space.for_each_goal(|g| goals.push(g));
    let aliases = aliases_of(space, &goals);
    goals.extend(aliases);
    goals.par_sort_unstable();
    goals.dedup();
    let mut levels = vec![positions_in(space, &goals)];
    let mut classes = vec![goals.len() as u64];
    let (mut previous, mut current) = (Vec::new(), goals);
    let mut peak_bytes = current.len() as u64 * bytes;
    let same_level = space.same_level_possible();
    let mut last_counted_only = false;
    let stop = loop {
        let depth = levels.len() as u32 - 1;
        if limits.max_depth.is_some_and(|m| depth >= m) {
            break Stop::MaxDepth(depth);
        }
        if progress.cancelled() {
            break Stop::Cancelled(depth);
        }
        let known = (
            &previous[..],
            if same_level { &current[..] } else { &[][..] },
        );
        let last_wanted = limits.max_depth == Some(depth + 1);
        let made = match limits.count_last && last_wanted {
            true => Err(Stop::MaxDepth(depth + 1)),
            false => {
                progress.level_started(depth + 1, current.len() as u64);
                next_level(space, &current, known, depth + 1, limits, progress)
            }
        };
        let next = match made {
            Ok((next, peak)) => {
                peak_bytes = peak_bytes.max(peak);
                next
            }
            // The level asked for last, or the one that does not fit, counted instead.
            Err(stop @ (Stop::MaxDepth(_) | Stop::Memory { .. })) if limits.count_last => {
                let counted = count_level(space, &current, known, depth + 1, limits, progress);
                if progress.cancelled() {
                    break Stop::Cancelled(depth);
                }
                match counted {
                    Ok(count) if count.states == 0 => break Stop::Complete,
                    Ok(count) => {
                        peak_bytes = peak_bytes.max(count.peak_bytes);
                        levels.push(count.positions);
                        classes.push(count.states);
                        progress.level_finished(depth + 1, count.positions);
                        last_counted_only = true;
                        break stop;
                    }
                    Err(stop) => break stop,
                }
            }
            Err(stop) => break stop,
        };
        if progress.cancelled() {
            break Stop::Cancelled(depth);
        }
        if next.is_empty() {
            break Stop::Complete;
        }
        let count = positions_in(space, &next);
        levels.push(count);
        classes.push(next.len() as u64);
        progress.level_finished(depth + 1, count);
        previous = std::mem::replace(&mut current, next);
    };
    let last_level =
        (!last_counted_only && current.len() <= limits.antipode_cap).then_some(current);
    Enumeration {
        levels,
        classes,
        stop,
        last_level,
        peak_bytes,
        last_counted_only,
    }
}

/// The level at `depth`, after `current`: its neighbours (with their aliases) that are in
/// neither of the sorted `known` levels, sorted, without repeats; and the most bytes held
/// while it was made. A [`Stop::Memory`] when it would not fit; a short level when cancelled
/// (the caller looks).
fn next_level<P: StateSpace>(
    space: &P,
    current: &[P::State],
    (previous, same): (&[P::State], &[P::State]),
    depth: u32,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<(Vec<P::State>, u64), Stop> {
    let bytes = std::mem::size_of::<P::State>() as u64;
    let held = (previous.len() + current.len()) as u64 * bytes;
    let widest = space.max_degree().max(1) as u64;
    let share = (limits.memory_bytes / SHARE_OF_BUDGET / (bytes * widest)).max(1) as usize;
    let mut next: Vec<P::State> = Vec::new();
    let mut peak = held;
    for part in current.chunks(share) {
        if progress.cancelled() {
            break;
        }
        let degrees = degrees_of(space, part);
        let candidates = degrees.iter().sum::<usize>() as u64;
        // The level so far, the share's neighbours, and the merged level made from them.
        let needed = held + (2 * next.len() as u64 + candidates) * bytes;
        if needed > limits.memory_bytes {
            return Err(Stop::Memory {
                depth,
                needed,
                budget: limits.memory_bytes,
            });
        }
        peak = peak.max(needed);
        let mut found = Vec::new();
        expand_into(space, part, &degrees, &mut found, progress);
        let aliases = aliases_of(space, &found);
        found.extend(aliases);
        found.par_sort_unstable();
        dedup_absent(&mut found, previous, same);
        next = union(next, found);
    }
    Ok((next, peak))
}

/// A level counted without being stored: its positions and states, and the most bytes held
/// while it was counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct CountedLevel {
    positions: u64,
    states: u64,
    peak_bytes: u64,
}

/// Counts the level at `depth`, after `current`, as the module docs say: in parts of the hash
/// range, each made from all of `current` like [`next_level`] makes a level, keeping only its
/// own neighbours. A [`Stop::Memory`] when even a part would not fit; a short count when
/// cancelled (the caller looks).
fn count_level<P: StateSpace>(
    space: &P,
    current: &[P::State],
    (previous, same): (&[P::State], &[P::State]),
    depth: u32,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<CountedLevel, Stop> {
    let bytes = std::mem::size_of::<P::State>() as u64;
    let held = (previous.len() + current.len()) as u64 * bytes;
    let widest = space.max_degree().max(1) as u64;
    let share_bytes = limits.memory_bytes / SHARE_OF_BUDGET;
    let candidates = degrees_of(space, current).iter().sum::<usize>() as u64;
    // A part is held twice while a share's neighbours are merged into it.
    let room = limits.memory_bytes.saturating_sub(held + share_bytes) / 2;
    let too_small = |needed| Stop::Memory {
        depth,
        needed,
        budget: limits.memory_bytes,
    };
    if room < bytes {
        return Err(too_small(held + share_bytes + 2 * bytes));
    }
    let parts = ((candidates * bytes) as f64 * PART_MARGIN / room as f64)
        .ceil()
        .max(1.0) as u64;
    // Each share's neighbours are filtered to one part as they are made: a part's share of the
    // newest level can be that many times larger.
    let share = (share_bytes * parts / (bytes * widest)).max(1) as usize;
    progress.level_started(depth, current.len() as u64 * parts);
    let part_of = |s: &P::State| ((spread_hash(s) as u128 * parts as u128) >> u64::BITS) as u64;
    let mut counted = CountedLevel {
        positions: 0,
        states: 0,
        peak_bytes: held,
    };
    for part in 0..parts {
        let mut kept: Vec<P::State> = Vec::new();
        for newest in current.chunks(share) {
            if progress.cancelled() {
                return Ok(counted);
            }
            let found_by_task: Vec<Vec<P::State>> = newest
                .par_chunks(STATES_PER_TASK)
                .map(|chunk| {
                    let mut mine = Vec::new();
                    for &state in chunk {
                        space.for_each_neighbour(state, |_, next| {
                            if part_of(&next) == part {
                                mine.push(next);
                            }
                            space.for_each_alias(next, |alias| {
                                if part_of(&alias) == part {
                                    mine.push(alias);
                                }
                            });
                        });
                    }
                    progress.advanced(chunk.len() as u64);
                    mine
                })
                .collect();
            let mut found = concatenated(found_by_task);
            found.par_sort_unstable();
            dedup_absent(&mut found, previous, same);
            let needed = held + (2 * kept.len() + found.len()) as u64 * bytes;
            if needed > limits.memory_bytes {
                return Err(too_small(needed));
            }
            counted.peak_bytes = counted.peak_bytes.max(needed);
            kept = union(kept, found);
        }
        counted.positions += positions_in(space, &kept);
        counted.states += kept.len() as u64;
    }
    Ok(counted)
}

/// The vectors of `pieces` one after the other, copied by the threads (a collect of rayon's
/// flattening iterators appends its pieces on one thread, which held the other one idle while
/// whole 5x5x5 positions were counted).
fn concatenated<S: Copy + Default + Send + Sync>(pieces: Vec<Vec<S>>) -> Vec<S> {
    let total = pieces.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(total);
    grow_in_parallel(&mut out, total);
    slices_by_lengths(&mut out, pieces.iter().map(Vec::len))
        .into_par_iter()
        .zip(pieces.par_iter())
        .for_each(|(slice, piece)| slice.copy_from_slice(piece));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NoProgress;
    use godsearch_puzzles::tiles::{Board, Shape, TileSpace};

    fn limits(max_depth: Option<u32>, memory_bytes: u64) -> Limits {
        Limits {
            max_depth,
            memory_bytes,
            antipode_cap: 4,
            count_last: false,
        }
    }

    /// The same levels as the frontier engine, whole or to a depth, and with shares of a few
    /// states (a small budget) as with one share.
    #[test]
    fn levels_equal_the_frontier_engines_in_shares_of_any_size() {
        let space = TileSpace::<u64>::new(Board::goal(Shape::new(3, 3).unwrap())).unwrap();
        let reference = crate::frontier::enumerate(&space, &limits(None, 1 << 30), &NoProgress);
        let whole = enumerate(&space, &limits(None, 1 << 30), &NoProgress);
        assert_eq!(whole.levels, reference.levels);
        assert_eq!(whole.stop, Stop::Complete);
        assert_eq!(whole.last_level, reference.last_level);
        // 8,192 states a share (2 MiB / 8 / 8 bytes / 4 moves at most): the widest levels,
        // 24,047 states, are made in three shares.
        let shares = enumerate(&space, &limits(None, 2 << 20), &NoProgress);
        assert_eq!(shares.stop, Stop::Complete);
        assert_eq!(shares.levels, reference.levels);
        let to_20 = enumerate(&space, &limits(Some(20), 2 << 20), &NoProgress);
        assert_eq!(to_20.stop, Stop::MaxDepth(20));
        assert_eq!(to_20.levels[..], reference.levels[..21]);
    }

    /// A budget too small for a level stops before it with the levels so far, exact.
    #[test]
    fn a_level_over_the_budget_stops_the_run_with_the_levels_before_it() {
        let space = TileSpace::<u64>::new(Board::goal(Shape::new(3, 3).unwrap())).unwrap();
        let reference = crate::frontier::enumerate(&space, &limits(None, 1 << 30), &NoProgress);
        let tight = enumerate(&space, &limits(None, 4 << 10), &NoProgress);
        let Stop::Memory {
            depth,
            needed,
            budget,
        } = tight.stop
        else {
            panic!("{:?}", tight.stop);
        };
        assert!(needed > budget && depth as usize == tight.levels.len());
        assert_eq!(tight.levels[..], reference.levels[..tight.levels.len()]);
    }

    fn counting(max_depth: Option<u32>, memory_bytes: u64) -> Limits {
        Limits {
            count_last: true,
            ..limits(max_depth, memory_bytes)
        }
    }

    #[test]
    fn concatenation_keeps_the_order_of_the_pieces() {
        let pieces = vec![vec![3, 1], vec![], vec![4, 1, 5], vec![9]];
        assert_eq!(concatenated(pieces), vec![3, 1, 4, 1, 5, 9]);
        assert!(concatenated::<u8>(Vec::new()).is_empty());
    }

    /// What a run said of each level it started: its depth and the units of work announced.
    #[derive(Default)]
    struct Started(std::sync::Mutex<Vec<(u32, u64)>>);

    impl Progress for Started {
        fn level_started(&self, depth: u32, units: u64) {
            self.0.lock().unwrap().push((depth, units));
        }
    }

    /// Every level counted without being stored equals the stored one (in one part with a
    /// large budget); past the diameter nothing is left to count.
    #[test]
    fn a_counted_last_level_equals_the_stored_one() {
        let space = TileSpace::<u64>::new(Board::goal(Shape::new(3, 3).unwrap())).unwrap();
        let reference = crate::frontier::enumerate(&space, &limits(None, 1 << 30), &NoProgress);
        for depth in 1..=reference.levels.len() as u32 - 1 {
            let whole = enumerate(&space, &counting(Some(depth), 1 << 30), &NoProgress);
            assert_eq!(whole.stop, Stop::MaxDepth(depth));
            assert!(whole.last_counted_only && whole.last_level.is_none());
            assert_eq!(whole.levels[..], reference.levels[..=depth as usize]);
        }
        let beyond = enumerate(&space, &counting(Some(40), 1 << 30), &NoProgress);
        assert_eq!(beyond.stop, Stop::Complete);
        assert_eq!(beyond.levels, reference.levels);
    }

    /// The level that does not fit is counted, in several parts of its hash range, and the run
    /// stops there, exact.
    #[test]
    fn the_level_that_does_not_fit_is_counted_in_parts() {
        let space = TileSpace::<u64>::new(Board::goal(Shape::new(3, 3).unwrap())).unwrap();
        let reference = crate::frontier::enumerate(&space, &limits(None, 1 << 30), &NoProgress);
        // 512 KiB: level 22 (23,952 states) and its neighbours do not fit beside levels 20 and
        // 21; counted, it is made in several parts (six, as parts are sized now).
        let budget = 512 << 10;
        let stored = enumerate(&space, &limits(None, budget), &NoProgress);
        let Stop::Memory { depth, .. } = stored.stop else {
            panic!("{:?}", stored.stop);
        };
        let started = Started::default();
        let counted = enumerate(&space, &counting(None, budget), &started);
        assert!(matches!(counted.stop, Stop::Memory { depth: d, .. } if d == depth));
        assert!(counted.last_counted_only && counted.last_level.is_none());
        assert_eq!(counted.levels.len(), stored.levels.len() + 1);
        assert_eq!(counted.levels[..], reference.levels[..counted.levels.len()]);
        // The counted level announced its newest level's states once a part.
        let announced = started.0.lock().unwrap();
        let (last_depth, units) = *announced.last().unwrap();
        let newest = reference.classes[depth as usize - 1];
        assert_eq!(last_depth, depth);
        assert!(
            units % newest == 0 && units / newest > 1,
            "{units} for {newest}"
        );
    }
}
