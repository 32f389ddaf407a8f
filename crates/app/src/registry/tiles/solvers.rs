//! Solving sliding-tile boards the way every front end offers it: reading a board against a
//! goal, choosing and loading the heuristic, running the chosen algorithm, and turning the
//! outcome into a checked [`Solution`] (replayed to the goal before it is returned).

use super::choice::{self, SolutionNotation, ASTAR_BYTES_PER_POSITION, IN_MEMORY_TABLE_LIMIT};
use super::tables::{load_tile_table, AnySpace};
use crate::cache::{Origin, TableCache, QUICK_BUILD_STATES};
use crate::choice::{Algorithm, HeuristicChoice};
use crate::error::{ball_error, build_tables};
use crate::progress::Notice;
use crate::report::{SearchWay, Solution};
use crate::request::{SolveRequest, Workbench};
use crate::tables::table_in_memory;
use crate::units::{format_bytes, format_count, format_seconds};
use crate::{AppError, AppResult};
use godsearch_core::progress::on_tables;
use godsearch_core::{excerpt, Progress, RankedSpace};
use godsearch_enumerate::half_depth::{GoalBall, HalfDepthOutcome};
use godsearch_enumerate::table::table_bytes;
use godsearch_puzzles::tiles::{notation, Move, TileSpace};
use godsearch_puzzles::tiles::{Board, BoardFormat, Partition, Shape};
use godsearch_search::descend;
use godsearch_search::tiles::{
    astar_watched, ida_star_resumed, probe_ways, race_both_ways, Direction, LinearConflict,
    Manhattan, PatternHeuristic, Probe, Probing, Race, Raced, ReflectedLookup, Resume, SearchError,
    SearchOutcome, SearchStats, TableBytes, TileHeuristic, Watch, SWITCH_MARGIN,
};
use godsearch_subgoal::{Plan, Portfolio};
use godsearch_tables::{DistanceMod3, LoadedTable, TwoBitTable, TwoBitView};
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A board to solve, with what an input file said about it.
#[derive(Debug, Clone)]
pub struct TileJob {
    /// The board's id in the file.
    pub id: Option<String>,
    /// The optimal length the file gave.
    pub expected: Option<usize>,
    /// The board.
    pub board: Board,
    /// How the user wrote it: reports write it back the same way.
    pub format: BoardFormat,
}

/// Reads a board that must reach `goal`; the error quotes it.
pub fn solvable_board(goal: &Board, text: &str) -> AppResult<Board> {
    let quoted = |source| AppError::Board {
        text: excerpt(text).to_string(),
        source,
    };
    let board = Board::parse(goal.shape(), text).map_err(quoted)?;
    board.check_solvable(goal).map_err(quoted)?;
    Ok(board)
}

/// A heuristic `solve` can use, resolved to one type for the engines.
pub enum AnyHeuristic {
    /// Manhattan distance.
    Manhattan(Manhattan),
    /// Manhattan distance plus linear conflicts.
    Conflict(LinearConflict),
    /// Additive pattern databases (boxed: with its index weights it is the largest by far).
    Pdb(Box<PatternHeuristic>),
}

impl AnyHeuristic {
    /// The heuristic as a report names it.
    pub fn describe(&self) -> String {
        match self {
            AnyHeuristic::Manhattan(h) => h.describe(),
            AnyHeuristic::Conflict(h) => h.describe(),
            AnyHeuristic::Pdb(h) => h.describe(),
        }
    }

    /// Bytes of its tables.
    pub fn table_bytes(&self) -> u64 {
        match self {
            AnyHeuristic::Manhattan(h) => h.table_bytes(),
            AnyHeuristic::Conflict(h) => h.table_bytes(),
            AnyHeuristic::Pdb(h) => h.table_bytes(),
        }
    }
}

/// How to choose a heuristic.
pub struct HeuristicRequest<'a> {
    /// The user's choice.
    pub choice: HeuristicChoice,
    /// A partition given by name or tile groups (implies [`HeuristicChoice::Pdb`]).
    pub partition: Option<&'a str>,
    /// Whether pattern databases are also read through the board's reflection.
    pub reflection: bool,
    /// Where databases are cached.
    pub cache: &'a TableCache,
    /// Bytes a database build may use.
    pub memory_bytes: u64,
}

impl<'a> HeuristicRequest<'a> {
    /// What `request` asks for, its databases cached in `cache` and built within
    /// `memory_bytes`.
    pub fn of(request: &'a SolveRequest, cache: &'a TableCache, memory_bytes: u64) -> Self {
        HeuristicRequest {
            choice: request.heuristic,
            partition: request.pdb.as_deref(),
            reflection: !request.no_reflection,
            cache,
            memory_bytes,
        }
    }

