//! Standard output and error for the commands: the lines and macros of
//! [`godsearch_console::output`], and the report lines every solve printer shares.

pub(crate) use godsearch_console::{errln, outln};

/// Prints the `solution` line of a solve report: the moves, or that the start is the goal.
pub fn solution_line(moves: &str) {
    let shown = if moves.is_empty() {
        "(already solved)"
    } else {
        moves
    };
    godsearch_console::output::line(format_args!("solution   {shown}"));
}
