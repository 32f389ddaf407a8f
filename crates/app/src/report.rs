//! The results front ends print or send, as serde types. Their JSON (field names as written
//! here, one document per result) is the schema of `--json` and of the HTTP API; a field's doc
//! comment is its definition. Add fields, never rename or remove them; a field added to
//! [`Solution`] takes `#[serde(default)]` (or is an `Option`), since checkpoints keep solved
//! boards' reports and read them back, written by earlier builds.
//!
//! [`json_schema`] derives a JSON Schema (draft 2020-12) from these types and their doc
//! comments; the repository keeps it as `docs/report.schema.json`, which a test holds equal to
//! what the types say.

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

/// One solved sliding-tile board. It reads back from its JSON (a checkpoint keeps a solved
/// board's report and prints it again).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Solution {
    /// The board size, e.g. `4x4`.
    pub puzzle: String,
    /// The board's id in an input file, if it had one.
    pub id: Option<String>,
    /// The start board, as a tile list.
    pub start: String,
    /// The goal the board was solved for, written as `start` is, where it is not the board's
    /// default (tiles in order, blank last): Korf's `blank-first`, or any given. Absent for the
    /// default goal, and from reports written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<String>,
    /// The blank's moves (`U D L R`), space-separated; empty when timed out.
    pub solution: String,
    /// Number of moves.
    pub length: usize,
    /// The length an input file gave for this board.
    pub expected_length: Option<usize>,
    /// Whether the method proves the solution shortest.
    pub optimal: bool,
    /// The algorithm's name as `--algorithm` takes it.
    #[serde(deserialize_with = "algorithm_name")]
    pub algorithm: AlgorithmName,
    /// The heuristic (or for staged solvers, the stages) used.
    pub heuristic: String,
    /// Nodes expanded (positions whose moves were generated).
    pub nodes_expanded: u64,
    /// Nodes generated.
    pub nodes_generated: u64,
    /// IDA* thresholds, in order; for a search stopped before a solution, the last is the
    /// iteration it was stopped in.
    pub thresholds: Vec<u32>,
    /// Nodes expanded in each IDA* iteration, in the order of `thresholds` (a search both
    /// ways: by both directions, over every turn; with probes: the way chosen's, its probe's
    /// and after, every probe's nodes being in `nodes_expanded`; a stopped iteration: before
    /// the stop).
    pub iteration_expanded: Vec<u64>,
    /// Seconds spent on this board.
    pub seconds: f64,
    /// The search ran past its deadline: no solution, but a proven lower bound.
    pub timed_out: bool,
    /// With `timed_out`: every solution has at least this many moves.
    pub lower_bound: Option<u32>,
    /// IDA* resumed from this bound (`--resume-from`): its first threshold. The solution is
    /// shortest when the bound was one a search proved.
    pub resumed_from: Option<u32>,
    /// With `timed_out`, parallel IDA*: the subtrees of the iteration of `lower_bound` it
    /// searched to the end, as a token for `resume_subtrees` (`--resume-subtrees`), so that a
    /// run continued from that bound skips them; `null` when none was finished.
    pub searched_subtrees: Option<String>,
    /// Bytes the method held for this board: its pattern databases, A*'s stored positions
    /// (at 64 bytes each), the distance table or the half-depth levels; `null` for the staged
    /// solvers.
    pub memory_bytes: Option<u64>,
    /// The solution as asked for (`--as`, `--runs`), when that is not the blank's moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub written: Option<String>,
    /// The `--checkpoint` file this report was kept in by the earlier run that solved the
    /// board, when it is printed again from there: its `seconds` and nodes are that run's.
    /// Absent from the report of a search made by this run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept_in: Option<String>,
    /// With `probe`: the way the probes chose, which searched on (or solved the board in its
    /// probe); a stopped search's `searched_subtrees` are its own. A run that went on with the
    /// way an earlier run's probes chose (the command line's `--checkpoint`) names that way.
    /// Absent without probes, and where the search was stopped before the choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen_way: Option<SearchWay>,
}

/// One way to search a board: a pattern-database partition and a direction, as the options
/// `pdb` and `reverse` name them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SearchWay {
    /// The partition (`None`: the heuristic the request chose otherwise).
    pub pdb: Option<String>,
    /// Searched from the goal to the board.
    pub reverse: bool,
}

