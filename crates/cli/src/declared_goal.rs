//! The goal a file of boards declares in a comment line (`# goal: blank-first`, as Korf's
//! instance files do), which `solve --file` and `verify --file` take where `--goal` is left out.

use crate::errors::{bad_input, InputError};
use crate::input::{lines, STDIN};
use anyhow::Result;
use godsearch_app::registry::tiles;
use std::path::Path;

/// The lines of the file at `path` that declare a goal, with their numbers, read ahead of its
/// boards; none for standard input, which is read only once, as its boards are.
fn declarations(path: &Path) -> Result<Vec<(usize, String)>> {
    if path.as_os_str() == STDIN {
        return Ok(Vec::new());
    }
    let mut lines = lines(path)?;
    lines.comments = true;
    let mut declarations = Vec::new();
    for line in lines {
        let (number, line) = line?;
        if tiles::declared_goal(&line).is_some() {
            declarations.push((number, line));
        }
    }
    Ok(declarations)
}

/// The goal `file` declares, to be used where `--goal` (`given`) is left out: `None` where
/// there is no file, it declares none, or `given` names the same board. Refused where `given`
/// names another, the declared goal is no board of `puzzle`, two lines declare different goals,
/// or `puzzle` is not a board size.
pub fn goal_for(file: Option<&Path>, given: Option<&str>, puzzle: &str) -> Result<Option<String>> {
    let Some(path) = file else {
        return Ok(None);
    };
    let declarations = declarations(path)?;
    let Some((line, text)) = declarations.first() else {
        return Ok(None);
    };
    // The first declaration is the one kept (later ones must declare the same goal).
    let declared = tiles::declared_goal(text).expect("a declaration's line declares a goal");
    let at = format!("{} line {line}", path.display());
    let Some(shape) = tiles::board_shape(puzzle) else {
        bad_input!("{at} declares a goal ({declared}), which only boards have, not {puzzle}");
    };
    let shape = shape?;
    let numbered = declarations.iter().map(|(n, text)| (*n, text.as_str()));
    let declared_goal = tiles::goal_declared(shape, numbered)
        .map_err(|e| InputError(format!("{}: {e}", path.display())))?;
    let Some((_, goal)) = declared_goal else {
        return Ok(None);
    };
    match given {
        Some(given) if tiles::tile_goal(shape, Some(given))? != goal => {
            bad_input!("--goal {given} is not the goal {at} declares ({declared}), the one its lengths are for: leave --goal out")
        }
        Some(_) => Ok(None),
        None => Ok(Some(declared.to_string())),
    }
}

/// Refuses a goal that line `number` of standard input declares, read where no goal is set
/// (`--goal`, or a named file's declaration, read ahead by [`goal_for`]): standard input is
/// read only as it comes, so its boards would otherwise be read for the default goal.
pub fn refuse_unread(number: usize, line: &str) -> Result<()> {
    match tiles::declared_goal(line) {
        Some(goal) => bad_input!(
            "standard input line {number} declares the goal {goal}, which a file read as it \
             comes cannot set for its boards: give --goal {goal}"
        ),
        None => Ok(()),
    }
}
