//! The two-phase search: IDA* on phase-1 coordinates to `G1`, then for each way into `G1`
//! IDA* on phase-2 coordinates to solved, lengthening phase 1 while the total can still
//! improve, until a solution of at most the target length is found or the deadline passes.
//!
//! Phase 1 knows the exact distance to `G1` of every node, and one table read per node names
//! the moves that shorten and lengthen it, so only children that keep a way into `G1` within
//! the moves left are generated: most nodes have one or two. The search is then bound by the
//! latency of that read (the table is 511 MB), about one uncached read a node. So at each
//! length the subtrees below the six directions' roots are searched [`FIBERS`] at a time, side
//! by side, a node a turn ([`Fiber`]): a turn asks for the entries its children will read (and
//! a way into `G1` for its phase-2 bounds' entries) and hands over, so several reads are in
//! flight where one search alone waits for each. The subtrees are taken in order, so the
//! first direction's come first, as in one search. (`bench --section cube`, 1,000 random
//! cubes at 20 moves or fewer, same runs: 0.70-0.81 ms a cube before, 0.54-0.57 after, and
//! 0.40-0.43 with the tables in huge pages, where the prefetches wait on no page walks; 6,340
//! nodes a cube against 6,234.)
//!
//! Phase 1 also carries the middle edges' places and order, and the corners, so a way into
//! `G1` whose phase 2 cannot fit in the moves left is dropped with one small lookup (most of
//! them are); only the rest pay for replaying the moves to read the U/D edges. As in
//! Kociemba's solver, phase 2 is kept short, to at most [`PHASE2_MAX`] moves: a longer phase 1
//! finds the same totals faster. (On 1,000 random cubes at 20 moves or fewer: 38,000 nodes a
//! cube with at most 8 phase-2 moves, 6,200 with 10, 5,300 with 12, 5,300 with 14.)
//!
//! Both phases keep their own depth-first loops rather than the generic IDA*
//! (`godsearch_search::ida`), and follow the same canonical sequences as every search
//! ([`MoveOrder`], from the cube's sequence automaton). Phase 1 picks its children by the move
//! masks above. Phase 2 is entered about 320 times a cube and expands 0.08 nodes an entry
//! (1,000 random cubes, at most 20 moves): it is nearly all set-up, and the generic engine's
//! set-up alone (its automaton, built per call in 0.9 microseconds, and its buffers) would add
//! about 0.3 ms to a solve of about 1 ms.

use crate::coords::{self, MOVES, PHASE2_MOVES, SLICES, SLICE_PERMS};
use crate::order::MoveOrder;
use crate::tables::{Tables, AXES, PHASE1_ENTRY_BYTES, URF3_SYMMETRY};
use godsearch_core::{AutomatonState, SequenceAutomaton};
use godsearch_puzzles::cube::coord::perm_rank;
use godsearch_puzzles::cube::coord::FLIPS;
use godsearch_puzzles::cube::cubie::CORNERS;
use godsearch_puzzles::cube::notation::{apply_moves, with_slices, Metric, Move};
use godsearch_puzzles::cube::symmetry::UD_SYMMETRIES;
use godsearch_puzzles::cube::CubieCube;
use godsearch_tables::prefetch;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use thiserror::Error;

/// No two-phase solution is longer than this (phase 1 needs at most 12 moves, phase 2 18).
pub const LONGEST: usize = 30;
/// Longest phase 2 searched.
pub const PHASE2_MAX: usize = 12;
/// What a half turn costs in the quarter-turn metric.
const HALF_TURN_QUARTERS: usize = 2;
/// No two-phase solution costs more quarter turns than this: any of at most [`LONGEST`] face
/// turns costs at most twice as many.
pub const LONGEST_QTM: usize = HALF_TURN_QUARTERS * LONGEST;
const PHASE2_COUNT: usize = PHASE2_MOVES.len();
const UD_EDGE_PERMS: usize = coords::UD_EDGE_PERMS;
/// Inside G1 with fewer moves than this left, phase 1 makes no G1 moves.
const IN_G1_SKIP_BELOW: usize = 5;
/// Nodes between two looks at the clock.
const CLOCK_EVERY: u64 = 1 << 12;

