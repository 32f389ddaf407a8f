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
/// method cannot find `S`: moves that, with every distinct piece fixed, do not make every even
/// arrangement of the alike pieces untwisted and every twist of them that sums to zero.
///
/// How: the slots of an orbit fall into sets that the moves carry pieces between; a set
/// holding alike pieces is a *span*, and the points of all other slots (distinct pieces, and
/// slots no move touches) go first in the table's base, so the group held from the first
/// span point on is `K`, the elements fixing every distinct piece. Each element of `K` has,
/// per span, a parity (of its arrangement of the slots) and a twist (the sum of the twists it
/// gives them): a homomorphism onto a small abelian group, whose image `W` the images of
/// `K`'s generators generate. When `K` holds the kernel (checked by sifting: 3-cycles of
/// untwisted slots, and one slot twisted forwards with the next back), `K` is exactly the
/// elements whose image lies in `W`. An element of `S` rearranges alike pieces within their
/// spans with the one twist that keeps each looking as it did, and those twists sum to zero;
/// so `S` is the arrangements `Y` of alike pieces among themselves whose parities `U` have an
/// image in `W` with no twist: `|Y| |U| / 2^r`, `r` the spans.
pub fn distinct_positions(
    generators: &[Transformation],
    orbits: &[OrbitDef],
    pattern: &Pattern,
) -> Result<Option<BigUint>, TooManyPoints> {
    let points = checked_points(orbits)?;
    // The slots the moves can carry a piece between, per orbit: where such a set holds two
    // alike pieces, its points make an alike span (its slots' points, its orientations, and
    // how many pieces of each kind it holds); all other points are of distinct pieces.
    let mut alike = Vec::new();
    let mut base = 0;
    for (o, (def, part)) in orbits.iter().zip(&pattern.orbits).enumerate() {
        let k = def.orientations as usize;
        for slots in carried_together(generators, o, def.pieces) {
            let mut kinds = std::collections::BTreeMap::new();
            for &s in &slots {
                *kinds.entry(part.pieces[s]).or_insert(0u32) += 1;
            }
            if kinds.values().any(|&c| c > 1) {
                let points: Vec<usize> = slots
                    .iter()
                    .flat_map(|&s| (0..k).map(move |t| base + s * k + t))
                    .collect();
                alike.push((points, slots.len(), k, kinds));
            }
        }
        base += def.pieces * k;
    }
    // Relabel the points: those of distinct pieces first, then each alike span's in turn.
    let mut in_span = vec![false; points];
    for (span_points, ..) in &alike {
        for &x in span_points {
            in_span[x] = true;
        }
    }
    let mut order: Vec<usize> = (0..points).filter(|&x| !in_span[x]).collect();
    let fixed = order.len();
    for (span_points, ..) in &alike {
        order.extend(span_points);
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
    // Each span in the relabelled points: its first point, slots and orientations.
    let mut spans = Vec::new();
    let mut start = fixed;
    for &(_, n, k, _) in &alike {
        spans.push(AlikeSpan {
            start,
            slots: n,
            orientations: k,
        });
        start += n * k;
    }
    // K holds the kernel: untwisted 3-cycles (a b c), c past b, and twists (+1 on s, -1 on
    // the slot after it).
    let identity: Perm = (0..points as u16).collect();
    for span in &spans {
        let k = span.orientations;
        for c in 2..span.slots {
            let mut cycle = identity.clone();
            for o in 0..k {
                let [a, b, c] = [0, 1, c].map(|s| span.point(s, o));
                (cycle[a], cycle[b], cycle[c]) = (b as u16, c as u16, a as u16);
            }
            if !table.contains(fixed, &cycle) {
                return Ok(None);
            }
        }
        for s in (0..span.slots.saturating_sub(1)).filter(|_| k > 1) {
            let mut twist = identity.clone();
            for o in 0..k {
                twist[span.point(s, o)] = span.point(s, (o + 1) % k) as u16;
                twist[span.point(s + 1, o)] = span.point(s + 1, (o + k - 1) % k) as u16;
            }
            if !table.contains(fixed, &twist) {
                return Ok(None);
            }
        }
    }
    // W: the images of K's generators and all they generate, each image a number whose
    // digits are, per span, the parity (base 2) and the twist (base k).
    let radices: Vec<usize> = spans.iter().flat_map(|s| [2, s.orientations]).collect();
    let Some(images) = radices.iter().try_fold(1usize, |n, &r| {
        n.checked_mul(r).filter(|&n| n <= MAX_IMAGES)
    }) else {
        return Ok(None);
    };
    let image_of = |g: &Perm| -> Vec<usize> {
        spans
            .iter()
            .flat_map(|span| {
                let (odd, twist) = span.parity_and_twist(g);
                [odd as usize, twist]
            })
            .collect()
    };
    let generator_images: Vec<Vec<usize>> =
        table.gens[fixed..].iter().flatten().map(image_of).collect();
    let digits = |mut x: usize| -> Vec<usize> {
        radices
            .iter()
            .map(|&r| {
                let d = x % r;
                x /= r;
                d
            })
            .collect()
    };
    let number = |d: &[usize]| {
        d.iter()
            .zip(&radices)
            .rev()
            .fold(0, |x, (&d, &r)| x * r + d)
    };
    let mut in_w = vec![false; images];
    in_w[0] = true;
    let mut frontier = vec![0usize];
    while let Some(x) = frontier.pop() {
        let dx = digits(x);
        for g in &generator_images {
            let sum: Vec<usize> = dx
                .iter()
                .zip(g)
                .zip(&radices)
                .map(|((a, b), r)| (a + b) % r)
                .collect();
            let y = number(&sum);
            if !in_w[y] {
                in_w[y] = true;
                frontier.push(y);
            }
        }
    }
    // |U|: the parities of W's images with no twist.
    let untwisted = (0..images)
        .filter(|&x| in_w[x] && digits(x).iter().skip(1).step_by(2).all(|&t| t == 0))
        .count();
    // |Y|: the arrangements of alike pieces among themselves.
    let mut symmetries = BigUint::from(1u8);
    for (.., kinds) in &alike {
        for &c in kinds.values() {
            symmetries *= (1..=c).map(BigUint::from).product::<BigUint>();
        }
    }
    let stabiliser = (symmetries * untwisted) >> spans.len();
    if stabiliser == BigUint::from(0u8) || &order_g % &stabiliser != BigUint::from(0u8) {
        return Ok(None);
    }
    Ok(Some(order_g / stabiliser))
}

/// The slots of orbit `o` (of `slots`) split into the sets the moves carry pieces between.
fn carried_together(generators: &[Transformation], o: usize, slots: usize) -> Vec<Vec<usize>> {
    let mut root: Vec<usize> = (0..slots).collect();
    fn find(root: &mut [usize], x: usize) -> usize {
        let mut x = x;
        while root[x] != x {
            root[x] = root[root[x]];
            x = root[x];
        }
        x
    }
    for g in generators {
        for (to, &from) in g.orbits[o].permutation.iter().enumerate() {
            let (a, b) = (find(&mut root, to), find(&mut root, from as usize));
            root[a] = b;
        }
    }
    let mut sets: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for s in 0..slots {
        let r = find(&mut root, s);
        sets.entry(r).or_default().push(s);
    }
    sets.into_values().collect()
}

/// The most images [`distinct_positions`] lists: parities and twists of the spans.
const MAX_IMAGES: usize = 1 << 20;

/// A span (a set of slots the moves carry pieces between, holding alike pieces) among the
/// relabelled points of [`distinct_positions`].
struct AlikeSpan {
    start: usize,
    slots: usize,
    orientations: usize,
}

impl AlikeSpan {
    /// The point of slot `s` in orientation `o`.
    fn point(&self, s: usize, o: usize) -> usize {
        self.start + s * self.orientations + o
    }

    /// Whether `g` (mapping this span onto itself) arranges its slots oddly, and the sum of
    /// the twists it gives them.
    fn parity_and_twist(&self, g: &Perm) -> (bool, usize) {
        let k = self.orientations;
        let mut to: Perm = vec![0; self.slots];
        let mut twist = 0;
        for (s, slot) in to.iter_mut().enumerate() {
            let image = g[self.point(s, 0)] as usize - self.start;
            *slot = (image / k) as u16;
            twist = (twist + image % k) % k;
        }
        (is_odd_on(&to, 0..self.slots), twist)
    }
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
    /// answers: each set of slots the moves carry pieces between must hold the same pieces in
    /// both; one assignment of `pattern`'s pieces to `solved`'s slots within those sets is
    /// sifted through the table, and where pieces are alike, one assignment for each
    /// combination of parities of the sets holding them (assignments of equal parities differ
    /// by even arrangements of alike pieces with twists summing to zero, which the group then
    /// holds).
    pub fn reaches(
        &self,
        solved: &Pattern,
        pattern: &Pattern,
    ) -> Result<Option<bool>, TooManyPoints> {
        let orbits = &self.orbits;
        let mut parts = Vec::with_capacity(orbits.len());
        // Per set of slots the moves carry pieces between that holds alike pieces: two slots
        // of `pattern` holding alike pieces, to swap.
        let mut swaps = Vec::new();
        for (o, ((def, s), p)) in orbits
            .iter()
            .zip(&solved.orbits)
            .zip(&pattern.orbits)
            .enumerate()
        {
            let k = def.orientations;
            if p.orientation.iter().any(|&x| x >= k) {
                return Ok(Some(false));
            }
            let twist = |i: usize, j: usize| (p.orientation[i] + k - s.orientation[j]) % k;
            let mut permutation = vec![0u8; s.pieces.len()];
            let mut orientation = vec![0u8; s.pieces.len()];
            for slots in carried_together(&self.generators, o, def.pieces) {
                // No move takes a piece out of its set: each set must hold the same pieces.
                let mut wanted: Vec<_> = slots.iter().map(|&j| s.pieces[j]).collect();
                let mut have: Vec<_> = slots.iter().map(|&i| p.pieces[i]).collect();
                wanted.sort_unstable();
                have.sort_unstable();
                if wanted != have {
                    return Ok(Some(false));
                }
                let mut used = vec![false; s.pieces.len()];
                for &i in &slots {
                    let j = *slots
                        .iter()
                        .find(|&&j| !used[j] && s.pieces[j] == p.pieces[i])
                        .expect("the multisets are equal");
                    used[j] = true;
                    permutation[i] = j as u8;
                    orientation[i] = twist(i, j);
                }
                if wanted.windows(2).any(|w| w[0] == w[1]) {
                    let (a, b) = slots
                        .iter()
                        .enumerate()
                        .flat_map(|(n, &a)| slots[n + 1..].iter().map(move |&b| (a, b)))
                        .find(|&(a, b)| p.pieces[a] == p.pieces[b])
                        .expect("some pieces are alike");
                    // Swapped, each takes the twist that makes its new source look as it does.
                    let (from_a, from_b) = (permutation[a] as usize, permutation[b] as usize);
                    swaps.push((o, a, b, (twist(a, from_b), twist(b, from_a))));
                }
            }
            parts.push(super::OrbitTransformation {
                permutation,
                orientation,
            });
        }
        if swaps.len() > MAX_ALIKE_SPANS {
            return Ok(None);
        }
        let assignment = Transformation { orbits: parts };
        for flips in 0..1u32 << swaps.len() {
            let mut t = assignment.clone();
            for (bit, &(o, a, b, (twist_a, twist_b))) in swaps.iter().enumerate() {
                if flips >> bit & 1 == 1 {
                    let part = &mut t.orbits[o];
                    part.permutation.swap(a, b);
                    (part.orientation[a], part.orientation[b]) = (twist_a, twist_b);
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

/// The most sets of slots holding alike pieces [`reaches`] tries every parity combination of.
const MAX_ALIKE_SPANS: usize = 16;

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
