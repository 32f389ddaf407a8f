//! Pattern databases for additive heuristics (Felner, Korf & Hanan 2004).
//!
//! For a group of tiles, the entry of a placement is the fewest moves **of the group's tiles**
//! needed to bring them home, whatever the other tiles do. It is found by a breadth-first search
//! backwards from the goal over (group placement, blank cell), in which the blank sliding through
//! a cell not held by the group costs 0 and moving a group tile costs 1 (a 0/1 BFS: each level is
//! closed under free moves before the next begins), followed by the minimum over blank cells.
//! Because each group counts only its own tiles' moves, the entries of disjoint groups add up to
//! an admissible heuristic.

use crate::Progress;
use godsearch_puzzles::tiles::{Pattern, MAX_PATTERN_TILES};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering};
use thiserror::Error;

/// Distance not yet known during the build.
const UNSEEN: u8 = u8::MAX;
/// Bits a cell takes in a packed queue entry (boards up to 64 cells).
const CELL_BITS: u32 = 6;
const CELL_MASK: u64 = (1 << CELL_BITS) - 1;
/// States a rayon task expands.
const STATES_PER_TASK: usize = 1 << 14;

/// The build could not run.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PatternDbError {
    /// The search space (placements times blank cells) exceeds the memory budget.
    #[error("building a database of {tiles} tiles needs about {needed} bytes, more than the budget of {budget} bytes")]
    TooLarge {
        /// Tiles in the group.
        tiles: usize,
        /// Estimated bytes.
        needed: u64,
        /// The memory limit.
        budget: u64,
    },
}

/// Bytes the build of `pattern` needs: a byte per (placement, blank slot), plus queues.
pub fn build_bytes(pattern: &Pattern) -> u64 {
    let states = pattern.entries().saturating_mul(pattern.free_cells());
    // Queues hold at most a level's states at 8 bytes each; levels rarely exceed a quarter.
    states.saturating_add(states.saturating_mul(8) / 4)
}

/// A placement of the group with the blank, packed 6 bits a cell: `cells[0]` lowest, blank highest.
#[derive(Clone, Copy)]
struct Packed(u64);

impl Packed {
    fn new(cells: &[u8], blank: u8) -> Self {
        Packed(
            cells
                .iter()
                .rev()
                .fold(blank as u64, |acc, &c| (acc << CELL_BITS) | c as u64),
        )
    }

    fn unpack(self, k: usize, cells: &mut [u8; MAX_PATTERN_TILES]) -> u8 {
        let mut v = self.0;
        for c in cells.iter_mut().take(k) {
            *c = (v & CELL_MASK) as u8;
            v >>= CELL_BITS;
        }
        (v & CELL_MASK) as u8
    }
}

/// Cell bitmasks of one board: each cell's neighbours, and the shifts that grow a region.
struct Grid {
    cells: u64,
    not_first_col: u64,
    not_last_col: u64,
    width: u32,
}

impl Grid {
    fn new(width: usize, height: usize) -> Self {
        let n = width * height;
        let cells = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let col = |c: usize| (0..height).fold(0u64, |m, r| m | 1u64 << (r * width + c));
        Grid {
            cells,
            not_first_col: cells & !col(0),
            not_last_col: cells & !col(width - 1),
            width: width as u32,
        }
    }

    /// Cells next to any cell of `region`.
    #[inline]
    fn around(&self, region: u64) -> u64 {
        let w = self.width;
        (((region & self.not_last_col) << 1)
            | ((region & self.not_first_col) >> 1)
            | (region << w)
            | (region >> w))
            & self.cells
    }

    /// The cells of `free` connected to `seed` (a flood fill, whole rows of bits at a time).
    #[inline]
    fn fill(&self, seed: u8, free: u64) -> u64 {
        let mut region = 1u64 << seed;
        loop {
            let grown = region | (self.around(region) & free);
            if grown == region {
                return region;
            }
            region = grown;
        }
    }
}

