//! Two bits an entry above a base, with a minimum a block: a table of lower bounds whose
//! entries are read alone (the form of Rokicki's nxopt tables).
//!
//! A 2-bit table of distances mod 3 ([`crate::packed`]) gives an entry's distance only from a
//! neighbour's, so a search can read it only along its own path. This form gives every entry a
//! lower bound by itself, so a search may also read positions that are no neighbour of the
//! last one read (the inverse of the position, for the cube). Most of a large table's entries
//! lie in three levels; those are kept exactly:
//!
//! - entries are grouped [`ENTRIES_PER_BLOCK`] to a block of [`BLOCK_BYTES`] bytes, read as a
//!   little-endian 128-bit word;
//! - bits `0..4` of a block hold the least distance among its entries coded 0;
//! - entry `k` of a block is bits `4 + 2k..6 + 2k`, a code against the table's base `b`:
//!   0 for a distance of at most `b` (read as the block's minimum), 1 and 2 for exactly `b + 1`
//!   and `b + 2`, 3 for `b + 3` or more (read as `b + 3`).
//!
//! The base is chosen from the level counts ([`base_for`]): the deepest level with at most
//! [`BELOW_BASE_PERCENT`] percent of the entries at or below it. It is a function of the levels
//! alone, so a saved table needs only its levels to be read back.

use crate::packed::TwoBitTable;
use crate::ResidentBytes;
use rayon::prelude::*;
use std::io;

/// Entries a block holds: 124 bits of codes beside the 4-bit minimum.
pub const ENTRIES_PER_BLOCK: usize = 62;
/// Bytes of a block: one 16-byte word, so a block never straddles a cache line.
pub const BLOCK_BYTES: usize = 16;
/// Bits of the block minimum, before the codes.
const MIN_BITS: usize = 4;
/// The minimum of a block with no entry coded 0 (never read).
const NO_MINIMUM: u8 = (1 << MIN_BITS) - 1;
/// The code of `base + 3` or more, and of an entry not written yet.
const ABOVE: u8 = 3;
/// Most entries, in percent of the table, that may be coded 0 (read as their block's minimum,
/// which loses a level or two on them). The base is the deepest level that keeps within it.
pub const BELOW_BASE_PERCENT: u64 = 5;
/// Bit 0 of every code of a block (after the minimum is shifted out).
const CODE_LOW_BITS: u128 = 0x0555_5555_5555_5555_5555_5555_5555_5555;
/// Blocks a rayon task fills.
const BLOCKS_PER_TASK: usize = 1 << 14;

/// Bytes of a table of `entries` entries.
pub fn bytes_for(entries: usize) -> usize {
    entries.div_ceil(ENTRIES_PER_BLOCK) * BLOCK_BYTES
}

/// The base of a table of `entries` entries with these levels (level `d` at index `d`), or
/// `None` while the levels so far leave it open: the level before the first at which the
/// entries up to it pass [`BELOW_BASE_PERCENT`] percent of the table (level 0 if that is the
/// first). A breadth-first build may call it after each level; the answer never changes once
/// given.
pub fn base_for(levels: &[u64], entries: u64) -> Option<u8> {
    let most_below = u128::from(entries) * u128::from(BELOW_BASE_PERCENT) / 100;
    let mut reached = 0u128;
    for (d, &count) in levels.iter().enumerate() {
        reached += u128::from(count);
        if reached > most_below {
            return Some(d.saturating_sub(1).min(usize::from(u8::MAX - ABOVE)) as u8);
        }
    }
    None
}

/// The lower bound the table gives `entry`: its exact distance when that is `base + 1` or
/// `base + 2`, else at most it (admissible).
#[inline]
pub fn bound(bytes: &[u8], base: u8, entry: usize) -> u8 {
    let at = block_byte(entry);
    let bit = MIN_BITS + 2 * (entry % ENTRIES_PER_BLOCK);
    match (bytes[at + bit / 8] >> (bit % 8)) & 3 {
        0 => bytes[at] & NO_MINIMUM,
        code => base + code,
    }
}

