//! The one place a solve request for a sliding-tile board becomes a solver: the algorithm the
//! request names or the choice rules pick ([`choice::tile_algorithm`]), its heuristic or tables
//! loaded or built once, then any number of boards solved. [`BoardBatch`] is the registry's
//! [`Batch`] of boards, which every front end solves through: a command line's whole batch, a
//! server's or Python's request as a batch of one.

use super::choice;
use super::solvers::{
    solvable_board, Aimed, AnyHeuristic, HalfDepthSolver, HeuristicRequest, Search, StagedSolver,
    TableSolver, TileJob, WayToProbe,
};
use super::ways::{probe_ways, refuse_probe_options_unprobed};
use crate::batch::{Batch, BatchSetup, BatchSolver, FrontEndOptions, Position, Source};
use crate::choice::{Algorithm, HeuristicChoice};
use crate::progress::Notice;
use crate::report::{SearchWay, Solution};
use crate::request::{SolveReport, SolveRequest, Workbench};
use crate::{AppError, AppResult};
use godsearch_core::excerpt;
use godsearch_core::Progress;
use godsearch_puzzles::tiles::{parse_instance, Board, BoardFormat, TileSpace};
use godsearch_search::tiles::{Resume, SearchError, SearchedSubtrees, Watch, MAX_SEARCH_CELLS};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Which way a board's search runs, with the heuristic aimed at the goal, shared with the
/// workbench that keeps it loaded, where it needs one. A search from the goal to a board needs
/// one aimed at that board, which [`BoardSolver::solve`] is given.
pub enum Way {
    /// From each board to the goal.
    Forwards(Arc<AnyHeuristic>),
    /// From the goal to each board.
    Backwards,
    /// Both in turn ([`Aimed::BothWays`]).
    BothWays(Arc<AnyHeuristic>),
    /// Each way probed for `time`, then the best alone ([`Aimed::Probed`]): forwards ways with
    /// their heuristic aimed at the goal, backwards ways with none (each board has its own).
    Probed {
        /// The ways, in the order probed.
        ways: Vec<(SearchWay, Option<Arc<AnyHeuristic>>)>,
        /// How long each is probed.
        time: Duration,
        /// The way that finished the subtrees the search resumes (`resume_way`).
        resumed: Option<SearchWay>,
    },
}

/// A board solver ready for any number of boards of one goal.
pub enum BoardSolver {
    /// Meet in the middle around a held ball of positions.
    HalfDepth(HalfDepthSolver),
    /// Descent of a complete distance table.
    Table(TableSolver),
    /// Subgoal or two-stage solving (not optimal).
    Staged(StagedSolver),
    /// IDA*, parallel IDA* or A* with a resolved heuristic.
    Search {
        /// Which of the three.
        algorithm: Algorithm,
        /// Which way it runs, and the heuristic aimed at the goal if it needs one.
        way: Way,
        /// Bytes A* may hold.
        memory_bytes: u64,
        /// Each board's time limit.
        deadline_after: Option<Duration>,
        /// Where IDA* starts: a bound an earlier search proved and the subtrees of its
        /// iteration it finished (`None`: from the start).
        resume: Option<Resume>,
    },
}

impl BoardSolver {
    /// The algorithm `request` means for `goal`'s board (with `has_table`: a table file to
    /// descend), refused with the reason when the request gives options it would not use or
    /// the board is too large for it. Cheap: nothing is built.
    pub fn algorithm(
        goal: &Board,
        request: &SolveRequest,
        has_table: bool,
    ) -> AppResult<Algorithm> {
        crate::registry::no_generators(&request.generators)?;
        request.one_solution_only()?;
        let shape = goal.shape();
        // Only IDA* reports a bound at a deadline, resumes from one and races both ways.
        let deadline = request.timeout()?.is_some()
            || request.resume_from.is_some()
            || request.both_ways
            || request.probe.is_some();
        let algorithm = choice::tile_algorithm(request.algorithm, shape, has_table, deadline)?;
        check_options(request, algorithm)?;
        resume(request)?;
        if algorithm.is_search() && shape.cells() > MAX_SEARCH_CELLS {
            return Err(SearchError::BoardTooLarge.into());
        }
        if algorithm == Algorithm::Astar && TileSpace::<u64>::new(goal.clone()).is_err() {
            return Err(SearchError::AStarTooLarge.into());
        }
        Ok(algorithm)
    }

