//! Coordinates: the integers that search and tables see, each a perfect ranking of one part of
//! the cubie cube.

use super::cubie::{CubieCube, CORNERS, EDGES};

/// Corner twists of a cube: `3^7`.
pub const TWISTS: usize = 2187;
/// Edge flips of a cube: `2^11`.
pub const FLIPS: usize = 2048;
/// Corner permutations: `8!`.
pub const CORNER_PERMS: usize = 40320;
/// Permutations of the 12 edges: 12!.
pub const EDGE_PERMS: u32 = 479_001_600;

/// Lexicographic (Lehmer) rank of a permutation of `0..p.len()`, `p.len() <= 12`.
#[inline]
pub fn perm_rank(p: &[u8]) -> u32 {
    let mut rank = 0u32;
    let mut used = 0u32;
    let n = p.len() as u32;
    for (i, &v) in p.iter().enumerate() {
        let smaller_unused = v as u32 - (used & ((1 << v) - 1)).count_ones();
        rank = rank * (n - i as u32) + smaller_unused;
        used |= 1 << v;
    }
    rank
}

/// The permutation of `0..out.len()` with lexicographic rank `rank` (inverse of [`perm_rank`]).
pub fn perm_unrank(mut rank: u32, out: &mut [u8]) {
    let n = out.len();
    let mut digits = [0u32; 16];
    for i in (0..n).rev() {
        let base = (n - i) as u32;
        digits[i] = rank % base;
        rank /= base;
    }
    let mut free: u32 = (1 << n) - 1;
    for i in 0..n {
        let mut f = free;
        for _ in 0..digits[i] {
            f &= f - 1;
        }
        let v = f.trailing_zeros();
        out[i] = v as u8;
        free &= !(1 << v);
    }
}

/// Corner twist coordinate `0..TWISTS`: the twists of corners `URF..DBL` in base 3 (the DRB
/// twist follows from them).
#[inline]
pub fn twist(c: &CubieCube) -> u16 {
    c.co[..CORNERS - 1]
        .iter()
        .fold(0u16, |acc, &t| acc * 3 + t as u16)
}

/// Sets the corner twists from a twist coordinate.
pub fn set_twist(c: &mut CubieCube, mut twist: u16) {
    let mut sum = 0;
    for i in (0..CORNERS - 1).rev() {
        c.co[i] = (twist % 3) as u8;
        sum += c.co[i];
        twist /= 3;
    }
    c.co[CORNERS - 1] = (3 - sum % 3) % 3;
}

/// Edge flip coordinate `0..FLIPS`: the flips of edges `UR..BL` in base 2.
#[inline]
pub fn flip(c: &CubieCube) -> u16 {
    c.eo[..EDGES - 1]
        .iter()
        .fold(0u16, |acc, &f| acc * 2 + f as u16)
}

/// Sets the edge flips from a flip coordinate.
pub fn set_flip(c: &mut CubieCube, mut flip: u16) {
    let mut sum = 0;
    for i in (0..EDGES - 1).rev() {
        c.eo[i] = (flip & 1) as u8;
        sum += c.eo[i];
        flip >>= 1;
    }
    c.eo[EDGES - 1] = sum & 1;
}

/// Corner permutation coordinate `0..CORNER_PERMS`.
#[inline]
pub fn corner_perm(c: &CubieCube) -> u16 {
    perm_rank(&c.cp) as u16
}

/// Sets the corner permutation from its coordinate.
pub fn set_corner_perm(c: &mut CubieCube, rank: u16) {
    perm_unrank(rank as u32, &mut c.cp);
}
