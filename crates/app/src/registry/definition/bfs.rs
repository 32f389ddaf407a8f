//! God's algorithm on a definition puzzle: over its ranks (64 or 128 bits) by the table or
//! frontier engines, and past 128-bit ranks over whole states.

use super::file::{DefinitionMetric, DefinitionPuzzle};
use super::tables::{self, ORBIT_RANKING};
use crate::bfs::{ranked, report, BfsRequest, EngineChoice, RankedRun};
use crate::report::BfsReport;
use crate::{AppError, AppResult};
use godsearch_core::{Progress, RankInt};
use godsearch_enumerate::disk::codec::KeyState;
use godsearch_enumerate::state_levels;
use godsearch_orbit::slots::Slots;
use godsearch_orbit::{OrbitSpace, SpaceError as OrbitSpaceError};
use std::time::Instant;

/// A definition file's puzzle over `generators` in `metric`, from solved: the table engine when
/// a table of its ranks fits (ranks a constraint leaves unused take room but are never
/// reached, so counts stay exact), the frontier engines otherwise, and whole states past
/// 128-bit ranks ([`state_levels`]); antipodes are written as scrambles (the inverse of an
/// optimal solution by table descent) when the table engine ran.
pub fn definition(
    puzzle: &DefinitionPuzzle,
    generators: &[String],
    metric: DefinitionMetric,
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<BfsReport> {
    let narrow: AppResult<OrbitSpace<u64>> = puzzle.space(generators, metric);
    match narrow {
        Ok(space) => enumerate_definition(puzzle, space, metric, request, progress),
        Err(AppError::OrbitSpace(OrbitSpaceError::TooLarge { .. })) => {
            match puzzle.space::<u128>(generators, metric) {
                Ok(space) => enumerate_definition(puzzle, space, metric, request, progress),
                Err(AppError::OrbitSpace(OrbitSpaceError::TooLarge { .. })) => {
                    definition_slots(puzzle, generators, metric, request, progress)
                }
                Err(e) => Err(e),
            }
        }
        Err(e) => Err(e),
    }
}

/// God's algorithm on a definition puzzle past 128-bit ranks (the megaminx, the 4x4x4), over
/// whole states ([`state_levels`]): exact level counts to the depth asked or the memory
/// budget, the last one counted without being stored with `--count-last`. It keeps levels in
/// memory only: no table to save, no disk, no distributed run (each would need ranks).
fn definition_slots(
    puzzle: &DefinitionPuzzle,
    generators: &[String],
    metric: DefinitionMetric,
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<BfsReport> {
    let refused = [
        (request.save.is_some(), "«save»"),
        (request.engine == EngineChoice::Table, "«engine» table"),
        (request.disk.is_some(), "«disk»"),
        (request.cluster.is_some(), "a distributed run"),
    ];
    if let Some((_, what)) = refused.iter().find(|(given, _)| *given) {
        return Err(AppError::Input(format!(
            "{} has more positions than 128-bit ranks number: it is enumerated level by level in memory, over whole states, which {what} does not take",
            puzzle.name()
        )));
    }
    let space = puzzle.slot_space(generators, metric)?;
    let started = Instant::now();
    let enumeration = state_levels::enumerate(&space, &request.limits, progress);
    let engine = (
        "frontier of whole states",
        std::mem::size_of::<Slots>() as f64,
    );
    Ok(report(
        puzzle.name().to_string(),
        "solved".into(),
        metric.name(),
        engine,
        &enumeration,
        None,
        started.elapsed().as_secs_f64(),
    ))
}

fn enumerate_definition<R: RankInt + KeyState>(
    puzzle: &DefinitionPuzzle,
    space: OrbitSpace<R>,
    metric: DefinitionMetric,
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<BfsReport> {
    let run = RankedRun {
        puzzle: puzzle.name().to_string(),
        metric: metric.name(),
        run_name: format!(
            "definition {} generators {} metric {} ranking {ORBIT_RANKING}",
            puzzle.name(),
            space.generators().join(","),
            metric.name()
        ),
        what: "definition puzzles",
        identity: Some(tables::definition_identity(
            puzzle.name(),
            &space,
            metric.name(),
        )),
    };
    ranked(&space, &run, request, progress)
}
