//! States that are unsigned integers: what the frontier engines sort and the disk engine writes
//! as key gaps.

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
    /// Sorts `states` in place on every thread of the pool: a parallel in-place radix sort,
    /// 2.2x as fast as rayon's comparison sort on 10^8 15-puzzle ranks with 2 threads (0.66-0.76
    /// against 1.44-1.69 s) at the same memory.
    fn sort_all(states: &mut [Self]);
}

macro_rules! key_state {
    ($($t:ty),*) => {$(
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
                states.voracious_mt_sort(rayon::current_num_threads());
            }
        }
    )*};
}
key_state!(u32, u64, u128);
