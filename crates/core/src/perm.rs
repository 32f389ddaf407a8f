//! Permutations of at most [`MAX_RANKED`] items: composition, parity, and dense ranking of a
//! parity class.
//!
//! Ranks use the Lehmer code (lexicographic order) with a bitmask and `popcount`, so ranking and
//! unranking cost O(n) word operations and never allocate.

use crate::rank::RankInt;
use thiserror::Error;

/// The most items a ranked permutation may have: 34!/2 still fits in 128 bits, 35!/2 does not.
pub const MAX_RANKED: usize = 34;

/// Why a permutation space cannot be ranked with the requested integer type.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum RankError {
    /// Fewer than two items (there is no half to rank) or more than [`MAX_RANKED`].
    #[error("cannot rank permutations of {0} items (supported: 2..={MAX_RANKED})")]
    Size(usize),
    /// `n!/2` does not fit in the chosen rank type.
    #[error("{n}!/2 positions do not fit in a {bits}-bit rank")]
    TooWide {
        /// Number of items.
        n: usize,
        /// Width of the rank type in bits.
        bits: usize,
    },
}

/// `n!` exactly, or `None` when it exceeds `u128` (n > 34).
pub fn factorial(n: usize) -> Option<u128> {
    (1..=n as u128).try_fold(1u128, |acc, k| acc.checked_mul(k))
}

/// `true` when `p` holds each of `0..p.len()` exactly once.
pub fn is_permutation(p: &[u8]) -> bool {
    let mut seen = vec![false; p.len()];
    p.iter().all(|&v| {
        let v = v as usize;
        v < seen.len() && !std::mem::replace(&mut seen[v], true)
    })
}

/// Applies `a` first, then `b`: the result maps `i` to `b[a[i]]` (see the crate docs).
pub fn compose(a: &[u8], b: &[u8]) -> Vec<u8> {
    debug_assert_eq!(a.len(), b.len());
    a.iter().map(|&x| b[x as usize]).collect()
}

/// The inverse permutation: `compose(p, &inverse(p))` is the identity.
pub fn inverse(p: &[u8]) -> Vec<u8> {
    let mut inv = vec![0u8; p.len()];
    for (i, &v) in p.iter().enumerate() {
        inv[v as usize] = i as u8;
    }
    inv
}

/// `true` when `p` has an odd number of inversions (is an odd permutation).
///
/// Works on any sequence of distinct values, not only `0..n`.
pub fn is_odd(p: &[u8]) -> bool {
    let mut odd = false;
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            odd ^= p[i] > p[j];
        }
    }
    odd
}

/// The index of a placement of `k` distinct items on `n` cells (cells below 64): the cells in
/// order as a mixed-radix number `c'_0 * (n-1)...(n-k+1) + ... + c'_{k-1}`, where `c'_i` counts
/// the cells below `c_i` not used before it. A bijection onto `0..n!/(n-k)!`; pattern databases
/// and subgoal stages index their tables with it.
#[inline]
pub fn placement_index(cells: impl IntoIterator<Item = u32>, n: u64) -> u64 {
    let mut used = 0u64;
    let mut index = 0u64;
    for (i, c) in cells.into_iter().enumerate() {
        let below = used & ((1u64 << c) - 1);
        index = index * (n - i as u64) + (c as u64 - below.count_ones() as u64);
        used |= 1u64 << c;
    }
    index
}

/// The cells of the placement with index `index` of `cells.len()` items on `n` cells (`n` at
/// most 64): the inverse of [`placement_index`].
#[inline]
pub fn placement_cells(mut index: u64, n: u64, cells: &mut [u32]) {
    let k = cells.len();
    // Digits from the last (radix n-k+1) to the first (radix n).
    for (i, cell) in cells.iter_mut().enumerate().rev() {
        let radix = n - i as u64;
        *cell = (index % radix) as u32;
        index /= radix;
    }
    let mut used = 0u64;
    for cell in cells.iter_mut().take(k) {
        // The digit counts the unused cells below this one: take the digit-th unused cell.
        let mut free = !used;
        for _ in 0..*cell {
            free &= free - 1;
        }
        *cell = free.trailing_zeros();
        used |= 1u64 << *cell;
    }
}

