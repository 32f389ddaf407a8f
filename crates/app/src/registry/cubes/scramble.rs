//! Cube scrambles: uniform random positions, or random canonical move sequences.
//!
//! - A uniform random 3x3x3 is drawn coordinate by coordinate ([`random_cube`]), solved by the
//!   two-phase method and given as the inverse of that solution: a scramble of at most
//!   [`SCRAMBLE_MAX_LENGTH`] moves that reaches it.
//! - A uniform random 2x2x2 is a uniform rank, given as the inverse of its optimal solution.
//! - A random move sequence follows the metric's canonical-sequence automaton
//!   ([`random_sequence`]): no face twice in a row and opposite faces in one order. In the
//!   quarter-turn metric the automaton allows `U U`, which is written `U2` (two quarter turns).
//! - In the slice-turn metric a 3x3x3 scramble is written with slices (`M E S`), which turn the
//!   whole cube with them; the position given is the one the written scramble leaves as held.
//!
//! Every scramble is checked against the position it claims to reach.

use crate::report::Scramble;
use crate::scramble::random_sequence;
use crate::{AppError, AppResult};
use godsearch_puzzles::cube::algorithm::held_form;
use godsearch_puzzles::cube::cube2::CUBE2_POSITIONS;
use godsearch_puzzles::cube::notation::{
    apply_moves, format_moves, invert_moves, merge_same_face, with_slices,
};
use godsearch_puzzles::cube::{
    facelet, random_cube, Cube2Space, CubeSize, CubieCube, Metric, Move, CUBE2_MAX_DISTANCE,
};
use godsearch_search::descend;
use godsearch_tables::TwoBitTable;
use godsearch_twophase::{solve, Options, Tables};
use rand::Rng;

/// Two-phase scrambles are at most this long (every position has a solution this short).
pub const SCRAMBLE_MAX_LENGTH: usize = 20;

/// A scramble's text in `metric` and the cube it leaves as held: the moves as they are, or in
/// the slice-turn metric written with slices ([`held_form`]), read back and replayed on the
/// stickers (the slices turn the cube, so the cube as held is a turned copy of `reached`, the
/// cube of the moves with the centres fixed). Fails only on a bug.
fn scramble_text(
    moves: &[Move],
    metric: Metric,
    reached: CubieCube,
) -> AppResult<(String, CubieCube)> {
    if metric != Metric::Stm {
        return Ok((format_moves(moves), reached));
    }
    let written = held_form(moves);
    let held = written
        .apply_held(CubeSize::Three, &CubieCube::SOLVED)
        .map_err(|e| AppError::Check(format!("a scramble written with slices: {e}")))?;
    Ok((written.to_string(), held))
}

/// `n` random moves of `metric` (a canonical sequence; see the module doc).
pub fn cube_moves(
    size: CubeSize,
    metric: Metric,
    n: usize,
    rng: &mut impl Rng,
) -> AppResult<Scramble> {
    let generators = metric.moves();
    let mut cube = CubieCube::SOLVED;
    let drawn = random_sequence(
        &metric.sequence_automaton(),
        &mut cube,
        n,
        rng,
        |_, _| true,
        |cube, k| *cube = cube.then(&generators[k as usize].cubie()),
    )
    .expect("every face turn applies to every cube");
    let turns: Vec<Move> = drawn.iter().map(|&k| generators[k as usize]).collect();
    let moves = merge_same_face(&turns);
    debug_assert_eq!(apply_moves(&CubieCube::SOLVED, &moves), cube);
    let (text, held) = scramble_text(&moves, metric, cube)?;
    Ok(Scramble {
        puzzle: size.to_string(),
        scramble: Some(text),
        length: Some(metric.length(&moves)),
        metric: Some(metric.name()),
        position: (size == CubeSize::Three).then(|| facelet::format(&held)),
    })
}

/// A uniform random 3x3x3 with a two-phase scramble of at most [`SCRAMBLE_MAX_LENGTH`] moves
/// (counted in `metric`).
pub fn cube3_uniform(tables: &Tables, metric: Metric, rng: &mut impl Rng) -> AppResult<Scramble> {
    let cube = random_cube(rng);
    let options = Options {
        target_length: SCRAMBLE_MAX_LENGTH,
        deadline: None,
        stop: None,
    };
    let solution = solve(tables, &cube, options).map_err(|source| AppError::Cube {
        text: facelet::format(&cube),
        source,
    })?;
    let mut moves = invert_moves(&solution.moves);
    if metric == Metric::Stm {
        moves = with_slices(&moves);
    }
    if apply_moves(&CubieCube::SOLVED, &moves) != cube {
        return Err(AppError::Check(
            "the scramble does not reach the position".into(),
        ));
    }
    let (text, held) = scramble_text(&moves, metric, cube)?;
    Ok(Scramble {
        puzzle: CubeSize::Three.to_string(),
        length: Some(metric.length(&moves)),
        scramble: Some(text),
        metric: Some(metric.name()),
        position: Some(facelet::format(&held)),
    })
}

