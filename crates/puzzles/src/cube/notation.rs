//! Face turns `U R F D L B` with the suffixes `'` (counter-clockwise), `2` (half turn), `2'` and
//! `3` (read as `2` and `'`), the middle-layer turns of the slice-turn metric, and the three
//! metrics the searches use. Whole algorithms as cubers paste them (wide turns, slices,
//! rotations, brackets) are read by [`super::algorithm`].
//!
//! **Middle layers with the centres fixed.** The searches keep the centres in place, so a
//! middle-layer turn is searched as what it does to the cube as held: the two faces beside it
//! turned against each other (`M` is `R L'` and a rotation, `x'`, which holding the cube by its
//! centres undoes). A [`Move`] of a middle layer is that pair; `algorithm::held_form` writes a solution
//! of such moves back as the slices a cuber turns, renaming the later faces for the orientation
//! each slice leaves.

use super::cubie::{CubieCube, FACES};
use godsearch_core::{AutomatonState, MoveIdx, SequenceAutomaton};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A turn of one layer: `turns` clockwise quarter turns (1, 2 or 3) of `face`, a face (index
/// into [`FACES`]) or, in the slice-turn metric only, a middle layer with the centres fixed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The layer: a face `0..6` in the order `U R F D L B`, or a middle layer `6..9` in the
    /// order `E M S` (the one between the faces `f` and `f + 3` is `6 + f`; see
    /// [`FIRST_SLICE_LAYER`]). Its axis is `face % 3` either way.
    pub face: u8,
    /// Clockwise quarter turns: 1, 2 or 3 (3 is written `'`), seen from the face a face turn
    /// turns, and for a middle layer from the face its slice follows (`E` as `D`, `M` as `L`,
    /// `S` as `F`).
    pub turns: u8,
}

/// The first middle layer's index in [`Move::face`]; the layers are `E M S`, between `U D`,
/// `R L` and `F B`.
pub const FIRST_SLICE_LAYER: u8 = 6;
/// Layers a [`Move`] can turn: six faces and three middle layers.
pub const LAYERS: u8 = 9;
/// The three axes (`U D`, `R L`, `F B`); a layer's axis is its index mod 3.
const AXES: u8 = 3;
/// The face each middle layer's slice follows: `E` as `D`, `M` as `L`, `S` as `F`.
const SLICE_FOLLOWS: [u8; 3] = [3, 4, 2];

/// How moves are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Half-turn metric: any face turn counts 1 (18 moves).
    Htm,
    /// Quarter-turn metric: a quarter turn counts 1, a half turn 2 (12 moves).
    Qtm,
    /// Slice-turn metric: any face or middle-layer turn counts 1 (27 moves; the middle layers
    /// with the centres fixed, see the module docs). It is also the execution-turn metric's
    /// distance: a rotation never shortens a solution of the cube as held, and a wide turn is
    /// a face turn and a rotation.
    Stm,
}

impl Metric {
    /// Every search metric.
    pub const ALL: [Metric; 3] = [Metric::Htm, Metric::Qtm, Metric::Stm];

