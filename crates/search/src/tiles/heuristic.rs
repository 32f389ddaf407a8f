//! Admissible heuristics for sliding tiles, updated incrementally.
//!
//! All three are **admissible** (never above the true distance), which the tests check on every
//! position of the 3x3 and 2x4 boards against exact BFS distances. Manhattan and linear conflict
//! are also **consistent** (they change by at most one per move); pattern databases are not
//! always, because an entry is the minimum over every cell of the blank, including cells the
//! blank cannot reach without moving a group tile (A* here reopens positions, so this is safe):
//!
//! - [`Manhattan`]: the sum over tiles of their row and column distances from home.
//! - [`LinearConflict`]: Manhattan plus, for each row (column), two moves for every tile that
//!   must leave it so that the tiles already in their home row (column) are in order: the row
//!   length minus its longest increasing run of home columns (Hansson, Mayer & Yung 1992).
//! - [`PatternHeuristic`]: additive disjoint pattern databases (Felner, Korf & Hanan 2004): the
//!   sum of each group's table entry, plus Manhattan for tiles in no group; with reflection
//!   through a mirror that keeps the blank's goal cell (the main diagonal for Korf's goals) the
//!   larger of the normal and the reflected sum. Where no mirror keeps that cell the reflected
//!   sum reads tables of its own, those of the partition's mirror image ([`ReflectedLookup`]).

use super::node::{Node, MAX_SEARCH_CELLS};
use super::SearchError;
use godsearch_puzzles::tiles::{Board, Partition, Pattern, MAX_PATTERN_TILES};
use godsearch_tables::{ResidentBytes, TableBytes};
use rayon::prelude::*;

/// A heuristic the engines can evaluate from scratch and update after one slide.
pub trait TileHeuristic: Sync {
    /// What the heuristic carries from a node to its children (small and `Copy`: the engines
    /// keep it on the stack). Its default is a placeholder the engines make without reading
    /// anything, to be written over before it is read.
    type Cache: Copy + Default + Send + Sync;

    /// A short name for reports (`manhattan`, `pdb 6-6-3 + reflection`).
    fn describe(&self) -> String;

    /// Bytes of the tables it reads (0 for the computed heuristics).
    fn table_bytes(&self) -> u64 {
        0
    }

    /// The estimate of `node` and the cache for updating it.
    fn evaluate(&self, node: &Node) -> (Self::Cache, u32);

    /// The estimate after `tile` slid from cell `from` to cell `to` (`node` already updated),
    /// given the parent's cache.
    fn update(
        &self,
        parent: &Self::Cache,
        node: &Node,
        tile: u8,
        from: u8,
        to: u8,
    ) -> (Self::Cache, u32);

    /// [`update`](Self::update) for a search that prunes every estimate above `bound`, the
    /// child's cache written into `child` (where the search keeps it, so it is not copied
    /// there after: a copy read right after the entries just written waits for them). Once
    /// the estimate is known to exceed `bound` it may stop early and return a smaller value
    /// that still exceeds `bound` and is still admissible (so a next IDA* bound taken from it
    /// stays a lower bound), leaving `child` as it was or not, never to be used.
    #[inline]
    #[allow(clippy::too_many_arguments)] // `update`'s, and where to write
    fn update_within(
        &self,
        parent: &Self::Cache,
        child: &mut Self::Cache,
        node: &Node,
        tile: u8,
        from: u8,
        to: u8,
        _bound: u32,
    ) -> u32 {
        let (cache, estimate) = self.update(parent, node, tile, from, to);
        *child = cache;
        estimate
    }
}

/// Manhattan distance: admissible and consistent.
#[derive(Debug, Clone)]
pub struct Manhattan {
    /// `dist[t * MAX + c]` = row + column distance from cell `c` to tile `t`'s home (0 for the
    /// blank and for tiles excluded with [`Manhattan::for_tiles`]).
    dist: Vec<u8>,
    tiles: usize,
}

impl Manhattan {
    /// Manhattan distance to `goal` over every tile; boards of at most [`MAX_SEARCH_CELLS`]
    /// cells (the search's node layout).
    pub fn new(goal: &Board) -> Result<Self, SearchError> {
        Self::for_tiles(goal, |t| t != 0)
    }