/// A uniform random 2x2x2 with an optimal scramble in the metric of `space`, read from its
/// complete distance `table`.
pub fn cube2_uniform(
    space: &Cube2Space,
    table: &TwoBitTable,
    rng: &mut impl Rng,
) -> AppResult<Scramble> {
    let rank = rng.gen_range(0..CUBE2_POSITIONS);
    let path = descend(space, table, rank, CUBE2_MAX_DISTANCE)?;
    let solution: Vec<Move> = path.iter().map(|&k| space.moves()[k as usize]).collect();
    let moves = merge_same_face(&invert_moves(&solution));
    if space.rank(&apply_moves(&CubieCube::SOLVED, &moves)) != rank {
        return Err(AppError::Check(
            "the scramble does not reach the position".into(),
        ));
    }
    let metric = space.metric();
    Ok(Scramble {
        puzzle: CubeSize::Two.to_string(),
        length: Some(metric.length(&moves)),
        scramble: Some(format_moves(&moves)),
        metric: Some(metric.name()),
        position: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use godsearch_core::MoveIdx;
    use godsearch_puzzles::cube::algorithm::parse_moves;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn move_scrambles_are_canonical_and_reach_their_position() {
        let mut rng = StdRng::seed_from_u64(7);
        for metric in [Metric::Htm, Metric::Qtm] {
            let order = metric.sequence_automaton();
            for _ in 0..50 {
                let s = cube_moves(CubeSize::Three, metric, 30, &mut rng).unwrap();
                assert_eq!(s.length, Some(30), "{metric:?}: {s:?}");
                let moves = parse_moves(s.scramble.as_deref().unwrap()).unwrap();
                // Written with U2 for two quarter turns; as quarter turns it is canonical.
                let turns: Vec<MoveIdx> = moves
                    .iter()
                    .flat_map(|&m| match metric.index_of(m) {
                        Some(k) => vec![k],
                        None => vec![metric.index_of(Move { turns: 1, ..m }).unwrap(); 2],
                    })
                    .collect();
                assert!(order.state_after(&turns).is_some(), "{s:?}");
                let cube = apply_moves(&CubieCube::SOLVED, &moves);
                assert_eq!(s.position.unwrap(), facelet::format(&cube));
            }
        }
    }

    #[test]
    fn slice_turn_scrambles_are_written_with_slices_and_reach_their_position() {
        use godsearch_puzzles::cube::{Algorithm, TurnMetric};
        let mut rng = StdRng::seed_from_u64(8);
        let mut slices = 0;
        for _ in 0..50 {
            let s = cube_moves(CubeSize::Three, Metric::Stm, 25, &mut rng).unwrap();
            assert_eq!(s.length, Some(25));
            let written = Algorithm::parse(s.scramble.as_deref().unwrap()).unwrap();
            assert_eq!(written.length(TurnMetric::Stm), 25, "{s:?}");
            assert_eq!(written.length(TurnMetric::Etm), 25, "no rotation: {s:?}");
            slices += written.face_turns().is_none() as usize;
            let held = written
                .apply_held(CubeSize::Three, &CubieCube::SOLVED)
                .unwrap();
            assert_eq!(s.position.unwrap(), facelet::format(&held));
        }
        assert!(slices > 40, "most 25-move scrambles turn a middle layer");
    }

    #[test]
    fn quarter_turn_scrambles_merge_a_face_turned_twice() {
        let mut rng = StdRng::seed_from_u64(1);
        let merged = (0..200)
            .map(|_| cube_moves(CubeSize::Two, Metric::Qtm, 20, &mut rng).unwrap())
            .filter(|s| s.scramble.as_deref().unwrap().contains('2'))
            .count();
        assert!(merged > 0, "U U should come up and be written U2");
    }

    #[test]
    fn cube2_scrambles_reach_their_rank() {
        let mut rng = StdRng::seed_from_u64(5);
        let space = Cube2Space::new(Metric::Htm);
        let (table, _) = crate::tables::table_in_memory(&space).unwrap();
        for _ in 0..20 {
            let s = cube2_uniform(&space, &table, &mut rng).unwrap();
            assert!(s.length.unwrap() <= 11);
        }
    }
}
