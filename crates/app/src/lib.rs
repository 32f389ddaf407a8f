//! The application layer every godsearch front end shares (the CLI today; an HTTP server and
//! Python bindings next), so that none of them copies a rule:
//!
//! - [`choice`]: the algorithm and heuristic enums and the rules that pick them when the user
//!   leaves it to godsearch (with the measurements behind each rule);
//! - [`tiles`]: solving sliding-tile boards end to end: reading boards against a goal,
//!   resolving the heuristic (with [`tiles::Notice`]s for the front end to show), running the
//!   search, the staged solvers or table descent, and replaying every solution;
//! - [`cache`]: pattern databases and two-phase tables, cached in a folder the caller names;
//! - [`tables`]: distance table files with the identity they must carry;
//! - [`report`]: the serde types whose JSON is the `--json` and API schema;
//! - [`units`]: sizes, times and counts read and written for people.
//!
//! Nothing here prints, reads environment variables or picks a path: progress goes to a
//! [`Progress`](godsearch_core::Progress) sink, notices to a callback, errors are typed
//! ([`AppError`], with [`AppError::is_bad_input`] deciding "your request" from "our work").

pub mod cache;
pub mod choice;
pub mod error;
pub mod report;
pub mod tables;
pub mod tiles;
pub mod units;

pub use error::{AppError, AppResult};
