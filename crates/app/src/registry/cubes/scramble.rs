//! Random move scrambles of any cube: a random canonical move sequence ([`random_sequence`])
//! in the metric's automaton (no face twice in a row, opposite faces in one order), and where
//! it leads. In the quarter-turn metric the automaton allows `U U`, which is written `U2` (two
//! quarter turns); in the slice-turn metric the scramble is written with slices (`M E S`),
//! which turn the whole cube with them, and the position given is the one the written scramble
//! leaves as held. Each cube's uniform scrambles live with its puzzle
//! ([`cube2`](crate::registry::cube2), [`cube3`](crate::registry::cube3)).
//!
//! Every scramble is checked against the position it claims to reach.

use crate::report::Scramble;
use crate::scramble::random_sequence;
use crate::{AppError, AppResult};
use godsearch_puzzles::cube::algorithm::held_form;
use godsearch_puzzles::cube::notation::{apply_moves, format_moves, merge_same_face};
use godsearch_puzzles::cube::{CubeShape, CubieCube, Metric, Move};
use rand::Rng;

/// A scramble's text in `metric` and the position it leaves `shape` in as held: the moves as
/// they are, or in the slice-turn metric written with slices ([`held_form`]), read back and
/// replayed on the stickers (the slices turn the cube, so the cube as held is a turned copy of `reached`, the
/// cube of the moves with the centres fixed). Fails only on a bug.
pub(crate) fn scramble_text(
    shape: CubeShape,
    moves: &[Move],
    metric: Metric,
    reached: CubieCube,
) -> AppResult<(String, CubieCube)> {
    if metric != Metric::Stm {
        return Ok((format_moves(moves), reached));
    }
    let written = held_form(moves);
    let held = written
        .apply_held(shape, &CubieCube::SOLVED)
        .map_err(|e| AppError::Check(format!("a scramble written with slices: {e}")))?;
    Ok((written.to_string(), held))
}

/// `n` random moves of `metric` on `shape` (a canonical sequence; see the module doc), with the
/// stickers they leave.
pub fn cube_moves(
    shape: CubeShape,
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
    let (text, held) = scramble_text(shape, &moves, metric, cube)?;
    Ok(Scramble {
        puzzle: shape.to_string(),
        scramble: Some(text),
        length: Some(metric.length(&moves)),
        metric: Some(metric.name()),
        position: Some(shape.write_facelets(&held)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use godsearch_core::MoveIdx;
    use godsearch_puzzles::cube::algorithm::parse_moves;
    use godsearch_puzzles::cube::{facelet, CUBE2, CUBE3};
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn move_scrambles_are_canonical_and_reach_their_position() {
        let mut rng = StdRng::seed_from_u64(7);
        for metric in [Metric::Htm, Metric::Qtm] {
            let order = metric.sequence_automaton();
            for _ in 0..50 {
                let s = cube_moves(CUBE3, metric, 30, &mut rng).unwrap();
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
            let s = cube_moves(CUBE3, Metric::Stm, 25, &mut rng).unwrap();
            assert_eq!(s.length, Some(25));
            let written = Algorithm::parse(s.scramble.as_deref().unwrap()).unwrap();
            assert_eq!(written.length(TurnMetric::Stm), 25, "{s:?}");
            assert_eq!(written.length(TurnMetric::Etm), 25, "no rotation: {s:?}");
            slices += written.face_turns().is_none() as usize;
            let held = written.apply_held(CUBE3, &CubieCube::SOLVED).unwrap();
            assert_eq!(s.position.unwrap(), facelet::format(&held));
        }
        assert!(slices > 40, "most 25-move scrambles turn a middle layer");
    }

    #[test]
    fn quarter_turn_scrambles_merge_a_face_turned_twice() {
        let mut rng = StdRng::seed_from_u64(1);
        let merged = (0..200)
            .map(|_| cube_moves(CUBE2, Metric::Qtm, 20, &mut rng).unwrap())
            .filter(|s| s.scramble.as_deref().unwrap().contains('2'))
            .count();
        assert!(merged > 0, "U U should come up and be written U2");
    }
}
