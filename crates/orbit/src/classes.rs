//! A definition puzzle's positions up to its symmetries ([`crate::symmetry`]): a state stands
//! for a position's whole class, its conjugates `S^-1 P S`, which are all at the same
//! distance from solved. The frontier engines then keep and expand one position a class, about
//! as many times fewer as the puzzle has symmetries (the 3x3x3's 48), and count positions
//! exactly by the classes' sizes.
//!
//! **Keys.** A position is held as the rearrangement that makes it from solved: for each slot
//! the slot its piece comes from and the twist it has taken. Where the solved pattern repeats
//! a piece (the 4x4x4's centres), the slot named is the first of that piece's kind, so a
//! position is its pattern, and a symmetry renames the kinds ([`crate::symmetry`]). The key
//! writes the slots some move reaches, in order, each as one field (that slot's number within
//! its orbit, then the twist), after the lead orbit's arrangement rank where one is tabled
//! (`Lead`, an orbit of distinct pieces), so the order of keys is the order of these lists. A
//! class's key is its least member's, with the size of the member's stabiliser (the
//! symmetries that leave it as it is): the class holds `symmetries / stabiliser` positions.
//! Keys are `u128` where the fields fit (the 3x3x3), [`Key256`] where they fit 256 bits (the
//! 4x4x4) or where they do once written in mixed radix (`Packing`: the megaminx), [`Key512`]
//! where they fit 512 (the 5x5x5), else whole [`Slots`] (a field a byte), see [`ClassKey`].
//!
//! **The least conjugate** is found slot by slot, as the built-in 3x3x3 finds it from its
//! corners: every symmetry's conjugate is read at the first slot only, those that do not give
//! the least value there are dropped, and so on; usually one symmetry is left after a slot or
//! two, and its conjugate is read out whole. No conjugate is made whole to be compared. The
//! first step is read off a table: the lead orbit's arrangement (`Lead`) or, where no orbit
//! leads, the first slot (`FirstElement`), each giving the least value and the symmetries
//! that give it.

use super::definition::{Definition, Transformation};
use super::slots::{Slots, MAX_WIDE_SLOTS};
use super::space::{space_moves, SpaceError, SpaceMove, SpaceMoves};
use super::symmetry::{symmetries, Symmetry};
use bnum::types::U512;
use ethnum::U256;
use godsearch_core::perm::{placement_cells, placement_index};
use godsearch_core::{MoveIdx, StateSpace};
use rayon::prelude::*;
use std::fmt::Debug;
use std::hash::Hash;

/// How class keys are made, written into files that store keys (levels on disk); change it
/// whenever the packing or the choice of representative changes.
pub const CLASS_KEY: &str =
    "least conjugate: lead arrangement rank, then each slot's source and twist; stabiliser v2";
/// [`CLASS_KEY`] for keys whose elements are written in mixed radix.
pub const RADIX_CLASS_KEY: &str =
    "least conjugate: lead arrangement rank, then each slot's source rank and twist in mixed radix chunks of 64 bits; stabiliser v1";

/// Bits of a slot's content below its source slot: the twist (so at most 16 orientations).
const TWIST_BITS: u32 = 4;
/// The twist part of a content.
const TWIST_MASK: u16 = (1 << TWIST_BITS) - 1;
/// The most slots (over all orbits) a class space holds: as many as the widest positions
/// ([`MAX_WIDE_SLOTS`], the 5x5x5's 92).
pub const MAX_CLASS_SLOTS: usize = MAX_WIDE_SLOTS;
/// The slots whose pieces a mixed-radix key ranks among those not yet placed (a mask of
/// them is a `u64`); pieces of slots past them are written by their number, as in a field.
const RANKED_SOURCE_SLOTS: usize = u64::BITS as usize;
/// The most symmetries a class space uses (their indices are bytes).
pub const MAX_SYMMETRIES: usize = 255;

/// One slot a move changes: it takes the content of `from`, turned by `twist`.
#[derive(Debug, Clone, Copy)]
struct Change {
    slot: u8,
    from: u8,
    twist: u8,
}

/// The orbit whose arrangement leads a class key: the arrangement of its slots that moves reach,
/// ranked lexicographically, so the least conjugate's arrangement is read off a table, with
/// the symmetries that give it (one read instead of a slot-by-slot elimination, which the many
/// pieces at home near solved make long: `bfs` of the 3x3x3's file to depth 7 under its 24
/// rotations took 1.05-1.17 s with a table of every symmetry's conjugate and 1.38 s without;
/// the least and its symmetries tabled instead of that row took the 3x3x3's keys from 155-160
/// to 105-106 ns, the same keys).
///
/// Symmetries that act alike on the orbit (the 4x4x4's 96 in pairs: each with the swap of the
/// inner layers, which leaves the corners be) give the same arrangement and twists, so the
/// table and the twists' comparison take one of each such group, and the groups' members are
/// compared from the next orbit on (on the 4x4x4, keys of level 6 from level 5 took 0.79-0.84
/// µs each instead of 0.91-0.93, before its 256-bit keys were gathered in a register).
#[derive(Debug, Clone)]
struct Lead {
    /// Its slots that moves reach, in order.
    slots: Vec<u8>,
    /// Per slot of the puzzle: its index among `slots`.
    index_of: Vec<u8>,
    /// The symmetries grouped by how they act on the orbit.
    groups: Groups,
    /// Per arrangement rank: the least rank of its conjugates' arrangements.
    least: Vec<u16>,
    /// Per arrangement rank, `words` words: bit `i` set where group `i` gives the least.
    givers: Vec<u64>,
    words: usize,
}

impl Lead {
    /// Whether some group has more than one symmetry.
    fn grouped(&self) -> bool {
        self.groups.firsts.len() < self.groups.group_of.len()
    }

    /// The symmetries of the groups whose firsts are `alive[..count]`, written over them; how
    /// many.
    fn expand(&self, alive: &mut [u8; MAX_SYMMETRIES], count: usize) -> usize {
        let firsts = *alive;
        let mut n = 0;
        for &s in &firsts[..count] {
            for &m in self
                .groups
                .members(self.groups.group_of[s as usize] as usize)
            {
                alive[n] = m;
                n += 1;
            }
        }
        n
    }
}

/// Symmetries grouped by a property they share (how they act on an orbit, the slot they read),
/// the groups in the order of their first symmetries.
#[derive(Debug, Clone)]
struct Groups {
    /// The first symmetry of each group.
    firsts: Vec<u8>,
    /// Per symmetry: its group's index.
    group_of: Vec<u8>,
    /// The groups' symmetries, group after group: group `g` is `members[bounds[g]..bounds[g + 1]]`.
    members: Vec<u8>,
    bounds: Vec<usize>,
}

impl Groups {
    /// Symmetry `s` (of `keys.len()`) grouped with those whose key equals `keys[s]`.
    fn new<T: PartialEq>(keys: &[T]) -> Groups {
        let (mut firsts, mut group_of) = (Vec::<u8>::new(), vec![0u8; keys.len()]);
        for s in 0..keys.len() {
            match firsts.iter().position(|&f| keys[f as usize] == keys[s]) {
                Some(g) => group_of[s] = g as u8,
                None => {
                    group_of[s] = firsts.len() as u8;
                    firsts.push(s as u8);
                }
            }
        }
        let (mut members, mut bounds) = (Vec::with_capacity(keys.len()), vec![0]);
        for g in 0..firsts.len() {
            members.extend((0..keys.len() as u8).filter(|&s| group_of[s as usize] as usize == g));
            bounds.push(members.len());
        }
        Groups {
            firsts,
            group_of,
            members,
            bounds,
        }
    }

    /// Group `g`'s symmetries.
    fn members(&self, g: usize) -> &[u8] {
        &self.members[self.bounds[g]..self.bounds[g + 1]]
    }
}

/// The least of `values`, with bit `i` of `givers` (64 to a word) set where `values[i]` is it.
fn least_and_givers(values: &[u16], givers: &mut [u64]) -> u16 {
    let least = *values.iter().min().expect("a value at least");
    for (i, _) in values.iter().enumerate().filter(|&(_, &v)| v == least) {
        givers[i / u64::BITS as usize] |= 1 << (i % u64::BITS as usize);
    }
    least
}

