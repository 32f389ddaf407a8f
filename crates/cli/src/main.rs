//! `godsearch`: the command-line front end. It owns everything the libraries leave out:
//! arguments, file paths, printing, progress bars and exit codes.

mod args;
mod commands;
mod errors;
mod machine;
mod output;
mod pdb_cache;
mod progress;
mod spaces;
mod units;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => errors::report(&err),
    }
}
