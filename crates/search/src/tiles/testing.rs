//! What the engines' tests share.

use godsearch_puzzles::tiles::Board;
use rand::Rng;

/// The board `moves` random moves of the blank away from `goal` (moves may undo each other).
pub fn random_walk(goal: &Board, moves: usize, rng: &mut impl Rng) -> Board {
    let mut board = goal.clone();
    for _ in 0..moves {
        let children: Vec<Board> = board.successors().map(|(_, b)| b).collect();
        board = children[rng.gen_range(0..children.len())].clone();
    }
    board
}
