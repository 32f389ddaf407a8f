//! `godsearch scramble`: uniform random positions, or random move sequences.
//!
//! A uniform random 3x3x3 is drawn coordinate by coordinate (corner and edge permutations with
//! equal parity, twists and flips that add up), solved by the two-phase method, and printed as
//! the inverse of that solution: a scramble of at most 20 moves that reaches it. A 2x2x2 is a
//! uniform random rank, printed as the inverse of its optimal solution. A board is a uniform
//! random solvable arrangement.

use crate::args::ScrambleArgs;
use crate::errors::bad_input;
use crate::output::outln;
use crate::spaces;
use anyhow::{ensure, Context, Result};
use godsearch_app::tables;
use godsearch_puzzles::cube::cube2::CUBE2_POSITIONS;
use godsearch_puzzles::cube::notation::{apply_moves, format_moves, invert_moves};
use godsearch_puzzles::cube::{
    facelet, random_cube, Cube2Space, CubeSize, CubieCube, Metric, Move, CUBE2_MAX_DISTANCE,
};
use godsearch_puzzles::tiles::{Board, Move as TileMove, Shape};
use godsearch_puzzles::PuzzleName;
use godsearch_search::descend;
use godsearch_twophase::{solve, Options};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde::Serialize;

/// Two-phase scrambles are at most this long (every position has a solution this short).
const SCRAMBLE_MAX_LENGTH: usize = 20;

/// One scramble, as printed with `--json`.
#[derive(Debug, Serialize)]
struct Scramble {
    puzzle: String,
    /// The moves that reach the position from solved (cubes) or from the goal (boards: blank
    /// moves), when there are any.
    scramble: Option<String>,
    length: Option<usize>,
    metric: Option<&'static str>,
    /// The position: facelets for the 3x3x3, the board for tiles.
    position: Option<String>,
}

pub fn run(args: &ScrambleArgs) -> Result<()> {
    let mut rng = match args.seed {
        Some(seed) => StdRng::seed_from_u64(seed),
        None => StdRng::from_entropy(),
    };
    // Each scramble is printed as soon as it is made, so `| head` sees output at once and a
    // count of millions runs in constant memory.
    let print = |s: Scramble| -> Result<()> {
        if args.json {
            outln!("{}", serde_json::to_string(&s)?);
            return Ok(());
        }
        match (&s.scramble, &s.position) {
            (Some(moves), Some(position)) => outln!("{moves}\n  {position}"),
            (Some(moves), None) => outln!("{moves}"),
            (None, Some(position)) => outln!("{position}"),
            (None, None) => {}
        }
        Ok(())
    };
    let walk = args.moves.map(|n| n as usize);
    match args.puzzle.parse::<PuzzleName>()? {
        PuzzleName::Cube(size) => {
            let metric = spaces::cube_metric(args.metric.as_deref())?;
            match (size, walk) {
                (_, Some(n)) => {
                    if args.cache.is_some() {
                        bad_input!("--cache is for uniform 3x3x3 scrambles (it holds the two-phase tables); --moves needs no tables");
                    }
                    for _ in 0..args.count {
                        print(move_scramble(size, metric, n, &mut rng))?;
                    }
                }
                (CubeSize::Two, None) => {
                    if args.cache.is_some() {
                        bad_input!(
                            "--cache is for the 3x3x3; the 2x2x2's table is built in memory"
                        );
                    }
                    cube2_scrambles(args.count, metric, &mut rng, print)?
                }
                (CubeSize::Three, None) => cube3_scrambles(args, metric, &mut rng, print)?,
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
                print(tile_scramble(shape, walk, &mut rng)?)?;
            }
        }
    }
    Ok(())
}

