//! `godsearch solve`: optimal solutions by IDA*, parallel IDA*, A* or table descent.

use super::solve_report::{Printer, Solution};
use crate::args::{Algorithm, HeuristicChoice, SolveArgs};
use crate::errors::bad_input;
use crate::machine;
use crate::pdb_cache::{Origin, PdbCache, QUICK_BUILD_STATES};
use crate::spaces::{self, AnySpace};
use crate::units::{format_bytes, format_count};
use anyhow::{bail, ensure, Context, Result};
use godsearch_core::RankedSpace;
use godsearch_enumerate::table;
use godsearch_puzzles::tiles::{parse_instances, Board, Move, Partition, TileSpace};
use godsearch_puzzles::PuzzleName;
use godsearch_search::descend;
use godsearch_search::tiles::{
    astar, ida_star_until, LinearConflict, Manhattan, PatternHeuristic, SearchError, SearchOutcome,
    SearchStats, TileHeuristic, MAX_SEARCH_CELLS,
};
use godsearch_subgoal::{Plan, Portfolio, SubgoalSolver, DEFAULT_EFFORT};
use godsearch_tables::{DistanceMod3, TwoBitView};
use std::time::{Duration, Instant};

/// Boards with at most this many positions get their distance table built in memory for
/// `--algorithm table` without --table: 2x5 (1,814,400 positions) builds in a fraction of a
/// second; 3x4 (239,500,800) takes many seconds and should be saved once with `bfs --save`.
const IN_MEMORY_TABLE_LIMIT: u128 = 20_000_000;
/// Boards of at most this many cells default to A*; larger ones to parallel IDA*.
const ASTAR_DEFAULT_MAX_CELLS: usize = 9;
/// Subgoal effort by board size, chosen to meet the speed targets measured with
/// `godsearch solve WxH --algorithm subgoal --file ...` and `godsearch bench --section subgoal`:
/// 4x4 at effort 8 takes 0.5 ms a board (mean 62.05 moves on Korf's 100); 5x5 at effort 4 takes
/// 2 ms; larger boards at effort 1 take 13 ms (10x10) and 0.35 s (20x20).
const SMALL_BOARD_CELLS: usize = 16;
const MEDIUM_BOARD_CELLS: usize = 25;
const MEDIUM_BOARD_EFFORT: usize = 4;
/// Bytes A* spends per stored position (map entry, heap entry, overhead), to turn --memory into
/// a position limit.
const ASTAR_BYTES_PER_POSITION: u64 = 64;

/// A board to solve, with what a `--file` line said about it.
struct Job {
    id: Option<String>,
    expected: Option<usize>,
    board: Board,
}

/// The heuristics `solve` can use, resolved to one type for the engines.
enum AnyHeuristic {
    Manhattan(Manhattan),
    Conflict(LinearConflict),
    Pdb(PatternHeuristic),
}

pub fn run(args: &SolveArgs) -> Result<()> {
    if let PuzzleName::Cube(size) = args.puzzle.parse::<PuzzleName>()? {
        return super::cube_solve::run(args, size);
    }
    let cube_only = [
        (args.moves, "--moves"),
        (args.metric.is_some(), "--metric"),
        (args.max_length.is_some(), "--max-length"),
        (args.facelets, "--facelets"),
        (args.show_facelets, "--show-facelets"),
        (
            args.algorithm == Algorithm::TwoPhase,
            "--algorithm two-phase",
        ),
    ];
    if let Some((_, name)) = cube_only.iter().find(|(given, _)| *given) {
        bad_input!("{name} is for cubes, not sliding-tile boards");
    }
    let shape = spaces::tile_shape(&args.puzzle)?;
    let goal = spaces::tile_goal(shape, args.goal.as_deref())?;
    let jobs = jobs(args, &goal)?;
    let memory_bytes = machine::memory_budget(args.memory);
    let algorithm = match (args.algorithm, &args.table) {
        (Algorithm::Auto | Algorithm::Table, Some(_)) => Algorithm::Table,
        (other, Some(_)) => bad_input!(
            "--table solves by table descent; it cannot be used with --algorithm {}",
            algorithm_name(other)
        ),
        // Only IDA* stops at a deadline and reports what it proved.
        (Algorithm::Auto, None) if args.timeout.is_some() => Algorithm::ParallelIda,
        (Algorithm::Auto, None) if shape.cells() <= ASTAR_DEFAULT_MAX_CELLS => Algorithm::Astar,
        (Algorithm::Auto, None) => Algorithm::ParallelIda,
        (other, None) => other,
    };
    refuse_unused_options(args, algorithm)?;
    // Boards the searches cannot take are refused before any heuristic is built or announced.
    let searching = is_search(algorithm);
    if searching && shape.cells() > MAX_SEARCH_CELLS {
        return Err(SearchError::BoardTooLarge.into());
    }
    if algorithm == Algorithm::Astar && TileSpace::<u64>::new(goal.clone()).is_err() {
        return Err(SearchError::AStarTooLarge.into());
    }
    let deadline_after = args.timeout;
    let mut out = Printer::new(args.json);
    if algorithm == Algorithm::Table {
        solve_by_table(args, &goal, &jobs, &mut out)?;
    } else if matches!(algorithm, Algorithm::TwoStage | Algorithm::Subgoal) {
        solve_by_stages(args, algorithm, &goal, &jobs, &mut out)?;
    } else {
        let heuristic = choose_heuristic(args, &goal, memory_bytes)?;
        let search = Search {
            algorithm,
            goal: &goal,
            memory_bytes,
            deadline_after,
        };
        match &heuristic {
            AnyHeuristic::Manhattan(h) => search.all(h, &jobs, &mut out)?,
            AnyHeuristic::Conflict(h) => search.all(h, &jobs, &mut out)?,
            AnyHeuristic::Pdb(h) => search.all(h, &jobs, &mut out)?,
        }
    }
    out.finish()
}

