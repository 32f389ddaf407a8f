//! The 3x3x3's solvers: Kociemba's two-phase method, optimally by IDA* over the optimal
//! solver's pruning table, or optimally by half-depth search; every solution replayed on its
//! start before it is returned.

use crate::registry::cubes::verify::{CubeProver, Proven};
use crate::registry::cubes::CubeJob;
use crate::report::CubeSolution;
use crate::{AppError, AppResult};
use godsearch_core::{excerpt, Progress, SequenceAutomaton};
use godsearch_enumerate::half_depth::{GoalBall, GroupBrakes, HalfDepthOutcome};
use godsearch_puzzles::cube::algorithm::held_form;
use godsearch_puzzles::cube::notation::{apply_moves, format_moves, merge_same_face};
use godsearch_puzzles::cube::{
    facelet, Algorithm, Cube3Classes, CubieCube, Metric, Move, Reduction, CUBE3,
};
use godsearch_twophase::optimal::{gods_number, solve_optimal, OptimalOptions, OptimalTables};
use godsearch_twophase::{solve_in, Options, SolveError, Tables};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Every 3x3x3 position has a solution of 20 face turns or fewer (and of 26 quarter turns or
/// fewer): the two-phase search aims there unless told otherwise. In QTM that takes about
/// 0.1 s a cube (30 random cubes: mean 25.1 quarter turns, where 20-move face-turn solutions
/// come to 28.8).
pub fn default_max_length(metric: Metric) -> usize {
    gods_number(metric)
}

/// A 3x3x3 solution (or scramble) of `cube` as printed in `metric`, replayed first: face turns
/// with turns of one face merged (`F2`, never `F F`), and in the slice-turn metric the middle
/// layers' turns as the slices a cuber turns ([`held_form`]), which the text is read back and
/// replayed as held to check. `what` names it in the error when a replay fails.
pub fn written_solution(
    cube: &CubieCube,
    moves: &[Move],
    metric: Metric,
    what: &str,
) -> AppResult<String> {
    let replay_failed = || AppError::Check(format!("the {what} did not solve the cube on replay"));
    if !apply_moves(cube, moves).is_solved() {
        return Err(replay_failed());
    }
    if metric != Metric::Stm {
        return Ok(format_moves(&merge_same_face(moves)));
    }
    let text = held_form(moves).to_string();
    let held = Algorithm::parse(&text)
        .and_then(|a| a.apply_held(CUBE3, cube))
        .map_err(|_| replay_failed())?;
    if !held.is_solved() {
        return Err(replay_failed());
    }
    Ok(text)
}

/// The 3x3x3 by half-depth search in the group form
/// ([`GoalBall::search_from`](godsearch_enumerate::half_depth::GoalBall::search_from)): the
/// symmetry classes within `n` moves of solved are held, and every canonical sequence of `k`
/// moves from the cube, `k` rising, is turned on the real cube and its class looked up. An
/// optimal solver independent of the pruning tables, for positions within `2n` moves.
pub struct Cube3HalfDepth {
    space: Cube3Classes,
    ball: GoalBall<u128>,
    moves: Vec<Move>,
    move_cubes: Vec<CubieCube>,
    order: SequenceAutomaton,
}

impl Cube3HalfDepth {
    /// The depth held when none is asked for: 17 to 30 million classes (16 bytes each: 0.3 to
    /// 0.5 GB), built in 2 to 4 s. Positions within twice this many moves are solved; 14 face
    /// turns take about 5 s, 16 several minutes.
    pub fn default_depth(metric: Metric) -> u32 {
        match metric {
            Metric::Htm => 8,
            Metric::Qtm => 9,
            Metric::Stm => 7,
        }
    }

    /// Holds the classes within `depth` moves of solved in `metric` (default
    /// [`default_depth`](Self::default_depth)), within `memory_bytes`.
    pub fn new(
        metric: Metric,
        depth: Option<u32>,
        memory_bytes: u64,
        progress: &dyn Progress,
    ) -> AppResult<Self> {
        let space = Cube3Classes::new(metric, Reduction::Symmetries);
        let depth = depth.unwrap_or(Self::default_depth(metric));
        let ball = GoalBall::build(&space, Some(depth), memory_bytes, progress)
            .map_err(crate::error::ball_error)?;
        let moves = metric.moves();
        Ok(Cube3HalfDepth {
            space,
            ball,
            move_cubes: moves.iter().map(|m| m.cubie()).collect(),
            moves,
            order: metric.sequence_automaton(),
        })
    }

    /// A shortest solution, replayed before it is returned; a cube beyond twice the depth held
    /// is reported with no solution and the lower bound proved (`beyond_depth`).
    pub fn solve(&self, job: &CubeJob) -> AppResult<CubeSolution> {
        self.solve_within(job, None, None)
    }

    /// [`solve`](Self::solve) that gives up `timeout` after it starts, or when `stop` is set:
    /// then a report with no solution, `timed_out`, and the lower bound proven so far.
    pub fn solve_within(
        &self,
        job: &CubeJob,
        timeout: Option<Duration>,
        stop: Option<&AtomicBool>,
    ) -> AppResult<CubeSolution> {
        let started = Instant::now();
        job.cube.check().map_err(|e| AppError::Cube {
            text: excerpt(&job.text),
            source: SolveError::Invalid(e),
        })?;
        let metric = self.space.metric();
        let brakes = GroupBrakes {
            deadline: timeout.and_then(|t| started.checked_add(t)),
            stop,
        };
        let found = self.ball.search_from_within(
            &job.cube,
            &self.order,
            |c, m| Some(c.then(&self.move_cubes[m as usize])),
            |c| self.space.reducer().representative(c),
            self.ball.depth(),
            &brakes,
        );
        let report = |solution: String,
                      length: usize,
                      lower_bound: Option<usize>,
                      beyond_depth: Option<u32>| CubeSolution {
            puzzle: CUBE3.to_string(),
            start: job.text.clone(),
            facelets: facelet::format(&job.cube),
            solution,
            length,
            metric: metric.name(),
            optimal: lower_bound.is_none(),
            algorithm: "half-depth",
            phase1_length: None,
            max_length: None,
            nodes_expanded: found.nodes,
            phase2_nodes: None,
            phase2_searches: None,
            timed_out: lower_bound.is_some(),
            lower_bound,
            beyond_depth,
            position_symmetries: None,
            known_solution: None,
            all_solutions: None,
            memory_bytes: Some(self.ball.bytes()),
            seconds: started.elapsed().as_secs_f64(),
        };
        let path = match found.outcome {
            HalfDepthOutcome::Solved(path) => path,
            HalfDepthOutcome::Beyond { lower_bound } => {
                // Stopped, or searched to twice the depth without reaching the ball: no
                // solution for this cube, its bound proven; a batch goes on.
                let beyond = (!found.stopped).then(|| self.ball.depth());
                return Ok(report(String::new(), 0, Some(lower_bound as usize), beyond));
            }
        };
        let moves: Vec<Move> = path.iter().map(|&k| self.moves[k as usize]).collect();
        let solution = written_solution(&job.cube, &moves, metric, "half-depth solution")?;
        Ok(report(solution, metric.length(&moves), None, None))
    }
}
/// The 3x3x3 by the two-phase method.
pub struct TwoPhaseSolver<'a> {
    /// The two-phase tables (built once, cached: see [`crate::cache::TableCache`]).
    pub tables: Arc<Tables>,
    /// The metric lengths are reported in.
    pub metric: Metric,
    /// Stop at the first solution of at most this many moves, in `metric`.
    pub max_length: usize,
    /// Give up improving this long after a position starts, with the best found.
    pub timeout: Option<Duration>,
    /// Give up improving, as at the timeout, once this is set (a front end's cancel).
    pub stop: Option<&'a AtomicBool>,
}

