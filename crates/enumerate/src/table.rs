//! Full enumeration over a rank-indexed table, in any entry encoding ([`LevelTable`]): 2 bits
//! of distance mod 3 ([`TwoBitTable`], the default) or a byte of exact distance
//! ([`ByteTable`]).
//!
//! Each level is one pass, split into blocks that rayon hands to the threads:
//!
//! - **forward from a list** while a level is small (at most [`list_cap`] positions, so the
//!   list never takes more than an eighth of the table's memory, nor more than the memory
//!   budget leaves beside the table): the level's positions were recorded
//!   when they were found, and only they mark their unreached neighbours `d + 1` (an atomic
//!   set-once, so a position reached from two threads is counted once). Deep, narrow spaces
//!   (a subgoal stage: a hundred levels of a few thousand positions) cost what a queue costs;
//! - **forward by scanning** once levels are larger: every position whose entry equals `d`'s
//!   value marks its neighbours. Two bits cannot tell level `d` from `d - 3`, `d - 6`, ..., so
//!   a 2-bit scan expands those older levels again, uselessly;
//! - **backward** once fewer positions are unreached than a forward pass would expand (on the
//!   3x4 board this cuts the positions examined from 3.3 to 2.1 times the space, against
//!   switching when the frontier exceeds the unreached part): every unreached position looks
//!   for a neighbour at `d`, stopping at the first.
//!   An unreached position is at least `d + 1` away, so a neighbour whose entry is `d mod 3` is at
//!   distance `d` exactly, never `d - 3`.
//!
//! Entries equal to a value are found a word at a time with bit tricks, so scanning is cheap
//! and the time goes into generating neighbours. Spaces with several goals start from all of
//! them; a position named by several states (aliases) gets its distance under all of them the
//! moment one is set.

use crate::{EnumerateError, Enumeration, Limits, Progress, Stop};
use godsearch_core::RankedSpace;
use godsearch_tables::{entries_per_word, ByteTable, LevelTable, TwoBitTable};
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Words a rayon task scans: 2^12 words = 131,072 2-bit positions, small enough to balance two
/// cores to the end of a pass, large enough that task overhead is invisible.
const WORDS_PER_TASK: usize = 1 << 12;
/// Positions of a listed level a rayon task expands: small, so that a level of a few
/// thousand positions still keeps both cores busy to its end.
const LISTED_PER_TASK: usize = 1 << 10;
/// Listed levels of at most this many positions are expanded on the calling thread.
const LISTED_ALONE: usize = 1 << 12;
/// Neighbours gathered before they are marked (see [`mark_batch`]).
const NEIGHBOUR_BATCH: usize = 1024;

/// Bytes of a 2-bit table for `states` positions.
pub fn table_bytes(states: u128) -> u128 {
    states.div_ceil(entries_per_word::<TwoBitTable>() as u128) * 8
}

/// Levels of this many positions are always kept as lists, whatever the table's size (a few
/// megabytes at most).
const LIST_FLOOR: usize = 1 << 16;

/// Share of the table's bytes a list may take: lists are the engine's only memory besides
/// the table (the two-phase tables peaked 13% higher with lists of half the table's size).
const LIST_SHARE: usize = 8;

/// The most positions of a level kept as a list to expand: a list takes at most an eighth of
/// the table's bytes, or `LIST_FLOOR` (65,536) positions for small tables, which then never scan
/// until their levels grow (a subgoal stage's table of 160,000 bytes holds 20-byte states).
pub fn list_cap<T: LevelTable, S>(table: &T) -> usize {
    (table.bytes() / (LIST_SHARE * std::mem::size_of::<S>())).max(LIST_FLOOR)
}

/// The table engine's result: the counts, and the table itself for descent or saving.
#[derive(Debug)]
pub struct TableEnumeration<R, T = TwoBitTable> {
    /// Counts and stop reason.
    pub enumeration: Enumeration<R>,
    /// The distance (mod 3, or exact, by encoding) of every position reached; unreached ones
    /// beyond a depth limit stay unreached.
    pub table: T,
}

/// How many positions a pass may record, shared by its tasks, so that together they hold
/// about `cap` at most however large the level (each task alone could hold `cap` otherwise).
struct Budget {
    cap: usize,
    claimed: AtomicUsize,
}

/// Positions a task claims from the [`Budget`] at a time.
const RECORD_CHUNK: usize = 1024;

impl Budget {
    fn new(cap: usize) -> Self {
        Budget {
            cap,
            claimed: AtomicUsize::new(0),
        }
    }
}

struct PassResult<R> {
    found: u64,
    recorded: Vec<R>,
    /// `false` once a task stopped recording: `recorded` then misses positions.
    complete: bool,
}

