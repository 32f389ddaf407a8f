//! Lower bounds on the distance to the goal, as the searches use them.

/// An estimate of the number of moves from a state to the goal.
///
/// Contract: **admissible**, never more than the true distance, so IDA* and A* driven by it
/// return optimal solutions. [`CONSISTENT`](Self::CONSISTENT) promises more: the estimates of
/// two neighbours differ by at most one move, so A* never reopens a state.
pub trait Heuristic<State>: Sync {
    /// `true` when the estimate is consistent, not only admissible.
    const CONSISTENT: bool;

    /// A lower bound on the moves from `state` to the goal.
    fn lower_bound(&self, state: State) -> u32;
}

/// The estimate 0: admissible and consistent for every space; turns IDA* into iterative
/// deepening and A* into breadth-first search.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoEstimate;

impl<State> Heuristic<State> for NoEstimate {
    const CONSISTENT: bool = true;

    fn lower_bound(&self, _: State) -> u32 {
        0
    }
}

/// A borrowed heuristic is the same heuristic.
impl<State, H: Heuristic<State>> Heuristic<State> for &H {
    const CONSISTENT: bool = H::CONSISTENT;

    #[inline]
    fn lower_bound(&self, state: State) -> u32 {
        (**self).lower_bound(state)
    }
}

/// A shared heuristic is the same heuristic.
impl<State, H: Heuristic<State> + Send> Heuristic<State> for std::sync::Arc<H> {
    const CONSISTENT: bool = H::CONSISTENT;

    #[inline]
    fn lower_bound(&self, state: State) -> u32 {
        (**self).lower_bound(state)
    }
}