    /// The metric's name as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Htm => "htm",
            Metric::Qtm => "qtm",
            Metric::Stm => "stm",
        }
    }

    /// The metric a search of `cube` runs in: on a cube without middle layers (the 2x2x2),
    /// the slice-turn metric is the half-turn metric.
    pub fn for_cube(self, cube: super::CubeShape) -> Metric {
        match self {
            Metric::Stm if !cube.has_middle_layers() => Metric::Htm,
            _ => self,
        }
    }

    /// The length of a move sequence in this metric.
    pub fn length(self, moves: &[Move]) -> usize {
        moves.iter().map(|m| self.cost(*m)).sum()
    }

    /// What one move costs: 1, or 2 for a half turn in the quarter-turn metric.
    pub fn cost(self, m: Move) -> usize {
        match self {
            Metric::Qtm if m.turns == 2 => 2,
            _ => 1,
        }
    }

    /// The metric's generators in a fixed order: `U U2 U' R R2 R' ...` (HTM),
    /// `U U' R R' ...` (QTM), or the 18 face turns then `E E2 E' M M2 M' S S2 S'` (STM).
    pub fn moves(self) -> Vec<Move> {
        let (turns, layers): (&[u8], u8) = match self {
            Metric::Htm => (&[1, 2, 3], FIRST_SLICE_LAYER),
            Metric::Qtm => (&[1, 3], FIRST_SLICE_LAYER),
            Metric::Stm => (&[1, 2, 3], LAYERS),
        };
        (0..layers)
            .flat_map(|face| turns.iter().map(move |&t| Move { face, turns: t }))
            .collect()
    }

    /// The index of `m` in [`moves`](Self::moves), `None` for a half turn in the quarter-turn
    /// metric (which is two moves there).
    pub fn index_of(self, m: Move) -> Option<MoveIdx> {
        self.moves()
            .iter()
            .position(|&x| x == m)
            .map(|i| i as MoveIdx)
    }

    /// Canonical sequences of this metric's [`moves`](Self::moves): turns of one axis (which
    /// commute) follow one another only as a turn of `U`, `R` or `F` then one of the opposite
    /// face, so no layer is turned twice in a row and a middle layer never beside its axis's
    /// faces (in the quarter-turn metric `U U` is the one way to write a half turn: not
    /// `U' U'`, never three). Every position has a shortest solution of this form: one axis's
    /// turns in a row make `U^a D^b`, which is one move when `a` or `b` is 0 (or, in the
    /// slice-turn metric, when `a + b` is 0 mod 4: a middle-layer turn), and else the two turns
    /// `U^a D^b`.
    pub fn sequence_automaton(self) -> SequenceAutomaton {
        let moves = self.moves();
        let layers = moves
            .iter()
            .map(|m| m.face as usize)
            .max()
            .map_or(0, |l| l + 1);
        let faces = FACES.len();
        // State 0: start; 1 + l: layer l is done; 1 + layers + f: face f was turned one
        // clockwise quarter turn in the quarter-turn metric (one more may follow).
        let last_of = |state: AutomatonState| -> Option<(usize, bool)> {
            match state as usize {
                0 => None,
                s if s <= layers => Some((s - 1, false)),
                s => Some((s - 1 - layers, true)),
            }
        };
        let done = |layer: usize| 1 + layer;
        let open = |face: usize| 1 + layers + face;
        let axis = |layer: usize| layer % AXES as usize;
        SequenceAutomaton::new(moves.len(), 1 + layers + faces, |state, k| {
            let m = moves[k];
            let layer = m.face as usize;
            match last_of(state) {
                Some((last, may_repeat)) if last == layer => {
                    (may_repeat && m.turns == 1).then_some(done(layer))
                }
                Some((last, _))
                    if axis(last) == axis(layer)
                        && !(last < AXES as usize && layer == last + AXES as usize) =>
                {
                    None
                }
                _ if self == Metric::Qtm && m.turns == 1 => Some(open(layer)),
                _ => Some(done(layer)),
            }
        })
        .expect("at most 16 states over at most 27 moves")
    }
}

impl FromStr for Metric {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "htm" | "ftm" | "half" => Ok(Metric::Htm),
            "qtm" | "quarter" => Ok(Metric::Qtm),
            "stm" | "slice" | "etm" | "execution" => Ok(Metric::Stm),
            _ => Err(NotationError::Metric(s.to_string())),
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a move sequence could not be read.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum NotationError {
    /// Text that starts no turn.
    #[error("unknown move '{found}' at line {line}, column {column}: moves are U R F D L B (face turns), Rw or r (wide), M E S (slices) and x y z (rotations), each optionally followed by a count and ' (counter-clockwise); ( ) groups, [A, B] commutators, [A: B] conjugates and // comments")]
    UnknownMove {
        /// The offending text.
        found: String,
        /// 1-based line.
        line: usize,
        /// 1-based column (characters) in that line.
        column: usize,
    },
    /// Brackets that do not pair up.
    #[error("{problem} (line {line}, column {column})")]
    Structure {
        /// What is wrong.
        problem: &'static str,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// Brackets nested past `algorithm::MAX_NESTING`.
    #[error("brackets are nested more than {limit} deep (line {line}, column {column})")]
    TooDeep {
        /// The most levels read.
        limit: usize,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// Repeats that expand past `algorithm::MAX_TURNS`.
    #[error("the sequence expands to more than {0} turns")]
    TooLong(usize),
    /// A slice on the 2x2x2.
    #[error("'{0}' turns a middle layer, which the 2x2x2 does not have")]
    NoSlice(char),
    /// A wide turn, slice or rotation where only face turns can be used.
    #[error(
        "'{turn}' (turn {index}) moves the centres; only face turns U R F D L B can be used here"
    )]
    NotFaceTurn {
        /// The turn as written.
        turn: String,
        /// 1-based place in the expanded sequence.
        index: usize,
    },
    /// Not a metric name.
    #[error("unknown metric '{0}': expected htm, qtm, stm or etm")]
    Metric(String),
}

impl Move {
    /// The move as a cubie cube; a middle layer's with the centres fixed: the faces beside it
    /// turned against each other (`M` is `L' R`).
    pub fn cubie(self) -> CubieCube {
        match self.slice_faces() {
            Some((follows, opposite)) => follows.cubie().then(&opposite.cubie()),
            None => {
                let quarter = CubieCube::face_turn(self.face as usize);
                let mut c = quarter;
                for _ in 1..self.turns {
                    c = c.then(&quarter);
                }
                c
            }
        }
    }

    /// Whether it turns a middle layer.
    pub fn is_slice(self) -> bool {
        self.face >= FIRST_SLICE_LAYER
    }

