//! Uniform random 3x3x3 scrambles: a position drawn coordinate by coordinate
//! ([`random_cube`]), solved by the two-phase method and given as the inverse of that
//! solution, checked to reach it: a scramble of at most [`SCRAMBLE_MAX_LENGTH`] moves.

use crate::registry::cubes::scramble::scramble_text;
use crate::report::Scramble;
use crate::{AppError, AppResult};
use godsearch_puzzles::cube::notation::{apply_moves, invert_moves, with_slices};
use godsearch_puzzles::cube::{facelet, random_cube, CubieCube, Metric, CUBE3};
use godsearch_twophase::{solve, Options, Tables};
use rand::Rng;

/// Two-phase scrambles are at most this long (every position has a solution this short).
pub const SCRAMBLE_MAX_LENGTH: usize = 20;

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
    let (text, held) = scramble_text(CUBE3, &moves, metric, cube)?;
    Ok(Scramble {
        puzzle: CUBE3.to_string(),
        length: Some(metric.length(&moves)),
        scramble: Some(text),
        metric: Some(metric.name()),
        position: Some(facelet::format(&held)),
    })
}
