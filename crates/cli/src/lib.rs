//! The parts of the `godsearch` command that other programs may reuse (and that the fuzz
//! targets in `fuzz/` reach): reading and writing sizes, times and counts.

pub mod units;
