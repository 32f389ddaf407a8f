//! The boards' spaces for tables and enumeration (the narrowest rank type that holds them),
//! and the identity their table files carry.

use crate::tables::{load, save};
use crate::AppResult;
use godsearch_core::RankedSpace;
use godsearch_puzzles::tiles::{Board, TileSpace, TILE_RANKING};
use godsearch_tables::{LoadedTable, TwoBitTable};
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
