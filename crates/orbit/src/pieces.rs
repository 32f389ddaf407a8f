//! A definition's positions as pieces: every slot's label and orientation side by side, the
//! state IDA* searches over pattern databases. A move is a shuffle of a few dozen bytes and a
//! database reads its rank off the labels, where a ranked state ([`OrbitSpace`]) is decoded
//! into coordinates and composed again at every node: on the 3x3x3 file the 12 edges are
//! unranked, moved and ranked again for every child, and unranked once more for its
//! databases, most of a node's work.

use super::component::Component;
use super::projection::{Needs, PositionView, Positions};
use super::space::{Coords, OrbitSpace};
use godsearch_core::{MoveIdx, RankInt, SequenceAutomaton, StateSpace};

/// The most slots (of every component together) a position held as pieces has: the 3x3x3
/// has 20, the pyraminx 10; a puzzle with more is searched over ranks.
pub const MAX_PIECE_SLOTS: usize = 64;

/// A position as pieces: per slot (components one after another, in the full space's order)
/// its piece's label within its component and its orientation (zero where no move twists
/// the component's pieces), for puzzles of at most `N`
/// slots (a state IDA* copies for every child: the 3x3x3's fits the 64 bytes of
/// `Pieces<32>`). Slots past the puzzle's are zero.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Pieces<const N: usize> {
    labels: [u8; N],
    twists: [u8; N],
}

impl<const N: usize> Default for Pieces<N> {
    fn default() -> Self {
        Pieces {
            labels: [0; N],
            twists: [0; N],
        }
    }
}

/// One move as a shuffle of slots: slot `i` takes the piece of slot `from[i]`, turned by
/// `twist[i]`.
#[derive(Debug, Clone)]
struct Shuffle {
    from: [u8; MAX_PIECE_SLOTS],
    twist: [u8; MAX_PIECE_SLOTS],
}

/// The positions of an [`OrbitSpace`] held as [`Pieces<N>`], over the same moves in the same
/// order: a path found here is a path there. Every position converts exactly both ways
/// ([`PieceSpace::pieces_of`], [`PieceSpace::rank_of`]).
#[derive(Debug, Clone)]
pub struct PieceSpace<'a, R: RankInt, const N: usize> {
    full: &'a OrbitSpace<R>,
    /// Slots in use.
    slots: usize,
    /// Each component's first slot.
    starts: Vec<usize>,
    /// Each slot's number of orientations.
    modulus: [u8; MAX_PIECE_SLOTS],
    moves: Vec<Shuffle>,
    goal: Pieces<N>,
}

impl<'a, R: RankInt, const N: usize> PieceSpace<'a, R, N> {
    /// `full`'s positions as pieces; `None` when its components have more than `N` slots
    /// together, or more than [`MAX_PIECE_SLOTS`], or `N` is not a power of two.
    pub fn new(full: &'a OrbitSpace<R>) -> Option<Self> {
        let components = full.components();
        let mut starts = Vec::with_capacity(components.len());
        let mut slots = 0;
        for c in components {
            starts.push(slots);
            slots += c.slots.len();
        }
        if slots > N.min(MAX_PIECE_SLOTS) || !N.is_power_of_two() {
            return None;
        }
        let mut modulus = [1u8; MAX_PIECE_SLOTS];
        for (c, &start) in components.iter().zip(&starts) {
            modulus[start..start + c.slots.len()].fill(c.orientations.max(1));
        }
        let moves = (0..full.moves().len())
            .map(|m| {
                let mut shuffle = Shuffle {
                    from: [0; MAX_PIECE_SLOTS],
                    twist: [0; MAX_PIECE_SLOTS],
                };
                for (c, &start) in components.iter().zip(&starts) {
                    let (perm, twist) = &c.moves[m];
                    for (j, (&from, &t)) in perm.iter().zip(twist).enumerate() {
                        shuffle.from[start + j] = (start + from as usize) as u8;
                        shuffle.twist[start + j] = match c.twisted {
                            true => t,
                            false => 0,
                        };
                    }
                }
                shuffle
            })
            .collect();
        let mut space = PieceSpace {
            full,
            slots,
            starts,
            modulus,
            moves,
            goal: Pieces::default(),
        };
        space.goal = space.pieces_of(full.goal_state());
        Some(space)
    }

