//! What a board's state space holds ([`InfoReport`], computed exactly: `N!/2` positions, the
//! known diameter) and what storing it costs each way.

use super::tables::AnySpace;
use crate::info::{costs, Representation};
use crate::report::InfoReport;
use godsearch_puzzles::tiles::{known_diameter, Board, Shape};
use num_bigint::BigUint;

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
