//! Uniformly random positions.

use super::coord::{self, CORNER_PERMS, EDGE_PERMS, FLIPS, TWISTS};
use super::cubie::CubieCube;
use rand::Rng;

/// A uniformly random 3x3x3 position: drawn coordinate by coordinate (corner and edge
/// permutations of equal parity, any twist and flip, which the last corner and edge complete),
/// so each of the 43,252,003,274,489,856,000 positions is equally likely.
pub fn random_cube(rng: &mut impl Rng) -> CubieCube {
    let mut c = CubieCube::SOLVED;
    coord::set_corner_perm(&mut c, rng.gen_range(0..CORNER_PERMS) as u16);
    coord::set_twist(&mut c, rng.gen_range(0..TWISTS) as u16);
    coord::perm_unrank(rng.gen_range(0..EDGE_PERMS), &mut c.ep);
    if c.corner_parity_odd() != c.edge_parity_odd() {
        c.ep.swap(0, 1);
    }
    coord::set_flip(&mut c, rng.gen_range(0..FLIPS) as u16);
    c
}
