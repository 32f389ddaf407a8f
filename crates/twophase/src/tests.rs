use crate::flipslice::FlipSliceConjugates;
use crate::search::phase1_distance;
use crate::{coords, solve, solve_in, Options, Tables, TABLES_FORMAT};
use godsearch_enumerate::NoProgress;
use godsearch_puzzles::cube::notation::{apply_moves, Move};
use godsearch_puzzles::cube::symmetry::{Symmetries, UD_SYMMETRIES};
use godsearch_puzzles::cube::CubieCube;
use godsearch_puzzles::cube::Metric;
use godsearch_tables::{file, Encoding, TableHeader};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::OnceLock;

/// The tables take half a minute to build: once for all of the crate's tests (the optimal
/// solver's use them too).
pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables::build(&NoProgress).expect("never cancelled"))
}

/// The cube after `length` random face turns from solved.
pub(crate) fn random_walk(rng: &mut StdRng, length: usize) -> CubieCube {
    let moves: Vec<Move> = (0..length)
        .map(|_| Move {
            face: rng.gen_range(0..6),
            turns: rng.gen_range(1..4),
        })
        .collect();
    apply_moves(&CubieCube::SOLVED, &moves)
}

fn random_cube(rng: &mut StdRng) -> CubieCube {
    random_walk(rng, 60)
}

#[test]
fn a_thousand_random_cubes_are_solved_in_at_most_20_moves() {
    let tables = tables();
    let mut rng = StdRng::seed_from_u64(20);
    let options = Options {
        target_length: 20,
        deadline: None,
        stop: None,
    };
    for _ in 0..1000 {
        let cube = random_cube(&mut rng);
        let s = solve(tables, &cube, options).unwrap();
        assert!(s.moves.len() <= 20);
        assert!(apply_moves(&cube, &s.moves).is_solved());
    }
}

#[test]
fn the_quarter_turn_search_aims_at_quarter_turns() {
    let tables = tables();
    let mut rng = StdRng::seed_from_u64(26);
    let (mut aimed, mut converted) = (0, 0);
    const CUBES: usize = 20;
    // God's number in QTM is 26, so a solution of at most 26 quarter turns always exists.
    let target = 26;
    for _ in 0..CUBES {
        let cube = random_cube(&mut rng);
        let options = Options {
            target_length: target,
            deadline: None,
            stop: None,
        };
        let q = solve_in(tables, &cube, options, Metric::Qtm).unwrap();
        assert!(apply_moves(&cube, &q.moves).is_solved());
        let quarters = Metric::Qtm.length(&q.moves);
        assert!(quarters <= target, "{quarters} quarter turns");
        // Written in face turns: never the same face twice in a row.
        assert!(q.moves.windows(2).all(|w| w[0].face != w[1].face));
        aimed += quarters;
        let h = solve(
            tables,
            &cube,
            Options {
                target_length: 20,
                ..options
            },
        )
        .unwrap();
        converted += Metric::Qtm.length(&h.moves);
    }
    // Face-turn solutions of 20 moves come to about 29 quarter turns (1,000 cubes: 28.8);
    // the quarter-turn search stops at 26 or fewer.
    assert!(
        aimed < converted,
        "{aimed} against {converted} quarter turns"
    );
}

/// Fewest moves from `cube` into `G1`, by trying every sequence (up to `limit` moves).
fn brute_phase1_distance(cube: &CubieCube, limit: usize) -> Option<usize> {
    fn in_g1(c: &CubieCube) -> bool {
        coords::twist(c) == 0
            && coords::flip(c) == 0
            && coords::slice(c) == coords::slice(&CubieCube::SOLVED)
    }
    fn reach(c: &CubieCube, left: usize) -> bool {
        in_g1(c)
            || left > 0
                && (0..6u8).any(|face| {
                    (1..4u8).any(|turns| reach(&apply_moves(c, &[Move { face, turns }]), left - 1))
                })
    }
    (0..=limit).find(|&n| reach(cube, n))
}

