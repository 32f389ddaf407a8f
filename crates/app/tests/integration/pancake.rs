//! The pancake puzzle, the registry's model puzzle (one module, one registration line): every
//! engine runs it through the same calls the CLI, the server and Python make. Its levels must
//! equal the published counts (data/pancake.txt) from both enumeration engines and a plain
//! BFS; table descent, IDA* and A* with the gap heuristic (Helmert 2010) must find shortest
//! flips, and the heuristic must never exceed the exact distance.

use godsearch_app::bfs::{self, BfsRequest, EngineChoice, RankedRun};
use godsearch_app::cache::TableCache;
use godsearch_app::choice::Algorithm;
use godsearch_app::registry::pancake::{Gaps, Pancakes};
use godsearch_app::request::{
    catalog, replay, BfsJob, JobControl, JobLimits, Precheck, ReplayRequest, ScrambleRequest,
    SolveReport, SolveRequest, TableSize, Workbench,
};
use godsearch_core::{Heuristic, MoveIdx, RankedSpace, StateSpace};
use godsearch_enumerate::{reference, table, Limits, NoProgress, Stop};
use godsearch_search::{astar, descend, ida_star};
use godsearch_testdata::rows;

fn limits() -> JobLimits {
    JobLimits {
        memory_bytes: 1 << 30,
        max_nodes: None,
        max_seconds: None,
        largest_table: TableSize::Small,
        max_scrambles: 100,
        definition_files: false,
    }
}

fn bench() -> (tempfile::TempDir, Workbench) {
    let dir = tempfile::tempdir().unwrap();
    let bench = Workbench::new(TableCache::new(dir.path().to_path_buf()));
    (dir, bench)
}

fn unlimited() -> Limits {
    Limits {
        max_depth: None,
        memory_bytes: 1 << 30,
        antipode_cap: 0,
        count_last: false,
    }
}

fn sorted(stack: &[u8]) -> bool {
    stack.windows(2).all(|w| w[0] < w[1])
}

fn replays_to_sorted(space: &Pancakes, rank: u64, moves: &[MoveIdx]) -> bool {
    let mut stack = space.unrank(rank);
    for &m in moves {
        Pancakes::flip(&mut stack, m as usize + 2);
    }
    sorted(&stack)
}

#[test]
fn levels_through_the_workbench_match_the_published_counts() {
    let (_dir, bench) = bench();
    for row in rows("pancake.txt") {
        let n: usize = row[0].parse().unwrap();
        if n < 2 {
            continue;
        }
        let job = BfsJob::new(&format!("pancake-{n}"));
        let report = bench.bfs(&job, &limits(), &JobControl::new(None)).unwrap();
        assert!(report.complete, "n = {n}");
        if n == 10 {
            let (total, diameter): (u64, u32) = (row[1].parse().unwrap(), row[2].parse().unwrap());
            assert_eq!(report.total, total);
            assert_eq!(report.diameter, Some(diameter));
            continue;
        }
        let published: Vec<u64> = row[1..].iter().map(|c| c.parse().unwrap()).collect();
        assert_eq!(report.levels, published, "n = {n}");
        // The antipodes are written as the flips that make them, as many as their distance.
        let space = Pancakes::new(n).unwrap();
        // Listed when there are few (up to the report's cap): n = 7 has 35.
        let antipodes = report.antipodes.clone().unwrap_or_default();
        assert_eq!(antipodes.is_empty(), n > 7, "n = {n}");
        for antipode in antipodes {
            let flips = space.parse_flips(&antipode).unwrap();
            assert_eq!(flips.len() + 1, published.len(), "n = {n}");
        }
    }
}

#[test]
fn both_engines_and_a_plain_bfs_agree() {
    for n in 2..=8 {
        let space = Pancakes::new(n).unwrap();
        let built = table::enumerate(&space, &unlimited(), &NoProgress).unwrap();
        assert_eq!(built.enumeration.stop, Stop::Complete);
        let run = RankedRun {
            puzzle: format!("pancake-{n}"),
            metric: "flips",
            run_name: format!("pancake-{n} test"),
            what: "the pancake puzzle",
            identity: None,
        };
        let request = BfsRequest {
            limits: unlimited(),
            engine: EngineChoice::Frontier,
            save: None,
            disk: None,
            cluster: None,
        };
        let by_frontier = bfs::ranked(&space, &run, &request, &NoProgress).unwrap();
        assert_eq!(by_frontier.engine, "frontier");
        assert_eq!(by_frontier.levels, built.enumeration.levels, "n = {n}");
        let plain = reference::bfs_levels(space.unrank(0), None, |s| {
            (2..=n)
                .map(|k| {
                    let mut t = s.clone();
                    Pancakes::flip(&mut t, k);
                    t
                })
                .collect::<Vec<_>>()
        });
        assert_eq!(plain, built.enumeration.levels, "reference BFS, n = {n}");
    }
}

