//! Kociemba's two-phase solver for the 3x3x3: fast, short, not always optimal solutions.
//!
//! Phase 1 brings the cube into the subgroup `<U, D, R2, L2, F2, B2>`; phase 2 solves it
//! there with only those moves. Both phases are IDA* over small coordinates, bounded by exact
//! distance tables reduced by symmetry ([`Tables`]). The search keeps lengthening phase 1 while a
//! shorter total is still possible, and stops at the first solution of at most the target
//! length, or at the deadline with the best found.
//!
//! This crate composes the cube model (puzzles) with its own search, one floor above both
//! (DESIGN.md); its distance tables are built by the one table engine of `godsearch-enumerate`
//! (the coordinate pairs as ranked spaces), and its coordinates' symmetry classes come from the
//! cube's symmetry module. The phase searches stay specialised (the measured reason is in the
//! `search` module: phase 1 reads a packed table of move masks, phase 2 is entered hundreds of
//! times a cube for a fraction of a node each) but follow the cube's canonical-sequence
//! automaton like every search. It reads and writes no files: the front end saves [`Tables`]
//! with [`Tables::write_to`] and reads them back with [`Tables::from_loaded`].
//!
//! The example is compiled but not run by the doc tests (the build takes half a minute); the unit
//! tests build the same tables and solve a thousand cubes with them.
//!
//! ```no_run
//! use godsearch_puzzles::cube::algorithm::parse_moves;
//! use godsearch_puzzles::cube::notation::apply_moves;
//! use godsearch_puzzles::cube::CubieCube;
//! use godsearch_enumerate::NoProgress;
//! use godsearch_twophase::{solve, Options, Tables};
//! let tables = Tables::build(&NoProgress).expect("never cancelled"); // about half a minute; save it (see the CLI)
//! let scramble = parse_moves("R U R' U' F2 D L2 B").unwrap();
//! let cube = apply_moves(&CubieCube::SOLVED, &scramble);
//! let found = solve(&tables, &cube, Options { target_length: 20, deadline: None, stop: None }).unwrap();
//! assert!(found.moves.len() <= 20);
//! assert!(apply_moves(&cube, &found.moves).is_solved());
//! ```

pub mod coords;
mod cornerslice;
mod flipslice;
pub mod optimal;
mod order;
mod pruning;
mod search;
mod tables;

pub use search::{solve, solve_in, Options, Solution, SolveError, LONGEST, LONGEST_QTM};
pub use tables::{Tables, TablesError, CORNER_CLASSES, TABLES_FORMAT, TWIST_CLASSES};

#[cfg(test)]
mod tests;
