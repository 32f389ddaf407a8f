//! The seam test: a puzzle defined outside `godsearch-puzzles` (the pancake puzzle: n
//! pancakes, a move flips the top k, k = 2..n) runs on the generic engines through
//! `StateSpace` / `RankedSpace` alone: both enumeration engines count its levels, which must
//! equal the published figures (data/pancake.txt); table descent solves it optimally, and so
//! do IDA* and A* with the gap heuristic (Helmert 2010), whose admissibility is checked
//! against the exact distances.

use godsearch_core::perm::placement_index;
use godsearch_core::{Heuristic, MoveIdx, RankedSpace, StateSpace};
use godsearch_enumerate::{frontier, reference, table, Limits, NoProgress, Stop};
use godsearch_search::{astar, descend, ida_star};
use godsearch_testdata::rows;

/// Stacks of `n` pancakes ranked by their Lehmer code (0 = sorted); move `k - 2` flips the top
/// `k`.
struct Pancakes {
    n: usize,
}

impl Pancakes {
    fn rank(&self, stack: &[u8]) -> u64 {
        placement_index(stack.iter().map(|&p| p as u32), self.n as u64)
    }

    /// The stack of a rank: Lehmer code digits, most significant first.
    fn unrank(&self, mut rank: u64) -> Vec<u8> {
        let n = self.n;
        let mut digits = vec![0usize; n];
        for (i, d) in digits.iter_mut().enumerate().rev() {
            let base = (n - i) as u64;
            *d = (rank % base) as usize;
            rank /= base;
        }
        let mut left: Vec<u8> = (0..n as u8).collect();
        digits.iter().map(|&d| left.remove(d)).collect()
    }

    fn flip(stack: &[u8], k: usize) -> Vec<u8> {
        let mut out = stack.to_vec();
        out[..k].reverse();
        out
    }
}

impl RankedSpace for Pancakes {
    fn state_count(&self) -> u128 {
        (1..=self.n as u128).product()
    }

    #[inline]
    fn rank_of(&self, state: u64) -> usize {
        state as usize
    }

    #[inline]
    fn state_at(&self, rank: usize) -> u64 {
        rank as u64
    }
}

/// Move `k - 2` flips the top `k` pancakes; every flip is its own inverse.
impl StateSpace for Pancakes {
    type State = u64;

    fn goal_state(&self) -> u64 {
        0
    }

    fn move_count(&self) -> usize {
        self.n.saturating_sub(1)
    }

    fn move_name(&self, m: MoveIdx) -> String {
        format!("flip {}", m + 2)
    }

    fn inverse_move(&self, m: MoveIdx) -> MoveIdx {
        m
    }

    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(MoveIdx, u64)) {
        let stack = self.unrank(rank);
        for k in 2..=self.n {
            f((k - 2) as MoveIdx, self.rank(&Self::flip(&stack, k)));
        }
    }
}

fn unlimited() -> Limits {
    Limits {
        max_depth: None,
        memory_bytes: 1 << 30,
        antipode_cap: 0,
        count_last: false,
    }
}

#[test]
fn pancake_levels_match_the_published_counts() {
    for row in rows("pancake.txt") {
        let n: usize = row[0].parse().unwrap();
        let space = Pancakes { n };
        let built = table::enumerate(&space, &unlimited(), &NoProgress).unwrap();
        assert_eq!(built.enumeration.stop, Stop::Complete, "n = {n}");
        let levels = &built.enumeration.levels;
        if n == 10 {
            let (total, diameter): (u64, u32) = (row[1].parse().unwrap(), row[2].parse().unwrap());
            assert_eq!(built.enumeration.total(), total);
            assert_eq!(built.enumeration.diameter(), Some(diameter));
            continue;
        }
        let published: Vec<u64> = row[1..].iter().map(|c| c.parse().unwrap()).collect();
        assert_eq!(levels, &published, "n = {n}");
        if n <= 8 {
            let by_frontier = frontier::enumerate(&space, &unlimited(), &NoProgress);
            assert_eq!(&by_frontier.levels, levels, "frontier engine, n = {n}");
            let plain = reference::bfs_levels(space.unrank(0), None, |s| {
                (2..=n).map(|k| Pancakes::flip(s, k)).collect::<Vec<_>>()
            });
            assert_eq!(&plain, levels, "reference BFS, n = {n}");
        }
    }
}