/// Exact distances of every stack, by walking down the table.
fn distances(space: &Pancakes) -> Vec<u32> {
    let built = table::enumerate(space, &unlimited(), &NoProgress).unwrap();
    let diameter = built.enumeration.diameter().unwrap() as usize;
    (0..space.state_count() as u64)
        .map(|r| descend(space, &built.table, r, diameter).unwrap().len() as u32)
        .collect()
}

#[test]
fn the_gap_heuristic_is_admissible_and_consistent() {
    let space = Pancakes::new(8).unwrap();
    let gaps = Gaps(space);
    let exact = distances(&space);
    for rank in 0..space.state_count() as u64 {
        let h = gaps.lower_bound(rank);
        assert!(h <= exact[rank as usize], "rank {rank}");
        space.for_each_neighbour(rank, |_, nb| {
            assert!(
                h.abs_diff(gaps.lower_bound(nb)) <= 1,
                "ranks {rank} and {nb}"
            );
        });
    }
}

#[test]
fn ida_star_and_astar_with_gaps_find_shortest_flips() {
    let space = Pancakes::new(9).unwrap();
    let exact = distances(&space);
    let gaps = Gaps(space);
    // Every 997th stack: a spread over all distances, in well under a second.
    for rank in (0..space.state_count() as u64).step_by(997) {
        let by_ida = ida_star(&space, &gaps, rank, None).unwrap();
        assert!(
            replays_to_sorted(&space, rank, &by_ida.moves),
            "rank {rank}"
        );
        assert_eq!(
            by_ida.moves.len() as u32,
            exact[rank as usize],
            "rank {rank}"
        );
        let by_astar = astar(&space, &gaps, rank, 1 << 20).unwrap();
        assert!(
            replays_to_sorted(&space, rank, &by_astar.moves),
            "rank {rank}"
        );
        assert_eq!(by_astar.moves.len(), by_ida.moves.len(), "rank {rank}");
    }
    assert!(ida_star(&space, &gaps, 0, None).unwrap().moves.is_empty());
}

fn solve(bench: &Workbench, request: &SolveRequest) -> godsearch_app::report::DefinitionSolution {
    match bench
        .solve(request, &limits(), &JobControl::new(None))
        .unwrap()
    {
        SolveReport::Definition(s) => s,
        other => panic!("not a generic solution: {other:?}"),
    }
}

#[test]
fn every_algorithm_the_workbench_offers_finds_the_exact_distance() {
    let (_dir, bench) = bench();
    let space = Pancakes::new(8).unwrap();
    let exact = distances(&space);
    for rank in (0..space.state_count() as u64).step_by(1_013) {
        let stack = Pancakes::format(&space.unrank(rank));
        for algorithm in [
            Algorithm::Auto,
            Algorithm::Ida,
            Algorithm::Astar,
            Algorithm::Table,
        ] {
            let mut request = SolveRequest::new("pancake-8", &stack);
            request.algorithm = algorithm;
            let solution = solve(&bench, &request);
            assert_eq!(
                solution.length as u32, exact[rank as usize],
                "{stack} {algorithm:?}"
            );
            let played = replay(&ReplayRequest {
                puzzle: "pancake-8".into(),
                position: stack.clone(),
                solution: solution.solution.clone(),
                goal: None,
                facelets: false,
            })
            .unwrap();
            assert!(played.solved, "{stack} {algorithm:?}");
            assert_eq!(played.positions.len(), solution.length + 1);
        }
    }
}

#[test]
fn a_twenty_pancake_stack_is_solved_optimally_by_ida_star() {
    let (_dir, bench) = bench();
    // Reversed: the gap heuristic says 1, the answer is 1 flip.
    let reversed: Vec<String> = (1..=20).rev().map(|s| s.to_string()).collect();
    let solution = solve(
        &bench,
        &SolveRequest::new("pancake-20", &reversed.join(",")),
    );
    assert_eq!(solution.solution, "20");
    // A scrambled stack: replayed by the workbench, no shorter than the heuristic.
    let stack = "7,13,2,19,5,11,1,16,9,20,3,14,8,18,6,12,4,17,10,15";
    let solution = solve(&bench, &SolveRequest::new("pancake-20", stack));
    let space = Pancakes::new(20).unwrap();
    let rank = space.rank(&space.parse(stack).unwrap());
    assert!(solution.length as u32 >= Gaps(space).lower_bound(rank));
    assert!(solution.optimal);
}

