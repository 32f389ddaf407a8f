//! Puzzle names, as the registry reads them: any text opens a puzzle or is refused with an
//! error; an opened puzzle's own name opens the same puzzle again.
#![no_main]
use godsearch_app::registry;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(puzzle) = registry::open(text, false) {
        let name = puzzle.entry().name;
        let again = registry::open(&name, false).map(|p| p.entry().name);
        assert_eq!(again.ok(), Some(name));
    }
});
