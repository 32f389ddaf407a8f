//! Solving positions of definition puzzles whose ranks pass 128 bits (the megaminx, the
//! 4x4x4): IDA* over their [`SlotSpace`] with the positions near solved, hashed, as the lower
//! bound, grown with the search's bound (`GrowingBall`, in `ball.rs`).
//!
//! Pattern databases of projections, as the ranked spaces get, were measured here and
//! dropped: the subsets of pieces that fit (the 4x4x4's wings three at a time) gave the
//! search 2-6x fewer nodes at a twentieth of the node rate; a 10-move 4x4x4 scramble took
//! 86 s with them beside the ball, 16 s without (docs/definitions.md).
//!
//! The solution is replayed before it is returned.

use super::ball::{GrowingBall, BALL_SHARE};
use super::file::DefinitionPuzzle;
use super::search::{report, search, DefinitionSolveRequest, GiveUp, How, NEAR_METHOD};
use crate::report::DefinitionSolution;
use crate::{AppError, AppResult};
use godsearch_core::{MoveIdx, StateSpace};
use godsearch_orbit::group::Membership;
use godsearch_orbit::slots::{SlotSpace, Slots, MAX_SLOTS};
use godsearch_orbit::Pattern;
use std::sync::OnceLock;
use std::time::Instant;

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
    /// Within [`BALL_SHARE`] of the memory budget.
    ball: GrowingBall<Slots<N>>,
}

impl<const N: usize> SlotSolver<N> {
    /// The space of `puzzle` under `request`; the ball is built by the searches.
    pub fn new(puzzle: &DefinitionPuzzle, request: &DefinitionSolveRequest) -> AppResult<Self> {
        let space = puzzle.slot_space_of(request.generators, request.metric)?;
        let ball_bytes = (request.memory_bytes as f64 * BALL_SHARE) as u128;
        let ball = GrowingBall::new(&space, ball_bytes, 1);
        Ok(Self {
            puzzle: puzzle.clone(),
            space,
            count: request.count,
            group: OnceLock::new(),
            ball,
        })
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
            |bound, _| {
                let (ball, seconds) = self.ball.for_bound(space, bound, None, &give_up);
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
            notes: Vec::new(),
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
            prepared_ranks: 0,
            count: 1,
            table: None,
            algorithm: Default::default(),
            cache: None,
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
