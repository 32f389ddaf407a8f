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
//! one cost and every (placement, region) is expanded once. The build keeps per placement the
//! cells reached (the regions expanded and the blank cell of every child claimed since: the
//! region around it is filled when it is expanded, not when it is claimed, which would fill it
//! once per claim) as a board-sized mask, which regions were expanded (see `Expanded`), and
//! the entry, set at the first visit, which in BFS order is the minimum over blank cells. With
//! the regions expanded as a second mask that is 5 bytes a placement on the 4x4 (2.6 GB for the
//! 8-tile half of 7-8, where a byte per (placement, blank cell) alone would be 4.2 GB) and 9 on
//! the 5x5; where that exceeds the memory budget, a byte of flags, one a region, takes 6 bytes
//! on the 5x5 (15 GB for a 7-tile group instead of 22), at some speed (7-8's build took 15-20%
//! longer so). Masks of the free cells alone would be smaller still, but ranking cells among
//! the free ones (and back) on every test and claim made the build 9% slower; the cells reached
//! are tested for every child, at random, so they stay a board-sized mask of the fewest bytes
//! (a 32-bit one on the 4x4 made 7-8's build 25% slower). Each level scans the placements in
//! index order (see `Scan`), which keeps most of its memory accesses in cache.

use crate::Progress;
use godsearch_puzzles::tiles::{Pattern, MAX_PATTERN_CELLS, MAX_PATTERN_TILES};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering};
use thiserror::Error;

/// Distance not yet known during the build.
const UNSEEN: u8 = u8::MAX;
/// Unreached children gathered before they are claimed (see [`Scan::flush`]).
const CHILD_BATCH: usize = 512;
/// Placements per word of a level's bitset of placements to scan.
const WORD_BITS: usize = u64::BITS as usize;
/// Leading tiles whose cells split a level into tasks for the threads: at least this many
/// (where the group has them)...
const TASK_TILES: usize = 2;
/// ...and more, up to this many, while a task keeps at least [`MIN_TASK_PLACEMENTS`]: smaller
/// tasks keep more of the sets they touch in cache (5% faster on an 8-tile group of 4x4).
const MAX_TASK_TILES: usize = 3;
/// The fewest placements a task is cut down to; smaller ones cost more to start than they save.
const MIN_TASK_PLACEMENTS: usize = 1 << 16;

/// The build could not run.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PatternDbError {
    /// The build's state (a few bytes a placement, see [`build_bytes`]) exceeds the memory
    /// budget.
    #[error("building a database of {tiles} tiles needs about {needed} bytes, more than the budget of {budget} bytes")]
    TooLarge {
        /// Tiles in the group.
        tiles: usize,
        /// Estimated bytes.
        needed: u64,
        /// The memory limit.
        budget: u64,
    },
    /// The build was cancelled (its progress sink said so); nothing of it is kept.
    #[error("the pattern database build was cancelled")]
    Cancelled,
}

/// Bytes the build of `pattern` needs at its peak in the faster layout: per placement two sets
/// of cells (reached and expanded) and the entry, and two bits marking the placements to scan.
/// (At the end, the entries become the table where they are.)
pub fn build_bytes(pattern: &Pattern) -> u64 {
    layout_bytes(pattern, 2 * set_bytes(pattern))
}

/// Bytes the build of `pattern` needs at its peak in the compact layout, which keeps a byte of
/// regions expanded instead of a second set of cells: taken where [`build_bytes`] exceeds the
/// memory budget.
pub fn compact_build_bytes(pattern: &Pattern) -> u64 {
    layout_bytes(pattern, set_bytes(pattern) + 1)
}

/// Bytes of one set of cells of a placement: the fewest that hold the board.
fn set_bytes(pattern: &Pattern) -> u64 {
    match pattern.shape().cells() {
        0..=8 => 1,
        9..=16 => 2,
        17..=32 => 4,
        _ => 8,
    }
}

/// The build's peak with `per_placement` bytes of sets, the entry and the two bits.
fn layout_bytes(pattern: &Pattern, per_placement: u64) -> u64 {
    let entries = pattern.entries();
    entries
        .saturating_mul(per_placement + 1)
        .saturating_add(entries / 4)
}