/// What to search for.
#[derive(Debug, Clone, Copy)]
pub struct Options<'a> {
    /// Stop as soon as a solution of at most this many moves (HTM; with [`solve_in`], in its
    /// metric) is found.
    pub target_length: usize,
    /// Give up improving at this moment and return the best solution so far.
    pub deadline: Option<Instant>,
    /// Give up improving, as at the deadline, once this is set (a front end's cancel).
    pub stop: Option<&'a AtomicBool>,
}

/// A solution with how it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The moves, which bring the start to solved (checked by replay).
    pub moves: Vec<Move>,
    /// Moves of phase 1 (the rest are in `G1`).
    pub phase1_length: usize,
    /// Phase-1 and phase-2 nodes visited.
    pub nodes: u64,
    /// Phase-2 nodes visited.
    pub phase2_nodes: u64,
    /// Ways into `G1` that phase 2 searched from.
    pub phase2_searches: u64,
    /// `true` when the deadline passed before a solution within the target length was found;
    /// the solution is then the first one found of any length.
    pub timed_out: bool,
}

/// Why no solution was returned.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SolveError {
    /// The cube is not reachable by face turns.
    #[error(transparent)]
    Invalid(#[from] godsearch_puzzles::cube::CubieError),
    /// No solution at all: cannot happen for a valid cube (a bug, reported).
    #[error("internal error: the two-phase search found no solution")]
    NotFound,
    /// A solution failed its replay: a bug, reported rather than printed.
    #[error("internal error: a two-phase solution did not solve the cube on replay")]
    ReplayFailed,
    /// A solution given as known (to be proven optimal) does not solve the position.
    #[error("the known solution does not solve the position")]
    NotASolution,
}

/// The moves of `G1`, as a mask.
const PHASE2_MASK: u32 = {
    let mut mask = 0;
    let mut k = 0;
    while k < PHASE2_MOVES.len() {
        mask |= 1 << PHASE2_MOVES[k];
        k += 1;
    }
    mask
};

pub(crate) fn to_move(k: usize) -> Move {
    Move {
        face: (k / 3) as u8,
        turns: (k % 3 + 1) as u8,
    }
}

/// Every one of the 18 moves, as a mask.
const ALL_MOVES: u32 = (1 << MOVES) - 1;
/// The half turns (`face * 3 + 1`), as a mask.
const HALF_TURNS: u32 = {
    let mut mask = 0;
    let mut face = 0;
    while face < MOVES / 3 {
        mask |= 1 << (face * 3 + 1);
        face += 1;
    }
    mask
};

/// What move `m` costs: 1, or in the quarter-turn metric (`QTM`) 2 for a half turn.
#[inline(always)]
fn cost<const QTM: bool>(m: usize) -> usize {
    if QTM && HALF_TURNS >> m & 1 == 1 {
        HALF_TURN_QUARTERS
    } else {
        1
    }
}

/// The phase-1 coordinates carried down the tree, with the exact distance to `G1` and the
/// moves that change it (read from the table only for nodes that have children to choose).
#[derive(Clone, Copy)]
struct Phase1 {
    twist: u16,
    flip: u16,
    slice_sorted: u16,
    /// Corner cubie at each corner position, for the bound at each way into `G1`: moved by
    /// permuting eight bytes, since the 1.45 MB corner move table misses the cache.
    corners: [u8; CORNERS],
    distance: u8,
    /// Moves that bring this position one move closer to `G1`.
    closer: u32,
    /// Moves that take it one move farther.
    farther: u32,
}

impl Phase1 {
    /// The moves whose child still has a way into `G1` within `left - 1` moves.
    #[inline]
    fn moves_within(&self, left: usize) -> u32 {
        match left - self.distance as usize {
            0 => self.closer,
            1 => ALL_MOVES & !self.farther,
            _ => ALL_MOVES,
        }
    }