impl<R> PassResult<R> {
    fn empty() -> Self {
        PassResult {
            found: 0,
            recorded: Vec::new(),
            complete: true,
        }
    }

    #[inline]
    fn record(&mut self, state: R, budget: &Budget) {
        self.found += 1;
        if !self.complete {
            return;
        }
        if self.recorded.len() % RECORD_CHUNK == 0
            && budget.claimed.fetch_add(RECORD_CHUNK, Ordering::Relaxed) >= budget.cap
        {
            self.complete = false;
            self.recorded = Vec::new();
            return;
        }
        self.recorded.push(state);
    }

    fn merge(mut self, mut other: Self, budget: &Budget) -> Self {
        self.found += other.found;
        self.complete &= other.complete;
        if self.complete {
            self.recorded.append(&mut other.recorded);
            self.recorded.truncate(budget.cap);
        } else {
            self.recorded = Vec::new();
        }
        self
    }

    /// The recorded positions when they are the whole level.
    fn level(self) -> Option<Vec<R>> {
        (self.complete && self.recorded.len() as u64 == self.found).then_some(self.recorded)
    }
}

/// Marks every unreached state of `batch` as `next` and empties the batch.
///
/// Neighbours are gathered in batches first and marked afterwards because the marks are random
/// accesses into a table far larger than the caches: issued back to back, the loads overlap in
/// the memory system instead of each waiting behind the ranking arithmetic of the next position.
#[inline(always)]
fn mark_batch<P: RankedSpace, T: LevelTable>(
    puzzle: &P,
    table: &T,
    batch: &mut Vec<P::State>,
    next: u8,
    budget: &Budget,
    result: &mut PassResult<P::State>,
) {
    // Plain loads first: a locked read-modify-write between them would stop them overlapping.
    // Ranks are computed again rather than kept beside the states: for the spaces whose state
    // is its rank that costs nothing, and a batch of states alone is half the memory traffic.
    batch.retain(|&nb| table.raw(puzzle.rank_of(nb)) == T::UNREACHED);
    for &nb in batch.iter() {
        if table.try_set(puzzle.rank_of(nb), next) {
            result.record(nb, budget);
            puzzle.for_each_alias(nb, |alias| {
                if table.try_set(puzzle.rank_of(alias), next) {
                    result.record(alias, budget);
                }
            });
        }
    }
    batch.clear();
}

