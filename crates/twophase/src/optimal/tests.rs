use super::search::{final_moves, RootSymmetry};
use super::table::TableIndex;
use super::*;
use crate::coords;
use crate::pruning::PairGraph;
use crate::search::{to_move, SolveError};
use crate::tests::{random_walk, tables as two_phase_tables};
use crate::{solve, Options};
use godsearch_enumerate::NoProgress;
use godsearch_puzzles::cube::algorithm::parse_moves;
use godsearch_puzzles::cube::notation::{apply_moves, merge_same_face, Metric, Move};
use godsearch_puzzles::cube::CubieCube;
use godsearch_tables::TableBytes;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Positions within this many moves are held by [`ball`]: 621,649 cubes in the half-turn
/// metric, so exact distances up to twice as far come from meeting in the middle.
const BALL_DEPTH: u8 = 5;
/// The same in the slice-turn metric, whose 27 moves make the balls grow faster: 174,604 cubes
/// within 4 moves.
const STM_BALL_DEPTH: u8 = 4;

fn small() -> &'static OptimalTables {
    static TABLES: OnceLock<OptimalTables> = OnceLock::new();
    TABLES.get_or_init(|| {
        OptimalTables::build(TableSize::Small, Metric::Htm, &NoProgress).expect("never cancelled")
    })
}

fn small_qtm() -> &'static OptimalTables {
    static TABLES: OnceLock<OptimalTables> = OnceLock::new();
    TABLES.get_or_init(|| {
        OptimalTables::build(TableSize::Small, Metric::Qtm, &NoProgress).expect("never cancelled")
    })
}

fn small_stm() -> &'static OptimalTables {
    static TABLES: OnceLock<OptimalTables> = OnceLock::new();
    TABLES.get_or_init(|| {
        OptimalTables::build(TableSize::Small, Metric::Stm, &NoProgress).expect("never cancelled")
    })
}

/// Every cube within [`BALL_DEPTH`] moves of `metric` ([`STM_BALL_DEPTH`] in the slice-turn
/// metric) from solved with its distance, by breadth-first search.
fn ball(metric: Metric) -> &'static HashMap<CubieCube, u8> {
    static BALLS: [OnceLock<HashMap<CubieCube, u8>>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    BALLS[metric as usize].get_or_init(|| {
        let moves: Vec<CubieCube> = metric.moves().iter().map(|m| m.cubie()).collect();
        let depth = match metric {
            Metric::Stm => STM_BALL_DEPTH,
            _ => BALL_DEPTH,
        };
        let mut seen = HashMap::from([(CubieCube::SOLVED, 0u8)]);
        let mut level = vec![CubieCube::SOLVED];
        for d in 1..=depth {
            let mut next = Vec::new();
            for c in &level {
                for m in &moves {
                    let n = c.then(m);
                    if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(n) {
                        e.insert(d);
                        next.push(n);
                    }
                }
            }
            level = next;
        }
        seen
    })
}

/// The exact distance of `cube` in `metric` when it is at most twice [`BALL_DEPTH`]: every
/// shortest solution `s` splits as `s1 s2` with both halves in the ball, so it is the least
/// `|s1| + distance(cube s1)` over the ball.
fn exact_distance(cube: &CubieCube, metric: Metric) -> Option<u8> {
    let ball = ball(metric);
    ball.iter()
        .filter_map(|(x, &dx)| ball.get(&cube.then(x)).map(|&dy| dx + dy))
        .min()
}

#[test]
fn the_small_table_has_the_phase_1_levels() {
    let levels = small().levels();
    assert_eq!(
        levels.iter().sum::<u64>(),
        TableSize::Small.entries() as u64
    );
    // Phase 1's levels come first in the two-phase tables': 12 moves reach G1 from anywhere.
    let phase_1 = &two_phase_tables().levels()[..13];
    assert_eq!(phase_1.iter().sum::<u64>(), levels.iter().sum::<u64>());
    // Exact to two levels above the base, where the build stops; then every entry further.
    let exact = usize::from(small().base()) + 3;
    assert_eq!(levels[..exact], phase_1[..exact]);
    assert_eq!(levels[exact..], [phase_1[exact..].iter().sum::<u64>()]);
}

