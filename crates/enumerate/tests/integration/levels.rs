//! Level counts of both engines against the published figures in data/ and against the
//! plain reference BFS.

use godsearch_core::{MoveIdx, RankedSpace, StateSpace};
use godsearch_enumerate::back_moves::BackMoves;
use godsearch_enumerate::{frontier, reference, table, Limits, NoProgress, Stop};
use godsearch_puzzles::tiles::{Board, Shape, TileSpace};
use godsearch_testdata::levels;
use std::ops::ControlFlow;

const GIB: u64 = 1 << 30;
const ANTIPODE_CAP: usize = 100;

fn limits(max_depth: Option<u32>) -> Limits {
    Limits {
        max_depth,
        memory_bytes: 8 * GIB,
        antipode_cap: ANTIPODE_CAP,
        count_last: false,
    }
}

fn space(w: usize, h: usize) -> TileSpace<u64> {
    TileSpace::new(Board::goal(Shape::new(w, h).unwrap())).unwrap()
}

fn space_with_goal(w: usize, h: usize, goal: &str) -> TileSpace<u64> {
    TileSpace::new(Board::parse(Shape::new(w, h).unwrap(), goal).unwrap()).unwrap()
}

fn neighbours(b: &Board) -> Vec<Board> {
    b.successors().map(|(_, next)| next).collect()
}

fn table_levels(sp: &TileSpace<u64>) -> Vec<u64> {
    let result = table::enumerate(sp, &limits(None), &NoProgress).unwrap();
    assert_eq!(result.enumeration.stop, Stop::Complete);
    result.enumeration.levels
}

fn frontier_levels(sp: &TileSpace<u64>) -> Vec<u64> {
    let result = frontier::enumerate(sp, &limits(None), &NoProgress);
    assert_eq!(result.stop, Stop::Complete);
    result.levels
}

#[test]
fn eight_puzzle_matches_published_counts_with_both_engines() {
    let expected = levels("sliding-3x3.txt");
    let sp = space(3, 3);
    let result = table::enumerate(&sp, &limits(None), &NoProgress)
        .unwrap()
        .enumeration;
    assert_eq!(result.levels, expected);
    assert_eq!(result.total(), 181_440);
    assert_eq!(result.diameter(), Some(31));
    let mut antipodes: Vec<String> = result
        .last_level
        .unwrap()
        .iter()
        .map(|&r| sp.unrank(r).to_string())
        .collect();
    antipodes.sort();
    assert_eq!(antipodes, ["6,4,7,8,5,0,3,2,1", "8,6,7,2,5,4,3,0,1"]);
    assert_eq!(frontier_levels(&sp), expected);
}

#[test]
fn engines_agree_with_the_reference_bfs() {
    for (w, h) in [(2, 2), (2, 3), (3, 2), (3, 3)] {
        let sp = space(w, h);
        let naive = reference::bfs_levels(sp.goal().clone(), None, neighbours);
        assert_eq!(table_levels(&sp), naive, "{w}x{h} table");
        assert_eq!(frontier_levels(&sp), naive, "{w}x{h} frontier");
    }
}

#[test]
fn goal_position_of_the_blank_gives_the_published_tables() {
    assert_eq!(
        table_levels(&space_with_goal(3, 3, "0,1,2,3,4,5,6,7,8")),
        levels("sliding-3x3.txt")
    );
    assert_eq!(
        table_levels(&space_with_goal(3, 3, "1,2,3,4,0,5,6,7,8")),
        levels("sliding-3x3-center.txt")
    );
    assert_eq!(
        frontier_levels(&space_with_goal(3, 3, "1,0,2,3,4,5,6,7,8")),
        levels("sliding-3x3-midside.txt")
    );
    assert_eq!(
        table_levels(&space_with_goal(3, 3, "1,2,3,4,5,6,7,0,8")),
        levels("sliding-3x3-midside.txt")
    );
}

#[test]
fn seven_and_nine_puzzles_and_their_transposes() {
    let seven = levels("sliding-2x4.txt");
    for (w, h) in [(2, 4), (4, 2)] {
        assert_eq!(table_levels(&space(w, h)), seven, "{w}x{h}");
        assert_eq!(frontier_levels(&space(w, h)), seven, "{w}x{h}");
    }
    let nine = levels("sliding-2x5.txt");
    for (w, h) in [(2, 5), (5, 2)] {
        assert_eq!(table_levels(&space(w, h)), nine, "{w}x{h}");
    }
}

