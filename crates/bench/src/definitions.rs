//! `godsearch bench --section definitions`: puzzles read from the shipped definition files,
//! enumerated by the same engines as the built-in ones, against the built-in 2x2x2 and 3x3x3
//! measured in the same run; the group orders by Schreier-Sims; short 3x3x3 scrambles solved
//! by IDA* over the automatic pattern databases; the 4x4x4 and the megaminx (ranks past 128
//! bits) enumerated over classes under their symmetries and over whole states, and their
//! scrambles solved by IDA* over the hashed ball near solved. (twips, the peer, is measured
//! outside the project: docs/definitions.md says how.)

use crate::measure::{best_of, limits, print_rows, Row};
use anyhow::{ensure, Context, Result};
use godsearch_app::cache::TableCache;
use godsearch_app::registry::definition::file::{
    self as definitions, DefinitionMetric, DefinitionPuzzle,
};
use godsearch_app::registry::definition::prepare::prepare;
use godsearch_app::registry::definition::shipped;
use godsearch_app::registry::definition::solve::{
    self as definition_solve, DefinitionSolveRequest,
};
use godsearch_app::report::DefinitionSolution;
use godsearch_console::outln;
use godsearch_core::{NoProgress, RankedSpace, StateSpace};
use godsearch_enumerate::{frontier, state_levels, table, Enumeration, KeyState, Stop};
use godsearch_orbit::classes::Key256;
use godsearch_orbit::slots::Slots;
use godsearch_orbit::{alg, OrbitSpace, Transformation};
use godsearch_puzzles::cube::{Cube2Space, Cube3Classes, Metric, Reduction};
use std::time::Instant;

/// Repetitions of each enumeration; the best time counts.
const REPEATS: usize = 5;
/// The 3x3x3 from its file (classes under the 48 symmetries found from its moves) and built in
/// (classes of its 48), to this depth...
const CUBE_DEPTH: u32 = 7;
/// ...and from its file position by position, to this one.
const PLAIN_CUBE_DEPTH: u32 = 6;
/// 3x3x3 scrambles solved, and their length.
const SCRAMBLES: &[&str] = &[
    "R U F D2 L' B R2 U' F2 L",
    "F' D R2 B U' L2 F D' R B2",
    "U2 L F' R D B' U R2 F' D",
    "B L2 U' F R' D2 B' L U F2",
];

/// Deeper 3x3x3 scrambles (`--large`): 13 moves, where the sets of edges are not paid for,
/// then 14, where they are (docs/definitions.md).
const DEEP_SCRAMBLES: &[&str] = &[
    "R U F' L2 B D R2 F U' L B2 D F'",
    "R U F D2 L' B R2 U' F2 L R' D2 B U",
];

/// Solved over the prepared databases (`--large`, after `pdb build` into a temporary
/// folder): 14 moves, then 15, which reads the seven-edge sets (docs/definitions.md).
const PREPARED_SCRAMBLES: &[&str] = &[
    "R U F D2 L' B R2 U' F2 L R' D2 B U",
    "R U F D2 L' B R2 U' F2 L R' D2 B U F'",
];

fn definition(file: &str) -> Result<DefinitionPuzzle> {
    let shipped =
        shipped::by_file(file).with_context(|| format!("no shipped definition {file}"))?;
    Ok(definitions::parse(file, shipped.text)?)
}

/// Past 128-bit ranks: the 4x4x4 and the megaminx over classes under their symmetries (in
/// 256-bit keys and whole states) to this depth...
const CLASS_DEPTH: u32 = 5;
/// ...and over whole states to this one, their levels compared.
const WHOLE_DEPTH: u32 = 4;

