//! The canonical-sequence automaton of a definition's moves, derived from which generators
//! commute, as twsearch derives its canonical state machine: after a move of generator `g`, no
//! move of `g` again (the two make one power of `g`, or none), and no move of a generator
//! `h < g` that commutes with `g` (the sequence with `h` first is as short and is tried instead).
//! The state is the last generator. Every sequence can be rewritten, by merging powers and
//! swapping adjacent commuting moves into increasing order, into one the automaton accepts, of
//! the same length or shorter: searches that follow it stay complete and optimal.

use super::definition::{OrbitDef, Transformation};
use super::space::{OrbitSpace, SpaceMove};
use godsearch_core::{RankInt, SequenceAutomaton};

/// The automaton of `space`'s moves (see the module docs).
pub fn canonical<R: RankInt>(space: &OrbitSpace<R>) -> SequenceAutomaton {
    of_moves(
        &space.generator_transformations(),
        space.orbits(),
        space.moves(),
    )
}

/// The automaton of `moves`, powers of `generators` acting on `orbits` (see the module docs).
pub fn of_moves(
    generators: &[Transformation],
    orbits: &[OrbitDef],
    moves: &[SpaceMove],
) -> SequenceAutomaton {
    let g = generators.len();
    let commutes: Vec<Vec<bool>> = (0..g)
        .map(|a| {
            (0..g)
                .map(|b| {
                    generators[a].then(&generators[b], orbits)
                        == generators[b].then(&generators[a], orbits)
                })
                .collect()
        })
        .collect();
    SequenceAutomaton::new(moves.len(), g + 1, |state, m| {
        let next = moves[m].generator;
        if state != SequenceAutomaton::START {
            let last = state as usize - 1;
            if next == last || (next < last && commutes[next][last]) {
                return None;
            }
        }
        Some(next + 1)
    })
    .expect("fewer generators than automaton states allow (checked when the space is made)")
}
