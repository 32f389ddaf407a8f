//! Command-line arguments: the command and its subcommands here, each subcommand's options
//! in [`bfs`], [`solve`] and [`tools`].

mod bfs;
mod solve;
mod tools;

pub use bfs::{BfsArgs, DefinitionArgs};
pub use solve::SolveArgs;
pub use tools::*;

use crate::machine::{parse_disk_size, parse_memory};
use clap::{Parser, Subcommand};
pub use godsearch_app::registry::cubes::Notation as CubeNotation;
use godsearch_app::units::parse_seconds;

/// The most worker threads `--threads` takes, even with `--oversubscribe`.
pub const MAX_THREADS: u64 = 1024;
/// The most processes a distributed run may have (`--processes`, hostfile lines).
pub const MAX_PROCESSES: u64 = 1024;
/// Without `--oversubscribe`, at most this many threads a core.
pub const THREADS_PER_CORE: usize = 4;
pub use godsearch_app::units::{MAX_SCRAMBLE_MOVES, MAX_TARGET_LENGTH};
/// The largest `--effort` (a beam this wide already takes seconds a board).
pub const MAX_EFFORT: u64 = 1000;

/// Exhaustive (God's algorithm) and optimal search on permutation puzzles.
#[derive(Debug, Parser)]
#[command(name = "godsearch", version, propagate_version = true)]
#[command(
    after_help = "Puzzles: 3x3 (8-puzzle), 4x4 (15-puzzle), 5x5 (24-puzzle), or any WxH board \
(width x height, both at least 2); the cubes 2x2x2 (cube2) and 3x3x3 (cube); pancake-N; the \
shipped definitions pyraminx, pyraminx-no-tips, skewb, megaminx, 4x4x4, 5x5x5, masterball and \
3x3x3-ru (<R, U>); \
any puzzle in a definition file (cubing.js KPuzzle .json or twsearch .tws).\n\nStart with:  godsearch bfs 3x3"
)]
pub struct Cli {
    /// Worker threads (default: one per core; at most 4 per core unless --oversubscribe).
    #[arg(long, global = true, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS))]
    pub threads: Option<u64>,
    /// Allow --threads above 4 per core (up to 1024).
    #[arg(long, global = true)]
    pub oversubscribe: bool,
    /// Write tables, cache files and level files readable by you alone (mode 0600; by default
    /// they are 0644, less what your umask takes away, so a group can share a cache).
    #[arg(long, global = true)]
    pub private: bool,
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
    /// level would not fit in --memory. The 2x2x2 is enumerated completely (one corner fixed);
    /// the 3x3x3 level by level, one position per class of the 48 symmetries, with exact
    /// position counts.
    #[command(
        after_help = "Examples:\n  godsearch bfs 3x3\n  godsearch bfs 3x3 --save 8.tbl\n  \
godsearch bfs 3x3 --goal 1,2,3,4,0,5,6,7,8\n  godsearch bfs 4x4 --max-depth 22\n  \
godsearch bfs 3x4 --json\n  godsearch bfs 2x2x2 --metric qtm --save cube2.tbl\n  godsearch bfs 3x3x3 --max-depth 8"
    )]
    Bfs(BfsArgs),
    /// Solve boards optimally (IDA*, parallel IDA*, A*, table descent) and cubes.
    ///
    /// Moves are the direction the blank moves (U, D, L, R). Every solution is replayed before it
    /// is printed. The default is A* on 3x3 and smaller boards and parallel IDA* above, with the
    /// strongest heuristic that is cached or builds in a few seconds (the output says which);
    /// with --table, the board is solved by descending a distance table made by `bfs --save`.
    /// The 2x2x2 is solved optimally by table descent; the 3x3x3 by Kociemba's two-phase method
    /// (at most --max-length moves; its tables, 630 MB, build into the cache once, in about 30 s).
    /// A cube given as moves may use wide turns, slices, rotations, brackets and comments; the
    /// position is the cube as held after them (its centres name the faces), and the solution
    /// turns the faces of the cube held that way.
    #[command(after_help = "Examples:\n  godsearch solve 3x3 2,4,0,1,8,5,3,6,7\n  \