/// A set of cells of a placement (bit `c`: cell `c`) shared between threads. Within one level,
/// a set is either added to (atomically, so no thread loses another's addition) or read and
/// replaced by the one thread scanning its placement (see [`Scan::claim`]); the levels are
/// separated by the rayon join.
trait CellMask: Send + Sync {
    fn empty() -> Self;
    /// Adds `cells`.
    fn add(&self, cells: u64);
    /// The set now.
    fn get(&self) -> u64;
    /// Replaces the set (only where no other thread writes it in this level).
    fn put(&self, cells: u64);
}

macro_rules! cell_mask {
    ($atomic:ty, $int:ty) => {
        impl CellMask for $atomic {
            fn empty() -> Self {
                <$atomic>::new(0)
            }
            #[inline]
            fn add(&self, cells: u64) {
                self.fetch_or(cells as $int, Ordering::Relaxed);
            }
            #[inline]
            fn get(&self) -> u64 {
                self.load(Ordering::Relaxed) as u64
            }
            #[inline]
            fn put(&self, cells: u64) {
                self.store(cells as $int, Ordering::Relaxed)
            }
        }
    };
}
cell_mask!(AtomicU8, u8);
cell_mask!(AtomicU16, u16);
cell_mask!(AtomicU32, u32);
cell_mask!(AtomicU64, u64);

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

    /// The connected regions of `free`, in the order of their lowest cells.
    #[inline]
    fn regions(&self, free: u64) -> impl Iterator<Item = u64> + '_ {
        let mut rest = free;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let region = self.fill(rest.trailing_zeros() as u8, free);
                rest &= !region;
                region
            })
        })
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

/// Which regions of a placement were expanded, shared between threads as the sets of cells
/// reached are (see [`CellMask`]): only the thread scanning a placement reads or writes it.
trait Expanded: Send + Sync {
    /// No region expanded.
    fn none() -> Self;

    /// Expands (through `expand`) each region of `free` that holds a `reached` cell and is not
    /// marked here as expanded; marks them, and returns the cells of every region expanded so
    /// far (which are all reached).
    fn scan(&self, grid: &Grid, reached: u64, free: u64, expand: impl FnMut(u64)) -> u64;
}

/// The faster layout: the cells of the regions expanded, a set like the cells reached.
impl<M: CellMask> Expanded for M {
    fn none() -> Self {
        M::empty()
    }

    #[inline]
    fn scan(&self, grid: &Grid, reached: u64, free: u64, mut expand: impl FnMut(u64)) -> u64 {
        let mut regions = self.get();
        let mut todo = reached & !regions;
        while todo != 0 {
            let region = grid.fill(todo.trailing_zeros() as u8, free);
            todo &= !region;
            regions |= region;
            expand(region);
        }
        self.put(regions);
        regions
    }
}

/// Regions of a placement with a bit of their own in [`RegionFlags`]: the first eight, in the
/// order of their lowest cells. A region past them is expanded again whenever its placement is
/// scanned: harmless, since its children were reached when it was first expanded, only slower.
/// The 5x5's 7-tile groups cut the board into 6 regions at most.
const FLAGGED_REGIONS: usize = u8::BITS as usize;

/// The compact layout: a bit a region, the regions found again from the placement when it is
/// scanned, which costs the fills of the regions not reached as well.
struct RegionFlags(AtomicU8);

impl Expanded for RegionFlags {
    fn none() -> Self {
        RegionFlags(AtomicU8::new(0))
    }

    #[inline]
    fn scan(&self, grid: &Grid, reached: u64, free: u64, mut expand: impl FnMut(u64)) -> u64 {
        let flags = self.0.load(Ordering::Relaxed);
        let first = grid.fill(free.trailing_zeros() as u8, free);
        if first == free {
            // One region, the common case: expanded when first reached, never scanned again.
            if flags & 1 == 0 {
                expand(free);
            }
            self.0.store(u8::MAX, Ordering::Relaxed);
            return free;
        }
        let (mut cells, mut after) = (0, 0u8);
        // The other regions are the regions of what the first leaves, in the same order.
        let regions = std::iter::once(first).chain(grid.regions(free & !first));
        for (i, region) in regions.enumerate() {
            let bit = if i < FLAGGED_REGIONS { 1 << i } else { 0 };
            if flags & bit == 0 {
                if region & reached == 0 {
                    continue;
                }
                expand(region);
            }
            cells |= region;
            after |= bit;
        }
        self.0.store(after, Ordering::Relaxed);
        cells
    }
}