#[test]
fn sorted_slices_round_trip_and_conjugate_like_cubes() {
    let mut rng = StdRng::seed_from_u64(11);
    for v in 0..coords::SLICE_SORTED as u16 {
        let mut c = CubieCube::SOLVED;
        coords::set_slice_sorted(&mut c, v);
        assert_eq!(coords::slice_sorted(&c), v);
    }
    let syms = godsearch_puzzles::cube::Symmetries::new();
    let conj = crate::flipslice::slice_sorted_conjugates(&syms);
    for _ in 0..2000 {
        let c = random_walk(&mut rng, 30);
        let s = rng.gen_range(0..16);
        assert_eq!(
            conj[coords::slice_sorted(&c) as usize * 16 + s],
            coords::slice_sorted(&syms.conjugate(&c, s))
        );
    }
}

#[test]
fn the_bound_never_exceeds_the_exact_distance_at_any_depth_to_ten() {
    let mut rng = StdRng::seed_from_u64(8);
    for length in 1..=10 {
        for _ in 0..6 {
            let cube = random_walk(&mut rng, length);
            let exact = exact_distance(&cube, Metric::Htm).expect("within ten moves");
            let bound = lower_bound(small(), &cube).unwrap();
            assert!(
                bound <= exact as usize,
                "bound {bound} over distance {exact}"
            );
            // Lookup by lookup, with the rule of the last move, and with the inverse's bounds;
            // the inverse position has the same distance, and its own bounds are those the
            // search reads for it from the position's.
            for (position, inverse) in [(cube, cube.inverse()), (cube.inverse(), cube)] {
                let bounds = table_bounds(small(), &position).unwrap();
                assert_eq!(
                    bounds.inverse_axes,
                    table_bounds(small(), &inverse).unwrap().axes
                );
                assert_eq!(bounds.axes.iter().max(), Some(&bounds.largest));
                assert!(bounds.largest <= bounds.with_last_move);
                let six = bounds
                    .axes
                    .iter()
                    .chain(&bounds.inverse_axes)
                    .max()
                    .unwrap();
                assert!(bounds.with_last_move <= bounds.with_inverse);
                assert!(*six <= bounds.with_inverse);
                assert!(bounds.with_inverse <= exact as usize, "{bounds:?}: {exact}");
            }
        }
    }
}

#[test]
fn optimal_lengths_are_the_exact_distances() {
    let mut rng = StdRng::seed_from_u64(12);
    for length in 0..=10 {
        let cube = random_walk(&mut rng, length);
        let exact = exact_distance(&cube, Metric::Htm).expect("within ten moves") as usize;
        let found = solve_optimal(small(), &cube, OptimalOptions::default()).unwrap();
        assert_eq!(found.solutions.len(), 1);
        assert_eq!(found.solutions[0].len(), exact, "walk of {length}");
        assert_eq!(found.lower_bound, exact);
        assert!(apply_moves(&cube, &found.solutions[0]).is_solved());
        assert!(!found.timed_out);
    }
}

#[test]
fn twelve_move_positions_agree_with_two_phase_when_it_proves_them() {
    // Two-phase with a target of 0 tries every phase-1 length up to the best total; on these
    // short scrambles its shortest is optimal, and the optimal solver must not beat it by
    // more than it can prove (it never returns longer).
    let mut rng = StdRng::seed_from_u64(13);
    for _ in 0..4 {
        let cube = random_walk(&mut rng, 12);
        let found = solve_optimal(small(), &cube, OptimalOptions::default()).unwrap();
        let optimal = found.solutions[0].len();
        let options = Options {
            target_length: 0,
            deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(5)),
            stop: None,
        };
        let shortest = solve(two_phase_tables(), &cube, options)
            .unwrap()
            .moves
            .len();
        assert!(
            optimal <= shortest,
            "optimal {optimal}, two-phase {shortest}"
        );
        assert!(optimal <= 12);
    }
}

#[test]
fn the_answer_does_not_depend_on_the_threads() {
    let mut rng = StdRng::seed_from_u64(14);
    let cube = random_walk(&mut rng, 11);
    let run = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| solve_optimal(small(), &cube, OptimalOptions::default()).unwrap())
    };
    let (one, two) = (run(1), run(2));
    assert_eq!(one.solutions, two.solutions);
}

