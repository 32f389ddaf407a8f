//! Boards: reading, writing, moving, and the solvability test.

use super::moves::Move;
use super::shape::Shape;
use godsearch_core::perm;
use std::fmt;
use thiserror::Error;

/// The most cells a board may have to be written as a hex string (one digit a cell).
const HEX_MAX_CELLS: usize = 16;

/// The name of the standard goal ([`Board::goal`]) for any board size.
pub const BLANK_LAST: &str = "blank-last";
/// The name of Korf's goal ([`Board::blank_first`]) for any board size.
pub const BLANK_FIRST: &str = "blank-first";

/// A sliding-tile position: tile numbers row-major, `0` for the blank.
///
/// Always a permutation of `0..cells` (constructors check it); whether it can reach a given goal
/// is a separate question, answered by [`Board::check_solvable`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    shape: Shape,
    cells: Vec<u16>,
    blank: usize,
}

/// Why a board (or a goal) was refused. Each message is one line meant for the user.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum BoardError {
    /// Nothing was given.
    #[error("empty board: give the tiles row by row, e.g. 1,2,3,4,5,6,7,8,0")]
    Empty,
    /// A token that is not a tile number.
    #[error("'{0}' is not a tile number (tiles are numbers, 0 or '.' for the blank)")]
    BadToken(String),
    /// Two commas with nothing between them, or a comma at either end.
    #[error("an empty entry (entry {0}): separate the tiles by single commas or spaces")]
    EmptyEntry(usize),
    /// A hex string of the wrong length.
    #[error("the hex string has {got} digits but a {shape} board has {expected} cells")]
    WrongHexLength {
        /// The text given, cut to an excerpt.
        text: String,
        /// The board size.
        shape: Shape,
        /// Cells on the board.
        expected: usize,
        /// Digits given.
        got: usize,
    },
    /// Too many or too few tiles.
    #[error("a {shape} board has {expected} cells but the board given has {got}")]
    WrongCellCount {
        /// The board size.
        shape: Shape,
        /// Cells on the board.
        expected: usize,
        /// Tiles given.
        got: usize,
    },
    /// A tile number larger than the board allows.
    #[error(
        "tile {tile} is out of range: a {shape} board has tiles 1 to {max} and 0 for the blank"
    )]
    OutOfRange {
        /// The offending number.
        tile: usize,
        /// The largest tile on this board.
        max: usize,
        /// The board size.
        shape: Shape,
    },
    /// A tile given twice, which leaves another one missing.
    #[error("tile {tile} appears more than once and tile {missing} is missing")]
    Duplicate {
        /// The repeated tile.
        tile: usize,
        /// The smallest tile not given.
        missing: usize,
    },
    /// The board cannot reach the goal: their solvability invariants differ.
    #[error("unsolvable: {0}")]
    Unsolvable(Unsolvability),
    /// Board and goal are of different sizes.
    #[error("the board is {board} but the goal is {goal}")]
    ShapeMismatch {
        /// The board's size.
        board: Shape,
        /// The goal's size.
        goal: Shape,
    },
}

/// The parts of a board's solvability invariant ([`Board::parity_invariant`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parity {
    /// Inversions among the tiles read row by row, skipping the blank.
    pub inversions: usize,
    /// The blank's row, which counts only on boards of even width.
    pub blank_row: Option<usize>,
}

impl Parity {
    /// Whether the invariant is odd.
    pub fn odd(self) -> bool {
        (self.inversions + self.blank_row.unwrap_or(0)) % 2 == 1
    }
}

/// Why a board cannot reach a goal: the invariants of the two, which differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unsolvability {
    /// The board's invariant.
    pub board: Parity,
    /// The goal's invariant.
    pub goal: Parity,
}

impl fmt::Display for Unsolvability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parity = |p: Parity| if p.odd() { "odd" } else { "even" };
        let (b, g) = (self.board, self.goal);
        match (b.blank_row, g.blank_row) {
            (Some(row), Some(goal_row)) => write!(
                f,
                "inversions plus the blank's row is {} + {row} ({}) here but {} + {goal_row} ({}) in the goal; on a board of even width every move keeps that parity",
                b.inversions,
                parity(b),
                g.inversions,
                parity(g)
            ),
            _ => write!(
                f,
                "the tiles, read row by row without the blank, have {} inversions ({}) but the goal has {} ({}); on a board of odd width every move keeps that parity",
                b.inversions,
                parity(b),
                g.inversions,
                parity(g)
            ),
        }
    }
}

