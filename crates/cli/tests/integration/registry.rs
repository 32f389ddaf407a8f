//! A puzzle that has no command-line code of its own (the pancake puzzle, one module in the
//! application's registry) is enumerated, solved and scrambled by the same commands as the
//! built-in ones.

use crate::common;

use common::{godsearch, json, json_lines, refused, stdout};
use godsearch_testdata::rows;

#[test]
fn bfs_counts_the_pancake_puzzle_as_published() {
    let nine = rows("pancake.txt")
        .into_iter()
        .find(|row| row[0] == "9")
        .unwrap();
    let published: Vec<u64> = nine[1..].iter().map(|c| c.parse().unwrap()).collect();
    let report = json(&["bfs", "pancake-9", "--json"]);
    assert_eq!(report["levels"], serde_json::json!(published));
    assert_eq!(report["diameter"], 10);
    let frontier = json(&["bfs", "pancake-9", "--engine", "frontier", "--json"]);
    assert_eq!(frontier["levels"], report["levels"]);
}

#[test]
fn solve_and_scramble_take_the_pancake_puzzle() {
    let out = godsearch(&["solve", "pancake-8", "3,1,4,8,2,7,5,6", "8,7,6,5,4,3,2,1"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("solution (8 moves, optimal)"), "{text}");
    assert!(text.contains("solution (1 moves, optimal): 8"), "{text}");
    let made = json_lines(&[
        "scramble",
        "pancake-10",
        "--count",
        "3",
        "--moves",
        "12",
        "--json",
    ]);
    assert_eq!(made.len(), 3);
    for scramble in made {
        assert_eq!(scramble["length"], 12);
        let position = scramble["position"].as_str().unwrap();
        let solved = json(&["solve", "pancake-10", position, "--json"]);
        assert!(solved["length"].as_u64().unwrap() <= 12);
    }
    refused(&["solve", "pancake-4", "1,2,3"], "3 sizes given");
    refused(
        &["solve", "pancake-4", "1,2,3,4", "--pdb", "6-6-3"],
        "--pdb is not taken",
    );
    refused(
        &["bfs", "pancake-4", "--metric", "qtm"],
        "--metric is not taken",
    );
    refused(&["bfs", "pancake-40"], "from 2 to 20");
    refused(
        &["solve", "blancmange", "1"],
        "the pancake puzzle pancake-N",
    );
}

#[test]
fn info_gives_the_pancake_puzzles_size() {
    let report = json(&["info", "pancake-12", "--json"]);
    assert_eq!(report["positions"], "479001600");
    assert_eq!(report["moves"].as_array().unwrap().len(), 11);
    let text = stdout(&godsearch(&["info", "pancake-20"]));
    assert!(text.contains("2,432,902,008,176,640,000"), "{text}");
}

#[test]
fn verify_apply_and_info_take_the_pancake_puzzle() {
    let shortest = json(&["verify", "pancake-5", "2,1,3,4,5", "2", "--json"]);
    assert_eq!(shortest["reaches_goal"], true);
    assert_eq!(shortest["optimal"], true);
    let longer = json(&["verify", "pancake-5", "2,1,3,4,5", "3 3 2", "--json"]);
    assert_eq!(longer["reaches_goal"], true);
    assert_eq!(longer["optimal"], false);
    assert_eq!(longer["shortest"], 1);
    let unsorted = godsearch(&["verify", "pancake-5", "3,2,1,4,5", "2"]);
    assert_eq!(unsorted.status.code(), Some(1));
    let applied = json(&["apply", "pancake-5", "1,2,3,4,5", "3 5", "--json"]);
    assert_eq!(applied["end"], "5,4,1,2,3");
    refused(
        &["verify", "pancake-5", "2,1,3,4,5", "2", "--metric", "qtm"],
        "--metric is not taken",
    );
    for puzzle in ["3x3", "3x3x3", "pancake-5"] {
        refused(
            &["solve", puzzle, "--generators", "R", "1"],
            "--generators is for definition puzzles",
        );
    }
    let info = json(&["info", "pancake-9", "--json"]);
    assert_eq!(info["positions"], "362880");
    refused(
        &["scramble", "pancake-9", "--format", "hex"],
        "hex and grid are for boards",
    );
    refused(&["scramble", "pancake-9", "--cache", "x"], "--cache is for");
}