    /// Manhattan distance over the tiles for which `include` holds.
    pub fn for_tiles(goal: &Board, include: impl Fn(u16) -> bool) -> Result<Self, SearchError> {
        let shape = goal.shape();
        if shape.cells() > MAX_SEARCH_CELLS {
            return Err(SearchError::BoardTooLarge);
        }
        let mut dist = vec![0u8; MAX_SEARCH_CELLS * MAX_SEARCH_CELLS];
        for (home, &t) in goal.cells().iter().enumerate() {
            if !include(t) {
                continue;
            }
            let (hr, hc) = shape.row_col(home);
            for cell in 0..shape.cells() {
                let (r, c) = shape.row_col(cell);
                dist[t as usize * MAX_SEARCH_CELLS + cell] =
                    (hr.abs_diff(r) + hc.abs_diff(c)) as u8;
            }
        }
        Ok(Self {
            dist,
            tiles: shape.cells(),
        })
    }

    #[inline]
    fn of(&self, tile: u8, cell: u8) -> u32 {
        self.dist[tile as usize * MAX_SEARCH_CELLS + cell as usize] as u32
    }

    fn total(&self, node: &Node) -> u32 {
        (1..self.tiles).map(|t| self.of(t as u8, node.pos[t])).sum()
    }

    #[inline]
    fn delta(&self, h: u32, tile: u8, from: u8, to: u8) -> u32 {
        h + self.of(tile, to) - self.of(tile, from)
    }
}

impl TileHeuristic for Manhattan {
    type Cache = u32;

    fn describe(&self) -> String {
        "manhattan".into()
    }

    fn evaluate(&self, node: &Node) -> (u32, u32) {
        let h = self.total(node);
        (h, h)
    }

    #[inline]
    fn update(&self, parent: &u32, _node: &Node, tile: u8, from: u8, to: u8) -> (u32, u32) {
        let h = self.delta(*parent, tile, from, to);
        (h, h)
    }
}

/// Most rows or columns [`LinearConflict`] handles.
const MAX_LINES: usize = 16;

/// Manhattan distance plus linear conflicts: admissible and consistent.
#[derive(Debug, Clone)]
pub struct LinearConflict {
    manhattan: Manhattan,
    width: usize,
    height: usize,
    home_row: [u8; MAX_SEARCH_CELLS],
    home_col: [u8; MAX_SEARCH_CELLS],
}

/// Manhattan distance and the tiles each row and column must give up.
#[derive(Debug, Clone, Copy, Default)]
pub struct ConflictCache {
    manhattan: u32,
    rows: [u8; MAX_LINES],
    cols: [u8; MAX_LINES],
    conflicts: u32,
}

impl LinearConflict {
    /// Linear conflict for `goal`; boards of at most 16 rows and 16 columns.
    pub fn new(goal: &Board) -> Result<Self, SearchError> {
        let shape = goal.shape();
        let manhattan = Manhattan::new(goal)?;
        if shape.width() > MAX_LINES || shape.height() > MAX_LINES {
            return Err(SearchError::TooManyLines(MAX_LINES));
        }
        let mut home_row = [0u8; MAX_SEARCH_CELLS];
        let mut home_col = [0u8; MAX_SEARCH_CELLS];
        for (cell, &t) in goal.cells().iter().enumerate() {
            let (r, c) = shape.row_col(cell);
            home_row[t as usize] = r as u8;
            home_col[t as usize] = c as u8;
        }
        Ok(Self {
            manhattan,
            width: shape.width(),
            height: shape.height(),
            home_row,
            home_col,
        })
    }

    /// Tiles that must leave line `index` (a row when `row`, else a column): the number of its
    /// tiles at home in that line minus the longest run of them already in order.
    fn line(&self, node: &Node, row: bool, index: usize) -> u8 {
        let (start, stride, len) = if row {
            (index * self.width, 1, self.width)
        } else {
            (index, self.width, self.height)
        };
        let mut keys = [0u8; MAX_LINES];
        let mut n = 0;
        for i in 0..len {
            let t = node.cells[start + i * stride] as usize;
            let at_home = if row {
                self.home_row[t] as usize == index
            } else {
                self.home_col[t] as usize == index
            };
            if t != 0 && at_home {
                keys[n] = if row {
                    self.home_col[t]
                } else {
                    self.home_row[t]
                };
                n += 1;
            }
        }
        // Longest increasing subsequence, O(n^2) over at most 16 items.
        let mut best = [1u8; MAX_LINES];
        let mut longest = 0;
        for i in 0..n {
            for j in 0..i {
                if keys[j] < keys[i] && best[j] + 1 > best[i] {
                    best[i] = best[j] + 1;
                }
            }
            longest = longest.max(best[i]);
        }
        n as u8 - longest
    }
}

impl TileHeuristic for LinearConflict {
    type Cache = ConflictCache;

    fn describe(&self) -> String {
        "linear-conflict".into()
    }

