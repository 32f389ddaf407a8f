//! The puzzle registry: every puzzle kind godsearch knows, each in its own module, and the one
//! place a request's puzzle name is turned into a puzzle.
//!
//! A kind ([`PuzzleKind`]) reads its own names and opens a [`Puzzle`], which answers every
//! request a front end makes: solve, enumerate, scramble, replay, check a request before it is
//! queued, and describe itself for menus. The [`Workbench`] holds
//! what requests share (tables, caches) and calls the puzzle; nothing outside a kind's module
//! asks which puzzle it is.
//!
//! Adding a puzzle is one module implementing these two traits over a
//! [`StateSpace`](godsearch_core::StateSpace) (see [`pancake`], written that way) and one line
//! in [`KINDS`]; a library using godsearch adds its own with [`register`].

pub mod cube2;
pub mod cube3;
pub mod cubes;
pub mod definition;
pub mod pancake;
pub mod tiles;

use crate::batch::{solve_one, Batch, Source};
use crate::bfs::BfsRequest;
use crate::progress::Notice;
use crate::report::{AnyInfo, BfsReport, Scramble, VerifyReport};
use crate::request::{
    BfsJob, JobControl, JobLimits, PdbJob, PdbReport, PuzzleEntry, Replay, ReplayRequest,
    ScrambleRequest, SolveReport, SolveRequest, Workbench,
};
use crate::verify::Claim;
use crate::{AppError, AppResult};
use godsearch_core::Progress;
use godsearch_puzzles::cube::Notation;
use rand::rngs::StdRng;
use std::path::PathBuf;
use std::sync::{PoisonError, RwLock};
use std::time::Duration;

/// Every puzzle kind, in the order a name is offered to them (the first that takes it opens
/// it) and menus list them.
pub const KINDS: &[&dyn PuzzleKind] = &[
    &tiles::TilesKind,
    &cube2::KIND,
    &cube3::KIND,
    &pancake::PancakeKind,
    &definition::DefinitionKind,
];

/// One family of puzzles: the names it reads and the puzzles they open.
pub trait PuzzleKind: Sync {
    /// The family's name in catalogs: `tiles`, `cube`, `pancake`, `definition`.
    fn family(&self) -> &'static str;

    /// The names it reads, in words, for the error on a name no kind reads.
    fn names_help(&self) -> String;

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
    /// options it does not take, a position it cannot read. The default: its
    /// [`batch`](Self::batch) checks the options and reads the position (a puzzle without a
    /// batch overrides this and [`solve`](Self::solve)).
    fn check_solve(&self, request: &SolveRequest) -> AppResult<()> {
        solving_batch(self, request)?
            .read(&request.position, Source::Given)
            .map(|_| ())
    }

    /// Solves one position as `request` asks, within `limits`, reporting to `control`. The
    /// default: as a batch of one, through the calls a command line's batch makes.
    fn solve(
        &self,
        bench: &Workbench,
        request: &SolveRequest,
        limits: &JobLimits,
        control: &JobControl,
    ) -> AppResult<SolveReport> {
        solve_one(
            &*solving_batch(self, request)?,
            bench,
            request,
            limits,
            control,
        )
    }

