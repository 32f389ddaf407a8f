//! Exact distance tables over `(class, coordinate)` pairs, built by a parallel BFS.
//!
//! An entry is `class * inner + x`. The BFS expands the entries of one depth forward while
//! they are fewer than the unreached ones, then switches to scanning the unreached entries for
//! a neighbour at that depth (the backward step of DESIGN.md's 2-bit engine), which does less
//! work once most of the table is reached. When a forward step reaches an entry whose class
//! representative has symmetries, the entries of the same position seen through them are set
//! too ("partners"), so that every way of writing a position gets its distance.

use godsearch_enumerate::Progress;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Table entry of a position not reached (never left in a finished table).
pub const UNREACHED: u8 = u8::MAX;
const ENTRIES_PER_TASK: usize = 1 << 16;

/// How to walk the table's graph.
pub trait PairGraph: Sync {
    /// Number of entries.
    fn entries(&self) -> usize;
    /// Calls `f` with every neighbour of `entry` until `f` returns `true`; returns whether it did.
    fn neighbours(&self, entry: usize, f: &mut dyn FnMut(usize) -> bool) -> bool;
    /// Calls `f` with every other entry that names the same position as `entry`.
    fn partners(&self, entry: usize, f: &mut dyn FnMut(usize));
}

/// Exact distances from `goal` of every entry, with the count at each distance.
pub fn distances(
    graph: &impl PairGraph,
    goal: usize,
    progress: &dyn Progress,
) -> (Vec<u8>, Vec<u64>) {
    let n = graph.entries();
    let table: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(UNREACHED)).collect();
    let set = |e: usize, d: u8| table[e].store(d, Ordering::Relaxed);
    let get = |e: usize| table[e].load(Ordering::Relaxed);
    set(goal, 0);
    graph.partners(goal, &mut |p| set(p, 0));
    let mut levels = vec![table
        .par_iter()
        .filter(|v| v.load(Ordering::Relaxed) == 0)
        .count() as u64];
    let mut reached = levels[0];
    let mut depth = 0u8;
    loop {
        let at_depth = levels[depth as usize];
        let unreached = n as u64 - reached;
        progress.level_started(depth as u32 + 1, n as u64);
        let found = AtomicU64::new(0);
        let next = depth + 1;
        if at_depth < unreached {
            (0..n)
                .into_par_iter()
                .with_min_len(ENTRIES_PER_TASK)
                .for_each(|e| {
                    if get(e) != depth {
                        return;
                    }
                    graph.neighbours(e, &mut |j| {
                        if get(j) == UNREACHED {
                            set(j, next);
                            graph.partners(j, &mut |p| set(p, next));
                        }
                        false
                    });
                });
            // Count afterwards: concurrent writers may both have set one entry.
            found.store(
                table
                    .par_iter()
                    .filter(|v| v.load(Ordering::Relaxed) == next)
                    .count() as u64,
                Ordering::Relaxed,
            );
        } else {
            (0..n)
                .into_par_iter()
                .with_min_len(ENTRIES_PER_TASK)
                .for_each(|e| {
                    if get(e) != UNREACHED {
                        return;
                    }
                    if graph.neighbours(e, &mut |j| get(j) == depth) {
                        set(e, next);
                        found.fetch_add(1, Ordering::Relaxed);
                    }
                });
        }
        progress.advanced(n as u64);
        let count = found.into_inner();
        if count == 0 {
            break;
        }
        progress.level_finished(next as u32, count);
        levels.push(count);
        reached += count;
        depth = next;
    }
    (
        table.into_iter().map(AtomicU8::into_inner).collect(),
        levels,
    )
}
