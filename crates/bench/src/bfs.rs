//! The enumeration section: the engines' speed on tile boards, as ratios against a plain
//! hash-set BFS measured in the same run (the machines are shared and noisy, so absolute
//! figures alone mislead), and table descent.

use crate::measure::{best_of, limits, on_disk, print_rows, Row};
use anyhow::{ensure, Context, Result};
use godsearch_app::units::{format_bytes, format_count};
use godsearch_console::machine;
use godsearch_console::outln;
use godsearch_core::RankedSpace;
use godsearch_enumerate::back_moves::BackMoves;
use godsearch_enumerate::{frontier, reference, table, Enumeration, Limits, NoProgress, Stop};
use godsearch_puzzles::tiles::{Board, Shape, TileSpace};
use godsearch_search::descend;
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// Repetitions of the fast cases; the best time counts (least disturbed by other load).
const REPEATS_FAST: usize = 10;
/// Random boards solved by descent.
const DESCENT_BOARDS: usize = 10_000;
/// Seed for the random boards, so every run solves the same ones.
const SEED: u64 = 2026;
/// Bytes of a listed tile rank.
const STATE_BYTES: f64 = std::mem::size_of::<u64>() as f64;

fn space(w: usize, h: usize) -> Result<TileSpace<u64>> {
    Ok(TileSpace::new(Board::goal(Shape::new(w, h)?))?)
}

fn complete_row(
    case: &str,
    engine: &'static str,
    sp: &TileSpace<u64>,
    (e, seconds): (Enumeration<u64>, f64),
) -> Result<Row> {
    ensure!(
        e.stop == Stop::Complete && e.total() as u128 == sp.state_count(),
        "{case}: wrong total {}",
        e.total()
    );
    Ok(Row {
        case: case.into(),
        engine,
        positions: e.total(),
        seconds,
        engine_bytes: e.peak_bytes,
        bytes_per_state: match engine {
            "table" => table::table_bytes(sp.state_count()) as f64 / sp.state_count() as f64,
            _ => STATE_BYTES,
        },
        disk_bytes: 0,
    })
}

fn table_row(case: &str, w: usize, h: usize, repeats: usize) -> Result<Row> {
    let sp = space(w, h)?;
    let run = best_of(repeats, || {
        Ok(table::enumerate(&sp, &limits(None), &NoProgress)?.enumeration)
    })?;
    complete_row(case, "table", &sp, run)
}

/// How the frontier engine ends a run to a depth.
#[derive(Clone, Copy, PartialEq)]
enum LastLevel {
    Stored,
    /// Counted without being stored (`--count-last`).
    Counted,
}

/// The tiles' states as `bfs` enumerates them with the frontier engine, with their moves back
/// ([`BackMoves`]), or plain: the engine before them, for comparison.
#[derive(Clone, Copy, PartialEq)]
enum States {
    MovesBack,
    Plain,
}

/// `sp` with its moves back.
fn with_moves_back(sp: &TileSpace<u64>) -> Result<BackMoves<TileSpace<u64>>> {
    BackMoves::ranked(sp.clone()).context("tiles have room for their moves back")
}

fn frontier_row(
    case: &str,
    (w, h): (usize, usize),
    max_depth: Option<u32>,
    (states, last): (States, LastLevel),
    repeats: usize,
) -> Result<Row> {
    let sp = space(w, h)?;
    let run_limits = Limits {
        count_last: last == LastLevel::Counted,
        ..limits(max_depth)
    };
    let (e, seconds) = match states {
        States::MovesBack => {
            let back = with_moves_back(&sp)?;
            best_of(repeats, || {
                Ok(frontier::enumerate(&back, &run_limits, &NoProgress))
            })?
        }
        States::Plain => best_of(repeats, || {
            Ok(frontier::enumerate(&sp, &run_limits, &NoProgress))
        })?,
    };
    if max_depth.is_none() {
        return complete_row(case, "frontier", &sp, (e, seconds));
    }
    ensure!(
        e.stop == Stop::MaxDepth(max_depth.unwrap_or(0)),
        "{case}: stopped early: {:?}",
        e.stop
    );
    Ok(Row {
        case: case.into(),
        engine: match (states, last) {
            (States::MovesBack, LastLevel::Stored) => "frontier",
            (States::MovesBack, LastLevel::Counted) => "frontier, last level counted",
            (States::Plain, LastLevel::Stored) => "frontier, plain states",
            (States::Plain, LastLevel::Counted) => "frontier, plain, last counted",
        },
        positions: e.total(),
        seconds,
        engine_bytes: e.peak_bytes,
        bytes_per_state: STATE_BYTES,
        disk_bytes: 0,
    })
}

