//! A few of a component's pieces as a space of their own: where `t` chosen pieces are, with
//! their orientations where kept, every other piece alike and ignored. It is the projection an
//! orbit too large to keep whole still gives a strong database through: the 3x3x3's twelve
//! edges are 10^12 positions, six of them with their flips 42.6 M (Korf's edge databases,
//! 1997). A [`Keep::Pieces`](super::projection::Keep::Pieces) projection is this space.
//!
//! A rank is the chosen pieces' slots as a partial permutation (`n! / (n - t)!` values, the
//! first piece's slot the most significant digit) times their orientations (`k^t`, the first
//! piece's the least significant digit); a move is a table entry per partial permutation: the
//! one after it and the orientation change of each chosen piece.

use super::arrange::{take_free, unrank_distinct, FAST_DISTINCT};
use super::component::Component;
use super::space::{Coords, OrbitSpace};
use godsearch_core::{MoveIdx, RankInt, RankedSpace, StateSpace};
use rayon::prelude::*;

/// The most slots a component may have to take subsets of (a slot set is a 64-bit mask).
pub const MAX_SUBSET_SLOTS: usize = 64;

/// The most orientation values the chosen pieces may have together (`k^t`): a move's
/// orientation change is held in 16 bits.
pub const MAX_SUBSET_ORIENTATIONS: u64 = 1 << 16;

/// How a subset's rank is read off a position: which component, and where its chosen pieces
/// are among its labels.
#[derive(Debug, Clone)]
pub struct SubsetReader {
    /// The full space's component.
    component: usize,
    /// Its slots.
    slots: usize,
    /// Orientations kept (1: ignored).
    orientations: u64,
    /// The chosen pieces' labels, in order.
    labels: Vec<u8>,
    /// The slots they are solved in.
    solved_in: Vec<u8>,
    /// How many pieces are chosen.
    tracked: usize,
    /// `orientations^t`.
    orientation_values: u64,
}

/// One component's arrangement unranked, for every subset of it read off one position (the
/// 3x3x3's two sets of edges unrank its edges once).
#[derive(Debug, Clone, Copy)]
pub struct Unranked {
    /// The component, or `usize::MAX` for none yet.
    component: usize,
    /// The slot of each label.
    slot_of: [u8; FAST_DISTINCT],
}

impl Default for Unranked {
    fn default() -> Self {
        Unranked {
            component: usize::MAX,
            slot_of: [0; FAST_DISTINCT],
        }
    }
}

/// Whether `component` of `full` can have subsets taken: pieces all different, at most
/// [`FAST_DISTINCT`] slots (its arrangement unranked in place).
pub(crate) fn subsets_possible(c: &Component) -> bool {
    c.distinct && c.slots.len() <= FAST_DISTINCT.min(MAX_SUBSET_SLOTS)
}

impl SubsetReader {
    /// The reader of the pieces solved in `chosen` (slots of component `component` of `full`,
    /// as positions within the component), with their orientations when `orientations`;
    /// `None` when the component cannot have subsets taken or the orientations would pass
    /// [`MAX_SUBSET_ORIENTATIONS`].
    pub(crate) fn new<R: RankInt>(
        full: &OrbitSpace<R>,
        component: usize,
        chosen: &[usize],
        orientations: bool,
    ) -> Option<Self> {
        let c = full.component(component);
        if !subsets_possible(c) || chosen.is_empty() || chosen.len() > c.slots.len() {
            return None;
        }
        let k = match orientations && c.twisted {
            true => c.orientations as u64,
            false => 1,
        };
        let orientation_values = k
            .checked_pow(chosen.len() as u32)
            .filter(|&v| v <= MAX_SUBSET_ORIENTATIONS)?;
        Some(SubsetReader {
            component,
            slots: c.slots.len(),
            orientations: k,
            labels: chosen.iter().map(|&s| c.solved_pieces[s]).collect(),
            solved_in: chosen.iter().map(|&s| s as u8).collect(),
            tracked: chosen.len(),
            orientation_values,
        })
    }

