//! The parts of the `godsearch` command that other programs may reuse (and that the fuzz
//! targets in `fuzz/` reach): reading and writing sizes, times and counts, which live in the
//! application crate every front end shares.

pub use godsearch_app::units;
