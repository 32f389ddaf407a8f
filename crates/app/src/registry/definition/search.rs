//! What the two definition solvers share ([`super::solve`] over ranked spaces,
//! [`super::slots`] over slot spaces): the request, when to give up, the search for the
//! shortest solutions, their replay and report, and the build of one pattern database.

use super::file::{DefinitionMetric, DefinitionPuzzle};
use crate::error::ida_stopped;
use crate::report::DefinitionSolution;
use crate::{AppError, AppResult};
use godsearch_core::{Heuristic, Progress, RankInt, RankedSpace, StateSpace};
use godsearch_enumerate::{table, Limits};
use godsearch_orbit::projection::{ProjectedSpace, Projection};
use godsearch_orbit::{OrbitSpace, Pattern, SpaceMove};
use godsearch_search::ida_star_deepening;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What to solve, and within what.
#[derive(Debug, Clone)]
pub struct DefinitionSolveRequest<'a> {
    /// The generators (empty: the file's own moves).
    pub generators: &'a [String],
    /// How moves are counted.
    pub metric: DefinitionMetric,
    /// Memory for the table or the databases.
    pub memory_bytes: u64,
    /// When to give up.
    pub deadline: Option<Instant>,
    /// Spaces of at most this many ranks are solved by table descent (`DESCENT_RANKS`).
    pub descent_ranks: u128,
    /// The ranks the pattern databases built on the spot may have together
    /// (`QUICK_DATABASE_RANKS`).
    pub database_ranks: u128,
    /// The ranks the prepared databases may have together (`PREPARED_DATABASE_RANKS`): those
    /// `pdb build` built, read from `cache` where it holds them, never built (0: none).
    pub prepared_ranks: u128,
    /// Solutions wanted, shortest first (1: one optimal solution; more: an alg search by
    /// IDA* over databases, even where a table of every position would fit).
    pub count: usize,
    /// A distance table file (`bfs --save`) to descend through instead of building one;
    /// refused unless it was saved for this puzzle, generators and metric.
    pub table: Option<&'a std::path::Path>,
    /// How positions are solved: chosen by size, or by half-depth search.
    pub algorithm: DefinitionAlgorithm,
    /// Where pattern databases are cached (read when valid, else built and saved); `None`:
    /// built in memory each time.
    pub cache: Option<&'a crate::cache::TableCache>,
}

/// How a definition puzzle's positions are solved, every way optimally.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DefinitionAlgorithm {
    /// Table descent where a table of every position fits, else IDA* over automatic pattern
    /// databases.
    #[default]
    Auto,
    /// Half-depth search: the positions within `depth` moves of solved held (as many levels
    /// as the memory budget holds when `None`), each start met within twice that.
    HalfDepth {
        /// The levels held.
        depth: Option<u32>,
    },
}

/// When a search gives up, with the lower bound it proved: at a deadline, or soon after a
/// cancel switch is set (IDA* looks at both every 65,536 nodes); and where the tables it
/// builds as it goes report.
#[derive(Clone, Copy, Default)]
pub struct GiveUp<'a> {
    /// The time to give up at.
    pub deadline: Option<Instant>,
    /// The switch that cancels the search.
    pub cancel: Option<&'a AtomicBool>,
    /// Where a table built during the search (the slot solver's hashed ball, grown with the
    /// bound) reports its progress; nowhere when `None`.
    pub tables: Option<&'a dyn Progress>,
}

impl GiveUp<'_> {
    /// Whether it is time to give up: the deadline passed or the cancel is set.
    pub fn now(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .cancel
                .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }
}

impl From<Option<Instant>> for GiveUp<'_> {
    fn from(deadline: Option<Instant>) -> Self {
        GiveUp {
            deadline,
            cancel: None,
            tables: None,
        }
    }
}

/// Solutions a search found, shortest first.
pub(crate) struct Found {
    /// Each as indices into the space's moves.
    pub solutions: Vec<Vec<godsearch_core::MoveIdx>>,
    /// Nodes expanded (0 for table descent).
    pub nodes: u64,
    /// Set when the search stopped before it found as many as asked: every solution not
    /// listed has at least this many moves.
    pub rest_at_least: Option<u32>,
}

impl Found {
    /// One solution found without a search (table descent, half-depth meeting).
    pub fn one(path: Vec<godsearch_core::MoveIdx>) -> Self {
        Found {
            solutions: vec![path],
            nodes: 0,
            rest_at_least: None,
        }
    }
}

/// The method a report names when the positions near solved, hashed, were the search's only
/// estimate.
pub(crate) const NEAR_METHOD: &str = "IDA* over the positions near solved, hashed";

/// A table's build during a search, as the front end sees it: its levels and tasks shown where
/// the search's tables report, stopped when the search gives up (its deadline or its cancel).
pub(crate) struct BuildProgress<'a> {
    pub give_up: &'a GiveUp<'a>,
    pub shown: &'a dyn Progress,
}

impl Progress for BuildProgress<'_> {
    fn level_started(&self, depth: u32, units: u64) {
        self.shown.level_started(depth, units);
    }

    fn advanced(&self, units: u64) {
        self.shown.advanced(units);
    }

    fn detail(&self, text: &str) {
        self.shown.detail(text);
    }

    fn cancelled(&self) -> bool {
        self.give_up.now()
    }
}

