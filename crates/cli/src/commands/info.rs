//! `godsearch info`: the size of a state space and what storing it costs, computed by
//! [`godsearch_app::info`] and printed.

use crate::args::InfoArgs;
use crate::errors::bad_input;
use crate::machine;
use crate::output::outln;
use anyhow::Result;
use godsearch_app::info::offered_sizes;
use godsearch_app::registry::InfoQuery;
use godsearch_app::report::{
    AnyInfo, CubeInfoReport, InfoReport, PuzzleInfo, RepresentationReport,
};
use godsearch_app::units::{format_bytes, format_count, format_large_count, PLAIN_COUNT_DIGITS};
use num_bigint::BigUint;
use std::path::Path;

/// Sizes above this many bytes are printed as powers of ten.
const PLAIN_LIMIT_LOG10: f64 = 18.0;
/// `count` with thousands separators, or, past [`PLAIN_COUNT_DIGITS`] digits and unless
/// `exact`, as `4.67e157` ([`format_large_count`]) with its number of digits.
fn positions_text(count: &BigUint, exact: bool) -> String {
    let digits = count.to_string();
    if exact || digits.len() <= PLAIN_COUNT_DIGITS {
        return format_count(count);
    }
    format!(
        "{} ({} digits; --exact prints them)",
        format_large_count(&digits),
        digits.len()
    )
}

pub fn run(args: &InfoArgs) -> Result<()> {
    let query = InfoQuery {
        generators: args.definition.generator_names(),
        ram_bytes: machine::total_memory(),
        free_disk_bytes: machine::free_disk(Path::new(".")),
    };
    if args.puzzle.is_none() && args.definition.def.is_none() {
        if !query.generators.is_empty() {
            bad_input!("--generators is for one definition puzzle (give its name or --def FILE)");
        }
        return list(&query, args);
    }
    let name = args.definition.puzzle_name(args.puzzle.as_deref());
    let report = super::open_puzzle(args.definition.def.as_deref(), &name)?.info(&query)?;
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    match &report {
        AnyInfo::Board(r) => print(r, args.exact),
        AnyInfo::Cube(r) => print_cube(r, args.exact),
        AnyInfo::Definition(r) => super::definition_info::print(r, args.exact),
        AnyInfo::Puzzle(r) => print_puzzle(r, args.exact),
    }
    Ok(())
}

/// Every puzzle the registry offers by name, with its kind and exact number of positions.
fn list(query: &InfoQuery, args: &InfoArgs) -> Result<()> {
    let sizes = offered_sizes(query)?;
    if args.json {
        for size in &sizes {
            outln!("{}", serde_json::to_string(size)?);
        }
        return Ok(());
    }
    outln!("{:<18} {:<12} positions", "puzzle", "kind");
    for size in sizes {
        let positions = match size.positions.and_then(|p| p.parse::<BigUint>().ok()) {
            Some(n) => positions_text(&n, args.exact),
            None => "not known (some pieces alike)".into(),
        };
        outln!("{:<18} {:<12} {positions}", size.puzzle, size.kind);
    }
    outln!("(definitions: the positions their own moves reach, whole-puzzle turns included where those moves make them)");
    outln!("(and any WxH board, pancake-N, or a definition file: godsearch info PUZZLE)");
    Ok(())
}

/// A registered puzzle with no report of its own: its registry entry and size.
fn print_puzzle(report: &PuzzleInfo, exact: bool) {
    outln!(
        "{} ({} puzzle), goal {}",
        report.puzzle,
        report.kind,
        report.goal
    );
    let positions = report.positions.parse::<BigUint>().unwrap_or_default();
    outln!("positions  {}", positions_text(&positions, exact));
    outln!("moves      {}", report.moves.join(" "));
    outln!("solved by  {}", report.algorithms.join(", "));
    if let Some(bytes) = report.table_bytes {
        outln!(
            "table      {} (2 bits a position)",
            format_bytes(bytes as f64)
        );
    }
}

fn print_cube(r: &CubeInfoReport, exact: bool) {
    let count = |text: &str| {
        let n: BigUint = text.parse().expect("a decimal count");
        positions_text(&n, exact)
    };
    outln!("{} cube: {}", r.puzzle, r.pieces);
    outln!(
        "positions                     {} = {}",
        count(&r.positions),
        r.formula
    );
    if let Some(classes) = &r.symmetry_classes {
        outln!(
            "classes under 48 symmetries   {} (published)",
            count(classes)
        );
    }
    if let Some(classes) = &r.classes_with_inversion {
        outln!(
            "classes with inversion (96)   {} (published)",
            count(classes)
        );
    }
    outln!("bits in a perfect rank        {}", r.rank_bits);
    for g in &r.gods_numbers {
        let label = format!("God's number, {}", g.metric);
        let bound = if g.exact { "" } else { "at most " };
        outln!("{label:<29} {bound}{} moves ({})", g.moves, g.source);
    }
    print_costs(&r.representations, r.ram_bytes, r.free_disk_bytes);
}

fn print(r: &InfoReport, exact: bool) {
    let count: BigUint = r.positions.parse().expect("a decimal count");
    let n = r.cells;
    outln!(
        "{} sliding puzzle: {n} cells, {} tiles and the blank",
        r.puzzle,
        n - 1
    );
    outln!(
        "positions that reach a goal   {} = {n}!/2",
        positions_text(&count, exact)
    );
    outln!("bits in a perfect rank        {}", r.rank_bits);
    match r.diameter {
        Some(d) => {
            outln!("diameter (blank-corner goal)  {d} moves (published complete enumeration)")
        }
        None => outln!("diameter (blank-corner goal)  not known exactly"),
    }
    if !r.bfs_supported {
        outln!(
            "(bfs enumerates boards whose positions rank in at most 128 bits, 34 cells; this one needs {} bits)",
            r.rank_bits
        );
    }
    print_costs(&r.representations, r.ram_bytes, r.free_disk_bytes);
}

/// The table of ways to store every position, and the machine's memory and disk.
fn print_costs(
    representations: &[RepresentationReport],
    ram_bytes: Option<u64>,
    free_disk_bytes: Option<u64>,
) {
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
    for rep in representations {
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
    outln!();
    let show = |v: Option<u64>| v.map_or("unknown".to_string(), |b| format_bytes(b as f64));
    outln!(
        "this machine: {} of RAM, {} free disk in the current folder",
        show(ram_bytes),
        show(free_disk_bytes)
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
