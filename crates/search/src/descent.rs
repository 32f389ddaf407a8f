//! Optimal solving by table descent.
//!
//! With the distance mod 3 of every position, a position at distance `d > 0` always has a
//! neighbour at `d - 1`, recognisable because its residue is `(d - 1) mod 3`, different from the
//! residues of `d` and `d + 1`. Stepping to such a neighbour until the goal is reached gives a
//! shortest solution, one table lookup per neighbour, with no search at all.

use godsearch_core::{MoveIdx, RankedSpace};
use godsearch_tables::{DistanceMod3, UNREACHED};
use thiserror::Error;

/// Descent failed: the table does not describe this puzzle's positions.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DescentError {
    /// The table has a different number of entries than the puzzle has positions.
    #[error("the table has {table} entries but the puzzle has {puzzle} positions")]
    SizeMismatch {
        /// Entries in the table.
        table: usize,
        /// Positions in the puzzle.
        puzzle: u128,
    },
    /// The start (or a position on the way) was never reached by the enumeration that built the
    /// table, e.g. because it stopped at a depth limit.
    #[error("the position is not in the table (was it built with a depth limit?)")]
    Unreached,
    /// No neighbour is one step closer: the table is inconsistent with the puzzle.
    #[error("no neighbour is one step closer to the goal after {0} moves: the table does not match this puzzle")]
    Stuck(usize),
    /// The walk went on longer than any distance in the table.
    #[error("descent exceeded {0} moves: the table does not match this puzzle")]
    TooLong(usize),
}

/// A shortest move sequence from `start` to a goal, read off a complete distance table.
///
/// Exact: the result has the length of the true distance, provided `table` holds the distance
/// mod 3 of every position of `puzzle` (as built by a complete enumeration from its goal).
/// `max_length` bounds the walk (the table's diameter, or any larger number).
///
/// ```
/// use godsearch_enumerate::{table, Limits, NoProgress};
/// use godsearch_puzzles::tiles::{Board, Move, Shape, TileSpace};
/// use godsearch_search::descend;
/// let shape = Shape::new(3, 3).unwrap();
/// let space = TileSpace::<u64>::new(Board::goal(shape)).unwrap();
/// let limits = Limits {
///     max_depth: None,
///     memory_bytes: 1 << 20,
///     antipode_cap: 0,
///     count_last: false,
/// };
/// let built = table::enumerate(&space, &limits, &NoProgress).unwrap();
/// let start = Board::parse(shape, "8,6,7,2,5,4,3,0,1").unwrap();
/// let moves = descend(&space, &built.table, space.rank(&start), 32).unwrap();
/// assert_eq!(moves.len(), 31); // an antipode
/// let mut board = start;
/// moves.iter().for_each(|&m| assert!(board.apply(Move::from_index(m))));
/// assert_eq!(&board, space.goal());
/// ```
pub fn descend<P: RankedSpace, T: DistanceMod3>(
    puzzle: &P,
    table: &T,
    start: P::State,
    max_length: usize,
) -> Result<Vec<MoveIdx>, DescentError> {
    if table.len() as u128 != puzzle.state_count() {
        return Err(DescentError::SizeMismatch {
            table: table.len(),
            puzzle: puzzle.state_count(),
        });
    }
    let mut at = start;
    let mut moves = Vec::new();
    // The entry of each position on the way is known from the step that reached it.
    let mut here = table.get(puzzle.rank_of(at));
    if here == UNREACHED {
        return Err(DescentError::Unreached);
    }
    while !puzzle.is_goal(at) {
        if moves.len() >= max_length {
            return Err(DescentError::TooLong(max_length));
        }
        let closer = (here + 2) % 3;
        let (mv, next) = puzzle
            .find_neighbour(at, |next| table.get(puzzle.rank_of(next)) == closer)
            .ok_or(DescentError::Stuck(moves.len()))?;
        moves.push(mv);
        at = next;
        here = closer;
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use godsearch_enumerate::{table, Limits, NoProgress};
    use godsearch_puzzles::tiles::{Board, Move, Shape, TileSpace};
    use rand::{Rng, SeedableRng};
    use std::collections::HashMap;

    /// Exact distances by a plain BFS over boards, independent of ranks and tables.
    fn distances(goal: &Board) -> HashMap<Board, usize> {
        let mut dist = HashMap::from([(goal.clone(), 0)]);
        let mut frontier = vec![goal.clone()];
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for b in &frontier {
                let d = dist[b];
                for (_, n) in b.successors() {
                    if !dist.contains_key(&n) {
                        dist.insert(n.clone(), d + 1);
                        next.push(n);
                    }
                }
            }
            frontier = next;
        }
        dist
    }

    #[test]
    fn descent_is_optimal_on_random_boards() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(42);
        for (w, h, goal) in [
            (3, 3, None),
            (2, 4, None),
            (3, 3, Some("1,2,3,4,0,5,6,7,8")),
        ] {
            let shape = Shape::new(w, h).unwrap();
            let goal = goal.map_or_else(|| Board::goal(shape), |g| Board::parse(shape, g).unwrap());
            let sp = TileSpace::<u64>::new(goal.clone()).unwrap();
            let limits = Limits {
                max_depth: None,
                memory_bytes: 1 << 30,
                antipode_cap: 0,
                count_last: false,
            };
            let built = table::enumerate(&sp, &limits, &NoProgress).unwrap();
            let diameter = built.enumeration.levels.len();
            let truth = distances(&goal);
            assert_eq!(truth.len() as u128, sp.state_count());
            for _ in 0..500 {
                let r = rng.gen_range(0..sp.state_count() as u64);
                let start = sp.unrank(r);
                let moves = descend(&sp, &built.table, r, diameter).unwrap();
                assert_eq!(moves.len(), truth[&start], "{start}");
                let mut b = start.clone();
                for &m in &moves {
                    assert!(b.apply(Move::from_index(m)));
                }
                assert_eq!(&b, sp.goal());
            }
        }
    }

    #[test]
    fn partial_or_foreign_tables_are_refused() {
        let sp = TileSpace::<u64>::new(Board::goal(Shape::new(3, 3).unwrap())).unwrap();
        let shallow = Limits {
            max_depth: Some(5),
            memory_bytes: 1 << 30,
            antipode_cap: 0,
            count_last: false,
        };
        let built = table::enumerate(&sp, &shallow, &NoProgress).unwrap();
        let far = sp.rank(&Board::parse(Shape::new(3, 3).unwrap(), "8,6,7,2,5,4,3,0,1").unwrap());
        assert_eq!(
            descend(&sp, &built.table, far, 40),
            Err(DescentError::Unreached)
        );
        let other = TileSpace::<u64>::new(Board::goal(Shape::new(2, 4).unwrap())).unwrap();
        assert!(matches!(
            descend(&other, &built.table, 0, 40),
            Err(DescentError::SizeMismatch { .. })
        ));
    }
}
