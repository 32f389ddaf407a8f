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

/// Lexicographic rank of `labels` among the arrangements of its multiset (`counts`, consumed).
pub fn rank_multiset(labels: &[u8], counts: &mut [u8]) -> u128 {
    let mut rank: u128 = 0;
    for &label in labels {
        for smaller in 0..label as usize {
            if counts[smaller] > 0 {
                counts[smaller] -= 1;
                rank += multinomial(counts).expect("checked when the space was made");
                counts[smaller] += 1;
            }
        }
        counts[label as usize] -= 1;
    }
    rank
}

/// The arrangement of lexicographic rank `rank` (`counts` consumed).
pub fn unrank_multiset(mut rank: u128, counts: &mut [u8], out: &mut [u8]) {
    for slot in out.iter_mut() {
        for label in 0..counts.len() {
            if counts[label] == 0 {
                continue;
            }
            counts[label] -= 1;
            let below = multinomial(counts).expect("checked when the space was made");
            if rank < below {
                *slot = label as u8;
                break;
            }
            rank -= below;
            counts[label] += 1;
        }
    }
}

/// Lexicographic rank of a permutation of `0..n` (its Lehmer code, read with a bit mask).
pub fn rank_distinct(labels: &[u8]) -> u128 {
    let n = labels.len();
    let mut used: u64 = 0;
    let mut rank: u128 = 0;
    for (i, &l) in labels.iter().enumerate() {
        let smaller_used = (used & ((1u64 << l) - 1)).count_ones() as u128;
        rank = rank * (n - i) as u128 + (l as u128 - smaller_used);
        used |= 1 << l;
    }
    rank
}

/// The permutation of `0..out.len()` of lexicographic rank `rank`.
pub fn unrank_distinct(mut rank: u128, out: &mut [u8]) {
    let n = out.len();
    let mut digits = [0u8; FAST_DISTINCT];
    for i in (0..n).rev() {
        let radix = (n - i) as u128;
        digits[i] = (rank % radix) as u8;
        rank /= radix;
    }
    let mut free: u64 = (1u64 << n) - 1;
    for (slot, &d) in out.iter_mut().zip(&digits) {
        let mut f = free;
        for _ in 0..d {
            f &= f - 1;
        }
        let label = f.trailing_zeros();
        *slot = label as u8;
        free &= !(1u64 << label);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_lexicographic_and_round_trip() {
        let mut all = Vec::new();
        for r in 0..24u128 {
            let mut out = [0u8; 4];
            unrank_distinct(r, &mut out);
            assert_eq!(rank_distinct(&out), r);
            let mut counts = [1u8; 4];
            assert_eq!(rank_multiset(&out, &mut counts), r);
            all.push(out);
        }
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        // Two alike pieces of three: 3 arrangements, in order.
        let mut seen = Vec::new();
        for r in 0..3u128 {
            let mut out = [0u8; 3];
            unrank_multiset(r, &mut [2, 1], &mut out);
            assert_eq!(rank_multiset(&out, &mut [2, 1]), r);
            seen.push(out);
        }
        assert_eq!(seen, [[0, 0, 1], [0, 1, 0], [1, 0, 0]]);
        assert_eq!(
            multinomial(&[4, 4, 4, 4, 4, 4]),
            Some(3_246_670_537_110_000)
        );
    }
}
