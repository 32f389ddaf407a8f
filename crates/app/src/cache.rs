//! The table cache: one file per pattern database, named by board, goal and tiles, one for the
//! two-phase solver's tables and one for each optimal-solver table (size and metric);
//! validated on load. A file that is damaged or belongs to
//! anything else is rebuilt, never trusted.
//!
//! The cache only saves work: a folder that cannot be created or written (read-only, or a file
//! given as the folder) leaves the freshly built tables in memory, and the caller is told why
//! they were not saved ([`Origin::Built::not_saved`]). Before saving, temporary files that
//! killed runs left in the folder are removed once they are [`STALE_TEMP_AGE`] old.
//!
//! **One build for many runs.** Before building a missing table, a run takes an exclusive lock
//! (flock) on the table's `.lock` file beside it; a second run that needs the same table waits
//! for the lock (saying so through [`Progress::detail`]), then finds the file the first one
//! saved and reads it ([`Origin::Cached`]). Without the lock, two runs each built their own copy
//! (2.7 GB for 7-8) at the same time.
//!
//! [`TableCache::entries`] lists what the folder holds, read from each file's header, and
//! [`TableCache::remove`] deletes an entry, for `cache list` and `cache clean`.
//!
//! The folder is the caller's choice: front ends pick it (the CLI: `--cache` or the user's
//! cache folder).

use crate::registry::tiles::tables::tile_identity;
use crate::AppResult;
use godsearch_core::{Cancelled, Progress};
use godsearch_enumerate::pattern_db;
use godsearch_puzzles::cube::Metric;
use godsearch_puzzles::tiles::{Board, Pattern};
use godsearch_search::tiles::TableBytes;
use godsearch_subgoal::{Plan, SubgoalSolver};
use godsearch_tables::LoadedTable;
use godsearch_tables::{file, Encoding, TableHeader};
use godsearch_twophase::optimal::{OptimalTables, TableSize};
use godsearch_twophase::{Tables, TABLES_FORMAT};
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

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

/// An [`Origin`] as a report lists it: `cached` or `built`, the seconds the build took (0
/// when cached), why a cached file was replaced, and why the build was not saved.
pub fn origin_parts(origin: Origin) -> (&'static str, f64, Option<String>, Option<String>) {
    match origin {
        Origin::Cached => ("cached", 0.0, None, None),
        Origin::Built {
            seconds,
            replaced,
            not_saved,
        } => ("built", seconds, replaced, not_saved),
    }
}

/// Writes a table's payload.
type PayloadWriter<'t> = dyn FnOnce(&mut dyn std::io::Write) -> std::io::Result<()> + 't;

/// Where a cube solver's tables are cached and what their header must say.
struct CubeTable {
    path: PathBuf,
    puzzle: String,
    params: &'static str,
    /// The header's entry count: bytes of payload.
    entries: u64,
}

/// The cache folder.
#[derive(Debug, Clone)]
pub struct TableCache {
    dir: PathBuf,
}