/// The first byte of `entry`'s block (where to prefetch it).
#[inline]
pub fn block_byte(entry: usize) -> usize {
    entry / ENTRIES_PER_BLOCK * BLOCK_BYTES
}

/// The block minimum that level `depth` sets, where it is the first coded 0 in a block.
fn minimum_of(depth: u32) -> u128 {
    depth.min(u32::from(NO_MINIMUM) - 1).into()
}

/// Writes `code` into `block` for the entries `marked` (bit `2k` for entry `k`) not written
/// yet; the first code 0 in the block sets its minimum to `minimum` (levels come in order, so
/// the first is the least).
fn write_codes(block: &mut [u8], marked: u128, code: u8, minimum: u128) {
    let mut word = u128::from_le_bytes((&*block).try_into().expect("a block"));
    let codes = word >> MIN_BITS;
    let unwritten = codes & (codes >> 1) & CODE_LOW_BITS;
    let hit = marked & unwritten;
    if hit == 0 {
        return;
    }
    let cleared = codes & !(hit | hit << 1);
    let min = match code == 0 && word as u8 & NO_MINIMUM == NO_MINIMUM {
        true => minimum,
        false => word & u128::from(NO_MINIMUM),
    };
    word = ((cleared | (hit * u128::from(code))) << MIN_BITS) | min;
    block.copy_from_slice(&word.to_le_bytes());
}

/// The code of distance `d` against `base`.
fn code(d: u32, base: u8) -> u8 {
    d.saturating_sub(u32::from(base)).min(u32::from(ABOVE)) as u8
}

/// A table in this form filled level by level from a breadth-first build, which says after
/// each level which entries may be at it ([`add_level`](Self::add_level)). It is built in
/// memory advised for huge pages, where the search will read it, so it is never copied.
#[derive(Debug)]
pub struct BlockedBuilder {
    bytes: ResidentBytes,
    entries: usize,
    levels: Vec<u64>,
    base: Option<u8>,
}

impl BlockedBuilder {
    /// A table of `entries` entries, none written yet; an error when the memory cannot be
    /// had.
    pub fn new(entries: usize) -> io::Result<Self> {
        let mut block = [0xFFu8; BLOCK_BYTES];
        block[0] = 0xF0 | NO_MINIMUM;
        let bytes = ResidentBytes::tiled(&block, entries.div_ceil(ENTRIES_PER_BLOCK))?;
        Ok(BlockedBuilder {
            bytes,
            entries,
            levels: Vec::new(),
            base: None,
        })
    }

    /// Records level `depth` (levels come in order from 0) of `count` entries. `candidates(b)`
    /// marks the entries of block `b` that may be at `depth` (bit `2k` for entry `k`), a
    /// superset of those at it that holds no entry of a later level: the entries it marks that
    /// no earlier level wrote are the level's.
    ///
    /// Levels past `base + 2` are not scanned: their entries keep the code they started with,
    /// `ABOVE`.
    pub fn add_level(&mut self, depth: u32, count: u64, candidates: impl Fn(usize) -> u128 + Sync) {
        let Some(code) = self.record(depth, count) else {
            return;
        };
        let minimum = minimum_of(depth);
        self.bytes
            .bytes_mut()
            .par_chunks_mut(BLOCK_BYTES * BLOCKS_PER_TASK)
            .enumerate()
            .for_each(|(task, chunk)| {
                for (k, block) in chunk.chunks_exact_mut(BLOCK_BYTES).enumerate() {
                    let b = task * BLOCKS_PER_TASK + k;
                    let marked = candidates(b) & CODE_LOW_BITS;
                    if marked == 0 {
                        continue;
                    }
                    write_codes(block, marked, code, minimum);
                }
            });
    }