#[test]
#[ignore = "239.5 million positions: about a minute in release"]
fn eleven_puzzle_both_orientations() {
    let expected = levels("sliding-3x4.txt");
    for (w, h) in [(3, 4), (4, 3)] {
        let result = table::enumerate(&space(w, h), &limits(None), &NoProgress)
            .unwrap()
            .enumeration;
        assert_eq!(result.levels, expected, "{w}x{h}");
        assert_eq!(result.diameter(), Some(53));
        assert_eq!(result.last_level.map(|l| l.len()), Some(18));
    }
}

#[test]
fn fifteen_puzzle_frontier_through_depth_22() {
    let expected = levels("sliding-4x4.txt");
    let result = frontier::enumerate(&space(4, 4), &limits(Some(22)), &NoProgress);
    assert_eq!(result.stop, Stop::MaxDepth(22));
    assert_eq!(result.levels, expected[..=22]);
    assert_eq!(result.levels[22], 5_802_411);
}

#[test]
fn fifteen_puzzle_with_its_moves_back_through_depth_22_in_less_memory() {
    let expected = levels("sliding-4x4.txt");
    let plain = space(4, 4);
    let with_moves_back = BackMoves::ranked(plain.clone()).expect("room for 4 bits");
    let result = frontier::enumerate(&with_moves_back, &limits(Some(22)), &NoProgress);
    assert_eq!(result.levels, expected[..=22]);
    // No level before the newest is kept, and a third fewer neighbours are listed.
    let before = frontier::enumerate(&plain, &limits(Some(22)), &NoProgress);
    assert!(result.peak_bytes * 3 < before.peak_bytes * 2);
}

#[test]
#[ignore = "465 million positions: a minute or two and about 5 GB"]
fn fifteen_puzzle_frontier_through_depth_28() {
    let expected = levels("sliding-4x4.txt");
    let result = frontier::enumerate(&space(4, 4), &limits(Some(28)), &NoProgress);
    assert_eq!(result.levels, expected[..=28]);
}

#[test]
fn frontier_stops_cleanly_at_the_memory_budget() {
    let expected = levels("sliding-4x4.txt");
    let budget = 1 << 20;
    let tight = Limits {
        max_depth: None,
        memory_bytes: budget,
        antipode_cap: 0,
        count_last: false,
    };
    let result = frontier::enumerate(&space(4, 4), &tight, &NoProgress);
    let Stop::Memory { depth, needed, .. } = result.stop else {
        panic!("{:?}", result.stop)
    };
    assert!(needed > budget);
    assert_eq!(depth as usize, result.levels.len());
    assert_eq!(result.levels, expected[..result.levels.len()]);
    assert!(result.peak_bytes <= budget);
}

#[test]
fn table_engine_honours_depth_and_memory_limits() {
    let sp = space(3, 3);
    let partial = table::enumerate(&sp, &limits(Some(10)), &NoProgress)
        .unwrap()
        .enumeration;
    assert_eq!(partial.stop, Stop::MaxDepth(10));
    assert_eq!(partial.levels, levels("sliding-3x3.txt")[..=10]);
    assert_eq!(partial.diameter(), None);
    let tiny = Limits {
        max_depth: None,
        memory_bytes: 1000,
        antipode_cap: 0,
        count_last: false,
    };
    assert!(table::enumerate(&sp, &tiny, &NoProgress).is_err());
    assert_eq!(
        godsearch_enumerate::choose_engine(&sp, 1000),
        godsearch_enumerate::Engine::Frontier
    );
    assert_eq!(sp.state_count(), 181_440);
}

#[test]
fn wide_ranks_give_the_same_counts() {
    let shape = Shape::new(4, 4).unwrap();
    let wide = TileSpace::<u128>::new(Board::goal(shape)).unwrap();
    let result = frontier::enumerate(&wide, &limits(Some(16)), &NoProgress);
    assert_eq!(result.levels, levels("sliding-4x4.txt")[..=16]);
    let five = TileSpace::<u128>::new(Board::goal(Shape::new(5, 5).unwrap())).unwrap();
    let depth = 12;
    let result = frontier::enumerate(&five, &limits(Some(depth)), &NoProgress);
    assert_eq!(
        result.levels,
        reference::bfs_levels(five.goal().clone(), Some(depth), neighbours)
    );
}

/// A cycle of `N` positions, each named twice: states `i` and `i + N` are the same position.
/// Moves step one way or the other along the cycle; the second names are reached only as
/// aliases, so an engine that forgot them would count half.
struct TwinCycle;