    /// The solver `request` asks for on `goal`'s board, with what it needs loaded or built:
    /// the heuristic through `bench` (which keeps databases loaded between requests), stage
    /// tables from its cache, the table file the request names or one built in memory, the ball of
    /// half-depth search.
    pub fn new(
        bench: &Workbench,
        goal: &Board,
        request: &SolveRequest,
        setup: &mut BatchSetup,
    ) -> AppResult<Self> {
        let table = request.table_file(&setup.limits)?;
        let memory_bytes = setup.limits.memory_bytes;
        let algorithm = Self::algorithm(goal, request, table.is_some())?;
        Ok(match algorithm {
            Algorithm::HalfDepth => {
                let solver =
                    HalfDepthSolver::new(goal, request.depth, memory_bytes, setup.progress)?;
                (setup.notices)(Notice::HalfDepthHeld {
                    positions: solver.positions_held(),
                    depth: solver.depth(),
                    all: solver.holds_all(),
                });
                BoardSolver::HalfDepth(solver)
            }
            Algorithm::Table => BoardSolver::Table(TableSolver::new(goal, table)?),
            a if a.is_staged() => BoardSolver::Staged(StagedSolver::new(
                algorithm,
                goal,
                request.stages.as_deref(),
                request.effort.map(|e| e as usize),
                bench.cache(),
                setup.progress,
                setup.notices,
            )?),
            _ => BoardSolver::Search {
                algorithm,
                way: {
                    let mut kept = |request: &SolveRequest| {
                        super::solvers::KeptHeuristics::get(
                            bench,
                            request,
                            goal,
                            memory_bytes,
                            setup.progress,
                            &mut *setup.notices,
                        )
                    };
                    match (request.probe_time()?, request.reverse, request.both_ways) {
                        (Some(time), _, _) => Way::Probed {
                            ways: probe_ways(request)?
                                .into_iter()
                                .map(|way| {
                                    let aimed = match way.reverse {
                                        true => None,
                                        false => Some(kept(&way.applied_to(request))?),
                                    };
                                    Ok((way, aimed))
                                })
                                .collect::<AppResult<_>>()?,
                            time,
                            resumed: request.resume_way.clone(),
                        },
                        (None, true, _) => Way::Backwards,
                        (None, false, true) => Way::BothWays(kept(request)?),
                        (None, false, false) => Way::Forwards(kept(request)?),
                    }
                },
                memory_bytes,
                deadline_after: setup.timeout(request)?,
                resume: resume(request)?,
            },
        })
    }

