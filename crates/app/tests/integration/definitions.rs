//! Puzzles from the shipped definition files (data/definitions) against published figures:
//! the 2x2x2 and 3x3x3 read from files count what the built-in ones do, the pyraminx and the
//! skewb (and the 4x4x4 up to rotation, near solved) give their published level counts, and
//! the group orders are exact.

use godsearch_app::bfs::{BfsRequest, EngineChoice};
use godsearch_app::registry::definition::file::{
    self as definitions, DefinitionMetric, DefinitionPuzzle,
};
use godsearch_app::report::BfsReport;
use godsearch_core::NoProgress;
use godsearch_enumerate::Limits;
use godsearch_orbit::{alg, Definition, OrbitSpace, Transformation};
use godsearch_testdata::{column, data_dir, levels};

/// A workbench over a fresh cache (the folder, kept while it is used), and the limits of a
/// front end that reads definition files.
fn workbench() -> (
    tempfile::TempDir,
    godsearch_app::request::Workbench,
    godsearch_app::request::JobLimits,
) {
    use godsearch_app::request::{JobLimits, TableSize, Workbench};
    let dir = tempfile::tempdir().unwrap();
    let bench = Workbench::new(godsearch_app::cache::TableCache::new(
        dir.path().to_path_buf(),
    ));
    let limits = JobLimits {
        memory_bytes: 1 << 30,
        max_nodes: None,
        max_seconds: None,
        largest_table: TableSize::Small,
        max_scrambles: 1,
        definition_files: true,
    };
    (dir, bench, limits)
}

fn load(name: &str) -> DefinitionPuzzle {
    definitions::load(&data_dir().join("definitions").join(name)).unwrap()
}

/// The transformations of `d`'s moves named in `generators` (`U,R,F`; its own moves, not the
/// derived ones, when empty).
fn transformations(d: &Definition, generators: &str) -> Vec<Transformation> {
    d.moves
        .iter()
        .filter(|m| match generators {
            "" => !m.derived,
            some => some.split(',').any(|g| g == m.name),
        })
        .map(|m| m.transformation.clone())
        .collect()
}

fn names(text: &str) -> Vec<String> {
    definitions::parse_generators(text)
}

fn run(
    puzzle: &DefinitionPuzzle,
    generators: &str,
    metric: DefinitionMetric,
    engine: EngineChoice,
    max_depth: Option<u32>,
) -> BfsReport {
    run_with(puzzle, generators, metric, engine, max_depth, None).unwrap()
}

/// [`run`] with the job's «symmetry».
fn run_with(
    puzzle: &DefinitionPuzzle,
    generators: &str,
    metric: DefinitionMetric,
    engine: EngineChoice,
    max_depth: Option<u32>,
    symmetry: Option<u32>,
) -> godsearch_app::AppResult<BfsReport> {
    let request = BfsRequest {
        limits: Limits {
            max_depth,
            memory_bytes: 4 << 30,
            antipode_cap: 1000,
            count_last: false,
        },
        engine,
        save: None,
        disk: None,
        cluster: None,
    };
    godsearch_app::registry::definition::bfs::definition(
        puzzle,
        &names(generators),
        metric,
        symmetry,
        &request,
        &NoProgress,
    )
}

#[test]
fn the_2x2x2_from_its_file_counts_what_the_built_in_one_does() {
    let cube = load("2x2x2.kpuzzle.json");
    for (metric, file) in [
        (DefinitionMetric::Outer, "cube2x2x2-htm.txt"),
        (DefinitionMetric::Quarter, "cube2x2x2-qtm.txt"),
    ] {
        // The frontier engines run over classes under the 6 symmetries of U, F, R unless
        // «symmetry» 1 says not to; the counts are the same.
        for (engine, symmetry, classes) in [
            (EngineChoice::Table, None, None),
            (EngineChoice::Frontier, Some(1), None),
            (EngineChoice::Frontier, None, Some(6)),
            (EngineChoice::Auto, Some(6), Some(6)),
        ] {
            let report = run_with(&cube, "U,F,R", metric, engine, None, symmetry).unwrap();
            assert_eq!(
                report.levels,
                levels(file),
                "{file} {engine:?} {symmetry:?}"
            );
            assert_eq!(
                report.class_group, classes,
                "{file} {engine:?} {symmetry:?}"
            );
            assert!(report.complete);
        }
    }
    // The antipodes, written as scrambles, replay to positions as far as the diameter.
    let report = run(
        &cube,
        "U,F,R",
        DefinitionMetric::Quarter,
        EngineChoice::Table,
        None,
    );
    let antipodes = report.antipodes.expect("276 antipodes are listed");
    assert_eq!(antipodes.len(), 276);
    assert!(antipodes.iter().all(|a| a.split(' ').count() == 14));
    let space: OrbitSpace<u64> = cube
        .space(&names("U,F,R"), DefinitionMetric::Quarter)
        .unwrap();
    let move_names: Vec<String> = space.moves().iter().map(|m| m.name.clone()).collect();
    let transformations: Vec<&Transformation> =
        space.moves().iter().map(|m| &m.transformation).collect();
    let mut ranks: Vec<u64> = antipodes
        .iter()
        .map(|a| {
            let steps = alg::parse(a, &move_names).unwrap();
            let t = alg::to_transformation(&steps, &transformations, &cube.definition.orbits);
            let pattern = t.apply(&cube.definition.solved, &cube.definition.orbits);
            space.rank_pattern(&pattern).expect("reachable")
        })
        .collect();
    ranks.sort_unstable();
    ranks.dedup();
    assert_eq!(
        ranks.len(),
        276,
        "the antipodes are 276 different positions"
    );
}

#[test]
fn the_pyraminx_and_the_skewb_give_their_published_counts() {
    let pyraminx = load("pyraminx-no-tips.tws");
    let skewb = load("skewb.kpuzzle.json");
    let outer = DefinitionMetric::Outer;
    for (engine, symmetry) in [
        (EngineChoice::Table, None),
        (EngineChoice::Frontier, Some(1)),
        (EngineChoice::Frontier, None),
    ] {
        let report = run_with(&pyraminx, "", outer, engine, None, symmetry).unwrap();
        assert_eq!(report.levels, levels("pyraminx-no-tips.txt"), "{engine:?}");
        let report = run_with(&skewb, "", outer, engine, None, symmetry).unwrap();
        assert_eq!(report.levels, levels("skewb.txt"), "{engine:?}");
        assert_eq!(report.diameter, Some(11));
    }
    // Their rotations and reflections, found from their moves: the tetrahedron's 24, and the
    // skewb's 24 (its moves turn about 4 of its 8 corners, a tetrahedron of them).
    let classes = |p: &DefinitionPuzzle| {
        run_with(p, "", outer, EngineChoice::Frontier, Some(2), None)
            .unwrap()
            .class_group
    };
    assert_eq!(classes(&pyraminx), Some(24));
    assert_eq!(classes(&skewb), Some(24));
}

