//! One module per subcommand; [`run`] dispatches.

mod bench;
mod bench_cube;
mod bench_search;
mod bench_subgoal;
mod bfs;
mod cube_bfs;
mod cube_solve;
mod info;
mod pdb;
mod scramble;
mod solve;

use crate::args::{Cli, Command};
use anyhow::{Context, Result};

/// Runs the command the user asked for.
pub fn run(cli: Cli) -> Result<()> {
    if let Some(threads) = cli.threads {
        if threads == 0 {
            crate::errors::bad_input!("--threads must be at least 1");
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .context("starting threads")?;
    }
    match cli.command {
        Command::Bfs(args) => bfs::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Pdb(args) => pdb::run(&args),
        Command::Info(args) => info::run(&args),
        Command::Scramble(args) => scramble::run(&args),
        Command::Bench(args) => bench::run(&args),
    }
}
