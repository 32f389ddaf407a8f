//! `solve --checkpoint FILE`: a board's search keeps in FILE the bound it has proved and the
//! subtrees it has finished of the iteration under way, rewritten whenever they change (a
//! temporary file renamed into place, so the file is always whole), so that a run killed
//! without a word (power lost, the out-of-memory killer, `kill -9`) loses at most the subtrees
//! it had under way. The same command with the same FILE continues from it; once the board is
//! solved FILE keeps its report, and the same command prints it again at once (replayed
//! first, [`kept_report`]) instead of searching the last iteration again. A FILE written for
//! another board, goal or heuristic is refused. A new FILE may start where an earlier run's
//! report left the search (`--resume-from`, `--resume-subtrees`). Over several boards FILE
//! keeps a campaign instead ([`super::campaign`]), through the same [`follow`] and [`write`].
//! A FILE that cannot be written is refused before the search, and one whose write fails
//! during it is said on stderr ([`Unkept`]) while the search goes on. A signal that ends the
//! process has the follower look once more first ([`last_look`]), so what was finished since
//! its last look is kept too.

use crate::args::{Algorithm, HeuristicChoice, SolveArgs};
use crate::errors::{bad_input, InputError};
use crate::output::errln;
use anyhow::{Context, Result};
use godsearch_app::progress::{ResumedIteration, SearchedSubtrees, Watch};
use godsearch_app::registry::tiles::{self, ways::probe_ways};
use godsearch_app::report::{SearchWay, Solution};
use godsearch_app::request::{self, ReplayRequest, SolveReport, SolveRequest};
use godsearch_app::{AppError, AppResult};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Mutex, PoisonError, TryLockError};
use std::time::{Duration, Instant};

/// What names the format in a checkpoint file.
pub const FORMAT: &str = "godsearch solve checkpoint 1";
/// How often the search's progress is looked at for a change to keep.
const LOOK_EVERY: Duration = Duration::from_secs(1);
/// How long a signal waits for the follower's last look ([`last_look`]) before the process
/// ends without it: a write takes milliseconds, but a disk may be slow.
const LAST_LOOK_WAIT: Duration = Duration::from_secs(5);
/// How often a signal looks again whether a write under way has ended.
const WRITE_POLL: Duration = Duration::from_millis(1);

/// The follower at work in this process ([`follow`]), to which a signal sends for its last
/// look: the sender to answer on once it has kept what it saw.
static FOLLOWER: Mutex<Option<mpsc::Sender<Look>>> = Mutex::new(None);
/// One checkpoint write at a time in this process, and none after a signal's last look: a
/// process ended by a signal leaves every checkpoint whole and no temporary file beside it.
static WRITES: Mutex<()> = Mutex::new(());

/// What the follower is told between its looks.
enum Look {
    /// A signal ends the process: look once more, keep what is ahead, then answer.
    Last(mpsc::Sender<()>),
}

/// A checkpoint file: the search it belongs to and where it stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct Checkpoint {
    format: String,
    pub(super) search: Search,
    /// Every solution has at least this many moves.
    pub(super) lower_bound: u32,
    /// The subtrees finished of the iteration of `lower_bound` (`--resume-subtrees`).
    pub(super) resume_subtrees: Option<String>,
    /// Its report once solved, as `solve --json` prints it (absent from files written before
    /// the report was kept, and while the search goes on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) solved: Option<serde_json::Value>,
    /// Nodes expanded, for the progress line's estimate of the iteration's time left in the
    /// run that continues (absent from files written before they were kept, and once solved).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) expanded: Option<Expanded>,
    /// With --probe: the way the probes chose, which the bound's subtrees belong to and the
    /// next run goes on with (absent before the choice, and without probes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) chosen_way: Option<SearchWay>,
    /// The time its runs took (absent from files written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) timed: Option<Timed>,
}

/// The wall-clock time a file's runs have spent on a board, for `--status`: the seconds from
/// each run's start (its tables and probes included, and any time the process was stopped)
/// to its last write of the file, over the runs since `since`. Runs of builds that kept no
/// time are not counted, and a run killed loses what it spent after its last write.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Timed {
    /// When the first run that kept it began (RFC 3339, UTC).
    pub since: String,
    /// Wall-clock seconds of the runs since then.
    pub seconds: f64,
}

