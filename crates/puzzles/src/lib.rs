//! Puzzle definitions: what a position is, how it is written and read, which moves exist, and
//! the perfect ranking that turns positions into dense integers for the engines.
//!
//! - [`tiles`]: sliding-tile puzzles of any size `W x H` (the 8-, 15-, 24-puzzle and beyond).
//! - [`cube`]: the 2x2x2 and 3x3x3 Rubik's cubes (facelets, cubies, coordinates, notation).
//! - [`PuzzleName`]: the names the command line accepts, resolved to a puzzle family.

pub mod cube;
pub mod tiles;

use std::str::FromStr;
use thiserror::Error;

/// A puzzle named on the command line, before any board is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PuzzleName {
    /// A sliding-tile board.
    Tiles(tiles::Shape),
    /// A Rubik's cube.
    Cube(cube::CubeSize),
}

/// The puzzle name was not accepted.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PuzzleNameError {
    /// Not a name of any puzzle family.
    #[error("unknown puzzle '{0}': expected a board size such as 3x3, 4x4, 5x5 or WxH (width x height), 8-puzzle, 15-puzzle, 24-puzzle, or a cube: 2x2x2 (cube2), 3x3x3 (cube, cube3)")]
    Unknown(String),
    /// A board size outside what godsearch supports.
    #[error(transparent)]
    Shape(tiles::ShapeError),
}

impl FromStr for PuzzleName {
    type Err = PuzzleNameError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        match s.to_ascii_lowercase().as_str() {
            "3x3x3" | "cube" | "cube3" | "rubik" => {
                return Ok(PuzzleName::Cube(cube::CubeSize::Three))
            }
            "2x2x2" | "cube2" | "pocket" => return Ok(PuzzleName::Cube(cube::CubeSize::Two)),
            _ => {}
        }
        match s.parse::<tiles::Shape>() {
            Ok(shape) => Ok(PuzzleName::Tiles(shape)),
            Err(tiles::ShapeError::Unknown(_)) => {
                Err(PuzzleNameError::Unknown(godsearch_core::excerpt(s)))
            }
            Err(e) => Err(PuzzleNameError::Shape(e)),
        }
    }
}

impl std::fmt::Display for PuzzleName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PuzzleName::Tiles(shape) => write!(f, "{shape}"),
            PuzzleName::Cube(size) => write!(f, "{size}"),
        }
    }
}
