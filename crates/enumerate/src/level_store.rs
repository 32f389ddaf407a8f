//! Where the frontier engine keeps its levels.
//!
//! A level made from level `d` can only repeat states of levels `d - 1` and `d` (and only of
//! `d - 1` when no move keeps the distance), so a store holds those two and answers one
//! question: which candidates are new. [`SortedLevels`] keeps them as sorted arrays in memory,
//! and half-depth search keeps every level behind the same trait. Levels on disk are not a
//! store: the engine expands [`newest`](LevelStore::newest) as one slice, and a level on disk is
//! read a bucket at a time ([`crate::disk`], which shares the frontier's expansion).

use crate::shares::{grow_in_parallel, join_kept, slices_by_lengths};
use rayon::prelude::*;

/// The levels the frontier engine needs to find which candidates are new.
pub trait LevelStore<S> {
    /// Replaces whatever is stored by level 0 (sorted, without repeats).
    fn start(&mut self, level: Vec<S>);

    /// The newest level, sorted, to expand.
    fn newest(&self) -> &[S];

    /// The level before the newest, sorted (empty at the start).
    fn previous(&self) -> &[S];

    /// States held now, over every level kept.
    fn held(&self) -> u64;

    /// Keeps only the states of `candidates` (sorted, without repeats) that are in no stored
    /// level they could repeat: the level before the newest, and with `same_level` the newest
    /// too.
    fn remove_known(&self, candidates: &mut Vec<S>, same_level: bool);

    /// Stores `level` (sorted, new states only) as the newest, dropping a level no longer needed.
    fn push(&mut self, level: Vec<S>);

    /// Drops the level before the newest, which nothing will ask for: a space whose states
    /// carry their moves back ([`crate::back_moves`]) lists no state of it. The default keeps
    /// it (a store that keeps every level).
    fn forget_previous(&mut self) {}

    /// The newest level, taken out.
    fn into_newest(self) -> Vec<S>;
}

/// The two last levels as sorted arrays in memory: 8 bytes a 15-puzzle position, sequential
/// memory traffic, and deduplication by a linear merge.
#[derive(Debug, Clone)]
pub struct SortedLevels<S> {
    previous: Vec<S>,
    current: Vec<S>,
}

impl<S> Default for SortedLevels<S> {
    fn default() -> Self {
        SortedLevels {
            previous: Vec::new(),
            current: Vec::new(),
        }
    }
}

impl<S: Ord + Copy> LevelStore<S> for SortedLevels<S> {
    fn start(&mut self, level: Vec<S>) {
        self.previous.clear();
        self.current = level;
    }

    fn newest(&self) -> &[S] {
        &self.current
    }

    fn previous(&self) -> &[S] {
        &self.previous
    }

    fn held(&self) -> u64 {
        (self.previous.len() + self.current.len()) as u64
    }

    fn remove_known(&self, candidates: &mut Vec<S>, same_level: bool) {
        let same: &[S] = if same_level { &self.current } else { &[] };
        retain_absent(candidates, &self.previous, same);
    }

    fn push(&mut self, level: Vec<S>) {
        self.previous = std::mem::replace(&mut self.current, level);
    }

    fn into_newest(self) -> Vec<S> {
        self.current
    }

    fn forget_previous(&mut self) {
        self.previous = Vec::new();
    }
}

/// Keeps the items of sorted `candidates` that are in neither sorted `a` nor sorted `b`, by one
/// linear merge (the step every engine uses to drop states of levels already known).
pub(crate) fn retain_absent<S: Ord>(candidates: &mut Vec<S>, a: &[S], b: &[S]) {
    let (mut i, mut j) = (0, 0);
    candidates.retain(|x| !(advance_to(a, &mut i, x) || advance_to(b, &mut j, x)));
}