/// A run's clock over a board's search: the time kept by the runs before it, and when it began.
#[derive(Debug, Clone)]
pub struct Clock {
    before: Timed,
    started: Instant,
}

impl Clock {
    /// Starts now, going on from `kept` (or from nothing, since now).
    pub fn start(kept: Option<Timed>) -> Self {
        let before = kept.unwrap_or_else(|| Timed {
            since: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            seconds: 0.0,
        });
        Clock {
            before,
            started: Instant::now(),
        }
    }

    /// The time kept so far, this run's included (to the millisecond).
    pub fn read(&self) -> Timed {
        let seconds = self.before.seconds + self.started.elapsed().as_secs_f64();
        Timed {
            since: self.before.since.clone(),
            seconds: (seconds * 1000.0).round() / 1000.0,
        }
    }
}

/// The nodes a checkpoint keeps: those of the iteration of its bound so far, over every run
/// (about: a run stopped inside a subtree counts nodes the next run searches again), and
/// those of the two iterations before it (0 where not known), the earlier first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expanded {
    pub in_iteration: u64,
    pub before: [u64; 2],
}

impl Expanded {
    /// What `watch` says of the search's iteration under way.
    pub fn of(watch: &Watch) -> Self {
        Expanded {
            in_iteration: watch.iteration_expanded(),
            before: watch.finished_iterations(),
        }
    }

    /// The iteration of `threshold` as a search that resumes it takes it: with the nodes kept
    /// of it where it goes on from finished subtrees (`partly_done`), from nothing otherwise.
    pub fn resumed(self, threshold: u32, partly_done: bool) -> ResumedIteration {
        ResumedIteration {
            threshold,
            carried: if partly_done { self.in_iteration } else { 0 },
            before: self.before,
        }
    }
}

/// The options that make one search: a checkpoint is kept only by the same (a campaign's has
/// no board: it keeps many).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Search {
    puzzle: String,
    board: Option<String>,
    goal: Option<String>,
    algorithm: String,
    heuristic: String,
    pdb: Option<String>,
    no_reflection: bool,
    /// Absent from files written before `--reverse` was added: those searched forwards.
    #[serde(default)]
    reverse: bool,
    /// Absent from files written before `--both-ways` was added: those searched one way.
    #[serde(default)]
    both_ways: bool,
    /// Whether the ways are probed (--probe; absent without, and from files written before).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    probe: bool,
}

impl Search {
    /// The search `args` ask for, of `board` (none for a campaign).
    pub fn of(args: &SolveArgs, board: Option<&str>) -> Self {
        Search {
            puzzle: args.puzzle.clone().unwrap_or_default(),
            board: board.map(str::to_string),
            goal: args.goal.clone(),
            algorithm: format!("{:?}", args.algorithm),
            heuristic: format!("{:?}", args.heuristic),
            pdb: (!args.pdb.is_empty()).then(|| args.pdb.join(" ")),
            no_reflection: args.no_reflection,
            reverse: args.reverse,
            both_ways: args.both_ways,
            probe: args.probe.is_some(),
        }
    }

    /// Whether this search, kept in a file, is the one `asked` is: the same options, and on a
    /// board size the same board and goal however each was written (`blank-first` or its
    /// tiles, a list or hex, the default goal or `blank-last`).
    pub fn is(&self, asked: &Search) -> bool {
        let boards_agree = self.board == asked.board
            || (self.board_read().is_some() && self.board_read() == asked.board_read());
        let goals_agree = self.goal == asked.goal
            || (self.goal_read().is_some() && self.goal_read() == asked.goal_read());
        let rest = |s: &Search| Search {
            board: None,
            goal: None,
            ..s.clone()
        };
        boards_agree && goals_agree && rest(self) == rest(asked)
    }

    /// Whether a campaign kept for this search goes on as `asked`, which probes the
    /// backwards ways too (`--both-ways` added to probes forwards): a board's first turn is
    /// the same (its forwards ways), and those that outlast it have the backwards ways
    /// probed against the way chosen ([`super::campaign`]).
    pub fn widened_to(&self, asked: &Search) -> bool {
        let both_ways = Search {
            both_ways: true,
            ..self.clone()
        };
        self.probe && !self.reverse && !self.both_ways && both_ways.is(asked)
    }