/// `alive[..count]` with `symmetries[i]` appended for each bit `i` set in `givers`; the new
/// count.
#[inline]
fn push_givers(
    givers: &[u64],
    symmetries: &[u8],
    alive: &mut [u8; MAX_SYMMETRIES],
    mut count: usize,
) -> usize {
    for (w, &word) in givers.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            alive[count] = symmetries[w * u64::BITS as usize + bits.trailing_zeros() as usize];
            count += 1;
            bits &= bits - 1;
        }
    }
    count
}

/// Where no orbit leads, the key's first element tabled: the symmetries grouped by the slot
/// they read it from, and per group and content of that slot, the least value the group's
/// symmetries give it and which of them give it. The first element then takes a read a slot
/// instead of one a symmetry (the megaminx's 120 read 20 slots).
#[derive(Debug, Clone)]
struct FirstElement {
    /// The symmetries grouped by the slot they read.
    groups: Groups,
    /// Per group: that slot.
    reads: Vec<u8>,
    /// Per group and content: the least value, and bit `i` set where the group's symmetry `i`
    /// gives it.
    least: Vec<u16>,
    givers: Vec<u64>,
}

/// One part of a class key after the lead: a slot's whole content (its piece's number within
/// the orbit, then its twist) or, for the lead orbit's slots, its twist alone.
#[derive(Debug, Clone, Copy)]
struct Element {
    slot: u8,
    twist_only: bool,
    piece_bits: u32,
    twist_bits: u32,
    /// Its orbit's orientations.
    orientations: u8,
    /// In mixed radix ([`Packing::Radix`]), where its orbit's pieces are distinct: the slots
    /// its piece may come from (its number is its rank among those not yet placed); else 0
    /// (its number is its kind's, as in a field).
    sources: u64,
    /// In mixed radix: the values it takes, and the width of the chunk of digits it ends,
    /// where it ends one.
    radix: u32,
    closes: Option<u32>,
}

/// How one symmetry's conjugate is read at one element of the key: from slot `read` of the
/// position, relabelled, turned by `turn` (mod `orientations`).
#[derive(Debug, Clone, Copy)]
struct Step {
    read: u8,
    turn: u8,
    orientations: u8,
}

impl Element {
    /// Its width in a key: the piece's number and the twist, or the twist alone.
    fn bits(&self) -> u32 {
        match self.twist_only {
            true => self.twist_bits,
            false => self.piece_bits + self.twist_bits,
        }
    }

    /// Its field in a key, from the conjugate's content `v`, whose source is numbered
    /// `number[source]` within its orbit.
    #[inline]
    fn field(&self, v: u16, number: &[u8]) -> u64 {
        let twist = (v & TWIST_MASK) as u64;
        match self.twist_only {
            true => twist,
            false => (number[(v >> TWIST_BITS) as usize] as u64) << self.twist_bits | twist,
        }
    }

    /// Its digit in mixed radix (below `radix`), from the conjugate's content `v`: the piece's
    /// rank among the sources in `free` (which loses it) or its kind's number, times the
    /// orientations, plus the twist. Digits order as fields do where the elements before are
    /// the same (the same pieces placed).
    #[inline]
    fn digit(&self, v: u16, number: &[u8], free: &mut u64) -> u64 {
        let twist = (v & TWIST_MASK) as u64;
        if self.twist_only {
            return twist;
        }
        let source = (v >> TWIST_BITS) as u32;
        let piece = match self.sources {
            0 => number[source as usize] as u64,
            sources => {
                debug_assert!(
                    *free & sources & 1u64 << source != 0,
                    "a piece placed twice"
                );
                let below = *free & sources & ((1u64 << source) - 1);
                *free &= !(1u64 << source);
                below.count_ones() as u64
            }
        };
        piece * self.orientations as u64 + twist
    }
}

/// How a class key's elements are written. Each as its own field where those fit the key
/// (the 3x3x3's and the 4x4x4's); else in mixed radix, each a digit (a piece of an orbit of
/// distinct pieces as its rank among those not yet placed, times the orientations, plus the
/// twist) gathered in chunks of up to 64 bits, which takes the megaminx's 320 bits of fields
/// to 231 (238 with the stabiliser) and into a [`Key256`]. Both keep the order of the key's
/// fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Packing {
    Fields,
    Radix,
}

/// A class key being written: the key's cursor; in mixed radix, the digits of the chunk so
/// far and the sources not yet placed.
struct Packer<C> {
    cursor: C,
    digits: u64,
    free: u64,
}

/// Conjugates (arrangements times symmetries) a lead table may be made from. The 3x3x3's
/// corners take 40320 x 48.
const MAX_LEAD_ENTRIES: usize = 1 << 22;
/// The most arrangements a lead orbit may have: its ranks are 16-bit, half the memory of 32-bit
/// ones (no faster or slower on the 3x3x3).
const MAX_LEAD_ARRANGEMENTS: usize = 1 << 16;
/// The fewest slots a lead orbit has: two arrangements or fewer tell the symmetries too little
/// apart to be worth a table.
const MIN_LEAD_SLOTS: usize = 3;

/// A position as each slot's content: `source slot << 4 | twist`, the source the first slot of
/// its kind where pieces are alike (slots past the puzzle's 0).
type Contents = [u16; MAX_CLASS_SLOTS];

/// What a class is stored as: a key written field by field (the lead arrangement's rank, then
/// each element's piece and twist as one number) so that the order of keys is the order of the
/// fields, with the stabiliser's size beside them. `u128` for puzzles whose fields fit 128 bits
/// (the 3x3x3 takes 98 with its stabiliser); [`Key256`] for those that fit 256 (the 4x4x4's
/// 231, the megaminx's 238 in mixed radix); [`Key512`] for those that fit 512 (the 5x5x5's);
/// [`Slots`] (a field a byte, or two for a lead rank; the stabiliser in the last) for larger
/// ones.
pub trait ClassKey: Copy + Ord + Hash + Debug + Default + Send + Sync + 'static {
    /// What a key is, in words: `128-bit keys`, `256-bit keys`, `512-bit keys`, `whole states`.
    const KIND: &'static str;
    /// A key being written, or read back from its end.
    type Cursor: Copy;
    /// Whether fields of these widths (in bits, in order) and a stabiliser of
    /// `stabiliser_bits` fit.
    fn fits(fields: &[u32], stabiliser_bits: u32) -> bool;
    /// An empty key.
    fn start() -> Self::Cursor;
    /// Writes the field `value` of `bits` bits after the others (in place: a cursor as large
    /// as a whole state is not copied at every field).
    fn write(cursor: &mut Self::Cursor, bits: u32, value: u64);
    /// The key, with the stabiliser's size.
    fn finish(cursor: Self::Cursor, stabiliser_bits: u32, stabiliser: usize) -> Self;
    /// The stabiliser's size.
    fn stabiliser(self, stabiliser_bits: u32) -> usize;
    /// A cursor after the last of the fields of widths `fields`.
    fn end(self, fields: &[u32], stabiliser_bits: u32) -> Self::Cursor;
    /// The field of `bits` bits before `cursor`, and the cursor before it.
    fn read_back(cursor: Self::Cursor, bits: u32) -> (u64, Self::Cursor);
}

impl ClassKey for u128 {
    const KIND: &'static str = "128-bit keys";
    type Cursor = u128;

    fn fits(fields: &[u32], stabiliser_bits: u32) -> bool {
        fields.iter().sum::<u32>() + stabiliser_bits <= u128::BITS
    }

    fn start() -> u128 {
        0
    }

    #[inline]
    fn write(cursor: &mut u128, bits: u32, value: u64) {
        *cursor = *cursor << bits | value as u128;
    }

    #[inline]
    fn finish(cursor: u128, stabiliser_bits: u32, stabiliser: usize) -> u128 {
        cursor << stabiliser_bits | stabiliser as u128
    }

    fn stabiliser(self, stabiliser_bits: u32) -> usize {
        (self & ((1u128 << stabiliser_bits) - 1)) as usize
    }

    fn end(self, _: &[u32], stabiliser_bits: u32) -> u128 {
        self >> stabiliser_bits
    }

    #[inline]
    fn read_back(cursor: u128, bits: u32) -> (u64, u128) {
        ((cursor & ((1u128 << bits) - 1)) as u64, cursor >> bits)
    }
}

/// Bytes a field of `bits` bits takes in a [`Slots`] key (a field of none takes none).
fn field_bytes(bits: u32) -> usize {
    bits.div_ceil(u8::BITS) as usize
}

impl<const N: usize> ClassKey for Slots<N> {
    const KIND: &'static str = "whole states";
    type Cursor = (Slots<N>, usize);

