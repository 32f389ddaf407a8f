//! From command-line words to puzzles: puzzle names, goals and metrics.

use crate::errors::bad_input;
use anyhow::Result;
use godsearch_puzzles::tiles::{Board, Shape};
use godsearch_puzzles::PuzzleName;

/// The board size named by `name`; a cube name is refused with `what` the command offers cubes.
pub fn tile_shape(name: &str) -> Result<Shape> {
    match name.parse::<PuzzleName>()? {
        PuzzleName::Tiles(shape) => Ok(shape),
        PuzzleName::Cube(size) => {
            bad_input!("this command is for sliding-tile boards; {size} is a cube (see `godsearch bfs {size}` and `godsearch solve {size}`)")
        }
    }
}

/// The goal given with `--goal`, or the standard one (see
/// [`godsearch_app::request::tile_goal`]).
pub fn tile_goal(shape: Shape, goal: Option<&str>) -> Result<Board> {
    Ok(godsearch_app::request::tile_goal(shape, goal)?)
}