    /// The heuristic for `goal`: the one asked for, or for `auto` the strongest named partition
    /// whose databases are cached or build in seconds, else linear conflict, else Manhattan.
    /// Database builds report to `progress`; `notify` hears of builds and fallbacks.
    pub fn resolve(
        &self,
        goal: &Board,
        progress: &dyn Progress,
        notify: &mut dyn FnMut(Notice),
    ) -> AppResult<AnyHeuristic> {
        let choice = if self.partition.is_some() {
            HeuristicChoice::Pdb
        } else {
            self.choice
        };
        let conflict = || -> AppResult<AnyHeuristic> {
            Ok(AnyHeuristic::Conflict(LinearConflict::new(goal)?))
        };
        match choice {
            HeuristicChoice::Manhattan => Ok(AnyHeuristic::Manhattan(Manhattan::new(goal)?)),
            HeuristicChoice::LinearConflict => conflict(),
            HeuristicChoice::Pdb => {
                let name = match self.partition {
                    Some(name) => name.to_string(),
                    None => match choice::preferred_partitions(goal).last() {
                        Some(name) => name.to_string(),
                        None => {
                            return Err(AppError::Input(format!(
                                "no named partition for {}: give one with «pdb» 1,2,3/4,5,6",
                                goal.shape()
                            )))
                        }
                    },
                };
                let partition = Partition::parse(&name, goal)?;
                self.databases(goal, &partition, true, progress, notify)
            }
            HeuristicChoice::Auto => {
                for name in choice::preferred_partitions(goal) {
                    let Ok(partition) = Partition::parse(name, goal) else {
                        continue;
                    };
                    if self.at_hand(goal, &partition) {
                        return self.databases(goal, &partition, false, progress, notify);
                    }
                }
                if let Some(&partition) = choice::preferred_partitions(goal).first() {
                    let standard = *goal == Board::goal(goal.shape());
                    notify(Notice::NothingCached {
                        partition,
                        puzzle: goal.shape().to_string(),
                        goal: (!standard).then(|| goal.to_list()),
                    });
                }
                conflict().or_else(|_| Ok(AnyHeuristic::Manhattan(Manhattan::new(goal)?)))
            }
        }
    }

    /// Whether every database of `partition` for `goal` is cached or builds in seconds.
    fn at_hand(&self, goal: &Board, partition: &Partition) -> bool {
        partition.patterns().iter().all(|p| {
            self.cache.is_cached(goal, p)
                || p.entries().saturating_mul(p.free_cells()) <= QUICK_BUILD_STATES
        })
    }

    /// Loads (or builds and caches) every group's database, and with reflection where no
    /// mirror keeps the goal's blank, those of the partition's mirror image too: always when
    /// `asked` (the partition was asked for by name), else only where they are at hand.
    fn databases(
        &self,
        goal: &Board,
        partition: &Partition,
        asked: bool,
        progress: &dyn Progress,
        notify: &mut dyn FnMut(Notice),
    ) -> AppResult<AnyHeuristic> {
        let tables = self.tables(goal, partition, progress, notify)?;
        let mut bytes = PatternHeuristic::spread_bytes(partition);
        let image = (self.reflection && PatternHeuristic::reflection_needs_tables(goal, partition))
            .then(|| partition.mirror_image(goal))
            .filter(|image| asked || self.at_hand(goal, image));
        let reflected = match (self.reflection, image) {
            (false, _) => ReflectedLookup::Off,
            (true, Some(image)) => {
                let image_tables = self.tables(goal, &image, progress, notify)?;
                bytes += PatternHeuristic::spread_bytes(&image);
                ReflectedLookup::Tables(image, image_tables)
            }
            (true, None) => ReflectedLookup::Mirror,
        };
        // Spread tables read faster but take up to twice the memory: only within the budget.
        let heuristic = match bytes <= self.memory_bytes {
            true => PatternHeuristic::new(goal, partition, tables, reflected)?,
            false => PatternHeuristic::compact(goal, partition, tables, reflected)?,
        };
        Ok(AnyHeuristic::Pdb(Box::new(heuristic)))
    }

    /// `partition`'s databases for `goal`, loaded or built and cached, one a group in order.
    fn tables(
        &self,
        goal: &Board,
        partition: &Partition,
        progress: &dyn Progress,
        notify: &mut dyn FnMut(Notice),
    ) -> AppResult<Vec<TableBytes>> {
        let mut tables = Vec::new();
        for (group, pattern) in partition.patterns().iter().enumerate() {
            let (table, origin) = on_tables(progress, &databases_label(partition, group), || {
                self.cache
                    .load_or_build(goal, pattern, self.memory_bytes, false, progress)
            })?;
            if let Origin::Built {
                seconds,
                replaced,
                not_saved,
            } = origin
            {
                if let Some(why) = replaced {
                    notify(Notice::Rebuilding { why });
                }
                notify(Notice::Built {
                    tiles: pattern.tiles().to_vec(),
                    entries: pattern.entries(),
                    seconds,
                    saved: not_saved.map_or_else(|| Ok(self.cache.dir().to_path_buf()), Err),
                });
            }
            tables.push(table);
        }
        Ok(tables)
    }
}

