//! IDA* over the 3x3x3 with the pruning table read from three axes, on every thread of the
//! current rayon pool.
//!
//! A node carries, for each axis (the cube seen through `URF3^a`), its twist, flip and slice
//! and the table's bound for that projection. The corner permutation rides along for the goal
//! test (the three axes' slices place every edge; only the corners' places escape them).
//! Children are generated in the cube's canonical order, and a child is dropped at the first
//! axis that proves it too far, so most cost one table read. A node also carries the moves
//! that may still end its solution ([`Lookup::finals`], nxopt's rule): an axis at exactly the
//! distance left rules out its U and D turns, and a node with none left is dropped.
//!
//! A child that passes the three axes and has [`INVERSE_FROM`] moves or more to go is read
//! three times more, as its inverse position ([`super::inverse`]): each of those bounds
//! bounds it too, and by the same rule an inverse axis at exactly the distance left rules out
//! its U and D turns as the child's next move ([`Node::firsts`]).
//!
//! Each bound is split at depth [`SPLIT_DEPTH`] into a few thousand subtrees that the threads
//! take in order, each thread [`FIBERS`] at a time, in rotation ([`Fiber`]), so that their
//! table reads overlap. The solution returned is the one a single search would find first (the
//! earliest subtree that has one wins; later subtrees stop, earlier ones finish), so the answer
//! does not depend on the number of threads. A position that symmetries of the cube keep is
//! searched one opening of each class under them ([`RootSymmetry`]).

use super::inverse::Pieces;
use super::table::{OptimalTables, Projection, TableIndex, LAYER_MOVES};
use crate::coords::MOVES;
use crate::search::{to_move, SolveError};
use crate::tables::AXES;
use godsearch_core::{AutomatonState, MoveIdx, SequenceAutomaton};
use godsearch_puzzles::cube::notation::{apply_moves, merge_same_face, Metric, Move};
use godsearch_puzzles::cube::symmetry::SYMMETRIES;
use godsearch_puzzles::cube::CubieCube;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Bounds are split into the subtrees below every canonical sequence of this many moves that
/// the table lets through (about 3,000 at depth 3): enough to keep any number of threads busy
/// to the end of a bound, few enough that setting them up costs nothing.
const SPLIT_DEPTH: usize = 3;
/// A thread looks at the clock and at the other threads' findings once every this many nodes.
const CHECK_EVERY: u64 = 1 << 16;
/// Children with at least this many moves to go are read as their inverse too. One move
/// from the end they are not worth it: their own children are tested against the solved cube
/// without a read.
const INVERSE_FROM: usize = 2;

/// The stages of checks for children with `left` moves to go: their three axes, and their
/// inverse's three from [`INVERSE_FROM`] moves on.
fn stages(left: usize) -> usize {
    match left >= INVERSE_FROM {
        true => 2 * AXES,
        false => AXES,
    }
}
/// No 3x3x3 position needs more than this many moves in `metric`: God's number (20 face
/// turns: Rokicki, Kociemba, Davidson and Dethridge 2010; 26 quarter turns: Rokicki and
/// Davidson 2014), and in the slice-turn metric the face turns' 20, an upper bound (the exact
/// number is not known).
pub fn gods_number(metric: Metric) -> usize {
    match metric {
        Metric::Htm | Metric::Stm => 20,
        Metric::Qtm => 26,
    }
}

/// The metric's canonical sequences (its sequence automaton) over the columns of the move
/// tables (`N` of them), tabulated for the bit loops: in the quarter-turn metric, half turns
/// are never allowed, and a half turn is written as two quarter turns.
struct Canonical<const N: usize> {
    /// `allowed[state]`: the moves canonical after the sequence that led to `state`.
    allowed: Vec<u32>,
    /// `next[state][m]`: the state after move `m`.
    next: Vec<[AutomatonState; N]>,
}

impl<const N: usize> Canonical<N> {
    fn new(metric: Metric, moves: &[u8]) -> Self {
        let automaton = metric.sequence_automaton();
        let states = automaton.state_count();
        let mut allowed = vec![0u32; states];
        let mut next = vec![[0; N]; states];
        for state in 0..states {
            for (k, &m) in moves.iter().enumerate() {
                if let Some(after) = automaton.next(state as AutomatonState, k as MoveIdx) {
                    allowed[state] |= 1 << m;
                    next[state][m as usize] = after;
                }
            }
        }
        Canonical { allowed, next }
    }

    #[inline]
    fn allowed(&self, state: AutomatonState) -> u32 {
        self.allowed[state as usize]
    }

    #[inline]
    fn after(&self, state: AutomatonState, m: usize) -> AutomatonState {
        self.next[state as usize][m]
    }
}

/// What the optimal search is asked to do.
#[derive(Debug, Clone, Copy, Default)]
pub struct OptimalOptions<'a> {
    /// Give up at this moment, with the lower bound proven so far.
    pub deadline: Option<Instant>,
    /// Find every optimal solution (canonical sequences), not only the first.
    pub all: bool,
    /// Give up, as at the deadline, once this is set (a front end's cancel switch).
    pub stop: Option<&'a AtomicBool>,
    /// A solution of the position already known (from the literature, or another search):
    /// the search never searches its length. Once every shorter bound is exhausted, it is
    /// returned (turns of one face merged), proven optimal; a shorter one found first is
    /// returned instead. With [`Self::all`] its length is searched all the same. It must solve
    /// the position ([`SolveError::NotASolution`]).
    pub known: Option<&'a [Move]>,
}

