//! God's algorithm as every front end offers it: the engine chosen by size, the run, the table
//! saved when asked, and the [`BfsReport`] with antipodes written the way users read them.

use crate::report::{BfsReport, DistributedReport, LevelCostReport};
use crate::tables::{self, TableIdentity};
use crate::units::{format_bytes, format_count};
use crate::{AppError, AppResult};
use godsearch_core::{Progress, RankedSpace, StateSpace};
use godsearch_enumerate::disk::codec::KeyState;
use godsearch_enumerate::disk::{enumerate_on_disk, DiskOptions, DiskRun};
use godsearch_enumerate::{choose_engine, frontier, table, Engine, Enumeration, Stop};
/// The limits an enumeration runs under, and the disk engine's default bucket size.
pub use godsearch_enumerate::{disk::DEFAULT_BUCKET_STATES, Limits};
use godsearch_search::descend;
use std::path::Path;
use std::time::Instant;

/// Which engine enumerates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum EngineChoice {
    /// The table engine when its table fits in --memory, else the frontier engine.
    Auto,
    /// A 2-bit table of every position (distance mod 3).
    Table,
    /// Sorted arrays of the last levels only.
    Frontier,
}

/// What to enumerate with.
#[derive(Debug, Clone, Copy)]
pub struct BfsRequest<'a> {
    /// Depth, memory and antipode limits.
    pub limits: Limits,
    /// The engine.
    pub engine: EngineChoice,
    /// Save the distance table here (table engine only).
    pub save: Option<&'a Path>,
    /// Keep the levels on disk in a run folder (the frontier engine, durable and resumable).
    /// With `cluster`, the folder of this process's workers' levels.
    pub disk: Option<DiskRequest<'a>>,
    /// Run the frontier engine as one process of a distributed computation.
    pub cluster: Option<ClusterRequest<'a>>,
}

/// This process's place in a distributed run, in timely dataflow's terms.
#[derive(Debug, Clone, Copy)]
pub struct ClusterRequest<'a> {
    /// Worker threads in this process (`-w`).
    pub workers: usize,
    /// This process's index (`-p`).
    pub process: usize,
    /// Every process's `host:port` in order (the hostfile); empty for this process alone.
    pub addresses: &'a [String],
    /// How long to wait for the other processes to start and connect.
    pub patience: std::time::Duration,
}

/// Levels on disk (`--workdir`): where, and whether to continue a run found there.
#[derive(Debug, Clone, Copy)]
pub struct DiskRequest<'a> {
    /// The run's folder.
    pub workdir: &'a Path,
    /// Continue the run the folder holds.
    pub resume: bool,
    /// Keep every level's files.
    pub keep_levels: bool,
    /// States a bucket file aims at.
    pub bucket_states: u64,
    /// The most disk the run may use (`None`: what the disk has).
    pub disk_bytes: Option<u64>,
}

/// Levels on disk and distributed runs go with the frontier engine only, and leave no table
/// to save.
pub(crate) fn check_disk(request: &BfsRequest) -> AppResult<()> {
    if request.cluster.is_some()
        && (request.save.is_some() || request.engine == EngineChoice::Table)
    {
        return Err(AppError::Input(
            "a distributed run spreads the frontier engine's levels over its workers; it makes no table to «save» (leave out «save» and «engine» table)".into(),
        ));
    }
    if request.disk.is_none() {
        return Ok(());
    }
    if request.save.is_some() || request.engine == EngineChoice::Table {
        return Err(AppError::Input(
            "«workdir» keeps sorted levels on disk (the frontier engine); it makes no table to «save» (leave out «save» and «engine» table)".into(),
        ));
    }
    Ok(())
}

/// How a run kept its levels, with the figures that go into its report beyond the counts.
pub(crate) enum Finish<S> {
    /// In this process's memory (or a table).
    Memory,
    /// On disk (`--workdir`).
    Disk(DiskRun<S>),
    /// Spread over the workers of a distributed run, and the level it resumed from.
    #[cfg_attr(not(feature = "distributed"), allow(dead_code))]
    Distributed(DistributedReport, Option<u32>),
}

