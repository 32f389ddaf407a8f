//! The tables of the two-phase solver: move tables, symmetry classes, and two exact pruning
//! tables reduced by the 16 symmetries that keep the U-D axis (Kociemba's layout):
//!
//! - phase 1: `twist class x slice x flip`: 168 x 495 x 2,048 = 170,311,680 entries, each
//!   saying how every one of the 18 moves changes the number of moves to `G1` (3 bytes, 511 MB;
//!   Rokicki's layout in cube20). The search knows the exact distance of its start and follows
//!   it move by move, and one read per node names the moves that keep a way into `G1` within
//!   the moves left, so no child is generated only to be rated and dropped. Reducing the twist
//!   rather than the flip-and-slice pair makes 21% more entries, but finding a position's entry
//!   then takes only tables of a few KB (the flip-and-slice classes took 3 MB, which missed the
//!   cache on every node: 20-25% of the search time);
//! - phase 2: `corner-permutation class x U/D-edge permutation`: 2,768 x 40,320 = 111,605,760
//!   entries, exact in those two coordinates (at most 18), with `corners x middle edges`
//!   (967,680 entries) as a second bound.
//!
//! Phase 2 is a byte an entry (111.6 MB), and the saved file (about 630 MB) is used in place,
//! memory-mapped; the small tables are copied out at load (a few MB).
//!
//! A phase-1 entry holds one nibble per face `f` (bits `4f..4f+4`, faces in move order): bits
//! 0-2 say which of the face's turns (quarter, half, inverse quarter) change the distance, bit
//! 3 that they lengthen it rather than shorten it. The three turns of a face lead to positions
//! one move apart from each other, so their distances differ by at most one: they never both
//! shorten and lengthen it.

use crate::coords::{self, MOVES, PHASE2_MOVES, SLICES, SLICE_PERMS, SLICE_SORTED, UD_EDGE_PERMS};
use crate::flipslice::{FlipSliceConjugates, FlipSliceGraph, RowMove, ALL_MOVES};
use crate::order::MoveOrder;
use crate::pruning::{self, PairGraph};
use godsearch_core::{Cancelled, MoveIdx, NoProgress, RankedSpace, StateSpace};
use godsearch_enumerate::{table, Limits, Progress};
use godsearch_puzzles::cube::coord::{self as cube_coord, CORNER_PERMS, FLIPS, TWISTS};
use godsearch_puzzles::cube::notation::Metric;
use godsearch_puzzles::cube::symmetry::{
    conjugation_table, CoordinateClasses, Symmetries, UD_SYMMETRIES,
};
use godsearch_puzzles::cube::CubieCube;
use godsearch_tables::{LoadedTable, TableBytes};
use rayon::prelude::*;
use std::io::{self, Write};
use thiserror::Error;

/// Identity of the table layout, stored in and required of saved files. Change it whenever a
/// coordinate, a move order, a symmetry or the layout changes.
pub const TABLES_FORMAT: &str =
    "twophase sym16 twistclass-slice-flip-deltas corner-udedge pair-bounds v6";
/// Classes of the twist under the 16 symmetries.
pub const TWIST_CLASSES: usize = 168;
/// Classes of corner permutations under the 16 symmetries.
pub const CORNER_CLASSES: usize = 2_768;
const PHASE2_COUNT: usize = PHASE2_MOVES.len();

/// Saved bytes that are not a table set of this layout.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum TablesError {
    /// Wrong number of bytes.
    #[error("two-phase tables should be {expected} bytes, found {found}")]
    Size {
        /// The layout's size.
        expected: usize,
        /// The size given.
        found: usize,
    },
    /// A value out of range for its table.
    #[error("two-phase tables hold an out-of-range entry")]
    Corrupt,
}

