//! Integer types usable as perfect ranks.

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::ops::{Add, Div, Mul, Rem, Sub};

/// An unsigned integer wide enough to hold the perfect rank of a position.
///
/// Implemented for `u64` (spaces of up to 2^64 positions, e.g. every sliding board of at most
/// 20 cells) and `u128` (up to 2^128, e.g. the 24-puzzle). Engines are generic over it so that
/// small spaces pay for 8 bytes a rank, not 16.
pub trait RankInt:
    Copy
    + Ord
    + Eq
    + Hash
    + Debug
    + Display
    + Send
    + Sync
    + Default
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Rem<Output = Self>
{
    /// Bytes one rank takes in memory.
    const BYTES: usize;
    /// Converts from `u64` (always exact).
    fn from_u64(v: u64) -> Self;
    /// Widens to `u128` (always exact).
    fn to_u128(self) -> u128;
    /// Narrows from `u128`; `None` when the value does not fit.
    fn from_u128(v: u128) -> Option<Self>;
    /// `self * m + a`, or `None` on overflow.
    fn mul_add(self, m: Self, a: Self) -> Option<Self>;
    /// Quotient and remainder.
    fn div_rem(self, d: Self) -> (Self, Self);
    /// The value as `usize`; panics only if it does not fit, which callers rule out first.
    fn to_usize(self) -> usize;
    /// A divisor prepared for repeated division (multiply-and-shift instead of `div`).
    type Divisor: Copy + Debug + Send + Sync;
    /// Prepares `d` (non-zero) for [`div_rem_by`](Self::div_rem_by).
    fn divisor(d: Self) -> Self::Divisor;
    /// Quotient and remainder by a prepared divisor; equal to [`div_rem`](Self::div_rem).
    fn div_rem_by(self, d: &Self::Divisor) -> (Self, Self);
}

macro_rules! impl_rank_int {
    ($t:ty, $reduced:ty) => {
        impl RankInt for $t {
            type Divisor = $reduced;
            #[inline]
            fn divisor(d: Self) -> Self::Divisor {
                <$reduced>::new(d)
            }
            #[inline]
            fn div_rem_by(self, d: &Self::Divisor) -> (Self, Self) {
                <$reduced>::div_rem(self, *d)
            }
            const BYTES: usize = std::mem::size_of::<$t>();
            #[inline]
            fn from_u64(v: u64) -> Self {
                v as $t
            }
            #[inline]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline]
            fn from_u128(v: u128) -> Option<Self> {
                <$t>::try_from(v).ok()
            }
            #[inline]
            fn mul_add(self, m: Self, a: Self) -> Option<Self> {
                self.checked_mul(m)?.checked_add(a)
            }
            #[inline]
            fn div_rem(self, d: Self) -> (Self, Self) {
                (self / d, self % d)
            }
            #[inline]
            fn to_usize(self) -> usize {
                usize::try_from(self).expect("rank exceeds usize; checked by the caller")
            }
        }
    };
}

impl_rank_int!(u64, strength_reduce::StrengthReducedU64);
impl_rank_int!(u128, strength_reduce::StrengthReducedU128);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_are_exact() {
        assert_eq!(u64::from_u128(u64::MAX as u128), Some(u64::MAX));
        assert_eq!(u64::from_u128(u64::MAX as u128 + 1), None);
        assert_eq!(7u64.mul_add(6, 5), Some(47));
        assert_eq!(u64::MAX.mul_add(2, 0), None);
        assert_eq!(47u128.div_rem(6), (7, 5));
        for (n, d) in [
            (0u64, 1u64),
            (47, 6),
            (u64::MAX, 3),
            (19_958_399, 19_958_400),
        ] {
            assert_eq!(n.div_rem_by(&u64::divisor(d)), n.div_rem(d));
            let wide = n as u128 * 1_000_003;
            assert_eq!(
                wide.div_rem_by(&u128::divisor(d as u128)),
                wide.div_rem(d as u128)
            );
        }
    }
}