impl TwoPhaseSolver<'_> {
    /// A solution of at most `max_length` moves in the solver's metric (quarter turns in QTM,
    /// which the search then aims at) when the search finds one before the timeout (else the
    /// best found), replayed before it is returned.
    pub fn solve(&self, job: &CubeJob) -> AppResult<CubeSolution> {
        let started = Instant::now();
        let options = Options {
            target_length: self.max_length,
            deadline: self.timeout.and_then(|t| started.checked_add(t)),
            stop: self.stop,
        };
        let found = solve_in(&self.tables, &job.cube, options, self.metric).map_err(|source| {
            AppError::Cube {
                text: excerpt(&job.text),
                source,
            }
        })?;
        let seconds = started.elapsed().as_secs_f64();
        let solution =
            written_solution(&job.cube, &found.moves, self.metric, "two-phase solution")?;
        Ok(CubeSolution {
            puzzle: CUBE3.to_string(),
            start: job.text.clone(),
            facelets: facelet::format(&job.cube),
            solution,
            length: self.metric.length(&found.moves),
            metric: self.metric.name(),
            optimal: found.moves.is_empty(),
            algorithm: "two-phase",
            phase1_length: Some(found.phase1_length),
            max_length: Some(self.max_length),
            nodes_expanded: found.nodes,
            phase2_nodes: Some(found.phase2_nodes),
            phase2_searches: Some(found.phase2_searches),
            timed_out: found.timed_out,
            lower_bound: None,
            beyond_depth: None,
            position_symmetries: None,
            known_solution: None,
            all_solutions: None,
            memory_bytes: Some(Tables::byte_len() as u64),
            seconds,
        })
    }
}

