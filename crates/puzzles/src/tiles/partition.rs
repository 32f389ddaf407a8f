//! Partitions of the tiles into disjoint groups, for additive pattern databases.
//!
//! Named partitions are drawn on the cells of a board whose goal has the blank in the top-left
//! corner, and carried to the actual goal by the mirror or half-turn that takes that corner to
//! the goal's blank; the groups are then the goal's tiles on those cells. So `7-8` means the top
//! half and the bottom half for Korf's blank-first goal and for the blank-last goal alike.

use super::board::Board;
use super::pattern::{Pattern, PatternError};
use super::shape::Shape;
use thiserror::Error;

/// A named partition: board size, name, and groups of cells for a top-left blank.
struct Named {
    width: usize,
    height: usize,
    name: &'static str,
    cells: &'static [&'static [u8]],
}

/// The 4x4 shapes were chosen by measurement: over Korf's first 30 instances with reflection,
/// IDA* generates 0.40 million nodes a board with this 6-6-3 against 1.1 to 5.1 million with
/// three other 6-6-3 shapes, and 1.1 million with this 5-5-5 against 1.6 to 3.3 million with
/// five others (`godsearch solve 4x4 --file ... --pdb GROUPS`). The 5x5 `6-6-6-6` is Korf &
/// Felner's (2002, figure 5): two 2x3 blocks, a 3x2 block and the staircase next to the blank.
/// With reflection it generated 2.1 times fewer nodes in all than an earlier shape of ours
/// (groups wrapped around each other) on five random-walk boards of 66 to 80 moves, and
/// solves two 82-move boards in 0.1 s and 18 s where that shape took minutes.
///
/// 4x4 cells:      5x5 cells:
/// ```text
///  0  1  2  3      0  1  2  3  4
///  4  5  6  7      5  6  7  8  9
///  8  9 10 11     10 11 12 13 14
/// 12 13 14 15     15 16 17 18 19
///                 20 21 22 23 24
/// ```
const NAMED: &[Named] = &[
    Named {
        width: 3,
        height: 3,
        name: "4-4",
        cells: &[&[1, 2, 4, 5], &[3, 6, 7, 8]],
    },
    Named {
        width: 4,
        height: 4,
        name: "7-8",
        cells: &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]],
    },
    Named {
        width: 4,
        height: 4,
        name: "6-6-3",
        cells: &[&[1, 4, 5, 8, 9, 12], &[2, 3, 6, 7, 10, 11], &[13, 14, 15]],
    },
    Named {
        width: 4,
        height: 4,
        name: "5-5-5",
        cells: &[&[1, 4, 5, 8, 12], &[2, 3, 6, 7, 11], &[9, 10, 13, 14, 15]],
    },
    Named {
        width: 4,
        height: 4,
        name: "4-4-4-3",
        cells: &[
            &[1, 4, 5, 8],
            &[2, 3, 6, 7],
            &[9, 10, 13, 14],
            &[11, 12, 15],
        ],
    },
    Named {
        width: 5,
        height: 5,
        name: "6-6-6-6",
        cells: &[
            &[1, 5, 6, 10, 11, 12],
            &[2, 3, 4, 7, 8, 9],
            &[13, 14, 18, 19, 23, 24],
            &[15, 16, 17, 20, 21, 22],
        ],
    },
];

/// Why a partition was refused.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PartitionError {
    /// Not a known name and not a list of groups.
    #[error("unknown partition '{name}' for {shape}: named ones are {known}; or give groups like 1,2,3/4,5,6")]
    Unknown {
        /// What was given.
        name: String,
        /// The board size.
        shape: Shape,
        /// The names available for this size.
        known: String,
    },
    /// Named partitions assume the goal's blank in a corner.
    #[error("named partitions need the goal's blank in a corner; give the groups explicitly (1,2,3/4,5,6)")]
    BlankNotInCorner,
    /// A group is not a valid pattern.
    #[error(transparent)]
    Pattern(#[from] PatternError),
    /// A token that is not a tile number.
    #[error("'{0}' is not a tile number in the partition")]
    BadToken(String),
}

/// Disjoint groups of tiles of one board and goal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partition {
    name: String,
    patterns: Vec<Pattern>,
}