/// All tables of the solver.
#[derive(Debug)]
pub struct Tables {
    pub(crate) twist_move: Vec<u16>,
    pub(crate) flip_move: Vec<u16>,
    pub(crate) slice_move: Vec<u16>,
    pub(crate) slice_sorted_move: Vec<u16>,
    /// Corner permutation under all 18 moves (phase 1 tracks it for phase 2).
    pub(crate) corner_move: Vec<u16>,
    pub(crate) ud_edge_move: Vec<u16>,
    pub(crate) slice_perm_move: Vec<u16>,
    pub(crate) twist_class: Vec<u16>,
    pub(crate) twist_to_rep: Vec<u8>,
    /// Flip, slice and the slice's effect on the flip under the 16 symmetries (see
    /// [`FlipSliceConjugates`]).
    pub(crate) flip_conj: Vec<u16>,
    pub(crate) slice_flip: Vec<u16>,
    pub(crate) slice_conj: Vec<u16>,
    pub(crate) corner_class: Vec<u16>,
    pub(crate) corner_to_rep: Vec<u8>,
    pub(crate) ud_edge_conj: Vec<u16>,
    pub(crate) corner_slice_perm: Vec<u8>,
    /// Exact phase-2 moves of (U/D edges, middle edges): with `corner_slice_perm`, a bound
    /// small enough for the cache, read before the large phase-2 table.
    pub(crate) ud_slice_perm: Vec<u8>,
    /// `seen_through[s][f][nibble]`: the moves that a phase-1 nibble of face `f` of a class
    /// representative names, as moves of the position that symmetry `s` maps to it (see
    /// [`Tables::moves_changing`]): shortening ones in the low 32 bits, lengthening ones high.
    seen_through: Vec<[[u64; NIBBLES]; FACES]>,
    /// `move_back[a][m]`: the move of the cube as given that move `m` of the cube turned
    /// about the URF-DBL diagonal `a` times stands for (see the search module).
    pub(crate) move_back: [[u8; MOVES]; AXES],
    /// The cube's symmetries and the 18 moves as cubie cubes, made once rather than per solve.
    pub(crate) symmetries: Symmetries,
    pub(crate) move_cubes: [CubieCube; MOVES],
    /// The canonical order of face turns the searches follow.
    pub(crate) order: MoveOrder,
    /// The pruning tables: built, the memory-mapped saved payload, or either copied into
    /// huge pages ([`Tables::resident`]); they start at `pruning_offset`.
    pruning: TableBytes,
    pruning_offset: usize,
    levels: Vec<u64>,
}

fn phase1_entries() -> usize {
    TWIST_CLASSES * SLICES * FLIPS
}

/// Bytes of one phase-1 entry: a nibble for each of the six faces.
pub(crate) const PHASE1_ENTRY_BYTES: usize = 3;
/// Faces, each with three turns (moves `3f..3f+3`).
const FACES: usize = 6;
const TURNS: usize = 3;
/// Values of a nibble.
const NIBBLES: usize = 16;
/// Nibble bit set when the face's turns that change the distance lengthen it.
const LENGTHENS: u8 = 8;
/// Bit of a 64-bit move mask where the lengthening moves start.
const LENGTHENING_SHIFT: u32 = 32;

fn phase1_bytes() -> usize {
    phase1_entries() * PHASE1_ENTRY_BYTES
}

/// The phase-1 entries: for each entry, its face nibbles (see the module documentation) from
/// the exact distances of it and its 18 neighbours.
/// One (twist class, slice) row at a time: a move sends a whole row to one row, so the
/// neighbours' distances come from 18 rows of 2 KB that stay in the cache.
fn encode_phase1(graph: &FlipSliceGraph, distances: &[u8], out: &mut [u8]) {
    out.par_chunks_mut(FLIPS * PHASE1_ENTRY_BYTES)
        .enumerate()
        .for_each(|(row, bytes)| {
            let row_moves: [RowMove; MOVES] = std::array::from_fn(|m| graph.row_move(row, m));
            for (flip, entry) in bytes.chunks_exact_mut(PHASE1_ENTRY_BYTES).enumerate() {
                let here = distances[row * FLIPS + flip];
                let mut bits = 0u32;
                for face in 0..FACES {
                    let mut nibble = 0u8;
                    let (mut shorter, mut longer) = (false, false);
                    for turn in 0..TURNS {
                        let m = face * TURNS + turn;
                        let there = distances[graph.flip_move(row_moves[m], flip, m)];
                        if there != here {
                            nibble |= 1 << turn;
                            shorter |= there < here;
                            longer |= there > here;
                        }
                    }
                    assert!(
                        !(shorter && longer),
                        "turns of one face are one move apart, so their distances differ by one"
                    );
                    if longer {
                        nibble |= LENGTHENS;
                    }
                    bits |= u32::from(nibble) << (4 * face);
                }
                entry.copy_from_slice(&bits.to_le_bytes()[..PHASE1_ENTRY_BYTES]);
            }
        });
}

