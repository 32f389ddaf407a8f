//! The 2x2x2 (pocket cube) in the registry: solved optimally by descent of its distance table
//! or by half-depth search, enumerated whole, scrambled uniformly or by moves, and every
//! solution's length proven from its table. What it shares with the 3x3x3 (reading positions,
//! replaying and checking moves) lives in [`super::cubes`].

pub mod bfs;
pub mod scramble;
pub mod solvers;
pub mod tables;

use super::cubes::info::{factorial, CubeFigures};
use super::cubes::verify::{prover_metric, CubeProver};
use super::cubes::{self, scramble::cube_moves, ClaimReading, CubeJob, CubeKind};
use super::{InfoQuery, Puzzle, Scrambler, Verifier, VerifyQuery};
use crate::batch::{Batch, BatchSetup, BatchSolver, FrontEndOptions, Position, Source};
use crate::bfs::BfsRequest;
use crate::choice::Algorithm;
use crate::progress::Notice;
use crate::report::{AnyInfo, BfsReport};
use crate::request::{
    BfsJob, JobLimits, PuzzleEntry, Replay, ReplayRequest, ScrambleRequest, SolveReport,
    SolveRequest, Workbench,
};
use crate::{AppError, AppResult};
use godsearch_core::Progress;
use godsearch_puzzles::cube::{Cube2Space, Metric, Syntax, CUBE2};
use godsearch_search::tiles::Watch;
use num_bigint::BigUint;
use rand::rngs::StdRng;
use solvers::{cube2_solver, Cube2HalfDepth, Cube2Solver};
use std::sync::Arc;

/// The names the 2x2x2 answers to, the one menus list first.
const NAMES: [&str; 3] = ["2x2x2", "cube2", "pocket"];

/// The solve options the 2x2x2 takes (see [`PuzzleEntry::options`]); `optimal` asks for what
/// its solvers give anyway.
const OPTIONS: [&str; 7] = [
    "algorithm",
    "metric",
    "facelets",
    "moves",
    "depth",
    "table",
    "optimal",
];

/// The 2x2x2's God's numbers, from its complete enumeration (`bfs 2x2x2`, and the published
/// distributions in data/cube2x2x2-*.txt); its STM is HTM (no middle layer).
const GODS_NUMBERS: [(&str, u32, bool, &str); 2] =
    [("htm", 11, true, ENUMERATED), ("qtm", 14, true, ENUMERATED)];
const ENUMERATED: &str = "complete enumeration: godsearch bfs 2x2x2, data/cube2x2x2-*.txt";

/// The 2x2x2 in the registry: `2x2x2`, `cube2`, `pocket`.
pub const KIND: CubeKind = CubeKind {
    names: &NAMES,
    open: || Box::new(Cube2),
};

/// The 2x2x2.
pub struct Cube2;

impl Puzzle for Cube2 {
    fn entry(&self) -> PuzzleEntry {
        cubes::entry(
            CUBE2,
            vec!["table", "half-depth"],
            &OPTIONS,
            "none: the distance table gives every distance exactly",
        )
    }

    fn batch(&self, request: &SolveRequest) -> Option<AppResult<Box<dyn Batch + '_>>> {
        Some(Cube2Batch::new(request).map(|batch| Box::new(batch) as Box<dyn Batch>))
    }

    fn check_bfs(&self, job: &BfsJob) -> AppResult<()> {
        if job.symmetry.is_some() {
            return Err(AppError::Input(
                "«symmetry» is for the 3x3x3; the 2x2x2 is enumerated whole".into(),
            ));
        }
        cubes::check_bfs(job, CUBE2).map(|_| ())
    }

    fn bfs(
        &self,
        job: &BfsJob,
        request: &BfsRequest,
        progress: &dyn Progress,
    ) -> AppResult<BfsReport> {
        self.check_bfs(job)?;
        bfs::cube2(cubes::check_bfs(job, CUBE2)?, request, progress)
    }

    fn scrambler<'a>(
        &'a self,
        _: &'a Workbench,
        request: &ScrambleRequest,
        _: &JobLimits,
        _: &dyn Progress,
    ) -> AppResult<Box<dyn Scrambler + 'a>> {
        let metric = cubes::check_scramble(request, CUBE2)?;
        Ok(match request.moves {
            Some(n) => Box::new(move |rng: &mut StdRng| cube_moves(CUBE2, metric, n as usize, rng)),
            None => {
                let space = Cube2Space::new(metric);
                let (table, _) = crate::tables::table_in_memory(&space)?;
                Box::new(move |rng: &mut StdRng| scramble::cube2_uniform(&space, &table, rng))
            }
        })
    }

    fn info(&self, query: &InfoQuery) -> AppResult<AnyInfo> {
        let figures = CubeFigures {
            shape: CUBE2,
            pieces: "8 corners, no centres",
            // One corner held fixed: the 24 ways of holding the cube are one position.
            positions: factorial(7) * BigUint::from(3u32).pow(6),
            formula: "7!·3^6 (one corner held fixed)",
            classes: None,
            gods_numbers: &GODS_NUMBERS,
            table_engine: Some("table"),
        };
        cubes::info::info(&figures, query)
    }

    fn verifier<'a>(
        &'a self,
        bench: &'a Workbench,
        query: &VerifyQuery,
        _: &dyn Progress,
        _: &mut dyn FnMut(Notice),
    ) -> AppResult<Verifier<'a>> {
        let reading = ClaimReading::of(query)?;
        if query.prove {
            return Err(AppError::Input(
                "«prove» is for the 3x3x3; the 2x2x2 is proven from its distance table without it"
                    .into(),
            ));
        }
        let prover = match query.proves {
            true => {
                let table = cube2_solver(bench, prover_metric(reading.metric, CUBE2))?;
                Some(Box::new(table) as Box<dyn CubeProver>)
            }
            false => None,
        };
        Ok(reading.verifier(CUBE2, prover, "no distance table for this puzzle here"))
    }

    fn replay(&self, request: &ReplayRequest) -> AppResult<Replay> {
        cubes::replay(CUBE2, request)
    }
}

