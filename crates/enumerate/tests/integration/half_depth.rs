//! Half-depth search (`half_depth::GoalBall`): its lengths equal the exact distances of a plain
//! BFS on every 3x3 board and on 10,000 random 2x2x2 positions, its solutions replay to the
//! goal, and positions beyond twice the depth held get a proven lower bound.

use godsearch_core::{NoProgress, RankedSpace, StateSpace};
use godsearch_enumerate::half_depth::{GoalBall, HalfDepthOutcome};
use godsearch_puzzles::cube::{Cube2Space, Metric};
use godsearch_puzzles::tiles::{Board, Shape, TileSpace};
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::collections::VecDeque;

const BUDGET: u64 = 1 << 30;

/// Every position's distance from the goal by a plain queue BFS over ranks (the independent
/// check).
fn distances<P: RankedSpace>(space: &P) -> Vec<u8> {
    let mut dist = vec![u8::MAX; space.state_count() as usize];
    let goal = space.goal_state();
    dist[space.rank_of(goal)] = 0;
    let mut queue = VecDeque::from([goal]);
    while let Some(s) = queue.pop_front() {
        let d = dist[space.rank_of(s)];
        space.for_each_neighbour(s, |_, n| {
            let r = space.rank_of(n);
            if dist[r] == u8::MAX {
                dist[r] = d + 1;
                queue.push_back(n);
            }
        });
    }
    dist
}

/// Replays `path` from `start` and checks that it ends at the goal.
fn reaches_goal<P: StateSpace>(space: &P, start: P::State, path: &[u8]) -> bool {
    let mut s = start;
    for &m in path {
        let mut next = None;
        space.for_each_neighbour(s, |k, n| {
            if k == m {
                next = Some(n);
            }
        });
        match next {
            Some(n) => s = n,
            None => return false,
        }
    }
    space.is_goal(s)
}

fn check_all<P: RankedSpace>(space: &P, ball: &GoalBall<P::State>, starts: &[P::State], dist: &[u8])
where
    P::State: godsearch_enumerate::KeyState,
{
    let n = ball.depth();
    starts.par_iter().for_each(|&s| {
        let d = u32::from(dist[space.rank_of(s)]);
        match ball.solve(space, s, BUDGET) {
            HalfDepthOutcome::Solved(path) => {
                assert_eq!(path.len() as u32, d, "{s:?}");
                assert!(reaches_goal(space, s, &path), "{s:?}");
            }
            HalfDepthOutcome::Beyond { lower_bound } => {
                assert!(
                    d > 2 * n && lower_bound <= d,
                    "{s:?}: {d} against {lower_bound}"
                );
            }
        }
    });
}

#[test]
fn every_eight_puzzle_board_at_its_distance() {
    let space = TileSpace::<u64>::new(Board::goal(Shape::new(3, 3).unwrap())).unwrap();
    let dist = distances(&space);
    let all: Vec<u64> = (0..space.state_count() as u64).collect();
    // Depth 16 reaches every board (diameter 31); depth 12 leaves those beyond 24 unsolved.
    for depth in [16, 12] {
        let ball = GoalBall::build(&space, Some(depth), BUDGET, &NoProgress).unwrap();
        assert_eq!(ball.depth(), depth);
        assert!(!ball.is_complete());
        check_all(&space, &ball, &all, &dist);
    }
    let whole = GoalBall::build(&space, None, BUDGET, &NoProgress).unwrap();
    assert!(whole.is_complete() && whole.len() == 181_440 && whole.depth() == 31);
}

#[test]
fn ten_thousand_pocket_cubes_at_their_distance() {
    for metric in [Metric::Htm, Metric::Qtm] {
        let space = Cube2Space::new(metric);
        let dist = distances(&space);
        let mut rng = rand::rngs::StdRng::seed_from_u64(16);
        let starts: Vec<u64> = (0..10_000)
            .map(|_| space.state_at(rng.gen_range(0..space.state_count() as usize)))
            .collect();
        let ball = GoalBall::build(&space, Some(6), BUDGET, &NoProgress).unwrap();
        check_all(&space, &ball, &starts, &dist);
    }
}

#[test]
fn a_small_budget_gives_a_proven_lower_bound() {
    let space = TileSpace::<u64>::new(Board::goal(Shape::new(3, 3).unwrap())).unwrap();
    let dist = distances(&space);
    let ball = GoalBall::build(&space, Some(10), BUDGET, &NoProgress).unwrap();
    let far = (0..space.state_count() as u64)
        .find(|&r| dist[r as usize] == 31)
        .unwrap();
    match ball.solve(&space, far, 1 << 10) {
        HalfDepthOutcome::Beyond { lower_bound } => assert!(lower_bound > 10 && lower_bound <= 31),
        other => panic!("{other:?}"),
    }
    match ball.solve(&space, far, BUDGET) {
        HalfDepthOutcome::Beyond { lower_bound } => assert_eq!(lower_bound, 21),
        other => panic!("{other:?}"),
    }
    assert!(GoalBall::build(&space, Some(20), 1 << 12, &NoProgress).is_err());
}

/// The state `m` leads to from `s`, if the move applies there.
fn neighbour<P: StateSpace>(space: &P, s: P::State, m: u8) -> Option<P::State> {
    let mut next = None;
    space.for_each_neighbour(s, |k, n| {
        if k == m {
            next = Some(n);
        }
    });
    next
}

