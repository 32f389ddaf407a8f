//! A definition's puzzle as a ranked state space: every position a dense integer.
//!
//! **Components.** The chosen moves split each orbit's slots into the sets they permute among
//! themselves (a slot no move touches is left out: its piece never leaves). Each such component
//! has two coordinates, ranked apart because a move changes each from its own value alone:
//! - the arrangement of its pieces, ranked in lexicographic order over the arrangements of its
//!   multiset of pieces (alike pieces, such as a 4x4x4's centres, are arranged, not numbered);
//! - the orientations of its pieces as base-k digits, the last one left out when every move
//!   keeps their sum (mod k), since the others then fix it.
//!
//! **Parity.** The moves' permutation parities on the components (of distinct pieces) span a
//! space over GF(2); a component outside a basis of it has its parity fixed by the others (the
//! 3x3x3's edges by its corners), and its arrangement is ranked among half of them (the
//! lexicographic rank halved, as [`godsearch_core::perm::HalfRanker`] does).
//!
//! The rank is the mixed-radix number of every component's coordinates. It is a perfect
//! ranking of the positions the moves reach exactly when the product of the coordinates' sizes
//! equals the group's order ([`OrbitSpace::rank_count`] against
//! [`super::group::group_order`]); where other constraints hold (the skewb's, the `<R, U>`
//! group's corners), some ranks are never reached: a table of every rank is then larger than
//! the positions (the skewb's by 3 times) but the counts stay exact.
//!
//! **Moves as tables.** A coordinate whose move table (entries x moves, 4 bytes each) fits in
//! [`TABLE_ENTRIES`] gets one, built once; a larger one (the 3x3x3's edge arrangement) is
//! unranked, moved and ranked again for every neighbour.

use super::definition::{Definition, OrbitDef, Transformation};
use godsearch_core::{MoveIdx, RankInt, RankedSpace, StateSpace};
use thiserror::Error;

/// Components decoded on the stack (more are decoded into a vector).
const INLINE_COMPONENTS: usize = 8;
/// Components a parity rule can name (bits of the parity word while decoding).
const MAX_PARITY_COMPONENTS: usize = 128;
/// The most entries (coordinate values x moves) a coordinate's move table may have: 16 M
/// entries, 64 MiB.
pub const TABLE_ENTRIES: u128 = 1 << 24;
/// The most moves a space may have: a move index is a byte, and the canonical-sequence
/// automaton's state (the last generator, or none) too, with one value reserved.
pub const MAX_MOVES: usize = MoveIdx::MAX as usize - 2;

/// Why a space cannot be made from a definition and its generators.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SpaceError {
    /// A generator named that the definition lacks.
    #[error("unknown move '{name}' in the generators (the definition has: {known})")]
    UnknownMove {
        /// The name.
        name: String,
        /// The definition's moves.
        known: String,
    },
    /// A generator that changes nothing.
    #[error("move '{0}' changes nothing; leave it out of the generators")]
    Identity(String),
    /// No generators.
    #[error("no moves to search with")]
    NoMoves,
    /// Too many moves once every power is counted.
    #[error("{count} moves with their powers; godsearch searches at most {MAX_MOVES}")]
    TooManyMoves {
        /// Moves counted.
        count: usize,
    },
    /// A move whose order is too high to list its powers.
    #[error("move '{0}' has to be repeated more than {MAX_MOVES} times to come back; its powers cannot be listed")]
    OrderTooHigh(String),
    /// The positions do not fit the rank type.
    #[error("the puzzle has about {positions} ranked positions, more than {bits}-bit ranks hold")]
    TooLarge {
        /// About how many (as a float for display).
        positions: String,
        /// Bits of the rank type.
        bits: u32,
    },
}

/// One move of the space: a power of a generator.
#[derive(Debug, Clone)]
pub struct SpaceMove {
    /// `R`, `R2`, `R'`, `R2'` (twsearch's names for the powers).
    pub name: String,
    /// Which generator (index into [`OrbitSpace::generators`]).
    pub generator: usize,
    /// The power, between 1 and the generator's order - 1.
    pub power: u64,
    /// The whole transformation.
    pub transformation: Transformation,
}

/// A coordinate's size and its move table, if it has one.
#[derive(Debug, Clone)]
struct Coordinate {
    size: u128,
    /// `table[value * moves + m]`: the value after move `m`.
    table: Option<Vec<u32>>,
}

