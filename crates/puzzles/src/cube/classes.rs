//! The 3x3x3 as a space of symmetry classes: a state is one representative per class under the
//! 48 symmetries of the cube (rotations and reflections), optionally with inversion (96 maps).
//!
//! The move set maps onto itself under every symmetry, so all members of a class are at the
//! same distance, and every level shrinks about 48 (96) times. Each representative is stored
//! with the size of its stabiliser, so the number of positions in its class is known without
//! listing the class: the frontier engine counts positions exactly.
//!
//! A position is packed into a `u128` key: the raw corner permutation in the top bits, then
//! corner twists, edge permutation, edge flips, and the stabiliser size in the lowest bits. The
//! representative is the conjugate with the smallest key. Since the corner permutation is most
//! significant, a table of its 48 conjugates (40320 x 48) finds the few symmetries that can win,
//! and only those are applied to the whole cube: one table row instead of 48 cube products.

use super::coord::{perm_rank, perm_unrank, CORNER_PERMS};
use super::cubie::{CubieCube, CORNERS, EDGES};
use super::notation::Metric;
use super::symmetry::{Symmetries, SYMMETRIES};
use godsearch_core::{MoveIdx, SequenceAutomaton, StateSpace};

/// Bits below the position in a key: the stabiliser size (1..=96).
const STABILISER_BITS: u32 = 7;

/// Which positions a class holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reduction {
    /// The conjugates of a position under the 48 symmetries of the cube.
    Symmetries,
    /// Those and the conjugates of its inverse (96 maps; a position and its inverse are at the
    /// same distance, since the inverse sequence solves the inverse).
    SymmetriesAndInverse,
}

impl Reduction {
    /// Number of maps in the group: 48 or 96.
    pub fn order(self) -> u64 {
        match self {
            Reduction::Symmetries => SYMMETRIES as u64,
            Reduction::SymmetriesAndInverse => 2 * SYMMETRIES as u64,
        }
    }
}

/// Finds the representative of a position's symmetry class.
#[derive(Debug, Clone)]
pub struct ClassReducer {
    syms: Symmetries,
    corner_conjugates: Vec<u16>,
    reduction: Reduction,
}

impl ClassReducer {
    /// Builds the corner-permutation conjugation table (40320 x 48; a few milliseconds).
    pub fn new(reduction: Reduction) -> Self {
        let syms = Symmetries::new();
        let mut corner_conjugates = vec![0u16; CORNER_PERMS * SYMMETRIES];
        let mut c = CubieCube::SOLVED;
        for cp in 0..CORNER_PERMS {
            perm_unrank(cp as u32, &mut c.cp);
            for s in 0..SYMMETRIES {
                corner_conjugates[cp * SYMMETRIES + s] =
                    perm_rank(&syms.conjugate(&c, s).cp) as u16;
            }
        }
        ClassReducer {
            syms,
            corner_conjugates,
            reduction,
        }
    }

    fn corner_row(&self, c: &CubieCube) -> &[u16] {
        &self.corner_conjugates[perm_rank(&c.cp) as usize * SYMMETRIES..][..SYMMETRIES]
    }

    /// The key of the class representative of `c` (the smallest conjugate), with the class's
    /// stabiliser size in the low bits. Equal for every member of a class.
    pub fn representative(&self, c: &CubieCube) -> u128 {
        let inverse;
        let seen: &[CubieCube] = match self.reduction {
            Reduction::Symmetries => std::slice::from_ref(c),
            Reduction::SymmetriesAndInverse => {
                inverse = [*c, c.inverse()];
                &inverse
            }
        };
        let least = seen
            .iter()
            .map(|x| *self.corner_row(x).iter().min().expect("48 symmetries"))
            .min()
            .expect("a cube");
        let mut best = u128::MAX;
        let mut stabiliser = 0u128;
        for x in seen {
            for (s, _) in self
                .corner_row(x)
                .iter()
                .enumerate()
                .filter(|(_, &v)| v == least)
            {
                let key = pack(&self.syms.conjugate(x, s));
                if key < best {
                    best = key;
                    stabiliser = 1;
                } else if key == best {
                    stabiliser += 1;
                }
            }
        }
        best << STABILISER_BITS | stabiliser
    }

    /// Positions in the class of a representative key.
    pub fn class_size(&self, key: u128) -> u64 {
        self.reduction.order() / (key & ((1 << STABILISER_BITS) - 1)) as u64
    }
}

/// How a class key is made, written into files that store keys (levels on disk); change it
/// whenever the packing of a cube into a key or the choice of representative changes.
pub const CLASS_KEY: &str = "min over maps of packed cp3 co2 ep4 eo1 + stabiliser v1";

/// The cube of a representative key.
pub fn cube_of(key: u128) -> CubieCube {
    unpack(key >> STABILISER_BITS)
}

fn pack(c: &CubieCube) -> u128 {
    let mut k = 0u128;
    for i in 0..CORNERS {
        k = k << 3 | c.cp[i] as u128;
    }
    for i in 0..CORNERS {
        k = k << 2 | c.co[i] as u128;
    }
    for i in 0..EDGES {
        k = k << 4 | c.ep[i] as u128;
    }
    for i in 0..EDGES {
        k = k << 1 | c.eo[i] as u128;
    }
    k
}

