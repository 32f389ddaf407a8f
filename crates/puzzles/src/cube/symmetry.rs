//! The 48 symmetries of the cube (rotations and reflections) as cubie cubes, and conjugation.
//!
//! They are generated, as in Kociemba's solver, from four basic ones: a 120-degree turn about
//! the URF-DBL diagonal, a half turn about the F-B axis, a quarter turn about the U-D axis and
//! the reflection through the L-R plane (its corners carry twists 3..6). Symmetry
//! `16a + 8b + 2c + d` is `URF3^a F2^b U4^c LR2^d`; the first 16 keep the U-D axis.

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