/// A set of slots the moves permute among themselves.
#[derive(Debug, Clone)]
struct Component {
    orbit: usize,
    slots: Vec<usize>,
    orientations: u8,
    /// The pieces in solved order (labels, dense per orbit).
    solved_pieces: Vec<u8>,
    /// Solved orientations, per slot.
    solved_orientation: Vec<u8>,
    /// How many pieces carry each label.
    label_counts: Vec<u8>,
    /// The definition's piece number of each label (labels are dense per component).
    raw_labels: Vec<u8>,
    /// Whether each piece differs from every other.
    distinct: bool,
    /// Orientation digits stored: 0 (never twisted), n - 1 (sum kept) or n.
    ori_digits: usize,
    /// The solved orientation sum mod k (for the left-out digit).
    ori_sum: u8,
    /// Per move, the local permutation and orientation change.
    moves: Vec<(Vec<u8>, Vec<u8>)>,
    arrangement: Coordinate,
    orientation: Coordinate,
    /// `None`: its parity is free. `Some(list)`: it equals the solved parity flipped by the
    /// parity changes of the listed components (those before it).
    parity_from: Option<Vec<usize>>,
    /// Parity of the solved arrangement.
    solved_parity: bool,
    /// Whether a later component's parity rule reads this one's parity.
    parity_read: bool,
    /// Bit `r` set when arrangement `r` is odd (where the arrangement has a move table).
    odd: Option<Vec<u64>>,
}

/// A definition's puzzle over the chosen moves, states as dense ranks (see the module docs).
#[derive(Debug, Clone)]
pub struct OrbitSpace<R: RankInt> {
    name: String,
    orbits: Vec<OrbitDef>,
    generators: Vec<String>,
    moves: Vec<SpaceMove>,
    inverse: Vec<MoveIdx>,
    components: Vec<Component>,
    /// Per component, the radix of its arrangement (after halving) and of its orientation.
    radices: Vec<(R, R)>,
    /// The same radices prepared for division.
    divisors: Vec<(R::Divisor, R::Divisor)>,
    /// Whether some component's parity is fixed by others' (decoding then reads parities).
    any_parity_rule: bool,
    /// Whether some component's arrangement has no move table.
    any_untabled: bool,
    rank_count: u128,
    goal: R,
    fixed: crate::orbit::Pattern,
}

/// Number of arrangements of a multiset with these counts; `None` past u128.
fn multinomial(counts: &[u8]) -> Option<u128> {
    let mut result: u128 = 1;
    let mut placed: u128 = 0;
    for &c in counts {
        for i in 1..=c as u128 {
            placed += 1;
            result = result.checked_mul(placed)? / i;
        }
    }
    Some(result)
}

/// Lexicographic rank of `labels` among the arrangements of its multiset (`counts`, consumed).
fn rank_arrangement(labels: &[u8], counts: &mut [u8]) -> u128 {
    let mut rank: u128 = 0;
    for &label in labels {
        for smaller in 0..label as usize {
            if counts[smaller] > 0 {
                counts[smaller] -= 1;
                rank += multinomial(counts).expect("checked when the space was made");
                counts[smaller] += 1;
            }
        }
        counts[label as usize] -= 1;
    }
    rank
}

/// The arrangement of lexicographic rank `rank` (`counts` consumed).
fn unrank_arrangement(mut rank: u128, counts: &mut [u8], out: &mut [u8]) {
    for slot in out.iter_mut() {
        for label in 0..counts.len() {
            if counts[label] == 0 {
                continue;
            }
            counts[label] -= 1;
            let below = multinomial(counts).expect("checked when the space was made");
            if rank < below {
                *slot = label as u8;
                break;
            }
            rank -= below;
            counts[label] += 1;
        }
    }
}

/// Components of distinct pieces up to this many slots are ranked by their Lehmer code with a
/// bit mask (linear time, no allocation); `n!` of them fits in a `u128`.
const FAST_DISTINCT: usize = 34;

/// Lexicographic rank of a permutation of `0..n` (its Lehmer code, read with a bit mask).
fn rank_distinct(labels: &[u8]) -> u128 {
    let n = labels.len();
    let mut used: u64 = 0;
    let mut rank: u128 = 0;
    for (i, &l) in labels.iter().enumerate() {
        let smaller_used = (used & ((1u64 << l) - 1)).count_ones() as u128;
        rank = rank * (n - i) as u128 + (l as u128 - smaller_used);
        used |= 1 << l;
    }
    rank
}

