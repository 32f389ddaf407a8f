//! One request at a time, as the HTTP API and the Python bindings take them: a solve, an
//! enumeration or a scramble named like the command line's options, run under limits a server
//! sets, watched and cancellable, answered with the same report types as `--json`.
//!
//! - [`SolveRequest`], [`BfsJob`], [`ScrambleRequest`]: the requests, deserialized from JSON
//!   bodies (unknown fields refused) or built by a front end. The rules that refuse options an
//!   algorithm would not use live in each puzzle's registry module; the command line calls the
//!   same ones.
//! - [`Workbench`]: the table cache and what each puzzle's module loaded so far (the cubes'
//!   two-phase, optimal and 2x2x2 tables, the boards' pattern databases, a definition puzzle's
//!   solver: [`Workbench::kept`]), kept for the next request: a server loads the two-phase
//!   tables once, not once a request. It loads nothing until a request needs it.
//! - [`JobLimits`] and [`JobControl`]: the node, time and memory limits of one job, and what a
//!   running job has done (levels, threshold, nodes) with its cancel switch.
//!
//! A search stopped by a limit or a cancel still answers: IDA* with its proven lower bound
//! (`timed_out`), an enumeration with the levels it finished (`stopped`).

use crate::batch::{BatchSetup, SolveBatchRequest, Source};
use crate::bfs::{BfsRequest, EngineChoice};
use crate::cache::{Origin, TableCache};
use crate::choice::{Algorithm, HeuristicChoice};
use crate::progress::Notice;
use crate::report::{BfsReport, CubeSolution, DefinitionSolution, Scramble, SearchWay, Solution};
use crate::{registry, AppError, AppResult};
use godsearch_core::{excerpt, Progress};
use godsearch_enumerate::Limits;
use godsearch_puzzles::cube::algorithm::parse_moves;
use godsearch_puzzles::cube::notation::Move;
use godsearch_puzzles::cube::Syntax;
use godsearch_search::tiles::Watch;
/// The optimal cube solver's table sizes, for [`JobLimits::largest_table`].
pub use godsearch_twophase::optimal::TableSize;
use rand::rngs::StdRng;
use rand::SeedableRng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// Antipodes listed in an enumeration's report, at most.
const ANTIPODE_CAP: usize = 64;

/// The most solutions one search lists (`count`).
pub const MAX_SOLUTIONS: u32 = 100_000;

/// A position to solve and how, with the command line's option names (`max_length` for
/// `--max-length`, and so on). Only `puzzle` and `position` are required.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    /// The puzzle: `3x3`, `4x4`, any `WxH`, `2x2x2`, `3x3x3`, or a definition file's path.
    pub puzzle: String,
    /// A board (tile list or hex string), a cube's 54 facelets, or a move sequence (cubes and
    /// definition puzzles).
    pub position: String,
    /// Definition puzzles: the moves to search with, e.g. `U,F,R` (default: the file's own).
    #[serde(default)]
    pub generators: Option<String>,
    /// The board's goal (tiles, or `blank-first`: Korf's; default: tiles in order, blank last).
    #[serde(default)]
    pub goal: Option<String>,
    /// `auto`, `table`, `ida`, `astar`, `parallel-ida`, `two-stage`, `subgoal`, `two-phase` or
    /// `half-depth`.
    #[serde(default = "auto_algorithm")]
    pub algorithm: Algorithm,
    /// `auto`, `manhattan`, `linear-conflict` or `pdb` (searching algorithms on boards).
    #[serde(default = "auto_heuristic")]
    pub heuristic: HeuristicChoice,
    /// A pattern-database partition by name (`6-6-3`) or tile groups (`1,2,3/4,5,6`); with
    /// `probe`, several separated by spaces (`6-6-6-6 6-6-6-6b`), each a way to probe.
    #[serde(default)]
    pub pdb: Option<String>,
    /// Do not read pattern databases through the board's reflection as well.
    #[serde(default)]
    pub no_reflection: bool,
    /// Boards, IDA* and A*: search from the goal to the board, with the heuristic (its pattern
    /// databases built and cached for each board) aimed at the board; the solution is turned
    /// round and replayed from the board. The same optimal length, found by another search
    /// that may be far shorter or far longer.
    #[serde(default)]
    pub reverse: bool,
    /// Boards, IDA*: search from both ends in turn, each iteration raced between the two
    /// directions (the goal to the board as `reverse` does), the first to finish it proving
    /// the next bound for both: at most about three times the better direction's time, where
    /// the worse can take a hundred times. Builds the heuristic for the board as well.
    #[serde(default)]
    pub both_ways: bool,
    /// Boards, IDA*: seconds to probe each way of searching the board (each partition of
    /// `pdb`; forwards, or with `both_ways` each direction) from the start before going on
    /// with the one that expanded the fewest nodes on the last iteration all finished.
    #[serde(default)]
    pub probe: Option<f64>,
    /// Subgoal stages (`--stages`).
    #[serde(default)]
    pub stages: Option<String>,
    /// Plans a staged solver tries (`--effort`).
    #[serde(default)]
    pub effort: Option<u32>,
    /// Half-depth search: the depth held around the goal.
    #[serde(default)]
    pub depth: Option<u32>,
    /// Cubes: `htm` (default), `qtm`, `stm` or `etm`.
    #[serde(default)]
    pub metric: Option<String>,
    /// Cubes: read `position` as facelets.
    #[serde(default)]
    pub facelets: bool,
    /// Cubes: read `position` as a move sequence.
    #[serde(default)]
    pub moves: bool,
    /// 3x3x3 two-phase: stop at the first solution this short.
    #[serde(default)]
    pub max_length: Option<u32>,
    /// 3x3x3: a proven shortest solution (IDA* over the optimal solver's table).
    #[serde(default)]
    pub optimal: bool,
    /// With `optimal`: every shortest solution.
    #[serde(default)]
    pub all: bool,
    /// Definition puzzles: this many solutions, shortest first (1 to [`MAX_SOLUTIONS`]).
    #[serde(default)]
    pub count: Option<u32>,
    /// With `optimal`: the pruning table, `small`, `300mb`, `1gb` or `8gb`.
    #[serde(default)]
    pub table_size: Option<String>,
    /// With `optimal`: a known solution (face turns) to prove shortest or beat; the search
    /// never searches its length.
    #[serde(default)]
    pub known_solution: Option<String>,
    /// Seconds after which IDA*, two-phase or the optimal cube search give up and report what
    /// they have.
    #[serde(default)]
    pub timeout: Option<f64>,
    /// Boards, IDA*: start at this threshold, a lower bound an earlier search proved (its
    /// report's `lower_bound`), so that its finished iterations are not done again.
    #[serde(default)]
    pub resume_from: Option<u32>,
    /// Boards, parallel IDA*, with `resume_from`: the `searched_subtrees` a search stopped in
    /// that bound's iteration reported, so that the subtrees it finished are not searched
    /// again. Refused for another board, goal, direction or bound, or where this search splits
    /// the iteration otherwise (another build); another heuristic takes it where it splits alike.
    #[serde(default)]
    pub resume_subtrees: Option<String>,
    /// Boards, with `probe` and `resume_subtrees`: the way that finished those subtrees, as
    /// its report's `chosen_way` names it. The probes still compare every way from the start,
    /// and that way goes on from `resume_from` with the subtrees unless another way's probe
    /// expanded at most half its nodes (then they are set aside).
    #[serde(default)]
    pub resume_way: Option<SearchWay>,
    /// Definition puzzles: a distance table file saved by `bfs --save` to descend through
    /// (checked to be this puzzle's, generators' and metric's). Set by the local front ends
    /// only: it is no part of the API, since a server reads no file its clients name.
    #[serde(skip)]
    #[schemars(skip)]
    pub table: Option<std::path::PathBuf>,
}

