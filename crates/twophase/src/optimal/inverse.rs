//! The inverse of a node's position, for the table's lookups of the inverse.
//!
//! A cube and its inverse are equally far from solved (a solution of one, reversed and
//! inverted, solves the other), so the table's bounds of the inverse bound the node too: nxopt
//! reads them beside the position's own, and they double what the table proves at a node
//! (Korf's estimate from the bounds' distributions: about half the nodes). The inverse is not
//! a neighbour of the last position read, so its entries are read alone ([`super::table`]'s
//! form allows it), and it cannot be followed with coordinate move tables: a move `m` made
//! on the position `X` makes `(X m)^-1 = m^-1 X^-1`, a multiplication on the left, which
//! renames the pieces wherever they are. So the inverse is kept piece by piece ([`Pieces`]),
//! once for each axis (seen through `URF3^a`, whose view of `m` is a move too), and a move
//! renames each position's piece by a small table ([`LeftMoves`]).

use crate::coords::{self, FIRST_SLICE_EDGE, SLICE_PERMS};
use crate::cornerslice::{self, FIRST_D_CORNER};
use godsearch_puzzles::cube::cubie::{CORNERS, EDGES};
use godsearch_puzzles::cube::CubieCube;

/// Bits of a corner byte's piece (below its twist).
const CORNER_PIECE_BITS: u32 = 3;
/// Bits of an edge byte's piece (below its flip).
const EDGE_PIECE_BITS: u32 = 4;
/// Values a corner byte takes: 8 pieces in 3 twists.
const CORNER_BYTES: usize = 3 << CORNER_PIECE_BITS;
/// Values an edge byte takes: 12 pieces (of 16 codes) in 2 flips.
const EDGE_BYTES: usize = 2 << EDGE_PIECE_BITS;
/// Middle edges, whose order the sorted slice names.
const MIDDLE_EDGES: usize = 4;

/// A cube as the piece at each position and its orientation, a byte each: a corner is
/// `piece | twist << 3`, an edge `piece | flip << 4`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Pieces {
    corners: [u8; CORNERS],
    edges: [u8; EDGES],
}

impl Pieces {
    /// The pieces of `cube` (whose twists are below 3: a cube, not a mirror image).
    pub(crate) fn of(cube: &CubieCube) -> Self {
        Pieces {
            corners: std::array::from_fn(|i| cube.cp[i] | cube.co[i] << CORNER_PIECE_BITS),
            edges: std::array::from_fn(|i| cube.ep[i] | cube.eo[i] << EDGE_PIECE_BITS),
        }
    }
}

/// The coordinates an axis's table entry is found from ([`super::table::Projection::entry`]),
/// as the move tables give them for the position's own axes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Coordinates {
    pub twist: u16,
    pub flip: u16,
    /// Where the middle edges are and in which order ([`coords::slice_sorted`]).
    pub sorted: u16,
    /// Where the U corners are ([`cornerslice::corner_occupancy`]).
    pub occupancy: u8,
}

/// The moves as renamings of pieces, and the small tables that read coordinates off
/// [`Pieces`] (each built from the coordinate's own definition, so the two always agree).
#[derive(Debug)]
pub(crate) struct LeftMoves {
    /// `corner[k][byte]`: the corner byte after move column `k` is made on the position
    /// (on its inverse, from the left).
    corner: Vec<[u8; CORNER_BYTES]>,
    edge: Vec<[u8; EDGE_BYTES]>,
    /// The occupancy of each set of four positions holding the U corners (bit `p` for
    /// position `p`).
    occupancy: Vec<u8>,
    /// The placement of the middle edges of each set of four positions (bit `p` for `p`).
    placement: Vec<u16>,
    /// The order of the middle edges met along the positions, as four 2-bit names, first in
    /// the high bits.
    order: Vec<u8>,
}

