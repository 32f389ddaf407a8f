//! The one place a solve request for a cube becomes a solver: the 2x2x2 by table descent or
//! half-depth search, the 3x3x3 by two-phase, optimally by IDA* over the optimal solver's
//! table, or by half-depth search; tables loaded or built once, then any number of cubes
//! solved. [`CubeBatch`] is the registry's [`Batch`] of cubes, which every front end solves
//! through: a command line's whole batch, a server's or Python's request as a batch of one.

use super::cube_metric;
use super::loaded::{cube2_solver, optimal_tables, twophase_tables};
use super::solvers::{
    default_max_length, Cube2HalfDepth, Cube2Solver, Cube3HalfDepth, CubeJob, OptimalSolver,
    TwoPhaseSolver,
};
use crate::batch::{Batch, BatchSetup, BatchSolver, FrontEndOptions, Position, Source};
use crate::choice::{Algorithm, HeuristicChoice};
use crate::report::CubeSolution;
use crate::request::{optimal_table_size, SolveReport, SolveRequest, Workbench};
use crate::{AppError, AppResult};
use godsearch_core::excerpt;
use godsearch_puzzles::cube::{parse_position, CubeSize, Metric, Move, Syntax};
use godsearch_search::tiles::Watch;
use godsearch_twophase::optimal::OptimalTables;
use godsearch_twophase::Tables;
use rayon::prelude::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// A cube solver ready for any number of cubes of one size.
pub enum CubeSolver<'a> {
    /// The 2x2x2 by descent of its distance table.
    Cube2(Arc<Cube2Solver>),
    /// The 2x2x2 by half-depth search.
    Cube2HalfDepth(Cube2HalfDepth),
    /// The 3x3x3 by half-depth search over symmetry classes.
    Cube3HalfDepth {
        /// The solver.
        solver: Cube3HalfDepth,
        /// Each cube's time limit.
        timeout: Option<Duration>,
        /// The front end's cancel.
        stop: Option<&'a AtomicBool>,
    },
    /// The 3x3x3 by Kociemba's two-phase method.
    TwoPhase(TwoPhaseSolver<'a>),
    /// The 3x3x3 optimally, by IDA* over the optimal solver's table.
    Optimal {
        /// The pruning table.
        tables: Arc<OptimalTables>,
        /// The two-phase tables for the answer at a timeout (none with a known solution, which
        /// is that answer).
        fallback: Option<Arc<Tables>>,
        /// Each cube's time limit.
        timeout: Option<Duration>,
        /// Every shortest solution.
        all: bool,
        /// A known solution to prove shortest or beat.
        known: Option<Vec<Move>>,
        /// The front end's cancel.
        stop: Option<&'a AtomicBool>,
    },
}

impl<'a> CubeSolver<'a> {
    /// The metric `request` asks for on a cube of `size`, refused with the reason when the
    /// request gives options the solver it means would not use. Cheap: nothing is built.
    pub fn check(size: CubeSize, request: &SolveRequest) -> AppResult<Metric> {
        crate::registry::no_generators(&request.generators)?;
        request.one_solution_only()?;
        request.timeout()?;
        check_options(request, size)?;
        if request.table.is_some() {
            let why = match size {
                CubeSize::Two if request.algorithm == Algorithm::HalfDepth => {
                    Some("«table» is for table descent; half-depth search builds its own levels")
                }
                CubeSize::Two => None,
                CubeSize::Three if request.optimal => {
                    Some("«table» is for the 2x2x2; «optimal» on the 3x3x3 uses «table_size»")
                }
                CubeSize::Three => Some(
                    "«table» is for the 2x2x2; the 3x3x3's two-phase tables live in the cache («cache»)",
                ),
            };
            if let Some(why) = why {
                return Err(AppError::Input(why.into()));
            }
        }
        if request.optimal {
            optimal_table_size(request.table_size.as_deref())?;
            request.known_moves()?;
        }
        cube_metric(request.metric.as_deref(), size)
    }

