//! Symmetry classes of a coordinate under the 16 symmetries that keep the U-D axis.
//!
//! Those symmetries map `G1` to itself and the 18 face turns to face turns, so two positions
//! that are conjugate have the same phase-1 and phase-2 distances. A pruning table therefore
//! needs one row per class of one coordinate (the twist in phase 1, the corner permutation in
//! phase 2): about 16 times fewer rows.

use godsearch_puzzles::cube::symmetry::{Symmetries, UD_SYMMETRIES};
use godsearch_puzzles::cube::CubieCube;

/// The classes of a coordinate with `count` values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classes {
    /// Class of each value.
    pub class: Vec<u16>,
    /// For each value, a symmetry `s` with `conjugate(value, s)` = its class representative.
    pub to_rep: Vec<u8>,
    /// The representative (smallest value) of each class.
    pub rep: Vec<u32>,
    /// For each class, bit `s` set when symmetry `s` maps the representative to itself.
    pub stabiliser: Vec<u16>,
}

impl Classes {
    /// Sorts the values `0..count` into classes; `conjugate(v, s)` is the value of the cube
    /// `S^-1 C S` for a cube `C` of value `v`.
    pub fn new(count: usize, syms: &Symmetries, conjugate: impl Fn(usize, usize) -> usize) -> Self {
        let mut class = vec![u16::MAX; count];
        let mut to_rep = vec![0u8; count];
        let (mut rep, mut stabiliser) = (Vec::new(), Vec::new());
        for v in 0..count {
            if class[v] != u16::MAX {
                continue;
            }
            let k = rep.len() as u16;
            rep.push(v as u32);
            let mut mask = 0u16;
            for s in 0..UD_SYMMETRIES {
                let w = conjugate(v, s);
                if w == v {
                    mask |= 1 << s;
                }
                if class[w] == u16::MAX {
                    class[w] = k;
                    to_rep[w] = syms.inverse(s) as u8;
                }
            }
            stabiliser.push(mask);
        }
        Classes {
            class,
            to_rep,
            rep,
            stabiliser,
        }
    }

    /// Number of classes.
    pub fn len(&self) -> usize {
        self.rep.len()
    }
}

/// `conjugate(x, s)` for every value `x` of a coordinate whose conjugates depend on it alone:
/// entry `x * 16 + s`.
pub fn conjugation_table(
    count: usize,
    syms: &Symmetries,
    cube_of: impl Fn(usize) -> CubieCube,
    value_of: impl Fn(&CubieCube) -> u16,
) -> Vec<u16> {
    let mut table = vec![0u16; count * UD_SYMMETRIES];
    for x in 0..count {
        let c = cube_of(x);
        for s in 0..UD_SYMMETRIES {
            table[x * UD_SYMMETRIES + s] = value_of(&syms.conjugate(&c, s));
        }
    }
    table
}
