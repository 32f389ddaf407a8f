//! `godsearch bench --section optimal`: the optimal 3x3x3 solver on positions of a known kind:
//! random 13-move sequences with the small table, then uniformly random cubes with the table
//! of `--table-size` (1 GB by default), each position on every thread. Prints each position's
//! optimal length, nodes and time, then the distribution of the times, and what the table's
//! lookups prove of many random cubes (the mean bound, lookup by lookup, as nxopt reports it).

use anyhow::{ensure, Result};
use godsearch_app::cache::{Origin, TableCache};
use godsearch_app::units::{format_bytes, format_count, format_seconds};
use godsearch_console::outln;
use godsearch_puzzles::cube::notation::{apply_moves, Move};
use godsearch_puzzles::cube::{random_cube, CubieCube, Metric};
use godsearch_twophase::optimal::{
    solve_optimal, table_bounds, OptimalOptions, OptimalTables, TableBounds, TableSize,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// Seed of the positions, so every run solves the same ones.
const SEED: u64 = 2026;
/// Positions of the short set, and their scramble length: a few seconds in all.
const SHORT_POSITIONS: usize = 20;
const SHORT_LENGTH: usize = 13;
/// Random cubes whose table bounds are averaged, and their own seed (the solved cubes stay the
/// same whatever this part draws): about a second with the 8gb table.
const BOUND_CUBES: usize = 10_000;
const BOUND_SEED: u64 = 2027;
/// Bounds are counted up to this value (the tables' distances stay below 14 in HTM).
const BOUND_VALUES: usize = 24;

fn tables(cache: &TableCache, size: TableSize) -> Result<OptimalTables> {
    let bar = godsearch_console::progress::LevelBar::new();
    let started = Instant::now();
    let (tables, origin) = cache.optimal_tables(size, Metric::Htm, &bar)?;
    bar.finish();
    let bytes = format_bytes(size.bytes() as f64);
    match origin {
        Origin::Cached => outln!(
            "{} table ({bytes}) read from the cache in {:.2} s",
            size.name(),
            started.elapsed().as_secs_f64()
        ),
        Origin::Built {
            seconds, not_saved, ..
        } => outln!(
            "{} table ({bytes}) built in {seconds:.1} s and {}",
            size.name(),
            not_saved.map_or("saved".to_string(), |why| format!("not saved: {why}"))
        ),
    }
    Ok(tables)
}

/// Solves each cube, printing a line each, then the distribution.
fn solve_all(tables: &OptimalTables, cubes: &[CubieCube], threads: usize) -> Result<()> {
    outln!(
        "{:>4} {:>7} {:>16} {:>12} {:>14}",
        "#",
        "length",
        "nodes",
        "time",
        "nodes/s"
    );
    let mut times = Vec::with_capacity(cubes.len());
    let (mut nodes_sum, mut length_sum) = (0u64, 0usize);
    for (i, cube) in cubes.iter().enumerate() {
        let started = Instant::now();
        let found = solve_optimal(tables, cube, OptimalOptions::default())?;
        let seconds = started.elapsed().as_secs_f64();
        let moves = found.solutions.first().map_or(&[][..], |m: &Vec<Move>| m);
        ensure!(
            apply_moves(cube, moves).is_solved(),
            "position {i}: replay failed"
        );
        outln!(
            "{:>4} {:>7} {:>16} {:>12} {:>14}",
            i + 1,
            moves.len(),
            format_count(found.nodes),
            format_seconds(seconds),
            format_count((found.nodes as f64 / seconds.max(f64::MIN_POSITIVE)) as u64)
        );
        times.push(seconds);
        nodes_sum += found.nodes;
        length_sum += moves.len();
    }
    let n = cubes.len() as f64;
    let total: f64 = times.iter().sum();
    times.sort_by(f64::total_cmp);
    let quantile = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    outln!(
        "{} positions on {threads} threads: mean length {:.2}, mean {} a position (min {}, median {}, 90% {}, max {}), {} nodes a position, {} nodes/s",
        cubes.len(),
        length_sum as f64 / n,
        format_seconds(total / n),
        format_seconds(quantile(0.0)),
        format_seconds(quantile(0.5)),
        format_seconds(quantile(0.9)),
        format_seconds(quantile(1.0)),
        format_count((nodes_sum as f64 / n) as u64),
        format_count((nodes_sum as f64 / total.max(f64::MIN_POSITIVE)) as u64)
    );
    Ok(())
}

/// The short set with the small table, then `random` uniformly random cubes with `size`.
pub fn run(cache: &TableCache, size: TableSize, random: usize, threads: usize) -> Result<()> {
    let mut rng = StdRng::seed_from_u64(SEED);
    outln!("\n== optimal 3x3x3: {SHORT_POSITIONS} random sequences of {SHORT_LENGTH} moves");
    let small = tables(cache, TableSize::Small)?;
    let moves = Metric::Htm.moves();
    let short: Vec<CubieCube> = (0..SHORT_POSITIONS)
        .map(|_| {
            let walk: Vec<Move> = (0..SHORT_LENGTH)
                .map(|_| moves[rng.gen_range(0..moves.len())])
                .collect();
            apply_moves(&CubieCube::SOLVED, &walk)
        })
        .collect();
    solve_all(&small, &short, threads)?;
    drop(small);
    if random == 0 {
        return Ok(());
    }
    outln!(
        "\n== optimal 3x3x3: {random} uniformly random cubes, table {}",
        size.name()
    );
    let tables = tables(cache, size)?;
    let cubes: Vec<CubieCube> = (0..random).map(|_| random_cube(&mut rng)).collect();
    solve_all(&tables, &cubes, threads)?;
    bounds_of_random_cubes(&tables)
}

/// One of the bounds reported, from a cube's table bounds.
type BoundOf = fn(&TableBounds) -> usize;

/// The mean of each of the table's bounds over [`BOUND_CUBES`] random cubes, and how they
/// spread: one lookup, the largest of three, with the rule of the last move, and with the
/// inverse position's three lookups and rule as well (what the search proves at its root).
fn bounds_of_random_cubes(tables: &OptimalTables) -> Result<()> {
    let mut rng = StdRng::seed_from_u64(BOUND_SEED);
    let kinds: [(&str, BoundOf); 4] = [
        ("U/D axis alone", |b| b.axes[0]),
        ("largest of three axes", |b| b.largest),
        ("with the last-move rule", |b| b.with_last_move),
        ("and the inverse's", |b| b.with_inverse),
    ];
    let mut counts = [[0u64; BOUND_VALUES]; 4];
    for _ in 0..BOUND_CUBES {
        let cube = random_cube(&mut rng);
        let bounds = table_bounds(tables, &cube)?;
        for (k, (_, of)) in kinds.iter().enumerate() {
            counts[k][of(&bounds).min(BOUND_VALUES - 1)] += 1;
        }
    }
    outln!(
        "table bounds of {} random cubes: mean, then the share at each value",
        format_count(BOUND_CUBES as u64)
    );
    for ((name, _), count) in kinds.iter().zip(&counts) {
        let n = BOUND_CUBES as f64;
        let mean = (count.iter().enumerate())
            .map(|(v, &c)| v as f64 * c as f64)
            .sum::<f64>()
            / n;
        let shares: Vec<String> = (count.iter().enumerate())
            .filter(|(_, &c)| c > 0)
            .map(|(v, &c)| format!("{v}: {:.1}%", 100.0 * c as f64 / n))
            .collect();
        outln!("  {name:<24} {mean:>7.3}   {}", shares.join(", "));
    }
    Ok(())
}