/// The engine for spaces past 128-bit ranks (the megaminx's and the 4x4x4's levels), run on
/// the slot spaces of puzzles small enough to check: the pyraminx's and the skewb's published
/// levels, whole; and the megaminx and the 4x4x4 through the app, to the depth asked, whose
/// first two levels are their canonical sequences (no two such sequences of two moves meet).
#[test]
fn whole_state_levels_give_the_published_counts_and_reach_past_128_bits() {
    use godsearch_enumerate::state_levels;
    let limits = Limits {
        max_depth: None,
        memory_bytes: 2 << 30,
        antipode_cap: 0,
        count_last: false,
    };
    for (file, published) in [
        ("pyraminx-no-tips.tws", "pyraminx-no-tips.txt"),
        ("skewb.kpuzzle.json", "skewb.txt"),
    ] {
        let space = load(file).slot_space(&[], DefinitionMetric::Outer).unwrap();
        let e = state_levels::enumerate(&space, &limits, &NoProgress);
        assert_eq!(e.levels, levels(published), "{file}");
        assert_eq!(e.stop, godsearch_enumerate::Stop::Complete);
    }
    // The megaminx by default over classes under its 120 symmetries, the 4x4x4 under its 96
    // (its centres alike: symmetries that rename their colours); the levels the same as over
    // whole states, to 4 moves.
    let outer = DefinitionMetric::Outer;
    // Their class keys take 256 bits, half a whole state's memory: the 4x4x4's fields take
    // 231 bits with the stabiliser, the megaminx's 238 in mixed radix.
    let cases = [
        (
            "megaminx.kpuzzle.json",
            120,
            1_180_800,
            "256-bit keys",
            32.0,
        ),
        ("4x4x4.kpuzzle.json", 96, 806_772, "256-bit keys", 32.0),
    ];
    for (file, group, at_four, keys, bytes) in cases {
        let puzzle = load(file);
        let plain = run_with(&puzzle, "", outer, EngineChoice::Auto, Some(4), Some(1)).unwrap();
        let classes = run(&puzzle, "", outer, EngineChoice::Auto, Some(4));
        assert_eq!(plain.engine, "frontier of whole states");
        let engine = format!("frontier of symmetry classes, {keys}");
        assert_eq!(classes.engine, engine);
        assert_eq!(classes.bytes_per_state, bytes, "{file}");
        assert_eq!(classes.class_group, Some(group));
        assert_eq!(classes.levels, plain.levels, "{file}");
        assert_eq!(classes.levels[4], at_four, "{file}");
        assert!(!classes.complete && classes.levels.len() == 5, "{file}");
        // The first two levels are the canonical sequences: no two of two moves meet.
        let space = puzzle.slot_space(&[], DefinitionMetric::Outer).unwrap();
        let automaton = godsearch_core::StateSpace::sequence_automaton(&space);
        for depth in 1..=2 {
            let sequences =
                godsearch_enumerate::hashed_ball::canonical_sequences(&automaton, depth)
                    - godsearch_enumerate::hashed_ball::canonical_sequences(&automaton, depth - 1);
            assert_eq!(
                classes.levels[depth as usize] as u128, sequences,
                "{file} level {depth}"
            );
        }
    }
}

/// Classes in 256-bit keys (the 4x4x4's in fields, the megaminx's in mixed radix) and in
/// 512-bit ones (the 5x5x5's) take the disk engine and distributed runs as 128-bit ones do: the
/// same levels and classes as in memory, bucket bounds past 128 bits saved in the run's
/// manifest and read back when the run is resumed.
#[test]
fn the_4x4x4_the_megaminx_and_the_5x5x5_run_on_disk_and_distributed_in_wide_keys() {
    use godsearch_app::bfs::{ClusterRequest, DiskRequest};
    // Each to `depth`, first on disk to one move less, then resumed.
    for (file, depth, group) in [
        ("4x4x4.kpuzzle.json", 5, 96),
        ("megaminx.kpuzzle.json", 5, 120),
        ("5x5x5.kpuzzle.json", 5, 96),
    ] {
        let puzzle = load(file);
        let outer = DefinitionMetric::Outer;
        let in_memory = run(&puzzle, "", outer, EngineChoice::Auto, Some(depth));
        let bfs = |max_depth: u32, disk: Option<DiskRequest>, cluster: Option<ClusterRequest>| {
            let request = BfsRequest {
                limits: Limits {
                    max_depth: Some(max_depth),
                    memory_bytes: 1 << 30,
                    antipode_cap: 0,
                    count_last: false,
                },
                engine: EngineChoice::Auto,
                save: None,
                disk,
                cluster,
            };
            let definition = godsearch_app::registry::definition::bfs::definition;
            definition(&puzzle, &[], outer, None, &request, &NoProgress).unwrap()
        };
        let dir = tempfile::tempdir().unwrap();
        // Buckets of a thousand classes: the level before the last takes several, bounded by
        // keys past 128 bits, which the resumed run reads back from the manifest.
        let on_disk = |max_depth: u32, resume: bool| {
            let disk = DiskRequest {
                workdir: dir.path(),
                resume,
                keep_levels: false,
                bucket_states: 1000,
                disk_bytes: None,
            };
            bfs(max_depth, Some(disk), None)
        };
        let before = depth as usize - 1;
        let first = on_disk(depth - 1, false);
        assert_eq!(first.engine, "frontier on disk");
        assert_eq!(first.levels, in_memory.levels[..=before], "{file}");
        assert!(first.level_costs.as_ref().unwrap()[before].buckets > 1);
        let resumed = on_disk(depth, true);
        let costs = resumed.level_costs.as_ref().unwrap();
        assert!(costs[before].resumed && !costs[before + 1].resumed);
        assert_eq!(resumed.levels, in_memory.levels, "{file}");
        assert_eq!(resumed.classes, in_memory.classes, "{file}");
        assert_eq!(resumed.class_group, Some(group));
        #[cfg(feature = "distributed")]
        {
            let cluster = ClusterRequest {
                workers: 2,
                process: 0,
                addresses: &[],
                patience: std::time::Duration::from_secs(10),
            };
            let spread = bfs(depth - 1, None, Some(cluster));
            assert_eq!(spread.engine, "frontier, distributed");
            assert_eq!(spread.levels, in_memory.levels[..=before], "{file}");
            assert_eq!(
                spread.classes.unwrap(),
                in_memory.classes.as_ref().unwrap()[..=before]
            );
        }
    }
}

/// The 4x4x4 with its centres alike, counted up to a rotation of the whole cube as Norskog
/// did (the file's three-layer turns stand for the turns of the layers at the fixed DLB
/// corner): his published levels, over classes (the 12 symmetries that keep that corner,
/// some renaming the centres' colours or swapping the inner layers) and over whole states.
#[test]
fn the_4x4x4_up_to_rotation_gives_the_published_single_slice_counts() {
    let cube = load("4x4x4.kpuzzle.json");
    let generators = "U,2U,2D,R,2R,2L,F,2F,2B,3Uw,3Rw,3Fw";
    let outer = DefinitionMetric::Outer;
    let published = levels("cube4x4x4-sstm.txt");
    let depth = Some(published.len() as u32 - 1);
    let classes = run(&cube, generators, outer, EngineChoice::Auto, depth);
    assert_eq!(classes.class_group, Some(12));
    assert_eq!(classes.levels, published);
    let whole = run_with(&cube, generators, outer, EngineChoice::Auto, depth, Some(1)).unwrap();
    assert_eq!(whole.engine, "frontier of whole states");
    assert_eq!(whole.levels, published);
}

/// The 4x4x4's "squares set" (single-layer half turns, centres alike), which Norskog counted
/// with the cube's frame fixed from the four solved positions those moves reach (the solved
/// cube in its four half-turn orientations). Kept up to that rotation, as the test above
/// does (the DLB corner in place; the three-layer half turns stand for the turns of the
/// layers at that corner), each of our positions is four of his: his levels are four times
/// ours. The generators are half turns of the file's moves.
#[test]
fn the_4x4x4_squares_set_gives_the_published_counts() {
    let cube = load("4x4x4.kpuzzle.json");
    let generators = "U2,2U2,2D2,R2,2R2,2L2,F2,2F2,2B2,3Uw2,3Rw2,3Fw2";
    let published = levels("cube4x4x4-squares.txt");
    // Through 8 moves here (14 M positions); through 11 on disk in the documentation.
    let depth = 8;
    let ours = run(
        &cube,
        generators,
        DefinitionMetric::Outer,
        EngineChoice::Auto,
        Some(depth),
    );
    // Its ranks fit 64 bits, its class keys only 256: classes all the same.
    assert_eq!(ours.engine, "frontier of symmetry classes, 256-bit keys");
    assert_eq!(ours.class_group, Some(48));
    let four_orientations: Vec<u64> = ours.levels.iter().map(|n| 4 * n).collect();
    assert_eq!(four_orientations, published[..=depth as usize]);
    // The group these half turns generate, the centres told apart: his 4x4x4 supercube
    // squares group (96^7 / 8 elements) reduced by the four orientations, as he gives it.
    let order = cube.group_order(&names(generators)).unwrap();
    assert_eq!(order.to_string(), "2348273369088");
}