/// How a job names the database of `partition`'s group number `group` (from 0) while it loads
/// or builds it: `the 6-6-6-6 pattern databases, 2 of 4`.
pub fn databases_label(partition: &Partition, group: usize) -> String {
    format!(
        "the {} pattern databases, {} of {}",
        partition.name(),
        group + 1,
        partition.patterns().len()
    )
}

/// The first turn of each iteration when a board is searched both ways: short next to the
/// searches a race gains on (seconds to hours), long next to the few milliseconds between a
/// search's looks at the clock.
const FIRST_TURN: Duration = Duration::from_millis(100);

/// Which way a board's search runs, with the heuristic aimed at the end it runs to.
#[derive(Clone, Copy)]
pub enum Aimed<'h> {
    /// From the board to the goal.
    Forwards(&'h AnyHeuristic),
    /// From the goal to the board, the heuristic aimed at the board; the path found is turned
    /// round and replayed from the board.
    Backwards(&'h AnyHeuristic),
    /// Both in turn, each iteration raced between them ([`race_both_ways`]; IDA* only).
    BothWays {
        /// Aimed at the goal.
        forwards: &'h AnyHeuristic,
        /// Aimed at the board.
        backwards: &'h AnyHeuristic,
    },
    /// Each way probed for the time given, then the one whose probe expanded the fewest nodes
    /// on the last iteration all finished ([`probe_ways`]; IDA* only).
    Probed(&'h [WayToProbe<'h>], Duration),
}

/// A way a board's search may run, with its heuristic aimed at the end it runs to.
pub struct WayToProbe<'h> {
    /// Its partition and direction.
    pub way: &'h SearchWay,
    /// Aimed at the goal forwards, at the board backwards.
    pub heuristic: &'h AnyHeuristic,
    /// Whether this way finished the subtrees the search resumes ([`Search::resume`]).
    pub resumed: bool,
}

/// IDA*, parallel IDA* or A* on one board after another.
pub struct Search<'a> {
    /// [`Algorithm::Ida`], [`Algorithm::ParallelIda`] or [`Algorithm::Astar`].
    pub algorithm: Algorithm,
    /// The goal.
    pub goal: &'a Board,
    /// Bytes A* may hold.
    pub memory_bytes: u64,
    /// IDA* gives up this long after it starts a board, with a proven lower bound.
    pub deadline_after: Option<Duration>,
    /// Where IDA* publishes its threshold and node count as it runs, for a front end to show.
    pub watch: Option<&'a Watch>,
    /// Where IDA* starts: a lower bound an earlier search of the board proved (its first
    /// threshold when above the board's estimate) and the subtrees of that bound's iteration it
    /// finished, so that none of its finished work is done again. `None`: from the start.
    pub resume: Option<&'a Resume>,
}

