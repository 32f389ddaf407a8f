//! The coordinates of the two phases and their move tables.
//!
//! Phase 1 reaches the subgroup `G1 = <U, D, R2, L2, F2, B2>`, where every corner and edge is
//! untwisted and unflipped and the four middle-layer edges are in the middle layer; its
//! coordinates are the corner twist, the edge flip and the middle-edge positions (`slice`).
//! Phase 2 solves inside `G1` with the corner permutation, the permutation of the eight U/D
//! edges and that of the four middle edges.
//!
//! Each coordinate is a small puzzle of its own (DESIGN.md): its move table is made by a BFS
//! over cubie cubes from solved, recording `coord(c * move)` for one cube `c` of each value, so
//! no unranking code is needed and every table entry comes from a real cube.

use godsearch_puzzles::cube::coord::{self, perm_rank};
use godsearch_puzzles::cube::cubie::{CubieCube, EDGES};
use std::collections::VecDeque;

/// Face turns in the half-turn metric, `face * 3 + turns - 1`.
pub const MOVES: usize = 18;
/// Phase-2 moves as indices among the 18: `U U2 U' R2 F2 D D2 D' L2 B2`.
pub const PHASE2_MOVES: [usize; 10] = [0, 1, 2, 4, 7, 9, 10, 11, 13, 16];
/// Placements of the four middle edges: `C(12, 4)`.
pub const SLICES: usize = 495;
/// Orders of the four middle edges: `4!`.
pub const SLICE_PERMS: usize = 24;
/// Placements and order of the four middle edges: `12 * 11 * 10 * 9`.
pub const SLICE_SORTED: usize = SLICES * SLICE_PERMS;
/// A table row's class and slice, for a table of `slices` slices a class (a row is `class *
/// slices + slice`). The slice has one of two sizes, [`SLICES`] or [`SLICE_SORTED`], and the
/// divisions by each are written out so that the compiler makes them multiplications: a
/// division by a value known only at run time costs as much as the rest of an entry's
/// neighbour in a table build.
#[inline]
pub(crate) fn class_and_slice(row: usize, slices: usize) -> (usize, usize) {
    match slices {
        SLICES => (row / SLICES, row % SLICES),
        SLICE_SORTED => (row / SLICE_SORTED, row % SLICE_SORTED),
        slices => (row / slices, row % slices),
    }
}

/// Where the middle edges are, from a table's slice of `orders` orders a placement (1, or
/// [`SLICE_PERMS`] for the sorted slice), divisions written out as in [`class_and_slice`].
#[inline]
pub(crate) fn placement_of(slice: usize, orders: usize) -> usize {
    match orders {
        1 => slice,
        SLICE_PERMS => slice / SLICE_PERMS,
        orders => slice / orders,
    }
}

/// Orders of the eight U/D edges: `8!`.
pub const UD_EDGE_PERMS: usize = 40320;
/// First of the middle-layer edges (`FR FL BL BR` are 8..12).
pub(crate) const FIRST_SLICE_EDGE: u8 = 8;

/// `C(n, k)` for the small arguments the slice coordinate needs.
const fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// Which positions hold the middle edges, as a combinatorial number `0..SLICES`.
pub fn slice(c: &CubieCube) -> u16 {
    let mut rank = 0;
    let mut k = 0;
    for p in 0..EDGES {
        if c.ep[p] >= FIRST_SLICE_EDGE {
            k += 1;
            rank += binomial(p, k);
        }
    }
    rank as u16
}

/// Where the middle edges are and in which order: `slice * 24 + order`, where the order is
/// that of the middle edges met along positions `0..12`. Inside `G1` it is
/// `goal slice * 24 + slice_perm`, so phase 1 can track it and hand phase 2 its order.
pub fn slice_sorted(c: &CubieCube) -> u16 {
    let mut order = [0u8; 4];
    let mut k = 0;
    for p in 0..EDGES {
        if c.ep[p] >= FIRST_SLICE_EDGE {
            order[k] = c.ep[p] - FIRST_SLICE_EDGE;
            k += 1;
        }
    }
    slice(c) * SLICE_PERMS as u16 + perm_rank(&order) as u16
}

