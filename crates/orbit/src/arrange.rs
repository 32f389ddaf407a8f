//! Ranking the arrangement of a component's pieces: lexicographic order over the arrangements
//! of a multiset of labels (alike pieces share a label), with a linear-time Lehmer code for
//! distinct pieces.

/// Components of distinct pieces up to this many slots are ranked by their Lehmer code with a
/// bit mask (linear time, no allocation); `n!` of them fits in a `u128`.
pub const FAST_DISTINCT: usize = 34;

/// Number of arrangements of a multiset with these counts; `None` past `u128`.
pub fn multinomial(counts: &[u8]) -> Option<u128> {
    let mut result: u128 = 1;
    let mut placed: u128 = 0;
    for &c in counts {
        for i in 1..=c as u128 {
            placed += 1;
            result = result.checked_mul(placed)? / i;
        }
    }
    Some(result)
}

/// Lexicographic rank of `labels` among the arrangements of its multiset (`counts`, consumed;
/// `arrangements`: their number, [`multinomial`] of `counts`).
///
/// Linear in slots times labels: `m`, the arrangements of what is left, is carried along (a
/// slot taking label `l` leaves `m * counts[l] / left` of them), and the arrangements that put a
/// smaller label first number `m * (counts of smaller labels) / left`.
pub fn rank_multiset(labels: &[u8], counts: &mut [u8], arrangements: u128) -> u128 {
    let mut m = arrangements;
    if m <= NARROW {
        return rank_multiset_narrow(labels, counts, m as u64) as u128;
    }
    let mut left = labels.len() as u128;
    let mut rank: u128 = 0;
    for &label in labels {
        let label = label as usize;
        let smaller: u128 = counts[..label].iter().map(|&c| c as u128).sum();
        rank += share(m, smaller, left, counts, label, true);
        m = share(m, counts[label] as u128, left, counts, label, false);
        counts[label] -= 1;
        left -= 1;
    }
    rank
}

/// Multisets with at most this many arrangements are ranked in 64-bit arithmetic: a count
/// (at most 255) times it still fits, and 64-bit division is several times faster.
const NARROW: u128 = (u64::MAX >> u8::BITS) as u128;

/// [`rank_multiset`] where `m`, the arrangements, is at most [`NARROW`].
fn rank_multiset_narrow(labels: &[u8], counts: &mut [u8], mut m: u64) -> u64 {
    let mut left = labels.len() as u64;
    let mut rank = 0;
    for &label in labels {
        let label = label as usize;
        let smaller: u64 = counts[..label].iter().map(|&c| c as u64).sum();
        rank += m * smaller / left;
        m = m * counts[label] as u64 / left;
        counts[label] -= 1;
        left -= 1;
    }
    rank
}

/// `m * c / left` (an integer: the arrangements of `counts`, `left` slots, that start with
/// labels making up `c` of them). Where the product passes 128 bits, counted label by label
/// with [`multinomial`] instead: those below `label` when `below`, else `label`'s own.
fn share(m: u128, c: u128, left: u128, counts: &mut [u8], label: usize, below: bool) -> u128 {
    if let Some(product) = m.checked_mul(c) {
        return product / left;
    }
    let mut sum = 0;
    let range = match below {
        true => 0..label,
        false => label..label + 1,
    };
    for l in range {
        if counts[l] > 0 {
            counts[l] -= 1;
            sum += multinomial(counts).expect("checked when the space was made");
            counts[l] += 1;
        }
    }
    sum
}

/// The arrangement of lexicographic rank `rank` (`counts` consumed; `arrangements`: their
/// number, [`multinomial`] of `counts`).
pub fn unrank_multiset(mut rank: u128, counts: &mut [u8], arrangements: u128, out: &mut [u8]) {
    let mut left = out.len() as u128;
    let mut m = arrangements;
    for slot in out.iter_mut() {
        for label in 0..counts.len() {
            if counts[label] == 0 {
                continue;
            }
            let below = share(m, counts[label] as u128, left, counts, label, false);
            if rank < below {
                *slot = label as u8;
                m = below;
                counts[label] -= 1;
                left -= 1;
                break;
            }
            rank -= below;
        }
    }
}