#[test]
fn pancakes_are_solved_optimally_by_table_descent() {
    let space = Pancakes { n: 8 };
    let built = table::enumerate(&space, &unlimited(), &NoProgress).unwrap();
    let diameter = built.enumeration.diameter().unwrap() as usize;
    // Every stack's descent replays to sorted, in as many flips as its level says.
    let mut at_distance = vec![0u64; diameter + 1];
    for rank in 0..space.state_count() as u64 {
        let moves = descend(&space, &built.table, rank, diameter).unwrap();
        let mut stack = space.unrank(rank);
        for &m in &moves {
            stack = Pancakes::flip(&stack, m as usize + 2);
        }
        assert!(stack.windows(2).all(|w| w[0] < w[1]), "rank {rank}");
        at_distance[moves.len()] += 1;
    }
    assert_eq!(at_distance, built.enumeration.levels);
}

/// The gap heuristic: the number of neighbouring pancakes (the plate counting as pancake `n`
/// under the stack) whose sizes differ by more than one. A flip changes one neighbour pair,
/// so it closes at most one gap: admissible, and consistent.
struct Gaps<'a>(&'a Pancakes);

impl Heuristic<u64> for Gaps<'_> {
    const CONSISTENT: bool = true;

    fn lower_bound(&self, rank: u64) -> u32 {
        let mut stack = self.0.unrank(rank);
        stack.push(self.0.n as u8);
        stack.windows(2).filter(|w| w[0].abs_diff(w[1]) > 1).count() as u32
    }
}

/// Exact distances of every stack, by walking down the table.
fn distances(space: &Pancakes) -> Vec<u32> {
    let built = table::enumerate(space, &unlimited(), &NoProgress).unwrap();
    let diameter = built.enumeration.diameter().unwrap() as usize;
    (0..space.state_count() as u64)
        .map(|r| descend(space, &built.table, r, diameter).unwrap().len() as u32)
        .collect()
}

fn replays_to_sorted(space: &Pancakes, rank: u64, moves: &[MoveIdx]) -> bool {
    let mut stack = space.unrank(rank);
    for &m in moves {
        stack = Pancakes::flip(&stack, m as usize + 2);
    }
    stack.windows(2).all(|w| w[0] < w[1])
}

#[test]
fn the_gap_heuristic_is_admissible_and_consistent() {
    let space = Pancakes { n: 8 };
    let gaps = Gaps(&space);
    let exact = distances(&space);
    for rank in 0..space.state_count() as u64 {
        let h = gaps.lower_bound(rank);
        assert!(h <= exact[rank as usize], "rank {rank}");
        space.for_each_neighbour(rank, |_, nb| {
            assert!(
                h.abs_diff(gaps.lower_bound(nb)) <= 1,
                "ranks {rank} and {nb}"
            );
        });
    }
}

#[test]
fn ida_star_and_astar_with_gaps_find_shortest_flips() {
    let space = Pancakes { n: 9 };
    let exact = distances(&space);
    let gaps = Gaps(&space);
    // Every 997th stack: a spread over all distances, in well under a second.
    for rank in (0..space.state_count() as u64).step_by(997) {
        let by_ida = ida_star(&space, &gaps, rank, None).unwrap();
        assert!(
            replays_to_sorted(&space, rank, &by_ida.moves),
            "rank {rank}"
        );
        assert_eq!(
            by_ida.moves.len() as u32,
            exact[rank as usize],
            "rank {rank}"
        );
        let by_astar = astar(&space, &gaps, rank, 1 << 20).unwrap();
        assert!(
            replays_to_sorted(&space, rank, &by_astar.moves),
            "rank {rank}"
        );
        assert_eq!(by_astar.moves.len(), by_ida.moves.len(), "rank {rank}");
    }
    // The goal itself needs nothing.
    assert!(ida_star(&space, &gaps, 0, None).unwrap().moves.is_empty());
}
