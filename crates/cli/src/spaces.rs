//! From command-line words to puzzle spaces and table files: puzzle names, goals, boards, the
//! rank width to use, and the identity a table file must carry.

use crate::errors::bad_input;
use anyhow::{Context, Result};
use godsearch_core::RankedSpace;
use godsearch_enumerate::{table, Limits, NoProgress, Stop};
use godsearch_puzzles::cube::{Cube2Space, Metric};
use godsearch_puzzles::tiles::{Board, Shape, TileSpace};
use godsearch_puzzles::PuzzleName;
use godsearch_tables::{file, Encoding, LoadedTable, TableHeader, TwoBitTable};
use std::path::Path;

/// How tile positions are ranked; stored in table headers so a table is never read with another
/// ranking. Bump it whenever [`TileSpace`]'s ranking changes.
const TILE_RANKING: &str = "tiles rank=blank-cell*(N-1)!/2+lehmer-half v1";

/// How 2x2x2 positions are ranked (see [`Cube2Space`]); stored in table headers.
const CUBE2_RANKING: &str = "cube2 DBL fixed rank=perm7*729+twist6 v1";

/// The board size named by `name`; a cube name is refused with `what` the command offers cubes.
pub fn tile_shape(name: &str) -> Result<Shape> {
    match name.parse::<PuzzleName>()? {
        PuzzleName::Tiles(shape) => Ok(shape),
        PuzzleName::Cube(size) => {
            bad_input!("this command is for sliding-tile boards; {size} is a cube (see `godsearch bfs {size}` and `godsearch solve {size}`)")
        }
    }
}

/// The metric given with `--metric` (default: the half-turn metric).
pub fn cube_metric(text: Option<&str>) -> Result<Metric> {
    match text {
        Some(t) => Ok(t.parse::<Metric>()?),
        None => Ok(Metric::Htm),
    }
}

/// The puzzle identity written into (and required of) a 2x2x2 table file.
fn cube2_identity(space: &Cube2Space) -> String {
    format!("cube 2x2x2 metric {}", space.metric())
}

/// Saves a 2x2x2 distance table atomically.
pub fn save_cube2_table(
    path: &Path,
    space: &Cube2Space,
    table: &TwoBitTable,
    levels: &[u64],
) -> Result<()> {
    save_distance_table(path, cube2_identity(space), CUBE2_RANKING, table, levels)
}

/// Loads a 2x2x2 distance table and refuses it unless it was made for this metric and ranking.
pub fn load_cube2_table(path: &Path, space: &Cube2Space) -> Result<LoadedTable> {
    load_distance_table(path, &cube2_identity(space), CUBE2_RANKING)
}

/// The goal given with `--goal`, or the standard one.
pub fn tile_goal(shape: Shape, goal: Option<&str>) -> Result<Board> {
    match goal {
        Some(text) => Board::parse(shape, text).context("--goal"),
        None => Ok(Board::goal(shape)),
    }
}

/// A board that must reach `goal`.
pub fn solvable_board(goal: &Board, text: &str) -> Result<Board> {
    let quoted = || format!("board '{}'", godsearch_core::excerpt(text));
    let board = Board::parse(goal.shape(), text).with_context(quoted)?;
    board.check_solvable(goal).with_context(quoted)?;
    Ok(board)
}

/// A tile space with the narrowest rank type that holds it.
pub enum AnySpace {
    /// Up to 20 cells: 64-bit ranks.
    Narrow(TileSpace<u64>),
    /// 21 to 34 cells: 128-bit ranks.
    Wide(TileSpace<u128>),
}

impl AnySpace {
    /// The space of boards that reach `goal`.
    pub fn new(goal: &Board) -> Result<Self> {
        if let Ok(narrow) = TileSpace::<u64>::new(goal.clone()) {
            return Ok(AnySpace::Narrow(narrow));
        }
        match TileSpace::<u128>::new(goal.clone()) {
            Ok(wide) => Ok(AnySpace::Wide(wide)),
            Err(e) => bad_input!(
                "{e}; enumeration and tables need positions ranked in at most 128 bits (34 cells)"
            ),
        }
    }

    /// Exact number of positions.
    pub fn state_count(&self) -> u128 {
        match self {
            AnySpace::Narrow(s) => s.state_count(),
            AnySpace::Wide(s) => s.state_count(),
        }
    }
}

/// The puzzle identity written into (and required of) a table file.
pub fn table_identity(goal: &Board) -> String {
    format!("tiles {} goal {}", goal.shape(), goal.to_list())
}

/// Saves a distance table for `goal` atomically.
pub fn save_table(path: &Path, goal: &Board, table: &TwoBitTable, levels: &[u64]) -> Result<()> {
    save_distance_table(path, table_identity(goal), TILE_RANKING, table, levels)
}

/// Loads a distance table and refuses it unless it was made for `goal` with this ranking.
pub fn load_table(path: &Path, goal: &Board) -> Result<LoadedTable> {
    load_distance_table(path, &table_identity(goal), TILE_RANKING)
}

fn save_distance_table(
    path: &Path,
    puzzle: String,
    ranking: &str,
    table: &TwoBitTable,
    levels: &[u64],
) -> Result<()> {
    let header = TableHeader {
        puzzle,
        params: ranking.to_string(),
        encoding: Encoding::DistanceMod3,
        entries: godsearch_tables::DistanceMod3::len(table) as u64,
        levels: levels.to_vec(),
    };
    file::save(path, &header, |out| table.write_to(out))?;
    Ok(())
}

fn load_distance_table(path: &Path, puzzle: &str, ranking: &str) -> Result<LoadedTable> {
    let table = file::load(path)?;
    table.header().expect(path, puzzle, ranking)?;
    Ok(table)
}

/// The complete distance table of a small space, built in memory (no progress bar: callers use
/// it for spaces that take well under a second), with its number of levels (diameter + 1).
pub fn table_in_memory<P: RankedSpace>(space: &P) -> Result<(TwoBitTable, usize)> {
    let limits = Limits {
        max_depth: None,
        memory_bytes: u64::MAX,
        antipode_cap: 0,
    };
    let built = table::enumerate(space, &limits, &NoProgress)?;
    anyhow::ensure!(
        built.enumeration.stop == Stop::Complete,
        "in-memory table incomplete"
    );
    Ok((built.table, built.enumeration.levels.len()))
}
