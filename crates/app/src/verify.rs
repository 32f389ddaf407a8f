//! Checking move sequences, such as another solver's answers: each is replayed from its start,
//! and the report says where it ends, whether that is the goal, its length in every metric, and
//! whether it is shortest where a complete distance table can tell (boards of up to 20 million
//! positions) or a solver proves it. `apply` is the same replay, read for the position it
//! reaches. This module reads the [`Claim`]s; each puzzle's check is in its registry module
//! ([`crate::registry::tiles::verify`], [`crate::registry::cubes::verify`],
//! [`crate::registry::definition::verify`]).

/// A start and the moves to check, as the user wrote them.
#[derive(Debug, Clone, Copy)]
pub struct Claim<'a> {
    /// The start position.
    pub start: &'a str,
    /// The moves from it.
    pub moves: &'a str,
}

impl<'a> Claim<'a> {
    /// A line of a file of claims: the start and the moves separated by `|` or a tab, or else
    /// by the first run of spaces (so a start written as moves needs `|` or a tab). `None` for
    /// a line with no moves part.
    pub fn from_line(line: &'a str) -> Option<Self> {
        let (start, moves) = line
            .split_once(['|', '\t'])
            .or_else(|| line.trim().split_once(char::is_whitespace))?;
        Some(Claim {
            start: start.trim(),
            moves: moves.trim(),
        })
    }
}
