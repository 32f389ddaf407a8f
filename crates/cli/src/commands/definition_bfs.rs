//! `godsearch bfs --def FILE` (or `bfs FILE.tws`): God's algorithm on a definition file's
//! puzzle ([`godsearch_app::bfs::definition`]).

use super::bfs_cluster::{self, Role};
use super::bfs_output::{bar_of, bfs_request, emit_report};
use crate::args::BfsArgs;
use crate::errors::bad_input;
use crate::progress::LevelBar;
use anyhow::Result;
use godsearch_app::bfs;
use godsearch_app::definitions::{self, DefinitionMetric};
use std::path::Path;

pub fn run(args: &BfsArgs, path: &Path, role: &Role) -> Result<()> {
    if args.goal.is_some() {
        bad_input!("--goal is for sliding-tile boards; a definition puzzle is enumerated from its solved pattern");
    }
    if args.symmetry.is_some() {
        bad_input!("--symmetry is for the 3x3x3");
    }
    let metric = match args.metric.as_deref() {
        Some(text) => DefinitionMetric::parse(text)?,
        None => DefinitionMetric::Outer,
    };
    let puzzle = definitions::load(path)?;
    let generators = args.definition.generator_names();
    let request = bfs_request(args, role.request());
    let bar = LevelBar::new();
    let report = bfs::definition(&puzzle, &generators, metric, &request, bar_of(role, &bar));
    bar.finish();
    let report = report.map_err(|e| bfs_cluster::name_lost_process(e.into()))?;
    let title = format!(
        "{} ({}), {} metric",
        report.puzzle, puzzle.file, report.metric
    );
    emit_report(args, report, &title, |_| Vec::new())
}