#[test]
fn the_same_puzzle_in_either_format_is_the_same_space() {
    let from_tws = load("pyraminx-no-tips.tws");
    let from_json = load("pyraminx-no-tips.kpuzzle.json");
    assert_eq!(from_tws.definition.moves, from_json.definition.moves);
    assert_eq!(from_tws.definition.solved, from_json.definition.solved);
    assert_eq!(from_tws.definition.orbits, from_json.definition.orbits);
}

#[test]
fn the_3x3x3_from_its_file_counts_what_the_built_in_one_does_to_depth_5() {
    let cube = load("3x3x3.kpuzzle.json");
    let outer = DefinitionMetric::Outer;
    let plain = run_with(&cube, "", outer, EngineChoice::Auto, Some(5), Some(1)).unwrap();
    assert_eq!(plain.levels, column("cube3x3x3-htm.txt", 1, 6));
    assert_eq!(plain.class_group, None);
    // A wrong number of symmetries is refused, naming the right one.
    let wrong = run_with(&cube, "", outer, EngineChoice::Auto, Some(5), Some(24)).unwrap_err();
    assert!(wrong.to_string().contains("has 48 symmetries"), "{wrong}");
}

/// About 1 s and 60 MB: the 3x3x3 from its file to depth 7, as the issue asks, over classes
/// under the 48 symmetries its moves have (the frontier engine's default where they are found).
#[test]
fn the_3x3x3_from_its_file_counts_what_the_built_in_one_does_to_depth_7() {
    let cube = load("3x3x3.kpuzzle.json");
    let report = run(
        &cube,
        "",
        DefinitionMetric::Outer,
        EngineChoice::Auto,
        Some(7),
    );
    assert_eq!(report.levels, column("cube3x3x3-htm.txt", 1, 8));
    assert_eq!(report.class_group, Some(48));
    // The published count of classes under the 48 symmetries (cube20.org).
    assert_eq!(report.classes.as_ref().map(|c| c[7]), Some(2_101_575));
}

/// About 7 s: the `<R, U>` group of the 3x3x3 complete in both metrics, from the shipped
/// file of its 13 pieces and from the whole cube's file with `--generators R,U`: 73,483,200
/// positions, the published quarter-turn levels through 18, diameters 20 and 25.
#[test]
fn the_r_u_group_is_complete_with_its_published_levels() {
    let published = levels("cube3x3x3-ru-qtm.txt");
    for (file, generators) in [("3x3x3-ru.tws", ""), ("3x3x3.kpuzzle.json", "R,U")] {
        let puzzle = load(file);
        let quarter = run(
            &puzzle,
            generators,
            DefinitionMetric::Quarter,
            EngineChoice::Auto,
            None,
        );
        assert_eq!(quarter.total, 73_483_200, "{file}");
        assert_eq!(quarter.levels[..published.len()], published[..], "{file}");
        assert_eq!(quarter.diameter, Some(25), "{file}");
        if generators.is_empty() {
            let outer = run(
                &puzzle,
                "",
                DefinitionMetric::Outer,
                EngineChoice::Auto,
                None,
            );
            assert_eq!(outer.total, 73_483_200);
            assert_eq!(outer.diameter, Some(20));
        }
    }
}

#[test]
fn group_orders_are_exact() {
    let order = |file: &str, generators: &str| {
        load(file)
            .group_order(&names(generators))
            .unwrap()
            .to_string()
    };
    assert_eq!(order("2x2x2.kpuzzle.json", "U,F,R"), "3674160");
    assert_eq!(order("2x2x2.kpuzzle.json", ""), "88179840");
    assert_eq!(order("3x3x3.kpuzzle.json", ""), "43252003274489856000");
    assert_eq!(order("3x3x3.kpuzzle.json", "R,U"), "73483200");
    assert_eq!(order("3x3x3-ru.tws", ""), "73483200");
    assert_eq!(order("pyraminx-no-tips.tws", ""), "933120");
    assert_eq!(
        order("pyraminx.kpuzzle.json", ""),
        (933_120u64 * 81).to_string()
    );
    assert_eq!(order("skewb.kpuzzle.json", ""), "3149280");
    // The megaminx: 20!/2 3^19 30!/2 2^29 (centres fixed).
    assert_eq!(
        order("megaminx.kpuzzle.json", ""),
        "100669616553523347122516032313645505168688116411019768627200000000000"
    );
}

/// The 3x3x3's file with its centres as cubing.js gives them: an orbit of six pieces of four
/// orientations, each face turn twisting its own centre, and in the solved pattern
/// `orientationMod` 1 for each, so their twists do not count. The puzzle is then the 3x3x3
/// exactly; with the twists counted (no `orientationMod`) it is the supercube, 4^6 / 2 times
/// larger.
#[test]
fn centres_whose_twist_does_not_count_leave_the_3x3x3_its_order() {
    let text = std::fs::read_to_string(data_dir().join("definitions/3x3x3.kpuzzle.json")).unwrap();
    let with_centres = |moduli: Option<&str>| {
        let mut d: serde_json::Value = serde_json::from_str(&text).unwrap();
        d["orbits"].as_array_mut().unwrap().push(serde_json::json!(
            {"orbitName": "CENTERS", "numPieces": 6, "numOrientations": 4}
        ));
        let mut solved =
            serde_json::json!({"pieces": [0, 1, 2, 3, 4, 5], "orientation": [0, 0, 0, 0, 0, 0]});
        if let Some(m) = moduli {
            solved["orientationMod"] = serde_json::from_str(m).unwrap();
        }
        d["defaultPattern"]["CENTERS"] = solved;
        for (face, name) in ["U", "R", "F", "D", "L", "B"].iter().enumerate() {
            let mut twist = [0; 6];
            twist[face] = 1;
            d["moves"][name]["CENTERS"] =
                serde_json::json!({"permutation": [0, 1, 2, 3, 4, 5], "orientationDelta": twist});
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("centres.kpuzzle.json");
        std::fs::write(&path, d.to_string()).unwrap();
        definitions::load(&path)
    };
    let order = |moduli| {
        with_centres(moduli)
            .unwrap()
            .group_order(&names(""))
            .unwrap()
            .to_string()
    };
    assert_eq!(order(Some("[1, 1, 1, 1, 1, 1]")), "43252003274489856000");
    let supercube = 43_252_003_274_489_856_000u128 * 4u128.pow(6) / 2;
    assert_eq!(order(None), supercube.to_string());
    assert_eq!(order(Some("[0, 4, 0, 4, 0, 4]")), supercube.to_string());
    // Half twists counted: 2^6 / 2 times the 3x3x3.
    assert_eq!(
        order(Some("[2, 2, 2, 2, 2, 2]")),
        (43_252_003_274_489_856_000u128 * 32).to_string()
    );
    for (moduli, what) in [
        ("[1, 1, 1, 1, 1, 0]", "differs from 1"),
        ("[3, 3, 3, 3, 3, 3]", "3 does not divide the 4 orientations"),
        ("[1, 1, 1]", "3 entries, but orbit CENTERS has 6 pieces"),
    ] {
        let message = with_centres(Some(moduli)).err().unwrap().to_string();
        assert!(
            message.contains("defaultPattern.CENTERS.orientationMod") && message.contains(what),
            "{moduli}: {message}"
        );
    }
}

#[test]
fn info_says_when_ranks_are_exactly_the_positions() {
    let report = definitions::info(&load("2x2x2.kpuzzle.json"), &names("U,F,R")).unwrap();
    assert!(report.ranks_exact);
    assert_eq!(report.space_moves, 9);
    let report = definitions::info(&load("skewb.kpuzzle.json"), &[]).unwrap();
    assert!(
        !report.ranks_exact,
        "the skewb keeps a constraint the ranks do not encode"
    );
    assert_eq!(report.positions.as_deref(), Some("3149280"));
    let report = definitions::info(&load("megaminx.kpuzzle.json"), &[]).unwrap();
    assert_eq!(report.ranks, None);
    assert_eq!(report.space_moves, 48);
}

#[test]
fn the_canonical_sequences_of_the_3x3x3_file_are_the_built_in_ones() {
    use godsearch_core::StateSpace;
    let cube = load("3x3x3.kpuzzle.json");
    let space: OrbitSpace<u128> = cube.space(&[], DefinitionMetric::Outer).unwrap();
    // Opposite faces commute and are tried in one order: 18, 243, 3240, 43254 (twsearch's
    // canonical counts in the half-turn metric).
    assert_eq!(
        space.sequence_automaton().sequence_counts(4),
        [1, 18, 243, 3240, 43254]
    );
}

/// A request for one optimal solution by the automatic choice, within 1 GiB, built from
/// nothing ahead (no table, no databases).
fn one_solution(
    generators: &[String],
) -> godsearch_app::registry::definition::solve::DefinitionSolveRequest<'_> {
    godsearch_app::registry::definition::solve::DefinitionSolveRequest {
        generators,
        metric: DefinitionMetric::Outer,
        memory_bytes: 1 << 30,
        deadline: None,
        descent_ranks: 0,
        database_ranks: 0,
        prepared_ranks: 0,
        count: 1,
        table: None,
        algorithm: Default::default(),
        cache: None,
    }
}

