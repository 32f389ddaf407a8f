//! The one place where errors become messages and exit codes.
//!
//! Exit codes (docs/guide.md, "Exit codes"):
//! - `0` success;
//! - `1` the work could not be finished: an I/O failure, a damaged or foreign table file, a
//!   wrong answer caught by a check, boards that ran past `--timeout`;
//! - `2` the request cannot be done as given: an unknown puzzle, a malformed, invalid or
//!   unsolvable position, a bad option value or combination, or a `--memory` budget too small
//!   for the job (whichever puzzle or engine finds that out). The argument parser's errors
//!   exit with 2 as well.
//!
//! Every error is one line on stderr, starting with `error: `: causes are joined with `: `, a
//! cause already said by the message before it is not repeated, line breaks are escaped and a
//! message is cut at [`MAX_MESSAGE_CHARS`].

use crate::output::errln;
use std::process::ExitCode;
use thiserror::Error;

/// Bad input from the user that no library type describes (an option combination, a file line).
#[derive(Debug, Error)]
#[error("{0}")]
pub struct InputError(pub String);

/// Success.
pub const EXIT_SUCCESS: u8 = 0;
/// The work could not be finished.
pub const EXIT_FAILURE: u8 = 1;
/// The request cannot be done as given.
pub const EXIT_BAD_INPUT: u8 = 2;
/// The longest error line printed; longer ones are cut (inputs are already cut where quoted).
pub const MAX_MESSAGE_CHARS: usize = 1000;

fn is_bad_input(err: &anyhow::Error) -> bool {
    err.chain()
        .any(|e| e.is::<InputError>() || godsearch_app::error::is_bad_input_cause(e))
}

/// The error as one line: its causes joined by `: `, skipping a cause whose text the line
/// already ends with, the options it names written as flags, control characters escaped, cut
/// at [`MAX_MESSAGE_CHARS`].
pub fn one_line(err: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if text.is_empty() || line.ends_with(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    flatten(&as_flags(&line))
}

/// `message` with each option it names (`«max_length»`, a request field) written as this
/// command line's flag for it, `--max-length` (a pattern-database job's `partition` is
/// `pdb build`'s `--pdb`).
pub fn as_flags(message: &str) -> String {
    godsearch_app::error::name_options(message, |field| match field {
        "partition" => "--pdb".to_string(),
        field => format!("--{}", field.replace('_', "-")),
    })
}

/// Escapes line breaks and control characters and cuts at [`MAX_MESSAGE_CHARS`].
pub fn flatten(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == MAX_MESSAGE_CHARS {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Prints `err` on one line to stderr and returns the exit code for it.
pub fn report(err: &anyhow::Error) -> ExitCode {
    errln!("error: {}", one_line(err));
    ExitCode::from(if is_bad_input(err) {
        EXIT_BAD_INPUT
    } else {
        EXIT_FAILURE
    })
}

/// Prints an argument-parser error as one line (help and version requests print as usual) and
/// returns its exit code.
pub fn report_usage(err: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // Printing help can only fail on a closed stdout, which needs no message.
            let _ = err.print();
            return ExitCode::from(EXIT_SUCCESS);
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            errln!("error: a command is needed: bfs, solve, pdb, info, scramble or bench (see godsearch --help)");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
        _ => {}
    }
    let rendered = as_flags(&err.to_string());
    // clap writes "error: WHAT", perhaps indented detail lines and a tip, then a usage block.
    let what: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
        .collect();
    let what = what.join(" ").replace(" tip: ", "; tip: ");
    let what = what.strip_prefix("error: ").unwrap_or(&what);
    errln!("error: {} (see --help)", flatten(what));
    ExitCode::from(EXIT_BAD_INPUT)
}

/// Shorthand for returning an [`InputError`].
macro_rules! bad_input {
    ($($arg:tt)*) => {
        return Err(anyhow::Error::new($crate::errors::InputError(format!($($arg)*))))
    };
}
pub(crate) use bad_input;

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn one_line_says_each_cause_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let err = anyhow::Error::new(io).context("reading x: gone");
        assert_eq!(one_line(&err), "reading x: gone");
        let err: anyhow::Result<()> = Err(anyhow::anyhow!("bad\nthing")).context("board");
        assert_eq!(one_line(&err.unwrap_err()), "board: bad\\nthing");
        let long = anyhow::anyhow!("{}", "x".repeat(5000));
        assert!(one_line(&long).chars().count() <= MAX_MESSAGE_CHARS + 3);
    }
}
