//! The batch path every front end's solve takes: a puzzle's batch checks the request, reads
//! positions alone or as lines of Korf's format, makes its solver once and solves them in
//! order; a server's or Python's request is a batch of one and gets the same answer, and a
//! batch request (`Workbench::solve_batch`) answers each position as its own request would.

use godsearch_app::batch::{BatchSetup, FrontEndOptions, SolveBatchRequest, Source};
use godsearch_app::cache::TableCache;
use godsearch_app::choice::{Algorithm, HeuristicChoice};
use godsearch_app::progress::NoProgress;
use godsearch_app::registry;
use godsearch_app::request::{
    JobControl, JobLimits, PdbGroup, PdbJob, SolveReport, SolveRequest, Workbench,
};
use godsearch_app::AppError;
use godsearch_puzzles::tiles::{Board, Move, Shape};

/// Bytes the tests' solvers may hold.
const MEMORY: u64 = 1 << 30;

/// A 3x3 board and its optimal length.
const BOARD: &str = "2 4 0 1 8 5 3 6 7";
const BOARD_LENGTH: usize = 26;

fn ida_manhattan(puzzle: &str) -> SolveRequest {
    SolveRequest {
        algorithm: Algorithm::Ida,
        heuristic: HeuristicChoice::Manhattan,
        ..SolveRequest::new(puzzle, "")
    }
}

fn setup(notices: &mut (dyn FnMut(godsearch_app::progress::Notice) + Send)) -> BatchSetup<'_> {
    BatchSetup {
        limits: JobLimits::local(MEMORY),
        positions: None,
        progress: &NoProgress,
        notices,
        stop: None,
    }
}

#[test]
fn a_batch_reads_korf_lines_and_solves_them_in_order_as_requests_do() {
    let dir = tempfile::tempdir().unwrap();
    let bench = Workbench::for_one_batch(TableCache::new(dir.path().to_path_buf()));
    let puzzle = registry::open("3x3", false).unwrap();
    let request = ida_manhattan("3x3");
    let batch = puzzle
        .batch(&request)
        .expect("boards solve batches")
        .unwrap();
    // A line may carry an id and a length; a position given alone is only a board.
    let line = batch
        .read(&format!("k1 {BOARD_LENGTH} {BOARD}"), Source::Line)
        .unwrap();
    assert!(batch
        .read(&format!("k1 {BOARD_LENGTH} {BOARD}"), Source::Given)
        .is_err());
    // One word a tile is one board.
    let words: Vec<String> = BOARD.split(' ').map(String::from).collect();
    assert_eq!(batch.positions_in(&words), [BOARD]);
    let given = batch.read(BOARD, Source::Given).unwrap();
    let mut quiet = |_| {};
    let solver = batch.solver(&bench, setup(&mut quiet)).unwrap();
    assert!(solver.watched(), "IDA* publishes its threshold");
    let reports: Vec<_> = solver
        .solve(&[line, given], None)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let [SolveReport::Tiles(first), SolveReport::Tiles(second)] = &reports[..] else {
        panic!("two board reports: {reports:?}");
    };
    assert_eq!(first.id.as_deref(), Some("k1"));
    assert_eq!(first.expected_length, Some(BOARD_LENGTH));
    assert_eq!(first.length, BOARD_LENGTH);
    assert_eq!((second.id.as_deref(), second.length), (None, BOARD_LENGTH));
    // A request of one position takes the same path.
    let one = SolveRequest {
        position: BOARD.into(),
        ..ida_manhattan("3x3")
    };
    let control = JobControl::new(None);
    match bench
        .solve(&one, &JobLimits::local(MEMORY), &control)
        .unwrap()
    {
        SolveReport::Tiles(solved) => assert_eq!(solved.solution, first.solution),
        other => panic!("a board report: {other:?}"),
    }
}