impl LeftMoves {
    /// The renamings of `moves` (the columns of the move tables, as cubes).
    pub(crate) fn new(moves: &[CubieCube]) -> Self {
        let mut corner = Vec::with_capacity(moves.len());
        let mut edge = Vec::with_capacity(moves.len());
        for m in moves {
            // (X m)^-1 = m^-1 X^-1: position i of the inverse holds piece p with twist t;
            // after the move it holds m^-1's piece at p, twisted by m^-1's twist there.
            let inv = m.inverse();
            corner.push(std::array::from_fn(|byte| {
                let (piece, twist) = (byte & 7, byte >> CORNER_PIECE_BITS);
                let twist = (usize::from(inv.co[piece]) + twist) % 3;
                inv.cp[piece] | (twist as u8) << CORNER_PIECE_BITS
            }));
            edge.push(std::array::from_fn(|byte| {
                let (piece, flip) = (byte & 15, byte >> EDGE_PIECE_BITS);
                match piece < EDGES {
                    true => inv.ep[piece] | ((inv.eo[piece] as usize + flip) as u8 & 1) << 4,
                    false => 0,
                }
            }));
        }
        let mut occupancy = vec![0u8; 1 << CORNERS];
        let mut placement = vec![0u16; 1 << EDGES];
        for mask in 0usize..1 << EDGES {
            if mask.count_ones() as usize != MIDDLE_EDGES {
                continue;
            }
            let mut cube = CubieCube::SOLVED;
            let (mut middle, mut other) = (FIRST_SLICE_EDGE, 0);
            for (p, slot) in cube.ep.iter_mut().enumerate() {
                let next = if mask >> p & 1 == 1 {
                    &mut middle
                } else {
                    &mut other
                };
                *slot = *next;
                *next += 1;
            }
            placement[mask] = coords::slice(&cube);
            if mask < 1 << CORNERS {
                let mut cube = CubieCube::SOLVED;
                let (mut up, mut down) = (0, FIRST_D_CORNER);
                for (p, slot) in cube.cp.iter_mut().enumerate() {
                    let next = if mask >> p & 1 == 1 {
                        &mut up
                    } else {
                        &mut down
                    };
                    *slot = *next;
                    *next += 1;
                }
                occupancy[mask] = cornerslice::corner_occupancy(&cube) as u8;
            }
        }
        let mut order = vec![0u8; 1 << (2 * MIDDLE_EDGES)];
        for (names, slot) in order.iter_mut().enumerate() {
            let mut cube = CubieCube::SOLVED;
            for k in 0..MIDDLE_EDGES {
                let name = (names >> (2 * (MIDDLE_EDGES - 1 - k))) & 3;
                cube.ep[k] = FIRST_SLICE_EDGE + name as u8;
                cube.ep[FIRST_SLICE_EDGE as usize + k] = k as u8;
            }
            // Names that repeat are no order; their slot is never read.
            *slot = (coords::slice_sorted(&cube) as usize % SLICE_PERMS) as u8;
        }
        LeftMoves {
            corner,
            edge,
            occupancy,
            placement,
            order,
        }
    }

    /// `pieces` after move column `k` is made on the position they are the inverse of.
    #[inline]
    pub(crate) fn after(&self, pieces: &Pieces, k: usize) -> Pieces {
        let (corner, edge) = (&self.corner[k], &self.edge[k]);
        Pieces {
            corners: pieces.corners.map(|b| corner[b as usize]),
            edges: pieces.edges.map(|b| edge[b as usize]),
        }
    }

    /// The coordinates of the cube `pieces` hold.
    #[inline]
    pub(crate) fn coordinates(&self, pieces: &Pieces) -> Coordinates {
        // Without branches: which pieces are where is as good as random here.
        let mut twist = 0u16;
        let mut up = 0usize;
        for (p, &b) in pieces.corners.iter().enumerate() {
            if p + 1 < CORNERS {
                twist = twist * 3 + u16::from(b >> CORNER_PIECE_BITS);
            }
            up |= usize::from(b & 7 < FIRST_D_CORNER) << p;
        }
        let mut flip = 0u16;
        let mut middle = 0usize;
        let mut names = 0usize;
        for (p, &b) in pieces.edges.iter().enumerate() {
            if p + 1 < EDGES {
                flip = flip * 2 + u16::from(b >> EDGE_PIECE_BITS);
            }
            let piece = b & 15;
            let is_middle = usize::from(piece >= FIRST_SLICE_EDGE);
            middle |= is_middle << p;
            // A middle edge's name is its piece's low two bits (pieces 8..12).
            names = (names << (2 * is_middle)) | ((usize::from(piece) & 3) * is_middle);
        }
        Coordinates {
            twist,
            flip,
            sorted: self.placement[middle] * SLICE_PERMS as u16 + u16::from(self.order[names]),
            occupancy: self.occupancy[up],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::to_move;
    use godsearch_puzzles::cube::notation::apply_moves;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn the_pieces_of_the_inverse_follow_the_moves_and_give_its_coordinates() {
        let moves: Vec<CubieCube> = (0..crate::coords::MOVES)
            .map(|k| to_move(k).cubie())
            .collect();
        let left = LeftMoves::new(&moves);
        let mut rng = StdRng::seed_from_u64(2026);
        for _ in 0..200 {
            let mut cube = CubieCube::SOLVED;
            let mut pieces = Pieces::of(&cube.inverse());
            for _ in 0..rng.gen_range(0..30) {
                let k = rng.gen_range(0..moves.len());
                cube = apply_moves(&cube, &[to_move(k)]);
                pieces = left.after(&pieces, k);
            }
            let inverse = cube.inverse();
            assert_eq!(pieces, Pieces::of(&inverse));
            let expected = Coordinates {
                twist: coords::twist(&inverse),
                flip: coords::flip(&inverse),
                sorted: coords::slice_sorted(&inverse),
                occupancy: cornerslice::corner_occupancy(&inverse) as u8,
            };
            assert_eq!(left.coordinates(&pieces), expected);
        }
    }
}