/// Whether `algorithm` searches with a heuristic (IDA*, parallel IDA*, A*).
fn is_search(algorithm: Algorithm) -> bool {
    matches!(
        algorithm,
        Algorithm::Ida | Algorithm::ParallelIda | Algorithm::Astar
    )
}

/// The name of an algorithm as `--algorithm` takes it.
fn algorithm_name(algorithm: Algorithm) -> String {
    use clap::ValueEnum;
    algorithm
        .to_possible_value()
        .map_or_else(|| format!("{algorithm:?}"), |v| v.get_name().to_string())
}

/// Refuses options that would do nothing with the algorithm chosen for a board, rather than
/// ignore them silently.
fn refuse_unused_options(args: &SolveArgs, algorithm: Algorithm) -> Result<()> {
    let searching = is_search(algorithm);
    let staged = matches!(algorithm, Algorithm::TwoStage | Algorithm::Subgoal);
    let chosen = algorithm_name(algorithm);
    let unused = [
        (
            args.timeout.is_some() && !matches!(algorithm, Algorithm::Ida | Algorithm::ParallelIda),
            "--timeout",
            "IDA* (--algorithm ida or parallel-ida)",
        ),
        (
            args.heuristic != HeuristicChoice::Auto && !searching,
            "--heuristic",
            "IDA* and A*",
        ),
        (args.pdb.is_some() && !searching, "--pdb", "IDA* and A*"),
        (
            args.no_reflection && !searching,
            "--no-reflection",
            "IDA* and A* with pattern databases",
        ),
        (
            args.no_reflection
                && matches!(
                    args.heuristic,
                    HeuristicChoice::Manhattan | HeuristicChoice::LinearConflict
                ),
            "--no-reflection",
            "pattern databases (--heuristic pdb)",
        ),
        (
            args.cache.is_some()
                && !(searching
                    && matches!(args.heuristic, HeuristicChoice::Auto | HeuristicChoice::Pdb)),
            "--cache",
            "pattern databases (--heuristic pdb or auto)",
        ),
        (
            args.stages.is_some() && algorithm != Algorithm::Subgoal,
            "--stages",
            "--algorithm subgoal",
        ),
        (
            args.effort.is_some() && !staged,
            "--effort",
            "--algorithm subgoal and two-stage",
        ),
        (
            args.memory.is_some() && !(searching),
            "--memory",
            "A* and the pattern-database builds of IDA* and A*",
        ),
    ];
    if let Some((_, option, used_by)) = unused.iter().find(|(given, _, _)| *given) {
        bad_input!("{option} is used only by {used_by}, not by --algorithm {chosen}");
    }
    Ok(())
}

/// The boards from the command line and from --file.
fn jobs(args: &SolveArgs, goal: &Board) -> Result<Vec<Job>> {
    let mut jobs: Vec<Job> = board_texts(&args.boards, goal.shape().cells())
        .iter()
        .map(|text| {
            Ok(Job {
                id: None,
                expected: None,
                board: spaces::solvable_board(goal, text)?,
            })
        })
        .collect::<Result<_>>()?;
    if let Some(path) = &args.file {
        let text = crate::input::read_text_file(path)?;
        let instances = parse_instances(goal.shape(), &text).map_err(|(line, e)| {
            anyhow::Error::new(e).context(format!("{} line {line}", path.display()))
        })?;
        for (i, instance) in instances.into_iter().enumerate() {
            instance
                .board
                .check_solvable(goal)
                .with_context(|| format!("{} board {}", path.display(), i + 1))?;
            jobs.push(Job {
                id: instance.id,
                expected: instance.length,
                board: instance.board,
            });
        }
    }
    if jobs.is_empty() {
        bad_input!("no boards to solve");
    }
    Ok(jobs)
}