    /// Solves one board of `goal`, replayed to the goal before it is returned; IDA* publishes
    /// its threshold and nodes to `watch` and stops when it is cancelled. A search from the
    /// goal to the board takes its heuristic from `aimed_at`, given the board (and the
    /// partition of the way probed, where the request probes several).
    pub fn solve(
        &self,
        goal: &Board,
        job: &TileJob,
        watch: Option<&Watch>,
        aimed_at: &dyn Fn(&Board, Option<&str>) -> AppResult<AnyHeuristic>,
    ) -> AppResult<Solution> {
        match self {
            BoardSolver::HalfDepth(solver) => solver.solve(goal, job),
            BoardSolver::Table(solver) => solver.solve(goal, job),
            BoardSolver::Staged(solver) => solver.solve(goal, job),
            BoardSolver::Search {
                algorithm,
                way,
                memory_bytes,
                deadline_after,
                resume,
            } => {
                let search = Search {
                    algorithm: *algorithm,
                    goal,
                    memory_bytes: *memory_bytes,
                    deadline_after: *deadline_after,
                    watch,
                    resume: resume.as_ref(),
                };
                match way {
                    Way::Forwards(heuristic) => search.solve(Aimed::Forwards(heuristic), job),
                    Way::Backwards => {
                        search.solve(Aimed::Backwards(&aimed_at(&job.board, None)?), job)
                    }
                    Way::BothWays(forwards) => {
                        let backwards = aimed_at(&job.board, None)?;
                        let aimed = Aimed::BothWays {
                            forwards,
                            backwards: &backwards,
                        };
                        search.solve(aimed, job)
                    }
                    Way::Probed {
                        ways,
                        time,
                        resumed,
                    } => {
                        // The board's own heuristics, for the ways that search backwards.
                        let built = ways
                            .iter()
                            .map(|(way, aimed)| match aimed {
                                Some(_) => Ok(None),
                                None => aimed_at(&job.board, way.pdb.as_deref()).map(Some),
                            })
                            .collect::<AppResult<Vec<_>>>()?;
                        let probed: Vec<WayToProbe> = ways
                            .iter()
                            .zip(&built)
                            .filter_map(|((way, aimed), built)| {
                                let heuristic = aimed.as_deref().or(built.as_ref())?;
                                let resumed = resumed.as_ref() == Some(way);
                                Some(WayToProbe {
                                    way,
                                    heuristic,
                                    resumed,
                                })
                            })
                            .collect();
                        search.solve(Aimed::Probed(&probed, *time), job)
                    }
                }
            }
        }
    }
}

/// Where IDA* starts for `request`: from `resume_from`, skipping the subtrees of its iteration
/// that `resume_subtrees` names (which need the bound of their iteration); `None`: from the
/// start.
fn resume(request: &SolveRequest) -> AppResult<Option<Resume>> {
    let searched = match &request.resume_subtrees {
        None => None,
        Some(_) if request.resume_from.is_none() => {
            return Err(AppError::Input(
                "«resume_subtrees» needs «resume_from», the bound of the iteration they are of"
                    .into(),
            ))
        }
        Some(token) => Some(token.parse::<SearchedSubtrees>().map_err(AppError::Input)?),
    };
    Ok(request.resume_from.map(|lower_bound| Resume {
        lower_bound,
        searched,
    }))
}

/// The boards of one goal solved under one request: the registry's [`Batch`] for boards.
pub struct BoardBatch {
    goal: Board,
    request: SolveRequest,
    algorithm: Algorithm,
}

impl BoardBatch {
    /// The batch `request` makes for boards that reach `goal`, refused as
    /// [`BoardSolver::algorithm`] refuses it. Cheap: nothing is built.
    pub fn new(goal: Board, request: &SolveRequest) -> AppResult<Self> {
        let algorithm = BoardSolver::algorithm(&goal, request, request.table.is_some())?;
        Ok(BoardBatch {
            goal,
            request: request.clone(),
            algorithm,
        })
    }
}

impl Batch for BoardBatch {
    /// A board alone, or a line of Korf's format (an id, the board, its optimal length), which
    /// must reach the goal.
    fn read(&self, text: &str, source: Source) -> AppResult<Position> {
        let shape = self.goal.shape();
        let job = match source {
            Source::Given => TileJob {
                id: None,
                expected: None,
                board: solvable_board(&self.goal, text)?,
                format: BoardFormat::of_text(shape, text),
            },
            Source::Line => {
                let quoted = |source| AppError::Board {
                    text: excerpt(text).to_string(),
                    source,
                };
                let instance = parse_instance(shape, text).map_err(quoted)?;
                instance.board.check_solvable(&self.goal).map_err(quoted)?;
                TileJob {
                    id: instance.id,
                    expected: instance.length,
                    board: instance.board,
                    format: instance.format,
                }
            }
        };
        Ok(Position::new(job))
    }

    /// Each word is one board, except that exactly one word a cell, each a single tile, is
    /// read as one board (`solve 3x3 2 4 0 1 8 5 3 6 7`).
    fn positions_in(&self, words: &[String]) -> Vec<String> {
        let single_tiles = words
            .iter()
            .all(|w| w.parse::<u16>().is_ok() || w == "." || w == "_");
        if words.len() == self.goal.shape().cells() && single_tiles {
            vec![words.join(" ")]
        } else {
            words.to_vec()
        }
    }

