//! The puzzle registry: every puzzle kind godsearch knows, each in its own module, and the one
//! place a request's puzzle name is turned into a puzzle.
//!
//! A kind ([`PuzzleKind`]) reads its own names and opens a [`Puzzle`], which answers every
//! request a front end makes: solve, enumerate, scramble, replay, check a request before it is
//! queued, and describe itself for menus. The [`Workbench`](crate::request::Workbench) holds
//! what requests share (tables, caches) and calls the puzzle; nothing outside a kind's module
//! asks which puzzle it is.
//!
//! Adding a puzzle is one module implementing these two traits over a
//! [`StateSpace`](godsearch_core::StateSpace) (see [`pancake`], written that way) and one line
//! in [`KINDS`].

pub mod cubes;
pub mod definition;
pub mod pancake;
pub mod tiles;

use crate::bfs::BfsRequest;
use crate::report::{BfsReport, PuzzleInfo, Scramble};
use crate::request::{
    BfsJob, JobControl, JobLimits, PdbJob, PdbReport, PuzzleEntry, Replay, ReplayRequest,
    ScrambleRequest, SolveReport, SolveRequest, Workbench,
};
use crate::{AppError, AppResult};
use godsearch_core::Progress;
use rand::rngs::StdRng;

/// Every puzzle kind, in the order a name is offered to them (the first that takes it opens
/// it) and menus list them.
pub const KINDS: &[&dyn PuzzleKind] = &[
    &tiles::TilesKind,
    &cubes::CubesKind,
    &pancake::PancakeKind,
    &definition::DefinitionKind,
];

/// One family of puzzles: the names it reads and the puzzles they open.
pub trait PuzzleKind: Sync {
    /// The family's name in catalogs: `tiles`, `cube`, `pancake`, `definition`.
    fn family(&self) -> &'static str;

    /// The names it reads, in words, for the error on a name no kind reads.
    fn names_help(&self) -> &'static str;

    /// The names menus offer first.
    fn listed(&self) -> Vec<String>;

    /// The puzzle `name` means: `None` when the name is not this kind's, an error when it is
    /// but cannot be opened (a board too small, a file malformed, or any file when `read_files`
    /// is false: a server must not read files its clients name).
    fn open(&self, name: &str, read_files: bool) -> Option<AppResult<Box<dyn Puzzle>>>;
}

/// One puzzle, opened from its name: everything a front end asks of it. Every solution it
/// returns has been replayed from its start; every count is exact.
pub trait Puzzle: Send + Sync {
    /// Its catalog entry: the name requests use, what it takes, what a page draws.
    fn entry(&self) -> PuzzleEntry;

    /// Refuses, as far as is cheap (no table built, no search), a solve the work would refuse:
    /// options it does not take, a position it cannot read.
    fn check_solve(&self, request: &SolveRequest) -> AppResult<()>;

    /// Solves one position as `request` asks, within `limits`, reporting to `control`.
    fn solve(
        &self,
        bench: &Workbench,
        request: &SolveRequest,
        limits: &JobLimits,
        control: &JobControl,
    ) -> AppResult<SolveReport>;

    /// Refuses the enumeration options it does not take.
    fn check_bfs(&self, job: &BfsJob) -> AppResult<()>;

    /// Enumerates from the goal as `job` and `request` (limits, engine, disk, cluster) ask.
    fn bfs(
        &self,
        job: &BfsJob,
        request: &BfsRequest,
        progress: &dyn Progress,
    ) -> AppResult<BfsReport>;

    /// Makes `request.count` scrambles (checked against the limits by the caller).
    fn scramble(
        &self,
        bench: &Workbench,
        request: &ScrambleRequest,
        limits: &JobLimits,
        rng: &mut StdRng,
        control: &JobControl,
    ) -> AppResult<Vec<Scramble>>;

    /// Plays `request.solution` from its start, refusing a move it cannot read or make.
    fn replay(&self, request: &ReplayRequest) -> AppResult<Replay>;

    /// What `info` says of it; puzzles with reports of their own (boards, cubes, definition
    /// files) give theirs through [`crate::info`] and [`crate::definitions::info`] instead.
    fn info(&self) -> AppResult<PuzzleInfo> {
        Err(AppError::Input(format!(
            "{}: info reports boards, cubes and definition files; this puzzle has none yet",
            self.entry().name
        )))
    }

    /// Lines drawing a position as the reports print it (a board's grid), or none.
    fn picture(&self, position: &str) -> Vec<String> {
        let _ = position;
        Vec::new()
    }

    /// Refuses, as far as is cheap, a pattern-database build the work would refuse; only
    /// puzzles whose solver reads databases built ahead take one.
    fn check_pdb(&self, job: &PdbJob) -> AppResult<()> {
        let _ = job;
        Err(AppError::Input(format!(
            "pattern databases are built ahead for sliding-tile boards; {} builds what it needs itself",
            self.entry().name
        )))
    }

    /// Builds the pattern databases `job` names into the cache.
    fn build_pdb(
        &self,
        bench: &Workbench,
        job: &PdbJob,
        limits: &JobLimits,
        control: &JobControl,
    ) -> AppResult<PdbReport> {
        let _ = (bench, limits, control);
        self.check_pdb(job)?;
        Err(AppError::Check(format!(
            "{} takes pattern databases but does not build them",
            self.entry().name
        )))
    }
}

/// The puzzle `name` means (spaces around it ignored), opened by the first kind that reads
/// it; files are read only where `read_files`. An unknown name is refused with every kind's
/// names.
pub fn open(name: &str, read_files: bool) -> AppResult<Box<dyn Puzzle>> {
    let trimmed = name.trim();
    for kind in KINDS {
        if let Some(opened) = kind.open(trimmed, read_files) {
            return opened;
        }
    }
    let known: Vec<&str> = KINDS.iter().map(|k| k.names_help()).collect();
    Err(AppError::Input(format!(
        "unknown puzzle '{}': expected {}",
        godsearch_core::excerpt(name),
        known.join("; ")
    )))
}

/// The catalog entries of every kind's listed names.
pub fn listed_entries() -> Vec<PuzzleEntry> {
    KINDS
        .iter()
        .flat_map(|kind| kind.listed())
        .filter_map(|name| open(&name, false).ok())
        .map(|puzzle| puzzle.entry())
        .collect()
}

/// Refuses generators for a puzzle that has no named moves to choose from.
pub(crate) fn no_generators(generators: &Option<String>) -> AppResult<()> {
    match generators {
        Some(_) => Err(AppError::Input(
            "--generators is for definition puzzles".into(),
        )),
        None => Ok(()),
    }
}
