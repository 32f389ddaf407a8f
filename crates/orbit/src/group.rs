//! The order of the group a set of moves generates, by the Schreier-Sims method in Knuth's
//! form ("Efficient representation of perm groups", 1991): a table of coset representatives,
//! one row per base point, filled by sifting; the order is the product of the rows' sizes.
//!
//! The moves act on points `(slot, orientation)` of every orbit: a piece in slot `j` turned `o`
//! goes to the slot `i` whose permutation entry is `j`, turned `o + orientation[i]`. That action
//! is faithful, so the order is the exact number of positions the moves reach from a solved
//! pattern of distinct pieces. The 3x3x3's 48 points take milliseconds, the megaminx's 120 well
//! under a second.

use super::definition::{OrbitDef, Transformation};
use num_bigint::BigUint;

/// A permutation of points: `p[x]` is where point `x` goes.
type Perm = Vec<u16>;

/// The permutation of points a transformation makes.
pub fn point_permutation(t: &Transformation, orbits: &[OrbitDef]) -> Perm {
    let total: usize = orbits
        .iter()
        .map(|o| o.pieces * o.orientations as usize)
        .sum();
    let mut p = vec![0u16; total];
    let mut base = 0;
    for (part, def) in t.orbits.iter().zip(orbits) {
        let k = def.orientations as usize;
        for (i, (&from, &twist)) in part.permutation.iter().zip(&part.orientation).enumerate() {
            for o in 0..k {
                let src = base + from as usize * k + o;
                let dst = base + i * k + (o + twist as usize) % k;
                p[src] = dst as u16;
            }
        }
        base += def.pieces * k;
    }
    p
}

/// `a` then `b`.
fn then(a: &Perm, b: &Perm) -> Perm {
    a.iter().map(|&x| b[x as usize]).collect()
}

fn inverse(a: &Perm) -> Perm {
    let mut inv = vec![0u16; a.len()];
    for (x, &y) in a.iter().enumerate() {
        inv[y as usize] = x as u16;
    }
    inv
}

/// Knuth's table: for each base point `k`, the representatives `trans[k][j]` (mapping `k` to `j`)
/// and the generators `gens[k]` of the stabiliser of the points before `k`.
struct SimsTable {
    trans: Vec<Vec<Option<Perm>>>,
    gens: Vec<Vec<Perm>>,
}

impl SimsTable {
    fn new(n: usize) -> Self {
        let identity: Perm = (0..n as u16).collect();
        let trans = (0..n)
            .map(|k| {
                let mut row = vec![None; n];
                row[k] = Some(identity.clone());
                row
            })
            .collect();
        Self {
            trans,
            gens: vec![Vec::new(); n],
        }
    }

    /// Whether `g` (fixing the points before `k`) is in the group the table holds from `k` on.
    fn contains(&self, k: usize, g: &Perm) -> bool {
        let mut g = g.clone();
        for i in k..g.len() {
            let j = g[i] as usize;
            if j == i {
                continue;
            }
            match &self.trans[i][j] {
                Some(sigma) => g = then(&g, &inverse(sigma)),
                None => return false,
            }
        }
        true
    }

    fn add(&mut self, k: usize, g: Perm) {
        if k >= g.len() || self.contains(k, &g) {
            return;
        }
        self.gens[k].push(g.clone());
        let reps: Vec<Perm> = self.trans[k].iter().flatten().cloned().collect();
        for sigma in reps {
            self.extend(k, then(&sigma, &g));
        }
    }

    fn extend(&mut self, k: usize, tau: Perm) {
        let j = tau[k] as usize;
        match &self.trans[k][j] {
            None => {
                self.trans[k][j] = Some(tau.clone());
                let gens = self.gens[k].clone();
                for g in gens {
                    self.extend(k, then(&tau, &g));
                }
            }
            Some(sigma) => {
                let fixed = then(&tau, &inverse(sigma));
                self.add(k + 1, fixed);
            }
        }
    }
}

/// Stack for the table's recursion, which goes as deep as the orbits are long.
const STACK_BYTES: usize = 512 << 20;
/// The most points (slots x orientations, over all orbits) the table takes: it holds up to
/// one representative of every point per point (the megaminx has 120 points, the 4x4x4 about
/// 150; twsearch's largest cubes reach thousands, whose table would not fit in memory).
pub const MAX_POINTS: usize = 1024;

