//! The optimal solver's pruning table: lower bounds on the distances of `twist class x slice x
//! flip` (see [`crate::flipslice`]) or of `corner class x slice x U/D flip` (see
//! [`crate::cornerslice`]), in two bits an entry above a base with a minimum a block
//! ([`godsearch_tables::blocked`], nxopt's form: exact on the two levels above the base, where
//! most entries lie, and readable without a neighbour's distance), and the small tables that
//! find a position's entry.

use super::inverse::LeftMoves;
use crate::coords::{self, MOVES, SLICES, SLICE_PERMS, SLICE_SORTED};
use crate::cornerslice::{CornerSliceGraph, CornerSliceTables, CORNER_OCCUPANCY_CLASSES, UD_FLIPS};
use crate::flipslice::{slice_sorted_conjugates, FlipSliceConjugates, FlipSliceGraph};
use crate::pruning;
use crate::search::to_move;
use crate::tables::{twist_classes, twist_conjugates, TablesError, AXES, URF3_SYMMETRY};
use godsearch_core::{Cancelled, Progress};
use godsearch_puzzles::cube::coord::{CORNER_PERMS, FLIPS, TWISTS};
use godsearch_puzzles::cube::symmetry::{CoordinateClasses, Symmetries};
use godsearch_puzzles::cube::{CubieCube, Metric};
use godsearch_tables::blocked;
use godsearch_tables::{LoadedTable, TableBytes};
use std::io::{self, Write};

/// Identity of the layout of the tables of `twist class x slice x flip` (`small`, `1gb`),
/// stored in and required of saved files. Change it whenever a coordinate, a move order, a
/// symmetry or the layout changes.
pub const OPTIMAL_FORMAT: &str = "optimal sym16 twistclass-slice-flip blocked v2";
/// The same for the tables of `corner class x slice x U/D flip` (`300mb`, `8gb`).
pub const CORNER_OPTIMAL_FORMAT: &str = "optimal sym16 cornerclass-slice-udflip blocked v2";

/// Moves of the slice-turn metric: the 18 face turns, then the middle layers' 9 (see
/// [`Metric::moves`]).
pub(crate) const LAYER_MOVES: usize = 27;

/// The columns of the move tables in `metric`: the 18 face turns, or in the slice-turn metric
/// those and the middle layers' 9 turns (a move's column is its index among them).
pub(crate) fn move_columns(metric: Metric) -> usize {
    match metric {
        Metric::Htm | Metric::Qtm => MOVES,
        Metric::Stm => LAYER_MOVES,
    }
}

/// The pruning tables on offer: two coordinates, `twist class x slice x flip`
/// (`crate::flipslice`) and `corner class x slice x U/D flip` (`crate::cornerslice`), each
/// with the middle edges' order left out or kept. They order by size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TableSize {
    /// Twist class, where the middle edges are (phase 1's coordinate), flip: 170,311,680
    /// entries, 44 MB, built in seconds; at most 12 moves. For tests and positions of up to
    /// about 15 moves.
    Small,
    /// Twist and U-corner placement class, where the middle edges are, U/D flip (the
    /// coordinate of nxopt's 325 MB table): 1,258,329,600 entries, 325 MB.
    Medium,
    /// Twist class, where the middle edges are and in which order, flip (Kociemba's optimal
    /// solver's coordinate): 4,087,480,320 entries, 1.05 GB.
    Gigabyte,
    /// Twist and U-corner placement class, where the middle edges are and in which order, U/D
    /// flip (the coordinate of nxopt's 7.8 GB table): 30,199,910,400 entries, 7.79 GB.
    Large,
}

impl TableSize {
    /// Every preset, smallest first.
    pub const ALL: [TableSize; 4] = [
        TableSize::Small,
        TableSize::Medium,
        TableSize::Gigabyte,
        TableSize::Large,
    ];

