//! The one place a solve request for a sliding-tile board becomes a solver: the algorithm the
//! request names or the choice rules pick ([`choice::tile_algorithm`]), its heuristic or tables
//! loaded or built once, then any number of boards solved. The command line makes one for a
//! whole batch, the registry one for each request of the server and Python.

use crate::choice::{self, Algorithm, HeuristicChoice};
use crate::report::Solution;
use crate::request::{SolveRequest, Workbench};
use crate::tiles::{
    AnyHeuristic, HalfDepthSolver, Notice, Search, StagedSolver, TableSolver, TileJob,
};
use crate::{AppError, AppResult};
use godsearch_core::Progress;
use godsearch_puzzles::tiles::{Board, TileSpace};
use godsearch_search::tiles::{SearchError, Watch, MAX_SEARCH_CELLS};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// What a front end gives a board solver besides the request: where to find a table, how much
/// memory and time it may take, and where builds report.
pub struct BoardSetup<'a> {
    /// A distance table file to descend (front ends that read the user's files only).
    pub table: Option<&'a Path>,
    /// Bytes A*, half-depth search and pattern-database builds may hold.
    pub memory_bytes: u64,
    /// IDA* gives up each board this long after it starts, with a proven lower bound.
    pub deadline_after: Option<Duration>,
    /// Where table and database builds report their levels.
    pub progress: &'a dyn Progress,
    /// Hears of databases built, fallbacks and what half-depth search holds.
    pub notices: &'a mut dyn FnMut(Notice),
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
        /// The heuristic, shared with the workbench that keeps it loaded.
        heuristic: Arc<AnyHeuristic>,
        /// Bytes A* may hold.
        memory_bytes: u64,
        /// Each board's time limit.
        deadline_after: Option<Duration>,
        /// IDA*'s first threshold, a bound an earlier search proved.
        resume_from: Option<u32>,
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
        // Only IDA* reports a bound at a deadline and resumes from one.
        let deadline = request.timeout()?.is_some() || request.resume_from.is_some();
        let algorithm = choice::tile_algorithm(request.algorithm, shape, has_table, deadline)?;
        check_options(request, algorithm)?;
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
    /// tables from its cache, a table from `setup.table` or built in memory, the ball of
    /// half-depth search.
    pub fn new(
        bench: &Workbench,
        goal: &Board,
        request: &SolveRequest,
        setup: BoardSetup,
    ) -> AppResult<Self> {
        let algorithm = Self::algorithm(goal, request, setup.table.is_some())?;
        Ok(match algorithm {
            Algorithm::HalfDepth => {
                let solver =
                    HalfDepthSolver::new(goal, request.depth, setup.memory_bytes, setup.progress)?;
                (setup.notices)(Notice::HalfDepthHeld {
                    positions: solver.positions_held(),
                    depth: solver.depth(),
                    all: solver.holds_all(),
                });
                BoardSolver::HalfDepth(solver)
            }
            Algorithm::Table => BoardSolver::Table(TableSolver::new(goal, setup.table)?),
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
                heuristic: bench.heuristic(
                    request,
                    goal,
                    setup.memory_bytes,
                    setup.progress,
                    setup.notices,
                )?,
                memory_bytes: setup.memory_bytes,
                deadline_after: setup.deadline_after,
                resume_from: request.resume_from,
            },
        })
    }

    /// Solves one board of `goal`, replayed to the goal before it is returned; IDA* publishes
    /// its threshold and nodes to `watch` and stops when it is cancelled.
    pub fn solve(&self, goal: &Board, job: &TileJob, watch: Option<&Watch>) -> AppResult<Solution> {
        match self {
            BoardSolver::HalfDepth(solver) => solver.solve(goal, job),
            BoardSolver::Table(solver) => solver.solve(goal, job),
            BoardSolver::Staged(solver) => solver.solve(goal, job),
            BoardSolver::Search {
                algorithm,
                heuristic,
                memory_bytes,
                deadline_after,
                resume_from,
            } => Search {
                algorithm: *algorithm,
                goal,
                memory_bytes: *memory_bytes,
                deadline_after: *deadline_after,
                watch,
                resume_from: *resume_from,
            }
            .solve(heuristic, job),
        }
    }
}

/// Refuses, for a board solved by `algorithm`, the options it would not use (rather than
/// ignore them silently) and the cube-only ones.
pub(crate) fn check_options(request: &SolveRequest, algorithm: Algorithm) -> AppResult<()> {
    let cube_only = [
        (request.moves, "--moves"),
        (request.metric.is_some(), "--metric"),
        (request.max_length.is_some(), "--max-length"),
        (request.facelets, "--facelets"),
        (request.all, "--all"),
        (request.table_size.is_some(), "--table-size"),
        (request.known_solution.is_some(), "--known-solution"),
        (algorithm == Algorithm::TwoPhase, "--algorithm two-phase"),
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
            "--pdb names pattern databases, which --heuristic {} does not read (use --heuristic pdb, or leave --heuristic out)",
            match request.heuristic {
                HeuristicChoice::Manhattan => "manhattan",
                _ => "linear-conflict",
            }
        )));
    }
    let searching = algorithm.is_search();
    let staged = algorithm.is_staged();
    let unused = [
        (
            request.timeout.is_some() && !algorithm.takes_deadline(),
            "--timeout",
            "IDA* (--algorithm ida or parallel-ida)",
        ),
        (
            request.heuristic != HeuristicChoice::Auto && !searching,
            "--heuristic",
            "IDA* and A*",
        ),
        (request.pdb.is_some() && !searching, "--pdb", "IDA* and A*"),
        (
            request.no_reflection && !searching,
            "--no-reflection",
            "IDA* and A* with pattern databases",
        ),
        (
            request.no_reflection
                && matches!(
                    request.heuristic,
                    HeuristicChoice::Manhattan | HeuristicChoice::LinearConflict
                ),
            "--no-reflection",
            "pattern databases (--heuristic pdb)",
        ),
        (
            request.stages.is_some() && algorithm != Algorithm::Subgoal,
            "--stages",
            "--algorithm subgoal",
        ),
        (
            request.effort.is_some() && !staged,
            "--effort",
            "--algorithm subgoal and two-stage",
        ),
        (
            request.optimal,
            "--optimal",
            "cubes (every board solver but subgoal and two-stage is optimal already)",
        ),
        (
            request.depth.is_some() && algorithm != Algorithm::HalfDepth,
            "--depth",
            "--algorithm half-depth",
        ),
        (
            request.resume_from.is_some() && !algorithm.takes_deadline(),
            "--resume-from",
            "IDA* (--algorithm ida or parallel-ida)",
        ),
    ];
    if let Some((_, option, used_by)) = unused.iter().find(|(given, _, _)| *given) {
        return Err(AppError::Input(format!(
            "{option} is used only by {used_by}, not by --algorithm {}",
            algorithm.name()
        )));
    }
    Ok(())
}
