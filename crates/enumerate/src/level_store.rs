//! Where the frontier engine keeps its levels.
//!
//! A level made from level `d` can only repeat states of levels `d - 1` and `d` (and only of
//! `d - 1` when no move keeps the distance), so a store holds those two and answers one
//! question: which candidates are new. [`SortedLevels`] keeps them as sorted arrays in memory,
//! and half-depth search keeps every level behind the same trait. Levels on disk are not a
//! store: the engine expands [`newest`](LevelStore::newest) as one slice, and a level on disk is
//! read a bucket at a time ([`crate::disk`], which shares the frontier's expansion).

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
}
