//! The positions near the goal, hashed: every position within `depth` moves of a goal entered
//! into a table of two-byte slots by a hash of its state. A lower bound for any space whose
//! states hash (no ranking needed), so it serves the puzzles too large to rank (the megaminx,
//! the 4x4x4), as twsearch's hash prune table does; unlike that table, a slot also keeps a
//! 12-bit fingerprint of the position in it, so a position outside the ball that lands on a
//! slot taken by another reads "outside" all the same, unless the slot is shared.
//!
//! A slot is empty (0), or holds a fingerprint and the smallest distance entered into it; the
//! fingerprint becomes 0 ("shared") when a position with another fingerprint is entered too.
//! A lookup reads `depth + 1` from an empty slot or one holding another fingerprint, and the
//! distance otherwise. Why that is admissible: a position within `depth` moves was entered,
//! so its slot holds its fingerprint or "shared", with its distance or a smaller one; a
//! position farther than `depth` reads `depth + 1` or a distance entered by a nearer
//! position, which is at most `depth`. Collisions only weaken it. It is a lower bound, not a
//! consistent one ([`Heuristic::CONSISTENT`] is `false`).
//!
//! The positions are found by walking every canonical sequence of at most `depth` moves from
//! each goal (the space's automaton keeps a shortest sequence to every position), split among
//! threads by their first two moves; slots change by compare-and-swap, so the threads need no
//! lock.

use godsearch_core::{
    AutomatonState, Heuristic, MoveIdx, NoProgress, Progress, SequenceAutomaton, StateSpace,
};
use rayon::prelude::*;
use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};

/// Bits of a slot holding `distance + 1` (0 in them: an empty slot).
const DISTANCE_BITS: u32 = 4;
/// Bits of a slot holding the fingerprint (0: shared by positions of several fingerprints).
const FINGERPRINT_BITS: u32 = u16::BITS - DISTANCE_BITS;
const DISTANCE_MASK: u16 = (1 << DISTANCE_BITS) - 1;

/// The deepest ball a slot holds (`distance + 1` must fit its distance bits).
pub const MAX_BALL_DEPTH: u32 = DISTANCE_MASK as u32 - 1;

/// Slots per position a ball should have for few collisions: at one position in four slots,
/// about 2.6% of the slots a position outside lands on are shared (and read as inside), and
/// one in 4,095 of the others has its fingerprint.
pub const SLOTS_PER_POSITION: u128 = 4;

/// Bytes of one slot.
const SLOT_BYTES: u128 = std::mem::size_of::<AtomicU16>() as u128;

/// The slots a ball of `positions` should have: [`SLOTS_PER_POSITION`] each, rounded up to a
/// power of two as [`HashedBall::build`] rounds them (saturating).
pub fn slots_for(positions: u128) -> u128 {
    positions
        .saturating_mul(SLOTS_PER_POSITION)
        .checked_next_power_of_two()
        .unwrap_or(u128::MAX)
}

/// The bytes of the slots [`slots_for`] gives (saturating).
pub fn bytes_for(positions: u128) -> u128 {
    slots_for(positions).saturating_mul(SLOT_BYTES)
}

/// Every position within [`depth`](Self::depth) moves of a goal, hashed into slots with
/// fingerprints (see the module docs): an admissible, not consistent, lower bound on the
/// moves to the goal.
#[derive(Debug)]
pub struct HashedBall<S> {
    depth: u32,
    /// log2 of the slot count.
    slot_bits: u32,
    slots: Vec<AtomicU16>,
    state: PhantomData<fn(S) -> S>,
}

impl<S: Hash + Copy + Send + Sync> HashedBall<S> {
    /// The ball of every position within `depth` moves of a goal of `space` (at most
    /// [`MAX_BALL_DEPTH`]), in `slots` slots (rounded up to a power of two; about
    /// [`SLOTS_PER_POSITION`] times the positions for few collisions). Time: one state and one
    /// hash per canonical sequence of at most `depth` moves ([`canonical_sequences`] counts
    /// them), on all threads.
    pub fn build<P: StateSpace<State = S>>(space: &P, depth: u32, slots: usize) -> Self {
        Self::build_until(space, depth, slots, &NoProgress).expect("never given up")
    }

