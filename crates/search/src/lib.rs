//! Solvers. They read tables built elsewhere (by `godsearch-enumerate`) and never build them.
//!
//! - [`descent`]: optimal solving by walking down a complete distance table.

pub mod descent;

pub use descent::{descend, DescentError};
