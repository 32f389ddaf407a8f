//! Files of boards: one board a line, or `id length tiles...` lines as in Korf's instance files.

use super::board::{
    is_decimal, split_entries, Board, BoardError, BoardFormat, BLANK_FIRST, BLANK_LAST,
};
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

/// A file's goal declarations that cannot be its boards' goal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeclaredGoalError {
    /// A declaration that reads as no board of the size and no goal's name.
    #[error("line {line}: the goal declared, '{text}', is no {shape} board ({error}) and no goal's name ({BLANK_LAST}, {BLANK_FIRST})")]
    NoGoal {
        /// The declaration's line (1-based).
        line: usize,
        /// The goal as declared.
        text: String,
        /// The board size the file's boards are read for.
        shape: Shape,
        /// Why it is no board.
        error: BoardError,
    },
    /// Two declarations of different goals: a file's lengths are for one goal.
    #[error("line {line} declares the goal {text}, and line {first_line} another ({first}): a file's boards have one goal")]
    Differ {
        /// The first declaration's line.
        first_line: usize,
        /// The first goal as declared.
        first: String,
        /// The line of the first declaration that differs from it.
        line: usize,
        /// That goal as declared.
        text: String,
    },
}

/// The goal that the `# goal:` lines among `lines` (numbered, as [`declared_goal`] reads them)
/// declare for boards of `shape`, with the first declaration's line; none where none is
/// declared. Declarations of the same goal written otherwise (a name and its tiles) agree.
pub fn goal_declared<'a>(
    shape: Shape,
    lines: impl IntoIterator<Item = (usize, &'a str)>,
) -> Result<Option<(usize, Board)>, DeclaredGoalError> {
    let mut first: Option<(usize, &str, Board)> = None;
    for (line, text) in lines {
        let Some(text) = declared_goal(text) else {
            continue;
        };
        let goal = Board::parse_goal(shape, text).map_err(|error| DeclaredGoalError::NoGoal {
            line,
            text: text.to_string(),
            shape,
            error,
        })?;
        match &first {
            None => first = Some((line, text, goal)),
            Some((first_line, first, kept)) if *kept != goal => {
                return Err(DeclaredGoalError::Differ {
                    first_line: *first_line,
                    first: first.to_string(),
                    line,
                    text: text.to_string(),
                })
            }
            Some(_) => {}
        }
    }
    Ok(first.map(|(line, _, goal)| (line, goal)))
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

    #[test]
    fn a_files_declarations_name_one_goal() {
        let shape = Shape::new(3, 3).unwrap();
        let numbered = |text: &'static str| text.lines().enumerate().map(|(i, l)| (i + 1, l));
        assert_eq!(
            goal_declared(shape, numbered("1 20 2 4 0 1 8 5 3 6 7")),
            Ok(None)
        );
        // The same goal by its name and by its tiles: the first line is kept.
        let text = "# header\n# goal: blank-first\n1 2 3 4 5 6 7 8 0\n# goal: 0 1 2 3 4 5 6 7 8";
        assert_eq!(
            goal_declared(shape, numbered(text)),
            Ok(Some((2, Board::blank_first(shape))))
        );
        let text = "# goal: BLANK-LAST\n# goal: blank-first";
        assert_eq!(
            goal_declared(shape, numbered(text))
                .unwrap_err()
                .to_string(),
            "line 2 declares the goal blank-first, and line 1 another (BLANK-LAST): a file's \
             boards have one goal"
        );
        let err = goal_declared(shape, numbered("\n# goal: first")).unwrap_err();
        assert!(
            matches!(err, DeclaredGoalError::NoGoal { line: 2, .. }),
            "{err:?}"
        );
        assert!(err
            .to_string()
            .contains("no goal's name (blank-last, blank-first)"));
    }
}
