//! Checking move sequences on a definition puzzle: replayed on the definition's own moves from
//! their start, counted in the metric, and proven shortest where a table of every position fits.

use super::file::{self, DefinitionMetric, DefinitionPuzzle};
use super::solve::DefinitionSolver;
use crate::report::VerifyReport;
use crate::verify::Claim;
use crate::{AppError, AppResult};
use godsearch_core::excerpt;

/// Replays a move sequence on a definition puzzle from `claim.start` (moves from solved): where
/// it ends, whether that is solved, its length in `metric` (a move that changes nothing is not
/// counted), and, with `prover`, whether it is shortest.
pub fn definition(
    puzzle: &DefinitionPuzzle,
    metric: DefinitionMetric,
    claim: Claim,
    prover: Option<&DefinitionSolver>,
) -> AppResult<VerifyReport> {
    use godsearch_orbit::{alg, kpuzzle};
    let d = &puzzle.definition;
    let start = file::position(puzzle, claim.start)?;
    let steps = alg::parse(claim.moves, &d.move_names())
        .map_err(|why| AppError::Input(format!("'{}': {why}", excerpt(claim.moves))))?;
    let mut end = start.clone();
    let mut length = 0;
    let mut written = Vec::new();
    for &(m, amount) in &steps {
        let named = &d.moves[m];
        let t = &named.transformation;
        let order = t.order(&d.orbits, u8::MAX as u64).unwrap_or(1).max(1) as i64;
        let turns = amount.rem_euclid(order);
        if turns == 0 {
            continue;
        }
        length += match metric {
            DefinitionMetric::Outer => 1,
            DefinitionMetric::Quarter => turns.min(order - turns) as usize,
        };
        end = t.power(turns as u64, &d.orbits).apply(&end, &d.orbits);
        written.push(match amount {
            1 => named.name.clone(),
            -1 => format!("{}'", named.name),
            a if a < 0 => format!("{}{}'", named.name, -a),
            a => format!("{}{a}", named.name),
        });
    }
    let reaches_goal = end == d.solved;
    let shortest = match prover {
        Some(solver) => Some(solver.solve(&start, claim.start, None)?.length),
        None => None,
    };
    Ok(VerifyReport {
        puzzle: puzzle.name().to_string(),
        start: claim.start.to_string(),
        moves: written.join(" "),
        end: kpuzzle::write_pattern(&end, d),
        reaches_goal,
        problem: (!reaches_goal).then(|| "the pattern reached is not the solved one".to_string()),
        length,
        metric: metric.name(),
        htm: None,
        qtm: None,
        stm: None,
        etm: None,
        optimal: shortest.map(|s| reaches_goal && length == s),
        shortest,
        lower_bound: None,
    })
}
