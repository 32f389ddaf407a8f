//! The HTTP API against a real server on loopback (a free port picked by the system, so tests
//! run in parallel): every endpoint, bad input, the job limits, cancellation and concurrent
//! requests.

mod common;

use godsearch_app::request::{JobLimits, TableSize};
use godsearch_server::ServerOptions;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Korf's instance 88 (optimal 65 moves with the blank first): hopeless for Manhattan IDA*
/// within a test's time, so it meets every limit.
const HARD_BOARD: &str = "15,2,12,11,14,13,9,5,1,3,8,7,0,10,6,4";
const BLANK_FIRST: &str = "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15";

fn limits() -> JobLimits {
    JobLimits {
        memory_bytes: 1 << 30,
        max_nodes: None,
        max_seconds: Some(Duration::from_secs(60)),
        largest_table: TableSize::Small,
        max_scrambles: 100,
        definition_files: false,
    }
}

fn options() -> ServerOptions {
    ServerOptions {
        max_jobs: 2,
        max_waiting: 64,
        limits: limits(),
        wall_limit: Some(Duration::from_secs(60)),
        body_limit: 4096,
        max_connections: godsearch_server::MAX_CONNECTIONS,
        header_read_timeout: godsearch_server::HEADER_READ_TIMEOUT,
        max_response: godsearch_server::MAX_RESPONSE,
    }
}

/// Each request's time limit.
const REQUEST_LIMIT: Duration = Duration::from_secs(120);

fn start(options: ServerOptions, cache: &std::path::Path) -> String {
    common::start(options, cache.to_path_buf())
}

fn agent() -> ureq::Agent {
    common::agent(REQUEST_LIMIT)
}

fn post(base: &str, path: &str, body: &Value) -> (u16, Value) {
    common::post(&agent(), base, path, body)
}

fn get(base: &str, path: &str) -> (u16, Value) {
    common::get(&agent(), base, path)
}

fn delete(base: &str, path: &str) -> (u16, Value) {
    common::delete(&agent(), base, path)
}

/// Replays `solution` from `start` through the API and says whether it reaches the goal.
fn replays(base: &str, puzzle: &str, start: &str, solution: &str, goal: Option<&str>) -> bool {
    let mut request = json!({"puzzle": puzzle, "position": start, "solution": solution});
    if let Some(goal) = goal {
        request["goal"] = json!(goal);
    }
    let (status, replay) = post(base, "/api/replay", &request);
    assert_eq!(status, 200, "{replay}");
    replay["solved"] == json!(true)
}