    /// [`build`](Self::build), reported to `progress` as one level of `depth` whose units are
    /// the tasks the sequences are split into (a few thousand), and given up soon after it
    /// says [`cancelled`](Progress::cancelled) (asked before each task): then `None`, since a
    /// ball missing some of its positions would not be a lower bound.
    pub fn build_until<P: StateSpace<State = S>>(
        space: &P,
        depth: u32,
        slots: usize,
        progress: &dyn Progress,
    ) -> Option<Self> {
        let depth = depth.min(MAX_BALL_DEPTH);
        let size = slots.max(1).next_power_of_two();
        let ball = HashedBall {
            depth,
            slot_bits: size.trailing_zeros(),
            slots: (0..size).map(|_| AtomicU16::new(0)).collect(),
            state: PhantomData,
        };
        let automaton = space.sequence_automaton();
        let mut goals = Vec::new();
        space.for_each_goal(|g| goals.push(g));
        // The sequences of up to two moves are entered here and hand out the rest as tasks.
        let mut starts = Vec::new();
        for &goal in &goals {
            ball.enter(goal, 0);
            let root = (goal, SequenceAutomaton::START, 0);
            ball.walk(space, &automaton, root, Some(&mut starts));
        }
        let given_up = AtomicBool::new(false);
        progress.level_started(depth, starts.len() as u64);
        starts.par_iter().for_each(|&task| {
            if given_up.load(Ordering::Relaxed) || progress.cancelled() {
                given_up.store(true, Ordering::Relaxed);
                return;
            }
            ball.walk(space, &automaton, task, None);
            progress.advanced(1);
        });
        (!given_up.into_inner()).then_some(ball)
    }

    /// Enters every state of the canonical sequences that extend the one that reached `state`
    /// (at `at`, `g` moves) to at most `depth` moves; with `tasks`, only to two moves, each
    /// two-move one left as a task there.
    fn walk<P: StateSpace<State = S>>(
        &self,
        space: &P,
        automaton: &SequenceAutomaton,
        (state, at, g): (S, AutomatonState, u32),
        mut tasks: Option<&mut Vec<(S, AutomatonState, u32)>>,
    ) {
        const TASK_DEPTH: u32 = 2;
        if g == self.depth {
            return;
        }
        if let Some(tasks) = tasks.as_deref_mut().filter(|_| g == TASK_DEPTH) {
            tasks.push((state, at, g));
            return;
        }
        space.for_each_neighbour(state, |m, next| {
            if let Some(after) = automaton.next(at, m) {
                self.enter(next, g + 1);
                self.walk(space, automaton, (next, after, g + 1), tasks.as_deref_mut());
            }
        });
    }

    /// Enters `state` at `distance`: its slot keeps the smaller distance, and its fingerprint
    /// unless the slot holds another.
    fn enter(&self, state: S, distance: u32) {
        let (slot, fingerprint) = self.place(state);
        let mut held = self.slots[slot].load(Ordering::Relaxed);
        loop {
            let wanted = if held == 0 {
                fingerprint << DISTANCE_BITS | (distance as u16 + 1)
            } else {
                let keep = match held >> DISTANCE_BITS {
                    f if f == fingerprint => f,
                    _ => 0,
                };
                keep << DISTANCE_BITS | (held & DISTANCE_MASK).min(distance as u16 + 1)
            };
            if wanted == held {
                return;
            }
            match self.slots[slot].compare_exchange_weak(
                held,
                wanted,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return,
                Err(now) => held = now,
            }
        }
    }

    /// The slot of `state` and its fingerprint (never 0), both from the top bits of a mixed
    /// hash.
    #[inline]
    fn place(&self, state: S) -> (usize, u16) {
        let hash = spread_hash(&state);
        // One slot (no bits): every state in slot 0.
        let slot = hash.checked_shr(u64::BITS - self.slot_bits).unwrap_or(0) as usize;
        let fingerprint = (hash >> (u64::BITS - self.slot_bits - FINGERPRINT_BITS)) as u16
            & ((1 << FINGERPRINT_BITS) - 1);
        (slot & (self.slots.len() - 1), fingerprint.max(1))
    }
}

/// A hash of `state` whose every bit depends on all of it (FxHash, then [`mix`]): slots, parts
/// and fingerprints may be taken from any of its bits.
#[inline]
pub(crate) fn spread_hash<S: Hash>(state: &S) -> u64 {
    let mut hasher = FxHasher::default();
    state.hash(&mut hasher);
    mix(hasher.finish())
}

/// A 64-bit finaliser (Stafford's mix 13, as in SplitMix64): every input bit moves about half
/// the output bits, so slots and fingerprints taken from any bits are spread evenly.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl<S> HashedBall<S> {
    /// Every position within this many moves of a goal was entered.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Its slots.
    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// Slots holding a distance (at most the number of positions entered).
    pub fn filled(&self) -> usize {
        self.slots
            .par_iter()
            .filter(|s| s.load(Ordering::Relaxed) != 0)
            .count()
    }
}