/// Why a group's table cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the puzzle has {points} points (slots times orientations); the group order is computed for at most {MAX_POINTS}")]
pub struct TooManyPoints {
    /// Points of the puzzle.
    pub points: usize,
}

/// The group `generators` generate, as Knuth's table: its exact order, and uniformly random
/// elements.
#[derive(Debug, Clone)]
pub struct Group {
    /// Per base point, its coset representatives (those present).
    levels: Vec<Vec<Perm>>,
    orbits: Vec<OrbitDef>,
}

impl Group {
    /// The group of `generators` acting on `orbits`; refused past [`MAX_POINTS`].
    pub fn new(generators: &[Transformation], orbits: &[OrbitDef]) -> Result<Self, TooManyPoints> {
        let points: usize = orbits
            .iter()
            .map(|o| o.pieces * o.orientations as usize)
            .sum();
        if points > MAX_POINTS {
            return Err(TooManyPoints { points });
        }
        let perms: Vec<Perm> = generators
            .iter()
            .map(|g| point_permutation(g, orbits))
            .collect();
        let n = perms.first().map_or(0, Vec::len);
        let work = move || {
            let mut table = SimsTable::new(n);
            for p in perms {
                table.add(0, p);
            }
            table
                .trans
                .into_iter()
                .map(|row| row.into_iter().flatten().collect::<Vec<Perm>>())
                .collect::<Vec<_>>()
        };
        let levels = std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn(work)
            .expect("a thread for the group's table")
            .join()
            .expect("the group's table does not panic");
        Ok(Self {
            levels,
            orbits: orbits.to_vec(),
        })
    }

    /// The exact order.
    pub fn order(&self) -> BigUint {
        self.levels
            .iter()
            .map(|row| BigUint::from(row.len()))
            .product::<BigUint>()
    }

    /// A uniformly random element: one representative of each level, chosen uniformly, composed
    /// from the last level to the first (every element is one such product, exactly once).
    pub fn random(&self, rng: &mut impl rand::Rng) -> Transformation {
        let n = self.levels.len();
        let mut g: Perm = (0..n as u16).collect();
        for row in self.levels.iter().rev() {
            let pick = &row[rng.gen_range(0..row.len())];
            g = then(&g, pick);
        }
        transformation_of(&g, &self.orbits)
    }
}

/// The transformation whose action on points is `p` (the inverse of [`point_permutation`]).
fn transformation_of(p: &Perm, orbits: &[OrbitDef]) -> Transformation {
    let mut base = 0;
    let parts = orbits
        .iter()
        .map(|def| {
            let k = def.orientations as usize;
            let mut permutation = vec![0u8; def.pieces];
            let mut orientation = vec![0u8; def.pieces];
            for from in 0..def.pieces {
                let to = p[base + from * k] as usize - base;
                permutation[to / k] = from as u8;
                orientation[to / k] = (to % k) as u8;
            }
            base += def.pieces * k;
            super::OrbitTransformation {
                permutation,
                orientation,
            }
        })
        .collect();
    Transformation { orbits: parts }
}

/// The exact order of the group `generators` generate (acting on `orbits`).
pub fn group_order(
    generators: &[Transformation],
    orbits: &[OrbitDef],
) -> Result<BigUint, TooManyPoints> {
    Ok(Group::new(generators, orbits)?.order())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn points_and_transformations_convert_both_ways() {
        let orbits = vec![OrbitDef {
            name: "A".into(),
            pieces: 3,
            orientations: 3,
        }];
        let t = Transformation {
            orbits: vec![super::super::OrbitTransformation {
                permutation: vec![1, 2, 0],
                orientation: vec![1, 0, 0],
            }],
        };
        assert_eq!(
            transformation_of(&point_permutation(&t, &orbits), &orbits),
            t
        );
        let group = Group::new(&[t], &orbits).unwrap();
        assert_eq!(group.order(), BigUint::from(9u32));
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..500 {
            seen.insert(group.random(&mut rng));
        }
        assert_eq!(seen.len(), 9, "every element comes up");
    }
}
