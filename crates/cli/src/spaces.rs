//! From command-line words to sliding-tile boards: the board size a board-only command names,
//! and its goal. Which names are boards is the registry's to say
//! ([`godsearch_app::registry::tiles::board_shape`]).

use crate::errors::bad_input;
use anyhow::Result;
use godsearch_app::registry::{cubes::cube_size, tiles::board_shape};
use godsearch_app::tiles::{Board, Shape};
use godsearch_app::units::excerpt;

/// The board size named by `name`; a cube's or another puzzle's name is refused, saying what
/// the command takes.
pub fn tile_shape(name: &str) -> Result<Shape> {
    if let Some(shape) = board_shape(name) {
        return Ok(shape?);
    }
    if let Some(size) = cube_size(name) {
        bad_input!("this command is for sliding-tile boards; {size} is a cube (see `godsearch bfs {size}` and `godsearch solve {size}`)")
    }
    bad_input!(
        "unknown puzzle '{}': this command takes a board size such as 3x3, 4x4, 5x5 or WxH (width x height), 8-puzzle, 15-puzzle, 24-puzzle",
        excerpt(name)
    )
}

/// The goal given with `--goal`, or the standard one (see
/// [`godsearch_app::request::tile_goal`]).
pub fn tile_goal(shape: Shape, goal: Option<&str>) -> Result<Board> {
    Ok(godsearch_app::request::tile_goal(shape, goal)?)
}
