//! The 3x3x3 tables a [`Workbench`] keeps loaded between requests ([`Workbench::kept`]): the
//! two-phase tables, and the optimal solver's pruning tables by size and metric. Each is loaded (or built and cached) on first use, once: a second
//! request for a table being built waits for it.

use crate::error::build_tables;
use crate::progress::Notice;
use crate::request::Workbench;
use crate::AppResult;
use godsearch_core::Progress;
use godsearch_puzzles::cube::Metric;
use godsearch_twophase::optimal::{OptimalTables, TableSize};
use godsearch_twophase::Tables;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// The 3x3x3 tables one workbench holds.
#[derive(Default)]
pub struct CubeTables {
    twophase: OnceLock<Arc<Tables>>,
    /// Held while the two-phase tables are built.
    twophase_build: Mutex<()>,
    optimal: Mutex<HashMap<(&'static str, &'static str), Arc<OptimalTables>>>,
}

/// The two-phase tables for a batch of `positions` cubes (`None`: unknown), loaded (or built
/// and cached, `notices` hearing of it) on first use; made resident in huge pages when the
/// workbench serves many requests or the batch is large ([`Workbench::makes_resident`]). A
/// build that `progress` cancels keeps nothing and ends in an error.
pub fn twophase_tables(
    bench: &Workbench,
    progress: &dyn Progress,
    positions: Option<usize>,
    notices: &mut dyn FnMut(Notice),
) -> AppResult<Arc<Tables>> {
    let kept = bench.kept::<CubeTables>();
    if let Some(tables) = kept.twophase.get() {
        return Ok(Arc::clone(tables));
    }
    // Held for the build: a second request waits for it instead of building again.
    let _building = kept
        .twophase_build
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(tables) = kept.twophase.get() {
        return Ok(Arc::clone(tables));
    }
    let what = "the two-phase tables";
    let (tables, origin) =
        build_tables(progress, what, || bench.cache().twophase_tables(progress))?;
    bench.tell(notices, what, origin);
    let tables = match bench.makes_resident(positions) {
        true => tables.resident(),
        false => tables,
    };
    Ok(Arc::clone(kept.twophase.get_or_init(|| Arc::new(tables))))
}

/// The optimal solver's pruning table of `size` in `metric`, loaded (or built and cached,
/// `notices` hearing of it) on first use.
pub fn optimal_tables(
    bench: &Workbench,
    size: TableSize,
    metric: Metric,
    progress: &dyn Progress,
    notices: &mut dyn FnMut(Notice),
) -> AppResult<Arc<OptimalTables>> {
    let kept = bench.kept::<CubeTables>();
    // Held for the build: a second request for the same table waits instead of building it
    // again.
    let mut loaded = kept.optimal.lock().unwrap_or_else(PoisonError::into_inner);
    let key = (size.name(), metric.name());
    if let Some(tables) = loaded.get(&key) {
        return Ok(Arc::clone(tables));
    }
    let what = format!(
        "the optimal solver's {} {} table",
        metric.name(),
        size.name()
    );
    let (tables, origin) = build_tables(progress, &what, || {
        bench.cache().optimal_tables(size, metric, progress)
    })?;
    bench.tell(notices, &what, origin);
    Ok(Arc::clone(loaded.entry(key).or_insert(Arc::new(tables))))
}