/// The permutation of `0..out.len()` of lexicographic rank `rank`.
fn unrank_distinct(mut rank: u128, out: &mut [u8]) {
    let n = out.len();
    let mut digits = [0u8; FAST_DISTINCT];
    for i in (0..n).rev() {
        let radix = (n - i) as u128;
        digits[i] = (rank % radix) as u8;
        rank /= radix;
    }
    let mut free: u64 = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    for (slot, &d) in out.iter_mut().zip(&digits) {
        let mut f = free;
        for _ in 0..d {
            f &= f - 1;
        }
        let label = f.trailing_zeros();
        *slot = label as u8;
        free &= !(1u64 << label);
    }
}

fn is_odd(labels: &[u8]) -> bool {
    let mut inversions = 0usize;
    for i in 0..labels.len() {
        for j in i + 1..labels.len() {
            inversions += (labels[i] > labels[j]) as usize;
        }
    }
    inversions % 2 == 1
}

impl Component {
    fn arrangement_of(&self, rank: u128) -> Vec<u8> {
        let mut out = vec![0; self.slots.len()];
        self.arrangement_into(rank, &mut out);
        out
    }

    /// The arrangement of rank `rank` into `out` (one label a slot).
    fn arrangement_into(&self, rank: u128, out: &mut [u8]) {
        if self.distinct && out.len() <= FAST_DISTINCT {
            unrank_distinct(rank, out);
        } else {
            let mut counts = self.label_counts.clone();
            unrank_arrangement(rank, &mut counts, out);
        }
    }

    fn rank_of_arrangement(&self, labels: &[u8]) -> u128 {
        if self.distinct && labels.len() <= FAST_DISTINCT {
            return rank_distinct(labels);
        }
        let mut counts = self.label_counts.clone();
        rank_arrangement(labels, &mut counts)
    }

    fn orientations_of(&self, mut value: u128) -> Vec<u8> {
        let k = self.orientations as u128;
        let n = self.slots.len();
        let mut out = vec![0u8; n];
        if self.ori_digits == 0 {
            out.copy_from_slice(&self.solved_orientation);
            return out;
        }
        for slot in out.iter_mut().take(self.ori_digits) {
            *slot = (value % k) as u8;
            value /= k;
        }
        if self.ori_digits < n {
            let sum: u32 = out[..n - 1].iter().map(|&o| o as u32).sum();
            let k = self.orientations as u32;
            out[n - 1] = ((self.ori_sum as u32 + k * n as u32 - sum) % k) as u8;
        }
        out
    }

    fn value_of_orientations(&self, ori: &[u8]) -> u128 {
        let k = self.orientations as u128;
        ori[..self.ori_digits]
            .iter()
            .rev()
            .fold(0u128, |v, &o| v * k + o as u128)
    }

    /// The arrangement after move `m`.
    fn move_arrangement(&self, rank: u128, m: usize) -> u128 {
        if self.arrangement.size == 1 {
            return 0;
        }
        if let Some(t) = &self.arrangement.table {
            return t[rank as usize * self.moves.len() + m] as u128;
        }
        let labels = self.arrangement_of(rank);
        let (perm, _) = &self.moves[m];
        let moved: Vec<u8> = perm.iter().map(|&from| labels[from as usize]).collect();
        self.rank_of_arrangement(&moved)
    }

    fn move_orientation(&self, value: u128, m: usize) -> u128 {
        if self.orientation.size == 1 {
            return 0;
        }
        if let Some(t) = &self.orientation.table {
            return t[value as usize * self.moves.len() + m] as u128;
        }
        self.moved_orientation_value(value, m)
    }

    fn moved_orientation_value(&self, value: u128, m: usize) -> u128 {
        let ori = self.orientations_of(value);
        let (perm, twist) = &self.moves[m];
        let k = self.orientations;
        let moved: Vec<u8> = perm
            .iter()
            .zip(twist)
            .map(|(&from, &t)| (ori[from as usize] + t) % k)
            .collect();
        self.value_of_orientations(&moved)
    }

