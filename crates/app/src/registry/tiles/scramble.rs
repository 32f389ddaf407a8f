//! Scrambled boards: uniformly random solvable boards (a random arrangement, two tiles swapped
//! when its parity is wrong) and random canonical walks of the blank, each checked against the
//! board it claims to reach.

use crate::report::Scramble;
use crate::scramble::random_sequence;
use crate::{AppError, AppResult};
use godsearch_puzzles::tiles::{Board, BoardFormat, Move as TileMove};
use rand::seq::SliceRandom;
use rand::Rng;

/// A uniform random board that can reach `goal`, or with `walk`, a random canonical walk of
/// the blank of that many moves from `goal` (the moves are then the scramble); the position
/// written in `format`.
pub fn board(
    goal: &Board,
    walk: Option<usize>,
    format: BoardFormat,
    rng: &mut impl Rng,
) -> AppResult<Scramble> {
    let shape = goal.shape();
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
            if board.check_solvable(goal).is_err() {
                let tiles: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] != 0).collect();
                cells.swap(tiles[0], tiles[1]);
                board = Board::from_cells(shape, cells).map_err(checked)?;
            }
            board.check_solvable(goal).map_err(checked)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use godsearch_puzzles::tiles::Shape;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn board_walks_never_step_back_and_reach_their_board() {
        let shape = Shape::new(3, 4).unwrap();
        let mut rng = StdRng::seed_from_u64(3);
        for goal in [Board::goal(shape), Board::blank_first(shape)] {
            for _ in 0..50 {
                let s = board(&goal, Some(40), BoardFormat::List, &mut rng).unwrap();
                let moves = TileMove::parse_sequence(s.scramble.as_deref().unwrap()).unwrap();
                assert_eq!(moves.len(), 40);
                assert!(moves.windows(2).all(|w| w[1] != w[0].inverse()));
                let mut b = goal.clone();
                assert!(moves.iter().all(|&m| b.apply(m)));
                assert_eq!(s.position.unwrap(), b.to_string());
            }
        }
    }

    /// Uniform boards reach the goal they are drawn for; on the 4x4 (even width) no board that
    /// reaches Korf's goal reaches the standard one (the blank's rows differ by three), so a
    /// draw for the one goal is no draw for the other.
    #[test]
    fn uniform_boards_are_solvable_for_their_goal() {
        let mut rng = StdRng::seed_from_u64(5);
        let shape = Shape::new(4, 4).unwrap();
        for (goal, other) in [
            (Board::goal(shape), Board::blank_first(shape)),
            (Board::blank_first(shape), Board::goal(shape)),
        ] {
            let mut for_the_other = 0;
            for _ in 0..100 {
                let s = board(&goal, None, BoardFormat::List, &mut rng).unwrap();
                let b = Board::parse(shape, s.position.as_deref().unwrap()).unwrap();
                assert!(b.check_solvable(&goal).is_ok());
                for_the_other += usize::from(b.check_solvable(&other).is_ok());
            }
            assert_eq!(
                for_the_other, 0,
                "on the 4x4 the two goals differ in parity"
            );
        }
    }
}
