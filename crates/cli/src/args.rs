//! Command-line arguments.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Exhaustive (God's algorithm) and optimal search on permutation puzzles.
#[derive(Debug, Parser)]
#[command(name = "godsearch", version, propagate_version = true)]
#[command(
    after_help = "Puzzles: 3x3 (8-puzzle), 4x4 (15-puzzle), 5x5 (24-puzzle), or any WxH board \
(width x height, both at least 2).\n\nStart with:  godsearch bfs 3x3"
)]
pub struct Cli {
    /// Worker threads (default: one per core).
    #[arg(long, global = true, value_name = "N")]
    pub threads: Option<usize>,
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the positions at every distance from the goal (God's algorithm).
    ///
    /// Breadth-first from the goal. Boards whose whole table fits in --memory (3x3, 2x4, 2x5,
    /// 3x4, 2x6, ...) are enumerated completely at 2 bits a position; larger ones (4x4, 5x5) keep
    /// only the last levels and stop at --max-depth or, with exact counts so far, when the next
    /// level would not fit in --memory.
    #[command(
        after_help = "Examples:\n  godsearch bfs 3x3\n  godsearch bfs 3x3 --save 8.tbl\n  \
godsearch bfs 3x3 --goal 1,2,3,4,0,5,6,7,8\n  godsearch bfs 4x4 --max-depth 22\n  \
godsearch bfs 3x4 --json"
    )]
    Bfs(BfsArgs),
    /// Solve boards optimally by descending a saved distance table.
    ///
    /// From the board, always step to a neighbour one move closer to the goal. Moves are the
    /// direction the blank moves (U, D, L, R). Every solution is replayed before it is printed.
    /// Without --table, boards of up to 20 million positions (3x3, 2x4, 2x5) get their table
    /// built in memory first.
    #[command(after_help = "Examples:\n  godsearch bfs 3x3 --save 8.tbl\n  \
godsearch solve 3x3 --table 8.tbl 2,4,0,1,8,5,3,6,7\n  godsearch solve 3x3 867254301 647850321\n  \
godsearch solve 3x3 --json \"8 6 7 2 5 4 3 0 1\"")]
    Solve(SolveArgs),
    /// Size of a puzzle's state space and what storing it costs, next to this machine.
    #[command(after_help = "Examples:\n  godsearch info 4x4\n  godsearch info 24-puzzle")]
    Info(InfoArgs),
    /// Measure the engines against a plain hash-set BFS (release builds only).
    #[command(after_help = "Examples:\n  godsearch bench\n  godsearch bench --large")]
    Bench(BenchArgs),
}

/// Which BFS engine to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EngineChoice {
    /// The table engine when its table fits in --memory, else the frontier engine.
    Auto,
    /// A 2-bit table of every position (distance mod 3).
    Table,
    /// Sorted arrays of the last levels only.
    Frontier,
}

/// `godsearch bfs`.
#[derive(Debug, Args)]
pub struct BfsArgs {
    /// The puzzle: 3x3, 4x4, WxH, 8-puzzle, 15-puzzle, ...
    pub puzzle: String,
    /// The goal board (default: tiles in order, blank last), e.g. 0,1,2,3,4,5,6,7,8.
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
    /// Stop after the level at this distance.
    #[arg(long, value_name = "N")]
    pub max_depth: Option<u32>,
    /// Memory budget for tables and levels: 16G, 512M, 50% (default: 80% of RAM).
    #[arg(long, value_name = "SIZE")]
    pub memory: Option<String>,
    /// Engine.
    #[arg(long, value_enum, default_value_t = EngineChoice::Auto)]
    pub engine: EngineChoice,
    /// Save the distance table to this file (table engine only).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Print the antipodes as boards when there are at most this many.
    #[arg(long, value_name = "N", default_value_t = 48)]
    pub show_antipodes: usize,
    /// One JSON document instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// `godsearch solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The puzzle: 3x3, 2x4, WxH, 8-puzzle, ...
    pub puzzle: String,
    /// Boards to solve: 2,4,0,1,8,5,3,6,7 or "2 4 0 1 8 5 3 6 7" or 240185367.
    #[arg(required = true, value_name = "BOARD")]
    pub boards: Vec<String>,
    /// Distance table made by `godsearch bfs PUZZLE --save FILE`.
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// The goal board (must match the table's).
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
    /// One JSON document per board.
    #[arg(long)]
    pub json: bool,
}

/// `godsearch info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// The puzzle.
    pub puzzle: String,
}

/// `godsearch bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Also run the long cases: 3x4 complete (about 30 s) and 4x4 through depth 28 (about 5 GB).
    #[arg(long)]
    pub large: bool,
}
