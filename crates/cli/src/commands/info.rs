//! `godsearch info`: the size of a state space and what storing it costs, computed by
//! [`godsearch_app::info`] and printed.

use crate::args::InfoArgs;
use crate::machine;
use crate::output::outln;
use crate::spaces;
use anyhow::Result;
use godsearch_app::info;
use godsearch_app::report::InfoReport;
use godsearch_app::units::{format_bytes, format_count};
use num_bigint::BigUint;
use std::path::Path;

/// Sizes above this many bytes are printed as powers of ten.
const PLAIN_LIMIT_LOG10: f64 = 18.0;
/// Counts of more digits than this are printed as `1.23e45` unless --exact.
const PLAIN_COUNT_DIGITS: usize = 30;
/// Digits after the point of a count printed as a power of ten.
const MANTISSA_DIGITS: usize = 2;

/// `count` with thousands separators, or, past [`PLAIN_COUNT_DIGITS`] digits and unless
/// `exact`, as `4.66e157` (the digits are the count's own, cut, not rounded).
fn positions_text(count: &BigUint, exact: bool) -> String {
    let digits = count.to_string();
    if exact || digits.len() <= PLAIN_COUNT_DIGITS {
        return format_count(count);
    }
    format!(
        "{}.{}e{} ({} digits; --exact prints them)",
        &digits[..1],
        &digits[1..=MANTISSA_DIGITS],
        digits.len() - 1,
        digits.len()
    )
}

pub fn run(args: &InfoArgs) -> Result<()> {
    let shape = spaces::tile_shape(&args.puzzle)?;
    let report = info::space_info(
        shape,
        machine::total_memory(),
        machine::free_disk(Path::new(".")),
    );
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
    } else {
        print(&report, &info::position_count(shape), args.exact);
    }
    Ok(())
}

fn print(r: &InfoReport, count: &BigUint, exact: bool) {
    let n = r.cells;
    outln!(
        "{} sliding puzzle: {n} cells, {} tiles and the blank",
        r.puzzle,
        n - 1
    );
    outln!(
        "positions that reach a goal   {} = {n}!/2",
        positions_text(count, exact)
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

fn size_text(log10_bytes: f64) -> String {
    if log10_bytes <= PLAIN_LIMIT_LOG10 {
        format_bytes(10f64.powf(log10_bytes))
    } else {
        let exponent = log10_bytes.floor();
        format!("{:.1}e{} B", 10f64.powf(log10_bytes - exponent), exponent)
    }
}
