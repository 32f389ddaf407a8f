//! Pattern databases for additive heuristics (Felner, Korf & Hanan 2004).
//!
//! For a group of tiles, the entry of a placement is the fewest moves **of the group's tiles**
//! needed to bring them home, whatever the other tiles do. It is found by a breadth-first search
//! backwards from the goal over (group placement, blank cell), in which the blank sliding through
//! a cell not held by the group costs 0 and moving a group tile costs 1, followed by the minimum
//! over blank cells. Because each group counts only its own tiles' moves, the entries of disjoint
//! groups add up to an admissible heuristic.
//!
//! The free moves are taken all at once: a search state is a placement with the connected
//! region of free cells the blank can reach (a bitmask flood fill), so each level of the BFS is
//! one cost and every (placement, region) is expanded once. What is stored per placement is the
//! set of free cells already reached (an 8-, 16-, 32- or 64-bit mask) and the entry itself, set
//! at the first visit, which in BFS order is the minimum over blank cells. For the 8-tile half of
//! 7-8 that is 1 GB, where a byte per (placement, blank cell) would be 4.2 GB.

use crate::Progress;
use godsearch_puzzles::tiles::{Pattern, MAX_PATTERN_TILES};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering};
use thiserror::Error;

/// Distance not yet known during the build.
const UNSEEN: u8 = u8::MAX;
/// Bits a cell takes in a packed queue entry (boards up to 64 cells).
const CELL_BITS: u32 = 6;
const CELL_MASK: u64 = (1 << CELL_BITS) - 1;
/// States a rayon task expands.
const STATES_PER_TASK: usize = 1 << 14;
/// Children gathered before they are checked (see [`expand_batch`]).
const CHILD_BATCH: usize = 512;

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

/// Bytes the build of `pattern` needs: the reached-cells mask and the entry per placement,
/// plus the queues of two levels (8 bytes a state, at most about a placement each).
pub fn build_bytes(pattern: &Pattern) -> u64 {
    let mask_bytes = match pattern.free_cells() {
        0..=8 => 1,
        9..=16 => 2,
        17..=32 => 4,
        _ => 8,
    };
    pattern.entries().saturating_mul(mask_bytes + 1 + 8)
}

/// A set of free-cell slots shared between threads.
///
/// `add` is a load and a store, not an atomic read-modify-write: a locked instruction is a
/// full fence on x86, which made every new placement wait for its cache miss in turn (most of
/// the build's time). Two threads adding to one placement in the same level may then lose one
/// addition; the region lost is only expanded again later (it was queued when added), and the
/// entry, set by whichever thread saw the set empty, is the same level either way. Levels are
/// separated by the rayon join, so nothing is lost across levels.
trait SlotMask: Send + Sync {
    fn empty() -> Self;
    /// Adds `slots` (see above); returns the set before.
    fn add(&self, slots: u64) -> u64;
    /// The set now.
    fn get(&self) -> u64;
}

macro_rules! slot_mask {
    ($atomic:ty, $int:ty) => {
        impl SlotMask for $atomic {
            fn empty() -> Self {
                <$atomic>::new(0)
            }
            #[inline]
            fn add(&self, slots: u64) -> u64 {
                let before = self.load(Ordering::Relaxed);
                self.store(before | slots as $int, Ordering::Relaxed);
                before as u64
            }
            #[inline]
            fn get(&self) -> u64 {
                self.load(Ordering::Relaxed) as u64
            }
        }
    };
}
slot_mask!(AtomicU8, u8);
slot_mask!(AtomicU16, u16);
slot_mask!(AtomicU32, u32);
slot_mask!(AtomicU64, u64);

/// A placement of the group with the blank, packed 6 bits a cell: `cells[0]` lowest, then the
/// blank; the top bits name the tile whose move made the state (plus one; 0 for the goal).
#[derive(Clone, Copy)]
struct Packed(u64);

/// Where the moved tile is kept: above the cells and blank of the largest group (60 bits).
const MOVED_SHIFT: u32 = CELL_BITS * (MAX_PATTERN_TILES as u32 + 1);

impl Packed {
    fn new(cells: &[u8], blank: u8) -> Self {
        Packed(
            cells
                .iter()
                .rev()
                .fold(blank as u64, |acc, &c| (acc << CELL_BITS) | c as u64),
        )
    }

    /// This placement with tile `tile` moved to `to` and the blank at `blank`, for `k` tiles.
    #[inline]
    fn with_move(self, k: usize, tile: usize, to: u8, blank: u8) -> Self {
        let tile_shift = CELL_BITS * tile as u32;
        let blank_shift = CELL_BITS * k as u32;
        let kept = self.0 & !(CELL_MASK << tile_shift) & !(CELL_MASK << blank_shift);
        let kept = kept & ((1u64 << MOVED_SHIFT) - 1);
        Packed(
            kept | (to as u64) << tile_shift
                | (blank as u64) << blank_shift
                | (tile as u64 + 1) << MOVED_SHIFT,
        )
    }