    fn build_tables(&mut self) {
        let moves = self.moves.len() as u128;
        if self.arrangement.size * moves <= TABLE_ENTRIES && self.arrangement.size > 1 {
            let mut table = Vec::with_capacity((self.arrangement.size * moves) as usize);
            for r in 0..self.arrangement.size {
                let labels = self.arrangement_of(r);
                for (perm, _) in &self.moves {
                    let moved: Vec<u8> = perm.iter().map(|&from| labels[from as usize]).collect();
                    table.push(self.rank_of_arrangement(&moved) as u32);
                }
            }
            self.arrangement.table = Some(table);
            if self.distinct {
                let mut bits = vec![0u64; (self.arrangement.size as usize).div_ceil(64)];
                for r in 0..self.arrangement.size as usize {
                    if is_odd(&self.arrangement_of(r as u128)) {
                        bits[r / 64] |= 1 << (r % 64);
                    }
                }
                self.odd = Some(bits);
            }
        }
        if self.orientation.size * moves <= TABLE_ENTRIES && self.orientation.size > 1 {
            let mut table = Vec::with_capacity((self.orientation.size * moves) as usize);
            for v in 0..self.orientation.size {
                for m in 0..self.moves.len() {
                    table.push(self.moved_orientation_value(v, m) as u32);
                }
            }
            self.orientation.table = Some(table);
        }
    }

    fn parity_of(&self, rank: u128) -> bool {
        match &self.odd {
            Some(bits) => bits[(rank / 64) as usize] >> (rank % 64) & 1 == 1,
            None => is_odd(&self.arrangement_of(rank)),
        }
    }
}

/// The powers of a generator of order `order`, with twsearch's names: `R`, `R2`, ... and the
/// far half written backwards (`R'`, `R2'`).
fn power_names(name: &str, order: u64) -> Vec<(u64, String)> {
    (1..order)
        .map(|p| {
            let back = order - p;
            let text = if p <= back {
                if p == 1 {
                    name.to_string()
                } else {
                    format!("{name}{p}")
                }
            } else if back == 1 {
                format!("{name}'")
            } else {
                format!("{name}{back}'")
            };
            (p, text)
        })
        .collect()
}

impl<R: RankInt> OrbitSpace<R> {
    /// The space of `definition`'s positions reached by `generators` (names of its moves,
    /// derived ones too; all of its own moves when empty), each with all its powers as moves,
    /// or only itself and its inverse when `quarter` (the quarter-turn metric).
    pub fn new(
        definition: &Definition,
        generators: &[String],
        quarter: bool,
    ) -> Result<Self, SpaceError> {
        let orbits = &definition.orbits;
        let chosen: Vec<&super::NamedMove> = if generators.is_empty() {
            definition.moves.iter().filter(|m| !m.derived).collect()
        } else {
            generators
                .iter()
                .map(|g| {
                    definition
                        .find_move(g)
                        .ok_or_else(|| SpaceError::UnknownMove {
                            name: g.clone(),
                            known: definition.move_names().join(", "),
                        })
                })
                .collect::<Result<_, _>>()?
        };
        if chosen.is_empty() {
            return Err(SpaceError::NoMoves);
        }
        let mut moves = Vec::new();
        let mut inverse = Vec::new();
        for (g, named) in chosen.iter().enumerate() {
            let t = &named.transformation;
            if t.is_identity() {
                return Err(SpaceError::Identity(named.name.clone()));
            }
            let order = t
                .order(orbits, MAX_MOVES as u64 + 1)
                .ok_or_else(|| SpaceError::OrderTooHigh(named.name.clone()))?;
            let powers: Vec<(u64, String)> = power_names(&named.name, order)
                .into_iter()
                .filter(|&(p, _)| !quarter || p == 1 || p == order - 1)
                .collect();
            let first = moves.len();
            for &(power, ref name) in &powers {
                moves.push(SpaceMove {
                    name: name.clone(),
                    generator: g,
                    power,
                    transformation: t.power(power, orbits),
                });
                let back = powers
                    .iter()
                    .position(|&(p, _)| (p + power) % order == 0)
                    .expect("the inverse power is listed too");
                inverse.push(first + back);
            }
            if moves.len() > MAX_MOVES {
                return Err(SpaceError::TooManyMoves { count: moves.len() });
            }
        }
        let inverse: Vec<MoveIdx> = inverse.into_iter().map(|i| i as MoveIdx).collect();
        let components = components(definition, &moves);
        let mut space = Self {
            name: definition.name.clone(),
            orbits: orbits.clone(),
            generators: chosen.iter().map(|m| m.name.clone()).collect(),
            moves,
            inverse,
            components,
            radices: Vec::new(),
            divisors: Vec::new(),
            any_parity_rule: false,
            any_untabled: false,
            rank_count: 1,
            goal: R::default(),
            fixed: definition.solved.clone(),
        };
        space.find_parities();
        let mut count: Option<u128> = Some(1);
        for c in &space.components {
            let arrangement = c.arrangement.size / if c.parity_from.is_some() { 2 } else { 1 };
            count = count
                .and_then(|n| n.checked_mul(arrangement))
                .and_then(|n| n.checked_mul(c.orientation.size));
        }
        let too_large = || SpaceError::TooLarge {
            positions: approximate(&space),
            bits: (R::BYTES * 8) as u32,
        };
        let count = count.ok_or_else(too_large)?;
        R::from_u128(count.saturating_sub(1)).ok_or_else(too_large)?;
        space.rank_count = count;
        space.radices = space
            .components
            .iter()
            .map(|c| {
                let arrangement = c.arrangement.size / if c.parity_from.is_some() { 2 } else { 1 };
                (
                    R::from_u128(arrangement).expect("below the count"),
                    R::from_u128(c.orientation.size).expect("below the count"),
                )
            })
            .collect();
        space.divisors = space
            .radices
            .iter()
            .map(|&(a, o)| (R::divisor(a), R::divisor(o)))
            .collect();
        let read: Vec<usize> = space
            .components
            .iter()
            .filter_map(|c| c.parity_from.clone())
            .flatten()
            .collect();
        for &j in &read {
            space.components[j].parity_read = true;
        }
        space.any_parity_rule = space.components.iter().any(|c| c.parity_from.is_some());
        for c in &mut space.components {
            c.build_tables();
        }
        space.any_untabled = space
            .components
            .iter()
            .any(|c| c.arrangement.table.is_none() && c.arrangement.size > 1);
        let solved = space.fixed.clone();
        space.goal = space
            .rank_pattern(&solved)
            .expect("the solved pattern ranks");
        Ok(space)
    }

