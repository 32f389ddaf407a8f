//! Face turns `U R F D L B` with the suffixes `'` (counter-clockwise), `2` (half turn), `2'` and
//! `3` (read as `2` and `'`), and the two metrics the searches use. Whole algorithms as cubers
//! paste them (wide turns, slices, rotations, brackets) are read by [`super::algorithm`].

use super::algorithm::Algorithm;
use super::cubie::{CubieCube, FACES};
use godsearch_core::{AutomatonState, MoveIdx, SequenceAutomaton};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A face turn: `turns` clockwise quarter turns (1, 2 or 3) of `face` (index into [`FACES`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The face, `0..6` in the order `U R F D L B`.
    pub face: u8,
    /// Clockwise quarter turns: 1, 2 or 3 (3 is written `'`).
    pub turns: u8,
}

/// How moves are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Half-turn metric: any face turn counts 1 (18 moves).
    Htm,
    /// Quarter-turn metric: a quarter turn counts 1, a half turn 2 (12 moves).
    Qtm,
}

impl Metric {
    /// The metric's name as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Htm => "htm",
            Metric::Qtm => "qtm",
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

    /// The metric's generators in a fixed order: `U U2 U' R R2 R' ...` (HTM) or
    /// `U U' R R' ...` (QTM).
    pub fn moves(self) -> Vec<Move> {
        let turns: &[u8] = match self {
            Metric::Htm => &[1, 2, 3],
            Metric::Qtm => &[1, 3],
        };
        (0..6u8)
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

    /// Canonical sequences of this metric's [`moves`](Self::moves): no face turned twice in a
    /// row (in the quarter-turn metric `U U` is the one way to write a half turn: not `U' U'`,
    /// never three), and two opposite faces, which commute, only in the order `U D`, `R L`,
    /// `F B`. Every position has a shortest solution of this form.
    pub fn sequence_automaton(self) -> SequenceAutomaton {
        let moves = self.moves();
        let faces = FACES.len();
        // State 0: start; 1 + f: face f is done; 1 + faces + f: face f was turned one
        // clockwise quarter turn in the quarter-turn metric (one more may follow).
        let last_of = |state: AutomatonState| -> Option<(usize, bool)> {
            match state as usize {
                0 => None,
                s if s <= faces => Some((s - 1, false)),
                s => Some((s - 1 - faces, true)),
            }
        };
        let done = |face: usize| 1 + face;
        let open = |face: usize| 1 + faces + face;
        SequenceAutomaton::new(moves.len(), 1 + 2 * faces, |state, k| {
            let m = moves[k];
            let face = m.face as usize;
            match last_of(state) {
                Some((last, may_repeat)) if last == face => {
                    (may_repeat && m.turns == 1).then_some(done(face))
                }
                Some((last, _)) if last == (face + faces / 2) % faces && face < last => None,
                _ if self == Metric::Qtm && m.turns == 1 => Some(open(face)),
                _ => Some(done(face)),
            }
        })
        .expect("13 states over at most 18 moves")
    }
}

impl FromStr for Metric {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "htm" | "ftm" | "half" => Ok(Metric::Htm),
            "qtm" | "quarter" => Ok(Metric::Qtm),
            "stm" | "slice" | "etm" | "execution" => {
                Err(NotationError::CountingOnly(s.to_ascii_lowercase()))
            }
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
    /// Brackets nested past [`MAX_NESTING`](super::algorithm::MAX_NESTING).
    #[error("brackets are nested more than {limit} deep (line {line}, column {column})")]
    TooDeep {
        /// The most levels read.
        limit: usize,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// Repeats that expand past [`MAX_TURNS`](super::algorithm::MAX_TURNS).
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
    #[error("unknown metric '{0}': expected htm or qtm (stm and etm count sequences in verify)")]
    Metric(String),
    /// A metric that counts written sequences but that no search or enumeration works in.
    #[error("{0} counts the length of a written sequence (verify --metric {0}); bfs, solve and scramble work in htm or qtm")]
    CountingOnly(String),
}

impl Move {
    /// The move as a cubie cube.
    pub fn cubie(self) -> CubieCube {
        let quarter = CubieCube::face_turn(self.face as usize);
        let mut c = quarter;
        for _ in 1..self.turns {
            c = c.then(&quarter);
        }
        c
    }

    /// The move that undoes this one.
    pub fn inverse(self) -> Move {
        Move {
            face: self.face,
            turns: 4 - self.turns,
        }
    }

    /// Index among the 18 half-turn-metric moves (`face * 3 + turns - 1`).
    pub fn htm_index(self) -> usize {
        self.face as usize * 3 + self.turns as usize - 1
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suffix = match self.turns {
            1 => "",
            2 => "2",
            _ => "'",
        };
        write!(f, "{}{suffix}", FACES[self.face as usize])
    }
}

/// Reads a sequence of face turns, written as [`Algorithm::parse`] reads algorithms
/// (whitespace optional, `RU R'U2`; groups, commutators, conjugates and comments expanded).
/// Wide turns, slices and rotations are refused here, since they move the centres: read those
/// with [`Algorithm`]. Consecutive turns of one face are kept as written.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, NotationError> {
    let algorithm = Algorithm::parse(text)?;
    algorithm
        .turns
        .iter()
        .enumerate()
        .map(|(k, t)| {
            t.face_turn().ok_or_else(|| NotationError::NotFaceTurn {
                turn: Algorithm { turns: vec![*t] }.to_string(),
                index: k + 1,
            })
        })
        .collect()
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

/// The cube reached from solved by `moves`.
pub fn apply_moves(start: &CubieCube, moves: &[Move]) -> CubieCube {
    moves.iter().fold(*start, |c, m| c.then(&m.cubie()))
}

/// The inverse sequence: undoes `moves`.
pub fn invert_moves(moves: &[Move]) -> Vec<Move> {
    moves.iter().rev().map(|m| m.inverse()).collect()
}