impl SearchWay {
    /// How a report names it: `6-6-6-6b forwards`, `6-6-6-6 backwards`.
    pub fn name(&self) -> String {
        let direction = match self.reverse {
            true => "backwards",
            false => "forwards",
        };
        match &self.pdb {
            Some(pdb) => format!("{pdb} {direction}"),
            None => direction.to_string(),
        }
    }
}

/// An algorithm's name, one of [`crate::choice::Algorithm::name`]'s. (Named so that serde's
/// derive, which borrows a field written `&str` from the text read, reads it as a whole value.)
pub type AlgorithmName = &'static str;

/// An algorithm's name read back as the one [`crate::choice::Algorithm::name`] gives, so that
/// a report read keeps the names a report made has.
fn algorithm_name<'de, D: Deserializer<'de>>(names: D) -> Result<&'static str, D::Error> {
    crate::choice::Algorithm::deserialize(names).map(crate::choice::Algorithm::name)
}

/// The summary after a batch of tile boards.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SolveSummary {
    /// Always `true`: tells a summary from a solution in a stream of documents.
    pub summary: bool,
    /// Boards solved.
    pub solved: usize,
    /// Mean solution length of the boards solved.
    pub mean_length: f64,
    /// Longest solution.
    pub max_length: usize,
    /// Mean of the lengths an input file gave, when it gave one for every board.
    pub mean_expected_length: Option<f64>,
    /// Boards that ran past the deadline (not in the means).
    pub timed_out: usize,
    /// Boards whose optimal solution's length differs from the one the input file gave.
    pub length_mismatches: usize,
    /// Whether the batch was interrupted (Ctrl-C): the figures are those of the boards solved
    /// before.
    pub interrupted: bool,
    /// Nodes expanded, all boards.
    pub nodes_expanded: u64,
    /// Nodes generated, all boards.
    pub nodes_generated: u64,
    /// Mean nodes generated a board.
    pub mean_nodes_generated: f64,
    /// Seconds spent solving, all boards.
    pub seconds: f64,
    /// Nodes generated a second.
    pub nodes_per_second: f64,
    /// Worker threads.
    pub threads: usize,
}

/// One solved cube.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CubeSolution {
    /// `2x2x2` or `3x3x3`.
    pub puzzle: String,
    /// The position as given.
    pub start: String,
    /// The position as a facelet string.
    pub facelets: String,
    /// The moves, in Singmaster notation.
    pub solution: String,
    /// Length in `metric`.
    pub length: usize,
    /// `htm` or `qtm`.
    pub metric: &'static str,
    /// Whether the method proves the solution shortest.
    pub optimal: bool,
    /// `table`, `half-depth`, `two-phase` or `ida` (the optimal 3x3x3 search).
    pub algorithm: &'static str,
    /// Two-phase: the length of the phase-1 part.
    pub phase1_length: Option<usize>,
    /// Two-phase: the length the search aimed at.
    pub max_length: Option<usize>,
    /// Nodes expanded.
    pub nodes_expanded: u64,
    /// Two-phase: nodes of phase 2.
    pub phase2_nodes: Option<u64>,
    /// Two-phase: phase-2 searches started.
    pub phase2_searches: Option<u64>,
    /// The search ran past its deadline (the best solution found is given).
    pub timed_out: bool,
    /// Optimal search: every solution has at least this many moves (the length itself when
    /// `optimal`; the bound being searched when the deadline passed).
    pub lower_bound: Option<usize>,
    /// Half-depth search: the depth held, when the cube is beyond twice it (no solution, and
    /// `lower_bound` is proven); reported per cube, the batch going on.
    pub beyond_depth: Option<u32>,
    /// Optimal 3x3x3 search: how many of the cube's 48 symmetries keep the position (1: the
    /// identity alone). With more, one opening of each class under them was searched (every
    /// opening with `--all`).
    pub position_symmetries: Option<usize>,
    /// Optimal 3x3x3 search given a known solution (`--known-solution`): whether `solution`
    /// is that one (then, when `optimal`, every shorter bound was searched and exhausted, which
    /// proves it shortest), not one the search found.
    pub known_solution: Option<bool>,
    /// Optimal search with `--all`: every optimal solution (canonical sequences), the first
    /// being `solution`.
    pub all_solutions: Option<Vec<String>>,
    /// Bytes of the tables the method searched with (the 2x2x2's distance table, the two-phase
    /// or optimal pruning tables, the half-depth levels).
    pub memory_bytes: Option<u64>,
    /// Seconds spent on this position.
    pub seconds: f64,
}