/// Builds the pattern database of `pattern`: one byte per placement, exact (the fewest moves of
/// the group's tiles from that placement to the goal, over all positions of the other tiles).
pub fn build(
    pattern: &Pattern,
    memory_bytes: u64,
    progress: &dyn Progress,
) -> Result<Vec<u8>, PatternDbError> {
    let compact = build_bytes(pattern) > memory_bytes;
    let needed = compact_build_bytes(pattern);
    if needed > memory_bytes {
        return Err(PatternDbError::TooLarge {
            tiles: pattern.tiles().len(),
            needed,
            budget: memory_bytes,
        });
    }
    match pattern.shape().cells() {
        0..=8 => build_with::<AtomicU8>(pattern, compact, progress),
        9..=16 => build_with::<AtomicU16>(pattern, compact, progress),
        17..=32 => build_with::<AtomicU32>(pattern, compact, progress),
        _ => build_with::<AtomicU64>(pattern, compact, progress),
    }
    .ok_or(PatternDbError::Cancelled)
}

/// The build with sets of cells in `M`, in the compact layout or the faster one.
fn build_with<M: CellMask>(
    pattern: &Pattern,
    compact: bool,
    progress: &dyn Progress,
) -> Option<Vec<u8>> {
    match compact {
        true => Scan::<M, RegionFlags>::new(pattern).run(MIN_TASK_PLACEMENTS, progress),
        false => Scan::<M, M>::new(pattern).run(MIN_TASK_PLACEMENTS, progress),
    }
}

/// The placement index of a state's children, found from the state's own index. Moving tile
/// `j` from `a` to `b` changes only the digits that count cells between `a` and `b`: tile `j`'s
/// own digit by `b - a` less the earlier tiles standing between them, and each later tile
/// standing between them by one. A sideways move has no cell between, so it shifts the index by
/// the weight of `j` alone; a vertical one has at most `width - 1` cells to look at. No multiply
/// chain and no loop over the tiles, unlike ranking each child afresh. One is kept per task,
/// told where the tiles stand by [`place`](Self::place) and [`at`](Self::at).
struct ChildIndex {
    index: i64,
    /// The group's cells.
    mask: u64,
    /// The tile standing on each cell of `mask`.
    tile_at: [u8; MAX_PATTERN_CELLS],
    /// The weight of the tile standing on each cell of `mask`.
    weight_at: [i64; MAX_PATTERN_CELLS],
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

    fn new(weights: [i64; MAX_PATTERN_TILES]) -> Self {
        ChildIndex {
            index: 0,
            mask: 0,
            tile_at: [0; MAX_PATTERN_CELLS],
            weight_at: [0; MAX_PATTERN_CELLS],
            weights,
        }
    }

    /// Puts the tiles from `first` on, one after another, on `cells`; the tiles before `first`
    /// stay where they were put. A block's leading tiles are put once for the whole block.
    #[inline]
    fn place(&mut self, first: usize, cells: &[u8]) {
        for (tile, &cell) in (first..).zip(cells) {
            self.tile_at[cell as usize] = tile as u8;
            self.weight_at[cell as usize] = self.weights[tile];
        }
    }

    /// Now for the children of placement number `index`, whose tiles stand on the cells `mask`
    /// where [`place`](Self::place) put them.
    #[inline]
    fn at(&mut self, index: usize, mask: u64) {
        self.index = index as i64;
        self.mask = mask;
    }

    /// The index after the tile on cell `from` moves one cell sideways (`step` 1 to the right,
    /// -1 to the left): no cell lies between, so only its own digit changes, by `step`.
    #[inline]
    fn sideways(&self, from: u8, step: i64) -> usize {
        (self.index + step * self.weight_at[from as usize]) as usize
    }

    /// The index after the tile on cell `from` moves to the free cell `to`.
    #[inline]
    fn after(&self, from: u8, to: u8) -> usize {
        let j = self.tile_at[from as usize];
        let (low, high, sign) = if from < to {
            (from, to, 1)
        } else {
            (to, from, -1)
        };
        let mut between = self.mask & ((1u64 << high) - 1) & !((2u64 << low) - 1);
        let mut digit = high as i64 - low as i64;
        let mut later = 0i64;
        while between != 0 {
            let tile = self.tile_at[between.trailing_zeros() as usize];
            between &= between - 1;
            if tile < j {
                digit -= 1;
            } else {
                later += self.weights[tile as usize];
            }
        }
        (self.index + sign * (digit * self.weight_at[from as usize] + later)) as usize
    }
}