impl Search<'_> {
    /// Solves one board the way `aimed` says: an optimal, replayed solution, or at the deadline
    /// a report with the proven lower bound (`timed_out`).
    pub fn solve(&self, aimed: Aimed<'_>, job: &TileJob) -> AppResult<Solution> {
        let goal = self.goal;
        let board = &job.board;
        let started = Instant::now();
        // A deadline past what the clock holds is no deadline.
        let deadline = self.deadline_after.and_then(|d| started.checked_add(d));
        let from = self.resume.cloned().unwrap_or_default();
        let (outcome, heuristic, backwards, chosen_way) = match aimed {
            Aimed::Forwards(h) => {
                let outcome = self.run(h, (board, goal), deadline, &from);
                (outcome, h.describe(), false, None)
            }
            Aimed::Backwards(h) => {
                let outcome = self.run(h, (goal, board), deadline, &from);
                let described = format!("{}, from the goal to the board", h.describe());
                (outcome, described, true, None)
            }
            Aimed::Probed(ways, time) => {
                let probe = Probe {
                    time,
                    time_limit: self.deadline_after,
                    lower_bound: from.lower_bound,
                    kept: from
                        .searched
                        .clone()
                        .and_then(|s| Some((ways.iter().position(|w| w.resumed)?, s))),
                    watch: self.watch,
                };
                if let Some(watch) = self.watch {
                    watch.name_ways(ways.iter().map(|w| w.way.name()).collect());
                }
                let probing = probe_ways(ways.len(), &probe, |i, deadline, resume| {
                    let ends = match ways[i].way.reverse {
                        true => (goal, board),
                        false => (board, goal),
                    };
                    self.run(ways[i].heuristic, ends, deadline, resume)
                });
                let chosen = probing.chosen.map(|i| &ways[i]);
                let described = probe_text(ways, time, &probing);
                let backwards = chosen.is_some_and(|w| w.way.reverse);
                let way = chosen.map(|w| w.way.clone());
                (probing.result, described, backwards, way)
            }
            Aimed::BothWays {
                forwards,
                backwards,
            } => {
                let race = Race {
                    first_turn: FIRST_TURN,
                    time_limit: self.deadline_after,
                    resume: from,
                    watch: self.watch,
                };
                let raced =
                    race_both_ways(&race, |direction, turn_deadline, resume| match direction {
                        Direction::Forwards => {
                            self.run(forwards, (board, goal), turn_deadline, resume)
                        }
                        Direction::Backwards => {
                            self.run(backwards, (goal, board), turn_deadline, resume)
                        }
                    });
                let described = format!(
                    "{}, {}",
                    forwards.describe(),
                    race_text(raced.as_ref().ok())
                );
                match raced {
                    Ok(raced) => {
                        let backwards = raced.winner == Direction::Backwards;
                        (Ok(raced.outcome), described, backwards, None)
                    }
                    Err(e) => (Err(e), described, false, None),
                }
            }
        };
        let seconds = started.elapsed().as_secs_f64();
        let method = Method {
            algorithm: self.algorithm.name(),
            heuristic,
            optimal: true,
            table_bytes: Some(match aimed {
                Aimed::Forwards(h) | Aimed::Backwards(h) => h.table_bytes(),
                Aimed::BothWays {
                    forwards,
                    backwards,
                } => forwards.table_bytes() + backwards.table_bytes(),
                Aimed::Probed(ways, _) => ways.iter().map(|w| w.heuristic.table_bytes()).sum(),
            }),
        };
        let mut solution = match outcome {
            Ok(mut outcome) => {
                if backwards {
                    outcome.moves = turned_round(&outcome.moves);
                }
                checked_solution(job, goal, outcome, method, seconds)?
            }
            Err(SearchError::Timeout {
                lower_bound,
                stats,
                searched,
            }) => Solution {
                searched_subtrees: searched.map(|s| s.to_string()),
                ..unsolved(job, goal, method, (lower_bound, &stats), seconds)
            },
            Err(e) => return Err(e.into()),
        };
        solution.resumed_from = self.resume.map(|r| r.lower_bound);
        solution.chosen_way = chosen_way;
        Ok(solution)
    }

    /// The search from `start` to `target`, `heuristic` aimed at `target`, stopped at
    /// `deadline` (IDA*) and continued from `from`.
    fn run(
        &self,
        heuristic: &AnyHeuristic,
        (start, target): (&Board, &Board),
        deadline: Option<Instant>,
        from: &Resume,
    ) -> Result<SearchOutcome, SearchError> {
        match heuristic {
            AnyHeuristic::Manhattan(h) => self.run_with(h, (start, target), deadline, from),
            AnyHeuristic::Conflict(h) => self.run_with(h, (start, target), deadline, from),
            AnyHeuristic::Pdb(h) => self.run_with(h.as_ref(), (start, target), deadline, from),
        }
    }

    fn run_with<H: TileHeuristic>(
        &self,
        heuristic: &H,
        (start, target): (&Board, &Board),
        deadline: Option<Instant>,
        from: &Resume,
    ) -> Result<SearchOutcome, SearchError> {
        let threads = match self.algorithm {
            Algorithm::Ida => 1,
            _ => rayon::current_num_threads(),
        };
        match self.algorithm {
            Algorithm::Astar => astar_watched(
                start,
                target,
                heuristic,
                self.memory_bytes / ASTAR_BYTES_PER_POSITION,
                self.watch,
            ),
            _ => ida_star_resumed(
                start, target, heuristic, threads, deadline, self.watch, from,
            ),
        }
    }
}

/// How a race both ways went, for the report's heuristic: who won, after how many turns, and
/// each direction's nodes (`None`: stopped before a solution).
fn race_text(raced: Option<&Raced>) -> String {
    let Some(raced) = raced else {
        return "both ways".into();
    };
    let nodes = |d| {
        let n: u64 = raced
            .turns
            .iter()
            .filter(|t| t.direction == d)
            .map(|t| t.expanded)
            .sum();
        format_count(n)
    };
    let turns = match raced.turns.len() {
        1 => "its first turn".to_string(),
        n => format!("{n} turns"),
    };
    format!(
        "both ways: solved {} in {turns} ({} nodes expanded forwards, {} backwards)",
        match raced.winner {
            Direction::Forwards => "forwards",
            Direction::Backwards => "from the goal to the board",
        },
        nodes(Direction::Forwards),
        nodes(Direction::Backwards)
    )
}

