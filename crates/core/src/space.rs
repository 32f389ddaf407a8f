//! The view of a puzzle that the enumeration and search engines see: dense ranks and moves.

use crate::rank::RankInt;

/// Index of a move in a puzzle's fixed move list (for tiles: `U D L R`, the blank's direction).
pub type MoveIdx = u8;

/// A puzzle whose reachable positions are numbered densely `0..state_count()` by a perfect
/// ranking, with moves given as rank-to-rank steps.
///
/// This is the "coordinate as a small puzzle" of DESIGN.md: engines never see boards or cubes,
/// only ranks, so one BFS serves every puzzle that implements it.
///
/// Contract: `for_each_move` reports every position one move away, exactly once per move, and
/// the move graph is undirected (every move has an inverse move).
pub trait RankedPuzzle: Sync {
    /// The integer type of ranks; wide enough for `state_count()`.
    type Rank: RankInt;

    /// Exact number of reachable positions.
    fn state_count(&self) -> u128;

    /// The rank of the goal position (distance 0).
    fn goal_rank(&self) -> Self::Rank;

    /// Calls `f(move, neighbour_rank)` for every move legal in the position `rank`.
    fn for_each_move(&self, rank: Self::Rank, f: impl FnMut(MoveIdx, Self::Rank));

    /// The largest number of moves legal in any position.
    fn max_degree(&self) -> usize;

    /// `true` when `pred` holds for some neighbour of `rank`. Implementations may stop at the
    /// first such neighbour and try cheap neighbours first.
    fn any_neighbour(&self, rank: Self::Rank, mut pred: impl FnMut(Self::Rank) -> bool) -> bool {
        let mut found = false;
        self.for_each_move(rank, |_, nb| found = found || pred(nb));
        found
    }

    /// Number of moves legal in the position `rank` (used to size buffers exactly).
    fn degree(&self, rank: Self::Rank) -> usize {
        let mut n = 0;
        self.for_each_move(rank, |_, _| n += 1);
        n
    }
}
