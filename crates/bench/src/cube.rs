//! `godsearch bench --section cube`: cube enumeration against a plain hash-set BFS over cubie
//! cubes measured in the same run, and the two-phase solver on 1,000 uniformly random cubes.

use crate::measure::{best_of, limits, on_disk, print_rows, Row};
use anyhow::{ensure, Result};
use godsearch_app::cache::{Origin, TableCache};
use godsearch_app::units::{format_bytes, format_count};
use godsearch_console::outln;
use godsearch_core::RankedSpace;
use godsearch_enumerate::{frontier, reference, table, NoProgress, Stop};
use godsearch_puzzles::cube::notation::apply_moves;
use godsearch_puzzles::cube::{
    random_cube, Cube2Space, Cube3Classes, CubieCube, Metric, Reduction,
};
use godsearch_twophase::{solve, Options, Tables};
use rand::SeedableRng;
use rayon::prelude::*;
use std::time::Instant;

/// Random cubes the two-phase solver is timed on (the anchors use 1,000).
const RANDOM_CUBES: usize = 1000;
/// Seed for the random cubes, so every run solves the same ones.
const SEED: u64 = 2026;
/// Depth of the hash-set baseline on the 3x3x3 (621,104 positions; a few seconds).
const BASELINE_DEPTH: u32 = 5;
/// Repetitions of the fast enumerations; the best time counts.
const REPEATS: usize = 5;

fn cube2_row(metric: Metric) -> Result<Row> {
    let space = Cube2Space::new(metric);
    let (e, seconds) = best_of(REPEATS * 2, || {
        Ok(table::enumerate(&space, &limits(None), &NoProgress)?.enumeration)
    })?;
    ensure!(
        e.stop == Stop::Complete && e.total() == 3_674_160,
        "2x2x2 total"
    );
    Ok(Row {
        case: format!("2x2x2 {metric} complete"),
        engine: "table",
        positions: e.total(),
        seconds,
        engine_bytes: e.peak_bytes,
        bytes_per_state: table::table_bytes(space.state_count()) as f64
            / space.state_count() as f64,
        disk_bytes: 0,
    })
}

fn cube3_row(metric: Metric, depth: u32, repeats: usize) -> Result<Row> {
    let (e, seconds) = best_of(repeats, || {
        let space = Cube3Classes::new(metric, Reduction::Symmetries);
        Ok(frontier::enumerate(
            &space,
            &limits(Some(depth)),
            &NoProgress,
        ))
    })?;
    ensure!(
        e.stop == Stop::MaxDepth(depth),
        "3x3x3 stopped early: {:?}",
        e.stop
    );
    Ok(Row {
        case: format!("3x3x3 {metric} 0..{depth}"),
        engine: "symmetry classes",
        positions: e.total(),
        seconds,
        engine_bytes: e.peak_bytes,
        bytes_per_state: std::mem::size_of::<u128>() as f64,
        disk_bytes: 0,
    })
}

/// The classes with their levels on disk, in a temporary folder.
fn cube3_disk_row(metric: Metric, depth: u32, repeats: usize) -> Result<Row> {
    let space = Cube3Classes::new(metric, Reduction::Symmetries);
    let (run, seconds) = best_of(repeats, || on_disk(&space, &limits(Some(depth))))?;
    ensure!(
        run.enumeration.stop == Stop::MaxDepth(depth),
        "3x3x3 on disk stopped early: {:?}",
        run.enumeration.stop
    );
    Ok(Row::on_disk(
        format!("3x3x3 {metric} 0..{depth}"),
        "symmetry classes on disk",
        &run,
        seconds,
    ))
}

fn baseline_rows() -> Result<Vec<Row>> {
    let quarter: Vec<CubieCube> = Metric::Htm.moves().iter().map(|m| m.cubie()).collect();
    let (levels, seconds) = best_of(1, || {
        Ok(reference::bfs_levels(
            CubieCube::SOLVED,
            Some(BASELINE_DEPTH),
            |c| quarter.iter().map(|m| c.then(m)).collect::<Vec<_>>(),
        ))
    })?;
    let space = Cube2Space::new(Metric::Htm);
    // Corners only: a move's corner part, applied to a cube whose edges stay solved.
    let corner_moves: Vec<CubieCube> = space
        .moves()
        .iter()
        .map(|m| {
            let mut c = m.cubie();
            c.ep = CubieCube::SOLVED.ep;
            c.eo = CubieCube::SOLVED.eo;
            c
        })
        .collect();
    let (pocket, pocket_seconds) = best_of(1, || {
        Ok(reference::bfs_levels(CubieCube::SOLVED, None, |c| {
            corner_moves.iter().map(|m| c.then(m)).collect::<Vec<_>>()
        }))
    })?;
    ensure!(
        pocket.iter().sum::<u64>() == 3_674_160,
        "2x2x2 baseline total"
    );
    Ok(vec![
        Row {
            case: "2x2x2 htm complete".into(),
            engine: "hash-set BFS, 1 thread (base)",
            positions: pocket.iter().sum(),
            seconds: pocket_seconds,
            ..Row::default()
        },
        Row {
            case: format!("3x3x3 htm 0..{BASELINE_DEPTH}"),
            engine: "hash-set BFS, 1 thread (base)",
            positions: levels.iter().sum(),
            seconds,
            ..Row::default()
        },
    ])
}

