//! Exact distance tables over `(class, coordinate)` pairs, built by the table engine.
//!
//! An entry is `class * inner + x`. A position whose class representative has symmetries is
//! named by several entries ("partners"); all of them must get its distance. The graph is
//! handed to the engine as a ranked space whose aliases are the partners, so the engine sets
//! every name of a position at once.

use godsearch_core::{Cancelled, MoveIdx, Progress, RankedSpace, StateSpace};
use godsearch_enumerate::{table, Limits, Stop};
use godsearch_tables::blocked::{self, BlockedBuilder};
use godsearch_tables::{entries_per_word, ByteTable, ResidentBytes, TwoBitTable};
use std::ops::ControlFlow;

/// The part of a 2-bit table (one in this many bytes) that [`blocked_bounds`] lets the
/// engine's lists of positions take, both together: a build holds the 2-bit table and the
/// blocked one already (14.3 GiB for the 8gb table), and lists of an eighth of the table each
/// (the engine's own cap) took its peak to 15.6 GiB, where they save a scan or two of the
/// table at most.
pub const LIST_SHARE: u64 = 16;

/// Table entry of a position not reached (never left in a finished table).
pub const UNREACHED: u8 = ByteTable::UNREACHED;

/// How to walk the table's graph.
pub trait PairGraph: Sync {
    /// Number of entries.
    fn entries(&self) -> usize;
    /// The most neighbours one entry has.
    fn max_degree(&self) -> usize;
    /// Calls `f` with every neighbour of `entry` until `f` returns `true`; returns whether it did.
    /// (Generic rather than a trait object's call: the table engine's work is these calls, and
    /// inlined they cost a fifth less.)
    fn neighbours(&self, entry: usize, f: impl FnMut(usize) -> bool) -> bool;
    /// Calls `f` with every other entry that names the same position as `entry`.
    fn partners(&self, entry: usize, f: impl FnMut(usize));
}

/// A [`PairGraph`] as a space for the table engine.
struct GraphSpace<'a, G> {
    graph: &'a G,
    goal: usize,
}

impl<G: PairGraph> StateSpace for GraphSpace<'_, G> {
    type State = u64;

    fn goal_state(&self) -> u64 {
        self.goal as u64
    }

    fn is_goal(&self, state: u64) -> bool {
        let mut partner = state as usize == self.goal;
        self.graph
            .partners(self.goal, |p| partner |= p as u64 == state);
        partner
    }

    #[inline]
    fn for_each_alias(&self, state: u64, mut f: impl FnMut(u64)) {
        self.graph.partners(state as usize, |p| f(p as u64));
    }

    /// Moves are not named here: the tables hold distances only.
    fn move_count(&self) -> usize {
        1
    }

    fn move_name(&self, _: MoveIdx) -> String {
        "a move".into()
    }

    fn inverse_move(&self, m: MoveIdx) -> MoveIdx {
        m
    }

    fn max_degree(&self) -> usize {
        self.graph.max_degree()
    }

    #[inline]
    fn for_each_neighbour(&self, state: u64, mut f: impl FnMut(MoveIdx, u64)) {
        self.graph.neighbours(state as usize, |j| {
            f(0, j as u64);
            false
        });
    }

    #[inline]
    fn any_neighbour(&self, state: u64, mut pred: impl FnMut(u64) -> bool) -> bool {
        self.graph.neighbours(state as usize, |j| pred(j as u64))
    }
}

impl<G: PairGraph> RankedSpace for GraphSpace<'_, G> {
    fn state_count(&self) -> u128 {
        self.graph.entries() as u128
    }

    fn rank_of(&self, state: u64) -> usize {
        state as usize
    }

    fn state_at(&self, rank: usize) -> u64 {
        rank as u64
    }
}

/// Exact distances from `goal` of every entry, with the count at each distance; `Cancelled`
/// when `progress` asks the build to stop first.
pub fn distances(
    graph: &impl PairGraph,
    goal: usize,
    progress: &dyn Progress,
) -> Result<(Vec<u8>, Vec<u64>), Cancelled> {
    let limits = Limits {
        max_depth: None,
        memory_bytes: u64::MAX,
        antipode_cap: 0,
        count_last: false,
    };
    let built = table::enumerate_exact(&GraphSpace { graph, goal }, &limits, progress)
        .expect("two-phase distances are at most 18");
    if let Stop::Cancelled(_) = built.enumeration.stop {
        return Err(Cancelled);
    }
    Ok((built.table.into_bytes(), built.enumeration.levels))
}

/// Lower bounds on the distances from `goal` of every entry, in two bits an entry above a
/// base with a minimum a block ([`godsearch_tables::blocked`]): the table's bytes (in memory
/// advised for huge pages), its base, and its levels: the exact count at each distance up to
/// `base + 2`, then (unless none is left) the count of every entry further away. Built
/// breadth-first in a 2-bit table of distances mod 3, each level copied into the blocked form
/// as it is complete, so the build holds both (about twice the table) but never a byte an
/// entry; the engine's lists of small levels are held to [`LIST_SHARE`] of the 2-bit table.
/// The build stops after level `base + 2`, as nxopt's does: the entries further away all keep
/// the code of `base + 3` or more, so finding their levels would change no byte (106 of the
/// 803 s the 8gb table took before, the pass over its last 4.7 billion entries).
/// `Cancelled` when `progress` asks the build to stop first.
pub fn blocked_bounds(
    graph: &impl PairGraph,
    goal: usize,
    progress: &dyn Progress,
) -> Result<(ResidentBytes, u8, Vec<u64>), Cancelled> {
    let words = graph.entries().div_ceil(entries_per_word::<TwoBitTable>());
    let two_bit_bytes = (words * std::mem::size_of::<u64>()) as u64;
    let limits = Limits {
        max_depth: None,
        memory_bytes: two_bit_bytes + two_bit_bytes / LIST_SHARE,
        antipode_cap: 0,
        count_last: false,
    };
    let mut builder = BlockedBuilder::new(graph.entries()).expect("memory for the table");
    table::enumerate_observed::<_, TwoBitTable>(
        &GraphSpace { graph, goal },
        &limits,
        progress,
        &mut |level| {
            let residue = (level.depth % 3) as u8;
            match level.listed {
                Some(list) => builder.add_listed(level.depth, list.iter().map(|&e| e as usize)),
                None => builder.add_level(level.depth, level.count, |b| {
                    blocked::mod3_candidates(level.table, b, residue)
                }),
            }
            match builder.is_complete() {
                true => ControlFlow::Break(()),
                false => ControlFlow::Continue(()),
            }
        },
    )
    .expect("a table within its memory budget is always built");
    if !builder.is_complete() && progress.cancelled() {
        return Err(Cancelled);
    }
    let mut levels = builder.levels().to_vec();
    let further = graph.entries() as u64 - levels.iter().sum::<u64>();
    if further > 0 {
        levels.push(further);
    }
    let (bytes, base) = builder
        .finish()
        .expect("a complete build records every entry, so it passes the base");
    Ok((bytes, base, levels))
}
