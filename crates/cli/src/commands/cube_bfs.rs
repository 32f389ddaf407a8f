//! `godsearch bfs 2x2x2|3x3x3`: God's algorithm on the cubes ([`godsearch_app::bfs`]).
//!
//! The 2x2x2 (3,674,160 positions with one corner fixed) runs on the table engine, so its table
//! can be saved and solved from by descent. The 3x3x3 runs the frontier engine over symmetry
//! classes, which counts positions exactly until --max-depth or the memory budget.

use super::bfs_cluster::{self, Role};
use super::bfs_output::{bar_of, bfs_request, check_save_target, emit_report};
use crate::args::BfsArgs;
use crate::errors::bad_input;
use crate::progress::LevelBar;
use crate::spaces;
use anyhow::Result;
use godsearch_app::bfs;
use godsearch_puzzles::cube::{CubeSize, Reduction};

pub fn run(args: &BfsArgs, size: CubeSize, role: &Role) -> Result<()> {
    if args.goal.is_some() {
        bad_input!("--goal is for sliding-tile boards; a cube is enumerated from solved");
    }
    let metric = spaces::cube_metric(args.metric.as_deref(), size)?;
    let reduction = match (size, args.symmetry) {
        (CubeSize::Two, Some(_)) => {
            bad_input!("--symmetry is for the 3x3x3; the 2x2x2 is enumerated whole")
        }
        (_, None | Some(48)) => Reduction::Symmetries,
        (_, Some(96)) => Reduction::SymmetriesAndInverse,
        (_, Some(n)) => {
            bad_input!("--symmetry is 48 (the cube's symmetries) or 96 (with inversion), not {n}")
        }
    };
    if size == CubeSize::Two {
        check_save_target(args)?;
    }
    let request = bfs_request(args, role.request());
    let bar = LevelBar::new();
    let progress = bar_of(role, &bar);
    let report = match size {
        CubeSize::Two => bfs::cube2(metric, &request, progress),
        CubeSize::Three => bfs::cube3(metric, reduction, &request, progress),
    };
    bar.finish();
    let report = report.map_err(|e| bfs_cluster::name_lost_process(e.into()))?;
    let title = format!("{} cube, {} metric", report.puzzle, report.metric);
    emit_report(args, report, &title, |_| Vec::new())
}