fn auto_algorithm() -> Algorithm {
    Algorithm::Auto
}

fn auto_heuristic() -> HeuristicChoice {
    HeuristicChoice::Auto
}

impl SolveRequest {
    /// A request for `position` of `puzzle` with every option left to godsearch.
    pub fn new(puzzle: &str, position: &str) -> Self {
        SolveRequest {
            puzzle: puzzle.into(),
            position: position.into(),
            generators: None,
            goal: None,
            algorithm: Algorithm::Auto,
            heuristic: HeuristicChoice::Auto,
            pdb: None,
            no_reflection: false,
            reverse: false,
            both_ways: false,
            probe: None,
            stages: None,
            effort: None,
            depth: None,
            metric: None,
            facelets: false,
            moves: false,
            max_length: None,
            optimal: false,
            all: false,
            count: None,
            table_size: None,
            known_solution: None,
            timeout: None,
            resume_from: None,
            resume_subtrees: None,
            resume_way: None,
            table: None,
        }
    }

    /// The known solution's face turns (`known_solution`), read as `--moves` reads a
    /// sequence, without wide turns, slices or rotations.
    pub fn known_moves(&self) -> AppResult<Option<Vec<Move>>> {
        self.known_solution
            .as_deref()
            .map(|text| {
                parse_moves(text).map_err(|e| {
                    AppError::Input(format!("«known_solution» '{}': {e}", excerpt(text)))
                })
            })
            .transpose()
    }

    /// How many solutions are asked for (1 unless `count` is given), refused outside 1 to
    /// [`MAX_SOLUTIONS`].
    pub fn solutions_wanted(&self) -> AppResult<usize> {
        match self.count {
            None => Ok(1),
            Some(n @ 1..=MAX_SOLUTIONS) => Ok(n as usize),
            Some(n) => Err(AppError::Input(format!(
                "«count» {n}: a search lists 1 to {MAX_SOLUTIONS} solutions"
            ))),
        }
    }

    /// Refuses `count` for the solvers that give one solution (boards and cubes).
    pub(crate) fn one_solution_only(&self) -> AppResult<()> {
        match self.count {
            Some(_) => Err(AppError::Input(
                "«count» is for definition puzzles (alg search); the 3x3x3's «optimal» «all» lists every shortest solution".into(),
            )),
            None => Ok(()),
        }
    }

    /// The distance table file to descend through, if one is named; refused where `limits`
    /// read no files a request names (a server's).
    pub fn table_file(&self, limits: &JobLimits) -> AppResult<Option<&std::path::Path>> {
        match &self.table {
            Some(_) if !limits.definition_files => Err(AppError::Input(
                "this server does not read table files named in requests".into(),
            )),
            table => Ok(table.as_deref()),
        }
    }

    /// The timeout as a duration; a negative or non-finite number is refused.
    pub fn timeout(&self) -> AppResult<Option<Duration>> {
        seconds_option(self.timeout, "timeout")
    }

    /// How long each way is probed (`probe`), refused unless a positive number of seconds.
    pub fn probe_time(&self) -> AppResult<Option<Duration>> {
        seconds_option(self.probe, "probe")
    }

    /// Refuses what a definition puzzle's solver does not take: every option but
    /// [`DEFINITION_OPTIONS`] (`metric` as `htm` or `qtm`, `generators`, `timeout`, `moves`,
    /// `count`, `table`, `algorithm` and `depth`).
    pub fn check_definition_options(&self) -> AppResult<()> {
        self.refuse_options_but(
            &DEFINITION_OPTIONS,
            "is for the built-in puzzles; a definition puzzle is solved optimally, by table descent or IDA* over databases chosen automatically",
        )
    }

    /// Refuses every option given but those named in `kept` (request fields: `max_length`,
    /// `timeout`, ...),
    /// the error being the option's name and `why`: for puzzles that take few of the board and
    /// cube options.
    pub fn refuse_options_but(&self, kept: &[&str], why: &str) -> AppResult<()> {
        let given = [
            (self.generators.is_some(), "generators"),
            (self.goal.is_some(), "goal"),
            (self.algorithm != Algorithm::Auto, "algorithm"),
            (self.heuristic != HeuristicChoice::Auto, "heuristic"),
            (self.pdb.is_some(), "pdb"),
            (self.no_reflection, "no_reflection"),
            (self.reverse, "reverse"),
            (self.both_ways, "both_ways"),
            (self.probe.is_some(), "probe"),
            (self.stages.is_some(), "stages"),
            (self.effort.is_some(), "effort"),
            (self.depth.is_some(), "depth"),
            (self.metric.is_some(), "metric"),
            (self.facelets, "facelets"),
            (self.moves, "moves"),
            (self.max_length.is_some(), "max_length"),
            (self.optimal, "optimal"),
            (self.all, "all"),
            (self.count.is_some(), "count"),
            (self.table_size.is_some(), "table_size"),
            (self.known_solution.is_some(), "known_solution"),
            (self.timeout.is_some(), "timeout"),
            (self.resume_from.is_some(), "resume_from"),
            (self.resume_subtrees.is_some(), "resume_subtrees"),
            (self.resume_way.is_some(), "resume_way"),
            (self.table.is_some(), "table"),
        ];
        match given.iter().find(|(on, name)| *on && !kept.contains(name)) {
            Some((_, name)) => Err(AppError::Input(format!("«{name}» {why}"))),
            None => Ok(()),
        }
    }