    /// The options it was kept for, as a command line gives them (the puzzle first).
    pub fn command(&self) -> String {
        let mut words = vec![self.puzzle.clone()];
        let mut option = |name: &str, value: Option<&str>| match value {
            Some(value) => words.push(format!("--{name} {value}")),
            None => words.push(format!("--{name}")),
        };
        if let Some(goal) = &self.goal {
            option("goal", Some(goal));
        }
        let choices = [
            ("algorithm", value_name::<Algorithm>(&self.algorithm)),
            ("heuristic", value_name::<HeuristicChoice>(&self.heuristic)),
        ];
        for (name, chosen) in choices {
            if chosen != "auto" {
                option(name, Some(&chosen));
            }
        }
        for pdb in self.pdb.iter().flat_map(|p| p.split(' ')) {
            option("pdb", Some(pdb));
        }
        let flags = [
            ("no-reflection", self.no_reflection),
            ("reverse", self.reverse),
            ("both-ways", self.both_ways),
            ("probe", self.probe),
        ];
        for (name, _) in flags.into_iter().filter(|(_, on)| *on) {
            option(name, None);
        }
        words.join(" ")
    }

    /// The one board it searches (`None` for a campaign's).
    pub fn board(&self) -> Option<&str> {
        self.board.as_deref()
    }

    /// The cells of the puzzle's board, where it is a board size.
    pub fn cells(&self) -> Option<usize> {
        self.shape().map(tiles::Shape::cells)
    }

    /// The board size of the puzzle, where it is one.
    fn shape(&self) -> Option<tiles::Shape> {
        tiles::board_shape(&self.puzzle)?.ok()
    }

    /// The goal read as a board, where the puzzle is a board size and it reads.
    fn goal_read(&self) -> Option<tiles::Board> {
        let shape = self.shape()?;
        match &self.goal {
            None => Some(tiles::Board::goal(shape)),
            Some(goal) => tiles::Board::parse_goal(shape, goal).ok(),
        }
    }

    /// The board read, where the puzzle is a board size and it reads.
    fn board_read(&self) -> Option<tiles::Board> {
        tiles::Board::parse(self.shape()?, self.board.as_deref()?).ok()
    }
}

/// The name on the command line of the `T` kept as `kept` (its `Debug` form), or `kept` itself
/// where no value is named so.
fn value_name<T: clap::ValueEnum + std::fmt::Debug>(kept: &str) -> String {
    T::value_variants()
        .iter()
        .find(|v| format!("{v:?}") == kept)
        .and_then(clap::ValueEnum::to_possible_value)
        .map_or_else(|| kept.to_string(), |v| v.get_name().to_string())
}

/// Refuses `--checkpoint` for a search that is not IDA*'s (only IDA* proves bounds).
pub fn check_algorithm(args: &SolveArgs) -> Result<()> {
    let ida = [Algorithm::Auto, Algorithm::Ida, Algorithm::ParallelIda];
    if !ida.contains(&args.algorithm) {
        bad_input!("--checkpoint keeps an IDA* search: --algorithm ida or parallel-ida")
    }
    Ok(())
}

/// The one board `--checkpoint` keeps the search of, refused with the reason otherwise.
fn board_of(args: &SolveArgs) -> Result<&str> {
    check_algorithm(args)?;
    match (&args.boards[..], &args.file) {
        ([board], None) => Ok(board),
        _ => bad_input!("--checkpoint keeps the search of one board, given as an argument"),
    }
}

/// Where the search stands: the bound proved and how many subtrees of its iteration are
/// finished. Checkpoints are kept only as it moves forward.
pub type Standing = (u32, usize);

/// What a checkpoint says of its board: where its search stands, or its report once solved.
pub enum Resumed {
    /// Searched from here on.
    Searching(Searching),
    /// Solved in an earlier run: the report it printed.
    Solved(serde_json::Value),
}

/// Where a board's search goes on from its checkpoint.
pub struct Searching {
    /// The bound and the subtrees finished (the start where there was no file).
    pub from: Standing,
    /// What the earlier runs expanded on the iteration resumed, where the file kept it.
    pub carried: Option<ResumedIteration>,
    /// The way the probes chose, where they did.
    pub chosen: Option<SearchWay>,
    /// The time the file's runs have taken, going on from this run's start.
    pub clock: Clock,
}