#[test]
fn a_batch_refuses_what_it_would_not_use_and_positions_it_did_not_read() {
    let puzzle = registry::open("3x3", false).unwrap();
    let batch = puzzle.batch(&ida_manhattan("3x3")).unwrap().unwrap();
    let unused = batch.check_front_end(FrontEndOptions {
        cache: true,
        ..FrontEndOptions::default()
    });
    assert!(
        matches!(&unused, Err(AppError::Input(m)) if m.contains("«cache» is used only by")),
        "{unused:?}"
    );
    let board = batch.read(BOARD, Source::Given).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let bench = Workbench::for_one_batch(TableCache::new(dir.path().to_path_buf()));
    let cube = registry::open("2x2x2", false).unwrap();
    let cubes = cube
        .batch(&SolveRequest::new("2x2x2", ""))
        .unwrap()
        .unwrap();
    let mut quiet = |_| {};
    let solver = cubes.solver(&bench, setup(&mut quiet)).unwrap();
    let solved = solver.solve(&[board], None);
    assert!(
        matches!(&solved[..], [Err(AppError::Check(m))] if m.contains("another puzzle")),
        "{:?}",
        solved.iter().map(|r| r.as_ref().err()).collect::<Vec<_>>()
    );
    // Puzzles solved a request a position have no batch.
    let pancake = registry::open("pancake-5", false).unwrap();
    assert!(pancake.batch(&SolveRequest::new("pancake-5", "")).is_none());
}

/// `Workbench::solve_batch`: a report a position in order, each the one the position's own
/// request gets; a position that cannot be read is named by its index before any work.
#[test]
fn a_workbench_batch_answers_each_position_as_its_own_request_would() {
    let dir = tempfile::tempdir().unwrap();
    let bench = Workbench::for_one_batch(TableCache::new(dir.path().to_path_buf()));
    let limits = JobLimits::local(MEMORY);
    let boards = [BOARD, "1 2 3 4 5 6 7 0 8", "1 2 3 4 5 6 7 8 0"];
    let asked: SolveBatchRequest = serde_json::from_value(serde_json::json!({
        "puzzle": "3x3",
        "positions": boards,
        "algorithm": "ida",
        "heuristic": "manhattan",
    }))
    .unwrap();
    let reports = bench
        .solve_batch(&asked, &limits, &JobControl::new(None))
        .unwrap();
    assert_eq!(reports.len(), boards.len());
    for (board, report) in boards.iter().zip(&reports) {
        let one = SolveRequest {
            position: board.to_string(),
            ..ida_manhattan("3x3")
        };
        let alone = bench.solve(&one, &limits, &JobControl::new(None)).unwrap();
        let (SolveReport::Tiles(batched), SolveReport::Tiles(alone)) = (report, &alone) else {
            panic!("board reports: {report:?}");
        };
        assert_eq!(batched.solution, alone.solution, "{board}");
    }
    // Puzzles without batches are solved a request a position, with the same indices.
    for (puzzle, positions) in [
        ("pancake-5", ["2,1,3,4,5", "2,2,3,4,5"]),
        ("3x3", [BOARD, "1,2"]),
    ] {
        let asked = SolveBatchRequest {
            request: SolveRequest::new(puzzle, ""),
            positions: positions.map(String::from).to_vec(),
        };
        let refused = bench.solve_batch(&asked, &limits, &JobControl::new(None));
        assert!(
            matches!(&refused, Err(AppError::Input(m)) if m.starts_with("positions[1]: ")),
            "{puzzle}: {refused:?}"
        );
    }
    // Cancelled before it starts, it answers the positions finished: none.
    let control = JobControl::new(None);
    control.cancel();
    assert_eq!(
        bench.solve_batch(&asked, &limits, &control).unwrap().len(),
        0
    );
}

/// A batch request reads as a solve request does, with `positions` for `position`.
#[test]
fn a_batch_request_is_a_solve_request_with_a_list_of_positions() {
    let read = |value: serde_json::Value| {
        serde_json::from_value::<SolveBatchRequest>(value).map_err(|e| e.to_string())
    };
    let asked =
        read(serde_json::json!({"puzzle": "3x3x3", "positions": ["R U"], "moves": true})).unwrap();
    assert_eq!(asked.positions, ["R U"]);
    assert!(asked.request.moves && asked.request.position.is_empty());
    for (value, says) in [
        (
            serde_json::json!({"puzzle": "3x3"}),
            "missing field `positions`",
        ),
        (
            serde_json::json!({"puzzle": "3x3", "position": "1", "positions": []}),
            "a batch lists its positions in `positions`",
        ),
        (
            serde_json::json!({"puzzle": "3x3", "positions": "1,2,3"}),
            "positions: ",
        ),
        (
            serde_json::json!({"puzzle": "3x3", "positions": [], "colour": "red"}),
            "`positions`, `generators`",
        ),
        (
            serde_json::json!({"positions": []}),
            "missing field `puzzle`",
        ),
    ] {
        let refused = read(value.clone()).expect_err(&value.to_string());
        assert!(refused.contains(says), "{value}: {refused}");
    }
}