    fn fits(fields: &[u32], _: u32) -> bool {
        let bytes: usize = fields.iter().map(|&b| field_bytes(b)).sum();
        fields.iter().all(|&b| b <= 2 * u8::BITS) && bytes < N
    }

    fn start() -> (Slots<N>, usize) {
        (Slots::default(), 0)
    }

    #[inline]
    fn write((key, at): &mut (Slots<N>, usize), bits: u32, value: u64) {
        let n = field_bytes(bits);
        for i in 0..n {
            key.0[*at + i] = (value >> (8 * (n - 1 - i))) as u8;
        }
        *at += n;
    }

    #[inline]
    fn finish((mut key, _): (Slots<N>, usize), _: u32, stabiliser: usize) -> Slots<N> {
        key.0[N - 1] = stabiliser as u8;
        key
    }

    fn stabiliser(self, _: u32) -> usize {
        self.0[N - 1] as usize
    }

    fn end(self, fields: &[u32], _: u32) -> (Slots<N>, usize) {
        (self, fields.iter().map(|&b| field_bytes(b)).sum())
    }

    #[inline]
    fn read_back((key, at): (Slots<N>, usize), bits: u32) -> (u64, (Slots<N>, usize)) {
        let n = field_bytes(bits);
        let from = at - n;
        let value = key.0[from..at].iter().fold(0u64, |v, &b| v << 8 | b as u64);
        (value, (key, from))
    }
}

/// A 256-bit class key, for puzzles whose fields pass 128 bits but fit 256 (the 4x4x4 takes
/// 231 with its stabiliser): half the memory of a [`Slots`] key, and an integer, so that the
/// disk and distributed engines write it as key gaps as they do a `u128`.
pub type Key256 = U256;

/// A 512-bit class key, for puzzles whose fields pass 256 bits but fit 512 (the 5x5x5's 92
/// slots take about 364): half the memory of a 128-slot [`Slots`] key, and an integer for the
/// disk and distributed engines, as a [`Key256`] is.
pub type Key512 = U512;

/// An integer key as `W` 64-bit words, the most significant first: how a [`Key256`] or a
/// [`Key512`] is written and read field by field.
pub trait WordKey<const W: usize>: Copy {
    /// The key these words make.
    fn of_words(words: [u64; W]) -> Self;
    /// The key's words.
    fn words(self) -> [u64; W];
}

impl WordKey<4> for Key256 {
    #[inline]
    fn of_words(words: [u64; 4]) -> Self {
        let half = u64::BITS;
        let [a, b, c, d] = words.map(u128::from);
        U256::from_words(a << half | b, c << half | d)
    }

    #[inline]
    fn words(self) -> [u64; 4] {
        let (hi, lo) = U256::into_words(self);
        let half = u64::BITS;
        [
            (hi >> half) as u64,
            hi as u64,
            (lo >> half) as u64,
            lo as u64,
        ]
    }
}

impl WordKey<8> for Key512 {
    #[inline]
    fn of_words(mut words: [u64; 8]) -> Self {
        words.reverse();
        U512::from_digits(words)
    }

    #[inline]
    fn words(self) -> [u64; 8] {
        let mut words = *self.digits();
        words.reverse();
        words
    }
}

/// A wide key's `W` words, the most significant first, as it is written and read.
#[derive(Debug, Clone, Copy)]
pub struct Words<const W: usize>([u64; W]);

impl<const W: usize> Default for Words<W> {
    fn default() -> Self {
        Words([0; W])
    }
}

impl<const W: usize> Words<W> {
    /// Bits it holds.
    const BITS: u32 = W as u32 * u64::BITS;

    /// `bits` bits of `value` written with their lowest at bit `at` (0 the least significant).
    #[inline]
    fn set(&mut self, at: u32, bits: u32, value: u64) {
        let (word, shift) = (W - 1 - (at / u64::BITS) as usize, at % u64::BITS);
        self.0[word] |= value << shift;
        if shift + bits > u64::BITS {
            self.0[word - 1] |= value >> (u64::BITS - shift);
        }
    }

    /// The `bits` bits whose lowest is bit `at`.
    #[inline]
    fn get(&self, at: u32, bits: u32) -> u64 {
        let (word, shift) = (W - 1 - (at / u64::BITS) as usize, at % u64::BITS);
        let mut value = self.0[word] >> shift;
        if shift + bits > u64::BITS {
            value |= self.0[word - 1] << (u64::BITS - shift);
        }
        value & (u64::MAX >> (u64::BITS - bits))
    }
}

/// [`ClassKey`] for an integer key of `$words` words: fields of up to 64 bits each, gathered
/// word by word.
macro_rules! word_class_key {
    ($key:ty, $words:literal, $kind:literal) => {
        impl ClassKey for $key {
            const KIND: &'static str = $kind;
            /// The key's words filled so far, the word being filled (stored in the key once
            /// full, so the fields are gathered in a register: storing each into the key's
            /// memory and reading the key back whole stalled, 30% of a class key's time on the
            /// 4x4x4), and the bits written so far from the most significant end.
            type Cursor = (Words<$words>, u64, u32);

            fn fits(fields: &[u32], stabiliser_bits: u32) -> bool {
                fields.iter().all(|&b| b <= u64::BITS)
                    && fields.iter().sum::<u32>() + stabiliser_bits <= Words::<$words>::BITS
            }

            fn start() -> Self::Cursor {
                (Words::default(), 0, 0)
            }

            #[inline]
            fn write((key, word, used): &mut Self::Cursor, bits: u32, value: u64) {
                if bits == 0 {
                    return;
                }
                let free = u64::BITS - *used % u64::BITS;
                if bits < free {
                    *word |= value << (free - bits);
                } else {
                    let rest = bits - free;
                    key.0[(*used / u64::BITS) as usize] = *word | value >> rest;
                    *word = value.checked_shl(u64::BITS - rest).unwrap_or(0);
                }
                *used += bits;
            }

            #[inline]
            fn finish(
                (mut key, word, used): Self::Cursor,
                stabiliser_bits: u32,
                stabiliser: usize,
            ) -> Self {
                if used % u64::BITS > 0 {
                    key.0[(used / u64::BITS) as usize] = word;
                }
                key.set(0, stabiliser_bits, stabiliser as u64);
                <$key as WordKey<$words>>::of_words(key.0)
            }

            fn stabiliser(self, stabiliser_bits: u32) -> usize {
                Words(WordKey::<$words>::words(self)).get(0, stabiliser_bits) as usize
            }

            fn end(self, fields: &[u32], _: u32) -> Self::Cursor {
                (
                    Words(WordKey::<$words>::words(self)),
                    0,
                    fields.iter().sum(),
                )
            }

            #[inline]
            fn read_back((key, word, used): Self::Cursor, bits: u32) -> (u64, Self::Cursor) {
                match bits {
                    0 => (0, (key, word, used)),
                    _ => (
                        key.get(Words::<$words>::BITS - used, bits),
                        (key, word, used - bits),
                    ),
                }
            }
        }
    };
}
word_class_key!(Key256, 4, "256-bit keys");
word_class_key!(Key512, 8, "512-bit keys");

/// A definition's puzzle over chosen moves, one state per symmetry class (see the module docs).
#[derive(Debug, Clone)]
pub struct ClassSpace<K: ClassKey> {
    generators: Vec<String>,
    moves: Vec<SpaceMove>,
    inverse: Vec<MoveIdx>,
    changes: Vec<Vec<Change>>,
    /// All orbits' slots.
    slots: usize,
    /// The orbit whose arrangement leads the key, where one is tabled.
    lead: Option<Lead>,
    /// The first element's table, where no orbit leads and each group fits a mask.
    first: Option<FirstElement>,
    /// The rest of the key, in order.
    elements: Vec<Element>,
    /// Per slot: its orbit's orientation count and first slot.
    orientations: Vec<u8>,
    start: Vec<u8>,
    /// Per slot that is the first of its kind: its number among its orbit's kinds (its place
    /// in the orbit where the pieces are distinct); and per orbit's first slot plus such a
    /// number, the slot.
    number: Vec<u8>,
    first_of_number: Vec<u8>,
    /// The symmetries (`order` of them): per symmetry and content, the content it becomes
    /// (`relabel`, `contents` entries each); per symmetry and element of the key, where the
    /// conjugate's element is read from and the twist added (`steps`, an entry an element).
    order: usize,
    relabel: Vec<u16>,
    steps: Vec<Step>,
    contents: usize,
    stabiliser_bits: u32,
    identity: Contents,
    /// The widths of the key's fields in both packings ([`Self::fields`]), and which is used.
    widths: Widths,
    packing: Packing,
    /// In mixed radix, the sources an empty key has not placed.
    free: u64,
    goal: K,
}

