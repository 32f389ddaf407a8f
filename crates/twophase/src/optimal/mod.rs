//! Optimal 3x3x3 solutions in the half-turn metric, proven: IDA* bounded by a large pruning
//! table read from three axes of the position and three of its inverse (the method of
//! Kociemba's optimal solver, after Korf 1997, with the inverse's lookups of Rokicki's nxopt).
//!
//! The table holds a lower bound on the distance of a projection of the cube reduced by the 16
//! symmetries that keep the U-D axis, two bits an entry against a base with a 4-bit minimum
//! for every 62 entries (nxopt's form, [`godsearch_tables::blocked`]): exact on the two levels
//! above the base, where most entries lie, and readable for any position alone, so the inverse
//! position, which is no neighbour of the last one read, can be read too. Seen from the three
//! axes, a cube and its inverse have six such projections; the largest of their bounds is the
//! node's. [`TableSize`] picks the projection:
//!
//! - `twist x flip x middle edges` (their placement, or placement and order;
//!   `crate::flipslice`): 44 MB (positions up to about 15 moves in seconds) or 1.05 GB;
//! - `twist and U-corner placement x U/D-edge flip x middle edges` (the projection of
//!   Rokicki's nxopt tables; `crate::cornerslice`): 325 MB or 7.79 GB.
//!
//! Every table is built breadth-first in two bits an entry (distance mod 3), each level copied
//! into the blocked form as it completes.
//!
//! Like the two-phase search, the search is specialised to the cube (see `search`'s
//! documentation): a node keeps three axes' coordinates and bounds and its inverse piece by
//! piece (module `inverse`), and a child is dropped at the first lookup that rules it out. It reads
//! and writes no files: the front end saves [`OptimalTables`] with
//! [`OptimalTables::write_to`] and maps them back with [`OptimalTables::from_loaded`].

mod inverse;
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
