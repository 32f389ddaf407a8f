//! Puzzle definitions: what a position is, how it is written and read, which moves exist, and
//! the perfect ranking that turns positions into dense integers for the engines.
//!
//! - [`tiles`]: sliding-tile puzzles of any size `W x H` (the 8-, 15-, 24-puzzle and beyond).
//! - [`cube`]: the 2x2x2 and 3x3x3 Rubik's cubes (facelets, cubies, coordinates, notation).
//!
//! Which puzzle a name means is the application's puzzle registry's business, not this crate's.

pub mod cube;
pub mod tiles;
