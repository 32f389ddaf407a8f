//! Reading a cube position from what a user typed: a facelet string or a move sequence.
//!
//! The rule, the same for every front end (docs/cubes.md):
//! - Whitespace never decides. Ignoring whitespace, a text is read as **facelets** when it has
//!   exactly the cube's sticker count (54 on the 3x3x3, 24 on the 2x2x2) in exactly six distinct
//!   characters, and as a **move sequence** otherwise.
//! - A text that is both (a valid move sequence of exactly that shape, such as
//!   `RLBF LDRB DURF FDDL URLU FBUB`) is refused as [`PositionError::Ambiguous`].
//! - A valid move sequence written only in bare face letters, all six of them, within
//!   [`NEAR_STICKER_SHARE`] of the sticker count is refused too
//!   ([`PositionError::LooksLikeFacelets`]): it is far more likely a facelet string with a
//!   sticker missing or doubled than 23 quarter turns typed without a space.
//!
//! A caller that knows which is meant (`--facelets`, `--moves`) passes [`Syntax::Facelets`] or
//! [`Syntax::Moves`] and no guessing happens.

use super::algorithm::Algorithm;
use super::cubie::{CubieCube, FACES};
use super::facelet::FaceletError;
use super::notation::NotationError;
use super::CubeShape;
use godsearch_core::excerpt;
use thiserror::Error;

/// A move sequence of bare face letters whose length is within `stickers / NEAR_STICKER_SHARE`
/// of the sticker count is taken for a damaged facelet string (3 stickers on the 2x2x2, 6 on
/// the 3x3x3).
pub const NEAR_STICKER_SHARE: usize = 8;
/// Distinct characters a facelet string has: one per face.
const FACE_COUNT: usize = 6;

/// How a text names a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// Decide by the rule in the module docs.
    Auto,
    /// A facelet string, whatever it looks like.
    Facelets,
    /// A move sequence from solved, whatever it looks like.
    Moves,
}