/// FNV-1a, for short stable file names (the file's header holds the full identity).
fn fnv1a(text: &str) -> u32 {
    godsearch_core::fingerprint::fnv1a(text.as_bytes())
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

    /// The build lock of the table at `path`, held until the value is dropped; `None` when the
    /// folder or the lock file cannot be made (the table is then built without one, and not
    /// saved either). Waits, saying so through `progress`, while another run holds it.
    fn build_lock(&self, path: &Path, progress: &dyn Progress) -> Option<BuildLock> {
        std::fs::create_dir_all(&self.dir).ok()?;
        let path = lock_path(path);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .ok()?;
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => {}
            Err(fs4::TryLockError::WouldBlock) => {
                progress.detail("waiting for another godsearch that is building this table");
                fs4::FileExt::lock(&file).ok()?;
            }
            Err(fs4::TryLockError::Error(_)) => return None,
        }
        Some(BuildLock { _file: file, path })
    }

    /// The valid cached database of `pattern`, or why there is none (`None`: no file).
    fn load(&self, goal: &Board, pattern: &Pattern) -> Result<TableBytes, Option<String>> {
        let path = self.path(goal, pattern);
        let params = pattern.table_params();
        load_bytes(&path, &tile_identity(goal), &params, pattern.entries())
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
        let named = NamedBytes {
            path: self.path(goal, pattern),
            puzzle: tile_identity(goal),
            params: pattern.table_params(),
            entries: pattern.entries(),
        };
        let build = || Ok(pattern_db::build(pattern, memory_bytes, progress)?);
        self.bytes_or_build(named, force, build, progress)
    }

    fn definition_path(&self, puzzle: &str, params: &str) -> PathBuf {
        self.dir.join(format!(
            "pdb-definition-{:08x}-{:08x}.{TABLE_EXTENSION}",
            fnv1a(puzzle),
            fnv1a(params)
        ))
    }

    /// A definition puzzle's pattern database of `entries` bytes, its header saying `puzzle`
    /// (the puzzle, its generators, metric and moves) and `params` (the projection): the
    /// cached one (unless `force`), or `build`'s, saved to the cache. A file whose header or
    /// length differs is rebuilt, never trusted.
    pub fn definition_database(
        &self,
        puzzle: &str,
        params: &str,
        entries: u64,
        force: bool,
        build: impl FnOnce() -> AppResult<Vec<u8>>,
        progress: &dyn Progress,
    ) -> AppResult<(TableBytes, Origin)> {
        let named = NamedBytes {
            path: self.definition_path(puzzle, params),
            puzzle: puzzle.to_string(),
            params: params.to_string(),
            entries,
        };
        self.bytes_or_build(named, force, build, progress)
    }

    /// The definition pattern database [`definition_database`](Self::definition_database)
    /// would read, if the cache holds a valid one (`None`: no file); never builds. `Err` says
    /// why the file there cannot be used (damaged, or written for something else); it is left
    /// as it is.
    pub fn cached_definition_database(
        &self,
        puzzle: &str,
        params: &str,
        entries: u64,
    ) -> Result<Option<TableBytes>, String> {
        let path = self.definition_path(puzzle, params);
        match load_bytes(&path, puzzle, params, entries) {
            Ok(table) => Ok(Some(table)),
            Err(None) => Ok(None),
            Err(Some(why)) => Err(why),
        }
    }

    /// The table of a byte an entry at `named.path`, read if valid, else built under the
    /// build lock (read after all if another run saved it meanwhile) and saved.
    fn bytes_or_build(
        &self,
        named: NamedBytes,
        force: bool,
        build: impl FnOnce() -> AppResult<Vec<u8>>,
        progress: &dyn Progress,
    ) -> AppResult<(TableBytes, Origin)> {
        let NamedBytes {
            path,
            puzzle,
            params,
            entries,
        } = named;
        let load = || load_bytes(&path, &puzzle, &params, entries);
        if !force {
            if let Ok(table) = load() {
                return Ok((table, Origin::Cached));
            }
        }
        let _lock = self.build_lock(&path, progress);
        // Another run may have built it while this one waited for the lock.
        let replaced = if force {
            None
        } else {
            match load() {
                Ok(table) => return Ok((table, Origin::Cached)),
                Err(why) => why,
            }
        };
        let started = Instant::now();
        let table = build()?;
        let seconds = started.elapsed().as_secs_f64();
        let header = TableHeader {
            puzzle,
            params,
            encoding: Encoding::Bytes,
            entries,
            levels: Vec::new(),
        };
        let not_saved = self.save(&path, &header, |out| out.write_all(&table));
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

    /// The cached two-phase tables, or a fresh build saved to the cache; `Cancelled` (and
    /// nothing saved) when `progress` stops the build.
    pub fn twophase_tables(&self, progress: &dyn Progress) -> Result<(Tables, Origin), Cancelled> {
        let table = CubeTable {
            path: self.twophase_path(),
            puzzle: TWOPHASE_PUZZLE.into(),
            params: TABLES_FORMAT,
            entries: Tables::byte_len() as u64,
        };
        self.cube_tables(
            &table,
            progress,
            |loaded| Tables::from_loaded(loaded).map_err(|e| e.to_string()),
            || Tables::build(progress),
            |t| (t.levels().to_vec(), Box::new(|out| t.write_to(out))),
        )
    }

    fn optimal_path(&self, size: TableSize, metric: Metric) -> PathBuf {
        self.dir.join(format!(
            "optimal-3x3x3-{}-{}.tbl",
            metric.name(),
            size.name()
        ))
    }

    /// The cached pruning table of the optimal 3x3x3 solver of this size and metric, or a
    /// fresh build saved to the cache; `Cancelled` (and nothing saved) when `progress` stops
    /// the build.
    pub fn optimal_tables(
        &self,
        size: TableSize,
        metric: Metric,
        progress: &dyn Progress,
    ) -> Result<(OptimalTables, Origin), Cancelled> {
        let table = CubeTable {
            path: self.optimal_path(size, metric),
            puzzle: size.identity(metric),
            params: size.format(),
            entries: size.bytes() as u64,
        };
        self.cube_tables(
            &table,
            progress,
            |loaded| OptimalTables::from_loaded(size, metric, loaded).map_err(|e| e.to_string()),
            || OptimalTables::build(size, metric, progress),
            |t| (t.levels().to_vec(), Box::new(|out| t.write_to(out))),
        )
    }

    /// The valid cached tables of `table`, or why there are none (`None`: no file).
    fn load_cube_tables<T>(
        &self,
        table: &CubeTable,
        from_loaded: &impl Fn(LoadedTable) -> Result<T, String>,
    ) -> Result<T, Option<String>> {
        let path = &table.path;
        let loaded = load_checked(path, &table.puzzle, table.params)?;
        from_loaded(loaded).map_err(|e| Some(format!("{}: {e}", path.display())))
    }

    /// A cube solver's tables from the cache, or built (under the build lock) and saved; a
    /// cancelled build saves nothing.
    fn cube_tables<T>(
        &self,
        table: &CubeTable,
        progress: &dyn Progress,
        from_loaded: impl Fn(LoadedTable) -> Result<T, String>,
        build: impl FnOnce() -> Result<T, Cancelled>,
        saved_form: impl for<'t> Fn(&'t T) -> (Vec<u64>, Box<PayloadWriter<'t>>),
    ) -> Result<(T, Origin), Cancelled> {
        if let Ok(tables) = self.load_cube_tables(table, &from_loaded) {
            return Ok((tables, Origin::Cached));
        }
        let _lock = self.build_lock(&table.path, progress);
        // Another run may have built them while this one waited for the lock.
        let replaced = match self.load_cube_tables(table, &from_loaded) {
            Ok(tables) => return Ok((tables, Origin::Cached)),
            Err(why) => why,
        };
        let started = Instant::now();
        let tables = build()?;
        let seconds = started.elapsed().as_secs_f64();
        let (levels, write) = saved_form(&tables);
        let header = TableHeader {
            puzzle: table.puzzle.clone(),
            params: table.params.into(),
            encoding: Encoding::Bytes,
            entries: table.entries,
            levels,
        };
        let not_saved = self.save(&table.path, &header, write);
        let origin = Origin::Built {
            seconds,
            replaced,
            not_saved,
        };
        Ok((tables, origin))
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

    /// The solver of `plan` with its cached stage tables, or why there is none (`None`: no
    /// file).
    fn load_stages(
        &self,
        plan: &Plan,
        path: &Path,
        identity: &str,
        params: &str,
    ) -> Result<SubgoalSolver, Option<String>> {
        let table = load_checked(path, identity, params)?;
        SubgoalSolver::with_tables(plan.clone(), table.payload()).ok_or_else(|| {
            Some(format!(
                "{}: the tables do not fit the plan",
                path.display()
            ))
        })
    }

    fn stages_params(plan: &Plan) -> String {
        format!("{STAGE_TABLES_FORMAT} plan {}", plan.to_text())
    }

    /// The solver of `plan` with its stage tables from the cache, or built and saved to the
    /// cache. Plans of fewer than [`MIN_CACHED_STAGE_ENTRIES`] table entries are built and
    /// never cached, which is faster than a file: their origin is `None`. `Cancelled` (and
    /// nothing saved) when `progress` stops the build.
    pub fn subgoal_solver(
        &self,
        plan: Plan,
        progress: &dyn Progress,
    ) -> Result<(SubgoalSolver, Option<Origin>), Cancelled> {
        if SubgoalSolver::table_entries(&plan) < MIN_CACHED_STAGE_ENTRIES {
            return Ok((SubgoalSolver::build(plan, progress)?, None));
        }
        let path = self.stages_path(&plan);
        let identity = tile_identity(plan.goal());
        let params = Self::stages_params(&plan);
        if let Ok(solver) = self.load_stages(&plan, &path, &identity, &params) {
            return Ok((solver, Some(Origin::Cached)));
        }
        let _lock = self.build_lock(&path, progress);
        // Another run may have built them while this one waited for the lock.
        let replaced = match self.load_stages(&plan, &path, &identity, &params) {
            Ok(solver) => return Ok((solver, Some(Origin::Cached))),
            Err(why) => why,
        };
        let started = Instant::now();
        let solver = SubgoalSolver::build(plan, progress)?;
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
        Ok((solver, Some(origin)))
    }
}

/// A held build lock. Dropping it deletes the lock file, then lets go: a run that was waiting
/// on it then finds the saved table (it looks again once it holds the lock), and a run that
/// comes later finds the table before it looks for a lock. Only a killed run leaves a lock
/// file behind (`cache clean` removes it).
struct BuildLock {
    _file: File,
    path: PathBuf,
}

impl Drop for BuildLock {
    fn drop(&mut self) {
        // A lock file left behind only costs a directory entry.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Where a table of a byte an entry is cached, and what its header must say.
struct NamedBytes {
    path: PathBuf,
    puzzle: String,
    params: String,
    entries: u64,
}

/// The valid table file at `path` (its checksum verified) whose header says `puzzle` and
/// `params`, or why there is none (`None`: no file).
fn load_checked(path: &Path, puzzle: &str, params: &str) -> Result<LoadedTable, Option<String>> {
    if !path.exists() {
        return Err(None);
    }
    let table = file::load(path).map_err(|e| Some(e.to_string()))?;
    table
        .header()
        .expect(path, puzzle, params)
        .map_err(|e| Some(e.to_string()))?;
    Ok(table)
}

/// The valid table of `entries` bytes at `path` whose header says `puzzle` and `params`, or
/// why there is none (`None`: no file).
fn load_bytes(
    path: &Path,
    puzzle: &str,
    params: &str,
    entries: u64,
) -> Result<TableBytes, Option<String>> {
    let table = load_checked(path, puzzle, params)?;
    if table.header().encoding != Encoding::Bytes || table.header().entries != entries {
        return Err(Some(format!("{}: wrong entry layout", path.display())));
    }
    Ok(TableBytes::Mapped(table))
}

/// The lock file beside the table at `path`, taken while it is built.
fn lock_path(path: &Path) -> PathBuf {
    path.with_extension(LOCK_EXTENSION)
}

/// The extension of table files in the cache, and of their build locks.
const TABLE_EXTENSION: &str = "tbl";
const LOCK_EXTENSION: &str = "lock";

/// What a file in the cache folder is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheKind {
    /// A pattern database.
    PatternDatabase,
    /// The stage tables of a subgoal plan.
    SubgoalStages,
    /// The two-phase solver's tables.
    TwoPhase,
    /// A pruning table of the optimal 3x3x3 solver.
    Optimal,
    /// A table file of another kind, or one whose header cannot be read.
    OtherTable,
    /// A temporary file: a table being written, or the remains of a killed run.
    Temporary,
    /// The build lock of a table.
    Lock,
}

impl CacheKind {
    /// The kind in words.
    pub fn name(self) -> &'static str {
        match self {
            CacheKind::PatternDatabase => "pattern database",
            CacheKind::SubgoalStages => "subgoal stages",
            CacheKind::TwoPhase => "two-phase tables",
            CacheKind::Optimal => "optimal table",
            CacheKind::OtherTable => "table",
            CacheKind::Temporary => "temporary file",
            CacheKind::Lock => "build lock",
        }
    }
}

/// One file in the cache folder, described from its name and header.
#[derive(Debug, Clone)]
pub struct CacheEntry {
    /// The file.
    pub path: PathBuf,
    /// What it is.
    pub kind: CacheKind,
    /// Its header, for table files whose header reads (the checksum is not checked here).
    pub header: Option<TableHeader>,
    /// Why a table file's header does not read, or its length is wrong.
    pub problem: Option<String>,
    /// Its size.
    pub bytes: u64,
    /// When it was last written.
    pub modified: Option<SystemTime>,
}

impl CacheEntry {
    /// What the table holds, in a few words: the tiles of a pattern database, the plan of
    /// subgoal stages, the format of the two-phase tables.
    pub fn contents(&self) -> Option<String> {
        let params = &self.header.as_ref()?.params;
        let text = match self.kind {
            CacheKind::PatternDatabase => params
                .strip_prefix("pdb tiles ")
                .and_then(|rest| rest.split_whitespace().next())
                .map(|tiles| format!("tiles {tiles}")),
            CacheKind::SubgoalStages => params
                .split_once(" plan ")
                .map(|(_, plan)| format!("plan {plan}")),
            _ => None,
        };
        Some(text.unwrap_or_else(|| params.clone()))
    }
}

impl CacheEntry {
    /// The entry as a report.
    pub fn report(&self) -> crate::report::CachedFile {
        crate::report::CachedFile {
            file: self.path.display().to_string(),
            kind: self.kind.name(),
            puzzle: self.header.as_ref().map(|h| h.puzzle.clone()),
            contents: self.contents(),
            bytes: self.bytes,
            modified_unix_seconds: self
                .modified
                .and_then(|m| m.duration_since(SystemTime::UNIX_EPOCH).ok())
                .map(|d| d.as_secs()),
            problem: self.problem.clone(),
        }
    }
}

/// What `cache clean` would do with an entry, and does: the dry run and the real run ask the
/// same question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Removal {
    /// The file is godsearch's and nothing uses it: it may go.
    Remove,
    /// A running godsearch holds the build lock, or may still be writing the temporary file.
    InUse,
    /// The file has a cache name but godsearch did not write it (no table magic, or a lock file
    /// with contents): it is the user's, and is never removed.
    NotOurs,
}