/// How probes chose the way, for the report's heuristic: the chosen way's heuristic, and each
/// way's nodes on the iteration they were compared on.
fn probe_text(ways: &[WayToProbe], time: Duration, probing: &Probing) -> String {
    let probes = format!(
        "{} probes of {} ways",
        format_seconds(time.as_secs_f64()),
        ways.len()
    );
    let Some(chosen) = probing.chosen else {
        return format!("{probes}, stopped before a way was chosen");
    };
    let way = &ways[chosen];
    let heuristic = match way.way.reverse {
        true => format!("{}, from the goal to the board", way.heuristic.describe()),
        false => way.heuristic.describe(),
    };
    let how = match (probing.probes.len() == chosen, probing.compared_at) {
        (true, _) => format!(
            "{} solved the board in its own probe, way {} of the {probes}",
            way.way.name(),
            chosen + 1
        ),
        (false, None) => format!(
            "{} {} by {probes}, none of which finished an iteration the others did",
            way.way.name(),
            chosen_or_held(probing)
        ),
        (false, Some(at)) => {
            let nodes: Vec<String> = ways
                .iter()
                .zip(&probing.probes)
                .map(|(w, p)| {
                    let n = p.stats.iteration_nodes(at).unwrap_or(0);
                    format!("{} {}", w.way.name(), format_count(n))
                })
                .collect();
            format!(
                "{} {} by {probes}, nodes on their iteration of {at}: {}",
                way.way.name(),
                chosen_or_held(probing),
                nodes.join(", ")
            )
        }
    };
    format!("{heuristic}; {how}")
}

/// How the way that went on was chosen: by its probe's nodes, or held for the subtrees an
/// earlier search of it finished ([`Probing::held`]).
fn chosen_or_held(probing: &Probing) -> String {
    match probing.held {
        true => format!(
            "kept for its finished subtrees (no way expanded {}× fewer nodes)",
            SWITCH_MARGIN
        ),
        false => "chosen".into(),
    }
}

/// The moves that undo `moves`: the last one's opposite first. A path from the goal to a board
/// turned round is a path from the board to the goal of the same length.
fn turned_round(moves: &[Move]) -> Vec<Move> {
    moves.iter().rev().map(|m| m.inverse()).collect()
}

/// The report of a board left unsolved with a proven `lower_bound` (a search past its deadline,
/// a board beyond twice the half-depth), with the work done (`work`: a search's iterations,
/// the stopped one last).
fn unsolved(
    job: &TileJob,
    goal: &Board,
    method: Method,
    (lower_bound, work): (u32, &SearchStats),
    seconds: f64,
) -> Solution {
    let memory_bytes = method.memory_bytes(work);
    Solution {
        puzzle: goal.shape().to_string(),
        id: job.id.clone(),
        start: job.board.format(job.format),
        goal: goal_named(goal, job),
        solution: String::new(),
        length: 0,
        expected_length: job.expected,
        optimal: false,
        algorithm: method.algorithm,
        heuristic: method.heuristic,
        nodes_expanded: work.expanded,
        nodes_generated: work.generated,
        thresholds: work.thresholds.clone(),
        iteration_expanded: work.iteration_expanded.clone(),
        seconds,
        timed_out: true,
        lower_bound: Some(lower_bound),
        resumed_from: None,
        searched_subtrees: None,
        memory_bytes,
        written: None,
        kept_in: None,
        chosen_way: None,
    }
}

/// `goal` as a report names it: written as the start is, where it is not the board's default.
fn goal_named(goal: &Board, job: &TileJob) -> Option<String> {
    (*goal != Board::goal(goal.shape())).then(|| goal.format(job.format))
}

/// What found a solution, as reported.
struct Method {
    algorithm: &'static str,
    heuristic: String,
    /// Whether the method proves its solutions shortest.
    optimal: bool,
    /// Bytes of the tables it searched with (`None`: not counted).
    table_bytes: Option<u64>,
}

impl Method {
    /// What the method held: its tables, and A*'s positions.
    fn memory_bytes(&self, stats: &SearchStats) -> Option<u64> {
        self.table_bytes
            .map(|t| t + stats.stored * ASTAR_BYTES_PER_POSITION)
    }
}