/// The result of an optimal search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptimalSolution {
    /// Optimal solutions (each replayed), in the order the search meets them: one, or all
    /// with [`OptimalOptions::all`]; empty when the deadline came first.
    pub solutions: Vec<Vec<Move>>,
    /// Every solution has at least this many moves: the optimal length when `solutions` is
    /// not empty, else the bound that was being searched when the deadline passed.
    pub lower_bound: usize,
    /// The largest of the six table bounds at the start (the search's first bound).
    pub start_estimate: usize,
    /// Children generated (each costs at least one table read).
    pub nodes: u64,
    /// Children generated under each bound searched, from the first.
    pub nodes_per_bound: Vec<u64>,
    /// The symmetries of the cube that keep the position (1: the identity alone; 48 for the
    /// superflip). With more than one, and without [`OptimalOptions::all`], the search tries
    /// one first block of moves of each class those symmetries make, and so on below it.
    pub position_symmetries: usize,
    /// `true` when the deadline passed before the search finished.
    pub timed_out: bool,
}

/// One axis's projection of a node: its coordinates (the middle edges' sorted slice,
/// whatever the table's) and the table's bound for it.
#[derive(Debug, Clone, Copy, Default)]
struct Axis {
    twist: u16,
    flip: u16,
    sorted: u16,
    /// Where the U corners are (tracked for the tables by corners only, else 0).
    occupancy: u8,
    dist: u8,
}

/// A node of the search.
#[derive(Debug, Clone, Copy, Default)]
struct Node {
    axes: [Axis; AXES],
    corners: u16,
    /// The inverse position seen from each axis (kept where its bounds are read).
    inverse: [Pieces; AXES],
    /// The table's bounds for `inverse` (where read).
    inverse_dist: [u8; AXES],
    /// The moves that may come next on a solution of the length searched (all but those
    /// the inverse's bounds rule out: [`Lookup::check_inverse`]).
    firsts: u32,
}

impl Node {
    /// The bound at the node: the largest of the six axes' bounds (three of the position,
    /// three of its inverse).
    fn estimate(&self) -> usize {
        let own = self.axes.iter().map(|a| a.dist);
        own.chain(self.inverse_dist).max().unwrap_or(0) as usize
    }
}

/// The table's lookups, with the graph view made once, for move tables of `N` columns (a
/// constant, so that the search's strides and child arrays are too).
struct Lookup<'t, const N: usize, G> {
    tables: &'t OptimalTables,
    graph: G,
    /// The occupancy's move table, for the tables by corners (else empty).
    occupancy_move: &'t [u16],
    order: Canonical<N>,
    solved_sorted: u16,
    /// Every move of the metric, as a mask (made once: the inverse's check starts from it for
    /// every child).
    all_moves: u32,
    /// `ends[a]`: the moves that turn the U or D face as axis `a` sees them. A position whose
    /// axis-`a` bound is the moves left has no solution of that length ending in one of them
    /// ([`Lookup::finals`]).
    ends: [u32; AXES],
}

impl<'t, const N: usize, G: Projection> Lookup<'t, N, G> {
    fn new(tables: &'t OptimalTables, graph: G) -> Self {
        debug_assert_eq!(tables.columns, N);
        Lookup {
            tables,
            graph,
            occupancy_move: tables
                .corners
                .as_ref()
                .map_or(&[], |c| &c.occupancy_move[..]),
            order: Canonical::new(tables.metric(), &tables.moves),
            solved_sorted: crate::coords::slice_sorted(&CubieCube::SOLVED),
            all_moves: tables.moves.iter().fold(0, |mask, &m| mask | 1 << m),
            ends: std::array::from_fn(|a| {
                (tables.moves.iter())
                    .filter(|&&m| {
                        let seen = to_move(tables.axis_move[a][m as usize] as usize);
                        !seen.is_slice() && seen.axis() == 0
                    })
                    .fold(0, |mask, &m| mask | 1 << m)
            }),
        }
    }

    /// Every move of the metric, as a mask: the moves that may end a solution before anything
    /// is known.
    fn all_moves(&self) -> u32 {
        self.all_moves
    }

    /// The moves that may still end a solution of exactly `left` more moves through `node`,
    /// given `inherited`, those that may end one through its parent (nxopt's rule, applied
    /// along the path). Every table's coordinate is the same for the solved cube and for a
    /// turn of U or D (corner twist and the U corners' places, the middle edges, the flips),
    /// so if a solution of `left` moves ended in such a turn, its first `left - 1` moves would
    /// take the node's projection to the goal, and the table distance would be below `left`.
    /// An axis whose bound is `left` (a lower bound: its distance is at least that) thus
    /// rules out its U and D turns as the last move, and a node where nothing is left to end
    /// on has no solution of that length: when the three axes agree on the bound, the bound
    /// is one more (all face turns ruled out; the slice-turn metric's middle layers never
    /// are).
    #[inline]
    fn finals(&self, inherited: u32, node: &Node, left: usize) -> u32 {
        (node.axes.iter().enumerate()).fold(inherited, |finals, (a, axis)| {
            self.narrow(finals, a, axis.dist, left)
        })
    }

    /// [`finals`](Self::finals) for one axis: `finals` less the turns axis `a` rules out at
    /// distance `dist` with `left` moves to go (none when no move is left: the node is then
    /// the solution's end).
    #[inline]
    fn narrow(&self, finals: u32, a: usize, dist: u8, left: usize) -> u32 {
        match left > 0 && dist as usize == left {
            true => finals & !self.ends[a],
            false => finals,
        }
    }