    /// The number of ranks: `n! / (n - t)! * k^t`.
    pub fn rank_count(&self) -> u128 {
        let arrangements: u128 = (self.slots - self.tracked + 1..=self.slots)
            .map(|x| x as u128)
            .product();
        arrangements * self.orientation_values as u128
    }

    /// The full space's component it reads.
    pub fn component(&self) -> usize {
        self.component
    }

    /// Its component's slots.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// The subset's rank of a position given as its component's slots: each one's label
    /// (`labels`) and orientation (`twists`).
    #[inline]
    pub fn rank_of_slots(&self, labels: &[u8], twists: &[u8]) -> u64 {
        let mut slot_of = [0u8; FAST_DISTINCT];
        for (slot, &label) in labels.iter().enumerate() {
            slot_of[label as usize] = slot as u8;
        }
        self.rank_at(&slot_of, labels.len(), |slot| twists[slot as usize] as u64)
    }

    /// The subset's rank of the position whose components' full coordinates are `coords`,
    /// its component's arrangement unranked into `unranked` unless it holds it already.
    #[inline]
    pub fn rank_from(&self, coords: &[Coords], unranked: &mut Unranked) -> u64 {
        let (arrangement, orientation) = coords[self.component];
        let n = self.slots;
        if unranked.component != self.component {
            let mut labels = [0u8; FAST_DISTINCT];
            unrank_distinct(arrangement, &mut labels[..n]);
            for (slot, &label) in labels[..n].iter().enumerate() {
                unranked.slot_of[label as usize] = slot as u8;
            }
            unranked.component = self.component;
        }
        self.rank_at(&unranked.slot_of, n, |slot| {
            orientation_digit(orientation, self.orientations, slot)
        })
    }

    /// The subset's rank where its component (of `n` slots) holds label `l` in slot
    /// `slot_of[l]` and `twist(slot)` is the orientation of the piece in `slot`.
    #[inline]
    fn rank_at(&self, slot_of: &[u8], n: usize, twist: impl Fn(u8) -> u64) -> u64 {
        let mut at = [0u8; MAX_SUBSET_SLOTS];
        let at = &mut at[..self.tracked];
        for (slot, &label) in at.iter_mut().zip(&self.labels) {
            *slot = slot_of[label as usize];
        }
        let mut twists = 0u64;
        if self.orientations > 1 {
            for &slot in at.iter().rev() {
                twists = twists * self.orientations + twist(slot);
            }
        }
        partial_rank(at, n) * self.orientation_values + twists
    }
}

/// Digit `slot` (least significant first) of orientation value `value` in base `k`.
#[inline]
fn orientation_digit(value: u128, k: u64, slot: u8) -> u64 {
    if k == 2 {
        return (value >> slot) as u64 & 1;
    }
    ((value / (k as u128).pow(slot as u32)) % k as u128) as u64
}

/// The rank of distinct slots `at` among `n` as a partial permutation: each slot's place among
/// those not taken before it, the first the most significant digit.
#[inline]
fn partial_rank(at: &[u8], n: usize) -> u64 {
    let mut used = 0u64;
    let mut rank = 0u64;
    for (i, &slot) in at.iter().enumerate() {
        let below = (used & ((1u64 << slot) - 1)).count_ones() as u64;
        rank = rank * (n - i) as u64 + (slot as u64 - below);
        used |= 1 << slot;
    }
    rank
}

/// The slots of partial permutation `rank` of `out.len()` slots among `n`.
fn partial_unrank(mut rank: u64, n: usize, out: &mut [u8]) {
    let t = out.len();
    let mut digits = [0u8; MAX_SUBSET_SLOTS];
    for i in (0..t).rev() {
        let radix = (n - i) as u64;
        digits[i] = (rank % radix) as u8;
        rank /= radix;
    }
    let mut free = match n {
        MAX_SUBSET_SLOTS => u64::MAX,
        _ => (1u64 << n) - 1,
    };
    for (slot, &d) in out.iter_mut().zip(&digits) {
        *slot = take_free(&mut free, d);
    }
}

