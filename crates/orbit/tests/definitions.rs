//! Definition files: every kind of mistake gets one message naming where it is (a JSON path or
//! a line) and what is wrong; a good file reads the same from either format; ranks round-trip.

use godsearch_core::{RankedSpace, StateSpace};
use godsearch_orbit::{kpuzzle, tws, Format, OrbitSpace};

/// A two-orbit toy: 3 pieces of 3 orientations and 2 of 2.
fn kpuzzle_text(u_permutation: &str, u_orientation: &str, derived: &str) -> String {
    format!(
        r#"{{
  "name": "toy",
  "orbits": [
    {{"orbitName": "A", "numPieces": 3, "numOrientations": 3}},
    {{"orbitName": "B", "numPieces": 2, "numOrientations": 2}}
  ],
  "defaultPattern": {{
    "A": {{"pieces": [0, 1, 2], "orientation": [0, 0, 0]}},
    "B": {{"pieces": [0, 1], "orientation": [0, 0]}}
  }},
  "moves": {{
    "U": {{"A": {{"permutation": {u_permutation}, "orientationDelta": {u_orientation}}}}},
    "R": {{"B": {{"permutation": [1, 0], "orientationDelta": [0, 1]}}}}
  }},
  "derivedMoves": {{ {derived} }}
}}"#
    )
}

fn kpuzzle_error(text: &str) -> String {
    kpuzzle::read_definition(text).unwrap_err().to_string()
}

