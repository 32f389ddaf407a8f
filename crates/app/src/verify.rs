//! Checking move sequences, such as another solver's answers: each is replayed from its start,
//! and the report says where it ends, whether that is the goal, its length in every metric, and
//! whether it is shortest where a complete distance table can tell (boards of up to 20 million
//! positions, the 2x2x2) or the optimal 3x3x3 solver proves it ([`CubeProver`]). `apply` is
//! the same replay, read for the position it reaches.

use crate::cubes::{Cube2Solver, CubeJob};
use crate::report::VerifyReport;
use crate::tiles::{TableSolver, TileJob};
use crate::{AppError, AppResult};
use godsearch_core::excerpt;
use godsearch_puzzles::cube::algorithm::parse_moves;
use godsearch_puzzles::cube::notation::{apply_moves, Move};
use godsearch_puzzles::cube::{
    facelet, parse_position, Algorithm, CubeSize, CubieCube, Metric, Notation, Stickers, Syntax,
    TurnMetric,
};
use godsearch_puzzles::tiles::{Board, BoardFormat, Move as TileMove};
use godsearch_twophase::optimal::{solve_optimal, OptimalOptions, OptimalTables};
use std::time::{Duration, Instant};

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
