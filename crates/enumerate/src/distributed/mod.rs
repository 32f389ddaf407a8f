//! The frontier engine across threads, processes and machines, on timely dataflow.
//!
//! **Method.** Every state has one owner among the `peers` workers (threads of every process):
//! [`owner_of`], a fixed hash of its key, so the split is the same on every machine and every
//! run. A worker keeps only the states it owns of the last two levels, as the frontier engine
//! does ([`crate::frontier`]). Level `d + 1` is made in one round: each worker lists the
//! neighbours of its part of level `d` a slice at a time and deals them out by owner, sorts
//! each owner's share, removes repeats and sends it as varint gaps ([`crate::disk::codec`],
//! about 2 bytes a 15-puzzle position instead of 8); each owner merges the sorted runs it
//! receives with its own sorted share, without repeats, removes the states of its own levels `d - 1` and
//! `d` (the only ones a neighbour of level `d` can repeat), and keeps the rest. A second,
//! small round carries every worker's counts to every worker, so that all of them know the
//! level's size and take the same decision about the next (a depth or memory limit, a
//! cancel, a failed checkpoint). The level counts are the sums: exact, and equal to
//! the single-process engines'.
//!
//! **Levels on disk.** With a [`LevelsOnDisk`] folder each worker runs the disk engine over the
//! states it owns, in `ROOT/worker-NNN` (`on_disk.rs`): its levels are bucket files, its
//! candidates spill to disk past its share of the memory budget, and the neighbours it lists
//! travel to their owners in exchange rounds while the level is listed (the disk engine's
//! `Router`). Every level is listed in the worker's manifest before it is reported; a resumed
//! run continues from the newest level every worker listed, falling back a level while a
//! worker finds a file of it damaged.
//!
//! **Connections** are made here (`connect.rs`), not by timely: with a deadline that names a
//! process that never comes, and a handshake that refuses a process running something else.
//!
//! **Faults.** Timely's connection threads panic when a peer's connection closes, which
//! poisons the worker's channels; the panic ends this process's workers and comes back as
//! [`DistributedError::Connection`], with the newest level every worker had checkpointed.
//! The front end owns the panic hook that names the process whose connection closed: the
//! panicking thread is timely's `timely:recv-N`, `N` the process index.
//!
//! Memory: `limits.memory_bytes` is per process, shared evenly by its workers. In memory each
//! holds about its share of the two levels and twice its share of the candidates (those it
//! lists and those it receives); on disk the budget bounds its candidate list.

mod connect;
mod mailbox;
mod on_disk;
mod worker;

use crate::disk::DiskError;
use crate::keys::{KeyInt, KeyState};
use crate::{Enumeration, Limits, Progress, Stop};
use godsearch_core::StateSpace;
use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
use std::time::Duration;
use thiserror::Error;
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::ProcessBuilder;
use timely::communication::{AllocatorBuilder, Hooks};
use xxhash_rust::xxh3::xxh3_64_with_seed;

/// The seed of the owner hash ([`owner_of`]): part of the run's identity, never to change.
pub const OWNER_SEED: u64 = 0x676f_6473_6561_7263;

/// How often the calling thread looks at the caller's cancel switch while the workers run.
const POLL: Duration = Duration::from_millis(100);

/// The worker (of `peers`) that owns the state with key `key` (a state that carries its moves
/// back goes by its position's key, above those bits): XXH3-64 of the key's little-endian
/// bytes (16 of a `u128`, 32 of a `U256`) with seed [`OWNER_SEED`], modulo `peers`. The same on
/// every machine, in every run.
pub fn owner_of<K: KeyInt>(key: K, peers: usize) -> usize {
    (xxh3_64_with_seed(key.to_le_bytes().as_ref(), OWNER_SEED) % peers as u64) as usize
}

/// Where this process stands in the computation, in timely's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cluster {
    /// Worker threads in this process (timely's `-w`).
    pub workers: usize,
    /// This process's index (timely's `-p`), below `addresses.len()`.
    pub process: usize,
    /// Every process's `host:port`, in process order (timely's hostfile); empty or one entry
    /// for a run in this process alone.
    pub addresses: Vec<String>,
}

impl Cluster {
    /// `workers` threads in this process alone.
    pub fn single(workers: usize) -> Self {
        Cluster {
            workers,
            process: 0,
            addresses: Vec::new(),
        }
    }

    /// The processes in the computation.
    pub fn processes(&self) -> usize {
        self.addresses.len().max(1)
    }

    /// Timely's allocators for this process's workers: connected to the other processes
    /// ([`connect`]) when there are any, and what must live as long as they do.
    fn allocators(
        &self,
        run_tag: u64,
        patience: Duration,
    ) -> Result<(Vec<AllocatorBuilder>, Box<dyn Any + Send>), DistributedError> {
        let workers = self.workers.max(1);
        if self.processes() == 1 {
            let config = timely::CommunicationConfig::Process(workers);
            return config.try_build().map_err(DistributedError::Start);
        }
        let sockets = connect::connect(&self.addresses, self.process, run_tag, patience)?;
        let hooks = Hooks::default();
        let local = ProcessBuilder::new_typed_vector(workers, hooks.refill.clone(), None);
        let (builders, guard) =
            initialize_networking_from_sockets(local, sockets, self.process, workers, hooks)
                .map_err(|e| DistributedError::Start(e.to_string()))?;
        let builders = builders.into_iter().map(AllocatorBuilder::Tcp).collect();
        Ok((builders, Box::new(guard)))
    }
}

