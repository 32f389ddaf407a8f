//! `godsearch solve`: the arguments become one [`SolveRequest`]; a puzzle that solves batches
//! (boards, cubes) reads the positions given and `--file`'s lines and solves them through the
//! application's [`Batch`] (what the server and Python call for each request, as a batch of
//! one), printing each as it comes; any other puzzle is solved a request a position
//! ([`super::registry_solve`]).

use super::cube_report::CubePrinter;
use super::solve_report::{Printer, Style};
use super::{campaign, checkpoint, status};
use crate::args::{SolutionNotation, SolveArgs};
use crate::errors::bad_input;
use crate::input::Batch as Positions;
use crate::output::{errln, outln};
use crate::progress::{with_search_line, LevelBar, StatusLines};
use crate::{cache, machine};
use anyhow::{bail, Result};
use godsearch_app::batch::{Batch, BatchSetup, BatchSolver, FrontEndOptions, Position, Source};
use godsearch_app::progress::Notice;
use godsearch_app::progress::Watch;
use godsearch_app::report::SearchWay;
use godsearch_app::request::{JobLimits, SolutionDocument, SolveReport, SolveRequest, Workbench};
use std::sync::Arc;

pub fn run(args: &SolveArgs) -> Result<()> {
    if let (true, Some(path)) = (args.status, &args.checkpoint) {
        for line in status::lines(path)? {
            outln!("{line}");
        }
        return Ok(());
    }
    let name = args.definition.puzzle_name(args.puzzle.as_deref());
    let declared =
        crate::declared_goal::goal_for(args.file.as_deref(), args.goal.as_deref(), &name)?.map(
            |goal| SolveArgs {
                goal: Some(goal),
                ..args.clone()
            },
        );
    let args = declared.as_ref().unwrap_or(args);
    let puzzle = super::open_puzzle(args.definition.def.as_deref(), &name)?;
    let mut request = request(args, "");
    let entry = puzzle.entry();
    let printed = Printed::check(args, entry.solution)?;
    // A checkpoint kept earlier sets where the search resumes, before the solver is made; one
    // over several boards, a campaign, sets it for each board in turn.
    let campaign = args.file.is_some() || args.boards.len() != 1;
    let from = match &args.checkpoint {
        Some(_) if !matches!(printed, Some(Printed::Boards)) => {
            bad_input!("--checkpoint keeps the search of a board, not of {name}")
        }
        Some(_) if campaign => None,
        Some(path) => match checkpoint::resume(path, args, &mut request)? {
            checkpoint::Resumed::Searching(searching) => Some(searching),
            checkpoint::Resumed::Solved(report) => {
                let board = &args.boards[0];
                let report = checkpoint::kept_report(path, board, &report, args.goal.as_deref())?;
                let mut out = printed
                    .ok_or_else(|| anyhow::anyhow!("a checkpoint keeps a board's report"))?
                    .start(args, Some(1));
                out.emit(report)?;
                return out.finish();
            }
        },
        None => None,
    };
    // A puzzle without a batch, or whose solutions are only moves (printed alike for every
    // puzzle), is solved a request a position.
    let (Some(batch), Some(printed)) = (puzzle.batch(&request), printed) else {
        return super::registry_solve::run(args, &*puzzle, &name);
    };
    let batch = batch?;
    if args.pattern.is_some() && !entry.patterns {
        bad_input!("--pattern is not taken by {name}: patterns are read by definition puzzles (a shipped one's name, or --def FILE)");
    }
    batch.check_front_end(FrontEndOptions {
        cache: args.cache.is_some(),
        memory: args.memory.is_some(),
        verbose: args.verbose,
    })?;
    let bench = Workbench::for_one_batch(cache::open(args.cache.as_deref()));
    if let (Some(path), true) = (&args.checkpoint, campaign) {
        // Every board is read here, to be refused before any is searched, and again when
        // its turn comes (under its own request).
        let given = batch.positions_in(&args.boards);
        for text in &given {
            batch.read(text, Source::Given)?;
        }
        let texts = crate::input::batch(
            given.into_iter().map(|t| (t, Source::Given)).collect(),
            args.file.as_deref(),
            args.goal.is_some(),
            printed.noun(),
            |line| {
                batch.read(line, Source::Line)?;
                Ok((line.to_string(), Source::Line))
            },
        )?;
        // Each board is searched under its own request (its bound), through the same bench.
        let mut solve_one = |request: &SolveRequest, text: &str, source: Source, watch: &Watch| {
            let batch = puzzle
                .batch(request)
                .expect("boards are solved in batches")?;
            let position = batch.read(text, source)?;
            with_solver(&*batch, &bench, args, Some(1), |solver| {
                let mut reports = with_search_line(watch, status_lines(args), || {
                    solver.solve(std::slice::from_ref(&position), Some(watch))
                });
                Ok(reports.pop().expect("a report a board"))
            })
        };
        // Boards are searched one at a time, each with its search line (as one board is).
        let mut out = printed.start(args, Some(1));
        campaign::run(path, args, &request, texts, &mut solve_one, &mut |r| {
            out.emit(r)
        })?;
        return out.finish();
    }
    // The positions given as arguments are read before any table is built.
    let positions = positions(args, &*batch, printed.noun())?;
    let one_position = [
        (
            request.known_solution.is_some(),
            "--known-solution solves one position",
        ),
        (
            request.resume_from.is_some(),
            "--resume-from continues the search of one position, with the bound it proved",
        ),
    ];
    if let Some((_, what)) = one_position.iter().find(|(given, _)| *given) {
        match positions.total {
            Some(1) => {}
            Some(n) => bad_input!("{what}, and {n} were given"),
            None => bad_input!("{what}, not a stream of them"),
        }
    }
    with_solver(&*batch, &bench, args, positions.total, |solver| {
        solve_all(args, printed, solver, positions, from)
    })
}

