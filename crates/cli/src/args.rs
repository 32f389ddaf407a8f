//! Command-line arguments.

use crate::machine::{parse_disk_size, parse_memory};
use clap::{Args, Parser, Subcommand, ValueEnum};
use godsearch_app::units::parse_seconds;
pub use godsearch_puzzles::cube::Notation as CubeNotation;
use std::path::PathBuf;
use std::time::Duration;

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
(width x height, both at least 2); the cubes 2x2x2 (cube2) and 3x3x3 (cube); any puzzle in a \
definition file (cubing.js KPuzzle .json or twsearch .tws; data/definitions has some).\n\nStart with:  godsearch bfs 3x3"
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
godsearch solve 4x4 --goal 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 --file data/korf100.txt --pdb 6-6-3\n  \
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

/// Reads `--notation` (singmaster, sign, wca).
fn parse_notation(text: &str) -> Result<CubeNotation, String> {
    text.parse()
}
use godsearch_enumerate::disk::DEFAULT_BUCKET_STATES;

/// A puzzle from a definition file (`--def FILE`, or a puzzle name that is such a file).
#[derive(Debug, Args, Clone, Default)]
pub struct DefinitionArgs {
    /// A puzzle definition file: cubing.js KPuzzle JSON (.json, .kpuzzle.json) or twsearch's
    /// .tws; a puzzle name ending so is read as one too. data/definitions has the 2x2x2, the
    /// 3x3x3, the pyraminx and the skewb
    #[arg(long = "def", id = "def", value_name = "FILE")]
    pub def: Option<PathBuf>,
    /// Definition puzzles: the moves to search with, e.g. U,F,R (every power of each is a
    /// move); derived moves may be named. Default: the file's own moves
    #[arg(long, value_name = "MOVES")]
    pub generators: Option<String>,
}

impl DefinitionArgs {
    /// The definition file this command is about, if any: `--def`, or the puzzle name when it
    /// ends in `.json` or `.tws`.
    pub fn path(&self, puzzle: Option<&str>) -> Option<PathBuf> {
        self.def.clone().or_else(|| {
            puzzle
                .filter(|p| godsearch_app::definitions::is_definition_path(p))
                .map(PathBuf::from)
        })
    }

    /// The generators named (empty: the file's own moves).
    pub fn generator_names(&self) -> Vec<String> {
        self.generators
            .as_deref()
            .map(godsearch_app::definitions::parse_generators)
            .unwrap_or_default()
    }
}

