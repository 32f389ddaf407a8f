//! Scrambles shared by every puzzle: random canonical move sequences ([`random_sequence`]), and
//! uniform random boards. Each puzzle's own scrambles live in its registry module (the cubes'
//! in [`crate::registry::cubes::scramble`]).
//!
//! - A random move sequence follows the puzzle's canonical-sequence automaton, the rule the
//!   searches follow: each move is drawn uniformly among those it allows after the moves before,
//!   so nothing cancels or merges trivially (no step straight back on boards).
//! - A uniform random board is a random arrangement, with two tiles swapped when its parity is
//!   wrong.
//!
//! Every scramble is checked against the position it claims to reach.

use crate::report::Scramble;
use crate::{AppError, AppResult};
use godsearch_core::{MoveIdx, SequenceAutomaton};
use godsearch_puzzles::tiles::{Board, BoardFormat, Move as TileMove, Shape};
use rand::seq::SliceRandom;
use rand::Rng;

/// `n` moves drawn one at a time from `position`, each uniformly among the moves that `order`
/// keeps canonical after the ones before and that `applicable` allows in the position reached
/// (`apply` makes each move drawn). Fails only if some position has no such move.
pub fn random_sequence<S>(
    order: &SequenceAutomaton,
    position: &mut S,
    n: usize,
    rng: &mut impl Rng,
    applicable: impl Fn(&S, MoveIdx) -> bool,
    mut apply: impl FnMut(&mut S, MoveIdx),
) -> AppResult<Vec<MoveIdx>> {
    let mut at = SequenceAutomaton::START;
    let mut moves = Vec::with_capacity(n);
    let mut options = Vec::with_capacity(order.move_count());
    while moves.len() < n {
        options.clear();
        for m in 0..order.move_count() as MoveIdx {
            if let Some(to) = order.next(at, m).filter(|_| applicable(position, m)) {
                options.push((m, to));
            }
        }
        let &(m, to) = options.choose(rng).ok_or_else(|| {
            AppError::Check(format!("no canonical move after {} moves", moves.len()))
        })?;
        apply(position, m);
        moves.push(m);
        at = to;
    }
    Ok(moves)
}

/// A uniform random solvable board of `shape`, or with `walk`, a random canonical walk of the
/// blank of that many moves from the goal (the moves are then the scramble); the position
/// written in `format`.
pub fn board(
    shape: Shape,
    walk: Option<usize>,
    format: BoardFormat,
    rng: &mut impl Rng,
) -> AppResult<Scramble> {
    let goal = Board::goal(shape);
    let (board, moves) = match walk {
        Some(n) => {
            let mut board = goal.clone();
            let drawn = random_sequence(
                &TileMove::sequence_automaton(),
                &mut board,
                n,
                rng,
                |board, m| shape.step(board.blank(), TileMove::from_index(m)).is_some(),
                |board, m| {
                    board.apply(TileMove::from_index(m));
                },
            );
            let moves: Vec<TileMove> = drawn?.into_iter().map(TileMove::from_index).collect();
            (board, Some(TileMove::format_sequence(&moves)))
        }
        None => {
            let mut cells: Vec<u16> = goal.cells().to_vec();
            cells.shuffle(rng);
            let mut board = Board::from_cells(shape, cells.clone()).map_err(checked)?;
            if board.check_solvable(&goal).is_err() {
                let tiles: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] != 0).collect();
                cells.swap(tiles[0], tiles[1]);
                board = Board::from_cells(shape, cells).map_err(checked)?;
            }
            board.check_solvable(&goal).map_err(checked)?;
            (board, None)
        }
    };
    Ok(Scramble {
        puzzle: shape.to_string(),
        length: walk,
        scramble: moves,
        metric: None,
        position: Some(board.format(format)),
    })
}

/// A board this module made that fails its own checks: a bug, not the caller's input.
fn checked(e: impl std::fmt::Display) -> AppError {
    AppError::Check(format!("a random board failed its check: {e}"))
}

/// Uniformly random positions of a definition puzzle over its generators: uniform elements of
/// the group they generate (Schreier-Sims), each with an optimal sequence reaching it where a
/// table of every position fits, and random canonical move sequences.
pub struct DefinitionScrambler {
    puzzle: crate::definitions::DefinitionPuzzle,
    group: godsearch_orbit::group::Group,
    solver: Option<crate::definition_solve::DefinitionSolver>,
    /// The moves random move sequences are drawn from (every power of each generator, or only
    /// quarter turns), with the canonical-sequence automaton they follow: no ranks needed, so
    /// puzzles past 128-bit ranks get sequences too.
    moves: godsearch_orbit::space::SpaceMoves,
    automaton: godsearch_core::SequenceAutomaton,
    metric: crate::definitions::DefinitionMetric,
}