impl Board {
    /// The standard goal: tiles `1..N` in order and the blank last.
    pub fn goal(shape: Shape) -> Board {
        let n = shape.cells();
        let cells = (1..n as u16).chain([0]).collect();
        Board {
            shape,
            cells,
            blank: n - 1,
        }
    }

    /// Korf's goal: the blank in the top-left corner and tiles `1..N` in order after it
    /// (`0,1,...,N-1`), the goal of his and Felner's published instances.
    pub fn blank_first(shape: Shape) -> Board {
        Board {
            shape,
            cells: (0..shape.cells() as u16).collect(),
            blank: 0,
        }
    }

    /// Reads a goal: a board as [`Board::parse`] reads it, or a goal's name for any size,
    /// [`BLANK_LAST`] (the standard goal) or [`BLANK_FIRST`] (Korf's), in any case.
    pub fn parse_goal(shape: Shape, text: &str) -> Result<Board, BoardError> {
        let name = text.trim();
        if name.eq_ignore_ascii_case(BLANK_LAST) {
            Ok(Board::goal(shape))
        } else if name.eq_ignore_ascii_case(BLANK_FIRST) {
            Ok(Board::blank_first(shape))
        } else {
            Board::parse(shape, text)
        }
    }

    /// A board from its cells, checked to hold each of `0..N` exactly once.
    pub fn from_cells(shape: Shape, cells: Vec<u16>) -> Result<Board, BoardError> {
        let n = shape.cells();
        if cells.len() != n {
            return Err(BoardError::WrongCellCount {
                shape,
                expected: n,
                got: cells.len(),
            });
        }
        let mut seen = vec![false; n];
        let mut repeated = None;
        for &t in &cells {
            let t = t as usize;
            if t >= n {
                return Err(BoardError::OutOfRange {
                    tile: t,
                    max: n - 1,
                    shape,
                });
            }
            if std::mem::replace(&mut seen[t], true) {
                repeated.get_or_insert(t);
            }
        }
        if let Some(tile) = repeated {
            let missing = seen
                .iter()
                .position(|&s| !s)
                .expect("a repeat leaves a gap");
            return Err(BoardError::Duplicate { tile, missing });
        }
        let blank = cells
            .iter()
            .position(|&t| t == 0)
            .expect("every tile is present");
        Ok(Board {
            shape,
            cells,
            blank,
        })
    }

    /// Reads a board: tiles row-major separated by commas, spaces or newlines (a multi-line
    /// grid works), `0`, `.` or `_` for the blank; or, up to 16 cells, a hex string with one
    /// digit a cell (`123456789ABCDEF0`).
    pub fn parse(shape: Shape, text: &str) -> Result<Board, BoardError> {
        let n = shape.cells();
        let tokens = split_entries(text)?;
        let cells = match tokens.as_slice() {
            [] => return Err(BoardError::Empty),
            [one] if is_hex_board(n, one) => {
                if one.len() != n {
                    return Err(BoardError::WrongHexLength {
                        text: godsearch_core::excerpt(one),
                        shape,
                        expected: n,
                        got: one.len(),
                    });
                }
                one.chars()
                    .map(|c| c.to_digit(16).map_or(0, |d| d as u16))
                    .collect()
            }
            many => many
                .iter()
                .map(|t| parse_tile(t, shape))
                .collect::<Result<Vec<_>, _>>()?,
        };
        Board::from_cells(shape, cells)
    }