    /// The generators named (empty: the definition's own moves).
    pub fn generator_names(&self) -> Vec<String> {
        self.generators
            .as_deref()
            .map(crate::registry::definition::file::parse_generators)
            .unwrap_or_default()
    }

    /// How `position` is read for a cube.
    pub(crate) fn syntax(&self) -> AppResult<Syntax> {
        match (self.moves, self.facelets) {
            (true, true) => Err(AppError::Input(
                "«moves» and «facelets» exclude each other".into(),
            )),
            (true, false) => Ok(Syntax::Moves),
            (false, true) => Ok(Syntax::Facelets),
            (false, false) => Ok(Syntax::Auto),
        }
    }
}

/// `seconds` as a duration, refused when negative or not finite.
fn seconds_option(seconds: Option<f64>, name: &str) -> AppResult<Option<Duration>> {
    match seconds {
        None => Ok(None),
        Some(s) => crate::units::check_seconds(s)
            .map(Some)
            .map_err(|why| AppError::Input(format!("«{name}» {s}: {why}"))),
    }
}

/// A solved board or cube: the same document `solve --json` prints.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum SolveReport {
    /// A sliding-tile board.
    Tiles(Solution),
    /// A cube.
    Cube(CubeSolution),
    /// A puzzle from a definition file.
    Definition(DefinitionSolution),
}

/// An enumeration to run, named like `bfs`'s options.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BfsJob {
    /// The puzzle: a board size, `2x2x2`, `3x3x3`, or a definition file's path.
    pub puzzle: String,
    /// Definition puzzles: the moves to search with, e.g. `U,F,R` (default: the file's own).
    #[serde(default)]
    pub generators: Option<String>,
    /// The board's goal (tiles, or `blank-first`: Korf's; default: tiles in order, blank last).
    #[serde(default)]
    pub goal: Option<String>,
    /// Cubes: `htm` (default), `qtm`, `stm` or `etm`.
    #[serde(default)]
    pub metric: Option<String>,
    /// The 3x3x3: count classes under 48 symmetries (default) or 96 (with inversion).
    /// Definition puzzles: the number of symmetries their moves have (the frontier engines'
    /// default where there are some), or 1 for none.
    #[serde(default)]
    pub symmetry: Option<u32>,
    /// Stop after this level.
    #[serde(default)]
    pub max_depth: Option<u32>,
    /// Count the level after the last one stored without storing it.
    #[serde(default)]
    pub count_last: bool,
    /// Where to save the complete distance table (written atomically, with its identity and
    /// a checksum), for `solve` with a table to descend through. Set by the local front ends
    /// only: it is no part of the API, since a server writes no file its clients name.
    #[serde(skip)]
    #[schemars(skip)]
    pub save: Option<std::path::PathBuf>,
}

impl BfsJob {
    /// An enumeration of `puzzle` to the end.
    pub fn new(puzzle: &str) -> Self {
        BfsJob {
            puzzle: puzzle.into(),
            generators: None,
            goal: None,
            metric: None,
            symmetry: None,
            max_depth: None,
            count_last: false,
            save: None,
        }
    }
}

/// Scrambles to make, named like `scramble`'s options.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScrambleRequest {
    /// The puzzle: a board size, `2x2x2`, `3x3x3`, `pancake-N`, or a definition file's path.
    pub puzzle: String,
    /// Definition puzzles: the moves to scramble with, e.g. `U,F,R` (default: the file's own).
    #[serde(default)]
    pub generators: Option<String>,
    /// How many (default 1).
    #[serde(default = "one")]
    pub count: u32,
    /// A random canonical sequence of this many moves instead of a uniform random position.
    #[serde(default)]
    pub moves: Option<u32>,
    /// Cubes: `htm` (default), `qtm`, `stm` or `etm`.
    #[serde(default)]
    pub metric: Option<String>,
    /// Seed for a repeatable draw.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Boards: how positions are written, `list` (default), `hex` or `grid`.
    #[serde(default)]
    pub format: Option<String>,
    /// Boards: the goal each position is drawn to reach (a walk starts from it): tiles, or
    /// `blank-first` (Korf's); default: tiles in order, blank last.
    #[serde(default)]
    pub goal: Option<String>,
}

fn one() -> u32 {
    1
}

/// The puzzles, algorithms and heuristics a front end can offer, for its menus.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Catalog {
    /// Puzzle names with what each takes.
    pub puzzles: Vec<PuzzleEntry>,
    /// Every `algorithm` value.
    pub algorithms: Vec<&'static str>,
    /// Every `heuristic` value.
    pub heuristics: Vec<&'static str>,
    /// Every cube `metric` value.
    pub metrics: Vec<&'static str>,
    /// The optimal cube solver's `table_size` values.
    pub table_sizes: Vec<&'static str>,
}

/// One puzzle in the [`Catalog`].
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PuzzleEntry {
    /// The name requests use.
    pub name: String,
    /// Its kind in the registry, which says what a page draws: `tiles`, `cube`, `pancake` or
    /// `definition`.
    pub kind: &'static str,
    /// The goal (tiles) or `solved`.
    pub goal: String,
    /// The algorithms that solve it.
    pub algorithms: Vec<&'static str>,
    /// Named pattern-database partitions for its board (tiles).
    pub partitions: Vec<&'static str>,
    /// The moves a page offers as buttons, each also undone with `'` (definition puzzles: the
    /// file's moves); empty where the page has controls of its own (boards, cubes, pancakes).
    pub moves: Vec<String>,
    /// The document its solves return, so that a front end picks its printer by the document,
    /// never by which puzzle it is.
    pub solution: SolutionDocument,
    /// Whether a position may be given as a KPuzzle pattern (its JSON), as well as in the
    /// puzzle's own notation.
    pub patterns: bool,
    /// What a page draws of its positions.
    pub view: View,
    /// The solve request fields it takes besides `puzzle` and `position` (of
    /// [`SOLVE_OPTIONS`]); every other one is refused, never ignored. Some are taken only with
    /// some algorithms (`depth` with half-depth), as the refusal then says.
    pub options: Vec<&'static str>,
    /// The `metric` values its lengths may be counted in, the default first; empty where its
    /// moves are counted one way.
    pub metrics: Vec<&'static str>,
    /// The `heuristic` values it takes; empty where its solvers choose their own estimates.
    pub heuristics: Vec<&'static str>,
    /// What its solvers estimate distances with when the request leaves it to them, in words.
    pub default_heuristic: String,
}

