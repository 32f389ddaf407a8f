//! Distance tables as files: the identity a table carries (puzzle, goal, ranking), saving
//! atomically and loading only what matches; and small tables built in memory. Each puzzle's
//! own identity (a board's goal, the 2x2x2's metric, a definition file's moves) is in its
//! registry module.

use crate::AppResult;
use godsearch_core::RankedSpace;
use godsearch_enumerate::{table, Limits, NoProgress, Stop};
/// The table file format's own rules that front ends apply to paths: what a file is, whether a
/// target may be written, which folder a table's temp files go in, and removing those a
/// stopped process left.
pub use godsearch_tables::file;
use godsearch_tables::{DistanceMod3, Encoding, LoadedTable, TableHeader, TwoBitTable};
use std::path::Path;

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

/// Saves `table` under `puzzle` and `ranking` atomically (temp file, fsync, rename): what
/// each puzzle's own table files are saved through.
pub(crate) fn save(
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

/// Loads a table, refused unless it carries `puzzle` and `ranking`.
pub(crate) fn load(path: &Path, puzzle: &str, ranking: &str) -> AppResult<LoadedTable> {
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
