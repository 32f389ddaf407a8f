//! The moves of the blank (`U D L R`) and their notation: its own module, so that board
//! shapes (which step a cell by a move) and boards (which make moves) both read it and neither
//! depends on the other.

use godsearch_core::{MoveIdx, SequenceAutomaton};
use thiserror::Error;

/// A move of the blank. `U` moves the blank up (the tile above it slides down).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Blank moves up one row.
    Up,
    /// Blank moves down one row.
    Down,
    /// Blank moves left one column.
    Left,
    /// Blank moves right one column.
    Right,
}

/// A letter that is not one of `U D L R`.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("unknown move '{0}': moves are U, D, L, R (the direction the blank moves)")]
pub struct MoveParseError(pub String);

impl Move {
    /// All moves, in [`MoveIdx`] order.
    pub const ALL: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

    /// This move's index in [`Move::ALL`].
    pub fn index(self) -> MoveIdx {
        self as MoveIdx
    }

    /// The move with index `i` (`i < 4`).
    pub fn from_index(i: MoveIdx) -> Move {
        Move::ALL[i as usize]
    }

    /// The canonical move sequences of every board: no move right after its inverse (the one
    /// redundant pair of moves on a board; no two different moves of the blank commute).
    pub fn sequence_automaton() -> SequenceAutomaton {
        SequenceAutomaton::from_last_move(Move::ALL.len(), |last, next| {
            next != Move::inverse_of(last)
        })
    }

    /// The letter of the move with index `i`, as a space names it.
    pub fn name_of(i: MoveIdx) -> String {
        Move::from_index(i).letter().to_string()
    }

    /// The index of the move that undoes the move with index `i`.
    pub fn inverse_of(i: MoveIdx) -> MoveIdx {
        Move::from_index(i).inverse().index()
    }

    /// The move that undoes this one.
    pub fn inverse(self) -> Move {
        match self {
            Move::Up => Move::Down,
            Move::Down => Move::Up,
            Move::Left => Move::Right,
            Move::Right => Move::Left,
        }
    }

    /// The letter used in notation.
    pub fn letter(self) -> char {
        match self {
            Move::Up => 'U',
            Move::Down => 'D',
            Move::Left => 'L',
            Move::Right => 'R',
        }
    }

    /// Reads a move sequence such as `RDDL`, `r d d l` or `R,D,D,L`.
    pub fn parse_sequence(text: &str) -> Result<Vec<Move>, MoveParseError> {
        text.chars()
            .filter(|c| !c.is_whitespace() && *c != ',')
            .map(|c| match c.to_ascii_uppercase() {
                'U' => Ok(Move::Up),
                'D' => Ok(Move::Down),
                'L' => Ok(Move::Left),
                'R' => Ok(Move::Right),
                other => Err(MoveParseError(other.to_string())),
            })
            .collect()
    }

    /// Writes a move sequence compactly (`RDDL`).
    pub fn format_sequence(moves: &[Move]) -> String {
        moves.iter().map(|m| m.letter()).collect()
    }
}