    fn evaluate(&self, node: &Node) -> (ConflictCache, u32) {
        let mut cache = ConflictCache {
            manhattan: self.manhattan.total(node),
            rows: [0; MAX_LINES],
            cols: [0; MAX_LINES],
            conflicts: 0,
        };
        for r in 0..self.height {
            cache.rows[r] = self.line(node, true, r);
        }
        for c in 0..self.width {
            cache.cols[c] = self.line(node, false, c);
        }
        cache.conflicts = cache
            .rows
            .iter()
            .chain(&cache.cols)
            .map(|&v| v as u32)
            .sum();
        (cache, cache.manhattan + 2 * cache.conflicts)
    }

    #[inline]
    fn update(
        &self,
        parent: &ConflictCache,
        node: &Node,
        tile: u8,
        from: u8,
        to: u8,
    ) -> (ConflictCache, u32) {
        let mut cache = *parent;
        cache.manhattan = self.manhattan.delta(parent.manhattan, tile, from, to);
        let (from, to) = (from as usize, to as usize);
        // A vertical slide changes which tiles are in two rows; columns keep their order. A
        // horizontal slide does the same to two columns.
        let (row, a, b) = if from % self.width == to % self.width {
            (true, from / self.width, to / self.width)
        } else {
            (false, from % self.width, to % self.width)
        };
        let lines = if row {
            &mut cache.rows
        } else {
            &mut cache.cols
        };
        for index in [a, b] {
            let new = self.line(node, row, index);
            cache.conflicts = cache.conflicts + new as u32 - lines[index] as u32;
            lines[index] = new;
        }
        (cache, cache.manhattan + 2 * cache.conflicts)
    }
}

/// Most groups in one partition.
const MAX_GROUPS: usize = 8;
const NO_GROUP: u8 = u8::MAX;

/// The sum of the groups' entries (unused groups hold 0).
#[inline]
fn group_sum(values: &[u8; MAX_GROUPS]) -> u32 {
    values.iter().map(|&x| x as u32).sum()
}

/// Pattern databases are read at a direct index (`sum of cell x cells^(k-1-i)`, one multiply
/// and add a tile, as Korf's 24-puzzle solver reads them) when all of a partition's tables so
/// spread take at most this many bytes (see [`PatternHeuristic::spread_bytes`]); otherwise at
/// their compact placement index (a popcount a tile, in a dependent chain). 6-6-6-6 on the 5x5
/// spreads to 0.98 GB. Below 2^31 bytes, every direct index fits the cache's `u32`s.
const SPREAD_LIMIT_BYTES: u64 = 2 << 30;

/// One group's database and, for the reflected lookup, which tile's position feeds each slot.
#[derive(Debug)]
struct Group {
    pattern: Pattern,
    /// The entries at the compact placement index, or spread to the direct index (as
    /// [`PatternHeuristic::spread`] says, for every group alike).
    table: TableBytes,
    /// Tiles whose cells index the reflected lookup (`sigma^-1` of the group's tiles, or the
    /// mirror image's group's tiles).
    reflected_sources: Vec<u8>,
    /// The mirror image's table for this slot ([`ReflectedLookup::Tables`]), laid out as
    /// `table`; `None` when the reflected lookup reads `table` through a mirror.
    reflected_table: Option<TableBytes>,
}

impl Group {
    /// The table the reflected lookup of this slot reads.
    #[inline]
    fn reflected_table(&self) -> &[u8] {
        match &self.reflected_table {
            Some(own) => own.as_slice(),
            None => self.table.as_slice(),
        }
    }
}

/// What a [`PatternHeuristic`] reads besides its partition's sum, the estimate being the larger
/// of the two sums (each admissible alone, so their maximum is).
#[derive(Debug)]
pub enum ReflectedLookup {
    /// Nothing: the partition's sum alone.
    Off,
    /// The partition's own tables read through a mirror of the board that keeps the goal's
    /// blank on its cell, where one does and the partition covers every tile (else nothing).
    Mirror,
    /// Another partition's tables read at the position itself, for goals that no mirror keeps:
    /// the partition's [`Partition::mirror_image`], with one table per group in its order. It
    /// must cover every tile, as the partition must, with groups of the partition's sizes.
    Tables(Partition, Vec<TableBytes>),
}

/// The direct index of a placement: its cells as the digits of a number in base `cells`.
#[inline]
fn direct_index(cells: impl Iterator<Item = u8>, n: usize) -> usize {
    cells.fold(0usize, |index, c| index * n + c as usize)
}