    /// The coordinates after move `m` (of the axis's own frame).
    #[inline]
    fn turn(&self, a: Axis, m: usize) -> Axis {
        let t = self.tables;
        Axis {
            twist: t.twist_move[a.twist as usize * N + m],
            flip: t.flip_move[a.flip as usize * N + m],
            sorted: t.slice_sorted_move[a.sorted as usize * N + m],
            occupancy: match G::BY_CORNERS {
                true => self.occupancy_move[a.occupancy as usize * N + m] as u8,
                false => 0,
            },
            dist: a.dist,
        }
    }

    /// The table entry of an axis's projection.
    #[inline]
    fn entry(&self, a: &Axis) -> usize {
        let slice = self.tables.table_slice(a.sorted as usize);
        self.graph.entry(
            a.twist as usize,
            a.occupancy as usize,
            a.flip as usize,
            slice,
        )
    }

    /// Whether the axis's coordinates are solved.
    fn is_goal(&self, a: &Axis) -> bool {
        a.twist == 0 && a.flip == 0 && a.sorted == self.solved_sorted
    }

    /// Whether the node is the solved cube: every edge placed (the three axes' sorted slices),
    /// oriented (twist and flip), and the corners placed.
    fn is_solved(&self, node: &Node) -> bool {
        node.corners == 0 && node.axes.iter().all(|a| self.is_goal(a))
    }

    /// Whether move `m` solves the cube at `node`.
    #[inline]
    fn solved_by(&self, node: &Node, m: usize) -> bool {
        let t = self.tables;
        t.corner_move[node.corners as usize * N + m] == 0
            && (0..AXES).all(|a| self.is_goal(&self.turn(node.axes[a], t.axis_move[a][m] as usize)))
    }

    /// The start node of `cube`, its bounds read on all six axes.
    fn root(&self, cube: &CubieCube) -> Node {
        let t = self.tables;
        let mut node = Node {
            corners: crate::coords::corner_perm(cube),
            firsts: self.all_moves(),
            ..Node::default()
        };
        let inverse = cube.inverse();
        for a in 0..AXES {
            let symmetry = a * crate::tables::URF3_SYMMETRY;
            let seen = t.symmetries.conjugate(cube, symmetry);
            let mut axis = Axis {
                twist: crate::coords::twist(&seen),
                flip: crate::coords::flip(&seen),
                sorted: crate::coords::slice_sorted(&seen),
                occupancy: match G::BY_CORNERS {
                    true => crate::cornerslice::corner_occupancy(&seen) as u8,
                    false => 0,
                },
                dist: 0,
            };
            axis.dist = t.bound(self.entry(&axis));
            node.axes[a] = axis;
            node.inverse[a] = Pieces::of(&t.symmetries.conjugate(&inverse, symmetry));
            node.inverse_dist[a] = t.bound(self.inverse_entry(&node.inverse[a]));
        }
        node
    }

    /// The table entry of an axis's view of the inverse.
    #[inline]
    fn inverse_entry(&self, pieces: &Pieces) -> usize {
        let c = self.tables.left_moves.coordinates(pieces);
        let slice = self.tables.table_slice(c.sorted as usize);
        (self.graph).entry(
            c.twist as usize,
            c.occupancy as usize,
            c.flip as usize,
            slice,
        )
    }

    /// The moves that may come next on a solution of exactly `left` more moves through
    /// `node`, by the rule of [`finals`](Self::finals) read on the inverse: its solutions are
    /// the node's reversed and inverted, so their last move is the inverse of the node's next.
    /// (The moves an axis rules out are closed under inverses.)
    fn firsts(&self, node: &Node, left: usize) -> u32 {
        (node.inverse_dist.iter().enumerate()).fold(self.all_moves(), |firsts, (a, &dist)| {
            self.narrow(firsts, a, dist, left)
        })
    }

    /// The children of `node` by the moves in `moves` that can still reach the goal in `left`
    /// moves, written to `out[m]`; returns their moves as a mask.
    ///
    /// One axis at a time for all the moves still in play: the table entries are found first
    /// and read together, so the reads (each most likely a cache miss) overlap instead of
    /// waiting on one another.
    #[inline]
    fn children(
        &self,
        (node, finals_in): (&Node, u32),
        moves: u32,
        left: usize,
        out: &mut [Node; N],
        finals: &mut [u32; N],
    ) -> u32 {
        let mut live = moves;
        let mut entries = [0usize; N];
        for stage in 0..stages(left) {
            self.fetch_stage(node, stage, live, out, &mut entries);
            live = self.check_stage(finals_in, stage, live, left, (out, finals), &entries);
            if live == 0 {
                return 0;
            }
        }
        self.place_corners(node, live, out);
        live
    }

    /// Writes stage `stage` of `node`'s children by the moves in `live` (an axis of theirs,
    /// or from [`AXES`] on one of their inverse's), and asks for its entries.
    #[inline]
    fn fetch_stage(
        &self,
        node: &Node,
        stage: usize,
        live: u32,
        out: &mut [Node; N],
        entries: &mut [usize; N],
    ) {
        match stage < AXES {
            true => self.fetch_axis(node, stage, live, out, entries),
            false => self.fetch_inverse(node, stage - AXES, live, out, entries),
        }
    }

    /// Reads the entries of stage `stage` and returns the moves in `live` whose child it
    /// lets through ([`check_axis`](Self::check_axis), [`check_inverse`](Self::check_inverse)).
    #[inline]
    fn check_stage(
        &self,
        finals_in: u32,
        stage: usize,
        live: u32,
        left: usize,
        (out, finals): (&mut [Node; N], &mut [u32; N]),
        entries: &[usize; N],
    ) -> u32 {
        match stage < AXES {
            true => self.check_axis(finals_in, stage, live, left, (out, finals), entries),
            false => self.check_inverse(stage - AXES, live, left, out, entries),
        }
    }

