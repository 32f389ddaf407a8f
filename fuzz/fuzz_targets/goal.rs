//! Goals (boards or names): any parsed goal gives a ranked space and heuristics without a panic, and a board
//! written for it is judged solvable or not by parity alone.
#![no_main]
use godsearch_core::StateSpace;
use godsearch_puzzles::tiles::{Board, Shape, TileSpace};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    for (w, h) in [(3, 3), (2, 4), (4, 4)] {
        let shape = Shape::new(w, h).expect("a supported size");
        if let Ok(goal) = Board::parse_goal(shape, text) {
            let space =
                TileSpace::<u64>::new(goal.clone()).expect("up to 16 cells rank in 64 bits");
            assert_eq!(space.rank(&goal), space.goal_state());
            assert!(goal.check_solvable(&goal).is_ok());
            let standard = Board::goal(shape);
            let _ = standard.check_solvable(&goal);
        }
    }
});