/// `godsearch bfs`.
#[derive(Debug, Args)]
pub struct BfsArgs {
    /// The puzzle: 3x3, 4x4, WxH, 8-puzzle, 15-puzzle, ..., 2x2x2, 3x3x3, or a definition file
    #[arg(required_unless_present = "def")]
    pub puzzle: Option<String>,
    #[command(flatten)]
    pub definition: DefinitionArgs,
    /// The goal board (default: tiles in order, blank last), e.g. 0,1,2,3,4,5,6,7,8.
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
    /// Cubes: how moves are counted: htm (half-turn metric: any face turn is 1), qtm
    /// (quarter-turn metric: a half turn is 2) or stm (slice-turn metric: a middle layer's
    /// turn, M E S, is 1 too; positions are the cube as held, centres fixed). etm (rotations
    /// count) has the same distances as stm and is counted as stm; on the 2x2x2, which has no
    /// middle layer, stm and etm are htm. Default htm.
    #[arg(long, value_name = "METRIC")]
    pub metric: Option<String>,
    /// 3x3x3: classes of 48 (the cube's symmetries, default) or 96 (with inversion: half the
    /// memory, twice the work a class).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=96))]
    pub symmetry: Option<u32>,
    /// Stop after the level at this distance.
    #[arg(long, value_name = "N")]
    pub max_depth: Option<u32>,
    /// Memory budget for tables and levels: 16G, 512M, 50% (default: 80% of RAM).
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    pub memory: Option<u64>,
    /// Engine.
    #[arg(long, value_enum, default_value_t = EngineChoice::Auto)]
    pub engine: EngineChoice,
    /// Save the distance table to this file (table engine only).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Print the antipodes as boards when there are at most this many.
    #[arg(long, value_name = "N", default_value_t = 48)]
    pub show_antipodes: usize,
    /// Count one level more than is stored (Bryan's method): the level at --max-depth, or the
    /// one that would not fit in --memory, is counted exactly without being stored (frontier
    /// engine; it costs lookups in the two levels held instead of memory for the level)
    #[arg(long)]
    pub count_last: bool,
    /// Keep the levels on disk in this folder (frontier engine): sorted, compressed bucket
    /// files (1.6-1.9 bytes a 15-puzzle position from depth 28 on, each with the moves back,
    /// so a level lists only new neighbours), every finished level fsynced and listed in a
    /// manifest, so a killed run continues with --resume. --memory then bounds the neighbours
    /// held in memory, not the run; four levels stay on disk (two for tiles).
    #[arg(long, value_name = "DIR")]
    pub workdir: Option<PathBuf>,
    /// Continue the run in --workdir from its last finished level (and the finished buckets
    /// of the level it was making); damaged files are found and made again.
    #[arg(long, requires = "workdir")]
    pub resume: bool,
    /// Keep every level's files in --workdir (by default each is deleted once the next four
    /// are written, two for tiles, or one level sooner where its room lets the next level be
    /// made in fewer passes).
    #[arg(long, requires = "workdir")]
    pub keep_levels: bool,
    /// States a bucket file of --workdir aims at (smaller: less memory while merging, more
    /// files).
    #[arg(long, value_name = "N", requires = "workdir", default_value_t = DEFAULT_BUCKET_STATES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub bucket_states: u64,
    /// The most disk --workdir may take: 50G, 800M (default: what the disk has). A level whose
    /// spilled neighbours would not fit is made a key range at a time (up to 16 passes over
    /// its parents), and a pass that reaches the limit all the same makes the rest in ranges
    /// half as large; a level that fits no way stops the run with exact counts, as a full disk
    /// does; --resume then continues (with a larger --disk, or after freeing space).
    #[arg(long, value_name = "SIZE", requires = "workdir", value_parser = parse_disk_size)]
    pub disk: Option<u64>,
    /// Distributed run: worker threads in this process (timely's -w; default 1). Each worker
    /// owns the states a fixed hash of their key picks, and --memory is shared among them.
    #[arg(short = 'w', long, value_name = "N",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=MAX_THREADS))]
    pub workers: Option<usize>,
    /// Distributed run: the processes in it (timely's -n). Without --process, starts this many
    /// processes on this machine on loopback and prints process 0's report: the way to try
    /// it without a hostfile. With --workdir, every worker keeps its levels on disk there
    /// (worker-NNN folders, as a single process does: --memory, --bucket-states and --disk
    /// then hold per process) and --resume continues from the newest level all of them saved.
    #[arg(short = 'n', long, value_name = "K",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=MAX_PROCESSES))]
    pub processes: Option<usize>,
    /// Distributed run: this process's index, from 0 (timely's -p); start one process per
    /// line of --hostfile, each with its index and the same other options.
    #[arg(short = 'p', long, value_name = "I", requires = "hostfile")]
    pub process: Option<usize>,
    /// Distributed run: every process's host:port, one a line, in process order (timely's
    /// hostfile; its -h is help here).
    #[arg(long, value_name = "FILE", requires = "process")]
    pub hostfile: Option<PathBuf>,
    /// One JSON document instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub use godsearch_app::choice::{Algorithm, HeuristicChoice, SolutionNotation};

/// `godsearch solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The puzzle: 3x3, 4x4, WxH, 8-puzzle, 15-puzzle, ..., 2x2x2, 3x3x3, or a definition
    /// file (with --def, this is the first position)
    #[arg(required_unless_present_any = ["def"])]
    pub puzzle: Option<String>,
    #[command(flatten)]
    pub definition: DefinitionArgs,
    /// Definition puzzles: the position as a KPuzzle pattern file (JSON: per orbit `pieces`
    /// and `orientation`), instead of moves
    #[arg(long, value_name = "FILE")]
    pub pattern: Option<PathBuf>,
    /// Boards to solve: 2,4,0,1,8,5,3,6,7 or "2 4 0 1 8 5 3 6 7" or 240185367. Cubes: a
    /// facelet string (54 stickers, 24 on the 2x2x2) or a move sequence from solved; ignoring
    /// whitespace, exactly that many characters of six kinds are stickers, anything else moves,
    /// and a text that could be either is refused (say which with --facelets or --moves).
    #[arg(value_name = "BOARD", required_unless_present_any = ["file", "def", "pattern"])]
    pub boards: Vec<String>,
    /// Boards: how to write each solution: the blank's moves (default), the tiles that slide,
    /// or the directions the tiles move. The JSON keeps the blank's moves in `solution` and
    /// adds `written`
    #[arg(long = "as", value_enum, value_name = "NOTATION", default_value_t = SolutionNotation::Blank)]
    pub notation: SolutionNotation,
    /// Boards: write runs of one direction with their length (RRRU as R3 U)
    #[arg(long)]
    pub runs: bool,
    /// Cubes: read every position (arguments and --file lines) as a move sequence from
    /// solved, e.g. --moves "R U R' U'".
    #[arg(long, conflicts_with = "facelets")]
    pub moves: bool,
    /// Cubes: read every position (arguments and --file lines) as a facelet string.
    #[arg(long)]
    pub facelets: bool,
    /// Cubes: count lengths in htm (half-turn metric), qtm (quarter-turn metric) or stm
    /// (slice-turn metric: M E S count 1). The 2x2x2 is solved optimally in that metric (stm
    /// is htm there: no middle layer); the 3x3x3's two-phase search aims at the fewest moves
    /// of htm or qtm (in qtm a half turn costs 2; solutions write it F2). In stm, --optimal
    /// proves the fewest slice turns; two-phase searches face turns and writes each run of one
    /// axis in as few slice turns as it can (R L' as M), so it does not aim at the fewest.
    /// A solution with slices turns the cube: later letters name the faces where they are
    /// then. etm is searched as stm (the same distances; no rotation is written).
    #[arg(long, value_name = "METRIC")]
    pub metric: Option<String>,
    /// 3x3x3: stop at the first solution of at most this many moves, in --metric. Default 20
    /// (htm and stm) or 26 (qtm), God's numbers (stm's is at most 20). When the two phases
    /// find none that short, the shortest they find.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(0..=MAX_TARGET_LENGTH))]
    pub max_length: Option<u64>,
    /// Seconds to spend on one position (at most a year). IDA* then reports the lower bound it
    /// proved and goes on to the next board (exit code 1 at the end); the 3x3x3 takes the best
    /// solution so far (two-phase, --optimal), or with --algorithm half-depth reports the bound
    /// it proved (exit code 1 at the end).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Cubes: also print each start position as a facelet string.
    #[arg(long)]
    pub show_facelets: bool,
    /// Cubes: a shortest solution, proven. The 2x2x2 is always solved optimally (table descent
    /// or half-depth search). The 3x3x3 is then solved by IDA* over a pruning table (see
    /// --table-size; one for each --metric) on every thread: seconds for positions of up to
    /// about 16 moves, tens of seconds or more for random cubes (18 moves on average). With
    /// --timeout, a position the search gives up on gets its two-phase solution and the lower
    /// bound proven.
    #[arg(long)]
    pub optimal: bool,
    /// 3x3x3 with --optimal: the pruning table. small (44 MB, built in about 10 s: positions
    /// of up to about 15 moves), 300mb (325 MB), 1gb (1.05 GB of memory and disk, built once
    /// in about a minute with 2.1 GB of memory) or 8gb (7.79 GB; built once in about 9 minutes
    /// with 15 GB of memory), cached and read into huge pages at each start. Default 1gb.
    #[arg(long, value_name = "SIZE", requires = "optimal")]
    pub table_size: Option<String>,
    /// 3x3x3 with --optimal: every optimal solution (canonical sequences: no layer twice in a
    /// row, opposite faces in one order, a middle layer never beside its faces), not only the
    /// first.
    #[arg(long, requires = "optimal")]
    pub all: bool,
    /// 3x3x3 with --optimal, one position: a solution already known (face turns, as --moves
    /// reads them), to prove shortest or beat. The search never searches its length: once
    /// every shorter bound is exhausted the known solution is printed as proven optimal, and a
    /// shorter one found first is printed instead. On --timeout it is the answer given, with
    /// the bound proven.
    #[arg(long, value_name = "MOVES", requires = "optimal")]
    pub known_solution: Option<String>,
    /// Read boards from a file (`-` for standard input), one a line; lines `id length tiles...`
    /// (as in korf100.txt) also check the length found against the one given.
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Search algorithm.
    #[arg(long, value_enum, default_value_t = Algorithm::Auto)]
    pub algorithm: Algorithm,
    /// Heuristic for IDA* and A*.
    #[arg(long, value_enum, default_value_t = HeuristicChoice::Auto)]
    pub heuristic: HeuristicChoice,
    /// Pattern-database partition: 5-5-5, 6-6-3, 7-8, 4-4-4-3 (4x4), 6-6-6-6 (5x5), 4-4 (3x3), or
    /// groups such as 1,2,3,4,5/6,7,8,9,10/11,12,13,14,15. Implies --heuristic pdb.
    #[arg(long, value_name = "PARTITION")]
    pub pdb: Option<String>,
    /// Do not add the reflected pattern-database lookup.
    #[arg(long)]
    pub no_reflection: bool,
    /// Folder for cached pattern databases, subgoal stage tables and the two-phase tables
    /// (default: the user's cache folder).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Distance table made by `godsearch bfs PUZZLE --save FILE` (implies --algorithm table).
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// The goal board (default: tiles in order, blank last).
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
    /// Memory for A* and for building pattern databases: 16G, 512M, 50% (default: 80% of RAM).
    /// Half-depth search gives half to the goal's positions and half to each board's.
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    pub memory: Option<u64>,
    /// --algorithm half-depth: hold every position within N moves of the goal, so boards within
    /// 2N moves are solved (default: as many moves as half of --memory holds). Memory: 8 bytes a
    /// position; 3x3: N = 16 holds the whole space (181,440); 4x4: N = 20 3.3 million (27 MB),
    /// 24 43 million (343 MB), 26 144 million (1.2 GB), 28 465 million (3.7 GB, built in about
    /// 25 s); each board's side takes up to as much again (12 GiB peak in all for 56-move boards
    /// with N = 28). 3x3x3: its symmetry classes, 16 bytes each, nothing held
    /// around the cube (default htm 8: 30 million, 0.5 GB; qtm 9: 0.3 GB; stm 7: 0.3 GB; htm 9
    /// would take 6 GB); 2x2x2: default half its diameter
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// Stages for --algorithm subgoal: tile groups placed in order, such as 1,2,3,4/5,9,13 (tiles
    /// left out form a last stage). Default: rows and columns peeled off to a 3x3 sub-board.
    #[arg(long, value_name = "GROUPS")]
    pub stages: Option<String>,
    /// For --algorithm subgoal and two-stage: partial solutions kept after each stage (a beam;
    /// above 1, without --stages, several peeling orders are tried too). More is shorter and
    /// slower. Default: 1 for two-stage; for subgoal 8 up to 16 cells, 4 up to 25, else 1.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_EFFORT))]
    pub effort: Option<u64>,
    /// One JSON document per board, then one with the summary.
    #[arg(long)]
    pub json: bool,
    /// Print each solution's moves alone, one line a position, for piping (an already solved
    /// start gives an empty line; a board past --timeout prints nothing and says so on stderr)
    #[arg(long, conflicts_with = "json")]
    pub moves_only: bool,
    /// No progress on stderr: neither the line of a long search (threshold, nodes, rate, time)
    /// nor the bar over a batch (both are shown only when stderr is a terminal anyway)
    #[arg(long)]
    pub quiet: bool,
    /// Boards: write the subgoal solvers' stage plans out in full on the time line (they are
    /// counted otherwise; the JSON always has them)
    #[arg(long)]
    pub verbose: bool,
}

