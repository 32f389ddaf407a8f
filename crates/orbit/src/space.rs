//! A definition's puzzle as a ranked state space: every position a dense integer.
//!
//! **Components.** The chosen moves split each orbit's slots into the sets they permute among
//! themselves (a slot no move touches is left out: its piece never leaves). Each such component
//! has two coordinates, ranked apart because a move changes each from its own value alone:
//! - the arrangement of its pieces, ranked in lexicographic order over the arrangements of its
//!   multiset of pieces (alike pieces, such as a 4x4x4's centres, are arranged, not numbered);
//! - the orientations of its pieces as base-k digits.
//!
//! **Rules** (the `relations` module). The moves' permutation parities on the components (of
//! distinct pieces) span a space over GF(2); a component outside a basis of it has its parity
//! fixed by the others (the 3x3x3's edges by its corners), and its arrangement is stored halved
//! (the lexicographic rank halved, as [`godsearch_core::perm::HalfRanker`] does). Likewise the
//! moves' orientation-sum changes span a space over GF(k): a component whose sum the others fix
//! (its own alone where no move changes it, the 3x3x3's corners; the skewb's across
//! components) is stored without its last digit.
//!
//! The rank is the mixed-radix number of every component's coordinates. It is a perfect
//! ranking of the positions the moves reach exactly when the product of the coordinates' sizes
//! equals the group's order ([`OrbitSpace::rank_count`] against
//! [`super::group::group_order`]); where other constraints hold (the skewb's, the `<R, U>`
//! group's corners), some ranks are never reached: a table of every rank is then larger than
//! the positions (the skewb's by 3 times) but the counts stay exact.
//!
//! **Moves as tables.** A coordinate whose move table (entries x moves, 4 bytes each) fits in
//! 16 M entries gets one, built once; a larger one (the 3x3x3's edge arrangement) is
//! unranked, moved and ranked again for every neighbour.

use super::component::Component;
use super::definition::{Definition, NamedMove, OrbitDef, Pattern, Transformation};
use super::relations::{dependent_columns, is_prime};
use godsearch_core::{MoveIdx, RankInt, RankedSpace, StateSpace};
use thiserror::Error;

/// Components decoded on the stack (more are decoded into a vector).
const INLINE_COMPONENTS: usize = 8;
/// Digits whose move tables are looked up from the stack (more take the general path).
const INLINE_DIGITS: usize = 16;
/// Labels of untabled components unranked on the stack, with room to move one component (a
/// 3x3x3's edges take 12 + 12; more go to the heap).
const INLINE_LABELS: usize = 256;
/// Components whose parities or sums a rule can read while decoding (the bits of a word).
const MAX_RULE_COMPONENTS: usize = 64;
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
    /// More ranks than the caller allows ([`OrbitSpace::new_within`]).
    #[error("the puzzle has {ranks} ranks, more than the {largest} allowed")]
    OverBudget {
        /// Its ranks.
        ranks: u128,
        /// The most allowed.
        largest: u128,
    },
    /// The positions do not fit the rank type.
    #[error("the puzzle has about {positions} ranked positions, more than {bits}-bit ranks hold")]
    TooLarge {
        /// About how many (as a float for display).
        positions: String,
        /// Bits of the rank type.
        bits: u32,
    },
    /// A projection of some pieces ([`Keep::Pieces`](crate::projection::Keep::Pieces)) that
    /// is not of one component whose pieces all differ, or too large for its move table.
    #[error("the pieces kept are not of one set of slots the moves permute among themselves with every piece different, or are too many")]
    NotASubset,
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

/// A definition's puzzle over the chosen moves, states as dense ranks (see the module docs).
#[derive(Debug, Clone)]
pub struct OrbitSpace<R: RankInt> {
    name: String,
    orbits: Vec<OrbitDef>,
    generators: Vec<String>,
    moves: Vec<SpaceMove>,
    inverse: Vec<MoveIdx>,
    components: Vec<Component>,
    /// The rank's digits, most significant first: the stored coordinates whose radix is above
    /// 1 (a coordinate of one value takes no digit).
    digits: Vec<Digit<R>>,
    any_parity_rule: bool,
    any_sum_rule: bool,
    /// Whether some digit (an arrangement or orientations) has no move table.
    any_untabled: bool,
    /// Slots of all components together, and of the largest one (buffer sizes).
    slot_count: usize,
    max_slots: usize,
    rank_count: u128,
    goal: R,
    solved: Pattern,
}

