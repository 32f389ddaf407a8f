//! `godsearch pdb build`: a partition's pattern databases, or a definition puzzle's, built
//! into the cache, through the workbench's call the server and Python make (`/api/jobs/pdb`,
//! `build_pdb`).

use crate::args::{PdbArgs, PdbBuildArgs, PdbCommand};
use crate::output::outln;
use crate::progress::{with_job_line, StatusLines};
use crate::{cache, machine};
use anyhow::{bail, Result};
use godsearch_app::request::{JobControl, JobLimits, PdbJob, Workbench};
use godsearch_app::units::{format_bytes, format_count};

pub fn run(args: &PdbArgs) -> Result<()> {
    match &args.command {
        PdbCommand::Build(build_args) => build(build_args),
    }
}

fn build(args: &PdbBuildArgs) -> Result<()> {
    let bench = Workbench::for_one_batch(cache::open(args.cache.as_deref()));
    let job = PdbJob {
        puzzle: args.definition.puzzle_name(args.puzzle.as_deref()),
        partition: args.pdb.clone(),
        goal: args.goal.clone(),
        generators: args.definition.generators.clone(),
        metric: args.metric.clone(),
        no_reflection: args.no_reflection,
        force: args.force,
    };
    let limits = JobLimits::local(machine::memory_budget(args.memory));
    let control = JobControl::new(None);
    let report = with_job_line(
        &control,
        StatusLines {
            quiet: false,
            logged_every: args.progress_every,
        },
        || bench.build_pdb(&job, &limits, &control),
    )?;
    outln!(
        "pattern databases of {} ({}), goal {}, in {}",
        report.puzzle,
        report.partition,
        report.goal,
        report.cache
    );
    let mut total_seconds = 0.0;
    let mut total_bytes = 0;
    for group in &report.groups {
        if let Some(why) = &group.not_saved {
            // Caching is this command's whole job.
            bail!("the database was built but could not be cached: {why}");
        }
        let what = match group.origin {
            "cached" => "already cached".to_string(),
            _ => {
                let note = group
                    .replaced
                    .as_ref()
                    .map_or(String::new(), |why| format!(" (replaced: {why})"));
                format!("built in {:.2} s{note}", group.seconds)
            }
        };
        total_seconds += group.seconds;
        total_bytes += group.entries;
        outln!(
            "  {:<44} {:>14} entries {:>10}  {what}",
            group.what,
            format_count(group.entries),
            format_bytes(group.entries as f64)
        );
    }
    outln!(
        "total {} in {total_seconds:.2} s of building",
        format_bytes(total_bytes as f64)
    );
    Ok(())
}