/// The exact distance of every rank of `space` (255: unreached).
fn distances(space: &OrbitSpace<u64>) -> Vec<u8> {
    let limits = Limits {
        max_depth: None,
        memory_bytes: 4 << 30,
        antipode_cap: 0,
        count_last: false,
    };
    godsearch_enumerate::table::enumerate_exact(space, &limits, &NoProgress)
        .unwrap()
        .table
        .into_bytes()
}

#[test]
fn the_automatic_pattern_databases_never_overestimate() {
    use godsearch_app::registry::definition::solve::databases;
    use godsearch_core::{Heuristic, StateSpace};
    use godsearch_orbit::projection::PatternDatabases;
    for (file, generators, largest, expected) in [
        // Too small for the corners whole: their orientations, two sets of corners with
        // their twists (slot 0 is the corner U, F and R never move), and their arrangement.
        (
            "2x2x2.kpuzzle.json",
            "U,F,R",
            10_000,
            "CORNERS orientations, CORNERS slots 1-2 with their orientations, CORNERS slots 6-7 with their orientations, CORNERS arrangement",
        ),
        (
            "2x2x2.kpuzzle.json",
            "U,F,R",
            100_000,
            "CORNERS orientations, CORNERS slots 1-3 with their orientations, CORNERS slots 5-7 with their orientations, CORNERS arrangement",
        ),
        // Too small for the corners' arrangement too.
        (
            "2x2x2.kpuzzle.json",
            "U,F,R",
            4_000,
            "CORNERS orientations, CORNERS slots 1-2 with their orientations, CORNERS slots 6-7 with their orientations",
        ),
        ("skewb.kpuzzle.json", "", 1 << 30, "CORNERS, CENTERS"),
        ("pyraminx-no-tips.tws", "", 1 << 30, "EDGES, CENTERS"),
    ] {
        let puzzle = load(file);
        let space: OrbitSpace<u64> = puzzle
            .space(&names(generators), DefinitionMetric::Outer)
            .unwrap();
        let outer = DefinitionMetric::Outer;
        let tables = databases(&puzzle, &space, outer, largest, None, &NoProgress).unwrap();
        let described: Vec<String> = tables
            .iter()
            .map(|(p, _)| p.spec.describe(&puzzle.definition.orbits))
            .collect();
        assert_eq!(described.join(", "), expected, "{file}");
        let heuristic = PatternDatabases::new(&space, &tables);
        let truth = distances(&space);
        let mut informative = 0;
        for (rank, &d) in truth.iter().enumerate() {
            if d == u8::MAX {
                continue;
            }
            let h = heuristic.lower_bound(rank as u64);
            assert!(
                h <= d as u32,
                "{file}: rank {rank} estimated {h}, distance {d}"
            );
            informative += (h > 0) as u64;

            if rank % 97 == 0 {
                space.for_each_neighbour(rank as u64, |_, next| {
                    let hn = heuristic.lower_bound(next);
                    assert!(h.abs_diff(hn) <= 1, "{file}: not consistent at rank {rank}");
                });
            }
        }
        assert!(informative > 0, "{file}: the databases say something");
        // Asked together, as IDA* asks for a node's children (here more than one batch of
        // entries), the same bounds.
        let states: Vec<u64> = (0..truth.len() as u64)
            .step_by(truth.len() / 1000)
            .filter(|&r| truth[r as usize] != u8::MAX)
            .collect();
        let mut together = vec![0; states.len()];
        heuristic.lower_bounds(&states, &mut together);
        let one_by_one: Vec<u32> = states.iter().map(|&s| heuristic.lower_bound(s)).collect();
        assert_eq!(together, one_by_one, "{file}");
        // Asked for what passes a cut, each value is the estimate or reaches the cut.
        for enough in 0..=one_by_one.iter().max().copied().unwrap_or(0) + 1 {
            heuristic.lower_bounds_past(&states, &mut together, enough);
            for ((&past, &exact), &s) in together.iter().zip(&one_by_one).zip(&states) {
                assert!(
                    past == exact || (past >= enough && past <= exact),
                    "{file}: rank {s}, cut {enough}: {past} for {exact}"
                );
            }
        }
    }
}

/// Records the databases a search builds (the details it is told).
#[derive(Default)]
struct Builds(std::sync::Mutex<Vec<String>>);

impl godsearch_core::Progress for Builds {
    fn detail(&self, text: &str) {
        self.0.lock().unwrap().push(text.to_string());
    }
}

impl Builds {
    fn taken(&self) -> Vec<String> {
        std::mem::take(&mut self.0.lock().unwrap())
    }
}

/// The automatic databases are saved to the cache and read back, not built again; a damaged
/// file is rebuilt, never trusted; other generators get files of their own.
#[test]
fn automatic_databases_are_cached_validated_and_rebuilt_when_damaged() {
    use godsearch_app::cache::TableCache;
    use godsearch_app::registry::definition::solve::databases;
    let dir = tempfile::tempdir().unwrap();
    let cache = TableCache::new(dir.path().to_path_buf());
    let puzzle = load("pyraminx-no-tips.tws");
    let outer = DefinitionMetric::Outer;
    let space: OrbitSpace<u64> = puzzle.space(&[], outer).unwrap();
    let builds = Builds::default();
    let bytes = |tables: &[(godsearch_orbit::projection::Projection, _)]| -> Vec<Vec<u8>> {
        tables
            .iter()
            .map(|(_, t): &(_, godsearch_tables::TableBytes)| t.as_slice().to_vec())
            .collect()
    };
    let built = databases(&puzzle, &space, outer, 1 << 30, Some(&cache), &builds).unwrap();
    assert_eq!(builds.taken().len(), built.len(), "each built once");
    let files: Vec<std::path::PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tbl"))
        .collect();
    assert_eq!(files.len(), built.len(), "one file each");
    let read = databases(&puzzle, &space, outer, 1 << 30, Some(&cache), &builds).unwrap();
    assert!(builds.taken().is_empty(), "read from the cache");
    assert_eq!(bytes(&read), bytes(&built));
    // A byte of one file's payload changed: the checksum refuses it, and it is built again.
    let mut damaged = std::fs::read(&files[0]).unwrap();
    let last = damaged.len() - 1;
    damaged[last] ^= 1;
    std::fs::write(&files[0], damaged).unwrap();
    let again = databases(&puzzle, &space, outer, 1 << 30, Some(&cache), &builds).unwrap();
    assert_eq!(builds.taken().len(), 1, "the damaged one rebuilt");
    assert_eq!(bytes(&again), bytes(&built));
    // Other generators: other tables, other files.
    let generators = names("U,L,R");
    let fewer: OrbitSpace<u64> = puzzle.space(&generators, outer).unwrap();
    databases(&puzzle, &fewer, outer, 1 << 30, Some(&cache), &builds).unwrap();
    assert!(!builds.taken().is_empty(), "built for the other generators");
    let count = std::fs::read_dir(dir.path()).unwrap().count();
    assert!(count > files.len());
}

