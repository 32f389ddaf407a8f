//! The cubes at library level: the frontier engine over the 3x3x3's symmetry classes, and
//! both engines over the 2x2x2, against the published position and class counts.

use godsearch_enumerate::{frontier, Limits, NoProgress, Stop};
use godsearch_puzzles::cube::{Cube3Classes, Metric, Reduction};
use godsearch_testdata::rows;

/// Positions (column 1) and classes (column `classes_column`) against `file`.
fn check_classes(
    metric: Metric,
    reduction: Reduction,
    file: &str,
    classes_column: usize,
    depth: u32,
) {
    let limits = Limits {
        max_depth: Some(depth),
        memory_bytes: 8 << 30,
        antipode_cap: 0,
        count_last: false,
    };
    let e = frontier::enumerate(&Cube3Classes::new(metric, reduction), &limits, &NoProgress);
    assert_eq!(e.stop, Stop::MaxDepth(depth));
    let data = rows(file);
    assert_eq!(e.levels.len(), depth as usize + 1);
    for (d, row) in data.iter().enumerate().take(e.levels.len()) {
        assert_eq!(e.levels[d].to_string(), row[1], "{file} positions at {d}");
        assert_eq!(
            e.classes[d].to_string(),
            row[classes_column],
            "{file} classes at {d}"
        );
    }
}

fn check_against_data(metric: Metric, file: &str, depth: u32) {
    check_classes(metric, Reduction::Symmetries, file, 2, depth);
}

#[test]
fn htm_levels_match_the_published_counts_through_depth_7() {
    check_against_data(Metric::Htm, "cube3x3x3-htm.txt", 7);
}

#[test]
fn qtm_levels_match_the_published_counts_through_depth_8() {
    check_against_data(Metric::Qtm, "cube3x3x3-qtm.txt", 8);
}

#[test]
fn classes_with_inversion_match_the_published_counts() {
    check_classes(
        Metric::Qtm,
        Reduction::SymmetriesAndInverse,
        "cube3x3x3-qtm.txt",
        3,
        8,
    );
}

#[test]
fn stm_levels_match_the_published_counts_with_and_without_inversion() {
    check_against_data(Metric::Stm, "cube3x3x3-stm.txt", 6);
    check_classes(
        Metric::Stm,
        Reduction::SymmetriesAndInverse,
        "cube3x3x3-stm.txt",
        3,
        6,
    );
}

#[test]
#[ignore = "HTM depth 8, QTM depth 10 and STM depth 7: tens of seconds and several GB"]
fn deeper_levels_match_the_published_counts() {
    check_against_data(Metric::Htm, "cube3x3x3-htm.txt", 8);
    check_against_data(Metric::Qtm, "cube3x3x3-qtm.txt", 10);
    check_against_data(Metric::Stm, "cube3x3x3-stm.txt", 7);
}

#[test]
fn the_2x2x2_levels_match_the_published_counts_with_both_engines() {
    use godsearch_puzzles::cube::Cube2Space;
    use godsearch_testdata::levels;
    let limits = Limits {
        max_depth: None,
        memory_bytes: 1 << 30,
        antipode_cap: 0,
        count_last: false,
    };
    for (metric, file) in [
        (Metric::Htm, "cube2x2x2-htm.txt"),
        (Metric::Qtm, "cube2x2x2-qtm.txt"),
    ] {
        let space = Cube2Space::new(metric);
        let by_table = godsearch_enumerate::table::enumerate(&space, &limits, &NoProgress).unwrap();
        assert_eq!(by_table.enumeration.stop, Stop::Complete);
        assert_eq!(
            by_table.enumeration.levels,
            levels(file),
            "{file}, table engine"
        );
        let by_frontier = frontier::enumerate(&space, &limits, &NoProgress);
        assert_eq!(by_frontier.levels, levels(file), "{file}, frontier engine");
    }
}