/// The summary after a batch of cubes.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CubeSummary {
    /// Always `true`.
    pub summary: bool,
    /// Positions solved.
    pub solved: usize,
    /// Mean solution length.
    pub mean_length: f64,
    /// Longest solution.
    pub max_length: usize,
    /// Seconds spent solving, summed over threads.
    pub seconds: f64,
    /// Seconds from the first position to the last.
    pub wall_seconds: f64,
    /// Positions solved a second of wall time.
    pub solves_per_second: f64,
    /// Worker threads.
    pub threads: usize,
    /// Whether the batch was interrupted (Ctrl-C): the figures are those of the positions
    /// solved before.
    pub interrupted: bool,
}

/// An enumeration (`bfs`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct BfsReport {
    /// The puzzle, e.g. `4x4` or `3x3x3`.
    pub puzzle: String,
    /// The goal: a tile list, or `solved`.
    pub goal: String,
    /// The metric moves are counted in (`htm`, `qtm`; `moves` for tiles).
    pub metric: &'static str,
    /// The engine that ran.
    pub engine: &'static str,
    /// Worker threads.
    pub threads: usize,
    /// `levels[d]`: exact number of positions at distance `d`.
    pub levels: Vec<u64>,
    /// Symmetry classes at each distance, where the engine counts them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub classes: Option<Vec<u64>>,
    /// Maps a class is closed under: 48 symmetries, or 96 with inversion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class_group: Option<u64>,
    /// Positions counted, all levels.
    pub total: u64,
    /// The largest distance, when the enumeration is complete.
    pub diameter: Option<u32>,
    /// Whether every reachable position was counted.
    pub complete: bool,
    /// Why it stopped early, in words.
    pub stopped: Option<String>,
    /// Positions at the largest distance, when complete.
    pub antipode_count: Option<u64>,
    /// Those positions, when few enough to list.
    pub antipodes: Option<Vec<String>>,
    /// Seconds the enumeration took.
    pub seconds: f64,
    /// Positions counted a second.
    pub positions_per_second: f64,
    /// The most bytes the engine held at once.
    pub peak_bytes: u64,
    /// The last level was counted without being stored (`--count-last`: Bryan's method, or
    /// past 128-bit ranks passes over parts of the level's hash range).
    pub last_counted_only: bool,
    /// Bytes the engine keeps per stored state: a table entry (0.25 at 2 bits a position), or a
    /// listed rank or class key (8 or 16).
    pub bytes_per_state: f64,
    /// The whole process's peak resident memory, where the front end can read it.
    pub process_peak_bytes: Option<u64>,
    /// Levels on disk (`--workdir`): the most bytes the run's files took at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_disk_bytes: Option<u64>,
    /// Levels on disk: the newest level an earlier run had finished, when resumed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resumed_from: Option<u32>,
    /// Levels on disk: what each level cost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level_costs: Option<Vec<LevelCostReport>>,
    /// Distributed runs (`--processes`, `--process`): the workers and what they exchanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distributed: Option<DistributedReport>,
}

/// What a distributed run spread over its workers and sent between them.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DistributedReport {
    /// Processes in the computation.
    pub processes: usize,
    /// Worker threads in all of them; each owns the states its hash picks.
    pub workers: usize,
    /// Bytes of this process's level files at the end (`--workdir`).
    pub checkpoint_bytes: Option<u64>,
    /// What each level sent between workers.
    pub levels: Vec<LevelTrafficReport>,
}

/// The states one level of a distributed run sent to their owners.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct LevelTrafficReport {
    /// Its distance.
    pub depth: u32,
    /// Seconds it took (by this run, or by the earlier one when `resumed`).
    pub seconds: f64,
    /// States sent to another worker, over all workers.
    pub sent_states: u64,
    /// Bytes they took, encoded as gaps between sorted keys.
    pub sent_bytes: u64,
    /// Levels on disk (`--workdir`): bytes of candidates spilled to disk, over all workers.
    pub spilled_bytes: u64,
    /// Made by an earlier run.
    pub resumed: bool,
}

/// What one level of a run on disk cost.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct LevelCostReport {
    /// Its distance.
    pub depth: u32,
    /// Seconds it took to make (by this run, or by the earlier one when `resumed`).
    pub seconds: f64,
    /// Bytes of its files (0 when it was counted without being written).
    pub disk_bytes: u64,
    /// Bucket files it is split into.
    pub buckets: usize,
    /// Bytes of neighbours spilled to disk while it was made.
    pub spilled_bytes: u64,
    /// Expansions of its parents it took: 1, or more where its neighbours fitted neither
    /// memory nor disk at once and it was made a group of blank cells or a key range at a
    /// time, a pass that filled the disk and was made again in smaller ranges included (0
    /// when made by an earlier run).
    pub passes: usize,
    /// Made by an earlier run of the same folder.
    pub resumed: bool,
}

