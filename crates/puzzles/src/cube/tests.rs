use super::algorithm::parse_moves;
use super::coord::{perm_rank, perm_unrank};
use super::cubie::{CubieCube, CubieError};
use super::facelet::{self, FaceletError};
use super::notation::{apply_moves, format_moves, invert_moves, Metric, Move};
use super::symmetry::{Symmetries, SYMMETRIES, UD_SYMMETRIES};
use super::Cube2Space;
use godsearch_core::{RankedSpace, StateSpace};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const SOLVED_FACELETS: &str = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
const SUPERFLIP: &str = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";

fn cube_of(moves: &str) -> CubieCube {
    apply_moves(&CubieCube::SOLVED, &parse_moves(moves).unwrap())
}

fn random_moves(rng: &mut StdRng, n: usize) -> Vec<Move> {
    (0..n)
        .map(|_| Move {
            face: rng.gen_range(0..6),
            turns: rng.gen_range(1..4),
        })
        .collect()
}

#[test]
fn every_face_turn_has_order_four_and_inverse_undoes_it() {
    for m in Metric::Htm.moves() {
        let c = m.cubie();
        let four = (0..3).fold(c, |acc, _| acc.then(&m.cubie()));
        assert_eq!(four.then(&c).then(&c).then(&c).then(&c), four);
        let q = Move {
            face: m.face,
            turns: 1,
        }
        .cubie();
        assert!(q.then(&q).then(&q).then(&q).is_solved(), "{m}");
        assert!(c.then(&m.inverse().cubie()).is_solved(), "{m}");
        assert!(c.then(&c.inverse()).is_solved());
        assert!(c.check().is_ok());
    }
}

#[test]
fn sexy_move_six_times_is_the_identity() {
    let once = cube_of("R U R' U'");
    assert!(!once.is_solved());
    let six = (0..5).fold(once, |acc, _| acc.then(&once));
    assert!(six.is_solved());
}

#[test]
fn superflip_flips_every_edge_in_place() {
    let c = cube_of(SUPERFLIP);
    assert_eq!(c.cp, CubieCube::SOLVED.cp);
    assert_eq!(c.co, [0; 8]);
    assert_eq!(c.ep, CubieCube::SOLVED.ep);
    assert_eq!(c.eo, [1; 12]);
    assert_eq!(
        facelet::format(&c),
        "UBULURUFURURFRBRDRFUFLFRFDFDFDLDRDBDLULBLFLDLBUBRBLBDB"
    );
}

#[test]
fn a_u_turn_moves_the_side_stickers_as_a_cuber_expects() {
    assert_eq!(facelet::format(&CubieCube::SOLVED), SOLVED_FACELETS);
    assert_eq!(
        facelet::format(&cube_of("U")),
        "UUUUUUUUUBBBRRRRRRRRRFFFFFFDDDDDDDDDFFFLLLLLLLLLBBBBBB"
    );
    assert_eq!(
        facelet::format(&cube_of("R")),
        "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB"
    );
}

#[test]
fn facelets_and_cubies_round_trip() {
    let mut rng = StdRng::seed_from_u64(4);
    for _ in 0..500 {
        let c = apply_moves(&CubieCube::SOLVED, &random_moves(&mut rng, 30));
        let text = facelet::format(&c);
        assert_eq!(facelet::parse(&text).unwrap(), c);
        let colours: String = text
            .chars()
            .map(|f| match f {
                'U' => 'W',
                'R' => 'R',
                'F' => 'G',
                'D' => 'Y',
                'L' => 'O',
                _ => 'B',
            })
            .collect();
        assert_eq!(facelet::parse(&colours).unwrap(), c);
    }
}

#[test]
fn sequences_and_inverses_cancel_and_print_back() {
    let mut rng = StdRng::seed_from_u64(5);
    for _ in 0..200 {
        let moves = random_moves(&mut rng, 25);
        let c = apply_moves(&CubieCube::SOLVED, &moves);
        assert!(apply_moves(&c, &invert_moves(&moves)).is_solved());
        assert_eq!(parse_moves(&format_moves(&moves)).unwrap(), moves);
    }
}

