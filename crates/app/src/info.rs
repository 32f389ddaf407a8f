//! What a state space holds and what storing it costs: the `info` command's reports for a
//! sliding-tile board ([`InfoReport`], computed exactly), and the storage costs every puzzle's
//! report lists (the cubes' report is in [`crate::registry::cubes::info`]).

use crate::report::{InfoReport, PuzzleSize, RepresentationReport};
use crate::tables::AnySpace;
use godsearch_puzzles::tiles::{known_diameter, Board, Shape};
use num_bigint::BigUint;

/// One way of storing every position.
pub(crate) struct Representation {
    pub(crate) name: String,
    pub(crate) bits_per_position: f64,
    /// The `bfs` engine that stores positions this way, if one does for this puzzle.
    pub(crate) engine: Option<&'static str>,
}

/// The size of `shape`'s space (positions that reach a goal: `N!/2`, exact), its known
/// diameter, and each way of storing it against the machine's `ram_bytes` and
/// `free_disk_bytes` (when the front end knows them).
pub fn space_info(
    shape: Shape,
    ram_bytes: Option<u64>,
    free_disk_bytes: Option<u64>,
) -> InfoReport {
    let n = shape.cells();
    let count = position_count(shape);
    let log10_count = (2..=n).map(|k| (k as f64).log10()).sum::<f64>() - 2f64.log10();
    let rank_bits = (&count - 1u32).bits().max(1);
    let cell_bits = usize::BITS - (n - 1).leading_zeros();
    let bfs_supported = AnySpace::new(&Board::goal(shape)).is_ok();
    let representations = costs(
        representations(shape, rank_bits, cell_bits as usize, bfs_supported)
            .into_iter()
            .map(|r| (r, log10_count))
            .collect(),
        ram_bytes,
        free_disk_bytes,
    );
    InfoReport {
        puzzle: shape.to_string(),
        cells: n,
        positions: count.to_string(),
        log10_positions: log10_count,
        rank_bits,
        diameter: known_diameter(shape),
        bfs_supported,
        representations,
        ram_bytes,
        free_disk_bytes,
    }
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

/// Positions of `shape` that reach a given goal: `N!/2`, exact at any size.
pub fn position_count(shape: Shape) -> BigUint {
    (2..=shape.cells() as u64)
        .map(BigUint::from)
        .product::<BigUint>()
        / 2u32
}

fn representations(
    shape: Shape,
    rank_bits: u64,
    cell_bits: usize,
    bfs_supported: bool,
) -> Vec<Representation> {
    let n = shape.cells();
    let engine_bits = if rank_bits <= u64::BITS as u64 {
        64
    } else {
        128
    };
    vec![
        Representation {
            name: "characters (a byte a cell)".into(),
            bits_per_position: (n * 8) as f64,
            engine: None,
        },
        Representation {
            name: format!("packed cells ({cell_bits} bits a cell)"),
            bits_per_position: (n * cell_bits) as f64,
            engine: None,
        },
        Representation {
            name: format!("tile positions ({cell_bits} bits a tile)"),
            bits_per_position: ((n - 1) * cell_bits) as f64,
            engine: None,
        },
        Representation {
            name: format!("perfect rank, listed ({rank_bits} bits packed)"),
            bits_per_position: rank_bits as f64,
            engine: None,
        },
        Representation {
            name: format!("perfect rank, listed ({engine_bits}-bit words)"),
            bits_per_position: engine_bits as f64,
            engine: bfs_supported.then_some("frontier"),
        },
        Representation {
            name: "rank-indexed table, a byte a position".into(),
            bits_per_position: 8.0,
            engine: None,
        },
        Representation {
            name: "rank-indexed table, 2 bits a position".into(),
            bits_per_position: 2.0,
            engine: bfs_supported.then_some("table"),
        },
    ]
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
