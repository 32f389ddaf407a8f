//! The 2x2x2's solvers: optimal by descent of its distance table (built in memory in a few
//! hundredths of a second, or read from a file), or by half-depth search; every solution
//! turned back to the cube as held and replayed before it is returned. A workbench keeps each
//! metric's table between requests ([`cube2_solver`]).

use super::tables::load_cube2_table;
use crate::registry::cubes::verify::{CubeProver, Proven};
use crate::registry::cubes::CubeJob;
use crate::report::CubeSolution;
use crate::request::Workbench;
use crate::tables::table_in_memory;
use crate::{AppError, AppResult};
use godsearch_core::{Progress, RankedSpace, StateSpace};
use godsearch_enumerate::half_depth::{GoalBall, HalfDepthOutcome};
use godsearch_enumerate::table::table_bytes;
use godsearch_puzzles::cube::notation::{apply_moves, format_moves, merge_same_face};
use godsearch_puzzles::cube::{facelet, Cube2Space, Metric, Move, CUBE2, CUBE2_MAX_DISTANCE};
use godsearch_search::descend;
use godsearch_tables::{DistanceMod3, LoadedTable, TwoBitTable, TwoBitView};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

enum Cube2Table {
    Loaded(LoadedTable),
    Built(TwoBitTable),
}

/// The 2x2x2 solved optimally by descent, in one metric.
pub struct Cube2Solver {
    space: Cube2Space,
    table: Cube2Table,
}

impl Cube2Solver {
    /// The solver from the table file at `path` (checked to be a 2x2x2 table of this metric),
    /// or from a table built now (3,674,160 positions: a few hundredths of a second).
    pub fn new(metric: Metric, path: Option<&Path>) -> AppResult<Self> {
        let space = Cube2Space::new(metric);
        let table = match path {
            Some(path) => Cube2Table::Loaded(load_cube2_table(path, &space)?),
            None => Cube2Table::Built(table_in_memory(&space)?.0),
        };
        Ok(Cube2Solver { space, table })
    }

    /// An optimal solution in the faces as held (the table fixes one corner; the moves are
    /// turned back to the cube's orientation), replayed before it is returned.
    pub fn solve(&self, job: &CubeJob) -> AppResult<CubeSolution> {
        match &self.table {
            Cube2Table::Built(table) => self.solve_with(table, job),
            Cube2Table::Loaded(loaded) => {
                let entries = loaded.header().entries as usize;
                let view = TwoBitView::new(loaded.payload(), entries).ok_or_else(|| {
                    AppError::Check("the table payload is shorter than its header says".into())
                })?;
                self.solve_with(&view, job)
            }
        }
    }

    fn solve_with<T: DistanceMod3>(&self, table: &T, job: &CubeJob) -> AppResult<CubeSolution> {
        let started = Instant::now();
        let path = descend(
            &self.space,
            table,
            self.space.rank(&job.cube),
            CUBE2_MAX_DISTANCE,
        )?;
        let memory = u64::try_from(table_bytes(self.space.state_count())).ok();
        cube2_solution(&self.space, job, &path, ("table", memory), started)
    }
}

/// The 2x2x2 by half-depth search ([`godsearch_enumerate::half_depth`]): an optimal solver
/// independent of the distance table.
pub struct Cube2HalfDepth {
    space: Cube2Space,
    ball: GoalBall<u64>,
    memory_bytes: u64,
}

impl Cube2HalfDepth {
    /// Holds every position within `depth` moves of solved (default: half the largest distance,
    /// so every cube is met), in half of `memory_bytes`.
    pub fn new(
        metric: Metric,
        depth: Option<u32>,
        memory_bytes: u64,
        progress: &dyn Progress,
    ) -> AppResult<Self> {
        let space = Cube2Space::new(metric);
        let depth = depth.unwrap_or(CUBE2_MAX_DISTANCE.div_ceil(2) as u32);
        let ball = GoalBall::build(&space, Some(depth), memory_bytes / 2, progress)
            .map_err(crate::error::ball_error)?;
        Ok(Cube2HalfDepth {
            space,
            ball,
            memory_bytes: memory_bytes / 2,
        })
    }

