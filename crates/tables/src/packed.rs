//! Two bits an entry: the distance mod 3 of each position, or [`UNREACHED`].
//!
//! Distance mod 3 is enough to walk to the goal (Kociemba's pruning tables, twsearch's 2-bit
//! BFS): the neighbours of a position at distance `d` are at `d - 1`, `d` or `d + 1`, and these
//! three have different residues. At 2 bits a position the 3x4 board's 239,500,800 positions take
//! 60 MB, where a byte each would take 240 MB.
//!
//! Layout (also the file payload): entry `i` is bits `2*(i%4)..2*(i%4)+2` of byte `i/4`; whole
//! 64-bit words are little-endian, so the same bytes are read on any machine.

use crate::ResidentWords;
use std::sync::atomic::Ordering;

/// The entry value of a position not (yet) reached.
pub const UNREACHED: u8 = 3;

const ENTRIES_PER_WORD: usize = 32;
const ENTRY_MASK: u64 = 0b11;

/// Read access to a table of distances mod 3.
pub trait DistanceMod3 {
    /// Number of entries.
    fn len(&self) -> usize;
    /// `true` when the table has no entries.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Distance mod 3 of entry `i` (`0..=2`), or [`UNREACHED`].
    fn get(&self, i: usize) -> u8;
}

/// A growable-in-place 2-bit table that many threads may fill at once.
///
/// Every entry starts as [`UNREACHED`]; [`try_set`](Self::try_set) changes an entry only from
/// `UNREACHED`, atomically, so two threads reaching the same position count it once.
#[derive(Debug)]
pub struct TwoBitTable {
    words: ResidentWords,
    len: usize,
}

impl TwoBitTable {
    /// A table of `len` entries, all [`UNREACHED`], in memory advised for huge pages (a BFS
    /// marks its entries at random). Panics when the memory cannot be had, as a vector would.
    pub fn new(len: usize) -> Self {
        let words = ResidentWords::new(len.div_ceil(ENTRIES_PER_WORD), u64::MAX)
            .expect("memory for the 2-bit table");
        Self { words, len }
    }

    /// Bytes of memory the entries occupy.
    pub fn bytes(&self) -> usize {
        self.words.len() * std::mem::size_of::<u64>()
    }

    /// Sets entry `i` to `value` (`0..=2`) if it is still unreached; returns whether it was.
    #[inline]
    pub fn try_set(&self, i: usize, value: u8) -> bool {
        let shift = 2 * (i % ENTRIES_PER_WORD);
        let word = &self.words[i / ENTRIES_PER_WORD];
        if (word.load(Ordering::Relaxed) >> shift) & ENTRY_MASK != UNREACHED as u64 {
            return false;
        }
        // Unreached is 0b11: clearing the bits that `value` lacks writes it.
        let keep = !(ENTRY_MASK << shift) | ((value as u64) << shift);
        let old = word.fetch_and(keep, Ordering::Relaxed);
        (old >> shift) & ENTRY_MASK == UNREACHED as u64
    }

    /// [`try_set`](Self::try_set) through exclusive access: a plain load and store.
    #[inline]
    pub fn try_set_alone(&mut self, i: usize, value: u8) -> bool {
        let shift = 2 * (i % ENTRIES_PER_WORD);
        let word = self.words[i / ENTRIES_PER_WORD].get_mut();
        if (*word >> shift) & ENTRY_MASK != UNREACHED as u64 {
            return false;
        }
        *word &= !(ENTRY_MASK << shift) | ((value as u64) << shift);
        true
    }

    /// The 32 entries of word `w`, two bits each, entry `32*w + k` at bits `2k..2k+2`.
    #[inline]
    pub fn word(&self, w: usize) -> u64 {
        self.words[w].load(Ordering::Relaxed)
    }

    /// Number of 64-bit words.
    pub fn word_count(&self) -> usize {
        self.words.len()
    }

    /// The 64 entries from entry `i` on, two bits each, entry `i + k` at bits `2k..2k+2`;
    /// entries past the end read as [`UNREACHED`].
    #[inline]
    pub fn fields_from(&self, i: usize) -> u128 {
        let first = i / ENTRIES_PER_WORD;
        let word = |w: usize| {
            self.words
                .get(w)
                .map_or(u64::MAX, |x| x.load(Ordering::Relaxed))
        };
        let low = u128::from(word(first)) | u128::from(word(first + 1)) << 64;
        let shift = 2 * (i % ENTRIES_PER_WORD);
        match shift {
            0 => low,
            _ => low >> shift | u128::from(word(first + 2)) << (128 - shift),
        }
    }

    /// Writes the entries in the file layout (little-endian words), in blocks.
    pub fn write_to(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        const WORDS_PER_BLOCK: usize = 1 << 14;
        let mut buf = Vec::with_capacity(WORDS_PER_BLOCK * 8);
        for block in self.words.chunks(WORDS_PER_BLOCK) {
            buf.clear();
            for w in block {
                buf.extend_from_slice(&w.load(Ordering::Relaxed).to_le_bytes());
            }
            out.write_all(&buf)?;
        }
        Ok(())
    }

    /// Number of bytes [`write_to`](Self::write_to) writes.
    pub fn payload_len(&self) -> u64 {
        self.bytes() as u64
    }
}

impl DistanceMod3 for TwoBitTable {
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn get(&self, i: usize) -> u8 {
        ((self.word(i / ENTRIES_PER_WORD) >> (2 * (i % ENTRIES_PER_WORD))) & ENTRY_MASK) as u8
    }
}

/// A read-only 2-bit table over bytes in the file layout (for example a memory-mapped file).
#[derive(Debug, Clone, Copy)]
pub struct TwoBitView<'a> {
    bytes: &'a [u8],
    len: usize,
}

impl<'a> TwoBitView<'a> {
    /// A view of `len` entries; `None` when `bytes` is too short to hold them.
    pub fn new(bytes: &'a [u8], len: usize) -> Option<Self> {
        (bytes.len() >= len.div_ceil(4)).then_some(Self { bytes, len })
    }
}

impl DistanceMod3 for TwoBitView<'_> {
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn get(&self, i: usize) -> u8 {
        (self.bytes[i / 4] >> (2 * (i % 4))) & ENTRY_MASK as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_once_and_read_back_through_both_layouts() {
        let t = TwoBitTable::new(100);
        assert_eq!(t.get(99), UNREACHED);
        assert!(t.try_set(5, 2));
        assert!(!t.try_set(5, 0), "an entry is set only once");
        assert!(t.try_set(33, 0));
        assert!(t.try_set(99, 1));
        let mut bytes = Vec::new();
        t.write_to(&mut bytes).unwrap();
        assert_eq!(bytes.len() as u64, t.payload_len());
        let v = TwoBitView::new(&bytes, 100).unwrap();
        for i in 0..100 {
            assert_eq!(v.get(i), t.get(i), "entry {i}");
        }
        assert_eq!(
            (v.get(5), v.get(33), v.get(99), v.get(0)),
            (2, 0, 1, UNREACHED)
        );
        assert!(TwoBitView::new(&bytes[..10], 100).is_none());
    }
}
