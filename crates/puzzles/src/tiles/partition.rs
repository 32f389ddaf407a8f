//! Partitions of the tiles into disjoint groups, for additive pattern databases.
//!
//! Named partitions are drawn on the cells of a board whose goal has the blank in the top-left
//! corner, and carried to the actual goal by the mirror or half-turn that takes that corner to
//! the goal's blank; the groups are then the goal's tiles on those cells. So `7-8` means the top
//! half and the bottom half for Korf's blank-first goal and for the blank-last goal alike. A
//! goal whose blank is not in a corner (a board searched backwards, from the goal to it, is
//! one) gets the drawing turned so that a corner lies nearest the blank's cell, and the group
//! drawn over that cell takes the corner instead ([`Partition::parse`]).

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
/// solves two 82-move boards in 0.1 s and 18 s where that shape took minutes. `6-6-6-6b`
/// is a second drawing (a 2x3 block sheared beside the blank, a 3x2 block in the bottom-left
/// corner, two staircases down the right): neither is the stronger in general. On Korf and
/// Taylor's ten boards it expands 0.38 to 0.88 times Korf and Felner's nodes in an iteration
/// on five, 1.09 times on one and 1.7 to 3.2 times on four, the ratio settled from iterations
/// of a few million nodes on (`docs/performance.md`), so a board is best searched with the
/// one that expands fewer in its early iterations.
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
    Named {
        width: 5,
        height: 5,
        name: "6-6-6-6b",
        cells: &[
            &[1, 2, 3, 5, 6, 7],
            &[4, 8, 9, 13, 14, 19],
            &[10, 11, 15, 16, 20, 21],
            &[12, 17, 18, 22, 23, 24],
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
    /// A named partition (`5-5-5`, `6-6-3`, `7-8`, `4-4-4-3` on 4x4, `6-6-6-6` and `6-6-6-6b` on
    /// 5x5, `4-4` on 3x3) or an explicit one (`1,2,3,4,5/6,7,8,9,10/11,12,13,14,15`) for boards
    /// reaching `goal`.
    /// A named one is drawn for a goal with its blank anywhere: for a corner as drawn, mirrored
    /// or turned; for any other cell from the turn of the drawing whose blank corner lies
    /// nearest that cell, the group drawn over it taking the corner instead. Every partition
    /// gives admissible databases; the drawings only decide how strong they are.
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
        let patterns = drawn_for(shape, named.cells, goal.blank())
            .iter()
            .map(|cells| {
                let tiles: Vec<u16> = cells.iter().map(|&c| goal.cells()[c]).collect();
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

    /// This partition's mirror image for `goal`, the second partition of a reflected lookup
    /// where no mirror of the board keeps the goal's blank on its cell: each group's home cells
    /// taken through the mirror ([`Shape::mirrors`]) that moves the blank's cell the fewest row
    /// and column steps (the first such), and named by the tiles `goal` has there. The group
    /// that would take in the blank's own cell takes the cell the mirror moves it to instead
    /// (the one cell no image covers). Its groups have this partition's sizes, in its order, and
    /// cover the same tiles; its databases are built for `goal` like any partition's.
    pub fn mirror_image(&self, goal: &Board) -> Partition {
        let shape = goal.shape();
        let blank = goal.blank();
        let mirror = shape
            .mirrors()
            .into_iter()
            .min_by_key(|image| shape.steps(blank, image[blank]))
            .expect("every board has its left-right and up-down mirrors");
        let mut home = vec![0usize; shape.cells()];
        for (cell, &t) in goal.cells().iter().enumerate() {
            home[t as usize] = cell;
        }
        let patterns = self
            .patterns
            .iter()
            .map(|p| {
                let tiles: Vec<u16> = p
                    .tiles()
                    .iter()
                    .map(|&t| {
                        let image = mirror[home[t as usize]];
                        let cell = if image == blank { mirror[blank] } else { image };
                        goal.cells()[cell]
                    })
                    .collect();
                // The mirror is one-to-one on cells and no image is the blank's cell, so the
                // tiles are distinct, none is the blank, and there are as many as before.
                Pattern::new(goal, &tiles).expect("a mirror image of a valid group")
            })
            .collect();
        Partition {
            name: format!("{} mirrored", self.name),
            patterns,
        }
    }
}

/// One of a board's symmetries, as a map of its cells: rows flipped, columns flipped, and (on
/// square boards only) rows and columns swapped first.
#[derive(Debug, Clone, Copy)]
struct Symmetry {
    transpose: bool,
    flip_rows: bool,
    flip_cols: bool,
}

impl Symmetry {
    /// The board's symmetries: the four mirrors and half turn first (so that a corner blank
    /// keeps the drawing it always had), then on square boards the four that swap rows and
    /// columns.
    fn of(shape: Shape) -> Vec<Symmetry> {
        let square = shape.width() == shape.height();
        [false, true]
            .into_iter()
            .filter(|&transpose| square || !transpose)
            .flat_map(|transpose| {
                [(false, false), (false, true), (true, false), (true, true)].map(
                    |(flip_rows, flip_cols)| Symmetry {
                        transpose,
                        flip_rows,
                        flip_cols,
                    },
                )
            })
            .collect()
    }

    fn apply(self, shape: Shape, cell: usize) -> usize {
        let (w, h) = (shape.width(), shape.height());
        let (r, c) = shape.row_col(cell);
        let (r, c) = if self.transpose { (c, r) } else { (r, c) };
        let r = if self.flip_rows { h - 1 - r } else { r };
        let c = if self.flip_cols { w - 1 - c } else { c };
        r * w + c
    }
}

/// The groups of cells of a drawing for a top-left blank (`drawing`), carried to a goal whose
/// blank is on cell `blank`. A corner blank takes the first symmetry that moves cell 0 there.
/// Any other takes, of every symmetry, the one whose image of cell 0 (a corner, now free) is
/// nearest, in row and column steps, to the other cells of the group drawn over `blank`; that
/// group then holds the corner instead of `blank`. Ties go to the first symmetry.
fn drawn_for(shape: Shape, drawing: &[&[u8]], blank: usize) -> Vec<Vec<usize>> {
    let mut best: Option<(usize, Vec<Vec<usize>>)> = None;
    for symmetry in Symmetry::of(shape) {
        let corner = symmetry.apply(shape, 0);
        let mut groups: Vec<Vec<usize>> = drawing
            .iter()
            .map(|cells| {
                cells
                    .iter()
                    .map(|&c| symmetry.apply(shape, c as usize))
                    .collect()
            })
            .collect();
        let mut distance = 0;
        if let Some(group) = groups.iter_mut().find(|g| g.contains(&blank)) {
            distance = group.iter().map(|&c| shape.steps(corner, c)).sum();
            for cell in group.iter_mut().filter(|c| **c == blank) {
                *cell = corner;
            }
        }
        if best.as_ref().is_none_or(|(d, _)| distance < *d) {
            best = Some((distance, groups));
        }
    }
    best.map(|(_, groups)| groups).unwrap_or_default()
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
    }

    /// A goal with its blank on `blank` and the tiles in order around it.
    fn goal_with_blank_on(shape: Shape, blank: usize) -> Board {
        let mut cells: Vec<u16> = (1..shape.cells() as u16).collect();
        cells.insert(blank, 0);
        Board::from_cells(shape, cells).unwrap()
    }

    #[test]
    fn named_partitions_are_drawn_for_a_blank_on_any_cell() {
        for n in NAMED {
            let shape = Shape::new(n.width, n.height).unwrap();
            for blank in 0..shape.cells() {
                let goal = goal_with_blank_on(shape, blank);
                let p = Partition::parse(n.name, &goal).unwrap();
                let mut all: Vec<u16> = tiles(&p).concat();
                all.sort();
                assert_eq!(all, (1..shape.cells() as u16).collect::<Vec<_>>());
                let sizes: Vec<usize> = tiles(&p).iter().map(Vec::len).collect();
                let drawn: Vec<usize> = n.cells.iter().map(|c| c.len()).collect();
                assert_eq!(sizes, drawn, "{} with the blank on {blank}", n.name);
            }
        }
        // Korf and Felner's 6-6-6-6 for a blank in the centre: the staircase gives up cell 12
        // for the top-left corner and becomes a 2x3 block.
        let shape = Shape::new(5, 5).unwrap();
        let centre = goal_with_blank_on(shape, 12);
        let groups = tiles(&Partition::parse("6-6-6-6", &centre).unwrap());
        let cells_of = |tiles: &[u16]| -> Vec<u16> {
            let mut c: Vec<u16> = tiles
                .iter()
                .map(|&t| if t <= 12 { t - 1 } else { t })
                .collect();
            c.sort();
            c
        };
        assert_eq!(cells_of(&groups[0]), vec![0, 1, 5, 6, 10, 11]);
    }

    #[test]
    fn mirror_images_cover_the_same_tiles_in_mirrored_groups() {
        for n in NAMED {
            let shape = Shape::new(n.width, n.height).unwrap();
            for blank in 0..shape.cells() {
                let goal = goal_with_blank_on(shape, blank);
                let p = Partition::parse(n.name, &goal).unwrap();
                let image = p.mirror_image(&goal);
                let mut all: Vec<u16> = tiles(&image).concat();
                all.sort();
                assert_eq!(all, (1..shape.cells() as u16).collect::<Vec<_>>());
                let home = |t: u16| goal.cells().iter().position(|&x| x == t).unwrap();
                // Some mirror takes every group's homes to its image's, but for at most one
                // cell a group (the blank's swap).
                let mirrored = shape.mirrors().into_iter().any(|mirror| {
                    tiles(&p).iter().zip(tiles(&image)).all(|(group, imaged)| {
                        let moved = group
                            .iter()
                            .zip(&imaged)
                            .filter(|&(&t, &u)| mirror[home(t)] != home(u))
                            .count();
                        group.len() == imaged.len() && moved <= 1
                    })
                });
                assert!(mirrored, "{} blank {blank}", n.name);
            }
        }
        // Korf and Felner's goal: the main diagonal keeps the blank, and the image of the group
        // on the top row's 2x3 block is the left column's 3x2 block.
        let shape = Shape::new(5, 5).unwrap();
        let goal = Board::from_cells(shape, (0..25).collect()).unwrap();
        let p = Partition::parse("6-6-6-6", &goal).unwrap();
        let image = p.mirror_image(&goal);
        assert_eq!(image.name(), "6-6-6-6 mirrored");
        for (group, imaged) in tiles(&p).iter().zip(tiles(&image)) {
            let transposed: Vec<u16> = group.iter().map(|&t| (t % 5) * 5 + t / 5).collect();
            assert_eq!(imaged, transposed);
        }
    }
}