/// A random face-turn sequence with no two turns of one face in a row and opposite faces
/// only in the order U D, R L, F B (so nothing cancels or merges trivially).
fn move_scramble(size: CubeSize, metric: Metric, n: usize, rng: &mut StdRng) -> Scramble {
    let generators = metric.moves();
    let mut moves: Vec<Move> = Vec::with_capacity(n);
    while moves.len() < n {
        let m = *generators.choose(rng).expect("moves");
        let ok = match moves.last() {
            None => true,
            Some(last) => m.face != last.face && m.face + 3 != last.face,
        };
        if ok {
            moves.push(m);
        }
    }
    let cube = apply_moves(&CubieCube::SOLVED, &moves);
    Scramble {
        puzzle: size.to_string(),
        scramble: Some(format_moves(&moves)),
        length: Some(metric.length(&moves)),
        metric: Some(metric.name()),
        position: (size == CubeSize::Three).then(|| facelet::format(&cube)),
    }
}

fn cube3_scrambles(
    args: &ScrambleArgs,
    metric: Metric,
    rng: &mut StdRng,
    mut print: impl FnMut(Scramble) -> Result<()>,
) -> Result<()> {
    let tables = crate::cache::twophase_tables(args.cache.as_deref());
    let options = Options {
        target_length: SCRAMBLE_MAX_LENGTH,
        deadline: None,
    };
    for _ in 0..args.count {
        let cube = random_cube(rng);
        let solution = solve(&tables, &cube, options)?;
        let moves = invert_moves(&solution.moves);
        ensure!(
            apply_moves(&CubieCube::SOLVED, &moves) == cube,
            "internal error: the scramble does not reach the position"
        );
        print(Scramble {
            puzzle: CubeSize::Three.to_string(),
            length: Some(metric.length(&moves)),
            scramble: Some(format_moves(&moves)),
            metric: Some(metric.name()),
            position: Some(facelet::format(&cube)),
        })?;
    }
    Ok(())
}

fn cube2_scrambles(
    count: u64,
    metric: Metric,
    rng: &mut StdRng,
    mut print: impl FnMut(Scramble) -> Result<()>,
) -> Result<()> {
    let space = Cube2Space::new(metric);
    let (table, _) = tables::table_in_memory(&space)?;
    for _ in 0..count {
        let rank = rng.gen_range(0..CUBE2_POSITIONS);
        let path = descend(&space, &table, rank, CUBE2_MAX_DISTANCE)?;
        let solution: Vec<Move> = path.iter().map(|&k| space.moves()[k as usize]).collect();
        let moves = invert_moves(&solution);
        ensure!(
            space.rank(&apply_moves(&CubieCube::SOLVED, &moves)) == rank,
            "internal error: the scramble does not reach the position"
        );
        print(Scramble {
            puzzle: CubeSize::Two.to_string(),
            length: Some(metric.length(&moves)),
            scramble: Some(format_moves(&moves)),
            metric: Some(metric.name()),
            position: None,
        })?;
    }
    Ok(())
}

/// A uniform random solvable board (a random arrangement, with two tiles swapped when its
/// parity is wrong), or a random walk of the blank of `walk` moves that never steps straight
/// back.
fn tile_scramble(shape: Shape, walk: Option<usize>, rng: &mut StdRng) -> Result<Scramble> {
    let goal = Board::goal(shape);
    let (board, moves) = match walk {
        Some(n) => {
            let mut board = goal.clone();
            let mut moves: Vec<TileMove> = Vec::with_capacity(n);
            while moves.len() < n {
                let options: Vec<TileMove> = board
                    .successors()
                    .map(|(m, _)| m)
                    .filter(|m| moves.last() != Some(&m.inverse()))
                    .collect();
                let m = *options.choose(rng).expect("a blank can always move");
                board.apply(m);
                moves.push(m);
            }
            (board, Some(TileMove::format_sequence(&moves)))
        }
        None => {
            let mut cells: Vec<u16> = goal.cells().to_vec();
            cells.shuffle(rng);
            let mut board = Board::from_cells(shape, cells.clone())?;
            if board.check_solvable(&goal).is_err() {
                let tiles: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] != 0).collect();
                cells.swap(tiles[0], tiles[1]);
                board = Board::from_cells(shape, cells)?;
            }
            board.check_solvable(&goal).context("random board")?;
            (board, None)
        }
    };
    Ok(Scramble {
        puzzle: shape.to_string(),
        length: walk,
        scramble: moves,
        metric: None,
        position: Some(board.to_string()),
    })
}
