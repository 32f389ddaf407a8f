//! `godsearch scramble`: uniform random positions, or random move sequences, made by
//! [`godsearch_app::scramble`] and printed as they come.

use crate::args::{ScrambleArgs, ScrambleFormat};
use crate::errors::bad_input;
use crate::output::outln;
use crate::spaces;
use anyhow::Result;
use godsearch_app::report::Scramble;
use godsearch_app::request::{JobControl, JobLimits, ScrambleRequest, TableSize, Workbench};
use godsearch_app::{definitions, scramble, tables};
use godsearch_puzzles::cube::{Cube2Space, CubeSize};
use godsearch_puzzles::tiles::BoardFormat;
use godsearch_puzzles::PuzzleName;
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
    let walk = args.moves.map(|n| n as usize);
    if let Some(path) = args.definition.path(args.puzzle.as_deref()) {
        if args.definition.def.is_some() && args.puzzle.is_some() {
            bad_input!("give the puzzle as --def FILE or by name, not both");
        }
        if !matches!(args.format, ScrambleFormat::List | ScrambleFormat::Json) {
            bad_input!("--format hex and grid are for boards; a definition puzzle prints a scramble and its KPuzzle pattern, or json");
        }
        if args.cache.is_some() {
            bad_input!("--cache is for the built-in puzzles; a definition puzzle's table is built in memory");
        }
        let puzzle = definitions::load(&path)?;
        let metric = match args.metric.as_deref() {
            Some(text) => definitions::DefinitionMetric::parse(text)?,
            None => definitions::DefinitionMetric::Outer,
        };
        let scrambler = scramble::DefinitionScrambler::new(
            &puzzle,
            &args.definition.generator_names(),
            metric,
            crate::machine::default_memory_budget(),
            walk.is_none(),
        )?;
        for _ in 0..args.count {
            print(match walk {
                Some(n) => scrambler.moves(n, &mut rng)?,
                None => scrambler.uniform(&mut rng)?,
            })?;
        }
        return Ok(());
    }
    if args.definition.generators.is_some() {
        bad_input!("--generators is for definition puzzles");
    }
    let name = args.puzzle.as_deref().unwrap_or_default();
    let Ok(known) = name.parse::<PuzzleName>() else {
        // Puzzles with no front end of their own here scramble through the registry, one at a
        // time so that each is printed as it comes.
        let puzzle = godsearch_app::registry::open(name, true)?;
        if !matches!(args.format, ScrambleFormat::List | ScrambleFormat::Json) {
            bad_input!("--format hex and grid are for boards; {name} prints a scramble and its position, or json");
        }
        if args.cache.is_some() {
            bad_input!("--cache is for the built-in puzzles");
        }
        let bench = Workbench::new(crate::cache::open(None));
        let limits = JobLimits {
            memory_bytes: crate::machine::default_memory_budget(),
            max_nodes: None,
            max_seconds: None,
            largest_table: TableSize::Small,
            max_scrambles: 1,
            definition_files: true,
        };
        let request = ScrambleRequest {
            puzzle: name.to_string(),
            generators: None,
            count: 1,
            moves: args.moves.map(|n| u32::try_from(n).unwrap_or(u32::MAX)),
            metric: args.metric.clone(),
            seed: None,
        };
        let control = JobControl::new(None);
        for _ in 0..args.count {
            for s in puzzle.scramble(&bench, &request, &limits, &mut rng, &control)? {
                print(s)?;
            }
        }
        return Ok(());
    };
    match known {
        PuzzleName::Cube(size) => {
            if !matches!(args.format, ScrambleFormat::List | ScrambleFormat::Json) {
                bad_input!("--format hex and grid are for boards; cubes print a scramble and its stickers, or json");
            }
            let metric = spaces::cube_metric(args.metric.as_deref(), size)?;
            match (size, walk) {
                (_, Some(n)) => {
                    if args.cache.is_some() {
                        bad_input!("--cache is for uniform 3x3x3 scrambles (it holds the two-phase tables); --moves needs no tables");
                    }
                    for _ in 0..args.count {
                        print(scramble::cube_moves(size, metric, n, &mut rng)?)?;
                    }
                }
                (CubeSize::Two, None) => {
                    if args.cache.is_some() {
                        bad_input!(
                            "--cache is for the 3x3x3; the 2x2x2's table is built in memory"
                        );
                    }
                    let space = Cube2Space::new(metric);
                    let (table, _) = tables::table_in_memory(&space)?;
                    for _ in 0..args.count {
                        print(scramble::cube2_uniform(&space, &table, &mut rng)?)?;
                    }
                }
                (CubeSize::Three, None) => {
                    let tables = crate::cache::twophase_tables(args.cache.as_deref());
                    for _ in 0..args.count {
                        print(scramble::cube3_uniform(&tables, metric, &mut rng)?)?;
                    }
                }
            }
        }
        PuzzleName::Tiles(shape) => {
            if args.metric.is_some() {
                bad_input!("--metric is for cubes");
            }
            if args.cache.is_some() {
                bad_input!("--cache is for the 3x3x3; board scrambles need no tables");
            }
            for _ in 0..args.count {
                print(scramble::board(shape, walk, board_format, &mut rng)?)?;
            }
        }
    }
    Ok(())
}