/// Every canonical sequence of `length` moves of `metric` that solves `cube`, by brute force.
fn brute_force_solutions(cube: &CubieCube, length: usize, metric: Metric) -> Vec<Vec<Move>> {
    let automaton = metric.sequence_automaton();
    let moves = metric.moves();
    let mut out = Vec::new();
    let mut path = Vec::new();
    fn walk(
        c: &CubieCube,
        left: usize,
        state: godsearch_core::AutomatonState,
        automaton: &godsearch_core::SequenceAutomaton,
        moves: &[Move],
        path: &mut Vec<Move>,
        out: &mut Vec<Vec<Move>>,
    ) {
        if left == 0 {
            if c.is_solved() {
                out.push(path.clone());
            }
            return;
        }
        for (k, m) in moves.iter().enumerate() {
            if let Some(next) = automaton.next(state, k as godsearch_core::MoveIdx) {
                path.push(*m);
                walk(
                    &c.then(&m.cubie()),
                    left - 1,
                    next,
                    automaton,
                    moves,
                    path,
                    out,
                );
                path.pop();
            }
        }
    }
    walk(
        cube,
        length,
        godsearch_core::SequenceAutomaton::START,
        &automaton,
        &moves,
        &mut path,
        &mut out,
    );
    out
}

#[test]
fn all_lists_every_canonical_optimal_solution() {
    let all = OptimalOptions {
        all: true,
        ..OptimalOptions::default()
    };
    let mut rng = StdRng::seed_from_u64(15);
    let mut cubes: Vec<CubieCube> = (0..3).map(|_| random_walk(&mut rng, 5)).collect();
    // Commuting opposite faces: one canonical order only.
    cubes.push(apply_moves(
        &CubieCube::SOLVED,
        &parse_moves("R L2 U D'").unwrap(),
    ));
    for cube in cubes {
        let found = solve_optimal(small(), &cube, all).unwrap();
        let length = found.lower_bound;
        let mut expected = brute_force_solutions(&cube, length, Metric::Htm);
        let mut got = found.solutions.clone();
        expected.sort_by_key(|s| format!("{s:?}"));
        got.sort_by_key(|s| format!("{s:?}"));
        assert_eq!(got, expected);
        assert!(!got.is_empty());
    }
}

/// Lengths the rule of the last move is checked at: searched bounds that may fail (from the
/// table's estimate) and the ones that succeed, up to what brute force lists quickly.
const LAST_MOVE_CHECK_LENGTH: usize = 5;
/// Positions whose bound the rule raises, checked against their exact distance.
const PROVEN_CHECKED: usize = 5;

#[test]
fn the_last_move_rule_keeps_every_solution_and_proves_longer_bounds() {
    for (metric, tables) in [(Metric::Htm, small()), (Metric::Qtm, small_qtm())] {
        let mut rng = StdRng::seed_from_u64(18);
        let every: u32 = metric
            .moves()
            .iter()
            .fold(0, |m, &mv| m | 1 << mv.htm_index());
        let mut ruled_out = 0;
        for _ in 0..40 {
            let walk = rng.gen_range(2..=LAST_MOVE_CHECK_LENGTH + 1);
            let cube = walk_in(&mut rng, metric, walk);
            let estimate = lower_bound(tables, &cube).unwrap();
            let exact = exact_distance(&cube, metric).unwrap() as usize;
            for length in estimate..=(exact + 2).min(LAST_MOVE_CHECK_LENGTH) {
                let finals = final_moves(tables, &cube, length);
                let solutions = brute_force_solutions(&cube, length, metric);
                for solution in &solutions {
                    let last = solution.last().expect("not solved").htm_index();
                    assert!(finals & 1 << last != 0, "{metric:?} {solution:?} ruled out");
                }
                ruled_out += (every & !finals).count_ones();
            }
        }
        assert!(ruled_out > 0, "{metric:?}");
        // Where the rule leaves no last move at the table's estimate, there is no solution of
        // that length: the bound is one more.
        let mut proven = 0;
        for _ in 0..2000 {
            let cube = walk_in(&mut rng, metric, 2 * BALL_DEPTH as usize);
            let estimate = table_bounds(tables, &cube).unwrap().largest;
            if final_moves(tables, &cube, estimate) == 0 {
                let exact = exact_distance(&cube, metric).expect("within twice the ball");
                assert!(exact as usize > estimate, "{metric:?}: {exact} moves");
                proven += 1;
                if proven == PROVEN_CHECKED {
                    break;
                }
            }
        }
        assert_eq!(proven, PROVEN_CHECKED, "{metric:?}");
    }
}

