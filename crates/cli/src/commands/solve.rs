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
use godsearch_app::choice;
use godsearch_app::tiles::{
    solvable_board, HalfDepthSolver, HeuristicRequest, Search, StagedSolver, TableSolver, TileJob,
};
use godsearch_puzzles::tiles::{parse_instance, Board, BoardFormat, TileSpace};
use godsearch_puzzles::PuzzleName;
use godsearch_search::tiles::{SearchError, Watch, MAX_SEARCH_CELLS};

pub fn run(args: &SolveArgs) -> Result<()> {
    if let Some(path) = args.definition.path(args.puzzle.as_deref()) {
        return super::definition_solve::run(args, &path);
    }
    if args.pattern.is_some() {
        bad_input!("--pattern is for definition puzzles (--def FILE)");
    }
    let puzzle = args.puzzle.as_deref().unwrap_or_default();
    match puzzle.parse::<PuzzleName>() {
        Ok(PuzzleName::Cube(size)) => return super::cube_solve::run(args, size),
        Ok(PuzzleName::Tiles(_)) => {}
        // Puzzles with no front end of their own here go to the workbench as they are.
        Err(_) => return super::registry_solve::run(args, puzzle),
    }
    if args.show_facelets {
        bad_input!("--show-facelets is for cubes, not sliding-tile boards");
    }
    args.notation.check_runs(args.runs)?;
    let shape = spaces::tile_shape(puzzle)?;
    let goal = spaces::tile_goal(shape, args.goal.as_deref())?;
    let memory_bytes = machine::memory_budget(args.memory);
    let algorithm = choice::tile_algorithm(
        args.algorithm,
        shape,
        args.table.is_some(),
        args.timeout.is_some(),
    )?;
    refuse_unused_options(args, algorithm)?;
    let jobs = jobs(args, &goal)?;
    // Boards the searches cannot take are refused before any heuristic is built or announced.
    if algorithm.is_search() && shape.cells() > MAX_SEARCH_CELLS {
        return Err(SearchError::BoardTooLarge.into());
    }
    if algorithm == Algorithm::Astar && TileSpace::<u64>::new(goal.clone()).is_err() {
        return Err(SearchError::AStarTooLarge.into());
    }
    let style = match (args.json, args.moves_only) {
        (true, _) => Style::Json,
        (false, true) => Style::MovesOnly,
        (false, false) => Style::Human,
    };
    let mut out = Printer::new(
        style,
        shape,
        args.notation,
        args.runs,
        args.verbose,
        jobs.total,
        args.quiet,
    );
    if algorithm == Algorithm::HalfDepth {
        let solver = HalfDepthSolver::new(&goal, args.depth, memory_bytes)?;
        if !args.json {
            let held = godsearch_app::units::format_count(solver.positions_held());
            match solver.holds_all() {
                true => errln!("holding all {held} positions: every board is solved"),
                false => errln!(
                    "holding the {held} positions within {} moves of the goal: boards within {} moves are solved",
                    solver.depth(),
                    2 * solver.depth()
                ),
            }
        }
        for job in jobs.items {
            out.emit(solver.solve(&goal, &job?)?)?;
        }
    } else if algorithm == Algorithm::Table {
        let solver = TableSolver::new(&goal, args.table.as_deref())?;
        for job in jobs.items {
            out.emit(solver.solve(&goal, &job?)?)?;
        }
    } else if algorithm.is_staged() {
        let effort = args.effort.map(|n| n as usize);
        let cache = cache::open(args.cache.as_deref());
        let solver = StagedSolver::new(
            algorithm,
            &goal,
            args.stages.as_deref(),
            effort,
            &cache,
            &mut |notice| cache::print_notice(notice, &goal, args.cache.as_deref()),
        )?;
        for job in jobs.items {
            out.emit(solver.solve(&goal, &job?)?)?;
        }
    } else {
        let cache = cache::open(args.cache.as_deref());
        let request = HeuristicRequest {
            choice: args.heuristic,
            partition: args.pdb.as_deref(),
            reflection: !args.no_reflection,
            cache: &cache,
            memory_bytes,
        };
        let bar = LevelBar::new();
        let heuristic = request.resolve(&goal, &bar, &mut |notice| {
            bar.suspend(|| cache::print_notice(notice, &goal, args.cache.as_deref()))
        });
        bar.finish();
        let heuristic = heuristic?;
        // One board gets a line with the search's progress; a batch has its bar.
        let watch = Watch::default();
        let single = jobs.total == Some(1) && algorithm != Algorithm::Astar;
        let search = Search {
            algorithm,
            goal: &goal,
            memory_bytes,
            deadline_after: args.timeout,
            watch: single.then_some(&watch),
        };
        for job in jobs.items {
            let job = job?;
            let solved = match single {
                true => with_search_line(&watch, args.quiet, || search.solve(&heuristic, &job)),
                false => search.solve(&heuristic, &job),
            };
            out.emit(solved?)?;
        }
    }
    out.finish()
}

/// Refuses options that would do nothing with the algorithm chosen for a board, rather than
/// ignore them silently: the rules every front end shares
/// ([`SolveRequest::check_tile_options`]), then the command line's own options.
fn refuse_unused_options(args: &SolveArgs, algorithm: Algorithm) -> Result<()> {
    super::cube_solve::shared_options(args).check_tile_options(algorithm)?;
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
