//! States that are unsigned integers: what the frontier engines sort and the disk engine writes
//! as key gaps.

use rayon::prelude::*;
use std::fmt::{Debug, Display};
use std::ops::{BitAnd, BitOr, Shl, Shr, Sub};
use std::str::FromStr;
use voracious_radix_sort::RadixSort as _;

pub use bnum::types::U512;
pub use ethnum::U256;

/// An unsigned integer that keys are written in: `u128` for states of up to 128 bits, [`U256`]
/// for wider ones (the 4x4x4's class keys), [`U512`] past those (the 5x5x5's); `u64` decodes
/// short keys fast. Every operation is the integer's own, exact (a subtraction is only taken
/// of a larger key from a smaller).
pub trait KeyInt:
    Copy
    + Ord
    + Default
    + Debug
    + Display
    + FromStr
    + Send
    + Sync
    + 'static
    + From<u8>
    + From<u64>
    + Sub<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
{
    /// Bits of the integer.
    const BITS: u32;
    /// The largest value.
    const MAX: Self;
    /// The integer's bytes, least significant first.
    type Bytes: AsRef<[u8]>;
    /// The sum, `None` on overflow.
    fn checked_add(self, other: Self) -> Option<Self>;
    /// Bits set.
    fn count_ones(self) -> u32;
    /// The lowest 8 bits.
    fn low_byte(self) -> u8;
    /// The bytes, least significant first (what a distributed run's owner hash reads).
    fn to_le_bytes(self) -> Self::Bytes;
}

macro_rules! key_int {
    ($($t:ty),*) => {$(
        impl KeyInt for $t {
            const BITS: u32 = <$t>::BITS;
            const MAX: Self = <$t>::MAX;
            type Bytes = [u8; std::mem::size_of::<$t>()];
            #[inline]
            fn checked_add(self, other: Self) -> Option<Self> {
                <$t>::checked_add(self, other)
            }
            #[inline]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline]
            fn low_byte(self) -> u8 {
                <$t>::to_le_bytes(self)[0]
            }
            #[inline]
            fn to_le_bytes(self) -> Self::Bytes {
                <$t>::to_le_bytes(self)
            }
        }
    )*};
}
key_int!(u64, u128, U256);

impl KeyInt for U512 {
    const BITS: u32 = U512::BITS;
    const MAX: Self = U512::MAX;
    type Bytes = [u8; 64];
    #[inline]
    fn checked_add(self, other: Self) -> Option<Self> {
        U512::checked_add(self, other)
    }
    #[inline]
    fn count_ones(self) -> u32 {
        U512::count_ones(self)
    }
    #[inline]
    fn low_byte(self) -> u8 {
        self.digits()[0] as u8
    }
    fn to_le_bytes(self) -> [u8; 64] {
        let mut bytes = [0; 64];
        for (chunk, digit) in bytes.chunks_exact_mut(8).zip(self.digits()) {
            chunk.copy_from_slice(&digit.to_le_bytes());
        }
        bytes
    }
}

/// A state that is an unsigned integer, so that levels can be written as key gaps and sorted
/// by radix.
pub trait KeyState: Copy + Ord + Send + Sync + 'static {
    /// Bits of the integer type.
    const BITS: u32;
    /// The integer its keys are in.
    type Key: KeyInt;
    /// The state as an integer; the order of keys is the order of states.
    fn to_key(self) -> Self::Key;
    /// The state of a key, `None` when the key does not fit the state type.
    fn from_key(key: Self::Key) -> Option<Self>;
    /// Sorts `states` in place on every thread of the pool, with no memory beside them. Keys
    /// of up to 64 bits get a parallel in-place radix sort, 2.2x as fast as rayon's comparison
    /// sort on 10^8 15-puzzle ranks with 2 threads (0.66-0.76 against 1.44-1.69 s), unless the
    /// list holds a long sorted run ([`has_long_run`]): the radix sort merges such runs out of
    /// place, through a copy of up to half the list, where the comparison sort takes as long
    /// (5.4 s each on 2*10^8 keys half sorted) and copies nothing. 128-bit keys (the 3x3x3's
    /// classes, whose minimal representatives share long prefixes) keep rayon's sort, since
    /// the radix sort made `bfs 3x3x3 --max-depth 7` 5-7% slower.
    fn sort_all(states: &mut [Self]);
}