/// The frontier engine with its levels on disk, in a temporary folder, to `max_depth`.
fn disk_row(
    case: &str,
    (w, h): (usize, usize),
    max_depth: u32,
    states: States,
    repeats: usize,
) -> Result<Row> {
    let sp = space(w, h)?;
    let run_limits = limits(Some(max_depth));
    let (run, seconds) = match states {
        States::MovesBack => {
            let back = with_moves_back(&sp)?;
            best_of(repeats, || on_disk(&back, &run_limits))?
        }
        States::Plain => best_of(repeats, || on_disk(&sp, &run_limits))?,
    };
    ensure!(
        run.enumeration.stop == Stop::MaxDepth(max_depth),
        "{case}: stopped early: {:?}",
        run.enumeration.stop
    );
    let engine = match states {
        States::MovesBack => "frontier on disk",
        States::Plain => "frontier on disk, plain states",
    };
    Ok(Row::on_disk(case.into(), engine, &run, seconds))
}

/// The frontier rows' runs: as `bfs` makes them, the last level counted, and plain states.
const STORED: (States, LastLevel) = (States::MovesBack, LastLevel::Stored);
const COUNTED: (States, LastLevel) = (States::MovesBack, LastLevel::Counted);
const PLAIN: (States, LastLevel) = (States::Plain, LastLevel::Stored);

/// The enumeration section: the engines on tile boards against a hash-set BFS, then table
/// descent; `large` adds the long cases.
pub fn run(large: bool, threads: usize) -> Result<()> {
    outln!("== enumeration: {threads} threads; best of {REPEATS_FAST} runs for the fast cases\n");

    let goal = Board::goal(Shape::new(3, 3)?);
    let (levels, baseline_seconds) = best_of(3, || {
        Ok(reference::bfs_levels(goal.clone(), None, |b: &Board| {
            b.successors().map(|(_, n)| n).collect::<Vec<_>>()
        }))
    })?;
    let baseline = Row {
        case: "3x3 complete".into(),
        engine: "hash-set BFS, 1 thread (baseline)",
        positions: levels.iter().sum(),
        seconds: baseline_seconds,
        ..Row::default()
    };
    let mut rows = vec![
        baseline,
        table_row("3x3 complete", 3, 3, REPEATS_FAST)?,
        frontier_row("3x3 complete", (3, 3), None, STORED, REPEATS_FAST)?,
        table_row("2x5 complete", 2, 5, 3)?,
        frontier_row("4x4 depth 0..22", (4, 4), Some(22), STORED, 3)?,
        frontier_row("4x4 depth 0..22", (4, 4), Some(22), PLAIN, 3)?,
        frontier_row("4x4 depth 0..22", (4, 4), Some(22), COUNTED, 3)?,
        disk_row("4x4 depth 0..22", (4, 4), 22, States::MovesBack, 3)?,
        disk_row("4x4 depth 0..22", (4, 4), 22, States::Plain, 3)?,
    ];
    if large {
        rows.push(table_row("3x4 complete", 3, 4, 1)?);
        rows.push(frontier_row(
            "4x4 depth 0..28",
            (4, 4),
            Some(28),
            STORED,
            1,
        )?);
        rows.push(frontier_row(
            "4x4 depth 0..28",
            (4, 4),
            Some(28),
            COUNTED,
            1,
        )?);
        rows.push(disk_row(
            "4x4 depth 0..28",
            (4, 4),
            28,
            States::MovesBack,
            1,
        )?);
    }
    let baseline_rate = rows[0].positions as f64 / rows[0].seconds;
    print_rows(&rows, threads, |_| baseline_rate);

    let sp = space(3, 3)?;
    let built = table::enumerate(&sp, &limits(None), &NoProgress)?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(SEED);
    let starts: Vec<u64> = (0..DESCENT_BOARDS)
        .map(|_| rng.gen_range(0..sp.state_count() as u64))
        .collect();
    let diameter = built.enumeration.levels.len();
    let started = Instant::now();
    let mut moves = 0;
    for &r in &starts {
        moves += descend(&sp, &built.table, r, diameter)?.len();
    }
    let seconds = started.elapsed().as_secs_f64();
    outln!(
        "\n3x3 table descent: {} random boards, mean length {:.2}, {:.2} microseconds a board (1 thread)",
        format_count(DESCENT_BOARDS),
        moves as f64 / DESCENT_BOARDS as f64,
        seconds * 1e6 / DESCENT_BOARDS as f64
    );
    if let Some(peak) = machine::peak_rss() {
        outln!("process peak memory: {}", format_bytes(peak as f64));
    }
    Ok(())
}