/// The frontier engine's counts, and how it kept its levels.
pub(crate) type FrontierRun<S> = (Enumeration<S>, Finish<S>);

/// Runs the frontier engine, in memory or (with `request.disk`) on disk under the run name
/// `run` (which must change whenever the states would).
pub(crate) fn frontier_run<P>(
    space: &P,
    run: &str,
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<FrontierRun<P::State>>
where
    P: StateSpace + Clone + Send + Sync + 'static,
    P::State: KeyState,
{
    if let Some(cluster) = request.cluster {
        return distributed_run(space, run, request, cluster, progress);
    }
    let Some(disk) = request.disk else {
        return Ok((
            frontier::enumerate(space, &request.limits, progress),
            Finish::Memory,
        ));
    };
    let options = DiskOptions {
        workdir: disk.workdir,
        run,
        resume: disk.resume,
        keep_levels: disk.keep_levels,
        bucket_states: disk.bucket_states,
        disk_bytes: disk.disk_bytes,
    };
    let mut run =
        enumerate_on_disk(space, &options, &request.limits, progress).map_err(disk_error)?;
    let enumeration = run.enumeration.clone();
    run.enumeration.last_level = None;
    Ok((enumeration, Finish::Disk(run)))
}

/// God's algorithm over symmetry classes, by the frontier engines (in memory, on disk or
/// distributed, as `request` asks) under the run name `run`: the report of `puzzle` in `metric`
/// counts positions and classes (under `group` maps) exactly, timed from `started`.
pub(crate) fn class_run<P>(
    space: &P,
    (puzzle, metric): (String, &'static str),
    (run, group): (&str, u64),
    started: Instant,
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<BfsReport>
where
    P: StateSpace + Clone + Send + Sync + 'static,
    P::State: KeyState,
{
    let (enumeration, finish) = frontier_run(space, run, request, progress)?;
    let mut report = report(
        puzzle,
        "solved".into(),
        metric,
        (
            "frontier of symmetry classes",
            std::mem::size_of::<P::State>() as f64,
        ),
        &enumeration,
        None,
        started.elapsed().as_secs_f64(),
    );
    report.classes = Some(enumeration.classes.clone());
    report.class_group = Some(group);
    add_run_figures(&mut report, finish);
    Ok(report)
}

/// A disk run's error as the request's (a folder that is not this run's, or holds one without
/// --resume: exit 2) or the run's (a damaged file, a failed write: exit 1).
fn disk_error(e: godsearch_enumerate::disk::DiskError) -> AppError {
    use godsearch_enumerate::disk::DiskError;
    match e {
        DiskError::Busy(_)
        | DiskError::NotEmpty(_)
        | DiskError::NotAFolder(_)
        | DiskError::RunExists(_)
        | DiskError::OtherRun { .. } => AppError::Input(e.to_string()),
        _ => AppError::Run(e.to_string()),
    }
}

/// Runs the frontier engine as one process of a distributed computation, with levels on disk in
/// `request.disk`'s folder.
#[cfg(feature = "distributed")]
fn distributed_run<P>(
    space: &P,
    run: &str,
    request: &BfsRequest,
    cluster: ClusterRequest,
    progress: &dyn Progress,
) -> AppResult<FrontierRun<P::State>>
where
    P: StateSpace + Clone + Send + Sync + 'static,
    P::State: KeyState,
{
    use crate::report::LevelTrafficReport;
    use godsearch_enumerate::distributed::{
        enumerate_distributed, Cluster, DistributedError, DistributedOptions, LevelsOnDisk,
    };
    check_cluster(request)?;
    let options = DistributedOptions {
        cluster: Cluster {
            workers: cluster.workers,
            process: cluster.process,
            addresses: cluster.addresses.to_vec(),
        },
        run,
        on_disk: request.disk.map(|d| LevelsOnDisk {
            root: d.workdir,
            resume: d.resume,
            keep_levels: d.keep_levels,
            bucket_states: d.bucket_states,
            disk_bytes: d.disk_bytes,
        }),
        patience: cluster.patience,
    };
    let run =
        enumerate_distributed(space.clone(), &options, &request.limits, progress).map_err(|e| {
            match e {
                DistributedError::Disk(disk) => disk_error(disk),
                // A lost or mismatched process: the run.
                _ => AppError::Run(e.to_string()),
            }
        })?;
    let report = DistributedReport {
        processes: options.cluster.processes(),
        workers: run.peers,
        checkpoint_bytes: request.disk.map(|_| run.disk_bytes),
        levels: run
            .traffic
            .iter()
            .map(|t| LevelTrafficReport {
                depth: t.depth,
                seconds: t.seconds,
                sent_states: t.sent_states,
                sent_bytes: t.sent_bytes,
                spilled_bytes: t.spilled_bytes,
                resumed: t.resumed,
            })
            .collect(),
    };
    Ok((
        run.enumeration,
        Finish::Distributed(report, run.resumed_from),
    ))
}

/// Without the backend compiled in, a distributed run is refused.
#[cfg(not(feature = "distributed"))]
fn distributed_run<P>(
    _: &P,
    _: &str,
    _: &BfsRequest,
    _: ClusterRequest,
    _: &dyn Progress,
) -> AppResult<FrontierRun<P::State>>
where
    P: StateSpace,
{
    Err(AppError::Input(
        "this build has no distributed backend: build godsearch with its default features (or --features distributed)".into(),
    ))
}

/// What a distributed run does not do (yet), refused before it starts.
#[cfg(feature = "distributed")]
fn check_cluster(request: &BfsRequest) -> AppResult<()> {
    if request.limits.count_last {
        return Err(AppError::Input(
            "«count_last» is not available in a distributed run: leave it out, or run in one process".into(),
        ));
    }
    Ok(())
}

/// The figures of a run on disk or across processes, added to its report: for levels on
/// disk, bytes a state become bytes on disk over the levels written.
pub(crate) fn add_run_figures<S>(report: &mut BfsReport, finish: Finish<S>) {
    let run = match finish {
        Finish::Memory => return,
        Finish::Distributed(figures, resumed_from) => {
            report.engine = "frontier, distributed";
            report.resumed_from = resumed_from;
            report.distributed = Some(figures);
            return;
        }
        Finish::Disk(run) => run,
    };
    report.engine = "frontier on disk";
    let stored: u64 = run.costs.iter().map(|c| c.disk_bytes).sum();
    let states_of = |depth: usize| {
        report
            .classes
            .as_ref()
            .map_or(report.levels[depth], |k| k[depth])
    };
    let written: u64 = run
        .costs
        .iter()
        .filter(|c| c.disk_bytes > 0)
        .map(|c| states_of(c.depth as usize))
        .sum();
    report.bytes_per_state = stored as f64 / written.max(1) as f64;
    report.peak_disk_bytes = Some(run.peak_disk_bytes);
    report.resumed_from = run.resumed_from;
    report.level_costs = Some(
        run.costs
            .iter()
            .map(|c| LevelCostReport {
                depth: c.depth,
                seconds: c.seconds,
                disk_bytes: c.disk_bytes,
                buckets: c.buckets,
                spilled_bytes: c.spilled_bytes,
                passes: c.passes,
                resumed: c.resumed,
            })
            .collect(),
    );
}

/// `--count-last` counts a level without storing it, which only the frontier engine does and
/// which leaves no table to save.
pub(crate) fn check_count_last(request: &BfsRequest) -> AppResult<()> {
    if !request.limits.count_last {
        return Ok(());
    }
    if request.save.is_some() {
        return Err(AppError::Input(
            "«count_last» and «save» do not go together: a saved table needs every level stored"
                .into(),
        ));
    }
    if request.engine == EngineChoice::Table {
        return Err(AppError::Input(
            "«count_last» counts a level without storing it, which only the frontier engine does (leave out «engine» table)".into(),
        ));
    }
    Ok(())
}

/// The engine `request` asks for over `space`: the one named, or with `auto` the frontier
/// engine where only it can do the run (counting the last level, on disk, distributed), else
/// the table engine where its table fits the memory budget.
pub(crate) fn engine_for<P: RankedSpace>(space: &P, request: &BfsRequest) -> Engine {
    let limits = &request.limits;
    match request.engine {
        EngineChoice::Auto
            if limits.count_last || request.disk.is_some() || request.cluster.is_some() =>
        {
            Engine::Frontier
        }
        EngineChoice::Auto => choose_engine(space, limits.memory_bytes),
        EngineChoice::Table => Engine::Table,
        EngineChoice::Frontier => Engine::Frontier,
    }
}

/// Refuses a table whose build stopped early (cancelled): its unreached entries would read as
/// unreachable, not as unknown.
pub(crate) fn table_complete(stop: Stop) -> AppResult<()> {
    match stop {
        Stop::Complete => Ok(()),
        other => Err(AppError::Input(format!(
            "the table build stopped before its end ({}); nothing was solved",
            stop_message(other).unwrap_or_else(|| "stopped".into())
        ))),
    }
}

/// Why a run ended early, in words that name no option (a report carries them to every front
/// end as they are); `None` when it is complete.
pub fn stop_message(stop: Stop) -> Option<String> {
    match stop {
        Stop::Complete => None,
        Stop::MaxDepth(d) => Some(format!("the depth limit of {d} reached; the space is not exhausted")),
        Stop::Cancelled(d) => Some(format!("cancelled after level {d}; the levels up to it are exact")),
        Stop::Memory { depth, needed, budget } => Some(format!(
            "level {depth} did not fit: it needs {} with the levels it is made from, over the memory budget of {}",
            format_bytes(needed as f64),
            format_bytes(budget as f64)
        )),
        Stop::Disk { depth, needed, available } => Some(format!(
            "level {depth} did not fit on disk: it needs about {}, and {} is free; free {} more and resume the run from its folder",
            format_bytes(needed as f64),
            format_bytes(available as f64),
            format_bytes(needed.saturating_sub(available) as f64)
        )),
    }
}

/// What names a run of [`ranked`]: the puzzle and metric its report shows, the run name of its
/// levels on disk (which must change whenever the ranks would), and the puzzles it is for, in
/// words, for refusals.
pub struct RankedRun {
    /// The puzzle's name, as reports show it.
    pub puzzle: String,
    /// The metric moves are counted in.
    pub metric: &'static str,
    /// Names levels on disk; differs whenever the states would.
    pub run_name: String,
    /// The puzzles of this kind, in words (`definition puzzles`).
    pub what: &'static str,
    /// What its distance table is saved under (`--save`), where one is offered.
    pub identity: Option<TableIdentity>,
}

/// God's algorithm on any ranked space from its goal: the table engine when a table of its
/// ranks fits (ranks never reached take room but counts stay exact), the frontier engines
/// otherwise (on disk or distributed as `request` asks); antipodes are written as the moves
/// that reach them (the inverse of an optimal solution by table descent) when the table engine
/// ran. Counts are exact. `--save` writes the table (the table engine's, complete or to the
/// depth asked) under the run's identity, where it has one.
pub fn ranked<P>(
    space: &P,
    run: &RankedRun,
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<BfsReport>
where
    P: RankedSpace + Clone + Send + Sync + 'static,
    P::State: KeyState,
{
    check_count_last(request)?;
    check_disk(request)?;
    if request.save.is_some() && run.identity.is_none() {
        return Err(AppError::Input(format!(
            "«save» is not offered for {} yet: their table files would carry no identity to check on loading",
            run.what
        )));
    }
    let limits = &request.limits;
    let engine = engine_for(space, request);
    let table_of = format!("a table of {} ranks", format_count(space.state_count()));
    check_save_engine(request, engine, space.state_count(), &table_of)?;
    let started = Instant::now();
    let (enumeration, antipodes, engine, disk) = match engine {
        Engine::Table => {
            let built = table::enumerate(space, limits, progress)?;
            if let (Some(path), Some(identity)) = (request.save, &run.identity) {
                tables::save_ranked_table(path, identity, &built.table, &built.enumeration.levels)?;
            }
            let complete = built.enumeration.stop == Stop::Complete;
            let diameter = built.enumeration.levels.len();
            let antipodes = match &built.enumeration.last_level {
                Some(states) if complete => Some(
                    states
                        .iter()
                        .map(|&s| {
                            let path = descend(space, &built.table, s, diameter)?;
                            Ok(reaching_moves(space, &path))
                        })
                        .collect::<AppResult<Vec<String>>>()?,
                ),
                _ => None,
            };
            let bytes =
                table::table_bytes(space.state_count()) as f64 / built.enumeration.total() as f64;
            (
                built.enumeration,
                antipodes,
                ("table", bytes),
                Finish::Memory,
            )
        }
        Engine::Frontier => {
            let (e, disk) = frontier_run(space, &run.run_name, request, progress)?;
            (
                e,
                None,
                ("frontier", std::mem::size_of::<P::State>() as f64),
                disk,
            )
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    let mut report = report(
        run.puzzle.clone(),
        "solved".into(),
        run.metric,
        engine,
        &enumeration,
        antipodes,
        seconds,
    );
    add_run_figures(&mut report, disk);
    Ok(report)
}

/// Refuses `--save` when `engine` is not the table engine: the one that makes a table to save.
/// `table_of` names the table the budget could not hold (`a 4x4 table of ... positions`).
pub(crate) fn check_save_engine(
    request: &BfsRequest,
    engine: Engine,
    states: u128,
    table_of: &str,
) -> AppResult<()> {
    if request.save.is_none() || engine == Engine::Table {
        return Ok(());
    }
    Err(AppError::Input(format!(
        "«save» needs the table engine, and {table_of} would need {}, more than the «memory» budget of {}",
        format_bytes(table::table_bytes(states) as f64),
        format_bytes(request.limits.memory_bytes as f64)
    )))
}

/// The position a path of moves solves, written as the moves that make it from the goal.
fn reaching_moves<P: StateSpace>(space: &P, path: &[godsearch_core::MoveIdx]) -> String {
    path.iter()
        .rev()
        .map(|&m| space.move_name(space.inverse_move(m)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Bytes of a distance table (2 bits an entry, in whole words) per position it holds.
pub(crate) fn table_entry_bytes(states: u128) -> f64 {
    table::table_bytes(states) as f64 / states as f64
}

/// `engine`: its name and the bytes it keeps per stored state.
pub(crate) fn report<S>(
    puzzle: String,
    goal: String,
    metric: &'static str,
    (engine, bytes_per_state): (&'static str, f64),
    e: &Enumeration<S>,
    antipodes: Option<Vec<String>>,
    seconds: f64,
) -> BfsReport {
    let complete = e.stop == Stop::Complete;
    BfsReport {
        puzzle,
        goal,
        metric,
        engine,
        threads: rayon::current_num_threads(),
        total: e.total(),
        diameter: e.diameter(),
        complete,
        stopped: stop_message(e.stop),
        antipode_count: complete.then(|| *e.levels.last().expect("level 0 exists")),
        antipodes,
        seconds,
        positions_per_second: e.total() as f64 / seconds.max(f64::MIN_POSITIVE),
        peak_bytes: e.peak_bytes,
        levels: e.levels.clone(),
        classes: None,
        class_group: None,
        last_counted_only: e.last_counted_only,
        bytes_per_state,
        process_peak_bytes: None,
        peak_disk_bytes: None,
        resumed_from: None,
        level_costs: None,
        distributed: None,
    }
}