/// Solves `positions` with `solver`, printing each report as `printed` says; one board given
/// with `--checkpoint` is kept there from where its file had it (`from`, with the nodes its
/// earlier runs expanded on the iteration it resumes, where the file kept them).
fn solve_all(
    args: &SolveArgs,
    printed: Printed,
    solver: &dyn BatchSolver,
    positions: Positions<'_, Position>,
    from: Option<checkpoint::Searching>,
) -> Result<()> {
    let mut out = printed.start(args, positions.total);
    // One position searched gets a line with the search's progress; a batch has its bar.
    // Stopped by a signal, it says the bound it proved, from which --resume-from continues.
    let watch = Arc::new(Watch::default());
    let single = positions.total == Some(1) && solver.watched();
    if let (true, Some(carried)) = (single, from.as_ref().and_then(|f| f.carried)) {
        watch.resume_iteration(carried);
    }
    if single {
        let seen = Arc::clone(&watch);
        // With --checkpoint the file keeps where the search stands, looked at once more
        // (--resume-from beside it would be refused).
        let kept_in = args.checkpoint.clone();
        let chosen = checkpoint::ChosenWay::new(args, None);
        crate::interrupt::on_interrupt(Box::new(move || {
            if kept_in.is_some() {
                checkpoint::last_look();
            }
            let bound = seen.threshold();
            if bound == 0 {
                return;
            }
            let proven = format!("interrupted: every solution has at least {bound} moves (proven)");
            match &kept_in {
                Some(path) => errln!(
                    "{proven}; {} keeps where the search stands: the same command continues",
                    path.display()
                ),
                None => errln!(
                    "{proven}; continue with {}",
                    continue_with(
                        bound,
                        seen.searched().map(|s| s.to_string()).as_deref(),
                        chosen.of(&seen).as_ref()
                    )
                ),
            }
        }));
    }
    // Positions are handed over a chunk at a time (many where the solver spreads them over
    // the threads), each chunk printed in input order as it ends.
    let mut items = positions.items;
    loop {
        let chunk = items
            .by_ref()
            .take(solver.chunk())
            .collect::<Result<Vec<Position>>>()?;
        if chunk.is_empty() {
            break;
        }
        let search = || {
            with_search_line(&watch, status_lines(args), || {
                solver.solve(&chunk, Some(&watch))
            })
        };
        let solved = match (single, &args.checkpoint, &from) {
            (true, Some(path), Some(from)) => {
                checkpoint::keeping(path, args, &watch, from, search)?
            }
            (true, _, _) => search(),
            (false, _, _) => solver.solve(&chunk, None),
        };
        for report in solved {
            out.emit(report?)?;
        }
    }
    if single {
        crate::interrupt::clear_on_interrupt();
    }
    out.finish()
}