impl DefinitionScrambler {
    /// The scrambler of `puzzle` over `generators` in `metric`; `with_sequences` builds the
    /// table that gives each uniform position its sequence, where it fits.
    pub fn new(
        puzzle: &crate::definitions::DefinitionPuzzle,
        generators: &[String],
        metric: crate::definitions::DefinitionMetric,
        memory_bytes: u64,
        with_sequences: bool,
    ) -> AppResult<Self> {
        use crate::definition_solve::{DefinitionSolveRequest, DefinitionSolver, DESCENT_RANKS};
        use crate::definitions::DefinitionMetric;
        use godsearch_orbit::{automaton, space};
        let quarter = metric == DefinitionMetric::Quarter;
        let moves = space::space_moves(&puzzle.definition, generators, quarter)?;
        let automaton = automaton::of_moves(
            &space::generator_transformations(&moves.moves),
            &puzzle.definition.orbits,
            &moves.moves,
        );
        let fits = match puzzle.space::<u128>(generators, metric) {
            Ok(space) => godsearch_core::RankedSpace::state_count(&space) <= DESCENT_RANKS,
            Err(AppError::OrbitSpace(godsearch_orbit::SpaceError::TooLarge { .. })) => false,
            Err(e) => return Err(e),
        };
        let group = puzzle.group(generators)?;
        let solver = match with_sequences && fits {
            true => {
                let request = DefinitionSolveRequest {
                    generators,
                    metric,
                    memory_bytes,
                    deadline: None,
                    descent_ranks: DESCENT_RANKS,
                    database_ranks: 0,
                    count: 1,
                    table: None,
                    algorithm: Default::default(),
                };
                Some(DefinitionSolver::new(
                    puzzle,
                    &request,
                    &godsearch_core::NoProgress,
                )?)
            }
            false => None,
        };
        Ok(Self {
            puzzle: puzzle.clone(),
            group,
            solver,
            moves,
            automaton,
            metric,
        })
    }

    /// A uniformly random position, with an optimal sequence reaching it where the table fits.
    pub fn uniform(&self, rng: &mut impl Rng) -> AppResult<Scramble> {
        let d = &self.puzzle.definition;
        let pattern = self.group.random(rng).apply(&d.solved, &d.orbits);
        let moves = match &self.solver {
            Some(solver) => Some(solver.reaching(&pattern)?),
            None => None,
        };
        Ok(self.report(moves, &pattern))
    }

    /// `length` random moves, each canonical after the ones before, and the position they make.
    pub fn moves(&self, length: usize, rng: &mut impl Rng) -> AppResult<Scramble> {
        use godsearch_core::{MoveIdx, SequenceAutomaton};
        let d = &self.puzzle.definition;
        let mut state = SequenceAutomaton::START;
        let mut pattern = d.solved.clone();
        let mut names = Vec::with_capacity(length);
        for _ in 0..length {
            let allowed: Vec<(MoveIdx, _)> = (0..self.moves.moves.len() as MoveIdx)
                .filter_map(|m| self.automaton.next(state, m).map(|next| (m, next)))
                .collect();
            let (m, next) = allowed[rng.gen_range(0..allowed.len())];
            state = next;
            let mv = &self.moves.moves[m as usize];
            pattern = mv.transformation.apply(&pattern, &d.orbits);
            names.push(mv.name.clone());
        }
        Ok(self.report(Some(names), &pattern))
    }

    fn report(&self, moves: Option<Vec<String>>, pattern: &godsearch_orbit::Pattern) -> Scramble {
        Scramble {
            puzzle: self.puzzle.name().to_string(),
            length: moves.as_ref().map(Vec::len),
            scramble: moves.map(|m| m.join(" ")),
            metric: Some(self.metric.name()),
            position: Some(godsearch_orbit::kpuzzle::write_pattern(
                pattern,
                &self.puzzle.definition,
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn board_walks_never_step_back_and_reach_their_board() {
        let shape = Shape::new(3, 4).unwrap();
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..50 {
            let s = board(shape, Some(40), BoardFormat::List, &mut rng).unwrap();
            let moves = TileMove::parse_sequence(s.scramble.as_deref().unwrap()).unwrap();
            assert_eq!(moves.len(), 40);
            assert!(moves.windows(2).all(|w| w[1] != w[0].inverse()));
            let mut b = Board::goal(shape);
            assert!(moves.iter().all(|&m| b.apply(m)));
            assert_eq!(s.position.unwrap(), b.to_string());
        }
    }

    #[test]
    fn uniform_boards_are_solvable() {
        let mut rng = StdRng::seed_from_u64(5);
        let shape = Shape::new(4, 4).unwrap();
        for _ in 0..100 {
            let s = board(shape, None, BoardFormat::List, &mut rng).unwrap();
            let b = Board::parse(shape, s.position.as_deref().unwrap()).unwrap();
            assert!(b.check_solvable(&Board::goal(shape)).is_ok());
        }
    }
}
