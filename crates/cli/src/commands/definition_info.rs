//! How `godsearch info --def FILE` prints a definition puzzle's orbits, moves, group order and
//! ranking ([`godsearch_app::registry::definition::file::info`]).

use crate::output::outln;
use godsearch_app::report::DefinitionInfoReport;
use godsearch_app::units::{format_bytes, format_count, format_large_count};

/// Prints a definition puzzle's report for people (counts in full with `exact`).
pub fn print(report: &DefinitionInfoReport, exact: bool) {
    let count = |text: &str| match exact {
        true => format_count(text),
        false => format_large_count(text),
    };
    outln!("{} ({})", report.puzzle, report.file);
    for o in &report.orbits {
        outln!(
            "  orbit {:<12} {:>4} pieces, {} orientation{}",
            o.name,
            o.pieces,
            o.orientations,
            if o.orientations == 1 { "" } else { "s" }
        );
    }
    outln!("  moves in the file:  {}", report.moves.join(" "));
    outln!(
        "  generators:         {} ({} moves with their powers)",
        report.generators.join(" "),
        report.space_moves
    );
    outln!(
        "  group order:        {} (Schreier-Sims, {:.3} s)",
        count(&report.group_order),
        report.group_order_seconds
    );
    match &report.positions {
        Some(p) if *p == report.group_order => {
            outln!("  positions:          {} (pieces all distinct)", count(p))
        }
        Some(p) => outln!(
            "  positions:          {} (some pieces alike: the group order over the solved pattern's stabiliser)",
            count(p)
        ),
        None => outln!("  positions:          fewer than the group order (some pieces are alike; their count is not known)"),
    }
    match (&report.ranks, report.table_bytes) {
        (Some(r), Some(bytes)) => outln!(
            "  ranks:              {} = the positions; a 2-bit table of them takes {}",
            count(r),
            format_bytes(bytes as f64)
        ),
        (Some(r), None) => outln!(
            "  ranks:              {} (more than the positions: a table of every rank has unused entries)",
            count(r)
        ),
        (None, _) => outln!("  ranks:              more than 128 bits hold"),
    }
    match report.symmetries {
        1 => outln!("  symmetries:         none found from the moves"),
        n => outln!("  symmetries:         {n}, found from the moves"),
    }
}
