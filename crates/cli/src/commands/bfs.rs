//! `godsearch bfs`: God's algorithm from the goal, with the engine chosen by size
//! ([`godsearch_app::bfs`]); this file reads the arguments and prints.

use super::bfs_cluster::{self, Role};
use super::bfs_output::{bar_of, bfs_request, check_save_target, emit_report};
use crate::args::BfsArgs;
use crate::errors::bad_input;
use crate::progress::LevelBar;
use crate::spaces;
use anyhow::Result;
use godsearch_app::bfs;
use godsearch_puzzles::tiles::Board;
use godsearch_puzzles::PuzzleName;

pub fn run(args: &BfsArgs) -> Result<()> {
    let role = bfs_cluster::role(args)?;
    if let Role::Launcher(processes) = role {
        return bfs_cluster::launch(processes, args);
    }
    if role.request().is_some() {
        bfs_cluster::watch_connections();
    }
    if let Some(path) = args.definition.path(args.puzzle.as_deref()) {
        return super::definition_bfs::run(args, &path, &role);
    }
    let puzzle = args.puzzle.as_deref().unwrap_or_default();
    if let PuzzleName::Cube(size) = puzzle.parse::<PuzzleName>()? {
        return super::cube_bfs::run(args, size, &role);
    }
    if args.symmetry.is_some() {
        bad_input!("--symmetry is for the 3x3x3");
    }
    if args.metric.is_some() {
        bad_input!("--metric is for cubes; sliding-tile moves are counted one per tile moved");
    }
    let shape = spaces::tile_shape(puzzle)?;
    let goal = spaces::tile_goal(shape, args.goal.as_deref())?;
    check_save_target(args)?;
    let request = bfs_request(args, role.request());
    let bar = LevelBar::new();
    let report = bfs::tiles(&goal, &request, bar_of(&role, &bar));
    bar.finish();
    let report = report.map_err(|e| bfs_cluster::name_lost_process(e.into()))?;
    let title = format!("{} sliding puzzle, goal {}", report.puzzle, report.goal);
    emit_report(args, report, &title, |text| {
        let board = Board::parse(goal.shape(), text).expect("printed by us");
        board.to_grid().lines().map(str::to_string).collect()
    })
}
