//! Every heuristic against exact BFS distances on whole small spaces, and every engine against
//! table descent.

use godsearch_core::{RankedSpace, StateSpace};
use godsearch_enumerate::{pattern_db, table, Limits, NoProgress};
use godsearch_puzzles::tiles::{Board, Partition, Shape, TileSpace};
use godsearch_search::descend;
use godsearch_search::tiles::{
    astar, ida_star, LinearConflict, Manhattan, Node, PatternHeuristic, ReflectedLookup,
    TableBytes, TileHeuristic,
};
use rand::{Rng, SeedableRng};

const GIB: u64 = 1 << 30;

/// Exact distance of every position, by descent of a complete table.
fn exact_distances(space: &TileSpace<u64>) -> Vec<u8> {
    let limits = Limits {
        max_depth: None,
        memory_bytes: GIB,
        antipode_cap: 0,
        count_last: false,
    };
    let built = table::enumerate(space, &limits, &NoProgress).unwrap();
    let diameter = built.enumeration.levels.len();
    (0..space.state_count() as u64)
        .map(|r| descend(space, &built.table, r, diameter).unwrap().len() as u8)
        .collect()
}

fn tables(partition: &Partition) -> Vec<TableBytes> {
    partition
        .patterns()
        .iter()
        .map(|p| TableBytes::Owned(pattern_db::build(p, GIB, &NoProgress).unwrap()))
        .collect()
}

/// The databases of `partition`, read at their direct index (spread) or their compact one;
/// with `reflect`, reflected through a mirror, or where none keeps the goal's blank, with the
/// mirror image's databases (as the app chooses).
fn pdb_laid_out(goal: &Board, partition: &str, reflect: bool, spread: bool) -> PatternHeuristic {
    let partition = Partition::parse(partition, goal).unwrap();
    let reflected = match reflect {
        false => ReflectedLookup::Off,
        true if PatternHeuristic::reflection_needs_tables(goal, &partition) => {
            let image = partition.mirror_image(goal);
            let image_tables = tables(&image);
            ReflectedLookup::Tables(image, image_tables)
        }
        true => ReflectedLookup::Mirror,
    };
    let tables = tables(&partition);
    match spread {
        true => PatternHeuristic::new(goal, &partition, tables, reflected).unwrap(),
        false => PatternHeuristic::compact(goal, &partition, tables, reflected).unwrap(),
    }
}

fn pdb(goal: &Board, partition: &str, reflect: bool) -> PatternHeuristic {
    pdb_laid_out(goal, partition, reflect, true)
}

/// Admissible (h <= distance) on every position, consistent (|h(a) - h(b)| <= 1 across a move)
/// when `consistent`, the incremental update always equals evaluation from scratch, and the
/// bounded update prunes exactly when the full one does, with a value no larger.
fn check_everywhere<H: TileHeuristic>(
    space: &TileSpace<u64>,
    distances: &[u8],
    h: &H,
    consistent: bool,
) {
    let mut at_goal = false;
    for r in 0..space.state_count() as u64 {
        let board = space.unrank(r);
        let node = Node::from_board(&board);
        let (cache, value) = h.evaluate(&node);
        assert!(
            value <= distances[r as usize] as u32,
            "{}: h {value} > distance {} at {board}",
            h.describe(),
            distances[r as usize]
        );
        at_goal |= r == space.goal_state() && value == 0;
        for (_, child) in board.successors() {
            let child_node = Node::from_board(&child);
            let tile = board.cells()[child.blank()] as u8;
            let (_, updated) = h.update(
                &cache,
                &child_node,
                tile,
                child.blank() as u8,
                board.blank() as u8,
            );
            let (_, fresh) = h.evaluate(&child_node);
            assert_eq!(
                updated,
                fresh,
                "{}: incremental update differs at {child}",
                h.describe()
            );
            for bound in 0..=fresh + 1 {
                let mut scratch = cache;
                let within = h.update_within(
                    &cache,
                    &mut scratch,
                    &child_node,
                    tile,
                    child.blank() as u8,
                    board.blank() as u8,
                    bound,
                );
                assert!(
                    within <= fresh && (within > bound) == (fresh > bound),
                    "{}: bounded update {within} (bound {bound}, full {fresh}) at {child}",
                    h.describe()
                );
            }
            assert!(
                !consistent || value.abs_diff(fresh) <= 1,
                "{}: inconsistent at {board} -> {child}",
                h.describe()
            );
        }
    }
    assert!(at_goal, "{}: h(goal) must be 0", h.describe());
}