/// Appends to `out` the items of sorted `candidates` that are not in sorted `known`: what
/// [`retain_absent`] would leave of them, without a copy of them all first.
pub(crate) fn push_absent<S: Ord + Copy>(out: &mut Vec<S>, candidates: &[S], known: &[S]) {
    let mut at = 0;
    out.extend(candidates.iter().filter(|x| !advance_to(known, &mut at, x)));
}

/// Pieces each thread gets when [`dedup_absent`] or [`union`] split their work: several, so
/// that pieces of uneven cost even out.
const PIECES_PER_THREAD: usize = 4;

/// Items below which [`dedup_absent`] and [`union`] work in one piece: splitting costs more
/// than it saves.
const ONE_PIECE_BELOW: usize = 1 << 14;

/// Pieces to split `items` into among the threads.
fn pieces_for(items: usize) -> usize {
    match items < ONE_PIECE_BELOW {
        true => 1,
        false => rayon::current_num_threads() * PIECES_PER_THREAD,
    }
}

/// Keeps the items of sorted `candidates` once each, and only those in neither sorted `a` nor
/// sorted `b`: exactly `dedup` then [`retain_absent`], split among the threads. For states that
/// cost to compare (whole positions of a hundred bytes and more), those serial passes after a
/// parallel sort took as long as the sort.
pub(crate) fn dedup_absent<S: Ord + Copy + Send + Sync>(candidates: &mut Vec<S>, a: &[S], b: &[S]) {
    let pieces = pieces_for(candidates.len());
    if pieces == 1 {
        candidates.dedup();
        retain_absent(candidates, a, b);
        return;
    }
    // Where the pieces start: at even steps, moved past a run of equal items so that a run is
    // never split (its first item is kept, in the piece that holds the run).
    let len = candidates.len();
    let mut starts = Vec::with_capacity(pieces + 1);
    for piece in 0..pieces {
        let mut at = (len * piece / pieces).max(starts.last().copied().unwrap_or(0));
        while at > 0 && at < len && candidates[at] == candidates[at - 1] {
            at += 1;
        }
        starts.push(at);
    }
    starts.push(len);
    // Each piece compacted in place, against the parts of `a` and `b` its items can meet.
    let kept: Vec<usize> = slices_by_lengths(candidates, starts.windows(2).map(|w| w[1] - w[0]))
        .into_par_iter()
        .map(|piece| {
            let (Some(&first), Some(&last)) = (piece.first(), piece.last()) else {
                return 0;
            };
            let (a, b) = (spanning(a, &first, &last), spanning(b, &first, &last));
            let (mut i, mut j, mut kept) = (0, 0, 0);
            let mut before = None;
            for at in 0..piece.len() {
                let x = piece[at];
                if before.replace(x) == Some(x)
                    || advance_to(a, &mut i, &x)
                    || advance_to(b, &mut j, &x)
                {
                    continue;
                }
                piece[kept] = x;
                kept += 1;
            }
            kept
        })
        .collect();
    join_kept(candidates, starts.into_iter().zip(kept));
}

/// The sorted union of sorted `a` and sorted `b` (each without repeats), without repeats; the
/// pieces merged by the threads.
pub(crate) fn union<S: Ord + Copy + Default + Send + Sync>(a: Vec<S>, b: Vec<S>) -> Vec<S> {
    if a.is_empty() {
        return b;
    }
    if b.is_empty() {
        return a;
    }
    let pieces = pieces_for(a.len() + b.len());
    // A piece: `a` cut at even steps, `b` at the first item not below `a`'s at the cut (the
    // first piece from the start of both), so that equal items fall in the same piece.
    let cut = |piece: usize| {
        let in_a = a.len() * piece / pieces;
        let in_b = match a.get(in_a) {
            _ if piece == 0 => 0,
            Some(x) => b.partition_point(|y| y < x),
            None => b.len(),
        };
        (in_a, in_b)
    };
    let cuts: Vec<(usize, usize)> = (0..=pieces).map(cut).collect();
    // Where each piece's merge starts in the output: before it, all it cut from `a` and `b`.
    let starts: Vec<usize> = cuts.iter().map(|&(in_a, in_b)| in_a + in_b).collect();
    let mut out = Vec::with_capacity(a.len() + b.len());
    grow_in_parallel(&mut out, a.len() + b.len());
    let made: Vec<usize> = slices_by_lengths(&mut out, starts.windows(2).map(|w| w[1] - w[0]))
        .into_par_iter()
        .zip(cuts.par_windows(2))
        .map(|(into, bounds)| {
            let a = &a[bounds[0].0..bounds[1].0];
            let b = &b[bounds[0].1..bounds[1].1];
            merge_into(a, b, into)
        })
        .collect();
    join_kept(&mut out, starts.into_iter().zip(made));
    out
}