/// Whether `states` holds a monotone run (rising or falling) long enough that the radix sort
/// would merge it with the rest out of place: its presorted-run pass (verge sort) takes runs of
/// at least `n / log2(n)` of `n` keys. Answers `true` for runs of half that, split across the
/// threads' chunks, so it errs on the side of the sort that copies nothing. One read of the list.
pub fn has_long_run<S: KeyState>(states: &[S]) -> bool {
    let n = states.len();
    if n < 2 {
        return false;
    }
    let merged_run = (n as f64 / (n as f64).log2()) as usize;
    let threshold = (merged_run / 2).max(2);
    let chunk = n.div_ceil(rayon::current_num_threads()).max(threshold);
    states
        .par_chunks(chunk)
        .any(|part| longest_monotone_run(part) >= threshold)
}

/// The length of the longest rising or falling run (repeats count in either) in `states`.
fn longest_monotone_run<S: Ord>(states: &[S]) -> usize {
    let (mut longest, mut rising, mut falling) = (states.len().min(1), 1, 1);
    for pair in states.windows(2) {
        rising = if pair[0] <= pair[1] { rising + 1 } else { 1 };
        falling = if pair[0] >= pair[1] { falling + 1 } else { 1 };
        longest = longest.max(rising).max(falling);
    }
    longest
}

macro_rules! key_state {
    ($($t:ty => $how:ident),*) => {$(
        impl KeyState for $t {
            const BITS: u32 = <$t>::BITS;
            type Key = u128;
            #[inline]
            fn to_key(self) -> u128 {
                self as u128
            }
            #[inline]
            fn from_key(key: u128) -> Option<Self> {
                <$t>::try_from(key).ok()
            }
            fn sort_all(states: &mut [Self]) {
                key_state!(@sort $how, states)
            }
        }
    )*};
    (@sort radix, $states:ident) => {
        match has_long_run($states) {
            true => $states.par_sort_unstable(),
            false => $states.voracious_mt_sort(rayon::current_num_threads()),
        }
    };
    (@sort comparison, $states:ident) => {
        $states.par_sort_unstable()
    };
}
key_state!(u32 => radix, u64 => radix, u128 => comparison);

/// States past 128 bits (class keys of the 4x4x4 in 256, of the 5x5x5 in 512) are their own
/// keys and keep rayon's sort, as 128-bit ones do.
macro_rules! wide_key_state {
    ($($t:ty),*) => {$(
        impl KeyState for $t {
            const BITS: u32 = <$t>::BITS;
            type Key = $t;
            #[inline]
            fn to_key(self) -> $t {
                self
            }
            #[inline]
            fn from_key(key: $t) -> Option<Self> {
                Some(key)
            }
            fn sort_all(states: &mut [Self]) {
                states.par_sort_unstable()
            }
        }
    )*};
}
wide_key_state!(U256, U512);

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn random(n: usize, seed: u64) -> Vec<u64> {
        let mut rng = StdRng::seed_from_u64(seed);
        (0..n).map(|_| rng.gen()).collect()
    }

    #[test]
    fn long_runs_are_found_rising_or_falling_and_short_ones_are_not() {
        let n = 1 << 20;
        assert!(!has_long_run(&random(n, 1)));
        let mut half_sorted = random(n, 2);
        half_sorted[..n / 2].sort_unstable();
        assert!(has_long_run(&half_sorted));
        let mut falling = random(n, 3);
        falling[n / 3..n / 3 + n / 8].sort_unstable_by(|a, b| b.cmp(a));
        assert!(has_long_run(&falling));
        // Sorted pieces of a thousand keys: far below n / log2(n) / 2.
        let mut pieces = random(n, 4);
        pieces.chunks_mut(1000).for_each(|c| c.sort_unstable());
        assert!(!has_long_run(&pieces));
        assert!(!has_long_run::<u64>(&[]) && !has_long_run(&[7u64]));
    }

    #[test]
    fn keys_with_and_without_long_runs_sort_alike() {
        let n = 3 << 20;
        let mut runs = random(n, 5);
        runs[..n / 2].sort_unstable();
        runs[n / 2..].sort_unstable_by(|a, b| b.cmp(a));
        for mut keys in [random(n, 6), runs] {
            let mut expected = keys.clone();
            expected.sort_unstable();
            u64::sort_all(&mut keys);
            assert_eq!(keys, expected);
        }
    }
}