    /// A shortest solution in the faces as held, replayed before it is returned; a cube beyond
    /// twice the depth held is reported with no solution and the lower bound proved
    /// (`beyond_depth`).
    pub fn solve(&self, job: &CubeJob) -> AppResult<CubeSolution> {
        let started = Instant::now();
        let start = self.space.rank(&job.cube);
        match self.ball.solve(&self.space, start, self.memory_bytes) {
            HalfDepthOutcome::Solved(path) => {
                let memory = Some(self.ball.bytes());
                cube2_solution(&self.space, job, &path, ("half-depth", memory), started)
            }
            HalfDepthOutcome::Beyond { lower_bound } => Ok(CubeSolution {
                puzzle: CUBE2.to_string(),
                start: job.text.clone(),
                facelets: facelet::format_pocket(&job.cube),
                solution: String::new(),
                length: 0,
                metric: self.space.metric().name(),
                optimal: false,
                algorithm: "half-depth",
                phase1_length: None,
                max_length: None,
                nodes_expanded: 0,
                phase2_nodes: None,
                phase2_searches: None,
                timed_out: true,
                lower_bound: Some(lower_bound as usize),
                beyond_depth: Some(self.ball.depth()),
                position_symmetries: None,
                known_solution: None,
                all_solutions: None,
                memory_bytes: Some(self.ball.bytes()),
                seconds: started.elapsed().as_secs_f64(),
            }),
        }
    }
}

/// The report of an optimal 2x2x2 `path` (moves of the one-frame space), turned back to the
/// faces as held and replayed.
fn cube2_solution(
    space: &Cube2Space,
    job: &CubeJob,
    path: &[godsearch_core::MoveIdx],
    (algorithm, memory_bytes): (&'static str, Option<u64>),
    started: Instant,
) -> AppResult<CubeSolution> {
    let (_, rotation) = space.canonical(&job.cube);
    let found: Vec<Move> = path.iter().map(|&k| space.moves()[k as usize]).collect();
    // In QTM a half turn is found as two quarter turns; cubers write it once (`F2`).
    let moves = merge_same_face(&space.reorient(&found, rotation));
    let seconds = started.elapsed().as_secs_f64();
    if space.rank(&apply_moves(&job.cube, &moves)) != space.goal_state() {
        return Err(AppError::Check(
            "the 2x2x2 solution did not solve the cube on replay".into(),
        ));
    }
    Ok(CubeSolution {
        puzzle: CUBE2.to_string(),
        start: job.text.clone(),
        facelets: facelet::format_pocket(&job.cube),
        solution: format_moves(&moves),
        length: space.metric().length(&moves),
        metric: space.metric().name(),
        optimal: true,
        algorithm,
        phase1_length: None,
        max_length: None,
        nodes_expanded: path.len() as u64,
        phase2_nodes: None,
        phase2_searches: None,
        timed_out: false,
        lower_bound: None,
        beyond_depth: None,
        position_symmetries: None,
        known_solution: None,
        all_solutions: None,
        memory_bytes,
        seconds,
    })
}

/// The table descent proves a 2x2x2 solution's length shortest exactly (microseconds).
impl CubeProver for Cube2Solver {
    fn prove(&self, job: &CubeJob, _: Option<&[Move]>) -> AppResult<Proven> {
        Ok(Proven::Distance(self.solve(job)?.length))
    }
}

/// The 2x2x2 solvers one workbench holds, by metric.
#[derive(Default)]
struct Cube2Tables(Mutex<HashMap<&'static str, Arc<Cube2Solver>>>);

/// The 2x2x2 solver in `metric` over a distance table built in memory on first use (a few
/// hundredths of a second), kept by `bench` for later requests.
pub fn cube2_solver(bench: &Workbench, metric: Metric) -> AppResult<Arc<Cube2Solver>> {
    let kept = bench.kept::<Cube2Tables>();
    let mut loaded = kept.0.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(solver) = loaded.get(metric.name()) {
        return Ok(Arc::clone(solver));
    }
    let solver = Arc::new(Cube2Solver::new(metric, None)?);
    loaded.insert(metric.name(), Arc::clone(&solver));
    Ok(solver)
}
