//! Which quantities of a puzzle's components the others fix: the moves change a quantity per
//! component (a permutation's parity, an orientation sum mod k) by amounts that span a
//! subspace over GF(p); after Gaussian elimination, each column outside the pivots is a fixed
//! combination of the pivot columns, for every position the moves reach.

/// For each column that is not a pivot, its value as `(pivot column, coefficient)` terms:
/// `value[column] = sum(coefficient * value[pivot])` (mod `p`), for every vector in the row
/// space of `rows` (each row one move's changes, entries below `p`). `p` must be prime.
pub fn dependent_columns(mut rows: Vec<Vec<u8>>, p: u8) -> Vec<(usize, Vec<(usize, u8)>)> {
    let columns = rows.first().map_or(0, Vec::len);
    let p32 = p as u32;
    let inverse = |a: u8| -> u8 {
        (1..p)
            .find(|&b| (a as u32 * b as u32) % p32 == 1)
            .expect("p is prime")
    };
    let mut pivots: Vec<(usize, usize)> = Vec::new();
    let mut next = 0;
    for col in 0..columns {
        let Some(r) = (next..rows.len()).find(|&r| rows[r][col] != 0) else {
            continue;
        };
        rows.swap(next, r);
        let scale = inverse(rows[next][col]);
        for x in rows[next].iter_mut() {
            *x = ((*x as u32 * scale as u32) % p32) as u8;
        }
        let pivot_row = rows[next].clone();
        for (other, row) in rows.iter_mut().enumerate() {
            let factor = row[col];
            if other == next || factor == 0 {
                continue;
            }
            for (x, &q) in row.iter_mut().zip(&pivot_row) {
                *x = ((*x as u32 + (p32 - factor as u32) * q as u32) % p32) as u8;
            }
        }
        pivots.push((next, col));
        next += 1;
    }
    (0..columns)
        .filter(|col| !pivots.iter().any(|&(_, pc)| pc == *col))
        .map(|col| {
            let terms = pivots
                .iter()
                .filter(|&&(r, _)| rows[r][col] != 0)
                .map(|&(r, pc)| (pc, rows[r][col]))
                .collect();
            (col, terms)
        })
        .collect()
}

/// Whether `k` is prime (a field for [`dependent_columns`]).
pub fn is_prime(k: u8) -> bool {
    k >= 2 && (2..k).all(|d| k % d != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_outside_the_pivots_are_combinations_of_them() {
        // Parities: every move flips columns 0 and 1 together; column 2 never changes.
        let found = dependent_columns(vec![vec![1, 1, 0], vec![0, 0, 0]], 2);
        assert_eq!(found, [(1, vec![(0, 1)]), (2, vec![])]);
        // Sums mod 3: a move adds 1 to column 0 and 2 to column 1: column 1 = 2 * column 0.
        let found = dependent_columns(vec![vec![1, 2], vec![2, 1]], 3);
        assert_eq!(found, [(1, vec![(0, 2)])]);
        assert!(is_prime(3) && !is_prime(4) && !is_prime(1));
    }
}