    /// The board size.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Every board one move away, with the move that reaches it.
    pub fn successors(&self) -> impl Iterator<Item = (Move, Board)> + '_ {
        Move::ALL.into_iter().filter_map(move |m| {
            let mut next = self.clone();
            next.apply(m).then_some((m, next))
        })
    }

    /// The tiles, row-major, `0` for the blank.
    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    /// The blank's cell.
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// The cell the blank would move to, or `None` at the edge.
    pub fn target(&self, mv: Move) -> Option<usize> {
        self.shape.step(self.blank, mv)
    }

    /// Makes a move in place; returns `false` (and changes nothing) if it leaves the board.
    pub fn apply(&mut self, mv: Move) -> bool {
        match self.target(mv) {
            Some(to) => {
                self.cells.swap(self.blank, to);
                self.blank = to;
                true
            }
            None => false,
        }
    }

    /// The tiles read row by row, skipping the blank, as `0..N-1` (tile `t` becomes `t - 1`).
    pub fn tile_sequence(&self) -> impl Iterator<Item = u16> + '_ {
        self.cells.iter().filter(|&&t| t != 0).map(|&t| t - 1)
    }

    /// The solvability invariant: inversion parity of [`tile_sequence`](Self::tile_sequence),
    /// plus the blank's row when the width is even. Kept by every move; two boards reach each
    /// other exactly when their invariants are equal.
    pub fn parity_invariant(&self) -> bool {
        self.inversions_odd() ^ self.blank_row_counts()
    }

    fn inversions(&self) -> usize {
        let seq: Vec<u16> = self.tile_sequence().collect();
        (0..seq.len())
            .map(|i| seq[i + 1..].iter().filter(|&&b| b < seq[i]).count())
            .sum()
    }

    fn inversions_odd(&self) -> bool {
        if self.cells.len() <= u8::MAX as usize {
            let seq: Vec<u8> = self.tile_sequence().map(|t| t as u8).collect();
            perm::is_odd(&seq)
        } else {
            self.inversions() % 2 == 1
        }
    }

    fn blank_row_counts(&self) -> bool {
        self.shape.width() % 2 == 0 && self.shape.row_col(self.blank).0 % 2 == 1
    }

    /// `Ok` when this board can reach `goal`; otherwise the reason, in words.
    pub fn check_solvable(&self, goal: &Board) -> Result<(), BoardError> {
        if self.shape != goal.shape {
            return Err(BoardError::ShapeMismatch {
                board: self.shape,
                goal: goal.shape,
            });
        }
        if self.parity_invariant() == goal.parity_invariant() {
            return Ok(());
        }
        Err(BoardError::Unsolvable(Unsolvability {
            board: self.parity(),
            goal: goal.parity(),
        }))
    }

    /// The parts of the solvability invariant, for messages.
    fn parity(&self) -> Parity {
        Parity {
            inversions: self.inversions(),
            blank_row: (self.shape.width() % 2 == 0).then(|| self.shape.row_col(self.blank).0),
        }
    }

    /// The board as a comma-separated list (`1,2,3,4,5,6,7,8,0`).
    pub fn to_list(&self) -> String {
        self.cells
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The board as a hex string (`123456789ABCDEF0`), for boards of at most 16 cells.
    pub fn to_hex(&self) -> Option<String> {
        (self.cells.len() <= HEX_MAX_CELLS).then(|| {
            self.cells
                .iter()
                .map(|&t| {
                    char::from_digit(t as u32, 16)
                        .expect("below 16")
                        .to_ascii_uppercase()
                })
                .collect()
        })
    }

    /// The board as a grid, one row a line, `.` for the blank (accepted back by [`parse`](Self::parse)).
    pub fn to_grid(&self) -> String {
        let width = (self.cells.len() - 1).to_string().len();
        self.cells
            .chunks(self.shape.width())
            .map(|row| {
                row.iter()
                    .map(|&t| {
                        if t == 0 {
                            format!("{:>width$}", ".")
                        } else {
                            format!("{t:>width$}")
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl fmt::Display for Board {
    /// A comma list (`1,2,3,4,5,6,7,8,0`), for boards of every size.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_list())
    }
}

/// The ways a board is written ([`Board::format`]); each is read back by [`Board::parse`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BoardFormat {
    /// Tiles separated by commas: `1,2,3,4,5,6,7,8,0`.
    #[default]
    List,
    /// One hex digit a cell, for boards of at most 16 cells: `123456789ABCDEF0` (larger boards
    /// are written as a list).
    Hex,
    /// One row a line, `.` for the blank.
    Grid,
}

impl BoardFormat {
    /// The way `text` writes a board of `shape`: hex when [`Board::parse`] reads it as hex,
    /// else a list (a grid typed on one line is a list too).
    pub fn of_text(shape: Shape, text: &str) -> BoardFormat {
        match split_entries(text).as_deref() {
            Ok([one]) if is_hex_board(shape.cells(), one) => BoardFormat::Hex,
            _ => BoardFormat::List,
        }
    }
}

impl Board {
    /// The board written in `format`.
    pub fn format(&self, format: BoardFormat) -> String {
        match format {
            BoardFormat::List => self.to_list(),
            BoardFormat::Hex => self.to_hex().unwrap_or_else(|| self.to_list()),
            BoardFormat::Grid => self.to_grid(),
        }
    }
}

/// Whether one entry is a board of `cells` cells written in hex.
fn is_hex_board(cells: usize, entry: &str) -> bool {
    cells <= HEX_MAX_CELLS && entry.len() > 1 && entry.chars().all(|c| c.is_ascii_hexdigit())
}

/// Splits a board or instance line into its entries: separated by commas or whitespace, a
/// comma with whitespace around it counting as one separator. An entry left empty between two
/// commas, or by a comma at either end, is refused (`1,,2` is not two tiles).
pub(crate) fn split_entries(text: &str) -> Result<Vec<&str>, BoardError> {
    // A JSON array of numbers (`[2,4,0,1,8,5,3,6,7]`), as notebooks and other tools write
    // boards, is the list inside its brackets.
    let trimmed = text.trim();
    let text = trimmed
        .strip_prefix('[')
        .and_then(|inner| inner.strip_suffix(']'))
        .unwrap_or(text);
    let pieces: Vec<&str> = text.split(',').collect();
    let mut entries = Vec::new();
    for piece in &pieces {
        let before = entries.len();
        entries.extend(piece.split_whitespace());
        if pieces.len() > 1 && entries.len() == before {
            return Err(BoardError::EmptyEntry(before + 1));
        }
    }
    Ok(entries)
}

/// Whether `token` is a plain decimal number: digits only, no sign.
pub(crate) fn is_decimal(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit())
}

fn parse_tile(token: &str, shape: Shape) -> Result<u16, BoardError> {
    if token == "." || token == "_" {
        return Ok(0);
    }
    let bad = || BoardError::BadToken(godsearch_core::excerpt(token));
    if !is_decimal(token) {
        return Err(bad());
    }
    let tile: usize = token.parse().map_err(|_| bad())?;
    let n = shape.cells();
    if tile >= n {
        return Err(BoardError::OutOfRange {
            tile,
            max: n - 1,
            shape,
        });
    }
    Ok(tile as u16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::MoveParseError;

    fn s(w: usize, h: usize) -> Shape {
        Shape::new(w, h).unwrap()
    }

    #[test]
    fn reads_lists_hex_and_grids() {
        let a = Board::parse(s(3, 3), "2,4,0,1,8,5,3,6,7").unwrap();
        let b = Board::parse(s(3, 3), "2 4 0\n1 8 5\n3 6 7").unwrap();
        let c = Board::parse(s(3, 3), "240185367").unwrap();
        let d = Board::parse(s(3, 3), "2 4 .\n1 8 5\n3 6 7").unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(a, d);
        assert_eq!(a.blank(), 2);
        let g = Board::parse(s(4, 4), "123456789abcdef0").unwrap();
        assert_eq!(g, Board::goal(s(4, 4)));
        assert_eq!(g.to_hex().unwrap(), "123456789ABCDEF0");
        assert_eq!(Board::parse(s(3, 3), &a.to_grid()).unwrap(), a);
        assert_eq!(Board::parse(s(3, 3), &a.to_list()).unwrap(), a);
    }

    #[test]
    fn goals_are_read_by_name_or_as_boards() {
        let sh = s(5, 5);
        let korf: Vec<u16> = (0..25).collect();
        assert_eq!(Board::parse_goal(sh, "blank-first").unwrap().cells(), korf);
        assert_eq!(Board::parse_goal(sh, " Blank-First ").unwrap().blank(), 0);
        assert_eq!(
            Board::parse_goal(sh, "BLANK-LAST").unwrap(),
            Board::goal(sh)
        );
        let listed = korf
            .iter()
            .map(u16::to_string)
            .collect::<Vec<_>>()
            .join(",");
        assert_eq!(
            Board::parse_goal(sh, &listed).unwrap(),
            Board::blank_first(sh)
        );
        assert_eq!(
            Board::parse_goal(s(3, 3), "8,7,6,5,4,3,2,1,0")
                .unwrap()
                .cells(),
            [8, 7, 6, 5, 4, 3, 2, 1, 0]
        );
        assert_eq!(
            Board::parse_goal(sh, "blank-middle"),
            Err(BoardError::BadToken("blank-middle".into()))
        );
    }

    #[test]
    fn bad_boards_get_specific_errors() {
        let sh = s(3, 3);
        assert_eq!(Board::parse(sh, ""), Err(BoardError::Empty));
        assert!(matches!(
            Board::parse(sh, "1,2,3"),
            Err(BoardError::WrongCellCount { got: 3, .. })
        ));
        assert!(matches!(
            Board::parse(sh, "12345678"),
            Err(BoardError::WrongHexLength { got: 8, .. })
        ));
        assert_eq!(
            Board::parse(sh, "1,2,3,4,5,6,7,8,8"),
            Err(BoardError::Duplicate {
                tile: 8,
                missing: 0
            })
        );
        assert!(matches!(
            Board::parse(sh, "1,2,3,4,5,6,7,8,9"),
            Err(BoardError::OutOfRange { tile: 9, .. })
        ));
        assert_eq!(
            Board::parse(sh, "1,2,3,4,x,6,7,8,0"),
            Err(BoardError::BadToken("x".into()))
        );
        assert_eq!(
            Board::parse(sh, "1,,2,3,4,5,6,7,8,0"),
            Err(BoardError::EmptyEntry(2))
        );
        assert_eq!(
            Board::parse(sh, "1,2,3,4,5,6,7,8,0,"),
            Err(BoardError::EmptyEntry(10))
        );
        assert_eq!(
            Board::parse(sh, "+1,2,3,4,5,6,7,8,0"),
            Err(BoardError::BadToken("+1".into()))
        );
        assert_eq!(
            Board::parse(sh, "1,2,3,4,5,6,7,-8,0"),
            Err(BoardError::BadToken("-8".into()))
        );
        // Commas with spaces around them are one separator.
        assert!(Board::parse(sh, "1, 2 ,3 , 4,5,6,7,8,0").is_ok());
        assert!(matches!(
            Board::from_cells(sh, vec![1, 1, 3, 4, 5, 6, 7, 8, 0]),
            Err(BoardError::Duplicate {
                tile: 1,
                missing: 2
            })
        ));
    }

    #[test]
    fn parity_decides_solvability() {
        let sh = s(3, 3);
        let goal = Board::goal(sh);
        let swapped = Board::parse(sh, "2,1,3,4,5,6,7,8,0").unwrap();
        let err = swapped.check_solvable(&goal).unwrap_err();
        assert!(err.to_string().contains("odd width"), "{err}");
        let sh4 = s(4, 4);
        let swapped4 = Board::parse(sh4, "2,1,3,4,5,6,7,8,9,10,11,12,13,14,15,0").unwrap();
        assert!(swapped4
            .check_solvable(&Board::goal(sh4))
            .unwrap_err()
            .to_string()
            .contains("even width"));
        // Moves never change solvability.
        let mut b = Board::goal(sh4);
        for mv in [Move::Up, Move::Left, Move::Up, Move::Right, Move::Down] {
            assert!(b.apply(mv));
            assert!(b.check_solvable(&Board::goal(sh4)).is_ok());
        }
    }

    #[test]
    fn moves_parse_apply_and_undo() {
        let moves = Move::parse_sequence("u l, d r").unwrap();
        assert_eq!(Move::format_sequence(&moves), "ULDR");
        assert_eq!(Move::parse_sequence("UX"), Err(MoveParseError("X".into())));
        let mut b = Board::goal(s(3, 3));
        assert!(!b.apply(Move::Down));
        assert!(!b.apply(Move::Right));
        for mv in Move::ALL {
            let before = b.clone();
            if b.apply(mv) {
                assert!(b.apply(mv.inverse()));
                assert_eq!(b, before);
            }
            assert_eq!(Move::from_index(mv.index()), mv);
        }
    }
}