    /// The preset's name as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            TableSize::Small => "small",
            TableSize::Medium => "300mb",
            TableSize::Gigabyte => "1gb",
            TableSize::Large => "8gb",
        }
    }

    /// Whether the entry is `corner class x slice x U/D flip` (else `twist class x slice x
    /// flip`).
    fn by_corners(self) -> bool {
        matches!(self, TableSize::Medium | TableSize::Large)
    }

    /// The identity of the layout, stored in and required of saved files.
    pub fn format(self) -> &'static str {
        match self.by_corners() {
            false => OPTIMAL_FORMAT,
            true => CORNER_OPTIMAL_FORMAT,
        }
    }

    /// Every preset's name, for messages: `small, 300mb, 1gb or 8gb`.
    pub fn names() -> String {
        let names: Vec<&str> = Self::ALL.iter().map(|s| s.name()).collect();
        let (last, rest) = names.split_last().expect("presets exist");
        format!("{} or {last}", rest.join(", "))
    }

    /// The preset named `name`, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Values of the slice coordinate.
    fn slices(self) -> usize {
        match self {
            TableSize::Small | TableSize::Medium => SLICES,
            TableSize::Gigabyte | TableSize::Large => SLICE_SORTED,
        }
    }

    /// Slice values per placement of the middle edges.
    fn orders(self) -> usize {
        self.slices() / SLICES
    }

    /// Exact number of entries.
    pub fn entries(self) -> usize {
        match self.by_corners() {
            false => crate::TWIST_CLASSES * self.slices() * FLIPS,
            true => CORNER_OCCUPANCY_CLASSES * self.slices() * UD_FLIPS,
        }
    }

    /// Bytes of the table (two bits an entry, a 4-bit minimum for every 62), in memory and on
    /// disk.
    pub fn bytes(self) -> usize {
        blocked::bytes_for(self.entries())
    }

    /// The identity a saved table of this preset in `metric` carries.
    pub fn identity(self, metric: Metric) -> String {
        format!("cube 3x3x3 optimal {} {}", metric.name(), self.name())
    }
}

/// The optimal solver's tables: the pruning table (built once, saved, read back into huge
/// pages) and the small move and symmetry tables (a fraction of a second, rebuilt at load).
#[derive(Debug)]
pub struct OptimalTables {
    size: TableSize,
    metric: Metric,
    /// The moves of `metric`, as columns of the move tables.
    pub(crate) moves: Vec<u8>,
    /// Columns of the move tables ([`move_columns`]): 18, or 27 in the slice-turn metric.
    pub(crate) columns: usize,
    pub(crate) twists: CoordinateClasses,
    pub(crate) twist_move: Vec<u16>,
    pub(crate) flip_move: Vec<u16>,
    pub(crate) conjugates: FlipSliceConjugates,
    pub(crate) slice_move: Vec<u16>,
    pub(crate) slice_conj: Vec<u16>,
    /// The sorted slice under the moves: the search tracks it on every axis whatever the
    /// table's slice, since the three axes' sorted slices place every edge.
    pub(crate) slice_sorted_move: Vec<u16>,
    /// Corner permutation under the moves: the corners' positions are the one part of a
    /// cube the three axes' coordinates leave out, so the goal test needs them.
    pub(crate) corner_move: Vec<u16>,
    /// `axis_move[a][m]`: move `m` of a cube seen from axis `a` (conjugated by `URF3^a`).
    pub(crate) axis_move: [[u8; LAYER_MOVES]; AXES],
    /// The corner classes and U/D flips of the tables by corners (`None` for the others).
    pub(crate) corners: Option<CornerSliceTables>,

    pub(crate) symmetries: Symmetries,
    /// The moves as renamings of pieces, for the inverse's lookups.
    pub(crate) left_moves: LeftMoves,
    /// The blocked entries, copied into huge pages when the memory can be had: fewer TLB
    /// misses on the search's random reads (10-20% faster; see [`godsearch_tables::resident`]).
    pruning: TableBytes,
    /// The entries' base ([`blocked::base_for`] of the levels).
    base: u8,
    /// See [`levels`](Self::levels).
    levels: Vec<u64>,
}

impl OptimalTables {
    /// Builds the tables of `size` for distances in `metric` (seconds for
    /// [`TableSize::Small`], minutes for the larger ones; the distance levels are reported to
    /// `progress`); `Cancelled` when `progress` asks the build to stop first.
    pub fn build(
        size: TableSize,
        metric: Metric,
        progress: &dyn Progress,
    ) -> Result<Self, Cancelled> {
        let mut tables = Self::small_tables(size, metric, TableBytes::Owned(Vec::new()), &[]);
        let goal = tables.goal_entry();
        let (bytes, base, levels) = match tables.index() {
            TableIndex::FlipSlice(graph) => pruning::blocked_bounds(&graph, goal, progress)?,
            TableIndex::CornerSlice(graph) => pruning::blocked_bounds(&graph, goal, progress)?,
        };
        tables.pruning = TableBytes::Resident(bytes);
        tables.base = base;
        tables.levels = levels;
        Ok(tables)
    }

