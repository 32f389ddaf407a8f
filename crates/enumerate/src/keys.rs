//! States that are unsigned integers: what the frontier engines sort and the disk engine writes
//! as key gaps.

use rayon::slice::ParallelSliceMut as _;
use voracious_radix_sort::RadixSort as _;

/// A state that is an unsigned integer, so that levels can be written as key gaps and sorted
/// by radix.
pub trait KeyState: Copy + Ord + Send + Sync + 'static {
    /// Bits of the integer type.
    const BITS: u32;
    /// The state as an integer; the order of keys is the order of states.
    fn to_key(self) -> u128;
    /// The state of a key, `None` when the key does not fit the state type.
    fn from_key(key: u128) -> Option<Self>;
    /// Sorts `states` in place on every thread of the pool. Keys of up to 64 bits get a
    /// parallel in-place radix sort, 2.2x as fast as rayon's comparison sort on 10^8 15-puzzle
    /// ranks with 2 threads (0.66-0.76 against 1.44-1.69 s) at the same memory; 128-bit keys
    /// (the 3x3x3's classes, whose minimal representatives share long prefixes) keep rayon's
    /// sort, since the radix sort made `bfs 3x3x3 --max-depth 7` 5-7% slower.
    fn sort_all(states: &mut [Self]);
    /// Sorts `states` in place on every thread of the pool by comparison, with no memory
    /// beside them whatever runs they hold (the radix sort merges presorted runs out of place).
    fn sort_all_in_place(states: &mut [Self]) {
        states.par_sort_unstable();
    }
}

macro_rules! key_state {
    ($($t:ty => $how:ident),*) => {$(
        impl KeyState for $t {
            const BITS: u32 = <$t>::BITS;
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
        $states.voracious_mt_sort(rayon::current_num_threads())
    };
    (@sort comparison, $states:ident) => {
        $states.par_sort_unstable()
    };
}
key_state!(u32 => radix, u64 => radix, u128 => comparison);