/// Each of `boards` read as given and solved under `request` as one batch of `puzzle`, the
/// notices of the solver's setup (builds) given to `notices`.
fn solve_boards(
    puzzle: &dyn registry::Puzzle,
    bench: &Workbench,
    request: &SolveRequest,
    boards: &[&str],
    notices: &mut (dyn FnMut(godsearch_app::progress::Notice) + Send),
) -> Vec<godsearch_app::report::Solution> {
    let batch = puzzle.batch(request).unwrap().unwrap();
    let positions: Vec<_> = boards
        .iter()
        .map(|b| batch.read(b, Source::Given).unwrap())
        .collect();
    let solver = batch.solver(bench, setup(notices)).unwrap();
    let reports = solver.solve(&positions, None);
    reports
        .into_iter()
        .map(|r| match r.unwrap() {
            SolveReport::Tiles(solved) => solved,
            other => panic!("a board report: {other:?}"),
        })
        .collect()
}

/// Asserts that `solution` (the blank's moves) leads `board` of `shape` to `goal`.
fn assert_replays(shape: Shape, board: &str, solution: &str, goal: &Board) {
    let mut replay = Board::parse(shape, board).unwrap();
    for m in Move::parse_sequence(solution).unwrap() {
        assert!(replay.apply(m));
    }
    assert_eq!(&replay, goal, "{board}: {solution}");
}

/// Asserts that each request is refused as a bad input naming its reason.
fn assert_refused(puzzle: &dyn registry::Puzzle, refused: &[(SolveRequest, &str)]) {
    for (request, why) in refused {
        assert!(
            matches!(puzzle.batch(request).unwrap(), Err(AppError::Input(m)) if m.contains(why)),
            "{why}"
        );
    }
}

/// `both_ways`: each iteration raced between the board's search and the goal's (turns of a
/// tenth of a second, so these boards of a fraction of a second take several): the same
/// shortest length as forwards, replayed here; refused beside `reverse` and for A*.
#[test]
fn a_board_searched_both_ways_gets_a_shortest_solution() {
    let dir = tempfile::tempdir().unwrap();
    let bench = Workbench::for_one_batch(TableCache::new(dir.path().to_path_buf()));
    let puzzle = registry::open("4x4", false).unwrap();
    let request = |both_ways| SolveRequest {
        algorithm: Algorithm::ParallelIda,
        heuristic: HeuristicChoice::Manhattan,
        both_ways,
        ..SolveRequest::new("4x4", "")
    };
    // Searched forwards and backwards in 0.2 and 0.1 s, 0.6 and 0.3 s.
    let boards = [
        "5,4,7,3,15,6,2,10,9,14,0,8,1,12,13,11",
        "1,13,6,5,10,3,11,9,8,4,0,14,15,2,12,7",
    ];
    let solve = |request: &SolveRequest| {
        solve_boards(puzzle.as_ref(), &bench, request, &boards, &mut |_| {})
    };
    let forward = solve(&request(false));
    let raced = solve(&request(true));
    let shape = Shape::new(4, 4).unwrap();
    for ((board, there), both) in boards.iter().zip(&forward).zip(&raced) {
        assert_eq!(both.length, there.length, "{board}");
        assert!(both.optimal, "{board}");
        assert!(
            both.heuristic.contains("both ways: solved"),
            "{}",
            both.heuristic
        );
        assert_replays(shape, board, &both.solution, &Board::goal(shape));
    }
    // A search of more than a turn hands over to the other direction.
    assert!(
        raced.iter().any(|r| r.heuristic.contains(" turns ")),
        "{raced:?}"
    );
    let refused = [
        (
            SolveRequest {
                reverse: true,
                ..request(true)
            },
            "give one of them",
        ),
        (
            SolveRequest {
                algorithm: Algorithm::Astar,
                ..request(true)
            },
            "«both_ways» is used only by IDA*",
        ),
    ];
    assert_refused(puzzle.as_ref(), &refused);
}