/// Every field of a [`SolveRequest`] besides `puzzle` and `position`: the options a
/// [`PuzzleEntry`] says it takes are among them.
pub const SOLVE_OPTIONS: [&str; 26] = [
    "generators",
    "goal",
    "algorithm",
    "heuristic",
    "pdb",
    "no_reflection",
    "reverse",
    "both_ways",
    "probe",
    "stages",
    "effort",
    "depth",
    "metric",
    "facelets",
    "moves",
    "max_length",
    "optimal",
    "all",
    "count",
    "table_size",
    "known_solution",
    "timeout",
    "resume_from",
    "resume_subtrees",
    "resume_way",
    "table",
];

/// The solve options a definition puzzle takes (see [`PuzzleEntry::options`]).
pub const DEFINITION_OPTIONS: [&str; 8] = [
    "metric",
    "generators",
    "timeout",
    "moves",
    "count",
    "table",
    "algorithm",
    "depth",
];

/// What a page draws of a puzzle's positions: read from its [`PuzzleEntry`], so that a page
/// never asks which puzzle it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "shape", rename_all = "lowercase")]
pub enum View {
    /// A board of `width` x `height` cells; a position is its tile list, the blank 0.
    Board {
        /// Cells a row.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// A stack, top first; a position is the list of sizes.
    Stack,
    /// A cube of `order` layers, drawn from the 54 facelets its replay answers (an order-2
    /// cube's stickers are the corners of those faces).
    Cube {
        /// Layers along an edge: 2 or 3.
        order: u8,
    },
    /// Each orbit's slots with the piece in each and its twist, from the KPuzzle pattern its
    /// replay answers.
    Orbits,
    /// The position as text, as its replay answers it.
    Text,
}

/// Which [`SolveReport`] a puzzle's solves return.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SolutionDocument {
    /// [`SolveReport::Tiles`]: a board, its solution as the blank's moves or the tiles'.
    Tiles,
    /// [`SolveReport::Cube`]: a cube, in cubers' notation.
    Cube,
    /// [`SolveReport::Definition`]: a start and its moves, named as the puzzle names them.
    Moves,
}

/// Every `algorithm` value, in the order menus show them.
pub const ALGORITHMS: [Algorithm; 9] = [
    Algorithm::Auto,
    Algorithm::Astar,
    Algorithm::Ida,
    Algorithm::ParallelIda,
    Algorithm::Table,
    Algorithm::HalfDepth,
    Algorithm::TwoStage,
    Algorithm::Subgoal,
    Algorithm::TwoPhase,
];

/// The catalog of puzzles and options: the puzzles every registered kind lists first (any
/// `WxH` board, `pancake-N` and definition files are read too).
pub fn catalog() -> Catalog {
    Catalog {
        puzzles: crate::registry::listed_entries(),
        algorithms: ALGORITHMS.iter().map(|a| a.name()).collect(),
        heuristics: crate::choice::HEURISTICS.to_vec(),
        metrics: crate::registry::cubes::METRICS.to_vec(),
        table_sizes: TableSize::ALL.iter().map(|s| s.name()).collect(),
    }
}

/// The catalog entry of the puzzle `name` means, for any name a request takes (a `WxH` board,
/// `15-puzzle`, `pancake-N`, a shipped definition), not only those [`catalog`] lists; its
/// `name` is the one requests use (`15-puzzle` is `4x4`). A definition given as a path is
/// read only where `read_files` (a server refuses it, as it does in a request).
pub fn puzzle_entry(name: &str, read_files: bool) -> AppResult<PuzzleEntry> {
    registry::open(name, read_files).map(|puzzle| puzzle.entry())
}

/// The limits one job runs under.
#[derive(Debug, Clone, Copy)]
pub struct JobLimits {
    /// Bytes the job may hold (A*, tables built, enumerations, half-depth levels).
    pub memory_bytes: u64,
    /// IDA* stops after about this many nodes expanded, with its lower bound.
    pub max_nodes: Option<u64>,
    /// Searches stop this long after they start (IDA*, two-phase, the optimal cube search);
    /// a request's own timeout may be shorter.
    pub max_seconds: Option<Duration>,
    /// The largest optimal-solver table a request may ask for.
    pub largest_table: TableSize,
    /// The most scrambles one request may ask for.
    pub max_scrambles: u32,
    /// Whether a puzzle named by a definition file's path is read (Python: yes; the HTTP
    /// server: no, since it must not read files its clients name).
    pub definition_files: bool,
}

impl JobLimits {
    /// The limits of a front end working for the user on their own machine (the command
    /// line): `memory_bytes`, and no other: no node or time limit, every optimal-solver table
    /// size, any number of scrambles, definition and table files read.
    pub fn local(memory_bytes: u64) -> Self {
        JobLimits {
            memory_bytes,
            max_nodes: None,
            max_seconds: None,
            largest_table: TableSize::ALL[TableSize::ALL.len() - 1],
            max_scrambles: u32::MAX,
            definition_files: true,
        }
    }
}

/// A running job's state for watchers: its enumeration levels, its search's threshold and
/// nodes, and the cancel switch every engine of the job looks at. It is the job's
/// [`Progress`] sink.
#[derive(Debug, Default)]
pub struct JobControl {
    watch: Watch,
    cancelled: AtomicBool,
    started: OnceLock<Instant>,
    level: AtomicU32,
    level_units: AtomicU64,
    level_done: AtomicU64,
    levels: Mutex<Vec<u64>>,
    detail: Mutex<String>,
    /// The tables being loaded or built, since when, and how many builds deep (a staged
    /// plan's tables may load a heuristic's databases).
    tables: Mutex<Option<(String, Instant, u32)>>,
    /// Time spent on tables before the ones under way, in nanoseconds.
    tables_nanos: AtomicU64,
    /// Hints the work gave (a database that would make it faster).
    hints: Mutex<Vec<Hint>>,
}

/// Something that would make a job's work faster, which a front end can offer to do.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Hint {
    /// What would help, in words.
    pub text: String,
    /// The named partition whose pattern databases would help (build them with
    /// `/api/jobs/pdb`, `godsearch pdb build`, or Python's `build_pdb`), if that is the hint.
    pub partition: Option<String>,
}