/// The widths of a class key's fields in each packing.
#[derive(Debug, Clone)]
struct Widths {
    fields: Vec<u32>,
    radix: Vec<u32>,
}

impl Widths {
    /// The packing whose widths fit `K`, fields first.
    fn packing<K: ClassKey>(&self, stabiliser_bits: u32) -> Option<Packing> {
        [Packing::Fields, Packing::Radix]
            .into_iter()
            .find(|&packing| K::fits(self.of(packing), stabiliser_bits))
    }

    /// The widths of the fields in `packing`, in order: the lead rank's (where there is a
    /// lead), then each element's ([`Packing::Fields`]) or each chunk's ([`Packing::Radix`]).
    fn of(&self, packing: Packing) -> &[u32] {
        match packing {
            Packing::Fields => &self.fields,
            Packing::Radix => &self.radix,
        }
    }
}

impl<K: ClassKey> ClassSpace<K> {
    /// The classes of `definition`'s positions reached by `generators` (all of its own moves
    /// when empty; every power a move, or only each and its inverse when `quarter`) under the
    /// symmetries [`symmetries`] finds. `Ok(None)` where there are none but the identity, or
    /// where a class key would not fit `K` ([`ClassKey::fits`]), or the puzzle has more than
    /// 16 orientations, [`MAX_CLASS_SLOTS`] slots or [`MAX_SYMMETRIES`] symmetries.
    pub fn new(
        definition: &Definition,
        generators: &[String],
        quarter: bool,
    ) -> Result<Option<Self>, SpaceError> {
        Self::under(definition, generators, quarter, |moves| {
            Some(symmetries(definition, moves)).filter(|group| group.len() >= 2)
        })
    }

    /// Whole positions as classes of one (the identity the only symmetry), so that puzzles
    /// past 128-bit ranks get integer keys, for the disk and distributed engines, where they
    /// fit `K` (the 4x4x4's in fields, the megaminx's in mixed radix); `Ok(None)` as for
    /// [`Self::new`].
    pub fn whole(
        definition: &Definition,
        generators: &[String],
        quarter: bool,
    ) -> Result<Option<Self>, SpaceError> {
        Self::under(definition, generators, quarter, |_| {
            Some(vec![Symmetry::identity(&definition.orbits)])
        })
    }

    /// The classes under the symmetries `group` gives for the space's moves, where it gives
    /// some.
    fn under(
        definition: &Definition,
        generators: &[String],
        quarter: bool,
        group: impl FnOnce(&[SpaceMove]) -> Option<Vec<Symmetry>>,
    ) -> Result<Option<Self>, SpaceError> {
        let SpaceMoves {
            generators,
            moves,
            inverse,
        } = space_moves(definition, generators, quarter)?;
        let orbits = &definition.orbits;
        let slots: usize = orbits.iter().map(|o| o.pieces).sum();
        if slots > MAX_CLASS_SLOTS
            || orbits
                .iter()
                .any(|o| o.orientations as u16 > TWIST_MASK + 1)
        {
            return Ok(None);
        }
        let Some(group) = group(&moves).filter(|g| g.len() <= MAX_SYMMETRIES) else {
            return Ok(None);
        };
        let (mut orientations, mut start, mut kind_of) = (Vec::new(), Vec::new(), Vec::new());
        let (mut number, mut first_of_number) = (vec![0u8; slots], vec![0u8; slots]);
        let mut kinds = Vec::new();
        for (def, solved) in orbits.iter().zip(&definition.solved.orbits) {
            let first = orientations.len() as u8;
            let mut found = 0u8;
            for (i, &piece) in solved.pieces.iter().enumerate() {
                orientations.push(def.orientations);
                start.push(first);
                let same = solved.pieces.iter().position(|&p| p == piece);
                let kind = first + same.expect("its own kind") as u8;
                kind_of.push(kind);
                if kind as usize == first as usize + i {
                    number[kind as usize] = found;
                    first_of_number[(first + found) as usize] = kind;
                    found += 1;
                }
            }
            kinds.push(found as usize);
        }
        let distinct: Vec<bool> = orbits
            .iter()
            .zip(&kinds)
            .map(|(o, &k)| k == o.pieces)
            .collect();
        let global = |t: &Transformation| -> Vec<(u8, u8)> {
            t.orbits
                .iter()
                .zip(orbits)
                .scan(0u8, |first, (part, def)| {
                    let at = *first;
                    *first += def.pieces as u8;
                    Some(
                        part.permutation
                            .iter()
                            .zip(&part.orientation)
                            .map(move |(&from, &twist)| (at + from, twist))
                            .collect::<Vec<_>>(),
                    )
                })
                .flatten()
                .collect()
        };
        let changes: Vec<Vec<Change>> = moves
            .iter()
            .map(|m| {
                global(&m.transformation)
                    .into_iter()
                    .enumerate()
                    .filter(|&(slot, (from, twist))| from as usize != slot || twist != 0)
                    .map(|(slot, (from, twist))| Change {
                        slot: slot as u8,
                        from,
                        twist,
                    })
                    .collect()
            })
            .collect();
        let (mut moved, mut permuted) = (vec![false; slots], vec![false; slots]);
        for c in changes.iter().flatten() {
            moved[c.slot as usize] = true;
            permuted[c.slot as usize] |= c.from != c.slot;
        }
        let order = group.len();
        let stabiliser_bits = bits_for(order);
        let lead_orbit = lead_orbit(orbits, &distinct, &moved, &permuted, order);
        let mut elements = Vec::new();
        let mut first = 0;
        for (o, def) in orbits.iter().enumerate() {
            for (g, _) in moved
                .iter()
                .enumerate()
                .skip(first)
                .take(def.pieces)
                .filter(|(_, &m)| m)
            {
                let twist_only = lead_orbit == Some(o);
                let ranked = first + def.pieces <= RANKED_SOURCE_SLOTS;
                let sources = match distinct[o] && !twist_only && ranked {
                    true => (first..first + def.pieces)
                        .filter(|&h| moved[h])
                        .fold(0u64, |m, h| m | 1 << h),
                    false => 0,
                };
                elements.push(Element {
                    slot: g as u8,
                    twist_only,
                    piece_bits: bits_for(kinds[o] - 1),
                    twist_bits: bits_for(def.orientations as usize - 1),
                    orientations: def.orientations,
                    sources,
                    // Distinct pieces' radices depend on the order ([`radix_chunks`]).
                    radix: match (twist_only, sources) {
                        (true, _) => def.orientations as u32,
                        (false, 0) => (kinds[o] * def.orientations as usize) as u32,
                        _ => 0,
                    },
                    closes: None,
                });
            }
            first += def.pieces;
        }
        // The lead orbit's twists come right after its arrangement.
        elements.sort_by_key(|e| !e.twist_only);
        let chunks = radix_chunks(&mut elements);
        let free = elements.iter().fold(0u64, |m, e| m | e.sources);
        let lead_slots: Vec<u8> = elements
            .iter()
            .filter(|e| e.twist_only)
            .map(|e| e.slot)
            .collect();
        let lead = lead_orbit.map(|_| bits_for(factorial(lead_slots.len()) - 1));
        let widths = Widths {
            fields: lead
                .into_iter()
                .chain(elements.iter().map(Element::bits))
                .collect(),
            radix: lead.into_iter().chain(chunks).collect(),
        };
        let Some(packing) = widths.packing::<K>(stabiliser_bits) else {
            return Ok(None);
        };
        let contents = slots << TWIST_BITS;
        let (mut steps, mut relabel) = (Vec::new(), Vec::new());
        for s in &group {
            // The conjugate's slot S(i) holds (S(h), a' + d_i - d_h) where slot i of the
            // position holds (h, a), S sends each slot u to S(u) adding d_u, and a' is a, or -a
            // for a mirror image (`Symmetry::conjugate`): read slot i, relabel (h, a), add d_i.
            let sources = global(&s.transformation);
            steps.extend(elements.iter().map(|e| {
                let (read, turn) = sources[e.slot as usize];
                Step {
                    read,
                    turn,
                    orientations: orientations[e.slot as usize],
                }
            }));
            // S^-1 sends S(h) back to h taking d_h off.
            let back = global(&s.transformation.inverse(orbits));
            relabel.extend((0..contents).map(|c| {
                let (h, a) = (c >> TWIST_BITS, (c as u16 & TWIST_MASK) as u8);
                let k = orientations.get(h).copied().unwrap_or(1).max(1);
                let own = if s.mirror { (k - a % k) % k } else { a % k };
                let (source, twist) = back.get(h).copied().unwrap_or((h as u8, 0));
                let kind = kind_of.get(source as usize).copied().unwrap_or(source);
                (kind as u16) << TWIST_BITS | ((own + twist) % k) as u16
            }));
        }
        let mut identity = [0u16; MAX_CLASS_SLOTS];
        for (c, &kind) in identity.iter_mut().zip(&kind_of) {
            *c = (kind as u16) << TWIST_BITS;
        }
        let mut space = ClassSpace {
            generators,
            moves,
            inverse,
            changes,
            slots,
            lead: None,
            first: None,
            elements,
            orientations,
            start,
            number,
            first_of_number,
            order,
            relabel,
            steps,
            contents,
            stabiliser_bits,
            identity,
            widths,
            packing,
            free,
            goal: K::default(),
        };
        match lead_orbit {
            Some(_) => space.lead = Some(space.lead_table(lead_slots)),
            None => space.first = space.first_element(),
        }
        space.goal = space.class_key(&space.identity);
        Ok(Some(space))
    }