/// `probe`: each way (here each direction, then each of two partitions) searched for a
/// millisecond from the start, then the one with the fewest nodes on the last iteration all
/// finished goes on alone (or the first probe solves the board): the same shortest length,
/// replayed here, the way chosen reported; refused with one way, with a token, without it for
/// several partitions, and for A*.
#[test]
fn a_board_probed_several_ways_gets_a_shortest_solution_by_the_way_chosen() {
    let dir = tempfile::tempdir().unwrap();
    let bench = Workbench::for_one_batch(TableCache::new(dir.path().to_path_buf()));
    let puzzle = registry::open("4x4", false).unwrap();
    let both_ways = SolveRequest {
        algorithm: Algorithm::ParallelIda,
        heuristic: HeuristicChoice::Manhattan,
        both_ways: true,
        probe: Some(0.001),
        ..SolveRequest::new("4x4", "")
    };
    let partitions = SolveRequest {
        algorithm: Algorithm::ParallelIda,
        pdb: Some("4-4-4-3 5-5-5".into()),
        probe: Some(0.001),
        ..SolveRequest::new("4x4", "")
    };
    // The last, a move from the goal, is solved by the first way's probe.
    let boards = [
        "5,4,7,3,15,6,2,10,9,14,0,8,1,12,13,11",
        "1,13,6,5,10,3,11,9,8,4,0,14,15,2,12,7",
        "1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15",
    ];
    let solve = |request: &SolveRequest| {
        solve_boards(puzzle.as_ref(), &bench, request, &boards, &mut |_| {})
    };
    let forward = solve(&SolveRequest {
        both_ways: false,
        probe: None,
        ..both_ways.clone()
    });
    let shape = Shape::new(4, 4).unwrap();
    for (request, ways) in [
        (&both_ways, ["forwards", "backwards"]),
        (&partitions, ["4-4-4-3 forwards", "5-5-5 forwards"]),
    ] {
        for ((board, there), probed) in boards.iter().zip(&forward).zip(solve(request)) {
            assert_eq!(probed.length, there.length, "{board}");
            assert!(probed.optimal, "{board}");
            let chosen = probed.chosen_way.as_ref().expect("a way is chosen").name();
            assert!(ways.contains(&chosen.as_str()), "{chosen}");
            let told = &probed.heuristic;
            assert!(told.contains(&chosen), "{told}");
            assert!(told.contains("1.00 ms probes of 2 ways"), "{told}");
            if probed.length == 1 {
                let solved = format!("{} solved the board in its own probe, way 1", ways[0]);
                assert!(told.contains(&solved), "{told}");
            }
            assert_replays(shape, board, &probed.solution, &Board::goal(shape));
        }
    }
    let refused = [
        (
            SolveRequest {
                both_ways: false,
                ..both_ways.clone()
            },
            "«probe» chooses among ways",
        ),
        (
            SolveRequest {
                resume_from: Some(40),
                resume_subtrees: Some("12.5.068a9c9e.144.100:0".into()),
                ..both_ways.clone()
            },
            "belong to the one way",
        ),
        (
            SolveRequest {
                probe: None,
                ..partitions.clone()
            },
            "only «probe» chooses among",
        ),
        (
            SolveRequest {
                algorithm: Algorithm::Astar,
                ..partitions.clone()
            },
            "«probe» is used only by IDA*",
        ),
    ];
    assert_refused(puzzle.as_ref(), &refused);
}