fn unpack(mut k: u128) -> CubieCube {
    let mut c = CubieCube::SOLVED;
    for i in (0..EDGES).rev() {
        c.eo[i] = (k & 1) as u8;
        k >>= 1;
    }
    for i in (0..EDGES).rev() {
        c.ep[i] = (k & 15) as u8;
        k >>= 4;
    }
    for i in (0..CORNERS).rev() {
        c.co[i] = (k & 3) as u8;
        k >>= 2;
    }
    for i in (0..CORNERS).rev() {
        c.cp[i] = (k & 7) as u8;
        k >>= 3;
    }
    c
}

/// The 3x3x3 in one metric, as classes of positions: the state is a class representative's
/// key ([`ClassReducer::representative`]), and [`StateSpace::class_size`] is exact.
///
/// With inversion, a class also holds inverses, whose neighbours are the representative's
/// *left* multiples `m r`; those are the inverses of `r^-1 m^-1`, the right multiples of the
/// inverse. So a class's neighbours are the classes of `r m` and of `r^-1 m` for every move
/// `m`: twice the moves.
#[derive(Debug, Clone)]
pub struct Cube3Classes {
    metric: Metric,
    moves: Vec<super::Move>,
    move_cubes: Vec<CubieCube>,
    reducer: ClassReducer,
}

impl Cube3Classes {
    /// The space of classes under `reduction` in `metric` (builds the reducer's table: a few
    /// milliseconds).
    pub fn new(metric: Metric, reduction: Reduction) -> Self {
        let moves = metric.moves();
        Cube3Classes {
            metric,
            move_cubes: moves.iter().map(|m| m.cubie()).collect(),
            moves,
            reducer: ClassReducer::new(reduction),
        }
    }

    /// The metric moves are counted in.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// What a class is.
    pub fn reduction(&self) -> Reduction {
        self.reducer.reduction
    }

    /// The reducer that maps a cube to its class key.
    pub fn reducer(&self) -> &ClassReducer {
        &self.reducer
    }

    /// Members of a class whose neighbours are listed: the representative, and with inversion
    /// its inverse.
    fn expanded_members(&self) -> usize {
        match self.reducer.reduction {
            Reduction::Symmetries => 1,
            Reduction::SymmetriesAndInverse => 2,
        }
    }
}

impl StateSpace for Cube3Classes {
    type State = u128;
    const HAS_CLASSES: bool = true;

    fn goal_state(&self) -> u128 {
        self.reducer.representative(&CubieCube::SOLVED)
    }

    fn move_count(&self) -> usize {
        self.moves.len()
    }

    fn move_name(&self, m: MoveIdx) -> String {
        self.moves[m as usize].to_string()
    }

    fn inverse_move(&self, m: MoveIdx) -> MoveIdx {
        self.metric
            .index_of(self.moves[m as usize].inverse())
            .expect("the inverse of a move is a move of the same metric")
    }

    fn max_degree(&self) -> usize {
        self.moves.len() * self.expanded_members()
    }

    fn degree(&self, _: u128) -> usize {
        self.max_degree()
    }

    /// Move `m` reports the class of `r m`, then (with inversion) of `r^-1 m`.
    fn for_each_neighbour(&self, key: u128, mut f: impl FnMut(MoveIdx, u128)) {
        let c = cube_of(key);
        let members = [c, c.inverse()];
        for member in &members[..self.expanded_members()] {
            for (k, m) in self.move_cubes.iter().enumerate() {
                f(k as MoveIdx, self.reducer.representative(&member.then(m)));
            }
        }
    }

    fn class_size(&self, key: u128) -> u64 {
        self.reducer.class_size(key)
    }

    /// In the quarter-turn metric every move changes the permutation parity; half turns and
    /// middle-layer turns (two quarter turns) do not.
    fn same_level_possible(&self) -> bool {
        self.metric != Metric::Qtm
    }

    fn sequence_automaton(&self) -> SequenceAutomaton {
        self.metric.sequence_automaton()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_conjugate_has_the_same_representative() {
        let reducer = ClassReducer::new(Reduction::Symmetries);
        let both = ClassReducer::new(Reduction::SymmetriesAndInverse);
        let syms = Symmetries::new();
        let c = super::super::notation::apply_moves(
            &CubieCube::SOLVED,
            &super::super::algorithm::parse_moves("R U2 F' L D B2").unwrap(),
        );
        let key = reducer.representative(&c);
        assert_eq!(reducer.class_size(key), 48);
        let key96 = both.representative(&c);
        assert_eq!(both.class_size(key96), 96);
        for s in 0..SYMMETRIES {
            let d = syms.conjugate(&c, s);
            assert_eq!(reducer.representative(&d), key);
            assert_eq!(both.representative(&d), key96);
            assert_eq!(both.representative(&d.inverse()), key96);
        }
        assert_eq!(
            reducer.class_size(reducer.representative(&CubieCube::SOLVED)),
            1
        );
        assert_eq!(both.class_size(both.representative(&CubieCube::SOLVED)), 1);
        assert_eq!(unpack(pack(&c)), c);
    }
}
