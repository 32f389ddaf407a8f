//! `godsearch bench --section subgoal`: the stage solvers' speed and solution lengths, against
//! the optimal lengths where they are known (table descent on 3x3, Korf's file on 4x4).

use anyhow::{ensure, Result};
use godsearch_console::outln;
use godsearch_core::RankedSpace;
use godsearch_enumerate::{table, Limits, NoProgress};
use godsearch_puzzles::tiles::{parse_instances, Board, Move, Shape, TileSpace};
use godsearch_search::descend;
use godsearch_subgoal::{Plan, Portfolio, SubgoalSolver};
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// Seed for the random boards.
const SEED: u64 = 2026;
/// Random moves from the goal that make a board (far more than any diameter here, so the
/// boards are as good as uniformly random).
const SCRAMBLE_MOVES: usize = 100_000;

fn scrambled(goal: &Board, rng: &mut impl Rng) -> Board {
    let mut b = goal.clone();
    for _ in 0..SCRAMBLE_MOVES {
        b.apply(Move::ALL[rng.gen_range(0..Move::ALL.len())]);
    }
    b
}

fn replayed(start: &Board, goal: &Board, moves: &[Move]) -> bool {
    let mut b = start.clone();
    moves.iter().all(|&m| b.apply(m)) && &b == goal
}

/// The subgoal section, each solution replayed and checked against its board's goal.
pub fn run() -> Result<()> {
    // 3x3: the two-stage method on every board, against the optimal lengths.
    let goal = Board::goal(Shape::new(3, 3)?);
    let space = TileSpace::<u64>::new(goal.clone())?;
    let limits = Limits {
        max_depth: None,
        memory_bytes: 1 << 30,
        antipode_cap: 0,
        count_last: false,
    };
    let optimal = table::enumerate(&space, &limits, &NoProgress)?;
    for effort in [1, godsearch_subgoal::DEFAULT_EFFORT] {
        let solver = SubgoalSolver::new(Plan::two_stage(&goal)?).with_effort(effort);
        let boards: Vec<Board> = (0..space.state_count() as u64)
            .map(|r| space.unrank(r))
            .collect();
        let started = Instant::now();
        let solutions: Vec<Vec<Move>> = boards
            .iter()
            .map(|b| solver.solve(b))
            .collect::<Result<_, _>>()?;
        let seconds = started.elapsed().as_secs_f64();
        let mut best = 0usize;
        for (r, (b, m)) in boards.iter().zip(&solutions).enumerate() {
            ensure!(replayed(b, &goal, m), "two-stage solution does not replay");
            best += descend(&space, &optimal.table, r as u64, 32)?.len();
        }
        let total: usize = solutions.iter().map(Vec::len).sum();
        let n = boards.len() as f64;
        outln!(
            "3x3 two-stage, effort {effort:>2}, all {} boards: {:.2} microseconds a board, mean length {:.2} (optimal {:.2}), longest {}",
            boards.len(),
            seconds * 1e6 / n,
            total as f64 / n,
            best as f64 / n,
            solutions.iter().map(Vec::len).max().unwrap_or(0)
        );
    }

    // 4x4: Korf's 100 with the default portfolio.
    {
        let goal = Board::goal(Shape::new(4, 4)?);
        let text = crate::benchsets::KORF100_BLANK_LAST;
        let instances = parse_instances(goal.shape(), text).map_err(|(_, e)| e)?;
        let solver = SubgoalSolver::portfolio(&goal, godsearch_subgoal::DEFAULT_EFFORT);
        let started = Instant::now();
        let mut total = 0;
        for i in &instances {
            let moves = solver.solve(&i.board)?;
            ensure!(
                replayed(&i.board, &goal, &moves),
                "subgoal solution does not replay"
            );
            total += moves.len();
        }
        let seconds = started.elapsed().as_secs_f64();
        outln!(
            "4x4 subgoal, effort {}, Korf's 100: {:.3} ms a board, mean length {:.2} (optimal 53.05)",
            godsearch_subgoal::DEFAULT_EFFORT,
            seconds * 1e3 / instances.len() as f64,
            total as f64 / instances.len() as f64
        );
    }

    // Larger boards, random.
    let mut rng = rand::rngs::StdRng::seed_from_u64(SEED);
    for (side, effort, boards) in [(5, 4, 20), (10, 1, 5), (20, 1, 2)] {
        let goal = Board::goal(Shape::new(side, side)?);
        let built = Instant::now();
        let solver = if effort > 1 {
            SubgoalSolver::portfolio(&goal, effort)
        } else {
            Portfolio::of(vec![Plan::default_for(&goal)], effort)
        };
        let build = built.elapsed().as_secs_f64();
        let starts: Vec<Board> = (0..boards).map(|_| scrambled(&goal, &mut rng)).collect();
        let started = Instant::now();
        let mut total = 0;
        for s in &starts {
            let moves = solver.solve(s)?;
            ensure!(
                replayed(s, &goal, &moves),
                "subgoal solution does not replay"
            );
            total += moves.len();
        }
        let seconds = started.elapsed().as_secs_f64();
        outln!(
            "{side}x{side} subgoal, effort {effort}, {boards} random boards: {:.2} ms a board (tables built once in {build:.2} s), mean length {:.1}",
            seconds * 1e3 / boards as f64,
            total as f64 / boards as f64
        );
    }
    Ok(())
}