    pub(super) fn small_tables(
        size: TableSize,
        metric: Metric,
        pruning: TableBytes,
        levels: &[u64],
    ) -> Self {
        let symmetries = Symmetries::new();
        let columns = move_columns(metric);
        let all: Vec<CubieCube> = (0..columns).map(|k| to_move(k).cubie()).collect();
        let slice_sorted_move = coords::move_table(SLICE_SORTED, coords::slice_sorted, &all);
        let (slice_move, slice_conj) = match size.orders() {
            1 => (
                coords::move_table(SLICES, coords::slice, &all),
                FlipSliceConjugates::new(&symmetries).slice,
            ),
            _ => (
                slice_sorted_move.clone(),
                slice_sorted_conjugates(&symmetries),
            ),
        };
        let mut axis_move = [[0u8; LAYER_MOVES]; AXES];
        for (a, row) in axis_move.iter_mut().enumerate() {
            for (m, slot) in row.iter_mut().enumerate().take(columns) {
                let seen = symmetries.conjugate(&all[m], a * URF3_SYMMETRY);
                *slot = all
                    .iter()
                    .position(|c| *c == seen)
                    .expect("a symmetry maps the metric's moves onto themselves")
                    as u8;
            }
        }
        let moves: Vec<u8> = (0..columns)
            .filter(|&k| metric.moves().contains(&to_move(k)))
            .map(|k| k as u8)
            .collect();
        let corners = size
            .by_corners()
            .then(|| CornerSliceTables::new(&symmetries, &twist_conjugates(&symmetries), &all));
        OptimalTables {
            size,
            metric,
            moves,
            columns,
            twists: twist_classes(&symmetries),
            twist_move: coords::move_table(TWISTS, coords::twist, &all),
            flip_move: coords::move_table(FLIPS, coords::flip, &all),
            conjugates: FlipSliceConjugates::new(&symmetries),
            slice_move,
            slice_conj,
            slice_sorted_move,
            corner_move: coords::move_table(CORNER_PERMS, coords::corner_perm, &all),
            axis_move,
            corners,
            symmetries,
            left_moves: LeftMoves::new(&all),
            pruning,
            base: blocked::base_for(levels, size.entries() as u64).unwrap_or(0),
            levels: levels.to_vec(),
        }
    }