    /// The solver `request` asks for on a cube of `size`, with its tables loaded (or built and
    /// cached) through `bench`, which keeps them for later requests.
    pub fn new(
        bench: &'a Workbench,
        size: CubeSize,
        request: &SolveRequest,
        setup: BatchSetup<'a>,
    ) -> AppResult<Self> {
        let timeout = setup.timeout(request)?;
        let memory_bytes = setup.limits.memory_bytes;
        let metric = Self::check(size, request)?;
        let half_depth = request.algorithm == Algorithm::HalfDepth;
        Ok(match size {
            CubeSize::Two if half_depth => CubeSolver::Cube2HalfDepth(Cube2HalfDepth::new(
                metric,
                request.depth,
                memory_bytes,
                setup.progress,
            )?),
            CubeSize::Two => match request.table_file(&setup.limits)? {
                Some(path) => CubeSolver::Cube2(Arc::new(Cube2Solver::new(metric, Some(path))?)),
                None => CubeSolver::Cube2(cube2_solver(bench, metric)?),
            },
            CubeSize::Three if request.optimal => {
                let size = optimal_table_size(request.table_size.as_deref())?;
                if size > setup.limits.largest_table {
                    return Err(AppError::Input(format!(
                        "«table_size» {} is over this server's limit ({})",
                        size.name(),
                        setup.limits.largest_table.name()
                    )));
                }
                let known = request.known_moves()?;
                let tables = optimal_tables(bench, size, metric, setup.progress, setup.notices)?;
                let fallback = match timeout.is_some() && known.is_none() {
                    true => Some(twophase_tables(bench, setup.progress, None, setup.notices)?),
                    false => None,
                };
                CubeSolver::Optimal {
                    tables,
                    fallback,
                    timeout,
                    all: request.all,
                    known,
                    stop: setup.stop,
                }
            }
            CubeSize::Three if half_depth => CubeSolver::Cube3HalfDepth {
                solver: Cube3HalfDepth::new(metric, request.depth, memory_bytes, setup.progress)?,
                timeout,
                stop: setup.stop,
            },
            CubeSize::Three => CubeSolver::TwoPhase(TwoPhaseSolver {
                tables: twophase_tables(bench, setup.progress, setup.positions, setup.notices)?,
                metric,
                max_length: request
                    .max_length
                    .map_or(default_max_length(metric), |n| n as usize),
                timeout,
                stop: setup.stop,
            }),
        })
    }

    /// Solves one cube; the solution is replayed before it is returned.
    pub fn solve(&self, job: &CubeJob) -> AppResult<CubeSolution> {
        match self {
            CubeSolver::Cube2(solver) => solver.solve(job),
            CubeSolver::Cube2HalfDepth(solver) => solver.solve(job),
            CubeSolver::Cube3HalfDepth {
                solver,
                timeout,
                stop,
            } => solver.solve_within(job, *timeout, *stop),
            CubeSolver::TwoPhase(solver) => solver.solve(job),
            CubeSolver::Optimal {
                tables,
                fallback,
                timeout,
                all,
                known,
                stop,
            } => OptimalSolver {
                tables,
                fallback: fallback.as_deref(),
                timeout: *timeout,
                all: *all,
                known: known.as_deref(),
                stop: *stop,
            }
            .solve(job),
        }
    }

    /// Whether a batch's cubes are spread over the threads (so a front end should hand it
    /// many at a time: [`BatchSolver::chunk`]), rather than solved one after another, each on
    /// every thread it uses.
    fn spreads_batches(&self) -> bool {
        matches!(self, CubeSolver::TwoPhase(_))
    }
}

/// The cubes of one size solved under one request: the registry's [`Batch`] for cubes.
pub struct CubeBatch {
    size: CubeSize,
    request: SolveRequest,
    syntax: Syntax,
}

impl CubeBatch {
    /// The batch `request` makes for cubes of `size`, refused as [`CubeSolver::check`] refuses
    /// it. Cheap: nothing is built.
    pub fn new(size: CubeSize, request: &SolveRequest) -> AppResult<Self> {
        CubeSolver::check(size, request)?;
        Ok(CubeBatch {
            size,
            request: request.clone(),
            syntax: request.syntax()?,
        })
    }
}

impl Batch for CubeBatch {
    /// A position as stickers or moves (`request.facelets`, `request.moves`, else whichever it
    /// reads as); one given alone is quoted in the error.
    fn read(&self, text: &str, source: Source) -> AppResult<Position> {
        let cube = parse_position(self.size, text, self.syntax).map_err(|e| match source {
            Source::Given => AppError::Input(format!("position '{}': {e}", excerpt(text))),
            Source::Line => AppError::Input(e.to_string()),
        })?;
        Ok(Position::new(CubeJob {
            text: text.to_string(),
            cube,
        }))
    }

    fn check_front_end(&self, given: FrontEndOptions) -> AppResult<()> {
        if given.verbose {
            return Err(AppError::Input(
                "«verbose» is for sliding-tile boards, not cubes".into(),
            ));
        }
        if given.memory && self.request.algorithm != Algorithm::HalfDepth {
            return Err(AppError::Input(
                "«memory» is used only by «algorithm» half-depth on cubes".into(),
            ));
        }
        if given.cache && self.size == CubeSize::Two {
            return Err(AppError::Input("«cache» is for the 3x3x3's two-phase tables; the 2x2x2 uses «table» or a table built in memory".into()));
        }
        Ok(())
    }

