//! The order of the group a set of moves generates, by the Schreier-Sims method in Knuth's
//! form ("Efficient representation of perm groups", 1991): a table of coset representatives,
//! one row per base point, filled by sifting; the order is the product of the rows' sizes.
//!
//! The moves act on points `(slot, orientation)` of every orbit: a piece in slot `j` turned `o`
//! goes to the slot `i` whose permutation entry is `j`, turned `o + orientation[i]`. That action
//! is faithful, so the order is the exact number of positions the moves reach from a solved
//! pattern of distinct pieces. The 3x3x3's 48 points take milliseconds, the megaminx's 120 well
//! under a second.
//!
//! The same table gives uniformly random elements ([`Group::random`]), the number of
//! distinguishable positions where pieces are alike ([`distinct_positions`], by
//! orbit-stabiliser), and whether the moves reach a pattern at all ([`reaches`], by sifting).

use super::definition::{OrbitDef, Pattern, Transformation};
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
        checked_points(orbits)?;
        let perms: Vec<Perm> = generators
            .iter()
            .map(|g| point_permutation(g, orbits))
            .collect();
        let levels = sims_table(perms)
            .trans
            .into_iter()
            .map(|row| row.into_iter().flatten().collect::<Vec<Perm>>())
            .collect();
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

/// The points of `orbits` (slots times orientations), refused past [`MAX_POINTS`].
fn checked_points(orbits: &[OrbitDef]) -> Result<usize, TooManyPoints> {
    let points: usize = orbits
        .iter()
        .map(|o| o.pieces * o.orientations as usize)
        .sum();
    match points > MAX_POINTS {
        true => Err(TooManyPoints { points }),
        false => Ok(points),
    }
}