    /// Writes axis `a` of `node`'s children by the moves in `live` to `out[m]`, and where
    /// their table entries are to `entries[m]`, whose fetch it asks for.
    #[inline]
    fn fetch_axis(
        &self,
        node: &Node,
        a: usize,
        live: u32,
        out: &mut [Node; N],
        entries: &mut [usize; N],
    ) {
        let mut bits = live;
        while bits != 0 {
            let m = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let (axis, entry) = self.child_axis(node, a, m);
            self.tables.prefetch(entry);
            entries[m] = entry;
            out[m].axes[a] = axis;
            if a == 0 {
                out[m].firsts = u32::MAX;
            }
        }
    }

    /// Writes the inverse of `node`'s children by the moves in `live`, seen from axis `a`, to
    /// `out[m]`, and where their table entries are to `entries[m]`, whose fetch it asks for.
    #[inline]
    fn fetch_inverse(
        &self,
        node: &Node,
        a: usize,
        live: u32,
        out: &mut [Node; N],
        entries: &mut [usize; N],
    ) {
        let t = self.tables;
        let mut bits = live;
        while bits != 0 {
            let m = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let pieces = t
                .left_moves
                .after(&node.inverse[a], t.axis_move[a][m] as usize);
            let entry = self.inverse_entry(&pieces);
            t.prefetch(entry);
            entries[m] = entry;
            out[m].inverse[a] = pieces;
        }
    }

    /// Reads the entries [`fetch_inverse`](Self::fetch_inverse) found for axis `a`, writes the
    /// children's inverse bounds and the moves that may come next from them
    /// ([`Node::firsts`]), and returns the moves in `live` whose child is still within `left`
    /// moves of the goal with a move left to take.
    #[inline]
    fn check_inverse(
        &self,
        a: usize,
        mut live: u32,
        left: usize,
        out: &mut [Node; N],
        entries: &[usize; N],
    ) -> u32 {
        let mut bits = live;
        while bits != 0 {
            let m = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let child = &mut out[m];
            let dist = self.tables.bound(entries[m]);
            child.inverse_dist[a] = dist;
            let firsts = if a == 0 {
                self.all_moves()
            } else {
                child.firsts
            };
            child.firsts = self.narrow(firsts, a, dist, left);
            if dist as usize > left || child.firsts == 0 {
                live &= !(1 << m);
            }
        }
        live
    }

    /// Axis `a` of `node`'s child by move `m`, and where its table entry lies.
    #[inline]
    fn child_axis(&self, node: &Node, a: usize, m: usize) -> (Axis, usize) {
        let t = self.tables;
        let axis = self.turn(node.axes[a], t.axis_move[a][m] as usize);
        let entry = self.entry(&axis);
        (axis, entry)
    }

    /// Reads the entries [`fetch_axis`](Self::fetch_axis) found for axis `a`, writes the
    /// children's distances and the moves that may still end their solutions (`finals[m]`,
    /// from `finals_in`, the node's, on the first axis; [`Lookup::narrow`]), and returns the
    /// moves in `live` whose child is still within `left` moves of the goal with a move left
    /// to end on: a child the first axes rule out this way is not read on the later ones.
    #[inline]
    fn check_axis(
        &self,
        finals_in: u32,
        a: usize,
        mut live: u32,
        left: usize,
        (out, finals): (&mut [Node; N], &mut [u32; N]),
        entries: &[usize; N],
    ) -> u32 {
        let t = self.tables;
        let mut bits = live;
        while bits != 0 {
            let m = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let dist = t.bound(entries[m]);
            let inherited = if a == 0 { finals_in } else { finals[m] };
            finals[m] = self.narrow(inherited, a, dist, left);
            if dist as usize > left || finals[m] == 0 {
                live &= !(1 << m);
            }
            out[m].axes[a].dist = dist;
        }
        live
    }

    /// Writes the corners of `node`'s children by the moves in `live`.
    #[inline]
    fn place_corners(&self, node: &Node, live: u32, out: &mut [Node; N]) {
        let mut bits = live;
        while bits != 0 {
            let m = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out[m].corners = self.tables.corner_move[node.corners as usize * N + m];
        }
    }

    /// Asks for the table entries of the first axis of `node`'s children by `moves`: what its
    /// expansion reads first.
    #[inline]
    fn prefetch_first_axis(&self, node: &Node, moves: u32) {
        let mut bits = moves;
        while bits != 0 {
            let m = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            self.tables.prefetch(self.child_axis(node, 0, m).1);
        }
    }
}

/// The symmetries that keep a position, used to search one of each class of first moves.
///
/// If a symmetry `S` keeps the position `P` (`S^-1 P S = P`), it maps every solution of `P`
/// move by move to a solution of `P` of the same length. A canonical solution opens with a
/// block of moves on one axis, then turns another axis; the block's image opens the image
/// solution, and reordering the image into canonical form only swaps neighbouring moves of
/// one axis, so it never moves a turn across the block's end. So every bound holds a solution
/// whose first block is the least (as a cube) of its class under the symmetries that keep
/// `P`, and the subtrees whose first block is not may be skipped. The same holds again below
/// that block for the symmetries that keep it too (they keep `P` followed by it), and so on
/// down the path while any are left. Searching for every solution (`--all`) skips none.
pub(crate) struct RootSymmetry {
    /// Symmetries other than the identity that keep the position.
    keeping: Vec<usize>,
}

