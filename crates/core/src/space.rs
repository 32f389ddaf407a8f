//! The state-space family: the view of a puzzle that every engine sees.
//!
//! - [`StateSpace`]: packed states, moves with names and inverses, the goal, neighbours, the
//!   canonical-sequence automaton, and optional symmetry (a stored state may stand for a class
//!   of positions, with its exact size).
//! - [`RankedSpace`]: a space whose states are dense ranks `0..state_count()`, so a table
//!   indexed by state holds one entry per position.
//!
//! A new puzzle implements these and gets every engine: the frontier and table enumerations,
//! table descent, IDA* and A*.

use crate::sequence::SequenceAutomaton;
use std::fmt::Debug;
use std::hash::Hash;

/// Index of a move in a space's fixed move list (for tiles: `U D L R`, the blank's direction;
/// for cubes: `U U2 U' R ...` in the metric's order).
pub type MoveIdx = u8;

/// A puzzle as a graph of packed states, moves between them, and a goal.
///
/// Contract:
/// - [`for_each_neighbour`](Self::for_each_neighbour) reports every state one move away,
///   exactly once per legal move, at most [`max_degree`](Self::max_degree) of them;
/// - the move graph is undirected: every move has an inverse
///   ([`inverse_move`](Self::inverse_move)) that leads back;
/// - with symmetry, a state stands for a whole class of positions at the same distance from
///   the goal, [`class_size`](Self::class_size) of them exactly, and its neighbours are the
///   classes of the neighbours of the class's members.
pub trait StateSpace: Sync {
    /// A position (or a class representative) packed into a small value. Engines sort, compare
    /// and store it; they never look inside.
    type State: Copy + Ord + Hash + Debug + Default + Send + Sync + 'static;

    /// `true` when a state may stand for more than one position
    /// ([`class_size`](Self::class_size) above 1); engines then count positions by summing
    /// class sizes, and classes separately.
    const HAS_CLASSES: bool = false;

    /// The goal (distance 0).
    fn goal_state(&self) -> Self::State;

    /// Whether `state` is a goal. The default: it is [`goal_state`](Self::goal_state). A space
    /// with several goals (a subgoal stage: its tiles home, the blank anywhere) overrides this
    /// and [`for_each_goal`](Self::for_each_goal) together.
    fn is_goal(&self, state: Self::State) -> bool {
        state == self.goal_state()
    }

    /// Calls `f` for every goal (distance 0). The default: the one [`goal_state`](Self::goal_state).
    fn for_each_goal(&self, mut f: impl FnMut(Self::State)) {
        f(self.goal_state())
    }

    /// Number of moves in the move list; move indices are `0..move_count()`.
    fn move_count(&self) -> usize;

    /// The name of a move, as users write it (`U`, `R2`, `flip 3`).
    fn move_name(&self, m: MoveIdx) -> String;

    /// The move that undoes `m`.
    fn inverse_move(&self, m: MoveIdx) -> MoveIdx;

    /// Calls `f(move, neighbour)` for every move legal in `state`.
    fn for_each_neighbour(&self, state: Self::State, f: impl FnMut(MoveIdx, Self::State));

    /// The largest number of neighbours any state reports (sizes buffers).
    fn max_degree(&self) -> usize {
        self.move_count()
    }

    /// Number of neighbours `state` reports (sizes buffers exactly).
    fn degree(&self, state: Self::State) -> usize {
        let mut n = 0;
        self.for_each_neighbour(state, |_, _| n += 1);
        n
    }

    /// `true` when `pred` holds for some neighbour of `state`. Implementations may stop at the
    /// first such neighbour and try cheap neighbours first.
    fn any_neighbour(&self, state: Self::State, mut pred: impl FnMut(Self::State) -> bool) -> bool {
        let mut found = false;
        self.for_each_neighbour(state, |_, nb| found = found || pred(nb));
        found
    }

    /// A neighbour of `state` for which `pred` holds, with the move that reaches it, or `None`.
    /// Implementations may stop at the first one and try cheap neighbours first, so which one
    /// comes back when several qualify is the space's choice.
    fn find_neighbour(
        &self,
        state: Self::State,
        mut pred: impl FnMut(Self::State) -> bool,
    ) -> Option<(MoveIdx, Self::State)> {
        let mut found = None;
        self.for_each_neighbour(state, |m, nb| {
            if found.is_none() && pred(nb) {
                found = Some((m, nb));
            }
        });
        found
    }

    /// Calls `f` with every other state that names the same position as `state` (a table
    /// indexed by a symmetry-reduced coordinate may hold a position under several entries).
    /// The table engine gives them the distance of `state` when it sets it. The default: none.
    fn for_each_alias(&self, state: Self::State, f: impl FnMut(Self::State)) {
        let _ = (state, f);
    }

