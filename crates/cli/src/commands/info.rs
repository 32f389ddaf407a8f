//! `godsearch info`: the size of a state space and what storing it costs, computed.

use crate::args::InfoArgs;
use crate::machine;
use crate::output::outln;
use crate::spaces;
use crate::units::{format_bytes, format_count};
use anyhow::Result;
use godsearch_puzzles::tiles::{known_diameter, Shape};
use num_bigint::BigUint;
use std::path::Path;

/// Sizes above this many bytes are printed as powers of ten.
const PLAIN_LIMIT_LOG10: f64 = 18.0;

/// One way of storing every position.
struct Representation {
    name: String,
    bits_per_position: f64,
    note: &'static str,
}

pub fn run(args: &InfoArgs) -> Result<()> {
    let shape = spaces::tile_shape(&args.puzzle)?;
    let n = shape.cells();
    let count: BigUint = (2..=n as u64).map(BigUint::from).product::<BigUint>() / 2u32;
    let log10_count = (2..=n).map(|k| (k as f64).log10()).sum::<f64>() - 2f64.log10();
    let rank_bits = (&count - 1u32).bits().max(1);
    let cell_bits = usize::BITS - (n - 1).leading_zeros();
    outln!(
        "{shape} sliding puzzle: {n} cells, {} tiles and the blank",
        n - 1
    );
    outln!(
        "positions that reach a goal   {} = {n}!/2",
        format_count(&count)
    );
    outln!("bits in a perfect rank        {rank_bits}");
    match known_diameter(shape) {
        Some(d) => {
            outln!("diameter (blank-corner goal)  {d} moves (published complete enumeration)")
        }
        None => outln!("diameter (blank-corner goal)  not known exactly"),
    }
    outln!();
    let representations = representations(shape, rank_bits, cell_bits as usize);
    let ram = machine::total_memory();
    let disk = machine::free_disk(Path::new("."));
    outln!(
        "{:<42} {:>10} {:>16} {:>6} {:>6}",
        "storing every position as",
        "bits each",
        "in all",
        "RAM?",
        "disk?"
    );
    for r in &representations {
        let log10_bytes = log10_count + (r.bits_per_position / 8.0).log10();
        let fits = |limit: Option<u64>| match limit {
            Some(l) => {
                if log10_bytes <= (l as f64).log10() {
                    "yes"
                } else {
                    "no"
                }
            }
            None => "?",
        };
        outln!(
            "{:<42} {:>10} {:>16} {:>6} {:>6}{}",
            r.name,
            r.bits_per_position,
            size_text(log10_bytes),
            fits(ram),
            fits(disk),
            r.note
        );
    }
    outln!();
    let show = |v: Option<u64>| v.map_or("unknown".to_string(), |b| format_bytes(b as f64));
    outln!(
        "this machine: {} of RAM, {} free disk in the current folder",
        show(ram),
        show(disk)
    );
    Ok(())
}

fn representations(shape: Shape, rank_bits: u64, cell_bits: usize) -> Vec<Representation> {
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
            note: "",
        },
        Representation {
            name: format!("packed cells ({cell_bits} bits a cell)"),
            bits_per_position: (n * cell_bits) as f64,
            note: "",
        },
        Representation {
            name: format!("tile positions ({cell_bits} bits a tile)"),
            bits_per_position: ((n - 1) * cell_bits) as f64,
            note: "",
        },
        Representation {
            name: format!("perfect rank, listed ({rank_bits} bits packed)"),
            bits_per_position: rank_bits as f64,
            note: "",
        },
        Representation {
            name: format!("perfect rank, listed ({engine_bits}-bit words)"),
            bits_per_position: engine_bits as f64,
            note: "  frontier engine",
        },
        Representation {
            name: "rank-indexed table, a byte a position".into(),
            bits_per_position: 8.0,
            note: "",
        },
        Representation {
            name: "rank-indexed table, 2 bits a position".into(),
            bits_per_position: 2.0,
            note: "  table engine",
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
