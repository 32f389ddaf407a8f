//! `godsearch verify` and `godsearch apply`: replay move sequences with the puzzle's verifier
//! from the registry ([`godsearch_app::verify`] underneath) and print what they reach.

use crate::args::VerifyArgs;
use crate::errors::{bad_input, InputError};
use crate::output::outln;
use crate::progress::LevelBar;
use anyhow::{bail, Context, Result};
use godsearch_app::registry::{Puzzle, VerifyQuery};
use godsearch_app::report::VerifyReport;
use godsearch_app::request::Workbench;
use godsearch_app::verify::Claim;

/// What the command prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Whether each sequence solves its start, its lengths, whether it is shortest.
    Verify,
    /// The position each sequence reaches.
    Apply,
}

pub fn run(args: &VerifyArgs, mode: Mode) -> Result<()> {
    let def = args.def.clone();
    let args = &with_definition_as_puzzle(args)?;
    let declared = crate::declared_goal::goal_for(
        args.file.as_deref(),
        args.goal.as_deref(),
        puzzle_name(args),
    )?;
    let args = &VerifyArgs {
        goal: declared.or_else(|| args.goal.clone()),
        ..args.clone()
    };
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
    // Where the claims come from, decided before any table is built: one from the arguments,
    // or a file's lines, read and checked one at a time in constant memory.
    let one = match (&args.file, &args.start, &args.moves) {
        (Some(_), _, _) => None,
        (None, Some(start), Some(moves)) => Some(Claim { start, moves }),
        _ => bad_input!("give a start and its moves, or --file"),
    };
    let puzzle = super::open_puzzle(def.as_deref(), puzzle_name(args))?;
    let bench = Workbench::for_one_batch(crate::cache::open(args.cache.as_deref()));
    let query = VerifyQuery {
        goal: args.goal.clone(),
        table: args.table.clone(),
        metric: args.metric.clone(),
        facelets: args.facelets,
        notation: args.notation,
        prove: args.prove,
        table_size: args.table_size.clone(),
        timeout: args.timeout,
        proves: mode == Mode::Verify,
        memory_bytes: crate::machine::default_memory_budget(),
    };
    let bar = LevelBar::new();
    let verifier = puzzle.verifier(&bench, &query, &bar, &mut |notice| {
        bar.suspend(|| crate::cache::print_notice(notice, args.cache.as_deref()))
    });
    bar.finish();
    let verifier = verifier?;
    let (mut checked, mut failed) = (0, 0);
    let mut check = |where_: &str, claim: Claim| -> Result<()> {
        let report = (verifier.check)(claim).with_context(|| where_.to_string())?;
        failed += usize::from(!report.reaches_goal);
        if checked > 0 && !args.json {
            outln!();
        }
        checked += 1;
        print(args, mode, &report, &*puzzle, verifier.unproven)
    };
    match (one, &args.file) {
        (Some(claim), _) => check("", claim)?,
        (None, Some(path)) => {
            for line in crate::input::board_lines(path, args.goal.is_some())? {
                let (number, line) = line?;
                let where_ = format!("{} line {number}", crate::input::shown(path));
                let claim = Claim::from_line(&line).ok_or_else(|| {
                    InputError(format!("{where_}: a start and its moves are needed"))
                })?;
                check(&where_, claim)?;
            }
        }
        (None, None) => {} // `one` is None only with --file
    }
    if mode == Mode::Verify && failed > 0 {
        bail!("{failed} of {checked} move sequences do not reach the goal");
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

fn print(
    args: &VerifyArgs,
    mode: Mode,
    r: &VerifyReport,
    puzzle: &dyn Puzzle,
    unproven: &str,
) -> Result<()> {
    if args.json {
        outln!("{}", serde_json::to_string(r)?);
        return Ok(());
    }
    outln!("start      {}", r.start);
    outln!("moves      {}", r.moves);
    if mode == Mode::Apply {
        outln!("end        {}", r.end);
        for line in puzzle.picture(&r.end) {
            outln!("           {line}");
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
        _ => outln!("optimal    not known ({unproven})"),
    }
    Ok(())
}