    /// The widths of the key's fields in the packing used.
    fn fields(&self) -> &[u32] {
        self.widths.of(self.packing)
    }

    /// Whether these classes' keys fit `L` ([`ClassKey::fits`]), field by field or in mixed
    /// radix.
    pub fn fits_key<L: ClassKey>(&self) -> bool {
        self.widths.packing::<L>(self.stabiliser_bits).is_some()
    }

    /// The same classes keyed by `L` (a smaller key than the one they were made with), `None`
    /// where their keys do not fit it.
    pub fn with_key<L: ClassKey>(self) -> Option<ClassSpace<L>> {
        let packing = self.widths.packing::<L>(self.stabiliser_bits)?;
        let mut space = ClassSpace {
            generators: self.generators,
            moves: self.moves,
            inverse: self.inverse,
            changes: self.changes,
            slots: self.slots,
            lead: self.lead,
            first: self.first,
            elements: self.elements,
            orientations: self.orientations,
            start: self.start,
            number: self.number,
            first_of_number: self.first_of_number,
            order: self.order,
            relabel: self.relabel,
            steps: self.steps,
            contents: self.contents,
            stabiliser_bits: self.stabiliser_bits,
            identity: self.identity,
            widths: self.widths,
            packing,
            free: self.free,
            goal: L::default(),
        };
        space.goal = space.class_key(&space.identity);
        Some(space)
    }

    /// The same classes with their elements in mixed radix, whatever fits (to test that
    /// packing on puzzles whose fields fit).
    #[cfg(test)]
    fn in_radix(mut self) -> Self {
        assert!(K::fits(&self.widths.radix, self.stabiliser_bits));
        self.packing = Packing::Radix;
        self.goal = self.class_key(&self.identity);
        self
    }

    /// The generators' names.
    pub fn generators(&self) -> &[String] {
        &self.generators
    }

