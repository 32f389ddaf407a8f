//! Sliding-tile boards of any size (`3x3`, `4x4`, `WxH`, `15-puzzle`) in the registry: solved
//! by the algorithm the request names or the choice rules pick ([`crate::choice`]), enumerated
//! from any goal, scrambled uniformly or by random walks.

pub mod batch;
pub mod bfs;
pub mod choice;
pub mod info;
pub mod scramble;
pub mod solvers;
pub mod tables;
pub mod verify;
pub mod ways;

use super::{
    no_generators, no_info_generators, InfoQuery, Puzzle, PuzzleKind, Scrambler, Verifier,
    VerifyQuery,
};
use crate::batch::Batch;
use crate::bfs::BfsRequest;
use crate::cache::origin_parts;
use crate::choice::{Algorithm, HEURISTICS};
use crate::progress::Notice;
use crate::report::{AnyInfo, BfsReport};
use crate::request::{
    check_replay_size, BfsJob, JobControl, JobLimits, PdbGroup, PdbJob, PdbReport, PuzzleEntry,
    Replay, ReplayRequest, ScrambleRequest, SolutionDocument, SolveRequest, View, Workbench,
    ALGORITHMS,
};
use crate::{AppError, AppResult};
use batch::BoardBatch;

/// The solve options a board takes (see [`PuzzleEntry::options`]); the cubes' are refused.
const BOARD_OPTIONS: [&str; 16] = [
    "goal",
    "algorithm",
    "heuristic",
    "pdb",
    "no_reflection",
    "reverse",
    "both_ways",
    "probe",
    "stages",
    "effort",
    "depth",
    "timeout",
    "resume_from",
    "resume_subtrees",
    "resume_way",
    "table",
];

/// How front ends write a board's solution.
pub use choice::SolutionNotation;
use godsearch_core::progress::on_tables;
use godsearch_core::{excerpt, Progress};
/// The board types front ends read, check and print boards with.
pub use godsearch_puzzles::tiles::{
    declared_goal, goal_declared, parse_instance, Board, BoardFormat, DeclaredGoalError, Partition,
    Shape, BLANK_FIRST, BLANK_LAST,
};
use godsearch_puzzles::tiles::{BoardError, Move as TileMove, ShapeError};
use godsearch_search::tiles::PatternHeuristic;
use rand::rngs::StdRng;
pub use solvers::write_solution;
use solvers::{databases_label, solvable_board, TableSolver};

/// The boards menus offer first (any `WxH` is read).
const LISTED: [&str; 5] = ["3x3", "2x4", "3x4", "4x4", "5x5"];

/// Sliding-tile boards: names `WxH` and `N-puzzle`.
pub struct TilesKind;

impl PuzzleKind for TilesKind {
    fn family(&self) -> &'static str {
        "tiles"
    }

    fn names_help(&self) -> String {
        "a board size such as 3x3, 4x4, 5x5 or WxH (width x height), 8-puzzle, 15-puzzle, 24-puzzle"
            .into()
    }

    fn listed(&self) -> Vec<String> {
        LISTED.iter().map(|s| s.to_string()).collect()
    }

    fn open(&self, name: &str, _: bool) -> Option<AppResult<Box<dyn Puzzle>>> {
        Some(board_shape(name)?.map(|shape| Box::new(Tiles { shape }) as Box<dyn Puzzle>))
    }
}

/// The board size `name` names (`4x4`, `WxH`, `15-puzzle`): `None` when it is no board's name,
/// an error when it is one but no such board can be made (too small, too many cells). The
/// command line's own board front end asks this, so it never reads puzzle names itself.
pub fn board_shape(name: &str) -> Option<AppResult<Shape>> {
    match name.trim().parse::<Shape>() {
        Ok(shape) => Some(Ok(shape)),
        Err(ShapeError::Unknown(_)) => None,
        Err(e) => Some(Err(AppError::Input(e.to_string()))),
    }
}

/// One board size.
pub struct Tiles {
    shape: Shape,
}

impl Tiles {
    fn goal(&self, goal: Option<&str>) -> AppResult<Board> {
        tile_goal(self.shape, goal)
    }

    /// The batch of boards `request` makes, its options checked.
    fn batch_of(&self, request: &SolveRequest) -> AppResult<BoardBatch> {
        no_generators(&request.generators)?;
        BoardBatch::new(self.goal(request.goal.as_deref())?, request)
    }

