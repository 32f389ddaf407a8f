//! `godsearch bench`: the arguments as [`BenchOptions`] for the benchmark crate
//! ([`godsearch_bench`]), which measures and prints.

use crate::args::BenchArgs;
use anyhow::Context;
use anyhow::Result;
use godsearch_bench::paired::Pairing;
use godsearch_bench::{BenchOptions, Instances};

pub fn run(args: &BenchArgs) -> Result<()> {
    if let Some(old) = &args.against {
        let new = std::env::current_exe().context("could not find this build's program")?;
        return godsearch_bench::paired::run(&Pairing {
            old: old.clone(),
            new,
            command: args.command.clone(),
            pairs: args.pairs as usize,
        });
    }
    let korf = match &args.korf {
        Some(path) => Some(Instances {
            text: crate::input::read_text_file(path)?,
            source: crate::input::shown(path).into_owned(),
        }),
        None => None,
    };
    godsearch_bench::run(&BenchOptions {
        section: args.section,
        large: args.large,
        cache: crate::cache::open(args.cache.as_deref()),
        korf,
        cubes: args.cubes,
        table_size: args.table_size.clone(),
    })
}