    /// The axis turned: 0 for `U D E`, 1 for `R L M`, 2 for `F B S`.
    pub fn axis(self) -> u8 {
        self.face % AXES
    }

    /// A middle layer's turn as the face turns it is with the centres fixed: the face its
    /// slice follows turned back, and the opposite face turned with it (`M` is `L'` and `R`).
    /// `None` for a face turn.
    pub fn slice_faces(self) -> Option<(Move, Move)> {
        if !self.is_slice() {
            return None;
        }
        let follows = SLICE_FOLLOWS[self.axis() as usize];
        let opposite = (follows + AXES) % (2 * AXES);
        Some((
            Move {
                face: follows,
                turns: QUARTERS - self.turns,
            },
            Move {
                face: opposite,
                turns: self.turns,
            },
        ))
    }

    /// The move that undoes this one.
    pub fn inverse(self) -> Move {
        Move {
            face: self.face,
            turns: QUARTERS - self.turns,
        }
    }

    /// Index among the 18 half-turn-metric moves (`face * 3 + turns - 1`), or among the 27
    /// slice-turn-metric moves for a middle layer.
    pub fn htm_index(self) -> usize {
        self.face as usize * 3 + self.turns as usize - 1
    }
}

/// Quarter turns in a whole turn.
const QUARTERS: u8 = 4;

/// A face turn in Singmaster's letters; a middle layer's turn as the two face turns it is with
/// the centres fixed, the first of `U R F` first (`M` is `R L'`), so that the text read back is
/// the same cube. `algorithm::held_form` writes slices as slices.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((a, b)) = self.slice_faces() {
            let (first, second) = if a.face < b.face { (a, b) } else { (b, a) };
            return write!(f, "{first} {second}");
        }
        let suffix = match self.turns {
            1 => "",
            2 => "2",
            _ => "'",
        };
        write!(f, "{}{suffix}", FACES[self.face as usize])
    }
}

/// A move sequence in notation, moves separated by spaces.
pub fn format_moves(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The same turns with consecutive turns of one face written as one, as cubers write them:
/// `U U` becomes `U2` and `U U'` nothing. The cube reached is the same; in the quarter-turn
/// metric so is the length ([`Metric::length`] counts `U2` as two).
pub fn merge_same_face(moves: &[Move]) -> Vec<Move> {
    let mut merged: Vec<Move> = Vec::with_capacity(moves.len());
    for &m in moves {
        match merged.last_mut() {
            Some(last) if last.face == m.face => {
                last.turns = (last.turns + m.turns) % 4;
                if last.turns == 0 {
                    merged.pop();
                }
            }
            _ => merged.push(m),
        }
    }
    merged
}

/// The same cube's moves with each run of one axis's turns made as few as the slice-turn
/// metric allows: the run's net `U^a D^b` is one move when `a` or `b` is 0, or a middle layer's
/// turn when `a + b` is 0 mod 4, and else two face turns. A face-turn solution becomes a
/// slice-turn solution no longer than it (exact: the cube reached is the same).
pub fn with_slices(moves: &[Move]) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::with_capacity(moves.len());
    for &m in moves {
        // The run of m's axis at the end, m included, made again from its net turns (a run
        // that cancels lets the runs beside it meet, which the next move of their axis merges).
        let axis = m.axis();
        let run = out
            .iter()
            .rposition(|x| x.axis() != axis)
            .map_or(0, |k| k + 1);
        let mut net = [0u8; 2];
        let mut add = |f: Move| {
            let k = usize::from(f.face >= AXES);
            net[k] = (net[k] + f.turns) % QUARTERS;
        };
        for x in out.drain(run..).chain([m]) {
            match x.slice_faces() {
                Some((a, b)) => {
                    add(a);
                    add(b);
                }
                None => add(x),
            }
        }
        let face = |k: u8, turns: u8| Move {
            face: axis + AXES * k,
            turns,
        };
        match net {
            [0, 0] => {}
            [a, 0] => out.push(face(0, a)),
            [0, b] => out.push(face(1, b)),
            [a, b] if (a + b) % QUARTERS == 0 => {
                let layer = FIRST_SLICE_LAYER + axis;
                let follows = SLICE_FOLLOWS[axis as usize];
                // The slice's turns are the quarter turns of the face it does not follow.
                let turns = if follows == axis { b } else { a };
                out.push(Move { face: layer, turns });
            }
            [a, b] => out.extend([face(0, a), face(1, b)]),
        }
    }
    out
}

/// The cube reached from solved by `moves`.
pub fn apply_moves(start: &CubieCube, moves: &[Move]) -> CubieCube {
    moves.iter().fold(*start, |c, m| c.then(&m.cubie()))
}

/// The inverse sequence: undoes `moves`.
pub fn invert_moves(moves: &[Move]) -> Vec<Move> {
    moves.iter().rev().map(|m| m.inverse()).collect()
}