godsearch solve 4x4 --file data/korf100.txt --pdb 6-6-3\n  \
godsearch solve 4x4 --algorithm ida --heuristic linear-conflict 5,1,2,3,9,6,7,4,13,10,11,8,0,14,15,12\n  \
godsearch bfs 3x3 --save 8.tbl && godsearch solve 3x3 --table 8.tbl 867254301\n  \
godsearch solve 3x3x3 --moves \"R U R' U' F2 D L2 B\"\n  \
godsearch solve 3x3x3 --facelets UBULURUFURURFRBRDRFUFLFRFDFDFDLDRDBDLULBLFLDLBUBRBLBDB\n  \
godsearch solve 2x2x2 --moves \"R U F' D L2\"")]
    Solve(SolveArgs),
    /// Pattern databases: build them ahead of a search.
    Pdb(PdbArgs),
    /// The table cache: list what it holds (pattern databases, subgoal stage tables, the
    /// two-phase tables) and remove it.
    Cache(CacheArgs),
    /// Size of a puzzle's state space and what storing it costs, next to this machine; for the
    /// cubes also the symmetry classes and God's numbers, as published.
    #[command(
        after_help = "Examples:\n  godsearch info 4x4\n  godsearch info 24-puzzle\n  godsearch info 3x3x3"
    )]
    Info(InfoArgs),
    /// Random positions to practise on or to test with: uniform random positions (cubes: each
    /// with a scramble that reaches it), or random move sequences with --moves.
    #[command(
        after_help = "Examples:\n  godsearch scramble 3x3x3\n  godsearch scramble 3x3x3 --count 5 --seed 1\n  \
godsearch scramble 2x2x2 --count 3\n  godsearch scramble 3x3x3 --moves 25\n  godsearch scramble 4x4 --count 10"
    )]
    Scramble(ScrambleArgs),
    /// Measure the engines: BFS against a plain hash-set BFS, search on Korf's 100 instances.
    #[command(
        after_help = "Examples:\n  godsearch bench\n  godsearch bench --section search\n  godsearch bench --large"
    )]
    Bench(BenchArgs),
    /// Check move sequences, such as another solver's: replay each from its start, say whether
    /// it reaches the goal, its length in each metric, and whether it is shortest where a
    /// distance table can tell (boards of up to 20 million positions, the 2x2x2).
    ///
    /// Exit code 0 when every sequence reaches the goal, 1 when one does not, 2 for input that
    /// cannot be read. Cube starts are stickers or a move sequence from solved, read as `solve`
    /// reads them; a cube counts as solved when every face shows one colour, in any orientation.
    #[command(after_help = "Examples:
  godsearch verify 3x3 8,6,7,2,5,4,3,0,1 LURDRUULDLDRRUULLDDRRULULDDRURD
  godsearch verify 3x3x3 \"R U R' U'\" \"U R U' R'\"
  godsearch verify 4x4 --file solutions.txt
  godsearch verify 2x2x2 \"R U F\" \"F' U' R'\" --json")]
    Verify(VerifyArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish or powershell).
    #[command(
        after_help = "Examples:\n  godsearch completions bash > ~/.local/share/bash-completion/completions/godsearch\n  \
godsearch completions zsh > ~/.zfunc/_godsearch\n  godsearch completions fish > ~/.config/fish/completions/godsearch.fish"
    )]
    Completions {
        /// The shell
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), from the same definitions as --help.
    #[command(after_help = "Examples:\n  godsearch man > godsearch.1 && man ./godsearch.1")]
    Man,
    /// Make moves from a start and print the position reached (board, grid or stickers).
    #[command(after_help = "Examples:
  godsearch apply 3x3 1,2,3,4,5,6,7,8,0 ULDR
  godsearch apply 3x3x3 \"R U\" \"U' R'\"")]
    Apply(VerifyArgs),
    /// Serve the web page that compares algorithms on one puzzle, and the HTTP API.
    ///
    /// One page (assets built into the binary, nothing fetched from elsewhere): pick a puzzle,
    /// set or draw a position, solve it with any algorithm and heuristic, compare the runs in a
    /// table, play a solution step by step, count a small space's levels as a chart. The API
    /// (`/api/solve`, `/api/bfs`, `/api/scramble`, `/api/replay`, `/api/jobs/...`) takes JSON
    /// bodies named like this command line's options and answers the same JSON as `--json`
    /// (see docs/web-api-python.md). Every job runs under the limits below; at most --max-jobs run at once.
    #[command(
        after_help = "Examples:\n  godsearch serve\n  godsearch serve --addr 127.0.0.1:9000 --max-jobs 1 --job-timeout 20"
    )]
    Serve(ServeArgs),
}

pub use godsearch_app::bfs::EngineChoice;
pub use godsearch_app::choice::{Algorithm, HeuristicChoice};
pub use godsearch_app::registry::tiles::SolutionNotation;

/// Reads `--notation` (singmaster, sign, wca).
fn parse_notation(text: &str) -> Result<CubeNotation, String> {
    text.parse()
}
