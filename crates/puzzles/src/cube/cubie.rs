//! The cubie layer: where each corner and edge cubie sits and how it is turned.
//!
//! Numbering (Kociemba's): corners `URF UFL ULB UBR DFR DLF DBL DRB` (0..8), edges
//! `UR UF UL UB DR DF DL DB FR FL BL BR` (0..12). `cp[i]` is the cubie at position `i` and
//! `co[i]` its twist (0..3; 3..6 for the mirror images that only symmetries produce); `ep`, `eo`
//! likewise with flips 0..2. [`CubieCube::then`]`(b)` applies `self` first, then `b`, the core
//! crate's convention, so a move sequence is a left-to-right product.

use thiserror::Error;

/// Number of corner cubies.
pub const CORNERS: usize = 8;
/// Number of edge cubies.
pub const EDGES: usize = 12;

/// Corner names in position order.
pub const CORNER_NAMES: [&str; CORNERS] = ["URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB"];
/// Edge names in position order.
pub const EDGE_NAMES: [&str; EDGES] = [
    "UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL", "BL", "BR",
];

/// A cube as cubie permutations and orientations. Every value built from moves is a valid cube;
/// [`CubieCube::check`] tells whether an arbitrary one is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CubieCube {
    /// Corner cubie at each corner position.
    pub cp: [u8; CORNERS],
    /// Twist of the corner at each position: 0..3 (3..6 mirrored).
    pub co: [u8; CORNERS],
    /// Edge cubie at each edge position.
    pub ep: [u8; EDGES],
    /// Flip of the edge at each position: 0 or 1.
    pub eo: [u8; EDGES],
}

