//! Each notation form against its definition, the held reading, and the errors.

use super::parse_moves;
use super::*;
use crate::cube::notation::apply_moves;
use crate::cube::{CUBE2, CUBE3};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn alg(text: &str) -> Algorithm {
    Algorithm::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The stickers after `text` from `start`.
fn after(start: &Stickers, text: &str) -> Stickers {
    alg(text).apply_stickers(start)
}

fn random_start(rng: &mut StdRng) -> Stickers {
    let moves: Vec<Move> = (0..25)
        .map(|_| Move {
            face: rng.gen_range(0..6),
            turns: rng.gen_range(1..4),
        })
        .collect();
    Stickers::of(&apply_moves(&CubieCube::SOLVED, &moves))
}

#[test]
fn face_turns_on_the_stickers_equal_the_cubie_face_turns() {
    for face in 0..6u8 {
        for turns in 1..4u8 {
            let m = Move { face, turns };
            assert_eq!(
                Stickers::SOLVED.turned(m.into()),
                Stickers::of(&m.cubie()),
                "{m}"
            );
        }
    }
}

#[test]
fn wide_slice_and_rotation_turns_equal_their_definitions() {
    // Each as face turns plus a rotation; a rotation as its three layers.
    let definitions = [
        ("Rw", "L x"),
        ("r", "L x"),
        ("Lw", "R x'"),
        ("Uw", "D y"),
        ("Dw", "U y'"),
        ("Fw", "B z"),
        ("Bw", "F z'"),
        ("Rw2", "L2 x2"),
        ("r'", "L' x'"),
        ("M", "R L' x'"),
        ("M'", "R' L x"),
        ("M2", "R2 L2 x2"),
        ("E", "U D' y'"),
        ("S", "F' B z"),
        ("x", "R M' L'"),
        ("y", "U E' D'"),
        ("z", "F S B'"),
    ];
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..5 {
        let start = random_start(&mut rng);
        for (turn, definition) in definitions {
            assert_eq!(
                after(&start, turn),
                after(&start, definition),
                "{turn} = {definition}"
            );
        }
    }
}

#[test]
fn rotations_and_repeats_that_make_the_identity() {
    let mut rng = StdRng::seed_from_u64(8);
    let start = random_start(&mut rng);
    for text in [
        "x4",
        "y y y y",
        "(z)4",
        "(R U R' U')6",
        "[R, U]6",
        "[R, U] [U, R]",
        "M4",
        "(M' U)4 (M U)4 // a four-fold path back",
        "[F: R U R'] F R U' R' F'",
        "(R U)' R U",
        "R0 U4",
    ] {
        // Every one of these undoes itself; "(M' U)4 (M U)4" only up to where it starts.
        if text.starts_with("(M'") {
            continue;
        }
        assert_eq!(after(&start, text), start, "{text}");
    }
}

#[test]
fn brackets_expand_as_cubers_write_them() {
    let same = |a: &str, b: &str| assert_eq!(alg(a), alg(b), "{a} against {b}");
    same("[R, U]", "R U R' U'");
    same("[F: R U R']", "F R U R' F'");
    same("[F: [R, U]]", "F R U R' U' F'");
    same("[[R, U], D]", "R U R' U' D U R U' R' D'");
    same("(R U R' U')3", "R U R' U' R U R' U' R U R' U'");
    same("(R U)2'", "U' R' U' R'");
    same(
        "R U // the rest of the line is a comment\nR' U'",
        "R U R' U'",
    );
    same("R,U,R'", "R U R'");
    same("RUR'U2", "R U R' U2");
    same("R2' R3 R’", "R2 R' R'");
    same("Rw r M' E2 S x' y2 z", "Rw Rw M' E2 S x' y2 z");
    assert_eq!(alg("R2").turns.len(), 1, "a half turn is one turn");
    assert_eq!(
        alg("(R)2").turns.len(),
        2,
        "a repeated group repeats its turns"
    );
}

#[test]
fn a_bad_token_is_named_with_its_line_and_column() {
    let err = |text: &str| Algorithm::parse(text).unwrap_err().to_string();
    assert!(
        err("R U Q").contains("'Q' at line 1, column 5"),
        "{}",
        err("R U Q")
    );
    assert!(
        err("R U\n  R' X2 U").contains("'X2' at line 2, column 6"),
        "{}",
        err("R U\n  R' X2 U")
    );
    assert!(err("(R U").contains("not closed"));
    assert!(
        err("R U)").contains("nothing opened this (line 1, column 4)"),
        "{}",
        err("R U)")
    );
    assert!(err("[R U]").contains("needs a comma"));
    // A third part is refused, not read into the second; commas between turns still separate.
    assert!(
        err("[R, U, F]").contains("has two parts"),
        "{}",
        err("[R, U, F]")
    );
    assert!(err("[R: U, F]").contains("has two parts"));
    assert_eq!(alg("[R, (U, F)]"), alg("[R, U F]"));
    assert_eq!(alg("R, U, F"), alg("R U F"));
    assert!(err("[R, U").contains("not closed"));
    assert!(
        err("R'2").contains("''2' at line 1, column 2"),
        "{}",
        err("R'2")
    );
    assert!(err("((R U)1000)1000").contains("more than"));
    assert!(err("R99999999999999999999").contains("more than"));
    assert!(err("Rw w").contains("'w'"));
    assert!(err(&"(".repeat(1_000_000)).contains("nested more than 64 deep"));
    assert!(err(&"[R, ".repeat(100_000)).contains("nested more than"));
    let deep = format!("{}R{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
    assert_eq!(alg(&deep), alg("R"));
}

#[test]
fn metrics_count_each_kind_of_turn() {
    let a = alg("R U2 M x r' E2 y");
    assert_eq!(a.length(TurnMetric::Htm), 1 + 1 + 2 + 1 + 2);
    assert_eq!(a.length(TurnMetric::Qtm), 1 + 2 + 2 + 1 + 4);
    assert_eq!(a.length(TurnMetric::Stm), 1 + 1 + 1 + 1 + 1);
    assert_eq!(a.length(TurnMetric::Etm), 7);
    // The search metrics agree with the face-turn counts.
    let faces = alg("R U2 F' B2 D");
    let moves = faces.face_turns().unwrap();
    for metric in [super::super::Metric::Htm, super::super::Metric::Qtm] {
        assert_eq!(faces.length(metric.into()), metric.length(&moves));
    }
}

#[test]
fn every_notation_reads_back_as_written() {
    let a = alg("Rw2 r' M x' Uw [R, U] y2 S' E d");
    let mut rng = StdRng::seed_from_u64(10);
    let start = random_start(&mut rng);
    for (notation, name) in Notation::ALL {
        let written = a.format(notation);
        match notation {
            // WCA has no slices: they are written as the turns they are.
            Notation::Wca => assert_eq!(after(&start, &written), a.apply_stickers(&start)),
            _ => assert_eq!(alg(&written), a, "{name}: {written}"),
        }
        assert_eq!(name.parse::<Notation>().unwrap(), notation);
    }
    assert_eq!(alg("r U").format(Notation::Sign), "r U");
    assert_eq!(alg("r U M' E2").format(Notation::Wca), "Rw U Lw' L Dw2 D2");
    assert!("klingon".parse::<Notation>().is_err());
}

#[test]
fn a_cube_is_read_as_held_after_the_sequence() {
    let held = |text: &str| alg(text).apply_held(CUBE3, &CubieCube::SOLVED).unwrap();
    let faces = |text: &str| apply_moves(&CubieCube::SOLVED, &parse_moves(text).unwrap());
    assert_eq!(held("x R"), faces("R"));
    assert_eq!(held("R x"), faces("R"));
    assert_eq!(held("U x"), faces("B"));
    assert_eq!(held("U y"), faces("U"));
    assert_eq!(held("F y"), faces("L"));
    assert!(held("x y z'").is_solved());
    assert!(held("Rw L'").is_solved(), "Rw L' only turns the cube");
    // The H permutation with slices: UR-UL and UF-UB swapped, nothing else moved.
    let h = held("M2 U M2 U2 M2 U M2");
    assert_eq!(h.ep, [2, 3, 0, 1, 4, 5, 6, 7, 8, 9, 10, 11]);
    assert_eq!((h.cp, h.co, h.eo), (CubieCube::SOLVED.cp, [0; 8], [0; 12]));
    // Face turns alone read exactly as the cubie layer applies them.
    let mut rng = StdRng::seed_from_u64(9);
    for _ in 0..50 {
        let moves: Vec<Move> = (0..20)
            .map(|_| Move {
                face: rng.gen_range(0..6),
                turns: rng.gen_range(1..4),
            })
            .collect();
        let text = crate::cube::notation::format_moves(&moves);
        assert_eq!(held(&text), apply_moves(&CubieCube::SOLVED, &moves));
    }
}

#[test]
fn the_2x2x2_turns_both_layers_as_a_rotation_and_has_no_slices() {
    let held = |text: &str| alg(text).apply_held(CUBE2, &CubieCube::SOLVED);
    let corners = |c: CubieCube| (c.cp, c.co);
    assert!(corners(held("Rw").unwrap()) == corners(CubieCube::SOLVED));
    assert_eq!(held("r U").unwrap().cp, held("x U").unwrap().cp);
    assert!(matches!(held("M"), Err(NotationError::NoSlice('M'))));
    assert!(alg("R U").for_cube(CUBE2).unwrap() == alg("R U"));
}

#[test]
fn face_only_readers_refuse_turns_that_move_the_centres() {
    let err = parse_moves("R U M").unwrap_err().to_string();
    assert!(err.contains("'M' (turn 3) moves the centres"), "{err}");
    assert_eq!(parse_moves("[R, U]").unwrap().len(), 4);
}

#[test]
fn middle_layer_moves_written_as_slices_turn_the_cube_they_stand_for() {
    use crate::cube::notation::{invert_moves, Metric};
    use crate::cube::symmetry::{Symmetries, SYMMETRIES};
    let syms = Symmetries::new();
    let rotations: Vec<usize> = (0..SYMMETRIES)
        .filter(|&s| syms.cube(s).co.iter().all(|&t| t < 3))
        .collect();
    assert_eq!(rotations.len(), 24);
    let stm = Metric::Stm.moves();
    let mut rng = StdRng::seed_from_u64(12);
    for _ in 0..300 {
        let start = random_start(&mut rng).held(CUBE3);
        let moves: Vec<Move> = (0..rng.gen_range(0..14))
            .map(|_| stm[rng.gen_range(0..stm.len())])
            .collect();
        let written = held_form(&moves);
        assert_eq!(written.length(TurnMetric::Stm), moves.len());
        assert_eq!(written.length(TurnMetric::Etm), moves.len(), "no rotation");
        // As held, the cube the moves reach, seen from where the slices turned it.
        let fixed = apply_moves(&start, &moves);
        let held = written.apply_held(CUBE3, &start).unwrap();
        assert!(
            rotations.iter().any(|&s| syms.conjugate(&fixed, s) == held),
            "{written}"
        );
        // A solution stays a solution.
        let scrambled = apply_moves(&CubieCube::SOLVED, &moves);
        let undo = held_form(&invert_moves(&moves));
        assert!(undo.apply_held(CUBE3, &scrambled).unwrap().is_solved());
    }
    // `M` is `R L'` with the centres fixed, and is written back as `M`.
    let m = Move { face: 7, turns: 1 };
    assert_eq!(m.to_string(), "R L'");
    assert_eq!(held_form(&[m]).to_string(), "M");
    assert_eq!(
        held_form(&parse_moves_with_slices("R L' U")).to_string(),
        "M F"
    );
    let e2 = Move { face: 6, turns: 2 };
    let s1 = Move { face: 8, turns: 1 };
    assert_eq!(
        (e2.to_string(), s1.to_string()),
        ("U2 D2".into(), "F' B".into())
    );
    // After `E2` the face `S` follows is at the back, so the slice turns as `B`: `S'`.
    assert_eq!(held_form(&[e2, s1]).to_string(), "E2 S'");
}

/// Face turns with each run of one axis merged into slices where it can be.
fn parse_moves_with_slices(text: &str) -> Vec<Move> {
    crate::cube::notation::with_slices(&parse_moves(text).unwrap())
}

#[test]
fn runs_of_one_axis_become_slices_where_they_can() {
    use crate::cube::notation::with_slices;
    let text = |moves: &[Move]| crate::cube::notation::format_moves(moves);
    assert_eq!(parse_moves_with_slices("R L'").len(), 1);
    assert_eq!(parse_moves_with_slices("L' R U D' F' B").len(), 3);
    assert_eq!(text(&parse_moves_with_slices("R L' R")), "R2 L'");
    assert!(parse_moves_with_slices("U D U' D'").is_empty());
    assert_eq!(text(&parse_moves_with_slices("U U D2 F")), "U2 D2 F");
    let mut rng = StdRng::seed_from_u64(13);
    for _ in 0..300 {
        let moves: Vec<Move> = (0..rng.gen_range(0..25))
            .map(|_| Move {
                face: rng.gen_range(0..6),
                turns: rng.gen_range(1..4),
            })
            .collect();
        let merged = with_slices(&moves);
        assert!(merged.len() <= moves.len());
        assert_eq!(
            apply_moves(&CubieCube::SOLVED, &merged),
            apply_moves(&CubieCube::SOLVED, &moves)
        );
        assert_eq!(with_slices(&merged), merged, "already as short as it gets");
    }
}