/// `godsearch serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on (loopback by default: anyone who can reach it can make the
    /// machine work).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: std::net::SocketAddr,
    /// Jobs that run at once (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS))]
    pub max_jobs: Option<u64>,
    /// Jobs that may wait for a free slot; more are refused (HTTP 503).
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub max_waiting: u64,
    /// Seconds a job may run: searches stop then with what they have (IDA*: its lower bound),
    /// enumerations after the level under way.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, default_value = "60")]
    pub job_timeout: Duration,
    /// Nodes an IDA* job may expand before it stops with its lower bound.
    #[arg(long, value_name = "N", default_value_t = 5_000_000_000)]
    pub job_nodes: u64,
    /// Memory a job may use (A*, enumerations, tables built), e.g. 2G (default: the usual
    /// budget shared among --max-jobs).
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    pub job_memory: Option<u64>,
    /// The largest optimal 3x3x3 table a request may ask for: small, 300mb, 1gb or 8gb.
    #[arg(long, value_name = "SIZE", default_value = "small")]
    pub max_table: String,
    /// Largest request body in bytes (HTTP 413 beyond).
    #[arg(long, value_name = "BYTES", default_value_t = 65_536)]
    pub body_limit: u64,
    /// The most scrambles one request may ask for.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_scrambles: u32,
    /// The largest answer, in bytes of JSON, e.g. 64M (default); a job whose report is larger
    /// ends with HTTP 413, and finished jobs keep at most four times this in all.
    #[arg(long, value_name = "SIZE", value_parser = parse_memory,
          default_value_t = godsearch_server::MAX_RESPONSE as u64)]
    pub max_response: u64,
    /// Table cache folder (pattern databases, two-phase and optimal tables).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
}

