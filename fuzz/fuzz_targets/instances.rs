//! Korf-style instance files: any text is refused with a line number or gives boards, and
//! a goal any line declares is read back as it was written.
#![no_main]
use godsearch_puzzles::tiles::{declared_goal, parse_instances, Board, Shape};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    for (w, h) in [(3, 3), (4, 4)] {
        let shape = Shape::new(w, h).expect("a supported size");
        match parse_instances(shape, text) {
            Ok(instances) => {
                for i in instances {
                    assert_eq!(Board::parse(shape, &i.board.to_list()), Ok(i.board));
                }
            }
            Err((line, _)) => assert!(line >= 1 && line <= text.lines().count()),
        }
    }
    for goal in text.lines().filter_map(declared_goal) {
        assert_eq!(declared_goal(&format!("# goal: {goal}")), Some(goal));
    }
});