    /// Which components' parities the others fix (see the module docs), by Gaussian
    /// elimination over GF(2) of the moves' parity vectors.
    fn find_parities(&mut self) {
        let eligible: Vec<usize> = (0..self.components.len())
            .filter(|&c| self.components[c].distinct && self.components[c].slots.len() >= 2)
            .take(MAX_PARITY_COMPONENTS)
            .collect();
        let mut rows: Vec<Vec<bool>> = (0..self.moves.len())
            .map(|m| {
                eligible
                    .iter()
                    .map(|&c| {
                        let local: Vec<u8> = self.components[c].moves[m].0.clone();
                        is_odd(&local)
                    })
                    .collect()
            })
            .collect();
        // Reduced row echelon form.
        let mut pivots: Vec<(usize, usize)> = Vec::new(); // (row, column)
        let mut row = 0;
        for col in 0..eligible.len() {
            let Some(r) = (row..rows.len()).find(|&r| rows[r][col]) else {
                continue;
            };
            rows.swap(row, r);
            for other in 0..rows.len() {
                if other != row && rows[other][col] {
                    let pivot_row = rows[row].clone();
                    for (x, &p) in rows[other].iter_mut().zip(&pivot_row) {
                        *x ^= p;
                    }
                }
            }
            pivots.push((row, col));
            row += 1;
        }
        for (col, &c) in eligible.iter().enumerate() {
            if pivots.iter().any(|&(_, pc)| pc == col) {
                continue;
            }
            let from: Vec<usize> = pivots
                .iter()
                .filter(|&&(r, _)| rows[r][col])
                .map(|&(_, pc)| eligible[pc])
                .collect();
            self.components[c].parity_from = Some(from);
        }
        // A component's parity is read from components decoded before it: pivots come first.
        let mut order: Vec<usize> = (0..self.components.len()).collect();
        order.sort_by_key(|&c| self.components[c].parity_from.is_some());
        let mut new_index = vec![0; order.len()];
        for (new, &old) in order.iter().enumerate() {
            new_index[old] = new;
        }
        let mut sorted: Vec<Component> = order
            .iter()
            .map(|&old| self.components[old].clone())
            .collect();
        for c in &mut sorted {
            if let Some(from) = &mut c.parity_from {
                from.iter_mut().for_each(|j| *j = new_index[*j]);
            }
        }
        self.components = sorted;
    }