/// A child waiting in a batch to be claimed: its placement index, the blank's cell and
/// whether its placement's bit was found unset (see [`Scan::flush`]).
#[derive(Clone, Copy, Default)]
struct Child {
    placement: usize,
    blank: u8,
    unmarked: bool,
}

/// The children waiting to be claimed. Every child tested is written to the slot after the
/// last one kept, and kept by counting it, so the test's outcome (unreached for about one
/// child in five) needs no branch, and a mispredicted one does not hold up the loads of the
/// children after it.
struct Batch {
    children: Box<[Child]>,
    len: usize,
}

impl Batch {
    /// Room for a full batch and the children of one more placement.
    fn new() -> Self {
        Batch {
            children: vec![Child::default(); CHILD_BATCH + 4 * MAX_PATTERN_CELLS].into(),
            len: 0,
        }
    }

    #[inline]
    fn push_if(&mut self, keep: bool, child: Child) {
        self.children[self.len] = child;
        self.len += keep as usize;
    }

    fn is_full(&self) -> bool {
        self.len >= CHILD_BATCH
    }

    fn drain(&mut self) -> &mut [Child] {
        let len = std::mem::take(&mut self.len);
        &mut self.children[..len]
    }
}

/// What one task of a level carries: the children waiting to be claimed, how many (placement,
/// region) states it expanded, how many children it claimed (an upper bound on the states it
/// added to the next level: children may land in one region by different cells), and the
/// index arithmetic of the placement being expanded.
struct Work {
    batch: Batch,
    expanded: u64,
    claimed: u64,
    children: ChildIndex,
}

/// The level-by-level build. Each level scans the placements in index order and expands the
/// regions reached but not yet expanded; the children go straight into the sets of their
/// placement, so the levels need no queue. Scanning in order is what makes it fast: the
/// children of consecutive placements have nearby indices (moving a late tile changes only the
/// low digits; moving an early one shifts the index by a near-constant), so the reached sets
/// they test and mark are mostly in cache, where the children of a breadth-first queue each
/// went to a random cache line of a table far larger than the caches.
///
/// Placements are walked a block at a time: a block shares the cells of all tiles but the last
/// two (a single block for groups of one or two tiles), so its placements' cells come from one
/// list of free cells. The placements with regions to expand are found through a bitset of the
/// level, so a level costs what its own states cost, not a visit to every placement.
struct Scan<'p, M, E> {
    pattern: &'p Pattern,
    grid: Grid,
    n: usize,
    k: usize,
    /// Tiles placed within a block (1 or 2).
    inner: usize,
    /// Placements in a block.
    block: usize,
    /// For each offset in a block, where its inner tiles' cells are in the block's free cells.
    offsets: Vec<[u8; 2]>,
    weights: [i64; MAX_PATTERN_TILES],
    /// Per placement: the free cells the blank has reached: the regions expanded and the blank
    /// cell of each child claimed since.
    reached: Vec<M>,
    /// Per placement: which of its regions were expanded. The regions to expand are those of
    /// the reached cells not expanded yet.
    expanded: Vec<E>,
    /// Per placement: the entry, set when the placement is first expanded, at the level it was
    /// first reached.
    values: Vec<AtomicU8>,
    /// The placements with regions to expand in two levels, by level parity.
    bits: [Vec<AtomicU64>; 2],
}

/// The `rank`-th cell of `free`.
#[inline]
fn nth_cell(mut free: u64, rank: usize) -> u8 {
    for _ in 0..rank {
        free &= free - 1;
    }
    free.trailing_zeros() as u8
}

impl<'p, M: CellMask, E: Expanded> Scan<'p, M, E> {
    fn new(pattern: &'p Pattern) -> Self {
        let shape = pattern.shape();
        let (n, k) = (shape.cells(), pattern.tiles().len());
        let inner = k.min(2);
        let block = (k - inner..k).map(|i| n - i).product::<usize>();
        let last_radix = n + 1 - k;
        let offsets = (0..block)
            .map(|offset| match inner {
                1 => [offset as u8, 0],
                _ => {
                    let (a, b) = (offset / last_radix, offset % last_radix);
                    [a as u8, (b + (b >= a) as usize) as u8]
                }
            })
            .collect();
        let count = pattern.entries() as usize;
        let words = count.div_ceil(WORD_BITS);
        let bits = [(); 2].map(|_| (0..words).map(|_| AtomicU64::new(0)).collect());
        Scan {
            pattern,
            grid: Grid::new(shape.width(), shape.height()),
            n,
            k,
            inner,
            block,
            offsets,
            weights: ChildIndex::weights(n, k),
            reached: (0..count).into_par_iter().map(|_| M::empty()).collect(),
            expanded: (0..count).into_par_iter().map(|_| E::none()).collect(),
            values: (0..count)
                .into_par_iter()
                .map(|_| AtomicU8::new(UNSEEN))
                .collect(),
            bits,
        }
    }