    fn check_front_end(&self, given: FrontEndOptions) -> AppResult<()> {
        let algorithm = self.algorithm;
        let searching = algorithm.is_search();
        let unused = [
            (
                given.cache
                    && !algorithm.is_staged()
                    && !(searching
                        && matches!(
                            self.request.heuristic,
                            HeuristicChoice::Auto | HeuristicChoice::Pdb
                        )),
                "«cache»",
                "pattern databases («heuristic» pdb or auto) and subgoal stage tables",
            ),
            (
                given.verbose && !algorithm.is_staged(),
                "«verbose»",
                "«algorithm» subgoal and two-stage",
            ),
            (
                given.memory && !searching && algorithm != Algorithm::HalfDepth,
                "«memory»",
                "A*, half-depth search and the pattern-database builds of IDA* and A*",
            ),
        ];
        match unused.iter().find(|(given, _, _)| *given) {
            Some((_, option, used_by)) => Err(AppError::Input(format!(
                "{option} is used only by {used_by}, not by «algorithm» {}",
                algorithm.name()
            ))),
            None => Ok(()),
        }
    }

    fn solver<'a>(
        &'a self,
        bench: &'a Workbench,
        mut setup: BatchSetup<'a>,
    ) -> AppResult<Box<dyn BatchSolver + 'a>> {
        let solver = BoardSolver::new(bench, &self.goal, &self.request, &mut setup)?;
        Ok(Box::new(BoardBatchSolver {
            goal: &self.goal,
            solver,
            watched: self.algorithm.is_search() && self.algorithm != Algorithm::Astar,
            aimed: AimedHeuristics {
                bench,
                request: &self.request,
                memory_bytes: setup.limits.memory_bytes,
                progress: setup.progress,
                notices: Mutex::new(setup.notices),
            },
        }))
    }
}

/// A [`BoardBatch`]'s solver: one board at a time, each on every thread the method uses.
struct BoardBatchSolver<'a> {
    goal: &'a Board,
    solver: BoardSolver,
    watched: bool,
    aimed: AimedHeuristics<'a>,
}

/// The heuristic a search from the goal to a board is aimed with: the one the request asks
/// for, with the board as its goal, its databases loaded from the cache or built and cached
/// there as the batch's own are. Not kept between boards: each board has its own.
struct AimedHeuristics<'a> {
    bench: &'a Workbench,
    request: &'a SolveRequest,
    memory_bytes: u64,
    progress: &'a dyn Progress,
    notices: Mutex<&'a mut (dyn FnMut(Notice) + Send)>,
}

impl AimedHeuristics<'_> {
    /// The heuristic aimed at `board`: the request's, or with `partition` that partition's.
    fn at(&self, board: &Board, partition: Option<&str>) -> AppResult<AnyHeuristic> {
        let mut notices = self.notices.lock().unwrap_or_else(PoisonError::into_inner);
        let asked = HeuristicRequest::of(self.request, self.bench.cache(), self.memory_bytes);
        HeuristicRequest {
            partition: partition.or(asked.partition),
            ..asked
        }
        .resolve(board, self.progress, &mut **notices)
    }
}

impl BatchSolver for BoardBatchSolver<'_> {
    fn watched(&self) -> bool {
        self.watched
    }

    fn solve(&self, positions: &[Position], watch: Option<&Watch>) -> Vec<AppResult<SolveReport>> {
        positions
            .iter()
            .map(|position| {
                let job = position.get::<TileJob>()?;
                let solved = self
                    .solver
                    .solve(self.goal, job, watch, &|board, partition| {
                        self.aimed.at(board, partition)
                    })?;
                Ok(SolveReport::Tiles(solved))
            })
            .collect()
    }
}