/// The order of the middle edges in the middle layer (meaningful inside `G1`).
pub fn slice_perm(c: &CubieCube) -> u16 {
    let mut p = [0u8; 4];
    for (i, slot) in p.iter_mut().enumerate() {
        *slot = c.ep[FIRST_SLICE_EDGE as usize + i].wrapping_sub(FIRST_SLICE_EDGE) & 3;
    }
    perm_rank(&p) as u16
}

/// The order of the eight U/D edges in the U and D layers (meaningful inside `G1`).
pub fn ud_edges(c: &CubieCube) -> u16 {
    let mut p = [0u8; 8];
    for (i, slot) in p.iter_mut().enumerate() {
        *slot = c.ep[i] & 7;
    }
    perm_rank(&p) as u16
}

/// The corner twist coordinate.
pub fn twist(c: &CubieCube) -> u16 {
    coord::twist(c)
}

/// The edge flip coordinate.
pub fn flip(c: &CubieCube) -> u16 {
    coord::flip(c)
}

/// The corner permutation coordinate.
pub fn corner_perm(c: &CubieCube) -> u16 {
    coord::corner_perm(c)
}

/// The move table of a coordinate with `count` values: entry `x * moves.len() + k` is the
/// value after move `k` from any cube with value `x`. Built by BFS from solved.
///
/// Panics if the coordinate takes other than `count` values reachable by `moves` (a bug, not
/// an input error).
pub fn move_table(
    count: usize,
    coordinate: impl Fn(&CubieCube) -> u16,
    moves: &[CubieCube],
) -> Vec<u16> {
    let n = moves.len();
    let mut table = vec![u16::MAX; count * n];
    let mut seen = vec![false; count];
    let mut queue = VecDeque::from([CubieCube::SOLVED]);
    seen[coordinate(&CubieCube::SOLVED) as usize] = true;
    while let Some(c) = queue.pop_front() {
        let x = coordinate(&c) as usize;
        for (k, m) in moves.iter().enumerate() {
            let next = c.then(m);
            let y = coordinate(&next);
            table[x * n + k] = y;
            if !std::mem::replace(&mut seen[y as usize], true) {
                queue.push_back(next);
            }
        }
    }
    assert!(
        seen.iter().all(|&s| s),
        "coordinate of {count} values not all reached"
    );
    table
}

/// Places the middle edges at the positions of slice coordinate `rank` (in order), the other
/// edges in order on the remaining positions, all unflipped.
pub fn set_slice(c: &mut CubieCube, rank: u16) {
    let mut rest = rank as usize;
    let mut chosen = [false; EDGES];
    for k in (1..=4).rev() {
        let mut p = EDGES - 1;
        while binomial(p, k) > rest {
            p -= 1;
        }
        chosen[p] = true;
        rest -= binomial(p, k);
    }
    let (mut slice_edge, mut other) = (FIRST_SLICE_EDGE, 0u8);
    for (slot, &is_slice) in c.ep.iter_mut().zip(&chosen) {
        if is_slice {
            *slot = slice_edge;
            slice_edge += 1;
        } else {
            *slot = other;
            other += 1;
        }
    }
}

/// Places the middle edges at the positions and in the order of sorted slice coordinate
/// `value` (the inverse of [`slice_sorted`] on the edges it describes), the other edges in
/// order on the remaining positions, all unflipped.
pub fn set_slice_sorted(c: &mut CubieCube, value: u16) {
    set_slice(c, value / SLICE_PERMS as u16);
    let mut order = [0u8; 4];
    godsearch_puzzles::cube::coord::perm_unrank(u32::from(value) % SLICE_PERMS as u32, &mut order);
    for (slot, &o) in
        c.ep.iter_mut()
            .filter(|e| **e >= FIRST_SLICE_EDGE)
            .zip(&order)
    {
        *slot = FIRST_SLICE_EDGE + o;
    }
}