/// Why a text is not a cube position.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// Both a facelet string and a move sequence.
    #[error("it is both a {stickers}-sticker facelet string and a {moves}-move sequence; say which with «facelets» or «moves»")]
    Ambiguous {
        /// The text, cut to an excerpt.
        text: String,
        /// Stickers on this cube.
        stickers: usize,
        /// Moves it would be.
        moves: usize,
    },
    /// A move sequence that looks like a facelet string with the wrong sticker count.
    #[error("it reads as {moves} moves, but it is written like a facelet string with {found} stickers, not {stickers}; check the stickers, or give it with «moves» if it is a move sequence")]
    LooksLikeFacelets {
        /// The text, cut to an excerpt.
        text: String,
        /// Stickers on this cube.
        stickers: usize,
        /// Characters found, ignoring whitespace.
        found: usize,
        /// Moves it would be.
        moves: usize,
    },
    /// Neither shape fits.
    #[error("it is neither a facelet string (it has {found} characters, {kinds} distinct, ignoring whitespace; a {cube} facelet string has {stickers}, 6 distinct) nor a move sequence ({reason})")]
    Neither {
        /// The text, cut to an excerpt.
        text: String,
        /// The cube's name: `2x2x2` or `3x3x3`.
        cube: &'static str,
        /// Stickers on this cube.
        stickers: usize,
        /// Characters found, ignoring whitespace.
        found: usize,
        /// Distinct characters found.
        kinds: usize,
        /// Why it is no move sequence.
        reason: NotationError,
    },
    /// Read as a facelet string, but not a cube.
    #[error(transparent)]
    Facelets(#[from] FaceletError),
    /// Read as a move sequence, but not one.
    #[error(transparent)]
    Moves(#[from] NotationError),
}

/// Reads a position of a `cube` from `text`, written as `syntax` says (see the module
/// docs for [`Syntax::Auto`]). A move sequence is applied to the solved cube, and the position
/// is the one the cube shows as held after it (rotations and slices move the centres: see
/// [`super::algorithm`]).
pub fn parse_position(
    cube: CubeShape,
    text: &str,
    syntax: Syntax,
) -> Result<CubieCube, PositionError> {
    let moves_from_solved = |moves: &Algorithm| moves.apply_held(cube, &CubieCube::SOLVED);
    match syntax {
        Syntax::Facelets => return Ok(cube.read_facelets(text)?),
        Syntax::Moves => return Ok(moves_from_solved(&Algorithm::parse(text)?)?),
        Syntax::Auto => {}
    }
    let stickers = cube.stickers();
    let compact: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut kinds = compact.clone();
    kinds.sort_unstable();
    kinds.dedup();
    let facelet_shaped = compact.len() == stickers && kinds.len() == FACE_COUNT;
    let moves = Algorithm::parse(text);
    match (facelet_shaped, moves) {
        (true, Ok(moves)) => Err(PositionError::Ambiguous {
            text: excerpt(text),
            stickers,
            moves: moves.turns.len(),
        }),
        (true, Err(_)) => Ok(cube.read_facelets(text)?),
        (false, Ok(moves)) => {
            let bare_face_letters =
                kinds.len() == FACE_COUNT && kinds.iter().all(|c| FACES.contains(c));
            if bare_face_letters
                && compact.len().abs_diff(stickers) <= stickers / NEAR_STICKER_SHARE
            {
                return Err(PositionError::LooksLikeFacelets {
                    text: excerpt(text),
                    stickers,
                    found: compact.len(),
                    moves: moves.turns.len(),
                });
            }
            Ok(moves_from_solved(&moves)?)
        }
        (false, Err(reason)) => Err(PositionError::Neither {
            text: excerpt(text),
            cube: cube.name(),
            stickers,
            found: compact.len(),
            kinds: kinds.len(),
            reason,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::algorithm::parse_moves;
    use crate::cube::notation::{apply_moves, format_moves};
    use crate::cube::{CUBE2, CUBE3};

    fn auto(cube: CubeShape, text: &str) -> Result<CubieCube, PositionError> {
        parse_position(cube, text, Syntax::Auto)
    }

    #[test]
    fn whitespace_never_decides() {
        let spaced = "RLBF LDRB DURF FDDL URLU FBUB";
        let joined: String = spaced.split_whitespace().collect();
        for text in [spaced, joined.as_str()] {
            assert!(matches!(
                auto(CUBE2, text),
                Err(PositionError::Ambiguous { moves: 24, .. })
            ));
        }
        let facelets = parse_position(CUBE2, spaced, Syntax::Facelets).unwrap();
        let moves = parse_position(CUBE2, spaced, Syntax::Moves).unwrap();
        assert_ne!(facelets, moves);
    }

    #[test]
    fn a_missing_sticker_is_not_a_move_sequence() {
        let err = auto(CUBE2, "RLBFLDRBDURFFDDLURLUFBU").unwrap_err();
        assert!(
            matches!(err, PositionError::LooksLikeFacelets { found: 23, .. }),
            "{err}"
        );
        // Colour letters are no moves: the message says what each reading lacks.
        let err = auto(CUBE2, "WWWWGGRRRRBBYYYYBBOOOOG").unwrap_err();
        assert!(
            matches!(err, PositionError::Neither { found: 23, .. }),
            "{err}"
        );
    }

    #[test]
    fn any_six_characters_are_stickers() {
        let digits = auto(CUBE2, "000011112222333344445555");
        assert!(matches!(digits, Ok(c) if c.is_solved()));
        let solved3 = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
        assert!(matches!(
            auto(CUBE3, solved3),
            Err(PositionError::Ambiguous { .. })
        ));
        let colours = solved3
            .replace('U', "w")
            .replace('R', "r")
            .replace('F', "g")
            .replace('D', "y")
            .replace('L', "o")
            .replace('B', "b");
        assert!(auto(CUBE3, &colours).unwrap().is_solved());
    }

    #[test]
    fn move_sequences_stay_move_sequences() {
        for text in ["R U R' U'", "RUR'U'", "R2 L2 U2 D2 F2 B2", "", "U"] {
            let cube = auto(CUBE3, text).unwrap();
            let moves = parse_moves(text).unwrap();
            assert_eq!(cube, apply_moves(&CubieCube::SOLVED, &moves), "{text}");
        }
        // A long run of fewer than six face letters is moves, whatever its length.
        let long = "RU".repeat(27);
        assert!(auto(CUBE3, &long).is_ok());
        let forty: Vec<_> = parse_moves(&"R U F D L B ".repeat(7)).unwrap();
        assert_eq!(format_moves(&forty).len(), 42 * 2 - 1);
        assert!(auto(CUBE3, &"R U F D L B ".repeat(7)).is_ok());
        assert!(matches!(
            auto(CUBE3, &"R U F D L B ".repeat(9)),
            Err(PositionError::Ambiguous { .. })
        ));
    }

    #[test]
    fn long_inputs_are_cut_in_messages() {
        let err = auto(CUBE3, &"Q".repeat(100_000)).unwrap_err();
        assert!(err.to_string().len() < 600, "{err}");
    }
}
