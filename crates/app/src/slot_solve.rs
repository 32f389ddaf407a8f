//! Solving positions of definition puzzles whose ranks pass 128 bits (the megaminx, the
//! 4x4x4): IDA* over their [`SlotSpace`] with pattern databases of projections chosen within
//! the budget (each orbit whole where it fits; else its orientations and its arrangement, or
//! the arrangement of subsets of its pieces); the solution is replayed before it is returned.

use crate::definition_search::{database, report, search, DefinitionSolveRequest, GiveUp, How};
use crate::definitions::{DefinitionMetric, DefinitionPuzzle};
use crate::report::DefinitionSolution;
use crate::{AppError, AppResult};
use godsearch_core::{Progress, RankedSpace};
use godsearch_orbit::group::reaches;
use godsearch_orbit::projection::{Keep, Projection, ProjectionSpec, SlotDatabases};
use godsearch_orbit::slots::{SlotError, SlotSpace};
use godsearch_orbit::{Pattern, SpaceError};
use std::time::Instant;

/// The most ranks of all a slot space's databases together: small ones build in a fraction of
/// a second and solve scrambles of 6 to 8 moves fastest (the 4x4x4's 8-move position: 0.36 s
/// of builds and 2.5 s of search, against 3.5 s and 0.65 s with 100 M ranks; its 6-move one
/// 0.37 s against 3.6 s).
pub const SLOT_DATABASE_RANKS: u128 = 1 << 20;

/// A slot space with its pattern databases built once.
pub struct SlotSolver {
    puzzle: DefinitionPuzzle,
    space: SlotSpace,
    tables: Vec<(Projection, Vec<u8>)>,
    build_seconds: f64,
    count: usize,
}

impl SlotSolver {
    /// The space of `puzzle` under `request`, and the databases that fit its budget.
    pub fn new(
        puzzle: &DefinitionPuzzle,
        request: &DefinitionSolveRequest,
        progress: &dyn Progress,
    ) -> AppResult<Self> {
        let built = Instant::now();
        let quarter = request.metric == DefinitionMetric::Quarter;
        let space = SlotSpace::new(&puzzle.definition, request.generators, quarter).map_err(
            |e| match e {
                SlotError::Space(e) => AppError::OrbitSpace(e),
                other => AppError::Input(format!("{}: {other}", puzzle.name())),
            },
        )?;
        let budget = (request.memory_bytes as u128)
            .min(request.database_ranks)
            .min(SLOT_DATABASE_RANKS);
        let tables = databases(puzzle, &space, quarter, budget, progress)?;
        Ok(Self {
            puzzle: puzzle.clone(),
            space,
            tables,
            build_seconds: built.elapsed().as_secs_f64(),
            count: request.count,
        })
    }

    /// Solves `start` optimally (written `start_text` in the report; the request's `count`
    /// shortest solutions), giving up as `give_up` says.
    pub fn solve(
        &self,
        start: &Pattern,
        start_text: &str,
        give_up: GiveUp,
    ) -> AppResult<DefinitionSolution> {
        let (puzzle, space) = (&self.puzzle, &self.space);
        // A search of a space this large never runs out of positions: a position the moves
        // cannot reach is refused here, by the group, not searched for until the deadline.
        let d = &puzzle.definition;
        let unreachable = || {
            AppError::Input(format!(
                "{}: the generators {} cannot reach this position from solved",
                puzzle.name(),
                space.generators().join(",")
            ))
        };
        let generators = space.generator_transformations();
        if let Ok(Some(false)) = reaches(&generators, &d.orbits, &d.solved, start) {
            return Err(unreachable());
        }
        let started = Instant::now();
        let heuristic = SlotDatabases::new(&self.tables);
        let start_slots = space.slots_of(start);
        let found = search(
            space,
            &heuristic,
            start_slots,
            self.count,
            give_up,
            unreachable,
        )?;
        let how = How {
            method: "IDA* over pattern databases",
            databases: self
                .tables
                .iter()
                .map(|(p, _)| p.spec.describe(&d.orbits))
                .collect(),
            build_seconds: self.build_seconds,
            seconds: started.elapsed().as_secs_f64(),
        };
        report(puzzle, space, (start, start_text), found, how)
    }

    /// The space's move names, for sequences the solver gives.
    pub fn space(&self) -> &SlotSpace {
        &self.space
    }
}

/// The projection `spec`, if it changes under the moves and has at most `largest` ranks.
fn fitting(
    puzzle: &DefinitionPuzzle,
    space: &SlotSpace,
    spec: ProjectionSpec,
    quarter: bool,
    largest: u128,
) -> AppResult<Option<Projection>> {
    match Projection::of_slots(space, &puzzle.definition, spec, quarter, largest) {
        Ok(Some(p)) => Ok(Some(p)),
        Ok(None) | Err(SpaceError::TooLarge { .. } | SpaceError::OverBudget { .. }) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The projections worth a database within `largest` ranks in all (a byte each), an equal
/// share an orbit: each orbit whole where that fits; else its orientations where they fit and
/// its arrangement, or where that does not fit, the arrangements of its pieces in groups as
/// large as the share allows. Admissible together (their maximum).
pub fn databases(
    puzzle: &DefinitionPuzzle,
    space: &SlotSpace,
    quarter: bool,
    largest: u128,
    progress: &dyn Progress,
) -> AppResult<Vec<(Projection, Vec<u8>)>> {
    let definition = &puzzle.definition;
    let orbit_count = definition.orbits.len();
    let share = largest / orbit_count.max(1) as u128;
    let mut chosen: Vec<Projection> = Vec::new();
    for o in 0..orbit_count {
        let single = |keep| ProjectionSpec {
            orbits: vec![(o, keep)],
        };
        if let Some(p) = fitting(puzzle, space, single(Keep::Whole), quarter, share)? {
            chosen.push(p);
            continue;
        }
        let mut left = share;
        if definition.orbits[o].orientations > 1 {
            if let Some(p) = fitting(puzzle, space, single(Keep::Orientations), quarter, left)? {
                left -= p.space.state_count();
                chosen.push(p);
            }
        }
        if let Some(p) = fitting(puzzle, space, single(Keep::Arrangement), quarter, left)? {
            chosen.push(p);
            continue;
        }
        // Groups of the orbit's piece numbers, as large as fit the share together and keep
        // their move tables (an untabled arrangement, the 4x4x4's wings five at a time, takes
        // minutes to build instead of a second).
        let mut numbers: Vec<u8> = definition.solved.orbits[o].pieces.clone();
        numbers.sort_unstable();
        numbers.dedup();
        if numbers.iter().any(|&n| n >= 64) {
            continue;
        }
        for size in (1..numbers.len()).rev() {
            let mut groups = Vec::new();
            // An equal part of the share a group (the last may be smaller), so that a size
            // too large is refused at its first group, before any table is built.
            let each = left / numbers.len().div_ceil(size) as u128;
            for group in numbers.chunks(size) {
                let mask = group.iter().fold(0u64, |m, &n| m | 1 << n);
                match fitting(puzzle, space, single(Keep::Subset(mask)), quarter, each)? {
                    Some(p) if p.space.fully_tabled() => {
                        groups.push(p);
                    }
                    _ => {
                        groups.clear();
                        break;
                    }
                }
            }
            if !groups.is_empty() {
                chosen.extend(groups);
                break;
            }
        }
    }
    chosen
        .into_iter()
        .map(|p| {
            let table = database(&p, definition, largest, progress)?;
            Ok((p, table))
        })
        .collect()
}
