//! What storing a state space costs, as every puzzle's `info` report lists it, and the size of
//! every puzzle the registry offers. Each puzzle's own report is in its registry module (the
//! boards' in [`crate::registry::tiles::info`], the cubes' in [`crate::registry::cubes::info`], from each cube's figures).

use crate::report::{PuzzleSize, RepresentationReport};

/// One way of storing every position.
pub(crate) struct Representation {
    pub(crate) name: String,
    pub(crate) bits_per_position: f64,
    /// The `bfs` engine that stores positions this way, if one does for this puzzle.
    pub(crate) engine: Option<&'static str>,
}

/// Each way of storing every position, with its bits and whether it fits in `ram_bytes` and on
/// `free_disk_bytes`; `log10_count` is the base-10 logarithm of how many are stored.
pub(crate) fn costs(
    representations: Vec<(Representation, f64)>,
    ram_bytes: Option<u64>,
    free_disk_bytes: Option<u64>,
) -> Vec<RepresentationReport> {
    representations
        .into_iter()
        .map(|(r, log10_count)| {
            let log10_bytes = log10_count + (r.bits_per_position / 8.0).log10();
            let fits = |limit: Option<u64>| limit.map(|l| log10_bytes <= (l as f64).log10());
            RepresentationReport {
                name: r.name,
                bits_per_position: r.bits_per_position,
                log10_bytes,
                fits_ram: fits(ram_bytes),
                fits_disk: fits(free_disk_bytes),
                engine: r.engine,
            }
        })
        .collect()
}

/// Every puzzle the registry offers by name (its catalog's), with its exact size, in the
/// catalog's order; `query` as for one puzzle's `info`.
pub fn offered_sizes(query: &crate::registry::InfoQuery) -> crate::AppResult<Vec<PuzzleSize>> {
    crate::registry::listed_entries()
        .into_iter()
        .map(|entry| {
            let report = crate::registry::open(&entry.name, false)?.info(query)?;
            Ok(PuzzleSize {
                positions: report.positions().map(str::to_string),
                puzzle: entry.name,
                kind: entry.kind,
            })
        })
        .collect()
}