    /// The build, its levels split into tasks of at least `min_task_placements` (see
    /// [`MAX_TASK_TILES`]); `None` when `progress` asks it to stop, which every task looks at
    /// before it starts, so a cancel is heard within a task (milliseconds).
    fn run(self, min_task_placements: usize, progress: &dyn Progress) -> Option<Vec<u8>> {
        let goal = self.pattern.goal_cells();
        let start = Child {
            placement: self.pattern.index(goal) as usize,
            blank: self.pattern.goal_blank(),
            unmarked: true,
        };
        self.claim(&start, 0);
        let tasks_of = |outer: usize| (0..outer).map(|i| self.n - i).product::<usize>();
        let mut outer = TASK_TILES.min(self.k - self.inner);
        while outer < MAX_TASK_TILES.min(self.k - self.inner)
            && self.values.len() / tasks_of(outer + 1) >= min_task_placements
        {
            outer += 1;
        }
        let tasks = tasks_of(outer);
        let per_task = self.values.len() / tasks;
        let mut depth = 0u8;
        loop {
            progress.level_started(depth as u32, self.values.len() as u64);
            let (expanded, claimed) = (0..tasks)
                .into_par_iter()
                .map(|task| {
                    if progress.cancelled() {
                        return (0, 0);
                    }
                    let work = self.scan_task(task, outer, depth);
                    progress.advanced(per_task as u64);
                    (work.expanded, work.claimed)
                })
                .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
            if progress.cancelled() {
                return None;
            }
            self.bits[depth as usize % 2]
                .par_iter()
                .for_each(|word| word.store(0, Ordering::Relaxed));
            progress.level_finished(depth as u32, expanded);
            if claimed == 0 {
                break;
            }
            depth += 1;
            debug_assert!(depth < UNSEEN);
        }
        // The sets go before the entries are unwrapped.
        let Scan {
            values,
            reached,
            expanded,
            bits,
            ..
        } = self;
        drop((reached, expanded, bits));
        // A plain iterator collects in place, into the entries' own memory, where a parallel
        // one would fault in a second table's worth of fresh pages.
        Some(values.into_iter().map(AtomicU8::into_inner).collect())
    }

    /// Scans the placements whose first `outer` tiles stand as task number `task` says.
    fn scan_task(&self, task: usize, outer: usize, depth: u8) -> Work {
        let mut digits = [0usize; MAX_TASK_TILES];
        let mut rest = task;
        for i in (0..outer).rev() {
            digits[i] = rest % (self.n - i);
            rest /= self.n - i;
        }
        let mut cells = [0u8; MAX_PATTERN_TILES];
        let (mut used, mut base) = (0u64, 0usize);
        for i in 0..outer {
            cells[i] = nth_cell(self.grid.cells & !used, digits[i]);
            used |= 1u64 << cells[i];
            base += digits[i] * self.weights[i] as usize;
        }
        let mut work = Work {
            batch: Batch::new(),
            expanded: 0,
            claimed: 0,
            children: ChildIndex::new(self.weights),
        };
        self.walk(outer, used, &mut cells, base, depth, &mut work);
        self.flush(&mut work, depth);
        work
    }

    /// Places tile `i` and the ones after it in every free cell, in index order, down to blocks.
    fn walk(
        &self,
        i: usize,
        used: u64,
        cells: &mut [u8; MAX_PATTERN_TILES],
        base: usize,
        depth: u8,
        work: &mut Work,
    ) {
        if i == self.k - self.inner {
            self.scan_block(used, cells, base, depth, work);
            return;
        }
        let mut free = self.grid.cells & !used;
        let mut next_base = base;
        while free != 0 {
            let cell = free.trailing_zeros() as u8;
            free &= free - 1;
            cells[i] = cell;
            self.walk(i + 1, used | 1u64 << cell, cells, next_base, depth, work);
            next_base += self.weights[i] as usize;
        }
    }

