//! The table cache: one file per pattern database, named by board, goal and tiles, and one for
//! the two-phase solver's tables; validated on load. A file that is damaged or belongs to
//! anything else is rebuilt, never trusted.
//!
//! The cache only saves work: a folder that cannot be created or written (read-only, or a file
//! given as the folder) leaves the freshly built tables in memory, and the caller is told why
//! they were not saved ([`Origin::Built::not_saved`]). Before saving, temporary files that
//! killed runs left in the folder are removed once they are [`STALE_TEMP_AGE`] old.
//!
//! The folder is the caller's choice: front ends pick it (the CLI: `--cache` or the user's
//! cache folder).

use crate::tables::tile_identity;
use crate::AppResult;
use godsearch_core::Progress;
use godsearch_enumerate::pattern_db;
use godsearch_puzzles::tiles::{Board, Pattern};
use godsearch_search::tiles::TableBytes;
use godsearch_subgoal::{Plan, SubgoalSolver};
use godsearch_tables::{file, Encoding, TableHeader};
use godsearch_twophase::{Tables, TABLES_FORMAT};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A temporary table file nobody has written to for this long was left by a killed run (a live
/// writer touches its file continuously).
pub const STALE_TEMP_AGE: Duration = Duration::from_secs(15 * 60);
/// A group whose build visits at most this many (placement, blank) states builds in a few
/// seconds at most (the 6-tile groups of 6-6-3 on 4x4: 57.7 million, all of 6-6-3 in about
/// 1.5 s on two cores), so `auto` may build it on the spot.
pub const QUICK_BUILD_STATES: u64 = 60_000_000;
/// Version of the subgoal stage tables' layout (stage order, placement ranks, a byte each);
/// change it whenever either changes.
const STAGE_TABLES_FORMAT: &str = "subgoal stage tables placement-rank bytes v1";
/// Plans whose stage tables have fewer entries build in well under a tenth of a second (about
/// 20 ns an entry): faster than reading a file, so they are not cached.
pub const MIN_CACHED_STAGE_ENTRIES: u64 = 1 << 22;
/// The puzzle identity of the two-phase tables file.
const TWOPHASE_PUZZLE: &str = "cube 3x3x3 two-phase";

/// How a table was obtained.
#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    /// Read from a valid cached file.
    Cached,
    /// Built now (and saved).
    Built {
        /// Seconds the build took.
        seconds: f64,
        /// Why the cached file, if any, was not used.
        replaced: Option<String>,
        /// Why the build could not be saved to the cache, if it could not.
        not_saved: Option<String>,
    },
}

/// The cache folder.
#[derive(Debug, Clone)]
pub struct TableCache {
    dir: PathBuf,
}

/// FNV-1a, for short stable file names (the file's header holds the full identity).
fn fnv1a(text: &str) -> u32 {
    const OFFSET: u32 = 0x811c_9dc5;
    const PRIME: u32 = 0x0100_0193;
    text.bytes()
        .fold(OFFSET, |h, b| (h ^ b as u32).wrapping_mul(PRIME))
}

