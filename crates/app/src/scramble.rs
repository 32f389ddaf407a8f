//! What every puzzle's scrambles share: random canonical move sequences ([`random_sequence`]).
//! A random move sequence follows the puzzle's canonical-sequence automaton, the rule the
//! searches follow: each move is drawn uniformly among those it allows after the moves before,
//! so nothing cancels or merges trivially (no step straight back on boards). Each puzzle's own
//! scrambles live in its registry module (the boards' in [`crate::registry::tiles::scramble`],
//! the cubes' in [`crate::registry::cubes::scramble`] and each cube's module), each checked
//! against the position it claims to reach.

use crate::{AppError, AppResult};
use godsearch_core::{MoveIdx, SequenceAutomaton};
use rand::seq::SliceRandom;
use rand::Rng;

/// `n` moves drawn one at a time from `position`, each uniformly among the moves that `order`
/// keeps canonical after the ones before and that `applicable` allows in the position reached
/// (`apply` makes each move drawn). Fails only if some position has no such move.
pub fn random_sequence<S>(
    order: &SequenceAutomaton,
    position: &mut S,
    n: usize,
    rng: &mut impl Rng,
    applicable: impl Fn(&S, MoveIdx) -> bool,
    mut apply: impl FnMut(&mut S, MoveIdx),
) -> AppResult<Vec<MoveIdx>> {
    let mut at = SequenceAutomaton::START;
    let mut moves = Vec::with_capacity(n);
    let mut options = Vec::with_capacity(order.move_count());
    while moves.len() < n {
        options.clear();
        for m in 0..order.move_count() as MoveIdx {
            if let Some(to) = order.next(at, m).filter(|_| applicable(position, m)) {
                options.push((m, to));
            }
        }
        let &(m, to) = options.choose(rng).ok_or_else(|| {
            AppError::Check(format!("no canonical move after {} moves", moves.len()))
        })?;
        apply(position, m);
        moves.push(m);
        at = to;
    }
    Ok(moves)
}