/// A subset's positions as a space (see the module docs), over the full space's moves (every
/// power of every generator, in the full space's metric): breadth-first search over it gives
/// the subset's pattern database. Holds a move table of `n! / (n - t)!` times the moves
/// entries, six bytes each.
#[derive(Debug, Clone)]
pub struct SubsetSpace {
    reader: SubsetReader,
    move_names: Vec<String>,
    inverse: Vec<MoveIdx>,
    /// `next[arrangement * moves + m]`: the arrangement after move `m`.
    next: Vec<u32>,
    /// `twist[arrangement * moves + m]`: the chosen pieces' orientation changes (base `k`,
    /// the first piece's the least significant digit).
    twist: Vec<u16>,
    goal: u64,
}

impl SubsetSpace {
    /// The space `reader` reads ranks of, over `full`'s moves; `None` when its arrangements do
    /// not fit the 32-bit move table.
    pub fn new<R: RankInt>(full: &OrbitSpace<R>, reader: &SubsetReader) -> Option<Self> {
        let c = full.component(reader.component);
        let (n, t) = (reader.slots, reader.tracked);
        let arrangements =
            u32::try_from(reader.rank_count() / reader.orientation_values as u128).ok()? as usize;
        let moves = c.moves.len();
        // Where each move sends the piece in each slot, and the twist it gets there.
        let sends: Vec<(Vec<u8>, Vec<u8>)> = c
            .moves
            .iter()
            .map(|(from, twist)| {
                let mut to = vec![0u8; n];
                let mut gets = vec![0u8; n];
                for (dest, &src) in from.iter().enumerate() {
                    to[src as usize] = dest as u8;
                    gets[src as usize] = twist[dest] % c.orientations.max(1);
                }
                (to, gets)
            })
            .collect();
        let k = reader.orientations;
        let mut next = vec![0u32; arrangements * moves];
        let mut twist = vec![0u16; arrangements * moves];
        next.par_chunks_mut(moves)
            .zip(twist.par_chunks_mut(moves))
            .enumerate()
            .for_each(|(arrangement, (next, twist))| {
                let mut at = [0u8; MAX_SUBSET_SLOTS];
                partial_unrank(arrangement as u64, n, &mut at[..t]);
                let mut moved = [0u8; MAX_SUBSET_SLOTS];
                for (m, (to, gets)) in sends.iter().enumerate() {
                    let mut change = 0u64;
                    for i in (0..t).rev() {
                        let slot = at[i] as usize;
                        moved[i] = to[slot];
                        if k > 1 {
                            change = change * k + gets[slot] as u64 % k;
                        }
                    }
                    next[m] = partial_rank(&moved[..t], n) as u32;
                    twist[m] = change as u16;
                }
            });
        let mut space = SubsetSpace {
            reader: reader.clone(),
            move_names: full.moves().iter().map(|m| m.name.clone()).collect(),
            inverse: (0..full.move_count())
                .map(|m| full.inverse_move(m as MoveIdx))
                .collect(),
            next,
            twist,
            goal: 0,
        };
        let solved = &reader.solved_in;
        let mut twists = 0u64;
        for &slot in solved.iter().rev() {
            twists = twists * k + (c.solved_orientation[slot as usize] as u64) % k;
        }
        space.goal = partial_rank(solved, n) * reader.orientation_values + twists;
        Some(space)
    }

    /// Orientation values `a` and `b` added digit by digit, mod `k`.
    #[inline]
    fn add_twists(&self, a: u64, b: u64) -> u64 {
        let k = self.reader.orientations;
        match k {
            1 => 0,
            2 => a ^ b,
            _ => {
                let (mut a, mut b, mut sum, mut place) = (a, b, 0, 1);
                for _ in 0..self.reader.tracked {
                    sum += (a % k + b % k) % k * place;
                    (a, b, place) = (a / k, b / k, place * k);
                }
                sum
            }
        }
    }
}