/// Where the checkpoint at `path` says the search of `args`' board stands: `request`'s
/// `resume_from` and `resume_subtrees` set from it, or the board's report once solved. Where
/// there is no file yet (and one can be written), the search stands where `--resume-from` and
/// `--resume-subtrees` (an earlier run's report) put it, or at the start, and the file is
/// written once it moves on from there (so a token the search refuses is never kept).
pub fn resume(path: &Path, args: &SolveArgs, request: &mut SolveRequest) -> Result<Resumed> {
    let board = board_of(args)?;
    let refused = |why: &str| anyhow::anyhow!("checkpoint {}: {why}", path.display());
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            check_writable(path)?;
            let from = match args.resume_from {
                None => (0, 0),
                Some(lower_bound) => {
                    let done = finished(args.resume_subtrees.as_deref())
                        .map_err(|e| InputError(format!("--resume-subtrees: {e}")))?;
                    (lower_bound, done)
                }
            };
            return Ok(Resumed::Searching(Searching {
                from,
                carried: None,
                chosen: None,
                clock: Clock::start(None),
            }));
        }
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    if args.resume_from.is_some() {
        bad_input!(
            "checkpoint {}: it holds where the search stands already: leave out --resume-from \
             and --resume-subtrees to continue from it, or give a new file",
            path.display()
        );
    }
    let kept: Checkpoint = read_kept(&text, FORMAT).map_err(|e| refused(&e))?;
    if !kept.search.is(&Search::of(args, Some(board))) {
        return Err(refused(&format!(
            "kept for another search ({}); give another file, or the options it was kept for",
            serde_json::to_string(&kept.search)?
        )));
    }
    if let Some(report) = kept.solved {
        return Ok(Resumed::Solved(report));
    }
    let done = finished(kept.resume_subtrees.as_deref()).map_err(|e| refused(&e))?;
    // Without a token (none finished, or set to null) the iteration starts again from nothing.
    let carried = kept
        .expanded
        .map(|e| e.resumed(kept.lower_bound, kept.resume_subtrees.is_some()));
    if let Some(way) = &kept.chosen_way {
        *request = way.applied_to(request);
    }
    request.resume_from = Some(kept.lower_bound);
    request.resume_subtrees = kept.resume_subtrees;
    Ok(Resumed::Searching(Searching {
        from: (kept.lower_bound, done),
        carried,
        chosen: kept.chosen_way,
        clock: Clock::start(kept.timed),
    }))
}

/// `refused`, a search's refusal of the finished subtrees `path` kept of its iteration of
/// `bound` (recorded by another build, whose iterations split otherwise), with what to do.
pub fn token_refused(refused: &AppError, path: &Path, bound: u32) -> anyhow::Error {
    anyhow::anyhow!(
        "checkpoint {}: {refused}; continue it with the build that wrote it, or set its \
         \"resume_subtrees\" to null there to search its iteration of {bound} from the start",
        path.display()
    )
}

/// The report `path` kept of `board`, solved in an earlier run, said on stderr and read back
/// to be printed again: its solution is replayed from its start first, so a report that does
/// not reach `goal` in its length (a file edited or damaged since) is refused, never printed.
pub fn kept_report(
    path: &Path,
    board: &str,
    report: &serde_json::Value,
    goal: Option<&str>,
) -> Result<SolveReport> {
    let refused = |why: String| {
        anyhow::anyhow!(
            "checkpoint {}: its report of board «{board}» {why}; remove its \"solved\" there to \
             search the board again",
            path.display()
        )
    };
    let solution: Solution = serde_json::from_value(report.clone())
        .map_err(|e| refused(format!("is not a report this build reads ({e})")))?;
    let replayed = request::replay(&ReplayRequest {
        puzzle: solution.puzzle.clone(),
        position: solution.start.clone(),
        solution: solution.solution.clone(),
        goal: goal.map(str::to_string),
        facelets: false,
    })
    .map_err(|e| refused(format!("does not replay ({e})")))?;
    let moves = replayed.positions.len().saturating_sub(1);
    if !replayed.solved || moves != solution.length {
        return Err(refused(format!(
            "does not reach the goal in its {} moves",
            solution.length
        )));
    }
    errln!(
        "board «{board}»: solved in an earlier run ({} moves); its report, kept in {}, follows",
        solution.length,
        path.display()
    );
    // What the earlier run wrote the solution as is this run's choice again.
    Ok(SolveReport::Tiles(Solution {
        written: None,
        kept_in: Some(path.display().to_string()),
        ..solution
    }))
}