impl RootSymmetry {
    /// The symmetries of the cube among `tables`'s 48 that keep `cube`.
    pub(crate) fn of(tables: &OptimalTables, cube: &CubieCube) -> Self {
        let keeping = (1..SYMMETRIES)
            .filter(|&s| tables.symmetries.conjugate(cube, s) == *cube)
            .collect();
        RootSymmetry { keeping }
    }

    /// Symmetries that keep the position, the identity with them.
    pub(crate) fn order(&self) -> usize {
        self.keeping.len() + 1
    }

    /// Whether the subtree below `path` (columns of the move tables) must be searched: each
    /// block of moves on one axis is the least of its class under the symmetries that keep
    /// the position and the blocks before it, up to the last block, which the path may end
    /// inside.
    pub(crate) fn keeps(&self, tables: &OptimalTables, path: &[u8]) -> bool {
        let mut keeping = self.keeping.clone();
        let mut rest = path;
        while let Some(&first) = rest.first() {
            let axis = to_move(first as usize).axis();
            let block = rest
                .iter()
                .take_while(|&&m| to_move(m as usize).axis() == axis)
                .count();
            if keeping.is_empty() || block == rest.len() {
                return true;
            }
            let moves: Vec<Move> = rest[..block].iter().map(|&m| to_move(m as usize)).collect();
            let opening = apply_moves(&CubieCube::SOLVED, &moves);
            let mut still = Vec::new();
            for &s in &keeping {
                let image = tables.symmetries.conjugate(&opening, s);
                if image < opening {
                    return false;
                }
                if image == opening {
                    still.push(s);
                }
            }
            keeping = still;
            rest = &rest[block..];
        }
        true
    }
}

/// A subtree to search: the moves that lead to it and where they leave the search.
struct Subtree {
    path: Vec<u8>,
    node: Node,
    state: AutomatonState,
    /// The moves that may end a solution through it ([`Lookup::finals`]).
    finals: u32,
}

/// What the threads share while a bound is searched.
struct Shared {
    /// Index of the earliest subtree with a solution (`usize::MAX` while none).
    first_found: AtomicUsize,
    timed_out: AtomicBool,
    nodes: AtomicU64,
    found: Mutex<Vec<(usize, Vec<u8>)>>,
}

/// Subtrees a thread searches side by side ([`Fiber`]; 1, 4, 8 and 16 measured, 4 best).
const FIBERS: usize = 4;

/// A node on a fiber's stack, waiting its turn.
#[derive(Clone, Copy, Default)]
struct Pending {
    node: Node,
    /// Moves left to reach the goal.
    left: u8,
    /// The move order's state after the moves to it.
    state: AutomatonState,
    /// The moves to it: their number, and the last.
    len: u8,
    last: u8,
    /// The moves that may end a solution through it ([`Lookup::finals`]).
    finals: u32,
}

/// A node whose children are being checked, a stage a turn: their three axes, then (if they
/// are far enough from the end) their inverses'.
struct Expansion<const N: usize> {
    parent: Pending,
    /// The stage whose entries were asked for on the last turn ([`Lookup::fetch_stage`]).
    stage: usize,
    /// The moves whose children are still within reach of the goal.
    live: u32,
    children: [Node; N],
    entries: [usize; N],
    /// The moves that may end a solution through each child ([`Lookup::finals`]).
    finals: [u32; N],
}

/// One subtree's depth-first search, advanced a turn at a time. A thread runs [`FIBERS`] of
/// them in rotation: each turn reads the table entries asked for on its previous turn (or
/// when its node was pushed), asks for the next ones and hands over, so a thread has several
/// subtrees' reads in flight where a lone depth-first search waits for each (a random read of
/// the table takes about 230 ns here even in huge pages).
///
/// Measured on one random cube with the 1 GB table on 2 threads: 33.0 s before (a recursive
/// search over subtrees that rayon split out of order), 22.3-23.0 s with one fiber a thread,
/// 19.5-22.0 s with four, 21.1-23.2 s with eight. Most of the gain is in taking the subtrees
/// in order (the last bound ends sooner: 686 M nodes against 821 M) and in asking for a
/// node's first-axis entries when it is pushed; more fibers add little, so the reads are not
/// the only limit (the small move and symmetry tables miss the first-level caches too).
struct Fiber<const N: usize> {
    /// The subtree's place in the bound's order.
    index: usize,
    path: Vec<u8>,
    stack: Vec<Pending>,
    /// The node being expanded, while `expanding`: kept in place from node to node (it is
    /// a few kilobytes, which moving in and out showed in profiles).
    expansion: Box<Expansion<N>>,
    expanding: bool,
}

impl<const N: usize> Fiber<N> {
    fn new() -> Self {
        Fiber {
            index: 0,
            path: Vec::new(),
            stack: Vec::new(),
            expansion: Box::new(Expansion {
                parent: Pending::default(),
                stage: 0,
                live: 0,
                children: [Node::default(); N],
                entries: [0; N],
                finals: [0; N],
            }),
            expanding: false,
        }
    }

    fn idle(&self) -> bool {
        self.stack.is_empty() && !self.expanding
    }

    fn drop_subtree(&mut self) {
        self.stack.clear();
        self.expanding = false;
    }
}

/// One thread's share of a bound: subtrees taken in order, [`FIBERS`] at a time.
struct Worker<'a, 't, const N: usize, G> {
    lookup: &'a Lookup<'t, N, G>,
    shared: &'a Shared,
    options: OptimalOptions<'a>,
    trees: &'a [Subtree],
    /// The next subtree to take, shared by the threads.
    next_tree: &'a AtomicUsize,
    /// Moves left at the subtrees' roots.
    left: usize,
    nodes: u64,
    next_check: u64,
}