/// One scramble: a random position, the moves that reach it, or both.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Scramble {
    /// The puzzle, e.g. `3x3x3` or `4x4`.
    pub puzzle: String,
    /// The moves that reach the position from solved (cubes: face turns; boards: the blank's
    /// moves from the goal), when there are any.
    pub scramble: Option<String>,
    /// Number of moves in `metric` (boards: moves of the blank).
    pub length: Option<usize>,
    /// The metric `length` counts in (cubes only).
    pub metric: Option<&'static str>,
    /// The position: facelets for the 3x3x3, the board for tiles.
    pub position: Option<String>,
}

/// What a sliding-tile state space holds and what storing it costs (`info --json`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct InfoReport {
    /// The board size, e.g. `4x4`.
    pub puzzle: String,
    /// Cells on the board.
    pub cells: usize,
    /// Positions that reach a goal (`N!/2`), as a decimal string: it can exceed any integer
    /// type.
    pub positions: String,
    /// The base-10 logarithm of `positions`.
    pub log10_positions: f64,
    /// Bits in a perfect rank of a position.
    pub rank_bits: u64,
    /// The diameter from a blank-corner goal, where a complete enumeration has been published.
    pub diameter: Option<u32>,
    /// Whether `bfs` can enumerate this board (positions ranked in at most 128 bits).
    pub bfs_supported: bool,
    /// Ways of storing every position, with their cost.
    pub representations: Vec<RepresentationReport>,
    /// The machine's memory, when the front end knows it.
    pub ram_bytes: Option<u64>,
    /// Free disk in the working folder, when the front end knows it.
    pub free_disk_bytes: Option<u64>,
}

/// A cube's state space (`info 2x2x2`, `info 3x3x3`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CubeInfoReport {
    /// `2x2x2` or `3x3x3`.
    pub puzzle: String,
    /// Its pieces, in words: `8 corners, no centres`.
    pub pieces: &'static str,
    /// Positions reachable by turning faces, as a decimal string (exact).
    pub positions: String,
    /// How that number is made, e.g. `8!·3^7·12!·2^11/2`.
    pub formula: &'static str,
    /// The base-10 logarithm of `positions`.
    pub log10_positions: f64,
    /// Bits in a perfect rank of a position.
    pub rank_bits: u64,
    /// Classes under the cube's 48 symmetries, as published (absent where not given).
    pub symmetry_classes: Option<String>,
    /// Classes under the 96 symmetries with inversion, as published.
    pub classes_with_inversion: Option<String>,
    /// The diameter in each metric, with its source.
    pub gods_numbers: Vec<GodsNumber>,
    /// Ways of storing every position (or every class), with their cost.
    pub representations: Vec<RepresentationReport>,
    /// The machine's memory, when the front end knows it.
    pub ram_bytes: Option<u64>,
    /// Free disk in the working folder, when the front end knows it.
    pub free_disk_bytes: Option<u64>,
}

/// A cube's diameter in one metric.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GodsNumber {
    /// `htm`, `qtm` or `stm`.
    pub metric: &'static str,
    /// The most moves any position needs (`exact`), or a bound on it.
    pub moves: u32,
    /// Whether `moves` is God's number itself rather than an upper bound on it.
    pub exact: bool,
    /// Who proved it (or why it bounds it).
    pub source: &'static str,
}

/// One way of storing every position of a space, and whether it fits.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RepresentationReport {
    /// What is stored per position.
    pub name: String,
    /// Bits a position.
    pub bits_per_position: f64,
    /// The base-10 logarithm of the bytes for every position.
    pub log10_bytes: f64,
    /// Whether that fits in the machine's memory (unknown: absent).
    pub fits_ram: Option<bool>,
    /// Whether that fits on the free disk (unknown: absent).
    pub fits_disk: Option<bool>,
    /// The `bfs` engine that stores positions this way, if one does for this board.
    pub engine: Option<&'static str>,
}