#[test]
fn ida_star_over_the_databases_finds_the_distances_the_table_gives() {
    use godsearch_app::registry::definition::solve::{solve, DefinitionSolveRequest};
    let puzzle = load("pyraminx-no-tips.tws");
    let space: OrbitSpace<u64> = puzzle.space(&[], DefinitionMetric::Outer).unwrap();
    let truth = distances(&space);
    let request = DefinitionSolveRequest {
        generators: &[],
        metric: DefinitionMetric::Outer,
        memory_bytes: 1 << 30,
        deadline: None,
        descent_ranks: 0,
        database_ranks: 1 << 30,
        prepared_ranks: 0,
        count: 1,
        table: None,
        algorithm: Default::default(),
        cache: None,
    };
    let step = truth.len() / 40;
    let mut far = 0;
    for rank in (1..truth.len())
        .step_by(step)
        .filter(|&r| truth[r] != u8::MAX)
    {
        let start = space.pattern_of(rank as u64);
        let report = solve(&puzzle, &start, "sampled", &request, &NoProgress).unwrap();
        assert_eq!(report.length, truth[rank] as usize, "rank {rank}");
        far += (report.method == "IDA* over pattern databases") as usize;
    }
    assert!(far > 0, "some starts are past the ball near solved");
}

/// A start near solved is solved over the ball of positions near it before any database is
/// built; a farther one builds the databases in its search, and the solver keeps them.
#[test]
fn starts_near_solved_are_solved_before_the_databases_are_built() {
    use godsearch_app::registry::definition::solve::{
        DefinitionSolveRequest, DefinitionSolver, NEAR_REACH,
    };
    let puzzle = load("pyraminx-no-tips.tws");
    let space: OrbitSpace<u64> = puzzle.space(&[], DefinitionMetric::Outer).unwrap();
    let truth = distances(&space);
    let request = DefinitionSolveRequest {
        database_ranks: 1 << 30,
        prepared_ranks: 0,
        ..one_solution(&[])
    };
    let solver = DefinitionSolver::new(&puzzle, &request, &NoProgress).unwrap();
    let at = |distance: u8| {
        let rank = truth.iter().position(|&d| d == distance).unwrap();
        space.pattern_of(rank as u64)
    };
    let near = solver.solve(&at(2), "near", None).unwrap();
    assert_eq!(near.method, "IDA* over the positions near solved, hashed");
    assert_eq!(near.length, 2);
    let ball = &near.databases[0];
    let depth: u32 = ball.split_whitespace().nth(3).unwrap().parse().unwrap();
    assert_eq!(*ball, format!("every position within {depth} moves"));
    let farthest = *truth.iter().filter(|&&d| d != u8::MAX).max().unwrap();
    assert!(
        u32::from(farthest) > depth + NEAR_REACH,
        "the test needs a far start"
    );
    let far = solver.solve(&at(farthest), "far", None).unwrap();
    assert_eq!(far.method, "IDA* over pattern databases");
    assert_eq!(far.length, farthest as usize);
    assert!(far.build_seconds > 0.0);
    // The ball beside the databases, grown to half the last bound where that is deeper.
    let grown = u32::from(farthest) / 2;
    let beside = format!("every position within {} moves", grown.max(depth));
    assert_eq!(far.databases.last(), Some(&beside));
    let again = solver.solve(&at(farthest - 1), "again", None).unwrap();
    assert_eq!(again.method, "IDA* over pattern databases");
    assert_eq!(again.length, farthest as usize - 1);
    assert_eq!(again.build_seconds, 0.0, "the databases are kept");
}

/// Half-depth search on a definition puzzle meets each start at the distance the table gives,
/// holding 3 of the pyraminx's 11 levels (starts up to 6 away) and all of them (every start);
/// a start past twice the held depth gets the lower bound it proved.
#[test]
fn half_depth_search_finds_the_distances_the_table_gives() {
    use godsearch_app::registry::definition::solve::{
        solve, DefinitionAlgorithm, DefinitionSolveRequest,
    };
    let puzzle = load("pyraminx-no-tips.tws");
    let space: OrbitSpace<u64> = puzzle.space(&[], DefinitionMetric::Outer).unwrap();
    let truth = distances(&space);
    // Holding every level is a whole BFS of the puzzle each solve: fewer starts for that one.
    for (depth, starts) in [(Some(3), 60), (None, 12)] {
        let request = DefinitionSolveRequest {
            algorithm: DefinitionAlgorithm::HalfDepth { depth },
            ..one_solution(&[])
        };
        let step = truth.len() / starts;
        for rank in (1..truth.len())
            .step_by(step)
            .filter(|&r| truth[r] != u8::MAX)
        {
            let start = space.pattern_of(rank as u64);
            let solved = solve(&puzzle, &start, "sampled", &request, &NoProgress);
            match solved {
                Ok(report) => {
                    assert_eq!(report.method, "half-depth search");
                    assert_eq!(report.length, truth[rank] as usize, "rank {rank}");
                }
                Err(e) => {
                    assert_eq!(depth, Some(3), "{e}");
                    assert!(truth[rank] > 6, "rank {rank} at {}: {e}", truth[rank]);
                    assert!(e.to_string().contains("at least 7 moves"), "{e}");
                }
            }
        }
    }
}

/// A puzzle whose solved pattern has alike pieces: `info`'s distinguishable positions (the
/// group order over the pattern's stabiliser) equal what a complete BFS reaches.
fn alike_positions_agree_with_bfs(text: &str, expected: u64) {
    alike_positions_under_agree_with_bfs("alike.tws", text, "", expected);
}

/// [`alike_positions_agree_with_bfs`] for the definition `text` (read as `file` says) under
/// the `generators` named.
fn alike_positions_under_agree_with_bfs(file: &str, text: &str, generators: &str, expected: u64) {
    let puzzle = definitions::parse(file, text).unwrap();
    let report = definitions::info(&puzzle, &names(generators)).unwrap();
    assert_eq!(
        report.positions,
        Some(expected.to_string()),
        "{generators} {text}"
    );
    assert_ne!(report.group_order, expected.to_string(), "pieces are alike");
    let bfs = run(
        &puzzle,
        generators,
        DefinitionMetric::Outer,
        EngineChoice::Auto,
        None,
    );
    assert_eq!(bfs.total, expected);
}

/// The 2x2x2 with only its top and bottom layers' colours told apart (slots 2, 3, 6, 7 are
/// the top's): corners of one layer are alike, and twisted.
fn layered_2x2x2() -> String {
    let file = data_dir().join("definitions").join("2x2x2.kpuzzle.json");
    let text = std::fs::read_to_string(file).unwrap();
    let layered = text.replace(
        "\"pieces\": [0, 1, 2, 3, 4, 5, 6, 7]",
        "\"pieces\": [1, 1, 0, 0, 1, 1, 0, 0]",
    );
    assert_ne!(layered, text);
    layered
}

#[test]
fn distinguishable_positions_of_alike_twisted_corners_are_what_bfs_reaches() {
    let layered = layered_2x2x2();
    // Every turn: which four slots hold top corners, and every twist: C(8, 4) x 3^7.
    alike_positions_under_agree_with_bfs("layers.kpuzzle.json", &layered, "", 70 * 2187);
    // U, R and F leave slot 0 alone: its corner never moves, the other seven go anywhere
    // among themselves: C(7, 3) x 3^6.
    alike_positions_under_agree_with_bfs("layers.kpuzzle.json", &layered, "U,R,F", 35 * 729);
}

