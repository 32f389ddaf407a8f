//! The cube commands as a user meets them: enumeration against the published counts, optimal
//! 2x2x2 and two-phase 3x3x3 solutions checked by replay, scrambles, and every invalid cube
//! refused with one line and exit code 2.

use crate::common;

use common::{godsearch, json, json_lines, levels_of, refused, stderr, stdout};
use godsearch::puzzles::cube::algorithm::parse_moves;
use godsearch::puzzles::cube::notation::apply_moves;
use godsearch::puzzles::cube::{
    facelet, Algorithm, Cube2Space, CubieCube, Metric, TurnMetric, CUBE3,
};
use godsearch_testdata::{levels, rows};

const SUPERFLIP: &str = "UBULURUFURURFRBRDRFUFLFRFDFDFDLDRDBDLULBLFLDLBUBRBLBDB";
/// The superflip as moves (20, optimal).
const SUPERFLIP_MOVES: &str = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";

#[test]
fn two_by_two_enumeration_matches_the_published_counts_in_both_metrics() {
    for (metric, file, diameter) in [
        ("htm", "cube2x2x2-htm.txt", 11),
        ("qtm", "cube2x2x2-qtm.txt", 14),
    ] {
        let v = json(&["bfs", "2x2x2", "--metric", metric, "--json"]);
        assert_eq!(levels_of(&v), levels(file), "{metric}");
        assert_eq!(v["diameter"], diameter);
        assert_eq!(v["total"], 3_674_160);
        assert_eq!(v["complete"], true);
    }
    // The 276 quarter-turn antipodes are printed as optimal scrambles of 14 quarter turns.
    let v = json(&[
        "bfs",
        "cube2",
        "--metric",
        "qtm",
        "--json",
        "--show-antipodes",
        "300",
    ]);
    let antipodes = v["antipodes"].as_array().unwrap();
    assert_eq!(antipodes.len(), 276);
    let space = Cube2Space::new(Metric::Qtm);
    for a in antipodes {
        let moves = parse_moves(a.as_str().unwrap()).unwrap();
        assert_eq!(Metric::Qtm.length(&moves), 14);
        let _ = space.rank(&apply_moves(&CubieCube::SOLVED, &moves));
    }
}