    /// The moves whose child still has a way into `G1` with what is left of a budget of `left`
    /// after the move's cost (`QTM`: a half turn costs 2; the distances are in face turns,
    /// so a lower bound on quarter turns).
    #[inline(always)]
    fn moves_within_budget<const QTM: bool>(&self, left: usize) -> u32 {
        if !QTM {
            return self.moves_within(left);
        }
        let quarters = self.moves_within(left) & !HALF_TURNS;
        let halves = match left.checked_sub(1) {
            Some(l) if l >= self.distance as usize => self.moves_within(l) & HALF_TURNS,
            _ => 0,
        };
        quarters | halves
    }

    /// The exact distance after move `m`.
    #[inline]
    fn distance_after(&self, m: usize) -> u8 {
        if self.closer >> m & 1 == 1 {
            self.distance - 1
        } else if self.farther >> m & 1 == 1 {
            self.distance + 1
        } else {
            self.distance
        }
    }
}

/// One of the six ways of looking at the cube.
struct Direction {
    /// The cube as this direction sees it.
    start: CubieCube,
    root: Phase1,
    axis: usize,
    inverse: bool,
}

/// A phase-1 node on a search's stack, waiting its turn.
#[derive(Clone, Copy)]
struct Pending {
    p: Phase1,
    /// Moves made to reach it.
    len: u8,
    /// Their cost.
    done: u8,
    /// The move order's state after them.
    at: AutomatonState,
    /// The last of them.
    last: u8,
    /// What its turn reads, asked for when it was made.
    read: Read,
}

/// What a node's turn will read: the fetch is asked for when the node is made, so the read
/// finds it in the cache.
#[derive(Clone, Copy)]
enum Read {
    /// Nothing: its changes are known (a direction's root).
    Nothing,
    /// Its changes, at this phase-1 entry (a node with moves left).
    Changes(Entry),
    /// Its bound on phase 2 by corners and middle edges, at this index of the small table (a
    /// way into `G1`: no moves left).
    CornerBound(usize),
    /// The phase-2 bound of the way into `G1` that passed its corner bound on its last turn,
    /// with its U/D edges. It searches phase 2 on this turn.
    Phase2 { ud_edges: u16 },
}

/// Where a position's phase-1 entry lies, and the symmetry that reads it.
#[derive(Clone, Copy)]
struct Entry {
    at: usize,
    sym: u8,
}

/// A phase-1 depth-first search of one subtree (below a child of a direction's root) at one
/// length, advanced a node a turn. The fibers take turns: a turn makes a node's children,
/// asks for the table entries they will read, and hands over, so several fibers' reads are in
/// flight together. (A random read of the 511 MB table takes about 200 ns here; a lone
/// depth-first search waits for each in turn.)
struct Fiber {
    direction: usize,
    /// The cube as this direction sees it.
    start: CubieCube,
    /// The moves to the node last taken from the stack.
    path: [usize; LONGEST_QTM],
    stack: Vec<Pending>,
}

impl Fiber {
    fn new(direction: usize, start: CubieCube) -> Self {
        Fiber {
            direction,
            start,
            path: [0; LONGEST_QTM],
            stack: Vec::with_capacity(LONGEST_QTM * MOVES),
        }
    }

    /// Starts on `subtree` (a direction, and a node of it), if there is one.
    fn take(&mut self, subtree: Option<&(usize, Pending)>, directions: &[Direction]) -> bool {
        let Some(&(direction, node)) = subtree else {
            return false;
        };
        self.direction = direction;
        self.start = directions[direction].start;
        self.stack.push(node);
        true
    }
}

/// Phase-1 subtrees searched side by side (4, 6, 8, 12 and 16 measured: 6 and 8 best).
const FIBERS: usize = 8;

struct Run<'t> {
    tables: &'t Tables,
    phase1: &'t [u8],
    phase2: &'t [u8],
    slice_goal: u16,
    move_cubes: &'t [CubieCube; MOVES],
    order: &'t MoveOrder,
    options: Options<'t>,
    /// The moves of phase 1 and then of the phase-2 search under way.
    path: [usize; LONGEST_QTM],
    /// The best solution: moves of the direction that found it, phase-1 length, direction.
    best: Option<(Vec<usize>, usize, usize)>,
    /// The best solution's length in the metric searched.
    best_length: usize,
    nodes: u64,
    phase2_nodes: u64,
    phase2_searches: u64,
    timed_out: bool,
}