#[test]
fn distinguishable_positions_with_alike_pieces_are_what_bfs_reaches() {
    // Two distinct pieces swapped together with two alike ones, and 3-cycles of the alike
    // ones: the group ties the parities (order 24), yet every colouring of the four comes
    // with either order of the two distinct pieces: 2 x 4!/(2! 2!) = 12.
    alike_positions_agree_with_bfs(
        "Name tied\nSet A 2 1\nSet B 4 1\nSolved\nA\n1 2\nB\n1 1 2 2\nEnd\n\
         MoveTransformation m\nA\n1 0\nB\n1 0 2 3\nEnd\n\
         MoveTransformation p\nB\n1 2 0 3\nEnd\n\
         MoveTransformation q\nB\n0 2 3 1\nEnd\n",
        12,
    );
    // Two rings of five sharing a slot (all of S9 on the nine), three colours, one of which
    // has a single piece, beside a corner-like orbit turned by one ring: 3 x 9!/(4! 4! 1!).
    alike_positions_agree_with_bfs(
        "Name rings\nSet C 1 3\nSet R 9 1\nSolved\nC\n1\nR\n1 2 1 2 1 2 1 2 3\nEnd\n\
         MoveTransformation a\nC\n0\n1\nR\n1 2 3 4 0 5 6 7 8\nEnd\n\
         MoveTransformation b\nR\n4 1 2 3 5 6 7 8 0\nEnd\n",
        3 * 362_880 / (24 * 24),
    );
    // Alike pieces with orientations: four twisty pieces in two colours, any arrangement
    // (a 3-cycle and a 4-cycle) and any twist of one piece: 4!/(2! 2!) x 3^4.
    alike_positions_agree_with_bfs(&TWISTED_ALIKE.replace("{k}", "3"), 6 * 81);
    // Two orientations, twists only in pairs: the 4-cycle alone decides the parity, so the
    // twists sum to zero: 6 x 2^3. Twisting one piece as it cycles ties the sum of the
    // twists to the parity, and every twist comes with either order of the alike pieces:
    // 6 x 2^4 of a group of 4! x 2^3.
    let paired = TWISTED_ALIKE
        .replace("{k}", "2")
        .replace("0 1 2 3\n1 0 0 0", "0 1 2 3\n1 1 0 0");
    alike_positions_agree_with_bfs(&paired, 6 * 8);
    let tied = paired.replace("1 2 3 0\n0 0 0 0", "1 2 3 0\n1 0 0 0");
    alike_positions_agree_with_bfs(&tied, 6 * 16);
}

/// Four pieces of `{k}` orientations in two colours: a 3-cycle, a 4-cycle and a twist.
const TWISTED_ALIKE: &str = "Name twisted\nSet C 4 {k}\nSolved\nC\n1 1 2 2\nEnd\n\
    MoveTransformation a\nC\n1 2 0 3\n0 0 0 0\nEnd\n\
    MoveTransformation b\nC\n1 2 3 0\n0 0 0 0\nEnd\n\
    MoveTransformation t\nC\n0 1 2 3\n1 0 0 0\nEnd\n";

/// Which patterns of alike twisted pieces the group reaches: one piece twisted is reached
/// where a twist may come alone or with an odd arrangement, and refused where twists only
/// come in pairs; alike pieces swapped are reached either way.
#[test]
fn the_group_tells_which_patterns_of_alike_twisted_pieces_it_reaches() {
    use godsearch_orbit::group::reaches;
    let paired = TWISTED_ALIKE
        .replace("{k}", "2")
        .replace("0 1 2 3\n1 0 0 0", "0 1 2 3\n1 1 0 0");
    let tied = paired.replace("1 2 3 0\n0 0 0 0", "1 2 3 0\n1 0 0 0");
    for (text, one_twist) in [
        (TWISTED_ALIKE.replace("{k}", "3"), true),
        (paired, false),
        (tied, true),
    ] {
        let puzzle = definitions::parse("alike.tws", &text).unwrap();
        let d = &puzzle.definition;
        let generators = transformations(d, "");
        let mut twisted = d.solved.clone();
        twisted.orbits[0].orientation[3] = 1;
        let mut swapped = d.solved.clone();
        swapped.orbits[0].pieces.swap(1, 2);
        swapped.orbits[0].orientation[0] = 1;
        swapped.orbits[0].orientation[1] = 1;
        assert_eq!(
            reaches(&generators, &d.orbits, &d.solved, &twisted).unwrap(),
            Some(one_twist),
            "{text}"
        );
        assert_eq!(
            reaches(&generators, &d.orbits, &d.solved, &swapped).unwrap(),
            Some(true),
            "{text}"
        );
    }
    // A top corner in slot 0, which U, R and F never turn, is out of their reach, and within
    // reach of every turn.
    let puzzle = definitions::parse("layers.kpuzzle.json", &layered_2x2x2()).unwrap();
    let d = &puzzle.definition;
    let mut moved = d.solved.clone();
    moved.orbits[0].pieces.swap(0, 2);
    for (generators, reached) in [("U,R,F", false), ("", true)] {
        let chosen = transformations(d, generators);
        assert_eq!(
            reaches(&chosen, &d.orbits, &d.solved, &moved).unwrap(),
            Some(reached),
            "{generators}"
        );
    }
}

#[test]
fn the_4x4x4_has_its_published_number_of_distinguishable_positions() {
    let cube = load("4x4x4.kpuzzle.json");
    // Turns that keep the down-back-left corner in place: the cube's orientation is fixed.
    let report = definitions::info(&cube, &names("U,R,F,2U,2R,2F,2D,2L,2B")).unwrap();
    assert_eq!(
        report.positions.as_deref(),
        Some("7401196841564901869874093974498574336000000000")
    );
    // With every turn, each position comes in the cube's 24 orientations.
    let all = definitions::info(&cube, &[]).unwrap();
    let fixed: num_bigint::BigUint = report.positions.unwrap().parse().unwrap();
    assert_eq!(all.positions, Some((fixed * 24u8).to_string()));
}

/// The 5x5x5 has 92 slots, past the 64 a position holds by default: its distinguishable
/// positions are the published figure, it is enumerated over classes of its 96 symmetries in
/// 512-bit keys (the same counts as over whole positions of 128 bytes, and as over whole
/// positions in 512-bit keys on disk), and its scrambles are solved optimally by the slot
/// solver.
#[test]
fn the_5x5x5_runs_in_positions_of_128_slots() {
    use godsearch_app::registry::definition::solve::DefinitionSolver;
    let cube = load("5x5x5.kpuzzle.json");
    let report = definitions::info(&cube, &[]).unwrap();
    let published = &godsearch_testdata::rows("cube5x5x5.txt")[0][1];
    assert_eq!(report.positions.as_ref(), Some(published));
    // One move: 12 layers, 3 powers each. Two: a pair of layers of one axis commutes (6
    // pairs an axis, 9 powers), of two axes does not (12 x 8 ordered, 9 powers): 162 + 864.
    let bfs = run(
        &cube,
        "",
        DefinitionMetric::Outer,
        EngineChoice::Auto,
        Some(2),
    );
    assert_eq!(bfs.levels, vec![1, 36, 1026]);
    assert!(bfs.engine.contains("512-bit keys"), "{}", bfs.engine);
    let outer = DefinitionMetric::Outer;
    let classes = run_with(&cube, "", outer, EngineChoice::Auto, Some(4), None).unwrap();
    let whole = run_with(&cube, "", outer, EngineChoice::Auto, Some(4), Some(1)).unwrap();
    assert_eq!(classes.class_group, Some(96));
    assert_eq!(classes.classes, Some(vec![1, 4, 31, 444, 9896]));
    assert_eq!(whole.class_group, None);
    assert_eq!(classes.levels, whole.levels);
    assert_eq!(whole.levels, vec![1, 36, 1026, 28812, 806988]);
    assert!(whole.engine.contains("whole states"), "{}", whole.engine);
    // Whole positions on disk: each a class of one in a 512-bit key.
    let dir = tempfile::tempdir().unwrap();
    let request = BfsRequest {
        limits: Limits {
            max_depth: Some(3),
            memory_bytes: 1 << 30,
            antipode_cap: 0,
            count_last: false,
        },
        engine: EngineChoice::Auto,
        save: None,
        disk: Some(godsearch_app::bfs::DiskRequest {
            workdir: dir.path(),
            resume: false,
            keep_levels: false,
            bucket_states: 1000,
            disk_bytes: None,
        }),
        cluster: None,
    };
    let definition = godsearch_app::registry::definition::bfs::definition;
    let on_disk = definition(&cube, &[], outer, Some(1), &request, &NoProgress).unwrap();
    assert_eq!(on_disk.engine, "frontier on disk");
    assert_eq!(
        (on_disk.levels, on_disk.classes),
        (whole.levels[..4].to_vec(), None)
    );
    let generators = Vec::new();
    let solver = DefinitionSolver::new(&cube, &one_solution(&generators), &NoProgress).unwrap();
    for scramble in ["R 2U' F2", "Uw R 2B' L2 D"] {
        let start = definitions::position(&cube, scramble).unwrap();
        let solved = solver.solve(&start, scramble, None).unwrap();
        // Uw is U 2U: two moves.
        assert_eq!(
            solved.length,
            names(scramble).len() + usize::from(scramble.contains("Uw"))
        );
        assert!(solved.optimal, "{scramble}");
    }
}

