//! `godsearch bench --section search`: pattern-database builds and optimal search on Korf's 100
//! 15-puzzle instances, with the single-thread run as the baseline for parallel IDA*.

use anyhow::{ensure, Context, Result};
use godsearch_app::cache::TableCache;
use godsearch_app::units::{format_bytes, format_count, format_rate};
use godsearch_app::AppError;
use godsearch_console::outln;
use godsearch_enumerate::{pattern_db, NoProgress};
use godsearch_puzzles::tiles::{
    goal_declared, parse_instances, Board, Partition, Shape, TileSpace,
};
use godsearch_search::tiles::{
    ida_star, prepare_pruning, Manhattan, PatternHeuristic, RankedEstimate, ReflectedLookup,
    TableBytes, TileHeuristic,
};
use std::time::Instant;

/// Instances with the shortest optimal solutions, for the Manhattan node rate (Manhattan needs
/// hundreds of millions of nodes on typical instances).
const MANHATTAN_INSTANCES: usize = 5;
/// The hardest instances, for the parallel speed-up.
const HARDEST: usize = 10;
const BUILD_MEMORY: u64 = 8 << 30;

/// Korf's instances with their optimal lengths, from `text` (read from `source`).
fn read_korf(text: &str, source: &str, goal: &Board) -> Result<Vec<(usize, Board)>> {
    let instances = parse_instances(goal.shape(), text)
        .map_err(|(line, e)| anyhow::Error::new(e).context(format!("{source} line {line}")))?;
    if instances.is_empty() {
        return Err(AppError::Input(format!(
            "{source}: no instances (a line is an id, the optimal length and 16 cells)"
        ))
        .into());
    }
    instances
        .into_iter()
        .map(|i| {
            i.board.check_solvable(goal)?;
            Ok((
                i.length
                    .context("Korf's instances carry their optimal lengths")?,
                i.board,
            ))
        })
        .collect()
}

/// Solves every instance, checking lengths; returns (seconds, nodes generated).
fn solve_all<H: TileHeuristic>(
    instances: &[&(usize, Board)],
    goal: &Board,
    h: &H,
    threads: usize,
) -> Result<(f64, u64)> {
    let started = Instant::now();
    let mut nodes = 0;
    for (length, board) in instances {
        let outcome = ida_star(board, goal, h, threads)?;
        ensure!(
            outcome.moves.len() == *length,
            "wrong length {} (expected {length})",
            outcome.moves.len(),
        );
        nodes += outcome.stats.generated;
    }
    Ok((started.elapsed().as_secs_f64(), nodes))
}

/// The generic IDA* ([`godsearch_search::ida_star`]) on one instance, with Manhattan evaluated
/// afresh from each rank; returns (seconds, nodes generated). The measured reason the tile
/// engine, which updates its heuristic from the tile that moved, stays specialised.
fn solve_generic(instance: &(usize, Board), goal: &Board) -> Result<(f64, u64)> {
    let (length, board) = instance;
    let space = TileSpace::<u64>::new(goal.clone())?;
    let manhattan = Manhattan::new(goal)?;
    let estimate = RankedEstimate::new(&space, &manhattan);
    let started = Instant::now();
    let path = godsearch_search::ida_star(&space, &estimate, space.rank(board), None)?;
    ensure!(
        path.moves.len() == *length,
        "wrong length {} (expected {length})",
        path.moves.len(),
    );
    Ok((started.elapsed().as_secs_f64(), path.stats.generated))
}

fn build(goal: &Board, name: &str) -> Result<(PatternHeuristic, f64, u64)> {
    let partition = Partition::parse(name, goal)?;
    let started = Instant::now();
    let tables = partition
        .patterns()
        .iter()
        .map(|p| {
            Ok(TableBytes::Owned(pattern_db::build(
                p,
                BUILD_MEMORY,
                &NoProgress,
            )?))
        })
        .collect::<Result<Vec<_>>>()?;
    let seconds = started.elapsed().as_secs_f64();
    let bytes = partition.patterns().iter().map(|p| p.entries()).sum();
    Ok((
        PatternHeuristic::new(goal, &partition, tables, ReflectedLookup::Mirror)?,
        seconds,
        bytes,
    ))
}

/// 24-puzzle boards made by random walks from the goal, with their optimal lengths (this solver
/// found them and re-checks them): `data/bench-24puzzle.txt`, built into the binary.
const TWENTY_FOUR: &str = crate::benchsets::BENCH_24_PUZZLE;

/// Korf and Felner's instances the 24-puzzle benchmark always solves: the two easiest of the
/// fifty, #25 (81 moves) and #40 (82), a few seconds together on two cores.
const KORF_FELNER_EASY: [&str; 2] = ["25", "40"];

/// The ones it adds with `--large`: #29 (88 moves), then Korf and Taylor's #1 (95) and #5
/// (100), a minute or two each on two cores.
const KORF_FELNER_LARGE: [&str; 3] = ["29", "1", "5"];

