//! Korf and Schultze's used-operator bits: each state of a level carries the moves that lead
//! back to the level before it, so that its expansion lists states of the next level only.
//!
//! Where no move keeps the distance to the goal (tiles: every move changes the blank's
//! colour), a neighbour of a state at distance `d` is at `d - 1` or `d + 1`, and it is at
//! `d - 1` exactly when the move to it undoes a move by which a state of level `d - 1` reached
//! this one. [`BackMoves`] keeps those moves in the low bits of each state, joined over every
//! parent that lists it (the engines join repeats by [`join_repeats`]), and its neighbours skip
//! them. So a level's candidates are states of the next level, repeated only where a state has
//! several parents: the disk engine reads no earlier level to remove known states, and lists
//! about a third fewer candidates on the 15-puzzle, whose deep levels grow 1.6-1.7x a level,
//! so that a state has about 1.1 moves back of its 3 on average. The price is the bits in every
//! stored state (a move each: 4 for tiles), about half a byte a state more on disk.

use crate::keys::{KeyInt as _, KeyState};
use godsearch_core::{MoveIdx, RankedSpace, SequenceAutomaton, StateSpace};

/// The most moves a space may have for [`BackMoves`]: a bit each in every state.
pub const MAX_BACK_MOVES: usize = 8;

/// A space whose states are `P`'s states shifted left by one bit a move, the low bits marking
/// the moves that lead back a level (see the module doc). Its neighbours are `P`'s neighbours
/// by the moves not marked, each marked with the move that undoes the one that reached it.
///
/// Exact, as an enumeration goes: every state it lists from a level whose states carry all
/// their moves back (as every level does once its repeats are joined) is one level further
/// from the goal, and each position of that level is listed at least once.
#[derive(Debug, Clone)]
pub struct BackMoves<P> {
    inner: P,
    bits: u32,
}

impl<P: StateSpace> BackMoves<P>
where
    P::State: KeyState,
{
    /// `space` with its states' moves back, or `None` where that does not apply: a move may
    /// keep the distance, states stand for classes, the space has more than
    /// [`MAX_BACK_MOVES`] moves, or its states, which need `key_bits` bits, leave no room for
    /// a bit a move. `space` must have no aliases ([`StateSpace::for_each_alias`]).
    pub fn new(space: P, key_bits: u32) -> Option<Self> {
        let moves = space.move_count();
        let applies = !space.same_level_possible()
            && !P::HAS_CLASSES
            && moves <= MAX_BACK_MOVES
            && key_bits + moves as u32 <= P::State::BITS;
        applies.then_some(BackMoves {
            inner: space,
            bits: moves as u32,
        })
    }

    /// [`new`](Self::new) for a ranked space, whose states need the bits of its largest rank.
    pub fn ranked(space: P) -> Option<Self>
    where
        P: RankedSpace,
    {
        let key_bits = u128::BITS - space.state_count().saturating_sub(1).leading_zeros();
        Self::new(space, key_bits)
    }

    /// The position `state` stands for, as a state of the wrapped space.
    #[inline]
    pub fn position(&self, state: P::State) -> P::State {
        self.state_of(state.to_key() >> self.bits)
    }

    /// `position` with no move marked.
    #[inline]
    fn unmarked(&self, position: P::State) -> P::State {
        self.state_of(position.to_key() << self.bits)
    }

    #[inline]
    fn state_of(&self, key: <P::State as KeyState>::Key) -> P::State {
        P::State::from_key(key).expect("keys fit their type: `new` left room for the bits")
    }

    /// `allowed` without the moves `state` marks as leading back.
    #[inline]
    fn forward(&self, state: P::State, allowed: &[bool]) -> [bool; MAX_BACK_MOVES] {
        let back = state.to_key();
        let mut forward = [false; MAX_BACK_MOVES];
        for (m, f) in forward.iter_mut().enumerate().take(self.bits as usize) {
            *f = allowed[m] && back & (one::<P::State>() << m as u32) == Default::default();
        }
        forward
    }
}