impl TableCache {
    /// What a cache table named `name` in this folder is, from its name alone: `None` for any
    /// name the cache does not give its tables.
    fn table_kind(&self, name: &str) -> Option<CacheKind> {
        let path = self.dir.join(name);
        let stem = name.strip_suffix(&format!(".{TABLE_EXTENSION}"))?;
        Some(if stem.starts_with("pdb-") {
            CacheKind::PatternDatabase
        } else if stem.starts_with("subgoal-") {
            CacheKind::SubgoalStages
        } else if path == self.twophase_path() {
            CacheKind::TwoPhase
        } else if TableSize::ALL
            .iter()
            .any(|&s| Metric::ALL.iter().any(|&m| path == self.optimal_path(s, m)))
        {
            CacheKind::Optimal
        } else {
            CacheKind::OtherTable
        })
    }

    /// What a file named `name` in this folder is, from its name: a cache table, the build lock
    /// of one, or a temporary table file; `None` for every other name (the user's files).
    fn kind_of_name(&self, name: &str) -> Option<CacheKind> {
        if file::is_temp_file_name(name) {
            return Some(CacheKind::Temporary);
        }
        if let Some(stem) = name.strip_suffix(&format!(".{LOCK_EXTENSION}")) {
            let table = format!("{stem}.{TABLE_EXTENSION}");
            return match self.table_kind(&table) {
                Some(CacheKind::OtherTable) | None => None,
                Some(_) => Some(CacheKind::Lock),
            };
        }
        self.table_kind(name)
    }