/// `compact` (entries at the placement index of [`Pattern::index`]) written out at the direct
/// index: placements in the order of their cells are in the order of their placement index, so
/// each first cell's block of `compact` is read once, front to back, on every thread. Entries
/// of no placement (two tiles on a cell) are never read and left 0. The result lies in huge
/// pages where the memory can be had: the search reads it at random, and in 4 KiB pages
/// nearly every read of a gigabyte also misses the TLB.
fn spread(compact: &[u8], tiles: usize, n: usize) -> TableBytes {
    /// Writes the placements below `level` (cells `used` taken, direct index so far `at`).
    #[allow(clippy::too_many_arguments)]
    fn fill(
        level: usize,
        tiles: usize,
        n: usize,
        used: u64,
        at: usize,
        compact: &[u8],
        next: &mut usize,
        direct: &mut [u8],
    ) {
        if level == tiles {
            // A group of one tile: its first cell is all of it.
            direct[at] = compact[*next];
            *next += 1;
            return;
        }
        if level + 1 == tiles {
            // The last tile's cells in a loop, rather than a call for each entry (which took
            // most of a spread's time).
            let row = &mut direct[at * n..at * n + n];
            for (c, slot) in row.iter_mut().enumerate() {
                if used & (1 << c) == 0 {
                    *slot = compact[*next];
                    *next += 1;
                }
            }
            return;
        }
        for c in (0..n).filter(|&c| used & (1 << c) == 0) {
            let at = at * n + c;
            fill(
                level + 1,
                tiles,
                n,
                used | (1 << c),
                at,
                compact,
                next,
                direct,
            );
        }
    }
    let block = n.pow(tiles as u32 - 1);
    let write = |direct: &mut [u8]| {
        direct
            .par_chunks_mut(block)
            .zip(compact.par_chunks(compact.len() / n))
            .enumerate()
            .for_each(|(first, (direct, compact))| {
                let mut next = 0;
                fill(1, tiles, n, 1 << first, 0, compact, &mut next, direct);
                debug_assert_eq!(next, compact.len());
            });
    };
    match ResidentBytes::zeroed(block * n) {
        Ok(mut resident) => {
            write(resident.bytes_mut());
            TableBytes::Resident(resident)
        }
        Err(_) => {
            let mut direct = vec![0u8; block * n];
            write(&mut direct);
            TableBytes::Owned(direct)
        }
    }
}

/// How the reflected lookup reads a position.
#[derive(Debug, Clone)]
struct Reflection {
    /// The cell each cell is read as: its image through a mirror that keeps the blank's goal
    /// cell (`PatternHeuristic::mirror`), or itself for a mirror image's own tables.
    cell: [u8; MAX_SEARCH_CELLS],
    /// The slot whose reflected lookup changes when tile `t` moves (the group of `sigma(t)`
    /// through a mirror, or `t`'s group in the mirror image).
    group_of_image: [u8; MAX_SEARCH_CELLS],
}

impl Reflection {
    /// The partition's own tables read through the mirror `cell` (which maps `goal` to itself
    /// up to renaming the tiles), with each slot's source tiles.
    fn through_mirror(
        goal: &Board,
        cell: [u8; MAX_SEARCH_CELLS],
        group_of: &[u8; MAX_SEARCH_CELLS],
        patterns: &[Pattern],
    ) -> (Self, Vec<Vec<u8>>) {
        let n = goal.shape().cells();
        let mut home = vec![0usize; n];
        for (c, &t) in goal.cells().iter().enumerate() {
            home[t as usize] = c;
        }
        // sigma(t): the tile whose home is the mirror image of t's home.
        let sigma: Vec<usize> = (0..n)
            .map(|t| goal.cells()[cell[home[t]] as usize] as usize)
            .collect();
        let mut group_of_image = [NO_GROUP; MAX_SEARCH_CELLS];
        for (t, &image) in sigma.iter().enumerate() {
            group_of_image[t] = group_of[image];
        }
        let sources = patterns
            .iter()
            .map(|p| {
                p.tiles()
                    .iter()
                    .map(|&t| {
                        sigma
                            .iter()
                            .position(|&image| image == t as usize)
                            .expect("sigma is a bijection") as u8
                    })
                    .collect()
            })
            .collect();
        let reflection = Reflection {
            cell,
            group_of_image,
        };
        (reflection, sources)
    }

    /// The mirror image's tables, read at each tile's own cell, with each slot's source tiles.
    fn of_image(image: &Partition) -> (Self, Vec<Vec<u8>>) {
        let mut cell = [0u8; MAX_SEARCH_CELLS];
        for (c, slot) in cell.iter_mut().enumerate() {
            *slot = c as u8;
        }
        let mut group_of_image = [NO_GROUP; MAX_SEARCH_CELLS];
        for (g, p) in image.patterns().iter().enumerate() {
            for &t in p.tiles() {
                group_of_image[t as usize] = g as u8;
            }
        }
        let sources = image
            .patterns()
            .iter()
            .map(|p| p.tiles().iter().map(|&t| t as u8).collect())
            .collect();
        let reflection = Reflection {
            cell,
            group_of_image,
        };
        (reflection, sources)
    }
}