    /// The ranked space these positions are of.
    pub fn full(&self) -> &'a OrbitSpace<R> {
        self.full
    }

    /// The position of rank `rank` as pieces.
    pub fn pieces_of(&self, rank: R) -> Pieces<N> {
        let mut pieces = Pieces::default();
        self.full.with_coords(rank, |coords| {
            for ((c, &start), &(a, o)) in
                self.full.components().iter().zip(&self.starts).zip(coords)
            {
                let n = c.slots.len();
                c.arrangement_into(a, &mut pieces.labels[start..start + n]);
                // Where no move twists a piece, orientations say nothing and stay zero (two
                // alike pieces swapped are the same position whatever their slots' solved
                // orientations).
                if c.twisted {
                    pieces.twists[start..start + n].copy_from_slice(&c.orientations_of(o));
                }
            }
        });
        pieces
    }

    /// The rank of a position held as pieces.
    pub fn rank_of(&self, pieces: &Pieces<N>) -> R {
        self.with_coords(pieces, Needs::ALL, |coords| {
            self.full
                .rank_of_coords(coords)
                .expect("a position the moves reach ranks")
        })
    }

    /// The labels and orientations of component `c`'s slots.
    fn component_slots<'p>(&self, pieces: &'p Pieces<N>, c: usize) -> (&'p [u8], &'p [u8]) {
        let start = self.starts[c];
        let n = self.full.components()[c].slots.len();
        (
            &pieces.labels[start..start + n],
            &pieces.twists[start..start + n],
        )
    }

    /// Calls `f` with the full coordinates of `pieces`, worked out for the components `needs`
    /// names (the others left zero).
    fn with_coords<T>(
        &self,
        pieces: &Pieces<N>,
        needs: Needs,
        f: impl FnOnce(&[Coords]) -> T,
    ) -> T {
        self.full.with_coord_buffer(|coords| {
            for (i, (c, slot)) in self
                .full
                .components()
                .iter()
                .zip(coords.iter_mut())
                .enumerate()
            {
                let (labels, twists) = self.component_slots(pieces, i);
                *slot = coordinates(c, labels, twists, needs, i);
            }
            f(coords)
        })
    }
}

/// Component `c`'s full coordinates from its slots' labels and orientations, each only where
/// `needs` asks for it (component `i`).
fn coordinates(c: &Component, labels: &[u8], twists: &[u8], needs: Needs, i: usize) -> Coords {
    let arrangement = match needs.arrangement(i) && c.arrangement.size > 1 {
        true => c.rank_of_arrangement(labels),
        false => 0,
    };
    let orientation = match needs.orientation(i) {
        true => c.value_of_orientations(twists),
        false => 0,
    };
    (arrangement, orientation)
}

impl<R: RankInt, const N: usize> StateSpace for PieceSpace<'_, R, N> {
    type State = Pieces<N>;

    fn goal_state(&self) -> Pieces<N> {
        self.goal
    }

    fn move_count(&self) -> usize {
        self.moves.len()
    }

    fn degree(&self, _: Pieces<N>) -> usize {
        self.moves.len()
    }

    fn move_name(&self, m: MoveIdx) -> String {
        self.full.move_name(m)
    }

    fn inverse_move(&self, m: MoveIdx) -> MoveIdx {
        self.full.inverse_move(m)
    }

    #[inline]
    fn for_each_neighbour(&self, state: Pieces<N>, mut f: impl FnMut(MoveIdx, Pieces<N>)) {
        let n = self.slots.min(N);
        for (m, shuffle) in self.moves.iter().enumerate() {
            let mut next = Pieces::default();
            for i in 0..n {
                // Below `N`, a power of two (checked by `new`): no bounds check.
                let from = shuffle.from[i] as usize & (N - 1);
                next.labels[i] = state.labels[from];
                let turned = state.twists[from] + shuffle.twist[i];
                let k = self.modulus[i];
                next.twists[i] = if turned >= k { turned - k } else { turned };
            }
            f(m as MoveIdx, next);
        }
    }

    fn sequence_automaton(&self) -> SequenceAutomaton {
        self.full.sequence_automaton()
    }
}