/// A job that probes says so in its progress: which way of how many, by name, and once the
/// probes are over, that way chosen (the one the report names).
#[test]
fn a_probing_jobs_progress_names_the_way_probed_and_then_the_way_chosen() {
    let dir = tempfile::tempdir().unwrap();
    let bench = Workbench::for_one_batch(TableCache::new(dir.path().to_path_buf()));
    let ways = ["forwards", "backwards"];
    let request = SolveRequest {
        algorithm: Algorithm::ParallelIda,
        heuristic: HeuristicChoice::Manhattan,
        both_ways: true,
        probe: Some(0.001),
        ..SolveRequest::new("4x4", "5,4,7,3,15,6,2,10,9,14,0,8,1,12,13,11")
    };
    let control = JobControl::new(None);
    assert_eq!(control.progress().probe, None);
    let solved = match bench
        .solve(&request, &JobLimits::local(MEMORY), &control)
        .unwrap()
    {
        SolveReport::Tiles(solved) => solved,
        other => panic!("a board report: {other:?}"),
    };
    let chosen = solved.chosen_way.expect("a way is chosen").name();
    let way = 1 + ways
        .iter()
        .position(|w| *w == chosen)
        .expect("a way probed");
    let progress = control.progress().probe.expect("probes are told");
    assert_eq!(
        (progress.way, progress.name, progress.ways),
        (way, chosen, ways.len())
    );
    // A probe of a millisecond with Manhattan distance does not solve this board of 44
    // moves (11 M nodes forwards): the probes chose.
    assert!(
        solved.heuristic.contains("chosen by"),
        "{}",
        solved.heuristic
    );
    assert!(progress.chosen);
    // A job that does not probe says nothing of probes.
    let control = JobControl::new(None);
    let one_way = SolveRequest {
        both_ways: false,
        probe: None,
        ..request
    };
    bench
        .solve(&one_way, &JobLimits::local(MEMORY), &control)
        .unwrap();
    assert_eq!(control.progress().probe, None);
}

/// `reverse`: each board is searched from the goal to it, with databases built for it as the
/// goal (its blank anywhere, the named partition drawn for that cell), and the path turned
/// round: the same optimal length, replayed here from the board to the goal.
#[test]
fn a_board_searched_from_the_goal_to_it_gets_a_shortest_solution_from_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let bench = Workbench::for_one_batch(TableCache::new(dir.path().to_path_buf()));
    let puzzle = registry::open("3x3", false).unwrap();
    let request = |reverse| SolveRequest {
        algorithm: Algorithm::Ida,
        pdb: Some("4-4".into()),
        reverse,
        ..SolveRequest::new("3x3", "")
    };
    // The blank in a corner, on an edge and in the centre.
    let boards = [
        BOARD,
        "8 6 7 2 5 4 3 0 1",
        "1 2 3 4 0 5 6 7 8",
        "0 1 3 4 2 5 7 8 6",
    ];
    let solve = |request: &SolveRequest, built: &mut Vec<String>| {
        let mut notices = |notice| {
            if let godsearch_app::progress::Notice::Built { tiles, .. } = notice {
                built.push(format!("{tiles:?}"));
            }
        };
        solve_boards(puzzle.as_ref(), &bench, request, &boards, &mut notices)
    };
    let (mut forward_built, mut reverse_built) = (Vec::new(), Vec::new());
    let forward = solve(&request(false), &mut forward_built);
    let reverse = solve(&request(true), &mut reverse_built);
    let shape = Shape::new(3, 3).unwrap();
    let goal = Board::goal(shape);
    for ((board, there), back) in boards.iter().zip(&forward).zip(&reverse) {
        assert_eq!(back.length, there.length, "{board}");
        assert!(back.optimal && back.heuristic.contains("from the goal to the board"));
        assert_replays(shape, board, &back.solution, &goal);
    }
    // One goal's two databases forwards; two for each board backwards (the cache shares
    // none: every board is another goal).
    assert_eq!(forward_built.len(), 2);
    assert_eq!(reverse_built.len(), 2 * boards.len(), "{reverse_built:?}");
    // Only the searches take it.
    let staged = SolveRequest {
        algorithm: Algorithm::Subgoal,
        reverse: true,
        ..SolveRequest::new("3x3", "")
    };
    assert!(matches!(
        puzzle.batch(&staged).unwrap(),
        Err(AppError::Input(m)) if m.contains("«reverse» is used only by IDA* and A*")
    ));
}