    /// Every file in the cache folder that carries a name godsearch gives its cache files
    /// (tables, temporary files, build locks), in name order; none when the folder does not
    /// exist. A table file that godsearch did not write is listed with its problem ("not a
    /// godsearch table file") so that the user sees it; [`TableCache::removal`] never lets it go.
    pub fn entries(&self) -> std::io::Result<Vec<CacheEntry>> {
        let listing = match std::fs::read_dir(&self.dir) {
            Ok(listing) => listing,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let mut entries = Vec::new();
        for dir_entry in listing {
            let dir_entry = dir_entry?;
            let path = dir_entry.path();
            let Ok(meta) = dir_entry.metadata() else {
                continue;
            };
            let name = dir_entry.file_name().to_string_lossy().into_owned();
            let Some(kind) = self.kind_of_name(&name) else {
                continue;
            };
            if !meta.is_file() {
                continue;
            }
            let (header, problem) = match kind {
                CacheKind::Temporary | CacheKind::Lock => (None, None),
                _ => match file::read_header(&path) {
                    Ok((header, _)) => (Some(header), None),
                    Err(e) => (None, Some(e.to_string())),
                },
            };
            entries.push(CacheEntry {
                path,
                kind,
                header,
                problem,
                bytes: meta.len(),
                modified: meta.modified().ok(),
            });
        }
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(entries)
    }

    /// Whether `cache clean` may delete an entry: only files godsearch wrote for this cache, a
    /// build lock only when no run holds it, and a temporary file only when no one has written
    /// it for [`STALE_TEMP_AGE`], since a run may be writing it. A table that is not the
    /// cache's (a `bfs` table saved here) is never removed.
    pub fn removal(&self, entry: &CacheEntry) -> std::io::Result<Removal> {
        Ok(match entry.kind {
            CacheKind::OtherTable => Removal::NotOurs,
            CacheKind::Lock if entry.bytes != 0 => Removal::NotOurs,
            CacheKind::Lock => match lock_if_free(&entry.path)? {
                Some(_) => Removal::Remove,
                None => Removal::InUse,
            },
            CacheKind::Temporary => {
                let age = entry
                    .modified
                    .and_then(|m| SystemTime::now().duration_since(m).ok());
                if age.is_none_or(|a| a < STALE_TEMP_AGE) {
                    Removal::InUse
                } else {
                    Removal::Remove
                }
            }
            CacheKind::PatternDatabase
            | CacheKind::SubgoalStages
            | CacheKind::TwoPhase
            | CacheKind::Optimal => {
                if file::has_table_magic(&entry.path) {
                    Removal::Remove
                } else {
                    Removal::NotOurs
                }
            }
        })
    }

    /// Deletes a cache entry when [`TableCache::removal`] allows it, and says what happened
    /// (`Removal::Remove`: it is gone). A build lock is held while its file is deleted, so a
    /// run cannot take it in between.
    pub fn remove(&self, entry: &CacheEntry) -> std::io::Result<Removal> {
        let _held = match entry.kind {
            CacheKind::Lock if entry.bytes == 0 => match lock_if_free(&entry.path)? {
                Some(held) => Some(held),
                None => return Ok(Removal::InUse),
            },
            _ => match self.removal(entry)? {
                Removal::Remove => None,
                other => return Ok(other),
            },
        };
        match std::fs::remove_file(&entry.path) {
            Ok(()) => Ok(Removal::Remove),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Removal::InUse),
            Err(e) => Err(e),
        }
    }
}

