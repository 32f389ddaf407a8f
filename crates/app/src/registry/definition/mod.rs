//! Puzzles from definition files (KPuzzle JSON, `.tws`) in the registry: the shipped ones by
//! name ([`shipped`]: `pyraminx`, `skewb`, ...), on every front end; a name that is a
//! path ending in `.json` or `.tws` opens the file (where the limits let requests name files),
//! read and checked ([`file`](mod@file)), solved optimally ([`solve`], and [`slots`] past 128-bit
//! ranks), enumerated ([`bfs::definition`]), scrambled ([`DefinitionScrambler`]) and checked
//! ([`verify`]), over the generators a request names.

mod ball;
pub mod bfs;
pub mod file;
pub mod prepare;
pub mod scramble;
mod search;
pub mod shipped;
pub mod slots;
pub mod solve;
pub mod tables;
pub mod verify;

use self::solve::{
    DefinitionAlgorithm, DefinitionSolveRequest, DefinitionSolver, GiveUp, KeptSolver,
    DESCENT_RANKS, PREPARED_DATABASE_RANKS, QUICK_DATABASE_RANKS,
};
use super::{no_board_options, InfoQuery, Puzzle, PuzzleKind, Scrambler, Verifier, VerifyQuery};
use crate::bfs::BfsRequest;
use crate::cache::origin_parts;
use crate::choice::Algorithm;
use crate::progress::Notice;
use crate::report::{AnyInfo, BfsReport};
use crate::request::{
    check_replay_size, shorter, BfsJob, JobControl, JobLimits, PdbGroup, PdbJob, PdbReport,
    PuzzleEntry, Replay, ReplayRequest, ScrambleRequest, SolutionDocument, SolveReport,
    SolveRequest, View, Workbench, DEFINITION_OPTIONS,
};
use crate::units::format_bytes;
use crate::{AppError, AppResult};
use file::{DefinitionMetric, DefinitionPuzzle};
use godsearch_core::progress::on_tables;
use godsearch_core::{Progress, RankedSpace};
use godsearch_orbit::kpuzzle;
use rand::rngs::StdRng;
use scramble::DefinitionScrambler;
use shipped::SHIPPED;
use std::time::Instant;

/// Definition files, named by their path.
pub struct DefinitionKind;

impl PuzzleKind for DefinitionKind {
    fn family(&self) -> &'static str {
        "definition"
    }

    fn names_help(&self) -> String {
        let names: Vec<&str> = SHIPPED.iter().map(|s| s.name).collect();
        format!(
            "a shipped definition: {}; or a definition file's path ending in .kpuzzle.json, .json or .tws",
            names.join(", ")
        )
    }

    fn listed(&self) -> Vec<String> {
        SHIPPED.iter().map(|s| s.name.to_string()).collect()
    }

    fn open(&self, name: &str, read_files: bool) -> Option<AppResult<Box<dyn Puzzle>>> {
        if let Some(shipped) = shipped::find(name) {
            return Some(
                shipped
                    .open()
                    .map(|puzzle| Box::new(Definition { puzzle }) as _),
            );
        }
        if !file::is_definition_path(name) {
            return None;
        }
        if !read_files {
            return Some(Err(AppError::Input(
                "this server does not read definition files named in requests".into(),
            )));
        }
        Some(open_file(std::path::Path::new(name)))
    }
}

/// Definitions a front end offers by name beside the shipped ones: a server operator's files
/// (`serve --def FILE`), read and checked once, then opened by name for every request, with no
/// file read on a client's behalf. Register it with [`OfferedKind::register`].
pub struct OfferedKind {
    puzzles: Vec<DefinitionPuzzle>,
}

impl OfferedKind {
    /// Reads and checks the definition files at `paths` and adds them to the registry, each by
    /// its definition's name (the file's stem where the definition names none); a name another
    /// puzzle already answers to, or two files of one name, are refused, as is a second set
    /// in one process. Their names, in order.
    pub fn register(paths: &[std::path::PathBuf]) -> AppResult<Vec<String>> {
        let family = OFFERED_FAMILY;
        if super::kinds().iter().any(|k| k.family() == family) {
            return Err(AppError::Input(
                "definitions are already offered in this process".into(),
            ));
        }
        let mut puzzles: Vec<DefinitionPuzzle> = Vec::new();
        for path in paths {
            let mut puzzle = file::load(path)?;
            let stem = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.split('.').next())
                .unwrap_or_default();
            let name = match puzzle.name().trim() {
                "" => stem.to_string(),
                named => named.to_string(),
            };
            if name.is_empty() || file::is_definition_path(&name) {
                return Err(AppError::Input(format!(
                    "{}: the definition's name '{name}' cannot name a puzzle in requests",
                    path.display()
                )));
            }
            let taken = puzzles.iter().any(|p| p.file.eq_ignore_ascii_case(&name))
                || super::open(&name, false).is_ok();
            if taken {
                return Err(AppError::Input(format!(
                    "{}: another puzzle is already named '{name}'",
                    path.display()
                )));
            }
            puzzle.file = name;
            puzzles.push(puzzle);
        }
        let names = puzzles.iter().map(|p| p.file.clone()).collect();
        if !puzzles.is_empty() {
            // Offered for the life of the process, as the built-in kinds are.
            super::register(Box::leak(Box::new(OfferedKind { puzzles })));
        }
        Ok(names)
    }
}

