//! `godsearch solve 2x2x2|3x3x3`: optimal 2x2x2 solutions by table descent, 3x3x3 solutions
//! by Kociemba's two-phase method ([`godsearch_app::cubes`], which replays every solution);
//! this file reads the positions, checks the options and prints.

use crate::args::{Algorithm, SolutionNotation, SolveArgs};
use crate::errors::bad_input;
use crate::output::outln;
use crate::progress::BatchBar;
use crate::spaces;
use anyhow::{Context, Result};
use godsearch_app::cubes::{
    default_max_length, Cube2HalfDepth, Cube2Solver, Cube3HalfDepth, CubeJob, OptimalSolver,
    TwoPhaseSolver,
};
use godsearch_app::report::{CubeSolution, CubeSummary};
use godsearch_app::request::{optimal_table_size, SolveRequest};
use godsearch_app::units::{format_rate, format_seconds};
use godsearch_core::excerpt;
use godsearch_puzzles::cube::{parse_position, CubeSize, Metric, Syntax};
use rayon::prelude::*;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

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

/// The options every front end shares, as the application layer's request (the position is
/// left empty: the command line reads its own), so that their rules are checked in one place.
pub fn shared_options(args: &SolveArgs) -> SolveRequest {
    SolveRequest {
        goal: args.goal.clone(),
        algorithm: args.algorithm,
        heuristic: args.heuristic,
        pdb: args.pdb.clone(),
        no_reflection: args.no_reflection,
        stages: args.stages.clone(),
        effort: args.effort.map(|e| e.min(u32::MAX as u64) as u32),
        depth: args.depth,
        metric: args.metric.clone(),
        facelets: args.facelets,
        moves: args.moves,
        max_length: args.max_length.map(|n| n.min(u32::MAX as u64) as u32),
        optimal: args.optimal,
        all: args.all,
        table_size: args.table_size.clone(),
        known_solution: args.known_solution.clone(),
        timeout: args.timeout.map(|t| t.as_secs_f64()),
        ..SolveRequest::new(args.puzzle.as_deref().unwrap_or_default(), "")
    }
}

/// Refuses board-only options and those the chosen cube solver would not use: the shared rules
/// ([`SolveRequest::check_cube_options`]), then the command line's own options.
fn refuse_unused_options(args: &SolveArgs, size: CubeSize) -> Result<()> {
    shared_options(args).check_cube_options(size)?;
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
    if args.table.is_some() {
        match size {
            CubeSize::Two if args.algorithm == Algorithm::HalfDepth => {
                bad_input!("--table is for table descent; half-depth search builds its own levels")
            }
            CubeSize::Two => {}
            CubeSize::Three if args.optimal => {
                bad_input!("--table is for the 2x2x2; --optimal on the 3x3x3 uses --table-size")
            }
            CubeSize::Three => bad_input!(
                "--table is for the 2x2x2; the 3x3x3's two-phase tables live in the cache (--cache)"
            ),
        }
    }
    if size == CubeSize::Two && args.cache.is_some() {
        bad_input!("--cache is for the 3x3x3's two-phase tables; the 2x2x2 uses --table or a table built in memory");
    }
    Ok(())
}

pub fn run(args: &SolveArgs, size: CubeSize) -> Result<()> {
    refuse_unused_options(args, size)?;
    let metric = spaces::cube_metric(args.metric.as_deref(), size)?;
    let jobs = jobs(args, size)?;
    let mut out = CubePrinter::new(args, jobs.total);
    match size {
        CubeSize::Two => solve_cube2(args, metric, jobs, &mut out)?,
        CubeSize::Three if args.optimal => solve_cube3_optimal(args, metric, jobs, &mut out)?,
        CubeSize::Three if args.algorithm == Algorithm::HalfDepth => {
            let memory = crate::machine::memory_budget(args.memory);
            let solver = Cube3HalfDepth::new(metric, args.depth, memory)?;
            for job in jobs.items {
                out.emit(solver.solve_within(&job?, args.timeout, None)?)?;
            }
        }
        CubeSize::Three => solve_cube3(args, metric, jobs, &mut out)?,
    }
    out.finish()
}

fn solve_cube2(args: &SolveArgs, metric: Metric, jobs: Jobs, out: &mut CubePrinter) -> Result<()> {
    if args.algorithm == Algorithm::HalfDepth {
        let memory = crate::machine::memory_budget(args.memory);
        let solver = Cube2HalfDepth::new(metric, args.depth, memory)?;
        for job in jobs.items {
            out.emit(solver.solve(&job?)?)?;
        }
        return Ok(());
    }
    let solver = Cube2Solver::new(metric, args.table.as_deref())?;
    for job in jobs.items {
        out.emit(solver.solve(&job?)?)?;
    }
    Ok(())
}

/// Batches of at least this many cubes copy the two-phase tables into huge pages first: a cube
/// then takes about 0.14 ms less (`bench --section cube`), and the copy took 1.3-1.5 s on the
/// machine this was measured on (fresh memory is slow to fault in there).
const RESIDENT_FROM: usize = 10_000;

