//! Definition files (KPuzzle JSON and `.tws`): any text is refused with a message or read into
//! a definition whose space, where one can be made, ranks its solved pattern and steps from
//! it; a KPuzzle pattern of it written out reads back the same.
#![no_main]
use godsearch_core::StateSpace;
use godsearch_orbit::{kpuzzle, tws, OrbitSpace};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    for read in [kpuzzle::read_definition, tws::read_definition] {
        let Ok(definition) = read(text) else { continue };
        let written = kpuzzle::write_pattern(&definition.solved, &definition);
        assert_eq!(
            kpuzzle::read_pattern(&written, &definition),
            Ok(definition.solved.clone())
        );
        if let Ok(space) = OrbitSpace::<u128>::new(&definition, &[], false) {
            let goal = space.goal_state();
            assert_eq!(space.rank_pattern(&space.pattern_of(goal)), Some(goal));
            space.for_each_neighbour(goal, |m, next| {
                let mut back = None;
                space.for_each_neighbour(next, |n, prev| {
                    if n == space.inverse_move(m) {
                        back = Some(prev);
                    }
                });
                assert_eq!(back, Some(goal));
            });
        }
    }
});
