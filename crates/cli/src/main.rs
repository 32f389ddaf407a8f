//! `godsearch`: the command-line front end. It owns everything the libraries leave out:
//! arguments, file paths, printing, progress bars and exit codes.

mod args;
mod cache;
mod commands;
mod declared_goal;
mod errors;
mod input;
mod interrupt;
mod output;

use clap::Parser;
use godsearch_console::{machine, progress};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match args::Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return errors::report_usage(&err),
    };
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => errors::report(&err),
    }
}
