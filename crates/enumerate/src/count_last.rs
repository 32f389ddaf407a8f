//! Counting the level after the newest without storing it (Bryan's method).
//!
//! With levels `n - 1` and `n` held, every neighbour `Y` of a state `X` of level `n` is in level
//! `n - 1`, level `n` (only where a move can keep the distance) or level `n + 1`. A `Y` of level
//! `n + 1` has neighbours in level `n`, usually several; it is counted from exactly one of them,
//! its *canonical parent*: the first neighbour of `Y` in level `n` that the space's
//! [`find_neighbour`](StateSpace::find_neighbour) returns (a fixed order per state). From `X`,
//! `Y` is counted when its canonical parent is `X` and the move from `X` is the first of `X`'s
//! moves that reaches `Y` (in a space of symmetry classes several moves of `X` can reach the
//! same class). So each state of level `n + 1` is counted once, with its exact class size: the
//! positions and the classes of the level come out exact, and nothing of it is stored.
//!
//! The cost is in lookups instead of memory: each neighbour is looked up in level `n - 1` (and
//! `n`), and each one of level `n + 1` looks for its canonical parent in level `n`, a binary
//! search a try. The space must be reversible (every move has an inverse, as [`StateSpace`]
//! requires) and give each position one name (no [`for_each_alias`]).
//!
//! States that carry their moves back ([`crate::back_moves`]) list only neighbours of level
//! `n + 1`, so none is looked up in level `n - 1`; a state is compared by its position (its
//! key above the bits), and its canonical parent is looked for among all its neighbours.
//!
//! [`for_each_alias`]: StateSpace::for_each_alias

use crate::{KeyState, Progress};
use godsearch_core::StateSpace;
use rayon::prelude::*;

/// States of level `n` a rayon task works through.
const STATES_PER_TASK: usize = 1 << 12;

/// The exact size of the level after `newest`, counted without storing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NextLevel {
    /// Positions at the next distance (class sizes summed for a space of classes).
    pub positions: u64,
    /// States (classes) at the next distance.
    pub classes: u64,
}

impl NextLevel {
    fn merge(self, other: NextLevel) -> NextLevel {
        NextLevel {
            positions: self.positions + other.positions,
            classes: self.classes + other.classes,
        }
    }
}

/// Counts the level after `newest` (level `n`, sorted, without repeats) given `previous`
/// (level `n - 1`, sorted, without repeats; empty when `n` is 0). Exact, under the conditions in
/// the module doc. Reports the states of `newest` done to `progress`; once `progress` is
/// cancelled its tasks count nothing more, so a caller must look at the cancel before it
/// trusts the count.
pub fn count_next<P: StateSpace>(
    space: &P,
    previous: &[P::State],
    newest: &[P::State],
    progress: &dyn Progress,
) -> NextLevel
where
    P::State: KeyState,
{
    let same_level = space.same_level_possible();
    let bits = space.back_move_bits();
    let position = |s: P::State| s.to_key() >> bits;
    let in_level = |level: &[P::State], s: P::State| {
        let key = position(s);
        level.binary_search_by(|x| position(*x).cmp(&key)).is_ok()
    };
    let in_newest = |s: P::State| in_level(newest, s);
    // With every move open: a state with its moves back unmarked.
    let unmarked = |s: P::State| P::State::from_key(position(s) << bits).expect("a smaller key");
    newest
        .par_chunks(STATES_PER_TASK)
        .map(|chunk| {
            let mut counted = NextLevel::default();
            if progress.cancelled() {
                return counted;
            }
            let mut neighbours = Vec::with_capacity(space.max_degree());
            for &parent in chunk {
                neighbours.clear();
                space.for_each_neighbour(parent, |_, next| neighbours.push(next));
                for (i, &next) in neighbours.iter().enumerate() {
                    // The first of the parent's moves that reaches `next` speaks for all.
                    if neighbours[..i]
                        .iter()
                        .any(|&n| position(n) == position(next))
                        || (bits == 0 && in_level(previous, next))
                        || (same_level && in_newest(next))
                    {
                        continue;
                    }
                    let (_, canonical) = space
                        .find_neighbour(unmarked(next), in_newest)
                        .expect("a reversible space: the parent is a neighbour of its child");
                    if position(canonical) == position(parent) {
                        counted.classes += 1;
                        counted.positions += space.class_size(next);
                    }
                }
            }
            progress.advanced(chunk.len() as u64);
            counted
        })
        .reduce(NextLevel::default, NextLevel::merge)
}
