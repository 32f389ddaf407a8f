//! godsearch as a library (`cargo add godsearch`): the application layer every front end
//! shares ([`godsearch_app`], re-exported here whole: [`bfs`], [`registry`] (each puzzle: the
//! boards, the cubes, definition files), [`verify`], [`report`], [`cache`], [`units`], ...) and
//! the crates under it, each under a short name:
//! [`core`] (state spaces, heuristics, progress), [`puzzles`] (boards and cubes, their notation),
//! [`table_files`] (the table file format), [`enumerate`] (God's algorithm, pattern databases,
//! half-depth), [`search`] (IDA*, A*, descent), [`subgoal`], [`twophase`] and [`orbit`]
//! (puzzles from definition files).
//!
//! The `godsearch` command is this crate's binary; nothing here prints or picks a path.
//!
//! Read a cube as a cuber pastes it and count its length in every metric:
//!
//! ```
//! use godsearch::puzzles::cube::{Algorithm, CubieCube, TurnMetric, CUBE3};
//!
//! let sexy = Algorithm::parse("[R, U] // a commutator")?;
//! assert_eq!(sexy.to_string(), "R U R' U'");
//! let wide = Algorithm::parse("r U r' M2")?;
//! assert_eq!((wide.length(TurnMetric::Htm), wide.length(TurnMetric::Stm)), (5, 4));
//! let cube = Algorithm::parse("(R U R' U')6")?.apply_held(CUBE3, &CubieCube::SOLVED)?;
//! assert!(cube.is_solved());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use godsearch_app::engines::*;
pub use godsearch_app::*;
