//! `bfs --workers/--processes/--process/--hostfile`: a distributed run, with timely
//! dataflow's conventions (`-w` threads a process, `-n` processes, `-p` this process's index,
//! and the hostfile of every process's `host:port`; `-h` stays help). The launcher that starts
//! `--processes K` copies of this command on this machine is [`super::bfs_launcher`].

use crate::args::{BfsArgs, MAX_PROCESSES, THREADS_PER_CORE};
use crate::errors::bad_input;
use anyhow::{Context, Result};
use godsearch_app::bfs::ClusterRequest;
use std::sync::OnceLock;
use std::time::Duration;

/// How long a process waits for the others to start and connect: long enough to start them
/// by hand on several machines.
const CONNECT_PATIENCE: Duration = Duration::from_secs(300);

/// What this process is in the run the arguments ask for.
pub(crate) enum Role {
    /// No distributed options: the usual engines.
    Alone,
    /// One process of a distributed run (possibly the only one).
    Member {
        workers: usize,
        process: usize,
        addresses: Vec<String>,
    },
    /// Start this many processes here and wait for them.
    Launcher(usize),
}

impl Role {
    /// This process's place for the application layer, when it is in a distributed run.
    pub fn request(&self) -> Option<ClusterRequest<'_>> {
        match self {
            Role::Member {
                workers,
                process,
                addresses,
            } => Some(ClusterRequest {
                workers: *workers,
                process: *process,
                addresses,
                patience: CONNECT_PATIENCE,
            }),
            _ => None,
        }
    }

    /// Whether this process shows progress (process 0 does; the others stay quiet).
    pub fn shows_progress(&self) -> bool {
        !matches!(self, Role::Member { process, .. } if *process > 0)
    }
}

/// Reads the distributed options.
pub(crate) fn role(args: &BfsArgs) -> Result<Role> {
    let workers = args.workers.unwrap_or(1);
    if workers == 0 {
        bad_input!("--workers is at least 1");
    }
    // Threads and processes started on this machine: at most a few a core, as --threads.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let most = cores * THREADS_PER_CORE;
    if workers > most {
        bad_input!(
            "--workers {workers} is more than {THREADS_PER_CORE} a core on this {cores}-core machine ({most})"
        );
    }
    if let (None, Some(k)) = (args.process, args.processes) {
        if k * workers > most {
            bad_input!(
                "--processes {k} with {workers} worker(s) each starts {} threads here, more than {THREADS_PER_CORE} a core on this {cores}-core machine ({most}); start processes on several machines with --process and --hostfile",
                k * workers
            );
        }
    }
    let Some(process) = args.process else {
        return Ok(match args.processes {
            None if args.workers.is_none() => Role::Alone,
            None | Some(1) => Role::Member {
                workers,
                process: 0,
                addresses: Vec::new(),
            },
            Some(0) => bad_input!("--processes is at least 1"),
            Some(k) => Role::Launcher(k),
        });
    };
    let path = args.hostfile.as_ref().expect("clap requires --hostfile");
    let text =
        std::fs::read_to_string(path).with_context(|| format!("--hostfile {}", path.display()))?;
    let addresses: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    if addresses.is_empty() {
        bad_input!("--hostfile {}: no host:port lines", path.display());
    }
    if addresses.len() as u64 > MAX_PROCESSES {
        bad_input!(
            "--hostfile {}: {} processes, at most {MAX_PROCESSES}",
            path.display(),
            addresses.len()
        );
    }
    if let Some(k) = args.processes.filter(|&k| k != addresses.len()) {
        bad_input!(
            "--processes {k} but --hostfile {} lists {} processes",
            path.display(),
            addresses.len()
        );
    }
    if process >= addresses.len() {
        bad_input!(
            "--process {process}: the hostfile lists processes 0 to {}",
            addresses.len() - 1
        );
    }
    Ok(Role::Member {
        workers,
        process,
        addresses,
    })
}

/// The process whose connection closed, as timely's connection threads report it.
static LOST_PROCESS: OnceLock<usize> = OnceLock::new();

/// Turns the panics timely uses to stop the computation when a process dies into one fact:
/// which process's connection closed ([`lost_process`]). Its connection threads are named
/// `timely:recv-N` and `timely:send-N` for process `N`; once one has panicked, the panics
/// that follow on the worker threads (`timely:work-*`) say nothing more. Every other panic
/// is reported as before.
pub(crate) fn watch_connections() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let thread = std::thread::current();
        let name = thread.name().unwrap_or_default();
        let peer = name
            .strip_prefix("timely:recv-")
            .or_else(|| name.strip_prefix("timely:send-"))
            .and_then(|n| n.parse::<usize>().ok());
        if let Some(n) = peer {
            let _ = LOST_PROCESS.set(n);
            return;
        }
        if name.starts_with("timely:work-") && LOST_PROCESS.get().is_some() {
            return;
        }
        previous(info);
    }));
}

/// The process whose connection closed during the run, if one did.
pub(crate) fn lost_process() -> Option<usize> {
    LOST_PROCESS.get().copied()
}

/// Adds the lost process's name to a failed run's error.
pub(crate) fn name_lost_process(err: anyhow::Error) -> anyhow::Error {
    match lost_process() {
        Some(n) => err.context(format!("the connection to process {n} closed")),
        None => err,
    }
}