#[test]
fn a_passed_deadline_gives_the_bound_searched() {
    let mut rng = StdRng::seed_from_u64(16);
    let cube = random_walk(&mut rng, 40);
    let options = OptimalOptions {
        deadline: Some(std::time::Instant::now()),
        ..OptimalOptions::default()
    };
    let found = solve_optimal(small(), &cube, options).unwrap();
    assert!(found.timed_out);
    assert!(found.solutions.is_empty());
    assert!(found.lower_bound >= found.start_estimate);
}

#[test]
fn a_stop_switch_set_from_another_thread_stops_the_search() {
    let mut rng = StdRng::seed_from_u64(17);
    let cube = random_walk(&mut rng, 40);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let options = OptimalOptions {
        stop: Some(&stop),
        ..OptimalOptions::default()
    };
    // The table is built (seconds, on the first call) before the clock starts.
    let tables = small();
    let started = std::time::Instant::now();
    let found = std::thread::scope(|scope| {
        let search = scope.spawn(|| solve_optimal(tables, &cube, options).unwrap());
        std::thread::sleep(std::time::Duration::from_millis(200));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        search.join().unwrap()
    });
    // A 40-move walk is about 18 moves from solved: minutes with the small table.
    assert!(found.timed_out, "{found:?}");
    assert!(found.solutions.is_empty());
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    assert!(found.lower_bound >= found.start_estimate);
}

#[test]
fn invalid_cubes_are_refused() {
    let mut cube = CubieCube::SOLVED;
    cube.co[0] = 1;
    assert!(solve_optimal(small(), &cube, OptimalOptions::default()).is_err());
}

#[test]
fn saved_tables_load_back_and_damaged_ones_are_refused() {
    use godsearch_tables::{file, Encoding, TableHeader};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("optimal.tbl");
    let header = TableHeader {
        puzzle: TableSize::Small.identity(Metric::Htm),
        params: OPTIMAL_FORMAT.to_string(),
        encoding: Encoding::Bytes,
        entries: TableSize::Small.bytes() as u64,
        levels: small().levels().to_vec(),
    };
    file::save(&path, &header, |out| small().write_to(out)).unwrap();
    let loaded =
        OptimalTables::from_loaded(TableSize::Small, Metric::Htm, file::load(&path).unwrap())
            .unwrap();
    let cube = apply_moves(&CubieCube::SOLVED, &parse_moves("F R' U2 B D'").unwrap());
    assert_eq!(
        solve_optimal(&loaded, &cube, OptimalOptions::default())
            .unwrap()
            .solutions,
        solve_optimal(small(), &cube, OptimalOptions::default())
            .unwrap()
            .solutions
    );
    let wrong =
        OptimalTables::from_loaded(TableSize::Gigabyte, Metric::Htm, file::load(&path).unwrap());
    assert!(wrong.is_err(), "a table of another size is refused");
}

#[test]
fn quarter_turn_lengths_are_the_exact_quarter_turn_distances() {
    let mut rng = StdRng::seed_from_u64(17);
    for length in 0..=10 {
        let quarters: Vec<Move> = (0..length)
            .map(|_| Move {
                face: rng.gen_range(0..6),
                turns: if rng.gen_bool(0.5) { 1 } else { 3 },
            })
            .collect();
        let cube = apply_moves(&CubieCube::SOLVED, &quarters);
        let exact = exact_distance(&cube, Metric::Qtm).expect("within ten quarter turns");
        assert!(lower_bound(small_qtm(), &cube).unwrap() <= exact as usize);
        let found = solve_optimal(small_qtm(), &cube, OptimalOptions::default()).unwrap();
        let moves = &found.solutions[0];
        assert!(
            moves.iter().all(|m| m.turns != 2),
            "quarter turns only: {moves:?}"
        );
        assert_eq!(moves.len(), exact as usize, "walk of {length}");
        assert_eq!(Metric::Qtm.length(moves), exact as usize);
        assert!(apply_moves(&cube, moves).is_solved());
    }
    // A half turn is two quarter turns, in one canonical order.
    let cube = apply_moves(&CubieCube::SOLVED, &parse_moves("F2").unwrap());
    let found = solve_optimal(small_qtm(), &cube, OptimalOptions::default()).unwrap();
    assert_eq!(found.solutions, vec![parse_moves("F F").unwrap()]);
}

