//! The terminal side shared by godsearch's command-line programs (the `godsearch` commands and
//! its benchmarks), so that neither copies it:
//!
//! - [`output`]: lines on stdout ([`outln!`]) and stderr ([`errln!`]); a closed pipe ends the
//!   program quietly;
//! - [`progress`]: progress bars for the library's [`Progress`](godsearch_app::progress::Progress)
//!   sink, batch bars, and the status line of a long search or job;
//! - [`machine`]: what this machine has (memory, free disk, this process's peak) and the
//!   `--memory` and `--disk` sizes read against it.
//!
//! Everything here prints or reads the machine; the libraries below never do.

pub mod machine;
pub mod output;
pub mod progress;