impl Partition {
    /// A named partition (`5-5-5`, `6-6-3`, `7-8`, `4-4-4-3` on 4x4, `6-6-6-6` on 5x5, `4-4` on
    /// 3x3) or an explicit one (`1,2,3,4,5/6,7,8,9,10/11,12,13,14,15`) for boards reaching `goal`.
    pub fn parse(text: &str, goal: &Board) -> Result<Self, PartitionError> {
        let shape = goal.shape();
        if text.contains('/') || text.contains(',') {
            return Self::from_groups(text, goal);
        }
        let named = NAMED
            .iter()
            .find(|n| n.name == text && n.width == shape.width() && n.height == shape.height())
            .ok_or_else(|| PartitionError::Unknown {
                name: godsearch_core::excerpt(text),
                shape,
                known: Self::names(shape).join(", "),
            })?;
        let to_goal = corner_map(shape, goal.blank()).ok_or(PartitionError::BlankNotInCorner)?;
        let patterns = named
            .cells
            .iter()
            .map(|cells| {
                let tiles: Vec<u16> = cells
                    .iter()
                    .map(|&c| goal.cells()[to_goal(c as usize)])
                    .collect();
                Pattern::new(goal, &tiles)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Partition {
            name: text.to_string(),
            patterns,
        })
    }

    fn from_groups(text: &str, goal: &Board) -> Result<Self, PartitionError> {
        let mut patterns = Vec::new();
        let mut seen = vec![false; goal.shape().cells()];
        for group in text.split('/') {
            let tiles = group
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|t| !t.is_empty())
                .map(|t| {
                    t.parse::<u16>()
                        .map_err(|_| PartitionError::BadToken(godsearch_core::excerpt(t)))
                })
                .collect::<Result<Vec<_>, _>>()?;
            let pattern = Pattern::new(goal, &tiles)?;
            for &t in &tiles {
                if std::mem::replace(&mut seen[t as usize], true) {
                    return Err(PatternError::Repeated(t as usize).into());
                }
            }
            patterns.push(pattern);
        }
        let name = patterns
            .iter()
            .map(|p| {
                p.tiles()
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect::<Vec<_>>()
            .join("/");
        Ok(Partition { name, patterns })
    }

    /// The names of the named partitions for a board size.
    pub fn names(shape: Shape) -> Vec<&'static str> {
        NAMED
            .iter()
            .filter(|n| n.width == shape.width() && n.height == shape.height())
            .map(|n| n.name)
            .collect()
    }

    /// The name given (or the groups written out, for an explicit partition).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The groups.
    pub fn patterns(&self) -> &[Pattern] {
        &self.patterns
    }
}

/// The map from top-left-blank cells to the goal's cells: identity, mirror or half turn, taking
/// cell 0 to the corner `blank`. `None` when `blank` is not a corner.
fn corner_map(shape: Shape, blank: usize) -> Option<impl Fn(usize) -> usize> {
    let (w, h) = (shape.width(), shape.height());
    let (row, col) = shape.row_col(blank);
    let flip_rows = match row {
        0 => false,
        r if r + 1 == h => true,
        _ => return None,
    };
    let flip_cols = match col {
        0 => false,
        c if c + 1 == w => true,
        _ => return None,
    };
    Some(move |cell: usize| {
        let (r, c) = (cell / w, cell % w);
        let r = if flip_rows { h - 1 - r } else { r };
        let c = if flip_cols { w - 1 - c } else { c };
        r * w + c
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiles(p: &Partition) -> Vec<Vec<u16>> {
        p.patterns().iter().map(|p| p.tiles().to_vec()).collect()
    }

    #[test]
    fn named_partitions_cover_every_tile_once() {
        for n in NAMED {
            let shape = Shape::new(n.width, n.height).unwrap();
            for goal in [Board::goal(shape), {
                let mut cells: Vec<u16> = (0..shape.cells() as u16).collect();
                cells.rotate_left(0);
                Board::from_cells(shape, cells).unwrap()
            }] {
                let p = Partition::parse(n.name, &goal).unwrap();
                let mut all: Vec<u16> = tiles(&p).concat();
                all.sort();
                assert_eq!(
                    all,
                    (1..shape.cells() as u16).collect::<Vec<_>>(),
                    "{}",
                    n.name
                );
            }
        }
    }

    #[test]
    fn seven_eight_is_top_and_bottom_half_for_both_goals() {
        let shape = Shape::new(4, 4).unwrap();
        let blank_first = Board::parse(shape, "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15").unwrap();
        assert_eq!(
            tiles(&Partition::parse("7-8", &blank_first).unwrap())[0],
            vec![1, 2, 3, 4, 5, 6, 7]
        );
        let blank_last = Board::goal(shape);
        let groups = tiles(&Partition::parse("7-8", &blank_last).unwrap());
        assert_eq!(groups[0], vec![15, 14, 13, 12, 11, 10, 9]);
        assert_eq!(groups[1].len(), 8);
    }

    #[test]
    fn explicit_and_bad_partitions() {
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let p = Partition::parse("1,2,3,4,5/6,7,8,9,10/11,12,13,14,15", &goal).unwrap();
        assert_eq!(p.patterns().len(), 3);
        assert_eq!(p.name(), "1,2,3,4,5/6,7,8,9,10/11,12,13,14,15");
        assert!(matches!(
            Partition::parse("1,2/2,3", &goal),
            Err(PartitionError::Pattern(PatternError::Repeated(2)))
        ));
        assert!(matches!(
            Partition::parse("1,x", &goal),
            Err(PartitionError::BadToken(_))
        ));
        assert!(matches!(
            Partition::parse("9-9", &goal),
            Err(PartitionError::Unknown { .. })
        ));
        let centre = Board::parse(Shape::new(3, 3).unwrap(), "1,2,3,4,0,5,6,7,8").unwrap();
        assert_eq!(
            Partition::parse("4-4", &centre),
            Err(PartitionError::BlankNotInCorner)
        );
    }
}
