//! The 48 symmetries of the cube (rotations and reflections) as cubie cubes, conjugation, and
//! the symmetry classes of a coordinate.
//!
//! They are generated, as in Kociemba's solver, from four basic ones: a 120-degree turn about
//! the URF-DBL diagonal, a half turn about the F-B axis, a quarter turn about the U-D axis and
//! the reflection through the L-R plane (its corners carry twists 3..6). Symmetry
//! `16a + 8b + 2c + d` is `URF3^a F2^b U4^c LR2^d`; the first 16 keep the U-D axis.
//!
//! Every cube search that uses symmetry takes the group from here; what differs is what a state
//! is, and so how its class is found:
//! - a coordinate (the two-phase tables' twist and corner permutation): every value's class,
//!   the symmetry to its representative and the representative's stabiliser, tabulated once
//!   ([`CoordinateClasses`]);
//! - a whole 3x3x3 position (the enumeration's classes,
//!   [`ClassReducer`](super::classes::ClassReducer)): too many to tabulate, so the smallest of
//!   its 48 (or 96, with the inverse) conjugates' keys, found through a table of corner
//!   conjugates;
//! - a 2x2x2 position ([`Cube2Space`](super::Cube2Space)): the 24 rotations turn the whole cube,
//!   not its moves, so a position is brought into the one frame where corner DBL is home.

use super::cubie::CubieCube;

/// Number of symmetries of the cube.
pub const SYMMETRIES: usize = 48;
/// Symmetries that map the U-D axis to itself (the first 16).
pub const UD_SYMMETRIES: usize = 16;

const URF3: CubieCube = CubieCube {
    cp: [0, 4, 5, 1, 3, 7, 6, 2],
    co: [1, 2, 1, 2, 2, 1, 2, 1],
    ep: [1, 8, 5, 9, 3, 11, 7, 10, 0, 4, 6, 2],
    eo: [1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1],
};
const F2: CubieCube = CubieCube {
    cp: [5, 4, 7, 6, 1, 0, 3, 2],
    co: [0; 8],
    ep: [6, 5, 4, 7, 2, 1, 0, 3, 9, 8, 11, 10],
    eo: [0; 12],
};
const U4: CubieCube = CubieCube {
    cp: [3, 0, 1, 2, 7, 4, 5, 6],
    co: [0; 8],
    ep: [3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10],
    eo: [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1],
};
const LR2: CubieCube = CubieCube {
    cp: [1, 0, 3, 2, 5, 4, 7, 6],
    co: [3; 8],
    ep: [2, 1, 0, 3, 6, 5, 4, 7, 9, 8, 11, 10],
    eo: [0; 12],
};

/// The symmetry group, with each element's inverse.
#[derive(Debug, Clone)]
pub struct Symmetries {
    cubes: Vec<CubieCube>,
    inverses: Vec<usize>,
}

impl Default for Symmetries {
    fn default() -> Self {
        Self::new()
    }
}

impl Symmetries {
    /// All 48 symmetries in Kociemba's order.
    pub fn new() -> Self {
        let mut cubes = Vec::with_capacity(SYMMETRIES);
        let mut c = CubieCube::SOLVED;
        for _ in 0..3 {
            for _ in 0..2 {
                for _ in 0..4 {
                    for _ in 0..2 {
                        cubes.push(c);
                        c = c.then(&LR2);
                    }
                    c = c.then(&U4);
                }
                c = c.then(&F2);
            }
            c = c.then(&URF3);
        }
        let inverses = cubes
            .iter()
            .map(|s| {
                cubes
                    .iter()
                    .position(|t| s.then(t).is_solved())
                    .expect("the symmetries form a group")
            })
            .collect();
        Symmetries { cubes, inverses }
    }

    /// The symmetry `s` as a cubie cube.
    pub fn cube(&self, s: usize) -> &CubieCube {
        &self.cubes[s]
    }

    /// The index of the inverse of symmetry `s`.
    pub fn inverse(&self, s: usize) -> usize {
        self.inverses[s]
    }

    /// `S^-1 c S`: the cube `c` seen through symmetry `s`. Distances from solved are unchanged.
    pub fn conjugate(&self, c: &CubieCube, s: usize) -> CubieCube {
        self.cubes[self.inverses[s]].then(c).then(&self.cubes[s])
    }
}

/// The classes of a coordinate's values `0..count` under the first `symmetries` symmetries
/// (16 keep the U-D axis; all 48 map the face turns onto face turns): exact, each value is in
/// exactly one class, and conjugate values share their distances in any table of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoordinateClasses {
    /// Class of each value.
    pub class: Vec<u16>,
    /// For each value, a symmetry `s` with `conjugate(value, s)` = its class representative.
    pub to_rep: Vec<u8>,
    /// The representative (smallest value) of each class.
    pub rep: Vec<u32>,
    /// For each class, bit `s` set when symmetry `s` maps the representative to itself.
    pub stabiliser: Vec<u64>,
}

impl CoordinateClasses {
    /// Sorts the values `0..count` into classes; `conjugate(v, s)` is the value of the cube
    /// `S^-1 C S` for a cube `C` of value `v`. Panics if `symmetries` exceeds [`SYMMETRIES`]
    /// or there are more than 65,535 classes (the class numbers are `u16`).
    pub fn new(
        count: usize,
        symmetries: usize,
        syms: &Symmetries,
        conjugate: impl Fn(usize, usize) -> usize,
    ) -> Self {
        assert!(
            symmetries <= SYMMETRIES,
            "the cube has {SYMMETRIES} symmetries"
        );
        let mut class = vec![u16::MAX; count];
        let mut to_rep = vec![0u8; count];
        let (mut rep, mut stabiliser) = (Vec::new(), Vec::new());
        for v in 0..count {
            if class[v] != u16::MAX {
                continue;
            }
            let k = u16::try_from(rep.len()).expect("at most 65,535 classes");
            rep.push(v as u32);
            let mut mask = 0u64;
            for s in 0..symmetries {
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
        CoordinateClasses {
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

    /// `true` when there are no values.
    pub fn is_empty(&self) -> bool {
        self.rep.is_empty()
    }
}

/// `conjugate(x, s)` for every value `x` of a coordinate whose conjugates depend on it alone,
/// under the first `symmetries` symmetries: entry `x * symmetries + s`.
pub fn conjugation_table(
    count: usize,
    symmetries: usize,
    syms: &Symmetries,
    cube_of: impl Fn(usize) -> CubieCube,
    value_of: impl Fn(&CubieCube) -> u16,
) -> Vec<u16> {
    let mut table = vec![0u16; count * symmetries];
    for x in 0..count {
        let c = cube_of(x);
        for s in 0..symmetries {
            table[x * symmetries + s] = value_of(&syms.conjugate(&c, s));
        }
    }
    table
}
