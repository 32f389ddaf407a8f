//! Boards: any text either fails to parse or gives a board that writes back to itself.
#![no_main]
use godsearch_puzzles::tiles::{Board, Shape};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    for (w, h) in [(3, 3), (4, 4), (2, 5), (5, 5)] {
        let shape = Shape::new(w, h).expect("a supported size");
        if let Ok(board) = Board::parse(shape, text) {
            assert_eq!(Board::parse(shape, &board.to_list()).as_ref(), Ok(&board));
            assert_eq!(Board::parse(shape, &board.to_grid()).as_ref(), Ok(&board));
            let _ = board.check_solvable(&Board::goal(shape));
        }
    }
});