    /// The rank of a pattern of this definition, or why it has none (`None`: a piece in a slot
    /// no move reaches is not where it is when solved, or an orientation the moves cannot
    /// give).
    pub fn rank_pattern(&self, pattern: &crate::orbit::Pattern) -> Option<R> {
        // Slots outside every component must be as solved.
        for (o, (p, s)) in pattern.orbits.iter().zip(&self.fixed.orbits).enumerate() {
            for slot in 0..p.pieces.len() {
                let inside = self
                    .components
                    .iter()
                    .any(|c| c.orbit == o && c.slots.contains(&slot));
                if !inside
                    && (p.pieces[slot] != s.pieces[slot]
                        || p.orientation[slot] != s.orientation[slot])
                {
                    return None;
                }
            }
        }
        let mut parities = vec![false; self.components.len()];
        let mut rank = R::default();
        // Most significant first, so decoding (least significant first) runs in reverse.
        let mut digits: Vec<(R, R, R, R)> = Vec::new();
        for (i, c) in self.components.iter().enumerate() {
            let p = &pattern.orbits[c.orbit];
            let labels: Vec<u8> = c
                .slots
                .iter()
                .map(|&s| {
                    c.raw_labels
                        .binary_search(&p.pieces[s])
                        .ok()
                        .map(|l| l as u8)
                })
                .collect::<Option<_>>()?;
            let mut sorted = labels.clone();
            sorted.sort_unstable();
            let mut solved_sorted = c.solved_pieces.clone();
            solved_sorted.sort_unstable();
            if sorted != solved_sorted {
                return None;
            }
            let ori: Vec<u8> = c.slots.iter().map(|&s| p.orientation[s]).collect();
            if c.ori_digits == 0 && ori != c.solved_orientation {
                return None;
            }
            if c.ori_digits < c.slots.len() && c.ori_digits > 0 {
                let sum: u32 = ori.iter().map(|&o| o as u32).sum();
                if sum % c.orientations as u32 != c.ori_sum as u32 {
                    return None;
                }
            }
            let mut arrangement = c.rank_of_arrangement(&labels);
            parities[i] = c.distinct && is_odd(&labels);
            if let Some(from) = &c.parity_from {
                let expected = self.expected_parity(i, from, &parities);
                if parities[i] != expected {
                    return None;
                }
                arrangement /= 2;
            }
            let value = c.value_of_orientations(&ori);
            let (ra, ro) = self.radices[i];
            digits.push((R::from_u128(arrangement)?, ra, R::from_u128(value)?, ro));
        }
        for (a, ra, v, ro) in digits {
            rank = rank.mul_add(ra, a)?;
            rank = rank.mul_add(ro, v)?;
        }
        Some(rank)
    }

    fn expected_parity(&self, i: usize, from: &[usize], parities: &[bool]) -> bool {
        let mut p = self.components[i].solved_parity;
        for &j in from {
            p ^= parities[j] ^ self.components[j].solved_parity;
        }
        p
    }

    /// The pattern of rank `rank` (below [`rank_count`](Self::rank_count)).
    pub fn pattern_of(&self, rank: R) -> crate::orbit::Pattern {
        let coords = self.decode(rank);
        let mut pattern = self.fixed.clone();
        for (c, &(a, o)) in self.components.iter().zip(&coords) {
            let labels = c.arrangement_of(a);
            let ori = c.orientations_of(o);
            let part = &mut pattern.orbits[c.orbit];
            for (j, &s) in c.slots.iter().enumerate() {
                part.pieces[s] = c.raw_labels[labels[j] as usize];
                part.orientation[s] = ori[j];
            }
        }
        pattern
    }

    /// Every component's (full arrangement rank, orientation value) in `rank`.
    fn decode(&self, rank: R) -> Vec<(u128, u128)> {
        let mut out = vec![(0u128, 0u128); self.components.len()];
        self.decode_into(rank, &mut out);
        out
    }

