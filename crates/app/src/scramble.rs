//! Scrambles: uniform random positions, or random canonical move sequences, of every puzzle.
//!
//! - A uniform random 3x3x3 is drawn coordinate by coordinate ([`random_cube`]), solved by the
//!   two-phase method and given as the inverse of that solution: a scramble of at most
//!   [`SCRAMBLE_MAX_LENGTH`] moves that reaches it.
//! - A uniform random 2x2x2 is a uniform rank, given as the inverse of its optimal solution.
//! - A uniform random board is a random arrangement, with two tiles swapped when its parity is
//!   wrong.
//! - A random move sequence ([`random_sequence`]) follows the puzzle's canonical-sequence
//!   automaton, the rule the searches follow: each move is drawn uniformly among those it allows
//!   after the moves before, so nothing cancels or merges trivially (no face twice in a row and
//!   opposite faces in one order on cubes, no step straight back on boards). In the quarter-turn
//!   metric the automaton allows `U U`, which is written `U2` (two quarter turns).
//!
//! - In the slice-turn metric a 3x3x3 scramble is written with slices (`M E S`), which turn the
//!   whole cube with them; the position given is the one the written scramble leaves as held.
//!
//! Every scramble is checked against the position it claims to reach.

use crate::report::Scramble;
use crate::{AppError, AppResult};
use godsearch_core::{MoveIdx, SequenceAutomaton};
use godsearch_puzzles::cube::algorithm::held_form;
use godsearch_puzzles::cube::cube2::CUBE2_POSITIONS;
use godsearch_puzzles::cube::notation::{
    apply_moves, format_moves, invert_moves, merge_same_face, with_slices,
};
use godsearch_puzzles::cube::{
    facelet, random_cube, Cube2Space, CubeSize, CubieCube, Metric, Move, CUBE2_MAX_DISTANCE,
};
use godsearch_puzzles::tiles::{Board, BoardFormat, Move as TileMove, Shape};
use godsearch_search::descend;
use godsearch_tables::TwoBitTable;
use godsearch_twophase::{solve, Options, Tables};
use rand::seq::SliceRandom;
use rand::Rng;

/// Two-phase scrambles are at most this long (every position has a solution this short).
pub const SCRAMBLE_MAX_LENGTH: usize = 20;

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

/// A scramble's text in `metric` and the cube it leaves as held: the moves as they are, or in
/// the slice-turn metric written with slices ([`held_form`]), read back and replayed on the
/// stickers (the slices turn the cube, so the cube as held is a turned copy of `reached`, the
/// cube of the moves with the centres fixed). Fails only on a bug.
fn scramble_text(
    moves: &[Move],
    metric: Metric,
    reached: CubieCube,
) -> AppResult<(String, CubieCube)> {
    if metric != Metric::Stm {
        return Ok((format_moves(moves), reached));
    }
    let written = held_form(moves);
    let held = written
        .apply_held(CubeSize::Three, &CubieCube::SOLVED)
        .map_err(|e| AppError::Check(format!("a scramble written with slices: {e}")))?;
    Ok((written.to_string(), held))
}

/// `n` random moves of `metric` (a canonical sequence; see the module doc).
pub fn cube_moves(
    size: CubeSize,
    metric: Metric,
    n: usize,
    rng: &mut impl Rng,
) -> AppResult<Scramble> {
    let generators = metric.moves();
    let mut cube = CubieCube::SOLVED;
    let drawn = random_sequence(
        &metric.sequence_automaton(),
        &mut cube,
        n,
        rng,
        |_, _| true,
        |cube, k| *cube = cube.then(&generators[k as usize].cubie()),
    )
    .expect("every face turn applies to every cube");
    let turns: Vec<Move> = drawn.iter().map(|&k| generators[k as usize]).collect();
    let moves = merge_same_face(&turns);
    debug_assert_eq!(apply_moves(&CubieCube::SOLVED, &moves), cube);
    let (text, held) = scramble_text(&moves, metric, cube)?;
    Ok(Scramble {
        puzzle: size.to_string(),
        scramble: Some(text),
        length: Some(metric.length(&moves)),
        metric: Some(metric.name()),
        position: (size == CubeSize::Three).then(|| facelet::format(&held)),
    })
}

/// A uniform random 3x3x3 with a two-phase scramble of at most [`SCRAMBLE_MAX_LENGTH`] moves
/// (counted in `metric`).
pub fn cube3_uniform(tables: &Tables, metric: Metric, rng: &mut impl Rng) -> AppResult<Scramble> {
    let cube = random_cube(rng);
    let options = Options {
        target_length: SCRAMBLE_MAX_LENGTH,
        deadline: None,
        stop: None,
    };
    let solution = solve(tables, &cube, options).map_err(|source| AppError::Cube {
        text: facelet::format(&cube),
        source,
    })?;
    let mut moves = invert_moves(&solution.moves);
    if metric == Metric::Stm {
        moves = with_slices(&moves);
    }
    if apply_moves(&CubieCube::SOLVED, &moves) != cube {
        return Err(AppError::Check(
            "the scramble does not reach the position".into(),
        ));
    }
    let (text, held) = scramble_text(&moves, metric, cube)?;
    Ok(Scramble {
        puzzle: CubeSize::Three.to_string(),
        length: Some(metric.length(&moves)),
        scramble: Some(text),
        metric: Some(metric.name()),
        position: Some(facelet::format(&held)),
    })
}