/// Where a search's report leaves its checkpoint: stopped, at the bound it proved with the
/// token of the subtrees it finished; solved, at its length with the report itself.
pub struct Settled {
    /// The bound proved, or the solution's length (`None`: the report has neither).
    pub lower_bound: Option<u32>,
    /// A stopped search's token (`--resume-subtrees`).
    pub resume_subtrees: Option<String>,
    /// A solved search's report, as `solve --json` prints it.
    pub solved: Option<serde_json::Value>,
}

impl Settled {
    /// Where `report` leaves its board's search.
    pub fn of(report: &SolveReport) -> Result<Self> {
        let document = serde_json::to_value(report)?;
        let timed_out = document["timed_out"].as_bool() == Some(true);
        let bound = document[if timed_out { "lower_bound" } else { "length" }].as_u64();
        Ok(Settled {
            lower_bound: bound.map(|b| u32::try_from(b).unwrap_or(u32::MAX)),
            resume_subtrees: document["searched_subtrees"]
                .as_str()
                .filter(|_| timed_out)
                .map(str::to_string),
            solved: (!timed_out).then_some(document),
        })
    }
}

/// The way a search's probes chose, as a checkpoint keeps it: the one its watch says they
/// chose (numbered as [`probe_ways`] lists them), else the one an earlier run's probes chose.
pub struct ChosenWay {
    ways: Vec<SearchWay>,
    earlier: Option<SearchWay>,
}

impl ChosenWay {
    /// For the search `args` ask for, continued with the way `earlier` probes chose.
    pub fn new(args: &SolveArgs, earlier: Option<SearchWay>) -> Self {
        Self::of_request(&super::solve::request(args, ""), earlier)
    }

    /// For the search `request` asks for, continued with the way `earlier` probes chose.
    pub fn of_request(request: &SolveRequest, earlier: Option<SearchWay>) -> Self {
        let ways = match request.probe {
            Some(_) => probe_ways(request).unwrap_or_default(),
            None => Vec::new(),
        };
        ChosenWay { ways, earlier }
    }

    /// The way chosen so far (`None`: none yet, or no probes).
    pub fn of(&self, watch: &Watch) -> Option<SearchWay> {
        watch
            .chosen_way()
            .and_then(|i| self.ways.get(i).cloned())
            .or_else(|| self.earlier.clone())
    }
}

/// `report`, of a search that went on with `way` alone, chosen by the probes of an earlier
/// run, naming it as the run that chose it would have (its `chosen_way`), so that a board's
/// report says which way solved it, or whose subtrees a stopped search finished.
pub fn naming_way(report: SolveReport, way: Option<&SearchWay>) -> SolveReport {
    match (report, way) {
        (SolveReport::Tiles(solution), Some(way)) if solution.chosen_way.is_none() => {
            SolveReport::Tiles(Solution {
                chosen_way: Some(way.clone()),
                ..solution
            })
        }
        (report, _) => report,
    }
}

/// What names a campaign's format ([`super::campaign`]).
pub const CAMPAIGN_FORMAT: &str = "godsearch solve campaign 1";

/// The file `text` read as a `format` file, or why it is not one (a file of the other kind is
/// named as such).
pub fn read_kept<T: serde::de::DeserializeOwned>(
    text: &str,
    format: &str,
) -> std::result::Result<T, String> {
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| format!("not a checkpoint this build writes ({e})"))?;
    match value["format"].as_str() {
        Some(f) if f == format => {}
        Some(FORMAT) => {
            return Err(
                "it keeps one board's search: give it with that one board as an argument".into(),
            )
        }
        Some(CAMPAIGN_FORMAT) => {
            return Err(
                "it keeps a campaign over several boards: give it with --file or those boards"
                    .into(),
            )
        }
        Some(f) => return Err(format!("written as «{f}», not «{format}»")),
        None => return Err("not a checkpoint this build writes (no «format»)".into()),
    }
    serde_json::from_value(value).map_err(|e| format!("not a checkpoint this build writes ({e})"))
}