/// Writes the sorted union of sorted `a` and `b` (each without repeats) at the start of
/// `into` (as long as both), and says how many items it wrote.
fn merge_into<S: Ord + Copy>(a: &[S], b: &[S], into: &mut [S]) -> usize {
    let (mut i, mut j, mut k) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        into[k] = x.min(y);
        i += usize::from(x <= y);
        j += usize::from(y <= x);
        k += 1;
    }
    let rest = if i < a.len() { &a[i..] } else { &b[j..] };
    into[k..k + rest.len()].copy_from_slice(rest);
    k + rest.len()
}

/// The part of sorted `s` whose items lie from `first` to `last`.
fn spanning<'a, S: Ord>(s: &'a [S], first: &S, last: &S) -> &'a [S] {
    let from = s.partition_point(|x| x < first);
    let to = s.partition_point(|x| x <= last);
    &s[from..to.max(from)]
}

/// Moves `*at` forward in sorted `s` to the first item not below `x`; `true` if it equals `x`.
#[inline]
fn advance_to<S: Ord>(s: &[S], at: &mut usize, x: &S) -> bool {
    while *at < s.len() && s[*at] < *x {
        *at += 1;
    }
    *at < s.len() && s[*at] == *x
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn remove_known_is_a_sorted_difference() {
        let mut store = SortedLevels::default();
        store.start(vec![0, 3, 9]);
        store.push(vec![4, 5]);
        let mut next = vec![1, 3, 4, 6, 8, 9];
        store.remove_known(&mut next, true);
        assert_eq!(next, vec![1, 6, 8]);
        let mut next = vec![1, 3, 4, 6, 8, 9];
        store.remove_known(&mut next, false);
        assert_eq!(next, vec![1, 4, 6, 8]);
        assert_eq!(store.held(), 5);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Split among threads or not, the pieces give what the serial passes give, whatever
        /// the runs of repeats (long ones where `spread` is large) and the overlaps.
        #[test]
        fn the_set_operations_in_pieces_equal_the_serial_ones(
            candidates in proptest::collection::vec(0u32..200_000, 0..60_000),
            a in proptest::collection::vec(0u32..200_000, 0..20_000),
            b in proptest::collection::vec(0u32..200_000, 0..20_000),
            spread in prop_oneof![Just(1u32), 1u32..100],
        ) {
            let set = |v: Vec<u32>| {
                let mut v: Vec<u32> = v.into_iter().map(|x| x / spread).collect();
                v.sort_unstable();
                v.dedup();
                v
            };
            let mut candidates: Vec<u32> = candidates.into_iter().map(|x| x / spread).collect();
            candidates.sort_unstable();
            let (a, b) = (set(a), set(b));
            let mut serial = candidates.clone();
            serial.dedup();
            retain_absent(&mut serial, &a, &b);
            let mut pieces = candidates;
            dedup_absent(&mut pieces, &a, &b);
            prop_assert_eq!(&pieces, &serial);
            let mut both = [&a[..], &b[..]].concat();
            both.sort_unstable();
            both.dedup();
            prop_assert_eq!(union(a.clone(), b.clone()), both);
            prop_assert_eq!(union(a.clone(), Vec::new()), a.clone());
            prop_assert_eq!(union(Vec::new(), a.clone()), a);
        }
    }
}