/// A file in the table cache (`cache list`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CachedFile {
    /// The file's path.
    pub file: String,
    /// What it is: `pattern database`, `subgoal stages`, `two-phase tables`, `table`,
    /// `temporary file` or `build lock`.
    pub kind: &'static str,
    /// The puzzle and goal its header names.
    pub puzzle: Option<String>,
    /// What it holds, e.g. `tiles 1,2,3,4,5` or a subgoal plan.
    pub contents: Option<String>,
    /// Its size in bytes.
    pub bytes: u64,
    /// When it was last written, in seconds since 1970 (UTC).
    pub modified_unix_seconds: Option<u64>,
    /// Why its header does not read, when it does not.
    pub problem: Option<String>,
}

/// The JSON Schema of every document the front ends write: any one of the report types above,
/// each defined under `$defs` with its fields' doc comments as descriptions.
pub fn json_schema() -> serde_json::Value {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    let documents = [
        generator.subschema_for::<Solution>(),
        generator.subschema_for::<SolveSummary>(),
        generator.subschema_for::<CubeSolution>(),
        generator.subschema_for::<CubeSummary>(),
        generator.subschema_for::<BfsReport>(),
        generator.subschema_for::<Scramble>(),
        generator.subschema_for::<InfoReport>(),
        generator.subschema_for::<CubeInfoReport>(),
        generator.subschema_for::<DefinitionInfoReport>(),
        generator.subschema_for::<DefinitionSolution>(),
        generator.subschema_for::<PuzzleInfo>(),
        generator.subschema_for::<PuzzleSize>(),
        generator.subschema_for::<VerifyReport>(),
        generator.subschema_for::<CachedFile>(),
    ];
    serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "godsearch reports",
        "description": "One document of godsearch's JSON output (`--json`, one a line) or of its HTTP API: a solved board or cube, a batch summary, an enumeration, a scramble, a space's size, a checked solution or a cached file.",
        "anyOf": documents,
        "$defs": generator.take_definitions(true),
    })
}

/// A move sequence checked from its start (`verify`, `apply`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct VerifyReport {
    /// The puzzle, e.g. `4x4` or `3x3x3`.
    pub puzzle: String,
    /// The start: a tile list, or stickers.
    pub start: String,
    /// The moves, as read and expanded (boards: the blank's moves; cubes: turns, brackets
    /// expanded).
    pub moves: String,
    /// The position the moves reach (as far as they could be made).
    pub end: String,
    /// Whether that is the goal (a cube: solved).
    pub reaches_goal: bool,
    /// What is wrong when it does not.
    pub problem: Option<String>,
    /// Number of moves, in `metric`.
    pub length: usize,
    /// The metric `length` counts in (`moves` for boards).
    pub metric: &'static str,
    /// Cubes: the length in face turns.
    pub htm: Option<usize>,
    /// Cubes: the length in quarter turns.
    pub qtm: Option<usize>,
    /// Cubes: the length in slice turns (a slice counts one).
    pub stm: Option<usize>,
    /// Cubes: the length in execution turns (rotations count too).
    pub etm: Option<usize>,
    /// Whether no shorter solution exists; absent when nothing here can tell (no table, or
    /// the optimal search gave up before it could).
    pub optimal: Option<bool>,
    /// The true distance of the start, where a table or the optimal search gives it.
    pub shortest: Option<usize>,
    /// 3x3x3 with the optimal search stopped by its timeout: every solution has at least this
    /// many moves (in `metric`).
    pub lower_bound: Option<usize>,
}

/// One orbit of a definition puzzle (`info --def`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct OrbitReport {
    /// Its name in the file.
    pub name: String,
    /// Pieces (and slots).
    pub pieces: usize,
    /// Orientations of each piece.
    pub orientations: u8,
}

/// What `info` says of a puzzle: each kind's own report (the JSON is the inner report's).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum AnyInfo {
    /// A sliding-tile board.
    Board(InfoReport),
    /// A cube.
    Cube(CubeInfoReport),
    /// A puzzle from a definition file.
    Definition(DefinitionInfoReport),
    /// Any other registered puzzle.
    Puzzle(PuzzleInfo),
}

/// One puzzle offered by name and its size (`info` with no puzzle: one a line).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PuzzleSize {
    /// The name requests use.
    pub puzzle: String,
    /// Its kind in the registry: `tiles`, `cube`, `pancake`, `definition`.
    pub kind: &'static str,
    /// Its exact number of positions, in decimal ([`AnyInfo::positions`]); `None` for a
    /// definition with alike pieces whose count is not known.
    pub positions: Option<String>,
}