#[test]
fn the_group_form_agrees_with_bfs_on_eight_puzzle_boards() {
    let space = TileSpace::<u64>::new(Board::goal(Shape::new(3, 3).unwrap())).unwrap();
    let dist = distances(&space);
    let ball = GoalBall::build(&space, Some(12), BUDGET, &NoProgress).unwrap();
    let order = space.sequence_automaton();
    let mut rng = rand::rngs::StdRng::seed_from_u64(21);
    for _ in 0..500 {
        let s = space.state_at(rng.gen_range(0..space.state_count() as usize));
        let d = u32::from(dist[space.rank_of(s)]);
        let found = ball.search_from(&s, &order, |&x, m| neighbour(&space, x, m), |&x| x, 12);
        match found {
            HalfDepthOutcome::Solved(path) => {
                assert_eq!(path.len() as u32, d, "{s:?}");
                assert!(reaches_goal(&space, s, &path), "{s:?}");
            }
            HalfDepthOutcome::Beyond { lower_bound } => {
                assert_eq!(lower_bound, 25);
                assert!(d >= lower_bound, "{s:?}: {d}");
            }
        }
    }
}

#[test]
fn the_group_form_solves_3x3x3_cubes_over_their_class_keys() {
    use godsearch_puzzles::cube::notation::apply_moves;
    use godsearch_puzzles::cube::{Cube3Classes, CubieCube, Reduction};
    let mut rng = rand::rngs::StdRng::seed_from_u64(22);
    for (metric, small, large) in [(Metric::Htm, 4, 5), (Metric::Stm, 3, 4)] {
        let space = Cube3Classes::new(metric, Reduction::Symmetries);
        let moves = metric.moves();
        let cubies: Vec<CubieCube> = moves.iter().map(|m| m.cubie()).collect();
        let order = metric.sequence_automaton();
        let apply = |c: &CubieCube, m: u8| Some(c.then(&cubies[m as usize]));
        let key = |c: &CubieCube| space.reducer().representative(c);
        let balls =
            [small, large].map(|n| GoalBall::build(&space, Some(n), BUDGET, &NoProgress).unwrap());
        for length in 0..=2 * small as usize {
            let walk: Vec<_> = (0..length)
                .map(|_| moves[rng.gen_range(0..moves.len())])
                .collect();
            let cube = apply_moves(&CubieCube::SOLVED, &walk);
            let lengths = balls.each_ref().map(|ball| {
                match ball.search_from(&cube, &order, apply, key, ball.depth()) {
                    HalfDepthOutcome::Solved(path) => {
                        let solution: Vec<_> = path.iter().map(|&m| moves[m as usize]).collect();
                        assert!(apply_moves(&cube, &solution).is_solved(), "{metric}");
                        solution.len()
                    }
                    other => panic!("{metric}, walk of {length}: {other:?}"),
                }
            });
            assert_eq!(lengths[0], lengths[1], "{metric}, walk of {length}");
            assert!(lengths[0] <= length);
        }
        // Beyond twice the depth held: the bound proven.
        let far = apply_moves(
            &CubieCube::SOLVED,
            &godsearch_puzzles::cube::algorithm::parse_moves("U R2 F B R B2 R U2 L B2").unwrap(),
        );
        if metric == Metric::Htm {
            match balls[0].search_from(&far, &order, apply, key, 2) {
                HalfDepthOutcome::Beyond { lower_bound } => assert_eq!(lower_bound, 7),
                other => panic!("{other:?}"),
            }
        }
    }
}

#[test]
fn the_group_form_stops_at_its_deadline_or_switch_with_the_bound_proven() {
    use godsearch_enumerate::half_depth::GroupBrakes;
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};
    let space = TileSpace::<u64>::new(Board::goal(Shape::new(3, 3).unwrap())).unwrap();
    let dist = distances(&space);
    let ball = GoalBall::build(&space, Some(8), BUDGET, &NoProgress).unwrap();
    let order = space.sequence_automaton();
    // A board 31 moves out: sequences of 23 moves would be needed, far more than a moment's.
    let far = space.state_at(
        (0..space.state_count() as usize)
            .find(|&r| dist[r] == 31)
            .unwrap(),
    );
    let search = |brakes: &GroupBrakes| {
        ball.search_from_within(
            &far,
            &order,
            |&x, m| neighbour(&space, x, m),
            |&x| x,
            23,
            brakes,
        )
    };
    let passed = GroupBrakes {
        deadline: Some(Instant::now()),
        stop: None,
    };
    let stopped = search(&passed);
    assert!(stopped.stopped);
    match stopped.outcome {
        // Stopped while trying k moves: every length below k + 8 was searched whole.
        HalfDepthOutcome::Beyond { lower_bound } => assert!((9..=31).contains(&lower_bound)),
        other => panic!("{other:?}"),
    }
    let switch = AtomicBool::new(true);
    let switched = search(&GroupBrakes {
        deadline: None,
        stop: Some(&switch),
    });
    assert!(switched.stopped && switched.nodes > 0);
    // Unbraked, it solves a board within reach and counts what it visited.
    let near = space.state_at(
        (0..space.state_count() as usize)
            .find(|&r| dist[r] == 14)
            .unwrap(),
    );
    let free = GroupBrakes {
        deadline: Some(Instant::now() + Duration::from_secs(600)),
        stop: None,
    };
    let found = ball.search_from_within(
        &near,
        &order,
        |&x, m| neighbour(&space, x, m),
        |&x| x,
        8,
        &free,
    );
    assert!(!found.stopped && found.nodes > 1);
    match found.outcome {
        HalfDepthOutcome::Solved(path) => assert_eq!(path.len(), 14),
        other => panic!("{other:?}"),
    }
}
