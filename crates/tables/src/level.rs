//! Tables a breadth-first search fills level by level, many threads at once: the entry
//! encodings the one table engine (`godsearch_enumerate::table`) works over.
//!
//! - [`TwoBitTable`]: distance mod 3 in 2 bits (any depth; a walk to the goal needs no more);
//! - [`ByteTable`]: the distance itself in a byte (depths up to 254), for tables read as exact
//!   distances (the subgoal stages' scores, pruning tables).
//!
//! Both pack their entries into 64-bit words so that entries equal to a value are found a word
//! at a time, and both set an entry only once, atomically.

use crate::packed::{DistanceMod3, TwoBitTable, UNREACHED as TWO_BIT_UNREACHED};
use std::sync::atomic::{AtomicU8, Ordering};

/// A rank-indexed table that a level-by-level search fills.
pub trait LevelTable: DistanceMod3 + Sync + Sized {
    /// Bits of one entry; entry `k` of a word is bits `k * BITS..(k + 1) * BITS`.
    const BITS: usize;
    /// `true` when an entry holds the distance mod 3 (levels `d`, `d - 3`, ... look alike);
    /// `false` when it holds the distance itself.
    const MOD3: bool;
    /// The deepest level an entry can hold.
    const MAX_LEVEL: u32;
    /// The raw value of an unreached entry.
    const UNREACHED: u8;

    /// A table of `len` entries, all unreached.
    fn with_len(len: usize) -> Self;

    /// Bytes the entries occupy.
    fn bytes(&self) -> usize;

    /// Number of 64-bit words.
    fn word_count(&self) -> usize;

    /// The raw value stored for a position at distance `level` (`level <= MAX_LEVEL`).
    fn value_of(level: u32) -> u8;

    /// The raw value of entry `i`.
    fn raw(&self, i: usize) -> u8;

    /// Sets entry `i` to raw `value` if it is still unreached; returns whether it was.
    fn try_set(&self, i: usize, value: u8) -> bool;

    /// [`try_set`](Self::try_set) for a caller that holds the table alone: plain loads and
    /// stores, no locked instruction (a deep, narrow search marks most entries this way).
    fn try_set_alone(&mut self, i: usize, value: u8) -> bool;

    /// A mask of the entries of word `w` whose raw value is `value`: for matching entry `k`
    /// one bit among bits `k * BITS..(k + 1) * BITS` is set, and no other.
    fn matching(&self, w: usize, value: u8) -> u64;
}

const LOW_BITS: u64 = 0x5555_5555_5555_5555;

impl LevelTable for TwoBitTable {
    const BITS: usize = 2;
    const MOD3: bool = true;
    const MAX_LEVEL: u32 = u32::MAX;
    const UNREACHED: u8 = TWO_BIT_UNREACHED;

    fn with_len(len: usize) -> Self {
        TwoBitTable::new(len)
    }

    fn bytes(&self) -> usize {
        TwoBitTable::bytes(self)
    }

    fn word_count(&self) -> usize {
        TwoBitTable::word_count(self)
    }

    #[inline]
    fn value_of(level: u32) -> u8 {
        (level % 3) as u8
    }

    #[inline]
    fn raw(&self, i: usize) -> u8 {
        DistanceMod3::get(self, i)
    }

    #[inline]
    fn try_set(&self, i: usize, value: u8) -> bool {
        TwoBitTable::try_set(self, i, value)
    }

    #[inline]
    fn try_set_alone(&mut self, i: usize, value: u8) -> bool {
        TwoBitTable::try_set_alone(self, i, value)
    }

    #[inline]
    fn matching(&self, w: usize, value: u8) -> u64 {
        let diff = self.word(w) ^ (LOW_BITS * value as u64);
        !(diff | (diff >> 1)) & LOW_BITS
    }
}

const ENTRIES_PER_BYTE_WORD: usize = 8;
const BYTE_LOW: u64 = 0x0101_0101_0101_0101;
const BYTE_SEVEN_BITS: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// One byte an entry: the exact distance (0..=254), or [`ByteTable::UNREACHED`] (255).
///
/// Entry `i` is byte `i`. The bytes are kept as they will be stored, so a finished table
/// becomes its plain bytes ([`into_bytes`](Self::into_bytes)) without a copy: the two-phase
/// tables' 170 million entries would otherwise be held twice at the end of the build.
#[derive(Debug)]
pub struct ByteTable {
    bytes: Vec<AtomicU8>,
}

impl ByteTable {
    /// The raw value of an unreached entry.
    pub const UNREACHED: u8 = u8::MAX;

    /// The exact distance of entry `i`, or `None` when unreached.
    #[inline]
    pub fn distance(&self, i: usize) -> Option<u8> {
        let v = self.raw(i);
        (v != Self::UNREACHED).then_some(v)
    }

    /// The entries as plain bytes (entry `i` is byte `i`), reusing the table's memory.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes.into_iter().map(AtomicU8::into_inner).collect()
    }

    /// A table holding `bytes` (entry `i` is byte `i`).
    pub fn from_bytes(bytes: &[u8]) -> Self {
        ByteTable {
            bytes: bytes.iter().map(|&b| AtomicU8::new(b)).collect(),
        }
    }
}

/// A read-only table of exact distances over bytes in [`ByteTable`]'s layout (a finished
/// table kept as plain bytes, or a memory-mapped file): reads are plain loads.
#[derive(Debug, Clone, Copy)]
pub struct ByteView<'a> {
    bytes: &'a [u8],
}

impl<'a> ByteView<'a> {
    /// A view of one entry a byte.
    pub fn new(bytes: &'a [u8]) -> Self {
        ByteView { bytes }
    }