/// Dense ranking of one parity class of the permutations of `n` items onto `0..n!/2`.
///
/// Built once per space (it holds the mixed-radix weights `(n-1-i)!/2`); [`rank`](Self::rank)
/// and [`unrank`](Self::unrank) are exact inverses on each class.
///
/// ```
/// use godsearch_core::perm::{is_odd, HalfRanker};
/// let ranker = HalfRanker::<u64>::new(4).unwrap();
/// assert_eq!(ranker.count(), 12); // 4!/2 even permutations, and 12 odd ones
/// let mut p = [0u8; 4];
/// ranker.unrank(7, true, &mut p);
/// assert!(is_odd(&p));
/// assert_eq!(ranker.rank(&p), 7);
/// ```
#[derive(Debug, Clone)]
pub struct HalfRanker<R: RankInt> {
    n: usize,
    weights: Vec<R>,
    divisors: Vec<R::Divisor>,
    count: R,
}

impl<R: RankInt> HalfRanker<R> {
    /// A ranker for permutations of `n` items, or an error when `n!/2` does not fit in `R`.
    pub fn new(n: usize) -> Result<Self, RankError> {
        if !(2..=MAX_RANKED).contains(&n) {
            return Err(RankError::Size(n));
        }
        let too_wide = RankError::TooWide {
            n,
            bits: R::BYTES * 8,
        };
        let count = R::from_u128(factorial(n).ok_or(too_wide.clone())? / 2).ok_or(too_wide)?;
        let weights: Vec<R> = (0..n.saturating_sub(2))
            .map(|i| {
                let w = factorial(n - 1 - i).expect("smaller than n!") / 2;
                R::from_u128(w).expect("smaller than n!/2")
            })
            .collect();
        let divisors = weights.iter().map(|&w| R::divisor(w)).collect();
        Ok(Self {
            n,
            weights,
            divisors,
            count,
        })
    }

    /// Number of items in each permutation.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Always `false`: a ranker has at least two items.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// `n!/2`, the number of permutations in each parity class.
    pub fn count(&self) -> R {
        self.count
    }

    /// The rank of `p` within its parity class, in `0..n!/2`.
    ///
    /// `p` must be a permutation of `0..n`; only its first `n - 2` items are read.
    #[inline]
    pub fn rank(&self, p: &[u8]) -> R {
        let mut used = 0u64;
        let mut acc = R::default();
        for (&v, &w) in p.iter().zip(&self.weights) {
            let below = (1u64 << v) - 1;
            let smaller_unused = v as u32 - (used & below).count_ones();
            acc = acc + R::from_u64(smaller_unused as u64) * w;
            used |= 1u64 << v;
        }
        acc
    }

    /// Writes into `out[..n]` the permutation of parity `odd` whose rank is `rank`.
    ///
    /// `rank` must be below [`count`](Self::count).
    #[inline]
    pub fn unrank(&self, rank: R, odd: bool, out: &mut [u8]) {
        if self.n <= NIBBLE_LIST_MAX {
            self.unrank_nibbles(rank, odd, out)
        } else {
            self.unrank_bitmask(rank, odd, out)
        }
    }

    /// Unranking with the unused items kept in order in a `u64`, 4 bits each: taking the
    /// `d`-th one is a shift and a mask, with no data-dependent loop (the bitmask version's
    /// inner loop mispredicts once per item and took twice as long on the 3x4 board).
    #[inline]
    fn unrank_nibbles(&self, rank: R, odd: bool, out: &mut [u8]) {
        let mut list: u64 = NIBBLE_IDENTITY;
        let mut rest = rank;
        let mut digit_parity = 0usize;
        for (slot, w) in out.iter_mut().zip(&self.divisors) {
            let (digit, r) = rest.div_rem_by(w);
            rest = r;
            let shift = 4 * digit.to_usize() as u32;
            digit_parity ^= digit.to_usize();
            *slot = ((list >> shift) & 0xF) as u8;
            let below = list & ((1u64 << shift) - 1);
            let above = list.checked_shr(shift + 4).unwrap_or(0) << shift;
            list = below | above;
        }
        let (lo, hi) = ((list & 0xF) as u8, ((list >> 4) & 0xF) as u8);
        self.place_last_two(lo, hi, digit_parity & 1 == 1, odd, out);
    }

