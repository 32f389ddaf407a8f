//! Counting one level more than is stored (Bryan's method, `Limits::count_last`): the counted
//! level equals the published count, for tiles, the 2x2x2 and the 3x3x3's symmetry classes,
//! whether the run stops at a depth or at its memory limit.

use godsearch_core::StateSpace;
use godsearch_enumerate::back_moves::BackMoves;
use godsearch_enumerate::{frontier, KeyState, Limits, NoProgress, Stop};
use godsearch_puzzles::cube::{Cube2Space, Cube3Classes, Metric, Reduction};
use godsearch_puzzles::tiles::{Board, Shape, TileSpace};
use godsearch_testdata::{column, levels};

const GIB: u64 = 1 << 30;

fn counting_to(depth: u32) -> Limits {
    Limits {
        max_depth: Some(depth),
        memory_bytes: 8 * GIB,
        antipode_cap: 10,
        count_last: true,
    }
}

fn tiles(w: usize, h: usize) -> TileSpace<u64> {
    TileSpace::new(Board::goal(Shape::new(w, h).unwrap())).unwrap()
}

/// Runs to every depth in `depths` counting the last level, and compares every level with
/// `expected` (positions) and `expected_classes` where given.
fn check<P: StateSpace>(
    space: &P,
    depths: impl IntoIterator<Item = u32>,
    expected: &[u64],
    expected_classes: Option<&[u64]>,
) where
    P::State: KeyState,
{
    for depth in depths {
        let e = frontier::enumerate(space, &counting_to(depth), &NoProgress);
        let d = depth as usize;
        assert_eq!(e.stop, Stop::MaxDepth(depth), "to depth {depth}");
        assert!(e.last_counted_only, "to depth {depth}");
        assert!(
            e.last_level.is_none(),
            "a counted level has no positions to show"
        );
        assert_eq!(e.levels[..], expected[..=d], "to depth {depth}");
        if let Some(classes) = expected_classes {
            assert_eq!(e.classes[..], classes[..=d], "classes to depth {depth}");
        }
    }
}

#[test]
fn eight_puzzle_every_level_counted_without_storing_it() {
    let expected = levels("sliding-3x3.txt");
    check(&tiles(3, 3), 1..=31, &expected, None);
    // Past the diameter there is nothing to count: the run is complete.
    let e = frontier::enumerate(&tiles(3, 3), &counting_to(32), &NoProgress);
    assert_eq!(e.stop, Stop::Complete);
    assert!(!e.last_counted_only);
    assert_eq!(e.levels, expected);
}

#[test]
fn fifteen_puzzle_level_24_counted() {
    let expected = levels("sliding-4x4.txt");
    check(&tiles(4, 4), [1, 2, 13, 24], &expected, None);
}

#[test]
fn three_by_four_levels_counted() {
    let expected = levels("sliding-3x4.txt");
    check(&tiles(4, 3), [5, 20, 30], &expected, None);
}

#[test]
fn the_level_that_does_not_fit_is_counted() {
    // 4x4 levels 0..=21 hold a few million positions; a budget that stops the stored run at
    // level 20 or so still counts that level exactly.
    let expected = levels("sliding-4x4.txt");
    let budget = 8 * 3_000_000;
    let limits = Limits {
        max_depth: None,
        memory_bytes: budget,
        antipode_cap: 0,
        count_last: true,
    };
    let e = frontier::enumerate(&tiles(4, 4), &limits, &NoProgress);
    let Stop::Memory { depth, .. } = e.stop else {
        panic!("expected a memory stop, got {:?}", e.stop);
    };
    assert!(e.last_counted_only);
    assert_eq!(e.levels.len(), depth as usize + 1);
    assert_eq!(e.levels[..], expected[..=depth as usize]);
    let stored_only = frontier::enumerate(
        &tiles(4, 4),
        &Limits {
            count_last: false,
            ..limits
        },
        &NoProgress,
    );
    assert_eq!(stored_only.levels.len(), depth as usize);
}

#[test]
fn pocket_cube_every_level_counted_in_both_metrics() {
    for (metric, file) in [
        (Metric::Htm, "cube2x2x2-htm.txt"),
        (Metric::Qtm, "cube2x2x2-qtm.txt"),
    ] {
        let expected = levels(file);
        let diameter = expected.len() as u32 - 1;
        check(&Cube2Space::new(metric), 1..=diameter, &expected, None);
    }
}

#[test]
fn cube_classes_counted_as_positions_and_classes() {
    for (metric, file, depth) in [
        (Metric::Htm, "cube3x3x3-htm.txt", 7),
        (Metric::Qtm, "cube3x3x3-qtm.txt", 8),
    ] {
        let space = Cube3Classes::new(metric, Reduction::Symmetries);
        let rows = depth as usize + 1;
        let classes = column(file, 2, rows);
        check(
            &space,
            [1, 3, depth],
            &column(file, 1, rows),
            Some(&classes),
        );
    }
    // With inversion (96 maps), the classes column of the quarter-turn file.
    let space = Cube3Classes::new(Metric::Qtm, Reduction::SymmetriesAndInverse);
    let file = "cube3x3x3-qtm.txt";
    check(
        &space,
        [2, 8],
        &column(file, 1, 9),
        Some(&column(file, 3, 9)),
    );
}

/// `tiles(w, h)` whose states carry their moves back (`back_moves`).
fn tiles_with_moves_back(w: usize, h: usize) -> BackMoves<TileSpace<u64>> {
    BackMoves::ranked(tiles(w, h)).expect("tiles have 4 moves and room for them")
}

#[test]
fn tiles_with_their_moves_back_count_every_level() {
    check(
        &tiles_with_moves_back(3, 3),
        1..=31,
        &levels("sliding-3x3.txt"),
        None,
    );
    check(
        &tiles_with_moves_back(4, 3),
        [5, 20, 30],
        &levels("sliding-3x4.txt"),
        None,
    );
    check(
        &tiles_with_moves_back(4, 4),
        [1, 2, 13, 24],
        &levels("sliding-4x4.txt"),
        None,
    );
}
