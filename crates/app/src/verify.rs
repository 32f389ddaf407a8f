//! Checking move sequences, such as another solver's answers: each is replayed from its start,
//! and the report says where it ends, whether that is the goal, its length in every metric, and
//! whether it is shortest where a complete distance table can tell (boards of up to 20 million
//! positions, the 2x2x2). `apply` is the same replay, read for the position it reaches.

use crate::cubes::{Cube2Solver, CubeJob};
use crate::report::VerifyReport;
use crate::tiles::{TableSolver, TileJob};
use crate::{AppError, AppResult};
use godsearch_core::excerpt;
use godsearch_puzzles::cube::{
    facelet, parse_position, Algorithm, CubeSize, CubieCube, Metric, Notation, Stickers, Syntax,
    TurnMetric,
};
use godsearch_puzzles::tiles::{Board, BoardFormat, Move as TileMove};

/// A start and the moves to check, as the user wrote them.
#[derive(Debug, Clone, Copy)]
pub struct Claim<'a> {
    /// The start position.
    pub start: &'a str,
    /// The moves from it.
    pub moves: &'a str,
}

impl<'a> Claim<'a> {
    /// A line of a file of claims: the start and the moves separated by `|` or a tab, or else
    /// by the first run of spaces (so a start written as moves needs `|` or a tab). `None` for
    /// a line with no moves part.
    pub fn from_line(line: &'a str) -> Option<Self> {
        let (start, moves) = line
            .split_once(['|', '\t'])
            .or_else(|| line.trim().split_once(char::is_whitespace))?;
        Some(Claim {
            start: start.trim(),
            moves: moves.trim(),
        })
    }
}

/// Replays `claim` on a board of `goal`'s size and checks it against `goal`; `prover`, a
/// complete distance table of `goal`, says whether a solution is shortest.
pub fn board(goal: &Board, claim: Claim, prover: Option<&TableSolver>) -> AppResult<VerifyReport> {
    let shape = goal.shape();
    let start = Board::parse(shape, claim.start).map_err(|source| AppError::Board {
        text: excerpt(claim.start).to_string(),
        source,
    })?;
    let format = BoardFormat::of_text(shape, claim.start);
    let moves = TileMove::parse_sequence(claim.moves)
        .map_err(|e| AppError::Input(format!("moves '{}': {e}", excerpt(claim.moves))))?;
    let mut end = start.clone();
    let mut problem = None;
    for (k, &m) in moves.iter().enumerate() {
        if !end.apply(m) {
            problem = Some(format!(
                "move {} ({}) would take the blank off the board",
                k + 1,
                m.letter()
            ));
            break;
        }
    }
    let reaches_goal = problem.is_none() && &end == goal;
    let shortest = match prover {
        Some(p) if start.check_solvable(goal).is_ok() => {
            let job = TileJob {
                id: None,
                expected: None,
                board: start.clone(),
                format,
            };
            Some(p.solve(goal, &job)?.length)
        }
        _ => None,
    };
    Ok(VerifyReport {
        puzzle: shape.to_string(),
        start: start.format(format),
        moves: TileMove::format_sequence(&moves),
        end: end.format(format),
        reaches_goal,
        problem: problem.or_else(|| (!reaches_goal).then(|| "it ends elsewhere".to_string())),
        length: moves.len(),
        metric: "moves",
        htm: None,
        qtm: None,
        stm: None,
        etm: None,
        optimal: shortest.map(|s| reaches_goal && moves.len() == s),
        shortest,
    })
}

/// Replays `claim` on a cube of `size` from its start (stickers or moves, read by `syntax`) and
/// checks it reaches solved, in any orientation (the moves may turn slices and the whole cube:
/// see [`godsearch_puzzles::cube::algorithm`]); its length in every metric, `length` in
/// `metric`, the moves written in `notation`. `prover` (a 2x2x2 table in the search metric
/// whose distances equal `metric`'s) says whether a solution is shortest; no 3x3x3 solver here
/// proves that yet.
pub fn cube(
    size: CubeSize,
    metric: TurnMetric,
    notation: Notation,
    syntax: Syntax,
    claim: Claim,
    prover: Option<&Cube2Solver>,
) -> AppResult<VerifyReport> {
    let start = parse_position(size, claim.start, syntax)
        .map_err(|e| AppError::Input(format!("start '{}': {e}", excerpt(claim.start))))?;
    let moves = Algorithm::parse(claim.moves)
        .and_then(|a| a.for_size(size))
        .map_err(|e| AppError::Input(format!("moves '{}': {e}", excerpt(claim.moves))))?;
    let end = moves.apply_stickers(&Stickers::of(&start));
    let reaches_goal = end.solved(size);
    let shortest = match (prover, size) {
        (Some(p), CubeSize::Two) => {
            let job = CubeJob {
                text: claim.start.to_string(),
                cube: start,
            };
            Some(p.solve(&job)?.length)
        }
        _ => None,
    };
    let length = moves.length(metric);
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
        optimal: shortest.map(|s| reaches_goal && length == s),
        shortest,
    })
}

/// The search metric whose distances are a 2x2x2's shortest lengths in `metric`: it has no
/// slices (so STM is HTM) and a shortest solution turns no whole cube (so ETM is HTM).
pub fn cube2_prover_metric(metric: TurnMetric) -> Metric {
    match metric {
        TurnMetric::Qtm => Metric::Qtm,
        TurnMetric::Htm | TurnMetric::Stm | TurnMetric::Etm => Metric::Htm,
    }
}

fn facelets_of(size: CubeSize, c: &CubieCube) -> String {
    match size {
        CubeSize::Three => facelet::format(c),
        CubeSize::Two => facelet::format_pocket(c),
    }
}