/// Refuses, for a board solved by `algorithm`, the options it would not use (rather than
/// ignore them silently) and the cube-only ones.
pub(crate) fn check_options(request: &SolveRequest, algorithm: Algorithm) -> AppResult<()> {
    let cube_only = [
        (request.moves, "«moves»"),
        (request.metric.is_some(), "«metric»"),
        (request.max_length.is_some(), "«max_length»"),
        (request.facelets, "«facelets»"),
        (request.all, "«all»"),
        (request.table_size.is_some(), "«table_size»"),
        (request.known_solution.is_some(), "«known_solution»"),
        (algorithm == Algorithm::TwoPhase, "«algorithm» two-phase"),
    ];
    if let Some((_, name)) = cube_only.iter().find(|(given, _)| *given) {
        return Err(AppError::Input(format!(
            "{name} is for cubes, not sliding-tile boards"
        )));
    }
    if request.pdb.is_some()
        && matches!(
            request.heuristic,
            HeuristicChoice::Manhattan | HeuristicChoice::LinearConflict
        )
    {
        return Err(AppError::Input(format!(
            "«pdb» names pattern databases, which «heuristic» {} does not read (use «heuristic» pdb, or leave «heuristic» out)",
            match request.heuristic {
                HeuristicChoice::Manhattan => "manhattan",
                _ => "linear-conflict",
            }
        )));
    }
    refuse_probe_options_unprobed(request)?;
    if request.probe_time()?.is_some() {
        probe_ways(request)?;
    }
    if request.reverse && request.both_ways {
        return Err(AppError::Input(
            "«reverse» searches from the goal only and «both_ways» from both ends in turn: give one of them".into(),
        ));
    }
    let searching = algorithm.is_search();
    let staged = algorithm.is_staged();
    let unused = [
        (
            request.timeout.is_some() && !algorithm.takes_deadline(),
            "«timeout»",
            "IDA* («algorithm» ida or parallel-ida)",
        ),
        (
            request.heuristic != HeuristicChoice::Auto && !searching,
            "«heuristic»",
            "IDA* and A*",
        ),
        (request.pdb.is_some() && !searching, "«pdb»", "IDA* and A*"),
        (request.reverse && !searching, "«reverse»", "IDA* and A*"),
        (
            request.both_ways && !algorithm.takes_deadline(),
            "«both_ways»",
            "IDA* («algorithm» ida or parallel-ida)",
        ),
        (
            request.probe.is_some() && !algorithm.takes_deadline(),
            "«probe»",
            "IDA* («algorithm» ida or parallel-ida)",
        ),
        (
            request.no_reflection && !searching,
            "«no_reflection»",
            "IDA* and A* with pattern databases",
        ),
        (
            request.no_reflection
                && matches!(
                    request.heuristic,
                    HeuristicChoice::Manhattan | HeuristicChoice::LinearConflict
                ),
            "«no_reflection»",
            "pattern databases («heuristic» pdb)",
        ),
        (
            request.stages.is_some() && algorithm != Algorithm::Subgoal,
            "«stages»",
            "«algorithm» subgoal",
        ),
        (
            request.effort.is_some() && !staged,
            "«effort»",
            "«algorithm» subgoal and two-stage",
        ),
        (
            request.optimal,
            "«optimal»",
            "cubes (every board solver but subgoal and two-stage is optimal already)",
        ),
        (
            request.depth.is_some() && algorithm != Algorithm::HalfDepth,
            "«depth»",
            "«algorithm» half-depth",
        ),
        (
            request.resume_from.is_some() && !algorithm.takes_deadline(),
            "«resume_from»",
            "IDA* («algorithm» ida or parallel-ida)",
        ),
        (
            request.resume_subtrees.is_some() && !algorithm.takes_deadline(),
            "«resume_subtrees»",
            "IDA* («algorithm» ida or parallel-ida)",
        ),
    ];
    if let Some((_, option, used_by)) = unused.iter().find(|(given, _, _)| *given) {
        return Err(AppError::Input(format!(
            "{option} is used only by {used_by}, not by «algorithm» {}",
            algorithm.name()
        )));
    }
    Ok(())
}