/// Builds the pattern database of `pattern`: one byte per placement, exact (the fewest moves of
/// the group's tiles from that placement to the goal, over all positions of the other tiles).
///
/// The blank's free moves are taken all at once: a state is a placement with the connected
/// region of free cells the blank can reach, found by a bitmask flood fill and marked whole, so
/// every level holds each (placement, region) once and no 0-cost closure has to be iterated.
pub fn build(
    pattern: &Pattern,
    memory_bytes: u64,
    progress: &dyn Progress,
) -> Result<Vec<u8>, PatternDbError> {
    let needed = build_bytes(pattern);
    if needed > memory_bytes {
        return Err(PatternDbError::TooLarge {
            tiles: pattern.tiles().len(),
            needed,
            budget: memory_bytes,
        });
    }
    let shape = pattern.shape();
    let grid = Grid::new(shape.width(), shape.height());
    let k = pattern.tiles().len();
    let free = pattern.free_cells();
    let total = pattern.entries() * free;
    let dist: Vec<AtomicU8> = (0..total).map(|_| AtomicU8::new(UNSEEN)).collect();
    let mask_of = |cells: &[u8]| cells.iter().fold(0u64, |m, &c| m | 1u64 << c);
    // Marks the blank's whole region in placement `cells` as `depth`; false if already seen.
    // Two threads may both mark the same region; it is then expanded twice, harmlessly.
    let mark = |cells: &[u8], mask: u64, blank: u8, depth: u8| -> bool {
        let base = pattern.index(cells) * free;
        if dist[(base + pattern.blank_slot(mask, blank)) as usize].load(Ordering::Relaxed) != UNSEEN
        {
            return false;
        }
        let mut region = grid.fill(blank, grid.cells & !mask);
        while region != 0 {
            let cell = region.trailing_zeros() as u8;
            region &= region - 1;
            dist[(base + pattern.blank_slot(mask, cell)) as usize].store(depth, Ordering::Relaxed);
        }
        true
    };
    let start = pattern.goal_cells();
    mark(start, mask_of(start), pattern.goal_blank(), 0);
    let mut current = vec![Packed::new(start, pattern.goal_blank())];
    let mut depth = 0u8;
    while !current.is_empty() {
        progress.level_started(depth as u32 + 1, current.len() as u64);
        let next: Vec<Packed> = current
            .par_chunks(STATES_PER_TASK)
            .flat_map_iter(|chunk| {
                let mut next = Vec::new();
                let mut cells = [0u8; MAX_PATTERN_TILES];
                for state in chunk {
                    let blank = state.unpack(k, &mut cells);
                    let mask = mask_of(&cells[..k]);
                    let region = grid.fill(blank, grid.cells & !mask);
                    // Each group tile next to the region may slide into any region cell beside it.
                    for tile in 0..k {
                        let from = cells[tile];
                        let mut targets = grid.around(1u64 << from) & region;
                        while targets != 0 {
                            let to = targets.trailing_zeros() as u8;
                            targets &= targets - 1;
                            let mut moved = cells;
                            moved[tile] = to;
                            let moved_mask = mask & !(1u64 << from) | (1u64 << to);
                            if mark(&moved[..k], moved_mask, from, depth + 1) {
                                next.push(Packed::new(&moved[..k], from));
                            }
                        }
                    }
                }
                progress.advanced(chunk.len() as u64);
                next
            })
            .collect();
        progress.level_finished(depth as u32 + 1, next.len() as u64);
        current = next;
        depth += 1;
    }
    Ok(dist
        .chunks(free as usize)
        .map(|blanks| {
            blanks
                .iter()
                .map(|d| d.load(Ordering::Relaxed))
                .min()
                .expect("at least one free cell")
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NoProgress;
    use godsearch_puzzles::tiles::{Board, Shape};

    #[test]
    fn every_placement_is_reached_and_the_goal_is_zero() {
        let goal = Board::goal(Shape::new(3, 3).unwrap());
        let pattern = Pattern::new(&goal, &[1, 2, 3]).unwrap();
        let db = build(&pattern, 1 << 30, &NoProgress).unwrap();
        assert_eq!(db.len() as u64, pattern.entries());
        assert!(db.iter().all(|&d| d != UNSEEN));
        // The group's tiles alone need at least their Manhattan distance.
        let mut cells = [0u8; 3];
        for (i, &d) in db.iter().enumerate() {
            pattern.cells_of(i as u64, &mut cells);
            let manhattan: u32 = cells
                .iter()
                .zip(pattern.goal_cells())
                .map(|(&c, &g)| ((c / 3).abs_diff(g / 3) + (c % 3).abs_diff(g % 3)) as u32)
                .sum();
            assert!(d as u32 >= manhattan);
        }
        assert_eq!(db[pattern.index(pattern.goal_cells()) as usize], 0);
        assert!(db.iter().filter(|&&d| d == 0).count() == 1);
        assert!(build(&pattern, 10, &NoProgress).is_err());
    }
}