/// `godsearch scramble`.
#[derive(Debug, Args)]
pub struct ScrambleArgs {
    /// The puzzle: 2x2x2, 3x3x3, a board size such as 4x4, or a definition file.
    #[arg(required_unless_present = "def")]
    pub puzzle: Option<String>,
    #[command(flatten)]
    pub definition: DefinitionArgs,
    /// How many (printed as they are made).
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub count: u64,
    /// Seed for the random numbers (the same seed gives the same scrambles).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Random move sequences of this many moves (canonical, as the searches see them: no move
    /// undone or merged with the one before; in QTM a face may turn twice, written U2),
    /// instead of uniform random positions.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(0..=MAX_SCRAMBLE_MOVES))]
    pub moves: Option<u64>,
    /// Cubes: htm, qtm or stm (etm is stm), for --moves and for the 2x2x2's optimal scrambles.
    /// An stm scramble is written with slices (M E S), which turn the cube: the position
    /// printed is the one it leaves as held. Default htm.
    #[arg(long, value_name = "METRIC")]
    pub metric: Option<String>,
    /// Folder for the cached two-phase tables (default: the user's cache folder).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// One JSON document per scramble (the same as --format json).
    #[arg(long)]
    pub json: bool,
    /// How to print each scramble: list (boards as 1,2,3,...; the default), hex (boards of at
    /// most 16 cells as 123456789ABCDEF0), grid (one row a line), or json (one document each).
    /// Cubes print their scramble and stickers, or json.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = ScrambleFormat::List)]
    pub format: ScrambleFormat,
}

