//! Board sizes and their names.

use super::moves::Move;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The most cells a board may have (64 x 64): tile numbers are stored as `u16`, and larger
/// boards are beyond any algorithm here.
pub const MAX_CELLS: usize = 4096;

/// The size of a sliding-tile board: `width` columns by `height` rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    width: usize,
    height: usize,
}

/// A board size that cannot be used.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ShapeError {
    /// Not a size at all.
    #[error("'{0}' is not a board size (expected WxH such as 4x4, or 15-puzzle)")]
    Unknown(String),
    /// A side shorter than 2: no tile could ever move past another.
    #[error("a {0}x{1} board is too narrow: both sides must be at least 2")]
    TooNarrow(usize, usize),
    /// More than [`MAX_CELLS`] cells.
    #[error("a {0}x{1} board has {cells} cells, more than the {MAX_CELLS} supported", cells = *.0 as u128 * *.1 as u128)]
    TooLarge(usize, usize),
    /// A side or tile count too large to even hold as a number.
    #[error("'{0}' names a board far larger than the {MAX_CELLS} cells supported")]
    Huge(String),
}

impl Shape {
    /// A `width x height` board, checked against the supported range.
    pub fn new(width: usize, height: usize) -> Result<Self, ShapeError> {
        if width < 2 || height < 2 {
            return Err(ShapeError::TooNarrow(width, height));
        }
        if width.saturating_mul(height) > MAX_CELLS {
            return Err(ShapeError::TooLarge(width, height));
        }
        Ok(Self { width, height })
    }

    /// Number of columns.
    pub fn width(self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(self) -> usize {
        self.height
    }

    /// Number of cells, tiles plus the blank.
    pub fn cells(self) -> usize {
        self.width * self.height
    }

    /// The same board turned on its side (`H x W`); it has the same level counts.
    pub fn transposed(self) -> Self {
        Self {
            width: self.height,
            height: self.width,
        }
    }

    /// The cell next to `cell` in the direction of `mv`, or `None` at the edge.
    pub fn step(self, cell: usize, mv: Move) -> Option<usize> {
        let (row, col) = self.row_col(cell);
        match mv {
            Move::Up if row > 0 => Some(cell - self.width),
            Move::Down if row + 1 < self.height => Some(cell + self.width),
            Move::Left if col > 0 => Some(cell - 1),
            Move::Right if col + 1 < self.width => Some(cell + 1),
            _ => None,
        }
    }

    /// Row and column of a cell.
    pub fn row_col(self, cell: usize) -> (usize, usize) {
        (cell / self.width, cell % self.width)
    }

    /// Row and column steps between two cells.
    pub fn steps(self, a: usize, b: usize) -> usize {
        let ((ra, ca), (rb, cb)) = (self.row_col(a), self.row_col(b));
        ra.abs_diff(rb) + ca.abs_diff(cb)
    }

    /// The board's mirrors, each as the image of every cell: on square boards the main
    /// diagonal's and the other diagonal's first, then the left-right and the up-down mirror.
    /// Each maps the board's moves to its moves, so a position and its mirror image lie as
    /// far from a goal and its mirror image.
    pub fn mirrors(self) -> Vec<Vec<usize>> {
        let (w, h) = (self.width, self.height);
        let square = w == h;
        let mirrors: [(bool, MirrorImage); 4] = [
            (square, |r, c, _, _| (c, r)),
            (square, |r, c, w, h| (w - 1 - c, h - 1 - r)),
            (true, |r, c, w, _| (r, w - 1 - c)),
            (true, |r, c, _, h| (h - 1 - r, c)),
        ];
        mirrors
            .into_iter()
            .filter(|&(fits, _)| fits)
            .map(|(_, image)| {
                (0..self.cells())
                    .map(|cell| {
                        let (r, c) = image(cell / w, cell % w, w, h);
                        r * w + c
                    })
                    .collect()
            })
            .collect()
    }
}

/// Where a mirror takes the cell at `(row, column)` of a board `width` by `height`.
type MirrorImage = fn(usize, usize, usize, usize) -> (usize, usize);

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for Shape {
    type Err = ShapeError;

    /// Accepts `WxH` (`3x3`, `4X4`, `3x4`) and `N-puzzle` where `N + 1` is a square
    /// (`8-puzzle`, `15-puzzle`, `24-puzzle`, ...). Numbers are plain decimal digits; every
    /// size is checked against [`MAX_CELLS`] with checked arithmetic, so no number given here
    /// can overflow or loop.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let unknown = || ShapeError::Unknown(godsearch_core::excerpt(s));
        let lower = s.trim().to_ascii_lowercase();
        if let Some(n) = lower
            .strip_suffix("-puzzle")
            .or_else(|| lower.strip_suffix("puzzle"))
        {
            let tiles = parse_number(n.trim_end_matches('-'), s)?;
            let cells = tiles.checked_add(1).ok_or_else(|| huge(s))?;
            let side = cells.isqrt();
            if side * side != cells {
                return Err(unknown());
            }
            return Shape::new(side, side);
        }
        let (w, h) = lower.split_once('x').ok_or_else(unknown)?;
        Shape::new(parse_number(w, s)?, parse_number(h, s)?)
    }
}

