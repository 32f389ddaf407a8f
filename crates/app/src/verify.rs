//! Checking move sequences, such as another solver's answers: each is replayed from its start,
//! and the report says where it ends, whether that is the goal, its length in every metric, and
//! whether it is shortest where a complete distance table can tell (boards of up to 20 million
//! positions) or a solver proves it. `apply` is the same replay, read for the position it
//! reaches. The cubes' check is in their registry module
//! ([`crate::registry::cubes::verify`]).

use crate::report::VerifyReport;
use crate::tiles::{TableSolver, TileJob};
use crate::{AppError, AppResult};
use godsearch_core::excerpt;
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
        lower_bound: None,
    })
}

/// Replays a move sequence on a definition puzzle from `claim.start` (moves from solved): where
/// it ends, whether that is solved, its length in `metric` (a move that changes nothing is not
/// counted), and, with `prover`, whether it is shortest.
pub fn definition(
    puzzle: &crate::definitions::DefinitionPuzzle,
    metric: crate::definitions::DefinitionMetric,
    claim: Claim,
    prover: Option<&crate::definition_solve::DefinitionSolver>,
) -> AppResult<VerifyReport> {
    use godsearch_orbit::{alg, kpuzzle};
    let d = &puzzle.definition;
    let start = crate::definitions::position(puzzle, claim.start)?;
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
            crate::definitions::DefinitionMetric::Outer => 1,
            crate::definitions::DefinitionMetric::Quarter => turns.min(order - turns) as usize,
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