/// What a job has done so far (one server-sent event).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct JobProgress {
    /// Seconds since the job started.
    pub seconds: f64,
    /// IDA*: the threshold of the iteration under way (0 when not searching).
    pub threshold: u32,
    /// IDA*: nodes expanded so far (in blocks of 65,536 a thread), every probe's included.
    pub nodes: u64,
    /// IDA* with `probe`: the way being probed, or the one chosen; `None` without probes.
    /// While probing, the threshold is the probe's.
    pub probe: Option<ProbeProgress>,
    /// Enumerations and table builds: the level under way.
    pub level: u32,
    /// The share of that level done, 0 to 1.
    pub level_fraction: f64,
    /// Enumerations: the counts of the levels finished.
    pub levels: Vec<u64>,
    /// What the job is doing, in words.
    pub detail: String,
    /// The tables being loaded or built (`the 6-6-6-6 pattern databases, 2 of 4`), empty when
    /// none: the level and its share above are then the build's.
    pub tables: String,
    /// What would make the work faster, as the work found it (a database to build).
    pub hints: Vec<Hint>,
    /// Seconds spent loading and building tables so far, which do not count against the
    /// job's time limit (`seconds` includes them).
    pub table_seconds: f64,
    /// Whether it was asked to stop.
    pub cancelled: bool,
}

/// Which of the ways a request probes (`probe`) is searching.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ProbeProgress {
    /// The way, from 1, in the order the ways are probed: each partition of `pdb` in turn, as
    /// given, forwards (with `reverse` backwards; with `both_ways` forwards, then backwards).
    pub way: usize,
    /// Its name, as the report's `chosen_way` names ways: `6-6-6-6b forwards`,
    /// `6-6-6-6 backwards`.
    pub name: String,
    /// How many ways there are.
    pub ways: usize,
    /// Whether the probes are over and this way, chosen, goes on alone.
    pub chosen: bool,
}

impl ProbeProgress {
    /// What `watch` says of the probes of the search it follows.
    fn of(watch: &Watch) -> Option<Self> {
        let (way, chosen) = match watch.chosen_way() {
            Some(way) => (way, true),
            None => (watch.probing()?.0, false),
        };
        Some(ProbeProgress {
            way: way + 1,
            name: watch
                .way_name(way)
                .unwrap_or_else(|| format!("way {}", way + 1)),
            ways: watch.ways_probed(),
            chosen,
        })
    }
}

impl JobControl {
    /// The control of a job whose IDA* stops after about `max_nodes` nodes.
    pub fn new(max_nodes: Option<u64>) -> Self {
        JobControl {
            watch: max_nodes.map_or_else(Watch::default, Watch::with_node_limit),
            ..JobControl::default()
        }
    }

    /// Asks every engine of the job to stop as soon as it looks (IDA* within 65,536 nodes a
    /// thread, on boards, cubes, pancakes and definition puzzles; A* within 4,096 states
    /// expanded, on boards and pancakes, with its proven bound; the optimal cube search
    /// within its next check; the table engine within a task of its level, and so the
    /// definition puzzles' databases, the subgoal solvers' stage tables and the two-phase and
    /// optimal cube tables, none of which is then kept; a board's pattern-database build
    /// within a task of its level; the frontier engine, and so a half-depth search holding
    /// the goal's positions, between levels; a two-phase search within 4,096 nodes,
    /// answering with the first solution it finds).
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
        self.watch.cancel();
    }

    /// The search's watch, for IDA*.
    pub fn watch(&self) -> &Watch {
        &self.watch
    }

    /// Sets what the job is doing, in words, for its watchers (as engines do through
    /// [`Progress::detail`]).
    pub fn say(&self, text: &str) {
        self.detail(text);
    }

    /// Hears what the work tells of its tables: it becomes the job's detail, and a hint (a
    /// database that would make the work faster) is kept for [`hints`](Self::hints).
    pub fn tell(&self, notice: &Notice) {
        let text = notice_text(notice);
        if let Notice::NothingCached { partition, .. } = notice {
            self.hints
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(Hint {
                    text: text.clone(),
                    partition: Some(partition.to_string()),
                });
        }
        self.detail(&text);
    }

    /// The hints the work gave, in the order given.
    pub fn hints(&self) -> Vec<Hint> {
        self.hints
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The switch [`cancel`](Self::cancel) sets, for engines that look at a flag.
    pub fn cancel_flag(&self) -> &AtomicBool {
        &self.cancelled
    }

    /// What the job has done so far.
    pub fn progress(&self) -> JobProgress {
        let (tables, table_time) = self.tables_now();
        let units = self.level_units.load(Ordering::Relaxed);
        let done = self.level_done.load(Ordering::Relaxed);
        JobProgress {
            seconds: self
                .started
                .get()
                .map_or(0.0, |s| s.elapsed().as_secs_f64()),
            threshold: self.watch.threshold(),
            nodes: self.watch.expanded(),
            probe: ProbeProgress::of(&self.watch),
            level: self.level.load(Ordering::Relaxed),
            level_fraction: if units == 0 {
                0.0
            } else {
                (done as f64 / units as f64).min(1.0)
            },
            levels: self
                .levels
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone(),
            detail: self
                .detail
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone(),
            tables,
            hints: self.hints(),
            table_seconds: table_time.as_secs_f64(),
            cancelled: self.cancelled.load(Ordering::Relaxed),
        }
    }

    /// The tables being loaded or built now (empty when none), and the time spent on tables,
    /// the build under way included: one read of the state both come from.
    fn tables_now(&self) -> (String, Duration) {
        let before = Duration::from_nanos(self.tables_nanos.load(Ordering::Relaxed));
        let tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
        match tables.as_ref() {
            Some((what, since, _)) => (what.clone(), before + since.elapsed()),
            None => (String::new(), before),
        }
    }

    /// The job's time that counts against its limit: since it started, less the time spent
    /// loading and building tables (which later requests reuse). Zero before it starts.
    pub fn charged(&self) -> Duration {
        self.started.get().map_or(Duration::ZERO, |s| {
            s.elapsed().saturating_sub(self.tables_now().1)
        })
    }

    /// Whether tables are being loaded or built now.
    pub fn on_tables(&self) -> bool {
        self.tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_some()
    }

    /// Marks the job's own work begun: its time ([`charged`](Self::charged)) counts from the
    /// first call. The workbench's requests call it; other work run as a job calls it too.
    pub fn start(&self) {
        let _ = self.started.set(Instant::now());
    }
}

impl Progress for JobControl {
    fn level_started(&self, depth: u32, units: u64) {
        self.level.store(depth, Ordering::Relaxed);
        self.level_units.store(units, Ordering::Relaxed);
        self.level_done.store(0, Ordering::Relaxed);
    }

    fn advanced(&self, units: u64) {
        self.level_done.fetch_add(units, Ordering::Relaxed);
    }

