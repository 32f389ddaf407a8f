//! A definition's puzzle with positions as their slots' contents, for puzzles whose ranks need
//! more than 128 bits (the megaminx, the 4x4x4): each slot's piece and orientation in a byte
//! (`piece x orientations + orientation`), a move applied by copying the slots it changes
//! through a small table that adds its twist. No ranking, so no table of every position; IDA*
//! over the positions near solved, hashed (`godsearch_enumerate::hashed_ball`), solves
//! positions near solved.

use super::automaton;
use super::definition::{Definition, OrbitDef, OrbitPattern, Pattern, Transformation};
use super::space::{generator_transformations, space_moves, SpaceError, SpaceMove, SpaceMoves};
use godsearch_core::{MoveIdx, SequenceAutomaton, StateSpace};

/// The slots (over all orbits) a position holds by default: the 4x4x4 has 56, the megaminx 50.
pub const MAX_SLOTS: usize = 64;
/// The slots a wide position holds, for larger puzzles (the 5x5x5 has 92): twice the bytes
/// to copy and hash, so only where [`MAX_SLOTS`] are too few.
pub const MAX_WIDE_SLOTS: usize = 128;

/// A position: slot `i` (orbits one after another, in the definition's order) holds
/// `piece x orientations + orientation`; slots past the puzzle's are 0. `N` bytes:
/// [`MAX_SLOTS`], or [`MAX_WIDE_SLOTS`] for larger puzzles.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Slots<const N: usize = MAX_SLOTS>(pub [u8; N]);

impl<const N: usize> Default for Slots<N> {
    fn default() -> Self {
        Slots([0; N])
    }
}

/// One slot a move changes: it takes the content of `from`, turned by the twist table at
/// `table` (an offset into [`SlotSpace::twists`]).
#[derive(Debug, Clone, Copy)]
struct Change {
    slot: u8,
    from: u8,
    table: u32,
}

/// A definition's puzzle over chosen moves, positions as [`Slots`] of `N` bytes (see the
/// module docs).
#[derive(Debug, Clone)]
pub struct SlotSpace<const N: usize = MAX_SLOTS> {
    name: String,
    orbits: Vec<OrbitDef>,
    generators: Vec<String>,
    moves: Vec<SpaceMove>,
    inverse: Vec<MoveIdx>,
    /// Per move, the slots it changes.
    changes: Vec<Vec<Change>>,
    /// Twist tables of 256 entries: a content turned by a fixed amount.
    twists: Vec<u8>,
    /// The first slot of each orbit.
    starts: Vec<usize>,
    goal: Slots<N>,
}

/// Why a definition does not fit a slot space.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SlotError {
    /// The moves could not be made.
    #[error(transparent)]
    Space(#[from] SpaceError),
    /// More slots than a position holds.
    #[error(
        "the puzzle has {slots} slots; positions of at most {most} are searched without ranks"
    )]
    TooManySlots {
        /// Its slots.
        slots: usize,
        /// The most a position of this size holds.
        most: usize,
    },
    /// A piece number and orientation that do not fit a byte.
    #[error("orbit {orbit}: piece numbers times orientations pass 255")]
    PieceTooLarge {
        /// The orbit.
        orbit: String,
    },
}

/// The slots (over all orbits) of `definition`'s positions.
pub fn slot_count(definition: &Definition) -> usize {
    definition.orbits.iter().map(|o| o.pieces).sum()
}