    /// The batch `request` makes (its options checked, nothing built), through which a front
    /// end solves many positions under one request; `None` for a puzzle that takes one
    /// position a request, through [`solve`](Self::solve) alone.
    fn batch(&self, request: &SolveRequest) -> Option<AppResult<Box<dyn Batch + '_>>> {
        let _ = request;
        None
    }

    /// Refuses the enumeration options it does not take.
    fn check_bfs(&self, job: &BfsJob) -> AppResult<()>;

    /// Enumerates from the goal as `job` and `request` (limits, engine, disk, cluster) ask.
    fn bfs(
        &self,
        job: &BfsJob,
        request: &BfsRequest,
        progress: &dyn Progress,
    ) -> AppResult<BfsReport>;

    /// The scrambler `request` asks for (its count is the caller's: a front end draws as many
    /// as it likes), with what it needs built or loaded now (reporting to `progress`); options
    /// it does not take refused.
    fn scrambler<'a>(
        &'a self,
        bench: &'a Workbench,
        request: &ScrambleRequest,
        limits: &JobLimits,
        progress: &dyn Progress,
    ) -> AppResult<Box<dyn Scrambler + 'a>>;

    /// Plays `request.solution` from its start, refusing a move it cannot read or make.
    fn replay(&self, request: &ReplayRequest) -> AppResult<Replay>;

    /// What `info` says of it, with the machine's memory and free disk where `query` knows
    /// them (the costs of storing every position are weighed against them).
    fn info(&self, query: &InfoQuery) -> AppResult<AnyInfo> {
        let _ = query;
        Err(AppError::Input(format!(
            "{}: info has no report for this puzzle yet",
            self.entry().name
        )))
    }

    /// The checker `verify` and `apply` run on each claim (a start and its moves), with what
    /// proves a length shortest loaded or built now where `query.proves` asks and one is at
    /// hand (reporting to `progress`, builds told to `notices`).
    fn verifier<'a>(
        &'a self,
        bench: &'a Workbench,
        query: &VerifyQuery,
        progress: &dyn Progress,
        notices: &mut dyn FnMut(Notice),
    ) -> AppResult<Verifier<'a>> {
        let _ = (bench, query, progress, notices);
        Err(AppError::Input(format!(
            "{}: verify and apply have no checker for this puzzle yet",
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

/// The batch `request` makes of `puzzle`, for the solves that go through it; an error for a
/// puzzle that has none and did not override them.
fn solving_batch<'a, P: Puzzle + ?Sized>(
    puzzle: &'a P,
    request: &SolveRequest,
) -> AppResult<Box<dyn Batch + 'a>> {
    puzzle.batch(request).unwrap_or_else(|| {
        Err(AppError::Check(format!(
            "{} has no batch to solve through and does not solve positions itself",
            puzzle.entry().name
        )))
    })
}

/// What a front end tells `info` besides the puzzle.
#[derive(Debug, Clone, Default)]
pub struct InfoQuery {
    /// Definition puzzles: the generators (empty: the file's own moves).
    pub generators: Vec<String>,
    /// The memory this process may use, when known.
    pub ram_bytes: Option<u64>,
    /// Free disk in the working folder, when known.
    pub free_disk_bytes: Option<u64>,
}

/// Refuses generators for `info` of a puzzle that has no named moves to choose from.
pub(crate) fn no_info_generators(query: &InfoQuery) -> AppResult<()> {
    match query.generators.is_empty() {
        true => Ok(()),
        false => Err(AppError::Input(
            "«generators» is for definition puzzles".into(),
        )),
    }
}

/// What a front end asks `verify` and `apply` for besides the claims.
#[derive(Debug, Clone, Default)]
pub struct VerifyQuery {
    /// Boards: the goal (default: tiles in order, blank last).
    pub goal: Option<String>,
    /// Boards: a distance table file that proves lengths shortest.
    pub table: Option<PathBuf>,
    /// The metric lengths are counted in (cubes: `htm`, `qtm`, `stm`, `etm`; definition
    /// puzzles: `htm` or `qtm`).
    pub metric: Option<String>,
    /// Cubes: read starts as facelet strings.
    pub facelets: bool,
    /// Cubes: the notation moves are written in.
    pub notation: Option<Notation>,
    /// The 3x3x3: prove lengths shortest with the optimal solver.
    pub prove: bool,
    /// With `prove`: the optimal solver's table (`small`, `300mb`, `1gb`, `8gb`).
    pub table_size: Option<String>,
    /// With `prove`: give up a claim this long after it starts, with the bound proven.
    pub timeout: Option<Duration>,
    /// Whether lengths are to be proven shortest where a table is at hand (verify; apply only
    /// shows where the moves lead).
    pub proves: bool,
    /// Bytes the tables built may take.
    pub memory_bytes: u64,
}

/// A puzzle's check of claims, from [`Puzzle::verifier`].
pub struct Verifier<'a> {
    /// Replays one claim and reports where it ends, its lengths and whether it is shortest.
    pub check: Box<dyn Fn(Claim) -> AppResult<VerifyReport> + 'a>,
    /// Why a length may be reported as not proven, for people: `no distance table for this
    /// puzzle here`, or the option that would prove it.
    pub unproven: &'static str,
}

