//! Patterns: a group of tiles, and the perfect index of where those tiles stand.
//!
//! A pattern database holds one entry per placement of the group's `k` tiles on the `N` cells:
//! `N!/(N-k)!` entries, indexed by the cells of the tiles in group order as a mixed-radix number
//! (`c'_0 * (N-1) * ... + c'_1 * ... + c'_{k-1}`, where `c'_i` counts the cells below `c_i` not
//! used by the tiles before it). The builder (in `godsearch-enumerate`) and the lookup (in
//! `godsearch-search`) both index through [`Pattern`], so they cannot disagree.

use super::board::Board;
use super::shape::Shape;
use godsearch_core::perm::placement_index;
use thiserror::Error;

/// The most cells a board may have for pattern indexing (cells are bits of a `u64`).
pub const MAX_PATTERN_CELLS: usize = 64;
/// The most tiles in one pattern: 9 tiles and the blank, 6 bits a cell, fill the 64-bit states of
/// the database builder (and 9 tiles on 4x4 are already 4 billion entries).
pub const MAX_PATTERN_TILES: usize = 9;

/// Why a group of tiles cannot be a pattern.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PatternError {
    /// An empty group.
    #[error("a pattern needs at least one tile")]
    Empty,
    /// Too many tiles in one group.
    #[error("a pattern of {0} tiles is too large (at most {MAX_PATTERN_TILES})")]
    TooManyTiles(usize),
    /// The blank or a number that is not a tile of this board.
    #[error("{tile} is not a tile of a {shape} board (tiles are 1 to {max})")]
    NotATile {
        /// The offending number.
        tile: usize,
        /// The board size.
        shape: Shape,
        /// The largest tile.
        max: usize,
    },
    /// A tile in two groups, or twice in one.
    #[error("tile {0} is in the partition more than once")]
    Repeated(usize),
    /// The board is too large to index.
    #[error("pattern databases support boards of at most {MAX_PATTERN_CELLS} cells")]
    BoardTooLarge,
}

/// A group of tiles of one board and goal, with the indexing of their placements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    shape: Shape,
    tiles: Vec<u16>,
    goal_cells: Vec<u8>,
    goal_blank: u8,
    entries: u64,
}

/// Version of the pattern indexing ([`Pattern::index`]-style k-permutation ranks); stored in
/// database file headers. Change it whenever the indexing changes.
pub const PATTERN_INDEXING: &str = "index k-permutation v1";

impl Pattern {
    /// The parameters a database file of this pattern carries: its tiles and the indexing.
    pub fn table_params(&self) -> String {
        let tiles: Vec<String> = self.tiles.iter().map(|t| t.to_string()).collect();
        format!("pdb tiles {} {PATTERN_INDEXING}", tiles.join(","))
    }

    /// The pattern of `tiles` (in this order) for boards with goal `goal`.
    pub fn new(goal: &Board, tiles: &[u16]) -> Result<Self, PatternError> {
        let shape = goal.shape();
        let n = shape.cells();
        if n > MAX_PATTERN_CELLS {
            return Err(PatternError::BoardTooLarge);
        }
        if tiles.is_empty() {
            return Err(PatternError::Empty);
        }
        if tiles.len() > MAX_PATTERN_TILES || tiles.len() >= n {
            return Err(PatternError::TooManyTiles(tiles.len()));
        }
        let mut seen = vec![false; n];
        for &t in tiles {
            let t = t as usize;
            if t == 0 || t >= n {
                return Err(PatternError::NotATile {
                    tile: t,
                    shape,
                    max: n - 1,
                });
            }
            if std::mem::replace(&mut seen[t], true) {
                return Err(PatternError::Repeated(t));
            }
        }
        let cell_of = |tile: u16| {
            goal.cells()
                .iter()
                .position(|&c| c == tile)
                .expect("a permutation") as u8
        };
        let entries = (0..tiles.len() as u64).map(|i| n as u64 - i).product();
        Ok(Self {
            shape,
            tiles: tiles.to_vec(),
            goal_cells: tiles.iter().map(|&t| cell_of(t)).collect(),
            goal_blank: cell_of(0),
            entries,
        })
    }

    /// The board size.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The group's tiles, in index order.
    pub fn tiles(&self) -> &[u16] {
        &self.tiles
    }

    /// The goal cell of each tile of the group.
    pub fn goal_cells(&self) -> &[u8] {
        &self.goal_cells
    }

    /// The goal cell of the blank.
    pub fn goal_blank(&self) -> u8 {
        self.goal_blank
    }

    /// Number of placements: `N!/(N-k)!`.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// Cells left free by the pattern's tiles: `N - k`.
    pub fn free_cells(&self) -> u64 {
        (self.shape.cells() - self.tiles.len()) as u64
    }

    /// The index of a placement: `cells[i]` is the cell of `tiles()[i]`; `0..entries()`.
    #[inline]
    pub fn index(&self, cells: &[u8]) -> u64 {
        placement_index(cells.iter().map(|&c| c as u32), self.shape.cells() as u64)
    }

    /// The cells of the placement with this index (inverse of [`index`](Self::index)).
    pub fn cells_of(&self, mut index: u64, out: &mut [u8]) {
        let n = self.shape.cells() as u64;
        let k = self.tiles.len();
        let mut digits = [0u64; MAX_PATTERN_TILES];
        for i in (0..k).rev() {
            let radix = n - i as u64;
            digits[i] = index % radix;
            index /= radix;
        }
        let mut free = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        for (slot, &d) in out.iter_mut().zip(&digits[..k]) {
            let mut m = free;
            for _ in 0..d {
                m &= m - 1;
            }
            let c = m.trailing_zeros();
            *slot = c as u8;
            free &= !(1u64 << c);
        }
    }

    /// The rank of cell `blank` among the cells the pattern leaves free; `0..free_cells()`.
    #[inline]
    pub fn blank_slot(&self, pattern_mask: u64, blank: u8) -> u64 {
        blank as u64 - (pattern_mask & ((1u64 << blank) - 1)).count_ones() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_is_a_bijection() {
        let shape = Shape::new(3, 3).unwrap();
        let p = Pattern::new(&Board::goal(shape), &[1, 5, 8]).unwrap();
        assert_eq!(p.entries(), 9 * 8 * 7);
        let mut seen = vec![false; p.entries() as usize];
        let mut cells = [0u8; 3];
        for i in 0..p.entries() {
            p.cells_of(i, &mut cells);
            assert_eq!(p.index(&cells), i);
            assert!(cells[0] != cells[1] && cells[1] != cells[2] && cells[0] != cells[2]);
            assert!(!std::mem::replace(&mut seen[i as usize], true));
        }
        assert_eq!(p.goal_cells(), &[0, 4, 7]);
        assert_eq!(p.goal_blank(), 8);
        let mask = (1 << 0) | (1 << 4) | (1 << 7);
        assert_eq!(p.blank_slot(mask, 8), 5);
    }

    #[test]
    fn bad_groups_are_refused() {
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        assert_eq!(Pattern::new(&goal, &[]), Err(PatternError::Empty));
        assert!(matches!(
            Pattern::new(&goal, &[0, 1]),
            Err(PatternError::NotATile { tile: 0, .. })
        ));
        assert!(matches!(
            Pattern::new(&goal, &[16]),
            Err(PatternError::NotATile { tile: 16, .. })
        ));
        assert_eq!(Pattern::new(&goal, &[3, 3]), Err(PatternError::Repeated(3)));
    }
}