    /// The exact distance of entry `i`, or `None` when unreached.
    #[inline]
    pub fn distance(&self, i: usize) -> Option<u8> {
        let v = self.bytes[i];
        (v != ByteTable::UNREACHED).then_some(v)
    }
}

impl DistanceMod3 for ByteView<'_> {
    fn len(&self) -> usize {
        self.bytes.len()
    }

    #[inline]
    fn get(&self, i: usize) -> u8 {
        match self.bytes[i] {
            ByteTable::UNREACHED => TWO_BIT_UNREACHED,
            d => d % 3,
        }
    }
}

impl DistanceMod3 for ByteTable {
    fn len(&self) -> usize {
        self.bytes.len()
    }

    #[inline]
    fn get(&self, i: usize) -> u8 {
        match self.raw(i) {
            Self::UNREACHED => TWO_BIT_UNREACHED,
            d => d % 3,
        }
    }
}

impl LevelTable for ByteTable {
    const BITS: usize = 8;
    const MOD3: bool = false;
    const MAX_LEVEL: u32 = Self::UNREACHED as u32 - 1;
    const UNREACHED: u8 = Self::UNREACHED;

    fn with_len(len: usize) -> Self {
        ByteTable {
            bytes: (0..len).map(|_| AtomicU8::new(Self::UNREACHED)).collect(),
        }
    }

    fn bytes(&self) -> usize {
        self.bytes.len()
    }

    fn word_count(&self) -> usize {
        self.bytes.len().div_ceil(ENTRIES_PER_BYTE_WORD)
    }

    #[inline]
    fn value_of(level: u32) -> u8 {
        level as u8
    }

    #[inline]
    fn raw(&self, i: usize) -> u8 {
        self.bytes[i].load(Ordering::Relaxed)
    }

    #[inline]
    fn try_set_alone(&mut self, i: usize, value: u8) -> bool {
        let entry = self.bytes[i].get_mut();
        let unreached = *entry == Self::UNREACHED;
        if unreached {
            *entry = value;
        }
        unreached
    }

    #[inline]
    fn try_set(&self, i: usize, value: u8) -> bool {
        let entry = &self.bytes[i];
        entry.load(Ordering::Relaxed) == Self::UNREACHED
            && entry
                .compare_exchange(Self::UNREACHED, value, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }

    /// The high bit of every byte equal to `value` (exact: no borrow crosses bytes). Entries
    /// past the end read as unreached.
    #[inline]
    fn matching(&self, w: usize, value: u8) -> u64 {
        let start = w * ENTRIES_PER_BYTE_WORD;
        let mut word = [Self::UNREACHED; ENTRIES_PER_BYTE_WORD];
        for (k, b) in self.bytes[start..(start + ENTRIES_PER_BYTE_WORD).min(self.bytes.len())]
            .iter()
            .enumerate()
        {
            word[k] = b.load(Ordering::Relaxed);
        }
        let x = u64::from_le_bytes(word) ^ (BYTE_LOW * value as u64);
        !(((x & BYTE_SEVEN_BITS) + BYTE_SEVEN_BITS) | x | BYTE_SEVEN_BITS)
    }
}

/// Entries a word of `T` holds.
pub const fn entries_per_word<T: LevelTable>() -> usize {
    64 / T::BITS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_matching<T: LevelTable>() {
        let t = T::with_len(100);
        let per_word = entries_per_word::<T>();
        for i in (0..100).step_by(7) {
            assert!(t.try_set(i, T::value_of((i % 5) as u32)));
        }
        for value in 0..5u32 {
            let v = T::value_of(value);
            let mut found = Vec::new();
            for w in 0..t.word_count() {
                let mut hits = t.matching(w, v);
                while hits != 0 {
                    let i = w * per_word + hits.trailing_zeros() as usize / T::BITS;
                    hits &= hits - 1;
                    if i < 100 {
                        found.push(i);
                    }
                }
            }
            let expected: Vec<usize> = (0..100).filter(|&i| t.raw(i) == v).collect();
            assert_eq!(found, expected, "value {value}");
        }
        assert!(!t.try_set(0, T::value_of(1)), "set once");
        let mut alone = T::with_len(10);
        assert!(alone.try_set_alone(9, T::value_of(2)));
        assert!(
            !alone.try_set_alone(9, T::value_of(1)),
            "set once, alone too"
        );
        assert!(!alone.try_set(9, T::value_of(1)));
        assert_eq!(alone.raw(9), T::value_of(2));
    }

    #[test]
    fn matching_finds_exactly_the_equal_entries() {
        check_matching::<TwoBitTable>();
        check_matching::<ByteTable>();
    }

    #[test]
    fn byte_tables_read_mod_3_and_exact_and_round_trip() {
        let t = ByteTable::with_len(20);
        assert!(t.try_set(3, 7));
        assert_eq!(DistanceMod3::get(&t, 3), 1);
        assert_eq!(t.distance(3), Some(7));
        assert_eq!(t.distance(4), None);
        assert_eq!(DistanceMod3::get(&t, 4), TWO_BIT_UNREACHED);
        let back = ByteTable::from_bytes(&ByteTable::from_bytes(&[1, 2, 255]).into_bytes());
        assert_eq!(back.len(), 3);
        assert_eq!(back.distance(2), None);
        let mods: Vec<u8> = (0..20).map(|i| t.get(i)).collect();
        let exact: Vec<Option<u8>> = (0..20).map(|i| t.distance(i)).collect();
        let bytes = t.into_bytes();
        let view = ByteView::new(&bytes);
        assert!((0..20).all(|i| view.get(i) == mods[i] && view.distance(i) == exact[i]));
    }
}