/// The cube section, its two-phase tables from `cache`; `large` adds the 3x3x3 through 8 moves
/// (htm) and 10 quarter turns (qtm).
pub fn run(cache: &TableCache, large: bool, threads: usize) -> Result<()> {
    outln!("== cube enumeration: {threads} threads; 'vs base' compares positions/s with the hash-set BFS of the same cube\n");
    let baselines = baseline_rows()?;
    let mut rows = vec![cube2_row(Metric::Htm)?, cube2_row(Metric::Qtm)?];
    rows.push(cube3_row(Metric::Htm, 7, REPEATS)?);
    rows.push(cube3_row(Metric::Qtm, 8, REPEATS)?);
    rows.push(cube3_disk_row(Metric::Htm, 7, REPEATS)?);
    if large {
        rows.push(cube3_row(Metric::Htm, 8, 1)?);
        rows.push(cube3_row(Metric::Qtm, 10, 1)?);
    }
    let pocket_rate = baselines[0].positions as f64 / baselines[0].seconds;
    let cube_rate = baselines[1].positions as f64 / baselines[1].seconds;
    rows.splice(0..0, baselines);
    print_rows(&rows, threads, |r| {
        if r.case.starts_with("2x2x2") {
            pocket_rate
        } else {
            cube_rate
        }
    });
    two_phase(cache, threads)
}

fn two_phase(cache: &TableCache, threads: usize) -> Result<()> {
    let started = Instant::now();
    let bar = godsearch_console::progress::LevelBar::new();
    let (tables, origin) = cache.twophase_tables(&bar)?;
    bar.finish();
    let load = started.elapsed().as_secs_f64();
    match origin {
        Origin::Cached => outln!(
            "\n== two-phase: tables read from the cache in {load:.2} s ({})",
            format_bytes(Tables::byte_len() as f64)
        ),
        Origin::Built {
            seconds, not_saved, ..
        } => outln!(
            "\n== two-phase: tables built in {seconds:.1} s and {} ({})",
            not_saved.map_or("saved".to_string(), |why| format!("not saved: {why}")),
            format_bytes(Tables::byte_len() as f64)
        ),
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(SEED);
    let cubes: Vec<CubieCube> = (0..RANDOM_CUBES).map(|_| random_cube(&mut rng)).collect();
    outln!(
        "{} uniformly random cubes; one thread, then the same batch on {threads} threads; the \
         tables as loaded (a mapped file), then made resident in huge pages (copied, unless the \
         kernel maps the file in huge pages already)",
        format_count(RANDOM_CUBES as u64)
    );
    outln!(
        "{:<11} {:<10} {:>12} {:>12} {:>8} {:>14} {:>10}",
        "tables",
        "target",
        "ms a cube",
        "mean length",
        "longest",
        "batch cubes/s",
        "batch/1"
    );
    two_phase_rows(&tables, "as loaded", &cubes)?;
    let copy = Instant::now();
    let tables = tables.resident();
    let copy_seconds = copy.elapsed().as_secs_f64();
    two_phase_rows(&tables, "huge pages", &cubes)?;
    outln!("(made resident in {copy_seconds:.2} s: a copy takes 1-2 s, none 0)");
    Ok(())
}

/// One row a target length: the cubes solved on one thread, then as a batch on every thread.
fn two_phase_rows(tables: &Tables, label: &str, cubes: &[CubieCube]) -> Result<()> {
    for target_length in [21, 20] {
        let options = Options {
            target_length,
            deadline: None,
            stop: None,
        };
        let one = Instant::now();
        let mut lengths = Vec::with_capacity(cubes.len());
        for c in cubes {
            let s = solve(tables, c, options)?;
            ensure!(apply_moves(c, &s.moves).is_solved(), "replay failed");
            lengths.push(s.moves.len());
        }
        let one_seconds = one.elapsed().as_secs_f64();
        let batch = Instant::now();
        let batch_ok = cubes
            .par_iter()
            .map(|c| solve(tables, c, options).map(|s| s.moves.len() <= target_length))
            .collect::<Result<Vec<bool>, _>>()?;
        let batch_seconds = batch.elapsed().as_secs_f64();
        ensure!(
            batch_ok.iter().all(|&ok| ok),
            "a batch solution was too long"
        );
        outln!(
            "{:<11} <= {:<7} {:>12.3} {:>12.2} {:>8} {:>14.0} {:>9.2}x",
            label,
            target_length,
            one_seconds * 1e3 / cubes.len() as f64,
            lengths.iter().sum::<usize>() as f64 / cubes.len() as f64,
            lengths.iter().max().unwrap_or(&0),
            cubes.len() as f64 / batch_seconds,
            one_seconds / batch_seconds
        );
    }
    Ok(())
}