/// Each argument is one board, except that exactly one argument per cell, each a single tile,
/// is read as one board (`solve 3x3 2 4 0 1 8 5 3 6 7`).
fn board_texts(words: &[String], cells: usize) -> Vec<String> {
    let single_tiles = words
        .iter()
        .all(|w| w.parse::<u16>().is_ok() || w == "." || w == "_");
    if words.len() == cells && single_tiles {
        vec![words.join(" ")]
    } else {
        words.to_vec()
    }
}

/// Named partitions `auto` may use, strongest first.
fn preferred_partitions(goal: &Board) -> Vec<&'static str> {
    let by_strength = ["7-8", "6-6-3", "5-5-5", "6-6-6-6", "4-4"];
    let available = Partition::names(goal.shape());
    by_strength
        .into_iter()
        .filter(|n| available.contains(n))
        .collect()
}

fn choose_heuristic(args: &SolveArgs, goal: &Board, memory_bytes: u64) -> Result<AnyHeuristic> {
    let cache = PdbCache::new(args.cache.as_deref());
    let choice = if args.pdb.is_some() {
        HeuristicChoice::Pdb
    } else {
        args.heuristic
    };
    let conflict = || LinearConflict::new(goal).map(AnyHeuristic::Conflict);
    match choice {
        HeuristicChoice::Manhattan => Ok(AnyHeuristic::Manhattan(Manhattan::new(goal)?)),
        HeuristicChoice::LinearConflict => Ok(conflict()?),
        HeuristicChoice::Pdb => {
            let name = match &args.pdb {
                Some(name) => name.clone(),
                None => match preferred_partitions(goal).last() {
                    Some(name) => name.to_string(),
                    None => bad_input!(
                        "no named partition for {}: give one with --pdb 1,2,3/4,5,6",
                        goal.shape()
                    ),
                },
            };
            let partition = Partition::parse(&name, goal)
                .map_err(|e| crate::errors::InputError(e.to_string()))?;
            Ok(AnyHeuristic::Pdb(pattern_heuristic(
                args,
                goal,
                &partition,
                &cache,
                memory_bytes,
            )?))
        }
        HeuristicChoice::Auto => {
            for name in preferred_partitions(goal) {
                let Ok(partition) = Partition::parse(name, goal) else {
                    continue;
                };
                let usable = partition.patterns().iter().all(|p| {
                    cache.is_cached(goal, p)
                        || p.entries().saturating_mul(p.free_cells()) <= QUICK_BUILD_STATES
                });
                if usable {
                    return Ok(AnyHeuristic::Pdb(pattern_heuristic(
                        args,
                        goal,
                        &partition,
                        &cache,
                        memory_bytes,
                    )?));
                }
            }
            if let Some(strongest) = preferred_partitions(goal).first() {
                eprintln!(
                    "note: no pattern database is cached for this board size and goal; \
                     `{}` builds {strongest} once (under a minute here), after which long boards \
                     solve far faster",
                    build_command(args, goal, strongest)
                );
            }
            conflict().or_else(|_| Ok(AnyHeuristic::Manhattan(Manhattan::new(goal)?)))
        }
    }
}

/// The `godsearch pdb build` command that caches `partition` for this solve's goal and cache.
fn build_command(args: &SolveArgs, goal: &Board, partition: &str) -> String {
    let mut command = format!("godsearch pdb build {} --pdb {partition}", goal.shape());
    if *goal != Board::goal(goal.shape()) {
        command += &format!(" --goal {}", goal.to_list());
    }
    if let Some(dir) = &args.cache {
        command += &format!(" --cache {}", dir.display());
    }
    command
}

