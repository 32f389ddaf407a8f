//! Optimal 3x3x3 solutions in the half-turn metric, proven: IDA* bounded by a large pruning
//! table read from three axes (the method of Kociemba's optimal solver, after Korf 1997).
//!
//! The table holds the exact distance of a projection of the cube reduced by the 16
//! symmetries that keep the U-D axis, two bits an entry (distance mod 3; the search follows
//! the exact value from the start's, which it finds by walking the table down). Seen from the
//! three axes, a cube has three such projections; the largest of their distances is the bound.
//! [`TableSize`] picks the projection:
//!
//! - `twist x flip x middle edges` (their placement, or placement and order;
//!   [`crate::flipslice`]): 43 MB (positions up to about 15 moves in seconds) or 1.02 GB;
//! - `twist and U-corner placement x U/D-edge flip x middle edges` (the projection of
//!   Rokicki's nxopt tables; [`crate::cornerslice`]): 315 MB or 7.55 GB, built in two bits an
//!   entry.
//!
//! Like the two-phase search, the search is specialised to the cube (see [`search`]'s
//! documentation): a node keeps three axes' coordinates and distances, and a child is dropped
//! at the first axis that rules it out. It reads and writes no files: the front end saves
//! [`OptimalTables`] with [`OptimalTables::write_to`] and maps them back with
//! [`OptimalTables::from_loaded`].

mod search;
mod table;

pub use search::{
    gods_number, lower_bound, solve_optimal, table_bounds, OptimalOptions, OptimalSolution,
    TableBounds,
};
pub(crate) use table::LAYER_MOVES;
pub use table::{OptimalTables, TableSize, CORNER_OPTIMAL_FORMAT, OPTIMAL_FORMAT};

#[cfg(test)]
mod tests;