/// The Rainbow Masterball, the shipped puzzle no other tool ships: its group order and its
/// distinguishable positions are the published figures; its first levels are those counted
/// by hand, the same over classes of its symmetries as over whole positions; scrambles are
/// solved optimally and replayed.
#[test]
fn the_masterball_has_its_published_figures() {
    use godsearch_app::registry::definition::solve::DefinitionSolver;
    let ball = load("masterball.kpuzzle.json");
    let published = godsearch_testdata::rows("masterball.txt");
    let figure = |what: &str| {
        published
            .iter()
            .find(|row| row[0] == what)
            .map(|row| row[1].clone())
            .unwrap()
    };
    let report = definitions::info(&ball, &[]).unwrap();
    assert_eq!(report.group_order, figure("group_order"));
    assert_eq!(report.positions, Some(figure("positions")));
    // One move: 4 layers, 7 eighth-turn powers each, and 8 hemisphere half turns. Two: the
    // layers commute with one another (6 pairs, 49 powers), a hemisphere with its opposite
    // (4 pairs), and nothing else does (8 x 7 - 8 ordered pairs of hemispheres, 4 x 7 x 8 x 2
    // of a layer and a hemisphere): 294 + 4 + 48 + 448.
    let outer = DefinitionMetric::Outer;
    let classes = run_with(&ball, "", outer, EngineChoice::Auto, Some(4), None).unwrap();
    let whole = run_with(&ball, "", outer, EngineChoice::Auto, Some(4), Some(1)).unwrap();
    assert_eq!(whole.levels, vec![1, 36, 794, 16_972, 353_221]);
    assert_eq!(classes.levels, whole.levels);
    assert!(classes.class_group.is_some_and(|g| g > 1));
    let generators = Vec::new();
    let solver = DefinitionSolver::new(&ball, &one_solution(&generators), &NoProgress).unwrap();
    for scramble in ["U F", "Um3 FR Dm' BL U2 R"] {
        let start = definitions::position(&ball, scramble).unwrap();
        let solved = solver.solve(&start, scramble, None).unwrap();
        assert_eq!(solved.length, names(scramble).len(), "{scramble}");
        assert!(solved.optimal, "{scramble}");
    }
}

/// The slot space (positions as slot contents, for puzzles past 128-bit ranks) against the
/// ranked space on the 2x2x2: the same moves; its hashed ball of positions near solved never
/// overestimates, crowded or not; and the slot solver (IDA* over the ball grown with the
/// bound) finds the distances the table gives.
#[test]
fn slot_spaces_move_as_ranked_ones_and_their_solver_finds_the_tables_distances() {
    use godsearch_app::registry::definition::slots::SlotSolver;
    use godsearch_core::{Heuristic, StateSpace};
    use godsearch_enumerate::hashed_ball::HashedBall;
    use godsearch_orbit::slots::SlotSpace;
    let puzzle = load("2x2x2.kpuzzle.json");
    let generators = names("U,F,R");
    let space: OrbitSpace<u64> = puzzle.space(&generators, DefinitionMetric::Outer).unwrap();
    let slots: SlotSpace = SlotSpace::new(&puzzle.definition, &generators, false).unwrap();
    assert_eq!(slots.move_count(), space.move_count());
    let truth = distances(&space);
    let roomy = HashedBall::build(&slots, 5, 1 << 22);
    let crowded = HashedBall::build(&slots, 6, 1 << 12);
    let mut inside = 0;
    for rank in (0..truth.len()).step_by(11) {
        let state = slots.slots_of(&space.pattern_of(rank as u64));
        let d = truth[rank] as u32;
        for ball in [&roomy, &crowded] {
            let h = ball.lower_bound(state);
            assert!(h <= d, "rank {rank} estimated {h}, distance {d}");
        }
        inside += (d <= 5 && roomy.lower_bound(state) == d) as u32;
        let mut ranked = Vec::new();
        space.for_each_neighbour(rank as u64, |m, next| ranked.push((m, next)));
        for (m, next) in ranked {
            let moved = slots.apply(&state, m);
            assert_eq!(moved, slots.slots_of(&space.pattern_of(next)), "move {m}");
        }
    }
    assert!(inside > 0);
    let solver: SlotSolver = SlotSolver::new(&puzzle, &one_solution(&generators)).unwrap();
    for rank in (0..truth.len()).step_by(truth.len() / 40) {
        let pattern = space.pattern_of(rank as u64);
        let report = solver
            .solve(&pattern, "sampled", Default::default())
            .unwrap();
        assert_eq!(report.length, truth[rank] as usize, "rank {rank}");
    }
}

/// The target: short scrambles of the 4x4x4 and the megaminx (ranks past 128 bits)
/// solved optimally in seconds (here, over the hashed ball grown with the bound, a tenth of a
/// second for 8 moves); the solutions replayed, as long as the scrambles.
#[test]
fn the_4x4x4_and_the_megaminx_solve_six_and_eight_move_scrambles() {
    use godsearch_app::registry::definition::solve::{
        solve, DefinitionSolveRequest, QUICK_DATABASE_RANKS,
    };
    for (file, scramble) in [
        ("4x4x4.kpuzzle.json", "R 2U F' 2R D B2"),
        ("megaminx.kpuzzle.json", "U R F' BR2 L DL'"),
        ("4x4x4.kpuzzle.json", "R 2U F' 2R D B2 L 2F"),
        ("megaminx.kpuzzle.json", "U R F' BR2 L DL' F2 BL'"),
    ] {
        let puzzle = load(file);
        let request = DefinitionSolveRequest {
            generators: &[],
            metric: DefinitionMetric::Outer,
            memory_bytes: 1 << 30,
            deadline: None,
            descent_ranks: 0,
            database_ranks: QUICK_DATABASE_RANKS,
            prepared_ranks: 0,
            count: 1,
            table: None,
            algorithm: Default::default(),
            cache: None,
        };
        let start = definitions::position(&puzzle, scramble).unwrap();
        let report = solve(&puzzle, &start, scramble, &request, &NoProgress).unwrap();
        assert_eq!(report.length, names(scramble).len(), "{file}");
        assert!(report.optimal);
    }
}