/// A uniform random 2x2x2 with an optimal scramble in the metric of `space`, read from its
/// complete distance `table`.
pub fn cube2_uniform(
    space: &Cube2Space,
    table: &TwoBitTable,
    rng: &mut impl Rng,
) -> AppResult<Scramble> {
    let rank = rng.gen_range(0..CUBE2_POSITIONS);
    let path = descend(space, table, rank, CUBE2_MAX_DISTANCE)?;
    let solution: Vec<Move> = path.iter().map(|&k| space.moves()[k as usize]).collect();
    let moves = merge_same_face(&invert_moves(&solution));
    if space.rank(&apply_moves(&CubieCube::SOLVED, &moves)) != rank {
        return Err(AppError::Check(
            "the scramble does not reach the position".into(),
        ));
    }
    let metric = space.metric();
    Ok(Scramble {
        puzzle: CubeSize::Two.to_string(),
        length: Some(metric.length(&moves)),
        scramble: Some(format_moves(&moves)),
        metric: Some(metric.name()),
        position: None,
    })
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
    use godsearch_puzzles::cube::algorithm::parse_moves;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn move_scrambles_are_canonical_and_reach_their_position() {
        let mut rng = StdRng::seed_from_u64(7);
        for metric in [Metric::Htm, Metric::Qtm] {
            let order = metric.sequence_automaton();
            for _ in 0..50 {
                let s = cube_moves(CubeSize::Three, metric, 30, &mut rng).unwrap();
                assert_eq!(s.length, Some(30), "{metric:?}: {s:?}");
                let moves = parse_moves(s.scramble.as_deref().unwrap()).unwrap();
                // Written with U2 for two quarter turns; as quarter turns it is canonical.
                let turns: Vec<MoveIdx> = moves
                    .iter()
                    .flat_map(|&m| match metric.index_of(m) {
                        Some(k) => vec![k],
                        None => vec![metric.index_of(Move { turns: 1, ..m }).unwrap(); 2],
                    })
                    .collect();
                assert!(order.state_after(&turns).is_some(), "{s:?}");
                let cube = apply_moves(&CubieCube::SOLVED, &moves);
                assert_eq!(s.position.unwrap(), facelet::format(&cube));
            }
        }
    }

    #[test]
    fn slice_turn_scrambles_are_written_with_slices_and_reach_their_position() {
        use godsearch_puzzles::cube::{Algorithm, TurnMetric};
        let mut rng = StdRng::seed_from_u64(8);
        let mut slices = 0;
        for _ in 0..50 {
            let s = cube_moves(CubeSize::Three, Metric::Stm, 25, &mut rng).unwrap();
            assert_eq!(s.length, Some(25));
            let written = Algorithm::parse(s.scramble.as_deref().unwrap()).unwrap();
            assert_eq!(written.length(TurnMetric::Stm), 25, "{s:?}");
            assert_eq!(written.length(TurnMetric::Etm), 25, "no rotation: {s:?}");
            slices += written.face_turns().is_none() as usize;
            let held = written
                .apply_held(CubeSize::Three, &CubieCube::SOLVED)
                .unwrap();
            assert_eq!(s.position.unwrap(), facelet::format(&held));
        }
        assert!(slices > 40, "most 25-move scrambles turn a middle layer");
    }

    #[test]
    fn quarter_turn_scrambles_merge_a_face_turned_twice() {
        let mut rng = StdRng::seed_from_u64(1);
        let merged = (0..200)
            .map(|_| cube_moves(CubeSize::Two, Metric::Qtm, 20, &mut rng).unwrap())
            .filter(|s| s.scramble.as_deref().unwrap().contains('2'))
            .count();
        assert!(merged > 0, "U U should come up and be written U2");
    }

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
    fn uniform_boards_are_solvable_and_cube2_scrambles_reach_their_rank() {
        let mut rng = StdRng::seed_from_u64(5);
        let shape = Shape::new(4, 4).unwrap();
        for _ in 0..100 {
            let s = board(shape, None, BoardFormat::List, &mut rng).unwrap();
            let b = Board::parse(shape, s.position.as_deref().unwrap()).unwrap();
            assert!(b.check_solvable(&Board::goal(shape)).is_ok());
        }
        let space = Cube2Space::new(Metric::Htm);
        let (table, _) = crate::tables::table_in_memory(&space).unwrap();
        for _ in 0..20 {
            let s = cube2_uniform(&space, &table, &mut rng).unwrap();
            assert!(s.length.unwrap() <= 11);
        }
    }
}