/// A walk of `length` random moves of `metric` from solved.
fn walk_in(rng: &mut StdRng, metric: Metric, length: usize) -> CubieCube {
    let moves = metric.moves();
    let walk: Vec<Move> = (0..length)
        .map(|_| moves[rng.gen_range(0..moves.len())])
        .collect();
    apply_moves(&CubieCube::SOLVED, &walk)
}

#[test]
fn slice_turn_lengths_are_the_exact_slice_turn_distances() {
    let mut rng = StdRng::seed_from_u64(19);
    for length in 0..=2 * STM_BALL_DEPTH as usize {
        for _ in 0..3 {
            let cube = walk_in(&mut rng, Metric::Stm, length);
            let exact = exact_distance(&cube, Metric::Stm).expect("within eight slice turns");
            assert!(lower_bound(small_stm(), &cube).unwrap() <= exact as usize);
            let found = solve_optimal(small_stm(), &cube, OptimalOptions::default()).unwrap();
            let moves = &found.solutions[0];
            assert_eq!(moves.len(), exact as usize, "walk of {length}");
            assert_eq!(Metric::Stm.length(moves), exact as usize);
            assert!(apply_moves(&cube, moves).is_solved());
        }
    }
    // A middle layer's turn is one move; the face-turn distance of the same cube is two.
    let m = apply_moves(&CubieCube::SOLVED, &parse_moves("R L'").unwrap());
    let found = solve_optimal(small_stm(), &m, OptimalOptions::default()).unwrap();
    assert_eq!(found.solutions, vec![vec![Move { face: 7, turns: 3 }]]);
    assert_eq!(exact_distance(&m, Metric::Htm), Some(2));
}

#[test]
fn all_lists_every_canonical_optimal_slice_turn_solution() {
    let all = OptimalOptions {
        all: true,
        ..OptimalOptions::default()
    };
    let mut rng = StdRng::seed_from_u64(20);
    for _ in 0..3 {
        let cube = walk_in(&mut rng, Metric::Stm, 4);
        let found = solve_optimal(small_stm(), &cube, all).unwrap();
        let mut expected = brute_force_solutions(&cube, found.lower_bound, Metric::Stm);
        let mut got = found.solutions.clone();
        expected.sort_by_key(|s| format!("{s:?}"));
        got.sort_by_key(|s| format!("{s:?}"));
        assert_eq!(got, expected);
    }
}

/// Builds the table of `size` in `metric` and checks it whole, then on six walks (`walk`) of
/// every length up to `longest`: the bound is admissible and the solutions have the exact
/// length.
fn check_table(
    size: TableSize,
    metric: Metric,
    seed: u64,
    longest: usize,
    walk: impl Fn(&mut StdRng, usize) -> CubieCube,
) {
    let tables = OptimalTables::build(size, metric, &NoProgress).expect("never cancelled");
    assert_eq!(tables.levels().iter().sum::<u64>(), size.entries() as u64);
    let mut rng = StdRng::seed_from_u64(seed);
    for length in 1..=longest {
        for _ in 0..6 {
            let cube = walk(&mut rng, length);
            let exact = exact_distance(&cube, metric).expect("within the balls' reach") as usize;
            assert!(lower_bound(&tables, &cube).unwrap() <= exact);
            let found = solve_optimal(&tables, &cube, OptimalOptions::default()).unwrap();
            assert_eq!(found.solutions[0].len(), exact);
        }
    }
}

/// The 1 GB table: about a minute and 2 GB to build, so outside the normal run
/// (`cargo test --release -p godsearch-twophase -- --ignored gigabyte`).
#[test]
#[ignore]
fn gigabyte_table_is_admissible_and_exact_to_depth_ten() {
    check_table(
        TableSize::Gigabyte,
        Metric::Htm,
        18,
        2 * BALL_DEPTH as usize,
        random_walk,
    );
}

/// The 1 GB slice-turn table: about 50 s and 2 GB to build, so outside the normal run
/// (`cargo test --release -p godsearch-twophase -- --ignored gigabyte`).
#[test]
#[ignore]
fn gigabyte_slice_turn_table_is_admissible_and_exact_to_depth_eight() {
    check_table(
        TableSize::Gigabyte,
        Metric::Stm,
        23,
        2 * STM_BALL_DEPTH as usize,
        |rng, length| walk_in(rng, Metric::Stm, length),
    );
}

