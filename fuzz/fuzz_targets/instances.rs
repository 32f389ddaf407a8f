//! Korf-style instance files: any text is refused with a line number or gives boards, a goal
//! any line declares is read back as it was written, and the goal a text declares is its first
//! declaration's, or refused naming a declaring line.
#![no_main]
use godsearch_puzzles::tiles::{
    declared_goal, goal_declared, parse_instances, Board, DeclaredGoalError, Shape,
};
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
        let numbered = text.lines().enumerate().map(|(i, line)| (i + 1, line));
        let first = numbered
            .clone()
            .find(|(_, line)| declared_goal(line).is_some());
        match goal_declared(shape, numbered) {
            Ok(Some((line, goal))) => {
                let (first_line, text) = first.expect("a declaration was read");
                assert_eq!(line, first_line);
                let declared = declared_goal(text).expect("its line declares a goal");
                assert_eq!(Board::parse_goal(shape, declared), Ok(goal));
            }
            Ok(None) => assert!(first.is_none()),
            Err(
                DeclaredGoalError::NoGoal { line, .. } | DeclaredGoalError::Differ { line, .. },
            ) => {
                let declaring = |(n, l): (usize, &str)| n == line && declared_goal(l).is_some();
                assert!(text
                    .lines()
                    .enumerate()
                    .map(|(i, l)| (i + 1, l))
                    .any(declaring));
            }
        }
    }
    for goal in text.lines().filter_map(declared_goal) {
        assert_eq!(declared_goal(&format!("# goal: {goal}")), Some(goal));
    }
});