/// Loads (or builds and caches) every group's database, telling stderr about builds.
fn pattern_heuristic(
    args: &SolveArgs,
    goal: &Board,
    partition: &Partition,
    cache: &PdbCache,
    memory_bytes: u64,
) -> Result<PatternHeuristic> {
    let mut tables = Vec::new();
    for pattern in partition.patterns() {
        let (table, origin) = cache.load_or_build(goal, pattern, memory_bytes, false)?;
        if let Origin::Built {
            seconds,
            replaced,
            not_saved,
        } = origin
        {
            if let Some(why) = replaced {
                eprintln!("note: rebuilding a cached pattern database ({why})");
            }
            let kept = match not_saved {
                None => format!("cached in {}", cache.dir().display()),
                Some(why) => format!("not cached ({why}), so it is built again next time"),
            };
            eprintln!(
                "built pattern database for tiles {:?}: {} entries in {seconds:.2} s, {kept}",
                pattern.tiles(),
                format_count(pattern.entries()),
            );
        }
        tables.push(table);
    }
    Ok(PatternHeuristic::new(
        goal,
        partition,
        tables,
        !args.no_reflection,
    )?)
}

/// How the searching algorithms run on each board.
struct Search<'a> {
    algorithm: Algorithm,
    goal: &'a Board,
    memory_bytes: u64,
    deadline_after: Option<Duration>,
}

impl Search<'_> {
    /// Solves each job in turn, handing each result to `out` as soon as it is found.
    fn all<H: TileHeuristic>(&self, heuristic: &H, jobs: &[Job], out: &mut Printer) -> Result<()> {
        for job in jobs {
            out.emit(self.one(heuristic, job)?)?;
        }
        Ok(())
    }

    fn one<H: TileHeuristic>(&self, heuristic: &H, job: &Job) -> Result<Solution> {
        let goal = self.goal;
        let name: &'static str = match self.algorithm {
            Algorithm::Ida => "ida",
            Algorithm::Astar => "astar",
            _ => "parallel-ida",
        };
        let started = Instant::now();
        // A deadline past what the clock holds is no deadline.
        let deadline = self.deadline_after.and_then(|d| started.checked_add(d));
        let outcome = match self.algorithm {
            Algorithm::Ida => ida_star_until(&job.board, goal, heuristic, 1, deadline),
            Algorithm::Astar => astar(
                &job.board,
                goal,
                heuristic,
                self.memory_bytes / ASTAR_BYTES_PER_POSITION,
            ),
            _ => {
                let threads = rayon::current_num_threads();
                ida_star_until(&job.board, goal, heuristic, threads, deadline)
            }
        };
        let seconds = started.elapsed().as_secs_f64();
        match outcome {
            Ok(outcome) => {
                let method = Method {
                    algorithm: name,
                    heuristic: heuristic.describe(),
                    optimal: true,
                };
                solution(job, goal, outcome, method, seconds)
            }
            Err(SearchError::Timeout {
                lower_bound,
                expanded,
            }) => Ok(Solution {
                puzzle: goal.shape().to_string(),
                id: job.id.clone(),
                start: job.board.to_string(),
                solution: String::new(),
                length: 0,
                expected_length: job.expected,
                optimal: false,
                algorithm: name,
                heuristic: heuristic.describe(),
                nodes_expanded: expanded,
                nodes_generated: 0,
                thresholds: Vec::new(),
                iteration_expanded: Vec::new(),
                seconds,
                timed_out: true,
                lower_bound: Some(lower_bound),
            }),
            Err(e) => Err(e.into()),
        }
    }
}

/// What found a solution, as reported.
struct Method {
    algorithm: &'static str,
    heuristic: String,
    /// Whether the method proves its solutions shortest.
    optimal: bool,
}

/// Replays the moves (refusing a solution that does not reach the goal) and checks the length
/// a `--file` line gave.
fn solution(
    job: &Job,
    goal: &Board,
    outcome: SearchOutcome,
    method: Method,
    seconds: f64,
) -> Result<Solution> {
    let Method {
        algorithm,
        heuristic,
        optimal,
    } = method;
    let mut replay = job.board.clone();
    for (i, &m) in outcome.moves.iter().enumerate() {
        ensure!(
            replay.apply(m),
            "internal error: move {} ({}) of the solution leaves the board",
            i + 1,
            m.letter()
        );
    }
    ensure!(
        &replay == goal,
        "internal error: the solution does not reach the goal"
    );
    if let (Some(expected), true) = (job.expected, optimal) {
        if expected != outcome.moves.len() {
            bail!(
                "board {}: found an optimal solution of {} moves but the file says {expected}",
                job.id.as_deref().unwrap_or("?"),
                outcome.moves.len()
            );
        }
    }
    Ok(Solution {
        puzzle: goal.shape().to_string(),
        id: job.id.clone(),
        start: job.board.to_string(),
        solution: Move::format_sequence(&outcome.moves),
        length: outcome.moves.len(),
        expected_length: job.expected,
        optimal,
        algorithm,
        heuristic,
        nodes_expanded: outcome.stats.expanded,
        nodes_generated: outcome.stats.generated,
        thresholds: outcome.stats.thresholds,
        iteration_expanded: outcome.stats.iteration_expanded,
        seconds,
        timed_out: false,
        lower_bound: None,
    })
}

