//! The positions near solved, hashed ([`HashedBall`]), grown with a search's bound: the lower
//! bound both definition solvers meet their starts with. An iteration of bound `b` reads a
//! ball of half of it, rounded down (as twsearch grows its prune table), as deep as fits the
//! ball's share of the memory budget; a position at distance `d` reads at least `depth + 1`
//! outside it, so the iteration expands the nodes within about `b - depth` moves of the start
//! and meets the ball in the middle. Beside pattern databases, which bound the search well
//! enough on their own, the ball grows only where the search has become dearer than its build
//! ([`GROWTH_PER_NODE`]). The ball is kept for the next positions of a batch.

use super::search::{BuildProgress, GiveUp};
use godsearch_core::progress::on_tables;
use godsearch_core::{NoProgress, StateSpace};
use godsearch_enumerate::hashed_ball::{
    bytes_for, canonical_sequences, slots_for, HashedBall, MAX_BALL_DEPTH,
};
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The share of the memory budget the ball may take (the search's own memory is small). With
/// the default budget on a 24 GB machine it holds the 4x4x4's positions within 6 moves (built
/// in about a minute when a search's bound first reaches 12), the megaminx's within 5 and the
/// 3x3x3's within 7.
pub const BALL_SHARE: f64 = 0.5;

/// Beside pattern databases, a ball is grown only to a depth whose canonical sequences are at
/// most this many times the nodes the search's last iteration expanded. Each sequence costs
/// its build about what a child costs the search (a move and a hash), and the next iteration
/// expands about a dozen times the last one's nodes (the 3x3x3's branching factor), each with a
/// dozen children; but beside the sets of edges a deeper ball cuts few of them. Measured on
/// the 3x3x3 file (2026-12-03, positions held as pieces): a 14-move scramble expands as many
/// nodes over a ball of 5 moves as over one of 6 (1.7 M with the sets built on the spot), so
/// 64 (the ball of 6, 1 s to build) cost it 2.5 s against 1.65 s; a 15-move one took 42.8 s
/// and 0.26 GB with the ball of 6 against 47.3 s and 1.3 GB with that of 7.
pub const GROWTH_PER_NODE: u128 = 16;

/// A ball of positions near solved, grown as the searches need it and kept.
pub(crate) struct GrowingBall<S> {
    /// Per depth, the canonical sequences a ball that deep enters (an upper bound on its
    /// positions), up to the deepest ball that fits its bytes.
    sequences: Vec<u128>,
    held: Mutex<Arc<HashedBall<S>>>,
}

impl<S: Hash + Copy + Send + Sync> GrowingBall<S> {
    /// A ball of `space` within `bytes`, built now as deep as `first` canonical sequences
    /// allow (and fit).
    pub fn new<P: StateSpace<State = S>>(space: &P, bytes: u128, first: u128) -> Self {
        let automaton = space.sequence_automaton();
        let sequences: Vec<u128> = (0..=MAX_BALL_DEPTH)
            .map(|d| canonical_sequences(&automaton, d))
            .enumerate()
            .take_while(|&(d, sequences)| d == 0 || bytes_for(sequences) <= bytes)
            .map(|(_, sequences)| sequences)
            .collect();
        let depth = sequences
            .iter()
            .enumerate()
            .take_while(|&(d, &s)| d == 0 || s <= first)
            .count()
            - 1;
        let ball = HashedBall::build(space, depth as u32, slots_for(sequences[depth]) as usize);
        GrowingBall {
            sequences,
            held: Mutex::new(Arc::new(ball)),
        }
    }

    /// The ball held now.
    pub fn held(&self) -> Arc<HashedBall<S>> {
        Arc::clone(&self.held.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The ball for an iteration of bound `bound`: half as deep, rounded down (as deep as
    /// fits; with `paid_by`, the nodes the last iteration expanded, no deeper than
    /// [`GROWTH_PER_NODE`] allows), built now if the one held is shallower, and kept; the one
    /// held when `give_up` stops the build. Also the seconds spent building it now.
    pub fn for_bound<P: StateSpace<State = S>>(
        &self,
        space: &P,
        bound: u32,
        paid_by: Option<u64>,
        give_up: &GiveUp,
    ) -> (Arc<HashedBall<S>>, f64) {
        let deepest = self.sequences.len() as u32 - 1;
        let mut depth = (bound / 2).min(deepest);
        if let Some(nodes) = paid_by {
            let affordable = u128::from(nodes).saturating_mul(GROWTH_PER_NODE);
            while depth > 0 && self.sequences[depth as usize] > affordable {
                depth -= 1;
            }
        }
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if held.depth() >= depth {
            return (Arc::clone(&held), 0.0);
        }
        let built = Instant::now();
        let slots = slots_for(self.sequences[depth as usize]);
        let shown = give_up.tables.unwrap_or(&NoProgress);
        let what = format!("the positions within {depth} moves of solved, hashed");
        let progress = BuildProgress { give_up, shown };
        let ball = on_tables(shown, &what, || {
            HashedBall::build_until(space, depth, slots as usize, &progress)
        });
        if let Some(ball) = ball {
            *held = Arc::new(ball);
        }
        (Arc::clone(&held), built.elapsed().as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::definition::file::DefinitionMetric;
    use godsearch_orbit::OrbitSpace;

    /// A ball grows to half the bound, as deep as fits its bytes; beside databases only as
    /// deep as the last iteration's nodes pay for; and it is never made shallower.
    #[test]
    fn the_ball_grows_to_half_the_bound_where_paid_for() {
        let puzzle = crate::registry::definition::shipped::find("skewb")
            .unwrap()
            .open()
            .unwrap();
        let space: OrbitSpace<u64> = puzzle.space(&[], DefinitionMetric::Outer).unwrap();
        let ball = GrowingBall::new(&space, 1 << 24, 1);
        let give_up = GiveUp::default();
        let depth = |bound, paid_by| ball.for_bound(&space, bound, paid_by, &give_up).0.depth();
        assert_eq!(ball.held().depth(), 0);
        assert_eq!(depth(6, Some(0)), 0, "nothing paid for");
        let paid = ball.sequences[2].div_ceil(GROWTH_PER_NODE) as u64;
        assert!(ball.sequences[3] > u128::from(paid) * GROWTH_PER_NODE);
        assert_eq!(depth(8, Some(paid)), 2);
        assert_eq!(depth(7, None), 3);
        assert_eq!(depth(2, None), 3, "kept");
        let deepest = ball.sequences.len() as u32 - 1;
        assert!(deepest < MAX_BALL_DEPTH, "the bytes bind");
        assert_eq!(depth(40, None), deepest, "as deep as fits");
        assert!(bytes_for(ball.sequences[deepest as usize]) <= 1 << 24);
    }
}
