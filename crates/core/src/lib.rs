//! The ground floor of godsearch: the state-space family every engine is written against,
//! permutations and perfect ranking.
//!
//! - [`StateSpace`] / [`RankedSpace`] ([`space`]): a puzzle as packed states, named moves with
//!   inverses, a goal, neighbours, optional symmetry classes; ranked spaces number their states
//!   densely. A new puzzle implements these (see the pancake puzzle,
//!   `crates/app/src/registry/pancake.rs`: one module and one registry line).
//! - [`SequenceAutomaton`] ([`sequence`]): which move sequences are canonical.
//! - [`Heuristic`] ([`heuristic`]): a lower bound with its contract (admissible, consistent).
//! - [`Progress`] ([`progress`]): the sink long runs report to; front ends decide what to show.
//! - [`perm`], [`rank`]: permutation ranking and the integer types of ranks.
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
//! parity class (exactly half of all permutations) densely with [`perm::HalfRanker`]: two
//! permutations that differ only by a swap of their last two items are neighbours in
//! lexicographic order and have opposite parities, so `lexicographic rank / 2` is a bijection
//! from either class onto `0..n!/2`.

pub mod fingerprint;
pub mod heuristic;
pub mod perm;
pub mod progress;
pub mod rank;
pub mod sequence;
pub mod space;
pub mod text;

pub use heuristic::{Heuristic, NoEstimate};
pub use progress::{CancelOnly, Cancelled, NoProgress, Progress};
pub use rank::RankInt;
pub use sequence::{AutomatonState, SequenceAutomaton};
pub use space::{MoveIdx, RankedSpace, StateSpace};
pub use text::{excerpt, name_options};