/// The 24-puzzle with 6-6-6-6 and reflection (the databases come from the cache, built there
/// on first use: about 45 s and 1.2 GB): the random-walk boards and Korf and Felner's
/// `KORF_FELNER_EASY`, then with `large` their `KORF_FELNER_LARGE`, each length checked
/// against the published one.
pub fn run_twenty_four(cache: &TableCache, threads: usize, large: bool) -> Result<()> {
    let goal = Board::goal(Shape::new(5, 5)?);
    let partition = Partition::parse("6-6-6-6", &goal)?;
    let started = Instant::now();
    let bar = godsearch_console::progress::LevelBar::new();
    let tables = partition
        .patterns()
        .iter()
        .map(|p| Ok(cache.load_or_build(&goal, p, BUILD_MEMORY, false, &bar)?.0))
        .collect::<Result<Vec<_>>>();
    bar.finish();
    let tables = tables?;
    let h = PatternHeuristic::new(&goal, &partition, tables, ReflectedLookup::Mirror)?;
    outln!(
        "\n24-puzzle, 6-6-6-6 + reflection ({:.1} s to load or build), {threads} threads:",
        started.elapsed().as_secs_f64()
    );
    // Built ahead, so that the boards' times are the search's alone.
    let started = Instant::now();
    let automata = prepare_pruning();
    outln!(
        "  duplicate strings refused: up to {} moves ({} states), built in {:.2} s",
        automata
            .iter()
            .map(|a| a.max_length().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        automata
            .iter()
            .map(|a| format_count(a.states() as u64))
            .collect::<Vec<_>>()
            .join(", "),
        started.elapsed().as_secs_f64()
    );
    let mut instances = parse_instances(goal.shape(), TWENTY_FOUR).map_err(|(_, e)| e)?;
    let korf_felner =
        parse_instances(goal.shape(), crate::benchsets::KORF_FELNER_24).map_err(|(_, e)| e)?;
    let chosen: &[&str] = match large {
        true => &[&KORF_FELNER_EASY[..], &KORF_FELNER_LARGE[..]].concat(),
        false => &KORF_FELNER_EASY,
    };
    // In the order chosen, each turned onto the databases' blank-last goal.
    for id in chosen {
        let mut instance = korf_felner
            .iter()
            .find(|i| i.id.as_deref() == Some(id))
            .with_context(|| format!("no Korf-Felner instance {id}"))?
            .clone();
        instance.board = blank_first_to_blank_last(&instance.board)?;
        instance.id = Some(format!("korf-felner-{id}"));
        instances.push(instance);
    }
    let (mut total_seconds, mut total_nodes) = (0.0, 0);
    for instance in instances {
        let started = Instant::now();
        let outcome = ida_star(&instance.board, &goal, &h, threads)?;
        let seconds = started.elapsed().as_secs_f64();
        ensure!(
            Some(outcome.moves.len()) == instance.length,
            "24-puzzle: wrong length {}",
            outcome.moves.len()
        );
        total_seconds += seconds;
        total_nodes += outcome.stats.expanded;
        outln!(
            "  {:<16} length {:>3}  {seconds:>8.2} s  {:>15} nodes expanded  {}nodes/s",
            instance.id.unwrap_or_default(),
            outcome.moves.len(),
            format_count(outcome.stats.expanded),
            format_rate(outcome.stats.expanded as f64 / seconds)
        );
    }
    outln!(
        "  all              {total_seconds:>19.2} s  {:>15} nodes expanded  {}nodes/s",
        format_count(total_nodes),
        format_rate(total_nodes as f64 / total_seconds)
    );
    Ok(())
}

/// A board for the blank-first goal (`0 1 2 ... 24`, Korf's) as the same puzzle for the
/// blank-last goal (`1 ... 24 0`): turned half a turn (cell `i` to `n - 1 - i`) with tile `t`
/// renamed `n - t`, which maps the one goal onto the other and keeps every distance.
fn blank_first_to_blank_last(board: &Board) -> Result<Board> {
    let cells: Vec<usize> = board
        .to_list()
        .split(',')
        .map(|c| c.parse())
        .collect::<Result<_, _>>()?;
    let n = cells.len();
    let turned: Vec<String> = (0..n)
        .map(|i| match cells[n - 1 - i] {
            0 => "0".to_string(),
            t => (n - t).to_string(),
        })
        .collect();
    Ok(Board::parse(board.shape(), &turned.join(","))?)
}

/// The goal of the 4x4 instances in `korf` (the text of a file named `source`): the one it
/// declares (`# goal: ...`), else Korf's (blank first), with its name for the section's heading.
fn korf_goal(korf: &str, source: &str) -> Result<(Board, String)> {
    let shape = Shape::new(4, 4)?;
    let numbered = korf.lines().enumerate().map(|(i, line)| (i + 1, line));
    let declared =
        goal_declared(shape, numbered).map_err(|e| AppError::Input(format!("{source}: {e}")))?;
    Ok(match declared {
        Some((line, goal)) => (goal, format!("the goal {source} line {line} declares")),
        None => (Board::blank_first(shape), "Korf's goal".to_string()),
    })
}

/// The search section on Korf's 100 instances given as `korf` (the text of a file named
/// `source`), for the goal the file declares (Korf's where it declares none).
pub fn run(korf: &str, source: &str, threads: usize) -> Result<()> {
    let (goal, goal_name) = korf_goal(korf, source)?;
    let instances = read_korf(korf, source, &goal)?;
    let mut by_length: Vec<&(usize, Board)> = instances.iter().collect();
    by_length.sort_by_key(|(length, _)| *length);

    outln!("pattern-database builds (4x4, {goal_name}):");
    let (pdb555, seconds555, bytes555) = build(&goal, "5-5-5")?;
    outln!(
        "  5-5-5  {seconds555:>7.2} s  {:>10}",
        format_bytes(bytes555 as f64)
    );
    let (pdb663, seconds663, bytes663) = build(&goal, "6-6-3")?;
    outln!(
        "  6-6-3  {seconds663:>7.2} s  {:>10}",
        format_bytes(bytes663 as f64)
    );

    let easiest = &by_length[..MANHATTAN_INSTANCES.min(by_length.len())];
    let (seconds, nodes) = solve_all(easiest, &goal, &Manhattan::new(&goal)?, 1)?;
    outln!(
        "\nIDA* with Manhattan, 1 thread, the {} easiest instances: {} nodes in {seconds:.2} s = {}nodes/s",
        easiest.len(),
        format_count(nodes),
        format_rate(nodes as f64 / seconds)
    );
    let (tile_seconds, tile_nodes) = solve_all(&easiest[..1], &goal, &Manhattan::new(&goal)?, 1)?;
    let (generic_seconds, generic_nodes) = solve_generic(easiest[0], &goal)?;
    let (tile_rate, generic_rate) = (
        tile_nodes as f64 / tile_seconds,
        generic_nodes as f64 / generic_seconds,
    );
    outln!(
        "the easiest instance on the generic IDA* engine (Manhattan afresh from ranks): {}nodes/s against {}nodes/s here: the tile engine is {:.1}x faster",
        format_rate(generic_rate),
        format_rate(tile_rate),
        tile_rate / generic_rate
    );

    let all: Vec<&(usize, Board)> = instances.iter().collect();
    outln!(
        "\nall {} instances, parallel IDA* on {threads} threads, with reflection:",
        all.len()
    );
    for (name, h) in [("5-5-5", &pdb555), ("6-6-3", &pdb663)] {
        let (seconds, nodes) = solve_all(&all, &goal, h, threads)?;
        outln!(
            "  {name}  {seconds:>7.2} s  {:>14} nodes ({:>10} a board)  {}nodes/s",
            format_count(nodes),
            format_count(nodes / all.len() as u64),
            format_rate(nodes as f64 / seconds)
        );
    }

    let hardest = &by_length[by_length.len().saturating_sub(HARDEST)..];
    let (serial, serial_nodes) = solve_all(hardest, &goal, &pdb663, 1)?;
    let (parallel, parallel_nodes) = solve_all(hardest, &goal, &pdb663, threads)?;
    outln!(
        "\nthe {} hardest instances with 6-6-3: 1 thread {serial:.2} s ({}nodes/s), {threads} threads {parallel:.2} s ({}nodes/s): speed-up {:.2}x",
        hardest.len(),
        format_rate(serial_nodes as f64 / serial),
        format_rate(parallel_nodes as f64 / parallel),
        serial / parallel
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The half turn takes Korf's goal to the blank-last goal, and a board one move from the
    /// one to a board one move from the other.
    #[test]
    fn korfs_goal_turns_into_the_blank_last_goal() {
        let shape = Shape::new(5, 5).unwrap();
        let korf = Board::blank_first(shape);
        assert_eq!(
            blank_first_to_blank_last(&korf).unwrap(),
            Board::goal(shape)
        );
        let (_, moved) = korf.successors().next().unwrap();
        let turned = blank_first_to_blank_last(&moved).unwrap();
        assert!(Board::goal(shape).successors().any(|(_, b)| b == turned));
    }

    /// A file of instances is searched for the goal it declares, Korf's where it declares none.
    #[test]
    fn the_instances_goal_is_the_one_their_file_declares() {
        let shape = Shape::new(4, 4).unwrap();
        let (goal, name) = korf_goal(crate::benchsets::KORF100, "korf100.txt").unwrap();
        assert_eq!(goal, Board::blank_first(shape));
        assert!(name.starts_with("the goal korf100.txt line "), "{name}");
        let board = "1 57 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0 1";
        assert_eq!(
            korf_goal(board, "f").unwrap(),
            (Board::blank_first(shape), "Korf's goal".to_string())
        );
        let declared = format!("# goal: blank-last\n{board}");
        assert_eq!(korf_goal(&declared, "f").unwrap().0, Board::goal(shape));
        let both = format!("{declared}\n# goal: blank-first");
        let err = korf_goal(&both, "f").unwrap_err().to_string();
        assert!(
            err.starts_with("f: line 3 declares the goal blank-first"),
            "{err}"
        );
    }
}
