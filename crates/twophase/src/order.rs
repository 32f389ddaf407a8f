//! The canonical order of face turns both two-phase searches and the table builds follow, as
//! bit masks: its own module so that the tables and the search both read it and neither
//! depends on the other.

use crate::coords::MOVES;
use godsearch_core::{AutomatonState, MoveIdx, SequenceAutomaton};
use godsearch_puzzles::cube::notation::Metric;

/// The canonical order of face turns: the cube's sequence automaton in the half-turn metric
/// ([`Metric::sequence_automaton`]: never a face twice in a row, and of two opposite faces only
/// `U D`, `R L`, `F B`), tabulated as masks for the searches' bit loops.
#[derive(Debug, Clone)]
pub(crate) struct MoveOrder {
    automaton: SequenceAutomaton,
    /// `allowed[state]`: the moves canonical after the sequence that led to `state`.
    allowed: Vec<u32>,
}

impl MoveOrder {
    pub(crate) fn new() -> Self {
        let automaton = Metric::Htm.sequence_automaton();
        debug_assert_eq!(automaton.move_count(), MOVES);
        let allowed = (0..automaton.state_count())
            .map(|s| automaton.allowed_mask(s as AutomatonState) as u32)
            .collect();
        MoveOrder { automaton, allowed }
    }

    /// The moves canonical from `state`, as a mask.
    #[inline]
    pub(crate) fn allowed(&self, state: AutomatonState) -> u32 {
        self.allowed[state as usize]
    }

    /// The state after move `m`, which [`allowed`](Self::allowed) lists.
    #[inline]
    pub(crate) fn after(&self, state: AutomatonState, m: usize) -> AutomatonState {
        self.automaton
            .next(state, m as MoveIdx)
            .expect("only allowed moves are made")
    }
}