#[test]
fn notation_accepts_the_usual_spellings() {
    let m = |s| parse_moves(s).unwrap();
    assert_eq!(m("RU R'U2"), m("R U R' U2"));
    assert_eq!(m("R2'"), m("R2"));
    assert_eq!(m("R3"), m("R'"));
    assert_eq!(m("R’"), m("R'"));
    assert_eq!(format_moves(&m("R U2 F'")), "R U2 F'");
    assert!(m("").is_empty());
    let err = parse_moves("R U X").unwrap_err().to_string();
    assert!(
        err.contains("unknown move 'X' at line 1, column 5"),
        "{err}"
    );
    assert!(parse_moves("r").is_err());
    assert_eq!(Metric::Qtm.length(&m("R U2 F'")), 4);
    assert_eq!(Metric::Htm.length(&m("R U2 F'")), 3);
}

#[test]
fn every_invalid_cube_is_refused_with_its_reason() {
    let swap = |i: usize, j: usize| {
        let mut s: Vec<char> = SOLVED_FACELETS.chars().collect();
        s.swap(i, j);
        s.into_iter().collect::<String>()
    };
    let err = |text: &str| facelet::parse(text).unwrap_err();
    assert!(matches!(
        err("UUU"),
        FaceletError::Length {
            found: 3,
            expected: 54,
            ..
        }
    ));
    assert!(matches!(
        err(&SOLVED_FACELETS.replace('B', "U")),
        FaceletError::Centres('U')
    ));
    assert!(matches!(
        err(&SOLVED_FACELETS.replacen('B', "X", 1)),
        FaceletError::UnknownColour {
            index: 46,
            sticker: 'X'
        }
    ));
    // One sticker recoloured: counts are 10 and 8.
    let mut recoloured: Vec<char> = SOLVED_FACELETS.chars().collect();
    recoloured[0] = 'R';
    let text: String = recoloured.into_iter().collect();
    assert!(matches!(
        err(&text),
        FaceletError::ColourCount {
            colour: 'U',
            count: 8,
            ..
        }
    ));
    // Swap a U sticker of one corner with a D sticker of another: two impossible corners.
    assert!(matches!(
        err(&swap(8, 35)),
        FaceletError::ImpossibleCorner {
            position: "URF",
            ..
        }
    ));
    // Two stickers of one edge swapped with those of another edge's: an impossible edge.
    assert!(matches!(
        err(&swap(10, 3)),
        FaceletError::ImpossibleEdge { position: "UR", .. }
    ));
    // Twist one corner: rotate its three stickers.
    let mut twisted: Vec<char> = SOLVED_FACELETS.chars().collect();
    let (a, b, c) = (twisted[8], twisted[9], twisted[20]);
    (twisted[8], twisted[9], twisted[20]) = (c, a, b);
    let text: String = twisted.into_iter().collect();
    assert!(matches!(
        err(&text),
        FaceletError::Unreachable(CubieError::TwistedCorner(_))
    ));
    assert!(err(&text).to_string().contains("twisted"));
    // Flip one edge.
    let flipped = swap(5, 10);
    assert_eq!(
        err(&flipped),
        FaceletError::Unreachable(CubieError::FlippedEdge)
    );
    // Swap two edges (UR and UF, stickers and all): parity.
    let mut parity: Vec<char> = SOLVED_FACELETS.chars().collect();
    parity.swap(10, 19);
    let text: String = parity.into_iter().collect();
    let e = err(&text);
    assert!(
        matches!(e, FaceletError::Unreachable(CubieError::Parity { .. })),
        "{e}"
    );
    assert!(e.to_string().contains("parity"));
    // A corner used twice.
    let mut dup = CubieCube::SOLVED;
    dup.cp[1] = 0;
    assert!(matches!(
        dup.check(),
        Err(CubieError::DuplicateCorner("URF"))
    ));
    let mut dup = CubieCube::SOLVED;
    dup.ep[1] = 0;
    assert!(matches!(dup.check(), Err(CubieError::DuplicateEdge("UR"))));
}

