//! Scrambles of a definition puzzle: uniform random elements of its group, and random canonical
//! move sequences.

use super::file::{DefinitionMetric, DefinitionPuzzle};
use super::solve::DefinitionSolver;
use crate::report::Scramble;
use crate::{AppError, AppResult};
use rand::Rng;

/// Uniformly random positions of a definition puzzle over its generators: uniform elements of
/// the group they generate (Schreier-Sims), each with an optimal sequence reaching it where a
/// table of every position fits, and random canonical move sequences.
pub struct DefinitionScrambler {
    puzzle: DefinitionPuzzle,
    group: godsearch_orbit::group::Group,
    solver: Option<DefinitionSolver>,
    /// The moves random move sequences are drawn from (every power of each generator, or only
    /// quarter turns), with the canonical-sequence automaton they follow: no ranks needed, so
    /// puzzles past 128-bit ranks get sequences too.
    moves: godsearch_orbit::space::SpaceMoves,
    automaton: godsearch_core::SequenceAutomaton,
    metric: DefinitionMetric,
}

impl DefinitionScrambler {
    /// The scrambler of `puzzle` over `generators` in `metric`; `with_sequences` builds the
    /// table that gives each uniform position its sequence, where it fits.
    pub fn new(
        puzzle: &DefinitionPuzzle,
        generators: &[String],
        metric: DefinitionMetric,
        memory_bytes: u64,
        with_sequences: bool,
    ) -> AppResult<Self> {
        use super::solve::{DefinitionSolveRequest, DESCENT_RANKS};
        use godsearch_orbit::{automaton, space};
        let quarter = metric == DefinitionMetric::Quarter;
        let moves = space::space_moves(&puzzle.definition, generators, quarter)?;
        let automaton = automaton::of_moves(
            &space::generator_transformations(&moves.moves),
            &puzzle.definition.orbits,
            &moves.moves,
        );
        let fits = match puzzle.space::<u128>(generators, metric) {
            Ok(space) => godsearch_core::RankedSpace::state_count(&space) <= DESCENT_RANKS,
            Err(AppError::OrbitSpace(godsearch_orbit::SpaceError::TooLarge { .. })) => false,
            Err(e) => return Err(e),
        };
        let group = puzzle.group(generators)?;
        let solver = match with_sequences && fits {
            true => {
                let request = DefinitionSolveRequest {
                    generators,
                    metric,
                    memory_bytes,
                    deadline: None,
                    descent_ranks: DESCENT_RANKS,
                    database_ranks: 0,
                    prepared_ranks: 0,
                    count: 1,
                    table: None,
                    algorithm: Default::default(),
                    cache: None,
                };
                Some(DefinitionSolver::new(
                    puzzle,
                    &request,
                    &godsearch_core::NoProgress,
                )?)
            }
            false => None,
        };
        Ok(Self {
            puzzle: puzzle.clone(),
            group,
            solver,
            moves,
            automaton,
            metric,
        })
    }

    /// A uniformly random position, with an optimal sequence reaching it where the table fits.
    pub fn uniform(&self, rng: &mut impl Rng) -> AppResult<Scramble> {
        let d = &self.puzzle.definition;
        let pattern = self.group.random(rng).apply(&d.solved, &d.orbits);
        let moves = match &self.solver {
            Some(solver) => Some(solver.reaching(&pattern)?),
            None => None,
        };
        Ok(self.report(moves, &pattern))
    }

    /// `length` random moves, each canonical after the ones before, and the position they make.
    pub fn moves(&self, length: usize, rng: &mut impl Rng) -> AppResult<Scramble> {
        use godsearch_core::{MoveIdx, SequenceAutomaton};
        let d = &self.puzzle.definition;
        let mut state = SequenceAutomaton::START;
        let mut pattern = d.solved.clone();
        let mut names = Vec::with_capacity(length);
        for _ in 0..length {
            let allowed: Vec<(MoveIdx, _)> = (0..self.moves.moves.len() as MoveIdx)
                .filter_map(|m| self.automaton.next(state, m).map(|next| (m, next)))
                .collect();
            let (m, next) = allowed[rng.gen_range(0..allowed.len())];
            state = next;
            let mv = &self.moves.moves[m as usize];
            pattern = mv.transformation.apply(&pattern, &d.orbits);
            names.push(mv.name.clone());
        }
        Ok(self.report(Some(names), &pattern))
    }

    fn report(&self, moves: Option<Vec<String>>, pattern: &godsearch_orbit::Pattern) -> Scramble {
        Scramble {
            puzzle: self.puzzle.name().to_string(),
            length: moves.as_ref().map(Vec::len),
            scramble: moves.map(|m| m.join(" ")),
            metric: Some(self.metric.name()),
            position: Some(godsearch_orbit::kpuzzle::write_pattern(
                pattern,
                &self.puzzle.definition,
            )),
        }
    }
}
