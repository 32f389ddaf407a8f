//! The benchmark sets, built into the binary from the repository's `data/` folder (linked from
//! `crates/bench/data/`, so the packaged crate carries them) so that
//! `godsearch bench` runs the same instances wherever it is started (their sources are in
//! `data/README.md`).

/// Korf's 100 random 15-puzzle instances with their optimal lengths (blank-first goal).
pub const KORF100: &str = include_str!("../data/korf100.txt");
/// Where [`KORF100`] comes from, for messages.
pub const KORF100_SOURCE: &str = "data/korf100.txt";
/// The same instances mapped to the blank-last goal.
pub const KORF100_BLANK_LAST: &str = include_str!("../data/korf100-blank-last.txt");
/// 24-puzzle boards of 66 to 88 moves with their optimal lengths (blank-last goal).
pub const BENCH_24_PUZZLE: &str = include_str!("../data/bench-24puzzle.txt");

/// Korf and Felner's fifty random 24-puzzle instances with their published optimal lengths
/// (blank-first goal; the first ten are Korf and Taylor's).
pub const KORF_FELNER_24: &str = include_str!("../data/korf-felner-24.txt");