/// The lock file at `path`, locked, when no run holds it; `None` while one does.
fn lock_if_free(path: &Path) -> std::io::Result<Option<File>> {
    let lock = File::open(path)?;
    match fs4::FileExt::try_lock(&lock) {
        Ok(()) => Ok(Some(lock)),
        Err(fs4::TryLockError::WouldBlock) => Ok(None),
        Err(fs4::TryLockError::Error(e)) => Err(e),
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
        let (built, origin) = cache
            .subgoal_solver(plan.clone(), &godsearch_core::NoProgress)
            .unwrap();
        assert!(matches!(
            origin,
            Some(Origin::Built {
                replaced: None,
                not_saved: None,
                ..
            })
        ));
        let (cached, origin) = cache
            .subgoal_solver(plan.clone(), &godsearch_core::NoProgress)
            .unwrap();
        assert_eq!(origin, Some(Origin::Cached));
        assert_eq!(cached.tables(), built.tables());
        // One byte changed: the checksum refuses the file and the tables are built again.
        let path = cache.stages_path(&plan);
        let mut bytes = std::fs::read(&path).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 1;
        std::fs::write(&path, bytes).unwrap();
        let (rebuilt, origin) = cache
            .subgoal_solver(plan, &godsearch_core::NoProgress)
            .unwrap();
        assert!(matches!(
            origin,
            Some(Origin::Built {
                replaced: Some(_),
                ..
            })
        ));
        assert_eq!(rebuilt.tables(), built.tables());
    }

    /// Records what a build reports, to see a wait announced.
    #[derive(Default)]
    struct Details(std::sync::Mutex<Vec<String>>);

    impl Progress for Details {
        fn detail(&self, text: &str) {
            self.0.lock().unwrap().push(text.to_string());
        }
    }

    #[test]
    fn a_run_waits_for_another_building_the_same_table_then_reads_it() {
        let dir = tempfile::tempdir().unwrap();
        let cache = TableCache::new(dir.path().to_path_buf());
        let goal = Board::goal(Shape::new(3, 3).unwrap());
        let pattern = Pattern::new(&goal, &[1, 2, 3, 4]).unwrap();
        // "Another run": holds the build lock, as a building run does.
        std::fs::create_dir_all(dir.path()).unwrap();
        let held = File::create(lock_path(&cache.path(&goal, &pattern))).unwrap();
        fs4::FileExt::lock(&held).unwrap();
        let details = Details::default();
        std::thread::scope(|scope| {
            let waiting = scope.spawn(|| {
                cache
                    .load_or_build(&goal, &pattern, 1 << 30, false, &details)
                    .unwrap()
            });
            std::thread::sleep(Duration::from_millis(300));
            assert!(!waiting.is_finished(), "it must wait for the lock");
            // The other run saves its table and lets go.
            let other = TableCache::new(dir.path().to_path_buf());
            let header = TableHeader {
                puzzle: tile_identity(&goal),
                params: pattern.table_params(),
                encoding: Encoding::Bytes,
                entries: pattern.entries(),
                levels: Vec::new(),
            };
            let table = pattern_db::build(&pattern, 1 << 30, &godsearch_core::NoProgress).unwrap();
            assert_eq!(
                other.save(&other.path(&goal, &pattern), &header, |out| out
                    .write_all(&table)),
                None
            );
            fs4::FileExt::unlock(&held).unwrap();
            let (read, origin) = waiting.join().unwrap();
            assert_eq!(origin, Origin::Cached, "it reads what the other run built");
            assert_eq!(read.as_slice(), &table[..]);
        });
        let said = details.0.lock().unwrap();
        assert!(
            said.iter().any(|d| d.contains("waiting for another")),
            "{said:?}"
        );
    }

    #[test]
    fn the_listing_names_each_file_and_clean_spares_what_is_in_use() {
        let dir = tempfile::tempdir().unwrap();
        let cache = TableCache::new(dir.path().to_path_buf());
        assert!(TableCache::new(dir.path().join("none"))
            .entries()
            .unwrap()
            .is_empty());
        let goal = Board::goal(Shape::new(3, 3).unwrap());
        let pattern = Pattern::new(&goal, &[5, 6, 7, 8]).unwrap();
        cache
            .load_or_build(&goal, &pattern, 1 << 30, false, &godsearch_core::NoProgress)
            .unwrap();
        std::fs::write(dir.path().join("pdb-3x3-00000000-1.tbl"), b"not a table").unwrap();
        // A lock file a killed run left.
        std::fs::write(lock_path(&cache.path(&goal, &pattern)), b"").unwrap();
        std::fs::write(dir.path().join("notes.txt"), b"not ours").unwrap();
        let entries = cache.entries().unwrap();
        let kinds: Vec<CacheKind> = entries.iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            [
                CacheKind::PatternDatabase,
                CacheKind::Lock,
                CacheKind::PatternDatabase
            ],
            "{entries:?}"
        );
        assert!(entries[0]
            .problem
            .as_deref()
            .unwrap()
            .contains("not a godsearch table"));
        let good = &entries[2];
        assert_eq!(good.contents().as_deref(), Some("tiles 5,6,7,8"));
        assert_eq!(good.header.as_ref().unwrap().puzzle, tile_identity(&goal));
        // A held lock stays; a free one goes; tables go.
        let lock = &entries[1];
        let held = File::open(&lock.path).unwrap();
        fs4::FileExt::lock(&held).unwrap();
        assert_eq!(cache.remove(lock).unwrap(), Removal::InUse);
        fs4::FileExt::unlock(&held).unwrap();
        // The file with a cache name that godsearch did not write stays, listed.
        assert_eq!(cache.removal(&entries[0]).unwrap(), Removal::NotOurs);
        assert_eq!(cache.remove(&entries[0]).unwrap(), Removal::NotOurs);
        for entry in &entries[1..] {
            assert_eq!(cache.remove(entry).unwrap(), Removal::Remove);
        }
        assert_eq!(cache.entries().unwrap().len(), 1);
        assert!(dir.path().join("pdb-3x3-00000000-1.tbl").exists());
        assert!(dir.path().join("notes.txt").exists());
    }

    #[test]
    fn small_plans_are_built_not_cached() {
        let dir = tempfile::tempdir().unwrap();
        let cache = TableCache::new(dir.path().to_path_buf());
        let goal = Board::goal(Shape::new(3, 3).unwrap());
        let (_, origin) = cache
            .subgoal_solver(Plan::two_stage(&goal).unwrap(), &godsearch_core::NoProgress)
            .unwrap();
        assert_eq!(origin, None);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
