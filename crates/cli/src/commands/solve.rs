//! `godsearch solve` for sliding-tile boards: optimal solutions by IDA*, parallel IDA*, A* or
//! table descent, fast ones by stages. The work is the application crate's
//! ([`godsearch_app::tiles`]); this file turns arguments into its calls and prints.

use super::solve_report::{Printer, Style};
use crate::args::{Algorithm, HeuristicChoice, SolveArgs};
use crate::errors::bad_input;
use crate::input::Batch;
use crate::output::errln;
use crate::progress::{with_search_line, LevelBar};
use crate::{cache, machine, spaces};
use anyhow::Result;
use godsearch_app::board_solver::{BoardSetup, BoardSolver};
use godsearch_app::progress::Watch;
use godsearch_app::registry::{cubes::cube_size, tiles::board_shape};
use godsearch_app::request::{SolveRequest, Workbench};
use godsearch_app::tiles::{parse_instance, Board, BoardFormat};
use godsearch_app::tiles::{solvable_board, Notice, TileJob};
use std::sync::Arc;

pub fn run(args: &SolveArgs) -> Result<()> {
    if args.definition.path(args.puzzle.as_deref()).is_some() {
        let name = args.definition.puzzle_name(args.puzzle.as_deref());
        return super::registry_solve::run(args, &name);
    }
    let puzzle = args.puzzle.as_deref().unwrap_or_default();
    // Boards and cubes have front ends of their own here, which stream files of positions;
    // every other puzzle goes to the workbench as it is.
    let cube = cube_size(puzzle);
    let board = board_shape(puzzle).is_some();
    if (board || cube.is_some()) && args.pattern.is_some() {
        bad_input!("--pattern is for definition puzzles (a shipped one's name, or --def FILE)");
    }
    if let Some(size) = cube {
        return super::cube_solve::run(args, size);
    }
    if !board {
        return super::registry_solve::run(args, puzzle);
    }
    if args.show_facelets {
        bad_input!("--show-facelets is for cubes, not sliding-tile boards");
    }
    args.notation.check_runs(args.runs)?;
    let shape = spaces::tile_shape(puzzle)?;
    let goal = spaces::tile_goal(shape, args.goal.as_deref())?;
    let request = request(args, "");
    let algorithm = BoardSolver::algorithm(&goal, &request, args.table.is_some())?;
    refuse_unused_options(args, algorithm)?;
    // Boards are read (those given as arguments, at once) before any table is built.
    let jobs = jobs(args, &goal)?;
    if args.resume_from.is_some() && jobs.total != Some(1) {
        bad_input!("--resume-from continues the search of one board, with the bound it proved");
    }
    let style = match (args.json, args.moves_only) {
        (true, _) => Style::Json,
        (false, true) => Style::MovesOnly,
        (false, false) => Style::Human,
    };
    let bench = Workbench::for_one_batch(cache::open(args.cache.as_deref()));
    let bar = LevelBar::new();
    let setup = BoardSetup {
        table: args.table.as_deref(),
        memory_bytes: machine::memory_budget(args.memory),
        deadline_after: args.timeout,
        progress: &bar,
        notices: &mut |notice| {
            if !args.json || !matches!(notice, Notice::HalfDepthHeld { .. }) {
                bar.suspend(|| cache::print_notice(notice, Some(&goal), args.cache.as_deref()))
            }
        },
    };
    let solver = BoardSolver::new(&bench, &goal, &request, setup);
    bar.finish();
    let solver = solver?;
    let mut out = Printer::new(
        style,
        shape,
        args.notation,
        args.runs,
        args.verbose,
        jobs.total,
        args.quiet,
    );
    // One board searched gets a line with the search's progress; a batch has its bar. Stopped
    // by a signal, it says the bound it proved, from which --resume-from continues.
    let watch = Arc::new(Watch::default());
    let single = jobs.total == Some(1) && algorithm.is_search() && algorithm != Algorithm::Astar;
    if single {
        let seen = Arc::clone(&watch);
        crate::interrupt::on_interrupt(Box::new(move || {
            let bound = seen.threshold();
            if bound > 0 {
                errln!(
                    "interrupted: every solution has at least {bound} moves (proven); continue with --resume-from {bound}"
                );
            }
        }));
    }
    for job in jobs.items {
        let job = job?;
        let solved = match single {
            true => with_search_line(&watch, args.quiet, || {
                solver.solve(&goal, &job, Some(&watch))
            }),
            false => solver.solve(&goal, &job, None),
        };
        out.emit(solved?)?;
    }
    if single {
        crate::interrupt::clear_on_interrupt();
    }
    out.finish()
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
        pdb: args.pdb.clone(),
        no_reflection: args.no_reflection,
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
        table: args.table.clone(),
        ..SolveRequest::new(&puzzle, position)
    }
}

/// Refuses the command line's own options that would do nothing with the algorithm chosen for
/// a board, rather than ignore them silently (the rules every front end shares were checked by
/// [`BoardSolver::algorithm`]).
fn refuse_unused_options(args: &SolveArgs, algorithm: Algorithm) -> Result<()> {
    let searching = algorithm.is_search();
    let staged = algorithm.is_staged();
    let chosen = algorithm.name();
    let unused = [
        (
            args.cache.is_some()
                && !staged
                && !(searching
                    && matches!(args.heuristic, HeuristicChoice::Auto | HeuristicChoice::Pdb)),
            "--cache",
            "pattern databases (--heuristic pdb or auto) and subgoal stage tables",
        ),
        (
            args.verbose && !staged,
            "--verbose",
            "--algorithm subgoal and two-stage",
        ),
        (
            args.memory.is_some() && !searching && algorithm != Algorithm::HalfDepth,
            "--memory",
            "A*, half-depth search and the pattern-database builds of IDA* and A*",
        ),
    ];
    if let Some((_, option, used_by)) = unused.iter().find(|(given, _, _)| *given) {
        bad_input!("{option} is used only by {used_by}, not by --algorithm {chosen}");
    }
    Ok(())
}

/// The boards from the command line and from --file.
/// The boards to solve: those given as arguments, then `--file`'s lines as they are read (in
/// constant memory: standard input may be endless).
fn jobs<'a>(args: &'a SolveArgs, goal: &'a Board) -> Result<Batch<'a, TileJob>> {
    let given: Vec<TileJob> = board_texts(&args.boards, goal.shape().cells())
        .iter()
        .map(|text| {
            Ok(TileJob {
                id: None,
                expected: None,
                board: solvable_board(goal, text)?,
                format: BoardFormat::of_text(goal.shape(), text),
            })
        })
        .collect::<Result<_>>()?;
    crate::input::batch(given, args.file.as_deref(), "boards", |line| {
        let instance = parse_instance(goal.shape(), line)?;
        instance.board.check_solvable(goal)?;
        Ok(TileJob {
            id: instance.id,
            expected: instance.length,
            board: instance.board,
            format: instance.format,
        })
    })
}

/// Each argument is one board, except that exactly one argument per cell, each a single tile,
/// is read as one board (`solve 3x3 2 4 0 1 8 5 3 6 7`).
fn board_texts(words: &[String], cells: usize) -> Vec<String> {
    let single_tiles = words
        .iter()
        .all(|w| w.parse::<u16>().is_ok() || w == "." || w == "_");
    if words.len() == cells && single_tiles {
        vec![words.join(" ")]
    } else {
        words.to_vec()
    }
}