/// The engine for spaces past 128-bit ranks ([`state_levels`]) on the 4x4x4 and the megaminx,
/// over classes and over whole states, the best time of [`REPEATS`] runs each.
fn past_128_bits() -> Result<()> {
    outln!("\npast 128-bit ranks: classes to depth {CLASS_DEPTH}, whole states to {WHOLE_DEPTH}");
    for file in ["4x4x4.kpuzzle.json", "megaminx.kpuzzle.json"] {
        let puzzle = definition(file)?;
        let classes = puzzle
            .class_space::<Slots>(&[], DefinitionMetric::Outer)?
            .with_context(|| format!("{file} has symmetries"))?;
        let symmetries = classes.symmetry_count();
        let (by_classes, class_seconds) = match classes.fits_key::<Key256>() {
            true => {
                let compact = classes.with_key::<Key256>().expect("it fits");
                levels_best(&compact, CLASS_DEPTH)?
            }
            false => levels_best(&classes, CLASS_DEPTH)?,
        };
        let whole = puzzle.slot_space(&[], DefinitionMetric::Outer)?;
        let (by_states, whole_seconds) = levels_best(&whole, WHOLE_DEPTH)?;
        ensure!(
            by_states[..] == by_classes[..=WHOLE_DEPTH as usize],
            "{file}: the classes' levels differ from the whole states'"
        );
        outln!(
            "  {:<9} classes of {symmetries}: {:.3} s for {} positions; whole states: {:.3} s for {}",
            puzzle.name(),
            class_seconds,
            by_classes.iter().sum::<u64>(),
            whole_seconds,
            by_states.iter().sum::<u64>()
        );
    }
    Ok(())
}

/// The engine past 128-bit ranks over `space` to `depth`: its positions at each distance, and
/// the best time of [`REPEATS`] runs.
fn levels_best<P: StateSpace>(space: &P, depth: u32) -> Result<(Vec<u64>, f64)> {
    best_of(REPEATS, || {
        let e = state_levels::enumerate(space, &limits(Some(depth)), &NoProgress);
        ensure!(
            e.stop == Stop::MaxDepth(depth),
            "stopped early: {:?}",
            e.stop
        );
        Ok(e.levels)
    })
}

/// The frontier engine over `space` to `depth`, the best time of [`REPEATS`] runs.
fn frontier_best<P>(space: &P, depth: u32) -> Result<(Enumeration<P::State>, f64)>
where
    P: StateSpace,
    P::State: KeyState,
{
    best_of(REPEATS, || {
        Ok(frontier::enumerate(
            space,
            &limits(Some(depth)),
            &NoProgress,
        ))
    })
}

fn table_row(case: &str, space: &impl RankedSpace<State = u64>, total: u64) -> Result<Row> {
    let (e, seconds) = best_of(REPEATS, || {
        Ok(table::enumerate(space, &limits(None), &NoProgress)?.enumeration)
    })?;
    ensure!(
        e.stop == Stop::Complete && e.total() == total,
        "{case}: total {}",
        e.total()
    );
    Ok(Row {
        case: case.into(),
        engine: "table",
        positions: e.total(),
        seconds,
        engine_bytes: e.peak_bytes,
        bytes_per_state: table::table_bytes(space.state_count()) as f64 / total as f64,
        disk_bytes: 0,
    })
}

fn file_row(file: &str, generators: &str, total: u64) -> Result<Row> {
    let puzzle = definition(file)?;
    let space: OrbitSpace<u64> = puzzle.space(
        &definitions::parse_generators(generators),
        DefinitionMetric::Outer,
    )?;
    table_row(&format!("{} (file)", puzzle.name()), &space, total)
}