/// Additive disjoint pattern databases, optionally with a reflected lookup: **admissible**
/// (each sum is, so the larger is).
#[derive(Debug)]
pub struct PatternHeuristic {
    name: String,
    groups: Vec<Group>,
    group_of: [u8; MAX_SEARCH_CELLS],
    rest: Manhattan,
    reflection: Option<Reflection>,
    /// Whether the tables are spread: their direct indexes are then kept in the cache and
    /// moved by one product a slide (see [`weight_of`](Self::weight_of)).
    spread: bool,
    /// The weight of tile `t`'s cell in its group's direct index (`cells^(k-1-i)` for the
    /// `i`-th of `k` tiles): a slide of `t` from `a` to `b` moves that index by `(b - a)` times it.
    weight_of: [u32; MAX_SEARCH_CELLS],
    /// The same for the reflected index: the weight of tile `t`'s reflected cell in the
    /// reflected lookup of group `group_of_image[t]`.
    reflected_weight_of: [u32; MAX_SEARCH_CELLS],
}

/// Each group's value, normal and reflected, their sums, and the Manhattan part of uncovered
/// tiles. The sums are kept as they change (one entry a move) rather than added up again from
/// the bytes just written, which would wait on the store of that byte.
#[derive(Debug, Clone, Copy, Default)]
pub struct PatternCache {
    values: [u8; MAX_GROUPS],
    reflected: [u8; MAX_GROUPS],
    /// Spread tables: each group's direct index, normal and reflected.
    index: [u32; MAX_GROUPS],
    reflected_index: [u32; MAX_GROUPS],
    normal_sum: u32,
    reflected_sum: u32,
    rest: u32,
}

impl PatternHeuristic {
    /// The heuristic of `partition` for `goal` with one table per group (in partition order,
    /// each of `pattern.entries()` bytes), and the larger sum with `reflected`'s lookup. The
    /// tables are spread to their direct index when that takes at most `SPREAD_LIMIT_BYTES`
    /// (the same values, read faster), and otherwise put in huge pages.
    pub fn new(
        goal: &Board,
        partition: &Partition,
        tables: Vec<TableBytes>,
        reflected: ReflectedLookup,
    ) -> Result<Self, SearchError> {
        Self::with_layout(goal, partition, tables, reflected, true)
    }

    /// Whether a reflected lookup of `partition` for `goal` needs tables of its own: the
    /// partition covers every tile but no mirror of the board keeps the goal's blank on its
    /// cell, so [`ReflectedLookup::Mirror`] would read nothing and only
    /// [`ReflectedLookup::Tables`] with its [`Partition::mirror_image`] gives a second sum.
    pub fn reflection_needs_tables(goal: &Board, partition: &Partition) -> bool {
        Self::covers_every_tile(goal, partition) && Self::mirror(goal).is_none()
    }

    fn covers_every_tile(goal: &Board, partition: &Partition) -> bool {
        let covered: usize = partition.patterns().iter().map(|p| p.tiles().len()).sum();
        covered + 1 == goal.shape().cells()
    }

    /// Bytes `partition`'s tables take spread to their direct index (what [`new`](Self::new)
    /// holds when that is at most `SPREAD_LIMIT_BYTES`), for a caller with a memory budget
    /// to choose between [`new`](Self::new) and [`compact`](Self::compact).
    pub fn spread_bytes(partition: &Partition) -> u64 {
        partition
            .patterns()
            .iter()
            .map(|p| (p.shape().cells() as u64).saturating_pow(p.tiles().len() as u32))
            .fold(0u64, u64::saturating_add)
    }

    /// [`new`](Self::new) reading the tables at their compact index whatever their size: the
    /// same values in half the memory or less, read more slowly.
    pub fn compact(
        goal: &Board,
        partition: &Partition,
        tables: Vec<TableBytes>,
        reflected: ReflectedLookup,
    ) -> Result<Self, SearchError> {
        Self::with_layout(goal, partition, tables, reflected, false)
    }

