//! Canonical move sequences as an automaton.
//!
//! Many move sequences reach the same state: a move and its inverse, `U U` (which is `U2`),
//! `D U` (which is `U D`). A search that tries only *canonical* sequences skips them without
//! looking at states. The automaton reads a sequence one move at a time; its state after a
//! prefix says which next moves keep the sequence canonical. Searches carry an
//! [`AutomatonState`] per node (one byte) and look the next one up in a table, so the rule
//! costs the same for every puzzle.
//!
//! The counts of canonical sequences of each length are the branching a search sees; they are
//! tested against known figures (the 3x3x3: 1, 18, 243, 3240, 43254, ... in the half-turn
//! metric, a few percent above the positions at each distance), the way twsearch tests its
//! canonical state machine.

/// A state of a [`SequenceAutomaton`]; [`SequenceAutomaton::START`] before any move.
pub type AutomatonState = u8;

/// Marks a refused transition in the table.
const REFUSED: AutomatonState = AutomatonState::MAX;

/// Deterministic automaton over move indices: `next(state, move)` is the state after the
/// move, or `None` when the move would make the sequence non-canonical.
///
/// Guarantee (given by whoever builds it, tested per puzzle): every state reachable by some
/// sequence is reachable by a canonical one of the same or shorter length, so a search that
/// follows only canonical sequences stays complete and optimal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SequenceAutomaton {
    moves: usize,
    states: usize,
    /// `table[state * moves + move]`: the next state or [`REFUSED`].
    table: Vec<AutomatonState>,
}

/// An automaton could not be built as described.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AutomatonError {
    /// More states than fit in an [`AutomatonState`] (one value is reserved).
    #[error("an automaton of {0} states is too large (at most 255)")]
    TooManyStates(usize),
    /// A transition names a state that does not exist.
    #[error("a transition leads to state {to}, but there are only {states} states")]
    NoSuchState {
        /// The target named.
        to: usize,
        /// The number of states.
        states: usize,
    },
}

impl SequenceAutomaton {
    /// The state before any move.
    pub const START: AutomatonState = 0;

    /// Builds an automaton of `states` states over `moves` moves from a transition rule
    /// (`None` refuses the move).
    pub fn new(
        moves: usize,
        states: usize,
        rule: impl Fn(AutomatonState, usize) -> Option<usize>,
    ) -> Result<Self, AutomatonError> {
        if states >= REFUSED as usize {
            return Err(AutomatonError::TooManyStates(states));
        }
        let mut table = Vec::with_capacity(states * moves);
        for s in 0..states {
            for m in 0..moves {
                table.push(match rule(s as AutomatonState, m) {
                    None => REFUSED,
                    Some(to) if to < states => to as AutomatonState,
                    Some(to) => return Err(AutomatonError::NoSuchState { to, states }),
                });
            }
        }
        Ok(SequenceAutomaton {
            moves,
            states,
            table,
        })
    }

    /// The automaton whose state is the last move (state `1 + m` after move `m`):
    /// `allowed(last, next)` says whether `next` may follow `last`. Every move may start a
    /// sequence. Covers the common rules: no move after its inverse (tiles), no face after
    /// itself and opposite faces in one order (cubes in the half-turn metric).
    ///
    /// # Panics
    /// If `moves` is 255 or more (no puzzle here comes close; the limit is a property of the
    /// one-byte state).
    pub fn from_last_move(
        moves: usize,
        allowed: impl Fn(crate::MoveIdx, crate::MoveIdx) -> bool,
    ) -> Self {
        Self::new(moves, moves + 1, |state, m| {
            let fine =
                state == Self::START || allowed(state as crate::MoveIdx - 1, m as crate::MoveIdx);
            fine.then_some(m + 1)
        })
        .expect("fewer than 255 moves")
    }

    /// The automaton that accepts every sequence.
    pub fn everything(moves: usize) -> Self {
        Self::from_last_move(moves, |_, _| true)
    }

    /// Number of moves it reads.
    pub fn move_count(&self) -> usize {
        self.moves
    }

    /// Number of states.
    pub fn state_count(&self) -> usize {
        self.states
    }

    /// The state after `m` from `state`, or `None` when `m` is not canonical there.
    #[inline]
    pub fn next(&self, state: AutomatonState, m: crate::MoveIdx) -> Option<AutomatonState> {
        let to = self.table[state as usize * self.moves + m as usize];
        (to != REFUSED).then_some(to)
    }

    /// The state after `moves` from the start, or `None` when they are not canonical.
    pub fn state_after(&self, moves: &[crate::MoveIdx]) -> Option<AutomatonState> {
        moves
            .iter()
            .try_fold(Self::START, |state, &m| self.next(state, m))
    }

    /// The moves canonical from `state` as a mask (bit `m` for move `m`), for searches that
    /// pick children by bit operations. Panics if the automaton reads more than 64 moves.
    pub fn allowed_mask(&self, state: AutomatonState) -> u64 {
        assert!(self.moves <= 64, "a mask holds at most 64 moves");
        (0..self.moves)
            .filter(|&m| self.next(state, m as crate::MoveIdx).is_some())
            .fold(0, |mask, m| mask | 1 << m)
    }

    /// Number of canonical sequences of each length `0..=max_length` (exact, by dynamic
    /// programming over the automaton's states; saturates at `u128::MAX`).
    pub fn sequence_counts(&self, max_length: usize) -> Vec<u128> {
        let mut at = vec![0u128; self.states];
        at[Self::START as usize] = 1;
        let mut counts = vec![1u128];
        for _ in 0..max_length {
            let mut next = vec![0u128; self.states];
            for (s, &n) in at.iter().enumerate() {
                for m in 0..self.moves {
                    if let Some(to) = self.next(s as AutomatonState, m as crate::MoveIdx) {
                        next[to as usize] = next[to as usize].saturating_add(n);
                    }
                }
            }
            counts.push(next.iter().fold(0u128, |a, &b| a.saturating_add(b)));
            at = next;
        }
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_undo_on_four_moves_branches_three_ways() {
        // Moves 0/1 and 2/3 are inverse pairs, as the tiles' U/D and L/R.
        let a = SequenceAutomaton::from_last_move(4, |last, next| next != last ^ 1);
        assert_eq!(a.sequence_counts(4), vec![1, 4, 12, 36, 108]);
        assert_eq!(a.next(SequenceAutomaton::START, 0), Some(1));
        assert_eq!(a.next(1, 1), None);
        assert_eq!(a.next(1, 0), Some(1));
    }

    #[test]
    fn everything_counts_every_sequence() {
        assert_eq!(
            SequenceAutomaton::everything(3).sequence_counts(3),
            vec![1, 3, 9, 27]
        );
    }

    #[test]
    fn bad_automata_are_refused() {
        assert_eq!(
            SequenceAutomaton::new(2, 300, |_, _| None),
            Err(AutomatonError::TooManyStates(300))
        );
        assert_eq!(
            SequenceAutomaton::new(2, 2, |_, _| Some(5)),
            Err(AutomatonError::NoSuchState { to: 5, states: 2 })
        );
    }
}
