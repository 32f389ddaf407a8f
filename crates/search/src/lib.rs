//! Solvers. They read tables built elsewhere (by `godsearch-enumerate`) and never build them.
//!
//! - [`descent`]: optimal solving by walking down a complete distance table.
//! - [`tiles`]: optimal search for sliding boards: Manhattan, linear conflict and additive
//!   pattern-database heuristics; IDA*, parallel IDA* and A*.

pub mod descent;
pub mod tiles;

pub use descent::{descend, DescentError};