    /// How its keys are made ([`CLASS_KEY`] or [`RADIX_CLASS_KEY`]), for files that store them.
    pub fn key_format(&self) -> &'static str {
        match self.packing {
            Packing::Fields => CLASS_KEY,
            Packing::Radix => RADIX_CLASS_KEY,
        }
    }

    /// How many symmetries classes are taken under (the identity among them).
    pub fn symmetry_count(&self) -> usize {
        self.order
    }

    /// The conjugate of `p` under symmetry `s`, read at element number `at` of the key: its
    /// whole content.
    #[inline]
    fn conjugate_at(&self, s: usize, p: &Contents, at: usize) -> u16 {
        let step = self.steps[s * self.elements.len() + at];
        let c = self.relabel[s * self.contents + p[step.read as usize] as usize];
        turned(c, step.turn, step.orientations)
    }

    /// The lead table over `slots`, the slots of the key's first elements (see [`Lead`]).
    fn lead_table(&self, slots: Vec<u8>) -> Lead {
        let n = slots.len();
        let mut index_of = vec![0u8; self.slots];
        for (i, &g) in slots.iter().enumerate() {
            index_of[g as usize] = i as u8;
        }
        // Symmetries act alike on the orbit where they read its elements from the same slots
        // with the same twists and relabel its contents alike.
        let elements = self.elements.len();
        let action = |s: usize| -> Vec<u16> {
            let steps = &self.steps[s * elements..][..n];
            let reads = steps.iter().flat_map(|t| [t.read as u16, t.turn as u16]);
            let contents = slots.iter().flat_map(|&g| {
                let base = (g as usize) << TWIST_BITS;
                (0..self.orientations[g as usize] as usize)
                    .map(move |t| self.relabel[s * self.contents + base + t])
            });
            reads.chain(contents).collect()
        };
        let actions: Vec<Vec<u16>> = (0..self.order).map(action).collect();
        let groups = Groups::new(&actions);
        let firsts = &groups.firsts;
        let words = firsts.len().div_ceil(u64::BITS as usize);
        let mut least = vec![0u16; factorial(n)];
        let mut givers = vec![0u64; factorial(n) * words];
        least
            .par_iter_mut()
            .zip(givers.par_chunks_mut(words))
            .enumerate()
            .for_each_init(
                || (self.identity, vec![0u32; n], vec![0u16; firsts.len()]),
                |(p, cells, row), (rank, (least, givers))| {
                    placement_cells(rank as u64, n as u64, cells);
                    for (&g, &c) in slots.iter().zip(cells.iter()) {
                        p[g as usize] = (slots[c as usize] as u16) << TWIST_BITS;
                    }
                    for (&s, entry) in firsts.iter().zip(row.iter_mut()) {
                        let conjugate = (0..n).map(|at| {
                            let h = self.conjugate_at(s as usize, p, at) >> TWIST_BITS;
                            index_of[h as usize] as u32
                        });
                        *entry = placement_index(conjugate, n as u64) as u16;
                    }
                    *least = least_and_givers(row, givers);
                },
            );
        Lead {
            slots,
            index_of,
            groups,
            least,
            givers,
            words,
        }
    }

    /// The first element's table ([`FirstElement`]), `None` where there is no element or some
    /// group has more symmetries than a mask's bits.
    fn first_element(&self) -> Option<FirstElement> {
        let e = self.elements.first()?;
        let n = self.elements.len();
        let reads: Vec<u8> = (0..self.order).map(|s| self.steps[s * n].read).collect();
        let groups = Groups::new(&reads);
        let count = groups.firsts.len();
        if (0..count).any(|g| groups.members(g).len() > u64::BITS as usize) {
            return None;
        }
        let reads: Vec<u8> = groups.firsts.iter().map(|&f| reads[f as usize]).collect();
        let (mut least, mut givers) = (Vec::new(), Vec::new());
        for (g, &read) in reads.iter().enumerate() {
            for c in 0..self.contents {
                let mut p = self.identity;
                p[read as usize] = c as u16;
                let values: Vec<u16> = (groups.members(g).iter())
                    .map(|&s| self.element_value(s as usize, &p, 0, e))
                    .collect();
                let mut mask = 0u64;
                least.push(least_and_givers(&values, std::slice::from_mut(&mut mask)));
                givers.push(mask);
            }
        }
        Some(FirstElement {
            groups,
            reads,
            least,
            givers,
        })
    }

    /// Element `e` (of `elements`, number `at`) of the conjugate of `p` under symmetry `s`, as a
    /// number ordered as keys are: the content, or its twist alone.
    #[inline]
    fn element_value(&self, s: usize, p: &Contents, at: usize, e: &Element) -> u16 {
        let c = self.conjugate_at(s, p, at);
        match e.twist_only {
            true => c & TWIST_MASK,
            false => c,
        }
    }

    /// `key` with element value `v` of `e` written after the rest, in mixed radix where
    /// `RADIX` (the packing, a constant so that each is compiled without the other's branch:
    /// a test at each element cost the 4x4x4's keys 7%).
    #[inline(always)]
    fn pack<const RADIX: bool>(&self, key: &mut Packer<K::Cursor>, e: &Element, v: u16) {
        match RADIX {
            false => K::write(&mut key.cursor, e.bits(), e.field(v, &self.number)),
            true => {
                let digit = e.digit(v, &self.number, &mut key.free);
                key.digits = key.digits * e.radix as u64 + digit;
                if let Some(bits) = e.closes {
                    K::write(&mut key.cursor, bits, key.digits);
                    key.digits = 0;
                }
            }
        }
    }

    /// The key of the class of `p`: its least conjugate, packed, with its stabiliser's size.
    /// Symmetries are dropped element by element; once one is left (after the lead, mostly:
    /// 1.25 were left on average on the 3x3x3 to depth 7 under its rotations) the rest is read
    /// off it alone.
    fn class_key(&self, p: &Contents) -> K {
        match self.packing {
            Packing::Fields => self.packed_key::<false>(p),
            Packing::Radix => self.packed_key::<true>(p),
        }
    }

    /// [`Self::class_key`] in the packing `RADIX` names ([`Self::pack`]).
    #[inline]
    fn packed_key<const RADIX: bool>(&self, p: &Contents) -> K {
        let mut alive = [0u8; MAX_SYMMETRIES];
        let mut count = 0;
        let mut key = Packer {
            cursor: K::start(),
            digits: 0,
            free: self.free,
        };
        let mut at = 0;
        if let Some(lead) = &self.lead {
            let n = lead.slots.len();
            let arrangement = lead
                .slots
                .iter()
                .map(|&g| lead.index_of[(p[g as usize] >> TWIST_BITS) as usize] as u32);
            let rank = placement_index(arrangement, n as u64) as usize;
            let givers = &lead.givers[rank * lead.words..][..lead.words];
            count = push_givers(givers, &lead.groups.firsts, &mut alive, count);
            K::write(&mut key.cursor, self.fields()[0], lead.least[rank] as u64);
            if lead.grouped() {
                // The lead orbit's twists, one symmetry of each group; then all of them.
                count = self.settle::<RADIX>(p, &mut key, &mut alive, count, 0..n);
                count = lead.expand(&mut alive, count);
                at = n;
            }
        } else if let Some(first) = &self.first {
            let entry = |j: usize| j * self.contents + p[first.reads[j] as usize] as usize;
            let groups = first.reads.len();
            let least = (0..groups).map(|j| first.least[entry(j)]).min();
            let least = least.expect("a group at least");
            for j in (0..groups).filter(|&j| first.least[entry(j)] == least) {
                let givers = std::slice::from_ref(&first.givers[entry(j)]);
                count = push_givers(givers, first.groups.members(j), &mut alive, count);
            }
            self.pack::<RADIX>(&mut key, &self.elements[0], least);
            at = 1;
        } else {
            for (s, a) in alive.iter_mut().enumerate().take(self.order) {
                *a = s as u8;
            }
            count = self.order;
        }
        count = self.settle::<RADIX>(p, &mut key, &mut alive, count, at..self.elements.len());
        K::finish(key.cursor, self.stabiliser_bits, count)
    }

    /// Writes elements `range` of the least of the conjugates of `p` under the symmetries
    /// `alive[..count]` after the rest of `key`; how many of them give it: those that do not
    /// give the least value at an element are dropped; once one is left the rest is read off it.
    #[inline]
    fn settle<const RADIX: bool>(
        &self,
        p: &Contents,
        key: &mut Packer<K::Cursor>,
        alive: &mut [u8; MAX_SYMMETRIES],
        mut count: usize,
        range: std::ops::Range<usize>,
    ) -> usize {
        let mut at = range.start;
        while count > 1 && at < range.end {
            let e = &self.elements[at];
            let mut least = u16::MAX;
            let mut kept = 0;
            for j in 0..count {
                let s = alive[j];
                let v = self.element_value(s as usize, p, at, e);
                if v < least {
                    least = v;
                    kept = 0;
                }
                if v == least {
                    alive[kept] = s;
                    kept += 1;
                }
            }
            count = kept;
            self.pack::<RADIX>(key, e, least);
            at += 1;
        }
        if at < range.end {
            let s = alive[0] as usize;
            let n = self.elements.len();
            let steps = &self.steps[s * n..][..range.end];
            let relabel = &self.relabel[s * self.contents..][..self.contents];
            for (e, step) in self.elements[at..range.end].iter().zip(&steps[at..]) {
                let c = relabel[p[step.read as usize] as usize];
                self.pack::<RADIX>(key, e, turned(c, step.turn, step.orientations));
            }
        }
        count
    }

    /// The contents of a class key's representative.
    fn contents_of(&self, key: K) -> Contents {
        let mut p = self.identity;
        let mut twists = [0u16; MAX_CLASS_SLOTS];
        let cursor = key.end(self.fields(), self.stabiliser_bits);
        let cursor = match self.packing {
            Packing::Fields => self.read_fields(cursor, &mut p, &mut twists),
            Packing::Radix => self.read_digits(cursor, &mut p, &mut twists),
        };
        if let Some(lead) = &self.lead {
            let (rank, _) = K::read_back(cursor, self.fields()[0]);
            let mut cells = [0u32; MAX_CLASS_SLOTS];
            let cells = &mut cells[..lead.slots.len()];
            placement_cells(rank, lead.slots.len() as u64, cells);
            for (&g, &c) in lead.slots.iter().zip(cells.iter()) {
                let g = g as usize;
                p[g] = (lead.slots[c as usize] as u16) << TWIST_BITS | twists[g];
            }
        }
        p
    }

    /// Reads the elements written field by field back from `cursor` (at their end) into the
    /// slots of `p`, the lead orbit's twists into `twists`; the cursor before them.
    fn read_fields(
        &self,
        mut cursor: K::Cursor,
        p: &mut Contents,
        twists: &mut Contents,
    ) -> K::Cursor {
        for e in self.elements.iter().rev() {
            let g = e.slot as usize;
            let (field, before) = K::read_back(cursor, e.bits());
            cursor = before;
            let twist = (field & ((1 << e.twist_bits) - 1)) as u16;
            match e.twist_only {
                true => twists[g] = twist,
                false => {
                    let piece = (field >> e.twist_bits) as u16;
                    let source = self.first_of_number[self.start[g] as usize + piece as usize];
                    p[g] = (source as u16) << TWIST_BITS | twist;
                }
            }
        }
        cursor
    }

    /// As [`Self::read_fields`], for elements written in mixed radix: the chunks read back
    /// into digits, then the digits read forwards (a rank among the pieces not yet placed
    /// names its piece only once those before are known).
    fn read_digits(
        &self,
        mut cursor: K::Cursor,
        p: &mut Contents,
        twists: &mut Contents,
    ) -> K::Cursor {
        let n = self.elements.len();
        let mut digits = [0u64; MAX_CLASS_SLOTS];
        let mut chunk = 0u64;
        for (e, d) in self.elements.iter().zip(&mut digits[..n]).rev() {
            if let Some(bits) = e.closes {
                (chunk, cursor) = K::read_back(cursor, bits);
            }
            let radix = e.radix as u64;
            *d = chunk % radix;
            chunk /= radix;
        }
        let mut free = self.free;
        for (e, &d) in self.elements.iter().zip(&digits[..n]) {
            let g = e.slot as usize;
            let orientations = e.orientations as u64;
            let (piece, twist) = (d / orientations, (d % orientations) as u16);
            if e.twist_only {
                twists[g] = twist;
                continue;
            }
            let source = match e.sources {
                0 => self.first_of_number[self.start[g] as usize + piece as usize] as u32,
                sources => {
                    let mut left = free & sources;
                    for _ in 0..piece {
                        left &= left - 1;
                    }
                    let source = left.trailing_zeros();
                    free &= !(1u64 << source);
                    source
                }
            };
            p[g] = (source as u16) << TWIST_BITS | twist;
        }
        cursor
    }
}

/// The orbit whose arrangement leads class keys: of those with distinct pieces whose slots
/// that moves reach are all moved to other slots by some move (an orbit only twisted in
/// place, as the pyraminx's tips, has one arrangement, which tells the symmetries nothing
/// apart), at least [`MIN_LEAD_SLOTS`] of them, the one with the fewest arrangements, where
/// they and its table of conjugates fit [`MAX_LEAD_ARRANGEMENTS`] and [`MAX_LEAD_ENTRIES`].
fn lead_orbit(
    orbits: &[crate::OrbitDef],
    distinct: &[bool],
    moved: &[bool],
    permuted: &[bool],
    order: usize,
) -> Option<usize> {
    let mut first = 0;
    let mut best: Option<(usize, usize)> = None;
    for (o, def) in orbits.iter().enumerate() {
        let range = first..first + def.pieces;
        first += def.pieces;
        let n = moved[range.clone()].iter().filter(|&&m| m).count();
        let all_permuted = range.clone().all(|g| !moved[g] || permuted[g]);
        let fits = all_permuted
            && distinct[o]
            && n >= MIN_LEAD_SLOTS
            && factorial(n) <= MAX_LEAD_ARRANGEMENTS
            && factorial(n).saturating_mul(order) <= MAX_LEAD_ENTRIES;
        if fits && best.is_none_or(|(_, size)| factorial(n) < size) {
            best = Some((o, factorial(n)));
        }
    }
    best.map(|(o, _)| o)
}

