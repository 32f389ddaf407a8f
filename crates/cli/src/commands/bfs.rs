//! `godsearch bfs`: God's algorithm from the goal, with the engine chosen by size.

use super::bfs_output::{check_save_target, print_report, stop_message};
use crate::args::{BfsArgs, EngineChoice};
use crate::errors::bad_input;
use crate::machine;
use crate::output::outln;
use crate::progress::LevelBar;
use crate::spaces;
use anyhow::{Context, Result};
use godsearch_app::report::BfsReport;
use godsearch_app::tables::{self, AnySpace};
use godsearch_app::units::{format_bytes, format_count};
use godsearch_core::{RankInt, RankedSpace};
use godsearch_enumerate::{choose_engine, frontier, table, Engine, Enumeration, Limits, Stop};
use godsearch_puzzles::tiles::{Board, TileSpace};
use godsearch_puzzles::PuzzleName;
use godsearch_tables::TwoBitTable;
use std::time::Instant;

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
        tables::save_tile_table(path, space.goal(), t, &enumeration.levels)
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
