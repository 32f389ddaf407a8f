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
use thiserror::Error;

/// Distance not yet known during the build.
const UNSEEN: u8 = u8::MAX;
/// Bits a cell takes in a packed queue entry (boards up to 64 cells).
const CELL_BITS: u32 = 6;
const CELL_MASK: u64 = (1 << CELL_BITS) - 1;
/// How often (in states) the build reports progress.
const PROGRESS_EVERY: u64 = 1 << 16;

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

/// Builds the pattern database of `pattern`: one byte per placement, exact (the fewest moves of
/// the group's tiles from that placement to the goal, over all positions of the other tiles).
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
    let (w, n) = (shape.width(), shape.cells());
    let k = pattern.tiles().len();
    let free = pattern.free_cells();
    let neighbours: Vec<Vec<u8>> = (0..n)
        .map(|c| {
            let (r, col) = shape.row_col(c);
            let mut v = Vec::new();
            if r > 0 {
                v.push((c - w) as u8);
            }
            if r + 1 < shape.height() {
                v.push((c + w) as u8);
            }
            if col > 0 {
                v.push((c - 1) as u8);
            }
            if col + 1 < w {
                v.push((c + 1) as u8);
            }
            v
        })
        .collect();
    let total = pattern.entries() * free;
    let mut dist = vec![UNSEEN; total as usize];
    let mask_of = |cells: &[u8]| cells.iter().fold(0u64, |m, &c| m | 1u64 << c);
    let start_cells = pattern.goal_cells();
    let start_index = pattern.index(start_cells) * free
        + pattern.blank_slot(mask_of(start_cells), pattern.goal_blank());
    dist[start_index as usize] = 0;
    let mut current = vec![Packed::new(start_cells, pattern.goal_blank())];
    let mut depth = 0u8;
    let mut done = 0u64;
    progress.level_started(0, total);
    while !current.is_empty() {
        let mut next = Vec::new();
        let mut i = 0;
        let mut cells = [0u8; MAX_PATTERN_TILES];
        while i < current.len() {
            let state = current[i];
            i += 1;
            let blank = state.unpack(k, &mut cells);
            let mask = mask_of(&cells[..k]);
            let placement = pattern.index(&cells[..k]);
            if dist[(placement * free + pattern.blank_slot(mask, blank)) as usize] != depth {
                continue; // reached again more cheaply after it was queued
            }
            done += 1;
            if done % PROGRESS_EVERY == 0 {
                progress.advanced(PROGRESS_EVERY);
            }
            for &to in &neighbours[blank as usize] {
                if mask & (1u64 << to) == 0 {
                    // The blank slides through a cell the group does not hold: free.
                    let idx = (placement * free + pattern.blank_slot(mask, to)) as usize;
                    if dist[idx] > depth {
                        dist[idx] = depth;
                        current.push(Packed::new(&cells[..k], to));
                    }
                } else {
                    // A group tile slides into the blank: one move.
                    let tile = cells[..k]
                        .iter()
                        .position(|&c| c == to)
                        .expect("the mask says so");
                    let mut moved = cells;
                    moved[tile] = blank;
                    let moved_mask = mask & !(1u64 << to) | (1u64 << blank);
                    let idx = (pattern.index(&moved[..k]) * free
                        + pattern.blank_slot(moved_mask, to))
                        as usize;
                    if dist[idx] == UNSEEN {
                        dist[idx] = depth + 1;
                        next.push(Packed::new(&moved[..k], to));
                    }
                }
            }
        }
        progress.level_finished(depth as u32, i as u64);
        current = next;
        depth += 1;
    }
    Ok(dist
        .chunks(free as usize)
        .map(|blanks| *blanks.iter().min().expect("at least one free cell"))
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
        assert_eq!(db[pattern.index(pattern.goal_cells()) as usize], 0);
        assert!(db.iter().filter(|&&d| d == 0).count() == 1);
        assert!(build(&pattern, 10, &NoProgress).is_err());
    }
}
