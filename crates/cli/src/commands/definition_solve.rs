//! `godsearch solve FILE POSITION...` (or `--def FILE`): a definition puzzle's positions,
//! given as move sequences from solved or as a KPuzzle pattern (`--pattern`), solved optimally
//! by [`godsearch_app::definition_solve`] and printed.

use crate::args::SolveArgs;
use crate::errors::bad_input;
use crate::machine;
use crate::progress::LevelBar;
use anyhow::{Context, Result};
use godsearch_app::definition_solve::{self, DefinitionSolveRequest, DefinitionSolver};
use godsearch_app::definitions::{self, DefinitionMetric};
use godsearch_orbit::{kpuzzle, Pattern};
use std::path::Path;
use std::time::Instant;

pub fn run(args: &SolveArgs, path: &Path) -> Result<()> {
    refuse_other_puzzles_options(args)?;
    let puzzle = definitions::load(path)?;
    let metric = match args.metric.as_deref() {
        Some(text) => DefinitionMetric::parse(text)?,
        None => DefinitionMetric::Outer,
    };
    let generators = args.definition.generator_names();
    let mut positions: Vec<(Pattern, String)> = Vec::new();
    if let Some(file) = &args.pattern {
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("--pattern {}", file.display()))?;
        let pattern = kpuzzle::read_pattern(&text, &puzzle.definition)
            .map_err(|e| crate::errors::InputError(format!("--pattern {}: {e}", file.display())))?;
        positions.push((pattern, file.display().to_string()));
    }
    // With --def, the first positional is a position, not the puzzle.
    let texts = args
        .definition
        .def
        .as_ref()
        .and(args.puzzle.as_ref())
        .into_iter()
        .chain(&args.boards);
    for text in texts {
        positions.push((definitions::position(&puzzle, text)?, text.clone()));
    }
    let request = DefinitionSolveRequest {
        generators: &generators,
        metric,
        memory_bytes: machine::memory_budget(args.memory),
        deadline: args.timeout.map(|t| Instant::now() + t),
        descent_ranks: definition_solve::DESCENT_RANKS,
        database_ranks: definition_solve::QUICK_DATABASE_RANKS,
        count: super::solve::request(args, "").solutions_wanted()?,
    };
    let bar = LevelBar::new();
    let solver = DefinitionSolver::new(&puzzle, &request, &bar);
    bar.finish();
    let solver = solver?;
    for (pattern, text) in positions {
        let report = solver.solve(&pattern, &text, request.deadline)?;
        super::registry_solve::print(args, &report)?;
    }
    Ok(())
}

/// Options of the tile and cube solvers that mean nothing here are refused, not ignored.
fn refuse_other_puzzles_options(args: &SolveArgs) -> Result<()> {
    let used = [
        (args.file.is_some(), "--file"),
        (args.table.is_some(), "--table"),
        (args.goal.is_some(), "--goal"),
        (args.pdb.is_some(), "--pdb"),
        (args.facelets, "--facelets"),
        (args.optimal, "--optimal"),
        (args.show_facelets, "--show-facelets"),
        (args.depth.is_some(), "--depth"),
        (args.stages.is_some(), "--stages"),
        (args.max_length.is_some(), "--max-length"),
        (args.resume_from.is_some(), "--resume-from"),
    ];
    if let Some((_, name)) = used.iter().find(|(given, _)| *given) {
        bad_input!("{name} is for the built-in puzzles; a definition puzzle is solved optimally from moves or --pattern");
    }
    Ok(())
}
