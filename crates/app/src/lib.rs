//! The application layer every godsearch front end shares (the command line, the HTTP server
//! and the Python bindings), so that none of them copies a rule:
//!
//! - [`batch`]: many positions solved under one request, the path every front end's solve
//!   takes (a server's request is a batch of one);
//! - [`bfs`]: God's algorithm with the engine chosen by size, tables saved, antipodes written;
//! - [`choice`]: the algorithm and heuristic names requests use (the rules that pick one when
//!   the user leaves it to godsearch are each puzzle's own, in its registry module);
//! - [`defaults`]: the memory budget and cache folder front ends offer when none is given;
//! - [`info`]: what storing any space costs, and every offered puzzle's size;
//! - [`cache`]: pattern databases and two-phase tables, cached in a folder the caller names;
//! - [`tables`]: distance table files, saved atomically and loaded only with the identity
//!   their puzzle gives them;
//! - [`report`]: the serde types whose JSON is the `--json` and API schema;
//! - [`scramble`]: random canonical move sequences, which every puzzle's scrambles draw;
//! - [`registry`]: every puzzle kind, each whole in its own module (its solvers, enumeration,
//!   scrambles, checks and `info`), and the one place a puzzle name becomes a puzzle:
//!   [`registry::tiles`] (boards of any size: the heuristics, IDA*, the staged solvers, table
//!   descent, each solution replayed), [`registry::cube2`] and [`registry::cube3`] (with what
//!   they share in [`registry::cubes`]), [`registry::pancake`] and
//!   [`registry::definition`] (definition files, KPuzzle JSON and `.tws`: read, solved by
//!   table descent or IDA* over automatic pattern databases, enumerated, scrambled);
//! - [`request`]: one solve, enumeration or scramble as the HTTP API and Python take it, under
//!   a server's limits, watched and cancellable, with the tables kept between requests;
//! - [`verify`]: the claims (a start and moves) every puzzle's replay check reads;
//! - [`units`]: sizes, times and counts read and written for people;
//! - [`progress`]: the progress sink front ends implement, the search watch they read, and the
//!   notices the work gives of its tables.
//!
//! # Using the library
//!
//! Solve a 3x3x3 given as 54 stickers (order U R F D L B, nine each) by Kociemba's two-phase
//! method and print the moves. Building the two-phase tables takes about half a minute on two
//! cores; front ends cache them ([`cache::TableCache::twophase_tables`]). (The doc test compiles
//! this example without running it: the two-phase crate's own tests build and solve the same way.)
//!
//! ```no_run
//! use godsearch_core::NoProgress;
//! use godsearch_puzzles::cube::notation::{apply_moves, format_moves};
//! use godsearch_puzzles::cube::{parse_position, CubieCube, Syntax, CUBE3};
//! use godsearch_twophase::{solve, Options, Tables};
//!
//! let stickers = "BFLRUUBUFULFDRFDDRUBRFFLDUBLRRBDRRFFLBLDLDBLFURDUBBDLU";
//! let cube = parse_position(CUBE3, stickers, Syntax::Facelets)?;
//! let tables = Tables::build(&NoProgress)?;
//! let options = Options { target_length: 20, deadline: None, stop: None };
//! let solution = solve(&tables, &cube, options)?;
//! println!("{}", format_moves(&solution.moves));
//! assert!(solution.moves.len() <= 20);
//! assert_eq!(apply_moves(&cube, &solution.moves), CubieCube::SOLVED);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Count the 8-puzzle's positions at every distance from its goal (God's algorithm):
//!
//! ```
//! use godsearch_core::NoProgress;
//! use godsearch_enumerate::{frontier, Limits};
//! use godsearch_puzzles::tiles::{Board, Shape, TileSpace};
//!
//! let space = TileSpace::<u64>::new(Board::goal(Shape::new(3, 3)?))?;
//! let limits = Limits {
//!     max_depth: None,
//!     memory_bytes: 1 << 30,
//!     antipode_cap: 2,
//!     count_last: false,
//! };
//! let levels = frontier::enumerate(&space, &limits, &NoProgress);
//! println!("{:?}", levels.levels); // [1, 2, 4, 8, 16, 20, 39, ...]
//! assert_eq!(levels.total(), 181_440);
//! assert_eq!(levels.diameter(), Some(31));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Nothing here prints, reads environment variables or picks a path: progress goes to a
//! [`Progress`](godsearch_core::Progress) sink, notices to a callback, errors are typed
//! ([`AppError`], with [`AppError::is_bad_input`] deciding "your request" from "our work").

pub mod batch;
pub mod bfs;
pub mod cache;
pub mod choice;
pub mod defaults;
pub mod error;
pub mod info;
pub mod progress;
pub mod registry;
pub mod report;
pub mod request;
pub mod scramble;
pub mod tables;
pub mod units;
pub mod verify;

pub use error::{AppError, AppResult};

/// The crates under this one, whole, for library users who call an engine directly (the
/// `godsearch` crate re-exports them at its root: `godsearch::puzzles`, `godsearch::search`).
/// Front ends use this crate's own modules instead.
pub mod engines {
    pub use godsearch_core as core;
    pub use godsearch_enumerate as enumerate;
    pub use godsearch_orbit as orbit;
    pub use godsearch_puzzles as puzzles;
    pub use godsearch_search as search;
    pub use godsearch_subgoal as subgoal;
    pub use godsearch_tables as table_files;
    pub use godsearch_twophase as twophase;
}