    fn level_finished(&self, depth: u32, positions: u64) {
        let mut levels = self.levels.lock().unwrap_or_else(PoisonError::into_inner);
        if levels.len() == depth as usize {
            levels.push(positions);
        }
    }

    fn detail(&self, text: &str) {
        *self.detail.lock().unwrap_or_else(PoisonError::into_inner) = text.to_string();
    }

    fn cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    fn tables_started(&self, what: &str) {
        let mut tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
        // A build inside another keeps the outer one's start: no time is counted twice.
        *tables = Some(match tables.take() {
            Some((_, since, depth)) => (what.to_string(), since, depth + 1),
            None => (what.to_string(), Instant::now(), 1),
        });
    }

    fn tables_ready(&self) {
        let mut tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
        match tables.take() {
            Some((what, since, depth)) if depth > 1 => *tables = Some((what, since, depth - 1)),
            Some((_, since, _)) => {
                self.tables_nanos
                    .fetch_add(since.elapsed().as_nanos() as u64, Ordering::Relaxed);
            }
            None => {}
        }
    }
}

/// The table cache and what puzzles keep loaded between requests, shared by every request of
/// a front end's lifetime (see the module docs). Safe to share between threads.
pub struct Workbench {
    cache: TableCache,
    /// Batches of at least this many positions get tables that are read at random (the
    /// two-phase tables) in huge pages.
    resident_from: usize,
    /// What each puzzle's module keeps loaded (tables, heuristics, solvers), one value of each
    /// type, made on first use: see [`Workbench::kept`].
    kept: Mutex<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>,
}

/// Batches of at least this many cubes copy the two-phase tables into huge pages first: a cube
/// then takes about 0.14 ms less (`bench --section cube`), and the copy took 1.3-1.5 s on the
/// machine this was measured on (fresh memory is slow to fault in there).
pub const RESIDENT_FROM: usize = 10_000;

impl Workbench {
    /// A workbench over `cache` with nothing loaded, for a front end that serves many
    /// requests (a server, a Python session): tables read at random, once loaded, are made
    /// resident in huge pages.
    pub fn new(cache: TableCache) -> Self {
        Workbench {
            resident_from: 0,
            ..Self::for_one_batch(cache)
        }
    }

    /// A workbench for one command's batch: tables read at random are made resident only for
    /// a batch known to hold at least [`RESIDENT_FROM`] positions.
    pub fn for_one_batch(cache: TableCache) -> Self {
        Workbench {
            cache,
            resident_from: RESIDENT_FROM,
            kept: Mutex::new(HashMap::new()),
        }
    }

    /// The table cache.
    pub fn cache(&self) -> &TableCache {
        &self.cache
    }

    /// Whether a batch of `positions` (`None`: unknown) should have tables read at random
    /// copied into huge pages first: always on a workbench serving many requests.
    pub fn makes_resident(&self, positions: Option<usize>) -> bool {
        positions.unwrap_or(0) >= self.resident_from
    }

    /// The value of type `T` this workbench keeps for a puzzle's module (the tables, heuristics
    /// or solvers it loaded), made with `T::default()` on first use: every request gets the
    /// same one, so a module keeps what it loads without the workbench knowing its types.
    pub fn kept<T: Default + Send + Sync + 'static>(&self) -> Arc<T> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let value = kept
            .entry(TypeId::of::<T>())
            .or_insert_with(|| Arc::new(T::default()));
        Arc::clone(value)
            .downcast::<T>()
            .expect("each value is kept under its own type's id")
    }

    /// Tells `notices` that the tables `what` were built, if they were (`origin`).
    pub fn tell(&self, notices: &mut dyn FnMut(Notice), what: &str, origin: Origin) {
        if let Origin::Built {
            seconds,
            replaced,
            not_saved,
        } = origin
        {
            notices(Notice::TablesBuilt {
                what: what.to_string(),
                seconds,
                replaced,
                saved: not_saved.map_or_else(|| Ok(self.cache.dir().to_path_buf()), Err),
            });
        }
    }

    /// Solves one position as `request` asks, within `limits`, reporting to `control`. The
    /// solution is replayed before it is returned, as on the command line.
    pub fn solve(
        &self,
        request: &SolveRequest,
        limits: &JobLimits,
        control: &JobControl,
    ) -> AppResult<SolveReport> {
        let puzzle = registry::open(&request.puzzle, limits.definition_files)?;
        self.solve_opened(&*puzzle, request, limits, control)
    }

    /// [`solve`](Self::solve) for a puzzle the front end opened itself (a `--def FILE` of any
    /// name): `request.puzzle` only names it in the report.
    pub fn solve_opened(
        &self,
        puzzle: &dyn registry::Puzzle,
        request: &SolveRequest,
        limits: &JobLimits,
        control: &JobControl,
    ) -> AppResult<SolveReport> {
        control.start();
        puzzle.solve(self, request, limits, control)
    }

    /// Solves the positions `asked` lists under its request's options as one batch: what
    /// they need loaded or built once, the positions spread over the threads where the solver
    /// does (two-phase), the reports in their order, each solution replayed. A puzzle without
    /// batches solves them a request a position. It stops at the first position that fails,
    /// named by its index (a position that cannot be read before any work); cancelled, it
    /// answers the reports of the chunks finished.
    pub fn solve_batch(
        &self,
        asked: &SolveBatchRequest,
        limits: &JobLimits,
        control: &JobControl,
    ) -> AppResult<Vec<SolveReport>> {
        let (request, positions) = (&asked.request, &asked.positions);
        control.start();
        let puzzle = registry::open(&request.puzzle, limits.definition_files)?;
        let Some(batch) = puzzle.batch(request) else {
            asked.precheck(limits)?;
            return positions
                .iter()
                .enumerate()
                .map(|(i, position)| {
                    puzzle
                        .solve(self, &asked.request_for(position), limits, control)
                        .map_err(|e| at_index(i, e))
                })
                .collect();
        };
        let batch = batch?;
        let read = positions
            .iter()
            .enumerate()
            .map(|(i, text)| batch.read(text, Source::Given).map_err(|e| at_index(i, e)))
            .collect::<AppResult<Vec<_>>>()?;
        let setup = BatchSetup {
            limits: *limits,
            positions: Some(read.len()),
            progress: control,
            notices: &mut |notice| control.tell(&notice),
            stop: Some(control.cancel_flag()),
        };
        let solver = batch.solver(self, setup)?;
        let mut reports = Vec::with_capacity(read.len());
        for chunk in read.chunks(solver.chunk().max(1)) {
            if control.cancelled() {
                break;
            }
            for report in solver.solve(chunk, Some(control.watch())) {
                reports.push(report.map_err(|e| at_index(reports.len(), e))?);
            }
        }
        Ok(reports)
    }

    /// Enumerates as `job` asks, in at most `limits.memory_bytes`, reporting each level to
    /// `control` and stopping after the level under way when it is cancelled. A table to
    /// save (`job.save`, local front ends only) has its target checked before any work.
    pub fn bfs(
        &self,
        job: &BfsJob,
        limits: &JobLimits,
        control: &JobControl,
    ) -> AppResult<BfsReport> {
        control.start();
        if let Some(path) = &job.save {
            if !limits.definition_files {
                return Err(AppError::Input(
                    "this server does not write table files named in requests".into(),
                ));
            }
            godsearch_tables::file::check_target(path)?;
        }
        let request = BfsRequest {
            limits: Limits {
                max_depth: job.max_depth,
                memory_bytes: limits.memory_bytes,
                antipode_cap: ANTIPODE_CAP,
                count_last: job.count_last,
            },
            engine: EngineChoice::Auto,
            save: job.save.as_deref(),
            disk: None,
            cluster: None,
        };
        registry::open(&job.puzzle, limits.definition_files)?.bfs(job, &request, control)
    }

    /// Loads or builds (and caches) the pattern databases of `job`'s partition, each in at
    /// most `limits.memory_bytes`. A search asking for them next finds them loaded.
    pub fn build_pdb(
        &self,
        job: &PdbJob,
        limits: &JobLimits,
        control: &JobControl,
    ) -> AppResult<PdbReport> {
        control.start();
        registry::open(&job.puzzle, limits.definition_files)?.build_pdb(self, job, limits, control)
    }

    /// Makes the scrambles `request` asks for (at most `limits.max_scrambles`).
    pub fn scramble(
        &self,
        request: &ScrambleRequest,
        limits: &JobLimits,
        control: &JobControl,
    ) -> AppResult<Vec<Scramble>> {
        control.start();
        request.check_counts(limits)?;
        let mut rng = match request.seed {
            Some(seed) => StdRng::seed_from_u64(seed),
            None => StdRng::from_entropy(),
        };
        let puzzle = registry::open(&request.puzzle, limits.definition_files)?;
        let scrambler = puzzle.scrambler(self, request, limits, control)?;
        (0..request.count)
            .map(|_| scrambler.next(&mut rng))
            .collect()
    }
}