/// Past 128-bit ranks IDA* cannot run out of positions, so the group decides reachability
/// first: a twisted corner or a flipped edge is refused at once, with alike pieces too.
#[test]
fn unreachable_positions_past_128_bits_are_refused_by_the_group() {
    use godsearch_app::registry::definition::solve::{
        solve, DefinitionSolveRequest, QUICK_DATABASE_RANKS,
    };
    use godsearch_orbit::group::reaches;
    for (file, scramble, orbit) in [
        ("4x4x4.kpuzzle.json", "R 2U F'", "CORNERS"),
        ("megaminx.kpuzzle.json", "U R F'", "EDGES"),
    ] {
        let puzzle = load(file);
        let d = &puzzle.definition;
        let generators = transformations(d, "");
        let start = definitions::position(&puzzle, scramble).unwrap();
        assert_eq!(
            reaches(&generators, &d.orbits, &d.solved, &start).unwrap(),
            Some(true),
            "{file}"
        );
        let o = d.orbits.iter().position(|x| x.name == orbit).unwrap();
        let mut twisted = start.clone();
        let k = d.orbits[o].orientations;
        twisted.orbits[o].orientation[0] = (twisted.orbits[o].orientation[0] + 1) % k;
        assert_eq!(
            reaches(&generators, &d.orbits, &d.solved, &twisted).unwrap(),
            Some(false),
            "{file}"
        );
        let request = DefinitionSolveRequest {
            generators: &[],
            metric: DefinitionMetric::Outer,
            memory_bytes: 1 << 30,
            deadline: None,
            descent_ranks: 0,
            database_ranks: QUICK_DATABASE_RANKS,
            prepared_ranks: 0,
            count: 1,
            table: None,
            algorithm: Default::default(),
            cache: None,
        };
        let refused = solve(&puzzle, &twisted, "twisted", &request, &NoProgress).unwrap_err();
        assert!(refused.to_string().contains("cannot reach"), "{refused}");
    }
    // The 4x4x4's centres are alike: any arrangement of their colours is reached, two of
    // them swapped too; so is one pair of wings swapped (the "parity" cubers know).
    let cube = load("4x4x4.kpuzzle.json");
    let d = &cube.definition;
    let generators = transformations(d, "");
    for orbit in ["CENTERS", "WINGS"] {
        let o = d.orbits.iter().position(|x| x.name == orbit).unwrap();
        let mut swapped = d.solved.clone();
        let pieces = &mut swapped.orbits[o].pieces;
        let other = pieces.iter().position(|&p| p != pieces[0]).unwrap();
        pieces.swap(0, other);
        assert_eq!(
            reaches(&generators, &d.orbits, &d.solved, &swapped).unwrap(),
            Some(true),
            "{orbit}"
        );
    }
}

/// A job's cancel stops a definition puzzle's IDA* within a moment, with the bound it proved,
/// as it stops the board and cube searches.
#[test]
fn a_cancelled_definition_solve_stops_at_once() {
    use godsearch_app::request::{JobControl, SolveRequest};
    use std::sync::Arc;
    use std::time::{Duration, Instant};
    let (_dir, bench, limits) = workbench();
    let file = data_dir().join("definitions").join("3x3x3.kpuzzle.json");
    // Twenty moves: far past what the quick databases solve in a test's time.
    let request = SolveRequest::new(
        file.to_str().unwrap(),
        "R U2 F' L D B2 R' U F2 L' D2 B U' R2 F L2 D' B' U2 R",
    );
    let control = Arc::new(JobControl::new(None));
    let canceller = {
        let control = Arc::clone(&control);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(1_500));
            control.cancel();
            Instant::now()
        })
    };
    let refused = bench.solve(&request, &limits, &control).unwrap_err();
    let stopped = Instant::now();
    let cancelled = canceller.join().unwrap();
    assert!(
        stopped.duration_since(cancelled) < Duration::from_secs(1),
        "stopped {:?} after the cancel: {refused}",
        stopped.duration_since(cancelled)
    );
    // Stopped in a database build (within a task of its level) or in IDA* (with its bound).
    let why = refused.to_string();
    assert!(
        why.contains("every solution has at least") || why.contains("stopped before its end"),
        "{why}"
    );
}

/// A definition puzzle through the registry: replayed turn by turn to solved (patterns as
/// KPuzzle JSON); only where files may be read.
#[test]
fn the_registry_replays_and_scrambles_a_definition_puzzle() {
    use godsearch_app::registry;
    use godsearch_app::request::ReplayRequest;
    let file = data_dir().join("definitions").join("skewb.kpuzzle.json");
    let name = file.to_str().unwrap();
    let puzzle = registry::open(name, true).unwrap();
    let played = puzzle
        .replay(&ReplayRequest {
            puzzle: name.into(),
            position: "R U".into(),
            solution: "U' R'".into(),
            goal: None,
            facelets: false,
        })
        .unwrap();
    assert_eq!(played.positions.len(), 3);
    assert!(played.solved);
    assert_ne!(played.positions[0], played.positions[2]);
    let not_solved = puzzle
        .replay(&ReplayRequest {
            puzzle: name.into(),
            position: "R U".into(),
            solution: "U'".into(),
            goal: None,
            facelets: false,
        })
        .unwrap();
    assert!(!not_solved.solved);
    // A server reads no files: the same name is refused there.
    assert!(registry::open(name, false).is_err());
}

/// An alg search (`count`) on the 3x3x3 read from its file lists, among its solutions of
/// the optimal length, exactly the shortest solutions the built-in optimal solver lists with
/// `all` (the two engines' canonical sequences agree); the rest are longer, in order, each
/// distinct.
#[test]
fn an_alg_search_lists_the_shortest_solutions_the_optimal_cube_solver_lists() {
    use godsearch_app::request::{JobControl, SolveReport, SolveRequest};
    let (_dir, bench, limits) = workbench();
    let control = JobControl::new(None);
    let file = data_dir().join("definitions").join("3x3x3.kpuzzle.json");
    // Eight shortest solutions of six half turns, then longer ones.
    let scramble = "R2 U2 R2 U2 R2 U2";
    let alg_search = SolveRequest {
        count: Some(12),
        ..SolveRequest::new(file.to_str().unwrap(), scramble)
    };
    let SolveReport::Definition(listed) = bench.solve(&alg_search, &limits, &control).unwrap()
    else {
        panic!("a definition puzzle's report")
    };
    let solutions = listed.solutions.unwrap();
    assert_eq!(solutions.len(), 12);
    let lengths: Vec<usize> = solutions
        .iter()
        .map(|s| s.split_whitespace().count())
        .collect();
    assert!(lengths.windows(2).all(|w| w[0] <= w[1]), "{lengths:?}");
    let unique: std::collections::HashSet<&String> = solutions.iter().collect();
    assert_eq!(unique.len(), solutions.len());
    let mut shortest: Vec<&String> = solutions
        .iter()
        .filter(|s| s.split_whitespace().count() == listed.length)
        .collect();
    let optimal = SolveRequest {
        optimal: true,
        all: true,
        moves: true,
        table_size: Some("small".into()),
        ..SolveRequest::new("3x3x3", scramble)
    };
    let SolveReport::Cube(built_in) = bench.solve(&optimal, &limits, &control).unwrap() else {
        panic!("a cube's report")
    };
    let mut every = built_in.all_solutions.unwrap();
    assert_eq!(built_in.length, listed.length);
    assert_eq!(every.len(), 8);
    shortest.sort();
    every.sort();
    assert_eq!(shortest, every.iter().collect::<Vec<_>>());
    // The built-in solvers give one solution: --count is refused there.
    let refused = SolveRequest {
        count: Some(2),
        ..SolveRequest::new("3x3", "1,2,3,4,5,6,7,0,8")
    };
    assert!(bench.solve(&refused, &limits, &control).is_err());
    let zero = SolveRequest {
        count: Some(0),
        ..SolveRequest::new(file.to_str().unwrap(), scramble)
    };
    assert!(bench.solve(&zero, &limits, &control).is_err());
}

/// A workbench keeps the definition solver it built: a second position of the same puzzle
/// and options builds nothing, a different puzzle builds its own.
#[test]
fn a_workbench_builds_a_definition_puzzles_tables_once() {
    use godsearch_app::request::{JobControl, SolveReport, SolveRequest};
    let (_dir, bench, limits) = workbench();
    let build_seconds = |file: &str, position: &str| {
        let path = data_dir().join("definitions").join(file);
        let request = SolveRequest::new(path.to_str().unwrap(), position);
        match bench
            .solve(&request, &limits, &JobControl::new(None))
            .unwrap()
        {
            SolveReport::Definition(report) => report.build_seconds,
            other => panic!("{other:?}"),
        }
    };
    assert!(build_seconds("skewb.kpuzzle.json", "R U") > 0.0);
    assert_eq!(build_seconds("skewb.kpuzzle.json", "L B'"), 0.0);
    assert!(build_seconds("pyraminx-no-tips.tws", "U R") > 0.0);
    assert!(build_seconds("skewb.kpuzzle.json", "R") > 0.0);
}
