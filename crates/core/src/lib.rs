//! The ground floor of godsearch: permutations, perfect ranking, and the traits that let the
//! enumeration and search engines work on any puzzle through dense integer ranks.
//!
//! Nothing here does I/O, allocates in a hot path, or knows about a particular puzzle.
//!
//! # Permutation convention
//!
//! A permutation of `n` items is a slice `p` holding each of `0..n` once; `p[i]` is the image
//! of `i`. [`perm::compose`]`(a, b)` applies **`a` first, then `b`**: the result maps `i` to
//! `b[a[i]]`. The test `compose_applies_left_first` pins this.
//!
//! # Ranking
//!
//! [`perm`] ranks permutations in lexicographic order through their Lehmer code, and ranks a
//! parity class (exactly half of all permutations) densely with [`perm::rank_half`]: two
//! permutations that differ only by a swap of their last two items are neighbours in
//! lexicographic order and have opposite parities, so `lexicographic rank / 2` is a bijection
//! from either class onto `0..n!/2`.

pub mod perm;
pub mod rank;
pub mod space;
pub mod text;

pub use rank::RankInt;
pub use space::{MoveIdx, RankedPuzzle};
pub use text::excerpt;
