//! `godsearch verify` and `godsearch apply`: replay move sequences with
//! [`godsearch_app::verify`] and print what they reach.

use crate::args::VerifyArgs;
use crate::errors::{bad_input, InputError};
use crate::output::outln;
use crate::spaces;
use anyhow::{bail, Context, Result};
use godsearch_app::cubes::Cube2Solver;
use godsearch_app::report::VerifyReport;
use godsearch_app::request::optimal_table_size;
use godsearch_app::tiles::TableSolver;
use godsearch_app::verify::{self, Claim, CubeProver};
use godsearch_puzzles::cube::{CubeSize, Syntax, TurnMetric};
use godsearch_puzzles::tiles::Board;
use godsearch_puzzles::PuzzleName;

/// What the command prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Whether each sequence solves its start, its lengths, whether it is shortest.
    Verify,
    /// The position each sequence reaches.
    Apply,
}

pub fn run(args: &VerifyArgs, mode: Mode) -> Result<()> {
    let args = &with_definition_as_puzzle(args)?;
    if mode == Mode::Apply {
        // apply shows where moves lead; proving shortest is verify's, and is refused here
        // rather than done and never shown.
        let proving = [
            (args.prove, "--prove"),
            (args.table.is_some(), "--table"),
            (args.table_size.is_some(), "--table-size"),
            (args.timeout.is_some(), "--timeout"),
            (args.cache.is_some(), "--cache"),
        ];
        if let Some((_, option)) = proving.iter().find(|(given, _)| *given) {
            bad_input!("{option} is for verify, which tells whether a solution is shortest; apply only shows the position the moves reach");
        }
    }
    let text;
    let claims: Vec<(String, Claim)> = match &args.file {
        Some(path) => {
            text = crate::input::read_text_file(path)?;
            let mut claims = Vec::new();
            for (k, line) in text.lines().enumerate() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                let where_ = format!("{} line {}", path.display(), k + 1);
                let claim = Claim::from_line(line).ok_or_else(|| {
                    InputError(format!("{where_}: a start and its moves are needed"))
                })?;
                claims.push((where_, claim));
            }
            claims
        }
        None => {
            let (Some(start), Some(moves)) = (&args.start, &args.moves) else {
                bad_input!("give a start and its moves, or --file");
            };
            vec![(String::new(), Claim { start, moves })]
        }
    };
    let check = checker(args, mode)?;
    let mut failed = 0;
    for (k, (where_, claim)) in claims.iter().enumerate() {
        let report = check(*claim).with_context(|| where_.clone())?;
        failed += usize::from(!report.reaches_goal);
        if k > 0 && !args.json {
            outln!();
        }
        print(args, mode, &report)?;
    }
    if mode == Mode::Verify && failed > 0 {
        bail!(
            "{failed} of {} move sequences do not reach the goal",
            claims.len()
        );
    }
    Ok(())
}

/// The arguments with `--def FILE` as the puzzle: the positional arguments it leaves are the
/// start and the moves, so they move down one place.
fn with_definition_as_puzzle(args: &VerifyArgs) -> Result<VerifyArgs> {
    let Some(path) = &args.def else {
        return Ok(args.clone());
    };
    if args.moves.is_some() {
        bad_input!("with --def FILE, give only the start and the moves");
    }
    if args.file.is_some() && args.puzzle.is_some() {
        bad_input!("with --def FILE and --file, give no other arguments");
    }
    Ok(VerifyArgs {
        puzzle: Some(path.display().to_string()),
        def: None,
        start: args.puzzle.clone(),
        moves: args.start.clone(),
        ..args.clone()
    })
}

/// The puzzle named (set: [`with_definition_as_puzzle`] has run).
fn puzzle_name(args: &VerifyArgs) -> &str {
    args.puzzle.as_deref().unwrap_or_default()
}

type Check<'a> = Box<dyn Fn(Claim) -> Result<VerifyReport> + 'a>;