/// How `scramble` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScrambleFormat {
    /// Boards as comma lists.
    List,
    /// Boards of at most 16 cells as hex strings.
    Hex,
    /// Boards one row a line.
    Grid,
    /// One JSON document a scramble.
    Json,
}

/// `godsearch cache`.
#[derive(Debug, Args)]
pub struct CacheArgs {
    #[command(subcommand)]
    pub command: CacheCommand,
}

/// `godsearch cache` subcommands.
#[derive(Debug, Subcommand)]
pub enum CacheCommand {
    /// What the cache holds: each file's kind, puzzle and goal, contents (tiles, plan), size and
    /// date. Headers are read, checksums are not (a damaged file is found and rebuilt when used).
    #[command(after_help = "Examples:\n  godsearch cache list\n  godsearch cache list --json")]
    List(CacheListArgs),
    /// Remove cached files (all of them, or those older than --older-than). Files a run is
    /// writing or a build lock a run holds are left alone.
    #[command(after_help = "Examples:\n  godsearch cache clean --older-than 30d\n  \
godsearch cache clean --dry-run\n  godsearch cache clean")]
    Clean(CacheCleanArgs),
}

/// `godsearch cache list`.
#[derive(Debug, Args)]
pub struct CacheListArgs {
    /// The cache folder (default: the user's cache folder).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// One JSON document per file.
    #[arg(long)]
    pub json: bool,
}