impl TableCache {
    /// The cache in `dir` (created when something is first saved).
    pub fn new(dir: PathBuf) -> Self {
        Self { dir }
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

    /// Saves a table into the cache folder (creating it, clearing stale temporary files first);
    /// the reason, in words, when that fails.
    fn save(
        &self,
        path: &Path,
        header: &TableHeader,
        write_payload: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
    ) -> Option<String> {
        if let Err(e) = std::fs::create_dir_all(&self.dir) {
            return Some(format!("creating {}: {e}", self.dir.display()));
        }
        // Clearing is housekeeping: a folder we cannot list still gets the save tried.
        let _ = file::remove_stale_temp_files(&self.dir, STALE_TEMP_AGE);
        file::save(path, header, write_payload)
            .err()
            .map(|e| e.to_string())
    }

    /// The valid cached database of `pattern`, or why there is none (`None`: no file).
    fn load(&self, goal: &Board, pattern: &Pattern) -> Result<TableBytes, Option<String>> {
        let path = self.path(goal, pattern);
        if !path.exists() {
            return Err(None);
        }
        let table = file::load(&path).map_err(|e| Some(e.to_string()))?;
        table
            .header()
            .expect(&path, &tile_identity(goal), &pattern.table_params())
            .map_err(|e| Some(e.to_string()))?;
        if table.header().encoding != Encoding::Bytes || table.header().entries != pattern.entries()
        {
            return Err(Some(format!("{}: wrong entry layout", path.display())));
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
        progress: &dyn Progress,
    ) -> AppResult<(TableBytes, Origin)> {
        let replaced = if force {
            None
        } else {
            match self.load(goal, pattern) {
                Ok(table) => return Ok((table, Origin::Cached)),
                Err(why) => why,
            }
        };
        let started = Instant::now();
        let table = pattern_db::build(pattern, memory_bytes, progress)?;
        let seconds = started.elapsed().as_secs_f64();
        let header = TableHeader {
            puzzle: tile_identity(goal),
            params: pattern.table_params(),
            encoding: Encoding::Bytes,
            entries: pattern.entries(),
            levels: Vec::new(),
        };
        let not_saved = self.save(&self.path(goal, pattern), &header, |out| {
            out.write_all(&table)
        });
        let origin = Origin::Built {
            seconds,
            replaced,
            not_saved,
        };
        Ok((TableBytes::Owned(table), origin))
    }

    fn twophase_path(&self) -> PathBuf {
        self.dir.join("twophase-3x3x3.tbl")
    }

    /// The valid cached two-phase tables, or why there are none (`None`: no file).
    fn load_twophase(&self) -> Result<Tables, Option<String>> {
        let path = self.twophase_path();
        if !path.exists() {
            return Err(None);
        }
        let table = file::load(&path).map_err(|e| Some(e.to_string()))?;
        table
            .header()
            .expect(&path, TWOPHASE_PUZZLE, TABLES_FORMAT)
            .map_err(|e| Some(e.to_string()))?;
        Tables::from_loaded(table).map_err(|e| Some(format!("{}: {e}", path.display())))
    }

    /// The cached two-phase tables, or a fresh build saved to the cache.
    pub fn twophase_tables(&self, progress: &dyn Progress) -> (Tables, Origin) {
        let replaced = match self.load_twophase() {
            Ok(tables) => return (tables, Origin::Cached),
            Err(why) => why,
        };
        let started = Instant::now();
        let tables = Tables::build(progress);
        let seconds = started.elapsed().as_secs_f64();
        let header = TableHeader {
            puzzle: TWOPHASE_PUZZLE.into(),
            params: TABLES_FORMAT.into(),
            encoding: Encoding::Bytes,
            entries: Tables::byte_len() as u64,
            levels: tables.levels().to_vec(),
        };
        let not_saved = self.save(&self.twophase_path(), &header, |out| tables.write_to(out));
        let origin = Origin::Built {
            seconds,
            replaced,
            not_saved,
        };
        (tables, origin)
    }

    fn stages_path(&self, plan: &Plan) -> PathBuf {
        let goal = plan.goal();
        self.dir.join(format!(
            "subgoal-{}-{:08x}-{:08x}.tbl",
            goal.shape(),
            fnv1a(&goal.to_list()),
            fnv1a(&plan.to_text())
        ))
    }

    fn stages_params(plan: &Plan) -> String {
        format!("{STAGE_TABLES_FORMAT} plan {}", plan.to_text())
    }

    /// The solver of `plan` with its stage tables from the cache, or built and saved to the
    /// cache. Plans of fewer than [`MIN_CACHED_STAGE_ENTRIES`] table entries are built and
    /// never cached, which is faster than a file: their origin is `None`.
    pub fn subgoal_solver(&self, plan: Plan) -> (SubgoalSolver, Option<Origin>) {
        if SubgoalSolver::table_entries(&plan) < MIN_CACHED_STAGE_ENTRIES {
            return (SubgoalSolver::new(plan), None);
        }
        let path = self.stages_path(&plan);
        let identity = tile_identity(plan.goal());
        let params = Self::stages_params(&plan);
        let replaced = if path.exists() {
            let loaded = file::load(&path).map_err(|e| e.to_string()).and_then(|t| {
                t.header()
                    .expect(&path, &identity, &params)
                    .map_err(|e| e.to_string())?;
                Ok(t)
            });
            match loaded {
                Ok(table) => match SubgoalSolver::with_tables(plan.clone(), table.payload()) {
                    Some(solver) => return (solver, Some(Origin::Cached)),
                    None => Some(format!(
                        "{}: the tables do not fit the plan",
                        path.display()
                    )),
                },
                Err(why) => Some(why),
            }
        } else {
            None
        };
        let started = Instant::now();
        let solver = SubgoalSolver::new(plan);
        let seconds = started.elapsed().as_secs_f64();
        let tables = solver.tables();
        let header = TableHeader {
            puzzle: identity,
            params,
            encoding: Encoding::Bytes,
            entries: tables.len() as u64,
            levels: Vec::new(),
        };
        let not_saved = self.save(&path, &header, |out| out.write_all(&tables));
        let origin = Origin::Built {
            seconds,
            replaced,
            not_saved,
        };
        (solver, Some(origin))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use godsearch_puzzles::tiles::Shape;

    #[test]
    fn stage_tables_are_cached_validated_and_rebuilt_when_damaged() {
        let dir = tempfile::tempdir().unwrap();
        let cache = TableCache::new(dir.path().to_path_buf());
        let goal = Board::goal(Shape::new(10, 10).unwrap());
        let plan = Plan::default_for(&goal);
        assert!(SubgoalSolver::table_entries(&plan) >= MIN_CACHED_STAGE_ENTRIES);
        let (built, origin) = cache.subgoal_solver(plan.clone());
        assert!(matches!(
            origin,
            Some(Origin::Built {
                replaced: None,
                not_saved: None,
                ..
            })
        ));
        let (cached, origin) = cache.subgoal_solver(plan.clone());
        assert_eq!(origin, Some(Origin::Cached));
        assert_eq!(cached.tables(), built.tables());
        // One byte changed: the checksum refuses the file and the tables are built again.
        let path = cache.stages_path(&plan);
        let mut bytes = std::fs::read(&path).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 1;
        std::fs::write(&path, bytes).unwrap();
        let (rebuilt, origin) = cache.subgoal_solver(plan);
        assert!(matches!(
            origin,
            Some(Origin::Built {
                replaced: Some(_),
                ..
            })
        ));
        assert_eq!(rebuilt.tables(), built.tables());
    }

    #[test]
    fn small_plans_are_built_not_cached() {
        let dir = tempfile::tempdir().unwrap();
        let cache = TableCache::new(dir.path().to_path_buf());
        let goal = Board::goal(Shape::new(3, 3).unwrap());
        let (_, origin) = cache.subgoal_solver(Plan::two_stage(&goal).unwrap());
        assert_eq!(origin, None);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