/// Solves `cube` with the two-phase method.
///
/// Not optimal in general: the result has at most `options.target_length` moves if the two
/// phases find one that short, else the fewest moves they find (so a target of 0 gives the
/// shortest two-phase solution); if the deadline passes (or `stop` is set) first, `timed_out`
/// is set and the result is the first solution found, of any length.
/// Every solution is replayed on `cube` before it is returned.
pub fn solve(tables: &Tables, cube: &CubieCube, options: Options) -> Result<Solution, SolveError> {
    solve_in(tables, cube, options, Metric::Htm)
}

/// [`solve`], with lengths counted in `metric`: in the quarter-turn metric the target is in
/// quarter turns (a half turn costs 2) and the search aims at the fewest quarter turns, not
/// at the fewest face turns converted. The solution is written in face turns either way
/// (`F2`, never `F F`). In the slice-turn metric the search is the half-turn one (its tables
/// are face-turn distances), and each run of one axis's turns in the solution is then made as
/// few slice-turn moves as it can be ([`with_slices`]): at most the target, but not aimed at
/// the fewest slice turns.
pub fn solve_in(
    tables: &Tables,
    cube: &CubieCube,
    options: Options,
    metric: Metric,
) -> Result<Solution, SolveError> {
    cube.check()?;
    let longest = match metric {
        Metric::Htm | Metric::Stm => LONGEST,
        Metric::Qtm => LONGEST_QTM,
    };
    let syms = &tables.symmetries;
    let inverse = cube.inverse();
    let mut directions: Vec<Direction> = [false, true]
        .into_iter()
        .flat_map(|inv| (0..AXES).map(move |axis| (axis, inv)))
        .map(|(axis, inv)| {
            let seen = if inv { &inverse } else { cube };
            let start = syms.conjugate(seen, axis * URF3_SYMMETRY);
            Direction {
                root: phase1_root(&start),
                start,
                axis,
                inverse: inv,
            }
        })
        .collect();
    let mut run = Run::new(tables, options);
    for d in &mut directions {
        run.read_changes(&mut d.root);
        d.root.distance = run.exact_phase1_distance(d.root);
    }
    // Only solutions within the target are looked for, so no time goes into finding longer
    // ones on the way. If the two phases find none that short, the target is raised a move at
    // a time; if the deadline passes first, the first solution of any length is taken.
    let search = |run: &mut Run| match metric {
        Metric::Htm | Metric::Stm => run.search::<false>(&directions),
        Metric::Qtm => run.search::<true>(&directions),
    };
    let mut target = options.target_length.min(longest);
    loop {
        run.best_length = target + 1;
        run.options.target_length = target;
        search(&mut run);
        if run.best.is_some() || run.timed_out || target == longest {
            break;
        }
        target += 1;
    }
    let timed_out = run.timed_out;
    if run.best.is_none() {
        run.options = Options {
            target_length: longest,
            deadline: None,
            stop: None,
        };
        run.timed_out = false;
        run.best_length = longest + 1;
        search(&mut run);
    }
    let (path, phase1_length, k) = run.best.ok_or(SolveError::NotFound)?;
    let d = &directions[k];
    let back = &tables.move_back[d.axis];
    let mut moves: Vec<Move> = path.iter().map(|&m| to_move(back[m] as usize)).collect();
    if d.inverse {
        moves = godsearch_puzzles::cube::notation::invert_moves(&moves);
    }
    if metric == Metric::Stm {
        moves = with_slices(&moves);
    }
    if !apply_moves(cube, &moves).is_solved() {
        return Err(SolveError::ReplayFailed);
    }
    Ok(Solution {
        moves,
        phase1_length,
        nodes: run.nodes,
        phase2_nodes: run.phase2_nodes,
        phase2_searches: run.phase2_searches,
        timed_out,
    })
}

