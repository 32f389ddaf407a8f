//! The other subcommands' options: serve, scramble, cache, pdb, info, verify and bench.

use super::{
    parse_memory, parse_notation, parse_seconds, CubeNotation, DefinitionArgs, MAX_SCRAMBLE_MOVES,
    MAX_THREADS,
};
use clap::{Args, Subcommand, ValueEnum};
use godsearch_bench::BenchSection;
use std::path::PathBuf;
use std::time::Duration;

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
    /// A puzzle definition file (KPuzzle JSON or .tws) to offer, by its definition's name,
    /// beside the shipped ones: on the page's menu and to the API (which reads no file its
    /// clients name). Repeat for more.
    #[arg(long = "def", value_name = "FILE")]
    pub definitions: Vec<std::path::PathBuf>,
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
    /// Boards: the goal each position is drawn to reach (with --moves, the walks start from
    /// it): blank-last (the default: tiles in order, blank last), blank-first (Korf's) or any
    /// board.
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
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
            godsearch_app::units::excerpt(text)
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
    /// Build the pattern databases of a partition into the cache (rebuilding stale ones), or
    /// every database a definition puzzle's solver reads (the larger ones it reads but
    /// never builds itself, for deep positions, too).
    #[command(after_help = "Examples:\n  godsearch pdb build 4x4 --pdb 6-6-3\n  \
godsearch pdb build 4x4 --pdb 5-5-5 --goal blank-first\n  \
godsearch pdb build data/definitions/3x3x3.kpuzzle.json")]
    Build(PdbBuildArgs),
}

/// `godsearch pdb build`.
#[derive(Debug, Args)]
pub struct PdbBuildArgs {
    /// The puzzle: a board size, or a definition file.
    #[arg(required_unless_present = "def")]
    pub puzzle: Option<String>,
    #[command(flatten)]
    pub definition: DefinitionArgs,
    /// Boards: the partition (as for `solve --pdb`).
    #[arg(long, value_name = "PARTITION")]
    pub pdb: Option<String>,
    /// Boards: the goal board the databases belong to, or blank-first (Korf's: 0,1,...,N-1).
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
    /// Definition puzzles: htm (default) or qtm, as the solves that read them count moves.
    #[arg(long, value_name = "METRIC")]
    pub metric: Option<String>,
    /// Folder for cached pattern databases (default: the user's cache folder).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Memory for the build: 16G, 512M, 50% (default: 80% of RAM).
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    pub memory: Option<u64>,
    /// Boards: leave out the databases of the partition's mirror image, which `solve` also
    /// reads (unless given --no-reflection) where no mirror of the board keeps the goal's blank.
    #[arg(long)]
    pub no_reflection: bool,
    /// Rebuild even when a valid cached database exists.
    #[arg(long)]
    pub force: bool,
    /// Write the status line (the database under way and its level) out whole on stderr
    /// every SECONDS and as each database begins, terminal or not, after the time of day
    /// (UTC), for a build whose stderr goes to a file. Without it the line is redrawn in
    /// place, on a terminal only
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub progress_every: Option<Duration>,
}

/// `godsearch info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// The puzzle, or a definition file; without one, every puzzle offered by name (boards,
    /// cubes, the pancake puzzle, the shipped definitions) with its number of positions.
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
    /// and `#` comments are skipped, but for a line `# goal: blank-first`, which declares the
    /// claims' goal where --goal is left out
    #[arg(long, value_name = "FILE", conflicts_with_all = ["start", "moves"])]
    pub file: Option<PathBuf>,
    /// Boards: the goal (default: tiles in order, blank last), or blank-first (Korf's); a
    /// --file may declare its own
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
    /// Korf-style instances for the search section (id, length, 16 cells a line), for the
    /// goal the file declares (`# goal: ...`), else Korf's (blank first). Default: Korf's
    /// 100, data/korf100.txt, built in.
    #[arg(long, value_name = "FILE")]
    pub korf: Option<PathBuf>,
    /// Optimal section: uniformly random cubes to solve (0: only the short sequences).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub cubes: usize,
    /// Optimal section: the table for the random cubes: small, 300mb, 1gb or 8gb.
    #[arg(long, value_name = "SIZE", default_value = "1gb")]
    pub table_size: String,
    /// Instead of the sections: time this build against the godsearch build at PROGRAM on the
    /// command after `--`, side by side, each pinned to its own core (taskset), the cores
    /// swapped from pair to pair, and print each pair's times and their median ratio. The
    /// command should be fixed work (a solve, an enumeration), not one that stops at a timeout.
    #[arg(long, value_name = "PROGRAM", requires = "command")]
    pub against: Option<PathBuf>,
    /// With --against: pairs to run.
    #[arg(long, value_name = "N", default_value_t = 4, requires = "against",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub pairs: u64,
    /// With --against: the command both builds run, e.g. `-- solve 4x4 --pdb 6-6-3 ...`.
    #[arg(last = true, value_name = "COMMAND", requires = "against")]
    pub command: Vec<String>,
}