/// Makes one puzzle's scrambles one at a time, with what they need (a distance table, the
/// two-phase tables) made once, so that a front end can stream any number of them.
pub trait Scrambler {
    /// The next scramble, drawn with `rng`: a uniform random position, or a random canonical
    /// move sequence and where it leads.
    fn next(&self, rng: &mut StdRng) -> AppResult<Scramble>;

    /// Whether it reads tables from the workbench's cache (a front end refuses a cache folder
    /// given for nothing).
    fn reads_cache(&self) -> bool {
        false
    }
}

impl<F: Fn(&mut StdRng) -> AppResult<Scramble>> Scrambler for F {
    fn next(&self, rng: &mut StdRng) -> AppResult<Scramble> {
        self(rng)
    }
}

/// A scrambler that reads tables from the workbench's cache.
pub(crate) struct ReadingCache<F>(pub F);

impl<F: Fn(&mut StdRng) -> AppResult<Scramble>> Scrambler for ReadingCache<F> {
    fn next(&self, rng: &mut StdRng) -> AppResult<Scramble> {
        (self.0)(rng)
    }

    fn reads_cache(&self) -> bool {
        true
    }
}

/// Refuses the scramble options of boards, a goal and a board format (`hex`, `grid`), for a
/// puzzle that is not a board; `prints` says what it prints instead of a board.
pub(crate) fn no_board_options(request: &ScrambleRequest, prints: &str) -> AppResult<()> {
    if request.goal.is_some() {
        return Err(AppError::Input(
            "«goal» is for sliding-tile boards; this puzzle is scrambled from its solved state"
                .into(),
        ));
    }
    match request.format.as_deref() {
        None | Some("list") => Ok(()),
        Some(_) => Err(AppError::Input(format!(
            "«format» hex and grid are for boards; {prints}"
        ))),
    }
}

/// Kinds added at run time ([`register`]), after [`KINDS`].
static REGISTERED: RwLock<Vec<&'static dyn PuzzleKind>> = RwLock::new(Vec::new());

/// Adds a puzzle kind after the built-in ones: a library's own puzzle, one implementation of
/// [`PuzzleKind`] and [`Puzzle`], then opened by every request that names it (solve, bfs,
/// scramble, verify, info) and listed in the catalog the API and the page offer. A kind whose
/// family is already known is not added twice.
pub fn register(kind: &'static dyn PuzzleKind) {
    let mut registered = REGISTERED.write().unwrap_or_else(PoisonError::into_inner);
    let known = KINDS
        .iter()
        .chain(registered.iter())
        .any(|k| k.family() == kind.family());
    if !known {
        registered.push(kind);
    }
}

/// Every kind: the built-in ones, then those registered, in the order names are offered.
pub fn kinds() -> Vec<&'static dyn PuzzleKind> {
    let registered = REGISTERED.read().unwrap_or_else(PoisonError::into_inner);
    KINDS
        .iter()
        .copied()
        .chain(registered.iter().copied())
        .collect()
}

/// The puzzle `name` means (spaces around it ignored), opened by the first kind that reads
/// it; files are read only where `read_files`. An unknown name is refused with every kind's
/// names.
pub fn open(name: &str, read_files: bool) -> AppResult<Box<dyn Puzzle>> {
    let trimmed = name.trim();
    let kinds = kinds();
    for kind in &kinds {
        if let Some(opened) = kind.open(trimmed, read_files) {
            return opened;
        }
    }
    let known: Vec<String> = kinds.iter().map(|k| k.names_help()).collect();
    Err(AppError::Input(format!(
        "unknown puzzle '{}': expected {}",
        godsearch_core::excerpt(name),
        known.join("; ")
    )))
}

/// The catalog entries of every kind's listed names.
pub fn listed_entries() -> Vec<PuzzleEntry> {
    kinds()
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
            "«generators» is for definition puzzles".into(),
        )),
        None => Ok(()),
    }
}
