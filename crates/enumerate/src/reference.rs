//! A plain, obviously-correct BFS over any hashable state: one thread, a hash set of states.
//!
//! It shares no code with the engines (no ranking, no packed tables), which is what makes it a
//! useful check of them on small spaces and an honest baseline for their speed.

use std::collections::HashSet;
use std::hash::Hash;

/// Positions at each distance from `start` up to `max_depth` (all when `None`), where
/// `successors` lists a state's neighbours. Exact; memory grows with every state seen, so use it
/// only on small spaces or shallow depths.
pub fn bfs_levels<S, I>(
    start: S,
    max_depth: Option<u32>,
    mut successors: impl FnMut(&S) -> I,
) -> Vec<u64>
where
    S: Clone + Eq + Hash,
    I: IntoIterator<Item = S>,
{
    let mut seen = HashSet::from([start.clone()]);
    let mut frontier = vec![start];
    let mut levels = Vec::new();
    while !frontier.is_empty() {
        levels.push(frontier.len() as u64);
        if max_depth.is_some_and(|m| levels.len() > m as usize) {
            break;
        }
        let mut next = Vec::new();
        for s in &frontier {
            for n in successors(s) {
                if seen.insert(n.clone()) {
                    next.push(n);
                }
            }
        }
        frontier = next;
    }
    levels
}
