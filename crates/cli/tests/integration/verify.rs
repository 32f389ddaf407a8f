//! `verify` and `apply`: replay agrees with the solvers, broken solutions are caught with exit
//! code 1, unreadable input gets exit code 2, and files of claims are checked line by line.

use crate::common;

use common::{
    godsearch, json, json_lines, refused, refused_with_stdin, stderr, stdout, with_stdin,
};

#[test]
fn a_solvers_answer_verifies_and_a_broken_one_does_not() {
    let start = "8,6,7,2,5,4,3,0,1";
    let solved = json(&["solve", "3x3", start, "--json"]);
    let moves = solved["solution"].as_str().unwrap().replace(' ', "");
    let ok = json(&["verify", "3x3", start, &moves, "--json"]);
    assert_eq!(ok["reaches_goal"], true);
    assert_eq!(ok["optimal"], true);
    assert_eq!(ok["shortest"], 31);
    assert_eq!(ok["length"], solved["length"]);

    // One move dropped: the replay ends elsewhere; exit code 1.
    let broken = &moves[..moves.len() - 1];
    let out = godsearch(&["verify", "3x3", start, broken]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("does not reach the goal"),
        "{}",
        stdout(&out)
    );

    // A move off the board is named.
    let out = godsearch(&["verify", "3x3", "1,2,3,4,5,6,7,8,0", "RR", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("off the board"), "{}", stdout(&out));

    // A solution longer than the shortest reaches the goal but is not optimal.
    let long = json(&["verify", "3x3", "1,2,3,4,5,6,7,0,8", "RLR", "--json"]);
    assert_eq!(long["reaches_goal"], true);
    assert_eq!(long["optimal"], false);
    assert_eq!(long["shortest"], 1);
}

#[test]
fn cubes_verify_in_both_metrics_and_the_pocket_cube_in_any_orientation() {
    let v = json(&["verify", "3x3x3", "R U R' U'", "U R U' R'", "--json"]);
    assert_eq!(v["reaches_goal"], true);
    assert_eq!((v["htm"].as_u64(), v["qtm"].as_u64()), (Some(4), Some(4)));
    assert!(v["optimal"].is_null(), "no 3x3x3 prover yet");
    let half = json(&["verify", "3x3x3", "R2", "R2", "--metric", "qtm", "--json"]);
    assert_eq!(
        (half["length"].as_u64(), half["htm"].as_u64()),
        (Some(2), Some(1))
    );
    // R then L' turns a 2x2x2 as a whole: solved as held.
    let turned = json(&["verify", "2x2x2", "R", "L'", "--json"]);
    assert_eq!(turned["reaches_goal"], true);
    assert_eq!(turned["optimal"], true);
    let out = godsearch(&["verify", "2x2x2", "R", "U"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn files_of_claims_are_checked_line_by_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("claims.txt");
    std::fs::write(
        &file,
        "# start | moves\n1,2,3,4,5,6,7,0,8 R\n\n1,2,3,4,5,6,7,0,8|L\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let out = godsearch(&["verify", "3x3", "--file", path, "--json"]);
    assert_eq!(out.status.code(), Some(1), "one of the two does not solve");
    let docs: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[0]["reaches_goal"], true);
    assert_eq!(docs[1]["reaches_goal"], false);
    std::fs::write(&file, "1,2,3,4,5,6,7,0,8\n").unwrap();
    refused(&["verify", "3x3", "--file", path], "line 1");
}

/// A file of claims that declares its goal (`# goal: blank-first`) is checked against it, as
/// `solve --file` solves a file's boards for it; standard input's declaration needs --goal.
#[test]
fn claims_are_checked_for_the_goal_their_file_declares() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("korf-goal.txt");
    // One move from Korf's goal; on the 3x3 it reaches the default goal too, at another distance.
    let claims = "# goal: blank-first\n1,0,2,3,4,5,6,7,8 L\n";
    std::fs::write(&file, claims).unwrap();
    let path = file.to_str().unwrap();
    let report = json(&["verify", "3x3", "--file", path, "--json"]);
    assert_eq!(report["reaches_goal"], true, "{report}");
    assert_eq!(report["optimal"], true, "{report}");
    refused(
        &["verify", "3x3", "--goal", "blank-last", "--file", path],
        "is not the goal",
    );
    refused(
        &["verify", "pancake-9", "--file", path],
        "declares a goal (blank-first), which only boards have",
    );
    let from_stdin = ["verify", "3x3", "--json", "--file", "-"];
    refused_with_stdin(
        &from_stdin,
        claims,
        "standard input line 1 declares the goal blank-first",
    );
    let given = [&from_stdin[..], &["--goal", "blank-first"]].concat();
    let out = with_stdin(&given, claims);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("\"reaches_goal\":true"),
        "{}",
        stdout(&out)
    );
    // Standard input is named as such where a line of it is refused.
    refused_with_stdin(
        &given,
        &format!("{claims}1,2,3,4,5,6,7,0,8\n"),
        "standard input line 3: a start and its moves are needed",
    );
}

#[test]
fn apply_prints_the_position_reached() {
    let v = json_lines(&["apply", "3x3", "1,2,3,4,5,6,7,8,0", "ULDR", "--json"]);
    assert_eq!(v[0]["end"], "1,2,3,4,8,5,7,6,0");
    let out = godsearch(&["apply", "3x3", "1,2,3,4,5,6,7,8,0", "ULDR"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "apply does not judge the result"
    );
    assert!(stdout(&out).contains("4 8 5"), "{}", stdout(&out));
    let cube = json(&["apply", "3x3x3", "R", "R'", "--json"]);
    assert_eq!(
        cube["end"],
        "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"
    );
}

#[test]
fn unreadable_input_is_refused() {
    refused(&["verify", "3x3", "1,2,3,4,5,6,7,8,0", "X"], "unknown move");
    refused(&["verify", "3x3", "1,2,3", "U"], "board");
    refused(&["verify", "3x3x3", "R U", "Q"], "moves 'Q'");
    refused(&["verify", "3x3"], "required");
    refused(
        &["verify", "3x3", "1,2,3,4,5,6,7,8,0", "U", "--metric", "qtm"],
        "for cubes",
    );
    refused(
        &["verify", "3x3x3", "R", "R'", "--goal", "1,2"],
        "for boards",
    );
}

#[test]
fn pasted_algorithms_verify_with_every_metric_and_notation() {
    // The H permutation in slices, undone by its own inverse written as a commutator-free
    // group; a rotation at the end still counts as solved (each face one colour).
    let v = json(&[
        "verify",
        "3x3x3",
        "M2 U M2 U2 M2 U M2",
        "(M2 U' M2 U2 M2 U' M2) y2 // and a turn of the whole cube",
        "--json",
    ]);
    assert_eq!(v["reaches_goal"], true);
    let lengths: Vec<u64> = ["htm", "qtm", "stm", "etm"]
        .iter()
        .map(|m| v[m].as_u64().unwrap())
        .collect();
    assert_eq!(lengths, [11, 20, 7, 8]);
    let sign = json(&["verify", "3x3x3", "r", "r'", "--notation", "sign", "--json"]);
    assert_eq!(
        (sign["moves"].as_str(), sign["reaches_goal"].as_bool()),
        (Some("r'"), Some(true))
    );
    let wca = json(&["verify", "3x3x3", "r", "r'", "--notation", "wca", "--json"]);
    assert_eq!(wca["moves"], "Rw'");
    // A commutator against its expansion, and the metric the length counts in.
    let c = json(&[
        "verify", "3x3x3", "[R, U]", "[U, R]", "--metric", "etm", "--json",
    ]);
    assert_eq!(
        (c["reaches_goal"].as_bool(), c["length"].as_u64()),
        (Some(true), Some(4))
    );
    assert_eq!(c["moves"], "U R U' R'");
    let out = godsearch(&["verify", "3x3x3", "[R, U]", "[R, U]"]);
    assert_eq!(out.status.code(), Some(1));
    // The 2x2x2's wide turn is a rotation; a slice is refused with its reason.
    let p = json(&["verify", "2x2x2", "R U", "U' R' Rw", "--json"]);
    assert_eq!(p["reaches_goal"], true);
    refused(&["verify", "2x2x2", "R", "M"], "middle layer");
    refused(&["verify", "3x3x3", "R", "R (U"], "not closed");
    refused(&["verify", "3x3x3", "R", "R U\n  Q"], "line 2, column 3");
    refused(
        &["bfs", "3x3x3", "--metric", "ftm2"],
        "expected htm, qtm, stm or etm",
    );
    // --prove is the 3x3x3's; the others are proven from a table without it.
    refused(
        &["verify", "2x2x2", "R", "R'", "--prove"],
        "--prove is for the 3x3x3",
    );
    refused(
        &["verify", "3x3", "1,2,3,4,5,6,7,0,8", "L", "--prove"],
        "--prove is for the 3x3x3",
    );
}

#[test]
fn apply_reads_the_cube_as_held() {
    // "U x" as held is B turned: the same stickers as the move B.
    let held = json(&["apply", "3x3x3", "", "U x", "--json"]);
    let b = json(&["apply", "3x3x3", "", "B", "--json"]);
    assert_eq!(held["end"], b["end"]);
}