    /// Records level `depth` (levels come in order from 0) as its entries: those of a small
    /// level, written one by one rather than found by a scan of the whole table as
    /// [`add_level`](Self::add_level) does.
    pub fn add_listed(&mut self, depth: u32, entries: impl ExactSizeIterator<Item = usize>) {
        let Some(code) = self.record(depth, entries.len() as u64) else {
            return;
        };
        let minimum = minimum_of(depth);
        let bytes = self.bytes.bytes_mut();
        for entry in entries {
            let at = block_byte(entry);
            let mark = 1u128 << (2 * (entry % ENTRIES_PER_BLOCK));
            write_codes(&mut bytes[at..at + BLOCK_BYTES], mark, code, minimum);
        }
    }

    /// Records that level `depth` has `count` entries, and returns its code, or `None` when
    /// it is past `base + 2` (its entries keep the code they started with).
    fn record(&mut self, depth: u32, count: u64) -> Option<u8> {
        assert_eq!(depth as usize, self.levels.len(), "levels come in order");
        self.levels.push(count);
        self.base = self.base.or(base_for(&self.levels, self.entries as u64));
        // Until the base is known, every level lies at or below it.
        let code = self.base.map_or(0, |base| code(depth, base));
        (code != ABOVE).then_some(code)
    }

    /// Whether every entry not recorded yet keeps the code it started with: the base is
    /// known and `base + 2` is recorded, so a build may stop (the later levels' counts aside,
    /// its table is finished).
    pub fn is_complete(&self) -> bool {
        // The last level read exactly is `base + 2`, coded `ABOVE - 1`.
        self.base
            .is_some_and(|base| self.levels.len() > usize::from(base + ABOVE - 1))
    }

    /// The finished table's bytes and base; `None` when the levels never reached the base
    /// (fewer entries recorded than the table has).
    pub fn finish(self) -> Option<(ResidentBytes, u8)> {
        Some((self.bytes, self.base?))
    }

    /// The levels recorded.
    pub fn levels(&self) -> &[u64] {
        &self.levels
    }
}