    /// Expands this level's regions in the block at `base`, whose leading tiles hold `used`.
    fn scan_block(
        &self,
        used: u64,
        cells: &mut [u8; MAX_PATTERN_TILES],
        base: usize,
        depth: u8,
        work: &mut Work,
    ) {
        let field = depth as usize % 2;
        let end = base + self.block;
        let words = &self.bits[field][base / WORD_BITS..end.div_ceil(WORD_BITS)];
        if words.iter().all(|w| w.load(Ordering::Relaxed) == 0) {
            return;
        }
        let mut free_cells = [0u8; MAX_PATTERN_CELLS];
        let mut free = self.grid.cells & !used;
        for slot in free_cells.iter_mut() {
            if free == 0 {
                break;
            }
            *slot = free.trailing_zeros() as u8;
            free &= free - 1;
        }
        let first_inner = self.k - self.inner;
        work.children.place(0, &cells[..first_inner]);
        let first_word = base / WORD_BITS * WORD_BITS;
        for (i, word) in words.iter().enumerate() {
            let word_start = first_word + i * WORD_BITS;
            let mut set = word.load(Ordering::Relaxed);
            while set != 0 {
                let p = word_start + set.trailing_zeros() as usize;
                set &= set - 1;
                if p < base || p >= end {
                    continue;
                }
                if self.values[p].load(Ordering::Relaxed) == UNSEEN {
                    // First expanded at the level it was first reached.
                    self.values[p].store(depth, Ordering::Relaxed);
                }
                let mut mask = used;
                for (t, &at) in self.offsets[p - base][..self.inner].iter().enumerate() {
                    cells[first_inner + t] = free_cells[at as usize];
                    mask |= 1u64 << free_cells[at as usize];
                }
                work.children
                    .place(first_inner, &cells[first_inner..self.k]);
                work.children.at(p, mask);
                // Nothing claims into this placement while this level runs (see `claim`).
                let free = self.grid.cells & !mask;
                let regions =
                    self.expanded[p].scan(&self.grid, self.reached[p].get(), free, |region| {
                        self.expand(mask, region, work)
                    });
                self.reached[p].put(regions);
                if work.batch.is_full() {
                    self.flush(work, depth);
                }
            }
        }
    }

    /// Queues the children of `region`, a region of free cells in the placement whose tiles
    /// hold `mask` (and which `work.children` is at): each group tile next to the region may
    /// slide into any region cell beside it.
    fn expand(&self, mask: u64, region: u64, work: &mut Work) {
        let children = &work.children;
        let grid = &self.grid;
        let width = grid.width;
        let mut push = |placement: usize, blank: u8| {
            let unreached = self.reached[placement].get() & (1u64 << blank) == 0;
            work.batch.push_if(
                unreached,
                Child {
                    placement,
                    blank,
                    unmarked: true,
                },
            );
        };
        work.expanded += 1;
        // The group tiles with a region cell to their right, left, below and above.
        for (mut tiles, step) in [
            (((region & grid.not_first_col) >> 1) & mask, 1),
            (((region & grid.not_last_col) << 1) & mask, -1),
        ] {
            while tiles != 0 {
                let from = tiles.trailing_zeros() as u8;
                tiles &= tiles - 1;
                push(children.sideways(from, step), from);
            }
        }
        for (mut tiles, step) in [
            ((region >> width) & mask, width as i64),
            ((region << width) & mask, -(width as i64)),
        ] {
            while tiles != 0 {
                let from = tiles.trailing_zeros() as u8;
                tiles &= tiles - 1;
                let to = (from as i64 + step) as u8;
                push(children.after(from, to), from);
            }
        }
    }

    /// Claims the children in the batch. They were found unreached by a plain load as they
    /// were made; the claims, atomic read-modify-writes, are held back until here so that their
    /// locked instructions do not stall the loads of the children tested meanwhile. Their
    /// placements' bits are likewise read in a pass of plain loads first, as a locked
    /// instruction holds up every load after it.
    fn flush(&self, work: &mut Work, depth: u8) {
        let batch = work.batch.drain();
        work.claimed += batch.len() as u64;
        let bits = &self.bits[(depth as usize + 1) % 2];
        for child in batch.iter_mut() {
            let bit = 1u64 << (child.placement % WORD_BITS);
            child.unmarked = bits[child.placement / WORD_BITS].load(Ordering::Relaxed) & bit == 0;
        }
        for child in batch.iter() {
            self.claim(child, depth + 1);
        }
    }

