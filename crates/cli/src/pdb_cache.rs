//! The table cache: one file per pattern database, named by board, goal and tiles, and one for
//! the two-phase solver's tables; validated on load. A file that is damaged or belongs to
//! anything else is rebuilt, never trusted.

use crate::progress::LevelBar;
use crate::spaces;
use anyhow::{Context, Result};
use godsearch_enumerate::pattern_db;
use godsearch_puzzles::tiles::{Board, Pattern};
use godsearch_search::tiles::TableBytes;
use godsearch_tables::{file, Encoding, TableHeader};
use godsearch_twophase::{Tables, TABLES_FORMAT};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Version of the pattern indexing written into cached files; bump when it changes.
const PDB_PARAMS_VERSION: &str = "v1";
/// A group whose build visits at most this many (placement, blank) states builds in a few
/// seconds at most (the 6-tile groups of 6-6-3 on 4x4: 57.7 million, all of 6-6-3 in about
/// 1.5 s on two cores), so `auto` may build it on the spot.
pub const QUICK_BUILD_STATES: u64 = 60_000_000;

/// How a database was obtained.
pub enum Origin {
    /// Read from a valid cached file.
    Cached,
    /// Built now (and saved).
    Built {
        /// Seconds the build took.
        seconds: f64,
        /// Why the cached file, if any, was not used.
        replaced: Option<String>,
    },
}

/// The cache folder.
pub struct PdbCache {
    dir: PathBuf,
}

/// `$XDG_CACHE_HOME/godsearch`, else `~/.cache/godsearch`, else `.godsearch-cache`.
fn default_dir() -> PathBuf {
    if let Some(xdg) = std::env::var_os("XDG_CACHE_HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(xdg).join("godsearch");
    }
    match std::env::var_os("HOME").filter(|v| !v.is_empty()) {
        Some(home) => PathBuf::from(home).join(".cache").join("godsearch"),
        None => PathBuf::from(".godsearch-cache"),
    }
}

/// FNV-1a, for short stable file names (the file's header holds the full identity).
fn fnv1a(text: &str) -> u32 {
    const OFFSET: u32 = 0x811c_9dc5;
    const PRIME: u32 = 0x0100_0193;
    text.bytes()
        .fold(OFFSET, |h, b| (h ^ b as u32).wrapping_mul(PRIME))
}

fn params(pattern: &Pattern) -> String {
    let tiles: Vec<String> = pattern.tiles().iter().map(|t| t.to_string()).collect();
    format!(
        "pdb tiles {} index k-permutation {PDB_PARAMS_VERSION}",
        tiles.join(",")
    )
}

impl PdbCache {
    /// The cache in `dir`, or in the default folder.
    pub fn new(dir: Option<&Path>) -> Self {
        Self {
            dir: dir.map_or_else(default_dir, Path::to_path_buf),
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, goal: &Board, pattern: &Pattern) -> PathBuf {
        let tiles: Vec<String> = pattern.tiles().iter().map(|t| t.to_string()).collect();
        self.dir.join(format!(
            "pdb-{}-{:08x}-{}.tbl",
            goal.shape(),
            fnv1a(&goal.to_list()),
            tiles.join("-")
        ))
    }

    /// The valid cached database of `pattern`, or why there is none.
    fn load(&self, goal: &Board, pattern: &Pattern) -> Result<TableBytes, String> {
        let path = self.path(goal, pattern);
        if !path.exists() {
            return Err("not cached".into());
        }
        let table = file::load(&path).map_err(|e| e.to_string())?;
        table
            .header()
            .expect(&path, &spaces::table_identity(goal), &params(pattern))
            .map_err(|e| e.to_string())?;
        if table.header().encoding != Encoding::Bytes || table.header().entries != pattern.entries()
        {
            return Err(format!("{}: wrong entry layout", path.display()));
        }
        Ok(TableBytes::Mapped(table))
    }

    /// Whether a valid database for `pattern` is cached.
    pub fn is_cached(&self, goal: &Board, pattern: &Pattern) -> bool {
        self.load(goal, pattern).is_ok()
    }

    /// The cached database, or a fresh build saved to the cache (`force` always builds).
    pub fn load_or_build(
        &self,
        goal: &Board,
        pattern: &Pattern,
        memory_bytes: u64,
        force: bool,
    ) -> Result<(TableBytes, Origin)> {
        let replaced = if force {
            None
        } else {
            match self.load(goal, pattern) {
                Ok(table) => return Ok((table, Origin::Cached)),
                Err(why) if why == "not cached" => None,
                Err(why) => Some(why),
            }
        };
        let bar = LevelBar::new();
        let started = Instant::now();
        let table = pattern_db::build(pattern, memory_bytes, &bar)?;
        let seconds = started.elapsed().as_secs_f64();
        bar.finish();
        std::fs::create_dir_all(&self.dir)
            .with_context(|| format!("creating {}", self.dir.display()))?;
        let header = TableHeader {
            puzzle: spaces::table_identity(goal),
            params: params(pattern),
            encoding: Encoding::Bytes,
            entries: pattern.entries(),
            levels: Vec::new(),
        };
        let path = self.path(goal, pattern);
        file::save(&path, &header, |out| out.write_all(&table))
            .with_context(|| format!("saving {}", path.display()))?;
        Ok((
            TableBytes::Owned(table),
            Origin::Built { seconds, replaced },
        ))
    }

    fn twophase_path(&self) -> PathBuf {
        self.dir.join("twophase-3x3x3.tbl")
    }

    /// The valid cached two-phase tables, or why there are none.
    fn load_twophase(&self) -> Result<Tables, String> {
        let path = self.twophase_path();
        if !path.exists() {
            return Err("not cached".into());
        }
        let table = file::load(&path).map_err(|e| e.to_string())?;
        table
            .header()
            .expect(&path, TWOPHASE_PUZZLE, TABLES_FORMAT)
            .map_err(|e| e.to_string())?;
        Tables::from_loaded(table).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The cached two-phase tables, or a fresh build (with a progress bar) saved to the cache.
    pub fn twophase_tables(&self) -> Result<(Tables, Origin)> {
        let replaced = match self.load_twophase() {
            Ok(tables) => return Ok((tables, Origin::Cached)),
            Err(why) if why == "not cached" => None,
            Err(why) => Some(why),
        };
        let bar = LevelBar::new();
        let started = Instant::now();
        let tables = Tables::build(&bar);
        let seconds = started.elapsed().as_secs_f64();
        bar.finish();
        std::fs::create_dir_all(&self.dir)
            .with_context(|| format!("creating {}", self.dir.display()))?;
        let header = TableHeader {
            puzzle: TWOPHASE_PUZZLE.into(),
            params: TABLES_FORMAT.into(),
            encoding: Encoding::Bytes,
            entries: Tables::byte_len() as u64,
            levels: tables.levels().to_vec(),
        };
        let path = self.twophase_path();
        file::save(&path, &header, |out| tables.write_to(out))
            .with_context(|| format!("saving {}", path.display()))?;
        Ok((tables, Origin::Built { seconds, replaced }))
    }
}

/// The puzzle identity of the two-phase tables file.
const TWOPHASE_PUZZLE: &str = "cube 3x3x3 two-phase";