/// The 300 MB table by corners: about 25 s to build on two cores, the one table of its kind in
/// the normal run.
#[test]
fn the_300mb_table_by_corners_is_admissible_and_exact_to_depth_ten() {
    check_table(
        TableSize::Medium,
        Metric::Htm,
        29,
        2 * BALL_DEPTH as usize,
        random_walk,
    );
}

/// The 8 GB table: about 9 minutes and 15 GB to build, so outside the normal run
/// (`cargo test --release -p godsearch-twophase -- --ignored 8gb`).
#[test]
#[ignore]
fn the_8gb_table_is_admissible_and_exact_to_depth_ten() {
    check_table(
        TableSize::Large,
        Metric::Htm,
        31,
        2 * BALL_DEPTH as usize,
        random_walk,
    );
}

/// The entry of `cube` in `tables`.
fn entry_of(tables: &OptimalTables, cube: &CubieCube) -> usize {
    tables.index().entry(
        coords::twist(cube) as usize,
        crate::cornerslice::corner_occupancy(cube) as usize,
        coords::flip(cube) as usize,
        tables.table_slice(coords::slice_sorted(cube) as usize),
    )
}

/// `entry` and its partners: the names of one position.
fn names(graph: &impl PairGraph, entry: usize) -> Vec<usize> {
    let mut all = vec![entry];
    graph.partners(entry, &mut |p| all.push(p));
    all
}

/// What makes the tables by corners admissible without building them: an entry names a
/// projection of the cube (the middle edges' flips do not count; a symmetry's conjugate is
/// one of its names), and each move of the cube is an edge of the graph the table is built on.
#[test]
fn the_tables_by_corners_name_projections_that_move_like_cubes() {
    let mut rng = StdRng::seed_from_u64(37);
    for size in [TableSize::Medium, TableSize::Large] {
        for metric in Metric::ALL {
            let tables =
                OptimalTables::small_tables(size, metric, TableBytes::Owned(Vec::new()), &[]);
            let TableIndex::CornerSlice(graph) = tables.index() else {
                panic!("{} is a table by corners", size.name());
            };
            assert_eq!(graph.entries(), size.entries());
            for _ in 0..150 {
                let cube = walk_in(&mut rng, metric, 25);
                let entry = entry_of(&tables, &cube);
                let own = names(&graph, entry);
                let mut flipped = cube;
                let middle: Vec<usize> = (0..12).filter(|&p| cube.ep[p] >= 8).collect();
                flipped.eo[middle[0]] ^= 1;
                flipped.eo[middle[2]] ^= 1;
                assert_eq!(entry_of(&tables, &flipped), entry);
                for s in 0..16 {
                    let seen = tables.symmetries.conjugate(&cube, s);
                    assert!(own.contains(&entry_of(&tables, &seen)));
                }
                let mut reached = Vec::new();
                graph.neighbours(entry, &mut |n| {
                    reached.extend(names(&graph, n));
                    false
                });
                for &m in &tables.moves {
                    let child = cube.then(&to_move(m as usize).cubie());
                    assert!(reached.contains(&entry_of(&tables, &child)));
                }
            }
        }
    }
}

/// The superflip (every edge flipped in place), kept by all 48 symmetries.
const SUPERFLIP: &str = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";

/// Michael Reid's solution of the superflip in 24 quarter turns (1995).
const SUPERFLIP_IN_24_QUARTER_TURNS: &str =
    "R' U2 B L' F U' B D F U D' L D2 F' R B' D F' U' B' U D'";

/// The superflip is 20 face turns (found by the search) and 24 quarter turns (every shorter
/// bound exhausted, with Reid's solution known). With the 1 GB tables: each built in about 3
/// minutes and searched in about 13 G nodes (7 minutes on two cores), so outside the normal
/// run (`cargo test --release -p godsearch-twophase -- --ignored superflip`).
#[test]
#[ignore]
fn superflip_is_20_face_turns_and_24_quarter_turns() {
    let superflip = apply_moves(&CubieCube::SOLVED, &parse_moves(SUPERFLIP).unwrap());
    let reid = parse_moves(SUPERFLIP_IN_24_QUARTER_TURNS).unwrap();
    for (metric, known, length) in [(Metric::Htm, None, 20), (Metric::Qtm, Some(&reid[..]), 24)] {
        let tables = OptimalTables::build(TableSize::Gigabyte, metric, &NoProgress)
            .expect("never cancelled");
        let options = OptimalOptions {
            known,
            ..OptimalOptions::default()
        };
        let found = solve_optimal(&tables, &superflip, options).unwrap();
        assert_eq!(found.lower_bound, length, "{metric:?}");
        assert_eq!(metric.length(&found.solutions[0]), length, "{metric:?}");
        assert_eq!(found.position_symmetries, 48);
    }
}

