//! The rules that pick an algorithm, a heuristic and an effort for a board when the user
//! leaves them to godsearch, each with the measurement that justified it, and how a board's
//! solution is written. Every front end uses these; none copies them.

use crate::choice::Algorithm;
use godsearch_puzzles::tiles::{Board, Partition, Shape};

/// Boards of at most this many cells default to A*; larger ones to parallel IDA*.
pub const ASTAR_DEFAULT_MAX_CELLS: usize = 9;
/// Boards with at most this many positions get their distance table built in memory for
/// table descent without a saved table: 2x5 (1,814,400 positions) builds in a fraction of a
/// second; 3x4 (239,500,800) takes many seconds and should be saved once with `bfs --save`.
pub const IN_MEMORY_TABLE_LIMIT: u128 = 20_000_000;
/// Bytes A* spends per stored position (map entry, heap entry, overhead), to turn a memory
/// budget into a position limit.
pub const ASTAR_BYTES_PER_POSITION: u64 = 64;
/// Subgoal effort by board size, chosen to meet the speed targets measured with
/// `godsearch solve WxH --algorithm subgoal --file ...` and `godsearch bench --section subgoal`:
/// 4x4 at effort 8 takes 0.5 ms a board (mean 62.05 moves on Korf's 100); 5x5 at effort 4 takes
/// 2 ms; larger boards at effort 1 take 13 ms (10x10) and 0.35 s (20x20).
const SMALL_BOARD_CELLS: usize = 16;
const MEDIUM_BOARD_CELLS: usize = 25;
const MEDIUM_BOARD_EFFORT: usize = 4;
/// Named partitions, strongest first.
const PARTITIONS_BY_STRENGTH: [&str; 5] = ["7-8", "6-6-3", "5-5-5", "6-6-6-6", "4-4"];

/// How a board's solution is written (`--as`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum SolutionNotation {
    /// The directions the blank moves (U D L R).
    #[default]
    Blank,
    /// The tiles that slide, in order (12 8 4 3 ...).
    Tiles,
    /// The directions the tiles move, each the opposite of the blank's.
    TileDirections,
}

impl SolutionNotation {
    /// Refuses run lengths with [`SolutionNotation::Tiles`]: they are for directions.
    pub fn check_runs(self, runs: bool) -> crate::AppResult<()> {
        if runs && self == SolutionNotation::Tiles {
            return Err(crate::AppError::Input(
                "«runs» is for directions; «as» tiles lists each tile moved".into(),
            ));
        }
        Ok(())
    }
}

/// The algorithm `auto` means for a board: descent when a table is given; IDA* when a deadline
/// is (only IDA* reports a lower bound at a deadline); A* on boards of at most
/// [`ASTAR_DEFAULT_MAX_CELLS`]; parallel IDA* otherwise. Other choices stand; a table with a
/// choice other than `table` is refused.
pub fn tile_algorithm(
    chosen: Algorithm,
    shape: Shape,
    has_table: bool,
    has_deadline: bool,
) -> Result<Algorithm, crate::AppError> {
    Ok(match (chosen, has_table) {
        (Algorithm::Auto | Algorithm::Table, true) => Algorithm::Table,
        (other, true) => {
            return Err(crate::AppError::Input(format!(
                "«table» solves by table descent; it cannot be used with «algorithm» {}",
                other.name()
            )))
        }
        (Algorithm::Auto, false) if has_deadline => Algorithm::ParallelIda,
        (Algorithm::Auto, false) if shape.cells() <= ASTAR_DEFAULT_MAX_CELLS => Algorithm::Astar,
        (Algorithm::Auto, false) => Algorithm::ParallelIda,
        (other, false) => other,
    })
}

/// The subgoal effort for a board when none is given: the published reference method takes
/// each stage's first optimal path (effort 1); subgoal solving tries more plans on small
/// boards, where that is cheap.
pub fn default_effort(algorithm: Algorithm, shape: Shape) -> usize {
    let cells = shape.cells();
    if algorithm == Algorithm::TwoStage {
        1
    } else if cells <= SMALL_BOARD_CELLS {
        godsearch_subgoal::DEFAULT_EFFORT
    } else if cells <= MEDIUM_BOARD_CELLS {
        MEDIUM_BOARD_EFFORT
    } else {
        1
    }
}

/// Named partitions the `auto` heuristic may use for `goal`'s board, strongest first.
pub fn preferred_partitions(goal: &Board) -> Vec<&'static str> {
    let available = Partition::names(goal.shape());
    PARTITIONS_BY_STRENGTH
        .into_iter()
        .filter(|n| available.contains(n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_picks_by_size_deadline_and_table() {
        let small = Shape::new(3, 3).unwrap();
        let large = Shape::new(4, 4).unwrap();
        let pick = |shape, table, deadline| {
            tile_algorithm(Algorithm::Auto, shape, table, deadline).unwrap()
        };
        assert_eq!(pick(small, false, false), Algorithm::Astar);
        assert_eq!(pick(large, false, false), Algorithm::ParallelIda);
        assert_eq!(pick(small, false, true), Algorithm::ParallelIda);
        assert_eq!(pick(large, true, false), Algorithm::Table);
        assert!(tile_algorithm(Algorithm::Ida, small, true, false)
            .unwrap_err()
            .is_bad_input());
    }

    #[test]
    fn partitions_come_strongest_first() {
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let names = preferred_partitions(&goal);
        assert_eq!(names.first(), Some(&"7-8"));
        assert!(names.windows(2).all(|w| {
            let at = |n| PARTITIONS_BY_STRENGTH.iter().position(|&p| p == n);
            at(w[0]) < at(w[1])
        }));
    }
}