    fn solver<'a>(
        &'a self,
        bench: &'a Workbench,
        setup: BatchSetup<'a>,
    ) -> AppResult<Box<dyn BatchSolver + 'a>> {
        Ok(Box::new(CubeSolver::new(
            bench,
            self.size,
            &self.request,
            setup,
        )?))
    }
}

/// Positions a batch hands two-phase a thread at a time: enough that the threads rarely wait
/// at a chunk's end (a position takes about a millisecond), few enough that results show as
/// they come.
const POSITIONS_PER_THREAD_IN_FLIGHT: usize = 64;

impl BatchSolver for CubeSolver<'_> {
    fn chunk(&self) -> usize {
        match self.spreads_batches() {
            true => rayon::current_num_threads() * POSITIONS_PER_THREAD_IN_FLIGHT,
            false => 1,
        }
    }

    fn solve(&self, positions: &[Position], _: Option<&Watch>) -> Vec<AppResult<SolveReport>> {
        let solve = |position: &Position| {
            let job = position.get::<CubeJob>()?;
            CubeSolver::solve(self, job).map(SolveReport::Cube)
        };
        match self.spreads_batches() {
            true => positions.par_iter().map(solve).collect(),
            false => positions.iter().map(solve).collect(),
        }
    }
}

/// Refuses, for a cube of `size`, the board-only options and those the chosen cube solver
/// would not use.
pub(crate) fn check_options(request: &SolveRequest, size: CubeSize) -> AppResult<()> {
    let input = |text: &str| Err(AppError::Input(text.into()));
    let tile_only = [
        (request.goal.is_some(), "«goal»"),
        (request.pdb.is_some(), "«pdb»"),
        (request.heuristic != HeuristicChoice::Auto, "«heuristic»"),
        (request.stages.is_some(), "«stages»"),
        (request.effort.is_some(), "«effort»"),
        (request.no_reflection, "«no_reflection»"),
        (request.reverse, "«reverse»"),
        (request.both_ways, "«both_ways»"),
        (request.resume_from.is_some(), "«resume_from»"),
        (request.resume_subtrees.is_some(), "«resume_subtrees»"),
    ];
    if let Some((_, name)) = tile_only.iter().find(|(given, _)| *given) {
        return Err(AppError::Input(format!(
            "{name} is for sliding-tile boards, not cubes"
        )));
    }
    if request.all && !request.optimal {
        return input("«all» lists every shortest solution; it needs «optimal»");
    }
    if let Some(n) = request
        .max_length
        .filter(|&n| n as u64 > crate::units::MAX_TARGET_LENGTH)
    {
        return Err(AppError::Input(format!(
            "«max_length» {n}: at most {} moves can be asked for",
            crate::units::MAX_TARGET_LENGTH
        )));
    }
    if request.table_size.is_some() && !request.optimal {
        return input("«table_size» is for «optimal»");
    }
    if request.known_solution.is_some() && !(request.optimal && size == CubeSize::Three) {
        return input("«known_solution» is for the 3x3x3 with «optimal», which proves it shortest or finds a shorter one");
    }
    match size {
        CubeSize::Two => {
            if !matches!(
                request.algorithm,
                Algorithm::Auto | Algorithm::Table | Algorithm::HalfDepth
            ) {
                return input("the 2x2x2 is solved optimally by table descent («algorithm» table, the default) or half-depth search («algorithm» half-depth)");
            }
            if request.depth.is_some() && request.algorithm != Algorithm::HalfDepth {
                return input("«depth» is used only by «algorithm» half-depth");
            }
            if request.max_length.is_some() || request.timeout.is_some() {
                return input("«max_length» and «timeout» are for the 3x3x3; 2x2x2 solutions are optimal and take microseconds");
            }
        }
        CubeSize::Three if request.optimal => {
            if !matches!(request.algorithm, Algorithm::Auto | Algorithm::Ida) {
                return input(
                    "the optimal 3x3x3 solver is IDA* («algorithm» ida, or no «algorithm»)",
                );
            }
            if request.max_length.is_some() {
                return input(
                    "«max_length» is for two-phase; «optimal» finds the shortest length itself",
                );
            }
            if request.depth.is_some() {
                return input("«depth» is for «algorithm» half-depth; «optimal» on the 3x3x3 uses «table_size»");
            }
        }
        CubeSize::Three if request.algorithm == Algorithm::HalfDepth => {
            if request.max_length.is_some() {
                return input("«max_length» is for two-phase; half-depth search solves within twice «depth», optimally");
            }
        }
        CubeSize::Three => {
            if !matches!(request.algorithm, Algorithm::Auto | Algorithm::TwoPhase) {
                return input("the 3x3x3 is solved by the two-phase method («algorithm» two-phase, the default), IDA* with «optimal», or «algorithm» half-depth");
            }
            if request.depth.is_some() {
                return input("«depth» is for «algorithm» half-depth");
            }
        }
    }
    Ok(())
}