/// The 2x2x2 positions solved under one request: the registry's [`Batch`] for the 2x2x2.
pub struct Cube2Batch {
    request: SolveRequest,
    syntax: Syntax,
}

impl Cube2Batch {
    /// The batch `request` makes, refused where a 2x2x2 solver would not use its options.
    /// Cheap: nothing is built.
    pub fn new(request: &SolveRequest) -> AppResult<Self> {
        check(request)?;
        Ok(Cube2Batch {
            request: request.clone(),
            syntax: request.syntax()?,
        })
    }
}

impl Batch for Cube2Batch {
    /// A position as stickers or moves (`request.facelets`, `request.moves`, else whichever it
    /// reads as); one given alone is quoted in the error.
    fn read(&self, text: &str, source: Source) -> AppResult<Position> {
        cubes::read_position(CUBE2, self.syntax, text, source)
    }

    fn check_front_end(&self, given: FrontEndOptions) -> AppResult<()> {
        cubes::check_front_end(&self.request, given)?;
        if given.cache {
            return Err(AppError::Input("«cache» is for the 3x3x3's two-phase tables; the 2x2x2 uses «table» or a table built in memory".into()));
        }
        Ok(())
    }

    fn solver<'a>(
        &'a self,
        bench: &'a Workbench,
        setup: BatchSetup<'a>,
    ) -> AppResult<Box<dyn BatchSolver + 'a>> {
        let request = &self.request;
        let metric = check(request)?;
        Ok(Box::new(match request.algorithm {
            Algorithm::HalfDepth => ChosenSolver::HalfDepth(Cube2HalfDepth::new(
                metric,
                request.depth,
                setup.limits.memory_bytes,
                setup.progress,
            )?),
            _ => match request.table_file(&setup.limits)? {
                Some(path) => ChosenSolver::Table(Arc::new(Cube2Solver::new(metric, Some(path))?)),
                None => ChosenSolver::Table(cube2_solver(bench, metric)?),
            },
        }))
    }
}

/// The 2x2x2 solver a request chose, ready for any number of positions.
enum ChosenSolver {
    /// By descent of its distance table.
    Table(Arc<Cube2Solver>),
    /// By half-depth search.
    HalfDepth(Cube2HalfDepth),
}

impl BatchSolver for ChosenSolver {
    /// One at a time: each takes microseconds.
    fn chunk(&self) -> usize {
        1
    }

    fn solve(&self, positions: &[Position], _: Option<&Watch>) -> Vec<AppResult<SolveReport>> {
        positions
            .iter()
            .map(|position| {
                let job = position.get::<CubeJob>()?;
                let solution = match self {
                    ChosenSolver::Table(solver) => solver.solve(job),
                    ChosenSolver::HalfDepth(solver) => solver.solve(job),
                };
                solution.map(SolveReport::Cube)
            })
            .collect()
    }
}

/// The metric `request` asks for, refused with the reason when it gives options a 2x2x2
/// solver would not use.
fn check(request: &SolveRequest) -> AppResult<Metric> {
    cubes::check_request(request)?;
    let input = |text: &str| Err(AppError::Input(text.into()));
    if request.known_solution.is_some() {
        return input("«known_solution» is for the 3x3x3 with «optimal», which proves it shortest or finds a shorter one");
    }
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
    if request.table_size.is_some() {
        return input("«table_size» is for the 3x3x3's optimal solver; the 2x2x2's table holds every distance");
    }
    if request.table.is_some() && request.algorithm == Algorithm::HalfDepth {
        return input("«table» is for table descent; half-depth search builds its own levels");
    }
    cubes::cube_metric(request.metric.as_deref(), CUBE2)
}