    /// The goal and partition `job` builds, its options checked.
    fn pdb_partition(&self, job: &PdbJob) -> AppResult<(Board, Partition)> {
        no_generators(&job.generators)?;
        if job.metric.is_some() {
            return Err(AppError::Input(
                "«metric» is for definition puzzles; a board's moves are the blank's".into(),
            ));
        }
        let Some(partition) = &job.partition else {
            return Err(AppError::Input(
                "a board's databases are named by a partition («partition»: 6-6-3, or tile groups 1,2,3/4,5,6)".into(),
            ));
        };
        let goal = self.goal(job.goal.as_deref())?;
        let partition = Partition::parse(partition, &goal)?;
        Ok((goal, partition))
    }
}

impl Puzzle for Tiles {
    fn entry(&self) -> PuzzleEntry {
        let shape = self.shape;
        let algorithms = ALGORITHMS
            .iter()
            .filter(|a| **a != Algorithm::TwoPhase)
            .filter(|a| shape.cells() == 9 || **a != Algorithm::TwoStage)
            .map(|a| a.name())
            .collect();
        PuzzleEntry {
            name: shape.to_string(),
            kind: TilesKind.family(),
            goal: Board::goal(shape).to_string(),
            algorithms,
            partitions: Partition::names(shape),
            moves: Vec::new(),
            solution: SolutionDocument::Tiles,
            patterns: false,
            view: View::Board {
                width: shape.width(),
                height: shape.height(),
            },
            options: BOARD_OPTIONS.to_vec(),
            metrics: Vec::new(),
            heuristics: HEURISTICS.to_vec(),
            default_heuristic: match choice::preferred_partitions(&Board::goal(shape)).as_slice() {
                [] => "linear conflict".into(),
                named => format!(
                    "pattern databases, the strongest of {} that is cached or builds in seconds; else linear conflict",
                    named.join(", ")
                ),
            },
        }
    }