/// The 3x3x3 solved optimally in the metric of its table: IDA* over the optimal solver's
/// pruning table ([`godsearch_twophase::optimal`]), on the threads of the current rayon pool.
pub struct OptimalSolver<'a> {
    /// The pruning table (built once, cached: see [`crate::cache::TableCache`]).
    pub tables: &'a OptimalTables,
    /// The two-phase tables, for the best known solution of a position the search gives up on
    /// (needed with a timeout).
    pub fallback: Option<&'a Tables>,
    /// Give up this long after a position starts, with the proven lower bound.
    pub timeout: Option<Duration>,
    /// Return every optimal solution.
    pub all: bool,
    /// A known solution of the position to prove optimal, or beat: the search never searches
    /// its length (see [`OptimalOptions::known`]); it is also the answer when the timeout
    /// passes, in place of the two-phase one.
    pub known: Option<&'a [Move]>,
    /// The search gives up, as at the timeout, once this is set (a front end's cancel).
    pub stop: Option<&'a AtomicBool>,
}

impl OptimalSolver<'_> {
    /// A shortest solution, proven (or all of them), replayed before it is returned. When the
    /// timeout passes first: the two-phase solution of at most 20 moves, with the lower bound
    /// the search proved, marked not optimal and timed out.
    pub fn solve(&self, job: &CubeJob) -> AppResult<CubeSolution> {
        let started = Instant::now();
        let options = OptimalOptions {
            deadline: self.timeout.and_then(|t| started.checked_add(t)),
            all: self.all,
            stop: self.stop,
            known: self.known,
        };
        let cube_error = |source| AppError::Cube {
            text: excerpt(&job.text),
            source,
        };
        let found = solve_optimal(self.tables, &job.cube, options).map_err(cube_error)?;
        let metric = self.tables.metric();
        let known = self.known.map(merge_same_face);
        let (moves, optimal) = match (found.solutions.first(), &known) {
            (Some(moves), _) => (moves.clone(), true),
            (None, Some(known)) => (known.clone(), false),
            (None, None) => {
                let tables = self.fallback.ok_or_else(|| {
                    AppError::Check("a timed-out optimal search has no two-phase tables".into())
                })?;
                let options = Options {
                    target_length: default_max_length(metric),
                    deadline: None,
                    stop: None,
                };
                let best = solve_in(tables, &job.cube, options, metric).map_err(cube_error)?;
                (best.moves, false)
            }
        };
        let seconds = started.elapsed().as_secs_f64();
        let write = |moves: &[Move]| written_solution(&job.cube, moves, metric, "optimal solution");
        let all_solutions = match self.all {
            true => Some(
                found
                    .solutions
                    .iter()
                    .map(|s| write(s))
                    .collect::<AppResult<_>>()?,
            ),
            false => None,
        };
        Ok(CubeSolution {
            puzzle: CUBE3.to_string(),
            start: job.text.clone(),
            facelets: facelet::format(&job.cube),
            solution: write(&moves)?,
            length: metric.length(&moves),
            metric: metric.name(),
            optimal,
            algorithm: "ida",
            phase1_length: None,
            max_length: None,
            nodes_expanded: found.nodes,
            phase2_nodes: None,
            phase2_searches: None,
            timed_out: found.timed_out,
            lower_bound: Some(found.lower_bound),
            beyond_depth: None,
            position_symmetries: Some(found.position_symmetries),
            known_solution: known.map(|known| known == moves),
            all_solutions,
            memory_bytes: Some(self.tables.size().bytes() as u64),
            seconds,
        })
    }
}

/// The optimal solver proves a 3x3x3 solution's length shortest, on the threads of the current
/// rayon pool; with a timeout, a position it gives up on gets the lower bound it proved.
pub struct OptimalProver {
    /// The optimal solver's tables.
    pub tables: Arc<OptimalTables>,
    /// Give up this long after a position starts.
    pub timeout: Option<Duration>,
}

impl CubeProver for OptimalProver {
    /// `known`, a solution in face turns, is the optimal search's known solution: its length is
    /// never searched, so proving it shortest costs only the shorter bounds.
    fn prove(&self, job: &CubeJob, known: Option<&[Move]>) -> AppResult<Proven> {
        let options = OptimalOptions {
            deadline: self.timeout.and_then(|t| Instant::now().checked_add(t)),
            all: false,
            stop: None,
            known,
        };
        let found =
            solve_optimal(&self.tables, &job.cube, options).map_err(|source| AppError::Cube {
                text: excerpt(&job.text),
                source,
            })?;
        Ok(match found.solutions.first() {
            Some(moves) => Proven::Distance(self.tables.metric().length(moves)),
            None => Proven::AtLeast(found.lower_bound),
        })
    }
}