impl StateSpace for SubsetSpace {
    type State = u64;

    fn goal_state(&self) -> u64 {
        self.goal
    }

    fn move_count(&self) -> usize {
        self.move_names.len()
    }

    fn move_name(&self, m: MoveIdx) -> String {
        self.move_names[m as usize].clone()
    }

    fn inverse_move(&self, m: MoveIdx) -> MoveIdx {
        self.inverse[m as usize]
    }

    fn for_each_neighbour(&self, state: u64, mut f: impl FnMut(MoveIdx, u64)) {
        let values = self.reader.orientation_values;
        let (arrangement, twists) = (state / values, state % values);
        let moves = self.move_names.len();
        let base = arrangement as usize * moves;
        for m in 0..moves {
            let next = self.next[base + m] as u64;
            let twisted = self.add_twists(twists, self.twist[base + m] as u64);
            f(m as MoveIdx, next * values + twisted);
        }
    }
}

impl RankedSpace for SubsetSpace {
    fn state_count(&self) -> u128 {
        self.reader.rank_count()
    }

    fn rank_of(&self, state: u64) -> usize {
        state as usize
    }

    fn state_at(&self, rank: usize) -> u64 {
        rank as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shipped_for_tests as shipped;
    use rand::{Rng, SeedableRng};

    #[test]
    fn partial_permutations_rank_densely_and_unrank_back() {
        let n = 7;
        let count = 7 * 6 * 5;
        let mut seen = vec![false; count];
        let mut at = [0u8; 3];
        for rank in 0..count as u64 {
            partial_unrank(rank, n, &mut at);
            assert_eq!(partial_rank(&at, n), rank);
            let mut sorted = at;
            sorted.sort_unstable();
            assert!(sorted.windows(2).all(|w| w[0] < w[1]), "{at:?}");
            assert!(!std::mem::replace(&mut seen[rank as usize], true));
        }
        assert!(seen.iter().all(|&s| s));
    }

    /// The subset of a position is what its moves make of the subset of solved: solved reads
    /// as the subset's goal, and a move then the reading is the reading then the subset's
    /// move, along random walks of the 3x3x3 (edges with their flips, two bits a piece, and
    /// corners with their twists, base 3). So a distance in the subset is never more than the
    /// position's: its databases are admissible.
    #[test]
    fn a_subset_moves_as_the_pieces_it_keeps() {
        let definition = shipped("3x3x3.kpuzzle.json");
        let full = OrbitSpace::<u128>::new(&definition, &[], false).unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        for (orbit, chosen, orientations) in [
            (1, &[0usize, 1, 2, 3, 4, 5][..], true),
            (1, &[11, 3, 7][..], false),
            (0, &[0, 2, 4][..], true),
        ] {
            let orbit = definition
                .orbits
                .iter()
                .position(|o| o.name == ["CORNERS", "EDGES"][orbit])
                .unwrap();
            let component = full.component_index(orbit, chosen[0]).unwrap();
            let local: Vec<usize> = chosen
                .iter()
                .map(|&s| full.component_slot(component, orbit, s).unwrap())
                .collect();
            let reader = SubsetReader::new(&full, component, &local, orientations).unwrap();
            let subset = SubsetSpace::new(&full, &reader).unwrap();
            let read = |state: u128| {
                full.with_coords(state, |c| reader.rank_from(c, &mut Unranked::default()))
            };
            assert_eq!(read(full.goal_state()), subset.goal_state());
            let mut state = full.goal_state();
            for _ in 0..2_000 {
                let here = read(state);
                assert!((here as u128) < subset.state_count());
                let mut expected = vec![0; full.move_count()];
                subset.for_each_neighbour(here, |m, next| expected[m as usize] = next);
                let mut next_states = Vec::new();
                full.for_each_neighbour(state, |m, next| {
                    assert_eq!(read(next), expected[m as usize], "move {m}");
                    next_states.push(next);
                });
                state = next_states[rng.gen_range(0..next_states.len())];
            }
        }
    }
}