/// The check for the puzzle named, with the prover that tells shortest solutions where one is
/// at hand.
fn checker(args: &VerifyArgs, mode: Mode) -> Result<Check<'_>> {
    let proves = mode == Mode::Verify;
    if godsearch_app::definitions::is_definition_path(puzzle_name(args)) {
        return definition_checker(args, proves);
    }
    match puzzle_name(args).parse::<PuzzleName>()? {
        PuzzleName::Tiles(shape) => {
            if args.metric.is_some() || args.facelets || args.notation.is_some() {
                bad_input!("--metric, --facelets and --notation are for cubes");
            }
            if args.prove {
                bad_input!("--prove is for the 3x3x3; a board's solution is proven shortest from a distance table (--table, or one built for boards of up to 20 million positions)");
            }
            let goal = spaces::tile_goal(shape, args.goal.as_deref())?;
            // A table proves optimality: the one given, or one built now for a small board.
            let prover = match &args.table {
                Some(path) => Some(TableSolver::new(&goal, Some(path))?),
                None if proves => TableSolver::new(&goal, None).ok(),
                None => None,
            };
            Ok(Box::new(move |claim| {
                Ok(verify::board(&goal, claim, prover.as_ref())?)
            }))
        }
        PuzzleName::Cube(size) => {
            if args.goal.is_some() || args.table.is_some() {
                bad_input!("--goal and --table are for boards; a cube's goal is solved");
            }
            let metric = match args.metric.as_deref() {
                Some(text) => text.parse::<TurnMetric>()?,
                None => TurnMetric::Htm,
            };
            let notation = args.notation.unwrap_or_default();
            let syntax = if args.facelets {
                Syntax::Facelets
            } else {
                Syntax::Auto
            };
            let search_metric = verify::prover_metric(metric, size);
            let (pocket, optimal) = match (size, args.prove) {
                (CubeSize::Two, true) => {
                    bad_input!("--prove is for the 3x3x3; the 2x2x2 is proven from its distance table without it")
                }
                (CubeSize::Two, false) if proves => {
                    (Some(Cube2Solver::new(search_metric, None)?), None)
                }
                (CubeSize::Two, false) => (None, None),
                (CubeSize::Three, true) => {
                    let table_size = optimal_table_size(args.table_size.as_deref())?;
                    let tables = crate::cache::optimal_tables(
                        args.cache.as_deref(),
                        table_size,
                        search_metric,
                    );
                    (None, Some(tables))
                }
                (CubeSize::Three, false) => (None, None),
            };
            let timeout = args.timeout;
            Ok(Box::new(move |claim| {
                let prover = match (&pocket, &optimal) {
                    (Some(table), _) => Some(CubeProver::Pocket(table)),
                    (_, Some(tables)) => Some(CubeProver::Optimal { tables, timeout }),
                    _ => None,
                };
                Ok(verify::cube(
                    size,
                    metric,
                    notation,
                    syntax,
                    claim,
                    prover.as_ref(),
                )?)
            }))
        }
    }
}

/// The check for a definition file named as the puzzle: a table of every position proves
/// shortest solutions where one fits (as `solve` builds it); nothing does otherwise.
fn definition_checker(args: &VerifyArgs, proves: bool) -> Result<Check<'_>> {
    use godsearch_app::definition_solve::{
        DefinitionSolveRequest, DefinitionSolver, DESCENT_RANKS,
    };
    use godsearch_app::definitions::{self, DefinitionMetric};
    if args.goal.is_some()
        || args.table.is_some()
        || args.facelets
        || args.prove
        || args.notation.is_some()
    {
        bad_input!(
            "--goal, --table, --facelets, --notation and --prove are for the built-in puzzles"
        );
    }
    let metric = match args.metric.as_deref() {
        Some(text) => DefinitionMetric::parse(text)?,
        None => DefinitionMetric::Outer,
    };
    let puzzle = definitions::load(std::path::Path::new(puzzle_name(args)))?;
    let request = DefinitionSolveRequest {
        generators: &[],
        metric,
        memory_bytes: crate::machine::default_memory_budget(),
        deadline: None,
        descent_ranks: DESCENT_RANKS,
        database_ranks: 0,
    };
    let fits = puzzle
        .space::<u64>(&[], metric)
        .is_ok_and(|s| godsearch_core::RankedSpace::state_count(&s) <= DESCENT_RANKS);
    let prover = match fits && proves {
        true => Some(DefinitionSolver::new(
            &puzzle,
            &request,
            &godsearch_core::NoProgress,
        )?),
        false => None,
    };
    Ok(Box::new(move |claim| {
        Ok(verify::definition(&puzzle, metric, claim, prover.as_ref())?)
    }))
}

fn print(args: &VerifyArgs, mode: Mode, r: &VerifyReport) -> Result<()> {
    if args.json {
        outln!("{}", serde_json::to_string(r)?);
        return Ok(());
    }
    outln!("start      {}", r.start);
    outln!("moves      {}", r.moves);
    if mode == Mode::Apply {
        outln!("end        {}", r.end);
        if let Ok(PuzzleName::Tiles(shape)) = puzzle_name(args).parse::<PuzzleName>() {
            let board = Board::parse(shape, &r.end).context("the board reached")?;
            for line in board.to_grid().lines() {
                outln!("           {line}");
            }
        }
        return Ok(());
    }
    match &r.problem {
        None => outln!("result     reaches the goal"),
        Some(why) => outln!("result     does not reach the goal: {why} ({})", r.end),
    }
    match (r.htm, r.qtm, r.stm, r.etm) {
        (Some(htm), Some(qtm), Some(stm), Some(etm)) => {
            outln!("length     {htm} htm, {qtm} qtm, {stm} stm, {etm} etm")
        }
        _ => outln!("length     {} {}", r.length, r.metric),
    }
    match (r.optimal, r.shortest, r.lower_bound) {
        (Some(true), _, _) => outln!("optimal    yes"),
        (Some(false), Some(s), _) => {
            outln!("optimal    no: the shortest solution has {s} {}", r.metric)
        }
        (_, _, Some(b)) => outln!(
            "optimal    not known: every solution has at least {b} {} (the search stopped at --timeout)",
            r.metric
        ),
        _ if puzzle_name(args).parse::<PuzzleName>().ok() == Some(PuzzleName::Cube(CubeSize::Three)) => {
            outln!("optimal    not known (--prove runs the optimal solver)")
        }
        _ => outln!("optimal    not known (no distance table for this puzzle here)"),
    }
    Ok(())
}
