//! `godsearch solve`: optimal solutions by descending a distance table.

use crate::args::SolveArgs;
use crate::errors::bad_input;
use crate::spaces::{self, AnySpace};
use crate::units::{format_bytes, format_count};
use anyhow::{ensure, Context, Result};
use godsearch_core::{RankInt, RankedPuzzle};
use godsearch_enumerate::{table, Limits, NoProgress, Stop};
use godsearch_puzzles::tiles::{Board, Move, TileSpace};
use godsearch_search::descend;
use godsearch_tables::{DistanceMod3, TwoBitView};
use serde::Serialize;
use std::time::Instant;

/// Boards with at most this many positions get their table built in memory when no --table is
/// given: 2x5 (1,814,400 positions) builds in well under a second; 3x4 (239,500,800) takes tens
/// of seconds and should be saved once with `bfs --save` instead.
const IN_MEMORY_TABLE_LIMIT: u128 = 20_000_000;

/// One solved board, as printed with `--json`.
#[derive(Debug, Serialize)]
struct Solution {
    puzzle: String,
    start: String,
    solution: String,
    length: usize,
    optimal: bool,
    nodes_expanded: usize,
    seconds: f64,
}

pub fn run(args: &SolveArgs) -> Result<()> {
    let shape = spaces::tile_shape(&args.puzzle)?;
    let goal = spaces::tile_goal(shape, args.goal.as_deref())?;
    let boards = board_texts(&args.boards, shape.cells())
        .iter()
        .map(|text| spaces::solvable_board(&goal, text))
        .collect::<Result<Vec<_>>>()?;
    let space = match AnySpace::new(&goal)? {
        AnySpace::Narrow(space) => space,
        AnySpace::Wide(_) => no_table(args, &goal)?,
    };
    let solutions = match &args.table {
        Some(path) => {
            let loaded = spaces::load_table(path, &goal)?;
            let entries = loaded.header().entries as usize;
            let view =
                TwoBitView::new(loaded.payload(), entries).context("table payload too short")?;
            let max_length = loaded.header().levels.len();
            solve_all(&space, &view, max_length, &boards)?
        }
        None => {
            if space.state_count() > IN_MEMORY_TABLE_LIMIT {
                no_table(args, &goal)?;
            }
            let limits = Limits {
                max_depth: None,
                memory_bytes: u64::MAX,
                antipode_cap: 0,
            };
            let built = table::enumerate(&space, &limits, &NoProgress)?;
            ensure!(
                built.enumeration.stop == Stop::Complete,
                "in-memory table incomplete"
            );
            solve_all(
                &space,
                &built.table,
                built.enumeration.levels.len(),
                &boards,
            )?
        }
    };
    for s in &solutions {
        if args.json {
            println!("{}", serde_json::to_string(s)?);
        } else {
            println!("board     {}", s.start);
            println!(
                "solution  {}",
                if s.solution.is_empty() {
                    "(already solved)"
                } else {
                    &s.solution
                }
            );
            println!("length    {} (optimal, replayed to the goal)", s.length);
            println!("time      {:.6} s", s.seconds);
        }
    }
    Ok(())
}

/// The boards given on the command line. Each argument is one board, except that exactly one
/// argument per cell, each a single tile, is read as one board (`solve 3x3 2 4 0 1 8 5 3 6 7`).
fn board_texts(words: &[String], cells: usize) -> Vec<String> {
    let single_tiles = words
        .iter()
        .all(|w| w.parse::<u16>().is_ok() || w == "." || w == "_");
    if words.len() == cells && single_tiles {
        vec![words.join(" ")]
    } else {
        words.to_vec()
    }
}

fn no_table<T>(args: &SolveArgs, goal: &Board) -> Result<T> {
    let space = AnySpace::new(goal)?;
    let bytes = table::table_bytes(space.state_count());
    let hint = if args.table.is_some() {
        ""
    } else {
        "no --table was given; "
    };
    bad_input!(
        "{hint}optimal solving of a {} board needs its distance table ({} positions, {}), and heuristic search is not built yet; tables that fit are made with `godsearch bfs {} --save FILE`",
        goal.shape(),
        format_count(space.state_count()),
        format_bytes(bytes as f64),
        goal.shape()
    )
}

fn solve_all<R: RankInt, T: DistanceMod3>(
    space: &TileSpace<R>,
    table: &T,
    max_length: usize,
    boards: &[Board],
) -> Result<Vec<Solution>> {
    boards
        .iter()
        .map(|board| {
            let started = Instant::now();
            let moves: Vec<Move> = descend(space, table, space.rank(board), max_length)?
                .into_iter()
                .map(Move::from_index)
                .collect();
            let seconds = started.elapsed().as_secs_f64();
            let mut replay = board.clone();
            for (i, &m) in moves.iter().enumerate() {
                ensure!(
                    replay.apply(m),
                    "internal error: move {} ({}) of the solution leaves the board",
                    i + 1,
                    m.letter()
                );
            }
            ensure!(
                &replay == space.goal(),
                "internal error: the solution does not reach the goal"
            );
            Ok(Solution {
                puzzle: space.shape().to_string(),
                start: board.to_string(),
                solution: Move::format_sequence(&moves),
                length: moves.len(),
                optimal: true,
                nodes_expanded: moves.len(),
                seconds,
            })
        })
        .collect()
}
