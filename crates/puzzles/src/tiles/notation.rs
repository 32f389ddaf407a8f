//! Writing a board's solution the ways people read it. The native form is the blank's moves
//! (`ULDR`); the same solution is also the tiles that slide, in order (`12 8 4 3`), or the
//! directions those tiles move (`DRUL`: each the opposite of the blank's), and directions may be
//! shortened by run lengths (`R3 U L2`).

use super::board::Board;
use super::moves::Move;

/// The tile that slides at each of `moves` from `start`, or `None` if a move would take the
/// blank off the board.
pub fn tiles_moved(start: &Board, moves: &[Move]) -> Option<Vec<u16>> {
    let mut board = start.clone();
    moves
        .iter()
        .map(|&m| {
            let cell = board.shape().step(board.blank(), m)?;
            let tile = board.cells()[cell];
            board.apply(m).then_some(tile)
        })
        .collect()
}

/// The directions the tiles move: each the opposite of the blank's.
pub fn tile_directions(moves: &[Move]) -> Vec<Move> {
    moves.iter().map(|m| m.inverse()).collect()
}

/// Directions with runs of one letter written once with their length: `RRRULL` is `R3 U L2`.
pub fn with_run_lengths(moves: &[Move]) -> String {
    let mut runs: Vec<(Move, usize)> = Vec::new();
    for &m in moves {
        match runs.last_mut() {
            Some((last, count)) if *last == m => *count += 1,
            _ => runs.push((m, 1)),
        }
    }
    runs.iter()
        .map(|&(m, count)| match count {
            1 => m.letter().to_string(),
            n => format!("{}{n}", m.letter()),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::Shape;

    #[test]
    fn the_same_solution_three_ways() {
        let shape = Shape::new(3, 3).unwrap();
        let start = Board::parse(shape, "1,2,3,4,5,6,7,0,8").unwrap();
        let moves = Move::parse_sequence("R").unwrap();
        assert_eq!(tiles_moved(&start, &moves), Some(vec![8]));
        assert_eq!(Move::format_sequence(&tile_directions(&moves)), "L");
        // From the goal, the blank goes up twice and left twice.
        let goal = Board::goal(shape);
        let walk = Move::parse_sequence("UULL").unwrap();
        assert_eq!(tiles_moved(&goal, &walk), Some(vec![6, 3, 2, 1]));
        assert_eq!(
            tiles_moved(&goal, &Move::parse_sequence("D").unwrap()),
            None
        );
    }

    #[test]
    fn runs_are_written_with_their_length() {
        let moves = Move::parse_sequence("RRRULLD").unwrap();
        assert_eq!(with_run_lengths(&moves), "R3 U L2 D");
        assert_eq!(with_run_lengths(&[]), "");
    }
}