#[test]
fn coordinate_classes_match_kociemba_and_partition_the_values() {
    use super::coord::{self, CORNER_PERMS, TWISTS};
    use super::symmetry::CoordinateClasses;
    let syms = Symmetries::new();
    let corner_classes = CoordinateClasses::new(CORNER_PERMS, UD_SYMMETRIES, &syms, |v, s| {
        let mut c = CubieCube::SOLVED;
        coord::set_corner_perm(&mut c, v as u16);
        coord::corner_perm(&syms.conjugate(&c, s)) as usize
    });
    let twist_classes = CoordinateClasses::new(TWISTS, UD_SYMMETRIES, &syms, |v, s| {
        let mut c = CubieCube::SOLVED;
        coord::set_twist(&mut c, v as u16);
        coord::twist(&syms.conjugate(&c, s)) as usize
    });
    // Under the 16 symmetries that keep the U-D axis: 2,768 corner-permutation classes (as in
    // Kociemba's solver) and 168 twist classes (the two-phase tables' rows).
    for (classes, count, expected) in [
        (&corner_classes, CORNER_PERMS, 2768),
        (&twist_classes, TWISTS, 168),
    ] {
        assert_eq!(classes.len(), expected);
        // Orbit-stabiliser: the class sizes add up to every value.
        let sizes: usize = classes
            .stabiliser
            .iter()
            .map(|m| UD_SYMMETRIES / m.count_ones() as usize)
            .sum();
        assert_eq!(sizes, count);
    }
    // Every value's recorded symmetry takes it to its representative.
    for v in (0..CORNER_PERMS).step_by(97) {
        let mut c = CubieCube::SOLVED;
        coord::set_corner_perm(&mut c, v as u16);
        let s = corner_classes.to_rep[v] as usize;
        let rep = corner_classes.rep[corner_classes.class[v] as usize];
        assert_eq!(coord::corner_perm(&syms.conjugate(&c, s)) as u32, rep);
    }
}

#[test]
fn the_48_symmetries_form_a_group_that_maps_face_turns_to_face_turns() {
    let syms = Symmetries::new();
    let quarter_turns: Vec<CubieCube> = (0..6).map(CubieCube::face_turn).collect();
    let mut seen = std::collections::HashSet::new();
    for s in 0..SYMMETRIES {
        assert!(seen.insert(*syms.cube(s)), "symmetry {s} repeats");
        assert!(syms.cube(s).then(syms.cube(syms.inverse(s))).is_solved());
        for (face, q) in quarter_turns.iter().enumerate() {
            let image = syms.conjugate(q, s);
            let is_turn = (0..6).any(|f| {
                let t = CubieCube::face_turn(f);
                image == t || image == t.inverse()
            });
            assert!(is_turn, "symmetry {s} maps face {face} to no face turn");
            let keeps_ud = face % 3 != 0
                || [0, 3].iter().any(|&f| {
                    let t = CubieCube::face_turn(f);
                    image == t || image == t.inverse()
                });
            if s < UD_SYMMETRIES {
                assert!(keeps_ud, "symmetry {s} moves the U-D axis");
            }
        }
    }
}