fn solve_cube3(args: &SolveArgs, metric: Metric, jobs: Jobs, out: &mut CubePrinter) -> Result<()> {
    let mut tables = crate::cache::twophase_tables(args.cache.as_deref());
    // Standard input's batches are of unknown length: only a known large one pays the copy.
    if jobs.total.is_some_and(|n| n >= RESIDENT_FROM) {
        tables = tables.resident();
    }
    let solver = TwoPhaseSolver {
        tables: &tables,
        metric,
        max_length: args
            .max_length
            .map_or(default_max_length(metric), |n| n as usize),
        timeout: args.timeout,
    };
    // Solved on every core a chunk at a time, printed in input order as each chunk ends.
    let chunk = rayon::current_num_threads() * POSITIONS_PER_THREAD_IN_FLIGHT;
    let mut positions = jobs.items;
    loop {
        let batch = positions
            .by_ref()
            .take(chunk)
            .collect::<Result<Vec<CubeJob>>>()?;
        if batch.is_empty() {
            return Ok(());
        }
        let solved: Vec<_> = batch.par_iter().map(|job| solver.solve(job)).collect();
        for solution in solved {
            out.emit(solution?)?;
        }
    }
}

fn solve_cube3_optimal(
    args: &SolveArgs,
    metric: Metric,
    jobs: Jobs,
    out: &mut CubePrinter,
) -> Result<()> {
    let size = optimal_table_size(args.table_size.as_deref())?;
    let known = shared_options(args).known_moves()?;
    if known.is_some() && jobs.total != Some(1) {
        match jobs.total {
            Some(n) => bad_input!("--known-solution solves one position, and {n} were given"),
            None => bad_input!("--known-solution solves one position, not a stream of them"),
        }
    }
    let tables = crate::cache::optimal_tables(args.cache.as_deref(), size, metric);
    let fallback = args
        .timeout
        .filter(|_| known.is_none())
        .map(|_| crate::cache::twophase_tables(args.cache.as_deref()));
    let solver = OptimalSolver {
        tables: &tables,
        fallback: fallback.as_ref(),
        timeout: args.timeout,
        all: args.all,
        known: known.as_deref(),
        stop: None,
    };
    // One position at a time, each on every thread.
    for job in jobs.items {
        out.emit(solver.solve(&job?)?)?;
    }
    Ok(())
}

/// Solves a second from which the summary writes the rate in thousands (`12.3 k`).
const RATE_IN_THOUSANDS: f64 = 1e3;

/// The running totals of a batch of cubes.
#[derive(Debug, Default)]
struct CubeTotals {
    solved: usize,
    /// Positions left unsolved at --timeout (half-depth search), with their bounds printed.
    unsolved: usize,
    length_sum: usize,
    max_length: usize,
    seconds: f64,
}

/// Prints each solution as it comes and keeps the totals for the summary; until
/// [`finish`](Self::finish), an interrupt prints the summary so far.
struct CubePrinter {
    json: bool,
    /// `--moves-only`: each solution's moves alone, one line a position, no summary.
    moves_only: bool,
    show_facelets: bool,
    started: Instant,
    totals: Arc<Mutex<CubeTotals>>,
    bar: BatchBar,
}

impl CubePrinter {
    fn new(args: &SolveArgs, positions: Option<usize>) -> Self {
        let started = Instant::now();
        let totals = Arc::new(Mutex::new(CubeTotals::default()));
        if !args.moves_only && positions.is_none_or(|n| n > 1) {
            let (shared, json) = (Arc::clone(&totals), args.json);
            crate::interrupt::on_interrupt(Box::new(move || {
                let totals = shared.lock().unwrap_or_else(PoisonError::into_inner);
                // Printing is all an interrupted batch can still do; its errors go nowhere.
                let _ = print_summary(json, &totals, started, true);
            }));
        }
        Self {
            json: args.json,
            moves_only: args.moves_only,
            show_facelets: args.show_facelets,
            started,
            totals,
            bar: BatchBar::new("positions", positions.map(|n| n as u64), args.quiet),
        }
    }

    fn emit(&mut self, s: CubeSolution) -> Result<()> {
        {
            let mut t = self.totals.lock().unwrap_or_else(PoisonError::into_inner);
            t.seconds += s.seconds;
            if s.timed_out && s.solution.is_empty() {
                t.unsolved += 1;
            } else {
                t.solved += 1;
                t.length_sum += s.length;
                t.max_length = t.max_length.max(s.length);
            }
        }
        self.bar.suspend(|| self.print(&s))?;
        self.bar.advance();
        Ok(())
    }

