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

    /// [`lower_bound`](Self::lower_bound) of each of `states`, into `out` (as long): the same
    /// values. A search asks for a node's children together, so an estimate read from large
    /// tables can work out every entry it needs before it waits for the first to come from
    /// memory, and the waits overlap.
    #[inline]
    fn lower_bounds(&self, states: &[State], out: &mut [u32])
    where
        State: Copy,
    {
        for (&state, bound) in states.iter().zip(out) {
            *bound = self.lower_bound(state);
        }
    }

    /// [`lower_bounds`](Self::lower_bounds) for a search that needs a value exactly only
    /// where it is below `enough` (IDA* cuts a child whose estimate reaches what its bound
    /// leaves): each value is still a lower bound, and either the estimate or at least
    /// `enough`, so an estimate that is the largest of several may stop at the first that
    /// reaches `enough`. The default gives the estimates.
    #[inline]
    fn lower_bounds_past(&self, states: &[State], out: &mut [u32], enough: u32)
    where
        State: Copy,
    {
        let _ = enough;
        self.lower_bounds(states, out);
    }
}

/// [`raise_where`] asks its estimate for at most this many states at a time.
pub const RAISE_BATCH: usize = 64;

/// Raises `out[i]`, an estimate of `states[i]`, to the larger of it and `estimate`'s value for
/// that state wherever `wanted(out[i])`: a second estimate, dearer than the first, read only
/// where the first leaves the answer open (under a search's cut, within a ball's depth). The
/// states it wants are given to `estimate` together, [`RAISE_BATCH`] at most at a time, so an
/// estimate read from memory can overlap its reads. The larger of two lower bounds is one.
#[inline]
pub fn raise_where<S: Copy + Default>(
    states: &[S],
    out: &mut [u32],
    wanted: impl Fn(u32) -> bool,
    mut estimate: impl FnMut(&[S], &mut [u32]),
) {
    let mut at = [0usize; RAISE_BATCH];
    let mut left = [S::default(); RAISE_BATCH];
    let mut read = [0u32; RAISE_BATCH];
    for (states, out) in states.chunks(RAISE_BATCH).zip(out.chunks_mut(RAISE_BATCH)) {
        let mut held = 0;
        for (i, (&state, &bound)) in states.iter().zip(out.iter()).enumerate() {
            if wanted(bound) {
                (at[held], left[held]) = (i, state);
                held += 1;
            }
        }
        if held == 0 {
            continue;
        }
        estimate(&left[..held], &mut read[..held]);
        for (&i, &r) in at[..held].iter().zip(&read[..held]) {
            out[i] = out[i].max(r);
        }
    }
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

    #[inline]
    fn lower_bounds(&self, states: &[State], out: &mut [u32])
    where
        State: Copy,
    {
        (**self).lower_bounds(states, out);
    }

    #[inline]
    fn lower_bounds_past(&self, states: &[State], out: &mut [u32], enough: u32)
    where
        State: Copy,
    {
        (**self).lower_bounds_past(states, out, enough);
    }
}

/// A shared heuristic is the same heuristic.
impl<State, H: Heuristic<State> + Send> Heuristic<State> for std::sync::Arc<H> {
    const CONSISTENT: bool = H::CONSISTENT;

    #[inline]
    fn lower_bound(&self, state: State) -> u32 {
        (**self).lower_bound(state)
    }

    #[inline]
    fn lower_bounds(&self, states: &[State], out: &mut [u32])
    where
        State: Copy,
    {
        (**self).lower_bounds(states, out);
    }

    #[inline]
    fn lower_bounds_past(&self, states: &[State], out: &mut [u32], enough: u32)
    where
        State: Copy,
    {
        (**self).lower_bounds_past(states, out, enough);
    }
}