impl<const N: usize, G: Projection> Worker<'_, '_, N, G> {
    /// Searches subtrees until none is left or the search stops.
    fn run(&mut self) {
        let mut fibers: Vec<Fiber<N>> = (0..FIBERS).map(|_| Fiber::new()).collect();
        loop {
            let mut busy = false;
            for fiber in &mut fibers {
                if fiber.idle() && !self.take(fiber) {
                    continue;
                }
                busy = true;
                self.turn(fiber);
            }
            if !busy {
                return;
            }
            if self.nodes >= self.next_check && self.check() {
                let first = self.shared.first_found.load(Ordering::Relaxed);
                let timed_out = self.shared.timed_out.load(Ordering::Relaxed);
                for fiber in &mut fibers {
                    if timed_out || first < fiber.index {
                        fiber.drop_subtree();
                    }
                }
            }
        }
    }

    /// Gives `fiber` the next subtree, unless none is left or the search has stopped.
    fn take(&mut self, fiber: &mut Fiber<N>) -> bool {
        let index = self.next_tree.fetch_add(1, Ordering::Relaxed);
        let Some(tree) = self.trees.get(index) else {
            return false;
        };
        if self.shared.timed_out.load(Ordering::Relaxed)
            || self.shared.first_found.load(Ordering::Relaxed) < index
        {
            return false;
        }
        fiber.index = index;
        fiber.path.clone_from(&tree.path);
        let len = tree.path.len();
        fiber.stack.push(Pending {
            node: tree.node,
            left: self.left as u8,
            state: tree.state,
            len: len as u8,
            last: tree.path.last().copied().unwrap_or(0),
            finals: tree.finals,
        });
        true
    }

    /// One turn of `fiber`: a step of the node being expanded, or the next node taken.
    fn turn(&mut self, fiber: &mut Fiber<N>) {
        let lookup = self.lookup;
        if fiber.expanding {
            let e = &mut *fiber.expansion;
            let left = e.parent.left as usize - 1;
            e.live = lookup.check_stage(
                e.parent.finals,
                e.stage,
                e.live,
                left,
                (&mut e.children, &mut e.finals),
                &e.entries,
            );
            if e.live != 0 && e.stage + 1 < stages(left) {
                e.stage += 1;
                let (node, children) = (&e.parent.node, &mut e.children);
                lookup.fetch_stage(node, e.stage, e.live, children, &mut e.entries);
                return;
            }
            fiber.expanding = false;
            self.push_children(&mut fiber.expansion, &mut fiber.stack);
            return;
        }
        let Some(p) = fiber.stack.pop() else {
            return;
        };
        let len = p.len as usize;
        if len > 0 {
            fiber.path.truncate(len - 1);
            fiber.path.push(p.last);
        }
        let left = p.left as usize;
        if left == 0 {
            if lookup.is_solved(&p.node) {
                self.found(fiber);
            }
            return;
        }
        let allowed = lookup.order.allowed(p.state) & p.node.firsts;
        self.nodes += u64::from(allowed.count_ones());
        if left == 1 {
            // The last move: most nodes are here, and a child ends a solution only when it is
            // solved, which its coordinates say without a read of the table.
            let mut bits = allowed & p.finals;
            while bits != 0 {
                let m = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if lookup.solved_by(&p.node, m) {
                    fiber.path.push(m as u8);
                    let stop = self.found(fiber);
                    fiber.path.pop();
                    if stop {
                        return;
                    }
                }
            }
            return;
        }
        // The first axis's entries were asked for when the node was pushed.
        let e = &mut *fiber.expansion;
        e.parent = p;
        e.stage = 0;
        lookup.fetch_axis(&p.node, 0, allowed, &mut e.children, &mut e.entries);
        e.live = lookup.check_axis(
            p.finals,
            0,
            allowed,
            left - 1,
            (&mut e.children, &mut e.finals),
            &e.entries,
        );
        if e.live == 0 {
            return;
        }
        e.stage = 1;
        lookup.fetch_axis(&p.node, 1, e.live, &mut e.children, &mut e.entries);
        fiber.expanding = true;
    }

    /// Pushes the children that passed every axis, the first move on top, and asks for the
    /// entries their own expansion reads first.
    fn push_children(&self, e: &mut Expansion<N>, stack: &mut Vec<Pending>) {
        let lookup = self.lookup;
        let children = &mut e.children;
        lookup.place_corners(&e.parent.node, e.live, children);
        let left = e.parent.left - 1;
        let mut bits = e.live;
        while bits != 0 {
            let m = (u32::BITS - 1 - bits.leading_zeros()) as usize;
            bits &= !(1 << m);
            let finals = e.finals[m];
            let state = lookup.order.after(e.parent.state, m);
            if left >= 2 {
                let moves = lookup.order.allowed(state) & children[m].firsts;
                lookup.prefetch_first_axis(&children[m], moves);
            }
            stack.push(Pending {
                node: children[m],
                left,
                state,
                len: e.parent.len + 1,
                last: m as u8,
                finals,
            });
        }
    }

    /// Records the fiber's path as a solution; whether its subtree is done (when one
    /// solution is enough).
    fn found(&mut self, fiber: &mut Fiber<N>) -> bool {
        self.shared
            .found
            .lock()
            .expect("no thread panics holding it")
            .push((fiber.index, fiber.path.clone()));
        if self.options.all {
            return false;
        }
        self.shared
            .first_found
            .fetch_min(fiber.index, Ordering::Relaxed);
        fiber.drop_subtree();
        true
    }