/// Knuth's table of the group `perms` generate, filled on a thread with a stack deep enough
/// for its recursion.
fn sims_table(perms: Vec<Perm>) -> SimsTable {
    let n = perms.first().map_or(0, Vec::len);
    let work = move || {
        let mut table = SimsTable::new(n);
        for p in perms {
            table.add(0, p);
        }
        table
    };
    std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(work)
        .expect("a thread for the group's table")
        .join()
        .expect("the group's table does not panic")
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

/// The number of distinct patterns the moves reach from `pattern`, where pieces that share a
/// number are alike (the 4x4x4's centres): the orbit-stabiliser count `|G| / |S|`, `S` the
/// elements that leave `pattern` looking the same. Exact when it answers; `None` where this
/// method cannot find `S`: alike pieces with more than one orientation, or moves that, with
/// every distinct piece fixed, do not make every even arrangement of the alike ones.
///
/// How: the points of distinct pieces go first in the table's base, so the group held from
/// the first alike point on is `K`, the elements fixing every distinct piece. When `K` holds
/// every even permutation of each orbit's alike pieces (3-cycles sifted through the table), it
/// is exactly the permutations whose parities per orbit lie in the span `V` of its
/// generators' parities; the pattern's own symmetries `Y` (alike pieces swapped among
/// themselves) meet it in `|Y| |V| / 2^r` elements, `r` the orbits with alike pieces.
pub fn distinct_positions(
    generators: &[Transformation],
    orbits: &[OrbitDef],
    pattern: &Pattern,
) -> Result<Option<BigUint>, TooManyPoints> {
    let points = checked_points(orbits)?;
    // Per orbit: the base of its points, and whether some of its pieces are alike.
    let mut alike_orbits = Vec::new();
    let mut base = 0;
    for (def, part) in orbits.iter().zip(&pattern.orbits) {
        let mut pieces = part.pieces.clone();
        pieces.sort_unstable();
        if pieces.windows(2).any(|w| w[0] == w[1]) {
            if def.orientations > 1 {
                return Ok(None);
            }
            alike_orbits.push((base, def.pieces, &part.pieces));
        }
        base += def.pieces * def.orientations as usize;
    }
    // Relabel the points: those of distinct pieces first, then each alike orbit's in turn.
    let is_alike = |x: usize| {
        alike_orbits
            .iter()
            .any(|&(b, n, _)| (b..b + n).contains(&x))
    };
    let mut order: Vec<usize> = (0..points).filter(|&x| !is_alike(x)).collect();
    let fixed = order.len();
    for &(b, n, _) in &alike_orbits {
        order.extend(b..b + n);
    }
    let mut label = vec![0u16; points];
    for (new, &old) in order.iter().enumerate() {
        label[old] = new as u16;
    }
    let perms: Vec<Perm> = generators
        .iter()
        .map(|g| {
            let p = point_permutation(g, orbits);
            let mut q = vec![0u16; points];
            for (x, &y) in p.iter().enumerate() {
                q[label[x] as usize] = label[y as usize];
            }
            q
        })
        .collect();
    if perms.is_empty() {
        return Ok(Some(BigUint::from(1u8)));
    }
    let table = sims_table(perms);
    let size = |rows: &[Vec<Option<Perm>>]| {
        rows.iter()
            .map(|row| BigUint::from(row.iter().flatten().count()))
            .product::<BigUint>()
    };
    let order_g = size(&table.trans);
    // Each alike orbit's span in the relabelled points.
    let mut spans = Vec::new();
    let mut start = fixed;
    for &(_, n, _) in &alike_orbits {
        spans.push(start..start + n);
        start += n;
    }
    // K holds every even permutation of each alike orbit: its 3-cycles (a b c), c past b.
    let identity: Perm = (0..points as u16).collect();
    for span in &spans {
        for c in span.start + 2..span.end {
            let mut cycle = identity.clone();
            let (a, b) = (span.start, span.start + 1);
            cycle[a] = b as u16;
            cycle[b] = c as u16;
            cycle[c] = a as u16;
            if !table.contains(fixed, &cycle) {
                return Ok(None);
            }
        }
    }
    // V: the span over GF(2) of K's generators' parities, one bit per alike orbit.
    if spans.len() > u64::BITS as usize {
        return Ok(None);
    }
    let mut basis: Vec<u64> = Vec::new();
    for g in table.gens[fixed..].iter().flatten() {
        let mut bits = spans
            .iter()
            .enumerate()
            .filter(|(_, span)| is_odd_on(g, (*span).clone()))
            .fold(0u64, |acc, (i, _)| acc | 1 << i);
        for &b in &basis {
            bits = bits.min(bits ^ b);
        }
        if bits != 0 {
            basis.push(bits);
        }
    }
    // |Y|: the arrangements of alike pieces among themselves.
    let mut symmetries = BigUint::from(1u8);
    for &(_, _, pieces) in &alike_orbits {
        let mut counts = std::collections::BTreeMap::new();
        for &p in pieces {
            *counts.entry(p).or_insert(0u32) += 1;
        }
        for &c in counts.values() {
            symmetries *= (1..=c).map(BigUint::from).product::<BigUint>();
        }
    }
    let stabiliser = symmetries << basis.len() >> spans.len();
    if stabiliser == BigUint::from(0u8) || &order_g % &stabiliser != BigUint::from(0u8) {
        return Ok(None);
    }
    Ok(Some(order_g / stabiliser))
}

/// Whether `generators` take `solved` to `pattern` (patterns of `orbits`), or `None` where
/// this cannot be told: [`Membership::reaches`] with a table made for this one question.
pub fn reaches(
    generators: &[Transformation],
    orbits: &[OrbitDef],
    solved: &Pattern,
    pattern: &Pattern,
) -> Result<Option<bool>, TooManyPoints> {
    Membership::new(generators, orbits)?.reaches(solved, pattern)
}

/// The group `generators` generate as a Schreier-Sims table kept for membership questions,
/// so that a batch of positions builds it once.
pub struct Membership {
    generators: Vec<Transformation>,
    orbits: Vec<OrbitDef>,
    table: SimsTable,
}

impl Membership {
    /// The table of the group of `generators` acting on `orbits`; refused past [`MAX_POINTS`].
    pub fn new(generators: &[Transformation], orbits: &[OrbitDef]) -> Result<Self, TooManyPoints> {
        checked_points(orbits)?;
        let table = sims_table(
            generators
                .iter()
                .map(|g| point_permutation(g, orbits))
                .collect(),
        );
        Ok(Self {
            generators: generators.to_vec(),
            orbits: orbits.to_vec(),
            table,
        })
    }

    /// Whether the generators take `solved` to `pattern`, or `None` where this cannot be
    /// told: alike pieces for which [`distinct_positions`] finds no count. Exact when it
    /// answers: the pieces must be the same multiset; one assignment of `pattern`'s pieces to
    /// `solved`'s slots is sifted through the table, and where pieces are alike, one
    /// assignment for each combination of parities of the alike orbits (assignments of equal
    /// parities differ by even arrangements of alike pieces, which the group then holds).
    pub fn reaches(
        &self,
        solved: &Pattern,
        pattern: &Pattern,
    ) -> Result<Option<bool>, TooManyPoints> {
        let orbits = &self.orbits;
        let mut parts = Vec::with_capacity(orbits.len());
        // Per alike orbit: two slots of `pattern` holding alike pieces, to swap.
        let mut swaps = Vec::new();
        for (o, ((def, s), p)) in orbits
            .iter()
            .zip(&solved.orbits)
            .zip(&pattern.orbits)
            .enumerate()
        {
            let mut wanted = s.pieces.clone();
            let mut have = p.pieces.clone();
            wanted.sort_unstable();
            have.sort_unstable();
            if wanted != have || p.orientation.iter().any(|&x| x >= def.orientations) {
                return Ok(Some(false));
            }
            let alike = wanted.windows(2).any(|w| w[0] == w[1]);
            if alike && def.orientations > 1 {
                return Ok(None);
            }
            let mut used = vec![false; s.pieces.len()];
            let mut permutation = vec![0u8; s.pieces.len()];
            let mut orientation = vec![0u8; s.pieces.len()];
            for (i, &piece) in p.pieces.iter().enumerate() {
                let j = (0..s.pieces.len())
                    .find(|&j| !used[j] && s.pieces[j] == piece)
                    .expect("the multisets are equal");
                used[j] = true;
                permutation[i] = j as u8;
                orientation[i] =
                    (p.orientation[i] + def.orientations - s.orientation[j]) % def.orientations;
            }
            if alike {
                let (a, b) = (0..p.pieces.len())
                    .flat_map(|a| (a + 1..p.pieces.len()).map(move |b| (a, b)))
                    .find(|&(a, b)| p.pieces[a] == p.pieces[b])
                    .expect("some pieces are alike");
                swaps.push((o, a, b));
            }
            parts.push(super::OrbitTransformation {
                permutation,
                orientation,
            });
        }
        if swaps.len() > MAX_ALIKE_ORBITS {
            return Ok(None);
        }
        let assignment = Transformation { orbits: parts };
        for flips in 0..1u32 << swaps.len() {
            let mut t = assignment.clone();
            for (bit, &(o, a, b)) in swaps.iter().enumerate() {
                if flips >> bit & 1 == 1 {
                    t.orbits[o].permutation.swap(a, b);
                }
            }
            if self.table.contains(0, &point_permutation(&t, orbits)) {
                return Ok(Some(true));
            }
        }
        match swaps.is_empty() {
            true => Ok(Some(false)),
            false => Ok(distinct_positions(&self.generators, orbits, solved)?.map(|_| false)),
        }
    }
}

/// The most orbits with alike pieces [`reaches`] tries every parity combination of.
const MAX_ALIKE_ORBITS: usize = 16;

/// Whether `g`, which maps `span` onto itself, permutes it oddly.
fn is_odd_on(g: &Perm, span: std::ops::Range<usize>) -> bool {
    let mut seen = vec![false; span.len()];
    let mut odd = false;
    for start in span.clone() {
        if seen[start - span.start] {
            continue;
        }
        let mut x = start;
        let mut length = 0;
        while !seen[x - span.start] {
            seen[x - span.start] = true;
            x = g[x] as usize;
            length += 1;
        }
        odd ^= length % 2 == 0;
    }
    odd
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