    /// The tile whose move made this state: moving it back into the blank's cell would give
    /// the state it came from, one level up, so it is not tried.
    #[inline]
    fn moved_tile(self) -> Option<usize> {
        (self.0 >> MOVED_SHIFT).checked_sub(1).map(|t| t as usize)
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
    Ok(match pattern.free_cells() {
        0..=8 => build_with::<AtomicU8>(pattern, progress),
        9..=16 => build_with::<AtomicU16>(pattern, progress),
        17..=32 => build_with::<AtomicU32>(pattern, progress),
        _ => build_with::<AtomicU64>(pattern, progress),
    })
}

/// The placement index of a state's children, found from the state's own index: moving tile
/// `j` from `a` to `b` changes its digit (its cell counted among the cells the tiles before it
/// leave free), and each later tile's digit by `[a < c] - [b < c]`, since `a` is freed and `b`
/// taken below or above it. No multiply chain, unlike ranking each child afresh, which was a
/// third of the build's time.
struct ChildIndex {
    index: i64,
    k: usize,
    cells: [u8; MAX_PATTERN_TILES],
    /// Cells of the tiles before each tile.
    before: [u64; MAX_PATTERN_TILES],
    digits: [i64; MAX_PATTERN_TILES],
    /// Weight of each tile's digit: the product of the radices after it.
    weights: [i64; MAX_PATTERN_TILES],
}

impl ChildIndex {
    fn weights(n: usize, k: usize) -> [i64; MAX_PATTERN_TILES] {
        let mut w = [0i64; MAX_PATTERN_TILES];
        let mut product = 1i64;
        for i in (0..k).rev() {
            w[i] = product;
            product *= (n - i) as i64;
        }
        w
    }

    #[inline]
    fn new(cells: &[u8; MAX_PATTERN_TILES], k: usize, weights: [i64; MAX_PATTERN_TILES]) -> Self {
        let mut before = [0u64; MAX_PATTERN_TILES];
        let mut digits = [0i64; MAX_PATTERN_TILES];
        let mut used = 0u64;
        let mut index = 0i64;
        for i in 0..k {
            before[i] = used;
            digits[i] = Self::digit(cells[i], used);
            index += digits[i] * weights[i];
            used |= 1u64 << cells[i];
        }
        ChildIndex {
            index,
            k,
            cells: *cells,
            before,
            digits,
            weights,
        }
    }

    /// A cell's digit: the cells below it not in `used`.
    #[inline]
    fn digit(cell: u8, used: u64) -> i64 {
        cell as i64 - (used & ((1u64 << cell) - 1)).count_ones() as i64
    }