#[test]
fn each_kind_of_mistake_in_kpuzzle_json_is_named_with_its_path() {
    let good = kpuzzle_text("[1, 2, 0]", "[0, 1, 2]", r#""X": "[U: R]""#);
    let d = kpuzzle::read_definition(&good).unwrap();
    assert_eq!(d.move_names(), ["U", "R", "X"]);
    for (text, path, what) in [
        (
            kpuzzle_text("[1, 1, 0]", "[0, 0, 0]", ""),
            "moves.U.A.permutation",
            "not a permutation",
        ),
        (
            kpuzzle_text("[1, 2, 0]", "[0, 3, 0]", ""),
            "moves.U.A.orientationDelta",
            "orientation 3 is out of range",
        ),
        (
            kpuzzle_text("[1, 0]", "[0, 0]", ""),
            "moves.U.A.permutation",
            "2 entries, but orbit A has 3 pieces",
        ),
        (
            kpuzzle_text("[1, 2, 0]", "[0, 0, 0]", r#""X": "U Q""#),
            "derivedMoves.X",
            "unknown move 'Q'",
        ),
        (
            kpuzzle_text("[1, 2, 0]", "[0, 0, 0]", r#""X": "[U: R""#),
            "derivedMoves.X",
            "does not parse",
        ),
        (
            kpuzzle_text("[1, 2, 0]", "[0, 0, 0]", r#""X": "Y", "Y": "X""#),
            "derivedMoves.",
            "names itself",
        ),
        (
            kpuzzle_text("[1, 2, -1]", "[0, 0, 0]", ""),
            "moves.U.A.permutation[2]",
            "expected a whole number",
        ),
        (
            good.replace(r#""R": {"B""#, r#""R": {"C""#),
            "moves.R",
            "unknown orbit 'C'",
        ),
        (
            good.replace(r#""numPieces": 2"#, r#""numPieces": 0"#),
            "orbits[1]",
            "orbit B has 0 pieces",
        ),
        (
            good.replace(r#""numOrientations": 2"#, r#""numOrientations": 300"#),
            "orbits[1]",
            "orbit B has 300 orientations; an orbit has 1 to 127",
        ),
        (
            good.replace("\"moves\"", "\"movez\""),
            "(the file)",
            "missing field 'moves'",
        ),
        (good[..40].to_string(), "line ", "not valid JSON"),
    ] {
        let message = kpuzzle_error(&text);
        assert!(
            message.contains(path) && message.contains(what),
            "expected {path:?} and {what:?} in: {message}"
        );
        assert_eq!(message.lines().count(), 1, "{message}");
    }
}

/// A pattern may give `orientationMod` as cubing.js writes patterns: twists it knows more
/// finely than the puzzle counts them are taken modulo the puzzle's count; a pattern that knows
/// a twist less finely than the puzzle counts it is refused, as is a list of the wrong length.
#[test]
fn a_patterns_orientation_moduli_are_read_against_the_puzzles() {
    let plain = kpuzzle_text("[1, 2, 0]", "[0, 1, 2]", "");
    let solved_a = r#""A": {"pieces": [0, 1, 2], "orientation": [0, 0, 0]}"#;
    assert!(plain.contains(solved_a));
    let ignored = plain.replace(
        solved_a,
        r#""A": {"pieces": [0, 1, 2], "orientation": [0, 0, 0], "orientationMod": [1, 1, 1]}"#,
    );
    let plain = kpuzzle::read_definition(&plain).unwrap();
    let ignored = kpuzzle::read_definition(&ignored).unwrap();
    assert_eq!(ignored.orbits[0].orientations, 1);
    assert_eq!(plain.orbits[0].orientations, 3);
    let pattern = |moduli: &str| {
        format!(
            r#"{{"A": {{"pieces": [2, 0, 1], "orientation": [2, 1, 0]{moduli}}}, "B": {{"pieces": [1, 0], "orientation": [1, 1]}}}}"#
        )
    };
    for moduli in [
        r#", "orientationMod": [1, 1, 1]"#,
        r#", "orientationMod": [0, 0, 0]"#,
    ] {
        let read = kpuzzle::read_pattern(&pattern(moduli), &ignored).unwrap();
        assert_eq!(read.orbits[0].pieces, [2, 0, 1]);
        assert_eq!(read.orbits[0].orientation, [0, 0, 0]);
        assert_eq!(read.orbits[1].orientation, [1, 1]);
    }
    let finer = kpuzzle::read_pattern(&pattern(r#", "orientationMod": [0, 3, 0]"#), &plain);
    assert_eq!(finer.unwrap().orbits[0].orientation, [2, 1, 0]);
    for (moduli, what) in [
        (
            r#", "orientationMod": [1, 1, 1]"#,
            "may not know less of a twist",
        ),
        (
            r#", "orientationMod": [0, 0]"#,
            "2 entries, but orbit A has 3 pieces",
        ),
    ] {
        let message = kpuzzle::read_pattern(&pattern(moduli), &plain)
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("(the pattern).A.orientationMod") && message.contains(what),
            "{message}"
        );
    }
}

const TWS: &str = "# a toy\nName toy\nSet A 3 3\nSet B 2 2\n\nSolved\nA\n1 2 3\nB\n1 2\nEnd\n\nMove U\nA\n2 3 1\n0 1 2\nEnd\n\nMove R\nB\n2 1\n1 0\nEnd\n\nMoveSequence X [U: R]\n";

#[test]
fn each_kind_of_mistake_in_a_tws_file_is_named_with_its_line() {
    let d = tws::read_definition(TWS).unwrap();
    assert_eq!(d.move_names(), ["U", "R", "X"]);
    for (text, at, what) in [
        (
            TWS.replace("2 3 1\n", "2 2 1\n"),
            "line 15",
            "not a permutation",
        ),
        (
            TWS.replace("0 1 2\n", "0 1 5\n"),
            "line 16",
            "orientation 5 is out of range",
        ),
        (
            TWS.replace("2 3 1\n", "2 3\n"),
            "line 15",
            "2 entries, but orbit A has 3 pieces",
        ),
        (
            TWS.replace("[U: R]", "[U: Q]"),
            "line 25",
            "unknown move 'Q'",
        ),
        (
            TWS.replace("Move R\nB", "Move R\nC"),
            "line 20",
            "unknown orbit 'C'",
        ),
        (
            TWS.replace("Set B 2 2", "Set B 2"),
            "line 4",
            "takes 3 words",
        ),
        (
            TWS.replace("End\n\nMove R", "\nMove R"),
            "line",
            "expected an orbit name or numbers",
        ),
        (
            TWS.replace("Set B 2 2", "Set B 2 300"),
            "line 4",
            "orbit B has 300 orientations; an orbit has 1 to 127",
        ),
        (
            TWS.replace("Set A 3 3", "Set A 70000 3"),
            "line 3",
            "orbit A has 70000 pieces; an orbit has 1 to 255",
        ),
        (
            TWS.replace("Name toy", "Illegal toy"),
            "line 2",
            "not a .tws statement",
        ),
    ] {
        let message = tws::read_definition(&text).unwrap_err().to_string();
        assert!(
            message.contains(at) && message.contains(what),
            "expected {at:?} and {what:?} in: {message}"
        );
    }
}

#[test]
fn ksolve_moves_and_kpuzzle_moves_mean_the_same() {
    // The tws toy's U lists twists by the slot a piece leaves; in KPuzzle terms slot i receives
    // the piece of slot permutation[i] with that slot's twist.
    let from_tws = tws::read_definition(TWS).unwrap();
    let from_json =
        kpuzzle::read_definition(&kpuzzle_text("[1, 2, 0]", "[1, 2, 0]", r#""X": "[U: R]""#))
            .unwrap();
    assert_eq!(from_tws.moves, from_json.moves);
    assert_eq!(from_tws.solved, from_json.solved);
    assert_eq!(Format::of_name("x.kpuzzle.json"), Some(Format::KPuzzle));
    assert_eq!(Format::of_name("x.TWS"), Some(Format::Tws));
}

#[test]
fn ranks_round_trip_and_neighbours_undo_each_other() {
    let d = kpuzzle::read_definition(&kpuzzle_text("[1, 2, 0]", "[0, 1, 2]", "")).unwrap();
    let space = OrbitSpace::<u64>::new(&d, &[], false).unwrap();
    for rank in 0..space.state_count() as u64 {
        let pattern = space.pattern_of(rank);
        assert_eq!(space.rank_pattern(&pattern), Some(rank));
        space.for_each_neighbour(rank, |m, next| {
            let mut back = None;
            space.for_each_neighbour(next, |n, prev| {
                if n == space.inverse_move(m) {
                    back = Some(prev);
                }
            });
            assert_eq!(back, Some(rank));
        });
    }
    // Unknown generators and moves that change nothing are refused.
    assert!(OrbitSpace::<u64>::new(&d, &["Q".into()], false)
        .unwrap_err()
        .to_string()
        .contains("unknown move 'Q'"));
}

/// A generator may be a power of a file's move (`R2` generates R's half turns only, as the
/// squares group takes them); its moves are named as powers of the file's move, so solutions
/// read back over the file's moves. A power that changes nothing, or more than one move, is
/// refused.
#[test]
fn a_generator_may_be_a_power_of_a_move() {
    let d = kpuzzle::read_definition(&kpuzzle_text("[1, 2, 0]", "[0, 1, 2]", "")).unwrap();
    let names = |generators: &[&str]| {
        let generators: Vec<String> = generators.iter().map(|g| g.to_string()).collect();
        let space = OrbitSpace::<u64>::new(&d, &generators, false).unwrap();
        let moves: Vec<String> = (0..space.move_count())
            .map(|m| space.move_name(m as u8))
            .collect();
        (moves, space.state_count())
    };
    // R turns B's two pieces with a twist: order 4. Its half turn twists both, order 2.
    let (all, whole) = names(&["R"]);
    assert_eq!(all, ["R", "R2", "R'"]);
    let (half, halves) = names(&["R2"]);
    assert_eq!(half, ["R2"]);
    assert!(halves < whole);
    assert_eq!(
        names(&["R'"]),
        (vec!["R'".into(), "R2".into(), "R".into()], whole)
    );
    // U, a 3-cycle: its square generates it all, named U' then U.
    assert_eq!(names(&["U2", "R"]).0, ["U'", "U", "R", "R2", "R'"]);
    let refused = |g: &str| {
        OrbitSpace::<u64>::new(&d, &[g.to_string()], false)
            .unwrap_err()
            .to_string()
    };
    assert!(refused("R4").contains("'R4'"), "{}", refused("R4"));
    assert!(refused("U3").contains("'U3'"), "{}", refused("U3"));
    assert!(refused("R U").contains("unknown move 'R U'"));
    assert!(refused("R2x").contains("unknown move 'R2x'"));
}

mod never_panic {
    use super::*;
    use proptest::prelude::*;

    /// The toy files with one character replaced, or cut short.
    fn mutated(original: String) -> impl Strategy<Value = String> {
        let len = original.len();
        (0..len, any::<char>(), any::<bool>()).prop_map(move |(at, c, cut)| {
            let mut chars: Vec<char> = original.chars().collect();
            let at = at.min(chars.len().saturating_sub(1));
            if cut {
                chars.truncate(at);
            } else {
                chars[at] = c;
            }
            chars.into_iter().collect()
        })
    }

    fn exercise(text: &str) {
        for read in [kpuzzle::read_definition, tws::read_definition] {
            let Ok(definition) = read(text) else { continue };
            if let Ok(space) = OrbitSpace::<u64>::new(&definition, &[], false) {
                let goal = space.goal_state();
                assert_eq!(space.rank_pattern(&space.pattern_of(goal)), Some(goal));
                space.for_each_neighbour(goal, |_, _| {});
            }
        }
    }

    proptest! {
        #[test]
        fn any_text_is_read_or_refused(text in ".{0,300}") {
            exercise(&text);
        }

        #[test]
        fn a_damaged_kpuzzle_file_is_read_or_refused(
            text in mutated(kpuzzle_text("[1, 2, 0]", "[0, 1, 2]", r#""X": "[U: R]""#))
        ) {
            exercise(&text);
        }

        #[test]
        fn a_damaged_tws_file_is_read_or_refused(text in mutated(TWS.to_string())) {
            exercise(&text);
        }
    }
}

/// Found by the fuzz target: an orientation coordinate too large for a move table (six
/// orientations on eight corners: 1.7 M values, 30 M entries with 18 moves) is moved without one.
#[test]
fn an_orientation_coordinate_without_a_move_table_still_moves() {
    let text = include_str!("../../../data/definitions/2x2x2.kpuzzle.json")
        .replace("\"numOrientations\": 3", "\"numOrientations\": 6");
    let d = kpuzzle::read_definition(&text).unwrap();
    let space = OrbitSpace::<u64>::new(&d, &[], false).unwrap();
    let mut state = space.goal_state();
    for step in 0..20 {
        let mut next = None;
        space.for_each_neighbour(state, |m, n| {
            let mut back = None;
            space.for_each_neighbour(n, |k, prev| {
                if k == space.inverse_move(m) {
                    back = Some(prev);
                }
            });
            assert_eq!(back, Some(state));
            if m as usize == step % space.move_count() {
                next = Some(n);
            }
        });
        state = next.unwrap();
        assert_eq!(space.rank_pattern(&space.pattern_of(state)), Some(state));
    }
}