const CYCLE: u64 = 25;

impl StateSpace for TwinCycle {
    type State = u64;

    fn goal_state(&self) -> u64 {
        0
    }

    fn move_count(&self) -> usize {
        2
    }

    fn move_name(&self, m: MoveIdx) -> String {
        ["+", "-"][m as usize].into()
    }

    fn inverse_move(&self, m: MoveIdx) -> MoveIdx {
        1 - m
    }

    fn for_each_neighbour(&self, s: u64, mut f: impl FnMut(MoveIdx, u64)) {
        let (copy, i) = (s / CYCLE, s % CYCLE);
        f(0, copy * CYCLE + (i + 1) % CYCLE);
        f(1, copy * CYCLE + (i + CYCLE - 1) % CYCLE);
    }

    fn for_each_alias(&self, s: u64, mut f: impl FnMut(u64)) {
        f((s + CYCLE) % (2 * CYCLE));
    }
}

impl RankedSpace for TwinCycle {
    fn state_count(&self) -> u128 {
        2 * CYCLE as u128
    }

    fn rank_of(&self, s: u64) -> usize {
        s as usize
    }

    fn state_at(&self, rank: usize) -> u64 {
        rank as u64
    }
}

#[test]
fn both_engines_give_every_name_of_a_position_its_distance() {
    // Distances 0..=12 on a cycle of 25: one position at 0, two at each other distance; each
    // position has two names.
    let expected: Vec<u64> = (0..=12).map(|d| if d == 0 { 2 } else { 4 }).collect();
    let by_table = table::enumerate(&TwinCycle, &limits(None), &NoProgress).unwrap();
    assert_eq!(by_table.enumeration.levels, expected);
    let by_frontier = frontier::enumerate(&TwinCycle, &limits(None), &NoProgress);
    assert_eq!(by_frontier.stop, Stop::Complete);
    assert_eq!(by_frontier.levels, expected);
}

/// The observer sees each level once, in order, complete: its count is the level's, and the
/// 2-bit table then holds exactly the levels so far (the blocked optimal tables are copied
/// from it this way).
#[test]
fn an_observed_build_shows_each_level_complete_as_it_ends() {
    use godsearch_tables::{DistanceMod3, TwoBitTable};
    let sp = space(3, 3);
    let distances = table::enumerate_exact(&sp, &limits(None), &NoProgress)
        .unwrap()
        .table
        .into_bytes();
    let mut seen = Vec::new();
    let built = table::enumerate_observed::<_, TwoBitTable>(
        &sp,
        &limits(None),
        &NoProgress,
        &mut |level| {
            let (depth, count, two_bit) = (level.depth, level.count, level.table);
            if let Some(list) = level.listed {
                assert_eq!(list.len() as u64, count, "level {depth} listed whole");
                for &state in list {
                    assert_eq!(u32::from(distances[sp.rank_of(state)]), depth);
                }
            }
            let mut at_depth = 0;
            for (i, &d) in distances.iter().enumerate() {
                let reached = u32::from(d) <= depth;
                assert_eq!(two_bit.get(i) != godsearch_tables::UNREACHED, reached);
                at_depth += u64::from(u32::from(d) == depth);
                if reached {
                    assert_eq!(u32::from(two_bit.get(i)), u32::from(d) % 3);
                }
            }
            assert_eq!(count, at_depth, "level {depth}");
            seen.push(count);
            ControlFlow::Continue(())
        },
    )
    .unwrap();
    assert_eq!(seen, built.enumeration.levels);
    assert_eq!(seen, levels("sliding-3x3.txt"));
}

#[test]
fn the_level_observer_stops_the_run_where_it_says() {
    use godsearch_tables::TwoBitTable;
    let sp = space(3, 3);
    let full = levels("sliding-3x3.txt");
    for last in [0u32, 1, 12, 30] {
        let mut seen = Vec::new();
        let built = table::enumerate_observed::<_, TwoBitTable>(
            &sp,
            &limits(None),
            &NoProgress,
            &mut |level| {
                seen.push(level.count);
                match level.depth < last {
                    true => ControlFlow::Continue(()),
                    false => ControlFlow::Break(()),
                }
            },
        )
        .unwrap()
        .enumeration;
        assert_eq!(seen, full[..=last as usize], "stopped after level {last}");
        assert_eq!(built.levels, seen);
        assert_eq!(built.stop, Stop::MaxDepth(last));
    }
}