    /// The table as a graph of entries (how its entries are found and connected).
    pub(crate) fn index(&self) -> TableIndex<'_> {
        match &self.corners {
            None => TableIndex::FlipSlice(FlipSliceGraph {
                twists: &self.twists,
                twist_move: &self.twist_move,
                flip_move: &self.flip_move,
                conjugates: &self.conjugates,
                slice_move: &self.slice_move,
                slice_conj: &self.slice_conj,
                slices: self.size.slices(),
                orders: self.size.orders(),
                columns: self.columns,
                moves: &self.moves,
            }),
            Some(corners) => TableIndex::CornerSlice(CornerSliceGraph {
                corners,
                twist_move: &self.twist_move,
                flip_move: &self.flip_move,
                conjugates: &self.conjugates,
                slice_move: &self.slice_move,
                slice_conj: &self.slice_conj,
                slices: self.size.slices(),
                orders: self.size.orders(),
                columns: self.columns,
                moves: &self.moves,
            }),
        }
    }

    /// The entry of the solved cube: the one entry at distance 0, with its partners (which,
    /// the solved cube being kept by every symmetry, are itself).
    pub(crate) fn goal_entry(&self) -> usize {
        self.index().entry(0, 0, 0, self.solved_slice())
    }

    /// The slice coordinate of the solved cube, in this table's kind of slice.
    pub(crate) fn solved_slice(&self) -> usize {
        self.table_slice(coords::slice_sorted(&CubieCube::SOLVED) as usize)
    }

    /// This table's slice coordinate from the sorted one (`placement * 24 + order`).
    #[inline]
    pub(crate) fn table_slice(&self, sorted: usize) -> usize {
        sorted / (SLICE_PERMS / self.size.orders())
    }

    /// The preset these tables are.
    pub fn size(&self) -> TableSize {
        self.size
    }

    /// The metric of their distances.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// Entries at each distance from solved (index = distance) up to two more than the base,
    /// then the count of every entry further away, whose distances the table does not hold
    /// (all read as `base + 3`). A table saved before builds stopped there holds every level;
    /// either way they add up to the entries.
    pub fn levels(&self) -> &[u64] {
        &self.levels
    }

    fn pruning_bytes(&self) -> &[u8] {
        self.pruning.as_slice()
    }

    /// A lower bound on `entry`'s distance (admissible), exact when it is one or two more than
    /// the base ([`blocked::bound`]).
    #[inline]
    pub(crate) fn bound(&self, entry: usize) -> u8 {
        blocked::bound(self.pruning_bytes(), self.base, entry)
    }

    /// The base of the entries: distances `base + 1` and `base + 2` are read exactly, those
    /// at most `base` as their block's least, the deeper ones as `base + 3`.
    pub fn base(&self) -> u8 {
        self.base
    }

    /// Asks for `entry`'s block to be fetched into the cache ([`godsearch_tables::prefetch`]).
    #[inline]
    pub(crate) fn prefetch(&self, entry: usize) {
        godsearch_tables::prefetch(self.pruning_bytes(), blocked::block_byte(entry));
    }

    /// Writes the saved form, [`TableSize::bytes`] long (the blocks of
    /// [`godsearch_tables::blocked`]; the base follows from the levels).
    pub fn write_to(&self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(self.pruning_bytes())
    }

    /// Takes a table of `size` in `metric` from a loaded file's payload (the file layer has
    /// verified the checksum; the caller, its identity), copied into huge pages or else used in
    /// place; the small tables are rebuilt. Refused when the size is wrong or the levels do not
    /// add up.
    pub fn from_loaded(
        size: TableSize,
        metric: Metric,
        table: LoadedTable,
    ) -> Result<Self, TablesError> {
        let found = table.payload().len();
        if found != size.bytes() {
            return Err(TablesError::Size {
                expected: size.bytes(),
                found,
            });
        }
        let levels = table.header().levels.clone();
        if levels.iter().sum::<u64>() != size.entries() as u64 {
            return Err(TablesError::Corrupt);
        }
        let tables =
            Self::small_tables(size, metric, TableBytes::Mapped(table).resident(), &levels);
        if tables.bound(tables.goal_entry()) != 0 {
            return Err(TablesError::Corrupt);
        }
        Ok(tables)
    }
}

/// How a table names a position: the graph of its coordinate.
pub(crate) enum TableIndex<'a> {
    /// `twist class x slice x flip`.
    FlipSlice(FlipSliceGraph<'a>),
    /// `corner class x slice x U/D flip`.
    CornerSlice(CornerSliceGraph<'a>),
}

/// A table's coordinate as the search reads it: the entry of an axis's raw coordinates.
pub(crate) trait Projection: Sync {
    /// Whether the entry depends on where the U corners are (the search tracks them only
    /// then).
    const BY_CORNERS: bool;

    /// The entry of the position with these raw coordinates; `slice` is the table's kind of
    /// slice, and the occupancy counts only when [`BY_CORNERS`](Self::BY_CORNERS).
    fn entry(&self, twist: usize, occupancy: usize, flip: usize, slice: usize) -> usize;
}

impl Projection for FlipSliceGraph<'_> {
    const BY_CORNERS: bool = false;

    #[inline]
    fn entry(&self, twist: usize, _: usize, flip: usize, slice: usize) -> usize {
        FlipSliceGraph::entry(self, twist, flip, slice)
    }
}

impl Projection for CornerSliceGraph<'_> {
    const BY_CORNERS: bool = true;

    #[inline]
    fn entry(&self, twist: usize, occupancy: usize, flip: usize, slice: usize) -> usize {
        CornerSliceGraph::entry(self, twist, occupancy, flip, slice)
    }
}

impl TableIndex<'_> {
    /// The entry of the position with these raw coordinates (see [`Projection::entry`]).
    pub fn entry(&self, twist: usize, occupancy: usize, flip: usize, slice: usize) -> usize {
        match self {
            TableIndex::FlipSlice(g) => Projection::entry(g, twist, occupancy, flip, slice),
            TableIndex::CornerSlice(g) => Projection::entry(g, twist, occupancy, flip, slice),
        }
    }
}