/// Sets each element's radix where its orbit's pieces are distinct (the pieces not yet placed
/// at it, times the orientations) and which elements end a chunk of mixed-radix digits (each
/// chunk's values below 2^64); the chunks' widths, in order.
fn radix_chunks(elements: &mut [Element]) -> Vec<u32> {
    for i in 0..elements.len() {
        let sources = elements[i].sources;
        if sources != 0 {
            let left = elements[i..]
                .iter()
                .filter(|e| e.sources == sources)
                .count();
            elements[i].radix = left as u32 * elements[i].orientations as u32;
        }
    }
    let width = |product: u128| u128::BITS - (product - 1).leading_zeros();
    let (mut widths, mut product) = (Vec::new(), 1u128);
    for i in 0..elements.len() {
        let radix = elements[i].radix as u128;
        if product * radix > 1 << u64::BITS {
            elements[i - 1].closes = Some(width(product));
            widths.push(width(product));
            product = 1;
        }
        product *= radix;
    }
    if let Some(last) = elements.last_mut() {
        last.closes = Some(width(product));
        widths.push(width(product));
    }
    widths
}

/// A slot's `content` with `twist` more added to its twist, modulo `orientations` (the twist
/// and the addend both below it).
#[inline]
fn turned(content: u16, twist: u8, orientations: u8) -> u16 {
    let k = orientations as u16;
    let sum = (content & TWIST_MASK) + twist as u16;
    (content & !TWIST_MASK) | if sum >= k { sum - k } else { sum }
}

/// Bits that hold every number up to `largest`.
fn bits_for(largest: usize) -> u32 {
    usize::BITS - largest.leading_zeros()
}

/// `n!` (saturating).
fn factorial(n: usize) -> usize {
    (1..=n).fold(1usize, |f, k| f.saturating_mul(k))
}

impl<K: ClassKey> StateSpace for ClassSpace<K> {
    type State = K;
    const HAS_CLASSES: bool = true;

    fn goal_state(&self) -> K {
        self.goal
    }

    fn move_count(&self) -> usize {
        self.moves.len()
    }

    /// Every move gives a neighbour: counted without making one (engines size their buffers
    /// by it, a state at a time).
    fn degree(&self, _: K) -> usize {
        self.moves.len()
    }

    fn move_name(&self, m: MoveIdx) -> String {
        self.moves[m as usize].name.clone()
    }

    fn inverse_move(&self, m: MoveIdx) -> MoveIdx {
        self.inverse[m as usize]
    }

    /// Move `m` reports the class of the representative moved by `m`.
    fn for_each_neighbour(&self, key: K, mut f: impl FnMut(MoveIdx, K)) {
        let p = self.contents_of(key);
        for (m, changes) in self.changes.iter().enumerate() {
            let mut child = p;
            for c in changes {
                let k = self.orientations[c.slot as usize];
                child[c.slot as usize] = turned(p[c.from as usize], c.twist, k);
            }
            f(m as MoveIdx, self.class_key(&child));
        }
    }

    fn class_size(&self, key: K) -> u64 {
        self.order as u64 / key.stabiliser(self.stabiliser_bits) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OrbitSpace;
    use godsearch_core::RankedSpace;
    use std::collections::HashMap;

    use crate::shipped_for_tests as shipped;

    /// Positions at each distance, by a plain breadth-first search over states, summing class
    /// sizes.
    fn levels<P: StateSpace>(space: &P, depth: usize) -> Vec<u64> {
        let mut seen = HashMap::new();
        seen.insert(space.goal_state(), 0usize);
        let mut frontier = vec![space.goal_state()];
        let mut counts = vec![space.class_size(space.goal_state())];
        for d in 1..=depth {
            let mut next = Vec::new();
            for &s in &frontier {
                space.for_each_neighbour(s, |_, n| {
                    if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(n) {
                        e.insert(d);
                        next.push(n);
                    }
                });
            }
            if next.is_empty() {
                break;
            }
            counts.push(next.iter().map(|&s| space.class_size(s)).sum());
            frontier = next;
        }
        counts
    }

    fn same_counts(name: &str, generators: &[&str], quarter: bool, depth: usize) {
        let definition = shipped(name);
        let generators: Vec<String> = generators.iter().map(|g| g.to_string()).collect();
        let classes = ClassSpace::<u128>::new(&definition, &generators, quarter)
            .expect("moves")
            .unwrap_or_else(|| panic!("{name}: no symmetries"));
        let plain = OrbitSpace::<u128>::new(&definition, &generators, quarter).expect("moves");
        assert!(plain.state_count() > 0);
        let expected = levels(&plain, depth);
        assert_eq!(levels(&classes, depth), expected, "{name} {generators:?}");
        // Keys of whole slots and of 256 bits (for puzzles past 128 bits) make the same
        // classes.
        let wide = ClassSpace::<Slots>::new(&definition, &generators, quarter)
            .expect("moves")
            .expect("symmetries");
        assert_eq!(levels(&wide, depth), expected, "{name} {generators:?}");
        let wide = wide.with_key::<Key256>().expect("fits 256 bits");
        assert_eq!(levels(&wide, depth), expected, "{name} {generators:?}");
        // So do keys in mixed radix (a lead orbit's twists, orbits only twisted in place).
        assert_eq!(levels(&classes.in_radix(), depth), expected, "{name}");
    }

    #[test]
    fn classes_count_the_positions_exactly() {
        // The 2x2x2 (its 6 symmetries) near solved, both metrics (complete in the app tests).
        same_counts("2x2x2.kpuzzle.json", &["U", "F", "R"], false, 7);
        same_counts("2x2x2.kpuzzle.json", &["U", "F", "R"], true, 8);
        // The 3x3x3 near solved (48 rotations and reflections), and <R, U> (4).
        same_counts("3x3x3.kpuzzle.json", &[], false, 4);
        same_counts("3x3x3.kpuzzle.json", &[], true, 5);
        same_counts("3x3x3.kpuzzle.json", &["R", "U"], false, 7);
        // Orbits that only twist in place (the pyraminx's tips), turns of 120 degrees, and
        // mirror images that turn corners the other way.
        same_counts("pyraminx.kpuzzle.json", &[], false, 5);
        same_counts("skewb.kpuzzle.json", &[], false, 5);
    }

    #[test]
    fn classes_of_patterns_with_alike_pieces_count_the_positions_exactly() {
        // The 4x4x4 (four centres of each colour) against its whole states.
        let definition = shipped("4x4x4.kpuzzle.json");
        let classes = ClassSpace::<Slots>::new(&definition, &[], false)
            .expect("moves")
            .expect("symmetries");
        let whole: crate::slots::SlotSpace =
            crate::slots::SlotSpace::new(&definition, &[], false).expect("moves");
        assert_eq!(levels(&classes, 4), levels(&whole, 4));
        assert_eq!(levels(&classes, 4), [1, 36, 1026, 28812, 806772]);
        // Its fields (the centres' six colours in 3 bits each) fit 256 bits, not 128.
        assert!(ClassSpace::<u128>::new(&definition, &[], false)
            .expect("moves")
            .is_none());
        let compact = classes.with_key::<Key256>().expect("fits 256 bits");
        assert_eq!(compact.packing, Packing::Fields);
        assert_eq!(levels(&compact, 4), [1, 36, 1026, 28812, 806772]);
        // Alike pieces in mixed radix are numbered by kind, as in fields.
        assert_eq!(levels(&compact.in_radix(), 3), [1, 36, 1026, 28812]);
        // The 2x2x2 over U, F, R with some corners made alike: its six symmetries (turns
        // about the corner those moves keep, reflections through it) act on the patterns
        // where they send each kind's slots to one kind's, turned alike. Slot 0 is the corner
        // kept, 7 the opposite one; the turns cycle 1, 2, 4 (untwisted in this file's
        // convention) and 3, 5, 6 (twisted alike), and one reflection swaps 1 with 4 and 3
        // with 6 untwisted.
        let generators: Vec<String> = ["U", "F", "R"].iter().map(|g| g.to_string()).collect();
        for (kinds, symmetries) in [([0, 1, 1, 3, 1, 3, 3, 7], 6), ([0, 1, 2, 3, 1, 5, 3, 7], 2)] {
            let mut alike = shipped("2x2x2.kpuzzle.json");
            alike.solved.orbits[0].pieces = kinds.to_vec();
            let classes = ClassSpace::<u128>::new(&alike, &generators, false)
                .expect("moves")
                .expect("symmetries");
            assert_eq!(classes.symmetry_count(), symmetries, "{kinds:?}");
            let plain = OrbitSpace::<u128>::new(&alike, &generators, false).expect("moves");
            assert_eq!(levels(&classes, 11), levels(&plain, 11), "{kinds:?}");
        }
        // Slots 3 and 7 alike: a reflection keeps both in place, but turns 3 and not 7, so it
        // does not act on the patterns (the kind's pieces would need two twists), and it is
        // the only symmetry that keeps the kind together.
        let mut frames = shipped("2x2x2.kpuzzle.json");
        frames.solved.orbits[0].pieces = vec![0, 1, 2, 3, 4, 5, 6, 3];
        let classes = ClassSpace::<u128>::new(&frames, &generators, false).expect("moves");
        assert!(classes.is_none());
    }

    #[test]
    fn keys_without_a_lead_read_their_first_element_off_its_table() {
        // The megaminx has no orbit to lead (20 corners, 30 edges): its first element is
        // tabled. Its classes count its whole states, and every key is the one comparing all
        // 120 symmetries at that element gives, near solved and along a long random walk
        // (where the first element's slot seldom holds its own piece).
        let definition = shipped("megaminx.kpuzzle.json");
        let space = || {
            ClassSpace::<Slots>::new(&definition, &[], false)
                .expect("moves")
                .expect("symmetries")
        };
        let tabled = space();
        assert!(tabled.lead.is_none() && tabled.first.is_some());
        let whole: crate::slots::SlotSpace =
            crate::slots::SlotSpace::new(&definition, &[], false).expect("moves");
        assert_eq!(levels(&tabled, 3), levels(&whole, 3));
        let mut compared = space();
        compared.first = None;
        random_walk(&tabled, 7, |p| {
            assert_eq!(tabled.class_key(p), compared.class_key(p));
        });
    }

    /// Each position along a walk of 2,000 random moves of `space` from solved (seeded by
    /// `seed`), given to `f`.
    fn random_walk<K: ClassKey>(space: &ClassSpace<K>, seed: u64, mut f: impl FnMut(&Contents)) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut p = space.identity;
        for _ in 0..2000 {
            let changes = &space.changes[rng.gen_range(0..space.changes.len())];
            let before = p;
            for c in changes {
                let k = space.orientations[c.slot as usize];
                p[c.slot as usize] = turned(before[c.from as usize], c.twist, k);
            }
            f(&p);
        }
    }

