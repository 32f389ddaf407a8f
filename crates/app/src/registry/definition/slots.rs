//! Solving positions of definition puzzles whose ranks pass 128 bits (the megaminx, the
//! 4x4x4): IDA* over their [`SlotSpace`] with the positions near solved, hashed
//! ([`HashedBall`]), as the lower bound. The ball grows with the search's bound to half of it
//! (as twsearch grows its prune table), within [`SLOT_BALL_SHARE`] of the memory budget: a position at distance
//! `d` reads at least `depth + 1` outside the ball, so an iteration of bound `b` expands the
//! nodes within about `b - depth` moves of the start and meets the ball in the middle.
//!
//! Pattern databases of projections, as the ranked spaces get, were measured here and
//! dropped: the subsets of pieces that fit (the 4x4x4's wings three at a time) gave the
//! search 2-6x fewer nodes at a twentieth of the node rate; a 10-move 4x4x4 scramble took
//! 86 s with them beside the ball, 16 s without (docs/definitions.md).
//!
//! The solution is replayed before it is returned.

use super::file::DefinitionPuzzle;
use super::search::{
    report, search, BuildProgress, DefinitionSolveRequest, GiveUp, How, NEAR_METHOD,
};
use crate::report::DefinitionSolution;
use crate::{AppError, AppResult};
use godsearch_core::progress::on_tables;
use godsearch_core::{MoveIdx, NoProgress, StateSpace};
use godsearch_enumerate::hashed_ball::{
    bytes_for, canonical_sequences, slots_for, HashedBall, MAX_BALL_DEPTH,
};
use godsearch_orbit::group::Membership;
use godsearch_orbit::slots::{SlotSpace, Slots, MAX_SLOTS};
use godsearch_orbit::Pattern;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// The share of the memory budget the hashed ball of positions near solved may take (the
/// search's own memory is small). With the default budget on a 24 GB machine it holds the
/// 4x4x4's positions within 6 moves, built in about a minute when a search's bound first
/// reaches 12 (a 12-move scramble), and the megaminx's within 5.
pub const SLOT_BALL_SHARE: f64 = 0.5;

/// A slot space of positions of `N` bytes and its ball of positions near solved, grown as the
/// searches need it and kept for the next positions.
pub struct SlotSolver<const N: usize = MAX_SLOTS> {
    puzzle: DefinitionPuzzle,
    space: SlotSpace<N>,
    count: usize,
    /// The group the moves generate, to refuse the positions they cannot reach (`None` past
    /// the points a table is made for); made at the first position that needs it (the
    /// megaminx's takes 0.04 s, four times a 6-move solve).
    group: OnceLock<Option<Membership>>,
    /// Per depth, the canonical sequences a ball that deep enters (an upper bound on its
    /// positions), up to the deepest ball that fits [`SLOT_BALL_SHARE`] of the memory budget.
    ball_sequences: Vec<u128>,
    ball: Mutex<Arc<HashedBall<Slots<N>>>>,
}

impl<const N: usize> SlotSolver<N> {
    /// The space of `puzzle` under `request`; the ball is built by the searches.
    pub fn new(puzzle: &DefinitionPuzzle, request: &DefinitionSolveRequest) -> AppResult<Self> {
        let space = puzzle.slot_space_of(request.generators, request.metric)?;
        let ball_bytes = (request.memory_bytes as f64 * SLOT_BALL_SHARE) as u128;
        let automaton = space.sequence_automaton();
        let ball_sequences = (0..=MAX_BALL_DEPTH)
            .map(|d| canonical_sequences(&automaton, d))
            .enumerate()
            .take_while(|&(d, sequences)| d == 0 || bytes_for(sequences) <= ball_bytes)
            .map(|(_, sequences)| sequences)
            .collect();
        let ball = Mutex::new(Arc::new(HashedBall::build(&space, 0, 1)));
        Ok(Self {
            puzzle: puzzle.clone(),
            space,
            count: request.count,
            group: OnceLock::new(),
            ball_sequences,
            ball,
        })
    }