/// For each of the 16 symmetries `s`, what each face nibble of a class representative says
/// about the moves of a position `P` with `conjugate(P, s)` = the representative: move `m` of
/// `P` is move `conjugate(m, s)` of the representative.
fn seen_through(syms: &Symmetries, moves: &[CubieCube; MOVES]) -> Vec<[[u64; NIBBLES]; FACES]> {
    (0..UD_SYMMETRIES)
        .map(|s| {
            let mut of_rep_move = [0usize; MOVES];
            for (m, cube) in moves.iter().enumerate() {
                let image = syms.conjugate(cube, s);
                let r = moves.iter().position(|c| *c == image).expect("a face turn");
                of_rep_move[r] = m;
            }
            let mut table = [[0u64; NIBBLES]; FACES];
            for (face, row) in table.iter_mut().enumerate() {
                for (nibble, slot) in row.iter_mut().enumerate() {
                    let shift = if nibble as u8 & LENGTHENS != 0 {
                        LENGTHENING_SHIFT
                    } else {
                        0
                    };
                    for turn in (0..TURNS).filter(|t| nibble >> t & 1 == 1) {
                        *slot |= 1 << (of_rep_move[face * TURNS + turn] as u32 + shift);
                    }
                }
            }
            table
        })
        .collect()
}

fn phase2_entries() -> usize {
    CORNER_CLASSES * UD_EDGE_PERMS
}

/// The small tables, built in well under a second.
struct Small {
    twist_move: Vec<u16>,
    flip_move: Vec<u16>,
    slice_move: Vec<u16>,
    slice_sorted_move: Vec<u16>,
    corner_move: Vec<u16>,
    ud_edge_move: Vec<u16>,
    slice_perm_move: Vec<u16>,
    twists: CoordinateClasses,
    flip_slice: FlipSliceConjugates,
    corners: CoordinateClasses,
    ud_edge_conj: Vec<u16>,
}

/// The corner permutation's classes under the 16 symmetries that keep the U-D axis.
fn corner_classes(syms: &Symmetries) -> CoordinateClasses {
    CoordinateClasses::new(CORNER_PERMS, UD_SYMMETRIES, syms, |v, s| {
        let mut c = CubieCube::SOLVED;
        cube_coord::set_corner_perm(&mut c, v as u16);
        coords::corner_perm(&syms.conjugate(&c, s)) as usize
    })
}

/// The twist of `S^-1 C S` for each twist of `C` and each of the 16 symmetries that keep the
/// U-D axis: entry `twist * 16 + s`.
pub(crate) fn twist_conjugates(syms: &Symmetries) -> Vec<u16> {
    conjugation_table(
        TWISTS,
        UD_SYMMETRIES,
        syms,
        |t| {
            let mut c = CubieCube::SOLVED;
            cube_coord::set_twist(&mut c, t as u16);
            c
        },
        coords::twist,
    )
}

/// The twist's classes under the 16 symmetries that keep the U-D axis.
pub(crate) fn twist_classes(syms: &Symmetries) -> CoordinateClasses {
    let twist_conj = twist_conjugates(syms);
    CoordinateClasses::new(TWISTS, UD_SYMMETRIES, syms, |t, s| {
        twist_conj[t * UD_SYMMETRIES + s] as usize
    })
}

fn build_small() -> Small {
    let all: Vec<CubieCube> = Metric::Htm.moves().iter().map(|m| m.cubie()).collect();
    let phase2: Vec<CubieCube> = PHASE2_MOVES.iter().map(|&k| all[k]).collect();
    let syms = Symmetries::new();
    let corners = corner_classes(&syms);
    let twists = twist_classes(&syms);
    let ud_edge_conj = conjugation_table(
        UD_EDGE_PERMS,
        UD_SYMMETRIES,
        &syms,
        |u| {
            let mut c = CubieCube::SOLVED;
            cube_coord::perm_unrank(u as u32, &mut c.ep[..8]);
            c
        },
        coords::ud_edges,
    );
    let twist_move = coords::move_table(TWISTS, coords::twist, &all);
    let flip_move = coords::move_table(FLIPS, coords::flip, &all);
    let slice_move = coords::move_table(SLICES, coords::slice, &all);
    Small {
        twist_move,
        flip_move,
        slice_move,
        slice_sorted_move: coords::move_table(SLICE_SORTED, coords::slice_sorted, &all),
        corner_move: coords::move_table(CORNER_PERMS, coords::corner_perm, &all),
        ud_edge_move: coords::move_table(UD_EDGE_PERMS, coords::ud_edges, &phase2),
        slice_perm_move: coords::move_table(SLICE_PERMS, coords::slice_perm, &phase2),
        twists,
        flip_slice: FlipSliceConjugates::new(&syms),
        corners,
        ud_edge_conj,
    }
}

