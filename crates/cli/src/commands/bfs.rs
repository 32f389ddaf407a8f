//! `godsearch bfs`: God's algorithm from the goal on any registered puzzle (boards, cubes, the
//! pancake puzzle, definition files), through the registry's one dispatch
//! ([`godsearch_app::registry`]); this file reads the arguments and prints.

use super::bfs_cluster::{self, Role};
use super::bfs_output::{bar_of, bfs_request, check_save_target, emit_report};
use crate::args::BfsArgs;
use crate::errors::bad_input;
use crate::progress::LevelBar;
use anyhow::Result;
use godsearch_app::request::BfsJob;

pub fn run(args: &BfsArgs) -> Result<()> {
    let role = bfs_cluster::role(args)?;
    if let Role::Launcher(processes) = role {
        return super::bfs_launcher::launch(processes, args);
    }
    if role.request().is_some() {
        bfs_cluster::watch_connections();
    }
    let name = match (&args.definition.def, &args.puzzle) {
        (Some(_), Some(_)) => bad_input!("give the puzzle as --def FILE or by name, not both"),
        (Some(path), None) => path.display().to_string(),
        (None, Some(name)) => name.clone(),
        (None, None) => bad_input!("name a puzzle, or a definition file with --def"),
    };
    let puzzle = super::open_puzzle(args.definition.def.as_deref(), &name)?;
    let job = BfsJob {
        puzzle: name,
        generators: args.definition.generators.clone(),
        goal: args.goal.clone(),
        metric: args.metric.clone(),
        symmetry: args.symmetry,
        max_depth: args.max_depth,
        count_last: args.count_last,
        save: args.save.clone(),
    };
    puzzle.check_bfs(&job)?;
    check_save_target(args)?;
    let request = bfs_request(args, role.request());
    let bar = LevelBar::logged(args.progress_every);
    let report = puzzle.bfs(&job, &request, bar_of(&role, &bar));
    bar.finish();
    let report = report.map_err(|e| bfs_cluster::name_lost_process(e.into()))?;
    let title = match report.goal.as_str() {
        "solved" => format!("{}, {} metric", report.puzzle, report.metric),
        goal => format!("{}, goal {goal}", report.puzzle),
    };
    emit_report(args, report, &title, |text| puzzle.picture(text))
}