    /// [`decode`](Self::decode) into `out` (one entry per component), allocating nothing.
    fn decode_into(&self, rank: R, out: &mut [(u128, u128)]) {
        let mut rest = rank;
        for (i, (ra, ro)) in self.divisors.iter().enumerate().rev() {
            let (q, v) = rest.div_rem_by(ro);
            let (q, a) = q.div_rem_by(ra);
            rest = q;
            out[i] = (a.to_u128(), v.to_u128());
        }
        if !self.any_parity_rule {
            return;
        }
        // Parities of the components read so far, bit i for component i (only those some
        // later rule reads are computed).
        let mut parities: u128 = 0;
        for (i, c) in self.components.iter().enumerate() {
            if let Some(from) = &c.parity_from {
                let mut expected = c.solved_parity;
                for &j in from {
                    expected ^= (parities >> j & 1 == 1) ^ self.components[j].solved_parity;
                }
                let even_rank = out[i].0 * 2;
                out[i].0 = if c.parity_of(even_rank) == expected {
                    even_rank
                } else {
                    even_rank + 1
                };
            }
            if c.parity_read {
                parities |= (c.parity_of(out[i].0) as u128) << i;
            }
        }
    }

    /// Every position's rank is below this: the product of the coordinates' sizes. It equals the
    /// number of positions the moves reach exactly when no constraint beyond parity and
    /// orientation sums holds (compare with the group order).
    pub fn rank_count(&self) -> u128 {
        self.rank_count
    }

    /// The space's moves (every power of every generator).
    pub fn moves(&self) -> &[SpaceMove] {
        &self.moves
    }

    /// The generators' names.
    pub fn generators(&self) -> &[String] {
        &self.generators
    }

    /// The orbits of the definition.
    pub fn orbits(&self) -> &[OrbitDef] {
        &self.orbits
    }

    /// The puzzle's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The generators' transformations, for the group order.
    pub fn generator_transformations(&self) -> Vec<Transformation> {
        let mut seen = Vec::new();
        for m in &self.moves {
            if m.power == 1 {
                seen.push(m.transformation.clone());
            }
        }
        seen
    }
}

fn approximate<R: RankInt>(space: &OrbitSpace<R>) -> String {
    let log10: f64 = space
        .components
        .iter()
        .map(|c| (c.arrangement.size as f64).log10() + (c.orientation.size as f64).log10())
        .sum();
    format!("10^{log10:.1}")
}

/// The components of every orbit under `moves` (see the module docs).
fn components(definition: &Definition, moves: &[SpaceMove]) -> Vec<Component> {
    let mut out = Vec::new();
    for (o, def) in definition.orbits.iter().enumerate() {
        let n = def.pieces;
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(parent: &mut [usize], x: usize) -> usize {
            let mut r = x;
            while parent[r] != r {
                r = parent[r];
            }
            parent[x] = r;
            r
        }
        let mut touched = vec![false; n];
        for m in moves {
            let part = &m.transformation.orbits[o];
            for (i, (&from, &twist)) in part.permutation.iter().zip(&part.orientation).enumerate() {
                if from as usize != i || twist != 0 {
                    touched[i] = true;
                    touched[from as usize] = true;
                }
                let (a, b) = (find(&mut parent, i), find(&mut parent, from as usize));
                parent[a] = b;
            }
        }
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut root_group: Vec<Option<usize>> = vec![None; n];
        for slot in (0..n).filter(|&s| touched[s]) {
            let r = find(&mut parent, slot);
            match root_group[r] {
                Some(g) => groups[g].push(slot),
                None => {
                    root_group[r] = Some(groups.len());
                    groups.push(vec![slot]);
                }
            }
        }
        let solved = &definition.solved.orbits[o];
        for slots in groups {
            let local_of =
                |s: usize| slots.iter().position(|&x| x == s).expect("same component") as u8;
            let local_moves: Vec<(Vec<u8>, Vec<u8>)> = moves
                .iter()
                .map(|m| {
                    let part = &m.transformation.orbits[o];
                    slots
                        .iter()
                        .map(|&s| (local_of(part.permutation[s] as usize), part.orientation[s]))
                        .unzip()
                })
                .collect();
            let raw: Vec<u8> = slots.iter().map(|&s| solved.pieces[s]).collect();
            let mut distinct_labels = raw.clone();
            distinct_labels.sort_unstable();
            distinct_labels.dedup();
            let solved_pieces: Vec<u8> = raw
                .iter()
                .map(|l| distinct_labels.binary_search(l).expect("present") as u8)
                .collect();
            let mut label_counts = vec![0u8; distinct_labels.len()];
            for &l in &solved_pieces {
                label_counts[l as usize] += 1;
            }
            let distinct = label_counts.iter().all(|&c| c == 1);
            let k = def.orientations;
            let twisted = local_moves.iter().any(|(_, t)| t.iter().any(|&x| x != 0));
            let sum_kept = local_moves
                .iter()
                .all(|(_, t)| t.iter().map(|&x| x as u32).sum::<u32>() % k as u32 == 0);
            let n = slots.len();
            let ori_digits = if k == 1 || !twisted {
                0
            } else if sum_kept {
                n - 1
            } else {
                n
            };
            let solved_orientation: Vec<u8> =
                slots.iter().map(|&s| solved.orientation[s]).collect();
            let ori_sum =
                (solved_orientation.iter().map(|&x| x as u32).sum::<u32>() % k as u32) as u8;
            let arrangement_size = multinomial(&label_counts).unwrap_or(u128::MAX);
            let orientation_size = (k as u128)
                .checked_pow(ori_digits as u32)
                .unwrap_or(u128::MAX);
            let solved_parity = distinct && is_odd(&solved_pieces);
            out.push(Component {
                orbit: o,
                slots,
                orientations: k,
                solved_pieces,
                solved_orientation,
                label_counts,
                raw_labels: distinct_labels,
                distinct,
                ori_digits,
                ori_sum,
                moves: local_moves,
                arrangement: Coordinate {
                    size: arrangement_size,
                    table: None,
                },
                orientation: Coordinate {
                    size: orientation_size,
                    table: None,
                },
                parity_from: None,
                solved_parity,
                parity_read: false,
                odd: None,
            });
        }
    }
    out
}