/// The registry family of [`OfferedKind`].
const OFFERED_FAMILY: &str = "offered definitions";

impl PuzzleKind for OfferedKind {
    fn family(&self) -> &'static str {
        OFFERED_FAMILY
    }

    fn names_help(&self) -> String {
        let names: Vec<&str> = self.puzzles.iter().map(|p| p.file.as_str()).collect();
        format!("a definition offered here: {}", names.join(", "))
    }

    fn listed(&self) -> Vec<String> {
        self.puzzles.iter().map(|p| p.file.clone()).collect()
    }

    fn open(&self, name: &str, _: bool) -> Option<AppResult<Box<dyn Puzzle>>> {
        let puzzle = self
            .puzzles
            .iter()
            .find(|p| p.file.eq_ignore_ascii_case(name))?;
        Some(Ok(Box::new(Definition {
            puzzle: puzzle.clone(),
        })))
    }
}

/// The puzzle of the definition file at `path`, whatever its name ends with (a front end's
/// `--def FILE`; a name given as the puzzle is a definition file only by its ending).
pub fn open_file(path: &std::path::Path) -> AppResult<Box<dyn Puzzle>> {
    file::load(path).map(|puzzle| Box::new(Definition { puzzle }) as Box<dyn Puzzle>)
}

/// A definition file's puzzle, read and checked.
pub struct Definition {
    puzzle: DefinitionPuzzle,
}

/// The metric a request names (default: outer turns, as the file gives them).
fn metric(text: Option<&str>) -> AppResult<DefinitionMetric> {
    match text {
        Some(text) => DefinitionMetric::parse(text),
        None => Ok(DefinitionMetric::Outer),
    }
}

/// How the request asks its positions to be solved: `auto` (table descent or IDA*, chosen by
/// size) or `half-depth` (with `depth`, which nothing else takes).
fn algorithm(request: &SolveRequest) -> AppResult<DefinitionAlgorithm> {
    match (request.algorithm, request.depth) {
        (Algorithm::Auto, None) => Ok(DefinitionAlgorithm::Auto),
        (Algorithm::HalfDepth, depth) => Ok(DefinitionAlgorithm::HalfDepth { depth }),
        (Algorithm::Auto, Some(_)) => Err(AppError::Input(
            "«depth» is for «algorithm» half-depth".into(),
        )),
        (other, _) => Err(AppError::Input(format!(
            "«algorithm» {} is for the built-in puzzles; a definition puzzle is solved by auto (table descent or IDA* over databases chosen automatically) or half-depth",
            other.name()
        ))),
    }
}

/// What a solve asks by default with `generators` in `metric` and `memory_bytes`: one optimal
/// solution, by descent where the table fits [`DESCENT_RANKS`], else over the databases
/// built on the spot ([`QUICK_DATABASE_RANKS`]) and the prepared ones
/// ([`PREPARED_DATABASE_RANKS`]); no deadline, no cache.
fn solve_request(
    generators: &[String],
    metric: DefinitionMetric,
    memory_bytes: u64,
) -> DefinitionSolveRequest<'_> {
    DefinitionSolveRequest {
        generators,
        metric,
        memory_bytes,
        deadline: None,
        descent_ranks: DESCENT_RANKS,
        database_ranks: QUICK_DATABASE_RANKS,
        prepared_ranks: PREPARED_DATABASE_RANKS,
        count: 1,
        table: None,
        algorithm: DefinitionAlgorithm::Auto,
        cache: None,
    }
}

fn generators(text: Option<&str>) -> Vec<String> {
    text.map(file::parse_generators).unwrap_or_default()
}

