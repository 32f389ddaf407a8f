//! The one place where errors become messages and exit codes.
//!
//! Exit codes: 0 success; 1 a failure while working (I/O, a damaged table, a wrong answer
//! caught by a check); 2 bad input (an unknown puzzle, a malformed or unsolvable board, bad
//! options). clap's own usage errors also exit with 2.

use godsearch_puzzles::cube::{CubieError, FaceletError, NotationError};
use godsearch_puzzles::tiles::{BoardError, MoveParseError};
use godsearch_puzzles::PuzzleNameError;
use std::process::ExitCode;
use thiserror::Error;

/// Bad input from the user that no library type describes (an option combination, a file line).
#[derive(Debug, Error)]
#[error("{0}")]
pub struct InputError(pub String);

const EXIT_FAILURE: u8 = 1;
const EXIT_BAD_INPUT: u8 = 2;

fn is_bad_input(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.is::<InputError>()
            || e.is::<BoardError>()
            || e.is::<PuzzleNameError>()
            || e.is::<MoveParseError>()
            || e.is::<NotationError>()
            || e.is::<FaceletError>()
            || e.is::<CubieError>()
    })
}

/// Prints `err` on one line to stderr and returns the exit code for it.
pub fn report(err: &anyhow::Error) -> ExitCode {
    eprintln!("error: {err:#}");
    ExitCode::from(if is_bad_input(err) {
        EXIT_BAD_INPUT
    } else {
        EXIT_FAILURE
    })
}

/// Shorthand for returning an [`InputError`].
macro_rules! bad_input {
    ($($arg:tt)*) => {
        return Err(anyhow::Error::new($crate::errors::InputError(format!($($arg)*))))
    };
}
pub(crate) use bad_input;