/// How many subtrees `token` says are finished (none without one).
pub fn finished(token: Option<&str>) -> std::result::Result<usize, String> {
    token.map_or(Ok(0), |t| Ok(t.parse::<SearchedSubtrees>()?.done.len()))
}

/// Runs `work`, the search of `args`' board that `watch` follows from where `path`'s
/// checkpoint had it (`searching`), keeping its checkpoint there each time it moves forward
/// (see [`follow`]), and its report once solved.
pub fn keeping(
    path: &Path,
    args: &SolveArgs,
    watch: &Watch,
    searching: &Searching,
    work: impl FnOnce() -> Vec<AppResult<SolveReport>>,
) -> Result<Vec<AppResult<SolveReport>>> {
    let search = Search::of(args, Some(board_of(args)?));
    let chosen_way = ChosenWay::new(args, searching.chosen.clone());
    let from = searching.from;
    let checkpoint = |lower_bound, resume_subtrees, solved, expanded| Checkpoint {
        format: FORMAT.into(),
        search: search.clone(),
        lower_bound,
        resume_subtrees,
        solved,
        expanded,
        chosen_way: chosen_way.of(watch),
        timed: Some(searching.clock.read()),
    };
    let keep = |lower_bound, searched: Option<SearchedSubtrees>| {
        let expanded = Some(Expanded::of(watch));
        write(
            path,
            &checkpoint(lower_bound, searched.map(|s| s.to_string()), None, expanded),
        )
    };
    let way = searching.chosen.as_ref();
    let reports: Vec<_> = follow(watch, from, keep, work)
        .into_iter()
        .map(|report| report.map(|r| naming_way(r, way)))
        .collect();
    match &reports[..] {
        // Without --resume-from the token refused was the file's.
        [Err(e)] if e.refused_resume_subtrees() && args.resume_from.is_none() => {
            Err(token_refused(e, path, from.0))
        }
        [Ok(report)] => {
            let settled = Settled::of(report)?;
            if let (Some(length), Some(solved)) = (settled.lower_bound, settled.solved) {
                let report = Checkpoint {
                    chosen_way: None,
                    ..checkpoint(length, None, Some(solved), None)
                };
                Unkept::default().check(write(path, &report));
            }
            Ok(reports)
        }
        _ => Ok(reports),
    }
}

/// Runs `work`, a search that `watch` follows from `from`, calling `keep` with its bound and
/// finished subtrees each time they move forward (a higher bound, or more subtrees finished)
/// or its probes choose a way, looked at every second, once more at its end, and once more at a signal ([`last_look`]).
/// A `keep` that fails is said on stderr (see [`Unkept`]) and tried again at the next look: it
/// never ends the search nor loses what the search returns.
pub fn follow<T>(
    watch: &Watch,
    from: Standing,
    mut keep: impl FnMut(u32, Option<SearchedSubtrees>) -> Result<()> + Send,
    work: impl FnOnce() -> T,
) -> T {
    let (finished, look) = mpsc::channel::<Look>();
    *FOLLOWER.lock().unwrap_or_else(PoisonError::into_inner) = Some(finished.clone());
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let mut kept = from;
            // A way chosen by probes is kept at once, before its search moves on.
            let mut kept_way = watch.chosen_way();
            let mut unkept = Unkept::default();
            loop {
                let (ended, answer) = match look.recv_timeout(LOOK_EVERY) {
                    Err(RecvTimeoutError::Timeout) => (false, None),
                    Err(RecvTimeoutError::Disconnected) => (true, None),
                    Ok(Look::Last(answer)) => (true, Some(answer)),
                };
                // The way first: once it is chosen, the subtrees read next are its own.
                let way = watch.chosen_way();
                let lower_bound = watch.threshold();
                let searched = watch.searched();
                let done = searched.as_ref().map_or(0, |s| s.done.len());
                // Only forward: an iteration resumed tells its skipped subtrees a moment after
                // it begins, and the file must not lose them meanwhile.
                let moved = (lower_bound, done) > kept || way != kept_way;
                if moved && unkept.check(keep(lower_bound.max(kept.0), searched)) {
                    kept = (lower_bound, done).max(kept);
                    kept_way = way;
                }
                if let Some(answer) = answer {
                    let _ = answer.send(());
                }
                if ended {
                    return;
                }
            }
        });
        let result = work();
        // The follower ends once no sender is left: the signal's copy goes first.
        FOLLOWER
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        drop(finished);
        result
    })
}