    /// The index after tile `j` moves to cell `to`.
    #[inline]
    fn after(&self, j: usize, to: u8) -> usize {
        let from = self.cells[j];
        let mut index =
            self.index + (Self::digit(to, self.before[j]) - self.digits[j]) * self.weights[j];
        for i in j + 1..self.k {
            let c = self.cells[i];
            index += self.weights[i] * ((from < c) as i64 - (to < c) as i64);
        }
        index as usize
    }
}

/// A child state waiting in a batch: its placement index, the cells its tiles hold, where the
/// blank is, and its packed form for the next level.
struct Child {
    placement: usize,
    mask: u64,
    blank: u8,
    state: Packed,
}

/// Children are batched so that the test "was the blank's cell already reached in this
/// placement?" runs as plain loads back to back: the reached-masks are a table far larger than
/// the caches, and most children (five in six) were reached already, so overlapping those
/// misses, and only then flood-filling and marking the new ones, is what keeps the build fast.
fn expand_batch<M: SlotMask>(
    batch: &mut Vec<Child>,
    reached: &[M],
    pattern: &Pattern,
    mark: &impl Fn(usize, u64, u8, u8) -> bool,
    depth: u8,
    next: &mut Vec<Packed>,
) {
    batch.retain(|c| {
        reached[c.placement].get() & (1u64 << pattern.blank_slot(c.mask, c.blank)) == 0
    });
    for c in batch.iter() {
        if mark(c.placement, c.mask, c.blank, depth) {
            next.push(c.state);
        }
    }
    batch.clear();
}

fn build_with<M: SlotMask>(pattern: &Pattern, progress: &dyn Progress) -> Vec<u8> {
    let shape = pattern.shape();
    let grid = Grid::new(shape.width(), shape.height());
    let k = pattern.tiles().len();
    let entries = pattern.entries() as usize;
    let reached: Vec<M> = (0..entries).map(|_| M::empty()).collect();
    let values: Vec<AtomicU8> = (0..entries).map(|_| AtomicU8::new(UNSEEN)).collect();
    let mask_of = |cells: &[u8]| cells.iter().fold(0u64, |m, &c| m | 1u64 << c);
    // Marks the blank's region in placement `cells` as reached at `depth`; false if it was.
    let mark = |placement: usize, mask: u64, blank: u8, depth: u8| -> bool {
        let mut region = grid.fill(blank, grid.cells & !mask);
        let mut slots = 0u64;
        while region != 0 {
            let cell = region.trailing_zeros() as u8;
            region &= region - 1;
            slots |= 1u64 << pattern.blank_slot(mask, cell);
        }
        let before = reached[placement].add(slots);
        if before == 0 {
            values[placement].store(depth, Ordering::Relaxed);
        }
        // Regions of one placement never overlap: any common slot means this one was reached.
        before & slots == 0
    };
    let start = pattern.goal_cells();
    mark(
        pattern.index(start) as usize,
        mask_of(start),
        pattern.goal_blank(),
        0,
    );
    let mut current = vec![Packed::new(start, pattern.goal_blank())];
    let mut depth = 0u8;
    while !current.is_empty() {
        progress.level_started(depth as u32 + 1, current.len() as u64);
        let next: Vec<Packed> = current
            .par_chunks(STATES_PER_TASK)
            .flat_map_iter(|chunk| {
                let weights = ChildIndex::weights(shape.cells(), k);
                let mut next = Vec::new();
                let mut batch: Vec<Child> = Vec::with_capacity(CHILD_BATCH + MAX_PATTERN_TILES * 4);
                let mut cells = [0u8; MAX_PATTERN_TILES];
                for state in chunk {
                    let blank = state.unpack(k, &mut cells);
                    let mask = mask_of(&cells[..k]);
                    let region = grid.fill(blank, grid.cells & !mask);
                    let child_index = ChildIndex::new(&cells, k, weights);
                    // Each group tile next to the region may slide into any region cell beside it.
                    let came_back = state.moved_tile();
                    for (tile, &from) in cells[..k].iter().enumerate() {
                        let mut targets = grid.around(1u64 << from) & region;
                        if came_back == Some(tile) {
                            targets &= !(1u64 << blank);
                        }
                        while targets != 0 {
                            let to = targets.trailing_zeros() as u8;
                            targets &= targets - 1;
                            batch.push(Child {
                                placement: child_index.after(tile, to),
                                mask: mask & !(1u64 << from) | (1u64 << to),
                                blank: from,
                                state: state.with_move(k, tile, to, from),
                            });
                        }
                    }
                    if batch.len() >= CHILD_BATCH {
                        expand_batch(&mut batch, &reached, pattern, &mark, depth + 1, &mut next);
                    }
                }
                expand_batch(&mut batch, &reached, pattern, &mark, depth + 1, &mut next);
                progress.advanced(chunk.len() as u64);
                next
            })
            .collect();
        progress.level_finished(depth as u32 + 1, next.len() as u64);
        current = next;
        depth += 1;
    }
    values.into_iter().map(AtomicU8::into_inner).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NoProgress;
    use godsearch_puzzles::tiles::{Board, Shape};

    #[test]
    fn children_are_indexed_and_packed_as_from_scratch() {
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let pattern = Pattern::new(&goal, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
        let k = 8;
        let weights = ChildIndex::weights(16, k);
        let mut cells = [0u8; MAX_PATTERN_TILES];
        for i in (0..pattern.entries()).step_by(9973) {
            pattern.cells_of(i, &mut cells[..k]);
            let used = cells[..k].iter().fold(0u64, |m, &c| m | 1 << c);
            let blank = (0..16).find(|c| used >> c & 1 == 0).unwrap();
            let state = Packed::new(&cells[..k], blank);
            let children = ChildIndex::new(&cells, k, weights);
            assert_eq!(children.index as u64, i);
            for tile in 0..k {
                for to in (0..16u8).filter(|&c| used >> c & 1 == 0) {
                    let mut moved = cells;
                    moved[tile] = to;
                    assert_eq!(children.after(tile, to) as u64, pattern.index(&moved[..k]));
                    let packed = state.with_move(k, tile, to, cells[tile]);
                    let cells_and_blank = packed.0 & ((1u64 << MOVED_SHIFT) - 1);
                    assert_eq!(cells_and_blank, Packed::new(&moved[..k], cells[tile]).0);
                    assert_eq!(packed.moved_tile(), Some(tile));
                }
            }
        }
    }

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