    #[inline]
    fn unrank_bitmask(&self, rank: R, odd: bool, out: &mut [u8]) {
        let mut free: u64 = (1u64 << self.n) - 1;
        let mut rest = rank;
        let mut digit_parity = false;
        for (slot, w) in out.iter_mut().zip(&self.divisors) {
            let (digit, r) = rest.div_rem_by(w);
            rest = r;
            let digit = digit.to_usize();
            digit_parity ^= digit & 1 == 1;
            let mut m = free;
            for _ in 0..digit {
                m &= m - 1;
            }
            let v = m.trailing_zeros();
            *slot = v as u8;
            free &= !(1u64 << v);
        }
        let lo = free.trailing_zeros() as u8;
        let hi = (63 - free.leading_zeros()) as u8;
        self.place_last_two(lo, hi, digit_parity, odd, out);
    }

    /// Puts the two remaining items `lo < hi` last, in the order that gives parity `odd`.
    #[inline]
    fn place_last_two(&self, lo: u8, hi: u8, digit_parity: bool, odd: bool, out: &mut [u8]) {
        // Placing the larger of the last two first adds one inversion.
        let (a, b) = if digit_parity == odd {
            (lo, hi)
        } else {
            (hi, lo)
        };
        out[self.n - 2] = a;
        out[self.n - 1] = b;
    }
}

/// Permutations of at most this many items unrank through a 4-bit list in one `u64`.
const NIBBLE_LIST_MAX: usize = 16;
/// The list `0, 1, ..., 15`, 4 bits each, item 0 lowest.
const NIBBLE_IDENTITY: u64 = 0xFEDC_BA98_7654_3210;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_cells_inverts_placement_index() {
        let n = 7u64;
        let count = 7 * 6 * 5;
        let mut seen = vec![false; count];
        let mut cells = [0u32; 3];
        for index in 0..count as u64 {
            placement_cells(index, n, &mut cells);
            assert!(cells.iter().all(|&c| (c as u64) < n));
            assert_eq!(placement_index(cells, n), index);
            seen[index as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        let mut wide = [0u32; 2];
        placement_cells(placement_index([63, 0], 64), 64, &mut wide);
        assert_eq!(wide, [63, 0]);
    }

    #[test]
    fn compose_applies_left_first() {
        // a sends 0->1, b sends 1->2: a then b sends 0->2.
        let a = [1u8, 0, 2];
        let b = [0u8, 2, 1];
        assert_eq!(compose(&a, &b), vec![2, 0, 1]);
        assert_eq!(compose(&a, &inverse(&a)), vec![0, 1, 2]);
    }

    #[test]
    fn parity_counts_inversions() {
        assert!(!is_odd(&[0, 1, 2, 3]));
        assert!(is_odd(&[1, 0, 2, 3]));
        assert!(!is_odd(&[1, 2, 0, 3]));
        assert!(is_odd(&[9, 4]));
    }

    #[test]
    fn is_permutation_rejects_repeats_and_gaps() {
        assert!(is_permutation(&[2, 0, 1]));
        assert!(!is_permutation(&[2, 2, 1]));
        assert!(!is_permutation(&[0, 3, 1]));
    }

    fn check_bijection(n: usize) {
        let ranker = HalfRanker::<u64>::new(n).unwrap();
        let count = ranker.count();
        assert_eq!(count as u128, factorial(n).unwrap() / 2);
        for odd in [false, true] {
            let mut seen = vec![false; count as usize];
            let mut p = vec![0u8; n];
            for r in 0..count {
                ranker.unrank(r, odd, &mut p);
                assert!(is_permutation(&p));
                assert_eq!(is_odd(&p), odd, "parity of {p:?}");
                let back = ranker.rank(&p);
                assert_eq!(back, r);
                assert!(!std::mem::replace(&mut seen[r as usize], true));
            }
        }
    }

    #[test]
    fn half_rank_is_a_bijection_on_each_parity_class() {
        for n in 2..=8 {
            check_bijection(n);
        }
    }

    #[test]
    fn wide_ranks_round_trip() {
        let ranker = HalfRanker::<u128>::new(MAX_RANKED).unwrap();
        let mut p = vec![0u8; MAX_RANKED];
        for r in [0, 1, 12345678901234567890123, ranker.count() - 1] {
            for odd in [false, true] {
                ranker.unrank(r, odd, &mut p);
                assert!(is_permutation(&p));
                assert_eq!(is_odd(&p), odd);
                assert_eq!(ranker.rank(&p), r);
            }
        }
        assert!(matches!(
            HalfRanker::<u64>::new(21),
            Err(RankError::TooWide { .. })
        ));
        assert!(HalfRanker::<u64>::new(20).is_ok());
        assert!(matches!(
            HalfRanker::<u128>::new(35),
            Err(RankError::Size(35))
        ));
    }
}
