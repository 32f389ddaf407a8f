//! Checking cube solutions: each is replayed from its start (stickers or moves) and the report
//! says whether it solves the cube, its length in every metric, and whether it is shortest
//! where the cube's puzzle has a [`CubeProver`] (the 2x2x2's distance table, the optimal 3x3x3
//! solver).

use super::CubeJob;
use crate::report::VerifyReport;
use crate::verify::Claim;
use crate::{AppError, AppResult};
use godsearch_core::excerpt;
use godsearch_puzzles::cube::algorithm::parse_moves;
use godsearch_puzzles::cube::notation::{apply_moves, Move};
use godsearch_puzzles::cube::{
    parse_position, Algorithm, CubeShape, Metric, Notation, Stickers, Syntax, TurnMetric,
};

/// What tells whether a cube's solution is shortest, in the search metric matching the
/// counting metric ([`prover_metric`]).
pub trait CubeProver {
    /// The distance of `job`'s cube, or a lower bound where the prover gave up. `known`, a
    /// solution in face turns, may spare it work: its length need not be searched.
    fn prove(&self, job: &CubeJob, known: Option<&[Move]>) -> AppResult<Proven>;
}

/// A prover shared with the workbench that keeps it.
impl<P: CubeProver + ?Sized> CubeProver for std::sync::Arc<P> {
    fn prove(&self, job: &CubeJob, known: Option<&[Move]>) -> AppResult<Proven> {
        (**self).prove(job, known)
    }
}

/// What a prover found: the exact distance, or when it gave up, a lower bound.
pub enum Proven {
    /// The exact distance.
    Distance(usize),
    /// At least this far.
    AtLeast(usize),
}

/// Replays `claim` on `shape` from its start (stickers or moves, read by `syntax`) and checks
/// it reaches solved, in any orientation (the moves may turn slices and the whole cube: see
/// [`godsearch_puzzles::cube::algorithm`]); its length in every metric, `length` in `metric`,
/// the moves written in `notation`. `prover` (in the search metric
/// [`prover_metric`] gives) says whether a solution is shortest: exactly, or when the optimal
/// search gives up at a lower bound, yes if the solution is that short.
pub fn cube(
    shape: CubeShape,
    (metric, notation, syntax): (TurnMetric, Notation, Syntax),
    claim: Claim,
    prover: Option<&dyn CubeProver>,
) -> AppResult<VerifyReport> {
    let start = parse_position(shape, claim.start, syntax)
        .map_err(|e| AppError::Input(format!("start '{}': {e}", excerpt(claim.start))))?;
    let moves = Algorithm::parse(claim.moves)
        .and_then(|a| a.for_cube(shape))
        .map_err(|e| AppError::Input(format!("moves '{}': {e}", excerpt(claim.moves))))?;
    let end = moves.apply_stickers(&Stickers::of(&start));
    let reaches_goal = end.solved(shape);
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
        puzzle: shape.to_string(),
        start: shape.write_facelets(&start),
        moves: moves.format(notation),
        end: shape.write_facelets(&end.held(shape)),
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

/// The search metric whose distances are the shortest lengths in `metric` of `shape`: a
/// shortest solution turns no whole cube (so ETM is STM), and without middle layers STM is HTM.
pub fn prover_metric(metric: TurnMetric, shape: CubeShape) -> Metric {
    let search = match metric {
        TurnMetric::Htm => Metric::Htm,
        TurnMetric::Qtm => Metric::Qtm,
        TurnMetric::Stm | TurnMetric::Etm => Metric::Stm,
    };
    search.for_cube(shape)
}