    fn print(&self, s: &CubeSolution) -> Result<()> {
        if self.json {
            outln!("{}", serde_json::to_string(s)?);
            return Ok(());
        }
        if self.moves_only {
            outln!("{}", s.solution);
            return Ok(());
        }
        outln!("start      {}", s.start);
        if self.show_facelets {
            outln!("facelets   {}", s.facelets);
        }
        if let (Some(depth), Some(bound)) = (s.beyond_depth, s.lower_bound) {
            outln!(
                "solution   none: beyond twice the depth held ({depth}); every solution has at least {bound} moves ({}), proven",
                s.metric
            );
            outln!();
            return Ok(());
        }
        if s.timed_out && s.solution.is_empty() {
            outln!("solution   none found before --timeout");
            outln!(
                "bound      every solution has at least {} moves ({}), proven",
                s.lower_bound.unwrap_or(0),
                s.metric
            );
            outln!(
                "time       {} ({}, {} nodes)",
                format_seconds(s.seconds),
                s.algorithm,
                s.nodes_expanded
            );
            outln!();
            return Ok(());
        }
        crate::output::solution_line(&s.solution);
        let kind = match s.max_length {
            _ if s.optimal && s.known_solution == Some(true) => {
                "proven optimal: the known solution, every shorter bound searched".to_string()
            }
            _ if s.known_solution == Some(true) => format!(
                "--timeout passed: the known solution; every solution has at least {} moves",
                s.lower_bound.unwrap_or(0)
            ),
            _ if s.optimal && s.lower_bound.is_some() => "proven optimal".to_string(),
            _ if s.optimal => "optimal".to_string(),
            None if s.timed_out => format!(
                "--timeout passed: the two-phase solution; every solution has at least {} moves",
                s.lower_bound.unwrap_or(0)
            ),
            Some(max) if s.timed_out => format!(
                "--timeout passed before a solution of at most {max} moves: the first one found"
            ),
            Some(max) if s.length > max => format!(
                "the two-phase search finds none of at most {max} moves; the shortest it finds"
            ),
            _ => "not proven optimal".to_string(),
        };
        outln!(
            "length     {} {} ({kind}; replayed to solved)",
            s.length,
            s.metric
        );
        let phases = s
            .phase1_length
            .map_or(String::new(), |p| format!(", phase 1 {p} moves"));
        if let Some(all) = s.all_solutions.as_ref().filter(|all| all.len() > 1) {
            outln!("all        {} optimal solutions:", all.len());
            for moves in all {
                outln!("           {moves}");
            }
        }
        // Methods that count no nodes (3x3x3 half-depth search) report none.
        let nodes = match s.nodes_expanded {
            0 => String::new(),
            n => format!(", {n} nodes"),
        };
        outln!(
            "time       {} ({}{phases}{nodes})",
            format_seconds(s.seconds),
            s.algorithm
        );
        // With --all every opening is searched, so there is nothing to say.
        let reduced = s
            .position_symmetries
            .filter(|&n| n > 1 && s.all_solutions.is_none());
        if let Some(n) = reduced {
            outln!(
                "symmetry   {n} of the cube's 48 symmetries keep the position: one opening of \
                 each class was searched"
            );
        }
        outln!();
        Ok(())
    }

    fn finish(self) -> Result<()> {
        crate::interrupt::clear_on_interrupt();
        self.bar.finish();
        if self.moves_only {
            return Ok(());
        }
        let t = self.totals.lock().unwrap_or_else(PoisonError::into_inner);
        if t.solved > 0 {
            print_summary(self.json, &t, self.started, false)?;
        }
        if t.unsolved > 0 {
            anyhow::bail!(
                "{} of {} positions were left unsolved by --timeout or twice --depth (their lower bounds are above)",
                t.unsolved,
                t.solved + t.unsolved
            );
        }
        Ok(())
    }
}

/// The summary of a batch of cubes, as JSON or (for more than one, or an interrupted batch) a
/// line.
fn print_summary(json: bool, t: &CubeTotals, started: Instant, interrupted: bool) -> Result<()> {
    let count = t.solved;
    let wall_seconds = started.elapsed().as_secs_f64();
    let summary = CubeSummary {
        summary: true,
        solved: count,
        mean_length: t.length_sum as f64 / count as f64,
        max_length: t.max_length,
        seconds: t.seconds,
        wall_seconds,
        solves_per_second: count as f64 / wall_seconds.max(f64::MIN_POSITIVE),
        threads: rayon::current_num_threads(),
        interrupted,
    };
    if json {
        outln!("{}", serde_json::to_string(&summary)?);
    } else if count > 1 || interrupted {
        let rate = match summary.solves_per_second {
            r if r >= RATE_IN_THOUSANDS => format_rate(r).trim_end().to_string(),
            r if r >= 10.0 => format!("{r:.0}"),
            r => format!("{r:.2}"),
        };
        outln!(
            "{}solved {} positions: mean length {:.2} (longest {}), {} a position, {} solves/s on {} threads",
            if interrupted { "interrupted: " } else { "" },
            summary.solved,
            summary.mean_length,
            summary.max_length,
            format_seconds(summary.seconds / count.max(1) as f64),
            rate,
            summary.threads
        );
    }
    Ok(())
}