/// Lexicographic rank of a permutation of `0..n` (its Lehmer code, read with a bit mask).
pub fn rank_distinct(labels: &[u8]) -> u128 {
    let n = labels.len();
    let mut used: u64 = 0;
    // In 64 bits while `n!` fits them (20 labels): one multiplication a digit, not three.
    if n <= U64_FACTORIAL_LABELS {
        let mut rank: u64 = 0;
        for (i, &l) in labels.iter().enumerate() {
            let smaller_used = (used & ((1u64 << l) - 1)).count_ones() as u64;
            rank = rank * (n - i) as u64 + (l as u64 - smaller_used);
            used |= 1 << l;
        }
        return rank as u128;
    }
    let mut rank: u128 = 0;
    for (i, &l) in labels.iter().enumerate() {
        let smaller_used = (used & ((1u64 << l) - 1)).count_ones() as u128;
        rank = rank * (n - i) as u128 + (l as u128 - smaller_used);
        used |= 1 << l;
    }
    rank
}

/// The most labels whose permutations' ranks fit 64 bits (20! < 2^64 < 21!).
const U64_FACTORIAL_LABELS: usize = 20;

/// The permutation of `0..out.len()` of lexicographic rank `rank`.
pub fn unrank_distinct(rank: u128, out: &mut [u8]) {
    let n = out.len();
    if n <= NIBBLE_LABELS {
        if let Ok(rank) = u32::try_from(rank) {
            return unrank_small(rank, out);
        }
    }
    let mut digits = [0u8; FAST_DISTINCT];
    if let Ok(mut rank) = u64::try_from(rank) {
        for i in (0..n).rev() {
            let radix = (n - i) as u64;
            digits[i] = (rank % radix) as u8;
            rank /= radix;
        }
    } else {
        let mut rank = rank;
        for i in (0..n).rev() {
            let radix = (n - i) as u128;
            digits[i] = (rank % radix) as u8;
            rank /= radix;
        }
    }
    let mut free: u64 = (1u64 << n) - 1;
    for (slot, &d) in out.iter_mut().zip(&digits) {
        *slot = take_free(&mut free, d);
    }
}

/// The `d`-th (from 0) of the set bits of `free`, cleared there: the label Lehmer digit `d`
/// picks among those not placed yet.
#[inline]
pub fn take_free(free: &mut u64, d: u8) -> u8 {
    let mut f = *free;
    for _ in 0..d {
        f &= f - 1;
    }
    let label = f.trailing_zeros();
    *free &= !(1u64 << label);
    label as u8
}

/// Permutations of up to this many labels are unranked with the labels left as nibbles of
/// one word ([`unrank_small`]).
const NIBBLE_LABELS: usize = 16;

/// `RECIPROCAL_SHIFT` and `RECIPROCALS[d] = ceil(2^RECIPROCAL_SHIFT / d)`: a 32-bit `x`
/// divided by `d` (up to [`NIBBLE_LABELS`]) is `x * RECIPROCALS[d] >> RECIPROCAL_SHIFT`,
/// exactly, since the shift is at least 32 plus the bits of `d` (Granlund and Montgomery).
const RECIPROCAL_SHIFT: u32 = 32 + 5;
const RECIPROCALS: [u64; NIBBLE_LABELS + 1] = {
    let mut r = [0u64; NIBBLE_LABELS + 1];
    let mut d = 1;
    while d <= NIBBLE_LABELS as u64 {
        r[d as usize] = (1u64 << RECIPROCAL_SHIFT).div_ceil(d);
        d += 1;
    }
    r
};