#[test]
fn permutation_ranks_are_a_bijection() {
    let mut p = [0u8; 8];
    for r in 0..40320 {
        perm_unrank(r, &mut p);
        assert_eq!(perm_rank(&p), r);
    }
    let mut q = [0u8; 12];
    perm_unrank(479_001_599, &mut q);
    assert_eq!(q, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
}

#[test]
fn cube2_ranks_round_trip_and_moves_match_cubie_moves() {
    let space = Cube2Space::new(Metric::Htm);
    assert_eq!(space.goal_state(), space.rank(&CubieCube::SOLVED));
    let mut rng = StdRng::seed_from_u64(6);
    for _ in 0..300 {
        let moves = random_moves(&mut rng, 20);
        let c = apply_moves(&CubieCube::SOLVED, &moves);
        let rank = space.rank(&c);
        assert!(rank < space.state_count() as u64);
        let canon = space.unrank(rank);
        assert_eq!(space.rank(&canon), rank);
        let mut next = Vec::new();
        space.for_each_neighbour(rank, |k, r| next.push((k, r)));
        for (k, r) in next {
            let m = space.moves()[k as usize];
            assert_eq!(space.rank(&canon.then(&m.cubie())), r);
        }
        // A whole-cube turn (U with D') is the same 2x2x2 position.
        assert_eq!(space.rank(&c.then(&cube_of("U D'"))), rank);
    }
}

#[test]
fn cube2_reoriented_solutions_solve_the_cube_as_held() {
    let space = Cube2Space::new(Metric::Htm);
    let goal = space.goal_state();
    for scramble in ["D L B D'", "L2 B", "D' L' B2", "B D"] {
        let c = cube_of(scramble);
        let (_, rot) = space.canonical(&c);
        // Find a shortest U/R/F solution of the canonical cube by brute force.
        let mut path = Vec::new();
        let found = (0..=4).any(|depth| search(&space, space.rank(&c), depth, goal, &mut path));
        assert!(found, "{scramble}");
        let canonical_moves: Vec<Move> = path.iter().map(|&k| space.moves()[k]).collect();
        let held = space.reorient(&canonical_moves, rot);
        let after = apply_moves(&c, &held);
        assert_eq!(
            space.rank(&after),
            goal,
            "{scramble}: {}",
            format_moves(&held)
        );
    }
}

fn search(space: &Cube2Space, at: u64, depth: usize, goal: u64, path: &mut Vec<usize>) -> bool {
    if depth == 0 {
        return at == goal;
    }
    let mut next = Vec::new();
    space.for_each_neighbour(at, |k, r| next.push((k as usize, r)));
    next.into_iter().any(|(k, r)| {
        path.push(k);
        let found = search(space, r, depth - 1, goal, path);
        if !found {
            path.pop();
        }
        found
    })
}

#[test]
fn pocket_facelets_round_trip_in_any_colours_and_orientation() {
    let mut rng = StdRng::seed_from_u64(9);
    for _ in 0..200 {
        let c = apply_moves(&CubieCube::SOLVED, &random_moves(&mut rng, 20));
        let text = facelet::format_pocket(&c);
        assert_eq!(text.len(), 24);
        // Colours are named from the DBL corner, so the cube read back is the same stickers
        // with the colours renamed: the same position to solve.
        let back = facelet::parse_pocket(&text).unwrap();
        assert!(
            same_up_to_colours(&facelet::format_pocket(&back), &text),
            "{text}"
        );
        let colours: String = text
            .chars()
            .map(|f| match f {
                'U' => 'w',
                'R' => 'r',
                'F' => 'g',
                'D' => 'y',
                'L' => 'o',
                _ => 'b',
            })
            .collect();
        let back = facelet::parse_pocket(&colours).unwrap();
        assert!(same_up_to_colours(&facelet::format_pocket(&back), &text));
    }
    assert_eq!(
        facelet::format_pocket(&cube_of("U")),
        "UUUUBBRRRRFFDDDDFFLLLLBB"
    );
}

#[test]
fn invalid_pockets_are_refused() {
    let err = |t: &str| facelet::parse_pocket(t).unwrap_err();
    assert!(matches!(
        err("UUUU"),
        FaceletError::Length { expected: 24, .. }
    ));
    assert!(matches!(
        err("UUUURRRRFFFFDDDDLLLLXXXU"),
        FaceletError::Pocket(_)
    ));
    assert!(matches!(
        err("UUUURRRRFFFFDDDDLLLLBBBX"),
        FaceletError::Pocket(_)
    ));
    // Twist one corner (URF: U4, R1, F2 on the 2x2x2).
    let mut s: Vec<char> = "UUUURRRRFFFFDDDDLLLLBBBB".chars().collect();
    (s[3], s[4], s[9]) = (s[9], s[3], s[4]);
    let text: String = s.into_iter().collect();
    let e = err(&text);
    assert!(
        matches!(e, FaceletError::Unreachable(CubieError::TwistedCorner(_))),
        "{e}"
    );
    // A colour on five stickers, another on three.
    let e = err("UUUURRRRFFFFDDDDLLLLBBBU");
    assert!(!e.to_string().is_empty());
}

/// `true` when `a` and `b` differ only by a one-to-one renaming of characters.
fn same_up_to_colours(a: &str, b: &str) -> bool {
    let mut forward = std::collections::HashMap::new();
    let mut backward = std::collections::HashMap::new();
    a.len() == b.len()
        && a.chars().zip(b.chars()).all(|(x, y)| {
            *forward.entry(x).or_insert(y) == y && *backward.entry(y).or_insert(x) == x
        })
}

/// Positions at each distance up to `depth`, found two ways: every sequence of the metric's
/// moves, and only the sequences its automaton calls canonical.
fn levels_by_sequences(metric: Metric, depth: usize, canonical: bool) -> Vec<usize> {
    let moves = metric.moves();
    let automaton = metric.sequence_automaton();
    let mut seen = std::collections::HashSet::from([CubieCube::SOLVED]);
    let mut frontier = vec![(CubieCube::SOLVED, godsearch_core::SequenceAutomaton::START)];
    let mut levels = vec![1];
    for _ in 0..depth {
        let mut next = Vec::new();
        let mut found = 0;
        for (c, state) in &frontier {
            for (k, m) in moves.iter().enumerate() {
                let after = match automaton.next(*state, k as godsearch_core::MoveIdx) {
                    Some(s) => s,
                    None if canonical => continue,
                    None => 0,
                };
                let d = c.then(&m.cubie());
                if seen.insert(d) {
                    found += 1;
                }
                next.push((d, after));
            }
        }
        levels.push(found);
        frontier = next;
    }
    levels
}

#[test]
fn canonical_sequences_reach_every_position_at_its_distance() {
    // The slice-turn metric's first levels as published (Rokicki, cubeman.org "Slice turn
    // metric, anyone?"); all sequences and canonical ones agree.
    let stm = levels_by_sequences(Metric::Stm, 3, true);
    assert_eq!(stm, [1, 27, 501, 9175]);
    assert_eq!(levels_by_sequences(Metric::Stm, 3, false), stm);
    for metric in [Metric::Htm, Metric::Qtm] {
        assert_eq!(
            levels_by_sequences(metric, 3, true),
            levels_by_sequences(metric, 3, false),
            "{metric}"
        );
    }
}

#[test]
fn middle_layer_moves_have_order_four_and_keep_the_cube_valid() {
    let stm = Metric::Stm.moves();
    assert_eq!(stm.len(), 27);
    let cubes: std::collections::HashSet<CubieCube> = stm.iter().map(|m| m.cubie()).collect();
    assert_eq!(cubes.len(), 27, "27 different moves");
    for &m in &stm {
        let c = m.cubie();
        assert!(c.check().is_ok(), "{m}");
        assert!(c.then(&m.inverse().cubie()).is_solved(), "{m}");
        assert_eq!(
            Metric::Stm.index_of(m.inverse()).map(|k| stm[k as usize]),
            Some(m.inverse())
        );
    }
    assert_eq!("etm".parse::<Metric>(), Ok(Metric::Stm));
    assert_eq!(Metric::Stm.for_cube(crate::cube::CUBE2), Metric::Htm);
}