/// Waits for a job to end and returns its document.
fn wait_for(base: &str, id: u64) -> Value {
    let started = Instant::now();
    loop {
        let (status, doc) = get(base, &format!("/api/jobs/{id}"));
        assert_eq!(status, 200);
        if doc["state"] != json!("running") {
            return doc;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "job {id} never ended"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn every_endpoint_answers_with_the_command_lines_json() {
    let cache = tempfile::tempdir().unwrap();
    let base = start(options(), cache.path());

    let (status, health) = get(&base, "/api/health");
    assert_eq!((status, &health["status"]), (200, &json!("ok")));

    let (_, catalog) = get(&base, "/api/puzzles");
    let names: Vec<&str> = catalog["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"4x4") && names.contains(&"3x3x3"),
        "{names:?}"
    );
    assert!(catalog["algorithms"]
        .as_array()
        .unwrap()
        .contains(&json!("parallel-ida")));
    // The shipped definitions are puzzles by name, with their moves for a page's buttons, and
    // solved by a server that reads no files its clients name.
    let skewb = catalog["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "skewb")
        .unwrap_or_else(|| panic!("{names:?}"));
    assert_eq!(skewb["kind"], "definition");
    assert_eq!(skewb["moves"], json!(["R", "U", "L", "B"]));
    // A client picks how to show a solution by the document the entry names.
    assert_eq!(
        (&skewb["solution"], &skewb["patterns"]),
        (&json!("moves"), &json!(true))
    );
    let (status, solved) = post(
        &base,
        "/api/solve",
        &json!({"puzzle": "skewb", "position": "R U' L"}),
    );
    assert_eq!((status, &solved["length"]), (200, &json!(3)), "{solved}");
    assert!(replays(
        &base,
        "skewb",
        "R U' L",
        solved["solution"].as_str().unwrap(),
        None
    ));

    // The example of the issue, and the other searching algorithms: the same optimal length,
    // each solution replayed.
    let board = "8,6,7,2,5,4,3,0,1";
    for (algorithm, heuristic) in [
        ("ida", "pdb"),
        ("astar", "manhattan"),
        ("parallel-ida", "linear-conflict"),
    ] {
        let (status, solved) = post(
            &base,
            "/api/solve",
            &json!({"puzzle": "3x3", "position": board, "algorithm": algorithm, "heuristic": heuristic}),
        );
        assert_eq!(status, 200, "{solved}");
        assert_eq!(solved["length"], json!(31), "{solved}");
        assert_eq!(solved["optimal"], json!(true));
        assert_eq!(solved["algorithm"], json!(algorithm));
        // Pattern databases and A*'s stored positions take memory; linear conflict is computed.
        let memory = solved["memory_bytes"].as_u64().unwrap();
        assert_eq!(memory > 0, algorithm != "parallel-ida", "{solved}");
        let moves = solved["solution"].as_str().unwrap();
        assert!(replays(&base, "3x3", board, moves, None));
    }
    let (status, staged) = post(
        &base,
        "/api/solve",
        &json!({"puzzle": "3x3", "position": board, "algorithm": "two-stage"}),
    );
    assert_eq!(status, 200, "{staged}");
    assert_eq!(staged["optimal"], json!(false));
    assert!(staged["length"].as_u64().unwrap() >= 31);

    // A cube: the 2x2x2 by table descent, given as moves.
    let (status, cube) = post(
        &base,
        "/api/solve",
        &json!({"puzzle": "2x2x2", "position": "R U F2 D' R2"}),
    );
    assert_eq!(status, 200, "{cube}");
    assert_eq!(cube["optimal"], json!(true));
    let moves = cube["solution"].as_str().unwrap();
    assert!(replays(&base, "2x2x2", "R U F2 D' R2", moves, None));

    // Enumeration: the 8-puzzle's levels as published.
    let (status, bfs) = post(&base, "/api/bfs", &json!({"puzzle": "3x3"}));
    assert_eq!(status, 200, "{bfs}");
    let levels: Vec<u64> = serde_json::from_value(bfs["levels"].clone()).unwrap();
    assert_eq!(levels, godsearch_testdata::levels("sliding-3x3.txt"));
    assert_eq!(bfs["complete"], json!(true));

    // Scrambles: repeatable with a seed, solvable, and as many as asked.
    let ask = json!({"puzzle": "4x4", "count": 3, "seed": 7});
    let (status, first) = post(&base, "/api/scramble", &ask);
    assert_eq!(status, 200, "{first}");
    assert_eq!(first.as_array().unwrap().len(), 3);
    assert_eq!(post(&base, "/api/scramble", &ask).1, first);
    let (_, walks) = post(
        &base,
        "/api/scramble",
        &json!({"puzzle": "3x3x3", "moves": 12, "seed": 1}),
    );
    let scramble = walks[0]["scramble"].as_str().unwrap();
    assert_eq!(walks[0]["length"], json!(12));
    let (_, replay) = post(
        &base,
        "/api/replay",
        &json!({"puzzle": "3x3x3", "position": "", "solution": scramble}),
    );
    assert_eq!(replay["positions"].as_array().unwrap().len(), 13);

    // Pattern databases built into the cache, then found there and used by a search.
    let partition = json!({"puzzle": "3x3", "partition": "1,2,3/4,5,6/7,8"});
    let (status, built) = post(&base, "/api/pdb", &partition);
    assert_eq!(status, 200, "{built}");
    assert_eq!(built["groups"].as_array().unwrap().len(), 3);
    assert!(built["groups"]
        .as_array()
        .unwrap()
        .iter()
        .all(|g| g["origin"] == json!("built")));
    let (_, again) = post(&base, "/api/pdb", &partition);
    assert_eq!(again["groups"][2]["origin"], json!("cached"));
    let (_, solved) = post(
        &base,
        "/api/solve",
        &json!({"puzzle": "3x3", "position": board, "algorithm": "ida", "pdb": "1,2,3/4,5,6/7,8"}),
    );
    assert_eq!(solved["length"], json!(31), "{solved}");

    // The page and its assets.
    for (path, kind) in [
        ("/", "text/html"),
        ("/app.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let response = agent().get(&format!("{base}{path}")).call().unwrap();
        assert_eq!(response.status().as_u16(), 200);
        let content_type = response.headers()["content-type"].to_str().unwrap();
        assert!(content_type.starts_with(kind), "{path}: {content_type}");
    }
}

/// A batch answers a report a position, in order, each as `/api/solve` answers it alone; a
/// bad position is refused by its index before any work, a job included.
#[test]
fn a_batch_answers_each_position_as_a_solve_would() {
    let cache = tempfile::tempdir().unwrap();
    let base = start(options(), cache.path());
    let boards = [
        "1,2,3,4,5,6,7,0,8",
        "1,2,3,4,5,6,0,7,8",
        "1,2,3,4,5,6,7,8,0",
    ];
    let request = json!({"puzzle": "3x3", "positions": boards, "heuristic": "manhattan"});
    let (status, reports) = post(&base, "/api/solve-batch", &request);
    assert_eq!(status, 200, "{reports}");
    let reports = reports.as_array().unwrap();
    assert_eq!(reports.len(), boards.len());
    for (board, report) in boards.iter().zip(reports) {
        let one = json!({"puzzle": "3x3", "position": board, "heuristic": "manhattan"});
        let (_, alone) = post(&base, "/api/solve", &one);
        assert_eq!(report["length"], alone["length"], "{board}");
        let solution = report["solution"].as_str().unwrap();
        assert!(replays(&base, "3x3", board, solution, None));
    }
    // Puzzles solved a request a position (definitions, the pancakes) answer the same way.
    let request = json!({"puzzle": "2x2x2", "positions": ["R U", "F"]});
    let (status, reports) = post(&base, "/api/solve-batch", &request);
    assert_eq!(status, 200, "{reports}");
    assert_eq!(reports[1]["length"], json!(1));
    let request = json!({"puzzle": "pancake-5", "positions": ["2,1,3,4,5", "1,2,3,4,5"]});
    let (_, reports) = post(&base, "/api/solve-batch", &request);
    assert_eq!(
        [&reports[0]["length"], &reports[1]["length"]],
        [&json!(1), &json!(0)]
    );
    let (status, empty) = post(
        &base,
        "/api/solve-batch",
        &json!({"puzzle": "3x3", "positions": []}),
    );
    assert_eq!((status, empty), (200, json!([])));

    let refused = |path: &str, request: Value, says: &str| {
        let (status, answer) = post(&base, path, &request);
        let message = answer["error"].as_str().unwrap_or_default();
        assert_eq!(status, 400, "{path} {request}: {answer}");
        assert!(message.contains(says), "{path} {request}: {message}");
    };
    for path in ["/api/solve-batch", "/api/jobs/solve-batch"] {
        refused(
            path,
            json!({"puzzle": "3x3", "positions": [boards[0], "1,2,3"]}),
            "positions[1]",
        );
        refused(
            path,
            json!({"puzzle": "pancake-5", "positions": ["1,2,3,4,5", "1,1,3,4,5"]}),
            "positions[1]",
        );
        refused(
            path,
            json!({"puzzle": "3x3", "position": boards[0]}),
            "a batch lists its positions in `positions`",
        );
        refused(path, json!({"puzzle": "3x3"}), "missing field `positions`");
        refused(
            path,
            json!({"puzzle": "3x3", "positions": [boards[0]], "table_size": "small"}),
            "table_size",
        );
    }
    let request = json!({"puzzle": "3x3", "positions": boards});
    let (status, started) = post(&base, "/api/jobs/solve-batch", &request);
    assert_eq!((status, &started["kind"]), (202, &json!("solve-batch")));
    let done = wait_for(&base, started["id"].as_u64().unwrap());
    assert_eq!(done["state"], json!("done"), "{done}");
    assert_eq!(done["result"].as_array().unwrap().len(), boards.len());
}

#[test]
fn bad_input_gets_400_with_the_command_lines_message_in_the_apis_words() {
    let cache = tempfile::tempdir().unwrap();
    let base = start(options(), cache.path());
    let refused = |path: &str, body: Value, needle: &str| {
        let (status, answer) = post(&base, path, &body);
        assert_eq!(status, 400, "{body}: {answer}");
        let message = answer["error"].as_str().unwrap();
        assert!(
            message.contains(needle),
            "{body}: '{message}' lacks '{needle}'"
        );
        // The request's field names, never the command line's options or serde's types.
        assert!(
            !message.split_whitespace().any(|w| w.starts_with("--")),
            "{body}: '{message}' names a command-line option"
        );
        assert!(
            !message.contains("expected u32") && !message.contains("at line 1 column"),
            "{body}: '{message}' is serde's"
        );
    };
    refused(
        "/api/bfs",
        json!({"puzzle": "3x3", "max_depth": "abc"}),
        "max_depth takes a whole number from 0 to 4294967295, not the text \"abc\"",
    );
    refused(
        "/api/bfs",
        json!({"puzzle": "3x3", "max_depth": -1}),
        "max_depth takes a whole number from 0 to 4294967295, not -1",
    );
    refused(
        "/api/solve",
        json!({"puzzle": "3x3", "position": "1,2,3,4,5,6,8,7,0"}),
        "unsolvable",
    );
    // The command line's limits hold for the API too.
    for timeout in [0.0, 1e-9, -1.0, 1e12] {
        refused(
            "/api/solve",
            json!({"puzzle": "4x4", "position": "1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15", "timeout": timeout}),
            "timeout",
        );
    }
    refused(
        "/api/solve",
        json!({"puzzle": "3x3x3", "position": "R U", "moves": true, "max_length": 101}),
        "max_length 101",
    );
    refused(
        "/api/scramble",
        json!({"puzzle": "3x3x3", "moves": 1_000_001}),
        "moves 1000001",
    );
    refused(
        "/api/scramble",
        json!({"puzzle": "4x4", "count": 0}),
        "count",
    );
    // Unknown routes and methods answer JSON too.
    let (status, answer) = get(&base, "/api/nothing");
    assert_eq!(status, 404);
    assert!(answer["error"].as_str().unwrap().contains("/api/nothing"));
    let (status, answer) = get(&base, "/api/solve");
    assert_eq!(status, 405);
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .contains("GET is not allowed"));
    // The server reads no file a request names.
    refused(
        "/api/solve",
        json!({"puzzle": "/etc/passwd.json", "position": "R"}),
        "does not read definition files",
    );
    refused(
        "/api/bfs",
        json!({"puzzle": "../data/definitions/skewb.kpuzzle.json"}),
        "does not read definition files",
    );
    refused(
        "/api/solve",
        json!({"puzzle": "3x3", "position": "1,2,3,4,5,6,7,7,0"}),
        "more than once",
    );
    refused(
        "/api/solve",
        json!({"puzzle": "3x3", "position": "1,2,3"}),
        "has 9 cells",
    );
    refused(
        "/api/solve",
        json!({"puzzle": "9x9x9", "position": "x"}),
        "unknown puzzle",
    );
    refused(
        "/api/solve",
        json!({"puzzle": "3x3x3", "position": "R U X", "moves": true}),
        "unknown move 'X'",
    );
    refused(
        "/api/solve",
        json!({"puzzle": "3x3", "position": "1,2,3,4,5,6,7,0,8", "timeout": -1}),
        "timeout",
    );
    refused(
        "/api/solve",
        json!({"puzzle": "3x3", "position": "1,2,3,4,5,6,7,0,8", "algorithm": "two-stage", "heuristic": "pdb"}),
        "heuristic is used only by IDA* and A*",
    );
    refused(
        "/api/solve",
        json!({"puzzle": "3x3x3", "position": "R U", "heuristic": "pdb"}),
        "heuristic is for sliding-tile boards",
    );
    refused(
        "/api/solve",
        json!({"puzzle": "3x3x3", "position": "R U", "optimal": true, "table_size": "1gb"}),
        "over this server's limit",
    );
    refused(
        "/api/solve",
        json!({"puzzle": "3x3x3", "position": "R U", "known_solution": "U' R'"}),
        "known_solution is for the 3x3x3 with optimal",
    );
    refused(
        "/api/solve",
        json!({"puzzle": "3x3", "position": "1,2,3,4,5,6,7,0,8", "known_solution": "R"}),
        "known_solution is for cubes",
    );
    refused(
        "/api/solve",
        json!({"puzzle": "3x3", "position": "1,2,3,4,5,6,7,0,8", "algorithm": "quantum"}),
        "unknown variant",
    );
    refused(
        "/api/solve",
        json!({"puzzle": "3x3", "position": "1,2,3,4,5,6,7,0,8", "colour": "red"}),
        "unknown field `colour`",
    );
    refused("/api/solve", json!({"puzzle": "3x3"}), "position");
    refused(
        "/api/bfs",
        json!({"puzzle": "3x3", "metric": "qtm"}),
        "metric is for cubes",
    );
    refused(
        "/api/scramble",
        json!({"puzzle": "3x3", "count": 101}),
        "over the limit",
    );
    refused(
        "/api/pdb",
        json!({"puzzle": "3x3x3", "partition": "4-4"}),
        "for sliding-tile boards",
    );
    refused(
        "/api/replay",
        json!({"puzzle": "3x3", "position": "1,2,3,4,5,6,7,8,0", "solution": "D"}),
        "off the board",
    );

    // Not JSON at all, and a body over the limit.
    let response = agent()
        .post(&format!("{base}/api/solve"))
        .content_type("application/json")
        .send("{not json")
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
    let huge = json!({"puzzle": "3x3", "position": "1".repeat(10_000)});
    let (status, _) = post(&base, "/api/solve", &huge);
    assert_eq!(status, 413);
    assert_eq!(get(&base, "/api/jobs/999999").0, 404);
    assert_eq!(get(&base, "/api/jobs/abc").0, 404);
}

#[test]
fn node_and_time_limits_stop_a_hopeless_search_with_its_lower_bound() {
    let cache = tempfile::tempdir().unwrap();
    let mut by_nodes = options();
    by_nodes.limits.max_nodes = Some(2_000_000);
    let base = start(by_nodes, cache.path());
    let hopeless = json!({"puzzle": "4x4", "position": HARD_BOARD, "goal": BLANK_FIRST,
                          "algorithm": "ida", "heuristic": "manhattan"});
    let (status, stopped) = post(&base, "/api/solve", &hopeless);
    assert_eq!(status, 200, "{stopped}");
    assert_eq!(stopped["timed_out"], json!(true));
    assert_eq!(stopped["solution"], json!(""));
    let bound = stopped["lower_bound"].as_u64().unwrap();
    assert!((40..=65).contains(&bound), "{stopped}");
    assert!(stopped["nodes_expanded"].as_u64().unwrap() < 20_000_000);

    let mut by_time = options();
    by_time.limits.max_seconds = Some(Duration::from_millis(500));
    let base = start(by_time, cache.path());
    let started = Instant::now();
    let (status, stopped) = post(&base, "/api/solve", &hopeless);
    assert_eq!(status, 200, "{stopped}");
    assert_eq!(stopped["timed_out"], json!(true));
    assert!(started.elapsed() < Duration::from_secs(10));
    // The shorter of the request's timeout and the server's limit wins.
    let quick = json!({"puzzle": "4x4", "position": HARD_BOARD, "goal": BLANK_FIRST,
                       "algorithm": "ida", "heuristic": "manhattan", "timeout": 0.1});
    let (_, stopped) = post(&base, "/api/solve", &quick);
    assert!(stopped["seconds"].as_f64().unwrap() < 0.45, "{stopped}");

    // The wall-clock limit stops an enumeration after the level under way.
    let mut by_wall = options();
    by_wall.wall_limit = Some(Duration::from_millis(300));
    let base = start(by_wall, cache.path());
    let (status, counted) = post(
        &base,
        "/api/bfs",
        &json!({"puzzle": "5x5", "max_depth": 40}),
    );
    assert_eq!(status, 200, "{counted}");
    assert_eq!(counted["complete"], json!(false));
    assert!(
        counted["stopped"].as_str().unwrap().contains("cancelled"),
        "{counted}"
    );
}

#[test]
fn jobs_stream_their_progress_and_can_be_cancelled() {
    let cache = tempfile::tempdir().unwrap();
    let base = start(options(), cache.path());
    let hopeless = json!({"puzzle": "4x4", "position": HARD_BOARD, "goal": BLANK_FIRST,
                          "algorithm": "ida", "heuristic": "manhattan"});
    let (status, started) = post(&base, "/api/jobs/solve", &hopeless);
    assert_eq!(status, 202, "{started}");
    let id = started["id"].as_u64().unwrap();

    // The event stream: progress with a rising node count, then the result once cancelled.
    let events_path = started["events"].as_str().unwrap().to_string();
    let reader = {
        let base = base.clone();
        std::thread::spawn(move || {
            let mut response = agent().get(&format!("{base}{events_path}")).call().unwrap();
            response.body_mut().read_to_string().unwrap()
        })
    };
    std::thread::sleep(Duration::from_millis(1200));
    let (_, running) = get(&base, &format!("/api/jobs/{id}"));
    assert_eq!(running["state"], json!("running"), "{running}");
    assert!(
        running["progress"]["nodes"].as_u64().unwrap() > 0,
        "{running}"
    );
    let cancelled_at = Instant::now();
    let (status, answer) = delete(&base, &format!("/api/jobs/{id}"));
    assert_eq!((status, &answer["cancelled"]), (200, &json!(true)));
    let done = wait_for(&base, id);
    assert!(cancelled_at.elapsed() < Duration::from_secs(5));
    assert_eq!(done["state"], json!("cancelled"), "{done}");
    assert_eq!(done["result"]["timed_out"], json!(true));
    assert!(
        done["result"]["lower_bound"].as_u64().unwrap() > 0,
        "{done}"
    );
    assert!(done["progress"]["cancelled"] == json!(true));

    let stream = reader.join().unwrap();
    let progress = stream.matches("event: progress").count();
    assert!(progress >= 2, "{stream}");
    assert!(stream.contains("event: cancelled"), "{stream}");
    let thresholds: Vec<u64> = stream
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str::<Value>(d).ok())
        .filter_map(|d| d["threshold"].as_u64())
        .collect();
    assert!(
        thresholds.windows(2).all(|w| w[0] <= w[1]),
        "{thresholds:?}"
    );

    // An enumeration job streams its levels and stops between levels when cancelled.
    let (_, started) = post(&base, "/api/jobs/bfs", &json!({"puzzle": "5x5"}));
    let id = started["id"].as_u64().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    delete(&base, &format!("/api/jobs/{id}"));
    let done = wait_for(&base, id);
    assert_eq!(done["state"], json!("cancelled"), "{done}");
    assert!(done["result"]["stopped"]
        .as_str()
        .unwrap()
        .contains("cancelled"));
    let levels: Vec<u64> = serde_json::from_value(done["result"]["levels"].clone()).unwrap();
    assert_eq!(&levels[..3], &[1, 2, 4]);

    // A job with a bad position or option is refused at submission, with the 400 message
    // the work would have ended with.
    for (path, body, needle) in [
        (
            "/api/jobs/solve",
            json!({"puzzle": "3x3", "position": "1,2,3,4,5,6,8,7,0"}),
            "unsolvable",
        ),
        (
            "/api/jobs/solve",
            json!({"puzzle": "3x3x3", "position": "R U X"}),
            "position",
        ),
        (
            "/api/jobs/solve",
            json!({"puzzle": "3x3", "position": "1,2,3,4,5,6,7,0,8", "metric": "qtm"}),
            "metric",
        ),
        (
            "/api/jobs/bfs",
            json!({"puzzle": "3x3x3", "goal": "1,2"}),
            "goal",
        ),
        (
            "/api/jobs/pdb",
            json!({"puzzle": "2x2x2", "partition": "4-4"}),
            "for sliding-tile boards; 2x2x2 builds what it needs",
        ),
    ] {
        let (status, answer) = post(&base, path, &body);
        assert_eq!(status, 400, "{body}: {answer}");
        let message = answer["error"].as_str().unwrap();
        assert!(message.contains(needle), "{body}: '{message}'");
    }
}

#[test]
fn concurrent_requests_share_the_slots_and_a_full_line_is_refused() {
    let cache = tempfile::tempdir().unwrap();
    let base = start(options(), cache.path());
    // Sixteen 8-puzzle boards at once on two slots: every one answered and replayed.
    let scrambles = post(
        &base,
        "/api/scramble",
        &json!({"puzzle": "3x3", "count": 16, "seed": 3}),
    )
    .1;
    let boards: Vec<String> = scrambles
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["position"].as_str().unwrap().to_string())
        .collect();
    let workers: Vec<_> = boards
        .into_iter()
        .map(|board| {
            let base = base.clone();
            std::thread::spawn(move || {
                let (status, solved) = post(
                    &base,
                    "/api/solve",
                    &json!({"puzzle": "3x3", "position": board, "algorithm": "ida", "heuristic": "manhattan"}),
                );
                assert_eq!(status, 200, "{solved}");
                assert!(replays(
                    &base,
                    "3x3",
                    &board,
                    solved["solution"].as_str().unwrap(),
                    None
                ));
                solved["length"].as_u64().unwrap()
            })
        })
        .collect();
    for worker in workers {
        assert!(worker.join().unwrap() <= 31);
    }

    // One slot, no waiting line: while a hopeless job runs, the next request gets 503 and
    // the health check still answers.
    let mut single = options();
    single.max_jobs = 1;
    single.max_waiting = 0;
    let base = start(single, cache.path());
    let hopeless = json!({"puzzle": "4x4", "position": HARD_BOARD, "goal": BLANK_FIRST,
                          "algorithm": "ida", "heuristic": "manhattan"});
    let (status, started) = post(&base, "/api/jobs/solve", &hopeless);
    assert_eq!(status, 202);
    std::thread::sleep(Duration::from_millis(300));
    let (status, answer) = post(
        &base,
        "/api/solve",
        &json!({"puzzle": "3x3", "position": "1,2,3,4,5,6,7,0,8"}),
    );
    assert_eq!(status, 503, "{answer}");
    let (status, health) = get(&base, "/api/health");
    assert_eq!(status, 200);
    assert_eq!(health["running"], json!(1));
    let id = started["id"].as_u64().unwrap();
    delete(&base, &format!("/api/jobs/{id}"));
    wait_for(&base, id);
    let (status, _) = post(
        &base,
        "/api/solve",
        &json!({"puzzle": "3x3", "position": "1,2,3,4,5,6,7,0,8"}),
    );
    assert_eq!(status, 200);
}

/// Raises this process's soft limit on open files to `wanted`, where the hard limit allows.
fn raise_open_file_limit(wanted: u64) {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    #[allow(unsafe_code)]
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < wanted {
            limit.rlim_cur = wanted.min(limit.rlim_max);
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

/// A thousand half-sent requests held open at once (under the default connection limit)
/// do not keep the health check waiting: it answers well within the header-read timeout a
/// server blocked by them would wait out (a quarter of it: room for a loaded machine, where a
/// second was once exceeded by 15 ms beside a build).
#[test]
fn a_thousand_half_open_connections_leave_health_answering() {
    use std::io::Write;
    const HALF_OPEN: usize = 1000;
    const { assert!(HALF_OPEN < godsearch_server::MAX_CONNECTIONS) };
    // Both ends of each connection are open in this process: room for them.
    raise_open_file_limit((2 * HALF_OPEN + 256) as u64);
    let cache = tempfile::tempdir().unwrap();
    let base = start(options(), cache.path());
    let address = base.trim_start_matches("http://");
    let held: Vec<std::net::TcpStream> = (0..HALF_OPEN)
        .map(|_| {
            let mut s = std::net::TcpStream::connect(address).unwrap();
            s.write_all(b"POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Le")
                .unwrap();
            s
        })
        .collect();
    let asked = Instant::now();
    let (status, health) = get(&base, "/api/health");
    let took = asked.elapsed();
    assert_eq!(status, 200, "{health}");
    let bound = godsearch_server::HEADER_READ_TIMEOUT / 4;
    assert!(took < bound, "health took {took:?}, over {bound:?}");
    drop(held);
}

/// Slow or half-open connections are closed after the header-read timeout, and past the
/// connection limit a new one is closed at once: neither can keep the health check away for
/// longer than the timeout.
#[test]
fn half_open_connections_are_closed_and_bounded() {
    use std::io::{Read, Write};
    let cache = tempfile::tempdir().unwrap();
    let base = start(
        ServerOptions {
            max_connections: 4,
            header_read_timeout: Duration::from_millis(300),
            ..options()
        },
        cache.path(),
    );
    let address = base.trim_start_matches("http://");
    // Four connections that send half a request line and stop (slowloris).
    let mut slow: Vec<std::net::TcpStream> = (0..4)
        .map(|_| {
            let mut s = std::net::TcpStream::connect(address).unwrap();
            s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
                .unwrap();
            s
        })
        .collect();
    // Every slot is taken: a fifth connection is closed without an answer.
    let mut fifth = std::net::TcpStream::connect(address).unwrap();
    fifth
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let _ = fifth.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n");
    let mut buffer = [0u8; 512];
    let read = fifth
        .read(&mut buffer)
        .or_else(|e| match e.kind() {
            std::io::ErrorKind::ConnectionReset => Ok(0),
            _ => Err(e),
        })
        .expect("closed at once, not left waiting");
    assert_eq!(read, 0, "{}", String::from_utf8_lossy(&buffer[..read]));
    // The server closes each slow one after the header timeout (the read sees the end, or a
    // 408), not after the client's own 10 s.
    for s in &mut slow {
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let read = s.read(&mut buffer).expect("closed by the server");
        let answer = String::from_utf8_lossy(&buffer[..read]);
        assert!(
            read == 0 || answer.starts_with("HTTP/1.1 408"),
            "a half-open connection got '{answer}'"
        );
    }
    // Their slots are free again: the health check answers.
    let (status, health) = get(&base, "/api/health");
    assert_eq!(status, 200, "{health}");
}

/// Answers are bounded by bytes: a report over --max-response ends in 413 with its size (the
/// job's too), and scrambles whose moves together pass the one-scramble limit are refused
/// before any work.
#[test]
fn answers_are_bounded_by_bytes() {
    let cache = tempfile::tempdir().unwrap();
    let base = start(
        ServerOptions {
            max_response: 20_000,
            ..options()
        },
        cache.path(),
    );
    let small = json!({"puzzle": "3x3", "count": 2, "seed": 1});
    let (status, _) = post(&base, "/api/scramble", &small);
    assert_eq!(status, 200);
    let large = json!({"puzzle": "4x4", "count": 100, "moves": 1000, "seed": 1});
    let (status, answer) = post(&base, "/api/scramble", &large);
    assert_eq!(status, 413, "{answer}");
    let message = answer["error"].as_str().unwrap();
    assert!(
        message.contains("over this server's limit of 20000"),
        "{message}"
    );
    let (status, job) = post(&base, "/api/jobs/scramble", &large);
    assert_eq!(status, 202);
    let done = wait_for(&base, job["id"].as_u64().unwrap());
    assert_eq!(done["state"], "error", "{done}");
    assert_eq!(done["error"]["status"], 413, "{done}");
    let (status, answer) = post(
        &base,
        "/api/scramble",
        &json!({"puzzle": "3x3x3", "count": 100, "moves": 20_000}),
    );
    assert_eq!(status, 400, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("moves in all"));
}

/// A job's time limit is on its own work: the pattern databases it builds first (1.4 s for
/// 6-6-3 here, against a limit of 0.3 s) are shown as tables in its progress and not charged,
/// so the search after them runs and answers optimally instead of being cut short.
#[test]
fn table_builds_are_shown_and_not_charged_to_the_time_limit() {
    let cache = tempfile::tempdir().unwrap();
    let base = start(
        ServerOptions {
            wall_limit: Some(Duration::from_millis(300)),
            ..options()
        },
        cache.path(),
    );
    let request = json!({"puzzle": "4x4", "position": "5,1,2,3,9,6,7,4,13,10,11,8,0,14,15,12",
                         "algorithm": "ida", "pdb": "6-6-3"});
    let (status, started) = post(&base, "/api/jobs/solve", &request);
    assert_eq!(status, 202, "{started}");
    let id = started["id"].as_u64().unwrap();
    let mut tables_seen = Vec::new();
    let done = loop {
        let (_, doc) = get(&base, &format!("/api/jobs/{id}"));
        if let Some(what) = doc["progress"]["tables"].as_str().filter(|t| !t.is_empty()) {
            tables_seen.push(what.to_string());
        }
        if doc["state"] != json!("running") {
            break doc;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(done["state"], json!("done"), "{done}");
    assert_eq!(done["result"]["length"], json!(9), "{done}");
    assert_eq!(done["result"]["timed_out"], json!(false), "{done}");
    assert!(
        tables_seen
            .iter()
            .any(|t| t.starts_with("the 6-6-3 pattern databases, ") && t.ends_with(" of 3")),
        "{tables_seen:?}"
    );
    let table_seconds = done["progress"]["table_seconds"].as_f64().unwrap();
    assert!(table_seconds > 0.0, "{done}");
    assert_eq!(done["progress"]["tables"], json!(""), "{done}");
}

/// Starts the job `request` at `route` on a fresh cache, waits until `building(progress)`
/// says it is building its tables, cancels it, and checks that it ends cancelled within a
/// second, frees its slot, and leaves no table in the cache.
fn cancelled_while_building(route: &str, request: &Value, building: impl Fn(&Value) -> bool) {
    let cache = tempfile::tempdir().unwrap();
    let base = start(options(), cache.path());
    let (status, started) = post(&base, route, request);
    assert_eq!(status, 202, "{started}");
    let id = started["id"].as_u64().unwrap();
    let since = Instant::now();
    loop {
        let (_, doc) = get(&base, &format!("/api/jobs/{id}"));
        if building(&doc["progress"]) {
            break;
        }
        assert_eq!(doc["state"], json!("running"), "it ended first: {doc}");
        assert!(since.elapsed() < Duration::from_secs(60), "{doc}");
        std::thread::sleep(Duration::from_millis(20));
    }
    let cancelled_at = Instant::now();
    delete(&base, &format!("/api/jobs/{id}"));
    let done = wait_for(&base, id);
    let took = cancelled_at.elapsed();
    assert_eq!(done["state"], json!("cancelled"), "{done}");
    assert!(took < Duration::from_secs(1), "stopped after {took:?}");
    let (_, health) = get(&base, "/api/health");
    assert_eq!(health["running"], json!(0), "{health}");
    // Nothing half-built was kept.
    let tables: Vec<_> = std::fs::read_dir(cache.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "tbl"))
        .collect();
    assert!(tables.is_empty(), "{tables:?}");
}

/// A board's pattern-database build stops within a moment of its cancel (it looks before each
/// task of a level): the job ends cancelled and frees its slot.
#[test]
fn a_cancelled_database_build_stops_at_once() {
    // A 7-tile group of the 4x4: 57.7 million placements, seconds of building.
    let request = json!({"puzzle": "4x4", "partition": "1,2,3,4,5,6,7/8,9,10,11,12,13,14,15"});
    cancelled_while_building("/api/jobs/pdb", &request, |progress| {
        progress["tables"]
            .as_str()
            .is_some_and(|t| t.contains("1 of 2"))
            && progress["level"].as_u64().unwrap_or(0) >= 2
    });
}

/// The subgoal solver's stage tables (the 5x5's take 1.4 s to build) stop at a cancel too,
/// and none is saved half-built.
#[test]
fn a_cancelled_stage_table_build_stops_at_once() {
    let request = json!({"puzzle": "5x5", "algorithm": "subgoal",
        "position": "16,2,3,4,9,8,1,13,14,7,12,21,15,19,5,17,11,18,10,24,22,6,20,23,0"});
    cancelled_while_building("/api/jobs/solve", &request, |progress| {
        progress["tables"]
            .as_str()
            .is_some_and(|t| t.contains("stage tables"))
    });
}

/// The two-phase tables stop at a cancel during their levels, and are not saved half-built
/// (they were, before: the cache then held a pruning table with levels missing).
#[test]
fn a_cancelled_two_phase_build_stops_at_once() {
    let request = json!({"puzzle": "3x3x3", "position": "R U F"});
    cancelled_while_building("/api/jobs/solve", &request, |progress| {
        progress["tables"]
            .as_str()
            .is_some_and(|t| t.contains("two-phase"))
            && progress["level"].as_u64().unwrap_or(0) >= 3
    });
}

/// `/api/puzzles/{name}` opens any name a request may give, through the registry, so that a
/// page offers sizes and stacks without reading names itself; a name no puzzle has, a board
/// that cannot be made and a file path are refused with the registry's words.
#[test]
fn any_puzzle_name_answers_its_entry() {
    let cache = tempfile::tempdir().unwrap();
    let base = start(options(), cache.path());
    let (status, stack) = get(&base, "/api/puzzles/pancake-12");
    assert_eq!(status, 200, "{stack}");
    assert_eq!(
        (&stack["name"], &stack["kind"]),
        (&json!("pancake-12"), &json!("pancake"))
    );
    assert_eq!(stack["goal"], json!("1,2,3,4,5,6,7,8,9,10,11,12"));
    // A board by another of its names answers the name requests use.
    let (status, board) = get(&base, "/api/puzzles/15-puzzle");
    assert_eq!(status, 200, "{board}");
    assert_eq!(
        (&board["name"], &board["kind"]),
        (&json!("4x4"), &json!("tiles"))
    );
    assert_eq!(
        board["goal"],
        json!("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0")
    );
    let (status, skewb) = get(&base, "/api/puzzles/skewb");
    assert_eq!(
        (status, &skewb["moves"]),
        (200, &json!(["R", "U", "L", "B"]))
    );
    for (name, says) in [
        ("colour", "unknown puzzle 'colour'"),
        ("1x5", "1x5"),
        ("pancake-1", "pancake"),
        ("x.tws", "file"),
    ] {
        let (status, refused) = get(&base, &format!("/api/puzzles/{name}"));
        let said = refused["error"].as_str().unwrap_or_default();
        assert_eq!(status, 400, "{name}: {refused}");
        assert!(said.contains(says), "{name}: {said}");
    }
}

/// `/api/openapi.json` describes the routes the server has: its paths are exactly the `/api`
/// routes of the router (read from the server's source), each answers at the method the
/// document gives, and each request body's fields are exactly those the server reads (serde's
/// list of expected fields, from refusing an unknown one).
#[test]
fn the_openapi_document_describes_every_route() {
    let cache = tempfile::tempdir().unwrap();
    let base = start(options(), cache.path());
    let (status, document) = get(&base, "/api/openapi.json");
    assert_eq!(status, 200);
    assert_eq!(document["openapi"], json!("3.1.0"));
    let paths = document["paths"].as_object().unwrap();
    // Every reference names a schema the document holds.
    let text = document.to_string();
    for reference in text.split("\"#/components/schemas/").skip(1) {
        let name = reference.split('"').next().unwrap();
        assert!(
            document["components"]["schemas"].get(name).is_some(),
            "{name} is referred to but not described"
        );
    }

    let source = include_str!("../src/lib.rs");
    let mut routes: Vec<&str> = source
        .split(".route(\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|path| path.starts_with("/api/"))
        .collect();
    routes.sort();
    let mut described: Vec<&str> = paths.keys().map(String::as_str).collect();
    described.sort();
    assert_eq!(described, routes);

    for (path, item) in paths {
        let concrete = path.replace("{id}", "999999");
        for method in ["get", "post", "delete"] {
            let Some(operation) = item.get(method) else {
                continue;
            };
            assert!(operation["summary"].is_string(), "{method} {path}");
            let (status, answer) = match method {
                "get" if path.ends_with("/events") => {
                    // A stream: a missing job answers 404 at once, as JSON.
                    get(&base, &concrete)
                }
                "get" => get(&base, &concrete),
                "delete" => delete(&base, &concrete),
                _ => post(&base, &concrete, &json!({"colour": "red"})),
            };
            assert_ne!(status, 405, "{method} {path}: {answer}");
            let said = answer["error"].as_str().unwrap_or_default();
            assert!(
                !said.starts_with("no such route"),
                "{method} {path}: {said}"
            );
            if method != "post" {
                continue;
            }
            // The body's fields, as the document has them and as serde reads them.
            let schema = &operation["requestBody"]["content"]["application/json"]["schema"];
            let name = schema["$ref"]
                .as_str()
                .and_then(|r| r.strip_prefix("#/components/schemas/"))
                .unwrap_or_else(|| panic!("{path}: {schema}"));
            let mut fields: Vec<&str> = document["components"]["schemas"][name]["properties"]
                .as_object()
                .unwrap_or_else(|| panic!("{name} has no properties"))
                .keys()
                .map(String::as_str)
                .collect();
            fields.sort();
            let expected = said
                .split_once("expected one of ")
                .unwrap_or_else(|| panic!("{path}: {said}"))
                .1;
            let mut read: Vec<&str> = expected.split(", ").map(|f| f.trim_matches('`')).collect();
            read.sort();
            assert_eq!(fields, read, "{path}");
        }
    }
}

/// A half-depth search hears a cancel between two levels of the goal's positions it holds:
/// the job ends cancelled soon after, instead of holding the whole ball first.
#[test]
fn a_cancelled_half_depth_search_stops_between_levels() {
    let cache = tempfile::tempdir().unwrap();
    let base = start(options(), cache.path());
    let request = json!({"puzzle": "4x4", "position": "12,10,6,0,9,8,13,15,11,7,3,2,5,4,14,1",
                         "algorithm": "half-depth", "depth": 22});
    let (status, started) = post(&base, "/api/jobs/solve", &request);
    assert_eq!(status, 202, "{started}");
    let id = started["id"].as_u64().unwrap();
    loop {
        let (_, doc) = get(&base, &format!("/api/jobs/{id}"));
        assert_eq!(doc["state"], json!("running"), "it ended first: {doc}");
        if doc["progress"]["level"].as_u64().unwrap_or(0) >= 12 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let cancelled_at = Instant::now();
    delete(&base, &format!("/api/jobs/{id}"));
    let done = wait_for(&base, id);
    let took = cancelled_at.elapsed();
    assert_eq!(done["state"], json!("cancelled"), "{done}");
    eprintln!("stopped {took:?} after the cancel");
    assert!(took < Duration::from_secs(2), "stopped after {took:?}");
}
