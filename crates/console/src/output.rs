//! Standard output. A closed pipe (`godsearch bfs 4x4 | head`) ends the program quietly with
//! success, as Unix tools do, instead of the panic `println!` would give; any other write error
//! ends it with exit code 1. This is the one exit outside the command line's error report,
//! because a reader that has gone away cannot be told anything.

use std::io::Write;

/// Writes one line to stdout (see the module docs for errors).
pub fn line(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.write_all(b"\n")) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        note(format_args!("error: writing the output: {e}"));
        std::process::exit(1);
    }
}

/// Writes one line to stderr: notes, warnings and error messages. A failed write is ignored:
/// a note that cannot be shown never changes what the command does or its exit code (where
/// `eprintln!` would panic and exit 101).
pub fn note(args: std::fmt::Arguments) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_fmt(args).and_then(|()| err.write_all(b"\n"));
}

/// `eprintln!` for godsearch's messages: see [`note`](crate::output::note).
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::output::note(format_args!($($arg)*))
    };
}

/// `println!` for godsearch output: see [`line`](crate::output::line).
#[macro_export]
macro_rules! outln {
    () => {
        $crate::output::line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::output::line(format_args!($($arg)*))
    };
}