impl ScrambleRequest {
    /// Refuses a count of 0 or over `limits.max_scrambles`, and walks past
    /// [`MAX_SCRAMBLE_MOVES`](crate::units::MAX_SCRAMBLE_MOVES).
    fn check_counts(&self, limits: &JobLimits) -> AppResult<()> {
        if self.count > limits.max_scrambles {
            return Err(AppError::Input(format!(
                "«count» {} is over the limit of {} a request",
                self.count, limits.max_scrambles
            )));
        }
        if self.count == 0 {
            return Err(AppError::Input("«count» must be at least 1".into()));
        }
        if let Some(n) = self
            .moves
            .filter(|&n| n as u64 > crate::units::MAX_SCRAMBLE_MOVES)
        {
            return Err(AppError::Input(format!(
                "«moves» {n}: at most {} moves can be asked for",
                crate::units::MAX_SCRAMBLE_MOVES
            )));
        }
        // One request's answer stays a few megabytes: the moves of all its scrambles together
        // are bounded as one scramble's are.
        let total = u64::from(self.count) * u64::from(self.moves.unwrap_or(0));
        if total > crate::units::MAX_SCRAMBLE_MOVES {
            return Err(AppError::Input(format!(
                "{} scrambles of {} moves make {total} moves; at most {} moves in all can be asked for at once",
                self.count,
                self.moves.unwrap_or(0),
                crate::units::MAX_SCRAMBLE_MOVES
            )));
        }
        Ok(())
    }
}

/// Pattern databases to build into the cache, named like `pdb build`'s options: a board's
/// partition, or every database a definition puzzle's solver reads.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PdbJob {
    /// The board size, e.g. `4x4`, or a definition puzzle.
    pub puzzle: String,
    /// Boards: the partition, by name (`6-6-3`) or tile groups (`1,2,3/4,5,6`). Definition
    /// puzzles choose their databases themselves.
    #[serde(default)]
    pub partition: Option<String>,
    /// Boards: the goal (tiles, or `blank-first`: Korf's; default: tiles in order, blank last).
    #[serde(default)]
    pub goal: Option<String>,
    /// Definition puzzles: the generators the solver searches with (default: the file's moves).
    #[serde(default)]
    pub generators: Option<String>,
    /// Definition puzzles: `htm` (default) or `qtm`, as the solver counts moves.
    #[serde(default)]
    pub metric: Option<String>,
    /// Boards: leave out the databases of the partition's mirror image, which a solve with
    /// reflection (the default) also reads where no mirror of the board keeps the goal's blank.
    #[serde(default)]
    pub no_reflection: bool,
    /// Build even when cached.
    #[serde(default)]
    pub force: bool,
}

/// A partition's databases, or a definition puzzle's, each cached or built.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PdbReport {
    /// The board size, or the definition puzzle.
    pub puzzle: String,
    /// The goal: a board's tile list, or `solved`.
    pub goal: String,
    /// The partition's name, or how a definition puzzle's databases were chosen.
    pub partition: String,
    /// The cache folder.
    pub cache: String,
    /// One database a group of tiles, or a projection of a definition puzzle.
    pub groups: Vec<PdbGroup>,
}

/// One database in a [`PdbReport`].
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PdbGroup {
    /// What it keeps: `tiles 1,2,3`, or a projection (`EDGES slots 0-5 with their
    /// orientations`).
    pub what: String,
    /// The group's tiles (none for a definition puzzle's database).
    pub tiles: Vec<u16>,
    /// Entries (one byte each).
    pub entries: u64,
    /// `cached` (found in the cache) or `built`.
    pub origin: &'static str,
    /// Seconds the build took (0 when cached).
    pub seconds: f64,
    /// Why a cached file was not used and the database was built again, if one was there.
    pub replaced: Option<String>,
    /// Why a database built was not saved to the cache, if it was not.
    pub not_saved: Option<String>,
}