    #[test]
    fn keys_in_mixed_radix_fit_the_megaminx_in_256_bits_in_the_order_of_its_fields() {
        // The megaminx's fields (a piece's number and twist a slot) take 320 bits; in mixed
        // radix, with its pieces ranked among those not yet placed, 238 with the stabiliser.
        let definition = shipped("megaminx.kpuzzle.json");
        let whole = ClassSpace::<Slots>::new(&definition, &[], false)
            .expect("moves")
            .expect("symmetries");
        assert!(!Key256::fits(&whole.widths.fields, whole.stabiliser_bits));
        let radix = whole
            .clone()
            .with_key::<Key256>()
            .expect("fits in mixed radix");
        assert_eq!(radix.packing, Packing::Radix);
        let bits: u32 = radix.fields().iter().sum::<u32>() + radix.stabiliser_bits;
        assert_eq!(bits, 238);
        assert_eq!(levels(&radix, 3), levels(&whole, 3));
        // Whole positions as classes of one, in the same packing: the levels of whole states.
        let one = ClassSpace::<Key256>::whole(&definition, &[], false)
            .expect("moves")
            .expect("fits in mixed radix");
        assert_eq!((one.symmetry_count(), one.packing), (1, Packing::Radix));
        let slots: crate::slots::SlotSpace =
            crate::slots::SlotSpace::new(&definition, &[], false).expect("moves");
        assert_eq!(levels(&one, 3), levels(&slots, 3));
        // Along a random walk, far from solved: each key reads back to a member of its class,
        // and keys compare as the whole states' keys do (equal where they are, so no two
        // classes share a key).
        let mut keys = Vec::new();
        random_walk(&whole, 11, |p| {
            let key = radix.class_key(p);
            assert_eq!(radix.class_key(&radix.contents_of(key)), key);
            keys.push((whole.class_key(p), key));
        });
        for pair in keys.windows(2) {
            let ((a, x), (b, y)) = (pair[0], pair[1]);
            assert_eq!(a.cmp(&b), x.cmp(&y));
        }
    }

    /// Writes fields of `widths` into a `K` of `W` words and reads them back; checks that the
    /// key is the integer its words make, most significant first (the first field its top
    /// bits, so integers order as the fields do: the order of the disk engine's key ranges
    /// and gaps), and that a larger earlier field orders a key first, whatever follows.
    fn wide_key_round_trip<K: ClassKey + WordKey<W>, const W: usize>(widths: &[u32]) {
        let values: Vec<u64> = widths
            .iter()
            .enumerate()
            .map(|(i, &b)| match b {
                0 => 0,
                _ => (0x9e37_79b9_7f4a_7c15u64.rotate_left(i as u32 * 7)) >> (64 - b),
            })
            .collect();
        let write = |values: &[u64]| {
            let mut cursor = K::start();
            for (&v, &b) in values.iter().zip(widths) {
                K::write(&mut cursor, b, v);
            }
            K::finish(cursor, 6, 37)
        };
        let key = write(&values);
        assert_eq!(key.stabiliser(6), 37);
        let mut cursor = key.end(widths, 6);
        for (&v, &b) in values.iter().zip(widths).rev() {
            let (read, before) = K::read_back(cursor, b);
            assert_eq!(read, v);
            cursor = before;
        }
        assert_eq!(K::of_words(key.words()), key);
        assert_eq!(key.words()[0] >> (64 - widths[0]), values[0]);
        let mut larger = values.clone();
        larger[2] += 1;
        larger[4] = 0;
        assert!(write(&larger) > key);
        assert!(write(&larger).words() > key.words());
    }

    #[test]
    fn wide_keys_read_back_what_was_written_and_order_by_their_fields() {
        // Fields that cross the words' edges, a field of none, and a full 64-bit one.
        let widths = [16u32, 2, 50, 0, 64, 33, 7, 5];
        wide_key_round_trip::<Key256, 4>(&widths);
        assert!(Key256::fits(&widths, 6) && !Key256::fits(&[64, 64, 64, 64], 1));
        let key: Key256 = {
            let mut cursor = Key256::start();
            Key256::write(&mut cursor, 16, 0xbeef);
            Key256::finish(cursor, 6, 37)
        };
        assert_eq!((key >> (256u32 - 16)).as_u64(), 0xbeef);
        // Past 256 bits, in eight words.
        let wider = [&widths[..], &widths, &[64, 1, 63, 7, 5]].concat();
        wide_key_round_trip::<Key512, 8>(&wider);
        assert!(Key512::fits(&wider, 6) && !Key256::fits(&wider, 6));
        assert!(!Key512::fits(&[64; 8], 1));
    }

    #[test]
    fn a_class_is_keyed_alike_from_every_member() {
        let definition = shipped("3x3x3.kpuzzle.json");
        let space = ClassSpace::<u128>::new(&definition, &[], false)
            .unwrap()
            .unwrap();
        assert_eq!(space.symmetry_count(), 48);
        // Walk a few moves; each state's neighbours' keys are representatives: keying one
        // again gives itself.
        let mut state = space.goal_state();
        for step in 0..12 {
            let mut next = None;
            space.for_each_neighbour(state, |m, n| {
                if m as usize == (step * 7) % space.move_count() {
                    next = Some(n);
                }
            });
            state = next.unwrap();
            assert_eq!(space.class_key(&space.contents_of(state)), state);
        }
        assert_eq!(space.class_size(space.goal_state()), 1);
    }
}