/// Enumerates `puzzle` completely (or to `limits.max_depth`) in a 2-bit table.
///
/// Exact: `levels[d]` is the number of positions at distance `d`. Fails before allocating if the
/// table would exceed `limits.memory_bytes`.
///
/// ```
/// use godsearch_enumerate::{table, Limits, NoProgress};
/// use godsearch_puzzles::tiles::{Board, Shape, TileSpace};
/// let space = TileSpace::<u64>::new(Board::goal(Shape::new(2, 3).unwrap())).unwrap();
/// let limits = Limits {
///     max_depth: None,
///     memory_bytes: 1 << 20,
///     antipode_cap: 10,
///     count_last: false,
/// };
/// let result = table::enumerate(&space, &limits, &NoProgress).unwrap().enumeration;
/// assert_eq!(result.total(), 360);
/// assert_eq!(result.diameter(), Some(21));
/// ```
pub fn enumerate<P: RankedSpace>(
    puzzle: &P,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<TableEnumeration<P::State>, EnumerateError> {
    enumerate_into(puzzle, limits, progress)
}

/// [`enumerate`] into a table of exact distances, one byte each (spaces of diameter at most
/// 254; a deeper level is an error).
pub fn enumerate_exact<P: RankedSpace>(
    puzzle: &P,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<TableEnumeration<P::State, ByteTable>, EnumerateError> {
    enumerate_into(puzzle, limits, progress)
}

/// [`enumerate`] into a table of any encoding `T`.
pub fn enumerate_into<P: RankedSpace, T: LevelTable>(
    puzzle: &P,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<TableEnumeration<P::State, T>, EnumerateError> {
    enumerate_observed(puzzle, limits, progress, &mut |_| ControlFlow::Continue(()))
}

/// A complete level, as [`enumerate_observed`] hands it over.
pub struct LevelDone<'a, P: RankedSpace, T> {
    /// Its distance.
    pub depth: u32,
    /// Its positions.
    pub count: u64,
    /// The table, holding every level up to this one and no deeper one.
    pub table: &'a T,
    /// The level's positions (with their aliases), when the engine kept them as a list
    /// (small levels).
    pub listed: Option<&'a [P::State]>,
}

/// [`enumerate_into`], calling `level_done` with each level as it is complete, from level 0
/// ([`LevelDone`]), which lets a caller copy a 2-bit table's levels into another form as they
/// come (their residues alone would not tell them apart afterwards). When it returns
/// [`ControlFlow::Break`] the run stops there, as at a depth limit ([`Stop::MaxDepth`]): a
/// caller that needs no deeper level saves the passes that find them.
pub fn enumerate_observed<P: RankedSpace, T: LevelTable>(
    puzzle: &P,
    limits: &Limits,
    progress: &dyn Progress,
    level_done: &mut dyn FnMut(LevelDone<'_, P, T>) -> ControlFlow<()>,
) -> Result<TableEnumeration<P::State, T>, EnumerateError> {
    let states = puzzle.state_count();
    let per_word = entries_per_word::<T>() as u128;
    let needed = states.div_ceil(per_word) * 8;
    let too_large = EnumerateError::TableTooLarge {
        states,
        needed,
        budget: limits.memory_bytes,
    };
    if needed > limits.memory_bytes as u128 || usize::try_from(states).is_err() {
        return Err(too_large);
    }
    let n = states as usize;
    let mut table = T::with_len(n);
    // Two lists are held at once, the level expanded and the level found: within the memory
    // budget beside the table, when that is less than `list_cap` allows.
    let room = (limits.memory_bytes - needed as u64) / (2 * std::mem::size_of::<P::State>() as u64);
    let listing = list_cap::<T, P::State>(&table).min(usize::try_from(room).unwrap_or(usize::MAX));
    let mut goals = Vec::new();
    puzzle.for_each_goal(|g| {
        if table.try_set(puzzle.rank_of(g), T::value_of(0)) {
            goals.push(g);
        }
        puzzle.for_each_alias(g, |alias| {
            if table.try_set(puzzle.rank_of(alias), T::value_of(0)) {
                goals.push(alias);
            }
        });
    });
    let mut reached = goals.len() as u64;
    let mut levels = vec![reached];
    let mut observed = level_done(LevelDone {
        depth: 0,
        count: reached,
        table: &table,
        listed: Some(&goals),
    });
    let mut last_level = (goals.len() <= limits.antipode_cap).then(|| goals.clone());
    let mut peak_listed = goals.len();
    let mut listed = (goals.len() <= listing).then_some(goals);
    let stop = loop {
        let depth = levels.len() as u32 - 1;
        if limits.max_depth.is_some_and(|m| depth >= m) || observed.is_break() {
            break Stop::MaxDepth(depth);
        }
        if progress.cancelled() {
            break Stop::Cancelled(depth);
        }
        if depth >= T::MAX_LEVEL {
            return Err(EnumerateError::TooDeep {
                depth: depth + 1,
                most: T::MAX_LEVEL,
            });
        }
        // Forward from a list expands level d; by scanning, every entry with d's value (levels
        // d, d-3, d-6, ... with 2 bits). Backward examines every unreached entry. Pick the least.
        let forward_work: u64 = match (&listed, T::MOD3) {
            (Some(list), _) => list.len() as u64,
            (None, true) => levels.iter().skip(depth as usize % 3).step_by(3).sum(),
            (None, false) => levels[depth as usize],
        };
        let backward = n as u64 - reached < forward_work;
        let budget = Budget::new(limits.antipode_cap.max(listing));
        let pass = match (&listed, backward) {
            (Some(list), false) if list.len() <= LISTED_ALONE => {
                progress.level_started(depth + 1, list.len() as u64);
                expand_alone(puzzle, &mut table, list, depth, &budget, progress)
            }
            (Some(list), false) => {
                progress.level_started(depth + 1, list.len() as u64);
                expand_list(puzzle, &table, list, depth, &budget, progress)
            }
            _ => {
                progress.level_started(depth + 1, n as u64);
                run_pass(puzzle, &table, depth, backward, &budget, progress)
            }
        };
        // Cancelled during the level: it is incomplete, so it is not counted (the levels
        // before it are exact; the table holds some of its marks and must not be read as
        // complete, which the stop says).
        if progress.cancelled() {
            break Stop::Cancelled(depth);
        }
        if pass.found == 0 {
            break Stop::Complete;
        }
        reached += pass.found;
        levels.push(pass.found);
        let found = pass.found as usize;
        let recorded = pass.level();
        observed = level_done(LevelDone {
            depth: depth + 1,
            count: found as u64,
            table: &table,
            listed: recorded.as_deref(),
        });
        peak_listed = peak_listed.max(recorded.as_ref().map_or(0, Vec::len));
        last_level = recorded
            .as_ref()
            .filter(|_| found <= limits.antipode_cap)
            .cloned();
        listed = recorded.filter(|_| found <= listing);
        progress.level_finished(depth + 1, found as u64);
    };
    let enumeration = Enumeration {
        classes: levels.clone(),
        levels,
        stop,
        last_level,
        peak_bytes: (table.bytes() + peak_listed * std::mem::size_of::<P::State>()) as u64,
        last_counted_only: false,
    };
    Ok(TableEnumeration { enumeration, table })
}

/// Adds the neighbours of `state` to `batch`, marking the batch once it is full.
#[inline]
fn expand_into<P: RankedSpace, T: LevelTable>(
    puzzle: &P,
    table: &T,
    state: P::State,
    batch: &mut Vec<P::State>,
    next: u8,
    budget: &Budget,
    result: &mut PassResult<P::State>,
) {
    puzzle.for_each_neighbour(state, |_, nb| batch.push(nb));
    if batch.len() >= NEIGHBOUR_BATCH {
        mark_batch(puzzle, table, batch, next, budget, result);
    }
}

/// The forward pass from the listed positions of level `depth`.
fn expand_list<P: RankedSpace, T: LevelTable>(
    puzzle: &P,
    table: &T,
    list: &[P::State],
    depth: u32,
    budget: &Budget,
    progress: &dyn Progress,
) -> PassResult<P::State> {
    let next = T::value_of(depth + 1);
    let expand = |chunk: &[P::State]| {
        let mut result = PassResult::empty();
        if progress.cancelled() {
            return result;
        }
        let mut batch = Vec::with_capacity(NEIGHBOUR_BATCH + puzzle.max_degree());
        for &state in chunk {
            expand_into(puzzle, table, state, &mut batch, next, budget, &mut result);
        }
        mark_batch(puzzle, table, &mut batch, next, budget, &mut result);
        progress.advanced(chunk.len() as u64);
        result
    };
    list.par_chunks(LISTED_PER_TASK)
        .map(expand)
        .reduce(PassResult::empty, |a, b| a.merge(b, budget))
}

/// The forward pass from a listed level of at most one task's size, on this thread: handing
/// it to the pool costs more than it saves (a subgoal stage's table has a hundred levels of a
/// few thousand positions), and holding the table alone, marks need no locked instruction.
fn expand_alone<P: RankedSpace, T: LevelTable>(
    puzzle: &P,
    table: &mut T,
    list: &[P::State],
    depth: u32,
    budget: &Budget,
    progress: &dyn Progress,
) -> PassResult<P::State> {
    let next = T::value_of(depth + 1);
    let mut result = PassResult::empty();
    for &state in list {
        puzzle.for_each_neighbour(state, |_, nb| {
            if table.try_set_alone(puzzle.rank_of(nb), next) {
                result.record(nb, budget);
                puzzle.for_each_alias(nb, |alias| {
                    if table.try_set_alone(puzzle.rank_of(alias), next) {
                        result.record(alias, budget);
                    }
                });
            }
        });
    }
    progress.advanced(list.len() as u64);
    result
}

/// A forward pass that scans for level `depth`'s entries, or a backward pass over the
/// unreached ones.
fn run_pass<P: RankedSpace, T: LevelTable>(
    puzzle: &P,
    table: &T,
    depth: u32,
    backward: bool,
    budget: &Budget,
    progress: &dyn Progress,
) -> PassResult<P::State> {
    let current = T::value_of(depth);
    let next = T::value_of(depth + 1);
    let n = table.len();
    let per_word = entries_per_word::<T>();
    let tasks = table.word_count().div_ceil(WORDS_PER_TASK);
    let scan = |task: usize| {
        let mut result = PassResult::empty();
        // A cancel stops the level within a task; the level is then dropped whole.
        if progress.cancelled() {
            return result;
        }
        let mut batch = Vec::with_capacity(NEIGHBOUR_BATCH + puzzle.max_degree());
        let words = task * WORDS_PER_TASK..((task + 1) * WORDS_PER_TASK).min(table.word_count());
        let wanted = if backward { T::UNREACHED } else { current };
        for w in words.clone() {
            let mut hits = table.matching(w, wanted);
            while hits != 0 {
                let i = w * per_word + hits.trailing_zeros() as usize / T::BITS;
                hits &= hits - 1;
                if i >= n {
                    break;
                }
                let state = puzzle.state_at(i);
                if backward {
                    if puzzle.any_neighbour(state, |nb| table.raw(puzzle.rank_of(nb)) == current)
                        && table.try_set(i, next)
                    {
                        result.record(state, budget);
                    }
                } else {
                    expand_into(puzzle, table, state, &mut batch, next, budget, &mut result);
                }
            }
        }
        mark_batch(puzzle, table, &mut batch, next, budget, &mut result);
        progress.advanced((words.len() * per_word) as u64);
        result
    };
    // A table of one task's size is scanned here: handing it to the pool costs more.
    if tasks <= 1 {
        return scan(0);
    }
    (0..tasks)
        .into_par_iter()
        .map(scan)
        .reduce(PassResult::empty, |a, b| a.merge(b, budget))
}