/// How solutions were found, for the report.
pub(crate) struct How {
    pub method: &'static str,
    pub databases: Vec<String>,
    pub build_seconds: f64,
    pub seconds: f64,
    /// What the tables' reads and builds had to say ([`DefinitionSolution::notes`]).
    pub notes: Vec<String>,
}

/// The `count` shortest solutions of `start` by IDA* over `heuristic_for(bound, last)` (each
/// iteration's, see [`ida_star_deepening`]; `None` gives up before it), giving up as
/// `give_up` says; `unreachable` is the error when no goal can be reached.
pub(crate) fn search<S: StateSpace, H: Heuristic<S::State>>(
    space: &S,
    heuristic_for: impl FnMut(u32, u64) -> Option<H>,
    start: S::State,
    count: usize,
    give_up: GiveUp,
    unreachable: impl FnOnce() -> AppError,
) -> AppResult<Found> {
    let found = ida_star_deepening(
        space,
        heuristic_for,
        start,
        count,
        give_up.deadline,
        give_up.cancel,
    )
    .map_err(|e| ida_stopped(e, "moves", unreachable))?;
    Ok(Found {
        solutions: found.solutions,
        nodes: found.stats.expanded,
        rest_at_least: found.stopped_at,
    })
}

/// The report of `found` for `start` (as written by the user), each solution replayed on the
/// definition's own moves first.
pub(crate) fn report(
    puzzle: &DefinitionPuzzle,
    space: &impl DefinitionSpace,
    (start, start_text): (&Pattern, &str),
    found: Found,
    how: How,
) -> AppResult<DefinitionSolution> {
    let mut written = Vec::with_capacity(found.solutions.len());
    for path in &found.solutions {
        replay(puzzle, space.space_moves(), start, path)?;
        let names: Vec<String> = path.iter().map(|&m| space.move_name(m)).collect();
        written.push(names.join(" "));
    }
    let first = &found.solutions[0];
    Ok(DefinitionSolution {
        puzzle: puzzle.name().to_string(),
        start: start_text.to_string(),
        length: first.len(),
        solution: written[0].clone(),
        optimal: true,
        method: how.method.to_string(),
        databases: how.databases,
        build_seconds: how.build_seconds,
        nodes_expanded: found.nodes,
        seconds: how.seconds,
        solutions: (written.len() > 1 || found.rest_at_least.is_some()).then_some(written),
        rest_at_least: found.rest_at_least,
        notes: how.notes,
    })
}

/// A space of a definition's moves: [`OrbitSpace`] or [`SlotSpace`](godsearch_orbit::slots::SlotSpace).
pub(crate) trait DefinitionSpace: StateSpace {
    /// Its moves, with their transformations.
    fn space_moves(&self) -> &[SpaceMove];
}

impl<R: RankInt> DefinitionSpace for OrbitSpace<R> {
    fn space_moves(&self) -> &[SpaceMove] {
        self.moves()
    }
}

impl<const N: usize> DefinitionSpace for godsearch_orbit::slots::SlotSpace<N> {
    fn space_moves(&self) -> &[SpaceMove] {
        self.moves()
    }
}

/// Checks that `path` (indices into `moves`), applied to `start` with the definition's own
/// transformations, gives the solved pattern.
pub(crate) fn replay(
    puzzle: &DefinitionPuzzle,
    moves: &[SpaceMove],
    start: &Pattern,
    path: &[godsearch_core::MoveIdx],
) -> AppResult<()> {
    let orbits = &puzzle.definition.orbits;
    let end = path.iter().fold(start.clone(), |p, &m| {
        moves[m as usize].transformation.apply(&p, orbits)
    });
    if end != puzzle.definition.solved {
        return Err(AppError::Check(format!(
            "the solution found for {} does not solve the position when replayed",
            puzzle.name()
        )));
    }
    Ok(())
}

/// The exact distances of `projection`'s positions (a projection of `full`, a space over
/// `definition`), a byte each (255: unreached), built in at most `memory_bytes`.
pub(crate) fn database<R: RankInt>(
    projection: &Projection,
    full: &OrbitSpace<R>,
    definition: &godsearch_orbit::Definition,
    memory_bytes: u128,
    progress: &dyn Progress,
) -> AppResult<Vec<u8>> {
    progress.detail(&format!(
        "building the pattern database of {}",
        projection.spec.describe(&definition.orbits)
    ));
    let limits = Limits {
        max_depth: None,
        memory_bytes: memory_bytes.min(u64::MAX as u128) as u64,
        antipode_cap: 0,
        count_last: false,
    };
    match projection.space(full)? {
        ProjectedSpace::Orbits(space) => distances(space, &limits, progress),
        ProjectedSpace::Pieces(space) => distances(&space, &limits, progress),
    }
}

/// Every position's distance in `space`, a byte each.
fn distances<P: RankedSpace>(
    space: &P,
    limits: &Limits,
    progress: &dyn Progress,
) -> AppResult<Vec<u8>> {
    let made = table::enumerate_exact(space, limits, progress)?;
    crate::bfs::table_complete(made.enumeration.stop)?;
    Ok(made.table.into_bytes())
}
