//! Checking move sequences on boards: replayed from their start against the goal, and proven
//! shortest or not by a complete distance table where one is given.

use super::solvers::{TableSolver, TileJob};
use crate::report::VerifyReport;
use crate::verify::Claim;
use crate::{AppError, AppResult};
use godsearch_core::excerpt;
use godsearch_puzzles::tiles::{Board, BoardFormat, Move as TileMove};

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
        lower_bound: None,
    })
}
