//! The one place a solve request for a 3x3x3 becomes a solver: two-phase, optimally by IDA*
//! over the optimal solver's table, or by half-depth search; tables loaded or built once, then
//! any number of cubes solved. [`Cube3Batch`] is the registry's [`Batch`] of 3x3x3s, which
//! every front end solves through: a command line's whole batch, a server's or Python's request
//! as a batch of one.

use super::loaded::{optimal_tables, twophase_tables};
use super::solvers::{default_max_length, Cube3HalfDepth, OptimalSolver, TwoPhaseSolver};
use crate::batch::{Batch, BatchSetup, BatchSolver, FrontEndOptions, Position, Source};
use crate::choice::Algorithm;
use crate::registry::cubes::{self, CubeJob};
use crate::report::CubeSolution;
use crate::request::{optimal_table_size, SolveReport, SolveRequest, Workbench};
use crate::{AppError, AppResult};
use godsearch_puzzles::cube::{Metric, Move, Syntax, CUBE3};
use godsearch_search::tiles::Watch;
use godsearch_twophase::optimal::OptimalTables;
use godsearch_twophase::Tables;
use rayon::prelude::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// A 3x3x3 solver ready for any number of cubes.
pub enum Cube3Solver<'a> {
    /// By half-depth search over symmetry classes.
    HalfDepth {
        /// The solver (boxed: it is far larger than the others' handles).
        solver: Box<Cube3HalfDepth>,
        /// Each cube's time limit.
        timeout: Option<Duration>,
        /// The front end's cancel.
        stop: Option<&'a AtomicBool>,
    },
    /// By Kociemba's two-phase method.
    TwoPhase(TwoPhaseSolver<'a>),
    /// Optimally, by IDA* over the optimal solver's table.
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

impl<'a> Cube3Solver<'a> {
    /// The metric `request` asks for, refused with the reason when the request gives options
    /// the solver it means would not use. Cheap: nothing is built.
    pub fn check(request: &SolveRequest) -> AppResult<Metric> {
        cubes::check_request(request)?;
        check_options(request)?;
        if request.table.is_some() {
            return Err(AppError::Input(
                match request.optimal {
                    true => "«table» is for the 2x2x2; «optimal» on the 3x3x3 uses «table_size»",
                    false => "«table» is for the 2x2x2; the 3x3x3's two-phase tables live in the cache («cache»)",
                }
                .into(),
            ));
        }
        if request.optimal {
            optimal_table_size(request.table_size.as_deref())?;
            request.known_moves()?;
        }
        cubes::cube_metric(request.metric.as_deref(), CUBE3)
    }

    /// The solver `request` asks for, with its tables loaded (or built and cached) through
    /// `bench`, which keeps them for later requests.
    pub fn new(
        bench: &'a Workbench,
        request: &SolveRequest,
        setup: BatchSetup<'a>,
    ) -> AppResult<Self> {
        let timeout = setup.timeout(request)?;
        let memory_bytes = setup.limits.memory_bytes;
        let metric = Self::check(request)?;
        let half_depth = request.algorithm == Algorithm::HalfDepth;
        Ok(match request.optimal {
            true => {
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
                Cube3Solver::Optimal {
                    tables,
                    fallback,
                    timeout,
                    all: request.all,
                    known,
                    stop: setup.stop,
                }
            }
            false if half_depth => Cube3Solver::HalfDepth {
                solver: Box::new(Cube3HalfDepth::new(
                    metric,
                    request.depth,
                    memory_bytes,
                    setup.progress,
                )?),
                timeout,
                stop: setup.stop,
            },
            false => Cube3Solver::TwoPhase(TwoPhaseSolver {
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
            Cube3Solver::HalfDepth {
                solver,
                timeout,
                stop,
            } => solver.solve_within(job, *timeout, *stop),
            Cube3Solver::TwoPhase(solver) => solver.solve(job),
            Cube3Solver::Optimal {
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
        matches!(self, Cube3Solver::TwoPhase(_))
    }
}

/// The 3x3x3s solved under one request: the registry's [`Batch`] for the 3x3x3.
pub struct Cube3Batch {
    request: SolveRequest,
    syntax: Syntax,
}

impl Cube3Batch {
    /// The batch `request` makes, refused as [`Cube3Solver::check`] refuses it. Cheap: nothing
    /// is built.
    pub fn new(request: &SolveRequest) -> AppResult<Self> {
        Cube3Solver::check(request)?;
        Ok(Cube3Batch {
            request: request.clone(),
            syntax: request.syntax()?,
        })
    }
}

impl Batch for Cube3Batch {
    /// A position as stickers or moves (`request.facelets`, `request.moves`, else whichever it
    /// reads as); one given alone is quoted in the error.
    fn read(&self, text: &str, source: Source) -> AppResult<Position> {
        cubes::read_position(CUBE3, self.syntax, text, source)
    }

    fn check_front_end(&self, given: FrontEndOptions) -> AppResult<()> {
        cubes::check_front_end(&self.request, given)
    }

    fn solver<'a>(
        &'a self,
        bench: &'a Workbench,
        setup: BatchSetup<'a>,
    ) -> AppResult<Box<dyn BatchSolver + 'a>> {
        Ok(Box::new(Cube3Solver::new(bench, &self.request, setup)?))
    }
}

/// Positions a batch hands two-phase a thread at a time: enough that the threads rarely wait
/// at a chunk's end (a position takes about a millisecond), few enough that results show as
/// they come.
const POSITIONS_PER_THREAD_IN_FLIGHT: usize = 64;

impl BatchSolver for Cube3Solver<'_> {
    fn chunk(&self) -> usize {
        match self.spreads_batches() {
            true => rayon::current_num_threads() * POSITIONS_PER_THREAD_IN_FLIGHT,
            false => 1,
        }
    }

    fn solve(&self, positions: &[Position], _: Option<&Watch>) -> Vec<AppResult<SolveReport>> {
        let solve = |position: &Position| {
            let job = position.get::<CubeJob>()?;
            Cube3Solver::solve(self, job).map(SolveReport::Cube)
        };
        match self.spreads_batches() {
            true => positions.par_iter().map(solve).collect(),
            false => positions.iter().map(solve).collect(),
        }
    }
}

/// Refuses the options the chosen 3x3x3 solver would not use.
fn check_options(request: &SolveRequest) -> AppResult<()> {
    let input = |text: &str| Err(AppError::Input(text.into()));
    if request.known_solution.is_some() && !request.optimal {
        return input("«known_solution» is for the 3x3x3 with «optimal», which proves it shortest or finds a shorter one");
    }
    match request.optimal {
        true => {
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
        false if request.algorithm == Algorithm::HalfDepth => {
            if request.max_length.is_some() {
                return input("«max_length» is for two-phase; half-depth search solves within twice «depth», optimally");
            }
        }
        false => {
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