    fn with_layout(
        goal: &Board,
        partition: &Partition,
        tables: Vec<TableBytes>,
        reflected: ReflectedLookup,
        may_spread: bool,
    ) -> Result<Self, SearchError> {
        let shape = goal.shape();
        let patterns = partition.patterns();
        if patterns.len() > MAX_GROUPS {
            return Err(SearchError::TooManyGroups {
                groups: patterns.len(),
                most: MAX_GROUPS,
            });
        }
        if tables.len() != patterns.len() {
            return Err(SearchError::DatabasesMismatch("one database a group"));
        }
        let mut group_of = [NO_GROUP; MAX_SEARCH_CELLS];
        for (g, p) in patterns.iter().enumerate() {
            for &t in p.tiles() {
                group_of[t as usize] = g as u8;
            }
        }
        let n = shape.cells();
        let spreads = may_spread && Self::spread_bytes(partition) <= SPREAD_LIMIT_BYTES;
        let lay_out = |table: TableBytes, pattern: &Pattern| -> Result<TableBytes, SearchError> {
            if table.as_slice().len() as u64 != pattern.entries() {
                return Err(SearchError::DatabasesMismatch(
                    "a database of the wrong size",
                ));
            }
            Ok(match (spreads, may_spread) {
                (true, _) => spread(table.as_slice(), pattern.tiles().len(), n),
                // Too large to spread: still read at random, so in huge pages.
                (false, true) => table.resident(),
                (false, false) => table,
            })
        };
        // The reflected sum reads other tiles than the normal one, so the Manhattan part for
        // tiles outside the partition would be counted twice: reflect only complete partitions.
        let complete = Self::covers_every_tile(goal, partition);
        // The reflected lookup: its map of cells, and for each slot the tiles whose cells index
        // it and the table it reads when not the slot's own.
        let mut reflection = None;
        let mut reflected_name = String::new();
        let mut sources: Vec<Vec<u8>> = vec![Vec::new(); patterns.len()];
        let mut reflected_tables: Vec<Option<TableBytes>> = patterns.iter().map(|_| None).collect();
        match reflected {
            ReflectedLookup::Off => {}
            ReflectedLookup::Mirror => {
                if let Some(cell) = Self::mirror(goal).filter(|_| complete) {
                    let (read, from) = Reflection::through_mirror(goal, cell, &group_of, patterns);
                    (reflection, sources) = (Some(read), from);
                    reflected_name = " + reflection".into();
                }
            }
            ReflectedLookup::Tables(image, tables) => {
                let fits = complete
                    && Self::covers_every_tile(goal, &image)
                    && image.patterns().len() == patterns.len()
                    && image
                        .patterns()
                        .iter()
                        .zip(patterns)
                        .all(|(a, b)| a.tiles().len() == b.tiles().len());
                if !fits {
                    return Err(SearchError::DatabasesMismatch(
                        "a reflected partition unlike the partition",
                    ));
                }
                if tables.len() != patterns.len() {
                    return Err(SearchError::DatabasesMismatch("one database a group"));
                }
                for ((slot, table), p) in reflected_tables
                    .iter_mut()
                    .zip(tables)
                    .zip(image.patterns())
                {
                    *slot = Some(lay_out(table, p)?);
                }
                let (read, from) = Reflection::of_image(&image);
                (reflection, sources) = (Some(read), from);
                reflected_name = " + mirror image".into();
            }
        }
        let mut groups = Vec::new();
        for (((p, table), reflected_sources), reflected_table) in patterns
            .iter()
            .zip(tables)
            .zip(sources)
            .zip(reflected_tables)
        {
            groups.push(Group {
                pattern: p.clone(),
                table: lay_out(table, p)?,
                reflected_sources,
                reflected_table,
            });
        }
        let mut weight_of = [0u32; MAX_SEARCH_CELLS];
        let mut reflected_weight_of = [0u32; MAX_SEARCH_CELLS];
        if spreads {
            for group in &groups {
                let k = group.pattern.tiles().len();
                let weight = |i: usize| (n as u32).pow((k - 1 - i) as u32);
                for (i, &t) in group.pattern.tiles().iter().enumerate() {
                    weight_of[t as usize] = weight(i);
                }
                for (i, &u) in group.reflected_sources.iter().enumerate() {
                    reflected_weight_of[u as usize] = weight(i);
                }
            }
        }
        Ok(Self {
            name: format!("pdb {}{reflected_name}", partition.name()),
            groups,
            group_of,
            rest: Manhattan::for_tiles(goal, |t| t != 0 && group_of[t as usize] == NO_GROUP)?,
            reflection,
            spread: spreads,
            weight_of,
            reflected_weight_of,
        })
    }

