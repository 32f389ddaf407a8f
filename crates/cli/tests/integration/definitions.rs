//! `bfs` and `info` on definition files: `--def FILE` or a puzzle name ending in `.tws` or
//! `.json`, with `--generators` and `--metric`; a malformed file is refused on one line with
//! exit code 2.

use crate::common;

use common::{godsearch, json, refused, stderr};
use godsearch_testdata::{data_dir, levels};

fn definition(name: &str) -> String {
    data_dir()
        .join("definitions")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn bfs_takes_a_definition_file_by_option_or_by_name() {
    let two = definition("2x2x2.kpuzzle.json");
    let report = json(&["bfs", "--def", &two, "--generators", "U,F,R", "--json"]);
    assert_eq!(
        report["levels"],
        serde_json::json!(levels("cube2x2x2-htm.txt"))
    );
    assert_eq!(report["puzzle"], "2x2x2");
    let report = json(&[
        "bfs",
        &two,
        "--generators",
        "U F R",
        "--metric",
        "qtm",
        "--json",
    ]);
    assert_eq!(
        report["levels"],
        serde_json::json!(levels("cube2x2x2-qtm.txt"))
    );
    let pyraminx = definition("pyraminx-no-tips.tws");
    let report = json(&["bfs", &pyraminx, "--engine", "frontier", "--json"]);
    assert_eq!(
        report["levels"],
        serde_json::json!(levels("pyraminx-no-tips.txt"))
    );
    // The frontier engine took classes under the 24 symmetries the moves have; the counts are
    // positions all the same.
    assert_eq!(report["class_group"], 24);
    let report = json(&[
        "bfs",
        &pyraminx,
        "--symmetry",
        "1",
        "--engine",
        "frontier",
        "--json",
    ]);
    assert_eq!(report["class_group"], serde_json::Value::Null);
    assert_eq!(
        report["levels"],
        serde_json::json!(levels("pyraminx-no-tips.txt"))
    );
    refused(&["bfs", &pyraminx, "--symmetry", "12"], "has 24 symmetries");
    // The 5x5x5's classes (92 slots) are keyed too.
    let classes = json(&[
        "bfs",
        "5x5x5",
        "--symmetry",
        "96",
        "--max-depth",
        "2",
        "--json",
    ]);
    assert_eq!(classes["classes"], serde_json::json!([1, 4, 31]));
}

#[test]
fn info_gives_the_group_order_and_whether_ranks_are_exact() {
    let report = json(&[
        "info",
        "--def",
        &definition("megaminx.kpuzzle.json"),
        "--json",
    ]);
    assert_eq!(
        report["group_order"],
        "100669616553523347122516032313645505168688116411019768627200000000000"
    );
    // The dodecahedron's 60 rotations and 60 reflections, found from the moves alone.
    assert_eq!(report["symmetries"], 120);
    let report = json(&[
        "info",
        &definition("3x3x3.kpuzzle.json"),
        "--generators",
        "R,U",
        "--json",
    ]);
    assert_eq!(report["positions"], "73483200");
    assert_eq!(report["ranks_exact"], false);
    assert_eq!(report["symmetries"], 4);
}

#[test]
fn malformed_files_and_bad_generators_are_refused_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.tws");
    std::fs::write(
        &bad,
        "Name x\nSet A 3 1\nSolved\nA\n1 2 3\nEnd\nMove U\nA\n1 1 2\nEnd\n",
    )
    .unwrap();
    let out = godsearch(&["bfs", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("line 9: not a permutation"),
        "{}",
        stderr(&out)
    );
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    refused(
        &[
            "bfs",
            "--def",
            &definition("2x2x2.kpuzzle.json"),
            "--generators",
            "U,Q",
        ],
        "unknown move 'Q'",
    );
    refused(
        &[
            "info",
            "--def",
            &dir.path().join("none.json").display().to_string(),
        ],
        "none.json",
    );
    refused(
        &["bfs", &definition("skewb.kpuzzle.json"), "--metric", "stm"],
        "unknown metric 'stm'",
    );
}

#[test]
fn solve_takes_moves_or_a_pattern_and_answers_optimally() {
    let two = definition("2x2x2.kpuzzle.json");
    let report = json(&[
        "solve",
        &two,
        "--generators",
        "U,F,R",
        "R U F' U2 R'",
        "--json",
    ]);
    assert_eq!(report["length"], 5);
    assert_eq!(report["method"], "table descent");
    // With --def, the first word is a position; a pattern file gives one too.
    let dir = tempfile::tempdir().unwrap();
    let pattern = dir.path().join("p.json");
    std::fs::write(
        &pattern,
        r#"{"CORNERS": {"pieces": [0, 1, 2, 3, 4, 5, 6, 7], "orientation": [0, 0, 0, 0, 0, 0, 0, 0]}}"#,
    )
    .unwrap();
    let reports = common::json_lines(&[
        "solve",
        "--def",
        &two,
        "--pattern",
        pattern.to_str().unwrap(),
        "U2",
        "--json",
    ]);
    assert_eq!(reports[0]["length"], 0);
    assert_eq!(reports[1]["solution"], "U2");
    // The 3x3x3 by IDA* over its corners' and edge orientations' databases.
    let report = json(&[
        "solve",
        &definition("3x3x3.kpuzzle.json"),
        "R U F D2 L' B R2 U'",
        "--json",
    ]);
    assert_eq!(report["length"], 8);
    assert_eq!(report["method"], "IDA* over pattern databases");
}

#[test]
fn solve_refuses_what_a_definition_puzzle_cannot_take() {
    let two = definition("2x2x2.kpuzzle.json");
    refused(
        &["solve", &two, "--generators", "U,F,R", "D"],
        "cannot reach",
    );
    refused(&["solve", &two, "R Q"], "unknown move 'Q'");
    refused(
        &["solve", &two, "R", "--pdb", "4-4"],
        "--pdb is for the built-in puzzles",
    );
    let dir = tempfile::tempdir().unwrap();
    let pattern = dir.path().join("p.json");
    std::fs::write(
        &pattern,
        r#"{"CORNERS": {"pieces": [0, 0, 2, 3, 4, 5, 6, 7]}}"#,
    )
    .unwrap();
    refused(
        &[
            "solve",
            "--def",
            &two,
            "--pattern",
            pattern.to_str().unwrap(),
        ],
        "does not hold the pieces",
    );
    refused(
        &[
            "solve",
            "3x3",
            "--pattern",
            pattern.to_str().unwrap(),
            "123456780",
        ],
        "--pattern is not taken by 3x3",
    );
    // A puzzle whose solves are moves alone, solved a request a position, refuses it too.
    refused(
        &[
            "solve",
            "pancake-5",
            "--pattern",
            pattern.to_str().unwrap(),
            "2,1,0,3,4",
        ],
        "--pattern is not taken by pancake-5",
    );
}

#[test]
fn verify_and_apply_replay_on_the_definitions_own_moves() {
    let skewb = definition("skewb.kpuzzle.json");
    let report = json(&[
        "verify",
        &skewb,
        "R U L B' R' U'",
        "U R B L' U' R'",
        "--json",
    ]);
    assert_eq!(report["reaches_goal"], true);
    assert_eq!(report["optimal"], true);
    assert_eq!(report["length"], 6);
    let report = json(&["verify", &skewb, "R U", "U' R' U U'", "--json"]);
    assert_eq!(report["optimal"], false);
    assert_eq!(report["shortest"], 2);
    let out = godsearch(&["verify", &skewb, "R U", "U'"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a sequence that does not solve fails"
    );
    // apply prints the pattern reached, which solve --pattern reads back.
    let two = definition("2x2x2.kpuzzle.json");
    let report = json(&["apply", &two, "", "R U", "--json"]);
    let dir = tempfile::tempdir().unwrap();
    let pattern = dir.path().join("p.json");
    std::fs::write(&pattern, report["end"].as_str().unwrap()).unwrap();
    let solved = json(&[
        "solve",
        "--def",
        &two,
        "--pattern",
        pattern.to_str().unwrap(),
        "--generators",
        "U,F,R",
        "--json",
    ]);
    assert_eq!(solved["length"], 2);
    refused(
        &["verify", &two, "R", "R'", "--prove"],
        "for the built-in puzzles",
    );
}

#[test]
fn scrambles_are_uniform_positions_with_a_sequence_that_makes_them() {
    let skewb = definition("skewb.kpuzzle.json");
    let scrambles =
        common::json_lines(&["scramble", &skewb, "--count", "5", "--seed", "7", "--json"]);
    assert_eq!(scrambles.len(), 5);
    for s in &scrambles {
        let moves = s["scramble"].as_str().unwrap();
        let applied = json(&["apply", &skewb, "", moves, "--json"]);
        assert_eq!(
            applied["end"], s["position"],
            "the sequence makes the position"
        );
        assert!(
            s["length"].as_u64().unwrap() <= 11,
            "optimal: the skewb's diameter is 11"
        );
    }
    // Past 128-bit ranks a uniform position comes without a sequence; a walk needs no ranks:
    // its moves make its position.
    let megaminx = definition("megaminx.kpuzzle.json");
    // Past 128-bit ranks bfs keeps classes (or whole states): exact levels to the depth
    // asked, the last one also counted without being stored, and a clear refusal of what
    // needs ranks or integer keys.
    let levels = json(&["bfs", "megaminx", "--max-depth", "3", "--json"]);
    assert_eq!(levels["levels"], serde_json::json!([1, 48, 1536, 43520]));
    assert_eq!(levels["complete"], false);
    let counted = json(&[
        "bfs",
        &megaminx,
        "--max-depth",
        "3",
        "--count-last",
        "--json",
    ]);
    assert_eq!(counted["levels"], levels["levels"]);
    assert_eq!(counted["last_counted_only"], true);
    // On disk over its classes, and over whole positions (keys of 256 bits in mixed radix
    // either way); no table.
    for symmetry in ["120", "1"] {
        let folder = tempfile::tempdir().unwrap();
        let folder = folder.path().to_str().unwrap();
        let args = ["--max-depth", "3", "--symmetry", symmetry];
        let on_disk = json(
            &[
                &["bfs", &megaminx, "--workdir", folder, "--json"],
                &args[..],
            ]
            .concat(),
        );
        assert_eq!(on_disk["levels"], levels["levels"], "symmetry {symmetry}");
        assert_eq!(on_disk["classes"].is_null(), symmetry == "1");
    }
    refused(
        &["bfs", &megaminx, "--max-depth", "2", "--engine", "table"],
        "more positions than 128-bit ranks number",
    );
    let s = json(&["scramble", &megaminx, "--seed", "1", "--json"]);
    assert!(s["scramble"].is_null() && s["position"].is_string());
    let walk = json(&["scramble", &megaminx, "--moves", "5", "--json"]);
    assert_eq!(walk["length"], 5);
    let scramble = walk["scramble"].as_str().unwrap();
    let applied = json(&["apply", &megaminx, "", scramble, "--json"]);
    assert_eq!(
        applied["end"], walk["position"],
        "the walk makes the position"
    );
    let walk = json(&[
        "scramble",
        &definition("3x3x3.kpuzzle.json"),
        "--moves",
        "12",
        "--json",
    ]);
    assert_eq!(walk["length"], 12);
}

#[test]
fn definition_puzzles_run_on_disk_across_processes_and_count_the_last_level() {
    let pyraminx = definition("pyraminx-no-tips.tws");
    let expected = serde_json::json!(levels("pyraminx-no-tips.txt"));
    let dir = tempfile::tempdir().unwrap();
    let workdir = dir.path().join("run");
    let report = json(&[
        "bfs",
        &pyraminx,
        "--workdir",
        workdir.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(report["engine"], "frontier on disk");
    assert_eq!(report["levels"], expected);
    let report = json(&["bfs", &pyraminx, "--processes", "2", "--json"]);
    assert_eq!(report["engine"], "frontier, distributed");
    assert_eq!(report["levels"], expected);
    let report = json(&[
        "bfs",
        &pyraminx,
        "--count-last",
        "--max-depth",
        "9",
        "--json",
    ]);
    assert_eq!(
        report["levels"].as_array().unwrap()[..],
        expected.as_array().unwrap()[..=9]
    );
}

#[test]
fn verify_apply_and_scramble_take_the_file_by_option_too() {
    let skewb = definition("skewb.kpuzzle.json");
    let by_option = json(&["verify", "--def", &skewb, "R U L'", "L U' R'", "--json"]);
    let by_name = json(&["verify", &skewb, "R U L'", "L U' R'", "--json"]);
    assert_eq!(by_option, by_name);
    assert_eq!(by_option["reaches_goal"], true);
    let applied = json(&["apply", "--def", &skewb, "", "R U", "--json"]);
    assert_eq!(applied, json(&["apply", &skewb, "", "R U", "--json"]));
    let scrambled = json(&["scramble", "--def", &skewb, "--seed", "3", "--json"]);
    assert_eq!(
        scrambled,
        json(&["scramble", &skewb, "--seed", "3", "--json"])
    );
    refused(
        &["verify", "--def", &skewb, "R", "R'", "R"],
        "give only the start and the moves",
    );
    refused(&["scramble", &skewb, "--def", &skewb], "not both");
}

/// `--def FILE` reads a definition file whatever its name ends with (a name given as the
/// puzzle is one only by its ending), for every command that takes it.
#[test]
fn def_reads_a_file_of_any_name() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pyraminx.txt");
    std::fs::copy(data_dir().join("definitions/pyraminx-no-tips.tws"), &file).unwrap();
    let path = file.to_str().unwrap();
    let levels = json(&["bfs", "--def", path, "--json"]);
    assert_eq!(levels["total"], 933_120);
    let info = json(&["info", "--def", path, "--json"]);
    assert_eq!(info["positions"], "933120");
    let verified = json(&["verify", "--def", path, "U R", "R' U'", "--json"]);
    assert_eq!(verified["reaches_goal"], true);
    let made = json(&["scramble", "--def", path, "--seed", "3", "--json"]);
    assert!(made["position"].is_string(), "{made}");
    assert!(godsearch(&["solve", "--def", path, "U R"]).status.success());
}

/// A shipped definition by name: `bfs --save` writes its distance table (header and checksum,
/// atomically), `solve --table` descends through it to the same optimal lengths as a table
/// built on the spot, and a table is refused for other generators, another puzzle, and a
/// definition file whose moves were edited under the same names.
#[test]
fn definition_tables_are_saved_and_solved_from() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("skewb.tbl");
    let table = table.to_str().unwrap();
    let saved = json(&["bfs", "skewb", "--save", table, "--json"]);
    assert_eq!(saved["total"], 3_149_280);
    for scramble in ["R U L' B R U'", "R", "B' L' U R B L' U'"] {
        let from_file = json(&["solve", "skewb", "--table", table, scramble, "--json"]);
        let built = json(&["solve", "skewb", scramble, "--json"]);
        assert_eq!(from_file["length"], built["length"], "{scramble}");
        assert!(from_file["method"]
            .as_str()
            .unwrap()
            .contains("saved table"));
    }
    // A file of the same puzzle, by path: the same identity, so the table serves it.
    let file = definition("skewb.kpuzzle.json");
    let by_path = json(&["solve", &file, "--table", table, "R U", "--json"]);
    assert_eq!(by_path["length"], 2);
    // A foreign table is a file that cannot serve (exit 1), as for boards and cubes.
    let foreign = |args: &[&str], needle: &str| {
        let out = godsearch(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    };
    foreign(
        &[
            "solve",
            "skewb",
            "--table",
            table,
            "--generators",
            "R,U",
            "R U",
        ],
        "this table is for definition skewb generators R,U,L,B",
    );
    foreign(
        &["solve", "pyraminx", "--table", table, "R"],
        "this table is for definition skewb",
    );
    // The same names, R and U's moves swapped: the moves' checksum differs.
    let mut edited: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let moves = edited["moves"].as_object_mut().unwrap();
    let r = moves["R"].clone();
    moves["R"] = moves["U"].clone();
    moves["U"] = r;
    let edited_file = dir.path().join("edited.kpuzzle.json");
    std::fs::write(&edited_file, edited.to_string()).unwrap();
    foreign(
        &[
            "solve",
            edited_file.to_str().unwrap(),
            "--table",
            table,
            "R",
        ],
        "this table is for definition skewb",
    );
    refused(
        &["solve", "skewb", "--table", table, "--count", "2", "R"],
        "--table gives one optimal solution",
    );
    refused(
        &["solve", "megaminx", "--table", table, "R"],
        "ranked in more than 128 bits",
    );
}

/// `info` with no puzzle lists every puzzle offered by name with its exact number of
/// positions: the shipped definitions with their published counts beside the built-in ones.
#[test]
fn info_lists_every_puzzle_offered_by_name_with_its_size() {
    let listed = common::json_lines(&["info", "--json"]);
    let positions = |name: &str| {
        listed
            .iter()
            .find(|p| p["puzzle"] == name)
            .unwrap_or_else(|| panic!("{name} in {listed:?}"))["positions"]
            .clone()
    };
    assert_eq!(positions("3x3"), "181440");
    assert_eq!(positions("2x2x2"), "3674160");
    assert_eq!(positions("skewb"), "3149280");
    assert_eq!(positions("pyraminx-no-tips"), "933120");
    assert_eq!(positions("3x3x3-ru"), "73483200");
    assert_eq!(
        positions("3x3x3-kpuzzle"),
        "43252003274489856000",
        "the centres stay: no whole-cube turns"
    );
    refused(
        &["info", "--generators", "R,U"],
        "for one definition puzzle",
    );
}

#[test]
fn pdb_build_prepares_the_databases_a_solve_reads() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().to_str().unwrap();
    let three = definition("3x3x3.kpuzzle.json");
    // Within 64 MB: sets of five edges and of six corners, with their orientations; built
    // in seconds.
    let build = ["pdb", "build", &three, "--memory", "64M", "--cache", cache];
    let out = godsearch(&build);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        text.contains("EDGES slots 0-4 with their orientations") && text.contains("built in"),
        "{text}"
    );
    let files = || std::fs::read_dir(dir.path()).unwrap().count();
    let built = files();
    let out = godsearch(&build);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(text.matches("already cached").count(), built, "{text}");
    // A solve within the same memory reads them all, and builds nothing.
    let solve = [
        "solve",
        &three,
        "--memory",
        "64M",
        "--cache",
        cache,
        "--moves",
        "R U F' L2 B D R2 F U'",
        "--json",
    ];
    let report = json(&solve);
    assert_eq!(report["length"], 9, "{report}");
    let read = report["databases"].as_array().unwrap();
    assert!(read.len() > built, "{report}");
    assert_eq!(files(), built);
    assert!(report.get("notes").is_none(), "nothing to say: {report}");
    // A damaged file is not trusted: the solve leaves it out (the largest, the corners' set
    // of six, is a prepared one), and says so in its report and on stderr, until `pdb build`
    // replaces it.
    godsearch_testdata::damage_largest_file(dir.path());
    let out = godsearch(&solve);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["length"], 9, "{report}");
    let notes = report["notes"].as_array().expect("a note");
    let note = notes[0].as_str().unwrap();
    assert!(
        note.starts_with("left out the prepared pattern database of CORNERS slots 0-5")
            && note.contains("damaged"),
        "{report}"
    );
    assert!(
        stderr(&out).contains(&format!("note: {note}")),
        "{}",
        stderr(&out)
    );
    let out = godsearch(&build);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(text.matches("(replaced: ").count(), 1, "{text}");
    let again = json(&solve);
    assert!(again.get("notes").is_none(), "replaced: {again}");

    refused(
        &["pdb", "build", &three, "--pdb", "6-6-3", "--cache", cache],
        "--pdb and --goal are for sliding-tile boards",
    );
    refused(
        &["pdb", "build", &three, "--no-reflection", "--cache", cache],
        "--no-reflection is for sliding-tile boards",
    );
    let pyraminx = definition("pyraminx-no-tips.tws");
    refused(&["pdb", "build", &pyraminx, "--cache", cache], "descent");
    refused(&["pdb", "build", "4x4", "--cache", cache], "--pdb");
    refused(
        &["pdb", "build", "4x4", "--pdb", "6-6-3", "--metric", "qtm"],
        "--metric is for definition puzzles",
    );
}