impl<S: Hash + Copy + Send + Sync> Heuristic<S> for HashedBall<S> {
    const CONSISTENT: bool = false;

    #[inline]
    fn lower_bound(&self, state: S) -> u32 {
        let (slot, fingerprint) = self.place(state);
        self.read(slot, fingerprint)
    }

    /// Every state's slot worked out first, then read: the reads of a ball larger than the
    /// caches wait on memory, and no longer one after another.
    fn lower_bounds(&self, states: &[S], out: &mut [u32]) {
        let mut places = [(0usize, 0u16); BATCH_PLACES];
        for (states, out) in states
            .chunks(BATCH_PLACES)
            .zip(out.chunks_mut(BATCH_PLACES))
        {
            for (place, &state) in places.iter_mut().zip(states) {
                *place = self.place(state);
            }
            for (bound, &(slot, fingerprint)) in out.iter_mut().zip(&places) {
                *bound = self.read(slot, fingerprint);
            }
        }
    }
}

/// [`HashedBall::lower_bounds`] works out this many slots before it reads them.
const BATCH_PLACES: usize = 64;

impl<S> HashedBall<S> {
    /// The estimate slot `slot` gives a position of fingerprint `fingerprint` (module docs).
    #[inline]
    fn read(&self, slot: usize, fingerprint: u16) -> u32 {
        let held = self.slots[slot].load(Ordering::Relaxed);
        let outside = self.depth + 1;
        match held >> DISTANCE_BITS {
            _ if held == 0 => outside,
            f if f == 0 || f == fingerprint => (held & DISTANCE_MASK) as u32 - 1,
            _ => outside,
        }
    }
}

