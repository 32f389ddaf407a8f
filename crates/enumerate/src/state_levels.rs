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
//! Exact: every level reported is the number of distinct positions at that distance. Such
//! spaces are never exhausted within memory, so a run ends at its depth, its memory budget
//! ([`Stop::Memory`], the levels before exact) or a cancel.

use crate::frontier::{aliases_of, degrees_of, expand_into, positions_in};
use crate::level_store::retain_absent;
use crate::{Enumeration, Limits, Progress, Stop};
use godsearch_core::StateSpace;
use rayon::prelude::*;

/// The share of the newest level expanded at once is sized so that its neighbours take at
/// most this fraction of the memory budget: the rest holds the levels.
const SHARE_OF_BUDGET: u64 = 8;

/// Every level of `space` from its goals, as described in the module docs, until
/// `limits.max_depth`, the level that would not fit `limits.memory_bytes`, or a cancel.
/// `limits.count_last` is not taken here: counting a level without storing it needs integer
/// keys ([`crate::count_last`]); callers refuse it.
pub fn enumerate<P>(space: &P, limits: &Limits, progress: &dyn Progress) -> Enumeration<P::State>
where
    P: StateSpace,
    P::State: Ord,
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
    let stop = loop {
        let depth = levels.len() as u32 - 1;
        if limits.max_depth.is_some_and(|m| depth >= m) {
            break Stop::MaxDepth(depth);
        }
        if progress.cancelled() {
            break Stop::Cancelled(depth);
        }
        progress.level_started(depth + 1, current.len() as u64);
        let known = (
            &previous[..],
            if same_level { &current[..] } else { &[][..] },
        );
        let next = match next_level(space, &current, known, depth + 1, limits, progress) {
            Ok((next, peak)) => {
                peak_bytes = peak_bytes.max(peak);
                next
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
    let last_level = (current.len() <= limits.antipode_cap).then_some(current);
    Enumeration {
        levels,
        classes,
        stop,
        last_level,
        peak_bytes,
        last_counted_only: false,
    }
}

/// The level at `depth`, after `current`: its neighbours (with their aliases) that are in
/// neither of the sorted `known` levels, sorted, without repeats; and the most bytes held
/// while it was made. A [`Stop::Memory`] when it would not fit; a short level when cancelled
/// (the caller looks).
fn next_level<P>(
    space: &P,
    current: &[P::State],
    (previous, same): (&[P::State], &[P::State]),
    depth: u32,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<(Vec<P::State>, u64), Stop>
where
    P: StateSpace,
    P::State: Ord,
{
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
        found.dedup();
        retain_absent(&mut found, previous, same);
        next = merge(next, found);
    }
    Ok((next, peak))
}

/// The sorted union of two sorted arrays without repeats (each without repeats).
fn merge<S: Ord + Copy>(a: Vec<S>, b: Vec<S>) -> Vec<S> {
    if a.is_empty() {
        return b;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
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

    #[test]
    fn merging_keeps_order_and_drops_repeats() {
        assert_eq!(merge(vec![1, 3, 5], vec![2, 3, 6]), vec![1, 2, 3, 5, 6]);
        assert_eq!(merge(vec![], vec![4]), vec![4]);
        assert_eq!(merge(vec![4], vec![]), vec![4]);
    }
}