/// Two-stage or subgoal solving. Without --stages, an effort above 1 also tries every peeling
/// order of [`Plan::variants`] and keeps the shortest solution.
fn solve_by_stages(
    args: &SolveArgs,
    algorithm: Algorithm,
    goal: &Board,
    jobs: &[Job],
    out: &mut Printer,
) -> Result<()> {
    let bad = |e: godsearch_subgoal::PlanError| crate::errors::InputError(e.to_string());
    let cells = goal.shape().cells();
    let default_effort = if algorithm == Algorithm::TwoStage {
        1 // the reference method as published: each stage's first optimal path
    } else if cells <= SMALL_BOARD_CELLS {
        DEFAULT_EFFORT
    } else if cells <= MEDIUM_BOARD_CELLS {
        MEDIUM_BOARD_EFFORT
    } else {
        1
    };
    let effort = args.effort.map_or(default_effort, |n| n as usize);
    let (solver, name) = match (algorithm, &args.stages) {
        (Algorithm::TwoStage, _) => (
            Portfolio::of(vec![Plan::two_stage(goal).map_err(bad)?], effort),
            "two-stage",
        ),
        (_, Some(text)) => (
            Portfolio::of(vec![Plan::parse(text, goal).map_err(bad)?], effort),
            "subgoal",
        ),
        (_, None) if effort > 1 => (SubgoalSolver::portfolio(goal, effort), "subgoal"),
        (_, None) => (
            Portfolio::of(vec![Plan::default_for(goal)], effort),
            "subgoal",
        ),
    };
    let stages = solver.plans().join(" | ");
    for job in jobs {
        let started = Instant::now();
        let moves = solver.solve(&job.board)?;
        let seconds = started.elapsed().as_secs_f64();
        let outcome = SearchOutcome {
            moves,
            stats: SearchStats::default(),
        };
        let method = Method {
            algorithm: name,
            heuristic: format!("stages {stages}"),
            optimal: false,
        };
        out.emit(solution(job, goal, outcome, method, seconds)?)?;
    }
    Ok(())
}

fn solve_by_table(args: &SolveArgs, goal: &Board, jobs: &[Job], out: &mut Printer) -> Result<()> {
    let space = match AnySpace::new(goal)? {
        AnySpace::Narrow(space) => space,
        AnySpace::Wide(_) => no_table(args, goal)?,
    };
    match &args.table {
        Some(path) => {
            let loaded = spaces::load_table(path, goal)?;
            let entries = loaded.header().entries as usize;
            let view =
                TwoBitView::new(loaded.payload(), entries).context("table payload too short")?;
            descend_all(&space, &view, loaded.header().levels.len(), goal, jobs, out)
        }
        None => {
            if space.state_count() > IN_MEMORY_TABLE_LIMIT {
                no_table(args, goal)?;
            }
            let (table, levels) = spaces::table_in_memory(&space)?;
            descend_all(&space, &table, levels, goal, jobs, out)
        }
    }
}

fn no_table<T>(args: &SolveArgs, goal: &Board) -> Result<T> {
    let space = AnySpace::new(goal)?;
    let bytes = table::table_bytes(space.state_count());
    let hint = if args.table.is_some() {
        ""
    } else {
        "no --table was given; "
    };
    bad_input!(
        "{hint}solving a {} board by table needs its distance table ({} positions, {}); tables that fit are made with `godsearch bfs {} --save FILE`, other boards are solved by search (--algorithm ida)",
        goal.shape(),
        format_count(space.state_count()),
        format_bytes(bytes as f64),
        goal.shape()
    )
}

fn descend_all<T: DistanceMod3>(
    space: &TileSpace<u64>,
    table: &T,
    max_length: usize,
    goal: &Board,
    jobs: &[Job],
    out: &mut Printer,
) -> Result<()> {
    for job in jobs {
        let started = Instant::now();
        let moves: Vec<Move> = descend(space, table, space.rank(&job.board), max_length)?
            .into_iter()
            .map(Move::from_index)
            .collect();
        let seconds = started.elapsed().as_secs_f64();
        let nodes = moves.len() as u64;
        let stats = SearchStats {
            expanded: nodes,
            generated: nodes,
            ..SearchStats::default()
        };
        let outcome = SearchOutcome { moves, stats };
        let method = Method {
            algorithm: "table",
            heuristic: "distance table".into(),
            optimal: true,
        };
        out.emit(solution(job, goal, outcome, method, seconds)?)?;
    }
    Ok(())
}