/// Levels on disk in a distributed run: each worker's levels in `root/worker-NNN`, as the
/// disk engine keeps them ([`crate::disk`]), durable and resumable.
#[derive(Debug, Clone, Copy)]
pub struct LevelsOnDisk<'a> {
    /// The folder the workers' folders are in (on each machine, its own).
    pub root: &'a Path,
    /// Continue from the levels every worker saved, instead of refusing a folder with a run.
    pub resume: bool,
    /// Keep every level's files (by default a worker keeps its last four levels).
    pub keep_levels: bool,
    /// States a bucket file aims at ([`crate::disk::DEFAULT_BUCKET_STATES`]).
    pub bucket_states: u64,
    /// The most bytes the run's files may take in this process (shared by its workers), or
    /// `None` for as much as the disk has.
    pub disk_bytes: Option<u64>,
}

/// What is enumerated where.
#[derive(Debug, Clone)]
pub struct DistributedOptions<'a> {
    /// This process's place in the computation.
    pub cluster: Cluster,
    /// What is enumerated, in words that change whenever the states would (as the disk
    /// engine's run name): levels on disk of another run are refused.
    pub run: &'a str,
    /// Save every level, to resume from.
    pub on_disk: Option<LevelsOnDisk<'a>>,
    /// How long to wait for the other processes to start and connect.
    pub patience: Duration,
}

/// The data one level sent between workers (summed over all workers).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LevelTraffic {
    /// The level.
    pub depth: u32,
    /// Seconds it took to make (as this process saw it).
    pub seconds: f64,
    /// Bytes of states sent to another worker (encoded as gaps).
    pub sent_bytes: u64,
    /// States sent to another worker.
    pub sent_states: u64,
    /// Levels on disk: bytes of candidates spilled to disk while it was made.
    pub spilled_bytes: u64,
    /// Made by an earlier run (its traffic is not known).
    pub resumed: bool,
}

/// The result of a distributed enumeration, as one process sees it.
#[derive(Debug, Clone)]
pub struct DistributedRun<S> {
    /// Exact counts over all workers. `last_level` is filled on process 0 only (the
    /// antipodes of a complete run, gathered when they are few); `peak_bytes` is this
    /// process's.
    pub enumeration: Enumeration<S>,
    /// Time and traffic of each level.
    pub traffic: Vec<LevelTraffic>,
    /// Workers in the whole computation.
    pub peers: usize,
    /// The newest level every worker had saved, when resumed.
    pub resumed_from: Option<u32>,
    /// Bytes of this process's level files at the end (levels on disk).
    pub disk_bytes: u64,
}

/// A distributed run could not start or go on. With levels on disk, every level all workers
/// saved stays durable.
#[derive(Debug, Error)]
pub enum DistributedError {
    /// The workers could not be set up: a bad address, a port in use, a process that did not
    /// come or that runs something else.
    #[error("could not start the run: {0}")]
    Start(String),
    /// A worker of this process lost its connections: another process died or was killed.
    #[error("the run lost a process (it stopped, or its connection broke){}", checkpoint_note(*.checkpointed))]
    Connection {
        /// The newest level every worker had checkpointed, if any.
        checkpointed: Option<u32>,
    },
    /// This process's run folder refused or failed.
    #[error(transparent)]
    Disk(#[from] DiskError),
    /// States received from another worker did not decode.
    #[error("damaged states received: {0}")]
    Received(String),
    /// A worker in another process failed (that process reports why).
    #[error(
        "worker {0} could not go on (its level files, or what it received); its process says why"
    )]
    OtherWorker(usize),
}

fn checkpoint_note(checkpointed: Option<u32>) -> String {
    match checkpointed {
        Some(d) => format!(
            "; levels 0 to {d} are saved by every worker: run every process again with «resume»"
        ),
        None => String::new(),
    }
}

/// Why a worker stopped, before the calling thread turns it into a [`DistributedError`].
#[derive(Debug)]
pub(crate) enum WorkerError {
    Disk(DiskError),
    Other(usize),
    Received(String),
}

/// What workers tell the calling thread as they go.
#[derive(Debug)]
pub(crate) enum Event {
    Started { depth: u32, states: u64 },
    Advanced(u64),
    Finished { depth: u32, positions: u64 },
}

/// What every worker of this process shares.
pub(crate) struct Shared<P> {
    space: P,
    limits: Limits,
    run: String,
    on_disk: Option<DiskPlan>,
    local_workers: usize,
    events: Sender<Event>,
    cancel: AtomicBool,
    checkpointed: AtomicI64,
}

