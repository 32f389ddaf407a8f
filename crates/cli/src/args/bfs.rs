//! `godsearch bfs` and the options of definition puzzles.

use super::{
    parse_disk_size, parse_memory, parse_seconds, EngineChoice, MAX_PROCESSES, MAX_THREADS,
};
use clap::Args;
use godsearch_app::bfs::DEFAULT_BUCKET_STATES;
use std::path::PathBuf;
use std::time::Duration;

/// A puzzle from a definition file (`--def FILE`, or a puzzle name that is such a file).
#[derive(Debug, Args, Clone, Default)]
pub struct DefinitionArgs {
    /// A puzzle definition file: cubing.js KPuzzle JSON (.json, .kpuzzle.json) or twsearch's
    /// .tws; a puzzle name ending so is read as one too. The shipped ones (data/definitions)
    /// are puzzles by name: pyraminx, skewb, megaminx, 4x4x4, 3x3x3-ru, ...
    #[arg(long = "def", id = "def", value_name = "FILE")]
    pub def: Option<PathBuf>,
    /// Definition puzzles: the moves to search with, e.g. U,F,R (every power of each is a
    /// move), or powers such as U2,R2 (the half turns alone); derived moves may be named.
    /// Default: the file's own moves
    #[arg(long, value_name = "MOVES")]
    pub generators: Option<String>,
}

impl DefinitionArgs {
    /// The definition file this command is about, if any: `--def`, or the puzzle name when it
    /// ends in `.json` or `.tws`.
    pub fn path(&self, puzzle: Option<&str>) -> Option<PathBuf> {
        self.def.clone().or_else(|| {
            puzzle
                .filter(|p| godsearch_app::registry::definition::file::is_definition_path(p))
                .map(PathBuf::from)
        })
    }

    /// The name requests give the puzzle: the definition file's path ([`Self::path`]), else
    /// `puzzle` as written.
    pub fn puzzle_name(&self, puzzle: Option<&str>) -> String {
        match self.path(puzzle) {
            Some(path) => path.display().to_string(),
            None => puzzle.unwrap_or_default().to_string(),
        }
    }

    /// The generators named (empty: the file's own moves).
    pub fn generator_names(&self) -> Vec<String> {
        self.generators
            .as_deref()
            .map(godsearch_app::registry::definition::file::parse_generators)
            .unwrap_or_default()
    }
}

