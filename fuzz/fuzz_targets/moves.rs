//! Move sequences, pasted algorithms and the stickers-or-moves rule: any text is refused or
//! gives a valid cube (a 2x2x2: valid corners); a sequence written back reads as the same moves.
#![no_main]
use godsearch_puzzles::cube::algorithm::parse_moves;
use godsearch_puzzles::cube::notation::format_moves;
use godsearch_puzzles::cube::{parse_position, Algorithm, Notation, Syntax, CUBE2, CUBE3};
use godsearch_puzzles::tiles::Move as TileMove;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(moves) = parse_moves(text) {
        assert_eq!(parse_moves(&format_moves(&moves)), Ok(moves));
    }
    if let Ok(algorithm) = Algorithm::parse(text) {
        for notation in [Notation::Singmaster, Notation::Sign] {
            assert_eq!(
                Algorithm::parse(&algorithm.format(notation)),
                Ok(algorithm.clone())
            );
        }
    }
    for size in [CUBE2, CUBE3] {
        if let Ok(cube) = parse_position(size, text, Syntax::Auto) {
            match size.has_middle_layers() {
                true => assert!(cube.check().is_ok()),
                // A 2x2x2 is its corners; its edges are not read.
                false => assert!(cube.check_corners().is_ok()),
            }
        }
    }
    if let Ok(moves) = TileMove::parse_sequence(text) {
        assert_eq!(
            TileMove::parse_sequence(&TileMove::format_sequence(&moves)),
            Ok(moves)
        );
    }
});
