//! God's algorithm on sliding-tile boards: from any goal, by the table engine where a table of
//! every board fits, else by the frontier engines (in memory, on disk or distributed), each
//! state carrying its moves back.

use super::tables::{self, AnySpace};
use crate::bfs::{
    add_run_figures, check_count_last, check_disk, check_save_engine, engine_for, frontier_run,
    report, table_entry_bytes, BfsRequest, Finish, FrontierRun,
};
use crate::report::BfsReport;
use crate::units::format_count;
use crate::{AppError, AppResult};
use godsearch_core::{Progress, RankInt, RankedSpace};
use godsearch_enumerate::back_moves::BackMoves;
use godsearch_enumerate::disk::codec::KeyState;
use godsearch_enumerate::disk::{run_in, worker_folder};
use godsearch_enumerate::{table, Engine, Enumeration, Stop};
use godsearch_puzzles::tiles::{Board, TileSpace, TILE_RANKING};
use godsearch_tables::TwoBitTable;
use std::time::Instant;

/// The frontier engine over `space` with each state's moves back ([`BackMoves`]: a third
/// fewer candidates, and no earlier level held or read to remove known states), levels on
/// disk under a run name that says so; a distributed run's workers own states by a hash of
/// their positions' keys. A run resumed from a folder of plain states (made before the moves
/// back, in one process or by a distributed run's workers) goes on as one.
fn tiles_frontier_run<R: RankInt + KeyState>(
    space: &TileSpace<R>,
    run: &str,
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<FrontierRun<R>> {
    // A folder holding a run of plain states (made before the moves back) goes on as one.
    // (A distributed run's workers name theirs `{run}; N workers, owner ...`.)
    let resumes_plain = request.disk.is_some_and(|d| {
        let alone = run_in(d.workdir).is_some_and(|found| found == run);
        let distributed = run_in(&worker_folder(d.workdir, 0))
            .is_some_and(|found| found.strip_prefix(run).is_some_and(|r| r.starts_with(';')));
        d.resume && (alone || distributed)
    });
    let back_moves = match resumes_plain {
        false => BackMoves::ranked(space.clone()),
        true => None,
    };
    let Some(back_moves) = back_moves else {
        return frontier_run(space, run, request, progress);
    };
    let run = format!("{run} {BACK_MOVES_RUN}");
    // (`frontier_run` keeps the last level in the enumeration alone.)
    let (mut enumeration, finish) = frontier_run(&back_moves, &run, request, progress)?;
    if let Some(last) = enumeration.last_level.as_mut() {
        last.iter_mut().for_each(|s| *s = back_moves.position(*s));
    }
    Ok((enumeration, finish))
}

/// What a run of plain `space` states on disk is called in its manifest.
fn tiles_run_name<R: RankInt>(space: &TileSpace<R>) -> String {
    format!(
        "{} ranking {TILE_RANKING}",
        tables::tile_identity(space.goal())
    )
}

/// Added to the run name of levels on disk whose states carry their moves back, so that a run
/// folder of plain states is never resumed as one of these (or the other way round).
const BACK_MOVES_RUN: &str = "with moves back";

/// The sliding-tile board of `goal`'s size, enumerated from `goal`.
pub fn board(goal: &Board, request: &BfsRequest, progress: &dyn Progress) -> AppResult<BfsReport> {
    match AnySpace::new(goal)? {
        AnySpace::Narrow(space) => enumerate_tiles(&space, request, progress),
        AnySpace::Wide(space) => enumerate_tiles(&space, request, progress),
    }
}

fn enumerate_tiles<R: RankInt + KeyState>(
    space: &TileSpace<R>,
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<BfsReport> {
    let limits = &request.limits;
    check_count_last(request)?;
    check_disk(request)?;
    let engine = engine_for(space, request);
    let table_of = format!(
        "a {} table of {} positions",
        space.shape(),
        format_count(space.state_count())
    );
    check_save_engine(request, engine, space.state_count(), &table_of)?;
    let started = Instant::now();
    let run_name = tiles_run_name(space);
    let (enumeration, built, disk): (Enumeration<R>, Option<TwoBitTable>, _) = match engine {
        Engine::Table => {
            let built = table::enumerate(space, limits, progress).map_err(|e| {
                AppError::Input(format!(
                    "{e}; use «engine» frontier with «max_depth», or raise «memory»"
                ))
            })?;
            (built.enumeration, Some(built.table), Finish::Memory)
        }
        Engine::Frontier => {
            let (e, disk) = tiles_frontier_run(space, &run_name, request, progress)?;
            (e, None, disk)
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    if let (Some(path), Some(t)) = (request.save, &built) {
        tables::save_tile_table(path, space.goal(), t, &enumeration.levels)?;
    }
    let complete = enumeration.stop == Stop::Complete;
    let antipodes = enumeration
        .last_level
        .as_ref()
        .filter(|_| complete)
        .map(|ranks| {
            let mut boards: Vec<Board> = ranks.iter().map(|&r| space.unrank(r)).collect();
            boards.sort_by(|a, b| a.cells().cmp(b.cells()));
            boards.iter().map(Board::to_string).collect()
        });
    let (engine, bytes_per_state) = match engine {
        Engine::Table => ("table", table_entry_bytes(space.state_count())),
        Engine::Frontier => ("frontier", std::mem::size_of::<R>() as f64),
    };
    let mut report = report(
        space.shape().to_string(),
        space.goal().to_string(),
        "tile moves",
        (engine, bytes_per_state),
        &enumeration,
        antipodes,
        seconds,
    );
    add_run_figures(&mut report, disk);
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::{DiskRequest, EngineChoice, Limits};
    use godsearch_core::NoProgress;
    use godsearch_puzzles::tiles::Shape;
    use std::path::Path;

    fn request(dir: &Path, resume: bool, max_depth: u32) -> BfsRequest<'_> {
        BfsRequest {
            limits: Limits {
                max_depth: Some(max_depth),
                memory_bytes: 1 << 30,
                antipode_cap: 0,
                count_last: false,
            },
            engine: EngineChoice::Auto,
            save: None,
            disk: Some(DiskRequest {
                workdir: dir,
                resume,
                keep_levels: false,
                bucket_states: 2_000,
                disk_bytes: None,
            }),
            cluster: None,
        }
    }

    /// A folder of plain states, as runs made before the moves back left it, is resumed as one;
    /// a new run carries the moves back, under its own name.
    #[test]
    fn a_run_of_plain_states_on_disk_resumes_as_one() {
        let goal = Board::goal(Shape::new(4, 3).unwrap());
        let space = TileSpace::<u64>::new(goal.clone()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let plain = tiles_run_name(&space);
        frontier_run(&space, &plain, &request(dir.path(), false, 12), &NoProgress).unwrap();
        assert_eq!(run_in(dir.path()), Some(plain.clone()));
        let report = board(&goal, &request(dir.path(), true, 16), &NoProgress).unwrap();
        assert_eq!(report.resumed_from, Some(12));
        assert_eq!(
            report.levels[..],
            godsearch_testdata::levels("sliding-3x4.txt")[..=16]
        );
        assert_eq!(run_in(dir.path()), Some(plain.clone()));

        let fresh = tempfile::tempdir().unwrap();
        let report = board(&goal, &request(fresh.path(), false, 16), &NoProgress).unwrap();
        assert_eq!(
            report.levels[..],
            godsearch_testdata::levels("sliding-3x4.txt")[..=16]
        );
        assert_eq!(
            run_in(fresh.path()),
            Some(format!("{plain} {BACK_MOVES_RUN}"))
        );
    }

    /// The same for a distributed run, whose workers' folders hold the runs: plain states go on
    /// as plain, a new run carries the moves back.
    #[cfg(feature = "distributed")]
    #[test]
    fn a_distributed_run_of_plain_states_resumes_as_one() {
        use crate::bfs::ClusterRequest;
        let goal = Board::goal(Shape::new(4, 3).unwrap());
        let space = TileSpace::<u64>::new(goal.clone()).unwrap();
        let plain = tiles_run_name(&space);
        let distributed = |dir, resume, max_depth| BfsRequest {
            cluster: Some(ClusterRequest {
                workers: 2,
                process: 0,
                addresses: &[],
                patience: std::time::Duration::from_secs(10),
            }),
            ..request(dir, resume, max_depth)
        };
        let expected = godsearch_testdata::levels("sliding-3x4.txt");
        let dir = tempfile::tempdir().unwrap();
        let worker = |w| run_in(&worker_folder(dir.path(), w));
        frontier_run(
            &space,
            &plain,
            &distributed(dir.path(), false, 12),
            &NoProgress,
        )
        .unwrap();
        let plain_worker = worker(1).unwrap();
        assert!(
            plain_worker.starts_with(&format!("{plain};")),
            "{plain_worker}"
        );
        let report = board(&goal, &distributed(dir.path(), true, 16), &NoProgress).unwrap();
        assert_eq!(report.levels[..], expected[..=16]);
        assert_eq!(worker(1), Some(plain_worker));

        let fresh = tempfile::tempdir().unwrap();
        let report = board(&goal, &distributed(fresh.path(), false, 16), &NoProgress).unwrap();
        assert_eq!(report.levels[..], expected[..=16]);
        let new_worker = run_in(&worker_folder(fresh.path(), 1)).unwrap();
        let with_moves_back = format!("{plain} {BACK_MOVES_RUN};");
        assert!(new_worker.starts_with(&with_moves_back), "{new_worker}");
    }
}