    /// The mirror the reflected lookup reads the board through, as each cell's image: one that
    /// keeps the blank's goal cell, so that it maps the goal to itself up to renaming the tiles
    /// and a position's mirror image is as far from the goal. The first of [`Shape::mirrors`]
    /// that does: the main diagonal's for Korf's goals, the left-right mirror's for a blank on
    /// the middle column; `None` when none keeps it (a blank beside a corner on the 5x5, for
    /// one).
    ///
    /// [`Shape::mirrors`]: godsearch_puzzles::tiles::Shape::mirrors
    fn mirror(goal: &Board) -> Option<[u8; MAX_SEARCH_CELLS]> {
        let blank = goal.blank();
        let image = goal
            .shape()
            .mirrors()
            .into_iter()
            .find(|image| image[blank] == blank)?;
        let mut cell = [0u8; MAX_SEARCH_CELLS];
        for (slot, &c) in cell.iter_mut().zip(&image) {
            *slot = c as u8;
        }
        Some(cell)
    }

    /// Group `g`'s direct index for `node` (spread tables).
    fn direct(&self, g: usize, node: &Node) -> u32 {
        let group = &self.groups[g];
        let cells = group.pattern.tiles().iter().map(|&t| node.pos[t as usize]);
        direct_index(cells, group.pattern.shape().cells()) as u32
    }

    /// Group `g`'s direct index through the reflection for `node` (spread tables).
    fn reflected_direct(&self, g: usize, node: &Node, reflection: &Reflection) -> u32 {
        let group = &self.groups[g];
        let cells = group
            .reflected_sources
            .iter()
            .map(|&u| reflection.cell[node.pos[u as usize] as usize]);
        direct_index(cells, group.pattern.shape().cells()) as u32
    }

    /// A direct index moved by a slide from cell `from` to cell `to` of a tile of `weight`.
    #[inline]
    fn moved(index: u32, weight: u32, from: u8, to: u8) -> u32 {
        (index as i64 + (to as i64 - from as i64) * weight as i64) as u32
    }

    /// Group `g`'s entry for `node` in a compact table (spread ones are read at the index
    /// the cache keeps).
    #[inline]
    fn lookup(&self, g: usize, node: &Node) -> u8 {
        let group = &self.groups[g];
        let mut cells = [0u8; MAX_PATTERN_TILES];
        for (slot, &t) in cells.iter_mut().zip(group.pattern.tiles()) {
            *slot = node.pos[t as usize];
        }
        let k = group.pattern.tiles().len();
        group.table.as_slice()[group.pattern.index(&cells[..k]) as usize]
    }

    /// The same through the reflection.
    #[inline]
    fn lookup_reflected(&self, g: usize, node: &Node, reflection: &Reflection) -> u8 {
        let group = &self.groups[g];
        let mut cells = [0u8; MAX_PATTERN_TILES];
        for (slot, &u) in cells.iter_mut().zip(&group.reflected_sources) {
            *slot = reflection.cell[node.pos[u as usize] as usize];
        }
        let k = group.pattern.tiles().len();
        group.reflected_table()[group.pattern.index(&cells[..k]) as usize]
    }

    #[inline]
    fn value(&self, cache: &PatternCache) -> u32 {
        cache.rest + cache.normal_sum.max(cache.reflected_sum)
    }
}

impl TileHeuristic for PatternHeuristic {
    type Cache = PatternCache;

    fn describe(&self) -> String {
        self.name.clone()
    }

    /// Its databases' bytes (each read twice with reflection, held once).
    fn table_bytes(&self) -> u64 {
        self.groups
            .iter()
            .map(|g| {
                let own = g.reflected_table.as_ref().map_or(0, |t| t.as_slice().len());
                (g.table.as_slice().len() + own) as u64
            })
            .sum()
    }

    fn evaluate(&self, node: &Node) -> (PatternCache, u32) {
        let mut cache = PatternCache {
            values: [0; MAX_GROUPS],
            reflected: [0; MAX_GROUPS],
            index: [0; MAX_GROUPS],
            reflected_index: [0; MAX_GROUPS],
            normal_sum: 0,
            reflected_sum: 0,
            rest: self.rest.total(node),
        };
        for g in 0..self.groups.len() {
            let table = self.groups[g].table.as_slice();
            if self.spread {
                cache.index[g] = self.direct(g, node);
                cache.values[g] = table[cache.index[g] as usize];
            } else {
                cache.values[g] = self.lookup(g, node);
            }
            if let Some(r) = &self.reflection {
                if self.spread {
                    cache.reflected_index[g] = self.reflected_direct(g, node, r);
                    cache.reflected[g] =
                        self.groups[g].reflected_table()[cache.reflected_index[g] as usize];
                } else {
                    cache.reflected[g] = self.lookup_reflected(g, node, r);
                }
            }
        }
        cache.normal_sum = group_sum(&cache.values);
        cache.reflected_sum = group_sum(&cache.reflected);
        (cache, self.value(&cache))
    }