#[test]
fn phase1_table_gives_exact_distances_and_the_moves_that_change_them() {
    let tables = tables();
    let mut rng = StdRng::seed_from_u64(23);
    for k in 0..300 {
        // Short scrambles (checked against every move sequence) and random cubes.
        let cube = if k < 40 {
            let n = rng.gen_range(0..5);
            let moves: Vec<Move> = (0..n)
                .map(|_| Move {
                    face: rng.gen_range(0..6),
                    turns: rng.gen_range(1..4),
                })
                .collect();
            apply_moves(&CubieCube::SOLVED, &moves)
        } else {
            random_cube(&mut rng)
        };
        let (distance, closer, farther) = phase1_distance(tables, &cube);
        if k < 40 {
            assert_eq!(Some(distance as usize), brute_phase1_distance(&cube, 4));
        }
        assert_eq!(closer & farther, 0);
        for m in 0..18 {
            let next = apply_moves(
                &cube,
                &[Move {
                    face: (m / 3) as u8,
                    turns: (m % 3 + 1) as u8,
                }],
            );
            let expected = if closer >> m & 1 == 1 {
                distance - 1
            } else if farther >> m & 1 == 1 {
                distance + 1
            } else {
                distance
            };
            assert_eq!(phase1_distance(tables, &next).0, expected, "move {m}");
        }
    }
}

#[test]
fn conjugates_of_flip_and_slice_come_from_a_flip_part_and_a_slice_part() {
    let syms = Symmetries::new();
    let table = FlipSliceConjugates::new(&syms);
    let mut rng = StdRng::seed_from_u64(24);
    for _ in 0..5000 {
        let c = random_cube(&mut rng);
        let (flip, slice) = (coords::flip(&c) as usize, coords::slice(&c) as usize);
        for s in 0..UD_SYMMETRIES {
            let d = syms.conjugate(&c, s);
            let expected = (coords::flip(&d) as usize, coords::slice(&d) as usize);
            assert_eq!(table.conjugate(flip, slice, s), expected);
        }
    }
}

#[test]
fn pruning_levels_are_the_published_phase_distances() {
    let levels = tables().levels();
    // Phase 1: 12 is the longest way into G1; phase 2: 18 the longest inside it.
    assert_eq!(
        levels.iter().sum::<u64>(),
        (168 * 495 * 2048 + 2768 * 40320) as u64
    );
    assert_eq!(levels.len(), 13 + 19);
}

#[test]
fn tables_survive_a_round_trip_through_a_table_file() {
    let tables = tables();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("twophase.tbl");
    let header = TableHeader {
        puzzle: "cube 3x3x3".into(),
        params: TABLES_FORMAT.into(),
        encoding: Encoding::Bytes,
        entries: Tables::byte_len() as u64,
        levels: tables.levels().to_vec(),
    };
    file::save(&path, &header, |out| tables.write_to(out)).unwrap();
    let loaded = Tables::from_loaded(file::load(&path).unwrap()).unwrap();
    let mut a = Vec::new();
    let mut b = Vec::new();
    tables.write_to(&mut a).unwrap();
    loaded.write_to(&mut b).unwrap();
    assert!(a == b);
    let mut rng = StdRng::seed_from_u64(21);
    let cube = random_cube(&mut rng);
    let options = Options {
        target_length: 21,
        deadline: None,
        stop: None,
    };
    assert_eq!(
        solve(tables, &cube, options).unwrap(),
        solve(&loaded, &cube, options).unwrap()
    );
    // Copied into huge pages: the same bytes, the same solutions.
    let resident = loaded.resident();
    let mut c = Vec::new();
    resident.write_to(&mut c).unwrap();
    assert!(a == c);
    assert_eq!(
        solve(tables, &cube, options).unwrap(),
        solve(&resident, &cube, options).unwrap()
    );
}

#[test]
fn solved_and_invalid_cubes() {
    let tables = tables();
    let options = Options {
        target_length: 20,
        deadline: None,
        stop: None,
    };
    assert!(solve(tables, &CubieCube::SOLVED, options)
        .unwrap()
        .moves
        .is_empty());
    let mut twisted = CubieCube::SOLVED;
    twisted.co[0] = 1;
    assert!(solve(tables, &twisted, options).is_err());
}

#[test]
fn an_unreachable_target_gives_the_shortest_two_phase_solution_and_a_deadline_the_first() {
    let tables = tables();
    let scramble = godsearch_puzzles::cube::algorithm::parse_moves("R U F D2 L B'").unwrap();
    let cube = apply_moves(&CubieCube::SOLVED, &scramble);
    let shortest = solve(
        tables,
        &cube,
        Options {
            target_length: 0,
            deadline: None,
            stop: None,
        },
    )
    .unwrap();
    assert!(shortest.moves.len() <= scramble.len());
    assert!(!shortest.timed_out);
    let mut rng = StdRng::seed_from_u64(22);
    let hard = random_cube(&mut rng);
    let rushed = solve(
        tables,
        &hard,
        Options {
            target_length: 15,
            deadline: Some(std::time::Instant::now()),
            stop: None,
        },
    )
    .unwrap();
    assert!(rushed.timed_out);
    assert!(apply_moves(&hard, &rushed.moves).is_solved());
}