/// The entries of block `b` of a 2-bit table whose distance mod 3 is `value` (bit `2k` for
/// entry `k`): [`BlockedBuilder::add_level`]'s candidates for a level with that residue, when
/// the levels are recorded as the table is filled (the entries of later levels are unreached
/// then, and those of the earlier levels with the residue are already written).
#[inline]
pub fn mod3_candidates(table: &TwoBitTable, b: usize, value: u8) -> u128 {
    let fields = table.fields_from(b * ENTRIES_PER_BLOCK);
    let diff = fields ^ (CODE_LOW_BITS * u128::from(value));
    !(diff | (diff >> 1)) & CODE_LOW_BITS
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds the table of `distances` the way a breadth-first build would, from their mod 3.
    fn built(distances: &[u8]) -> (Vec<u8>, u8) {
        built_until(distances, false)
    }

    /// [`built`], stopping once the builder is complete when `stop` says so.
    fn built_until(distances: &[u8], stop: bool) -> (Vec<u8>, u8) {
        let two_bit = TwoBitTable::new(distances.len());
        let mut builder = BlockedBuilder::new(distances.len()).unwrap();
        let deepest = *distances.iter().max().unwrap();
        for d in 0..=deepest {
            if stop && builder.is_complete() {
                break;
            }
            let mut count = 0;
            for (i, &x) in distances.iter().enumerate() {
                if x == d {
                    assert!(two_bit.try_set(i, d % 3));
                    count += 1;
                }
            }
            builder.add_level(d.into(), count, |b| mod3_candidates(&two_bit, b, d % 3));
        }
        let (bytes, base) = builder.finish().expect("every entry recorded");
        (bytes.bytes().to_vec(), base)
    }

    #[test]
    fn the_base_is_the_deepest_level_with_few_entries_at_or_below_it() {
        assert_eq!(base_for(&[1, 2, 3], 100), Some(1));
        assert_eq!(base_for(&[1, 2], 100), None);
        assert_eq!(base_for(&[1, 4, 10, 85], 100), Some(1));
        assert_eq!(base_for(&[10, 90], 100), Some(0));
    }

    #[test]
    fn every_entry_reads_a_lower_bound_exact_on_the_two_levels_above_the_base() {
        // 1,000 entries: a few shallow ones, most at 5-7, a tail to 10, scattered.
        let distances: Vec<u8> = (0..1000u32)
            .map(|i| {
                let r = i.wrapping_mul(2_654_435_761) >> 22;
                match r % 100 {
                    0 => (r / 100 % 4) as u8,
                    1..=2 => 4,
                    4..=30 => 5,
                    31..=70 => 6,
                    71..=95 => 7,
                    _ => 8 + (r % 3) as u8,
                }
            })
            .collect();
        let mut distances = distances;
        distances[0] = 0;
        let (bytes, base) = built(&distances);
        assert_eq!(bytes.len(), bytes_for(distances.len()));
        assert_eq!(
            base, 4,
            "entries at 4 or less: about 3%; at 5 or less: about 30%"
        );
        for (i, &d) in distances.iter().enumerate() {
            let b = bound(&bytes, base, i);
            assert!(b <= d, "entry {i}: bound {b} above distance {d}");
            match d.cmp(&(base + 3)) {
                std::cmp::Ordering::Less if d > base => assert_eq!(b, d, "entry {i}"),
                std::cmp::Ordering::Less => {
                    let block = i / ENTRIES_PER_BLOCK * ENTRIES_PER_BLOCK;
                    let end = (block + ENTRIES_PER_BLOCK).min(distances.len());
                    let least = distances[block..end].iter().min().unwrap();
                    assert_eq!(b, *least, "entry {i}: its block's minimum");
                }
                _ => assert_eq!(b, base + 3, "entry {i}"),
            }
        }
    }

    #[test]
    fn a_build_may_stop_after_the_second_level_above_the_base() {
        // Levels 0-9, the base 6 (at most 5% at or below it): complete after level 8.
        let distances: Vec<u8> = (0..2000u32)
            .map(|i| match i % 100 {
                0 => (i / 100 % 7) as u8,
                1..=3 => 6,
                4..=40 => 7,
                41..=90 => 8,
                _ => 9,
            })
            .collect();
        let mut builder = BlockedBuilder::new(distances.len()).unwrap();
        for d in 0..=8u8 {
            assert!(!builder.is_complete(), "not complete before level {d}");
            let count = distances.iter().filter(|&&x| x == d).count() as u64;
            builder.add_level(d.into(), count, |_| 0);
        }
        assert!(builder.is_complete());
        let (full, base) = built(&distances);
        assert_eq!(base, 6);
        assert_eq!(built_until(&distances, true), (full, base));
    }

    #[test]
    fn levels_given_as_lists_write_what_scanned_levels_do() {
        let distances: Vec<u8> = (0..3000u32)
            .map(|i| match i.wrapping_mul(2_654_435_761) >> 25 & 63 {
                0 => 0,
                1..=2 => 3,
                3..=20 => 4,
                21..=50 => 5,
                _ => 6,
            })
            .collect();
        let mut builder = BlockedBuilder::new(distances.len()).unwrap();
        for d in 0..=6u8 {
            let at_d = (0..distances.len()).filter(|&i| distances[i] == d);
            builder.add_listed(d.into(), at_d.collect::<Vec<_>>().into_iter());
        }
        let (bytes, base) = builder.finish().unwrap();
        assert_eq!((bytes.bytes().to_vec(), base), built(&distances));
    }

    #[test]
    fn a_build_that_stops_short_of_the_base_has_no_table() {
        let mut builder = BlockedBuilder::new(100).unwrap();
        builder.add_level(0, 1, |_| 0);
        assert!(builder.finish().is_none());
    }
}
