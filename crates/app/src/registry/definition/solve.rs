//! Solving a definition puzzle's position optimally: by descent through a table of every
//! position when it fits the memory budget, else by IDA* over pattern databases of projections
//! of the puzzle chosen automatically within the budget; the solution is replayed on the
//! definition's own moves before it is returned.
//!
//! The databases take seconds to build (the 3x3x3's, 2.5 s), so they are read from the table
//! cache where it holds them, and otherwise built (and saved there) at the first position that
//! needs them: IDA* searches its first bounds, up to [`NEAR_REACH`] moves past a small ball of
//! the positions near solved, over that ball alone, and a solved position or a short scramble
//! is answered in milliseconds. Past those bounds the estimate is the larger of the databases
//! and that ball, grown where the search pays for it (`ball.rs`): the databases are weak
//! near the goal, where the ball is exact. IDA* holds a position as its pieces
//! ([`PieceSpace`]: each slot's label and orientation) where the puzzle has at most
//! [`MAX_PIECE_SLOTS`] slots, and as its rank otherwise.

use super::ball::{GrowingBall, BALL_SHARE};
use super::file::{DefinitionMetric, DefinitionPuzzle};
use super::search::{database, report, search, BuildProgress, Found, How, NEAR_METHOD};
pub use super::search::{DefinitionAlgorithm, DefinitionSolveRequest, GiveUp};
use super::slots::SlotSolver;
use super::tables::definition_identity;
use crate::cache::{Origin, TableCache};
use crate::report::DefinitionSolution;
use crate::tables::load_ranked_table;
use crate::{AppError, AppResult};
use godsearch_core::heuristic::raise_where;
use godsearch_core::progress::on_tables;
use godsearch_core::{Heuristic, NoProgress, Progress, RankInt, RankedSpace, StateSpace};
use godsearch_enumerate::half_depth::{GoalBall, HalfDepthOutcome};
use godsearch_enumerate::hashed_ball::HashedBall;
use godsearch_enumerate::{table, KeyState, Limits};
use godsearch_orbit::pieces::{PieceSpace, Pieces, MAX_PIECE_SLOTS};
use godsearch_orbit::projection::{Keep, PatternDatabases, Positions, Projection, ProjectionSpec};
use godsearch_orbit::slots::{MAX_SLOTS, MAX_WIDE_SLOTS};
use godsearch_orbit::subset::MAX_SUBSET_SLOTS;
use godsearch_orbit::{OrbitSpace, Pattern, SpaceError, SpaceMove};
use godsearch_search::descend;
use godsearch_tables::{LoadedTable, TableBytes, TwoBitTable, TwoBitView};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Spaces of at most this many ranks are solved by table descent (a 2-bit table of every
/// position, built in about a second: the 2x2x2's 3.7 M, the pyraminx's 75.6 M).
pub const DESCENT_RANKS: u128 = 1 << 28;
/// The ranks the pattern databases built on the spot may have together, a byte each: the
/// 3x3x3's corners (88 M, about 2.5 s to build) and two sets of six edges with their flips
/// (42.6 M each, 2 s together).
pub const QUICK_DATABASE_RANKS: u128 = 200_000_000;
/// The ranks the prepared databases may have together, a byte each: those `pdb build` builds
/// ahead into the cache, which the solver reads there (and never builds). The 3x3x3's: its
/// corners, its edge orientations and two sets of seven edges with their flips (511 M each),
/// 1.11 G in all, the sets 22 s to build.
pub const PREPARED_DATABASE_RANKS: u128 = 1_200_000_000;
/// The ball searched before the pattern databases are built holds the positions this many
/// canonical sequences reach, as deep as that allows (the 3x3x3's within 4 moves, 43,239
/// sequences; built in milliseconds).
pub const NEAR_BALL_SEQUENCES: u128 = 1 << 16;
/// IDA* searches bounds up to this many moves past that ball's depth over the ball alone (the
/// last of those iterations expands about `moves^NEAR_REACH` nodes), and builds the pattern
/// databases for a bound past them.
pub const NEAR_REACH: u32 = 3;
/// Puzzles of at most this many slots are searched as [`Pieces`] of 64 bytes (the 3x3x3's
/// 20); those of up to [`MAX_PIECE_SLOTS`] in 128.
const FEW_SLOTS: usize = 32;

/// A definition puzzle ready to solve positions: its space with the table of every rank or the
/// pattern databases built once, for as many positions as asked.
pub enum DefinitionSolver {
    /// Ranks fit 64 bits.
    Narrow(Solver<u64>),
    /// Ranks need 128 bits.
    Wide(Solver<u128>),
    /// Ranks need more: positions as slots, solved by IDA* ([`super::slots`]).
    Slots(SlotSolver),
    /// Past [`MAX_SLOTS`] slots (the 5x5x5).
    WideSlots(SlotSolver<MAX_WIDE_SLOTS>),
}

/// [`DefinitionSolver`] for one rank type.
pub struct Solver<R: RankInt> {
    puzzle: DefinitionPuzzle,
    space: OrbitSpace<R>,
    method: Method<R>,
    /// Seconds [`Solver::new`] took, charged to the first position solved.
    build_seconds: f64,
    charged: AtomicBool,
    count: usize,
}

/// How positions are solved.
enum Method<R> {
    /// Descent through a 2-bit table of every rank, of this diameter.
    Table(TwoBitTable, usize),
    /// Descent through a table file saved by `bfs --save`, of this many levels.
    Loaded(LoadedTable, usize),
    /// Half-depth search from the positions held around solved, meeting starts within the
    /// memory budget.
    HalfDepth(GoalBall<R>, u64),
    /// IDA* over the ball near solved for the near bounds, then over pattern databases.
    Databases(Databases<R>),
}

/// A database's bytes, shared by every set of databases that holds it.
#[derive(Debug, Clone)]
struct SharedBytes(Arc<TableBytes>);

impl AsRef<[u8]> for SharedBytes {
    #[inline]
    fn as_ref(&self) -> &[u8] {
        (*self.0).as_ref()
    }
}

/// Pattern databases: each projection with its exact distances, a byte a rank.
type Tables = Vec<(Projection, SharedBytes)>;

/// The piece sets' databases are built once the last IDA* iteration expanded at least their
/// ranks over this many nodes: a rank costs some 23 ns to build and a node about 1.2 µs to
/// expand, and the sets pay back only over an iteration several times larger than their
/// build. The 3x3x3's two sets of six edges (85 M ranks, 2 s): a 13-move scramble reaches its
/// last bound after 139,096 nodes (611 ranks a node), and the sets would save 0.5 s of its
/// 0.9 s search; a 14-move one after 273,137 (311 a node), and they take its search from
/// 7.8 s to 2.5 s.
pub const PIECE_SET_RANKS_PER_NODE: u128 = 400;

/// The prepared databases are read once the last IDA* iteration expanded at least their
/// ranks over this many nodes: mapping and checking a rank costs well under a nanosecond
/// from the page cache (more from disk), and a node about 1.2 µs. The 3x3x3's seven-edge
/// sets (1.02 G ranks) are read after an iteration of 255 K nodes: a 14-move scramble's
/// last bound, not a 13-move one's (where they would save about what the read costs).
pub const PREPARED_RANKS_PER_NODE: u128 = 4_000;

/// The bytes of pattern databases a solver of `memory_bytes` may hold: what its ball near
/// solved leaves (`BALL_SHARE`), and at most `ranks`. `pdb build` sizes the prepared
/// databases with it too, so that it builds the ones the solver looks for.
pub fn database_budget(memory_bytes: u64, ranks: u128) -> u128 {
    let ball_bytes = (memory_bytes as f64 * BALL_SHARE) as u128;
    (memory_bytes as u128 - ball_bytes).min(ranks)
}

/// The estimates of [`Method::Databases`]: the ball near solved, built at once and grown with
/// the bound, and the pattern databases, built by the first search that needs them and kept.
struct Databases<R> {
    ball: GrowingBall<R>,
    /// The depth of the ball built at once: bounds up to [`NEAR_REACH`] past it are searched
    /// over it alone.
    near_depth: u32,
    metric: DefinitionMetric,
    /// Where the databases are cached, if anywhere.
    cache: Option<TableCache>,
    /// The bytes the databases may take in all.
    budget: u128,
    /// The bytes the prepared databases may take in all (0: none are looked for).
    prepared_budget: u128,
    /// Held while they are built: a second search waits for them.
    built: Mutex<Option<Built>>,
    /// What the next report should say of them: a cached file left out or replaced, a
    /// database that could not be cached.
    notes: Mutex<Vec<String>>,
}

/// The databases built so far, the piece sets ([`Keep::Pieces`]) not built yet (built when
/// a search pays for them, [`PIECE_SET_RANKS_PER_NODE`], or read at once from the cache),
/// and the prepared databases not read yet (read from the cache when a search pays for
/// them, [`PREPARED_RANKS_PER_NODE`], and left out where it does not hold them).
struct Built {
    tables: Arc<Tables>,
    later: Vec<Projection>,
    prepared: Vec<Projection>,
}

impl Built {
    /// Adds `now` to the databases, dropping those (and the piece sets waiting) that one of
    /// `now` keeps all of: they say nothing more (the 3x3x3's six-edge sets beside its
    /// seven-edge ones).
    fn take_in(&mut self, now: Tables) {
        let kept = |p: &Projection| now.iter().any(|(q, _)| p.spec.kept_by(&q.spec));
        self.later.retain(|p| !kept(p));
        let mut tables = (*self.tables).clone();
        tables.retain(|(p, _)| !kept(p));
        tables.extend(now);
        self.tables = Arc::new(tables);
    }
}

impl<R: RankInt + KeyState> Databases<R> {
    /// The ball for `space` (see [`NEAR_BALL_SEQUENCES`]) within `ball_bytes`; the databases
    /// (within `budget`, read from `cache` or built and saved there; and those prepared
    /// within `prepared_budget`, read from `cache`) are not built yet.
    fn new(
        space: &OrbitSpace<R>,
        metric: DefinitionMetric,
        cache: Option<&TableCache>,
        ball_bytes: u128,
        (budget, prepared_budget): (u128, u128),
    ) -> Self {
        let ball = GrowingBall::new(space, ball_bytes, NEAR_BALL_SEQUENCES);
        Databases {
            near_depth: ball.held().depth(),
            ball,
            metric,
            cache: cache.cloned(),
            budget,
            prepared_budget,
            built: Mutex::new(None),
            notes: Mutex::new(Vec::new()),
        }
    }

    /// The bytes of database `what` as fetched, noting for the next report a cached file left
    /// out or replaced and a build that could not be cached.
    fn noted(&self, fetched: Fetched, what: &str) -> Option<TableBytes> {
        let mut notes = self.notes.lock().unwrap_or_else(|e| e.into_inner());
        match fetched {
            Fetched::Got(bytes, origin) => {
                if let Origin::Built {
                    replaced,
                    not_saved,
                    ..
                } = origin
                {
                    if let Some(why) = replaced {
                        notes.push(format!(
                            "rebuilt the pattern database of {what}: its cached file was unusable ({why})"
                        ));
                    }
                    if let Some(why) = not_saved {
                        notes.push(format!(
                            "built the pattern database of {what} but could not cache it ({why}); it is built again next time"
                        ));
                    }
                }
                Some(bytes)
            }
            Fetched::NotCached => None,
            Fetched::Unusable(why) => {
                notes.push(format!(
                    "left out the prepared pattern database of {what}: its cached file is unusable ({why}); building the puzzle's databases ahead again replaces it"
                ));
                None
            }
        }
    }

    /// What the databases' reads and builds since the last call had to say.
    fn take_notes(&self) -> Vec<String> {
        std::mem::take(&mut *self.notes.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The databases for an iteration after one that expanded `last` nodes: those built
    /// already, with the ones built or read now (and the seconds that took, 0 where none
    /// was), or `None` when `give_up` stopped a build.
    fn tables(
        &self,
        puzzle: &DefinitionPuzzle,
        space: &OrbitSpace<R>,
        last: u64,
        give_up: &GiveUp,
    ) -> AppResult<Option<(Arc<Tables>, f64)>> {
        let mut held = self.built.lock().unwrap_or_else(|e| e.into_inner());
        let started = Instant::now();
        let shown = give_up.tables.unwrap_or(&NoProgress);
        let progress = BuildProgress { give_up, shown };
        let cache = self.cache.as_ref();
        let made = |projections: &[Projection], reading: Reading| {
            let what = format!("the pattern databases of {}", puzzle.name());
            let made = on_tables(shown, &what, || {
                projections
                    .iter()
                    .map(|p| {
                        let fetched = database_bytes(
                            puzzle,
                            space,
                            self.metric,
                            p,
                            cache,
                            reading,
                            self.budget,
                            &progress,
                        )?;
                        let what = p.spec.describe(&puzzle.definition.orbits);
                        Ok(self
                            .noted(fetched, &what)
                            .map(|b| (p.clone(), SharedBytes(Arc::new(b)))))
                    })
                    .collect::<AppResult<Vec<_>>>()
            });
            match made {
                Err(_) if give_up.now() => Ok(None),
                made => made.map(Some),
            }
        };
        let paid_for = |waiting: &[Projection], ranks_per_node: u128| {
            let ranks: u128 = waiting.iter().map(Projection::state_count).sum();
            !waiting.is_empty() && ranks <= last as u128 * ranks_per_node
        };
        let mut building = false;
        if held.is_none() {
            building = true;
            // The prepared databases are looked for in the cache.
            let budgets = match cache.is_some() && self.prepared_budget > self.budget {
                true => vec![self.budget, self.prepared_budget],
                false => vec![self.budget],
            };
            let mut choices = chosen_projections(puzzle, space, self.metric, &budgets)?.into_iter();
            let quick = choices.next().expect("a choice for each budget");
            // Those the quick ones leave out.
            let prepared = choices
                .flatten()
                .filter(|p| quick.iter().all(|q| q.spec != p.spec))
                .collect();
            let (sets, first): (Vec<_>, Vec<_>) =
                quick.into_iter().partition(Projection::reads_pieces);
            let Some(first) = made(&first, Reading::OrBuild)? else {
                return Ok(None);
            };
            // Piece sets the cache holds are read now; the others wait.
            let Some(cached) = made(&sets, Reading::CachedOnly)? else {
                return Ok(None);
            };
            let later = sets
                .into_iter()
                .zip(&cached)
                .filter(|(_, read)| read.is_none())
                .map(|(p, _)| p)
                .collect();
            let tables = first.into_iter().chain(cached).flatten().collect();
            *held = Some(Built {
                tables: Arc::new(tables),
                later,
                prepared,
            });
        }
        let built = held.as_mut().expect("set above");
        // The prepared databases are read (or left out), then the piece sets built.
        if paid_for(&built.prepared, PREPARED_RANKS_PER_NODE) {
            building = true;
            let Some(read) = made(&built.prepared, Reading::CachedOnly)? else {
                return Ok(None);
            };
            built.prepared.clear();
            built.take_in(read.into_iter().flatten().collect());
        }
        if paid_for(&built.later, PIECE_SET_RANKS_PER_NODE) {
            building = true;
            let Some(sets) = made(&built.later, Reading::OrBuild)? else {
                return Ok(None);
            };
            built.later.clear();
            built.take_in(sets.into_iter().flatten().collect());
        }
        let seconds = match building {
            true => started.elapsed().as_secs_f64(),
            false => 0.0,
        };
        Ok(Some((Arc::clone(&built.tables), seconds)))
    }
}

/// The states IDA* searches a ranked space's positions as: its ranks, or its positions as
/// pieces ([`PieceSpace`]: a few dozen bytes moved a child, where a rank is decoded and
/// composed again), over the same moves.
trait Searched<R>: StateSpace + Positions<State = <Self as StateSpace>::State> {
    /// The rank of a state (the ball near solved is keyed by ranks).
    fn rank(&self, state: <Self as StateSpace>::State) -> R;
}

impl<R: RankInt> Searched<R> for OrbitSpace<R> {
    #[inline]
    fn rank(&self, state: R) -> R {
        state
    }
}

impl<R: RankInt, const N: usize> Searched<R> for PieceSpace<'_, R, N> {
    #[inline]
    fn rank(&self, state: Pieces<N>) -> R {
        self.rank_of(&state)
    }
}

/// One iteration's estimate under [`Method::Databases`] for states of `P`: admissible either
/// way.
enum Estimate<'a, R, P> {
    /// The ball near solved: exact within its depth, one past it outside.
    Near(Arc<HashedBall<R>>, &'a P),
    /// The maximum of the ball and the pattern databases over `space`.
    Far(Arc<HashedBall<R>>, Arc<Tables>, &'a P),
}

/// The ball's estimates of `states` (of `space`) into `out`, their ranks worked out a chunk
/// at a time.
fn ball_bounds<R: RankInt + KeyState, P: Searched<R>>(
    ball: &HashedBall<R>,
    space: &P,
    states: &[<P as StateSpace>::State],
    out: &mut [u32],
) {
    const CHUNK: usize = 64;
    let mut ranks = [R::default(); CHUNK];
    for (states, out) in states.chunks(CHUNK).zip(out.chunks_mut(CHUNK)) {
        for (rank, &state) in ranks.iter_mut().zip(states) {
            *rank = space.rank(state);
        }
        ball.lower_bounds(&ranks[..states.len()], out);
    }
}

impl<R: RankInt + KeyState, P: Searched<R>> Heuristic<<P as StateSpace>::State>
    for Estimate<'_, R, P>
{
    const CONSISTENT: bool = false;

    #[inline]
    fn lower_bound(&self, state: <P as StateSpace>::State) -> u32 {
        match self {
            Estimate::Near(ball, space) => ball.lower_bound(space.rank(state)),
            Estimate::Far(ball, tables, space) => {
                match PatternDatabases::new(*space, tables).lower_bound(state) {
                    // The ball reads at most one past its depth: no higher.
                    far if far > ball.depth() => far,
                    near => near.max(ball.lower_bound(space.rank(state))),
                }
            }
        }
    }

    #[inline]
    fn lower_bounds(&self, states: &[<P as StateSpace>::State], out: &mut [u32]) {
        self.lower_bounds_past(states, out, u32::MAX);
    }

    /// The databases first; the ball only for the states they put within its depth (most
    /// states they put past it, where the ball could not say more) and below `enough`.
    #[inline]
    fn lower_bounds_past(&self, states: &[<P as StateSpace>::State], out: &mut [u32], enough: u32) {
        match self {
            Estimate::Near(ball, space) => ball_bounds(ball, *space, states, out),
            Estimate::Far(ball, tables, space) => {
                PatternDatabases::new(*space, tables).lower_bounds_past(states, out, enough);
                raise_where(
                    states,
                    out,
                    |bound| bound <= ball.depth() && bound < enough,
                    |near, read| ball_bounds(ball, *space, near, read),
                );
            }
        }
    }
}

impl DefinitionSolver {
    /// Builds what solving `puzzle` under `request` needs (see the module docs).
    pub fn new(
        puzzle: &DefinitionPuzzle,
        request: &DefinitionSolveRequest,
        progress: &dyn Progress,
    ) -> AppResult<Self> {
        match puzzle.space::<u64>(request.generators, request.metric) {
            Ok(space) => Ok(Self::Narrow(Solver::new(puzzle, space, request, progress)?)),
            Err(AppError::OrbitSpace(SpaceError::TooLarge { .. })) => {
                match puzzle.space::<u128>(request.generators, request.metric) {
                    Ok(space) => Ok(Self::Wide(Solver::new(puzzle, space, request, progress)?)),
                    Err(AppError::OrbitSpace(SpaceError::TooLarge { .. })) => {
                        if request.table.is_some() {
                            return Err(AppError::Input(format!(
                                "{}: its positions are ranked in more than 128 bits, so no table of them is saved (leave out «table»)",
                                puzzle.name()
                            )));
                        }
                        if request.algorithm != DefinitionAlgorithm::Auto {
                            return Err(AppError::Input(format!(
                                "{}: its positions are ranked in more than 128 bits, which half-depth search needs (leave out «algorithm»)",
                                puzzle.name()
                            )));
                        }
                        match puzzle.slot_count() <= MAX_SLOTS {
                            true => Ok(Self::Slots(SlotSolver::new(puzzle, request)?)),
                            false => Ok(Self::WideSlots(SlotSolver::new(puzzle, request)?)),
                        }
                    }
                    Err(e) => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    }

    /// Solves `start` (written as `start_text` in the report) optimally, giving up as
    /// `give_up` says (a deadline, a cancel switch; `None`: never).
    pub fn solve<'a>(
        &self,
        start: &Pattern,
        start_text: &str,
        give_up: impl Into<GiveUp<'a>>,
    ) -> AppResult<DefinitionSolution> {
        let give_up = give_up.into();
        match self {
            Self::Narrow(s) => s.solve(start, start_text, give_up),
            Self::Wide(s) => s.solve(start, start_text, give_up),
            Self::Slots(s) => s.solve(start, start_text, give_up),
            Self::WideSlots(s) => s.solve(start, start_text, give_up),
        }
    }
}

impl DefinitionSolver {
    /// An optimal sequence of moves that makes `pattern` from solved (the inverse of an optimal
    /// solution), in the space's move names.
    pub fn reaching(&self, pattern: &Pattern) -> AppResult<Vec<String>> {
        let solution = self.solve(pattern, "", None)?.solution;
        Ok(match self {
            Self::Narrow(s) => inverse_sequence(&s.space, s.space.moves(), &solution),
            Self::Wide(s) => inverse_sequence(&s.space, s.space.moves(), &solution),
            Self::Slots(s) => inverse_sequence(s.space(), s.space().moves(), &solution),
            Self::WideSlots(s) => inverse_sequence(s.space(), s.space().moves(), &solution),
        })
    }
}

/// The inverse of `solution` (names of `moves`, the moves of `space`): its moves undone in
/// reverse order.
fn inverse_sequence(space: &impl StateSpace, moves: &[SpaceMove], solution: &str) -> Vec<String> {
    solution
        .split_whitespace()
        .rev()
        .map(|name| {
            let m = moves
                .iter()
                .position(|m| m.name == name)
                .expect("a move of the space");
            space.move_name(space.inverse_move(m as godsearch_core::MoveIdx))
        })
        .collect()
}

/// What a [`DefinitionSolver`] was built for: a later request with the same key reuses it.
#[derive(Debug, PartialEq)]
pub(crate) struct SolverKey {
    definition: godsearch_orbit::Definition,
    generators: Vec<String>,
    metric: DefinitionMetric,
    memory_bytes: u64,
    descent_ranks: u128,
    database_ranks: u128,
    prepared_ranks: u128,
    count: usize,
    table: Option<std::path::PathBuf>,
    algorithm: DefinitionAlgorithm,
}

/// The solver a workbench keeps: the last one built, so that a batch or a session's
/// positions of one puzzle build its table or databases once, and a new puzzle frees the old
/// one's memory.
#[derive(Default)]
pub struct KeptSolver(std::sync::Mutex<Option<(SolverKey, std::sync::Arc<DefinitionSolver>)>>);

impl crate::request::Workbench {
    /// The solver of `puzzle` under `request`: the one kept if it was built for the same
    /// definition and options, else built now (its build shown to `progress` as tables, not
    /// charged to a job's time) and kept in its place. A report gives the seconds spent
    /// building for it alone: the solver's build in the first, the tables a search builds in
    /// the search that builds them.
    pub fn definition_solver(
        &self,
        puzzle: &DefinitionPuzzle,
        request: &DefinitionSolveRequest,
        progress: &dyn Progress,
    ) -> AppResult<std::sync::Arc<DefinitionSolver>> {
        let key = SolverKey {
            definition: puzzle.definition.clone(),
            generators: request.generators.to_vec(),
            metric: request.metric,
            memory_bytes: request.memory_bytes,
            descent_ranks: request.descent_ranks,
            database_ranks: request.database_ranks,
            prepared_ranks: request.prepared_ranks,
            count: request.count,
            table: request.table.map(std::path::Path::to_path_buf),
            algorithm: request.algorithm,
        };
        // Held for the build: a second request for the same puzzle waits for it.
        let kept = self.kept::<KeptSolver>();
        let mut kept = kept
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((built_for, solver)) = kept.as_ref() {
            if *built_for == key {
                return Ok(std::sync::Arc::clone(solver));
            }
        }
        *kept = None;
        let what = format!("the tables of {}", puzzle.name());
        let solver = godsearch_core::progress::on_tables(progress, &what, || {
            DefinitionSolver::new(puzzle, request, progress)
        })?;
        let solver = std::sync::Arc::new(solver);
        *kept = Some((key, std::sync::Arc::clone(&solver)));
        Ok(solver)
    }
}

impl KeptSolver {
    /// Forgets the solver `bench` keeps, so that the next one looks for its databases afresh
    /// in the cache.
    pub fn forget(bench: &crate::request::Workbench) {
        let kept = bench.kept::<KeptSolver>();
        *kept
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    }
}

/// Solves one position: [`DefinitionSolver::new`] then [`DefinitionSolver::solve`].
pub fn solve(
    puzzle: &DefinitionPuzzle,
    start: &Pattern,
    start_text: &str,
    request: &DefinitionSolveRequest,
    progress: &dyn Progress,
) -> AppResult<DefinitionSolution> {
    DefinitionSolver::new(puzzle, request, progress)?.solve(start, start_text, request.deadline)
}

impl<R: RankInt + KeyState> Solver<R> {
    fn new(
        puzzle: &DefinitionPuzzle,
        space: OrbitSpace<R>,
        request: &DefinitionSolveRequest,
        progress: &dyn Progress,
    ) -> AppResult<Self> {
        let built = Instant::now();
        // Descent gives one solution; several come from IDA* over databases.
        let table_fits = request.count <= 1
            && table_fits(
                space.state_count(),
                request.descent_ranks,
                request.memory_bytes,
            );
        let method = if let DefinitionAlgorithm::HalfDepth { depth } = request.algorithm {
            let ball = GoalBall::build(&space, depth, request.memory_bytes, progress)
                .map_err(crate::error::ball_error)?;
            Method::HalfDepth(ball, request.memory_bytes)
        } else if let Some(path) = request.table {
            let identity = definition_identity(puzzle.name(), &space, request.metric.name());
            let loaded = load_ranked_table(path, &identity)?;
            if loaded.header().entries as u128 != space.state_count() {
                return Err(AppError::Input(format!(
                    "{}: {} entries, but this puzzle has {} ranks",
                    path.display(),
                    loaded.header().entries,
                    space.state_count()
                )));
            }
            let levels = loaded.header().levels.len();
            Method::Loaded(loaded, levels)
        } else if table_fits {
            let limits = Limits {
                max_depth: None,
                memory_bytes: request.memory_bytes,
                antipode_cap: 0,
                count_last: false,
            };
            let made = table::enumerate(&space, &limits, progress)?;
            crate::bfs::table_complete(made.enumeration.stop)?;
            Method::Table(made.table, made.enumeration.levels.len())
        } else {
            let memory = request.memory_bytes;
            let ball_bytes = memory as u128 - database_budget(memory, u128::MAX);
            let budgets = (
                database_budget(memory, request.database_ranks),
                database_budget(memory, request.prepared_ranks),
            );
            let (metric, cache) = (request.metric, request.cache);
            Method::Databases(Databases::new(&space, metric, cache, ball_bytes, budgets))
        };
        Ok(Self {
            puzzle: puzzle.clone(),
            space,
            method,
            build_seconds: built.elapsed().as_secs_f64(),
            charged: AtomicBool::new(false),
            count: request.count,
        })
    }

    fn solve(
        &self,
        start: &Pattern,
        start_text: &str,
        give_up: GiveUp,
    ) -> AppResult<DefinitionSolution> {
        let (puzzle, space) = (&self.puzzle, &self.space);
        let Some(start_rank) = space.rank_pattern(start) else {
            return Err(AppError::Input(format!(
                "{}: the generators {} cannot reach this position from solved",
                puzzle.name(),
                space.generators().join(",")
            )));
        };
        let started = Instant::now();
        let charged = match self.charged.swap(true, Ordering::Relaxed) {
            false => self.build_seconds,
            true => 0.0,
        };
        // Seconds spent in this search building its databases.
        let mut built_now = 0.0;
        let (found, method, databases) = match &self.method {
            Method::Table(table, longest) => {
                let path = descend(space, table, start_rank, *longest)?;
                (Found::one(path), "table descent", Vec::new())
            }
            Method::Loaded(loaded, longest) => {
                let entries = loaded.header().entries as usize;
                let view = TwoBitView::new(loaded.payload(), entries).ok_or_else(|| {
                    AppError::Check("the table payload is shorter than its header says".into())
                })?;
                let path = descend(space, &view, start_rank, *longest)?;
                (Found::one(path), "table descent (saved table)", Vec::new())
            }
            Method::HalfDepth(ball, memory_bytes) => {
                match ball.solve(space, start_rank, *memory_bytes) {
                    HalfDepthOutcome::Solved(path) => {
                        let held = format!("{} moves of solved held", ball.depth());
                        (Found::one(path), "half-depth search", vec![held])
                    }
                    HalfDepthOutcome::Beyond { lower_bound } => {
                        return Err(AppError::Input(format!(
                            "farther than the half-depth search meets ({} moves held): every solution has at least {lower_bound} moves (raise «depth» or «memory»)",
                            ball.depth()
                        )))
                    }
                }
            }
            Method::Databases(estimates) => {
                // As pieces in the fewest bytes that hold them (IDA* copies a state for
                // every child), else as ranks.
                let searched = if let Some(pieces) = PieceSpace::<R, FEW_SLOTS>::new(space) {
                    let start = pieces.pieces_of(start_rank);
                    self.search_databases(estimates, &pieces, start, &give_up, &mut built_now)
                } else if let Some(pieces) = PieceSpace::<R, MAX_PIECE_SLOTS>::new(space) {
                    let start = pieces.pieces_of(start_rank);
                    self.search_databases(estimates, &pieces, start, &give_up, &mut built_now)
                } else {
                    self.search_databases(estimates, space, start_rank, &give_up, &mut built_now)
                };
                searched?
            }
        };
        let notes = match &self.method {
            Method::Databases(estimates) => estimates.take_notes(),
            _ => Vec::new(),
        };
        let how = How {
            method,
            databases,
            build_seconds: charged + built_now,
            seconds: started.elapsed().as_secs_f64() - built_now,
            notes,
        };
        report(puzzle, space, (start, start_text), found, how)
    }
}

impl<R: RankInt + KeyState> Solver<R> {
    /// IDA* from `start` over `searched` (this solver's positions as ranks or as pieces),
    /// over the ball near solved for the near bounds and the databases past them, giving up
    /// as `give_up` says; the seconds spent building tables are added to `built_now`.
    fn search_databases<P: Searched<R>>(
        &self,
        estimates: &Databases<R>,
        searched: &P,
        start: <P as StateSpace>::State,
        give_up: &GiveUp,
        built_now: &mut f64,
    ) -> AppResult<(Found, &'static str, Vec<String>)> {
        let (puzzle, space) = (&self.puzzle, &self.space);
        let near_bounds = estimates.near_depth + NEAR_REACH;
        // The databases of the last iteration, for the report.
        let mut far: Option<Arc<Tables>> = None;
        let mut failed = None;
        let mut deepest = 0;
        let found = search(
            searched,
            |bound, last| {
                if bound <= near_bounds {
                    let ball = estimates.ball.held();
                    deepest = deepest.max(ball.depth());
                    return Some(Estimate::Near(ball, searched));
                }
                let tables = match estimates.tables(puzzle, space, last, give_up) {
                    Ok(Some((tables, seconds))) => {
                        *built_now += seconds;
                        tables
                    }
                    Ok(None) => return None,
                    Err(e) => {
                        failed = Some(e);
                        return None;
                    }
                };
                far = Some(Arc::clone(&tables));
                let (ball, seconds) = estimates.ball.for_bound(space, bound, Some(last), give_up);
                *built_now += seconds;
                deepest = deepest.max(ball.depth());
                Some(Estimate::Far(ball, tables, searched))
            },
            start,
            self.count,
            *give_up,
            || AppError::Check("the search found no way to solved".into()),
        );
        if let Some(e) = failed {
            return Err(e);
        }
        let near = format!("every position within {deepest} moves");
        Ok(match far {
            Some(tables) => {
                let names = tables
                    .iter()
                    .map(|(p, _)| p.spec.describe(&puzzle.definition.orbits))
                    .chain([near])
                    .collect();
                (found?, "IDA* over pattern databases", names)
            }
            None => (found?, NEAR_METHOD, vec![near]),
        })
    }
}

/// Whether a space of `positions` is solved by descent through a table of every one: it has
/// at most `descent_ranks` of them, and the table fits `memory_bytes`.
pub(super) fn table_fits(positions: u128, descent_ranks: u128, memory_bytes: u64) -> bool {
    positions <= descent_ranks && table::table_bytes(positions) <= memory_bytes as u128
}

/// The projections worth a database, each of at most `largest` ranks (a byte each) and all
/// within that too: each orbit whole where it fits, else its orientations, two sets of as
/// many of its pieces with their orientations as fit (`piece_sets`; first where the pieces
/// twist, else where the arrangement does not fit) and its arrangement. Admissible together
/// (their maximum, [`PatternDatabases`]). Each is read from `cache` where a valid file holds
/// it (its header naming the puzzle, generators, metric and moves, and the projection), else
/// built and saved there.
pub fn databases<R: RankInt>(
    puzzle: &DefinitionPuzzle,
    space: &OrbitSpace<R>,
    metric: DefinitionMetric,
    largest: u128,
    cache: Option<&TableCache>,
    progress: &dyn Progress,
) -> AppResult<Vec<(Projection, TableBytes)>> {
    chosen_projections(puzzle, space, metric, &[largest])?
        .concat()
        .into_iter()
        .map(|p| {
            let reading = Reading::OrBuild;
            let made =
                database_bytes(puzzle, space, metric, &p, cache, reading, largest, progress)?;
            Ok((p, made.built().0))
        })
        .collect()
}

/// The projections [`databases`] builds within each of `budgets`, chosen before any is
/// built; a projection two choices share is made once.
pub(super) fn chosen_projections<R: RankInt>(
    puzzle: &DefinitionPuzzle,
    space: &OrbitSpace<R>,
    metric: DefinitionMetric,
    budgets: &[u128],
) -> AppResult<Vec<Vec<Projection>>> {
    let definition = &puzzle.definition;
    let quarter = metric == DefinitionMetric::Quarter;
    // Making a projection's space takes milliseconds (the 3x3x3's corners, 17 ms): each is
    // made once. `None`: too large, or not a set this space can rank.
    let mut made: Vec<(ProjectionSpec, Option<Option<Projection>>)> = Vec::new();
    let mut project = |spec: &ProjectionSpec| -> AppResult<Option<Option<Projection>>> {
        if let Some((_, projection)) = made.iter().find(|(s, _)| s == spec) {
            return Ok(projection.clone());
        }
        let projection = match Projection::new(space, definition, spec.clone(), quarter) {
            Ok(projection) => Some(projection),
            Err(SpaceError::TooLarge { .. } | SpaceError::NotASubset) => None,
            Err(e) => return Err(e.into()),
        };
        made.push((spec.clone(), projection.clone()));
        Ok(projection)
    };
    let mut choices = Vec::new();
    for &largest in budgets {
        let mut budget = largest;
        let mut chosen = Vec::new();
        let mut candidates: VecDeque<ProjectionSpec> = (0..definition.orbits.len())
            .map(|o| ProjectionSpec {
                orbits: vec![(o, Keep::Whole)],
            })
            .collect();
        while let Some(spec) = candidates.pop_front() {
            let projection = match project(&spec)? {
                Some(Some(projection)) => Some(projection),
                // It keeps nothing (an orbit that never twists, kept for its orientations).
                Some(None) => continue,
                None => None,
            };
            let ranks = projection
                .as_ref()
                .map_or(u128::MAX, Projection::state_count);
            let Some(projection) = projection.filter(|_| ranks <= budget) else {
                match spec.orbits[..] {
                    // Too large whole: its orientations and its arrangement apart; sets of
                    // its pieces with their orientations first where they twist (the 3x3x3's
                    // two sets of seven edges say more than the arrangement of all twelve).
                    [(o, Keep::Whole)] => {
                        let orientations = ProjectionSpec {
                            orbits: vec![(o, Keep::Orientations)],
                        };
                        candidates.push_back(orientations);
                        if space.orbits()[o].orientations > 1 {
                            candidates.extend(piece_sets(space, o, budget));
                        }
                        candidates.push_back(ProjectionSpec {
                            orbits: vec![(o, Keep::Arrangement)],
                        });
                    }
                    // An untwisted orbit's arrangement too: some of its pieces at a time.
                    [(o, Keep::Arrangement)] if space.orbits()[o].orientations <= 1 => {
                        candidates.extend(piece_sets(space, o, budget))
                    }
                    _ => {}
                }
                continue;
            };
            budget -= ranks;
            chosen.push(projection);
        }
        choices.push(chosen);
    }
    Ok(choices)
}

/// How [`database_bytes`] gets a database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reading {
    /// From the cache, or not at all.
    CachedOnly,
    /// From the cache, else built (and saved there).
    OrBuild,
    /// Built (and saved to the cache) even where the cache holds it.
    Rebuild,
}

/// A pattern database as [`database_bytes`] found it.
pub(super) enum Fetched {
    /// Read from the cache or built, and which.
    Got(TableBytes, Origin),
    /// Not in the cache, and not to be built.
    NotCached,
    /// A file in the cache that cannot be used (why), and not to be built.
    Unusable(String),
}

impl Fetched {
    /// The bytes and their origin, where `reading` builds what the cache does not hold.
    pub(super) fn built(self) -> (TableBytes, Origin) {
        match self {
            Fetched::Got(bytes, origin) => (bytes, origin),
            _ => unreachable!("a reading that builds always gets its database"),
        }
    }
}

/// The database of `projection` (of `space`, `puzzle`'s space in `metric`) and how it was
/// had: read from `cache` where a valid file holds it, else built in at most `memory` bytes
/// (and saved there), as `reading` says; with [`Reading::CachedOnly`], not built where the
/// cache does not hold it or its file there is unusable ([`Fetched`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn database_bytes<R: RankInt>(
    puzzle: &DefinitionPuzzle,
    space: &OrbitSpace<R>,
    metric: DefinitionMetric,
    projection: &Projection,
    cache: Option<&TableCache>,
    reading: Reading,
    memory: u128,
    progress: &dyn Progress,
) -> AppResult<Fetched> {
    let definition = &puzzle.definition;
    let ranks = projection.state_count();
    let build = || database(projection, space, definition, memory, progress);
    let Some(cache) = cache else {
        if reading == Reading::CachedOnly {
            return Ok(Fetched::NotCached);
        }
        let started = Instant::now();
        let bytes = TableBytes::Owned(build()?);
        let origin = Origin::Built {
            seconds: started.elapsed().as_secs_f64(),
            replaced: None,
            not_saved: None,
        };
        return Ok(Fetched::Got(bytes, origin));
    };
    let identity = definition_identity(puzzle.name(), space, metric.name());
    let params = format!(
        "pattern database of {} ({}, a byte a rank)",
        projection.spec.describe(&definition.orbits),
        identity.ranking
    );
    let (puzzle, entries) = (&identity.puzzle, ranks as u64);
    match reading {
        Reading::CachedOnly => Ok(
            match cache.cached_definition_database(puzzle, &params, entries) {
                Ok(Some(bytes)) => Fetched::Got(bytes, Origin::Cached),
                Ok(None) => Fetched::NotCached,
                Err(why) => Fetched::Unusable(why),
            },
        ),
        Reading::OrBuild | Reading::Rebuild => {
            let force = reading == Reading::Rebuild;
            cache
                .definition_database(puzzle, &params, entries, force, build, progress)
                .map(|(bytes, origin)| Fetched::Got(bytes, origin))
        }
    }
}

/// `piece_sets` takes this many sets of pieces of a component: the first of its slots and
/// the last.
pub const PIECE_SETS: usize = 2;

/// Sets of pieces of `orbit`, with their orientations, to keep a database of each: in each
/// component of the orbit whose pieces all differ, [`PIECE_SETS`] sets of as many pieces as
/// fit `budget` together (the first of its slots and the last; the 3x3x3's edges six and six
/// within 200 M ranks, as Korf's 1997 databases, seven and seven within 1.2 G), never all of
/// it or all but one (as large as the whole orbit).
fn piece_sets<R: RankInt>(
    space: &OrbitSpace<R>,
    orbit: usize,
    budget: u128,
) -> Vec<ProjectionSpec> {
    let k = space.orbits()[orbit].orientations.max(1) as u128;
    let mut sets = Vec::new();
    for (_, slots) in space.orbit_components(orbit) {
        let n = slots.len();
        if n > MAX_SUBSET_SLOTS || slots.iter().any(|&s| s >= u64::BITS as usize) {
            continue;
        }
        // Ranks of `t` pieces with their orientations: n! / (n - t)! * k^t.
        let ranks = |t: usize| -> Option<u128> {
            (n - t + 1..=n).try_fold(k.checked_pow(t as u32)?, |r, x| r.checked_mul(x as u128))
        };
        let fits =
            |t: usize| ranks(t).is_some_and(|r| r.saturating_mul(PIECE_SETS as u128) <= budget);
        let Some(t) = (2..n.saturating_sub(1)).take_while(|&t| fits(t)).last() else {
            continue;
        };
        let mask = |set: &[usize]| set.iter().fold(0u64, |m, &s| m | 1 << s);
        for set in [&slots[..t], &slots[n - t..]] {
            sets.push(ProjectionSpec {
                orbits: vec![(
                    orbit,
                    Keep::Pieces {
                        slots: mask(set),
                        orientations: true,
                    },
                )],
            });
        }
    }
    sets
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::origin_parts;
    use godsearch_core::NoProgress;

    /// The larger of the databases and the ball never passes a position's distance (every
    /// position of the pyraminx, against its breadth-first distances), and asked together it
    /// gives what it gives one by one.
    #[test]
    fn the_ball_beside_the_databases_never_overestimates() {
        let puzzle = super::super::shipped::find("pyraminx-no-tips")
            .unwrap()
            .open()
            .unwrap();
        let space: OrbitSpace<u64> = puzzle.space(&[], DefinitionMetric::Outer).unwrap();
        let limits = Limits {
            max_depth: None,
            memory_bytes: 1 << 30,
            antipode_cap: 0,
            count_last: false,
        };
        let truth = table::enumerate_exact(&space, &limits, &NoProgress)
            .unwrap()
            .table
            .into_bytes();
        // Small databases (the edges' orientations and arrangement apart), weak enough that
        // the ball raises some estimates.
        let outer = DefinitionMetric::Outer;
        let tables = databases(&puzzle, &space, outer, 1_000, None, &NoProgress).unwrap();
        assert!(!tables.is_empty());
        let ball = Arc::new(HashedBall::build(&space, 4, 1 << 12));
        let shared: Tables = tables
            .into_iter()
            .map(|(p, bytes)| (p, SharedBytes(Arc::new(bytes))))
            .collect();
        let estimate = Estimate::Far(Arc::clone(&ball), Arc::new(shared.clone()), &space);
        let alone = PatternDatabases::new(&space, &shared);
        let states: Vec<u64> = (0..truth.len() as u64)
            .filter(|&r| truth[r as usize] != u8::MAX)
            .collect();
        let mut together = vec![0; states.len()];
        estimate.lower_bounds(&states, &mut together);
        let mut raised = 0;
        for (&state, &bound) in states.iter().zip(&together) {
            let distance = u32::from(truth[state as usize]);
            assert!(bound <= distance, "rank {state}: {bound} > {distance}");
            assert_eq!(bound, estimate.lower_bound(state), "rank {state}");
            raised += (bound > alone.lower_bound(state)) as usize;
        }
        assert!(
            raised > 0,
            "the ball says more than the databases somewhere"
        );
        // Held as pieces, every position gets the same estimates.
        let pieces = PieceSpace::<_, FEW_SLOTS>::new(&space).expect("few slots");
        let held: Vec<Pieces<FEW_SLOTS>> = states.iter().map(|&r| pieces.pieces_of(r)).collect();
        let estimate = Estimate::Far(ball, Arc::new(shared), &pieces);
        let mut as_pieces = vec![0; held.len()];
        estimate.lower_bounds(&held, &mut as_pieces);
        assert_eq!(as_pieces, together);
    }

    /// The 2x2x2 from its file, its generators `U, F, R` and its space of them.
    fn two_by_two() -> (DefinitionPuzzle, Vec<String>, OrbitSpace<u64>) {
        let puzzle = super::super::shipped::by_file("2x2x2.kpuzzle.json")
            .unwrap()
            .open()
            .unwrap();
        let generators: Vec<String> = ["U", "F", "R"].map(String::from).to_vec();
        let space = puzzle.space(&generators, DefinitionMetric::Outer).unwrap();
        (puzzle, generators, space)
    }

    /// What each of `tables` keeps of `puzzle`.
    fn names(puzzle: &DefinitionPuzzle, tables: &Tables) -> Vec<String> {
        let orbits = &puzzle.definition.orbits;
        tables
            .iter()
            .map(|(p, _)| p.spec.describe(orbits))
            .collect()
    }

    /// The piece sets wait until an iteration has paid for them, then join the databases
    /// built before; the ones read from the cache join at once.
    #[test]
    fn piece_sets_are_built_when_a_search_pays_for_them() {
        let (puzzle, _, space) = two_by_two();
        let names = |tables: &Tables| names(&puzzle, tables);
        // Within 4,000 ranks: the corners' orientations (729), then two sets of two corners
        // with their twists (378 ranks each) in place of the arrangement (5,040).
        let budget = 4_000;
        let cache_dir = tempfile::tempdir().unwrap();
        let cache = TableCache::new(cache_dir.path().to_path_buf());
        let outer = DefinitionMetric::Outer;
        let give_up = GiveUp::from(None);
        let databases = Databases::new(&space, outer, Some(&cache), 1 << 20, (budget, 0));
        let (first, built) = databases
            .tables(&puzzle, &space, 0, &give_up)
            .unwrap()
            .unwrap();
        assert_eq!(names(&first), ["CORNERS orientations"]);
        assert!(built > 0.0);
        let sets = 2 * 378;
        let unpaid = (sets as u128 / PIECE_SET_RANKS_PER_NODE) as u64;
        let (same, none) = databases
            .tables(&puzzle, &space, unpaid, &give_up)
            .unwrap()
            .unwrap();
        assert_eq!((names(&same), none), (names(&first), 0.0));
        let (all, built) = databases
            .tables(&puzzle, &space, unpaid + 1, &give_up)
            .unwrap()
            .unwrap();
        assert_eq!(all.len(), 3);
        assert!(names(&all)[1..]
            .iter()
            .all(|n| n.contains("with their orientations")));
        assert!(built > 0.0);
        // A solver of the same puzzle finds the sets in the cache, and reads them at once.
        let again = Databases::new(&space, outer, Some(&cache), 1 << 20, (budget, 0));
        let (read, _) = again.tables(&puzzle, &space, 0, &give_up).unwrap().unwrap();
        assert_eq!(names(&read), names(&all));
    }

    /// The prepared databases are never built by a solver; `prepare` builds them (with the
    /// ones the solver builds itself), and a solver then reads them once a search pays for
    /// them.
    #[test]
    fn prepared_databases_are_read_when_a_search_pays_for_them() {
        use super::super::prepare::prepare;
        let (puzzle, generators, space) = two_by_two();
        let outer = DefinitionMetric::Outer;
        let names = |tables: &Tables| names(&puzzle, tables);
        let cache_dir = tempfile::tempdir().unwrap();
        let cache = TableCache::new(cache_dir.path().to_path_buf());
        let give_up = GiveUp::from(None);
        // Built on the spot within 4,000 ranks: the corners' orientations and two sets of
        // two corners. Prepared within 100,000: two sets of three corners with their twists
        // (5,670 ranks each) and the corners' arrangement (5,040) besides.
        let budgets = (4_000, 100_000);
        let prepared_ranks = 5_040 + 2 * 5_670;
        let unpaid = (prepared_ranks / PREPARED_RANKS_PER_NODE) as u64;
        let far = u64::MAX / 2;
        let files = || std::fs::read_dir(cache_dir.path()).unwrap().count();
        let solver = Databases::new(&space, outer, Some(&cache), 1 << 20, budgets);
        let (quick, _) = solver
            .tables(&puzzle, &space, far, &give_up)
            .unwrap()
            .unwrap();
        assert_eq!(quick.len(), 3, "{:?}", names(&quick));
        assert_eq!(files(), 3, "the solver built the quick ones alone");

        let request = DefinitionSolveRequest {
            generators: &generators,
            metric: outer,
            memory_bytes: 1 << 20,
            deadline: None,
            descent_ranks: 0,
            database_ranks: budgets.0,
            prepared_ranks: budgets.1,
            count: 1,
            table: None,
            algorithm: DefinitionAlgorithm::Auto,
            cache: Some(&cache),
        };
        let made = prepare(&puzzle, &request, false, &NoProgress).unwrap();
        let origins: Vec<&str> = made
            .iter()
            .map(|d| origin_parts(d.origin.clone()).0)
            .collect();
        assert_eq!(
            origins,
            ["cached", "cached", "cached", "built", "built", "built"]
        );
        let prepared: Vec<&str> = made[3..].iter().map(|d| d.what.as_str()).collect();
        assert_eq!(
            prepared,
            [
                "CORNERS slots 1-3 with their orientations",
                "CORNERS slots 5-7 with their orientations",
                "CORNERS arrangement"
            ]
        );
        let entries: u64 = made[3..].iter().map(|d| d.entries).sum();
        assert_eq!(entries as u128, prepared_ranks);
        let again = prepare(&puzzle, &request, false, &NoProgress).unwrap();
        assert!(again.iter().all(|d| d.origin == Origin::Cached));

        let solver = Databases::new(&space, outer, Some(&cache), 1 << 20, budgets);
        let (first, _) = solver
            .tables(&puzzle, &space, unpaid, &give_up)
            .unwrap()
            .unwrap();
        assert_eq!(names(&first), names(&quick), "not paid for yet");
        let (all, read) = solver
            .tables(&puzzle, &space, unpaid + 1, &give_up)
            .unwrap()
            .unwrap();
        // The sets of three keep all the sets of two say: those are dropped.
        let mut kept = vec!["CORNERS orientations"];
        kept.extend(prepared);
        assert_eq!(names(&all), kept);
        assert!(read > 0.0);
        // They are read, never built: a solver whose cache lacks them goes without.
        let bare_dir = tempfile::tempdir().unwrap();
        let bare = TableCache::new(bare_dir.path().to_path_buf());
        let solver = Databases::new(&space, outer, Some(&bare), 1 << 20, budgets);
        let (without, _) = solver
            .tables(&puzzle, &space, far, &give_up)
            .unwrap()
            .unwrap();
        assert_eq!(names(&without), names(&quick));
        assert!(solver.take_notes().is_empty());
        // A damaged prepared file is left out, never trusted, and the next report says so.
        godsearch_testdata::damage_largest_file(cache_dir.path());
        let solver = Databases::new(&space, outer, Some(&cache), 1 << 20, budgets);
        let (damaged, _) = solver
            .tables(&puzzle, &space, far, &give_up)
            .unwrap()
            .unwrap();
        let notes = solver.take_notes();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].starts_with("left out the prepared pattern database of CORNERS slots")
                && notes[0].contains("damaged"),
            "{notes:?}"
        );
        assert!(names(&damaged)
            .iter()
            .all(|n| !notes[0].contains(n.as_str())));
        assert!(solver.take_notes().is_empty(), "said once");
        // A damaged database the solver builds itself is rebuilt, and said to be.
        godsearch_testdata::damage_largest_file(bare_dir.path());
        let solver = Databases::new(&space, outer, Some(&bare), 1 << 20, budgets);
        let (rebuilt, _) = solver
            .tables(&puzzle, &space, far, &give_up)
            .unwrap()
            .unwrap();
        assert_eq!(names(&rebuilt), names(&quick));
        let notes = solver.take_notes();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].starts_with("rebuilt the pattern database of") && notes[0].contains("damaged"),
            "{notes:?}"
        );
    }
}
