//! Sliding-tile puzzles of any size `W x H` (`2 <= W, H`, up to [`MAX_CELLS`] cells).
//!
//! Conventions (DESIGN.md): cells are numbered row-major from 0; a board is written as its tiles
//! row-major with 0 for the blank; a move is the direction the **blank** moves (`U D L R`).
//!
//! Solvability is decided by one parity invariant ([`Board::parity_invariant`]): the parity of
//! the inversions among the tiles read row by row (skipping the blank), plus, when the width is
//! even, the blank's row. Every move keeps it, and two boards with equal invariants reach each
//! other, so exactly half of all arrangements are solvable for a given goal.

mod board;
mod duplicates;
mod instances;
mod known;
mod moves;
pub mod notation;
mod partition;
mod pattern;
mod shape;
mod space;

pub use board::{Board, BoardError, BoardFormat, Parity, Unsolvability, BLANK_FIRST, BLANK_LAST};
pub use duplicates::{DuplicateAutomaton, DuplicateError, DuplicateState, MAX_DUPLICATE_LENGTH};
pub use instances::{
    declared_goal, goal_declared, parse_instance, parse_instances, DeclaredGoalError, Instance,
    GOAL_DIRECTIVE,
};
pub use known::known_diameter;
pub use moves::{Move, MoveParseError};
pub use partition::{Partition, PartitionError};
pub use pattern::{Pattern, PatternError, MAX_PATTERN_CELLS, MAX_PATTERN_TILES, PATTERN_INDEXING};
pub use shape::{Shape, ShapeError, MAX_CELLS};
pub use space::{SpaceError, TileSpace, TILE_RANKING};
