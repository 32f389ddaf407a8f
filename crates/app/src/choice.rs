//! The algorithms and heuristics a request may name, shared by every puzzle. The rules that
//! pick one when the user leaves it to godsearch are each puzzle's own (a board's in
//! [`crate::registry::tiles::choice`]).

/// The solving algorithms (named in JSON as on the command line: `parallel-ida`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Algorithm {
    /// A* on 3x3 and smaller, parallel IDA* above (and with --timeout); table descent with
    /// --table.
    Auto,
    /// Descend a distance table (--table, or built in memory for small boards).
    Table,
    /// IDA* on one thread.
    Ida,
    /// A* with a closed set (boards of at most 20 cells), bounded by --memory.
    Astar,
    /// IDA* with the tree split among --threads threads.
    ParallelIda,
    /// Not optimal: the reference two-stage method for the 8-puzzle (tiles 1, 2, 3 first, then
    /// the 2x3 sub-board), each stage by table.
    TwoStage,
    /// Not optimal, any board size: stages of tiles placed in turn (--stages, --effort).
    Subgoal,
    /// Not optimal: Kociemba's two-phase method for the 3x3x3 (the default there).
    TwoPhase,
    /// Meet in the middle: every position within --depth moves of the goal held, each board's
    /// surroundings grown level by level until they meet it; optimal for boards within twice
    /// --depth (memory: 8 bytes a position held; 4x4: --depth 24 needs 343 MB, 26 1.5 GB,
    /// 28 6 GB, and about as much again around each board). The 3x3x3 holds symmetry classes
    /// and follows every move sequence from the cube instead (the group form: nothing held
    /// around it).
    HalfDepth,
}

impl Algorithm {
    /// The name as `--algorithm` (and the JSON reports) write it.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::Table => "table",
            Algorithm::Ida => "ida",
            Algorithm::Astar => "astar",
            Algorithm::ParallelIda => "parallel-ida",
            Algorithm::TwoStage => "two-stage",
            Algorithm::Subgoal => "subgoal",
            Algorithm::TwoPhase => "two-phase",
            Algorithm::HalfDepth => "half-depth",
        }
    }

    /// Whether it searches with a heuristic (IDA*, parallel IDA*, A*).
    pub fn is_search(self) -> bool {
        matches!(
            self,
            Algorithm::Ida | Algorithm::ParallelIda | Algorithm::Astar
        )
    }

    /// Whether it solves in stages (two-stage, subgoal).
    pub fn is_staged(self) -> bool {
        matches!(self, Algorithm::TwoStage | Algorithm::Subgoal)
    }

    /// Whether it stops at a deadline and reports what it proved (only IDA*).
    pub fn takes_deadline(self) -> bool {
        matches!(self, Algorithm::Ida | Algorithm::ParallelIda)
    }
}

/// Every `heuristic` value, as requests name them, in the order menus show them.
pub const HEURISTICS: [&str; 4] = ["auto", "manhattan", "linear-conflict", "pdb"];

/// The heuristics of the searching algorithms (named in JSON as on the command line:
/// `linear-conflict`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum HeuristicChoice {
    /// The strongest that is cached or builds in a few seconds.
    Auto,
    /// Manhattan distance.
    Manhattan,
    /// Manhattan distance plus linear conflicts.
    LinearConflict,
    /// Additive pattern databases (--pdb).
    Pdb,
}