/// For a signal's last words, before the process ends: the follower at work (if any) looks
/// once more and keeps what was finished since its last look (waiting at most
/// [`LAST_LOOK_WAIT`] for it), and no checkpoint is written after that in this process.
pub fn last_look() {
    let follower = FOLLOWER
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    let deadline = Instant::now() + LAST_LOOK_WAIT;
    if let Some(follower) = follower {
        let (answer, answered) = mpsc::channel();
        if follower.send(Look::Last(answer)).is_ok() {
            let _ = answered.recv_timeout(LAST_LOOK_WAIT);
        }
    }
    // Held until the process ends, once a write under way is finished (unless it hangs).
    loop {
        match WRITES.try_lock() {
            Ok(held) => return std::mem::forget(held),
            Err(TryLockError::Poisoned(held)) => return std::mem::forget(held.into_inner()),
            Err(TryLockError::WouldBlock) if Instant::now() >= deadline => return,
            Err(TryLockError::WouldBlock) => std::thread::sleep(WRITE_POLL),
        }
    }
}

/// Says on stderr that a checkpoint could not be written, once until one is written again: a
/// full disk or a folder gone leaves the file at the last standing written, and must not end
/// a search of hours nor lose its report.
#[derive(Debug, Default)]
pub struct Unkept {
    failing: bool,
}

impl Unkept {
    /// Whether `written` went through; a failure is said unless the one before failed too, and
    /// a write that goes through after failures is said too.
    pub fn check(&mut self, written: Result<()>) -> bool {
        match written {
            Ok(()) => {
                if std::mem::take(&mut self.failing) {
                    errln!("the checkpoint is kept again");
                }
                true
            }
            Err(e) => {
                if !std::mem::replace(&mut self.failing, true) {
                    errln!(
                        "warning: {e:#}; the search goes on, and the file keeps where it stood \
                         before until a write goes through"
                    );
                }
                false
            }
        }
    }
}

/// Refuses a checkpoint `path` that cannot be written (its folder missing or read-only), before
/// any search: found out at its first write, it would leave a run of hours unkept.
pub fn check_writable(path: &Path) -> Result<()> {
    tempfile::NamedTempFile::new_in(folder_of(path))
        .map(drop)
        .with_context(|| format!("checkpoint {}: cannot write there", path.display()))
}

/// The folder `path` lies in (the working folder for a bare file name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Writes `value` as JSON to `path` whole or not at all: a temporary file in the same folder,
/// synced, then renamed over it.
pub fn write(path: &Path, value: &impl Serialize) -> Result<()> {
    let _one_at_a_time = WRITES.lock().unwrap_or_else(PoisonError::into_inner);
    let writing = || -> std::io::Result<()> {
        let mut file = tempfile::NamedTempFile::new_in(folder_of(path))?;
        serde_json::to_writer_pretty(&mut file, value)?;
        file.write_all(b"\n")?;
        file.as_file().sync_all()?;
        file.persist(path)?;
        Ok(())
    };
    writing().with_context(|| format!("keeping the checkpoint {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(both_ways: bool, probe: bool) -> Search {
        Search {
            puzzle: "5x5".into(),
            board: None,
            goal: Some("blank-first".into()),
            algorithm: "Auto".into(),
            heuristic: "Auto".into(),
            pdb: Some("6-6-6-6 6-6-6-6b".into()),
            no_reflection: false,
            reverse: false,
            both_ways,
            probe,
        }
    }

    /// A campaign probing forwards goes on with the backwards ways added, not the other way
    /// round, nor one that races both ways without probes, nor another search.
    #[test]
    fn probes_forwards_widen_to_both_ways_alone() {
        assert!(search(false, true).widened_to(&search(true, true)));
        assert!(!search(true, true).widened_to(&search(false, true)));
        assert!(!search(false, false).widened_to(&search(true, false)));
        assert!(!search(false, true).widened_to(&search(false, true)));
        let other_goal = Search {
            goal: None,
            ..search(true, true)
        };
        assert!(!search(false, true).widened_to(&other_goal));
    }
}
