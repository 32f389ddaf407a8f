//! `godsearch bench`: the engines' speed on fixed work, printed as tables with ratios against
//! a baseline measured in the same run (the machines are shared and noisy, so absolute figures
//! alone mislead). The benchmarks call the engines directly, which the commands never do; so
//! they live here, apart from the command line, which only maps its arguments to
//! [`BenchOptions`] and calls [`run`].
//!
//! One module per section: [`bfs`] (enumeration engines), [`search`] (Korf's 100 and the
//! 24-puzzle), [`subgoal`], [`cube`], [`optimal`] (the optimal 3x3x3 solver), [`definitions`]
//! (definition-file puzzles) and [`distributed`]; [`measure`] is what they share. [`paired`]
//! times this build against another on any command, side by side. The figures
//! and how to repeat them are in the book's performance chapter.

pub mod benchsets;
pub mod bfs;
pub mod cube;
pub mod definitions;
pub mod distributed;
pub mod measure;
pub mod optimal;
pub mod paired;
pub mod search;
pub mod subgoal;

use anyhow::Result;
use godsearch_app::cache::TableCache;
use godsearch_app::units::excerpt;
use godsearch_app::AppError;
use godsearch_console::{errln, outln};
use godsearch_twophase::optimal::TableSize;

/// Parts of the benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum BenchSection {
    /// Everything.
    All,
    /// Enumeration engines and table descent.
    Bfs,
    /// Pattern-database builds and optimal search on Korf's 100 instances.
    Search,
    /// Subgoal solvers: speed and solution lengths from 3x3 to 20x20.
    Subgoal,
    /// Cubes: 2x2x2 and 3x3x3 enumeration, two-phase solving of 1,000 random cubes.
    Cube,
    /// The optimal 3x3x3 solver: 20 random 13-move sequences (small table), then --cubes
    /// uniformly random cubes (--table-size, default 1gb) and the mean of the table's bounds
    /// over 10,000 random cubes, lookup by lookup. In `all` with --large only.
    Optimal,
    /// The distributed backend against the frontier engine alone (both keeping the tiles'
    /// moves back, as `bfs` does): 4x4 through depth 25 (28
    /// with --large) in one process with 1 and 2 workers and in 2, 3, 4 processes on
    /// loopback. Not in `all`.
    Distributed,
    /// The 24-puzzle with 6-6-6-6 and reflection on every thread: the random-walk boards of
    /// 66 to 88 moves and Korf and Felner's two easiest instances (#25, 81 moves; #40, 82),
    /// then (with --large) #29 (88) and Korf and Taylor's #1 (95) and #5 (100), each with
    /// nodes, time and nodes a second. Not in `all`.
    #[cfg_attr(feature = "clap", value(name = "24"))]
    TwentyFour,
    /// Puzzles from the shipped definition files against the built-in cubes, group orders,
    /// and 3x3x3 scrambles solved over automatic pattern databases (with --large also the
    /// pyraminx with tips and the <R, U> group).
    Definitions,
}

/// Korf-style instances for the search section, read by the caller.
pub struct Instances {
    /// The file's text: an id, the optimal length and 16 cells a line, for the blank-first goal.
    pub text: String,
    /// Where it was read from, for messages.
    pub source: String,
}

/// What to run, and with what.
pub struct BenchOptions {
    /// Which part to run.
    pub section: BenchSection,
    /// Also run the long cases of each section.
    pub large: bool,
    /// Where pattern databases and cube tables are cached between runs.
    pub cache: TableCache,
    /// The search section's instances; `None`: Korf's 100, built in ([`benchsets::KORF100`]).
    pub korf: Option<Instances>,
    /// Optimal section: uniformly random cubes to solve (0: only the short sequences).
    pub cubes: usize,
    /// Optimal section: the table for the random cubes, by name (`small`, `300mb`, `1gb`,
    /// `8gb`).
    pub table_size: String,
}

/// Runs the sections `options` names on every thread of the current rayon pool, printing each
/// table as it is measured. A table size that is not one of the names is bad input
/// ([`AppError::Input`]), refused before anything runs.
pub fn run(options: &BenchOptions) -> Result<()> {
    let section = options.section;
    let optimal_in_all = section == BenchSection::All && options.large;
    let optimal = section == BenchSection::Optimal || optimal_in_all;
    let table_size = match optimal {
        true => Some(TableSize::from_name(&options.table_size).ok_or_else(|| {
            AppError::Input(format!(
                "unknown --table-size '{}': expected {}",
                excerpt(&options.table_size),
                TableSize::names()
            ))
        })?),
        false => None,
    };
    if cfg!(debug_assertions) {
        errln!("warning: this is a debug build; build with --release for meaningful figures");
    }
    let threads = rayon::current_num_threads();
    let cache = &options.cache;
    if matches!(section, BenchSection::All | BenchSection::Bfs) {
        bfs::run(options.large, threads)?;
    }
    if matches!(section, BenchSection::All | BenchSection::Search) {
        outln!("\n== search");
        match &options.korf {
            Some(korf) => search::run(&korf.text, &korf.source, threads)?,
            None => search::run(benchsets::KORF100, benchsets::KORF100_SOURCE, threads)?,
        }
        if options.large {
            search::run_twenty_four(cache, threads, false)?;
        }
    }
    if section == BenchSection::TwentyFour {
        outln!("== 24-puzzle");
        search::run_twenty_four(cache, threads, options.large)?;
    }
    if matches!(section, BenchSection::All | BenchSection::Subgoal) {
        outln!("\n== subgoal");
        subgoal::run()?;
    }
    if matches!(section, BenchSection::All | BenchSection::Cube) {
        outln!();
        cube::run(cache, options.large, threads)?;
    }
    if matches!(section, BenchSection::All | BenchSection::Definitions) {
        outln!();
        definitions::run(options.large, threads)?;
    }
    if section == BenchSection::Distributed {
        distributed::run(options.large)?;
    }
    if let Some(size) = table_size {
        optimal::run(cache, size, options.cubes, threads)?;
    }
    Ok(())
}