    /// Exact number of positions `state` stands for: 1 without symmetry.
    fn class_size(&self, state: Self::State) -> u64 {
        let _ = state;
        1
    }

    /// Into how many parts the states split for the disk engine, which can then make a level
    /// part by part without holding all its candidates at once (Korf and Schultze's split by
    /// the blank's cell). Each part is a run of states contiguous in their order
    /// ([`part_start`](Self::part_start)), and the part a move leads to depends on the move
    /// and the part it starts from alone ([`part_after`](Self::part_after)). The default: one
    /// part, which gives the engine nothing to split by.
    fn parts(&self) -> usize {
        1
    }

    /// The part `state` is in (below [`parts`](Self::parts)).
    fn part_of(&self, state: Self::State) -> usize {
        let _ = state;
        0
    }

    /// The smallest state of `part`: parts ascend, every state of a part coming before every
    /// state of the next (the default's one part starts at the smallest state there is).
    fn part_start(&self, part: usize) -> Self::State {
        let _ = part;
        Self::State::default()
    }

    /// The part that move `m` leads to from every state of `part` where it is legal (`None`
    /// where it is legal in none). Exact: never a part the move cannot reach.
    fn part_after(&self, part: usize, m: MoveIdx) -> Option<usize> {
        let _ = m;
        Some(part)
    }

    /// Every part once, in the order the disk engine joins them into groups made together:
    /// parts next to each other in the list should be joined by the moves that cost the most
    /// to make, since a move between two groups is made once for each. The default: by index.
    fn parts_in_group_order(&self) -> Vec<usize> {
        (0..self.parts()).collect()
    }

    /// [`for_each_neighbour`](Self::for_each_neighbour) for the moves marked in `allowed`
    /// (indexed by move) only. The default filters; a space overrides it where a move left
    /// out saves work.
    fn for_each_neighbour_by(
        &self,
        state: Self::State,
        allowed: &[bool],
        mut f: impl FnMut(MoveIdx, Self::State),
    ) {
        self.for_each_neighbour(state, |m, n| {
            if allowed[m as usize] {
                f(m, n)
            }
        });
    }

    /// Number of neighbours [`for_each_neighbour_by`](Self::for_each_neighbour_by) reports.
    fn degree_by(&self, state: Self::State, allowed: &[bool]) -> usize {
        let mut n = 0;
        self.for_each_neighbour_by(state, allowed, |_, _| n += 1);
        n
    }

    /// `false` when no move keeps the distance to the goal (a bipartite move graph, e.g. every
    /// move changes a parity), so a neighbour of level `d` is at `d - 1` or `d + 1` only.
    fn same_level_possible(&self) -> bool {
        true
    }

    /// How many low bits of a state (as an unsigned integer) record the moves that lead back
    /// to the level before it, rather than the position (Korf and Schultze's used-operator
    /// bits): 0, the default, for a state that is its position alone. Where it is not 0, two
    /// states equal above these bits are one position, whose bits are the union of theirs, and
    /// every neighbour the space lists is one level further from the goal than its state, so
    /// an engine removes no earlier level's states from a new level: it only joins repeats.
    fn back_move_bits(&self) -> u32 {
        0
    }

    /// The canonical-sequence automaton: which move sequences a search need not try because a
    /// shorter or earlier-ordered one reaches the same state. The default refuses only a move
    /// right after its inverse.
    fn sequence_automaton(&self) -> SequenceAutomaton {
        SequenceAutomaton::from_last_move(self.move_count(), |last, next| {
            next != self.inverse_move(last)
        })
    }
}

/// A space whose states are numbered densely by a perfect ranking `0..state_count()`, so a
/// table indexed by rank holds one entry per position.
///
/// Many spaces pack a state as its rank (tiles, the 2x2x2): their `rank_of` and `state_at`
/// are the identity and cost nothing. Others keep a handier packed state and rank it on the
/// way into a table (a subgoal stage: its cells, ranked as a placement). Converting between a
/// puzzle's positions (boards, cubes) and states is the puzzle's own business. A ranked space
/// has no symmetry classes: the table engine counts one position per rank.
///
/// A ranking may leave some ranks unused (a definition puzzle whose moves keep a constraint
/// its coordinates do not encode, such as the skewb's): no move leads to or from them, so the
/// engines never reach them and every count stays exact; they only take table room.
pub trait RankedSpace: StateSpace {
    /// The number of ranks, and the bound on every rank: exactly the reachable positions for a
    /// perfect ranking, more where some ranks are unused.
    fn state_count(&self) -> u128;

    /// The rank of `state`, below [`state_count`](Self::state_count).
    fn rank_of(&self, state: Self::State) -> usize;

    /// The state of rank `rank` (below [`state_count`](Self::state_count)).
    fn state_at(&self, rank: usize) -> Self::State;
}