#[test]
fn scrambles_replay_to_their_positions() {
    let (_dir, bench) = bench();
    let request = ScrambleRequest {
        puzzle: "pancake-12".into(),
        generators: None,
        count: 20,
        moves: Some(30),
        metric: None,
        seed: Some(7),
        format: None,
        goal: None,
    };
    for s in bench
        .scramble(&request, &limits(), &JobControl::new(None))
        .unwrap()
    {
        let space = Pancakes::new(12).unwrap();
        let mut stack = space.unrank(0);
        let flips = space.parse_flips(s.scramble.as_deref().unwrap()).unwrap();
        assert_eq!(flips.len(), 30);
        assert!(
            flips.windows(2).all(|w| w[0] != w[1]),
            "a flip undone at once"
        );
        for &m in &flips {
            Pancakes::flip(&mut stack, m as usize + 2);
        }
        assert_eq!(Pancakes::format(&stack), s.position.unwrap());
    }
    let uniform = ScrambleRequest {
        moves: None,
        ..request
    };
    for s in bench
        .scramble(&uniform, &limits(), &JobControl::new(None))
        .unwrap()
    {
        let space = Pancakes::new(12).unwrap();
        space.parse(&s.position.unwrap()).unwrap();
    }
}

#[test]
fn bad_names_stacks_and_options_are_refused_with_a_reason() {
    let (_dir, bench) = bench();
    let refused = |request: SolveRequest, words: &str| {
        let why = request.precheck(&limits()).unwrap_err().to_string();
        assert!(why.contains(words), "{why}");
        let again = bench
            .solve(&request, &limits(), &JobControl::new(None))
            .unwrap_err()
            .to_string();
        assert_eq!(why, again, "the precheck and the work disagree");
    };
    refused(SolveRequest::new("pancake-1", "1"), "from 2 to 20");
    refused(SolveRequest::new("pancake-21", "1"), "from 2 to 20");
    refused(SolveRequest::new("pancake-4", "1,2,3"), "3 sizes given");
    refused(
        SolveRequest::new("pancake-4", "1,2,2,3"),
        "size 2 is given twice",
    );
    refused(
        SolveRequest::new("pancake-4", "1,2,3,5"),
        "'5' is not a size from 1 to 4",
    );
    let mut goal = SolveRequest::new("pancake-4", "1,2,3,4");
    goal.goal = Some("4,3,2,1".into());
    refused(goal, "«goal» is not taken by the pancake puzzle");
    let mut two_phase = SolveRequest::new("pancake-4", "1,2,3,4");
    two_phase.algorithm = Algorithm::TwoPhase;
    refused(two_phase, "not two-phase");
    let mut big_table = SolveRequest::new("pancake-13", "1,2,3,4,5,6,7,8,9,10,11,12,13");
    big_table.algorithm = Algorithm::Table;
    refused(big_table, "up to pancake-12");
    let bad_flip = replay(&ReplayRequest {
        puzzle: "pancake-4".into(),
        position: "2,1,3,4".into(),
        solution: "2 5".into(),
        goal: None,
        facelets: false,
    })
    .unwrap_err();
    assert!(bad_flip.to_string().contains("'5' is not a flip of 2 to 4"));
    let mut metric = BfsJob::new("pancake-5");
    metric.metric = Some("qtm".into());
    assert!(metric.precheck(&limits()).is_err());
}

#[test]
fn the_catalog_lists_it_with_its_algorithms() {
    let catalog = catalog();
    let entry = catalog
        .puzzles
        .iter()
        .find(|p| p.kind == "pancake")
        .expect("the pancake puzzle is listed");
    assert_eq!(entry.name, "pancake-8");
    assert_eq!(entry.goal, "1,2,3,4,5,6,7,8");
    assert!(entry.algorithms.contains(&"ida"));
    // Tiles and cubes are listed as before, tiles first.
    assert_eq!(catalog.puzzles[0].name, "3x3");
    assert!(catalog.puzzles.iter().any(|p| p.name == "3x3x3"));
}