#[test]
fn two_by_two_solutions_are_optimal_from_a_saved_table_or_memory() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("cube2.tbl");
    let table_arg = table.to_str().unwrap();
    let out = godsearch(&["bfs", "2x2x2", "--save", table_arg]);
    assert!(out.status.success(), "{}", stderr(&out));
    let scramble = "R U F' D L2 B R' U2";
    let from_table = json(&[
        "solve", "2x2x2", "--table", table_arg, "--moves", scramble, "--json",
    ]);
    let in_memory = json(&["solve", "2x2x2", "--moves", scramble, "--json"]);
    assert_eq!(from_table["length"], in_memory["length"]);
    assert_eq!(from_table["optimal"], true);
    assert!(from_table["length"].as_u64().unwrap() <= 8);
    let start = apply_moves(&CubieCube::SOLVED, &parse_moves(scramble).unwrap());
    let solution = parse_moves(from_table["solution"].as_str().unwrap()).unwrap();
    let space = Cube2Space::new(Metric::Htm);
    assert_eq!(
        space.rank(&apply_moves(&start, &solution)),
        space.rank(&CubieCube::SOLVED)
    );
    // The same position as 24 stickers, in colour letters.
    let stickers: String = facelet::format_pocket(&start)
        .chars()
        .map(|c| "wrgyob".chars().nth("URFDLB".find(c).unwrap()).unwrap())
        .collect();
    let v = json(&["solve", "2x2x2", &stickers, "--json"]);
    assert_eq!(v["length"], in_memory["length"]);
    // A quarter-turn table is not a half-turn table.
    let qtm = dir.path().join("qtm.tbl");
    let out = godsearch(&[
        "bfs",
        "2x2x2",
        "--metric",
        "qtm",
        "--save",
        qtm.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let out = godsearch(&[
        "solve",
        "2x2x2",
        "--table",
        qtm.to_str().unwrap(),
        "--moves",
        "R",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("metric qtm"), "{}", stderr(&out));
}

#[test]
fn three_by_three_levels_and_classes_match_the_published_counts() {
    let data = rows("cube3x3x3-htm.txt");
    let v = json(&["bfs", "3x3x3", "--max-depth", "6", "--json"]);
    let positions = levels_of(&v);
    let classes: Vec<u64> = v["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(positions.len(), 7);
    for d in 0..7 {
        assert_eq!(positions[d].to_string(), data[d][1]);
        assert_eq!(classes[d].to_string(), data[d][2]);
    }
    assert_eq!(v["complete"], false);
    let q = json(&[
        "bfs",
        "cube",
        "--metric",
        "qtm",
        "--max-depth",
        "6",
        "--json",
    ]);
    assert_eq!(levels_of(&q), levels("cube3x3x3-qtm.txt")[..7].to_vec());
    // Classes under the symmetries and inversion (96), against the published column.
    let q96 = json(&[
        "bfs",
        "3x3x3",
        "--metric",
        "qtm",
        "--symmetry",
        "96",
        "--max-depth",
        "7",
        "--json",
    ]);
    let qtm = rows("cube3x3x3-qtm.txt");
    for (d, c) in q96["classes"].as_array().unwrap().iter().enumerate() {
        assert_eq!(
            c.as_u64().unwrap().to_string(),
            qtm[d][3],
            "classes mod 96 at {d}"
        );
    }
    assert_eq!(levels_of(&q96), levels("cube3x3x3-qtm.txt")[..8].to_vec());
    assert_eq!(q96["class_group"], 96);
    // A memory budget too small for the next level stops cleanly with exact counts.
    let v = json(&["bfs", "3x3x3", "--memory", "1M", "--json"]);
    assert!(v["stopped"].as_str().unwrap().contains("did not fit"));
    assert_eq!(levels_of(&v)[..4], [1, 18, 243, 3240]);
}

fn replay(start_facelets: &str, solution: &str) -> CubieCube {
    let start = facelet::parse(start_facelets).unwrap();
    apply_moves(&start, &parse_moves(solution).unwrap())
}

#[test]
fn two_phase_solutions_are_short_and_solve_the_cube() {
    // The tests' shared cache: the two-phase tables are built once for every test (building
    // and its notice are checked on the optimal solver's table, which builds in seconds).
    let dir = tempfile::tempdir().unwrap();
    let out = godsearch(&["solve", "3x3x3", "--facelets", SUPERFLIP, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().next().unwrap()).unwrap();
    assert!(v["length"].as_u64().unwrap() <= 20);
    assert!(replay(SUPERFLIP, v["solution"].as_str().unwrap()).is_solved());
    // Later runs read them back without a word.
    let out = godsearch(&["solve", "cube", "--moves", "R U R' U'"]);
    assert!(out.status.success());
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    // Scrambles reach the positions they print, and solve back.
    let scrambles = json_lines(&[
        "scramble", "3x3x3", "--count", "5", "--seed", "11", "--json",
    ]);
    let file = dir.path().join("cubes.txt");
    let mut lines = String::from("# five random cubes\n");
    for s in &scrambles {
        let position = s["position"].as_str().unwrap();
        let moves = parse_moves(s["scramble"].as_str().unwrap()).unwrap();
        assert!(moves.len() <= 20);
        assert_eq!(
            facelet::format(&apply_moves(&CubieCube::SOLVED, &moves)),
            position
        );
        lines.push_str(position);
        lines.push('\n');
    }
    std::fs::write(&file, lines).unwrap();
    let results = json_lines(&[
        "solve",
        "3x3x3",
        "--file",
        file.to_str().unwrap(),
        "--facelets",
        "--json",
        "--max-length",
        "21",
    ]);
    assert_eq!(results.len(), 6);
    for r in &results[..5] {
        assert!(r["length"].as_u64().unwrap() <= 21);
        assert!(replay(
            r["facelets"].as_str().unwrap(),
            r["solution"].as_str().unwrap()
        )
        .is_solved());
    }
    assert_eq!(results[5]["summary"], true);
    assert_eq!(results[5]["solved"], 5);
    // The same seed gives the same scrambles.
    let again = json_lines(&[
        "scramble", "3x3x3", "--count", "5", "--seed", "11", "--json",
    ]);
    assert_eq!(again, scrambles);
    // An optimal search cut short by --timeout gives the two-phase solution and the bound it
    // proved.
    let v = &json_lines(&[
        "solve",
        "3x3x3",
        "--optimal",
        "--table-size",
        "small",
        "--json",
        "--timeout",
        "0.01",
        "--moves",
        SUPERFLIP_MOVES,
    ])[0];
    assert_eq!(
        (v["optimal"].as_bool(), v["timed_out"].as_bool()),
        (Some(false), Some(true))
    );
    assert!(v["lower_bound"].as_u64().unwrap() <= 20);
    assert!(v["length"].as_u64().unwrap() <= 20);
    assert!(replay(
        v["facelets"].as_str().unwrap(),
        v["solution"].as_str().unwrap()
    )
    .is_solved());
}

#[test]
fn move_scrambles_have_no_trivial_cancellations() {
    for puzzle in ["3x3x3", "2x2x2"] {
        let v = json(&["scramble", puzzle, "--moves", "30", "--seed", "3", "--json"]);
        let moves = parse_moves(v["scramble"].as_str().unwrap()).unwrap();
        assert_eq!(moves.len(), 30);
        for pair in moves.windows(2) {
            assert_ne!(pair[0].face, pair[1].face);
            assert_ne!(
                pair[0].face,
                pair[1].face + 3,
                "opposite faces in one order only"
            );
        }
    }
    let boards = json_lines(&["scramble", "4x4", "--count", "3", "--seed", "5", "--json"]);
    assert_eq!(boards.len(), 3);
    for b in &boards {
        let out = godsearch(&[
            "solve",
            "4x4",
            b["position"].as_str().unwrap(),
            "--algorithm",
            "subgoal",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
}

#[test]
fn invalid_cubes_and_options_are_refused_with_the_reason() {
    let solved = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
    let with = |i: usize, c: char| {
        let mut s: Vec<char> = solved.chars().collect();
        s[i] = c;
        s.into_iter().collect::<String>()
    };
    let swap = |pairs: &[(usize, usize)]| {
        let mut s: Vec<char> = solved.chars().collect();
        for &(i, j) in pairs {
            s.swap(i, j);
        }
        s.into_iter().collect::<String>()
    };
    // Each case is refused before any table is built (no --cache needed).
    refused(&["solve", "3x3x3", "--moves", "R U X"], "unknown move 'X'");
    let facelets = |text: &str, needle: &str| {
        refused(&["solve", "3x3x3", "--facelets", text], needle);
        // Face-letter stickers are move letters too: without --facelets, a string of 54 of
        // them in six kinds is refused as ambiguous rather than guessed.
        if text.chars().count() == 54 {
            refused(
                &["solve", "3x3x3", text],
                "say which with --facelets or --moves",
            );
        }
    };
    facelets("UUUUUUUUURRRRRRRRRFFFFFFFFF", "this one has 27");
    refused(
        &["solve", "3x3x3", "R U2 Q"],
        "neither a facelet string (it has 4 characters, 4 distinct",
    );
    facelets(&format!("{solved}U"), "54 stickers");
    facelets(&with(0, 'R'), "not 9");
    facelets(&swap(&[(8, 9), (9, 20)]), "twisted");
    facelets(&swap(&[(5, 10)]), "flipped");
    facelets(&swap(&[(10, 19)]), "parity");
    facelets(&swap(&[(3, 10)]), "no edge cubie has");
    facelets(&swap(&[(8, 35)]), "no corner cubie has");
    refused(
        &["solve", "2x2x2", "--facelets", "UUUURRRRFFFFDDDDLLLLBBBX"],
        "not a 2x2x2",
    );
    refused(
        &["solve", "2x2x2", "UUUURRRRFFFFDDDDLLLLBBBX"],
        "24 characters, 7 distinct",
    );
    refused(
        &["solve", "2x2x2", "--optimal", "--table-size", "1gb", "R U"],
        "--table-size is for the 3x3x3's optimal solver",
    );
    refused(&["bfs", "2x2x2", "--metric", "xtm"], "unknown metric");
    refused(&["bfs", "3x3x3", "--symmetry", "12"], "--symmetry is 48");
    refused(
        &["bfs", "2x2x2", "--symmetry", "96"],
        "--symmetry is for the 3x3x3",
    );
    refused(
        &["bfs", "3x3x3", "--save", "x.tbl"],
        "no table of them fits",
    );
    refused(
        &["bfs", "3x3x3", "--goal", "1,2,3"],
        "--goal is for sliding-tile boards",
    );
    refused(
        &["solve", "3x3x3", "--moves", "R", "--pdb", "7-8"],
        "--pdb is for sliding-tile boards",
    );
    refused(
        &["solve", "3x3x3", "--moves", "R", "--table", "x.tbl"],
        "--table is for the 2x2x2",
    );
    refused(
        &["solve", "2x2x2", "--moves", "R", "--algorithm", "ida"],
        "table descent",
    );
    refused(&["solve", "3x3", "--moves", "R"], "--moves is for cubes");
    refused(
        &["solve", "3x3", "123456780", "--metric", "qtm"],
        "--metric is for cubes",
    );
    refused(
        &["pdb", "build", "3x3x3", "--pdb", "7-8"],
        "pattern databases are built ahead for sliding-tile boards",
    );
}

#[test]
fn the_class_column_names_the_symmetries_used() {
    for (symmetry, header) in [
        ("48", "classes (48 symmetries)"),
        ("96", "classes (96 symmetries)"),
    ] {
        let out = godsearch(&["bfs", "3x3x3", "--symmetry", symmetry, "--max-depth", "3"]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stdout(&out).contains(header), "{}", stdout(&out));
    }
}

#[test]
fn pocket_cube_half_depth_equals_the_table() {
    let scrambles = [
        "R U F' D L2 B R' U2 F",
        "F R U R' U' F'",
        "R2 F2 R2 U2 R2 F2",
        "U R2 F' D B L' U2 R F2 D'",
    ];
    for metric in ["htm", "qtm"] {
        for s in scrambles {
            let table = json(&["solve", "2x2x2", "--metric", metric, "--moves", s, "--json"]);
            let half = json(&[
                "solve",
                "2x2x2",
                "--metric",
                metric,
                "--moves",
                s,
                "--json",
                "--algorithm",
                "half-depth",
            ]);
            assert_eq!(half["length"], table["length"], "{metric} {s}");
            assert_eq!(half["algorithm"], "half-depth");
            assert_eq!(half["optimal"], true);
        }
    }
    // Beyond twice the depth: reported with its bound, exit 1 (as for boards).
    let out = godsearch(&[
        "solve",
        "2x2x2",
        "--algorithm",
        "half-depth",
        "--depth",
        "2",
        "--moves",
        "R U F' D L2 B R' U2 F",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("at least 5 moves"),
        "{}",
        stdout(&out)
    );
    refused(
        &["solve", "3x3x3", "--depth", "3", "--moves", "R"],
        "--depth",
    );
    // At --timeout the 3x3x3's half-depth search gives the bound it proved, and exit code 1.
    let out = godsearch(&[
        "solve",
        "3x3x3",
        "--algorithm",
        "half-depth",
        "--depth",
        "6",
        "--timeout",
        "0.3",
        "--json",
        "--moves",
        "R U F D L B R' U' F2 D2 L' B2 R2 U F",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value =
        serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
    assert_eq!(report["timed_out"], true);
    assert_eq!(report["solution"], "");
    let bound = report["lower_bound"].as_u64().unwrap();
    assert!((7..=15).contains(&bound), "{report}");
    assert!(report["nodes_expanded"].as_u64().unwrap() > 0);
    assert!(stderr(&out).contains("were left unsolved by --timeout"));
}

#[test]
fn quarter_turn_solutions_write_half_turns_once_and_moves_only_pipes() {
    let q = json(&["solve", "2x2x2", "R2 U2 F2", "--metric", "qtm", "--json"]);
    assert_eq!(
        (q["solution"].as_str(), q["length"].as_u64()),
        (Some("F2 U2 R2"), Some(6))
    );
    let out = godsearch(&["solve", "2x2x2", "R U", "x y", "--moves-only"]);
    assert_eq!(stdout(&out), "U' R'\n\n");
    refused(
        &["solve", "2x2x2", "R", "--moves-only", "--json"],
        "cannot be used with",
    );
    // --optimal: the 2x2x2's solutions are optimal already.
    let o = json(&["solve", "2x2x2", "R U F", "--optimal", "--json"]);
    assert_eq!(
        (o["optimal"].as_bool(), o["length"].as_u64()),
        (Some(true), Some(3))
    );
}

#[test]
fn optimal_three_by_three_solutions_are_proven_replayed_and_listed() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().to_str().unwrap();
    let base = [
        "solve",
        "3x3x3",
        "--optimal",
        "--table-size",
        "small",
        "--cache",
        cache,
    ];
    let optimal = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.push("--json");
        args.extend_from_slice(extra);
        json_lines(&args)
    };
    // The first solve builds the table into the cache and says so on stderr; later ones read
    // it back without a word.
    let out = godsearch(&[&base[..], &["R U"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("built the optimal solver's htm small table"),
        "{}",
        stderr(&out)
    );
    let out = godsearch(&[&base[..], &["R U2"]].concat());
    assert!(
        out.status.success() && stderr(&out).is_empty(),
        "{}",
        stderr(&out)
    );
    // Ten moves from solved, and shorter than its scramble once two moves cancel.
    for (scramble, length) in [("R U F' D2 L B' U2 R' F D", 10), ("R U R' R F2", 3)] {
        let v = &optimal(&[scramble])[0];
        assert_eq!(v["optimal"], true, "{v}");
        assert_eq!(v["algorithm"], "ida");
        assert_eq!(v["length"], length, "{scramble}");
        assert_eq!(v["lower_bound"], length);
        assert!(replay(
            v["facelets"].as_str().unwrap(),
            v["solution"].as_str().unwrap()
        )
        .is_solved());
    }
    // --all: every canonical optimal solution, each replayed; R and L commute, so R L' and
    // its inverse have one canonical solution, and a conjugate more.
    let v = &optimal(&["--all", "R U2 R' F2"])[0];
    let all = v["all_solutions"].as_array().unwrap();
    assert_eq!(all[0], v["solution"]);
    for s in all {
        let moves = s.as_str().unwrap();
        assert!(replay(v["facelets"].as_str().unwrap(), moves).is_solved());
        assert_eq!(parse_moves(moves).unwrap().len(), 4);
    }
    // (A search cut short by --timeout is in the two-phase test: it falls back on those tables.)
    // The human form says what was proven.
    let out = godsearch(&[&base[..], &["F2 U' R"]].concat());
    assert!(
        stdout(&out).contains("3 htm (proven optimal; replayed to solved)"),
        "{}",
        stdout(&out)
    );
    assert!(!stdout(&out).contains("symmetry"));
    // A pattern every symmetry keeps: proven all the same, and said.
    let v = &optimal(&["U2 D2 F2 B2 L2 R2"])[0];
    assert_eq!(
        (v["length"].as_u64(), v["position_symmetries"].as_u64()),
        (Some(6), Some(48))
    );
    let out = godsearch(&[&base[..], &["U2 D2 F2 B2 L2 R2"]].concat());
    assert!(
        stdout(&out).contains("48 of the cube's 48 symmetries keep the position"),
        "{}",
        stdout(&out)
    );
    // A known solution of the optimal length is proven without searching its length; a
    // longer one is beaten. (`R L R' L'` is a detour of four commuting turns.)
    let scramble = "R U F' D2 L B' U2 R' F D";
    let inverse = "D' F' R U2 B L' D2 F U' R'";
    let v = &optimal(&["--known-solution", inverse, scramble])[0];
    assert_eq!(
        (v["known_solution"].as_bool(), v["optimal"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(
        (v["length"].as_u64(), v["lower_bound"].as_u64()),
        (Some(10), Some(10))
    );
    assert_eq!(v["solution"], inverse);
    let v = &optimal(&["--known-solution", "R L R' L' R' U F2", "F2 U' R"])[0];
    assert_eq!(
        (v["known_solution"].as_bool(), v["length"].as_u64()),
        (Some(false), Some(3))
    );
    let out = godsearch(&[&base[..], &["--known-solution", inverse, scramble]].concat());
    assert!(
        stdout(&out).contains("10 htm (proven optimal: the known solution, every shorter bound searched; replayed to solved)"),
        "{}",
        stdout(&out)
    );
    // verify --prove takes a claim in face turns as the search's known solution: proven or
    // beaten as above.
    for (start, claim, optimal, shortest) in [
        (scramble, inverse, true, 10),
        ("F2 U' R", "R L R' L' R' U F2", false, 3),
    ] {
        let v = json(&[
            "verify",
            "3x3x3",
            start,
            claim,
            "--prove",
            "--table-size",
            "small",
            "--cache",
            cache,
            "--json",
        ]);
        assert_eq!(
            (v["optimal"].as_bool(), v["shortest"].as_u64()),
            (Some(optimal), Some(shortest)),
            "{v}"
        );
    }
    // In quarter turns: a half turn counts two and is written once.
    let q = &optimal(&["--metric", "qtm", "F2 U"])[0];
    assert_eq!(
        (
            q["solution"].as_str(),
            q["length"].as_u64(),
            q["metric"].as_str()
        ),
        (Some("U' F2"), Some(3), Some("qtm"))
    );
    assert_eq!(q["optimal"], true);
    // The tables are cached under their size and metric.
    let listing = stdout(&godsearch(&["cache", "list", "--cache", cache]));
    for metric in ["htm", "qtm"] {
        let identity = format!("cube 3x3x3 optimal {metric} small");
        assert!(
            listing
                .lines()
                .any(|l| l.starts_with("optimal table") && l.contains(&identity)),
            "{listing}"
        );
    }
    // A damaged table file is rebuilt, never trusted. (The two-phase tables are loaded by the
    // same code; this table rebuilds in seconds, theirs in half a minute.)
    let table = dir.path().join("optimal-3x3x3-htm-small.tbl");
    let mut bytes = std::fs::read(&table).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xFF;
    std::fs::write(&table, bytes).unwrap();
    let out = godsearch(&[&base[..], &["F R"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("replacing a cached file"),
        "{}",
        stderr(&out)
    );
    // What the solver cannot do is refused with the reason.
    for (args, reason) in [
        (
            &["--max-length", "18", "R"][..],
            "--max-length is for two-phase",
        ),
        (&["--algorithm", "two-phase", "R"][..], "IDA*"),
    ] {
        let mut all = vec!["solve", "3x3x3", "--optimal", "--cache", cache];
        all.extend_from_slice(args);
        refused(&all, reason);
    }
    refused(
        &["solve", "3x3x3", "--optimal", "--table-size", "huge", "R"],
        "unknown --table-size 'huge': expected small, 300mb, 1gb or 8gb",
    );
    refused(&["solve", "3x3x3", "--all", "R"], "--optimal");
    // A known solution must solve its one position, in face turns.
    for (args, reason) in [
        (
            &["--known-solution", "R U", "R"][..],
            "the known solution does not solve the position",
        ),
        (
            &["--known-solution", "R'", "R", "U"][..],
            "--known-solution solves one position, and 2 were given",
        ),
        (&["--known-solution", "M", "R"][..], "--known-solution 'M'"),
    ] {
        refused(&[&base[..], args].concat(), reason);
    }
    refused(
        &["solve", "3x3x3", "--known-solution", "R'", "R"],
        "--optimal",
    );
}

/// The cube `moves` (any algorithm: slices turn the cube) leaves `start_facelets` in, as held.
fn replay_held(start_facelets: &str, moves: &str) -> CubieCube {
    let start = facelet::parse(start_facelets).unwrap();
    Algorithm::parse(moves)
        .unwrap()
        .apply_held(CUBE3, &start)
        .unwrap()
}

#[test]
fn the_slice_turn_metric_is_enumerated_solved_proven_and_scrambled() {
    // Positions and classes (48 and 96 maps) against Rokicki's published slice-turn counts;
    // etm has the same distances; on the 2x2x2, which has no middle layer, stm is htm.
    let data = rows("cube3x3x3-stm.txt");
    for (symmetry, column) in [("48", 2), ("96", 3)] {
        let v = json(&[
            "bfs",
            "3x3x3",
            "--metric",
            "stm",
            "--symmetry",
            symmetry,
            "--max-depth",
            "5",
            "--json",
        ]);
        assert_eq!(v["metric"], "stm");
        for (d, row) in data.iter().take(6).enumerate() {
            assert_eq!(levels_of(&v)[d].to_string(), row[1], "positions at {d}");
            assert_eq!(v["classes"][d].to_string(), row[column], "classes at {d}");
        }
    }
    let etm = json(&[
        "bfs",
        "3x3x3",
        "--metric",
        "etm",
        "--max-depth",
        "3",
        "--json",
    ]);
    assert_eq!(levels_of(&etm), [1, 27, 501, 9175]);
    let pocket = json(&["bfs", "2x2x2", "--metric", "stm", "--json"]);
    assert_eq!(levels_of(&pocket), levels("cube2x2x2-htm.txt"));

    // Solved optimally in slice turns and written with slices: the H permutation is 7. (Its
    // table is read from the tests' shared cache, or built there once.)
    let h = "M2 U M2 U2 M2 U M2";
    let optimal = &json_lines(&[
        "solve",
        "3x3x3",
        "--metric",
        "stm",
        "--optimal",
        "--table-size",
        "small",
        "--json",
        h,
    ])[0];
    assert_eq!(
        (optimal["length"].as_u64(), optimal["optimal"].as_bool()),
        (Some(7), Some(true)),
        "{optimal}"
    );
    let solution = optimal["solution"].as_str().unwrap();
    let written = Algorithm::parse(solution).unwrap();
    assert_eq!(written.length(TurnMetric::Stm), 7);
    assert!(
        written.face_turns().is_none(),
        "slices written as slices: {solution}"
    );
    let facelets = optimal["facelets"].as_str().unwrap();
    assert!(replay_held(facelets, solution).is_solved());
    // Two-phase in stm: face turns, runs of one axis merged into slices; never longer.
    let fast = json(&["solve", "3x3x3", "--metric", "stm", "--json", h]);
    let fast_solution = fast["solution"].as_str().unwrap();
    assert!(replay_held(facelets, fast_solution).is_solved());
    assert!(fast["length"].as_u64().unwrap() >= 7);
    assert_eq!(
        Algorithm::parse(fast_solution)
            .unwrap()
            .length(TurnMetric::Stm) as u64,
        fast["length"].as_u64().unwrap()
    );

    // verify --prove: 7 slice turns are optimal in stm; in htm the same moves are 11 and the
    // shortest is 10.
    let prove = |metric: &str| {
        json(&[
            "verify",
            "3x3x3",
            h,
            "M2 U' M2 U2 M2 U' M2",
            "--metric",
            metric,
            "--prove",
            "--table-size",
            "small",
            "--json",
        ])
    };
    let stm = prove("stm");
    assert_eq!(
        (stm["optimal"].as_bool(), stm["shortest"].as_u64()),
        (Some(true), Some(7))
    );
    let htm = prove("htm");
    assert_eq!(
        (
            htm["optimal"].as_bool(),
            htm["length"].as_u64(),
            htm["shortest"].as_u64()
        ),
        (Some(false), Some(11), Some(10))
    );

    // An stm scramble is written with slices and reaches the position printed, as held.
    for s in json_lines(&[
        "scramble", "3x3x3", "--metric", "stm", "--moves", "15", "--count", "5", "--seed", "4",
        "--format", "json",
    ]) {
        let text = s["scramble"].as_str().unwrap();
        assert_eq!(Algorithm::parse(text).unwrap().length(TurnMetric::Stm), 15);
        let reached = Algorithm::parse(text)
            .unwrap()
            .apply_held(CUBE3, &CubieCube::SOLVED)
            .unwrap();
        assert_eq!(facelet::format(&reached), s["position"].as_str().unwrap());
    }
    // A uniform random cube's stm scramble: two-phase, inverted, runs merged into slices.
    let s = json(&[
        "scramble", "3x3x3", "--metric", "stm", "--seed", "4", "--format", "json",
    ]);
    let text = s["scramble"].as_str().unwrap();
    assert!(s["length"].as_u64().unwrap() <= 20);
    let reached = replay_held(&facelet::format(&CubieCube::SOLVED), text);
    assert_eq!(facelet::format(&reached), s["position"].as_str().unwrap());
}

#[test]
fn three_by_three_half_depth_agrees_with_the_optimal_solver() {
    // Two independent optimal solvers: meet in the middle over held classes, and IDA* over the
    // pruning table (from the tests' shared cache); ten-move scrambles in each metric.
    for (metric, depth) in [("htm", "5"), ("qtm", "6"), ("stm", "4")] {
        for seed in ["1", "2"] {
            let scramble = json(&[
                "scramble", "3x3x3", "--metric", metric, "--moves", "9", "--seed", seed,
                "--format", "json",
            ]);
            let position = scramble["position"].as_str().unwrap();
            let solve = |extra: &[&str]| {
                let mut args = vec!["solve", "3x3x3", "--metric", metric, "--facelets", "--json"];
                args.extend_from_slice(extra);
                args.push(position);
                json(&args)
            };
            let half = solve(&["--algorithm", "half-depth", "--depth", depth]);
            let ida = solve(&["--optimal", "--table-size", "small"]);
            assert_eq!(half["algorithm"], "half-depth");
            assert_eq!(half["optimal"], true);
            assert_eq!(half["length"], ida["length"], "{metric} {position}");
            assert!(replay_held(position, half["solution"].as_str().unwrap()).is_solved());
        }
    }
    // A cube beyond twice the depth is reported on its own, with its proven bound, and the
    // batch goes on (exit 1 at the end, as for boards).
    let out = godsearch(&[
        "solve",
        "3x3x3",
        "--algorithm",
        "half-depth",
        "--depth",
        "3",
        "--moves",
        SUPERFLIP_MOVES,
        "R U",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("none: beyond twice the depth held (3); every solution has at least 7 moves"),
        "{text}"
    );
    assert!(text.contains("U' R'"), "the next cube is solved: {text}");
    assert!(stderr(&out).contains("1 of 2 positions were left unsolved"));
}