/// The three orientations of the U-D axis that the search tries (the cube turned 0, 1 and 2
/// times about the URF-DBL diagonal).
pub const AXES: usize = 3;
/// Symmetry index of one turn about the URF-DBL diagonal (`URF3`).
pub(crate) const URF3_SYMMETRY: usize = 16;

/// For each axis `a`, the face turn `S m S^-1` for each move `m`, where `S` is `URF3^a`.
fn move_back() -> [[u8; MOVES]; AXES] {
    let syms = Symmetries::new();
    let moves: Vec<CubieCube> = Metric::Htm.moves().iter().map(|m| m.cubie()).collect();
    let mut table = [[0u8; MOVES]; AXES];
    for (a, row) in table.iter_mut().enumerate() {
        let s = syms.inverse(a * URF3_SYMMETRY);
        for (m, slot) in row.iter_mut().enumerate() {
            let image = syms.conjugate(&moves[m], s);
            *slot = moves.iter().position(|c| *c == image).expect("a face turn") as u8;
        }
    }
    table
}

/// The 18 face turns as cubie cubes, in move-index order.
pub(crate) fn move_cubes() -> [CubieCube; MOVES] {
    let moves: Vec<CubieCube> = Metric::Htm.moves().iter().map(|m| m.cubie()).collect();
    moves.try_into().expect("18 moves")
}

/// Phase 1 as a graph over `twist class x slice x flip`: the middle edges' placement only.
fn phase1_graph(small: &Small) -> FlipSliceGraph<'_> {
    FlipSliceGraph {
        twists: &small.twists,
        twist_move: &small.twist_move,
        flip_move: &small.flip_move,
        conjugates: &small.flip_slice,
        slice_move: &small.slice_move,
        slice_conj: &small.flip_slice.slice,
        slices: SLICES,
        orders: 1,
        columns: MOVES,
        moves: &ALL_MOVES,
    }
}

/// Phase 2 as a graph over `corner class x U/D-edge permutation`.
struct Phase2Graph<'a>(&'a Small);

impl PairGraph for Phase2Graph<'_> {
    fn entries(&self) -> usize {
        phase2_entries()
    }

    fn max_degree(&self) -> usize {
        PHASE2_COUNT
    }

    fn neighbours(&self, entry: usize, mut f: impl FnMut(usize) -> bool) -> bool {
        let s = self.0;
        let (class, ud) = (entry / UD_EDGE_PERMS, entry % UD_EDGE_PERMS);
        let cp = s.corners.rep[class] as usize;
        for (k, &m) in PHASE2_MOVES.iter().enumerate() {
            let cp2 = s.corner_move[cp * MOVES + m] as usize;
            let ud2 = s.ud_edge_move[ud * PHASE2_COUNT + k] as usize;
            let sym = s.corners.to_rep[cp2] as usize;
            let e = s.corners.class[cp2] as usize * UD_EDGE_PERMS
                + s.ud_edge_conj[ud2 * UD_SYMMETRIES + sym] as usize;
            if f(e) {
                return true;
            }
        }
        false
    }

    fn partners(&self, entry: usize, mut f: impl FnMut(usize)) {
        let s = self.0;
        let (class, ud) = (entry / UD_EDGE_PERMS, entry % UD_EDGE_PERMS);
        let mask = s.corners.stabiliser[class];
        if mask == 1 {
            return;
        }
        for sym in 1..UD_SYMMETRIES {
            if mask >> sym & 1 == 1 {
                f(class * UD_EDGE_PERMS + s.ud_edge_conj[ud * UD_SYMMETRIES + sym] as usize);
            }
        }
    }
}

