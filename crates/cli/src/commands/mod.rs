//! One module per subcommand; [`run`] dispatches.

mod bench;
mod bfs;
mod bfs_cluster;
mod bfs_launcher;
mod bfs_output;
mod cache_files;
mod campaign;
mod checkpoint;
mod cube_report;
mod definition_info;
mod docs;
mod info;
mod pdb;
mod registry_solve;
mod scramble;
mod serve;
mod solve;
mod solve_report;
mod status;
mod verify;

use crate::args::{Cli, Command, PdbCommand, MAX_THREADS, THREADS_PER_CORE};
use crate::errors::bad_input;
use anyhow::{Context, Result};
use std::path::PathBuf;

/// Runs the command the user asked for.
pub fn run(cli: Cli) -> Result<()> {
    // RAYON_NUM_THREADS sets the threads where --threads does not: the same limits hold.
    let from_environment = std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok());
    if let (None, Some(threads)) = (cli.threads, from_environment) {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let most = (cores * THREADS_PER_CORE) as u64;
        if threads > most.max(1) && !(cli.oversubscribe && threads <= MAX_THREADS) {
            bad_input!(
                "RAYON_NUM_THREADS={threads} is more than {THREADS_PER_CORE} a core on this {cores}-core machine ({most}); use --threads (with --oversubscribe for up to {MAX_THREADS})"
            );
        }
    }
    if let Some(threads) = cli.threads {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let most = cores * THREADS_PER_CORE;
        if threads > most as u64 && !cli.oversubscribe {
            bad_input!(
                "--threads {threads} is more than {THREADS_PER_CORE} a core on this {cores}-core machine ({most}); add --oversubscribe to use more"
            );
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads as usize)
            .build_global()
            .context("starting threads")?;
    }
    if cli.private {
        crate::machine::keep_new_files_private();
    }
    crate::interrupt::remove_temp_files_on_signal(folders_written(&cli.command))?;
    match cli.command {
        Command::Bfs(args) => bfs::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Pdb(args) => pdb::run(&args),
        Command::Cache(args) => cache_files::run(&args),
        Command::Info(args) => info::run(&args),
        Command::Scramble(args) => scramble::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Verify(args) => verify::run(&args, verify::Mode::Verify),
        Command::Completions { shell } => docs::completions(shell),
        Command::Man => docs::man(),
        Command::Apply(args) => verify::run(&args, verify::Mode::Apply),
        Command::Serve(args) => serve::run(&args),
    }
}

/// The folders a command may write table files in: its cache, and the folder of `--save`.
fn folders_written(command: &Command) -> Vec<PathBuf> {
    let cache = |dir: &Option<PathBuf>| crate::cache::open(dir.as_deref()).dir().to_path_buf();
    match command {
        Command::Bfs(args) => args
            .save
            .iter()
            .map(|p| godsearch_app::tables::file::folder_of(p).to_path_buf())
            .collect(),
        Command::Solve(args) => vec![cache(&args.cache)],
        Command::Pdb(args) => match &args.command {
            PdbCommand::Build(build) => vec![cache(&build.cache)],
        },
        Command::Scramble(args) => vec![cache(&args.cache)],
        Command::Bench(args) => vec![cache(&args.cache)],
        Command::Serve(args) => vec![cache(&args.cache)],
        Command::Info(_)
        | Command::Cache(_)
        | Command::Verify(_)
        | Command::Apply(_)
        | Command::Completions { .. }
        | Command::Man => Vec::new(),
    }
}

/// The puzzle the arguments name: `--def FILE` is a definition file whatever its name ends
/// with; any other name is the registry's to read.
pub(crate) fn open_puzzle(
    def: Option<&std::path::Path>,
    name: &str,
) -> anyhow::Result<Box<dyn godsearch_app::registry::Puzzle>> {
    Ok(match def {
        Some(path) => godsearch_app::registry::definition::open_file(path)?,
        None => godsearch_app::registry::open(name, true)?,
    })
}
