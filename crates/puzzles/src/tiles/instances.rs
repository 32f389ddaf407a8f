//! Files of boards: one board a line, or `id length tiles...` lines as in Korf's instance files.

use super::board::{is_decimal, split_entries, Board, BoardError, BoardFormat};
use super::shape::Shape;

/// One line of an instance file: a board, with the id and optimal length when the line gives
/// them (`id length tiles...`, exactly two numbers more than the board has cells).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// The instance's name in the file.
    pub id: Option<String>,
    /// The optimal length the file claims.
    pub length: Option<usize>,
    /// The board.
    pub board: Board,
    /// How the line wrote it (to print it back the same way).
    pub format: BoardFormat,
}

/// The comment that declares the goal of an instance file's boards, `# goal: blank-first`,
/// followed by a goal as [`Board::parse_goal`] reads it (a name or a board).
pub const GOAL_DIRECTIVE: &str = "goal:";

/// The goal a line of an instance file declares, when it is a `# goal: ...` comment (the key
/// in lower case, so that prose such as `# Goal of these boards` is not taken for one).
pub fn declared_goal(line: &str) -> Option<&str> {
    let comment = line.trim().strip_prefix('#')?.trim_start();
    comment.strip_prefix(GOAL_DIRECTIVE).map(str::trim)
}

/// Reads the instances of a text, skipping blank lines and `#` comments (a goal the text
/// declares is read by [`declared_goal`]). Each error names its line (1-based).
pub fn parse_instances(shape: Shape, text: &str) -> Result<Vec<Instance>, (usize, BoardError)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, line)| parse_instance(shape, line).map_err(|e| (i + 1, e)))
        .collect()
}

/// Reads one line: a board, or `id length tiles...`.
pub fn parse_instance(shape: Shape, line: &str) -> Result<Instance, BoardError> {
    let tokens = split_entries(line)?;
    if tokens.len() == shape.cells() + 2 && is_decimal(tokens[1]) {
        if let Ok(length) = tokens[1].parse() {
            let board = Board::parse(shape, &tokens[2..].join(" "))?;
            return Ok(Instance {
                id: Some(tokens[0].to_string()),
                length: Some(length),
                board,
                format: BoardFormat::List,
            });
        }
    }
    Ok(Instance {
        id: None,
        length: None,
        board: Board::parse(shape, line)?,
        format: BoardFormat::of_text(shape, line),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_and_korf_lines() {
        let shape = Shape::new(3, 3).unwrap();
        let text = "# comment\n\n1 20 2 4 0 1 8 5 3 6 7\n240185367\n";
        let got = parse_instances(shape, text).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!((got[0].id.as_deref(), got[0].length), (Some("1"), Some(20)));
        assert_eq!(got[0].board, got[1].board);
        assert_eq!(got[1].id, None);
        assert_eq!(
            (got[0].format, got[1].format),
            (BoardFormat::List, BoardFormat::Hex)
        );
        let err = parse_instances(shape, "1 2 3\n").unwrap_err();
        assert_eq!(err.0, 1);
    }

    #[test]
    fn a_goal_is_declared_by_its_own_comment_only() {
        assert_eq!(declared_goal("# goal: blank-first"), Some("blank-first"));
        assert_eq!(
            declared_goal("  #goal:0,1,2,3,4,5,6,7,8 "),
            Some("0,1,2,3,4,5,6,7,8")
        );
        assert_eq!(declared_goal("# Goal: blank FIRST, 0 1 2 3"), None);
        assert_eq!(declared_goal("# the goal: tiles in order"), None);
        assert_eq!(declared_goal("1 20 2 4 0 1 8 5 3 6 7"), None);
        // The files shipped with the instances declare Korf's goal.
        for file in ["korf100.txt", "korf-felner-24.txt"] {
            let text = std::fs::read_to_string(godsearch_testdata::data_dir().join(file)).unwrap();
            let declared: Vec<_> = text.lines().filter_map(declared_goal).collect();
            assert_eq!(declared, ["blank-first"], "{file}");
        }
    }
}