/// A goal whose blank no mirror of the board keeps (the 2x4's default, blank last in a corner)
/// gets its reflected lookup from the partition's mirror image: its databases built and cached
/// beside the partition's, the report naming both, every length the one without it.
#[test]
fn a_goal_no_mirror_keeps_reads_the_mirror_images_databases() {
    let dir = tempfile::tempdir().unwrap();
    let bench = Workbench::for_one_batch(TableCache::new(dir.path().to_path_buf()));
    let puzzle = registry::open("2x4", false).unwrap();
    let request = |no_reflection| SolveRequest {
        algorithm: Algorithm::Ida,
        pdb: Some("1,2,3/4,5,6,7".into()),
        no_reflection,
        ..SolveRequest::new("2x4", "")
    };
    let boards = [
        "0 7 2 1 4 3 6 5",
        "0 7 6 5 4 3 2 1",
        "3 1 2 0 5 4 7 6",
        "5 1 2 0 4 3 7 6",
    ];
    let solve = |request: &SolveRequest, built: &mut Vec<String>| {
        let mut notices = |notice| {
            if let godsearch_app::progress::Notice::Built { tiles, .. } = notice {
                built.push(format!("{tiles:?}"));
            }
        };
        solve_boards(puzzle.as_ref(), &bench, request, &boards, &mut notices)
    };
    let (mut reflected_built, mut plain_built) = (Vec::new(), Vec::new());
    let reflected = solve(&request(false), &mut reflected_built);
    let plain = solve(&request(true), &mut plain_built);
    for ((board, with), without) in boards.iter().zip(&reflected).zip(&plain) {
        assert_eq!(with.length, without.length, "{board}");
        assert!(with.optimal, "{board}");
        assert_eq!(
            with.heuristic, "pdb 1,2,3/4,5,6,7 + mirror image",
            "{board}"
        );
        assert_eq!(without.heuristic, "pdb 1,2,3/4,5,6,7", "{board}");
    }
    // The partition's two databases and its mirror image's two, built once and then cached.
    assert_eq!(reflected_built.len(), 4, "{reflected_built:?}");
    assert!(plain_built.is_empty(), "{plain_built:?}");
}

/// Building ahead (`pdb build`) builds what a solve with reflection reads: for a goal no
/// mirror keeps, the mirror image's databases after the partition's, so the solve builds
/// nothing; `no_reflection` builds the partition's alone.
#[test]
fn building_ahead_builds_the_mirror_images_databases_a_solve_reads() {
    let dir = tempfile::tempdir().unwrap();
    let bench = Workbench::for_one_batch(TableCache::new(dir.path().to_path_buf()));
    let build = |no_reflection| {
        let job = PdbJob {
            puzzle: "2x4".into(),
            partition: Some("1,2,3/4,5,6,7".into()),
            goal: None,
            generators: None,
            metric: None,
            no_reflection,
            force: false,
        };
        bench
            .build_pdb(&job, &JobLimits::local(MEMORY), &JobControl::new(None))
            .unwrap()
    };
    let alone = build(true);
    assert_eq!(alone.partition, "1,2,3/4,5,6,7");
    let origins: Vec<_> = alone.groups.iter().map(|g| g.origin).collect();
    assert_eq!(origins, ["built", "built"]);
    let both = build(false);
    assert_eq!(both.partition, "1,2,3/4,5,6,7 and its mirror image");
    let origins: Vec<_> = both.groups.iter().map(|g| g.origin).collect();
    assert_eq!(origins, ["cached", "cached", "built", "built"]);
    assert!(both.groups[2..]
        .iter()
        .all(|g| g.what.ends_with("(mirror image)")));
    // The image covers the same tiles in groups of the same sizes.
    let tiles = |groups: &[PdbGroup]| {
        let mut all: Vec<u16> = groups.iter().flat_map(|g| g.tiles.clone()).collect();
        all.sort_unstable();
        all
    };
    assert_eq!(tiles(&both.groups[..2]), tiles(&both.groups[2..]));

    let puzzle = registry::open("2x4", false).unwrap();
    let request = SolveRequest {
        algorithm: Algorithm::Ida,
        pdb: Some("1,2,3/4,5,6,7".into()),
        ..SolveRequest::new("2x4", "")
    };
    let mut built = Vec::new();
    let mut notices = |notice| {
        if let godsearch_app::progress::Notice::Built { tiles, .. } = notice {
            built.push(tiles);
        }
    };
    let solved = solve_boards(
        puzzle.as_ref(),
        &bench,
        &request,
        &["0 7 6 5 4 3 2 1"],
        &mut notices,
    );
    assert_eq!(solved[0].heuristic, "pdb 1,2,3/4,5,6,7 + mirror image");
    assert!(built.is_empty(), "{built:?}");
}
