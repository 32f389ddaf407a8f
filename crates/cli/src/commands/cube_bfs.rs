//! `godsearch bfs 2x2x2|3x3x3`: God's algorithm on the cubes.
//!
//! The 2x2x2 (3,674,160 positions with one corner fixed) runs on the generic table engine, so
//! its table can be saved and solved from by descent. The 3x3x3 runs the symmetry-class
//! frontier engine, which counts positions exactly until --max-depth or the memory budget.

use super::bfs_output::{check_save_target, print_report, stop_message};
use crate::args::{BfsArgs, EngineChoice};
use crate::errors::bad_input;
use crate::machine;
use crate::output::outln;
use crate::progress::LevelBar;
use crate::spaces;
use anyhow::{Context, Result};
use godsearch_app::report::BfsReport;
use godsearch_app::tables;
use godsearch_enumerate::{frontier, table, Limits, Stop};
use godsearch_puzzles::cube::notation::{format_moves, invert_moves};
use godsearch_puzzles::cube::{Cube2Space, Cube3Classes, CubeSize, Reduction, CUBE2_MAX_DISTANCE};
use godsearch_search::descend;
use std::time::Instant;

pub fn run(args: &BfsArgs, size: CubeSize) -> Result<()> {
    if args.goal.is_some() {
        bad_input!("--goal is for sliding-tile boards; a cube is enumerated from solved");
    }
    let metric = spaces::cube_metric(args.metric.as_deref())?;
    if size == CubeSize::Three && (args.save.is_some() || args.engine == EngineChoice::Table) {
        bad_input!("the 3x3x3 has 43,252,003,274,489,856,000 positions: no table of them fits; it is enumerated level by level (leave out --save and --engine table)");
    }
    if args.save.is_some() && args.engine == EngineChoice::Frontier {
        bad_input!("--save needs the table engine (leave out --engine frontier)");
    }
    check_save_target(args)?;
    let limits = Limits {
        max_depth: args.max_depth,
        memory_bytes: machine::memory_budget(args.memory),
        antipode_cap: args.show_antipodes,
    };
    let bar = LevelBar::new();
    let started = Instant::now();
    let report = match size {
        CubeSize::Two => {
            if args.symmetry.is_some() {
                bad_input!("--symmetry is for the 3x3x3; the 2x2x2 is enumerated whole");
            }
            let space = Cube2Space::new(metric);
            let (enumeration, built) = match args.engine {
                EngineChoice::Frontier => (frontier::enumerate(&space, &limits, &bar), None),
                _ => {
                    let built = table::enumerate(&space, &limits, &bar)?;
                    (built.enumeration, Some(built.table))
                }
            };
            let seconds = started.elapsed().as_secs_f64();
            bar.finish();
            if let (Some(path), Some(t)) = (&args.save, &built) {
                tables::save_cube2_table(path, &space, t, &enumeration.levels)
                    .with_context(|| format!("saving the table to {}", path.display()))?;
            }
            let complete = enumeration.stop == Stop::Complete;
            // Antipodes are shown as scrambles: the inverse of an optimal solution by descent.
            let antipodes = match (&enumeration.last_level, &built) {
                (Some(ranks), Some(t)) if complete => Some(
                    ranks
                        .iter()
                        .map(|&r| {
                            let path = descend(&space, t, r, CUBE2_MAX_DISTANCE)?;
                            let moves: Vec<_> =
                                path.iter().map(|&k| space.moves()[k as usize]).collect();
                            Ok(format_moves(&invert_moves(&moves)))
                        })
                        .collect::<Result<Vec<String>>>()?,
                ),
                _ => None,
            };
            BfsReport {
                puzzle: size.to_string(),
                goal: "solved".into(),
                metric: metric.name(),
                engine: if built.is_some() { "table" } else { "frontier" },
                threads: rayon::current_num_threads(),
                total: enumeration.total(),
                diameter: enumeration.diameter(),
                complete,
                stopped: stop_message(enumeration.stop),
                antipode_count: complete.then(|| *enumeration.levels.last().expect("level 0")),
                antipodes,
                seconds,
                positions_per_second: enumeration.total() as f64 / seconds.max(f64::MIN_POSITIVE),
                peak_bytes: enumeration.peak_bytes,
                levels: enumeration.levels,
                classes: None,
                class_group: None,
            }
        }
        CubeSize::Three => {
            let reduction = match args.symmetry {
                None | Some(48) => Reduction::Symmetries,
                Some(96) => Reduction::SymmetriesAndInverse,
                Some(n) => bad_input!(
                    "--symmetry is 48 (the cube's symmetries) or 96 (with inversion), not {n}"
                ),
            };
            let space = Cube3Classes::new(metric, reduction);
            let e = frontier::enumerate(&space, &limits, &bar);
            let seconds = started.elapsed().as_secs_f64();
            bar.finish();
            let total = e.total();
            BfsReport {
                puzzle: size.to_string(),
                goal: "solved".into(),
                metric: metric.name(),
                engine: "frontier of symmetry classes",
                threads: rayon::current_num_threads(),
                total,
                diameter: None,
                complete: false,
                stopped: stop_message(e.stop),
                antipode_count: None,
                antipodes: None,
                seconds,
                positions_per_second: total as f64 / seconds.max(f64::MIN_POSITIVE),
                peak_bytes: e.peak_bytes,
                levels: e.levels,
                classes: Some(e.classes),
                class_group: Some(reduction.order()),
            }
        }
    };
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
    } else {
        let title = format!("{} cube, {} metric", report.puzzle, report.metric);
        print_report(&report, &title, |_| Vec::new());
    }
    Ok(())
}