/// Replays the moves (refusing a solution that does not reach the goal); the length an input
/// file gave is reported beside it (`expected_length`), for the front end to compare.
fn checked_solution(
    job: &TileJob,
    goal: &Board,
    outcome: SearchOutcome,
    method: Method,
    seconds: f64,
) -> AppResult<Solution> {
    let mut replay = job.board.clone();
    for (i, &m) in outcome.moves.iter().enumerate() {
        if !replay.apply(m) {
            return Err(AppError::Check(format!(
                "move {} ({}) of the solution leaves the board",
                i + 1,
                m.letter()
            )));
        }
    }
    if &replay != goal {
        return Err(AppError::Check(
            "the solution does not reach the goal".into(),
        ));
    }
    let memory_bytes = method.memory_bytes(&outcome.stats);
    Ok(Solution {
        puzzle: goal.shape().to_string(),
        id: job.id.clone(),
        start: job.board.format(job.format),
        goal: goal_named(goal, job),
        solution: Move::format_sequence(&outcome.moves),
        length: outcome.moves.len(),
        expected_length: job.expected,
        optimal: method.optimal,
        algorithm: method.algorithm,
        heuristic: method.heuristic,
        memory_bytes,
        nodes_expanded: outcome.stats.expanded,
        nodes_generated: outcome.stats.generated,
        thresholds: outcome.stats.thresholds,
        iteration_expanded: outcome.stats.iteration_expanded,
        seconds,
        timed_out: false,
        lower_bound: None,
        resumed_from: None,
        searched_subtrees: None,
        written: None,
        kept_in: None,
        chosen_way: None,
    })
}

/// Two-stage or subgoal solving (not optimal).
pub struct StagedSolver {
    solver: Portfolio,
    algorithm: Algorithm,
    stages: String,
}

impl StagedSolver {
    /// The solver for `goal`: the published two-stage method, the plan `stages`, or the
    /// default plans. Without `stages`, an effort above 1 also tries every peeling order of
    /// [`Plan::variants`] and keeps the shortest solution. `effort` defaults by board size
    /// ([`choice::default_effort`]). Stage tables come from `cache` when it has them, and
    /// large ones built now are saved there; `notify` hears of builds, and a cancel read from
    /// `progress` stops them.
    pub fn new(
        algorithm: Algorithm,
        goal: &Board,
        stages: Option<&str>,
        effort: Option<usize>,
        cache: &TableCache,
        progress: &dyn Progress,
        notify: &mut dyn FnMut(Notice),
    ) -> AppResult<Self> {
        let effort = effort.unwrap_or_else(|| choice::default_effort(algorithm, goal.shape()));
        let plans = match (algorithm, stages) {
            (Algorithm::TwoStage, _) => vec![Plan::two_stage(goal)?],
            (_, Some(text)) => vec![Plan::parse(text, goal)?],
            (_, None) if effort > 1 => Plan::variants(goal),
            (_, None) => vec![Plan::default_for(goal)],
        };
        let mut solvers = Vec::with_capacity(plans.len());
        for plan in plans {
            let text = plan.to_text();
            let what = format!("the stage tables of plan {text}");
            let (solver, origin) =
                build_tables(progress, &what, || cache.subgoal_solver(plan, progress))?;
            if let Some(Origin::Built {
                seconds,
                replaced,
                not_saved,
            }) = origin
            {
                if let Some(why) = replaced {
                    notify(Notice::Rebuilding { why });
                }
                notify(Notice::StagesBuilt {
                    plan: text,
                    seconds,
                    saved: not_saved.map_or_else(|| Ok(cache.dir().to_path_buf()), Err),
                });
            }
            solvers.push(solver.with_effort(effort));
        }
        let solver = Portfolio::of_solvers(solvers);
        let stages = solver.plans().join(" | ");
        Ok(StagedSolver {
            solver,
            algorithm,
            stages,
        })
    }

    /// Solves one board; the solution is replayed to the goal.
    pub fn solve(&self, goal: &Board, job: &TileJob) -> AppResult<Solution> {
        let started = Instant::now();
        let moves = self.solver.solve(&job.board)?;
        let seconds = started.elapsed().as_secs_f64();
        let outcome = SearchOutcome {
            moves,
            stats: SearchStats::default(),
        };
        let method = Method {
            algorithm: self.algorithm.name(),
            heuristic: format!("stages {}", self.stages),
            optimal: false,
            table_bytes: None,
        };
        checked_solution(job, goal, outcome, method, seconds)
    }
}

/// Optimal solving by half-depth search ([`godsearch_enumerate::half_depth`]): every position
/// within `depth` moves of the goal held, each board met from both sides.
pub struct HalfDepthSolver {
    space: TileSpace<u64>,
    ball: GoalBall<u64>,
    memory_bytes: u64,
}