/// [`LevelsOnDisk`], owned.
pub(crate) struct DiskPlan {
    root: PathBuf,
    resume: bool,
    keep_levels: bool,
    bucket_states: u64,
    disk_bytes: Option<u64>,
}

impl<P: Sync> Shared<P> {
    /// A progress sink for the workers' own threads: it forwards to the calling thread.
    fn progress(&self) -> &dyn Progress {
        self
    }

    /// Whether a run that ended with `stop` and `newest_classes` in its last level gathers
    /// that level as the antipodes: only a complete run, and only a level within the cap.
    fn gathers_antipodes(&self, stop: Stop, newest_classes: u64) -> bool {
        stop == Stop::Complete && newest_classes <= self.limits.antipode_cap as u64
    }
}

impl<P: Sync> Progress for Shared<P> {
    fn advanced(&self, positions: u64) {
        let _ = self.events.send(Event::Advanced(positions));
    }
}

/// Enumerates `space` from its goals with this process's `options.cluster.workers` workers
/// in the computation `options.cluster` describes; every process of it calls this with the
/// same space, limits and run name.
///
/// Exact: the counts are those of [`crate::frontier::enumerate`], whatever the number of
/// workers; the same on every process.
pub fn enumerate_distributed<P>(
    space: P,
    options: &DistributedOptions,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<DistributedRun<P::State>, DistributedError>
where
    P: StateSpace + Send + Sync + 'static,
    P::State: KeyState,
{
    let (events, heard) = mpsc::channel();
    let run = format!(
        "{}; {} workers, owner xxh3 seed {OWNER_SEED:#x}",
        options.run,
        options.cluster.workers * options.cluster.processes()
    );
    // Every process must agree on levels on disk too: one that starts afresh beside others that
    // resume would make them drop what they saved.
    let agreement = format!(
        "{run}; levels on disk {:?}",
        options.on_disk.map(|c| (c.resume, c.keep_levels))
    );
    let run_tag = xxh3_64_with_seed(agreement.as_bytes(), OWNER_SEED);
    let (allocators, connections) = options.cluster.allocators(run_tag, options.patience)?;
    let shared = Arc::new(Shared {
        space,
        limits: *limits,
        run,
        on_disk: options.on_disk.map(|c| DiskPlan {
            root: c.root.to_path_buf(),
            resume: c.resume,
            keep_levels: c.keep_levels,
            bucket_states: c.bucket_states,
            disk_bytes: c.disk_bytes,
        }),
        local_workers: options.cluster.workers.max(1),
        events,
        cancel: AtomicBool::new(false),
        checkpointed: AtomicI64::new(-1),
    });
    let for_workers = Arc::clone(&shared);
    // The connection threads' guard stays here, not with timely: dropping it joins them, and
    // timely's drop panics when one of them ended by panicking (a lost process).
    let guards = timely::execute::execute_from(
        allocators,
        Box::new(()),
        timely::WorkerConfig::default(),
        move |w| worker::run(w, &for_workers),
    )
    .map_err(DistributedError::Start)?;
    loop {
        match heard.recv_timeout(POLL) {
            Ok(Event::Started { depth, states }) => progress.level_started(depth, states),
            Ok(Event::Advanced(n)) => progress.advanced(n),
            Ok(Event::Finished { depth, positions }) => progress.level_finished(depth, positions),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if progress.cancelled() {
                    shared.cancel.store(true, Ordering::Relaxed);
                }
                if Arc::strong_count(&shared) == 1 {
                    break;
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    let results = guards.join();
    if results.iter().any(Result::is_err) {
        // The connection threads of a lost process ended by panicking; joining them would
        // panic again. The process is about to report the loss and end.
        std::mem::forget(connections);
    } else {
        drop(connections);
    }
    let checkpointed = u32::try_from(shared.checkpointed.load(Ordering::Relaxed)).ok();
    let mut outcomes = Vec::new();
    for result in results {
        match result {
            Ok(Ok(outcome)) => outcomes.push(outcome),
            Ok(Err(WorkerError::Disk(e))) => return Err(DistributedError::Disk(e)),
            Ok(Err(WorkerError::Other(w))) => return Err(DistributedError::OtherWorker(w)),
            Ok(Err(WorkerError::Received(why))) => return Err(DistributedError::Received(why)),
            Err(_) => return Err(DistributedError::Connection { checkpointed }),
        }
    }
    let mut outcomes = outcomes.into_iter();
    let first = outcomes.next().expect("a process has at least one worker");
    let mut peak_bytes = first.peak_bytes;
    let mut disk_bytes = first.disk_bytes;
    let mut last_level = first.last_level;
    for other in outcomes {
        peak_bytes += other.peak_bytes;
        disk_bytes += other.disk_bytes;
        last_level = last_level.or(other.last_level);
    }
    Ok(DistributedRun {
        enumeration: Enumeration {
            levels: first.levels,
            classes: first.classes,
            stop: first.stop,
            last_level,
            peak_bytes,
            last_counted_only: false,
        },
        traffic: first.traffic,
        peers: options.cluster.workers * options.cluster.processes(),
        resumed_from: first.resumed_from,
        disk_bytes,
    })
}
