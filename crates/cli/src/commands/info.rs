//! `godsearch info`: the size of a state space and what storing it costs, computed.

use crate::args::InfoArgs;
use crate::machine;
use crate::output::outln;
use crate::spaces;
use anyhow::Result;
use godsearch_app::tables::AnySpace;
use godsearch_app::units::{format_bytes, format_count};
use godsearch_puzzles::tiles::{known_diameter, Board, Shape};
use num_bigint::BigUint;
use serde::Serialize;
use std::path::Path;

/// Sizes above this many bytes are printed as powers of ten.
const PLAIN_LIMIT_LOG10: f64 = 18.0;

/// One way of storing every position.
struct Representation {
    name: String,
    bits_per_position: f64,
    /// The `bfs` engine that stores positions this way, if one does for this board.
    engine: Option<&'static str>,
}

/// `info --json`.
#[derive(Debug, Serialize)]
struct InfoReport {
    puzzle: String,
    cells: usize,
    /// Positions that reach a goal, as a decimal string (it can exceed any integer type).
    positions: String,
    log10_positions: f64,
    rank_bits: u64,
    diameter: Option<u32>,
    /// Whether `bfs` can enumerate this board (positions ranked in at most 128 bits).
    bfs_supported: bool,
    representations: Vec<RepresentationReport>,
    ram_bytes: Option<u64>,
    free_disk_bytes: Option<u64>,
}

#[derive(Debug, Serialize)]
struct RepresentationReport {
    name: String,
    bits_per_position: f64,
    log10_bytes: f64,
    fits_ram: Option<bool>,
    fits_disk: Option<bool>,
    engine: Option<&'static str>,
}

pub fn run(args: &InfoArgs) -> Result<()> {
    let shape = spaces::tile_shape(&args.puzzle)?;
    let n = shape.cells();
    let count: BigUint = (2..=n as u64).map(BigUint::from).product::<BigUint>() / 2u32;
    let log10_count = (2..=n).map(|k| (k as f64).log10()).sum::<f64>() - 2f64.log10();
    let rank_bits = (&count - 1u32).bits().max(1);
    let cell_bits = usize::BITS - (n - 1).leading_zeros();
    let bfs_supported = AnySpace::new(&Board::goal(shape)).is_ok();
    let ram = machine::total_memory();
    let disk = machine::free_disk(Path::new("."));
    let representations: Vec<RepresentationReport> =
        representations(shape, rank_bits, cell_bits as usize, bfs_supported)
            .into_iter()
            .map(|r| {
                let log10_bytes = log10_count + (r.bits_per_position / 8.0).log10();
                let fits = |limit: Option<u64>| limit.map(|l| log10_bytes <= (l as f64).log10());
                RepresentationReport {
                    name: r.name,
                    bits_per_position: r.bits_per_position,
                    log10_bytes,
                    fits_ram: fits(ram),
                    fits_disk: fits(disk),
                    engine: r.engine,
                }
            })
            .collect();
    let report = InfoReport {
        puzzle: shape.to_string(),
        cells: n,
        positions: count.to_string(),
        log10_positions: log10_count,
        rank_bits,
        diameter: known_diameter(shape),
        bfs_supported,
        representations,
        ram_bytes: ram,
        free_disk_bytes: disk,
    };
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
    } else {
        print(&report, &count);
    }
    Ok(())
}

fn print(r: &InfoReport, count: &BigUint) {
    let n = r.cells;
    outln!(
        "{} sliding puzzle: {n} cells, {} tiles and the blank",
        r.puzzle,
        n - 1
    );
    outln!(
        "positions that reach a goal   {} = {n}!/2",
        format_count(count)
    );
    outln!("bits in a perfect rank        {}", r.rank_bits);
    match r.diameter {
        Some(d) => {
            outln!("diameter (blank-corner goal)  {d} moves (published complete enumeration)")
        }
        None => outln!("diameter (blank-corner goal)  not known exactly"),
    }
    outln!();
    outln!(
        "{:<42} {:>10} {:>16} {:>6} {:>6}",
        "storing every position as",
        "bits each",
        "in all",
        "RAM?",
        "disk?"
    );
    let yes_no = |fits: Option<bool>| match fits {
        Some(true) => "yes",
        Some(false) => "no",
        None => "?",
    };
    for rep in &r.representations {
        outln!(
            "{:<42} {:>10} {:>16} {:>6} {:>6}{}",
            rep.name,
            rep.bits_per_position,
            size_text(rep.log10_bytes),
            yes_no(rep.fits_ram),
            yes_no(rep.fits_disk),
            rep.engine
                .map_or(String::new(), |e| format!("  {e} engine"))
        );
    }
    if !r.bfs_supported {
        outln!(
            "(bfs enumerates boards whose positions rank in at most 128 bits, 34 cells; this one needs {} bits)",
            r.rank_bits
        );
    }
    outln!();
    let show = |v: Option<u64>| v.map_or("unknown".to_string(), |b| format_bytes(b as f64));
    outln!(
        "this machine: {} of RAM, {} free disk in the current folder",
        show(r.ram_bytes),
        show(r.free_disk_bytes)
    );
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

fn size_text(log10_bytes: f64) -> String {
    if log10_bytes <= PLAIN_LIMIT_LOG10 {
        format_bytes(10f64.powf(log10_bytes))
    } else {
        let exponent = log10_bytes.floor();
        format!("{:.1}e{} B", 10f64.powf(log10_bytes - exponent), exponent)
    }
}
