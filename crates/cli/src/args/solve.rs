//! `godsearch solve`.

use super::{
    parse_memory, parse_seconds, Algorithm, DefinitionArgs, HeuristicChoice, SolutionNotation,
    MAX_EFFORT, MAX_TARGET_LENGTH,
};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// `godsearch solve`.
#[derive(Debug, Args, Clone)]
pub struct SolveArgs {
    /// The puzzle: 3x3, 4x4, WxH, 8-puzzle, 15-puzzle, ..., 2x2x2, 3x3x3, or a definition
    /// file (with --def, this is the first position)
    #[arg(required_unless_present_any = ["def", "status"])]
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
    #[arg(value_name = "BOARD", required_unless_present_any = ["file", "def", "pattern", "status"])]
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
    /// Boards, IDA*, one board: start at this threshold, the lower bound an earlier search of
    /// the board proved (the `bound` line or `lower_bound` that --timeout, Ctrl-C or SIGTERM
    /// left), so that none of its finished iterations is searched again. A bound above the
    /// board's true distance gives the first solution within it, which may not be shortest.
    #[arg(long, value_name = "BOUND")]
    pub resume_from: Option<u32>,
    /// Boards, parallel IDA*, with --resume-from: skip the subtrees of that bound's iteration
    /// that a search stopped inside it finished (the token its report gave with the bound), so
    /// that no finished work is searched again. Refused for another board, goal, direction or
    /// bound, or where this search splits the iteration otherwise (another build); a search
    /// with another heuristic takes it where it splits alike.
    #[arg(long, value_name = "TOKEN", requires = "resume_from")]
    pub resume_subtrees: Option<String>,
    /// Boards, IDA*: keep the bound proved and the subtrees finished in FILE as the search
    /// runs (rewritten whole whenever they move forward), and continue from FILE when it
    /// exists, so that a run killed without warning loses at most the subtrees under way. A
    /// new FILE for one board starts from --resume-from and --resume-subtrees where they are
    /// given. Once a board is solved FILE keeps its report, which the same command prints
    /// again (replayed first) instead of searching. With --file or several boards, FILE keeps
    /// each board's bound, or its report once solved: the same command continues each board
    /// where it stopped and prints the reports of those solved (--timeout may differ), the
    /// boards taking turns round from the one the last run was stopped in. FILE
    /// belongs to the goal, algorithm and heuristic (and the one board) it was written for; it
    /// is refused for others.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// With --checkpoint: say where FILE's search stands and search nothing: each board's
    /// bound, the subtrees and nodes of its iteration under way against the forecast, the way
    /// its probes chose, or its length once solved, and the time its runs took. The rest of
    /// the command may be left out (FILE says what it was kept for)
    #[arg(long, requires = "checkpoint", conflicts_with_all = ["json", "moves_only"])]
    pub status: bool,
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
    /// Definition puzzles: list N solutions, shortest first (an alg search, as twips's
    /// --min-num-solutions): distinct canonical sequences, every one shorter than the last
    /// listed among them, none passing through solved. Found by IDA* over databases.
    #[arg(long, value_name = "N")]
    pub count: Option<u32>,
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
    /// Pattern-database partition: 5-5-5, 6-6-3, 7-8, 4-4-4-3 (4x4), 6-6-6-6 or 6-6-6-6b (5x5),
    /// 4-4 (3x3), or groups such as 1,2,3,4,5/6,7,8,9,10/11,12,13,14,15. Implies --heuristic
    /// pdb. Given more than once (with --probe), each is a way to probe.
    #[arg(long, value_name = "PARTITION")]
    pub pdb: Vec<String>,
    /// Do not add the reflected pattern-database lookup.
    #[arg(long)]
    pub no_reflection: bool,
    /// Boards: search from the goal to the board, with pattern databases built (and cached)
    /// for each board as the goal; the same optimal length, by a search that is on some boards
    /// a hundred times shorter and on others far longer (docs/guide.md)
    #[arg(long, conflicts_with = "both_ways")]
    pub reverse: bool,
    /// Boards, IDA*: search from both ends in turn, each iteration raced between the two
    /// directions (the other as --reverse does), the first to finish it proving the next bound
    /// for both: at most about three times the better direction's time (docs/guide.md). With
    /// --probe, both directions are probed instead and the better goes on alone
    #[arg(long)]
    pub both_ways: bool,
    /// Boards, IDA*: probe each way of searching the board (each --pdb; forwards, or with
    /// --both-ways each direction) this long from the start, then go on with the one that
    /// expanded the fewest nodes on the last iteration all finished (docs/guide.md)
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub probe: Option<Duration>,
    /// Folder for cached pattern databases, subgoal stage tables and the two-phase tables
    /// (default: the user's cache folder).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Distance table made by `godsearch bfs PUZZLE --save FILE` (implies --algorithm table).
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// The goal board, or blank-last (the default: tiles in order, blank last) or blank-first
    /// (Korf's: 0,1,...,N-1); a --file may declare its own, in a line `# goal: blank-first`.
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
    /// Write a long search's progress line (IDA* of one board, or of each board of a
    /// --checkpoint campaign) out whole on stderr every SECONDS and at each new threshold,
    /// terminal or not, after the time of day (UTC), so that the log of a run in the
    /// background (stderr sent to a file) keeps it (`2026-12-06T05:01:43Z threshold 112,
    /// 41,302,114,304 nodes expanded, 21.4 Mnodes/s, 1930 s; ...`),
    /// and the bar of the tables it builds first, level by level. Without it both are drawn in
    /// place, on a terminal only
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, conflicts_with = "quiet")]
    pub progress_every: Option<Duration>,
    /// Boards: write the subgoal solvers' stage plans out in full on the time line (they are
    /// counted otherwise; the JSON always has them)
    #[arg(long)]
    pub verbose: bool,
}
