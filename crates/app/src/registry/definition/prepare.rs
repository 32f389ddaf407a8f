//! `pdb build` for a definition puzzle: every pattern database its solver reads, built ahead
//! into the cache (or found there). Those it would build on the spot (within
//! [`QUICK_DATABASE_RANKS`](super::solve::QUICK_DATABASE_RANKS)) and the prepared ones
//! (within [`PREPARED_DATABASE_RANKS`](super::solve::PREPARED_DATABASE_RANKS)), which the
//! solver reads from the cache when a search pays for them but never builds: deep positions
//! are then searched over stronger databases.

use super::file::DefinitionPuzzle;
use super::solve::{
    chosen_projections, database_budget, database_bytes, table_fits, DefinitionSolveRequest,
    Reading,
};
use crate::cache::{Origin, TableCache};
use crate::{AppError, AppResult};
use godsearch_core::{Progress, RankInt, RankedSpace};
use godsearch_enumerate::KeyState;
use godsearch_orbit::projection::Projection;
use godsearch_orbit::{OrbitSpace, SpaceError};

/// One database [`prepare`] built or found.
#[derive(Debug, Clone)]
pub struct PreparedDatabase {
    /// What it keeps, e.g. `EDGES slots 0-5 with their orientations`.
    pub what: String,
    /// Its entries, a byte each.
    pub entries: u64,
    /// Found in the cache, or built now (and saved, or why not).
    pub origin: Origin,
}

/// Builds into `request`'s cache (or finds there; rebuilds if `force`) every database a
/// solver of `puzzle` under `request` reads: the ones it builds itself (within
/// `request.database_ranks`), then the prepared ones (within `request.prepared_ranks`). An
/// error for a puzzle that solver solves without databases (by descent through a table of
/// every position, or over slots past 128-bit ranks), or a request without a cache.
pub fn prepare(
    puzzle: &DefinitionPuzzle,
    request: &DefinitionSolveRequest,
    force: bool,
    progress: &dyn Progress,
) -> AppResult<Vec<PreparedDatabase>> {
    let Some(cache) = request.cache else {
        return Err(AppError::Check(
            "prepared databases are built into a cache, and none was given".into(),
        ));
    };
    let preparation = Preparation {
        puzzle,
        request,
        cache,
        force,
        progress,
    };
    let (generators, metric) = (request.generators, request.metric);
    match puzzle.space::<u64>(generators, metric) {
        Ok(space) => preparation.prepare(&space),
        Err(AppError::OrbitSpace(SpaceError::TooLarge { .. })) => {
            match puzzle.space::<u128>(generators, metric) {
                Ok(space) => preparation.prepare(&space),
                Err(AppError::OrbitSpace(SpaceError::TooLarge { .. })) => Err(AppError::Input(
                    format!(
                        "{}: its positions are ranked in more than 128 bits, and its solver (over slots) builds the databases it reads itself",
                        puzzle.name()
                    ),
                )),
                Err(e) => Err(e),
            }
        }
        Err(e) => Err(e),
    }
}

/// What [`prepare`] was asked.
struct Preparation<'a> {
    puzzle: &'a DefinitionPuzzle,
    request: &'a DefinitionSolveRequest<'a>,
    cache: &'a TableCache,
    force: bool,
    progress: &'a dyn Progress,
}

impl Preparation<'_> {
    fn prepare<R: RankInt + KeyState>(
        &self,
        space: &OrbitSpace<R>,
    ) -> AppResult<Vec<PreparedDatabase>> {
        let (puzzle, request) = (self.puzzle, self.request);
        let (metric, memory) = (request.metric, request.memory_bytes);
        let positions = space.state_count();
        if table_fits(positions, request.descent_ranks, memory) {
            return Err(AppError::Input(format!(
                "{}: its {positions} positions are solved by descent through a table of every one, built in seconds; it reads no pattern databases",
                puzzle.name()
            )));
        }
        let quick = database_budget(memory, request.database_ranks);
        let prepared = database_budget(memory, request.prepared_ranks);
        let mut projections = Vec::new();
        for p in chosen_projections(puzzle, space, metric, &[quick, prepared])?.concat() {
            if projections.iter().all(|q: &Projection| q.spec != p.spec) {
                projections.push(p);
            }
        }
        let reading = match self.force {
            true => Reading::Rebuild,
            false => Reading::OrBuild,
        };
        projections
            .iter()
            .map(|p| {
                let cache = Some(self.cache);
                let build_memory = memory as u128;
                let made = database_bytes(
                    puzzle,
                    space,
                    metric,
                    p,
                    cache,
                    reading,
                    build_memory,
                    self.progress,
                )?;
                let (_, origin) = made.built();
                Ok(PreparedDatabase {
                    what: p.spec.describe(&puzzle.definition.orbits),
                    entries: p.state_count() as u64,
                    origin,
                })
            })
            .collect()
    }
}