    /// The ball for an iteration of bound `bound`: half as deep, rounded down (as deep as
    /// fits), built now if the one held is shallower, and kept; the one held when `give_up`
    /// stops the build. Also the seconds spent building it now.
    fn ball_for(&self, bound: u32, give_up: &GiveUp) -> (Arc<HashedBall<Slots<N>>>, f64) {
        let deepest = self.ball_sequences.len() as u32 - 1;
        let depth = (bound / 2).min(deepest);
        let mut held = self.ball.lock().unwrap_or_else(|e| e.into_inner());
        if held.depth() >= depth {
            return (Arc::clone(&held), 0.0);
        }
        let built = Instant::now();
        let slots = slots_for(self.ball_sequences[depth as usize]);
        let shown = give_up.tables.unwrap_or(&NoProgress);
        let what = format!("the positions within {depth} moves of solved, hashed");
        let progress = BuildProgress { give_up, shown };
        let ball = on_tables(shown, &what, || {
            HashedBall::build_until(&self.space, depth, slots as usize, &progress)
        });
        if let Some(ball) = ball {
            *held = Arc::new(ball);
        }
        (Arc::clone(&held), built.elapsed().as_secs_f64())
    }

    /// Solves `start` optimally (written `start_text` in the report; the request's `count`
    /// shortest solutions), giving up as `give_up` says.
    pub fn solve(
        &self,
        start: &Pattern,
        start_text: &str,
        give_up: GiveUp,
    ) -> AppResult<DefinitionSolution> {
        let (puzzle, space) = (&self.puzzle, &self.space);
        // A search of a space this large never runs out of positions: a position the moves
        // cannot reach is refused here, by the group, not searched for until the deadline. A
        // position written as the space's own moves is reached by them: nothing to ask.
        let d = &puzzle.definition;
        let unreachable = || {
            AppError::Input(format!(
                "{}: the generators {} cannot reach this position from solved",
                puzzle.name(),
                space.generators().join(",")
            ))
        };
        if !self.made_of_moves(start_text) {
            let group = self.group.get_or_init(|| {
                Membership::new(&space.generator_transformations(), &d.orbits).ok()
            });
            if let Some(Ok(Some(false))) = group.as_ref().map(|g| g.reaches(&d.solved, start)) {
                return Err(unreachable());
            }
        }
        let started = Instant::now();
        let (mut deepest, mut build_seconds) = (0, 0.0);
        let found = search(
            space,
            |bound| {
                let (ball, seconds) = self.ball_for(bound, &give_up);
                deepest = deepest.max(ball.depth());
                build_seconds += seconds;
                Some(ball)
            },
            space.slots_of(start),
            self.count,
            give_up,
            unreachable,
        )?;
        let how = How {
            method: NEAR_METHOD,
            databases: vec![format!("every position within {deepest} moves")],
            build_seconds,
            seconds: started.elapsed().as_secs_f64() - build_seconds,
        };
        report(puzzle, space, (start, start_text), found, how)
    }

    /// Whether `text` is a sequence of the space's own moves (each word one of their names),
    /// so that its position is reached by them.
    fn made_of_moves(&self, text: &str) -> bool {
        let names: Vec<String> = (0..self.space.move_count())
            .map(|m| self.space.move_name(m as MoveIdx))
            .collect();
        text.split_whitespace()
            .all(|w| names.iter().any(|n| n == w))
    }

    /// The space's move names, for sequences the solver gives.
    pub fn space(&self) -> &SlotSpace<N> {
        &self.space
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::definition::file::DefinitionMetric;

    /// Only a sequence of the space's own moves skips the group's question: a derived move, a
    /// move outside the generators, a pattern or a name that is no move still ask it.
    #[test]
    fn only_the_spaces_own_moves_skip_the_group() {
        let puzzle = crate::registry::definition::shipped::find("4x4x4")
            .unwrap()
            .open()
            .unwrap();
        let generators = vec!["U".to_string(), "R".to_string(), "2F".to_string()];
        let request = DefinitionSolveRequest {
            generators: &generators,
            metric: DefinitionMetric::Outer,
            memory_bytes: 1 << 28,
            deadline: None,
            descent_ranks: 0,
            database_ranks: 0,
            count: 1,
            table: None,
            algorithm: Default::default(),
        };
        let solver = SlotSolver::<MAX_SLOTS>::new(&puzzle, &request).unwrap();
        assert!(solver.made_of_moves("U R2 2F' U'"));
        assert!(solver.made_of_moves(""));
        for asked in ["U F", "U [R, U]", "{\"CORNERS\": {}}", "twisted", "U x"] {
            assert!(!solver.made_of_moves(asked), "{asked}");
        }
        assert!(solver.group.get().is_none());
        let length = |text: &str| {
            let start = crate::registry::definition::file::position(&puzzle, text).unwrap();
            solver
                .solve(&start, text, GiveUp::default())
                .unwrap()
                .length
        };
        assert_eq!(length("R U R'"), 3);
        assert!(solver.group.get().is_none(), "moves alone ask nothing");
        assert_eq!(length("[R, U]"), 4);
        assert!(solver.group.get().is_some(), "a commutator asks the group");
    }
}
