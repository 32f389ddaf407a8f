//! Standard output. A closed pipe (`godsearch bfs 4x4 | head`) ends the program quietly with
//! success, as Unix tools do, instead of the panic `println!` would give; any other write error
//! ends it with exit code 1. This is the one exit outside `errors::report`, because a reader
//! that has gone away cannot be told anything.

use std::io::Write;

/// Writes one line to stdout (see the module docs for errors).
pub fn line(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.write_all(b"\n")) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing the output: {e}");
        std::process::exit(1);
    }
}

/// `println!` for godsearch output: see [`line`].
macro_rules! outln {
    () => {
        $crate::output::line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::output::line(format_args!($($arg)*))
    };
}
pub(crate) use outln;

/// Prints the `solution` line of a solve report: the moves, or that the start is the goal.
pub fn solution_line(moves: &str) {
    let shown = if moves.is_empty() {
        "(already solved)"
    } else {
        moves
    };
    line(format_args!("solution   {shown}"));
}