impl<P: StateSpace> StateSpace for BackMoves<P>
where
    P::State: KeyState,
{
    type State = P::State;
    const HAS_CLASSES: bool = P::HAS_CLASSES;

    fn goal_state(&self) -> Self::State {
        self.unmarked(self.inner.goal_state())
    }

    fn is_goal(&self, state: Self::State) -> bool {
        self.inner.is_goal(self.position(state))
    }

    fn for_each_goal(&self, mut f: impl FnMut(Self::State)) {
        self.inner.for_each_goal(|g| f(self.unmarked(g)));
    }

    fn move_count(&self) -> usize {
        self.inner.move_count()
    }

    fn move_name(&self, m: MoveIdx) -> String {
        self.inner.move_name(m)
    }

    fn inverse_move(&self, m: MoveIdx) -> MoveIdx {
        self.inner.inverse_move(m)
    }

    #[inline]
    fn for_each_neighbour(&self, state: Self::State, f: impl FnMut(MoveIdx, Self::State)) {
        self.for_each_neighbour_by(state, &[true; MAX_BACK_MOVES], f);
    }

    fn max_degree(&self) -> usize {
        self.inner.max_degree()
    }

    /// Every move marked is legal (it leads back to a parent), so this is the wrapped space's
    /// degree less the marks: no list of allowed moves to build.
    #[inline]
    fn degree(&self, state: Self::State) -> usize {
        let mask = (one::<P::State>() << self.bits) - one::<P::State>();
        let marked = (state.to_key() & mask).count_ones() as usize;
        self.inner.degree(self.position(state)) - marked
    }

    fn class_size(&self, state: Self::State) -> u64 {
        self.inner.class_size(self.position(state))
    }

    fn parts(&self) -> usize {
        self.inner.parts()
    }

    #[inline]
    fn part_of(&self, state: Self::State) -> usize {
        self.inner.part_of(self.position(state))
    }

    fn part_start(&self, part: usize) -> Self::State {
        self.unmarked(self.inner.part_start(part))
    }

    fn part_after(&self, part: usize, m: MoveIdx) -> Option<usize> {
        self.inner.part_after(part, m)
    }

    fn parts_in_group_order(&self) -> Vec<usize> {
        self.inner.parts_in_group_order()
    }

    #[inline]
    fn for_each_neighbour_by(
        &self,
        state: Self::State,
        allowed: &[bool],
        mut f: impl FnMut(MoveIdx, Self::State),
    ) {
        let forward = self.forward(state, allowed);
        self.inner
            .for_each_neighbour_by(self.position(state), &forward, |m, next| {
                let back = one::<P::State>() << self.inner.inverse_move(m) as u32;
                f(m, self.state_of((next.to_key() << self.bits) | back))
            });
    }

    #[inline]
    fn degree_by(&self, state: Self::State, allowed: &[bool]) -> usize {
        let forward = self.forward(state, allowed);
        self.inner.degree_by(self.position(state), &forward)
    }

    fn same_level_possible(&self) -> bool {
        false
    }

    fn sequence_automaton(&self) -> SequenceAutomaton {
        self.inner.sequence_automaton()
    }

    fn back_move_bits(&self) -> u32 {
        self.bits
    }
}

/// The key 1 of states `S`.
#[inline]
fn one<S: KeyState>() -> S::Key {
    S::Key::from(1u8)
}

/// Removes the repeats of sorted `states`; with `back_move_bits` (see
/// [`StateSpace::back_move_bits`]), states equal above those bits are one state whose bits are
/// the union of theirs (sorted, they lie together).
pub fn join_repeats<S: KeyState>(states: &mut Vec<S>, back_move_bits: u32) {
    if back_move_bits == 0 {
        states.dedup();
        return;
    }
    states.dedup_by(|later, kept| {
        let (k, l) = (kept.to_key(), later.to_key());
        if k >> back_move_bits != l >> back_move_bits {
            return false;
        }
        *kept = S::from_key(k | l).expect("equal above the bits: the union is the larger key");
        true
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference;
    use godsearch_puzzles::tiles::{Board, Shape, TileSpace};

    fn tiles(w: usize, h: usize) -> TileSpace<u64> {
        TileSpace::new(Board::goal(Shape::new(w, h).unwrap())).unwrap()
    }

    #[test]
    fn repeats_are_joined_with_the_union_of_their_bits() {
        let mut states: Vec<u64> = vec![0b1_0001, 0b1_0100, 0b10_0010, 0b11_0001, 0b11_0001];
        join_repeats(&mut states, 4);
        assert_eq!(states, vec![0b1_0101, 0b10_0010, 0b11_0001]);
        let mut plain: Vec<u64> = vec![1, 1, 2, 4, 4];
        join_repeats(&mut plain, 0);
        assert_eq!(plain, vec![1, 2, 4]);
    }

    #[test]
    fn it_applies_to_tiles_only_where_the_bits_fit() {
        let space = tiles(3, 3);
        assert!(BackMoves::ranked(space.clone()).is_some());
        // 181,440 ranks take 18 bits; 61 would leave no room for 4 more in 64.
        assert_eq!(BackMoves::ranked(space.clone()).unwrap().bits, 4);
        assert!(BackMoves::new(space, 61).is_none());
    }

    /// Level by level with joined repeats and nothing else removed, the levels are exactly
    /// the hash-set BFS's: every listed neighbour is new, and no position is missed.
    #[test]
    fn levels_listed_forward_only_are_the_true_levels() {
        for (w, h) in [(3, 3), (2, 4), (3, 2)] {
            let inner = tiles(w, h);
            let space = BackMoves::ranked(inner.clone()).unwrap();
            let truth = reference::bfs_levels(inner.goal_state(), None, |&s| {
                let mut next = Vec::new();
                inner.for_each_neighbour(s, |_, nb| next.push(nb));
                next
            });
            let mut level = vec![space.goal_state()];
            let mut counts = vec![1u64];
            loop {
                let mut next = Vec::new();
                for &s in &level {
                    assert_eq!(space.degree(s), {
                        let mut n = 0;
                        space.for_each_neighbour(s, |_, _| n += 1);
                        n
                    });
                    space.for_each_neighbour(s, |_, nb| next.push(nb));
                }
                next.sort_unstable();
                join_repeats(&mut next, space.back_move_bits());
                if next.is_empty() {
                    break;
                }
                counts.push(next.len() as u64);
                level = next;
            }
            assert_eq!(counts, truth, "{w}x{h}");
        }
    }
}
