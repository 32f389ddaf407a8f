//! Rubik's cubes in three layers, converted in one direction (DESIGN.md):
//! [`facelet`] (54 stickers, for input and output) -> [`cubie`] (permutations and
//! orientations, for group operations) -> [`coord`] (integers for search and tables).
//!
//! [`notation`] reads and writes face-turn sequences and counts them in either search metric;
//! [`algorithm`] reads whole algorithms (wide turns, slices, rotations, brackets, comments),
//! replays them on the stickers and counts them in HTM, QTM, STM or ETM;
//! [`position`] decides whether a typed text is stickers or moves; [`shape`] says what sets
//! the 2x2x2 and the 3x3x3 apart where they share the cubie model;
//! [`symmetry`] holds the 48 symmetries and the symmetry classes of a coordinate (and says how
//! each cube search reduces by symmetry); [`cube2`] is the 2x2x2 as a ranked space;
//! [`classes`] is the 3x3x3 as a space of symmetry classes.

pub mod algorithm;
pub mod classes;
pub mod coord;
pub mod cube2;
pub mod cubie;
pub mod facelet;
pub mod notation;
pub mod position;
pub mod random;
pub mod shape;
pub mod symmetry;

pub use algorithm::{Algorithm, Notation, Stickers, Turn, TurnMetric};
pub use classes::{Cube3Classes, Reduction};
pub use cube2::{Cube2Space, CUBE2_MAX_DISTANCE, CUBE2_RANKING};
pub use cubie::{CubieCube, CubieError};
pub use facelet::FaceletError;
pub use notation::{Metric, Move, NotationError};
pub use position::{parse_position, PositionError, Syntax};
pub use random::random_cube;
pub use shape::{CubeShape, CUBE2, CUBE3};
pub use symmetry::Symmetries;

#[cfg(test)]
mod tests;