/// Why a cubie cube is not a position that face turns can reach.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CubieError {
    /// A corner cubie appears twice (and another never).
    #[error("corner {0} appears more than once")]
    DuplicateCorner(&'static str),
    /// An edge cubie appears twice (and another never).
    #[error("edge {0} appears more than once")]
    DuplicateEdge(&'static str),
    /// The corner twists do not add up to a multiple of 3.
    #[error("a corner is twisted: the corner twists add up to {0} mod 3, not 0")]
    TwistedCorner(u8),
    /// The edge flips do not add up to an even number.
    #[error("an edge is flipped: an odd number of edges is flipped")]
    FlippedEdge,
    /// The corner and edge permutations have different parities.
    #[error("permutation parity: the corner permutation is {corners} but the edge permutation is {edges} (two cubies are swapped)")]
    Parity {
        /// Parity of the corner permutation.
        corners: &'static str,
        /// Parity of the edge permutation.
        edges: &'static str,
    },
}

impl Default for CubieCube {
    fn default() -> Self {
        Self::SOLVED
    }
}

/// The six faces in facelet order; a quarter turn of face `f` is clockwise seen from outside.
pub const FACES: [char; 6] = ['U', 'R', 'F', 'D', 'L', 'B'];

const fn cube(cp: [u8; 8], co: [u8; 8], ep: [u8; 12], eo: [u8; 12]) -> CubieCube {
    CubieCube { cp, co, ep, eo }
}

/// Clockwise quarter turns of `U R F D L B`, as "cubie now at position i" tables.
const FACE_TURNS: [CubieCube; 6] = [
    cube(
        [3, 0, 1, 2, 4, 5, 6, 7],
        [0; 8],
        [3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11],
        [0; 12],
    ),
    cube(
        [4, 1, 2, 0, 7, 5, 6, 3],
        [2, 0, 0, 1, 1, 0, 0, 2],
        [8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0],
        [0; 12],
    ),
    cube(
        [1, 5, 2, 3, 0, 4, 6, 7],
        [1, 2, 0, 0, 2, 1, 0, 0],
        [0, 9, 2, 3, 4, 8, 6, 7, 1, 5, 10, 11],
        [0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0],
    ),
    cube(
        [0, 1, 2, 3, 5, 6, 7, 4],
        [0; 8],
        [0, 1, 2, 3, 5, 6, 7, 4, 8, 9, 10, 11],
        [0; 12],
    ),
    cube(
        [0, 2, 6, 3, 4, 1, 5, 7],
        [0, 1, 2, 0, 0, 2, 1, 0],
        [0, 1, 10, 3, 4, 5, 9, 7, 8, 2, 6, 11],
        [0; 12],
    ),
    cube(
        [0, 1, 3, 7, 4, 5, 2, 6],
        [0, 0, 1, 2, 0, 0, 2, 1],
        [0, 1, 2, 11, 4, 5, 6, 10, 8, 9, 3, 7],
        [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1],
    ),
];

/// Combines two corner twists where either may be mirrored (3..6), as Kociemba's solver does:
/// the twist of `a` seen through `b`.
#[inline]
fn combine_twist(a: u8, b: u8) -> u8 {
    match (a < 3, b < 3) {
        (true, true) => (a + b) % 3,
        (true, false) => {
            let t = a + b;
            if t >= 6 {
                t - 3
            } else {
                t
            }
        }
        (false, true) => {
            let t = a + 3 - b;
            if t < 3 {
                t + 3
            } else if t >= 6 {
                t - 3
            } else {
                t
            }
        }
        (false, false) => (a + 3 - b) % 3,
    }
}

impl CubieCube {
    /// The solved cube.
    pub const SOLVED: CubieCube = cube(
        [0, 1, 2, 3, 4, 5, 6, 7],
        [0; 8],
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
        [0; 12],
    );

    /// The clockwise quarter turn of face `face` (index into [`FACES`]).
    pub fn face_turn(face: usize) -> CubieCube {
        FACE_TURNS[face]
    }

    /// `self` followed by `b` (for a move `b`: the cube after making the move).
    #[inline]
    pub fn then(&self, b: &CubieCube) -> CubieCube {
        let mut out = CubieCube::SOLVED;
        self.corners_then_into(b, &mut out);
        self.edges_then_into(b, &mut out);
        out
    }

    /// The corner part of [`CubieCube::then`], written into `out`.
    #[inline]
    pub fn corners_then_into(&self, b: &CubieCube, out: &mut CubieCube) {
        for i in 0..CORNERS {
            let from = b.cp[i] as usize;
            out.cp[i] = self.cp[from];
            out.co[i] = combine_twist(self.co[from], b.co[i]);
        }
    }

    /// The edge part of [`CubieCube::then`], written into `out`.
    #[inline]
    pub fn edges_then_into(&self, b: &CubieCube, out: &mut CubieCube) {
        for i in 0..EDGES {
            let from = b.ep[i] as usize;
            out.ep[i] = self.ep[from];
            out.eo[i] = (self.eo[from] + b.eo[i]) & 1;
        }
    }

    /// The inverse: `c.then(&c.inverse())` is solved.
    pub fn inverse(&self) -> CubieCube {
        let mut inv = CubieCube::SOLVED;
        for i in 0..CORNERS {
            inv.cp[self.cp[i] as usize] = i as u8;
        }
        for i in 0..CORNERS {
            let twist = self.co[inv.cp[i] as usize];
            inv.co[i] = if twist >= 3 { twist } else { (3 - twist) % 3 };
        }
        for i in 0..EDGES {
            inv.ep[self.ep[i] as usize] = i as u8;
        }
        for i in 0..EDGES {
            inv.eo[i] = self.eo[inv.ep[i] as usize];
        }
        inv
    }

    /// `true` for the solved cube.
    pub fn is_solved(&self) -> bool {
        *self == CubieCube::SOLVED
    }

    /// Checks that face turns can reach this cube: each cubie once, twists summing to 0 mod 3,
    /// flips to an even number, and equal corner and edge parities. The first failure is
    /// reported, in that order.
    pub fn check(&self) -> Result<(), CubieError> {
        let mut seen = [false; EDGES];
        for &c in &self.cp {
            if std::mem::replace(&mut seen[c as usize], true) {
                return Err(CubieError::DuplicateCorner(CORNER_NAMES[c as usize]));
            }
        }
        let mut seen = [false; EDGES];
        for &e in &self.ep {
            if std::mem::replace(&mut seen[e as usize], true) {
                return Err(CubieError::DuplicateEdge(EDGE_NAMES[e as usize]));
            }
        }
        let twist = self.co.iter().map(|&t| t as u32).sum::<u32>() % 3;
        if twist != 0 {
            return Err(CubieError::TwistedCorner(twist as u8));
        }
        if self.eo.iter().map(|&f| f as u32).sum::<u32>() % 2 != 0 {
            return Err(CubieError::FlippedEdge);
        }
        let (corners, edges) = (self.corner_parity_odd(), self.edge_parity_odd());
        if corners != edges {
            let word = |odd: bool| if odd { "odd" } else { "even" };
            return Err(CubieError::Parity {
                corners: word(corners),
                edges: word(edges),
            });
        }
        Ok(())
    }

    /// Whether the corners alone are those of a reachable cube: each corner cubie once, twists
    /// adding up to a multiple of 3. All a 2x2x2 has (its edges are not read).
    pub fn check_corners(&self) -> Result<(), CubieError> {
        let mut seen = [false; CORNERS];
        for &c in &self.cp {
            if std::mem::replace(&mut seen[c as usize], true) {
                return Err(CubieError::DuplicateCorner(CORNER_NAMES[c as usize]));
            }
        }
        let twist = self.co.iter().map(|&t| t as u32).sum::<u32>() % 3;
        if twist != 0 {
            return Err(CubieError::TwistedCorner(twist as u8));
        }
        Ok(())
    }

    /// `true` when the corner permutation is odd.
    pub fn corner_parity_odd(&self) -> bool {
        godsearch_core::perm::is_odd(&self.cp)
    }

    /// `true` when the edge permutation is odd.
    pub fn edge_parity_odd(&self) -> bool {
        godsearch_core::perm::is_odd(&self.ep)
    }
}
