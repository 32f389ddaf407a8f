//! The 3x3x3 (Rubik's cube) in the registry: solved by Kociemba's two-phase method, optimally
//! by IDA* over the optimal solver's table, or by half-depth search; enumerated level by level
//! as classes under its symmetries; scrambled uniformly or by moves; solutions proven shortest
//! by the optimal solver on request. What it shares with the 2x2x2 (reading positions,
//! replaying and checking moves) lives in [`super::cubes`].
//!
//! The solvers ([`solvers`]) and the batch that chooses among them ([`batch`]), the tables a
//! workbench keeps loaded ([`loaded`]), enumeration ([`bfs`]) and uniform scrambles
//! ([`scramble`]) are this module's files.

pub mod batch;
pub mod bfs;
pub mod loaded;
pub mod scramble;
pub mod solvers;

use super::cubes::info::{factorial, CubeFigures};
use super::cubes::verify::{prover_metric, CubeProver};
use super::cubes::{self, scramble::cube_moves, ClaimReading, CubeKind};
use super::{InfoQuery, Puzzle, ReadingCache, Scrambler, Verifier, VerifyQuery};
use crate::batch::Batch;
use crate::bfs::BfsRequest;
use crate::progress::Notice;
use crate::report::{AnyInfo, BfsReport};
use crate::request::{
    optimal_table_size, BfsJob, JobLimits, PuzzleEntry, Replay, ReplayRequest, ScrambleRequest,
    SolveRequest, Workbench,
};
use crate::{AppError, AppResult};
use batch::Cube3Batch;
use godsearch_core::Progress;
use godsearch_puzzles::cube::{Reduction, CUBE3};
use num_bigint::BigUint;
use rand::rngs::StdRng;
use solvers::OptimalProver;

/// The names the 3x3x3 answers to, the one menus list first.
const NAMES: [&str; 4] = ["3x3x3", "cube", "cube3", "rubik"];

/// The solve options the 3x3x3 takes: two-phase's, the optimal solver's and half-depth's.
const OPTIONS: [&str; 11] = [
    "algorithm",
    "metric",
    "facelets",
    "moves",
    "depth",
    "max_length",
    "optimal",
    "all",
    "table_size",
    "known_solution",
    "timeout",
];

/// The 3x3x3's classes under its 48 symmetries, and under the 96 with inversion (Rokicki,
/// cube20.org, "God's Number is 20": the counts of the positions up to symmetry).
const CLASSES: [&str; 2] = ["901083404981813616", "450541810590509978"];

/// God's numbers: HTM and QTM exact, STM an upper bound (every face-turn solution is one).
const GODS_NUMBERS: [(&str, u32, bool, &str); 3] = [
    ("htm", 20, true, "Rokicki, Kociemba, Davidson, Dethridge 2010, cube20.org"),
    ("qtm", 26, true, "Rokicki, Davidson 2014, cube20.org"),
    ("stm", 20, false, "not known; every face-turn solution is one, so htm's bounds it; levels published to 10 by Rokicki"),
];

/// The 3x3x3 in the registry: `3x3x3`, `cube`, `cube3`, `rubik`.
pub const KIND: CubeKind = CubeKind {
    names: &NAMES,
    open: || Box::new(Cube3),
};

/// The 3x3x3.
pub struct Cube3;

impl Cube3 {
    /// The classes it is enumerated by: 48 symmetries (default) or 96 with inversion.
    fn reduction(symmetry: Option<u32>) -> AppResult<Reduction> {
        match symmetry {
            None | Some(48) => Ok(Reduction::Symmetries),
            Some(96) => Ok(Reduction::SymmetriesAndInverse),
            Some(n) => Err(AppError::Input(format!(
                "«symmetry» is 48 (the cube's symmetries) or 96 (with inversion), not {n}"
            ))),
        }
    }
}

impl Puzzle for Cube3 {
    fn entry(&self) -> PuzzleEntry {
        cubes::entry(
            CUBE3,
            vec!["two-phase", "ida", "half-depth"],
            &OPTIONS,
            "two-phase's phase tables (not optimal); with «optimal», the optimal solver's pruning table («table_size»)",
        )
    }

    fn batch(&self, request: &SolveRequest) -> Option<AppResult<Box<dyn Batch + '_>>> {
        Some(Cube3Batch::new(request).map(|batch| Box::new(batch) as Box<dyn Batch>))
    }

    fn check_bfs(&self, job: &BfsJob) -> AppResult<()> {
        cubes::check_bfs(job, CUBE3)?;
        Self::reduction(job.symmetry).map(|_| ())
    }

    fn bfs(
        &self,
        job: &BfsJob,
        request: &BfsRequest,
        progress: &dyn Progress,
    ) -> AppResult<BfsReport> {
        let metric = cubes::check_bfs(job, CUBE3)?;
        bfs::cube3(metric, Self::reduction(job.symmetry)?, request, progress)
    }

    fn scrambler<'a>(
        &'a self,
        bench: &'a Workbench,
        request: &ScrambleRequest,
        _: &JobLimits,
        progress: &dyn Progress,
    ) -> AppResult<Box<dyn Scrambler + 'a>> {
        let metric = cubes::check_scramble(request, CUBE3)?;
        Ok(match request.moves {
            Some(n) => Box::new(move |rng: &mut StdRng| cube_moves(CUBE3, metric, n as usize, rng)),
            None => {
                let tables = loaded::twophase_tables(bench, progress, None, &mut |notice| {
                    progress.detail(&crate::request::notice_text(&notice))
                })?;
                Box::new(ReadingCache(move |rng: &mut StdRng| {
                    scramble::cube3_uniform(&tables, metric, rng)
                }))
            }
        })
    }

    fn info(&self, query: &InfoQuery) -> AppResult<AnyInfo> {
        let figures = CubeFigures {
            shape: CUBE3,
            pieces: "8 corners, 12 edges, 6 centres that face turns keep in place",
            positions: factorial(8)
                * BigUint::from(3u32).pow(7)
                * factorial(12)
                * BigUint::from(2u32).pow(11)
                / 2u32,
            formula: "8!·3^7·12!·2^11/2",
            classes: Some(CLASSES),
            gods_numbers: &GODS_NUMBERS,
            table_engine: None,
        };
        cubes::info::info(&figures, query)
    }

    fn verifier<'a>(
        &'a self,
        bench: &'a Workbench,
        query: &VerifyQuery,
        progress: &dyn Progress,
        notices: &mut dyn FnMut(Notice),
    ) -> AppResult<Verifier<'a>> {
        let reading = ClaimReading::of(query)?;
        let prover = match query.prove {
            true => {
                let table_size = optimal_table_size(query.table_size.as_deref())?;
                let metric = prover_metric(reading.metric, CUBE3);
                let tables = loaded::optimal_tables(bench, table_size, metric, progress, notices)?;
                Some(Box::new(OptimalProver {
                    tables,
                    timeout: query.timeout,
                }) as Box<dyn CubeProver>)
            }
            false => None,
        };
        Ok(reading.verifier(CUBE3, prover, "«prove» runs the optimal solver"))
    }

    fn replay(&self, request: &ReplayRequest) -> AppResult<Replay> {
        cubes::replay(CUBE3, request)
    }
}
