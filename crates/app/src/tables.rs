//! Distance tables as files: the identity a table carries (puzzle, goal, ranking), saving
//! atomically and loading only what matches; and small tables built in memory.

use crate::AppResult;
use godsearch_core::{RankInt, RankedSpace};
use godsearch_enumerate::{table, Limits, NoProgress, Stop};
use godsearch_orbit::OrbitSpace;
use godsearch_puzzles::cube::{Cube2Space, CUBE2_RANKING};
use godsearch_puzzles::tiles::{Board, TileSpace, TILE_RANKING};
/// The table file format's own rules that front ends apply to paths: what a file is, whether a
/// target may be written, which folder a table's temp files go in, and removing those a
/// stopped process left.
pub use godsearch_tables::file;
use godsearch_tables::{DistanceMod3, Encoding, LoadedTable, TableHeader, TwoBitTable};
use std::path::Path;

/// A tile space with the narrowest rank type that holds it.
pub enum AnySpace {
    /// Up to 20 cells: 64-bit ranks.
    Narrow(TileSpace<u64>),
    /// 21 to 34 cells: 128-bit ranks.
    Wide(TileSpace<u128>),
}

impl AnySpace {
    /// The space of boards that reach `goal`; a board too large for 128-bit ranks is refused.
    pub fn new(goal: &Board) -> AppResult<Self> {
        if let Ok(narrow) = TileSpace::<u64>::new(goal.clone()) {
            return Ok(AnySpace::Narrow(narrow));
        }
        match TileSpace::<u128>::new(goal.clone()) {
            Ok(wide) => Ok(AnySpace::Wide(wide)),
            Err(e) => Err(crate::AppError::Input(format!(
                "{e}; enumeration and tables need positions ranked in at most 128 bits (34 cells)"
            ))),
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

/// The puzzle identity written into (and required of) a tile table or database file.
pub fn tile_identity(goal: &Board) -> String {
    format!("tiles {} goal {}", goal.shape(), goal.to_list())
}

/// The puzzle identity written into (and required of) a 2x2x2 table file.
pub(crate) fn cube2_identity(space: &Cube2Space) -> String {
    format!("cube 2x2x2 metric {}", space.metric())
}

/// What a distance table of a ranked space is saved under and must carry to be loaded: what
/// the ranks mean (`puzzle`) and how they are computed (`ranking`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableIdentity {
    /// The puzzle, generators and metric, and a checksum of the moves where they come from a
    /// file.
    pub puzzle: String,
    /// The ranking's name and version.
    pub ranking: String,
}

/// The identity of a definition puzzle's table over `space` (its generators' moves in
/// `metric`): its name, generators and metric, and a CRC-32 of its orbits, solved pattern and
/// every move, so that a table made from an edited file is refused.
pub fn definition_identity<R: RankInt>(
    name: &str,
    space: &OrbitSpace<R>,
    metric: &str,
) -> TableIdentity {
    let mut described = Vec::new();
    for orbit in space.orbits() {
        described.extend_from_slice(orbit.name.as_bytes());
        described.push(0);
        described.extend_from_slice(&(orbit.pieces as u64).to_le_bytes());
        described.push(orbit.orientations);
    }
    for part in &space.solved().orbits {
        described.extend_from_slice(&part.pieces);
        described.extend_from_slice(&part.orientation);
    }
    for m in space.moves() {
        described.extend_from_slice(m.name.as_bytes());
        described.push(0);
        for part in &m.transformation.orbits {
            described.extend_from_slice(&part.permutation);
            described.extend_from_slice(&part.orientation);
        }
    }
    TableIdentity {
        puzzle: format!(
            "definition {name} generators {} metric {metric} moves {:08x}",
            space.generators().join(","),
            file::checksum_of(&described)
        ),
        ranking: ORBIT_RANKING.to_string(),
    }
}

/// The version of [`OrbitSpace`]'s ranking: in table identities and the run names of levels on
/// disk, so that both change when the ranks would.
pub const ORBIT_RANKING: &str = "orbit components v1";

/// Saves a ranked space's distance table under `identity` atomically (temp file, fsync,
/// rename).
pub fn save_ranked_table(
    path: &Path,
    identity: &TableIdentity,
    table: &TwoBitTable,
    levels: &[u64],
) -> AppResult<()> {
    save(
        path,
        identity.puzzle.clone(),
        &identity.ranking,
        table,
        levels,
    )
}

/// Loads a ranked space's distance table, refused unless it carries `identity`.
pub fn load_ranked_table(path: &Path, identity: &TableIdentity) -> AppResult<LoadedTable> {
    load(path, &identity.puzzle, &identity.ranking)
}

/// Saves a tile distance table for `goal` atomically (temp file, fsync, rename).
pub fn save_tile_table(
    path: &Path,
    goal: &Board,
    table: &TwoBitTable,
    levels: &[u64],
) -> AppResult<()> {
    save(path, tile_identity(goal), TILE_RANKING, table, levels)
}

/// Loads a tile distance table, refused unless it was made for `goal` with this ranking.
pub fn load_tile_table(path: &Path, goal: &Board) -> AppResult<LoadedTable> {
    load(path, &tile_identity(goal), TILE_RANKING)
}

/// Saves a 2x2x2 distance table atomically.
pub fn save_cube2_table(
    path: &Path,
    space: &Cube2Space,
    table: &TwoBitTable,
    levels: &[u64],
) -> AppResult<()> {
    save(path, cube2_identity(space), CUBE2_RANKING, table, levels)
}

/// Loads a 2x2x2 distance table, refused unless it was made for this metric and ranking.
pub fn load_cube2_table(path: &Path, space: &Cube2Space) -> AppResult<LoadedTable> {
    load(path, &cube2_identity(space), CUBE2_RANKING)
}

fn save(
    path: &Path,
    puzzle: String,
    ranking: &str,
    table: &TwoBitTable,
    levels: &[u64],
) -> AppResult<()> {
    let header = TableHeader {
        puzzle,
        params: ranking.to_string(),
        encoding: Encoding::DistanceMod3,
        entries: DistanceMod3::len(table) as u64,
        levels: levels.to_vec(),
    };
    file::save(path, &header, |out| table.write_to(out))?;
    Ok(())
}

fn load(path: &Path, puzzle: &str, ranking: &str) -> AppResult<LoadedTable> {
    let table = file::load(path)?;
    table.header().expect(path, puzzle, ranking)?;
    Ok(table)
}

/// The complete distance table of a small space, built in memory without progress (callers
/// use it for spaces that take well under a second), with its number of levels
/// (diameter + 1).
pub fn table_in_memory<P: RankedSpace>(space: &P) -> AppResult<(TwoBitTable, usize)> {
    let limits = Limits {
        max_depth: None,
        memory_bytes: u64::MAX,
        antipode_cap: 0,
        count_last: false,
    };
    let built = table::enumerate(space, &limits, &NoProgress)?;
    if built.enumeration.stop != Stop::Complete {
        return Err(crate::AppError::Check(
            "an unlimited in-memory table stopped early".into(),
        ));
    }
    Ok((built.table, built.enumeration.levels.len()))
}
