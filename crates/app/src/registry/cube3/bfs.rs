//! God's algorithm on the 3x3x3: level by level, as classes under its symmetries.

use crate::bfs::{check_count_last, class_run, BfsRequest, EngineChoice};
use crate::report::BfsReport;
use crate::{AppError, AppResult};
use godsearch_core::Progress;
use godsearch_puzzles::cube::classes::CLASS_KEY;
use godsearch_puzzles::cube::{Cube3Classes, Metric, Reduction, CUBE3};
use std::time::Instant;

/// The 3x3x3 in `metric`, from solved, as classes under `reduction`: exact position and class
/// counts until the depth or memory limit.
pub fn cube3(
    metric: Metric,
    reduction: Reduction,
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<BfsReport> {
    if request.save.is_some() || request.engine == EngineChoice::Table {
        return Err(AppError::Input("the 3x3x3 has 43,252,003,274,489,856,000 positions: no table of them fits; it is enumerated level by level (leave out «save» and «engine» table)".into()));
    }
    check_count_last(request)?;
    let started = Instant::now();
    let space = Cube3Classes::new(metric, reduction);
    let run_name = format!(
        "cube 3x3x3 metric {metric} classes of {} maps key {CLASS_KEY}",
        reduction.order()
    );
    let mut report = class_run(
        &space,
        (CUBE3.to_string(), metric.name()),
        (&run_name, reduction.order()),
        started,
        request,
        progress,
    )?;
    // The cube is never exhausted within memory: no diameter, no antipodes.
    report.diameter = None;
    report.complete = false;
    report.antipode_count = None;
    Ok(report)
}
