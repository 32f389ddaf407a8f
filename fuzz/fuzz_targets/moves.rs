//! Move sequences and the stickers-or-moves rule: any text is refused or gives a valid cube;
//! a sequence written back reads as the same moves.
#![no_main]
use godsearch_puzzles::cube::notation::{format_moves, parse_moves};
use godsearch_puzzles::cube::{parse_position, CubeSize, Syntax};
use godsearch_puzzles::tiles::Move as TileMove;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(moves) = parse_moves(text) {
        assert_eq!(parse_moves(&format_moves(&moves)), Ok(moves));
    }
    for size in [CubeSize::Two, CubeSize::Three] {
        if let Ok(cube) = parse_position(size, text, Syntax::Auto) {
            assert!(cube.check().is_ok());
        }
    }
    if let Ok(moves) = TileMove::parse_sequence(text) {
        assert_eq!(TileMove::parse_sequence(&TileMove::format_sequence(&moves)), Ok(moves));
    }
});