/// The definitions section; `large` adds the pyraminx with tips, the <R, U> group and the
/// 10-move 4x4x4.
pub fn run(large: bool, threads: usize) -> Result<()> {
    outln!("== definition files: {threads} threads; 'vs base' compares positions/s with the built-in 2x2x2's table engine\n");
    let built_in = table_row("2x2x2 built in", &Cube2Space::new(Metric::Htm), 3_674_160)?;
    let base = built_in.positions as f64 / built_in.seconds;
    let mut rows = vec![
        built_in,
        file_row("2x2x2.kpuzzle.json", "U,F,R", 3_674_160)?,
        file_row("pyraminx-no-tips.tws", "", 933_120)?,
        file_row("skewb.kpuzzle.json", "", 3_149_280)?,
    ];
    if large {
        rows.push(file_row("pyraminx.kpuzzle.json", "", 75_582_720)?);
        rows.push(file_row("3x3x3-ru.tws", "", 73_483_200)?);
    }
    print_rows(&rows, threads, |_| base);

    outln!("\n3x3x3 to depth {CUBE_DEPTH}: from its file (classes of the 48 symmetries found from its moves) and built in (classes of 48)");
    let cube = definition("3x3x3.kpuzzle.json")?;
    let file_classes = cube
        .class_space::<u128>(&[], DefinitionMetric::Outer)?
        .context("the 3x3x3's file has symmetries")?;
    ensure!(
        file_classes.symmetry_count() == 48,
        "the 3x3x3's file has 48 symmetries"
    );
    let (from_file, file_seconds) = frontier_best(&file_classes, CUBE_DEPTH)?;
    let classes = Cube3Classes::new(Metric::Htm, Reduction::Symmetries);
    let (built, built_seconds) = frontier_best(&classes, CUBE_DEPTH)?;
    ensure!(
        from_file.levels == built.levels,
        "the 3x3x3 file's levels differ"
    );
    outln!(
        "  file {:.3} s, built in {:.3} s: {:.1}x the built-in time for {} positions",
        file_seconds,
        built_seconds,
        file_seconds / built_seconds,
        from_file.total()
    );
    let space: OrbitSpace<u128> = cube.space(&[], DefinitionMetric::Outer)?;
    let (plain, plain_seconds) = frontier_best(&space, PLAIN_CUBE_DEPTH)?;
    ensure!(
        plain.levels[..] == built.levels[..=PLAIN_CUBE_DEPTH as usize],
        "the 3x3x3 file's levels without symmetry differ"
    );
    outln!(
        "  to depth {PLAIN_CUBE_DEPTH} from its file position by position (no symmetry): {:.3} s for {} positions",
        plain_seconds,
        plain.total()
    );

    past_128_bits()?;

    outln!("\ngroup orders (Schreier-Sims) and distinguishable positions");
    for file in [
        "3x3x3.kpuzzle.json",
        "megaminx.kpuzzle.json",
        "4x4x4.kpuzzle.json",
    ] {
        let puzzle = definition(file)?;
        let started = Instant::now();
        let order = puzzle.group_order(&[])?;
        outln!(
            "  {:<10} {:>6.3} s  group order: {} digits",
            puzzle.name(),
            started.elapsed().as_secs_f64(),
            order.to_string().len()
        );
    }
    let cube4 = definition("4x4x4.kpuzzle.json")?;
    let started = Instant::now();
    let positions = cube4
        .distinct_positions(&definitions::parse_generators("U,R,F,2U,2R,2F,2D,2L,2B"))?
        .context("the 4x4x4's distinguishable positions")?;
    outln!(
        "  {:<10} {:>6.3} s  distinguishable positions, one corner fixed: {positions}",
        cube4.name(),
        started.elapsed().as_secs_f64()
    );

    outln!(
        "\n3x3x3 from its file: 10-move scrambles solved by IDA* over automatic pattern databases"
    );
    let request = DefinitionSolveRequest {
        generators: &[],
        metric: DefinitionMetric::Outer,
        memory_bytes: godsearch_console::machine::default_memory_budget(),
        deadline: None,
        descent_ranks: definition_solve::DESCENT_RANKS,
        database_ranks: definition_solve::QUICK_DATABASE_RANKS,
        prepared_ranks: 0,
        count: 1,
        table: None,
        algorithm: Default::default(),
        cache: None,
    };
    let names = cube.definition.move_names();
    let moves: Vec<&Transformation> = cube
        .definition
        .moves
        .iter()
        .map(|m| &m.transformation)
        .collect();
    let solver = definition_solve::DefinitionSolver::new(&cube, &request, &NoProgress)?;
    for scramble in SCRAMBLES {
        let steps = alg::parse(scramble, &names).map_err(anyhow::Error::msg)?;
        let orbits = &cube.definition.orbits;
        let start =
            alg::to_transformation(&steps, &moves, orbits).apply(&cube.definition.solved, orbits);
        let r = solver.solve(&start, scramble, None)?;
        outln!(
            "  {:<28} {:>2} moves  {:>10} nodes  {:>8.3} s  ({:.1} k nodes/s; databases {:.2} s)",
            scramble,
            r.length,
            r.nodes_expanded,
            r.seconds,
            r.nodes_expanded as f64 / r.seconds.max(1e-9) / 1e3,
            r.build_seconds
        );
    }

    if large {
        outln!("\n3x3x3 from its file, deeper: the sets of edges are built once a search pays for them");
        for scramble in DEEP_SCRAMBLES {
            deep_row(&cube, &solver, scramble, |r| {
                format!("built {:.2} s: {}", r.build_seconds, r.databases.join(", "))
            })?;
        }
    }

    if large {
        prepared(&cube, &request)?;
    }

    outln!("\nranks past 128 bits: scrambles over slot spaces and the hashed ball near solved");
    let mut slot_cases = vec![
        ("4x4x4.kpuzzle.json", "R 2U F' 2R D B2"),
        ("megaminx.kpuzzle.json", "U R F' BR2 L DL'"),
        ("4x4x4.kpuzzle.json", "R 2U F' 2R D B2 L 2F"),
        ("megaminx.kpuzzle.json", "U R F' BR2 L DL' F2 BL'"),
    ];
    if large {
        slot_cases.push(("4x4x4.kpuzzle.json", "R 2U F' 2R D B2 L 2F U' 2B"));
    }
    for (file, scramble) in slot_cases {
        let puzzle = definition(file)?;
        let solver = definition_solve::DefinitionSolver::new(&puzzle, &request, &NoProgress)?;
        let start = definitions::position(&puzzle, scramble)?;
        let r = solver.solve(&start, scramble, None)?;
        outln!(
            "  {:<9} {:<28} {:>2} moves  {:>8} nodes  search {:>7.3} s  ball {:.3} s",
            puzzle.name(),
            scramble,
            r.length,
            r.nodes_expanded,
            r.seconds,
            r.build_seconds
        );
    }
    Ok(())
}

