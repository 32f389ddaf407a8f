//! `godsearch scramble`: uniform random positions, or random move sequences, of any puzzle the
//! registry opens, made by its scrambler and printed as they come.

use crate::args::{ScrambleArgs, ScrambleFormat};
use crate::errors::bad_input;
use crate::output::outln;
use crate::progress::LevelBar;
use anyhow::Result;
use godsearch_app::registry::tiles::BoardFormat;
use godsearch_app::report::Scramble;
use godsearch_app::request::{JobLimits, ScrambleRequest, Workbench};
use rand::rngs::StdRng;
use rand::SeedableRng;

pub fn run(args: &ScrambleArgs) -> Result<()> {
    let mut rng = match args.seed {
        Some(seed) => StdRng::seed_from_u64(seed),
        None => StdRng::from_entropy(),
    };
    // Each scramble is printed as soon as it is made, so `| head` sees output at once and a
    // count of millions runs in constant memory.
    let json = args.json || args.format == ScrambleFormat::Json;
    let board_format = match args.format {
        ScrambleFormat::Hex => BoardFormat::Hex,
        ScrambleFormat::Grid if !json => BoardFormat::Grid,
        _ => BoardFormat::List,
    };
    let print = |s: Scramble| -> Result<()> {
        if json {
            outln!("{}", serde_json::to_string(&s)?);
            return Ok(());
        }
        match (&s.scramble, &s.position) {
            // A grid takes lines of its own, after a blank line between boards.
            (_, Some(position)) if board_format == BoardFormat::Grid => {
                if let Some(moves) = &s.scramble {
                    outln!("{moves}");
                }
                outln!("{position}\n");
            }
            (Some(moves), Some(position)) => outln!("{moves}\n  {position}"),
            (Some(moves), None) => outln!("{moves}"),
            (None, Some(position)) => outln!("{position}"),
            (None, None) => {}
        }
        Ok(())
    };
    if args.definition.def.is_some() && args.puzzle.is_some() {
        bad_input!("give the puzzle as --def FILE or by name, not both");
    }
    let name = args.definition.puzzle_name(args.puzzle.as_deref());
    let puzzle = super::open_puzzle(args.definition.def.as_deref(), &name)?;
    let bench = Workbench::for_one_batch(crate::cache::open(args.cache.as_deref()));
    let limits = JobLimits::local(crate::machine::default_memory_budget());
    let request = ScrambleRequest {
        puzzle: name.clone(),
        generators: args.definition.generators.clone(),
        count: 1,
        moves: args.moves.map(|n| u32::try_from(n).unwrap_or(u32::MAX)),
        metric: args.metric.clone(),
        seed: None,
        format: match board_format {
            BoardFormat::List => None,
            BoardFormat::Hex => Some("hex".into()),
            BoardFormat::Grid => Some("grid".into()),
        },
        goal: args.goal.clone(),
    };
    let bar = LevelBar::new();
    let scrambler = puzzle.scrambler(&bench, &request, &limits, &bar);
    bar.finish();
    let scrambler = scrambler?;
    if args.cache.is_some() && !scrambler.reads_cache() {
        bad_input!("--cache is for the 3x3x3's uniform scrambles, which read the two-phase tables; these need no cached tables");
    }
    for _ in 0..args.count {
        print(scrambler.next(&mut rng)?)?;
    }
    Ok(())
}