    /// Marks the blank's cell in the child's placement as reached at `depth` and the placement
    /// as one to scan at that level; the scan fills the region around the cell.
    ///
    /// The test made with the child, before this, found the blank's cell unreached. Another
    /// thread may claim a cell of the same region meanwhile (in this level, so at the same
    /// depth): the scan then fills that region once, so the claim needs no atomic test of its
    /// own, only an atomic OR. The entry is written later, in order, by the scan that first
    /// expands the placement.
    ///
    /// The placements claimed into in a level are never the ones scanned in it: every move of a
    /// group tile changes the parity of the sum of the group's rows and columns, so all the
    /// states of one placement lie at levels of one parity. A placement being scanned is
    /// therefore read and written by its scanning thread alone, which is what lets the regions
    /// to expand be "reached but not yet expanded" with no separate frontier.
    fn claim(&self, child: &Child, depth: u8) {
        self.reached[child.placement].add(1u64 << child.blank);
        if child.unmarked {
            let word = &self.bits[depth as usize % 2][child.placement / WORD_BITS];
            word.fetch_or(1u64 << (child.placement % WORD_BITS), Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NoProgress;
    use godsearch_puzzles::tiles::{Board, Shape};

    #[test]
    fn children_are_indexed_as_from_scratch() {
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let pattern = Pattern::new(&goal, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
        let k = 8;
        let weights = ChildIndex::weights(16, k);
        let mut cells = [0u8; MAX_PATTERN_TILES];
        for i in (0..pattern.entries()).step_by(9973) {
            pattern.cells_of(i, &mut cells[..k]);
            let used = cells[..k].iter().fold(0u64, |m, &c| m | 1 << c);
            let mut children = ChildIndex::new(weights);
            children.place(0, &cells[..k]);
            children.at(i as usize, used);
            for tile in 0..k {
                for to in (0..16u8).filter(|&c| used >> c & 1 == 0) {
                    let mut moved = cells;
                    moved[tile] = to;
                    let after = children.after(cells[tile], to) as u64;
                    assert_eq!(after, pattern.index(&moved[..k]));
                }
            }
        }
    }

    /// The definition, computed the plain way: a 0/1 BFS over (placement, blank cell) with a
    /// double-ended queue, then the minimum over blank cells.
    fn reference(pattern: &Pattern) -> Vec<u8> {
        let shape = pattern.shape();
        let (n, k, w) = (shape.cells(), pattern.tiles().len(), shape.width());
        let mut dist = vec![u8::MAX; pattern.entries() as usize * n];
        let start =
            pattern.index(pattern.goal_cells()) as usize * n + pattern.goal_blank() as usize;
        dist[start] = 0;
        let mut queue = std::collections::VecDeque::from([start]);
        let mut cells = vec![0u8; k];
        while let Some(state) = queue.pop_front() {
            let (placement, blank) = (state / n, state % n);
            pattern.cells_of(placement as u64, &mut cells);
            let (row, col) = (blank / w, blank % w);
            let neighbours = [
                (row > 0).then(|| blank - w),
                (row + 1 < n / w).then(|| blank + w),
                (col > 0).then(|| blank - 1),
                (col + 1 < w).then(|| blank + 1),
            ];
            for cell in neighbours.into_iter().flatten() {
                let mut moved = cells.clone();
                let (next, cost) = match cells.iter().position(|&c| c as usize == cell) {
                    Some(tile) => {
                        moved[tile] = blank as u8;
                        (pattern.index(&moved) as usize * n + cell, 1)
                    }
                    None => (placement * n + cell, 0),
                };
                let d = dist[state] + cost;
                if d < dist[next] {
                    dist[next] = d;
                    if cost == 0 {
                        queue.push_front(next);
                    } else {
                        queue.push_back(next);
                    }
                }
            }
        }
        dist.chunks(n).map(|c| *c.iter().min().unwrap()).collect()
    }

    #[test]
    fn the_build_equals_a_plain_zero_one_bfs_for_every_mask_width() {
        // Cells 6 and 8 (u8 sets), 9 and 16 (u16), 25 (u32), 36 and 64 (u64); groups of one to
        // four tiles, so blocks of one and two tiles, with and without leading tiles.
        let cases: [(usize, usize, &[u16]); 8] = [
            (2, 3, &[5, 2]),
            (4, 2, &[1]),
            (3, 3, &[8, 1, 6, 3]),
            (4, 4, &[5, 10]),
            (4, 4, &[15, 1, 12]),
            (5, 5, &[1, 2]),
            (6, 6, &[7]),
            (8, 8, &[1, 9]),
        ];
        for (width, height, tiles) in cases {
            let goal = Board::goal(Shape::new(width, height).unwrap());
            let pattern = Pattern::new(&goal, tiles).unwrap();
            let db = build(&pattern, 1 << 30, &NoProgress).unwrap();
            assert_eq!(db, reference(&pattern), "{width}x{height} {tiles:?}");
        }
    }

    #[test]
    fn levels_split_by_three_leading_tiles_build_the_same_table() {
        let goal = Board::goal(Shape::new(3, 3).unwrap());
        let pattern = Pattern::new(&goal, &[1, 2, 3, 4, 5]).unwrap();
        // Tasks of a single placement force the split by three tiles on this small group.
        let db = Scan::<AtomicU16, AtomicU16>::new(&pattern)
            .run(1, &NoProgress)
            .expect("not cancelled");
        assert_eq!(db, reference(&pattern));
    }

    #[test]
    fn the_compact_layout_builds_the_same_tables() {
        let cases: [(usize, usize, &[u16]); 4] = [
            (3, 3, &[8, 1, 6, 3]),
            (4, 4, &[1, 2, 4, 5, 8]),
            (5, 5, &[1, 2]),
            (8, 8, &[1, 9]),
        ];
        for (width, height, tiles) in cases {
            let goal = Board::goal(Shape::new(width, height).unwrap());
            let pattern = Pattern::new(&goal, tiles).unwrap();
            assert!(compact_build_bytes(&pattern) < build_bytes(&pattern));
            // A budget the faster layout exceeds.
            let db = build(&pattern, compact_build_bytes(&pattern), &NoProgress).unwrap();
            assert_eq!(db, reference(&pattern), "{width}x{height} {tiles:?}");
        }
    }

    #[test]
    fn regions_are_expanded_once_and_those_without_a_bit_again() {
        let grid = Grid::new(8, 8);
        let scan = |flags: &RegionFlags, reached, free| {
            let mut regions = Vec::new();
            let cells = flags.scan(&grid, reached, free, |r| regions.push(r));
            (regions, cells)
        };
        // One region: expanded once.
        let flags = RegionFlags::none();
        let free = grid.cells & !1;
        assert_eq!(scan(&flags, 1 << 9, free), (vec![free], free));
        assert_eq!(scan(&flags, free, free), (vec![], free));
        // Cell 0 cut off by cells 1 and 8: only the reached region is expanded, then only the
        // other one.
        let flags = RegionFlags::none();
        let free = grid.cells & !(1 << 1 | 1 << 8);
        assert_eq!(scan(&flags, 1 << 9, free), (vec![free & !1], free & !1));
        assert_eq!(scan(&flags, free, free), (vec![1], free));
        // A checkerboard cuts 32 single-cell regions: all are expanded at first, and the 24
        // past the eight with a bit again at every scan.
        let flags = RegionFlags::none();
        let free = (0..64)
            .filter(|c| (c / 8 + c % 8) % 2 == 0)
            .fold(0, |m, c| m | 1u64 << c);
        assert_eq!(scan(&flags, free, free).0.len(), 32);
        assert_eq!(scan(&flags, free, free).0.len(), 32 - FLAGGED_REGIONS);
    }

    /// Asks the build to stop once it has finished `levels` levels.
    struct StopAfter {
        levels: u32,
        finished: std::sync::atomic::AtomicU32,
    }

    impl Progress for StopAfter {
        fn level_finished(&self, _: u32, _: u64) {
            self.finished.fetch_add(1, Ordering::Relaxed);
        }
        fn cancelled(&self) -> bool {
            self.finished.load(Ordering::Relaxed) >= self.levels
        }
    }

    #[test]
    fn a_cancelled_build_stops_with_nothing() {
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let pattern = Pattern::new(&goal, &[1, 2, 3, 4, 5]).unwrap();
        let stop = StopAfter {
            levels: 3,
            finished: 0.into(),
        };
        assert_eq!(
            build(&pattern, 1 << 30, &stop),
            Err(PatternDbError::Cancelled)
        );
        assert_eq!(
            stop.finished.load(Ordering::Relaxed),
            3,
            "no level after the cancel"
        );
        let never = StopAfter {
            levels: u32::MAX,
            finished: 0.into(),
        };
        assert!(build(&pattern, 1 << 30, &never).is_ok());
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