impl HalfDepthSolver {
    /// Holds the positions within `depth` moves of `goal` (without `depth`: as many levels as
    /// half of `memory_bytes` holds), leaving the rest of the budget for each board's side.
    pub fn new(
        goal: &Board,
        depth: Option<u32>,
        memory_bytes: u64,
        progress: &dyn Progress,
    ) -> AppResult<Self> {
        let space = match AnySpace::new(goal)? {
            AnySpace::Narrow(space) => space,
            AnySpace::Wide(_) => {
                return Err(AppError::Input(format!(
                    "half-depth search ranks positions in 64 bits; a {} board needs more",
                    goal.shape()
                )))
            }
        };
        let ball =
            GoalBall::build(&space, depth, memory_bytes / 2, progress).map_err(ball_error)?;
        Ok(HalfDepthSolver {
            space,
            ball,
            memory_bytes: memory_bytes / 2,
        })
    }

    /// The depth held (`n`): boards within `2n` moves are solved.
    pub fn depth(&self) -> u32 {
        self.ball.depth()
    }

    /// Positions held.
    pub fn positions_held(&self) -> u64 {
        self.ball.len()
    }

    /// Whether every position is held (boards are then solved by descent alone).
    pub fn holds_all(&self) -> bool {
        self.ball.is_complete()
    }

    /// Solves one board; the solution is replayed to the goal. A board beyond twice the held
    /// depth gets no solution but a proven lower bound (as a timed-out search does).
    pub fn solve(&self, goal: &Board, job: &TileJob) -> AppResult<Solution> {
        let started = Instant::now();
        let outcome = self
            .ball
            .solve(&self.space, self.space.rank(&job.board), self.memory_bytes);
        let seconds = started.elapsed().as_secs_f64();
        let method = Method {
            algorithm: Algorithm::HalfDepth.name(),
            heuristic: format!("positions within {} moves held", self.ball.depth()),
            optimal: true,
            table_bytes: Some(self.ball.bytes()),
        };
        match outcome {
            HalfDepthOutcome::Solved(path) => {
                let moves: Vec<Move> = path.into_iter().map(Move::from_index).collect();
                let stats = SearchStats::default();
                checked_solution(job, goal, SearchOutcome { moves, stats }, method, seconds)
            }
            HalfDepthOutcome::Beyond { lower_bound } => {
                let work = SearchStats::default();
                Ok(unsolved(job, goal, method, (lower_bound, &work), seconds))
            }
        }
    }
}

/// A distance table to descend.
enum Table {
    Loaded(LoadedTable),
    Built(TwoBitTable),
}

/// Optimal solving by descent of a complete distance table (loaded, or built in memory for
/// boards of at most [`IN_MEMORY_TABLE_LIMIT`] positions).
pub struct TableSolver {
    space: TileSpace<u64>,
    table: Table,
    levels: usize,
}

impl TableSolver {
    /// The solver for `goal`, from the table file at `path` (checked to belong to `goal`) or,
    /// without one, from a table built now for a small board.
    pub fn new(goal: &Board, path: Option<&Path>) -> AppResult<Self> {
        let space = match AnySpace::new(goal)? {
            AnySpace::Narrow(space) => space,
            AnySpace::Wide(_) => return Err(no_table(goal, path.is_some())?),
        };
        match path {
            Some(path) => {
                let loaded = load_tile_table(path, goal)?;
                let levels = loaded.header().levels.len();
                Ok(TableSolver {
                    space,
                    table: Table::Loaded(loaded),
                    levels,
                })
            }
            None => {
                if space.state_count() > IN_MEMORY_TABLE_LIMIT {
                    return Err(no_table(goal, false)?);
                }
                let (table, levels) = table_in_memory(&space)?;
                Ok(TableSolver {
                    space,
                    table: Table::Built(table),
                    levels,
                })
            }
        }
    }

    /// Solves one board by descent; the solution is replayed to the goal.
    pub fn solve(&self, goal: &Board, job: &TileJob) -> AppResult<Solution> {
        match &self.table {
            Table::Built(t) => self.descend(t, goal, job),
            Table::Loaded(loaded) => {
                let entries = loaded.header().entries as usize;
                let view = TwoBitView::new(loaded.payload(), entries).ok_or_else(|| {
                    AppError::Check("the table payload is shorter than its header says".into())
                })?;
                self.descend(&view, goal, job)
            }
        }
    }

    fn descend<T: DistanceMod3>(
        &self,
        table: &T,
        goal: &Board,
        job: &TileJob,
    ) -> AppResult<Solution> {
        let started = Instant::now();
        let moves: Vec<Move> =
            descend(&self.space, table, self.space.rank(&job.board), self.levels)?
                .into_iter()
                .map(Move::from_index)
                .collect();
        let seconds = started.elapsed().as_secs_f64();
        let nodes = moves.len() as u64;
        let stats = SearchStats {
            expanded: nodes,
            generated: nodes,
            ..SearchStats::default()
        };
        let method = Method {
            algorithm: Algorithm::Table.name(),
            heuristic: "distance table".into(),
            optimal: true,
            table_bytes: u64::try_from(table_bytes(self.space.state_count())).ok(),
        };
        checked_solution(job, goal, SearchOutcome { moves, stats }, method, seconds)
    }
}