/// The first blocks (moves on one axis, then another axis turned) that `symmetry` keeps
/// among the canonical paths of three moves in `metric`, as cubes.
fn kept_first_blocks(
    tables: &OptimalTables,
    symmetry: &RootSymmetry,
    metric: Metric,
) -> std::collections::BTreeSet<CubieCube> {
    let automaton = metric.sequence_automaton();
    let moves = metric.moves();
    let columns: Vec<u8> = moves.iter().map(|m| m.htm_index() as u8).collect();
    let mut kept = std::collections::BTreeSet::new();
    let mut paths = vec![(Vec::new(), godsearch_core::SequenceAutomaton::START)];
    for _ in 0..3 {
        let mut next = Vec::new();
        for (path, state) in &paths {
            for (k, &column) in columns.iter().enumerate() {
                if let Some(after) = automaton.next(*state, k as godsearch_core::MoveIdx) {
                    let mut longer: Vec<u8> = path.clone();
                    longer.push(column);
                    next.push((longer, after));
                }
            }
        }
        paths = next;
    }
    for (path, _) in paths {
        let axis = crate::search::to_move(path[0] as usize).axis();
        let block: Vec<Move> = path
            .iter()
            .map(|&m| crate::search::to_move(m as usize))
            .take_while(|m| m.axis() == axis)
            .collect();
        if block.len() < path.len() && symmetry.keeps(tables, &path) {
            kept.insert(apply_moves(&CubieCube::SOLVED, &block));
        }
    }
    kept
}

#[test]
fn a_symmetric_position_searches_one_first_block_of_each_class() {
    let superflip = apply_moves(&CubieCube::SOLVED, &parse_moves(SUPERFLIP).unwrap());
    let symmetry = RootSymmetry::of(small(), &superflip);
    assert_eq!(symmetry.order(), 48);
    // Face-turn blocks: a quarter or a half turn; or two opposite faces turned, both quarter
    // turns the same way or opposite ways seen from a fixed axis, a quarter and a half, or
    // two halves. 6 classes of the 45 blocks.
    assert_eq!(kept_first_blocks(small(), &symmetry, Metric::Htm).len(), 6);
    // A position no symmetry keeps: every block.
    let mut rng = StdRng::seed_from_u64(21);
    let plain = random_walk(&mut rng, 30);
    let none = RootSymmetry::of(small(), &plain);
    assert_eq!(none.order(), 1);
    assert_eq!(kept_first_blocks(small(), &none, Metric::Htm).len(), 45);
    // A path that ends inside its first block is always searched.
    let path = [0u8, 9];
    assert!(symmetry.keeps(small(), &path));
    // Below the quarter turn searched first, the four quarter turns of the whole cube about
    // its axis keep the superflip and that turn: of the 12 single turns of the other axes,
    // one of each class under them (clockwise, counter-clockwise, half) is searched.
    let axis = |m: u8| to_move(m as usize).axis();
    let other_axis = |m: u8| if axis(m) == 0 { 3 } else { 0 };
    let quarter = (0..18u8)
        .find(|&m| to_move(m as usize).turns != 2 && symmetry.keeps(small(), &[m, other_axis(m)]))
        .expect("a quarter turn is searched first");
    let second = |symmetry: &RootSymmetry| {
        (0..18u8)
            .filter(|&m| axis(m) != axis(quarter))
            .filter(|&m| symmetry.keeps(small(), &[quarter, m, quarter]))
            .count()
    };
    assert_eq!(second(&none), 12);
    assert_eq!(second(&symmetry), 3);
}