impl<R: RankInt, const N: usize> Positions for PieceSpace<'_, R, N> {
    type State = Pieces<N>;

    #[inline]
    fn view<T>(&self, state: Pieces<N>, needs: Needs, f: impl FnOnce(&mut PositionView) -> T) -> T {
        self.with_coords(&state, needs, |coords| {
            let mut view =
                PositionView::of_pieces(coords, &state.labels, &state.twists, &self.starts);
            f(&mut view)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::projection::{Keep, PatternDatabases, Projection, ProjectionSpec};
    use godsearch_core::Heuristic;
    use rand::{Rng, SeedableRng};

    /// Every neighbour as pieces is the neighbour as a rank, and both conversions are exact,
    /// on the 3x3x3 (parity and orientation rules), the skewb (rules across components) and
    /// a 2x2x2 with some corners alike.
    #[test]
    fn pieces_move_as_ranks_do() {
        let mut alike = crate::shipped_for_tests("2x2x2.kpuzzle.json");
        alike.solved.orbits[0].pieces = vec![0, 1, 1, 3, 1, 3, 3, 7];
        let generators: Vec<String> = ["U", "F", "R"].iter().map(|g| g.to_string()).collect();
        let puzzles = [
            (
                "3x3x3",
                crate::shipped_for_tests("3x3x3.kpuzzle.json"),
                &[][..],
            ),
            ("skewb", crate::shipped_for_tests("skewb.kpuzzle.json"), &[]),
            ("alike 2x2x2", alike, &generators),
        ];
        for (name, definition, generators) in puzzles {
            let full: OrbitSpace<u128> = OrbitSpace::new(&definition, generators, false).unwrap();
            let pieces = PieceSpace::<_, 32>::new(&full).expect("few slots");
            assert_eq!(pieces.rank_of(&pieces.goal_state()), full.goal_state());
            let mut rng = rand::rngs::StdRng::seed_from_u64(7);
            let mut rank = full.goal_state();
            for _ in 0..300 {
                let held = pieces.pieces_of(rank);
                assert_eq!(pieces.rank_of(&held), rank, "{name}");
                let mut by_rank = Vec::new();
                full.for_each_neighbour(rank, |m, r| by_rank.push((m, r)));
                let mut by_pieces = Vec::new();
                pieces.for_each_neighbour(held, |m, p| by_pieces.push((m, pieces.rank_of(&p))));
                assert_eq!(by_pieces, by_rank, "{name}");
                rank = by_rank[rng.gen_range(0..by_rank.len())].1;
            }
        }
    }

    /// The databases read the same entries off pieces as off ranks: whole orbits,
    /// orientations and sets of pieces alike.
    #[test]
    fn databases_read_pieces_as_ranks() {
        let definition = crate::shipped_for_tests("3x3x3.kpuzzle.json");
        let full: OrbitSpace<u128> = OrbitSpace::new(&definition, &[], false).unwrap();
        let pieces = PieceSpace::<_, 64>::new(&full).unwrap();
        let specs = [
            vec![(0, Keep::Orientations)],
            vec![(1, Keep::Whole)],
            vec![(1, Keep::Arrangement)],
            vec![(
                0,
                Keep::Pieces {
                    slots: 0b111,
                    orientations: true,
                },
            )],
            vec![(
                0,
                Keep::Pieces {
                    slots: 0b1110_0000_0000,
                    orientations: false,
                },
            )],
        ];
        let projections: Vec<Projection> = specs
            .into_iter()
            .map(|orbits| {
                Projection::new(&full, &definition, ProjectionSpec { orbits }, false)
                    .unwrap()
                    .unwrap()
            })
            .collect();
        // Tables whose entries are a hash of the rank: any misread shows.
        let tables: Vec<(Projection, Vec<u8>)> = projections
            .into_iter()
            .map(|p| {
                let n = p.state_count() as usize;
                let bytes = (0..n)
                    .map(|r| (r.wrapping_mul(2654435761) >> 7) as u8 % 200)
                    .collect();
                (p, bytes)
            })
            .collect();
        for (i, _) in tables.iter().enumerate() {
            let one = &tables[i..=i];
            let by_rank = PatternDatabases::new(&full, one);
            let by_pieces = PatternDatabases::new(&pieces, one);
            let mut rng = rand::rngs::StdRng::seed_from_u64(i as u64);
            let mut rank = full.goal_state();
            let mut ranks = Vec::new();
            for _ in 0..200 {
                let mut next = Vec::new();
                full.for_each_neighbour(rank, |_, r| next.push(r));
                rank = next[rng.gen_range(0..next.len())];
                ranks.push(rank);
            }
            let held: Vec<Pieces<64>> = ranks.iter().map(|&r| pieces.pieces_of(r)).collect();
            let (mut a, mut b) = (vec![0; ranks.len()], vec![0; ranks.len()]);
            by_rank.lower_bounds(&ranks, &mut a);
            by_pieces.lower_bounds(&held, &mut b);
            assert_eq!(a, b, "{}", tables[i].0.spec.describe(&definition.orbits));
            for (&r, p) in ranks.iter().zip(&held) {
                assert_eq!(by_rank.lower_bound(r), by_pieces.lower_bound(*p));
            }
        }
    }
}