impl<const N: usize> SlotSpace<N> {
    /// The space of `definition`'s positions reached by `generators` (all of its own moves when
    /// empty), every power of each a move, or only itself and its inverse when `quarter`;
    /// refused where they have more than `N` slots.
    pub fn new(
        definition: &Definition,
        generators: &[String],
        quarter: bool,
    ) -> Result<Self, SlotError> {
        let orbits = &definition.orbits;
        let slots = slot_count(definition);
        if slots > N {
            return Err(SlotError::TooManySlots { slots, most: N });
        }
        for (def, part) in orbits.iter().zip(&definition.solved.orbits) {
            let largest = part.pieces.iter().copied().max().unwrap_or(0) as usize;
            if (largest + 1) * def.orientations as usize > 256 {
                return Err(SlotError::PieceTooLarge {
                    orbit: def.name.clone(),
                });
            }
        }
        let SpaceMoves {
            generators: generator_names,
            moves,
            inverse,
        } = space_moves(definition, generators, quarter)?;
        let mut starts = Vec::with_capacity(orbits.len());
        let mut at = 0;
        for def in orbits {
            starts.push(at);
            at += def.pieces;
        }
        // One twist table per (orientations, twist) pair in use.
        let mut twists: Vec<u8> = Vec::new();
        let mut table_of = std::collections::HashMap::new();
        let mut table = |k: u8, twist: u8| -> u32 {
            *table_of.entry((k, twist)).or_insert_with(|| {
                let offset = twists.len() as u32;
                twists.extend((0..=255u8).map(|v| {
                    let (piece, o) = (v / k, v % k);
                    // Contents past the last piece are never stored; keep them in range.
                    piece.wrapping_mul(k).wrapping_add((o + twist) % k)
                }));
                offset
            })
        };
        let changes = moves
            .iter()
            .map(|m| {
                let mut changes = Vec::new();
                for ((part, def), &start) in m.transformation.orbits.iter().zip(orbits).zip(&starts)
                {
                    for (i, (&from, &twist)) in
                        part.permutation.iter().zip(&part.orientation).enumerate()
                    {
                        if from as usize != i || twist != 0 {
                            changes.push(Change {
                                slot: (start + i) as u8,
                                from: (start + from as usize) as u8,
                                table: table(def.orientations, twist),
                            });
                        }
                    }
                }
                changes
            })
            .collect();
        let mut space = SlotSpace {
            name: definition.name.clone(),
            orbits: orbits.clone(),
            generators: generator_names,
            moves,
            inverse,
            changes,
            twists,
            starts,
            goal: Slots::default(),
        };
        space.goal = space.slots_of(&definition.solved);
        Ok(space)
    }

    /// The position of `pattern` (a pattern of this definition: orbits, slots and orientations
    /// in range, as the readers check).
    pub fn slots_of(&self, pattern: &Pattern) -> Slots<N> {
        let mut slots = Slots::default();
        for ((part, def), &start) in pattern.orbits.iter().zip(&self.orbits).zip(&self.starts) {
            for (i, (&piece, &o)) in part.pieces.iter().zip(&part.orientation).enumerate() {
                slots.0[start + i] = piece * def.orientations + o;
            }
        }
        slots
    }

    /// The pattern of a position.
    pub fn pattern_of(&self, slots: &Slots<N>) -> Pattern {
        Pattern {
            orbits: self
                .orbits
                .iter()
                .zip(&self.starts)
                .map(|(def, &start)| {
                    let contents = &slots.0[start..start + def.pieces];
                    OrbitPattern {
                        pieces: contents.iter().map(|v| v / def.orientations).collect(),
                        orientation: contents.iter().map(|v| v % def.orientations).collect(),
                    }
                })
                .collect(),
        }
    }

    /// The first slot of orbit `orbit` in a position's bytes.
    pub fn orbit_start(&self, orbit: usize) -> usize {
        self.starts[orbit]
    }

    /// The contents of orbit `orbit`'s slots.
    pub fn orbit_slots<'s>(&self, slots: &'s Slots<N>, orbit: usize) -> &'s [u8] {
        let start = self.starts[orbit];
        &slots.0[start..start + self.orbits[orbit].pieces]
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

    /// The generators' transformations (each move of power 1).
    pub fn generator_transformations(&self) -> Vec<Transformation> {
        generator_transformations(&self.moves)
    }

    /// `state` after move `m`.
    #[inline]
    pub fn apply(&self, state: &Slots<N>, m: MoveIdx) -> Slots<N> {
        let mut next = *state;
        for c in &self.changes[m as usize] {
            next.0[c.slot as usize] =
                self.twists[c.table as usize + state.0[c.from as usize] as usize];
        }
        next
    }
}

impl<const N: usize> StateSpace for SlotSpace<N> {
    type State = Slots<N>;

    fn goal_state(&self) -> Slots<N> {
        self.goal
    }

    fn move_count(&self) -> usize {
        self.moves.len()
    }

    /// Every move gives a neighbour: counted without making one (engines size their buffers
    /// by it, a state at a time).
    fn degree(&self, _: Slots<N>) -> usize {
        self.moves.len()
    }

    fn move_name(&self, m: MoveIdx) -> String {
        self.moves[m as usize].name.clone()
    }

    fn inverse_move(&self, m: MoveIdx) -> MoveIdx {
        self.inverse[m as usize]
    }

    fn for_each_neighbour(&self, state: Slots<N>, mut f: impl FnMut(MoveIdx, Slots<N>)) {
        for m in 0..self.moves.len() {
            f(m as MoveIdx, self.apply(&state, m as MoveIdx));
        }
    }

    fn sequence_automaton(&self) -> SequenceAutomaton {
        automaton::of_moves(&self.generator_transformations(), &self.orbits, &self.moves)
    }
}
