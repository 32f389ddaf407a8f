//! `godsearch solve NAME POSITION...` for registered puzzles without a solver front end of
//! their own (definition files, the pancake puzzle, and any puzzle added to the registry
//! next): each position is one [`SolveRequest`] to the [`Workbench`], the same call the server
//! and Python make, and its replayed solution is printed.

use crate::args::SolveArgs;
use crate::errors::bad_input;
use crate::output::{errln, outln};
use crate::progress::with_job_line;
use crate::{cache, machine};
use anyhow::{Context, Result};
use godsearch_app::registry::Puzzle;
use godsearch_app::report::DefinitionSolution;
use godsearch_app::request::{JobControl, JobLimits, SolveReport, Workbench};
use godsearch_app::units::format_seconds;

pub fn run(args: &SolveArgs, puzzle: &dyn Puzzle, name: &str) -> Result<()> {
    let front_end_only = [
        (args.file.is_some(), "--file"),
        (
            args.pattern.is_some() && !puzzle.entry().patterns,
            "--pattern",
        ),
        (args.show_facelets, "--show-facelets"),
        (args.runs, "--runs"),
    ];
    if let Some((_, option)) = front_end_only.iter().find(|(given, _)| *given) {
        bad_input!("{option} is not taken by {name}");
    }
    let positions = positions(args)?;
    if positions.is_empty() {
        bad_input!("give the positions to solve after the puzzle's name");
    }
    let bench = Workbench::new(cache::open(args.cache.as_deref()));
    let limits = JobLimits::local(machine::memory_budget(args.memory));
    // The workbench keeps what it builds: the positions after the first reuse it.
    for (position, shown) in positions {
        let request = super::solve::request(args, &position);
        let control = JobControl::new(None);
        let solved = with_job_line(&control, super::solve::status_lines(args), || {
            bench.solve_opened(puzzle, &request, &limits, &control)
        });
        match solved? {
            SolveReport::Definition(mut solution) => {
                solution.start = shown;
                print(args, &solution)?
            }
            other => outln!("{}", serde_json::to_string(&other)?),
        }
    }
    Ok(())
}

/// The positions to solve, each with the text its report shows: the `--pattern` file's
/// pattern (its JSON, shown as the file's name), then the positions given as arguments (with
/// `--def`, the first argument after the options is one).
fn positions(args: &SolveArgs) -> Result<Vec<(String, String)>> {
    let mut positions = Vec::new();
    if let Some(file) = &args.pattern {
        let json = std::fs::read_to_string(file)
            .with_context(|| format!("--pattern {}", file.display()))?;
        positions.push((json, file.display().to_string()));
    }
    let first = args.definition.def.as_ref().and(args.puzzle.as_ref());
    for text in first.into_iter().chain(&args.boards) {
        positions.push((text.clone(), text.clone()));
    }
    Ok(positions)
}

/// Prints a solution found by a generic engine: JSON, the moves alone, or for people; what
/// its tables had to say goes to stderr first, in every form.
pub(crate) fn print(args: &SolveArgs, report: &DefinitionSolution) -> Result<()> {
    for note in &report.notes {
        errln!("note: {note}");
    }
    if args.json {
        outln!("{}", serde_json::to_string(report)?);
        return Ok(());
    }
    let listed = report.solutions.as_deref();
    if args.moves_only {
        for solution in listed.unwrap_or(std::slice::from_ref(&report.solution)) {
            outln!("{solution}");
        }
        return Ok(());
    }
    outln!("{} {}", report.puzzle, report.start);
    match listed {
        Some(solutions) => {
            outln!("  {} solutions, shortest first:", solutions.len());
            for solution in solutions {
                outln!("  {:>4}  {solution}", solution.split_whitespace().count());
            }
            if let Some(bound) = report.rest_at_least {
                outln!("  stopped before --count was reached: every other solution has at least {bound} moves");
            }
        }
        None => {
            let optimal = if report.optimal { ", optimal" } else { "" };
            outln!(
                "  solution ({} moves{optimal}): {}",
                report.length,
                report.solution
            );
        }
    }
    let databases = match report.databases.is_empty() {
        true => String::new(),
        false => format!(" ({})", report.databases.join(", ")),
    };
    let built = match report.build_seconds > 0.0 {
        true => format!("built in {}, ", format_seconds(report.build_seconds)),
        false => String::new(),
    };
    outln!(
        "  {}{databases}: {built}searched in {}, {} nodes expanded",
        report.method,
        format_seconds(report.seconds),
        report.nodes_expanded
    );
    Ok(())
}