/// Runs `work` with `batch`'s solver for `positions` positions, its tables loaded or built
/// through `bench` (a bar shows the levels of those built).
fn with_solver<T>(
    batch: &dyn Batch,
    bench: &Workbench,
    args: &SolveArgs,
    positions: Option<usize>,
    work: impl FnOnce(&dyn BatchSolver) -> Result<T>,
) -> Result<T> {
    let bar = LevelBar::logged(args.progress_every);
    let mut notices = |notice| {
        if !args.json || !matches!(notice, Notice::HalfDepthHeld { .. }) {
            bar.suspend(|| cache::print_notice(notice, args.cache.as_deref()))
        }
    };
    let setup = BatchSetup {
        limits: JobLimits::local(machine::memory_budget(args.memory)),
        positions,
        progress: &bar,
        notices: &mut notices,
        stop: None,
    };
    let solver = batch.solver(bench, setup);
    bar.finish();
    let solver = solver?;
    work(&*solver)
}

/// The options that continue a search stopped with `bound` proven, skipping the subtrees of
/// that bound's iteration it finished (`searched`, the report's token), by the way probes
/// chose (`chosen`: that way alone, whose token it is).
pub fn continue_with(bound: u32, searched: Option<&str>, chosen: Option<&SearchWay>) -> String {
    let from = match searched {
        Some(token) => format!("--resume-from {bound} --resume-subtrees {token}"),
        None => format!("--resume-from {bound}"),
    };
    match chosen {
        Some(way) => {
            let pdb = way.pdb.as_ref().map(|p| format!("--pdb {p} "));
            let reverse = if way.reverse { "--reverse " } else { "" };
            format!(
                "{}{reverse}{from}, the way the probes chose alone (no --probe, --both-ways or \
                 other --pdb)",
                pdb.unwrap_or_default()
            )
        }
        None => from,
    }
}

/// The positions to solve: those given as arguments (read at once), then `--file`'s lines as
/// they are read (in constant memory: standard input may be endless).
fn positions<'a>(
    args: &'a SolveArgs,
    batch: &'a dyn Batch,
    noun: &str,
) -> Result<Positions<'a, Position>> {
    let given = batch
        .positions_in(&args.boards)
        .iter()
        .map(|text| Ok(batch.read(text, Source::Given)?))
        .collect::<Result<_>>()?;
    crate::input::batch(
        given,
        args.file.as_deref(),
        args.goal.is_some(),
        noun,
        |line| Ok(batch.read(line, Source::Line)?),
    )
}