impl Puzzle for Definition {
    fn entry(&self) -> PuzzleEntry {
        PuzzleEntry {
            name: self.puzzle.file.clone(),
            kind: DefinitionKind.family(),
            goal: "solved".into(),
            algorithms: vec![Algorithm::Auto.name(), Algorithm::HalfDepth.name()],
            partitions: Vec::new(),
            moves: self.puzzle.definition.move_names(),
            solution: SolutionDocument::Moves,
            patterns: true,
            view: View::Orbits,
            options: DEFINITION_OPTIONS.to_vec(),
            metrics: [DefinitionMetric::Outer, DefinitionMetric::Quarter]
                .map(DefinitionMetric::name)
                .to_vec(),
            heuristics: Vec::new(),
            default_heuristic: "pattern databases built from projections of the orbits, sized to the memory given; a distance table where the whole space fits".into(),
        }
    }

    fn check_solve(&self, request: &SolveRequest) -> AppResult<()> {
        request.check_definition_options()?;
        request.timeout()?;
        let several = request.solutions_wanted()? > 1;
        if request.table.is_some() && several {
            return Err(AppError::Input(
                "«table» gives one optimal solution by descent; «count»'s several come from IDA* over databases (leave out one of them)".into(),
            ));
        }
        let half_depth = algorithm(request)?;
        if half_depth != DefinitionAlgorithm::Auto && (several || request.table.is_some()) {
            return Err(AppError::Input(
                "«algorithm» half-depth gives one optimal solution from the positions it holds (leave out «count» and «table»)".into(),
            ));
        }
        metric(request.metric.as_deref())?;
        file::position(&self.puzzle, &request.position).map(|_| ())
    }

    fn solve(
        &self,
        bench: &Workbench,
        request: &SolveRequest,
        limits: &JobLimits,
        control: &JobControl,
    ) -> AppResult<SolveReport> {
        self.check_solve(request)?;
        let table = request.table_file(limits)?;
        let metric = metric(request.metric.as_deref())?;
        let start = file::position(&self.puzzle, &request.position)?;
        let generators = generators(request.generators.as_deref());
        let deadline = shorter(request.timeout()?, limits.max_seconds).map(|t| Instant::now() + t);
        let solve_request = DefinitionSolveRequest {
            deadline,
            count: request.solutions_wanted()?,
            table,
            algorithm: algorithm(request)?,
            cache: Some(bench.cache()),
            ..solve_request(&generators, metric, limits.memory_bytes)
        };
        let give_up = GiveUp {
            deadline,
            cancel: Some(control.cancel_flag()),
            tables: Some(control),
        };
        let solver = bench.definition_solver(&self.puzzle, &solve_request, control)?;
        let report = solver.solve(&start, &request.position, give_up)?;
        Ok(SolveReport::Definition(report))
    }

    fn check_bfs(&self, job: &BfsJob) -> AppResult<()> {
        if job.goal.is_some() {
            return Err(AppError::Input(
                "«goal» is for sliding-tile boards; a definition puzzle is enumerated from its solved pattern".into(),
            ));
        }
        metric(job.metric.as_deref()).map(|_| ())
    }

    fn bfs(
        &self,
        job: &BfsJob,
        request: &BfsRequest,
        progress: &dyn Progress,
    ) -> AppResult<BfsReport> {
        self.check_bfs(job)?;
        let generators = generators(job.generators.as_deref());
        let metric = metric(job.metric.as_deref())?;
        bfs::definition(
            &self.puzzle,
            &generators,
            metric,
            job.symmetry,
            request,
            progress,
        )
    }