/// `godsearch bfs`.
#[derive(Debug, Args)]
pub struct BfsArgs {
    /// The puzzle: 3x3, 4x4, WxH, 8-puzzle, 15-puzzle, ..., 2x2x2, 3x3x3, or a definition file
    #[arg(required_unless_present = "def")]
    pub puzzle: Option<String>,
    #[command(flatten)]
    pub definition: DefinitionArgs,
    /// The goal board (default: tiles in order, blank last), e.g. 1,2,3,4,0,5,6,7,8, or
    /// blank-first (Korf's: 0,1,...,N-1).
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
    /// Cubes: how moves are counted: htm (half-turn metric: any face turn is 1), qtm
    /// (quarter-turn metric: a half turn is 2) or stm (slice-turn metric: a middle layer's
    /// turn, M E S, is 1 too; positions are the cube as held, centres fixed). etm (rotations
    /// count) has the same distances as stm and is counted as stm; on the 2x2x2, which has no
    /// middle layer, stm and etm are htm. Default htm.
    #[arg(long, value_name = "METRIC")]
    pub metric: Option<String>,
    /// 3x3x3: classes of 48 (the cube's symmetries, default) or 96 (with inversion: half the
    /// memory, twice the work a class). Definition files: the symmetries found from the moves
    /// (used by default where the frontier engines run; 1 for none).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=255))]
    pub symmetry: Option<u32>,
    /// Stop after the level at this distance.
    #[arg(long, value_name = "N")]
    pub max_depth: Option<u32>,
    /// Memory budget for tables and levels: 16G, 512M, 50% (default: 80% of RAM).
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    pub memory: Option<u64>,
    /// Engine.
    #[arg(long, value_enum, default_value_t = EngineChoice::Auto)]
    pub engine: EngineChoice,
    /// Save the distance table to this file (table engine only).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Print the antipodes as boards when there are at most this many.
    #[arg(long, value_name = "N", default_value_t = 48)]
    pub show_antipodes: usize,
    /// Count one level more than is stored (Bryan's method): the level at --max-depth, or the
    /// one that would not fit in --memory, is counted exactly without being stored (frontier
    /// engine; it costs lookups in the two levels held instead of memory for the level)
    #[arg(long)]
    pub count_last: bool,
    /// Write the level under way (its depth and how far it has come) out whole on stderr every
    /// SECONDS and soon after each level begins, terminal or not, after the time of day (UTC),
    /// so that the log of a run in the background (stderr sent to a file) keeps it; the
    /// levels' counts are printed at the end. Without it the bar is drawn in place, on a
    /// terminal only
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub progress_every: Option<Duration>,
    /// Keep the levels on disk in this folder (frontier engine): sorted, compressed bucket
    /// files (1.6-1.9 bytes a 15-puzzle position from depth 28 on, each with the moves back,
    /// so a level lists only new neighbours), every finished level fsynced and listed in a
    /// manifest, so a killed run continues with --resume. --memory then bounds the neighbours
    /// held in memory, not the run; four levels stay on disk (two for tiles).
    #[arg(long, value_name = "DIR")]
    pub workdir: Option<PathBuf>,
    /// Continue the run in --workdir from its last finished level (and the finished buckets
    /// of the level it was making); damaged files are found and made again.
    #[arg(long, requires = "workdir")]
    pub resume: bool,
    /// Keep every level's files in --workdir (by default each is deleted once the next four
    /// are written, two for tiles, or one level sooner where its room lets the next level be
    /// made in fewer passes).
    #[arg(long, requires = "workdir")]
    pub keep_levels: bool,
    /// States a bucket file of --workdir aims at (smaller: less memory while merging, more
    /// files).
    #[arg(long, value_name = "N", requires = "workdir", default_value_t = DEFAULT_BUCKET_STATES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub bucket_states: u64,
    /// The most disk --workdir may take: 50G, 800M (default: what the disk has). A level whose
    /// spilled neighbours would not fit is made a key range at a time (up to 16 passes over
    /// its parents), and a pass that reaches the limit all the same makes the rest in ranges
    /// half as large; a level that fits no way stops the run with exact counts, as a full disk
    /// does; --resume then continues (with a larger --disk, or after freeing space).
    #[arg(long, value_name = "SIZE", requires = "workdir", value_parser = parse_disk_size)]
    pub disk: Option<u64>,
    /// Distributed run: worker threads in this process (timely's -w; default 1). Each worker
    /// owns the states a fixed hash of their key picks, and --memory is shared among them.
    #[arg(short = 'w', long, value_name = "N",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=MAX_THREADS))]
    pub workers: Option<usize>,
    /// Distributed run: the processes in it (timely's -n). Without --process, starts this many
    /// processes on this machine on loopback and prints process 0's report: the way to try
    /// it without a hostfile. With --workdir, every worker keeps its levels on disk there
    /// (worker-NNN folders, as a single process does: --memory, --bucket-states and --disk
    /// then hold per process) and --resume continues from the newest level all of them saved.
    #[arg(short = 'n', long, value_name = "K",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=MAX_PROCESSES))]
    pub processes: Option<usize>,
    /// Distributed run: this process's index, from 0 (timely's -p); start one process per
    /// line of --hostfile, each with its index and the same other options.
    #[arg(short = 'p', long, value_name = "I", requires = "hostfile")]
    pub process: Option<usize>,
    /// Distributed run: every process's host:port, one a line, in process order (timely's
    /// hostfile; its -h is help here).
    #[arg(long, value_name = "FILE", requires = "process")]
    pub hostfile: Option<PathBuf>,
    /// One JSON document instead of a table.
    #[arg(long)]
    pub json: bool,
}
