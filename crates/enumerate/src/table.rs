//! Full enumeration over a rank-indexed 2-bit table (distance mod 3).
//!
//! Each level is one pass over the table, split into blocks that rayon hands to the threads:
//!
//! - **forward** while the frontier is smaller than the unreached part: every position whose
//!   entry equals `d mod 3` marks its unreached neighbours `d + 1` (an atomic set-once, so a
//!   position reached from two threads is counted once);
//! - **backward** once fewer positions are unreached than are in the frontier (typically when
//!   the table is more than half full): every unreached position looks for a neighbour at `d`.
//!   An unreached position is at least `d + 1` away, so a neighbour whose entry is `d mod 3` is at
//!   distance `d` exactly, never `d - 3`.
//!
//! Entries equal to a value are found 32 at a time with word-wide bit tricks, so scanning is
//! cheap and the time goes into generating neighbours.

use crate::{EnumerateError, Enumeration, Limits, Progress, Stop};
use godsearch_core::{RankInt, RankedPuzzle};
use godsearch_tables::{DistanceMod3, TwoBitTable, UNREACHED};
use rayon::prelude::*;

const ENTRIES_PER_WORD: usize = 32;
/// Words a rayon task scans: 2^12 words = 131,072 positions, small enough to balance two cores
/// to the end of a pass, large enough that task overhead is invisible.
const WORDS_PER_TASK: usize = 1 << 12;
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// Bytes of a 2-bit table for `states` positions.
pub fn table_bytes(states: u128) -> u128 {
    states.div_ceil(ENTRIES_PER_WORD as u128) * 8
}

/// Bit `2k` set for every entry `k` of `word` equal to `value`.
#[inline]
fn entries_equal(word: u64, value: u8) -> u64 {
    let diff = word ^ (LOW_BITS * value as u64);
    !(diff | (diff >> 1)) & LOW_BITS
}

/// The table engine's result: the counts, and the table itself for descent or saving.
#[derive(Debug)]
pub struct TableEnumeration<R> {
    /// Counts and stop reason.
    pub enumeration: Enumeration<R>,
    /// Distance mod 3 of every position reached (unreached ones beyond a depth limit stay
    /// [`UNREACHED`]).
    pub table: TwoBitTable,
}

struct PassResult<R> {
    found: u64,
    recorded: Vec<R>,
}

/// Enumerates `puzzle` completely (or to `limits.max_depth`) in a 2-bit table.
///
/// Exact: `levels[d]` is the number of positions at distance `d`. Fails before allocating if the
/// table would exceed `limits.memory_bytes`.
pub fn enumerate<P: RankedPuzzle>(
    puzzle: &P,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<TableEnumeration<P::Rank>, EnumerateError> {
    let states = puzzle.state_count();
    let needed = table_bytes(states);
    let too_large = EnumerateError::TableTooLarge {
        states,
        needed,
        budget: limits.memory_bytes,
    };
    if needed > limits.memory_bytes as u128 || usize::try_from(states).is_err() {
        return Err(too_large);
    }
    let n = states as usize;
    let table = TwoBitTable::new(n);
    table.try_set(puzzle.goal_rank().to_usize(), 0);
    let mut levels = vec![1u64];
    let mut last_level = Some(vec![puzzle.goal_rank()]);
    let mut reached = 1u64;
    let stop = loop {
        let depth = levels.len() as u32 - 1;
        if limits.max_depth.is_some_and(|m| depth >= m) {
            break Stop::MaxDepth(depth);
        }
        let frontier = levels[depth as usize];
        let backward = (n as u64 - reached) < frontier;
        progress.level_started(depth + 1, n as u64);
        let pass = run_pass(
            puzzle,
            &table,
            depth,
            backward,
            limits.antipode_cap,
            progress,
        );
        if pass.found == 0 {
            break Stop::Complete;
        }
        reached += pass.found;
        levels.push(pass.found);
        last_level = (pass.found as usize <= limits.antipode_cap).then_some(pass.recorded);
        progress.level_finished(depth + 1, pass.found);
    };
    let enumeration = Enumeration {
        levels,
        stop,
        last_level,
        peak_bytes: table.bytes() as u64,
    };
    Ok(TableEnumeration { enumeration, table })
}

fn run_pass<P: RankedPuzzle>(
    puzzle: &P,
    table: &TwoBitTable,
    depth: u32,
    backward: bool,
    cap: usize,
    progress: &dyn Progress,
) -> PassResult<P::Rank> {
    let current = (depth % 3) as u8;
    let next = ((depth + 1) % 3) as u8;
    let n = table.len();
    let tasks = table.word_count().div_ceil(WORDS_PER_TASK);
    (0..tasks)
        .into_par_iter()
        .map(|task| {
            let mut result = PassResult {
                found: 0,
                recorded: Vec::new(),
            };
            let record = |rank: P::Rank, result: &mut PassResult<P::Rank>| {
                result.found += 1;
                if result.recorded.len() < cap {
                    result.recorded.push(rank);
                }
            };
            let words =
                task * WORDS_PER_TASK..((task + 1) * WORDS_PER_TASK).min(table.word_count());
            for w in words.clone() {
                let wanted = if backward { UNREACHED } else { current };
                let mut hits = entries_equal(table.word(w), wanted);
                while hits != 0 {
                    let i = w * ENTRIES_PER_WORD + hits.trailing_zeros() as usize / 2;
                    hits &= hits - 1;
                    if i >= n {
                        break;
                    }
                    let rank = P::Rank::from_u64(i as u64);
                    if backward {
                        let mut at_depth = false;
                        puzzle.for_each_move(rank, |_, nb| {
                            at_depth |= table.get(nb.to_usize()) == current
                        });
                        if at_depth && table.try_set(i, next) {
                            record(rank, &mut result);
                        }
                    } else {
                        puzzle.for_each_move(rank, |_, nb| {
                            if table.try_set(nb.to_usize(), next) {
                                record(nb, &mut result);
                            }
                        });
                    }
                }
            }
            progress.advanced((words.len() * ENTRIES_PER_WORD) as u64);
            result
        })
        .reduce(
            || PassResult {
                found: 0,
                recorded: Vec::new(),
            },
            |mut a, mut b| {
                a.found += b.found;
                a.recorded.append(&mut b.recorded);
                a.recorded.truncate(cap);
                a
            },
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_equal_finds_each_value() {
        // entries 0..4 hold 0, 1, 2, 3; the rest 3.
        let word = !0u64 & !0b11_11_11_11 | 0b11_10_01_00;
        assert_eq!(entries_equal(word, 0), 1);
        assert_eq!(entries_equal(word, 1), 1 << 2);
        assert_eq!(entries_equal(word, 2), 1 << 4);
        assert_eq!(entries_equal(word, 3).count_ones(), 29);
    }
}
