//! `godsearch pdb build`: build a partition's pattern databases into the cache.

use crate::args::{PdbArgs, PdbBuildArgs, PdbCommand};
use crate::errors::InputError;
use crate::machine;
use crate::output::outln;
use crate::spaces;
use anyhow::Result;
use godsearch_app::cache::Origin;
use godsearch_app::tiles::Partition;
use godsearch_app::units::{format_bytes, format_count};

pub fn run(args: &PdbArgs) -> Result<()> {
    match &args.command {
        PdbCommand::Build(build_args) => build(build_args),
    }
}

fn build(args: &PdbBuildArgs) -> Result<()> {
    let shape = spaces::tile_shape(&args.puzzle)?;
    let goal = spaces::tile_goal(shape, args.goal.as_deref())?;
    let partition = Partition::parse(&args.pdb, &goal).map_err(|e| InputError(e.to_string()))?;
    let memory_bytes = machine::memory_budget(args.memory);
    let cache = crate::cache::open(args.cache.as_deref());
    outln!(
        "pattern databases {} for {shape}, goal {goal}, in {}",
        partition.name(),
        cache.dir().display()
    );
    let mut total_seconds = 0.0;
    let mut total_bytes = 0;
    for pattern in partition.patterns() {
        let bar = crate::progress::LevelBar::new();
        let built = cache.load_or_build(&goal, pattern, memory_bytes, args.force, &bar);
        bar.finish();
        let (_, origin) = built?;
        let what = match origin {
            Origin::Cached => "already cached".to_string(),
            Origin::Built {
                seconds,
                replaced,
                not_saved,
            } => {
                if let Some(why) = not_saved {
                    // Caching is this command's whole job.
                    anyhow::bail!("the database was built but could not be cached: {why}");
                }
                total_seconds += seconds;
                let note = replaced.map_or(String::new(), |why| format!(" (replaced: {why})"));
                format!("built in {seconds:.2} s{note}")
            }
        };
        total_bytes += pattern.entries();
        outln!(
            "  tiles {:<28} {:>14} entries {:>10}  {what}",
            format!("{:?}", pattern.tiles()),
            format_count(pattern.entries()),
            format_bytes(pattern.entries() as f64)
        );
    }
    outln!(
        "total {} in {total_seconds:.2} s of building",
        format_bytes(total_bytes as f64)
    );
    Ok(())
}
