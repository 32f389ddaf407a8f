//! Checking cube solutions: each is replayed from its start (stickers or moves) and the report
//! says whether it solves the cube, its length in every metric, and whether it is shortest
//! where the 2x2x2's distance table or the optimal 3x3x3 solver can tell ([`CubeProver`]).

use super::solvers::{Cube2Solver, CubeJob};
use crate::report::VerifyReport;
use crate::verify::Claim;
use crate::{AppError, AppResult};
use godsearch_core::excerpt;
use godsearch_puzzles::cube::algorithm::parse_moves;
use godsearch_puzzles::cube::notation::{apply_moves, Move};
use godsearch_puzzles::cube::{
    facelet, parse_position, Algorithm, CubeSize, CubieCube, Metric, Notation, Stickers, Syntax,
    TurnMetric,
};
use godsearch_twophase::optimal::{solve_optimal, OptimalOptions, OptimalTables};
use std::time::{Duration, Instant};

/// What tells whether a cube's solution is shortest, in the search metric matching the
/// counting metric ([`prover_metric`]).
pub enum CubeProver<'a> {
    /// The 2x2x2's complete distance table (descent: microseconds).
    Pocket(&'a Cube2Solver),
    /// The optimal 3x3x3 solver with its pruning table, on the threads of the current rayon
    /// pool; with a timeout, a position it gives up on gets the lower bound it proved.
    Optimal {
        /// The optimal solver's tables.
        tables: &'a OptimalTables,
        /// Give up this long after a position starts.
        timeout: Option<Duration>,
    },
}

/// What a prover found: the exact distance, or when it gave up, a lower bound.
enum Proven {
    Distance(usize),
    AtLeast(usize),
}

impl CubeProver<'_> {
    /// The distance of `job`'s cube, or a lower bound. `known`, a solution in face turns, is
    /// the optimal search's known solution: its length is never searched, so proving it
    /// shortest costs only the shorter bounds.
    fn prove(&self, job: &CubeJob, known: Option<&[Move]>) -> AppResult<Proven> {
        match self {
            CubeProver::Pocket(table) => Ok(Proven::Distance(table.solve(job)?.length)),
            CubeProver::Optimal { tables, timeout } => {
                let options = OptimalOptions {
                    deadline: timeout.and_then(|t| Instant::now().checked_add(t)),
                    all: false,
                    stop: None,
                    known,
                };
                let found =
                    solve_optimal(tables, &job.cube, options).map_err(|source| AppError::Cube {
                        text: excerpt(&job.text),
                        source,
                    })?;
                Ok(match found.solutions.first() {
                    Some(moves) => Proven::Distance(tables.metric().length(moves)),
                    None => Proven::AtLeast(found.lower_bound),
                })
            }
        }
    }
}

/// Replays `claim` on a cube of `size` from its start (stickers or moves, read by `syntax`) and
/// checks it reaches solved, in any orientation (the moves may turn slices and the whole cube:
/// see [`godsearch_puzzles::cube::algorithm`]); its length in every metric, `length` in
/// `metric`, the moves written in `notation`. `prover` (in the search metric
/// [`prover_metric`] gives) says whether a solution is shortest: exactly, or when the optimal
/// search gives up at a lower bound, yes if the solution is that short.
pub fn cube(
    size: CubeSize,
    metric: TurnMetric,
    notation: Notation,
    syntax: Syntax,
    claim: Claim,
    prover: Option<&CubeProver>,
) -> AppResult<VerifyReport> {
    let start = parse_position(size, claim.start, syntax)
        .map_err(|e| AppError::Input(format!("start '{}': {e}", excerpt(claim.start))))?;
    let moves = Algorithm::parse(claim.moves)
        .and_then(|a| a.for_size(size))
        .map_err(|e| AppError::Input(format!("moves '{}': {e}", excerpt(claim.moves))))?;
    let end = moves.apply_stickers(&Stickers::of(&start));
    let reaches_goal = end.solved(size);
    let job = CubeJob {
        text: claim.start.to_string(),
        cube: start,
    };
    // A solution in face turns alone is the optimal search's known solution.
    let known = parse_moves(claim.moves)
        .ok()
        .filter(|m| reaches_goal && apply_moves(&job.cube, m).is_solved());
    let proven = prover
        .map(|p| p.prove(&job, known.as_deref()))
        .transpose()?;
    let length = moves.length(metric);
    let (shortest, lower_bound) = match proven {
        Some(Proven::Distance(d)) => (Some(d), None),
        Some(Proven::AtLeast(b)) => (None, Some(b)),
        None => (None, None),
    };
    let optimal = match (shortest, lower_bound) {
        (Some(s), _) => Some(reaches_goal && length == s),
        (None, Some(b)) if reaches_goal && length <= b => Some(true),
        _ => None,
    };
    let in_metric = |m| Some(moves.length(m));
    Ok(VerifyReport {
        puzzle: size.to_string(),
        start: facelets_of(size, &start),
        moves: moves.format(notation),
        end: facelets_of(size, &end.held(size)),
        reaches_goal,
        problem: (!reaches_goal).then(|| "the cube is not solved at the end".to_string()),
        length,
        metric: metric.name(),
        htm: in_metric(TurnMetric::Htm),
        qtm: in_metric(TurnMetric::Qtm),
        stm: in_metric(TurnMetric::Stm),
        etm: in_metric(TurnMetric::Etm),
        optimal,
        shortest,
        lower_bound,
    })
}

/// The search metric whose distances are the shortest lengths in `metric` of a cube of `size`:
/// a shortest solution turns no whole cube (so ETM is STM), and the 2x2x2 has no middle layer
/// (so STM is HTM there).
pub fn prover_metric(metric: TurnMetric, size: CubeSize) -> Metric {
    let search = match metric {
        TurnMetric::Htm => Metric::Htm,
        TurnMetric::Qtm => Metric::Qtm,
        TurnMetric::Stm | TurnMetric::Etm => Metric::Stm,
    };
    search.for_size(size)
}

fn facelets_of(size: CubeSize, c: &CubieCube) -> String {
    match size {
        CubeSize::Three => facelet::format(c),
        CubeSize::Two => facelet::format_pocket(c),
    }
}