    #[inline]
    fn update(
        &self,
        parent: &PatternCache,
        node: &Node,
        tile: u8,
        from: u8,
        to: u8,
    ) -> (PatternCache, u32) {
        let mut child = PatternCache::default();
        let estimate = self.update_within(parent, &mut child, node, tile, from, to, u32::MAX);
        (child, estimate)
    }

    /// Skips the reflected lookup (one uncached read) when the normal sum alone exceeds
    /// `bound`: the child is pruned either way, and the normal sum is admissible. The entries
    /// and sums are worked out in registers, and a child's cache is written only when it is
    /// within `bound` (a pruned one's `child` is left alone): most children are pruned, and
    /// writing an entry's byte into a copy that is then copied out makes the processor wait
    /// for that store (8% fewer seconds on the 24-puzzle, 8-14% on Korf's 100, side by side:
    /// `docs/performance.md`); a survivor's is written where the search keeps it.
    #[inline(always)]
    fn update_within(
        &self,
        parent: &PatternCache,
        child: &mut PatternCache,
        node: &Node,
        tile: u8,
        from: u8,
        to: u8,
        bound: u32,
    ) -> u32 {
        let g = self.group_of[tile as usize];
        let (mut rest, mut normal_sum, mut index, mut value) =
            (parent.rest, parent.normal_sum, 0, 0);
        if g == NO_GROUP {
            rest = self.rest.delta(parent.rest, tile, from, to);
        } else {
            value = if self.spread {
                index = Self::moved(
                    parent.index[g as usize],
                    self.weight_of[tile as usize],
                    from,
                    to,
                );
                self.groups[g as usize].table.as_slice()[index as usize]
            } else {
                self.lookup(g as usize, node)
            };
            normal_sum = parent.normal_sum + value as u32 - parent.values[g as usize] as u32;
        }
        let normal = rest + normal_sum;
        if normal > bound {
            // Pruned: nothing is written.
            return normal;
        }
        let (mut reflected_sum, mut reflected_index, mut reflected) = (parent.reflected_sum, 0, 0);
        let mut rg = NO_GROUP;
        if let Some(r) = &self.reflection {
            rg = r.group_of_image[tile as usize];
            if rg != NO_GROUP {
                reflected = if self.spread {
                    let weight = self.reflected_weight_of[tile as usize];
                    let (a, b) = (r.cell[from as usize], r.cell[to as usize]);
                    reflected_index =
                        Self::moved(parent.reflected_index[rg as usize], weight, a, b);
                    self.groups[rg as usize].reflected_table()[reflected_index as usize]
                } else {
                    self.lookup_reflected(rg as usize, node, r)
                };
                reflected_sum =
                    parent.reflected_sum + reflected as u32 - parent.reflected[rg as usize] as u32;
            }
        }
        let estimate = rest + normal_sum.max(reflected_sum);
        if estimate > bound {
            return estimate;
        }
        *child = *parent;
        child.rest = rest;
        child.normal_sum = normal_sum;
        child.reflected_sum = reflected_sum;
        if g != NO_GROUP {
            child.index[g as usize] = index;
            child.values[g as usize] = value;
        }
        if rg != NO_GROUP {
            child.reflected_index[rg as usize] = reflected_index;
            child.reflected[rg as usize] = reflected;
        }
        estimate
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use godsearch_puzzles::tiles::Shape;

    /// Every placement's entry is where the direct index says, for groups of every size
    /// the 3x3 and 4x4 take.
    #[test]
    fn spread_tables_hold_each_placement_at_its_direct_index() {
        for (side, tiles) in [
            (3, &[4u16][..]),
            (3, &[1, 2]),
            (3, &[1, 5, 8]),
            (3, &[2, 4, 6, 7]),
            (4, &[1, 2, 3, 4, 15]),
        ] {
            let goal = Board::goal(Shape::new(side, side).unwrap());
            let pattern = Pattern::new(&goal, tiles).unwrap();
            let n = pattern.shape().cells();
            // Entries made up from their own index, so a misplaced one shows.
            let compact: Vec<u8> = (0..pattern.entries())
                .map(|i| (i * 7 % 251) as u8)
                .collect();
            let direct = spread(&compact, tiles.len(), n);
            let direct = direct.as_slice();
            let mut cells = vec![0u8; tiles.len()];
            for i in 0..pattern.entries() {
                pattern.cells_of(i, &mut cells);
                let at = direct_index(cells.iter().copied(), n);
                assert_eq!(direct[at], compact[i as usize], "placement {cells:?}");
            }
        }
    }
}