/// The name of power `p` of a move of order `order`, as twsearch names them: `R`, `R2`, ... and
/// the far half written backwards (`R'`, `R2'`).
fn power_name(name: &str, order: u64, p: u64) -> String {
    let back = order - p;
    if p <= back {
        match p {
            0 | 1 => name.to_string(),
            _ => format!("{name}{p}"),
        }
    } else if back == 1 {
        format!("{name}'")
    } else {
        format!("{name}{back}'")
    }
}

/// One component's coordinates while decoding: full arrangement rank and orientation value.
pub type Coords = (u128, u128);

/// One digit of a rank as a projection reads it ([`OrbitSpace::digit_layout`]).
#[derive(Debug, Clone, Copy)]
pub struct DigitLayout {
    /// The component.
    pub component: usize,
    /// Its orientations (else its arrangement).
    pub orientation: bool,
    /// Whether the full arrangement is halved (a parity rule).
    pub halve: bool,
    /// The place value of the dropped top orientation digit (a sum rule).
    pub top_digit: Option<u128>,
    /// The digit's radix.
    pub radix: u128,
}

/// One digit of a rank: a component's stored arrangement or orientations.
#[derive(Debug, Clone)]
struct Digit<R: RankInt> {
    component: usize,
    orientation: bool,
    radix: R,
    divisor: R::Divisor,
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
        Self::new_within(definition, generators, quarter, u128::MAX)
    }

    /// [`new`](Self::new), refused with [`SpaceError::OverBudget`] when it would have more
    /// than `largest` ranks, before any move table is built (so trying a candidate that does
    /// not fit costs next to nothing).
    pub fn new_within(
        definition: &Definition,
        generators: &[String],
        quarter: bool,
        largest: u128,
    ) -> Result<Self, SpaceError> {
        let orbits = &definition.orbits;
        let SpaceMoves {
            generators: generator_names,
            moves,
            inverse,
        } = space_moves(definition, generators, quarter)?;
        let mut components = Component::all(definition, &moves);
        find_rules(&mut components);
        let too_large = |components: &[Component]| SpaceError::TooLarge {
            positions: approximate(components),
            bits: (R::BYTES * 8) as u32,
        };
        let mut count: Option<u128> = Some(1);
        for c in &components {
            count = count
                .and_then(|n| n.checked_mul(c.arrangement_radix()))
                .and_then(|n| n.checked_mul(c.orientation_radix()));
        }
        let count = count.ok_or_else(|| too_large(&components))?;
        R::from_u128(count.saturating_sub(1)).ok_or_else(|| too_large(&components))?;
        if count > largest {
            return Err(SpaceError::OverBudget {
                ranks: count,
                largest,
            });
        }
        for c in &mut components {
            c.build_tables();
        }
        let mut digits = Vec::new();
        for (i, c) in components.iter().enumerate() {
            for (orientation, radix) in [
                (false, c.arrangement_radix()),
                (true, c.orientation_radix()),
            ] {
                if radix > 1 {
                    let radix = R::from_u128(radix).expect("below the count");
                    digits.push(Digit {
                        component: i,
                        orientation,
                        radix,
                        divisor: R::divisor(radix),
                    });
                }
            }
        }
        let mut space = Self {
            name: definition.name.clone(),
            orbits: orbits.clone(),
            generators: generator_names,
            moves,
            inverse,
            digits,
            any_parity_rule: components.iter().any(|c| c.parity_rule.is_some()),
            any_sum_rule: components.iter().any(|c| c.sum_rule.is_some()),
            any_untabled: components.iter().any(|c| {
                (c.arrangement.table.is_none() && c.arrangement.size > 1)
                    || (c.orientation.table.is_none() && c.orientation.size > 1)
            }),
            slot_count: components.iter().map(|c| c.slots.len()).sum(),
            max_slots: components.iter().map(|c| c.slots.len()).max().unwrap_or(0),
            components,
            rank_count: count,
            goal: R::default(),
            solved: definition.solved.clone(),
        };
        space.goal = space
            .rank_pattern(&definition.solved)
            .expect("the solved pattern ranks");
        Ok(space)
    }

    /// The rank of a pattern of this definition; `None` when the moves cannot reach it (a piece
    /// in a slot no move reaches is not where it is when solved, pieces that cannot be there,
    /// or a parity or orientation sum the moves cannot give).
    pub fn rank_pattern(&self, pattern: &Pattern) -> Option<R> {
        if pattern.orbits.len() != self.solved.orbits.len() {
            return None;
        }
        for (o, (p, s)) in pattern.orbits.iter().zip(&self.solved.orbits).enumerate() {
            if p.pieces.len() != s.pieces.len() || p.orientation.len() != s.orientation.len() {
                return None;
            }
            for slot in 0..p.pieces.len() {
                let inside = self
                    .components
                    .iter()
                    .any(|c| c.orbit == o && c.slots.contains(&slot));
                let as_solved =
                    p.pieces[slot] == s.pieces[slot] && p.orientation[slot] == s.orientation[slot];
                if !inside && !as_solved {
                    return None;
                }
            }
        }
        let mut coords: Vec<Coords> = Vec::with_capacity(self.components.len());
        for c in &self.components {
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
            if !c.twisted && ori != c.solved_orientation {
                return None;
            }
            coords.push((
                c.rank_of_arrangement(&labels),
                c.value_of_orientations(&ori),
            ));
        }
        // Every rule must hold.
        for (i, c) in self.components.iter().enumerate() {
            if let Some(from) = &c.parity_rule {
                if c.parity_of(coords[i].0) != self.expected_parity(c, from, &coords) {
                    return None;
                }
            }
            if let Some(from) = &c.sum_rule {
                if c.digit_sum(coords[i].1) != self.expected_sum(c, from, &coords) {
                    return None;
                }
            }
        }
        self.rank_of_coords(&coords)
    }

    /// The rank of every component's full coordinates (the rules' halved arrangements and
    /// dropped orientation digits taken off).
    pub(crate) fn rank_of_coords(&self, coords: &[Coords]) -> Option<R> {
        let mut rank = R::default();
        for d in &self.digits {
            let c = &self.components[d.component];
            let (a, o) = coords[d.component];
            let value = match d.orientation {
                false if c.parity_rule.is_some() => a >> 1,
                false => a,
                true if c.sum_rule.is_some() => o % c.top_digit,
                true => o,
            };
            rank = rank.mul_add(d.radix, R::from_u128(value)?)?;
        }
        Some(rank)
    }

    fn expected_parity(&self, c: &Component, from: &[usize], coords: &[Coords]) -> bool {
        from.iter().fold(c.solved_parity, |p, &j| {
            let other = &self.components[j];
            p ^ other.parity_of(coords[j].0) ^ other.solved_parity
        })
    }

    fn expected_sum(&self, c: &Component, from: &[(usize, u8)], coords: &[Coords]) -> u8 {
        let k = c.orientations as u32;
        let sum = from.iter().fold(c.ori_sum as u32, |s, &(j, coefficient)| {
            let other = &self.components[j];
            let change = (other.digit_sum(coords[j].1) as u32 + k - other.ori_sum as u32) % k;
            s + coefficient as u32 * change
        });
        (sum % k) as u8
    }

    /// The pattern of rank `rank` (below [`rank_count`](Self::rank_count)).
    pub fn pattern_of(&self, rank: R) -> Pattern {
        let mut coords = vec![(0, 0); self.components.len()];
        self.decode_into(rank, &mut coords);
        let mut pattern = self.solved.clone();
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

    /// Every component's full coordinates in `rank`, into `out` (one entry per component):
    /// the stored values read off, then the halved arrangements and dropped orientation digits
    /// the rules fix put back. Allocates nothing.
    fn decode_into(&self, rank: R, out: &mut [Coords]) {
        out.iter_mut().for_each(|c| *c = (0, 0));
        let mut rest = rank;
        for d in self.digits.iter().rev() {
            let (q, v) = rest.div_rem_by(&d.divisor);
            rest = q;
            match d.orientation {
                false => out[d.component].0 = v.to_u128(),
                true => out[d.component].1 = v.to_u128(),
            }
        }
        if self.any_parity_rule {
            // The components a rule reads have no rule themselves: their values are full.
            let mut parities: u64 = 0;
            for (i, c) in self.components.iter().enumerate() {
                if c.parity_read && i < MAX_RULE_COMPONENTS {
                    parities |= (c.parity_of(out[i].0) as u64) << i;
                }
            }
            for (i, c) in self.components.iter().enumerate() {
                let Some(from) = &c.parity_rule else { continue };
                let expected = from.iter().fold(c.solved_parity, |p, &j| {
                    p ^ (parities >> j & 1 == 1) ^ self.components[j].solved_parity
                });
                let even = out[i].0 << 1;
                out[i].0 = even + (c.parity_of(even) != expected) as u128;
            }
        }
        if self.any_sum_rule {
            let mut sums = [0u8; MAX_RULE_COMPONENTS];
            for (i, c) in self.components.iter().enumerate() {
                if c.sum_read && i < MAX_RULE_COMPONENTS {
                    sums[i] = c.digit_sum(out[i].1);
                }
            }
            for (i, c) in self.components.iter().enumerate() {
                let Some(from) = &c.sum_rule else { continue };
                let k = c.orientations as u32;
                let target = from.iter().fold(c.ori_sum as u32, |s, &(j, coefficient)| {
                    let other = &self.components[j];
                    s + coefficient as u32 * ((sums[j] as u32 + k - other.ori_sum as u32) % k)
                }) % k;
                // The stored digits, with the top one 0, sum to this; the top one makes up the rest.
                let partial = c.digit_sum(out[i].1) as u32;
                let top = (target + k - partial) % k;
                out[i].1 += top as u128 * c.top_digit;
            }
        }
    }

    /// The rank's digits, most significant first, as a projection reads them.
    pub fn digit_layout(&self) -> Vec<DigitLayout> {
        self.digits
            .iter()
            .map(|d| {
                let c = &self.components[d.component];
                DigitLayout {
                    component: d.component,
                    orientation: d.orientation,
                    halve: !d.orientation && c.parity_rule.is_some(),
                    top_digit: (d.orientation && c.sum_rule.is_some()).then_some(c.top_digit),
                    radix: d.radix.to_u128(),
                }
            })
            .collect()
    }

    /// A component's orbit and first slot (what names it across spaces of one definition).
    pub fn component_key(&self, component: usize) -> (usize, usize) {
        let c = &self.components[component];
        (c.orbit, c.slots[0])
    }

    /// The component of `orbit` that holds `slot`.
    pub fn component_index(&self, orbit: usize, slot: usize) -> Option<usize> {
        self.components
            .iter()
            .position(|c| c.orbit == orbit && c.slots.contains(&slot))
    }

    /// The position of `slot` of `orbit` among the slots of component `component`, if it is
    /// one of them.
    pub fn component_slot(&self, component: usize, orbit: usize, slot: usize) -> Option<usize> {
        let c = &self.components[component];
        (c.orbit == orbit)
            .then(|| c.slots.iter().position(|&s| s == slot))
            .flatten()
    }

    /// The slots of `orbit`'s components, one list a component, in component order, with
    /// the components' indices: where projections of some of its pieces may be taken.
    pub fn orbit_components(&self, orbit: usize) -> Vec<(usize, Vec<usize>)> {
        self.components
            .iter()
            .enumerate()
            .filter(|(_, c)| c.orbit == orbit)
            .map(|(i, c)| (i, c.slots.clone()))
            .collect()
    }

    /// Component `i` itself.
    pub(crate) fn component(&self, i: usize) -> &Component {
        &self.components[i]
    }

    /// Every component, in rank order.
    pub(crate) fn components(&self) -> &[Component] {
        &self.components
    }

    /// Calls `f` with every component's full coordinates in `state`, decoded on the stack.
    #[inline]
    pub fn with_coords<T>(&self, state: R, f: impl FnOnce(&[Coords]) -> T) -> T {
        self.with_coord_buffer(|coords| {
            self.decode_into(state, coords);
            f(coords)
        })
    }

    /// Calls `f` with room for every component's coordinates, on the stack where it fits.
    #[inline]
    pub(crate) fn with_coord_buffer<T>(&self, f: impl FnOnce(&mut [Coords]) -> T) -> T {
        let n = self.components.len();
        let mut inline = [(0u128, 0u128); INLINE_COMPONENTS];
        let mut spilled = Vec::new();
        let coords: &mut [Coords] = if n <= INLINE_COMPONENTS {
            &mut inline[..n]
        } else {
            spilled.resize(n, (0, 0));
            &mut spilled
        };
        f(coords)
    }

    /// Every position's rank is below this: the product of the stored coordinates' sizes. It
    /// equals the number of positions the moves reach exactly when no constraint beyond
    /// parities and orientation sums holds (compare with the group order).
    pub fn rank_count(&self) -> u128 {
        self.rank_count
    }

    /// The space's moves (every power of every generator).
    pub fn moves(&self) -> &[SpaceMove] {
        &self.moves
    }

    /// Whether every coordinate has a move table (then a neighbour is a few lookups, and a
    /// table of every rank builds at tens of millions of positions a second).
    pub fn fully_tabled(&self) -> bool {
        !self.any_untabled
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

    /// The solved pattern (the goal).
    pub fn solved(&self) -> &Pattern {
        &self.solved
    }

    /// The generators' transformations (power 1 of each), in order.
    pub fn generator_transformations(&self) -> Vec<Transformation> {
        generator_transformations(&self.moves)
    }
}

/// The generators' transformations among a space's `moves`: each move of power 1.
pub fn generator_transformations(moves: &[SpaceMove]) -> Vec<Transformation> {
    moves
        .iter()
        .filter(|m| m.power == 1)
        .map(|m| m.transformation.clone())
        .collect()
}

/// Sets the parity and orientation-sum rules of `components` (see the module docs): Gaussian
/// elimination over GF(2) of the moves' parities on components of distinct pieces, and over
/// GF(k) of their orientation sum changes on twisted components of k orientations (k prime;
/// for other k, only a sum no move changes is fixed).
fn find_rules(components: &mut [Component]) {
    let moves = components.first().map_or(0, |c| c.moves.len());
    let eligible: Vec<usize> = (0..components.len())
        .filter(|&c| components[c].distinct && components[c].slots.len() >= 2)
        .take(MAX_RULE_COMPONENTS)
        .collect();
    let rows: Vec<Vec<u8>> = (0..moves)
        .map(|m| {
            eligible
                .iter()
                .map(|&c| godsearch_core::perm::is_odd(&components[c].moves[m].0) as u8)
                .collect()
        })
        .collect();
    for (col, terms) in dependent_columns(rows, 2) {
        let from: Vec<usize> = terms.iter().map(|&(pc, _)| eligible[pc]).collect();
        for &j in &from {
            components[j].parity_read = true;
        }
        components[eligible[col]].parity_rule = Some(from);
    }
    let mut kinds: Vec<u8> = components
        .iter()
        .filter(|c| c.twisted)
        .map(|c| c.orientations)
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    for k in kinds {
        let eligible: Vec<usize> = (0..components.len())
            .filter(|&c| components[c].twisted && components[c].orientations == k)
            .take(MAX_RULE_COMPONENTS)
            .collect();
        let rows: Vec<Vec<u8>> = (0..moves)
            .map(|m| {
                eligible
                    .iter()
                    .map(|&c| {
                        let sum: u32 = components[c].moves[m].1.iter().map(|&t| t as u32).sum();
                        (sum % k as u32) as u8
                    })
                    .collect()
            })
            .collect();
        let rules: Vec<(usize, Vec<(usize, u8)>)> = if is_prime(k) {
            dependent_columns(rows, k)
        } else {
            // Without a field, only the sums no move changes.
            (0..eligible.len())
                .filter(|&col| rows.iter().all(|r| r[col] == 0))
                .map(|col| (col, Vec::new()))
                .collect()
        };
        for (col, terms) in rules {
            let from: Vec<(usize, u8)> = terms.iter().map(|&(pc, c)| (eligible[pc], c)).collect();
            for &(j, _) in &from {
                components[j].sum_read = true;
            }
            components[eligible[col]].sum_rule = Some(from);
        }
    }
}

/// The moves of a space, with what it needs to know of them.
#[derive(Debug, Clone)]
pub struct SpaceMoves {
    /// The generators' names.
    pub generators: Vec<String>,
    /// Every move.
    pub moves: Vec<SpaceMove>,
    /// Each move's inverse.
    pub inverse: Vec<MoveIdx>,
}

/// A generator of a space: a move of the file, or a power of one (`U2` generates the half
/// turns of `U` only, as the squares group takes them).
struct Generator {
    /// As the generators name it (`U`, `U2`).
    name: String,
    /// The file's move it is a power of, and that move's order.
    base: (String, u64),
    /// Which power of the base move it is.
    times: u64,
    /// Its order: the least power that is the identity.
    order: u64,
    /// The base move's transformation.
    transformation: Transformation,
}

impl Generator {
    /// The `times`-th power of `named`, refused where it changes nothing or its order passes
    /// the most moves a space takes.
    fn of(definition: &Definition, named: &NamedMove, times: i64) -> Result<Self, SpaceError> {
        let orbits = &definition.orbits;
        let t = &named.transformation;
        if t.is_identity() {
            return Err(SpaceError::Identity(named.name.clone()));
        }
        let base_order = t
            .order(orbits, MAX_MOVES as u64 + 1)
            .ok_or_else(|| SpaceError::OrderTooHigh(named.name.clone()))?;
        let times = times.rem_euclid(base_order as i64) as u64;
        let name = power_name(&named.name, base_order, times);
        if times == 0 {
            return Err(SpaceError::Identity(name));
        }
        Ok(Generator {
            name,
            base: (named.name.clone(), base_order),
            times,
            order: base_order / gcd(base_order, times),
            transformation: t.clone(),
        })
    }

    /// The generator `text` names: a move of the file, or one with an amount (`U2`, `R'`).
    fn named(definition: &Definition, text: &str) -> Result<Self, SpaceError> {
        let unknown = || SpaceError::UnknownMove {
            name: text.to_string(),
            known: definition.move_names().join(", "),
        };
        if let Some(named) = definition.find_move(text) {
            return Self::of(definition, named, 1);
        }
        let names = definition.move_names();
        match super::alg::parse(text, &names).map_err(|_| unknown())?[..] {
            [(m, amount)] => match Self::of(definition, &definition.moves[m], amount) {
                Err(SpaceError::Identity(_)) => Err(SpaceError::Identity(text.to_string())),
                generator => generator,
            },
            _ => Err(unknown()),
        }
    }

    /// Its `power`-th power, named as the base move's power it is (`U2`, `U'`), so that
    /// solutions read back over the file's moves.
    fn power(&self, power: u64, orbits: &[OrbitDef]) -> (String, Transformation) {
        let (base, base_order) = (&self.base.0, self.base.1);
        let of_base = self.times * power % base_order;
        (
            power_name(base, base_order, of_base),
            self.transformation.power(of_base, orbits),
        )
    }
}

/// Whether the generator `name` (a move of `definition`, or a power of one) changes nothing
/// there: what a projection leaves out of a space's generators (any other fault is the space's
/// to report).
pub fn generator_is_identity(definition: &Definition, name: &str) -> bool {
    matches!(
        Generator::named(definition, name),
        Err(SpaceError::Identity(_))
    )
}

/// Greatest common divisor.
fn gcd(a: u64, b: u64) -> u64 {
    match b {
        0 => a,
        _ => gcd(b, a % b),
    }
}

/// The moves of a space over `generators` of `definition` (all of its own moves when empty):
/// every power of each generator (only itself and its inverse when `quarter`), named as
/// twsearch names them.
pub fn space_moves(
    definition: &Definition,
    generators: &[String],
    quarter: bool,
) -> Result<SpaceMoves, SpaceError> {
    let orbits = &definition.orbits;
    let chosen: Vec<Generator> = if generators.is_empty() {
        definition
            .moves
            .iter()
            .filter(|m| !m.derived)
            .map(|m| Generator::of(definition, m, 1))
            .collect::<Result<_, _>>()?
    } else {
        generators
            .iter()
            .map(|g| Generator::named(definition, g))
            .collect::<Result<_, _>>()?
    };
    if chosen.is_empty() {
        return Err(SpaceError::NoMoves);
    }
    let mut moves = Vec::new();
    let mut inverse = Vec::new();
    for (g, generator) in chosen.iter().enumerate() {
        let order = generator.order;
        let powers: Vec<u64> = (1..order)
            .filter(|&p| !quarter || p == 1 || p == order - 1)
            .collect();
        let first = moves.len();
        for &power in &powers {
            let (name, transformation) = generator.power(power, orbits);
            moves.push(SpaceMove {
                name,
                generator: g,
                power,
                transformation,
            });
            let back = powers
                .iter()
                .position(|&p| (p + power) % order == 0)
                .expect("the inverse power is listed too");
            inverse.push(first + back);
        }
        if moves.len() > MAX_MOVES {
            return Err(SpaceError::TooManyMoves { count: moves.len() });
        }
    }
    Ok(SpaceMoves {
        generators: chosen.into_iter().map(|g| g.name).collect(),
        moves,
        inverse: inverse.into_iter().map(|i| i as MoveIdx).collect(),
    })
}

fn approximate(components: &[Component]) -> String {
    let log10: f64 = components
        .iter()
        .map(|c| (c.arrangement.size as f64).log10() + (c.orientation.size as f64).log10())
        .sum();
    format!("10^{log10:.1}")
}

impl<R: RankInt> StateSpace for OrbitSpace<R> {
    type State = R;

    fn goal_state(&self) -> R {
        self.goal
    }

    fn move_count(&self) -> usize {
        self.moves.len()
    }

    /// Every move gives a neighbour: counted without making one (engines size their buffers
    /// by it, a state at a time).
    fn degree(&self, _: R) -> usize {
        self.moves.len()
    }

    fn move_name(&self, m: MoveIdx) -> String {
        self.moves[m as usize].name.clone()
    }

    fn inverse_move(&self, m: MoveIdx) -> MoveIdx {
        self.inverse[m as usize]
    }

    fn for_each_neighbour(&self, state: R, mut f: impl FnMut(MoveIdx, R)) {
        self.with_coords(state, |coords| self.neighbours_from(coords, &mut f));
    }

    fn sequence_automaton(&self) -> godsearch_core::SequenceAutomaton {
        super::automaton::canonical(self)
    }
}

impl<R: RankInt> OrbitSpace<R> {
    /// Calls `f(move, neighbour)` for every move from the position of decoded `coords`.
    fn neighbours_from(&self, coords: &[Coords], f: &mut impl FnMut(MoveIdx, R)) {
        // Where each digit's tabled value after move `m` is: `table[base + m]`.
        let moves = self.moves.len();
        let mut tabled = [(&[][..], 0usize); INLINE_DIGITS];
        let all_tabled = !self.any_untabled && self.digits.len() <= INLINE_DIGITS;
        if all_tabled {
            for (slot, d) in tabled.iter_mut().zip(&self.digits) {
                let c = &self.components[d.component];
                let (a, o) = coords[d.component];
                let (coordinate, value) = match d.orientation {
                    false => (&c.arrangement, a),
                    true => (&c.orientation, o),
                };
                let table = coordinate.table.as_deref().expect("every digit is tabled");
                *slot = (table, value as usize * moves);
            }
            for m in 0..moves {
                let mut rank = R::default();
                for (d, &(table, base)) in self.digits.iter().zip(&tabled) {
                    rank = rank * d.radix + R::from_u64(table[base + m] as u64);
                }
                f(m as MoveIdx, rank);
            }
            return;
        }
        // Components without a move table are unranked once here, not once a move: their
        // labels side by side, on the stack where they fit.
        let mut inline = [0u8; INLINE_LABELS];
        let mut spilled = Vec::new();
        let total = self.slot_count + self.max_slots;
        let buffer: &mut [u8] = if total <= INLINE_LABELS {
            &mut inline[..total]
        } else {
            spilled.resize(total, 0);
            &mut spilled
        };
        let (labels, scratch) = buffer.split_at_mut(self.slot_count);
        let mut starts = [usize::MAX; INLINE_COMPONENTS];
        let mut spilled_starts = Vec::new();
        let starts: &mut [usize] = if self.components.len() <= INLINE_COMPONENTS {
            &mut starts[..self.components.len()]
        } else {
            spilled_starts.resize(self.components.len(), usize::MAX);
            &mut spilled_starts
        };
        let mut at = 0;
        for (i, (c, &(a, _))) in self.components.iter().zip(coords).enumerate() {
            if c.arrangement.table.is_none() && c.arrangement.size > 1 {
                let n = c.slots.len();
                c.arrangement_into(a, &mut labels[at..at + n]);
                starts[i] = at;
                at += n;
            }
        }
        for m in 0..self.moves.len() {
            let mut rank = R::default();
            for d in &self.digits {
                let c = &self.components[d.component];
                let (a, o) = coords[d.component];
                let value = match d.orientation {
                    false => {
                        let start = starts[d.component];
                        let unranked =
                            (start != usize::MAX).then(|| &labels[start..start + c.slots.len()]);
                        c.moved_arrangement(a, unranked, m, scratch)
                    }
                    true => c.moved_orientation(o, m),
                };
                rank = rank * d.radix + R::from_u128(value).expect("below the radix");
            }
            f(m as MoveIdx, rank);
        }
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