/// The 3x3x3's prepared databases built into a temporary folder (`pdb build`), then
/// [`PREPARED_SCRAMBLES`] solved over them by a solver that reads them from there (its
/// request otherwise `request`).
fn prepared(cube: &DefinitionPuzzle, request: &DefinitionSolveRequest) -> Result<()> {
    outln!("\n3x3x3 from its file over the prepared databases (pdb build into a temporary folder)");
    let dir = tempfile::tempdir()?;
    let cache = TableCache::new(dir.path().to_path_buf());
    let request = DefinitionSolveRequest {
        prepared_ranks: definition_solve::PREPARED_DATABASE_RANKS,
        cache: Some(&cache),
        ..request.clone()
    };
    let started = Instant::now();
    let made = prepare(cube, &request, false, &NoProgress)?;
    let entries: u64 = made.iter().map(|d| d.entries).sum();
    outln!(
        "  pdb build: {} databases, {entries} entries, {:.1} s",
        made.len(),
        started.elapsed().as_secs_f64()
    );
    let solver = definition_solve::DefinitionSolver::new(cube, &request, &NoProgress)?;
    for scramble in PREPARED_SCRAMBLES {
        deep_row(cube, &solver, scramble, |r| {
            format!("read {:.2} s", r.build_seconds)
        })?;
    }
    Ok(())
}

/// Solves `scramble` of `cube` with `solver` and prints its row: moves, nodes, search time
/// and rate, then `tail` of the report (what was built or read).
fn deep_row(
    cube: &DefinitionPuzzle,
    solver: &definition_solve::DefinitionSolver,
    scramble: &str,
    tail: impl Fn(&DefinitionSolution) -> String,
) -> Result<()> {
    let start = definitions::position(cube, scramble)?;
    let r = solver.solve(&start, scramble, None)?;
    outln!(
        "  {:<42} {:>2} moves  {:>9} nodes  search {:>6.2} s  ({:.1} k nodes/s)  {}",
        scramble,
        r.length,
        r.nodes_expanded,
        r.seconds,
        r.nodes_expanded as f64 / r.seconds.max(1e-9) / 1e3,
        tail(&r)
    );
    Ok(())
}