/// A solution to play from its start, step by step.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplayRequest {
    /// The puzzle, as for a solve.
    pub puzzle: String,
    /// The start, as for a solve (a board, facelets or cube moves).
    pub position: String,
    /// The moves: the blank's (`U D L R`) on boards, Singmaster notation on cubes (slices
    /// and rotations turn the cube as held, as solutions in the slice-turn metric are written).
    pub solution: String,
    /// The board's goal (tiles, or `blank-first`: Korf's; default: tiles in order, blank last).
    #[serde(default)]
    pub goal: Option<String>,
    /// Cubes: read `position` as stickers (where 54 letters could also be moves).
    #[serde(default)]
    pub facelets: bool,
}

/// The positions a solution passes through.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Replay {
    /// The start and the position after each move: tile lists, or 54-sticker facelet strings
    /// (the 2x2x2 too, its edges and centres solved).
    pub positions: Vec<String>,
    /// Whether the last one is the goal (solved).
    pub solved: bool,
}

/// What a front end can refuse before it queues the work: the request read and checked as far
/// as is cheap (puzzle, goal, position, options), with no table built and no search run. The
/// work checks everything again; this only lets a job with bad input be refused at once.
pub trait Precheck {
    /// `Ok` when nothing cheap to check is wrong; the error the work would end with otherwise.
    fn precheck(&self, limits: &JobLimits) -> AppResult<()> {
        let _ = limits;
        Ok(())
    }
}

impl Precheck for SolveRequest {
    fn precheck(&self, limits: &JobLimits) -> AppResult<()> {
        registry::open(&self.puzzle, limits.definition_files)?.check_solve(self)
    }
}

impl Precheck for SolveBatchRequest {
    /// Each position and the options, as a request of its own would be checked.
    fn precheck(&self, limits: &JobLimits) -> AppResult<()> {
        let puzzle = registry::open(&self.request.puzzle, limits.definition_files)?;
        for (i, position) in self.positions.iter().enumerate() {
            puzzle
                .check_solve(&self.request_for(position))
                .map_err(|e| at_index(i, e))?;
        }
        Ok(())
    }
}

/// A batch's refusal of its position `i`, naming it.
fn at_index(i: usize, refusal: AppError) -> AppError {
    match refusal.is_bad_input() {
        true => AppError::Input(format!("positions[{i}]: {refusal}")),
        false => refusal,
    }
}

impl Precheck for BfsJob {
    fn precheck(&self, limits: &JobLimits) -> AppResult<()> {
        registry::open(&self.puzzle, limits.definition_files)?.check_bfs(self)
    }
}

impl Precheck for ScrambleRequest {
    fn precheck(&self, limits: &JobLimits) -> AppResult<()> {
        self.check_counts(limits)?;
        registry::open(&self.puzzle, limits.definition_files).map(|_| ())
    }
}

impl Precheck for PdbJob {
    fn precheck(&self, limits: &JobLimits) -> AppResult<()> {
        registry::open(&self.puzzle, limits.definition_files)?.check_pdb(self)
    }
}

/// Plays `request.solution` from its start, refusing a move that leaves the board or cannot be
/// read. Definition files are not read (the server replays; it must not open files its
/// clients name).
pub fn replay(request: &ReplayRequest) -> AppResult<Replay> {
    registry::open(&request.puzzle, false)?.replay(request)
}

/// The most cells or stickers a replay lists in all (positions times their size): a few tens
/// of megabytes of JSON at most.
pub const MAX_REPLAY_ENTRIES: usize = 4_000_000;

/// Refuses a replay of `moves` moves of positions of `size` entries past
/// [`MAX_REPLAY_ENTRIES`].
pub(crate) fn check_replay_size(moves: usize, size: usize) -> AppResult<()> {
    let entries = (moves + 1).saturating_mul(size);
    if entries > MAX_REPLAY_ENTRIES {
        return Err(AppError::Input(format!(
            "a replay of {moves} moves lists {entries} cells or stickers; at most {MAX_REPLAY_ENTRIES} are listed (fewer moves, or verify, which prints only the end)"
        )));
    }
    Ok(())
}

/// A notice in words, for a job's progress.
pub(crate) fn notice_text(notice: &Notice) -> String {
    match notice {
        Notice::Rebuilding { why } => format!("rebuilding a cached pattern database ({why})"),
        Notice::Built {
            tiles,
            entries,
            seconds,
            ..
        } => format!(
            "built the pattern database of tiles {tiles:?}: {} entries in {seconds:.2} s",
            crate::units::format_count(*entries)
        ),
        Notice::StagesBuilt { plan, seconds, .. } => format!(
            "built the subgoal stage tables of plan {} in {seconds:.2} s",
            excerpt(plan)
        ),
        Notice::NothingCached { partition, .. } => format!(
            "no pattern database is cached; the {partition} databases would make long boards far faster"
        ),
        Notice::TablesBuilt { what, seconds, .. } => format!("built {what} in {seconds:.1} s"),
        Notice::HalfDepthHeld {
            positions,
            depth,
            all,
        } => half_depth_text(*positions, *depth, *all),
    }
}

/// What half-depth search holds, in words.
pub fn half_depth_text(positions: u64, depth: u32, all: bool) -> String {
    let held = crate::units::format_count(positions);
    match all {
        true => format!("holding all {held} positions: every board is solved"),
        false => format!(
            "holding the {held} positions within {depth} moves of the goal: boards within {} moves are solved",
            2 * depth
        ),
    }
}

/// The shorter of two optional durations.
pub(crate) fn shorter(a: Option<Duration>, b: Option<Duration>) -> Option<Duration> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The optimal solver's table named by `--table-size` (default 1gb).
pub fn optimal_table_size(name: Option<&str>) -> AppResult<TableSize> {
    match name {
        None => Ok(TableSize::Gigabyte),
        Some(name) => TableSize::from_name(name).ok_or_else(|| {
            AppError::Input(format!(
                "unknown «table_size» '{}': expected {}",
                excerpt(name),
                TableSize::names()
            ))
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Counter(AtomicU32);

    #[derive(Default)]
    struct Other(AtomicU32);

    #[test]
    fn a_kept_value_is_made_once_a_type_and_shared_by_every_request() {
        let bench = Workbench::new(TableCache::new(std::env::temp_dir()));
        bench.kept::<Counter>().0.fetch_add(1, Ordering::Relaxed);
        bench.kept::<Counter>().0.fetch_add(1, Ordering::Relaxed);
        assert_eq!(bench.kept::<Counter>().0.load(Ordering::Relaxed), 2);
        assert_eq!(bench.kept::<Other>().0.load(Ordering::Relaxed), 0);
        let other = Workbench::new(TableCache::new(std::env::temp_dir()));
        assert_eq!(other.kept::<Counter>().0.load(Ordering::Relaxed), 0);
    }
}