/// The request the arguments make, as every front end makes it (the position: `position`; a
/// batch leaves it empty and reads its own), so that the options' rules are checked in one
/// place.
pub fn request(args: &SolveArgs, position: &str) -> SolveRequest {
    let puzzle = args.definition.puzzle_name(args.puzzle.as_deref());
    SolveRequest {
        generators: args.definition.generators.clone(),
        goal: args.goal.clone(),
        algorithm: args.algorithm,
        heuristic: args.heuristic,
        pdb: (!args.pdb.is_empty()).then(|| args.pdb.join(" ")),
        no_reflection: args.no_reflection,
        reverse: args.reverse,
        both_ways: args.both_ways,
        probe: args.probe.map(|t| t.as_secs_f64()),
        stages: args.stages.clone(),
        effort: args.effort.map(|e| u32::try_from(e).unwrap_or(u32::MAX)),
        depth: args.depth,
        metric: args.metric.clone(),
        facelets: args.facelets,
        moves: args.moves,
        max_length: args
            .max_length
            .map(|n| u32::try_from(n).unwrap_or(u32::MAX)),
        optimal: args.optimal,
        all: args.all,
        count: args.count,
        table_size: args.table_size.clone(),
        known_solution: args.known_solution.clone(),
        timeout: args.timeout.map(|t| t.as_secs_f64()),
        resume_from: args.resume_from,
        resume_subtrees: args.resume_subtrees.clone(),
        table: args.table.clone(),
        ..SolveRequest::new(&puzzle, position)
    }
}

/// Which printer a batch's reports get, chosen by the document the puzzle's entry says its
/// solves return ([`SolutionDocument`]), never by which puzzle it is.
#[derive(Debug, Clone, Copy)]
enum Printed {
    Boards,
    Cubes,
}

impl Printed {
    /// The printer for solutions in `document` (none for bare moves, which
    /// [`super::registry_solve`] prints), the printing options only the other takes refused.
    fn check(args: &SolveArgs, document: SolutionDocument) -> Result<Option<Self>> {
        match document {
            SolutionDocument::Tiles => {
                if args.show_facelets {
                    bad_input!("--show-facelets is for cubes, not sliding-tile boards");
                }
                args.notation.check_runs(args.runs)?;
                Ok(Some(Printed::Boards))
            }
            SolutionDocument::Cube => {
                let tile_only = [
                    (args.notation != SolutionNotation::Blank, "--as"),
                    (args.runs, "--runs"),
                ];
                if let Some((_, name)) = tile_only.iter().find(|(given, _)| *given) {
                    bad_input!("{name} is for sliding-tile boards, not cubes");
                }
                Ok(Some(Printed::Cubes))
            }
            SolutionDocument::Moves => Ok(None),
        }
    }

    /// What the positions are called in messages.
    fn noun(self) -> &'static str {
        match self {
            Printed::Boards => "boards",
            Printed::Cubes => "positions",
        }
    }

    /// Starts printing a batch of `positions` (its progress bar, its summary at an interrupt).
    fn start(self, args: &SolveArgs, positions: Option<usize>) -> Reports {
        match self {
            Printed::Boards => {
                let style = match (args.json, args.moves_only) {
                    (true, _) => Style::Json,
                    (false, true) => Style::MovesOnly,
                    (false, false) => Style::Human,
                };
                Reports::Boards(Printer::new(
                    style,
                    args.notation,
                    args.runs,
                    args.verbose,
                    positions,
                    args.quiet,
                ))
            }
            Printed::Cubes => Reports::Cubes(CubePrinter::new(args, positions)),
        }
    }
}

/// A batch's printer, started.
enum Reports {
    Boards(Printer),
    Cubes(CubePrinter),
}

impl Reports {
    fn emit(&mut self, report: SolveReport) -> Result<()> {
        match (self, report) {
            (Reports::Boards(printer), SolveReport::Tiles(solution)) => printer.emit(solution),
            (Reports::Cubes(printer), SolveReport::Cube(solution)) => printer.emit(solution),
            _ => bail!("a batch gave a report its printer does not print"),
        }
    }

    fn finish(self) -> Result<()> {
        match self {
            Reports::Boards(printer) => printer.finish(),
            Reports::Cubes(printer) => printer.finish(),
        }
    }
}

/// Where a long search's progress line goes: `--quiet`, `--progress-every`.
pub(super) fn status_lines(args: &SolveArgs) -> StatusLines {
    StatusLines {
        quiet: args.quiet,
        logged_every: args.progress_every,
    }
}