/// The error for a board whose table is not at hand (or too large to build here).
fn no_table(goal: &Board, table_given: bool) -> AppResult<AppError> {
    let space = AnySpace::new(goal)?;
    let hint = if table_given {
        ""
    } else {
        "no «table» was given; "
    };
    Ok(AppError::Input(format!(
        "{hint}solving a {} board by table needs its distance table ({} positions, {}); tables that fit are made with `godsearch bfs {} --save FILE`, other boards are solved by search («algorithm» ida)",
        goal.shape(),
        format_count(space.state_count()),
        format_bytes(table_bytes(space.state_count()) as f64),
        goal.shape()
    )))
}

/// `solution` (the blank's moves from the board `start`, as a [`Solution`] holds them) written
/// in `notation`, with run lengths (`R3`) when `runs` (directions only).
pub fn write_solution(
    shape: Shape,
    start: &str,
    solution: &str,
    notation: SolutionNotation,
    runs: bool,
) -> AppResult<String> {
    notation.check_runs(runs)?;
    let moves = Move::parse_sequence(solution)
        .map_err(|e| AppError::Check(format!("a solution of ours does not parse: {e}")))?;
    let directions = |moves: &[Move]| match runs {
        true => notation::with_run_lengths(moves),
        false => Move::format_sequence(moves),
    };
    match notation {
        SolutionNotation::Blank => Ok(directions(&moves)),
        SolutionNotation::TileDirections => Ok(directions(&notation::tile_directions(&moves))),
        SolutionNotation::Tiles => {
            let board = Board::parse(shape, start)
                .map_err(|e| AppError::Check(format!("a board of ours does not parse: {e}")))?;
            let tiles = notation::tiles_moved(&board, &moves)
                .ok_or_else(|| AppError::Check("a solution of ours leaves the board".into()))?;
            Ok(tiles
                .iter()
                .map(u16::to_string)
                .collect::<Vec<_>>()
                .join(" "))
        }
    }
}

/// Identifies a resolved heuristic: goal, choice, partition, reflection.
type HeuristicKey = (String, String, Option<String>, bool);

/// Pattern-database heuristics a workbench keeps loaded (each goal and partition its own, the
/// 4x4's 7-8 550 MB): requests for many goals must not fill the memory.
pub const HEURISTICS_KEPT: usize = 4;

/// The pattern-database heuristics a workbench keeps loaded ([`Workbench::kept`]): the ones
/// used last, oldest first, at most [`HEURISTICS_KEPT`].
#[derive(Default)]
pub struct KeptHeuristics(Mutex<Vec<(HeuristicKey, Arc<AnyHeuristic>)>>);

impl KeptHeuristics {
    /// The heuristic `request` asks for on boards of `goal`: one kept by `bench`, or resolved
    /// now ([`HeuristicRequest::resolve`], databases built within `memory_bytes`) and, when it
    /// is pattern databases, kept in place of the oldest.
    pub fn get(
        bench: &Workbench,
        request: &SolveRequest,
        goal: &Board,
        memory_bytes: u64,
        progress: &dyn Progress,
        notices: &mut dyn FnMut(Notice),
    ) -> AppResult<Arc<AnyHeuristic>> {
        let kept = bench.kept::<KeptHeuristics>();
        let key = (
            goal.to_string(),
            format!("{:?}", request.heuristic),
            request.pdb.clone(),
            !request.no_reflection,
        );
        if let Some((_, h)) = kept.lock().iter().find(|(k, _)| *k == key) {
            return Ok(Arc::clone(h));
        }
        let resolved = HeuristicRequest::of(request, bench.cache(), memory_bytes)
            .resolve(goal, progress, notices)?;
        let resolved = Arc::new(resolved);
        // Databases are worth keeping; Manhattan and linear conflict are made in microseconds,
        // and `auto` should find a database cached after its first answer.
        if matches!(*resolved, AnyHeuristic::Pdb(_)) {
            let mut kept = kept.lock();
            if kept.len() >= HEURISTICS_KEPT {
                kept.remove(0);
            }
            kept.push((key, Arc::clone(&resolved)));
        }
        Ok(resolved)
    }

    /// Forgets the heuristics `bench` keeps, so that the next search reads them afresh from
    /// the cache.
    pub fn forget(bench: &Workbench) {
        bench.kept::<KeptHeuristics>().lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(HeuristicKey, Arc<AnyHeuristic>)>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