/// A front end's cancel stops the search as its deadline does: a target no search reaches
/// (12 moves for a random cube) ends at once with the first solution, replayed.
#[test]
fn a_set_stop_ends_the_search_as_a_deadline_does() {
    let tables = tables();
    let hard = random_cube(&mut StdRng::seed_from_u64(23));
    let stop = std::sync::atomic::AtomicBool::new(true);
    let started = std::time::Instant::now();
    let stopped = solve(
        tables,
        &hard,
        Options {
            target_length: 12,
            deadline: None,
            stop: Some(&stop),
        },
    )
    .unwrap();
    assert!(stopped.timed_out);
    assert!(apply_moves(&hard, &stopped.moves).is_solved());
    assert!(started.elapsed() < std::time::Duration::from_secs(1));
}

/// Answers `cancelled` once `after` levels are finished.
pub(crate) struct CancelAfter {
    pub(crate) after: u32,
    pub(crate) finished: std::sync::atomic::AtomicU32,
}

impl godsearch_core::Progress for CancelAfter {
    fn level_finished(&self, _depth: u32, _positions: u64) {
        self.finished
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    fn cancelled(&self) -> bool {
        self.finished.load(std::sync::atomic::Ordering::Relaxed) >= self.after
    }
}

/// A build cancelled part way gives `Cancelled`, never tables with levels missing.
#[test]
fn a_cancelled_build_gives_no_tables() {
    let cancel = CancelAfter {
        after: 4,
        finished: 0.into(),
    };
    assert_eq!(
        Tables::build(&cancel).err(),
        Some(godsearch_core::Cancelled)
    );
}

/// Entries of the symmetry-reduced pruning tables at each distance: phase 1 (depths 0..=12),
/// then phase 2 (0..=18), as the independent BFS that built them before the table engine did
/// (`pruning.rs` at commit 9ef8137; the tables built both ways are byte-identical).
const PRUNING_LEVELS: [u64; 32] = [
    1, 1, 8, 65, 587, 6984, 80397, 917722, 9507369, 62763602, 92316099, 4718709, 136, 1, 3, 10, 52,
    285, 1318, 5671, 26502, 115467, 470846, 1853056, 6535823, 18349792, 32843350, 34118883,
    15974563, 1290346, 19777, 15,
];

#[test]
fn pruning_levels_equal_the_independent_build_level_by_level() {
    assert_eq!(tables().levels(), PRUNING_LEVELS);
}

/// Entries of an exact pair table at each distance.
fn levels_of(table: &[u8]) -> Vec<u64> {
    let deepest = *table.iter().max().unwrap() as usize;
    let mut levels = vec![0u64; deepest + 1];
    for &d in table {
        levels[d as usize] += 1;
    }
    levels
}

#[test]
fn pair_tables_match_a_plain_breadth_first_search() {
    use crate::coords::{PHASE2_MOVES, SLICE_PERMS};
    use godsearch_enumerate::reference;
    let t = tables();
    let moves = PHASE2_MOVES.len();
    let corner = |cp: usize, k: usize| t.corner_move[cp * crate::coords::MOVES + PHASE2_MOVES[k]];
    let by_hash_set = reference::bfs_levels((0u16, 0u16), None, |&(cp, sp)| {
        (0..moves)
            .map(|k| {
                (
                    corner(cp as usize, k),
                    t.slice_perm_move[sp as usize * moves + k],
                )
            })
            .collect::<Vec<_>>()
    });
    assert_eq!(levels_of(&t.corner_slice_perm), by_hash_set);
    assert_eq!(
        t.corner_slice_perm.len(),
        by_hash_set.iter().sum::<u64>() as usize
    );
    let by_hash_set = reference::bfs_levels((0u16, 0u16), None, |&(ud, sp)| {
        (0..moves)
            .map(|k| {
                (
                    t.ud_edge_move[ud as usize * moves + k],
                    t.slice_perm_move[sp as usize * moves + k],
                )
            })
            .collect::<Vec<_>>()
    });
    assert_eq!(levels_of(&t.ud_slice_perm), by_hash_set);
    assert_eq!(t.ud_slice_perm.len(), 40320 * SLICE_PERMS);
}