/// Pairs `(a, b)` of two coordinates (rank `a * b_count + b`) moved together by two move
/// tables: a small space for the table engine.
struct PairSpace<'a> {
    a_move: &'a [u16],
    b_move: &'a [u16],
    b_count: usize,
    moves: usize,
}

impl StateSpace for PairSpace<'_> {
    type State = u64;

    fn goal_state(&self) -> u64 {
        0
    }

    fn move_count(&self) -> usize {
        self.moves
    }

    fn move_name(&self, m: MoveIdx) -> String {
        format!("phase-2 move {m}")
    }

    /// Phase-2 moves are a subset of the half-turn moves `face * 3 + turns - 1`; the inverse
    /// turns the same face `4 - turns` times.
    fn inverse_move(&self, m: MoveIdx) -> MoveIdx {
        let htm = PHASE2_MOVES[m as usize];
        let inverse = htm / 3 * 3 + (2 - htm % 3);
        PHASE2_MOVES
            .iter()
            .position(|&x| x == inverse)
            .expect("phase 2 holds every inverse") as MoveIdx
    }

    #[inline]
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(MoveIdx, u64)) {
        let (a, b) = (rank as usize / self.b_count, rank as usize % self.b_count);
        for k in 0..self.moves {
            let next = self.a_move[a * self.moves + k] as usize * self.b_count
                + self.b_move[b * self.moves + k] as usize;
            f(k as MoveIdx, next as u64);
        }
    }
}

impl RankedSpace for PairSpace<'_> {
    fn state_count(&self) -> u128 {
        (self.a_move.len() / self.moves * self.b_count) as u128
    }

    fn rank_of(&self, state: u64) -> usize {
        state as usize
    }

    fn state_at(&self, rank: usize) -> u64 {
        rank as u64
    }
}

/// Exact distances of `(a, b)` pairs (entry `a * b_count + b`) from entry 0 (solved) in the
/// moves of two move tables, by the table engine.
fn pair_distances(a_move: &[u16], b_move: &[u16], b_count: usize, moves: usize) -> Vec<u8> {
    let space = PairSpace {
        a_move,
        b_move,
        b_count,
        moves,
    };
    let limits = Limits {
        max_depth: None,
        memory_bytes: u64::MAX,
        antipode_cap: 0,
        count_last: false,
    };
    let built = table::enumerate_exact(&space, &limits, &NoProgress)
        .expect("phase-2 pair tables are small and shallow");
    built.table.into_bytes()
}

impl Tables {
    /// Builds every table (about half a minute on two cores; the pruning tables' BFS levels are
    /// reported to `progress`, phase 1 as depths 1..=12, then phase 2 as 1..=18); `Cancelled`
    /// when `progress` asks the build to stop first.
    pub fn build(progress: &dyn Progress) -> Result<Self, Cancelled> {
        let small = build_small();
        assert_eq!(small.twists.len(), TWIST_CLASSES);
        assert_eq!(small.corners.len(), CORNER_CLASSES);
        let slice_goal = coords::slice(&CubieCube::SOLVED);
        let phase1_goal = slice_goal as usize * FLIPS;
        let graph = phase1_graph(&small);
        let (phase1, mut levels) = pruning::distances(&graph, phase1_goal, progress)?;
        let mut bytes = Vec::with_capacity(phase1_bytes() + phase2_entries());
        bytes.resize(phase1_bytes(), 0);
        encode_phase1(&graph, &phase1, &mut bytes);
        drop(phase1);
        let (phase2, levels2) = pruning::distances(&Phase2Graph(&small), 0, progress)?;
        bytes.extend_from_slice(&phase2);
        levels.extend(levels2);
        let corner_phase2: Vec<u16> = (0..CORNER_PERMS)
            .flat_map(|cp| PHASE2_MOVES.map(|m| small.corner_move[cp * MOVES + m]))
            .collect();
        let corner_slice_perm = pair_distances(
            &corner_phase2,
            &small.slice_perm_move,
            SLICE_PERMS,
            PHASE2_COUNT,
        );
        let ud_slice_perm = pair_distances(
            &small.ud_edge_move,
            &small.slice_perm_move,
            SLICE_PERMS,
            PHASE2_COUNT,
        );
        Ok(Self::assemble(
            small,
            [corner_slice_perm, ud_slice_perm],
            (TableBytes::Owned(bytes), 0),
            levels,
        ))
    }

