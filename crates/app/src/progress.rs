//! What front ends hold while the work runs, from the engines below: the [`Progress`] sink they
//! implement (levels, table builds, cancel), [`NoProgress`] where nothing is shown, and a tile
//! search's [`Watch`] (threshold, nodes, the iteration's forecast) that a status line reads.

pub use godsearch_core::{CancelOnly, Cancelled, NoProgress, Progress};
pub use godsearch_search::tiles::Watch;
