//! Uniform random 2x2x2 scrambles: a uniform rank, given as the inverse of its optimal
//! solution read from the complete distance table, checked to reach it.

use crate::report::Scramble;
use crate::{AppError, AppResult};
use godsearch_puzzles::cube::cube2::CUBE2_POSITIONS;
use godsearch_puzzles::cube::notation::{apply_moves, format_moves, invert_moves, merge_same_face};
use godsearch_puzzles::cube::{Cube2Space, CubieCube, Move, CUBE2, CUBE2_MAX_DISTANCE};
use godsearch_search::descend;
use godsearch_tables::TwoBitTable;
use rand::Rng;

/// A uniform random 2x2x2 with an optimal scramble in the metric of `space`, read from its
/// complete distance `table`, and the stickers it leaves.
pub fn cube2_uniform(
    space: &Cube2Space,
    table: &TwoBitTable,
    rng: &mut impl Rng,
) -> AppResult<Scramble> {
    let rank = rng.gen_range(0..CUBE2_POSITIONS);
    let path = descend(space, table, rank, CUBE2_MAX_DISTANCE)?;
    let solution: Vec<Move> = path.iter().map(|&k| space.moves()[k as usize]).collect();
    let moves = merge_same_face(&invert_moves(&solution));
    let reached = apply_moves(&CubieCube::SOLVED, &moves);
    if space.rank(&reached) != rank {
        return Err(AppError::Check(
            "the scramble does not reach the position".into(),
        ));
    }
    let metric = space.metric();
    Ok(Scramble {
        puzzle: CUBE2.to_string(),
        length: Some(metric.length(&moves)),
        scramble: Some(format_moves(&moves)),
        metric: Some(metric.name()),
        position: Some(CUBE2.write_facelets(&reached)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use godsearch_puzzles::cube::{parse_position, Metric, Syntax};
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn cube2_scrambles_reach_their_rank_and_show_its_stickers() {
        let mut rng = StdRng::seed_from_u64(5);
        let space = Cube2Space::new(Metric::Htm);
        let (table, _) = crate::tables::table_in_memory(&space).unwrap();
        for _ in 0..20 {
            let s = cube2_uniform(&space, &table, &mut rng).unwrap();
            assert!(s.length.unwrap() <= 11);
            let moves = s.scramble.as_deref().unwrap();
            let by_moves = parse_position(CUBE2, moves, Syntax::Moves).unwrap();
            let by_stickers =
                parse_position(CUBE2, s.position.as_deref().unwrap(), Syntax::Facelets).unwrap();
            assert_eq!(space.rank(&by_moves), space.rank(&by_stickers), "{s:?}");
        }
    }
}