    fn assemble(
        small: Small,
        [corner_slice_perm, ud_slice_perm]: [Vec<u8>; 2],
        (pruning, pruning_offset): (TableBytes, usize),
        levels: Vec<u64>,
    ) -> Self {
        let symmetries = Symmetries::new();
        let move_cubes = move_cubes();
        Tables {
            seen_through: seen_through(&symmetries, &move_cubes),
            twist_move: small.twist_move,
            flip_move: small.flip_move,
            slice_move: small.slice_move,
            slice_sorted_move: small.slice_sorted_move,
            corner_move: small.corner_move,
            ud_edge_move: small.ud_edge_move,
            slice_perm_move: small.slice_perm_move,
            twist_class: small.twists.class,
            twist_to_rep: small.twists.to_rep,
            flip_conj: small.flip_slice.flip,
            slice_flip: small.flip_slice.slice_flip,
            slice_conj: small.flip_slice.slice,
            corner_class: small.corners.class,
            corner_to_rep: small.corners.to_rep,
            ud_edge_conj: small.ud_edge_conj,
            corner_slice_perm,
            ud_slice_perm,
            pruning,
            pruning_offset,
            levels,
            move_back: move_back(),
            symmetries,
            move_cubes,
            order: MoveOrder::new(),
        }
    }

    /// The same tables with the pruning tables copied into memory backed by huge pages, where
    /// the kernel grants them (else left where they are).
    ///
    /// For many solves: the searches read those tables at random, and in 4 KiB pages (a
    /// mapped file) most reads also miss the TLB, which the phase-1 search's prefetches wait
    /// on. The copy holds the 600 MB in anonymous memory instead of the page cache, and takes
    /// as long as faulting that much fresh memory in (0.1 s to 1.5 s); 1,000 random cubes then
    /// take about 0.75 of the time (`bench --section cube` prints both).
    pub fn resident(self) -> Self {
        Tables {
            pruning: self.pruning.resident(),
            ..self
        }
    }

    /// Entries at each distance: the phase-1 levels, then the phase-2 levels.
    pub fn levels(&self) -> &[u64] {
        &self.levels
    }

    fn pruning_bytes(&self) -> &[u8] {
        &self.pruning.as_slice()[self.pruning_offset..]
    }

    /// The phase-1 table: [`PHASE1_ENTRY_BYTES`] an entry, `class * 2187 + twist`.
    pub(crate) fn phase1(&self) -> &[u8] {
        &self.pruning_bytes()[..phase1_bytes()]
    }

    /// The moves of a position `P` that shorten (low 32 bits) and lengthen (high 32 bits) its
    /// way into `G1`, from the phase-1 entry `bits` of `conjugate(P, sym)`. Exact.
    #[inline]
    pub(crate) fn moves_changing(&self, sym: usize, bits: u32) -> u64 {
        let table = &self.seen_through[sym];
        (0..FACES).fold(0, |mask, face| {
            mask | table[face][(bits >> (4 * face)) as usize % NIBBLES]
        })
    }

    /// The phase-2 table: exact moves in (corners, U/D edges) by `class * 40320 + edges`.
    pub(crate) fn phase2(&self) -> &[u8] {
        &self.pruning_bytes()[phase1_bytes()..]
    }

    fn words(&self) -> [&Vec<u16>; 13] {
        [
            &self.twist_move,
            &self.flip_move,
            &self.slice_move,
            &self.slice_sorted_move,
            &self.corner_move,
            &self.ud_edge_move,
            &self.slice_perm_move,
            &self.twist_class,
            &self.flip_conj,
            &self.slice_flip,
            &self.slice_conj,
            &self.corner_class,
            &self.ud_edge_conj,
        ]
    }

    /// Bytes of the small tables at the front of the saved form.
    fn small_len() -> usize {
        let words = (TWISTS + FLIPS + SLICES + SLICE_SORTED + CORNER_PERMS) * MOVES
            + (UD_EDGE_PERMS + SLICE_PERMS) * PHASE2_COUNT
            + TWISTS
            + (FLIPS + 2 * SLICES) * UD_SYMMETRIES
            + CORNER_PERMS
            + UD_EDGE_PERMS * UD_SYMMETRIES;
        words * 2 + TWISTS + CORNER_PERMS + (CORNER_PERMS + UD_EDGE_PERMS) * SLICE_PERMS
    }