/// [`unrank_distinct`] of a 32-bit rank of at most [`NIBBLE_LABELS`] labels (the 3x3x3's 12
/// edges, unranked at every node of its search): digits by multiplying with reciprocals, not
/// dividing, and the labels not yet placed kept in order as nibbles of one word, so taking the
/// `d`-th is a shift, not a walk over bits.
fn unrank_small(mut rank: u32, out: &mut [u8]) {
    let n = out.len();
    let mut digits = [0u8; NIBBLE_LABELS];
    for i in (0..n).rev() {
        let radix = (n - i) as u32;
        let quotient =
            ((rank as u128 * RECIPROCALS[radix as usize] as u128) >> RECIPROCAL_SHIFT) as u32;
        digits[i] = (rank - quotient * radix) as u8;
        rank = quotient;
    }
    let mut left: u64 = 0xFEDC_BA98_7654_3210;
    for (slot, &d) in out.iter_mut().zip(&digits) {
        let at = 4 * d as u32;
        *slot = (left >> at & 0xF) as u8;
        let below = left & ((1u64 << at) - 1);
        left = below | (left >> at >> 4) << at;
    }
}

/// Whether the permutation of `0..n` of lexicographic rank `rank` is odd, read off the rank
/// without unranking it: its factorial-base digits are its Lehmer code, each slot's count of
/// later smaller labels, so they add up to its inversions.
pub fn rank_is_odd_distinct(rank: u128, n: usize) -> bool {
    let odd = match (u64::try_from(rank), DIGIT_PARITY.get(n)) {
        (Ok(rank), Some(parity)) => parity(rank),
        _ => {
            let (mut rank, mut odd) = (rank, 0);
            for radix in 2..=n as u128 {
                odd ^= (rank % radix) as u64;
                rank /= radix;
            }
            odd
        }
    };
    odd & 1 == 1
}

/// The low bit of the sum of `rank`'s factorial-base digits under radices `2..=N` (the digit of
/// radix 1 is 0): the loop unrolled with constant divisors, which the compiler turns into
/// multiplications (a hardware division per digit was a fifth of a definition search's time).
fn digit_parity<const N: u64>(mut rank: u64) -> u64 {
    let mut odd = 0;
    let mut radix = 2;
    while radix <= N {
        odd ^= rank % radix;
        rank /= radix;
        radix += 1;
    }
    odd
}

/// [`digit_parity`] for each label count whose permutations' ranks fit 64 bits (20! < 2^64).
const DIGIT_PARITY: [fn(u64) -> u64; 21] = [
    digit_parity::<0>,
    digit_parity::<1>,
    digit_parity::<2>,
    digit_parity::<3>,
    digit_parity::<4>,
    digit_parity::<5>,
    digit_parity::<6>,
    digit_parity::<7>,
    digit_parity::<8>,
    digit_parity::<9>,
    digit_parity::<10>,
    digit_parity::<11>,
    digit_parity::<12>,
    digit_parity::<13>,
    digit_parity::<14>,
    digit_parity::<15>,
    digit_parity::<16>,
    digit_parity::<17>,
    digit_parity::<18>,
    digit_parity::<19>,
    digit_parity::<20>,
];

#[cfg(test)]
mod tests {
    use super::*;
    use godsearch_core::perm::is_odd;

    #[test]
    fn a_permutations_parity_is_read_off_its_rank() {
        use rand::Rng;
        use rand::SeedableRng;
        for n in 0..=7usize {
            let all: u128 = (1..=n as u128).product();
            for rank in 0..all {
                let mut labels = vec![0u8; n];
                unrank_distinct(rank, &mut labels);
                assert_eq!(
                    rank_is_odd_distinct(rank, n),
                    is_odd(&labels),
                    "{n}: {rank}"
                );
            }
        }
        // Up to 20 labels (64-bit ranks) and past them (the 4x4x4's 24 wings, 34 labels).
        let mut rng = rand::rngs::StdRng::seed_from_u64(9);
        for n in [12usize, 20, 21, 24, 34] {
            let all: u128 = (1..=n as u128).product();
            for _ in 0..500 {
                let rank = rng.gen_range(0..all);
                let mut labels = vec![0u8; n];
                unrank_distinct(rank, &mut labels);
                assert_eq!(
                    rank_is_odd_distinct(rank, n),
                    is_odd(&labels),
                    "{n}: {rank}"
                );
            }
        }
    }

