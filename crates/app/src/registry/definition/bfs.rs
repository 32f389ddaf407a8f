//! God's algorithm on a definition puzzle: over its ranks (64 or 128 bits) by the table or
//! frontier engines, over classes under the symmetries its moves have where the frontier
//! engines run (in keys of 128, 256 or 512 bits), and past those over whole states.

use super::file::{DefinitionMetric, DefinitionPuzzle};
use super::tables::{self, ORBIT_RANKING};
use crate::bfs::{class_run, engine_for, ranked, report, BfsRequest, EngineChoice, RankedRun};
use crate::report::BfsReport;
use crate::{AppError, AppResult};
use godsearch_core::{Progress, RankInt};
use godsearch_enumerate::disk::codec::KeyState;
use godsearch_enumerate::{state_levels, Engine};
use godsearch_orbit::classes::{ClassKey, ClassSpace, Key256, Key512, MAX_CLASS_SLOTS};
use godsearch_orbit::slots::{Slots, MAX_SLOTS, MAX_WIDE_SLOTS};
use godsearch_orbit::{OrbitSpace, SpaceError as OrbitSpaceError};
use std::time::Instant;

/// A definition file's puzzle over `generators` in `metric`, from solved: the table engine when
/// a table of its ranks fits (ranks a constraint leaves unused take room but are never
/// reached, so counts stay exact), the frontier engines otherwise (over classes under the
/// symmetries of the moves where they have some, unless `symmetry` is 1); past 128-bit ranks,
/// on disk or distributed, classes (or with `symmetry` 1 positions, as classes of one) in
/// 256- or 512-bit keys by the frontier engines, and otherwise level by level in memory
/// ([`state_levels`], over classes or whole states); antipodes are
/// written as scrambles (the inverse of an optimal solution by table descent) when the table
/// engine ran. `symmetry`: the job's «symmetry».
pub fn definition(
    puzzle: &DefinitionPuzzle,
    generators: &[String],
    metric: DefinitionMetric,
    symmetry: Option<u32>,
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<BfsReport> {
    let ranks = match puzzle.space::<u64>(generators, metric) {
        Ok(space) => Ranks::Narrow(space),
        Err(AppError::OrbitSpace(OrbitSpaceError::TooLarge { .. })) => {
            match puzzle.space::<u128>(generators, metric) {
                Ok(space) => Ranks::Wide(space),
                Err(AppError::OrbitSpace(OrbitSpaceError::TooLarge { .. })) => Ranks::None,
                Err(e) => return Err(e),
            }
        }
        Err(e) => return Err(e),
    };
    let run = (generators, metric, symmetry);
    match ranks {
        Ranks::Narrow(space) => ranked_or_classes(puzzle, space, run, request, progress),
        Ranks::Wide(space) => ranked_or_classes(puzzle, space, run, request, progress),
        Ranks::None => {
            let table = request.save.is_some() || request.engine == EngineChoice::Table;
            if table {
                // No ranks, no table, whatever the keys: refused as such.
                return definition_slots::<Slots>(
                    puzzle,
                    (generators, metric),
                    None,
                    request,
                    progress,
                );
            }
            match puzzle.slot_count() <= MAX_SLOTS {
                true => beyond_ranks::<MAX_SLOTS>(puzzle, run, request, progress),
                false => beyond_ranks::<MAX_WIDE_SLOTS>(puzzle, run, request, progress),
            }
        }
    }
}

/// A definition puzzle past 128-bit ranks (see [`definition`]): classes in 256-bit keys where
/// they fit them, else in 512-bit ones (the 5x5x5's), else in whole keys of `N` bytes, or whole
/// positions.
fn beyond_ranks<const N: usize>(
    puzzle: &DefinitionPuzzle,
    (generators, metric, symmetry): (&[String], DefinitionMetric, Option<u32>),
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<BfsReport> {
    let classes = classes_wanted::<Slots<N>>(puzzle, generators, metric, symmetry, true)?;
    let keyed_whole = symmetry == Some(1) && (request.disk.is_some() || request.cluster.is_some());
    match classes {
        Some(c) if c.fits_key::<Key256>() => {
            let compact = c.with_key::<Key256>().expect("it fits");
            wide_classes(puzzle, compact, (generators, metric), request, progress)
        }
        Some(c) if c.fits_key::<Key512>() => {
            let compact = c.with_key::<Key512>().expect("it fits");
            wide_classes(puzzle, compact, (generators, metric), request, progress)
        }
        None if keyed_whole => whole_keyed(puzzle, (generators, metric), request, progress),
        classes => definition_slots(puzzle, (generators, metric), classes, request, progress),
    }
}

/// Whole positions past 128-bit ranks (`symmetry` 1) on disk or distributed: each a class of
/// one in a 256-bit key ([`ClassSpace::whole`]), or a 512-bit one where it needs that, so the
/// counts are of positions; where they fit neither, refused as [`definition_slots`] refuses.
fn whole_keyed(
    puzzle: &DefinitionPuzzle,
    run: (&[String], DefinitionMetric),
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<BfsReport> {
    let (generators, metric) = run;
    if let Some(space) = puzzle.whole_keys::<Key256>(generators, metric)? {
        return positions_keyed(puzzle, &space, metric, request, progress);
    }
    match puzzle.whole_keys::<Key512>(generators, metric)? {
        Some(space) => positions_keyed(puzzle, &space, metric, request, progress),
        None => definition_slots::<Slots>(puzzle, run, None, request, progress),
    }
}

/// [`definition_classes`] over classes of one, reported as positions.
fn positions_keyed<K: ClassKey + KeyState>(
    puzzle: &DefinitionPuzzle,
    space: &ClassSpace<K>,
    metric: DefinitionMetric,
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<BfsReport> {
    let mut report = definition_classes(puzzle, space, metric, request, progress)?;
    report.classes = None;
    report.class_group = None;
    Ok(report)
}

/// A ranked definition puzzle over its ranks, or over classes where [`classes_wanted`] says:
/// in 128-bit keys where they fit (the 3x3x3's), else in 256-bit ones (the 4x4x4's squares
/// set, whose ranks fit 64 bits but whose class keys take 231), else over ranks.
fn ranked_or_classes<R: RankInt + KeyState>(
    puzzle: &DefinitionPuzzle,
    space: OrbitSpace<R>,
    (generators, metric, symmetry): (&[String], DefinitionMetric, Option<u32>),
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<BfsReport> {
    let frontier = engine_for(&space, request) == Engine::Frontier;
    match classes_wanted::<Key256>(puzzle, generators, metric, symmetry, frontier)? {
        Some(classes) if classes.fits_key::<u128>() => {
            let narrow = classes.with_key::<u128>().expect("it fits");
            definition_classes(puzzle, &narrow, metric, request, progress)
        }
        Some(classes) => wide_classes(puzzle, classes, (generators, metric), request, progress),
        None => enumerate_definition(puzzle, space, metric, request, progress),
    }
}

/// Classes in 256- or 512-bit keys: in memory, level by level ([`definition_slots`]: the
/// frontier engine counts a last level by looking up each new state's neighbours in the newest
/// level, 12 times as slow as counting it in hash parts with 4x4x4 keys); anything else asked
/// (on disk, distributed, and the refusal of «save» and the table engine) as 128-bit ones are.
fn wide_classes<K: ClassKey + KeyState>(
    puzzle: &DefinitionPuzzle,
    classes: ClassSpace<K>,
    run: (&[String], DefinitionMetric),
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<BfsReport> {
    let in_memory = request.disk.is_none()
        && request.cluster.is_none()
        && request.save.is_none()
        && request.engine != EngineChoice::Table;
    match in_memory {
        true => definition_slots(puzzle, run, Some(classes), request, progress),
        false => definition_classes(puzzle, &classes, run.1, request, progress),
    }
}

/// A definition puzzle's ranked space, by the rank type its positions fit.
enum Ranks {
    Narrow(OrbitSpace<u64>),
    Wide(OrbitSpace<u128>),
    /// More positions than 128-bit ranks number.
    None,
}

/// The classes to enumerate, if any: with «symmetry» left out, wherever the frontier engines
/// run (`frontier`) and the moves have symmetries whose class keys fit `K` (the table
/// engine, where its table fits, is faster than classes); with «symmetry» 1, never; with the
/// number of symmetries found, always (and [`definition_classes`] refuses the table engine and
/// «save»). Any other number is refused, naming the one found.
fn classes_wanted<K: ClassKey>(
    puzzle: &DefinitionPuzzle,
    generators: &[String],
    metric: DefinitionMetric,
    symmetry: Option<u32>,
    frontier: bool,
) -> AppResult<Option<ClassSpace<K>>> {
    if symmetry == Some(1) || (symmetry.is_none() && !frontier) {
        return Ok(None);
    }
    let classes = puzzle.class_space(generators, metric)?;
    let Some(n) = symmetry else {
        return Ok(classes);
    };
    let found = classes.as_ref().map_or(1, |c| c.symmetry_count());
    if found as u32 == n {
        return Ok(classes);
    }
    let name = puzzle.name();
    let symmetries = puzzle.symmetry_count(generators)?;
    Err(AppError::Input(match classes {
        None if symmetries > 1 => {
            let slots = puzzle.slot_count();
            let why = match slots > MAX_CLASS_SLOTS {
                true => format!("class keys hold at most {MAX_CLASS_SLOTS} slots, and it has {slots}"),
                false => "its class keys would not fit 512 bits".into(),
            };
            format!(
                "«symmetry» {n}: {name} has {symmetries} symmetries over these moves, but its classes are not keyed ({why}): give 1, its whole positions"
            )
        }
        _ => format!(
            "«symmetry» {n}: {name} over these moves has {found} symmetr{} whose classes godsearch keys (give {found}, or 1 for none)",
            if found == 1 { "y" } else { "ies" }
        ),
    }))
}

/// God's algorithm on a definition puzzle's classes under its symmetries, in keys `K` (128, 256
/// or 512 bits): the frontier engines (in memory, on disk or distributed), exact position and
/// class counts.
fn definition_classes<K: ClassKey + KeyState>(
    puzzle: &DefinitionPuzzle,
    space: &ClassSpace<K>,
    metric: DefinitionMetric,
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<BfsReport> {
    if request.save.is_some() || request.engine == EngineChoice::Table {
        return Err(AppError::Input(format!(
            "{} is enumerated as classes under its {} symmetries, by the frontier engines: leave out «save» and «engine» table, or give «symmetry» 1",
            puzzle.name(),
            space.symmetry_count()
        )));
    }
    crate::bfs::check_count_last(request)?;
    crate::bfs::check_disk(request)?;
    let run_name = format!(
        "definition {} generators {} metric {} classes of {} key {}",
        puzzle.name(),
        space.generators().join(","),
        metric.name(),
        space.symmetry_count(),
        space.key_format()
    );
    class_run(
        space,
        (puzzle.name().to_string(), metric.name()),
        (&run_name, space.symmetry_count() as u64),
        Instant::now(),
        request,
        progress,
    )
}

/// God's algorithm on a definition puzzle in memory, level by level ([`state_levels`]): over
/// whole states past 128-bit ranks, or over `classes` (one key a class under the symmetries of
/// the moves in 256- or 512-bit keys, as the megaminx's 120, the 4x4x4's 96 and the 5x5x5's
/// 96, or in whole keys past those): exact level counts to the depth asked or the memory
/// budget, the last one counted without being stored with `--count-last`. No table to save;
/// disk and distributed runs take integer keys, so they run over 256- or 512-bit keys instead
/// ([`definition_classes`], [`whole_keyed`]), and are refused here.
fn definition_slots<K: ClassKey>(
    puzzle: &DefinitionPuzzle,
    (generators, metric): (&[String], DefinitionMetric),
    classes: Option<ClassSpace<K>>,
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<BfsReport> {
    let refused = [
        (request.save.is_some(), "«save»"),
        (request.engine == EngineChoice::Table, "«engine» table"),
        (request.disk.is_some(), "«workdir»"),
        (request.cluster.is_some(), "a distributed run"),
    ];
    if let Some((_, what)) = refused.iter().find(|(given, _)| *given) {
        return Err(AppError::Input(format!(
            "{} has more positions than 128-bit ranks number: it has no table, and runs on disk or distributed only where its positions or classes fit 512-bit keys (as the 4x4x4's, the megaminx's and the 5x5x5's do), so {what} is refused",
            puzzle.name()
        )));
    }
    let Some(classes) = classes else {
        return match puzzle.slot_count() <= MAX_SLOTS {
            true => whole_states::<MAX_SLOTS>(puzzle, (generators, metric), request, progress),
            false => {
                whole_states::<MAX_WIDE_SLOTS>(puzzle, (generators, metric), request, progress)
            }
        };
    };
    let started = Instant::now();
    let enumeration = state_levels::enumerate(&classes, &request.limits, progress);
    let bytes = std::mem::size_of::<K>() as f64;
    // Classes past 128-bit ranks are keyed in 256 or 512 bits where their fields fit, else
    // whole.
    let engine = match K::KIND {
        Key256::KIND => "frontier of symmetry classes, 256-bit keys",
        Key512::KIND => "frontier of symmetry classes, 512-bit keys",
        _ => "frontier of symmetry classes, whole states",
    };
    let mut report = report(
        puzzle.name().to_string(),
        "solved".into(),
        metric.name(),
        (engine, bytes),
        &enumeration,
        None,
        started.elapsed().as_secs_f64(),
    );
    report.classes = Some(enumeration.classes.clone());
    report.class_group = Some(classes.symmetry_count() as u64);
    Ok(report)
}

/// [`definition_slots`] over whole states of `N` bytes (a slot a byte): [`MAX_SLOTS`], or
/// [`MAX_WIDE_SLOTS`] for puzzles with more slots.
fn whole_states<const N: usize>(
    puzzle: &DefinitionPuzzle,
    (generators, metric): (&[String], DefinitionMetric),
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<BfsReport> {
    let started = Instant::now();
    let bytes = std::mem::size_of::<Slots<N>>() as f64;
    let space = puzzle.slot_space_of::<N>(generators, metric)?;
    let enumeration = state_levels::enumerate(&space, &request.limits, progress);
    Ok(report(
        puzzle.name().to_string(),
        "solved".into(),
        metric.name(),
        ("frontier of whole states", bytes),
        &enumeration,
        None,
        started.elapsed().as_secs_f64(),
    ))
}

fn enumerate_definition<R: RankInt + KeyState>(
    puzzle: &DefinitionPuzzle,
    space: OrbitSpace<R>,
    metric: DefinitionMetric,
    request: &BfsRequest,
    progress: &dyn Progress,
) -> AppResult<BfsReport> {
    let run = RankedRun {
        puzzle: puzzle.name().to_string(),
        metric: metric.name(),
        run_name: format!(
            "definition {} generators {} metric {} ranking {ORBIT_RANKING}",
            puzzle.name(),
            space.generators().join(","),
            metric.name()
        ),
        what: "definition puzzles",
        identity: Some(tables::definition_identity(
            puzzle.name(),
            &space,
            metric.name(),
        )),
    };
    ranked(&space, &run, request, progress)
}