    /// Whether the search may have to stop: the deadline passed (or the stop switch), or a
    /// subtree has a solution; the caller drops the fibers whose subtrees come after it.
    #[cold]
    fn check(&mut self) -> bool {
        self.next_check = self.nodes + CHECK_EVERY;
        let stopped = self.options.stop.is_some_and(|s| s.load(Ordering::Relaxed));
        if stopped || self.options.deadline.is_some_and(|d| Instant::now() >= d) {
            self.shared.timed_out.store(true, Ordering::Relaxed);
        }
        self.shared.timed_out.load(Ordering::Relaxed)
            || self.shared.first_found.load(Ordering::Relaxed) != usize::MAX
    }
}

/// The subtrees of a bound: every canonical sequence of `depth` moves whose node the table
/// lets through, in the search's order.
fn subtrees<const N: usize, G: Projection>(
    lookup: &Lookup<N, G>,
    root: &Node,
    bound: usize,
    depth: usize,
    symmetry: &RootSymmetry,
) -> (Vec<Subtree>, u64) {
    let mut out = vec![Subtree {
        path: Vec::new(),
        node: Node {
            firsts: lookup.firsts(root, bound),
            ..*root
        },
        state: SequenceAutomaton::START,
        finals: lookup.finals(lookup.all_moves(), root, bound),
    }];
    out.retain(|tree| tree.finals != 0 && tree.node.firsts != 0);
    let mut nodes = 0;
    for level in 0..depth {
        let mut next = Vec::new();
        for tree in &out {
            let allowed = lookup.order.allowed(tree.state) & tree.node.firsts;
            nodes += u64::from(allowed.count_ones());
            let mut children = [Node::default(); N];
            let mut finals = [0; N];
            let mut live = lookup.children(
                (&tree.node, tree.finals),
                allowed,
                bound - level - 1,
                &mut children,
                &mut finals,
            );
            while live != 0 {
                let m = live.trailing_zeros() as usize;
                live &= live - 1;
                // A child with no move left is a solution's end: the move to it is the last.
                let finals = match bound - level - 1 {
                    0 => tree.finals & 1 << m,
                    _ => finals[m],
                };
                if finals == 0 {
                    continue;
                }
                let mut path = tree.path.clone();
                path.push(m as u8);
                next.push(Subtree {
                    path,
                    node: children[m],
                    state: lookup.order.after(tree.state, m),
                    finals,
                });
            }
        }
        out = next;
    }
    out.retain(|tree| symmetry.keeps(lookup.tables, &tree.path));
    (out, nodes)
}

/// A shortest solution of `cube` (or all of them), proven: IDA* under bounds rising from the
/// table's estimate, each searched whole before the next. Uses every thread of the current
/// rayon pool. Each solution is replayed before it is returned.
pub fn solve_optimal(
    tables: &OptimalTables,
    cube: &CubieCube,
    options: OptimalOptions<'_>,
) -> Result<OptimalSolution, SolveError> {
    cube.check()?;
    match tables.columns {
        MOVES => solve_in_columns::<MOVES>(tables, cube, options),
        _ => solve_in_columns::<LAYER_MOVES>(tables, cube, options),
    }
}

/// [`solve_optimal`] with move tables of `N` columns, the search made for the table's
/// coordinate.
fn solve_in_columns<const N: usize>(
    tables: &OptimalTables,
    cube: &CubieCube,
    options: OptimalOptions<'_>,
) -> Result<OptimalSolution, SolveError> {
    match tables.index() {
        TableIndex::FlipSlice(graph) => {
            solve_with(&Lookup::<N, _>::new(tables, graph), cube, options)
        }
        TableIndex::CornerSlice(graph) => {
            solve_with(&Lookup::<N, _>::new(tables, graph), cube, options)
        }
    }
}

fn solve_with<const N: usize, G: Projection>(
    lookup: &Lookup<N, G>,
    cube: &CubieCube,
    options: OptimalOptions<'_>,
) -> Result<OptimalSolution, SolveError> {
    let tables = lookup.tables;
    let known = match options.known {
        Some(moves) if !apply_moves(cube, moves).is_solved() => {
            return Err(SolveError::NotASolution)
        }
        Some(moves) => Some(merge_same_face(moves)),
        None => None,
    };
    let root = lookup.root(cube);
    let keeping = RootSymmetry::of(tables, cube);
    let position_symmetries = keeping.order();
    let symmetry = match options.all {
        false => keeping,
        true => RootSymmetry {
            keeping: Vec::new(),
        },
    };
    let mut result = OptimalSolution {
        solutions: Vec::new(),
        lower_bound: root.estimate(),
        start_estimate: root.estimate(),
        nodes: 0,
        nodes_per_bound: Vec::new(),
        position_symmetries,
        timed_out: false,
    };
    if cube.is_solved() {
        result.solutions.push(Vec::new());
        return Ok(result);
    }
    // In the quarter-turn metric every move is an odd permutation of the corners, so the
    // length of every solution has the parity of the corners' permutation.
    let (first, step) = match tables.metric() {
        Metric::Htm | Metric::Stm => (root.estimate().max(1), 1),
        Metric::Qtm => {
            let parity = usize::from(cube.corner_parity_odd());
            let at_least = root.estimate().max(1);
            (at_least + (at_least + parity) % 2, 2)
        }
    };
    for bound in (first..=gods_number(tables.metric())).step_by(step) {
        result.lower_bound = bound;
        // Every bound below the known solution's length is exhausted: it is optimal.
        if let Some(moves) = known.as_ref() {
            if !options.all && tables.metric().length(moves) <= bound {
                result.solutions.push(moves.clone());
                return Ok(result);
            }
        }
        let depth = SPLIT_DEPTH.min(bound);
        let (trees, prefix_nodes) = subtrees(lookup, &root, bound, depth, &symmetry);
        let shared = Shared {
            first_found: AtomicUsize::new(usize::MAX),
            timed_out: AtomicBool::new(false),
            nodes: AtomicU64::new(prefix_nodes),
            found: Mutex::new(Vec::new()),
        };
        let next_tree = AtomicUsize::new(0);
        rayon::broadcast(|_| {
            let mut worker = Worker {
                lookup,
                shared: &shared,
                options,
                trees: &trees,
                next_tree: &next_tree,
                left: bound - depth,
                nodes: 0,
                next_check: CHECK_EVERY,
            };
            worker.run();
            shared.nodes.fetch_add(worker.nodes, Ordering::Relaxed);
        });
        let bound_nodes = shared.nodes.load(Ordering::Relaxed);
        result.nodes += bound_nodes;
        result.nodes_per_bound.push(bound_nodes);
        let mut found = shared.found.into_inner().expect("no thread panicked");
        found.sort_by_key(|(index, _)| *index);
        if !options.all {
            found.truncate(1);
        }
        for (_, path) in found {
            let moves: Vec<Move> = path.iter().map(|&m| to_move(m as usize)).collect();
            if !apply_moves(cube, &moves).is_solved() {
                return Err(SolveError::ReplayFailed);
            }
            result.solutions.push(moves);
        }
        if !result.solutions.is_empty() {
            return Ok(result);
        }
        if shared.timed_out.load(Ordering::Relaxed) {
            result.timed_out = true;
            return Ok(result);
        }
    }
    Err(SolveError::NotFound)
}

