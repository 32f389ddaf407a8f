//! God's algorithm on the 2x2x2: enumerated whole, into its distance table or by the frontier
//! engines.

use super::tables;
use crate::bfs::{
    add_run_figures, check_count_last, check_disk, frontier_run, report, table_entry_bytes,
    BfsRequest, EngineChoice, Finish,
};
use crate::report::BfsReport;
use crate::{AppError, AppResult};
use godsearch_core::{Progress, RankedSpace};
use godsearch_enumerate::{table, Stop};
use godsearch_puzzles::cube::notation::{format_moves, invert_moves};
use godsearch_puzzles::cube::{Cube2Space, Metric, CUBE2, CUBE2_MAX_DISTANCE, CUBE2_RANKING};
use godsearch_search::descend;
use std::time::Instant;

/// The 2x2x2 in `metric`, from solved; antipodes are written as scrambles (the inverse of an
/// optimal solution by descent).
pub fn cube2(
    metric: Metric,
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<BfsReport> {
    if request.save.is_some() && request.engine == EngineChoice::Frontier {
        return Err(AppError::Input(
            "«save» needs the table engine (leave out «engine» frontier)".into(),
        ));
    }
    check_count_last(request)?;
    check_disk(request)?;
    let space = Cube2Space::new(metric);
    let limits = &request.limits;
    let started = Instant::now();
    let frontier_wanted = request.engine == EngineChoice::Frontier
        || limits.count_last
        || request.disk.is_some()
        || request.cluster.is_some();
    let run_name = format!("{} ranking {CUBE2_RANKING}", tables::cube2_identity(&space));
    let (enumeration, built, disk) = match frontier_wanted {
        true => {
            let (e, disk) = frontier_run(&space, &run_name, request, progress)?;
            (e, None, disk)
        }
        false => {
            let built = table::enumerate(&space, limits, progress)?;
            (built.enumeration, Some(built.table), Finish::Memory)
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    if let (Some(path), Some(t)) = (request.save, &built) {
        tables::save_cube2_table(path, &space, t, &enumeration.levels)?;
    }
    let complete = enumeration.stop == Stop::Complete;
    let antipodes = match (&enumeration.last_level, &built) {
        (Some(ranks), Some(t)) if complete => Some(
            ranks
                .iter()
                .map(|&r| {
                    let path = descend(&space, t, r, CUBE2_MAX_DISTANCE)?;
                    let moves: Vec<_> = path.iter().map(|&k| space.moves()[k as usize]).collect();
                    Ok(format_moves(&invert_moves(&moves)))
                })
                .collect::<AppResult<Vec<String>>>()?,
        ),
        _ => None,
    };
    let engine = match built {
        Some(_) => ("table", table_entry_bytes(space.state_count())),
        None => ("frontier", std::mem::size_of::<u64>() as f64),
    };
    let mut report = report(
        CUBE2.to_string(),
        "solved".into(),
        metric.name(),
        engine,
        &enumeration,
        antipodes,
        seconds,
    );
    add_run_figures(&mut report, disk);
    Ok(report)
}