/// `godsearch cache clean`.
#[derive(Debug, Args)]
pub struct CacheCleanArgs {
    /// The cache folder (default: the user's cache folder).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Only files not written for this long: 30d, 12h, 90min, 2weeks.
    #[arg(long, value_name = "AGE", value_parser = parse_age)]
    pub older_than: Option<Duration>,
    /// Say what would be removed, and remove nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// Reads `--older-than` (`30d`, `12h`, `2weeks`).
fn parse_age(text: &str) -> Result<Duration, String> {
    humantime::parse_duration(text).map_err(|e| {
        format!(
            "'{}': {e} (give an age such as 30d, 12h or 90min)",
            godsearch_core::excerpt(text)
        )
    })
}

/// `godsearch pdb`.
#[derive(Debug, Args)]
pub struct PdbArgs {
    #[command(subcommand)]
    pub command: PdbCommand,
}

/// `godsearch pdb` subcommands.
#[derive(Debug, Subcommand)]
pub enum PdbCommand {
    /// Build the pattern databases of a partition into the cache (rebuilding stale ones).
    #[command(after_help = "Examples:\n  godsearch pdb build 4x4 --pdb 6-6-3\n  \
godsearch pdb build 4x4 --pdb 5-5-5 --goal 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15")]
    Build(PdbBuildArgs),
}

/// `godsearch pdb build`.
#[derive(Debug, Args)]
pub struct PdbBuildArgs {
    /// The puzzle.
    pub puzzle: String,
    /// The partition (as for `solve --pdb`).
    #[arg(long, value_name = "PARTITION")]
    pub pdb: String,
    /// The goal board the databases belong to.
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
    /// Folder for cached pattern databases (default: the user's cache folder).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Memory for the build: 16G, 512M, 50% (default: 80% of RAM).
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    pub memory: Option<u64>,
    /// Rebuild even when a valid cached database exists.
    #[arg(long)]
    pub force: bool,
}

/// `godsearch info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// The puzzle, or a definition file.
    #[arg(required_unless_present = "def")]
    pub puzzle: Option<String>,
    #[command(flatten)]
    pub definition: DefinitionArgs,
    /// Print the number of positions in full, however many digits it has.
    #[arg(long)]
    pub exact: bool,
    /// One JSON document instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// `godsearch verify` and `godsearch apply`.
#[derive(Debug, Args, Clone)]
pub struct VerifyArgs {
    /// The puzzle: a board size such as 3x3 or 4x4, 2x2x2 or 3x3x3, or a definition file
    /// (with --def, this is the start)
    #[arg(required_unless_present = "def")]
    pub puzzle: Option<String>,
    /// A puzzle definition file (KPuzzle JSON or .tws) instead of a puzzle name; the start and
    /// the moves follow it as the first two arguments
    #[arg(long = "def", id = "def", value_name = "FILE")]
    pub def: Option<PathBuf>,
    /// The start: a board (tile list or hex), or a cube as stickers or moves from solved
    #[arg(required_unless_present_any = ["file", "def"])]
    pub start: Option<String>,
    /// The moves: the blank's moves (U D L R) for boards; for cubes any algorithm: face,
    /// wide (Rw, r), slice (M E S) turns and rotations (x y z), ( )3 repeats, [A, B]
    /// commutators, [A: B] conjugates, // comments
    #[arg(required_unless_present_any = ["file", "def"])]
    pub moves: Option<String>,
    /// Check every line of FILE (`-` for standard input) instead: the start and the moves
    /// separated by `|` or a tab (or by the first space, when the start has none); blank lines
    /// and `#` comments are skipped
    #[arg(long, value_name = "FILE", conflicts_with_all = ["start", "moves"])]
    pub file: Option<PathBuf>,
    /// Boards: the goal (default: tiles in order, blank last)
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
    /// Boards: a distance table made by `bfs --save`, to tell whether a solution is shortest on
    /// a board too large for a table built in memory
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// Cubes: the metric `length` counts in: htm, qtm, stm (a slice turn is 1) or etm
    /// (rotations count too); all four are printed. Default htm
    #[arg(long, value_name = "METRIC")]
    pub metric: Option<String>,
    /// Cubes: read starts as stickers (needed when 54 letters of URFDLB could also be moves)
    #[arg(long)]
    pub facelets: bool,
    /// 3x3x3: prove whether each solution is shortest in --metric with the optimal solver
    /// (as `solve --optimal`: both cores, a pruning table per metric, see --table-size).
    /// Seconds for starts up to about 15 moves from solved, minutes for random cubes; a
    /// solution in face turns is the search's known solution (its length is not searched).
    /// Boards and the 2x2x2 are told without it, from a distance table
    #[arg(long)]
    pub prove: bool,
    /// 3x3x3 with --prove: the pruning table, small (44 MB), 300mb, 1gb (default) or 8gb
    #[arg(long, value_name = "SIZE", requires = "prove")]
    pub table_size: Option<String>,
    /// 3x3x3 with --prove: give up proving after this many seconds a start, keeping the lower
    /// bound proven (a solution that short is still proven shortest)
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, requires = "prove")]
    pub timeout: Option<Duration>,
    /// 3x3x3 with --prove: folder for the cached pruning tables (default: the user's cache
    /// folder)
    #[arg(long, value_name = "DIR", requires = "prove")]
    pub cache: Option<PathBuf>,
    /// Cubes: how to write the moves back: singmaster (default) writes wide turns Rw and
    /// slices M; sign writes wide turns r; wca writes wide turns Rw and slices as the wide and
    /// face turn they are (M as Lw L'), since its notation has none
    #[arg(long, value_name = "NOTATION", value_parser = parse_notation)]
    pub notation: Option<CubeNotation>,
    /// One JSON document per sequence
    #[arg(long)]
    pub json: bool,
}