impl<R: RankInt> StateSpace for OrbitSpace<R> {
    type State = R;

    fn goal_state(&self) -> R {
        self.goal
    }

    fn move_count(&self) -> usize {
        self.moves.len()
    }

    fn move_name(&self, m: MoveIdx) -> String {
        self.moves[m as usize].name.clone()
    }

    fn inverse_move(&self, m: MoveIdx) -> MoveIdx {
        self.inverse[m as usize]
    }

    fn for_each_neighbour(&self, state: R, mut f: impl FnMut(MoveIdx, R)) {
        let n = self.components.len();
        let mut inline = [(0u128, 0u128); INLINE_COMPONENTS];
        let mut spilled = Vec::new();
        let coords: &mut [(u128, u128)] = if n <= INLINE_COMPONENTS {
            &mut inline[..n]
        } else {
            spilled.resize(n, (0, 0));
            &mut spilled
        };
        self.decode_into(state, coords);
        // Components without a move table are unranked once here, not once a move.
        let unranked: Vec<Vec<u8>> = match self.any_untabled {
            false => Vec::new(),
            true => self
                .components
                .iter()
                .zip(coords.iter())
                .map(|(c, &(a, _))| match c.arrangement.table {
                    None if c.arrangement.size > 1 => c.arrangement_of(a),
                    _ => Vec::new(),
                })
                .collect(),
        };
        let mut moved_labels = Vec::new();
        for m in 0..self.moves.len() {
            let mut rank = R::default();
            for (i, ((c, &(a, o)), &(ra, ro))) in self
                .components
                .iter()
                .zip(coords.iter())
                .zip(&self.radices)
                .enumerate()
            {
                let mut a = match unranked.get(i) {
                    Some(labels) if !labels.is_empty() => {
                        let (perm, _) = &c.moves[m];
                        moved_labels.clear();
                        moved_labels.extend(perm.iter().map(|&from| labels[from as usize]));
                        c.rank_of_arrangement(&moved_labels)
                    }
                    _ => c.move_arrangement(a, m),
                };
                if c.parity_from.is_some() {
                    a >>= 1;
                }
                let o = c.move_orientation(o, m);
                rank = rank * ra + R::from_u128(a).expect("below the radix");
                rank = rank * ro + R::from_u128(o).expect("below the radix");
            }
            f(m as MoveIdx, rank);
        }
    }

    fn sequence_automaton(&self) -> godsearch_core::SequenceAutomaton {
        super::automaton::canonical(self)
    }
}

impl<R: RankInt> RankedSpace for OrbitSpace<R> {
    /// The rank count: the positions exactly when [`OrbitSpace::rank_count`] equals the group
    /// order, more otherwise (unused ranks are never reached).
    fn state_count(&self) -> u128 {
        self.rank_count
    }

    fn rank_of(&self, state: R) -> usize {
        state.to_usize()
    }

    fn state_at(&self, rank: usize) -> R {
        R::from_u64(rank as u64)
    }
}
