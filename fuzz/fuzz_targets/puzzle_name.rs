//! Puzzle names and board sizes: any text is a known puzzle of a supported size, or an error;
//! a name's own spelling reads back as the same puzzle.
#![no_main]
use godsearch_puzzles::tiles::MAX_CELLS;
use godsearch_puzzles::PuzzleName;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(name) = text.parse::<PuzzleName>() {
        if let PuzzleName::Tiles(shape) = name {
            assert!(shape.cells() <= MAX_CELLS && shape.width() >= 2 && shape.height() >= 2);
        }
        assert_eq!(name.to_string().parse::<PuzzleName>(), Ok(name));
    }
});