fn huge(name: &str) -> ShapeError {
    ShapeError::Huge(godsearch_core::excerpt(name))
}

/// A side or tile count: decimal digits only (no sign, no spaces), too large a number being a
/// board too large rather than a malformed name.
fn parse_number(digits: &str, name: &str) -> Result<usize, ShapeError> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ShapeError::Unknown(godsearch_core::excerpt(name)));
    }
    digits.parse().map_err(|_| huge(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each mirror is its own inverse and keeps every pair of neighbouring cells neighbours.
    #[test]
    fn mirrors_are_involutions_of_the_grid() {
        for (w, h, count) in [(5, 5, 4), (4, 4, 4), (2, 4, 2), (3, 2, 2)] {
            let shape = Shape::new(w, h).unwrap();
            let mirrors = shape.mirrors();
            assert_eq!(mirrors.len(), count, "{shape}");
            for image in &mirrors {
                for cell in 0..shape.cells() {
                    assert_eq!(image[image[cell]], cell);
                    for mv in [Move::Up, Move::Down, Move::Left, Move::Right] {
                        if let Some(next) = shape.step(cell, mv) {
                            assert_eq!(shape.steps(image[cell], image[next]), 1);
                        }
                    }
                }
                assert_ne!(image, &(0..shape.cells()).collect::<Vec<_>>());
            }
        }
        // The 5x5's main diagonal first: cell 1 (row 0, column 1) goes to cell 5.
        assert_eq!(Shape::new(5, 5).unwrap().mirrors()[0][1], 5);
    }

    #[test]
    fn names_and_aliases() {
        assert_eq!("3x3".parse(), Shape::new(3, 3));
        assert_eq!("8-puzzle".parse(), Shape::new(3, 3));
        assert_eq!("15-puzzle".parse(), Shape::new(4, 4));
        assert_eq!("24-puzzle".parse(), Shape::new(5, 5));
        assert_eq!("3X4".parse(), Shape::new(3, 4));
        let s: Shape = "2x5".parse().unwrap();
        assert_eq!((s.width(), s.height(), s.cells()), (2, 5, 10));
        assert_eq!(s.transposed().to_string(), "5x2");
    }

    #[test]
    fn bad_sizes_are_refused() {
        assert!(matches!(
            "1x5".parse::<Shape>(),
            Err(ShapeError::TooNarrow(1, 5))
        ));
        assert!(matches!(
            "100x100".parse::<Shape>(),
            Err(ShapeError::TooLarge(100, 100))
        ));
        assert!(matches!(
            "cube".parse::<Shape>(),
            Err(ShapeError::Unknown(_))
        ));
        assert!(matches!(
            "10-puzzle".parse::<Shape>(),
            Err(ShapeError::Unknown(_))
        ));
        assert!(matches!("3x".parse::<Shape>(), Err(ShapeError::Unknown(_))));
        assert!(matches!(
            "+3x3".parse::<Shape>(),
            Err(ShapeError::Unknown(_))
        ));
        assert!(matches!(
            "3x 3".parse::<Shape>(),
            Err(ShapeError::Unknown(_))
        ));
    }

    #[test]
    fn enormous_sizes_are_refused_at_once() {
        let err = "99999999999x99999999999".parse::<Shape>().unwrap_err();
        assert!(
            err.to_string().contains("9999999999800000000001 cells"),
            "{err}"
        );
        assert!(matches!(
            "18446744073709551614-puzzle".parse::<Shape>(),
            Err(ShapeError::Unknown(_))
        ));
        assert!(matches!(
            "18446744073709551615-puzzle".parse::<Shape>(),
            Err(ShapeError::Huge(_))
        ));
        assert!(matches!(
            "4294967295-puzzle".parse::<Shape>(),
            Err(ShapeError::TooLarge(65536, 65536))
        ));
        assert!(matches!(
            "123456789012345678901234567890x2".parse::<Shape>(),
            Err(ShapeError::Huge(_))
        ));
    }
}