    /// The nibble unranking of small ranks gives what the general one does: every
    /// permutation of up to 8 labels, and samples up to 16 (the largest 32-bit ranks too).
    #[test]
    fn small_ranks_unrank_as_large_ones_do() {
        use rand::Rng;
        use rand::SeedableRng;
        let general = |mut rank: u128, n: usize| -> Vec<u8> {
            let mut digits = vec![0u8; n];
            for i in (0..n).rev() {
                digits[i] = (rank % (n - i) as u128) as u8;
                rank /= (n - i) as u128;
            }
            let mut left: Vec<u8> = (0..n as u8).collect();
            digits.iter().map(|&d| left.remove(d as usize)).collect()
        };
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for n in 0..=NIBBLE_LABELS {
            let all: u128 = (1..=n as u128).product();
            let ranks: Vec<u128> = match all <= 40_320 {
                true => (0..all).collect(),
                false => (0..2_000)
                    .map(|_| rng.gen_range(0..all.min(1 << 32)))
                    .chain([all.min(1 << 32) - 1])
                    .collect(),
            };
            for rank in ranks {
                let mut out = vec![0u8; n];
                unrank_distinct(rank, &mut out);
                assert_eq!(out, general(rank, n), "{n} labels, rank {rank}");
            }
        }
    }

    #[test]
    fn ranks_are_lexicographic_and_round_trip() {
        let mut all = Vec::new();
        for r in 0..24u128 {
            let mut out = [0u8; 4];
            unrank_distinct(r, &mut out);
            assert_eq!(rank_distinct(&out), r);
            let mut counts = [1u8; 4];
            assert_eq!(rank_multiset(&out, &mut counts, 24), r);
            all.push(out);
        }
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        // Two alike pieces of three: 3 arrangements, in order.
        let mut seen = Vec::new();
        for r in 0..3u128 {
            let mut out = [0u8; 3];
            unrank_multiset(r, &mut [2, 1], 3, &mut out);
            assert_eq!(rank_multiset(&out, &mut [2, 1], 3), r);
            seen.push(out);
        }
        assert_eq!(seen, [[0, 0, 1], [0, 1, 0], [1, 0, 0]]);
        assert_eq!(
            multinomial(&[4, 4, 4, 4, 4, 4]),
            Some(3_246_670_537_110_000)
        );
    }

    /// The counting definition: arrangements that put a smaller label first, slot by slot.
    fn rank_by_counting(labels: &[u8], counts: &mut [u8]) -> u128 {
        let mut rank = 0;
        for &label in labels {
            for smaller in 0..label as usize {
                if counts[smaller] > 0 {
                    counts[smaller] -= 1;
                    rank += multinomial(counts).unwrap();
                    counts[smaller] += 1;
                }
            }
            counts[label as usize] -= 1;
        }
        rank
    }

    #[test]
    fn multiset_ranks_are_the_counting_definition_and_round_trip() {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        // The 4x4x4's centres (six colours of four), a subset of its wings (five named, the
        // rest alike), and 34 distinct labels, whose products with the counts pass 128 bits.
        let shapes: [&[u8]; 3] = [&[4; 6], &[1, 1, 1, 1, 1, 19], &[1; 34]];
        for counts in shapes {
            let mut labels: Vec<u8> = counts
                .iter()
                .enumerate()
                .flat_map(|(l, &c)| std::iter::repeat_n(l as u8, c as usize))
                .collect();
            for _ in 0..200 {
                labels.shuffle(&mut rng);
                let all = multinomial(counts).unwrap();
                let rank = rank_multiset(&labels, &mut counts.to_vec(), all);
                assert_eq!(rank, rank_by_counting(&labels, &mut counts.to_vec()));
                let mut back = vec![0u8; labels.len()];
                unrank_multiset(rank, &mut counts.to_vec(), all, &mut back);
                assert_eq!(back, labels);
            }
        }
    }
}