/// The table's lower bound for `cube`: the largest of the six bounds it reads (three axes of
/// the position, three of its inverse), or one more where the rule of the last move leaves no
/// solution of that length ([`TableBounds::with_inverse`]). Admissible: each is the distance
/// of a projection of the cube or of its inverse, which is as far from solved.
pub fn lower_bound(tables: &OptimalTables, cube: &CubieCube) -> Result<usize, SolveError> {
    Ok(table_bounds(tables, cube)?.with_inverse)
}

/// What the table proves of a position's distance, lookup by lookup: each figure is a lower
/// bound on its optimal length (admissible), the later ones at least as large as the earlier.
/// A bound read is the projection's exact distance when that is one or two above the table's
/// base ([`OptimalTables::base`]), and less otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableBounds {
    /// The table's bound for each axis's projection of the position, U/D axis first (the one
    /// lookup a solver without symmetry makes).
    pub axes: [usize; AXES],
    /// The same for the inverse position's three axes.
    pub inverse_axes: [usize; AXES],
    /// The largest of the position's three.
    pub largest: usize,
    /// `largest`, or one more where the position's three axes rule out every move as the last
    /// of a solution of that length (nxopt's rule of the last move).
    pub with_last_move: usize,
    /// The largest of all six, or one more where the rule, read on the position or on its
    /// inverse (whose last move is the position's first), leaves no move to end or to start a
    /// solution of that length: what the search proves before its first node ([`lower_bound`]).
    pub with_inverse: usize,
}

/// The table's bounds for `cube`, lookup by lookup ([`TableBounds`]).
pub fn table_bounds(tables: &OptimalTables, cube: &CubieCube) -> Result<TableBounds, SolveError> {
    cube.check()?;
    Ok(root_bounds(tables, cube, 0).0)
}

/// The moves (as a mask of move-table columns) that may end a solution of `cube` of exactly
/// `left` moves, by the rule of [`Lookup::finals`]; 0 when the table proves there is none.
#[cfg(test)]
pub(crate) fn final_moves(tables: &OptimalTables, cube: &CubieCube, left: usize) -> u32 {
    root_bounds(tables, cube, left).1
}

/// The table's bounds for `cube` and the moves that may end a solution of `left` moves.
fn root_bounds(tables: &OptimalTables, cube: &CubieCube, left: usize) -> (TableBounds, u32) {
    fn of<const N: usize, G: Projection>(
        lookup: Lookup<N, G>,
        cube: &CubieCube,
        left: usize,
    ) -> (TableBounds, u32) {
        let root = lookup.root(cube);
        let all = lookup.all_moves();
        let axes = root.axes.map(|a| a.dist as usize);
        let largest = axes.iter().copied().max().unwrap_or(0);
        let six = root.estimate();
        let no_last = |bound: usize| bound > 0 && lookup.finals(all, &root, bound) == 0;
        let no_first = |bound: usize| bound > 0 && lookup.firsts(&root, bound) == 0;
        let bounds = TableBounds {
            axes,
            inverse_axes: root.inverse_dist.map(usize::from),
            largest,
            with_last_move: largest + usize::from(no_last(largest)),
            with_inverse: six + usize::from(no_last(six) || no_first(six)),
        };
        (bounds, lookup.finals(all, &root, left))
    }
    match (tables.columns, tables.index()) {
        (MOVES, TableIndex::FlipSlice(g)) => of(Lookup::<MOVES, _>::new(tables, g), cube, left),
        (MOVES, TableIndex::CornerSlice(g)) => of(Lookup::<MOVES, _>::new(tables, g), cube, left),
        (_, TableIndex::FlipSlice(g)) => of(Lookup::<LAYER_MOVES, _>::new(tables, g), cube, left),
        (_, TableIndex::CornerSlice(g)) => of(Lookup::<LAYER_MOVES, _>::new(tables, g), cube, left),
    }
}