/// Parts of the benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BenchSection {
    /// Everything.
    All,
    /// Enumeration engines and table descent.
    Bfs,
    /// Pattern-database builds and optimal search on Korf's 100 instances.
    Search,
    /// Subgoal solvers: speed and solution lengths from 3x3 to 20x20.
    Subgoal,
    /// Cubes: 2x2x2 and 3x3x3 enumeration, two-phase solving of 1,000 random cubes.
    Cube,
    /// The optimal 3x3x3 solver: 20 random 13-move sequences (small table), then --cubes
    /// uniformly random cubes (--table-size, default 1gb) and the mean of the table's bounds
    /// over 10,000 random cubes, lookup by lookup. In `all` with --large only.
    Optimal,
    /// The distributed backend against the frontier engine alone (both keeping the tiles'
    /// moves back, as `bfs` does): 4x4 through depth 25 (28
    /// with --large) in one process with 1 and 2 workers and in 2, 3, 4 processes on
    /// loopback. Not in `all`.
    Distributed,
    /// Puzzles from the shipped definition files against the built-in cubes, group orders,
    /// and 3x3x3 scrambles solved over automatic pattern databases (with --large also the
    /// pyraminx with tips and the <R, U> group).
    Definitions,
}

/// `godsearch bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Which part to run.
    #[arg(long, value_enum, default_value_t = BenchSection::All)]
    pub section: BenchSection,
    /// Also run the long cases: 3x4 complete (about 20 s), 4x4 through depth 28 (4 GB),
    /// 24-puzzle boards of 66 to 88 moves with 6-6-6-6 (about 2.5 min; its databases build into
    /// the cache once: 45 s, 1.2 GB),
    /// and the 3x3x3 through 8 moves (htm) and 10 quarter turns (qtm).
    #[arg(long)]
    pub large: bool,
    /// Folder for cached pattern databases (default: the user's cache folder).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Korf-style instances for the search section (id, length, 16 cells a line; the
    /// blank-first goal). Default: Korf's 100, data/korf100.txt, built in.
    #[arg(long, value_name = "FILE")]
    pub korf: Option<PathBuf>,
    /// Optimal section: uniformly random cubes to solve (0: only the short sequences).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub cubes: usize,
    /// Optimal section: the table for the random cubes: small, 300mb, 1gb or 8gb.
    #[arg(long, value_name = "SIZE", default_value = "1gb")]
    pub table_size: String,
}
