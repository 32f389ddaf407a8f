//! The identity a 2x2x2 table file carries, and saving and loading one.

use crate::tables::{load, save};
use crate::AppResult;
use godsearch_puzzles::cube::{Cube2Space, CUBE2_RANKING};
use godsearch_tables::{LoadedTable, TwoBitTable};
use std::path::Path;

/// The puzzle identity written into (and required of) a 2x2x2 table file.
pub(crate) fn cube2_identity(space: &Cube2Space) -> String {
    format!("cube 2x2x2 metric {}", space.metric())
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