/// The phase-1 coordinates of `c`; its distance and changes are not known yet.
fn phase1_root(c: &CubieCube) -> Phase1 {
    Phase1 {
        twist: coords::twist(c),
        flip: coords::flip(c),
        slice_sorted: coords::slice_sorted(c),
        corners: c.cp,
        distance: 0,
        closer: 0,
        farther: 0,
    }
}

/// The exact phase-1 distance of `cube` and its moves that shorten and lengthen it, as the
/// search reads them (for tests).
#[cfg(test)]
pub(crate) fn phase1_distance(tables: &Tables, cube: &CubieCube) -> (u8, u32, u32) {
    let options = Options {
        target_length: LONGEST,
        deadline: None,
        stop: None,
    };
    let run = Run::new(tables, options);
    let mut p = phase1_root(cube);
    run.read_changes(&mut p);
    (run.exact_phase1_distance(p), p.closer, p.farther)
}

impl<'t> Run<'t> {
    fn new(tables: &'t Tables, options: Options<'t>) -> Self {
        Run {
            tables,
            phase1: tables.phase1(),
            phase2: tables.phase2(),
            slice_goal: coords::slice(&CubieCube::SOLVED),
            move_cubes: &tables.move_cubes,
            order: &tables.order,
            options,
            path: [0; LONGEST_QTM],
            best: None,
            best_length: LONGEST + 1,
            nodes: 0,
            phase2_nodes: 0,
            phase2_searches: 0,
            timed_out: false,
        }
    }

    /// Phase 1 from every direction at each length in turn, until done; lengths in quarter
    /// turns when `QTM`, else in face turns. At each length the directions' searches take
    /// turns a node at a time ([`Fiber`]).
    fn search<const QTM: bool>(&mut self, directions: &[Direction]) {
        let mut depth = directions
            .iter()
            .map(|d| d.root.distance as usize)
            .min()
            .expect("six directions");
        let mut fibers: Vec<Fiber> = (0..FIBERS)
            .map(|_| Fiber::new(0, directions[0].start))
            .collect();
        let mut subtrees = Vec::new();
        while depth < self.best_length && !self.done() {
            // Each direction's root is expanded here; its children are the subtrees the
            // fibers take, a direction's in move order, one direction after another.
            subtrees.clear();
            for (k, d) in directions.iter().enumerate() {
                if d.root.distance as usize > depth || self.done() {
                    continue;
                }
                let mut root = Fiber::new(k, d.start);
                root.stack.push(Pending {
                    p: d.root,
                    len: 0,
                    done: 0,
                    at: SequenceAutomaton::START,
                    last: 0,
                    read: Read::Nothing,
                });
                self.phase1_step::<QTM>(&mut root, depth);
                subtrees.extend(root.stack.iter().rev().map(|&node| (k, node)));
            }
            let mut next = subtrees.iter();
            let mut running = 0;
            for fiber in &mut fibers {
                fiber.stack.clear();
                if fiber.take(next.next(), directions) {
                    running += 1;
                }
            }
            while running > 0 && !self.done() {
                for fiber in fibers.iter_mut().filter(|f| !f.stack.is_empty()) {
                    self.phase1_step::<QTM>(fiber, depth);
                    if fiber.stack.is_empty() && !fiber.take(next.next(), directions) {
                        running -= 1;
                    }
                    if self.done() {
                        break;
                    }
                }
            }
            depth += 1;
        }
    }

