//! The position representation used inside the search engines.

use super::SearchError;
use godsearch_puzzles::tiles::{Board, Move, Shape};

/// The largest board the engines handle: cells and tiles are `u8` indices into 64-entry arrays.
pub const MAX_SEARCH_CELLS: usize = 64;
/// Marks "no cell" in the step table.
const NO_CELL: u8 = u8::MAX;

/// Where the blank goes from each cell in each direction (`U D L R`, the [`Move`] order).
#[derive(Debug, Clone)]
pub struct Geometry {
    shape: Shape,
    step: [[u8; 4]; MAX_SEARCH_CELLS],
}

impl Geometry {
    /// The step table of a board size.
    pub fn new(shape: Shape) -> Result<Self, SearchError> {
        if shape.cells() > MAX_SEARCH_CELLS {
            return Err(SearchError::BoardTooLarge);
        }
        let mut step = [[NO_CELL; 4]; MAX_SEARCH_CELLS];
        for (cell, row) in step.iter_mut().enumerate().take(shape.cells()) {
            for mv in Move::ALL {
                if let Some(to) = shape.step(cell, mv) {
                    row[mv.index() as usize] = to as u8;
                }
            }
        }
        Ok(Self { shape, step })
    }

    /// The board size.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The cell the blank reaches from `blank` by move `mv` (`0..4`), if any.
    #[inline]
    pub fn step(&self, blank: u8, mv: usize) -> Option<u8> {
        let to = self.step[blank as usize][mv];
        (to != NO_CELL).then_some(to)
    }
}

/// A position as the engines change it: tiles by cell and cells by tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node {
    /// `cells[c]` = tile on cell `c` (0 = blank).
    pub cells: [u8; MAX_SEARCH_CELLS],
    /// `pos[t]` = cell of tile `t` (`pos[0]` = the blank's cell).
    pub pos: [u8; MAX_SEARCH_CELLS],
}

impl Node {
    /// The node of a board (at most [`MAX_SEARCH_CELLS`] cells; checked by [`Geometry::new`]).
    pub fn from_board(board: &Board) -> Self {
        let mut node = Node {
            cells: [0; MAX_SEARCH_CELLS],
            pos: [0; MAX_SEARCH_CELLS],
        };
        for (c, &t) in board.cells().iter().enumerate() {
            node.cells[c] = t as u8;
            node.pos[t as usize] = c as u8;
        }
        node
    }

    /// The blank's cell.
    #[inline]
    pub fn blank(&self) -> u8 {
        self.pos[0]
    }

    /// Slides the tile on cell `to` into the blank; returns that tile. Sliding back undoes it.
    #[inline]
    pub fn slide(&mut self, to: u8) -> u8 {
        let from = self.pos[0];
        let tile = self.cells[to as usize];
        self.cells[from as usize] = tile;
        self.cells[to as usize] = 0;
        self.pos[tile as usize] = from;
        self.pos[0] = to;
        tile
    }
}