    fn batch(&self, request: &SolveRequest) -> Option<AppResult<Box<dyn Batch + '_>>> {
        Some(
            self.batch_of(request)
                .map(|batch| Box::new(batch) as Box<dyn Batch>),
        )
    }

    fn check_bfs(&self, job: &BfsJob) -> AppResult<()> {
        no_generators(&job.generators)?;
        if job.metric.is_some() {
            return Err(AppError::Input(
                "«metric» is for cubes; sliding-tile moves are counted one per tile moved".into(),
            ));
        }
        if job.symmetry.is_some() {
            return Err(AppError::Input(
                "«symmetry» is for the 3x3x3 and definition files; a board is enumerated whole"
                    .into(),
            ));
        }
        self.goal(job.goal.as_deref()).map(|_| ())
    }

    fn bfs(
        &self,
        job: &BfsJob,
        request: &BfsRequest,
        progress: &dyn Progress,
    ) -> AppResult<BfsReport> {
        self.check_bfs(job)?;
        let goal = self.goal(job.goal.as_deref())?;
        bfs::board(&goal, request, progress)
    }

    fn scrambler<'a>(
        &'a self,
        _: &'a Workbench,
        request: &ScrambleRequest,
        _: &JobLimits,
        _: &dyn Progress,
    ) -> AppResult<Box<dyn Scrambler + 'a>> {
        if request.metric.is_some() {
            return Err(AppError::Input("«metric» is for cubes".into()));
        }
        no_generators(&request.generators)?;
        let format = match request.format.as_deref() {
            None | Some("list") => BoardFormat::List,
            Some("hex") => BoardFormat::Hex,
            Some("grid") => BoardFormat::Grid,
            Some(other) => {
                return Err(AppError::Input(format!(
                    "unknown board format '{}': expected list, hex or grid",
                    excerpt(other)
                )))
            }
        };
        let walk = request.moves.map(|n| n as usize);
        let goal = self.goal(request.goal.as_deref())?;
        Ok(Box::new(move |rng: &mut StdRng| {
            scramble::board(&goal, walk, format, rng)
        }))
    }

    fn info(&self, query: &InfoQuery) -> AppResult<AnyInfo> {
        no_info_generators(query)?;
        Ok(AnyInfo::Board(info::space_info(
            self.shape,
            query.ram_bytes,
            query.free_disk_bytes,
        )))
    }

    fn verifier<'a>(
        &'a self,
        _: &'a Workbench,
        query: &VerifyQuery,
        _: &dyn Progress,
        _: &mut dyn FnMut(Notice),
    ) -> AppResult<Verifier<'a>> {
        if query.metric.is_some() || query.facelets || query.notation.is_some() {
            return Err(AppError::Input(
                "«metric», «facelets» and «notation» are for cubes".into(),
            ));
        }
        if query.prove {
            return Err(AppError::Input("«prove» is for the 3x3x3; a board's solution is proven shortest from a distance table («table», or one built for boards of up to 20 million positions)".into()));
        }
        let goal = self.goal(query.goal.as_deref())?;
        // A table proves optimality: the one given, or one built now for a small board.
        let prover = match &query.table {
            Some(path) => Some(TableSolver::new(&goal, Some(path))?),
            None if query.proves => TableSolver::new(&goal, None).ok(),
            None => None,
        };
        Ok(Verifier {
            check: Box::new(move |claim| verify::board(&goal, claim, prover.as_ref())),
            unproven: "no distance table for this puzzle here",
        })
    }

    fn replay(&self, request: &ReplayRequest) -> AppResult<Replay> {
        let goal = self.goal(request.goal.as_deref())?;
        let mut board = solvable_board(&goal, &request.position)?;
        let moves = TileMove::parse_sequence(&request.solution)
            .map_err(|e| AppError::Input(format!("moves '{}': {e}", excerpt(&request.solution))))?;
        check_replay_size(moves.len(), self.shape.cells())?;
        let mut positions = vec![board.to_list()];
        for (k, &m) in moves.iter().enumerate() {
            if !board.apply(m) {
                return Err(AppError::Input(format!(
                    "move {} ({}) would take the blank off the board",
                    k + 1,
                    m.letter()
                )));
            }
            positions.push(board.to_list());
        }
        Ok(Replay {
            positions,
            solved: board == goal,
        })
    }

    fn picture(&self, position: &str) -> Vec<String> {
        match Board::parse(self.shape, position) {
            Ok(board) => board.to_grid().lines().map(str::to_string).collect(),
            Err(_) => Vec::new(),
        }
    }

    fn check_pdb(&self, job: &PdbJob) -> AppResult<()> {
        self.pdb_partition(job).map(|_| ())
    }

    fn build_pdb(
        &self,
        bench: &Workbench,
        job: &PdbJob,
        limits: &JobLimits,
        control: &JobControl,
    ) -> AppResult<PdbReport> {
        let (goal, partition) = self.pdb_partition(job)?;
        // What a solve with reflection reads: where no mirror keeps the goal's blank, the
        // mirror image's databases too.
        let image = (!job.no_reflection
            && PatternHeuristic::reflection_needs_tables(&goal, &partition))
        .then(|| partition.mirror_image(&goal));
        let mut groups = Vec::new();
        let mut partitions = vec![(&partition, "")];
        partitions.extend(image.as_ref().map(|image| (image, " (mirror image)")));
        for (built, whose) in partitions {
            for (group, pattern) in built.patterns().iter().enumerate() {
                let (_, origin) = on_tables(control, &databases_label(built, group), || {
                    bench.cache().load_or_build(
                        &goal,
                        pattern,
                        limits.memory_bytes,
                        job.force,
                        control,
                    )
                })?;
                let (origin, seconds, replaced, not_saved) = origin_parts(origin);
                let tiles = pattern.tiles();
                let listed: Vec<String> = tiles.iter().map(u16::to_string).collect();
                groups.push(PdbGroup {
                    what: format!("tiles {}{whose}", listed.join(",")),
                    tiles: tiles.to_vec(),
                    entries: pattern.entries(),
                    origin,
                    seconds,
                    replaced,
                    not_saved,
                });
            }
        }
        // A search resolves them afresh from the cache.
        self::solvers::KeptHeuristics::forget(bench);
        Ok(PdbReport {
            puzzle: self.shape.to_string(),
            goal: goal.to_list(),
            partition: match image {
                Some(_) => format!("{} and its mirror image", partition.name()),
                None => partition.name().to_string(),
            },
            cache: bench.cache().dir().display().to_string(),
            groups,
        })
    }
}

/// The goal given (a board, or a goal's name: `blank-last`, `blank-first`), or the standard one.
pub fn tile_goal(shape: Shape, goal: Option<&str>) -> AppResult<Board> {
    match goal {
        Some(text) => Board::parse_goal(shape, text).map_err(|e| {
            let names = match e {
                BoardError::BadToken(_) => {
                    format!(", or a goal's name: {BLANK_LAST}, {BLANK_FIRST} (Korf's)")
                }
                _ => String::new(),
            };
            AppError::Input(format!("«goal» '{}': {e}{names}", excerpt(text)))
        }),
        None => Ok(Board::goal(shape)),
    }
}