impl AnyInfo {
    /// The puzzle's exact number of positions, in decimal: those that reach the goal (boards),
    /// every position (cubes, registered puzzles), those its moves reach from solved
    /// (definitions); `None` for a definition with alike pieces whose count is not known.
    pub fn positions(&self) -> Option<&str> {
        match self {
            AnyInfo::Board(r) => Some(&r.positions),
            AnyInfo::Cube(r) => Some(&r.positions),
            AnyInfo::Definition(r) => r.positions.as_deref(),
            AnyInfo::Puzzle(r) => Some(&r.positions),
        }
    }
}

/// What `info` says of a definition puzzle over its generators.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DefinitionInfoReport {
    /// The definition's name.
    pub puzzle: String,
    /// The file it was read from.
    pub file: String,
    /// Its orbits.
    pub orbits: Vec<OrbitReport>,
    /// The moves the file names (derived ones too).
    pub moves: Vec<String>,
    /// The generators searched with.
    pub generators: Vec<String>,
    /// Moves of the space: every power of every generator.
    pub space_moves: usize,
    /// The order of the group the generators generate (exact, by Schreier-Sims), in decimal.
    pub group_order: String,
    /// Positions the generators reach from solved, in decimal (exact): the group order when
    /// the solved pattern's pieces are all distinct; where some are alike, the group order over
    /// the pattern's stabiliser, or `None` where that could not be found.
    pub positions: Option<String>,
    /// Ranks the space numbers positions with (the product of its coordinates' sizes), in
    /// decimal; `None` past 128 bits.
    pub ranks: Option<String>,
    /// Whether the ranks are exactly the positions (then the table engine and table descent
    /// serve it).
    pub ranks_exact: bool,
    /// Bytes of a 2-bit distance table of every rank, when the ranks are exact.
    pub table_bytes: Option<u64>,
    /// Seconds the group order took.
    pub group_order_seconds: f64,
    /// The symmetries found from the moves (1: none but the identity): rearrangements of the
    /// slots, mirror images too, that conjugate every move to a move. `bfs` keeps one position
    /// a class under them where the frontier engines run and a class's key fits 128 bits.
    pub symmetries: usize,
}

/// A definition puzzle's position solved (`solve --def`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DefinitionSolution {
    /// The definition's name.
    pub puzzle: String,
    /// The start as given: a move sequence from solved, or the pattern file.
    pub start: String,
    /// The moves, in the space's names (`R`, `R2`, `R'`), separated by spaces.
    pub solution: String,
    /// Number of moves.
    pub length: usize,
    /// Always `true`: table descent and IDA* with admissible databases are optimal.
    pub optimal: bool,
    /// How it was found: `table descent`, `half-depth search`, `IDA* over pattern databases`,
    /// or `IDA* over the positions near solved, hashed` (a start near solved, or a puzzle too
    /// large to rank).
    pub method: String,
    /// The tables the search read: the pattern databases (projections of the puzzle) and the
    /// ball of positions near solved (`every position within N moves`), if any.
    pub databases: Vec<String>,
    /// Seconds spent building the table or the databases for this request (0 when an
    /// earlier request of the same front end built them; the databases are built by the
    /// first search that reaches past the positions near solved).
    pub build_seconds: f64,
    /// Nodes expanded by IDA* (0 for table descent).
    pub nodes_expanded: u64,
    /// Seconds the search took, building excluded.
    pub seconds: f64,
    /// With `count`: every solution found, shortest first (the first is `solution`), each
    /// replayed; distinct canonical sequences, none passing through solved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<Vec<String>>,
    /// Set when the search stopped (its time limit, a cancel) before it found `count`
    /// solutions: every solution not listed has at least this many moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rest_at_least: Option<u32>,
    /// What the solver's tables had to say in this request, in words: a cached pattern
    /// database that was unusable (damaged, or written for something else) and left out or
    /// rebuilt, or one that could not be cached. Left out when there is nothing to say.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// What `info` says of a registered puzzle with no report of its own (the pancake puzzle):
/// its catalog entry with its exact size.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PuzzleInfo {
    /// The name requests use.
    pub puzzle: String,
    /// Its kind in the registry (`pancake`).
    pub kind: &'static str,
    /// The goal.
    pub goal: String,
    /// Positions reachable from the goal, exact, in decimal.
    pub positions: String,
    /// Its moves' names.
    pub moves: Vec<String>,
    /// The algorithms that solve it.
    pub algorithms: Vec<&'static str>,
    /// Bytes of a table of every position at two bits each (table engine, table descent).
    pub table_bytes: Option<u64>,
}