#[test]
fn heuristics_are_admissible_and_consistent_on_whole_small_spaces() {
    // Goals with the blank where each mirror keeps it: on the main diagonal (the corner, the
    // centre), on the other diagonal, on the middle column or row, and none (2x4, 4x2).
    let cases = [
        (3, 3, None),
        (3, 3, Some("1,2,3,4,0,5,6,7,8")),
        (3, 3, Some("1,2,0,3,4,5,6,7,8")),
        (3, 3, Some("1,0,2,3,4,5,6,7,8")),
        (3, 3, Some("1,2,3,4,5,0,6,7,8")),
        (3, 2, Some("1,0,2,3,4,5")),
        (2, 4, None),
        (4, 2, Some("0,1,2,3,4,5,6,7")),
    ];
    for (w, h, goal) in cases {
        let shape = Shape::new(w, h).unwrap();
        let goal = goal.map_or_else(|| Board::goal(shape), |g| Board::parse(shape, g).unwrap());
        let space = TileSpace::<u64>::new(goal.clone()).unwrap();
        let distances = exact_distances(&space);
        check_everywhere(&space, &distances, &Manhattan::new(&goal).unwrap(), true);
        check_everywhere(
            &space,
            &distances,
            &LinearConflict::new(&goal).unwrap(),
            true,
        );
        check_everywhere(&space, &distances, &pdb(&goal, "1,2,3/4,5", false), false);
        // Both table layouts, with the reflection (the spread one keeps its indexes in the
        // cache and moves them a slide at a time): through a mirror that keeps the goal's
        // blank, or where none does, the mirror image's own tables.
        // Every tile in a group (only such partitions are reflected).
        let tiles: Vec<String> = (1..w * h).map(|t| t.to_string()).collect();
        let halves = format!(
            "{}/{}",
            tiles[..tiles.len() / 2].join(","),
            tiles[tiles.len() / 2..].join(",")
        );
        for spread in [true, false] {
            let pdbs = pdb_laid_out(&goal, &halves, true, spread);
            let (row, col) = shape.row_col(goal.blank());
            let on_a_diagonal = w == h && (row == col || row + col + 1 == w);
            let mirrored = on_a_diagonal || 2 * col + 1 == w || 2 * row + 1 == h;
            assert_eq!(
                pdbs.describe().ends_with("+ reflection"),
                mirrored,
                "{goal}"
            );
            assert_eq!(
                pdbs.describe().ends_with(" + mirror image"),
                !mirrored,
                "{goal}"
            );
            check_everywhere(&space, &distances, &pdbs, false);
            if !mirrored {
                // The mirror image's sum is a second estimate, larger than the first on some
                // positions.
                let alone = pdb_laid_out(&goal, &halves, false, spread);
                let raised = (0..space.state_count() as u64)
                    .map(|r| Node::from_board(&space.unrank(r)))
                    .filter(|node| pdbs.evaluate(node).1 > alone.evaluate(node).1)
                    .count();
                assert!(raised > 0, "{goal}");
            }
        }
        // The named partition, drawn for the blank wherever it is.
        if (w, h) == (3, 3) {
            check_everywhere(&space, &distances, &pdb(&goal, "4-4", true), false);
        }
    }
}

#[test]
fn every_engine_finds_the_table_distance() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    for (w, h) in [(3, 3), (2, 4)] {
        let shape = Shape::new(w, h).unwrap();
        let goal = Board::goal(shape);
        let space = TileSpace::<u64>::new(goal.clone()).unwrap();
        let distances = exact_distances(&space);
        let manhattan = Manhattan::new(&goal).unwrap();
        let conflict = LinearConflict::new(&goal).unwrap();
        let patterns = pdb(&goal, "1,2,3/4,5,6,7", true);
        for _ in 0..40 {
            let r = rng.gen_range(0..space.state_count() as u64);
            let start = space.unrank(r);
            let expected = distances[r as usize] as usize;
            let results = [
                ida_star(&start, &goal, &manhattan, 1).unwrap(),
                ida_star(&start, &goal, &conflict, 2).unwrap(),
                ida_star(&start, &goal, &patterns, 2).unwrap(),
                astar(&start, &goal, &conflict, 1 << 20).unwrap(),
                astar(&start, &goal, &patterns, 1 << 20).unwrap(),
            ];
            for outcome in results {
                assert_eq!(outcome.moves.len(), expected, "{start}");
                let mut b = start.clone();
                assert!(outcome.moves.iter().all(|&m| b.apply(m)));
                assert_eq!(b, goal);
            }
        }
    }
}

#[test]
fn astar_stops_at_its_memory_limit() {
    let shape = Shape::new(3, 3).unwrap();
    let goal = Board::goal(shape);
    let far = Board::parse(shape, "8,6,7,2,5,4,3,0,1").unwrap();
    let err = astar(&far, &goal, &Manhattan::new(&goal).unwrap(), 100).unwrap_err();
    assert!(err.to_string().contains("memory limit"), "{err}");
}

/// A* stops when its watch is cancelled, as IDA* does: with the least `f` left open, a proven
/// lower bound (at most the true distance, 31 for the 8-puzzle's farthest board, and at
/// least the heuristic's estimate of the start).
#[test]
fn astar_stops_when_cancelled_with_a_proven_lower_bound() {
    use godsearch_search::tiles::{astar_watched, SearchError, Watch};
    let shape = Shape::new(3, 3).unwrap();
    let goal = Board::goal(shape);
    let far = Board::parse(shape, "8,6,7,2,5,4,3,0,1").unwrap();
    let manhattan = Manhattan::new(&goal).unwrap();
    let watch = Watch::default();
    watch.cancel();
    let err = astar_watched(&far, &goal, &manhattan, 1 << 20, Some(&watch)).unwrap_err();
    let SearchError::Timeout {
        lower_bound,
        stats,
        searched: None,
    } = err
    else {
        panic!("{err}")
    };
    let estimate = manhattan.evaluate(&Node::from_board(&far)).1;
    assert!((estimate..=31).contains(&lower_bound), "{lower_bound}");
    assert!(stats.expanded > 0);
    let uncancelled = Watch::default();
    let solved = astar_watched(&far, &goal, &manhattan, 1 << 20, Some(&uncancelled)).unwrap();
    assert_eq!(solved.moves.len(), 31);
}
