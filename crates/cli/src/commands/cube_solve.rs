//! `godsearch solve 2x2x2|3x3x3`: reads the positions, checks the options, has the
//! application layer choose and load the solver ([`CubeSolver`], which replays every
//! solution) and prints ([`super::cube_report`]).

use super::cube_report::CubePrinter;
use crate::args::{Algorithm, SolutionNotation, SolveArgs};
use crate::errors::bad_input;
use crate::progress::LevelBar;
use anyhow::{Context, Result};
use godsearch_app::cube_solver::{CubeSetup, CubeSolver};
use godsearch_app::cubes::CubeJob;
use godsearch_app::cubes::{parse_position, CubeSize, Syntax};
use godsearch_app::request::{TableSize, Workbench};
use godsearch_app::units::excerpt;

/// A batch is solved this many positions a thread at a time, then printed: enough that the
/// threads rarely wait at a batch's end (a position takes about a millisecond), few enough that
/// results show as they come.
const POSITIONS_PER_THREAD_IN_FLIGHT: usize = 64;

/// The positions to solve: those given as arguments, then `--file`'s lines as they are read
/// (in constant memory: standard input may be endless).
fn jobs(args: &SolveArgs, size: CubeSize) -> Result<Jobs<'_>> {
    let syntax = match (args.moves, args.facelets) {
        (true, _) => Syntax::Moves,
        (_, true) => Syntax::Facelets,
        _ => Syntax::Auto,
    };
    let mut given = Vec::new();
    for text in &args.boards {
        let cube = parse_position(size, text, syntax)
            .with_context(|| format!("position '{}'", excerpt(text)))?;
        given.push(CubeJob {
            text: text.to_string(),
            cube,
        });
    }
    crate::input::batch(given, args.file.as_deref(), "positions", move |line| {
        Ok(CubeJob {
            text: line.to_string(),
            cube: parse_position(size, line, syntax)?,
        })
    })
}

/// Positions to solve, as [`jobs`] reads them.
type Jobs<'a> = crate::input::Batch<'a, CubeJob>;

/// Refuses the command line's own options that a cube solver would not use (the rules every
/// front end shares are [`CubeSolver::check`]'s).
fn refuse_unused_options(args: &SolveArgs, size: CubeSize) -> Result<()> {
    let tile_only = [
        (
            args.memory.is_some() && args.algorithm != Algorithm::HalfDepth,
            "--memory",
        ),
        (args.notation != SolutionNotation::Blank, "--as"),
        (args.runs, "--runs"),
        (args.verbose, "--verbose"),
    ];
    if let Some((_, name)) = tile_only.iter().find(|(given, _)| *given) {
        bad_input!("{name} is for sliding-tile boards, not cubes");
    }
    if size == CubeSize::Two && args.cache.is_some() {
        bad_input!("--cache is for the 3x3x3's two-phase tables; the 2x2x2 uses --table or a table built in memory");
    }
    Ok(())
}

pub fn run(args: &SolveArgs, size: CubeSize) -> Result<()> {
    let request = super::solve::request(args, "");
    CubeSolver::check(size, &request)?;
    refuse_unused_options(args, size)?;
    let jobs = jobs(args, size)?;
    if request.known_solution.is_some() && jobs.total != Some(1) {
        match jobs.total {
            Some(n) => bad_input!("--known-solution solves one position, and {n} were given"),
            None => bad_input!("--known-solution solves one position, not a stream of them"),
        }
    }
    let bench = Workbench::for_one_batch(crate::cache::open(args.cache.as_deref()));
    let bar = LevelBar::new();
    let setup = CubeSetup {
        table: args.table.as_deref(),
        memory_bytes: crate::machine::memory_budget(args.memory),
        timeout: args.timeout,
        positions: jobs.total,
        largest_table: TableSize::ALL[TableSize::ALL.len() - 1],
        progress: &bar,
        notices: &mut |notice| {
            bar.suspend(|| crate::cache::print_notice(notice, None, args.cache.as_deref()))
        },
        stop: None,
    };
    let solver = CubeSolver::new(&bench, size, &request, setup);
    bar.finish();
    let solver = solver?;
    let mut out = CubePrinter::new(args, jobs.total);
    // Two-phase solves a chunk at a time on every core, printed in input order as each chunk
    // ends; the other methods one position at a time, each printed as it is solved.
    let chunk = match solver.spreads_batches() {
        true => rayon::current_num_threads() * POSITIONS_PER_THREAD_IN_FLIGHT,
        false => 1,
    };
    let mut positions = jobs.items;
    loop {
        let batch = positions
            .by_ref()
            .take(chunk)
            .collect::<Result<Vec<CubeJob>>>()?;
        if batch.is_empty() {
            break;
        }
        for solution in solver.solve_all(&batch) {
            out.emit(solution?)?;
        }
    }
    out.finish()
}
