//! The canonical-sequence automata as tested objects: their sequence counts against the
//! published figures, and completeness (every position has a shortest canonical solution)
//! checked by a breadth-first search that follows canonical sequences only.

use godsearch_core::{AutomatonState, RankedSpace, SequenceAutomaton};
use godsearch_puzzles::cube::{Cube2Space, Metric};
use godsearch_puzzles::tiles::{Board, Shape, TileSpace};
use godsearch_testdata::levels;

/// Canonical sequences of each length against the positions at that distance (published):
/// never fewer, exactly the first `exact` figures given, and at most `excess` more at
/// every depth up to `depth`.
fn check_against_positions(
    automaton: &SequenceAutomaton,
    file: &str,
    exact: &[u128],
    depth: usize,
    excess: f64,
) {
    let counts = automaton.sequence_counts(depth);
    assert_eq!(&counts[..exact.len()], exact, "{file}");
    let positions = levels(file);
    for d in 0..=depth {
        let (seqs, pos) = (counts[d] as f64, positions[d] as f64);
        assert!(seqs >= pos, "{file} depth {d}: {seqs} sequences < {pos}");
        assert!(
            seqs / pos - 1.0 <= excess,
            "{file} depth {d}: {seqs} sequences for {pos} positions"
        );
    }
}

#[test]
fn cube_htm_sequences_are_the_known_counts_and_a_few_percent_above_positions() {
    // twsearch reports about 5% more sequences than positions at depth 10; this automaton
    // gives 244,686,773,808 for 232,248,063,316 (5.36%).
    let a = Metric::Htm.sequence_automaton();
    check_against_positions(
        &a,
        "cube3x3x3-htm.txt",
        &[1, 18, 243, 3240, 43254, 577368, 7706988],
        10,
        0.055,
    );
}

#[test]
fn cube_qtm_sequences_are_a_few_percent_above_positions() {
    let a = Metric::Qtm.sequence_automaton();
    // Equal to the positions through depth 5; 2.25% above them at depth 12.
    check_against_positions(
        &a,
        "cube3x3x3-qtm.txt",
        &[1, 12, 114, 1068, 10011, 93840],
        12,
        0.023,
    );
}

/// Levels of a breadth-first search that extends only canonical sequences: the distance at
/// which each position is first reached. Equal to the true levels exactly when the automaton
/// never refuses the last move of every shortest path to some position.
fn canonical_levels<P: RankedSpace<State = u64>>(space: &P) -> Vec<u64> {
    let automaton = space.sequence_automaton();
    let mut seen = vec![false; space.state_count() as usize];
    let goal = space.goal_state();
    seen[goal as usize] = true;
    let mut frontier: Vec<(u64, AutomatonState)> = vec![(goal, SequenceAutomaton::START)];
    let mut found = vec![1u64];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for &(state, at) in &frontier {
            space.for_each_neighbour(state, |m, nb| {
                if let Some(to) = automaton.next(at, m) {
                    next.push((nb, to));
                }
            });
        }
        next.sort_unstable();
        next.dedup();
        // A prefix of a shortest sequence is a shortest sequence of its own position, so only
        // pairs at positions first reached now are extended.
        next.retain(|&(nb, _)| !seen[nb as usize]);
        let mut new = 0;
        for &(nb, _) in &next {
            if !seen[nb as usize] {
                seen[nb as usize] = true;
                new += 1;
            }
        }
        if new > 0 {
            found.push(new);
        }
        frontier = next;
    }
    found
}

#[test]
fn canonical_sequences_reach_every_2x2x2_position_at_its_distance() {
    for (metric, file) in [
        (Metric::Htm, "cube2x2x2-htm.txt"),
        (Metric::Qtm, "cube2x2x2-qtm.txt"),
    ] {
        assert_eq!(canonical_levels(&Cube2Space::new(metric)), levels(file));
    }
}

#[test]
fn no_undo_sequences_reach_every_3x3_position_at_its_distance() {
    let space = TileSpace::<u64>::new(Board::goal(Shape::new(3, 3).unwrap())).unwrap();
    assert_eq!(canonical_levels(&space), levels("sliding-3x3.txt"));
}