#[test]
fn symmetric_positions_keep_their_exact_lengths() {
    // Patterns with symmetry, within the distances the test balls decide exactly.
    let patterns = [
        "U2 D2 F2 B2 L2 R2",
        "U D'",
        "U2 D2",
        "R2 L2 U2 D2",
        "U D' R L' F B' U D'",
        "F2 B2 U D' R2 L2 U D'",
        "R L",
        "R L U2 R' L' U2",
    ];
    let mut checked = 0;
    for text in patterns {
        let cube = apply_moves(&CubieCube::SOLVED, &parse_moves(text).unwrap());
        for (tables, metric) in [(small(), Metric::Htm), (small_qtm(), Metric::Qtm)] {
            // (Some are more than ten quarter turns away.)
            let Some(exact) = exact_distance(&cube, metric) else {
                continue;
            };
            let found = solve_optimal(tables, &cube, OptimalOptions::default()).unwrap();
            let moves = &found.solutions[0];
            assert_eq!(metric.length(moves), exact as usize, "{text} in {metric}");
            assert!(apply_moves(&cube, moves).is_solved());
            assert!(found.position_symmetries > 1, "{text} has a symmetry");
            checked += 1;
        }
    }
    assert!(checked >= 12, "{checked} checked");
}

#[test]
fn a_known_solution_of_the_optimal_length_is_proven_without_searching_its_length() {
    let mut rng = StdRng::seed_from_u64(21);
    for (metric, tables) in [(Metric::Htm, small()), (Metric::Qtm, small_qtm())] {
        for _ in 0..3 {
            let cube = random_walk(&mut rng, 9);
            let searched = solve_optimal(tables, &cube, OptimalOptions::default()).unwrap();
            let optimal = &searched.solutions[0];
            let length = metric.length(optimal);
            // Given an optimal solution, the search stops before the bound of its length,
            // having exhausted every shorter one: the bound proven is its length.
            let known = OptimalOptions {
                known: Some(optimal),
                ..OptimalOptions::default()
            };
            let proven = solve_optimal(tables, &cube, known).unwrap();
            // (Returned with turns of one face merged: `U2`, never the quarter-turn search's
            // `U U`.)
            let written = merge_same_face(optimal);
            assert_eq!(
                proven.solutions,
                std::slice::from_ref(&written),
                "{metric:?}"
            );
            assert_eq!(proven.lower_bound, length);
            assert!(proven.nodes < searched.nodes, "{metric:?}: {proven:?}");
            assert_eq!(
                proven.nodes_per_bound[..],
                searched.nodes_per_bound[..searched.nodes_per_bound.len() - 1]
            );
            // A longer one (with a detour of four commuting turns) is beaten by the search.
            let mut longer = parse_moves("R L R' L'").unwrap();
            longer.extend_from_slice(optimal);
            let known = OptimalOptions {
                known: Some(&longer),
                ..OptimalOptions::default()
            };
            let beaten = solve_optimal(tables, &cube, known).unwrap();
            assert_eq!(beaten.solutions, searched.solutions, "{metric:?}");
            // Turns of one face are merged: `U U` is one half turn (two quarter turns).
            let mut unmerged = parse_moves("U U").unwrap();
            unmerged.extend(parse_moves("U2").unwrap());
            unmerged.extend_from_slice(optimal);
            let known = OptimalOptions {
                known: Some(&unmerged),
                ..OptimalOptions::default()
            };
            let merged = solve_optimal(tables, &cube, known).unwrap();
            assert_eq!(merged.solutions, [written]);
        }
    }
}

#[test]
fn a_known_solution_that_does_not_solve_the_position_is_refused() {
    let cube = apply_moves(&CubieCube::SOLVED, &parse_moves("R U F").unwrap());
    let wrong = parse_moves("F' U' R' D").unwrap();
    let options = OptimalOptions {
        known: Some(&wrong),
        ..OptimalOptions::default()
    };
    assert!(matches!(
        solve_optimal(small(), &cube, options),
        Err(SolveError::NotASolution)
    ));
}

/// An optimal table's build cancelled part way gives `Cancelled`, never a table whose far
/// entries read as near (which would make the solver's answers too short).
#[test]
fn a_cancelled_optimal_table_build_gives_no_table() {
    let cancel = crate::tests::CancelAfter {
        after: 5,
        finished: 0.into(),
    };
    let built = OptimalTables::build(TableSize::Small, Metric::Htm, &cancel);
    assert_eq!(built.err(), Some(godsearch_core::Cancelled));
}
