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
        let mut digits = [0u8; MAX_RANKED];
        self.prefix_digits(rank, &mut digits);
        if self.n <= NIBBLE_LIST_MAX {
            self.unrank_nibbles(&digits, odd, out)
        } else {
            self.unrank_bitmask(&digits, odd, out)
        }
    }

    /// Writes into `digits[..n]` the Lehmer digits of the permutation of parity `odd` whose
    /// rank is `rank` (below [`count`](Self::count)): `digits[i]` counts the items after index
    /// `i` smaller than the item at `i`. They determine the permutation, and are what
    /// [`rank_after_move`](Self::rank_after_move) needs, without the items themselves.
    #[inline]
    pub fn lehmer_digits(&self, rank: R, odd: bool, digits: &mut [u8]) {
        self.prefix_digits(rank, digits);
        let n = self.n;
        let prefix_odd = digits[..n - 2].iter().fold(0u8, |acc, &d| acc ^ d) & 1 == 1;
        // The digits' sum counts the inversions, so the second last digit is the parity's.
        digits[n - 2] = u8::from(prefix_odd != odd);
        digits[n - 1] = 0;
    }

    /// The rank of the permutation with Lehmer `digits` (as [`lehmer_digits`] gives them) and
    /// rank `rank`, after its item at index `from` moves to index `to` (the items between
    /// shifting by one towards `from`), in time that grows with the distance moved, not with
    /// `n`. Exact: equal to [`rank`](Self::rank) of the moved permutation.
    ///
    /// [`lehmer_digits`]: Self::lehmer_digits
    #[inline]
    pub fn rank_after_move(&self, digits: &[u8], rank: R, from: usize, to: usize) -> R {
        // Only the digits of the indices between `from` and `to` change: the items before
        // them see the same items after them, and so do the items beyond. How the moved item
        // compares with those it passes follows from the digits: with `r` the number of items
        // after index `i` smaller than some item after `i`, the item at `i` is the smaller of
        // the two exactly when `digits[i] <= r`.
        let weight = |i: usize| self.weights.get(i).copied().unwrap_or_default();
        let term = |digit: u8, i: usize| R::from_u64(u64::from(digit)) * weight(i);
        let (mut plus, mut minus) = (R::default(), term(digits[from], from));
        let mut smaller = 0u8;
        if from < to {
            // The items at from+1..=to step left, and the moved item is now after them.
            for j in from + 1..=to {
                let mut r = digits[j];
                for &d in digits[from + 1..j].iter().rev() {
                    r += u8::from(d <= r);
                }
                let moved_smaller = digits[from] <= r;
                minus = minus + term(digits[j], j);
                plus = plus + term(digits[j] + u8::from(moved_smaller), j - 1);
                smaller += u8::from(!moved_smaller);
            }
            plus = plus + term(digits[from] - smaller, to);
        } else {
            // The items at to..from step right, and the moved item is no longer after them.
            let mut r = digits[from];
            for j in (to..from).rev() {
                let passed_smaller = digits[j] <= r;
                r += u8::from(passed_smaller);
                minus = minus + term(digits[j], j);
                plus = plus + term(digits[j] - u8::from(!passed_smaller), j + 1);
                smaller += u8::from(passed_smaller);
            }
            plus = plus + term(digits[from] + smaller, to);
        }
        rank + plus - minus
    }

    /// Writes the first `n - 2` Lehmer digits of `rank` into `digits` (the last two are not
    /// in the rank: the parity places them). Digit `i` is `q_i - (n - i) * q_{i-1}` with
    /// `q_i = rank / w_i`: every quotient is taken from `rank` itself, so the divisions
    /// (multiplications by prepared reciprocals) do not wait on each other as a chain of
    /// remainders would (that chain was a fifth of a 15-puzzle disk run).
    #[inline]
    fn prefix_digits(&self, rank: R, digits: &mut [u8]) {
        let mut above = R::default();
        for (i, (w, d)) in self.divisors.iter().zip(digits.iter_mut()).enumerate() {
            let (q, _) = rank.div_rem_by(w);
            let radix = R::from_u64((self.n - i) as u64);
            *d = (q - radix * above).to_usize() as u8;
            above = q;
        }
    }

    /// Unranking with the unused items kept in order in a `u64`, 4 bits each: taking the
    /// `d`-th one is a shift and a mask, with no data-dependent loop (the bitmask version's
    /// inner loop mispredicts once per item and took twice as long on the 3x4 board).
    #[inline]
    fn unrank_nibbles(&self, digits: &[u8], odd: bool, out: &mut [u8]) {
        let mut list: u64 = NIBBLE_IDENTITY;
        let mut digit_parity = 0u32;
        for (slot, &d) in out.iter_mut().zip(&digits[..self.n - 2]) {
            let shift = 4 * u32::from(d);
            digit_parity ^= u32::from(d);
            *slot = ((list >> shift) & 0xF) as u8;
            let below = list & ((1u64 << shift) - 1);
            let above = list.checked_shr(shift + 4).unwrap_or(0) << shift;
            list = below | above;
        }
        let (lo, hi) = ((list & 0xF) as u8, ((list >> 4) & 0xF) as u8);
        self.place_last_two(lo, hi, digit_parity & 1 == 1, odd, out);
    }

    #[inline]
    fn unrank_bitmask(&self, digits: &[u8], odd: bool, out: &mut [u8]) {
        let mut free: u64 = (1u64 << self.n) - 1;
        let mut digit_parity = false;
        for (slot, &d) in out.iter_mut().zip(&digits[..self.n - 2]) {
            digit_parity ^= d & 1 == 1;
            let mut m = free;
            for _ in 0..d {
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
    fn rank_after_move_equals_ranking_the_moved_permutation() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for n in [2, 3, 5, 9, 15, 16, 17, 24] {
            let ranker = HalfRanker::<u128>::new(n).unwrap();
            let (mut p, mut digits) = (vec![0u8; n], vec![0u8; n]);
            for _ in 0..50 {
                let rank = u128::from(next()) % ranker.count();
                let odd = next() % 2 == 1;
                ranker.unrank(rank, odd, &mut p);
                ranker.lehmer_digits(rank, odd, &mut digits);
                for (i, &d) in digits.iter().enumerate() {
                    let after_smaller = p[i + 1..].iter().filter(|&&q| q < p[i]).count();
                    assert_eq!(d as usize, after_smaller, "digit {i} of {p:?}");
                }
                for from in 0..n {
                    for to in 0..n {
                        let mut moved = p.clone();
                        let item = moved.remove(from);
                        moved.insert(to, item);
                        let fast = ranker.rank_after_move(&digits, rank, from, to);
                        assert_eq!(fast, ranker.rank(&moved), "{p:?}: {from} to {to}");
                    }
                }
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