/// The number of canonical sequences of at most `depth` moves from one goal under
/// `automaton`: an upper bound on the positions within `depth` moves of it, and the work of
/// [`HashedBall::build`] (saturating at `u128::MAX`).
pub fn canonical_sequences(automaton: &SequenceAutomaton, depth: u32) -> u128 {
    let moves = automaton.move_count();
    let mut at = vec![0u128; automaton.state_count()];
    at[SequenceAutomaton::START as usize] = 1;
    let mut total: u128 = 1;
    for _ in 0..depth {
        let mut next = vec![0u128; at.len()];
        for (state, &count) in at.iter().enumerate() {
            if count == 0 {
                continue;
            }
            for m in 0..moves {
                if let Some(to) = automaton.next(state as AutomatonState, m as MoveIdx) {
                    next[to as usize] = next[to as usize].saturating_add(count);
                }
            }
        }
        total = next.iter().fold(total, |t, &c| t.saturating_add(c));
        at = next;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use godsearch_puzzles::tiles::{Board, Shape, TileSpace};
    use std::collections::HashMap;

    /// Every state's exact distance, by a plain breadth-first search.
    fn distances<P: StateSpace>(space: &P) -> HashMap<P::State, u32>
    where
        P::State: Eq + Hash,
    {
        let mut seen = HashMap::from([(space.goal_state(), 0)]);
        let mut level = vec![space.goal_state()];
        for d in 1.. {
            let mut next = Vec::new();
            for &s in &level {
                space.for_each_neighbour(s, |_, n| {
                    seen.entry(n).or_insert_with(|| {
                        next.push(n);
                        d
                    });
                });
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        seen
    }

    fn space() -> TileSpace<u64> {
        TileSpace::new(Board::goal(Shape::new(3, 3).unwrap())).unwrap()
    }

    #[test]
    fn it_never_passes_the_true_distance_however_crowded() {
        let space = space();
        let distances = distances(&space);
        for (depth, slots) in [
            (8, 1 << 16),
            (12, 1 << 10),
            (MAX_BALL_DEPTH, 1 << 20),
            (40, 1),
        ] {
            let ball = HashedBall::build(&space, depth, slots);
            for (&state, &d) in &distances {
                let bound = ball.lower_bound(state);
                assert!(bound <= d, "depth {depth}: {bound} over the distance {d}");
                assert!(bound <= depth.min(MAX_BALL_DEPTH) + 1);
            }
            assert!(ball.filled() <= ball.slot_count());
            // Asked together (in batches longer than one read pass, too), the same bounds.
            let states: Vec<_> = distances.keys().copied().collect();
            let mut together = vec![0; states.len()];
            ball.lower_bounds(&states, &mut together);
            let one_by_one: Vec<u32> = states.iter().map(|&s| ball.lower_bound(s)).collect();
            assert_eq!(together, one_by_one);
        }
    }

    #[test]
    fn with_room_it_gives_the_distances_inside_and_depth_plus_one_outside() {
        // The 2x3 board: 360 positions, diameter 21. With a million slots nearly every
        // position has a slot of its own.
        let space = TileSpace::<u64>::new(Board::goal(Shape::new(2, 3).unwrap())).unwrap();
        let distances = distances(&space);
        let depth = MAX_BALL_DEPTH;
        let ball = HashedBall::build(&space, depth, 1 << 20);
        let expected = |d: u32| d.min(depth + 1);
        let exact = distances
            .iter()
            .filter(|(&s, &d)| ball.lower_bound(s) == expected(d))
            .count();
        assert!(distances.iter().all(|(&s, &d)| ball.lower_bound(s) <= d));
        assert!(
            exact * 100 >= distances.len() * 99,
            "{exact} of {}",
            distances.len()
        );
        // Few slots: most are shared, and the bound still holds.
        let crowded = HashedBall::build(&space, depth, 64);
        assert!(distances.iter().all(|(&s, &d)| crowded.lower_bound(s) <= d));
    }

    #[test]
    fn positions_spread_over_the_slots_as_random_ones_would() {
        // n positions in s slots fill s (1 - e^(-n/s)) of them when the hash is even.
        let space = space();
        let within = distances(&space).values().filter(|&&d| d <= 12).count() as f64;
        let ball = HashedBall::build(&space, 12, (within as usize) * 4);
        let slots = ball.slot_count() as f64;
        let expected = slots * (1.0 - (-within / slots).exp());
        let filled = ball.filled() as f64;
        assert!(
            (filled / expected - 1.0).abs() < 0.02,
            "{filled} filled, {expected} expected"
        );
    }

    #[test]
    fn a_build_given_up_gives_no_ball_and_a_whole_one_reports_every_task() {
        use std::sync::atomic::AtomicU64;
        /// Counts the units reported; cancels once it has been asked `stop_after` times, so
        /// the stop comes midway however many threads take the tasks at once.
        struct Watcher {
            level: AtomicU64,
            done: AtomicU64,
            asked: AtomicU64,
            stop_after: u64,
        }
        impl Progress for Watcher {
            fn level_started(&self, _: u32, units: u64) {
                self.level.store(units, Ordering::Relaxed);
            }
            fn advanced(&self, units: u64) {
                self.done.fetch_add(units, Ordering::Relaxed);
            }
            fn cancelled(&self) -> bool {
                self.asked.fetch_add(1, Ordering::Relaxed) >= self.stop_after
            }
        }
        let space = space();
        let watch = |stop_after| Watcher {
            level: AtomicU64::new(0),
            done: AtomicU64::new(0),
            asked: AtomicU64::new(0),
            stop_after,
        };
        let stopped = watch(0);
        assert!(HashedBall::build_until(&space, 20, 1 << 16, &stopped).is_none());
        let stopped_midway = watch(3);
        assert!(HashedBall::build_until(&space, 20, 1 << 16, &stopped_midway).is_none());
        let whole = watch(u64::MAX);
        assert!(HashedBall::build_until(&space, 20, 1 << 16, &whole).is_some());
        let tasks = whole.level.load(Ordering::Relaxed);
        assert!(tasks > 3);
        assert_eq!(whole.done.load(Ordering::Relaxed), tasks);
    }

    #[test]
    fn a_ball_of_one_slot_is_a_lower_bound_too() {
        let space = space();
        let ball = HashedBall::build(&space, 3, 1);
        assert_eq!(ball.slot_count(), 1);
        assert_eq!(ball.lower_bound(space.goal_state()), 0);
    }

    #[test]
    fn canonical_sequences_count_the_automatons_words() {
        let everything = SequenceAutomaton::everything(3);
        assert_eq!(canonical_sequences(&everything, 0), 1);
        assert_eq!(canonical_sequences(&everything, 2), 1 + 3 + 9);
        // Tiles: no move after its inverse, and the 3x3's moves are not all legal everywhere,
        // so the sequences over-count the positions (an upper bound, as documented).
        let space = space();
        let within_8 = distances(&space).values().filter(|&&d| d <= 8).count();
        assert!(canonical_sequences(&space.sequence_automaton(), 8) >= within_8 as u128);
    }
}