    /// Bytes of the saved form.
    pub fn byte_len() -> usize {
        Self::small_len() + phase1_bytes() + phase2_entries()
    }

    /// Writes the saved form: the small tables (little-endian words, then bytes), then the
    /// pruning tables.
    pub fn write_to(&self, out: &mut dyn Write) -> io::Result<()> {
        for table in self.words() {
            let bytes: Vec<u8> = table.iter().flat_map(|w| w.to_le_bytes()).collect();
            out.write_all(&bytes)?;
        }
        out.write_all(&self.twist_to_rep)?;
        out.write_all(&self.corner_to_rep)?;
        out.write_all(&self.corner_slice_perm)?;
        out.write_all(&self.ud_slice_perm)?;
        out.write_all(self.pruning_bytes())
    }

    /// Takes tables from a loaded file's payload: the small tables are copied and checked for
    /// range, the pruning tables are used in place (the file layer has verified the checksum).
    pub fn from_loaded(table: LoadedTable) -> Result<Self, TablesError> {
        let data = table.payload();
        if data.len() != Self::byte_len() {
            return Err(TablesError::Size {
                expected: Self::byte_len(),
                found: data.len(),
            });
        }
        let mut at = 0;
        let mut words = |count: usize, limit: usize| {
            let table: Vec<u16> = data[at..at + 2 * count]
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]))
                .collect();
            at += 2 * count;
            if table.iter().any(|&v| v as usize >= limit) {
                return Err(TablesError::Corrupt);
            }
            Ok(table)
        };
        let twist_move = words(TWISTS * MOVES, TWISTS)?;
        let flip_move = words(FLIPS * MOVES, FLIPS)?;
        let slice_move = words(SLICES * MOVES, SLICES)?;
        let slice_sorted_move = words(SLICE_SORTED * MOVES, SLICE_SORTED)?;
        let corner_move = words(CORNER_PERMS * MOVES, CORNER_PERMS)?;
        let ud_edge_move = words(UD_EDGE_PERMS * PHASE2_COUNT, UD_EDGE_PERMS)?;
        let slice_perm_move = words(SLICE_PERMS * PHASE2_COUNT, SLICE_PERMS)?;
        let twist_class = words(TWISTS, TWIST_CLASSES)?;
        let flip_conj = words(FLIPS * UD_SYMMETRIES, FLIPS)?;
        let slice_flip = words(SLICES * UD_SYMMETRIES, FLIPS)?;
        let slice_conj = words(SLICES * UD_SYMMETRIES, SLICES)?;
        let corner_class = words(CORNER_PERMS, CORNER_CLASSES)?;
        let ud_edge_conj = words(UD_EDGE_PERMS * UD_SYMMETRIES, UD_EDGE_PERMS)?;
        let mut bytes = |count: usize, limit: u8| {
            let slice = &data[at..at + count];
            at += count;
            if slice.iter().any(|&v| v >= limit) {
                return Err(TablesError::Corrupt);
            }
            Ok(slice.to_vec())
        };
        let twist_to_rep = bytes(TWISTS, UD_SYMMETRIES as u8)?;
        let corner_to_rep = bytes(CORNER_PERMS, UD_SYMMETRIES as u8)?;
        let corner_slice_perm = bytes(CORNER_PERMS * SLICE_PERMS, pruning::UNREACHED)?;
        let ud_slice_perm = bytes(UD_EDGE_PERMS * SLICE_PERMS, pruning::UNREACHED)?;
        let levels = table.header().levels.clone();
        let offset = Self::small_len();
        let symmetries = Symmetries::new();
        let move_cubes = move_cubes();
        Ok(Tables {
            seen_through: seen_through(&symmetries, &move_cubes),
            twist_move,
            flip_move,
            slice_move,
            slice_sorted_move,
            corner_move,
            ud_edge_move,
            slice_perm_move,
            twist_class,
            twist_to_rep,
            flip_conj,
            slice_flip,
            slice_conj,
            corner_class,
            corner_to_rep,
            ud_edge_conj,
            corner_slice_perm,
            ud_slice_perm,
            pruning: TableBytes::Mapped(table),
            pruning_offset: offset,
            levels,
            move_back: move_back(),
            symmetries,
            move_cubes,
            order: MoveOrder::new(),
        })
    }
}
