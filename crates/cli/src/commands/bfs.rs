//! `godsearch bfs`: God's algorithm from the goal, with the engine chosen by size.

use crate::args::{BfsArgs, EngineChoice};
use crate::errors::bad_input;
use crate::machine;
use crate::output::outln;
use crate::progress::LevelBar;
use crate::spaces::{self, AnySpace};
use crate::units::{format_bytes, format_count, format_rate};
use anyhow::{Context, Result};
use godsearch_core::{RankInt, RankedSpace};
use godsearch_enumerate::{choose_engine, frontier, table, Engine, Enumeration, Limits, Stop};
use godsearch_puzzles::tiles::{Board, TileSpace};
use godsearch_puzzles::PuzzleName;
use godsearch_tables::TwoBitTable;
use serde::Serialize;
use std::time::Instant;

/// The result of `godsearch bfs`, as printed with `--json`.
#[derive(Debug, Serialize)]
pub(crate) struct BfsReport {
    pub puzzle: String,
    pub goal: String,
    pub metric: &'static str,
    pub engine: &'static str,
    pub threads: usize,
    pub levels: Vec<u64>,
    /// Symmetry classes at each distance, where the engine counts them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub classes: Option<Vec<u64>>,
    /// Maps a class is closed under: 48 symmetries, or 96 with inversion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class_group: Option<u64>,
    pub total: u64,
    pub diameter: Option<u32>,
    pub complete: bool,
    pub stopped: Option<String>,
    pub antipode_count: Option<u64>,
    pub antipodes: Option<Vec<String>>,
    pub seconds: f64,
    pub positions_per_second: f64,
    pub peak_bytes: u64,
}

pub fn run(args: &BfsArgs) -> Result<()> {
    if let PuzzleName::Cube(size) = args.puzzle.parse::<PuzzleName>()? {
        return super::cube_bfs::run(args, size);
    }
    if args.symmetry.is_some() {
        bad_input!("--symmetry is for the 3x3x3");
    }
    if args.metric.is_some() {
        bad_input!("--metric is for cubes; sliding-tile moves are counted one per tile moved");
    }
    let shape = spaces::tile_shape(&args.puzzle)?;
    let goal = spaces::tile_goal(shape, args.goal.as_deref())?;
    check_save_target(args)?;
    let memory_bytes = machine::memory_budget(args.memory);
    let limits = Limits {
        max_depth: args.max_depth,
        memory_bytes,
        antipode_cap: args.show_antipodes,
    };
    let report = match AnySpace::new(&goal)? {
        AnySpace::Narrow(space) => enumerate_tiles(&space, args, &limits)?,
        AnySpace::Wide(space) => enumerate_tiles(&space, args, &limits)?,
    };
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
    } else {
        let title = format!("{} sliding puzzle, goal {}", report.puzzle, report.goal);
        print_report(&report, &title, |text| {
            let board = Board::parse(goal.shape(), text).expect("printed by us");
            board.to_grid().lines().map(str::to_string).collect()
        });
    }
    Ok(())
}

/// Refuses a `--save` target that could not take the table, before any work is done.
pub(crate) fn check_save_target(args: &BfsArgs) -> Result<()> {
    if let Some(path) = &args.save {
        godsearch_tables::file::check_target(path)
            .with_context(|| format!("--save {}", path.display()))?;
    }
    Ok(())
}

fn enumerate_tiles<R: RankInt>(
    space: &TileSpace<R>,
    args: &BfsArgs,
    limits: &Limits,
) -> Result<BfsReport> {
    let engine = match args.engine {
        EngineChoice::Auto => choose_engine(space, limits.memory_bytes),
        EngineChoice::Table => Engine::Table,
        EngineChoice::Frontier => Engine::Frontier,
    };
    if args.save.is_some() && engine != Engine::Table {
        bad_input!(
            "--save needs the table engine, and a {} table of {} positions would need {}, more than the --memory budget of {}",
            space.shape(),
            format_count(space.state_count()),
            format_bytes(table::table_bytes(space.state_count()) as f64),
            format_bytes(limits.memory_bytes as f64)
        );
    }
    let bar = LevelBar::new();
    let started = Instant::now();
    let (enumeration, saved_table): (Enumeration<R>, Option<TwoBitTable>) = match engine {
        Engine::Table => {
            let built = table::enumerate(space, limits, &bar).map_err(|e| {
                crate::errors::InputError(format!(
                    "{e}; use --engine frontier with --max-depth, or raise --memory"
                ))
            })?;
            (built.enumeration, Some(built.table))
        }
        Engine::Frontier => (frontier::enumerate(space, limits, &bar), None),
    };
    let seconds = started.elapsed().as_secs_f64();
    bar.finish();
    if let (Some(path), Some(t)) = (&args.save, &saved_table) {
        spaces::save_table(path, space.goal(), t, &enumeration.levels)
            .with_context(|| format!("saving the table to {}", path.display()))?;
    }
    Ok(report(space, engine, &enumeration, seconds))
}