    fn done(&self) -> bool {
        self.best_length <= self.options.target_length || self.timed_out
    }

    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes % CLOCK_EVERY == 0 {
            let past = self.options.deadline.is_some_and(|d| Instant::now() >= d);
            let stopped = self.options.stop.is_some_and(|s| s.load(Ordering::Relaxed));
            if past || stopped {
                self.timed_out = true;
            }
        }
    }

    /// Where `p`'s entry lies in the symmetry-reduced phase-1 table.
    #[inline(always)]
    fn entry_of(&self, p: &Phase1) -> Entry {
        let tb = self.tables;
        let slice = p.slice_sorted as usize / SLICE_PERMS;
        let class = tb.twist_class[p.twist as usize] as usize;
        let sym = tb.twist_to_rep[p.twist as usize] as usize;
        let at = slice * UD_SYMMETRIES + sym;
        let flip = tb.flip_conj[p.flip as usize * UD_SYMMETRIES + sym] ^ tb.slice_flip[at];
        let entry = (class * SLICES + tb.slice_conj[at] as usize) * FLIPS + flip as usize;
        Entry {
            at: entry * PHASE1_ENTRY_BYTES,
            sym: sym as u8,
        }
    }

    /// Reads from the symmetry-reduced table which moves bring `p` closer to `G1` and which
    /// take it farther.
    #[inline(always)]
    fn read_changes(&self, p: &mut Phase1) {
        self.read_changes_at(p, self.entry_of(p));
    }

    /// [`read_changes`](Self::read_changes) at `p`'s entry, already found.
    #[inline(always)]
    fn read_changes_at(&self, p: &mut Phase1, entry: Entry) {
        let at = entry.at;
        let bytes = &self.phase1[at..at + PHASE1_ENTRY_BYTES];
        let bits = u32::from(bytes[0]) | u32::from(bytes[1]) << 8 | u32::from(bytes[2]) << 16;
        let changes = self.tables.moves_changing(entry.sym as usize, bits);
        p.closer = changes as u32;
        p.farther = (changes >> 32) as u32;
    }

    /// `p` after move `m`, with its exact distance; which moves change that is not read yet.
    fn phase1_move(&self, p: &Phase1, m: usize) -> Phase1 {
        let tb = self.tables;
        Phase1 {
            twist: tb.twist_move[p.twist as usize * MOVES + m],
            flip: tb.flip_move[p.flip as usize * MOVES + m],
            slice_sorted: tb.slice_sorted_move[p.slice_sorted as usize * MOVES + m],
            corners: p.corners,
            distance: p.distance_after(m),
            closer: 0,
            farther: 0,
        }
    }

    fn in_g1(&self, p: &Phase1) -> bool {
        p.twist == 0 && p.flip == 0 && p.slice_sorted / SLICE_PERMS as u16 == self.slice_goal
    }

    /// Exact moves to `G1`, found by following moves that bring it closer (`start`'s changes
    /// read): outside `G1` there always is one.
    fn exact_phase1_distance(&self, start: Phase1) -> u8 {
        let mut p = start;
        let mut steps = 0;
        while !self.in_g1(&p) {
            assert!(
                p.closer != 0,
                "a position outside G1 has a move closer to it"
            );
            p = self.phase1_move(&p, p.closer.trailing_zeros() as usize);
            self.read_changes(&mut p);
            steps += 1;
        }
        steps
    }

    /// One turn of `fiber`'s phase-1 IDA* to a length of exactly `depth` (its cost: moves,
    /// or quarter turns when `QTM`): the node on top of its stack is visited, and its children
    /// that keep a way into `G1` within the moves left are pushed, first move on top, with
    /// their table entries asked for.
    fn phase1_step<const QTM: bool>(&mut self, fiber: &mut Fiber, depth: usize) {
        let Some(node) = fiber.stack.pop() else {
            return;
        };
        let (len, done) = (node.len as usize, node.done as usize);
        let second_turn = matches!(node.read, Read::Phase2 { .. });
        if len > 0 && !second_turn {
            self.tick();
            fiber.path[len - 1] = node.last as usize;
        }
        let mut p = node.p;
        if done == depth {
            // In G1 (the distance is 0 exactly there), by a last move that is not a G1 move
            // (those are not made, below). Phase 2 is searched on a second turn, once the
            // entries of its first bound are fetched.
            let bound = match node.read {
                Read::Phase2 { ud_edges } => {
                    self.phase2_from::<QTM>(fiber, &p, ud_edges, len, done, node.at);
                    return;
                }
                Read::CornerBound(at) => self.tables.corner_slice_perm[at],
                Read::Nothing | Read::Changes(_) => self.corner_bound(&p),
            };
            if let Some(ud_edges) = self.way_into_g1::<QTM>(fiber, &p, bound, len, done) {
                fiber.stack.push(Pending {
                    read: Read::Phase2 { ud_edges },
                    ..node
                });
            }
            return;
        }
        if let Read::Changes(entry) = node.read {
            self.read_changes_at(&mut p, entry);
        }
        let left = depth - done;
        // Already in G1 with few moves left: a move inside G1 could only lead to a way in that
        // ends with a G1 move (refused above) or leaves and re-enters, which a shorter phase 1
        // and phase 2 cover (Kociemba's solver skips them the same way).
        let skip_g1_moves = p.distance == 0 && left < IN_G1_SKIP_BELOW;
        let mut within = p.moves_within_budget::<QTM>(left) & self.order.allowed(node.at);
        if skip_g1_moves {
            within &= !PHASE2_MASK;
        }
        while within != 0 {
            let m = (u32::BITS - 1 - within.leading_zeros()) as usize;
            within &= !(1 << m);
            let child = Phase1 {
                corners: std::array::from_fn(|i| p.corners[self.move_cubes[m].cp[i] as usize]),
                ..self.phase1_move(&p, m)
            };
            let read = if left > cost::<QTM>(m) {
                let entry = self.entry_of(&child);
                prefetch(self.phase1, entry.at);
                Read::Changes(entry)
            } else if PHASE2_MASK >> m & 1 == 1 {
                // A way into G1 whose last move is inside G1 was reached one move earlier,
                // which the shorter length already covered.
                continue;
            } else {
                let at = self.corner_bound_at(&child);
                prefetch(&self.tables.corner_slice_perm, at);
                Read::CornerBound(at)
            };
            fiber.stack.push(Pending {
                p: child,
                len: node.len + 1,
                done: (done + cost::<QTM>(m)) as u8,
                at: self.order.after(node.at, m),
                last: m as u8,
                read,
            });
        }
    }

    /// The most phase-2 moves (their cost) that can still improve on the best solution after
    /// a phase 1 of cost `phase1`.
    fn phase2_room<const QTM: bool>(&self, phase1: usize) -> usize {
        let most = if QTM {
            HALF_TURN_QUARTERS * PHASE2_MAX
        } else {
            PHASE2_MAX
        };
        (self.best_length - 1 - phase1).min(most)
    }

    /// The way into `G1` that the `len` moves of cost `phase1` made, if its bound by corners
    /// and middle edges leaves room for phase 2: its U/D edges (read by replaying the moves),
    /// with the fetch of its other bounds' entries asked for.
    fn way_into_g1<const QTM: bool>(
        &mut self,
        fiber: &Fiber,
        p: &Phase1,
        corners_bound: u8,
        len: usize,
        phase1: usize,
    ) -> Option<u16> {
        if corners_bound as usize > self.phase2_room::<QTM>(phase1) {
            return None;
        }
        self.phase2_searches += 1;
        let mut c = fiber.start;
        let mut next = c;
        for &k in &fiber.path[..len] {
            c.edges_then_into(&self.move_cubes[k], &mut next);
            c = next;
        }
        let ud = coords::ud_edges(&c);
        let tb = self.tables;
        let slice_perm = p.slice_sorted as usize % SLICE_PERMS;
        prefetch(&tb.ud_slice_perm, ud as usize * SLICE_PERMS + slice_perm);
        prefetch(
            self.phase2,
            self.phase2_at(perm_rank(&p.corners) as u16, ud),
        );
        Some(ud)
    }

    /// Phase 2 from the way into `G1` that the `len` moves of cost `phase1` made, whose U/D
    /// edges are `ud`.
    fn phase2_from<const QTM: bool>(
        &mut self,
        fiber: &Fiber,
        p: &Phase1,
        ud: u16,
        len: usize,
        phase1: usize,
        at: AutomatonState,
    ) {
        let room = self.phase2_room::<QTM>(phase1);
        let slice_perm = p.slice_sorted % SLICE_PERMS as u16;
        let corners = perm_rank(&p.corners) as u16;
        self.path[..len].copy_from_slice(&fiber.path[..len]);
        let mut depth = self.phase2_bound(corners, ud, slice_perm, room) as usize;
        while depth <= room {
            let end = phase1 + depth;
            let found = self.phase2_search::<QTM>(corners, ud, slice_perm, len, phase1, end, at);
            if let Some(total) = found {
                self.best = Some((self.path[..total].to_vec(), len, fiber.direction));
                self.best_length = end;
                return;
            }
            depth += 1;
        }
    }

    /// Where `p`'s exact phase-2 moves in (corners, middle edges) lie in their table.
    #[inline]
    fn corner_bound_at(&self, p: &Phase1) -> usize {
        perm_rank(&p.corners) as usize * SLICE_PERMS + p.slice_sorted as usize % SLICE_PERMS
    }

    /// `p`'s exact phase-2 moves in (corners, middle edges): a lower bound on its phase 2.
    fn corner_bound(&self, p: &Phase1) -> u8 {
        self.tables.corner_slice_perm[self.corner_bound_at(p)]
    }

    /// A lower bound on the phase-2 moves, unless a bound small enough for the cache already
    /// exceeds `moves` (it is then returned): exact in (corners, middle edges) and (U/D edges,
    /// middle edges), and in (corners, U/D edges), which is read last since it misses the cache.
    #[inline]
    fn phase2_bound(&self, cp: u16, ud: u16, sp: u16, moves: usize) -> u8 {
        let tb = self.tables;
        let small = tb.corner_slice_perm[cp as usize * SLICE_PERMS + sp as usize]
            .max(tb.ud_slice_perm[ud as usize * SLICE_PERMS + sp as usize]);
        if small as usize > moves {
            return small;
        }
        self.phase2[self.phase2_at(cp, ud)].max(small)
    }

    /// Where the exact phase-2 moves in (corners `cp`, U/D edges `ud`) lie in the phase-2
    /// table, which is reduced by the 16 symmetries that keep the U-D axis.
    #[inline]
    fn phase2_at(&self, cp: u16, ud: u16) -> usize {
        let tb = self.tables;
        let class = tb.corner_class[cp as usize] as usize;
        let sym = tb.corner_to_rep[cp as usize] as usize;
        let edges = tb.ud_edge_conj[ud as usize * UD_SYMMETRIES + sym] as usize;
        class * UD_EDGE_PERMS + edges
    }

    /// Phase-2 IDA* to a total length of exactly `depth` (its cost); `len` moves of cost
    /// `done` are made. The number of moves of the solution when solved.
    #[allow(clippy::too_many_arguments)]
    fn phase2_search<const QTM: bool>(
        &mut self,
        cp: u16,
        ud: u16,
        sp: u16,
        len: usize,
        done: usize,
        depth: usize,
        at: AutomatonState,
    ) -> Option<usize> {
        if done == depth {
            return (cp == 0 && ud == 0 && sp == 0).then_some(len);
        }
        let allowed = self.order.allowed(at);
        for (k, &m) in PHASE2_MOVES.iter().enumerate() {
            if allowed >> m & 1 == 0 {
                continue;
            }
            let after = done + cost::<QTM>(m);
            // Face turns all cost 1, and `done < depth` here.
            if QTM && after > depth {
                continue;
            }
            let tb = self.tables;
            let (ncp, nud, nsp) = (
                tb.corner_move[cp as usize * MOVES + m],
                tb.ud_edge_move[ud as usize * PHASE2_COUNT + k],
                tb.slice_perm_move[sp as usize * PHASE2_COUNT + k],
            );
            if after + self.phase2_bound(ncp, nud, nsp, depth - after) as usize > depth {
                continue;
            }
            self.tick();
            self.phase2_nodes += 1;
            self.path[len] = m;
            let found = self.phase2_search::<QTM>(
                ncp,
                nud,
                nsp,
                len + 1,
                after,
                depth,
                self.order.after(at, m),
            );
            if found.is_some() {
                return found;
            }
        }
        None
    }
}
