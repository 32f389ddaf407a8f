//! Solvers. They read tables built elsewhere (by `godsearch-enumerate`) and never build them.
//!
//! Written once, over any [`StateSpace`](godsearch_core::StateSpace):
//! - [`descent`](mod@descent): optimal solving by walking down a complete distance table;
//! - [`ida`](mod@ida): IDA* with any admissible [`Heuristic`](godsearch_core::Heuristic), following the
//!   space's canonical move sequences;
//! - [`astar`](mod@astar): A* with a closed set.
//!
//! Specialised, with the measured reason in their module docs:
//! - [`tiles`]: sliding boards: Manhattan, linear conflict and additive pattern-database
//!   heuristics updated incrementally per move; IDA* and parallel IDA* on them. Their A* is
//!   the generic one over ranks ([`tiles::RankedEstimate`]).

pub mod astar;
pub mod descent;
pub mod ida;
pub mod stats;
pub mod tiles;

pub use astar::{astar, astar_until, AStarError};
pub use descent::{descend, DescentError};
pub use ida::{
    ida_star, ida_star_deepening, ida_star_solutions, ida_star_until, IdaError, Path, Paths,
};
pub use stats::SearchStats;