fn report<R: RankInt>(
    space: &TileSpace<R>,
    engine: Engine,
    e: &Enumeration<R>,
    seconds: f64,
) -> BfsReport {
    let complete = e.stop == Stop::Complete;
    let antipodes = e.last_level.as_ref().filter(|_| complete).map(|ranks| {
        let mut boards: Vec<Board> = ranks.iter().map(|&r| space.unrank(r)).collect();
        boards.sort_by(|a, b| a.cells().cmp(b.cells()));
        boards.iter().map(Board::to_string).collect()
    });
    BfsReport {
        puzzle: space.shape().to_string(),
        goal: space.goal().to_string(),
        metric: "tile moves",
        engine: match engine {
            Engine::Table => "table",
            Engine::Frontier => "frontier",
        },
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
    }
}

/// Why a run ended early, in words; `None` when it is complete.
pub(crate) fn stop_message(stop: Stop) -> Option<String> {
    match stop {
        Stop::Complete => None,
        Stop::MaxDepth(d) => Some(format!("--max-depth {d} reached; the space is not exhausted")),
        Stop::Memory { depth, needed, budget } => Some(format!(
            "level {depth} did not fit: it needs {} with the two levels before it, over the --memory budget of {}",
            format_bytes(needed as f64),
            format_bytes(budget as f64)
        )),
    }
}

/// Prints a report as a table; `render` gives extra lines to show under each antipode.
pub(crate) fn print_report(r: &BfsReport, title: &str, render: impl Fn(&str) -> Vec<String>) {
    outln!("{title}: {} engine, {} threads", r.engine, r.threads);
    match &r.classes {
        None => {
            outln!("{:>8}  {:>20}", "distance", "positions");
            for (d, n) in r.levels.iter().enumerate() {
                outln!("{d:>8}  {:>20}", format_count(*n));
            }
            outln!("{:>8}  {:>20}", "total", format_count(r.total));
        }
        Some(classes) => {
            let header = format!("classes ({} symmetries)", r.class_group.unwrap_or(1));
            outln!("{:>8}  {:>26}  {:>22}", "distance", "positions", header);
            for (d, (n, c)) in r.levels.iter().zip(classes).enumerate() {
                outln!("{d:>8}  {:>26}  {:>26}", format_count(*n), format_count(*c));
            }
            outln!(
                "{:>8}  {:>26}  {:>26}",
                "total",
                format_count(r.total),
                format_count(classes.iter().sum::<u64>())
            );
        }
    }
    match (&r.stopped, r.diameter) {
        (None, Some(d)) => outln!("diameter {d}: the farthest positions need {d} moves"),
        (Some(why), _) => outln!("stopped: {why}; the counts above are exact"),
        (None, None) => {}
    }
    if let Some(count) = r.antipode_count {
        match &r.antipodes {
            Some(boards) => {
                outln!("antipodes ({count}):");
                for text in boards {
                    outln!("  {text}");
                    for line in render(text) {
                        outln!("    {line}");
                    }
                }
            }
            None => outln!(
                "antipodes: {} (too many to print; see --show-antipodes)",
                format_count(count)
            ),
        }
    }
    let per_thread = r.positions_per_second / r.threads as f64;
    let peak = machine::peak_rss().map_or(String::new(), |b| {
        format!(", process peak {}", format_bytes(b as f64))
    });
    outln!(
        "time {:.3} s: {}positions/s ({}/s per thread); engine memory {}{peak}",
        r.seconds,
        format_rate(r.positions_per_second),
        format_rate(per_thread),
        format_bytes(r.peak_bytes as f64),
    );
}