    fn scrambler<'a>(
        &'a self,
        _: &'a Workbench,
        request: &ScrambleRequest,
        limits: &JobLimits,
        _: &dyn Progress,
    ) -> AppResult<Box<dyn Scrambler + 'a>> {
        no_board_options(
            request,
            "a definition puzzle prints a scramble and its KPuzzle pattern, or json",
        )?;
        let scrambler = DefinitionScrambler::new(
            &self.puzzle,
            &generators(request.generators.as_deref()),
            metric(request.metric.as_deref())?,
            limits.memory_bytes,
            request.moves.is_none(),
        )?;
        let walk = request.moves.map(|n| n as usize);
        Ok(Box::new(move |rng: &mut StdRng| match walk {
            Some(n) => scrambler.moves(n, rng),
            None => scrambler.uniform(rng),
        }))
    }

    fn info(&self, query: &InfoQuery) -> AppResult<AnyInfo> {
        file::info(&self.puzzle, &query.generators).map(AnyInfo::Definition)
    }

    fn verifier<'a>(
        &'a self,
        _: &'a Workbench,
        query: &VerifyQuery,
        progress: &dyn Progress,
        _: &mut dyn FnMut(Notice),
    ) -> AppResult<Verifier<'a>> {
        if query.goal.is_some()
            || query.table.is_some()
            || query.facelets
            || query.prove
            || query.notation.is_some()
        {
            return Err(AppError::Input(
                "«goal», «table», «facelets», «notation» and «prove» are for the built-in puzzles"
                    .into(),
            ));
        }
        let metric = metric(query.metric.as_deref())?;
        let request = DefinitionSolveRequest {
            generators: &[],
            metric,
            memory_bytes: query.memory_bytes,
            deadline: None,
            descent_ranks: DESCENT_RANKS,
            database_ranks: 0,
            prepared_ranks: 0,
            count: 1,
            table: None,
            algorithm: Default::default(),
            cache: None,
        };
        // A table of every position proves shortest solutions where one fits (as solve
        // builds it); nothing does otherwise.
        let fits = self
            .puzzle
            .space::<u64>(&[], metric)
            .is_ok_and(|s| RankedSpace::state_count(&s) <= DESCENT_RANKS);
        let prover = match fits && query.proves {
            true => Some(DefinitionSolver::new(&self.puzzle, &request, progress)?),
            false => None,
        };
        let puzzle = &self.puzzle;
        Ok(Verifier {
            check: Box::new(move |claim| {
                verify::definition(puzzle, metric, claim, prover.as_ref())
            }),
            unproven: "no distance table for this puzzle here",
        })
    }

    fn check_pdb(&self, job: &PdbJob) -> AppResult<()> {
        if job.partition.is_some() || job.goal.is_some() {
            return Err(AppError::Input(
                "«partition» and «goal» are for sliding-tile boards; a definition puzzle's databases are chosen for its solved pattern within the memory budget".into(),
            ));
        }
        if job.no_reflection {
            return Err(AppError::Input(
                "«no_reflection» is for sliding-tile boards, whose partitions have mirror images"
                    .into(),
            ));
        }
        metric(job.metric.as_deref()).map(|_| ())
    }

    fn build_pdb(
        &self,
        bench: &Workbench,
        job: &PdbJob,
        limits: &JobLimits,
        control: &JobControl,
    ) -> AppResult<PdbReport> {
        self.check_pdb(job)?;
        let generators = generators(job.generators.as_deref());
        let metric = metric(job.metric.as_deref())?;
        let (memory, cache) = (limits.memory_bytes, bench.cache());
        let request = DefinitionSolveRequest {
            cache: Some(cache),
            ..solve_request(&generators, metric, memory)
        };
        let what = format!("the pattern databases of {}", self.puzzle.name());
        let made = on_tables(control, &what, || {
            prepare::prepare(&self.puzzle, &request, job.force, control)
        })?;
        // A solve looks for the prepared databases afresh.
        KeptSolver::forget(bench);
        let budget = solve::database_budget(memory, PREPARED_DATABASE_RANKS);
        let groups = made
            .into_iter()
            .map(|database| {
                let (origin, seconds, replaced, not_saved) = origin_parts(database.origin);
                PdbGroup {
                    what: database.what,
                    tiles: Vec::new(),
                    entries: database.entries,
                    origin,
                    seconds,
                    replaced,
                    not_saved,
                }
            })
            .collect();
        Ok(PdbReport {
            puzzle: self.puzzle.file.clone(),
            goal: "solved".into(),
            partition: format!(
                "chosen within {} for {} moves of {}",
                format_bytes(budget as f64),
                metric.name(),
                match generators.is_empty() {
                    true => "the file".to_string(),
                    false => generators.join(","),
                }
            ),
            cache: cache.dir().display().to_string(),
            groups,
        })
    }

    fn replay(&self, request: &ReplayRequest) -> AppResult<Replay> {
        if request.goal.is_some() {
            return Err(AppError::Input(
                "«goal» is for sliding-tile boards; a definition puzzle is solved to its solved pattern".into(),
            ));
        }
        let d = &self.puzzle.definition;
        let mut pattern = file::position(&self.puzzle, &request.position)?;
        let names = d.move_names();
        let steps = godsearch_orbit::alg::parse(&request.solution, &names).map_err(|why| {
            AppError::Input(format!(
                "moves '{}': {why}",
                godsearch_core::excerpt(&request.solution)
            ))
        })?;
        let moves: Vec<&godsearch_orbit::Transformation> =
            d.moves.iter().map(|m| &m.transformation).collect();
        let pieces: usize = d.orbits.iter().map(|o| o.pieces).sum();
        check_replay_size(steps.len(), pieces)?;
        let mut positions = vec![kpuzzle::write_pattern(&pattern, d)];
        for step in &steps {
            let t = godsearch_orbit::alg::to_transformation(
                std::slice::from_ref(step),
                &moves,
                &d.orbits,
            );
            pattern = t.apply(&pattern, &d.orbits);
            positions.push(kpuzzle::write_pattern(&pattern, d));
        }
        Ok(Replay {
            solved: pattern == d.solved,
            positions,
        })
    }
}
