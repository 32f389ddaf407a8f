//! The coordinate `corner class x slice x U/D-edge flip` of the optimal solver's larger
//! tables (the coordinate of Rokicki's nxopt tables), reduced by the 16 symmetries that keep
//! the U-D axis:
//!
//! - the corners: their twist and which four of the eight corner positions hold the four U
//!   corners ([`corner_occupancy`], 70 values), replaced by the class of the pair;
//! - the middle edges' slice (where they are, or where and in which order), conjugated
//!   through the symmetry that takes the corners to their class representative;
//! - the flips of the eight U/D edges ([`ud_flip`], 256 values), in the order of the positions
//!   they hold, conjugated the same way.
//!
//! The middle edges' flips are left out: a move changes an edge's flip by where the edge is,
//! so the U/D edges' flips after a move follow from their flips and the slice before it.
//! Against `twist class x slice x flip` ([`crate::flipslice`]) the entry gives up the middle
//! edges' flips (4 bits) and gains where the U corners are (about 6 bits).

use crate::coords::{self, SLICES};
use crate::flipslice::FlipSliceConjugates;
use godsearch_puzzles::cube::coord::{self as cube_coord, TWISTS};
use godsearch_puzzles::cube::cubie::{CORNERS, EDGES};
use godsearch_puzzles::cube::symmetry::{CoordinateClasses, Symmetries, UD_SYMMETRIES};
use godsearch_puzzles::cube::CubieCube;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

/// Placements of the four U corners among the eight corner positions: `C(8, 4)`.
pub const CORNER_OCCUPANCIES: usize = 70;
/// Flips of the eight U/D edges: `2^8`.
pub const UD_FLIPS: usize = 256;
/// Classes of `twist x corner occupancy` under the 16 symmetries that keep the U-D axis.
pub const CORNER_OCCUPANCY_CLASSES: usize = 9_930;
/// First of the D corners (`DFR DLF DBL DRB` are 4..8): the U corners are 0..4.
pub(crate) const FIRST_D_CORNER: u8 = 4;
/// Bits of the flip (as 12 bits, one a position) each half of [`UdFlipExtract`] reads.
const HALF_BITS: usize = EDGES / 2;

/// Which positions hold the U corners, as a combinatorial number `0..70` (0 when solved).
pub fn corner_occupancy(c: &CubieCube) -> u16 {
    let mut rank = 0;
    let mut k = 0;
    for p in 0..CORNERS {
        if c.cp[p] < FIRST_D_CORNER {
            k += 1;
            rank += binomial(p, k);
        }
    }
    rank as u16
}

/// Places the U corners at the positions of occupancy `rank` (in order), the D corners in
/// order on the others.
pub fn set_corner_occupancy(c: &mut CubieCube, rank: u16) {
    let chosen = chosen_positions(rank as usize, CORNERS, 4);
    let (mut up, mut down) = (0u8, FIRST_D_CORNER);
    for (slot, &is_up) in c.cp.iter_mut().zip(&chosen) {
        if is_up {
            *slot = up;
            up += 1;
        } else {
            *slot = down;
            down += 1;
        }
    }
}

/// The flips of the edges that are not middle edges, in the order of their positions: bit `k`
/// is the flip of the `k`-th such position.
pub fn ud_flip(c: &CubieCube) -> u16 {
    let mut bits = 0;
    let mut k = 0;
    for p in 0..EDGES {
        if c.ep[p] < coords::FIRST_SLICE_EDGE {
            bits |= u16::from(c.eo[p]) << k;
            k += 1;
        }
    }
    bits
}

/// `C(n, k)` for the small arguments here.
const fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// The `k` positions among `n` of combinatorial number `rank` (the inverse of the ranks above).
fn chosen_positions(mut rank: usize, n: usize, k: usize) -> Vec<bool> {
    let mut chosen = vec![false; n];
    for k in (1..=k).rev() {
        let mut p = n - 1;
        while binomial(p, k) > rank {
            p -= 1;
        }
        chosen[p] = true;
        rank -= binomial(p, k);
    }
    chosen
}

/// The U/D edges' flips from the flip coordinate and the middle edges' placement, a half of
/// the twelve positions at a time: `hi[placement * 64 + bits of positions 0..6] |
/// lo[placement * 64 + bits of positions 6..12]`.
#[derive(Debug, Clone)]
struct UdFlipExtract {
    hi: Vec<u8>,
    lo: Vec<u8>,
}

impl UdFlipExtract {
    fn new() -> Self {
        let half = 1 << HALF_BITS;
        let mut hi = vec![0u8; SLICES * half];
        let mut lo = vec![0u8; SLICES * half];
        for placement in 0..SLICES {
            let mut c = CubieCube::SOLVED;
            coords::set_slice(&mut c, placement as u16);
            // Position p is bit 11 - p of the twelve-bit flip: positions 0..6 are the high
            // half, 6..12 the low one. Each half's flips alone, the others unflipped.
            for bits in 0..half {
                for (p, eo) in c.eo.iter_mut().enumerate() {
                    *eo = (bits >> (HALF_BITS - 1 - p % HALF_BITS) & 1) as u8
                        * u8::from(p < HALF_BITS);
                }
                hi[placement * half + bits] = ud_flip(&c) as u8;
                for (p, eo) in c.eo.iter_mut().enumerate() {
                    *eo = (bits >> (HALF_BITS - 1 - p % HALF_BITS) & 1) as u8
                        * u8::from(p >= HALF_BITS);
                }
                lo[placement * half + bits] = ud_flip(&c) as u8;
            }
        }
        UdFlipExtract { hi, lo }
    }

    /// The U/D flip of a cube of flip coordinate `flip` whose middle edges are at `placement`.
    #[inline]
    fn of(&self, flip: usize, placement: usize) -> usize {
        // The coordinate leaves out the last edge's flip: the parity of the others.
        let twelve = flip << 1 | (flip.count_ones() & 1) as usize;
        let at = placement << HALF_BITS;
        (self.hi[at + (twelve >> HALF_BITS)] | self.lo[at + (twelve & ((1 << HALF_BITS) - 1))])
            as usize
    }
}

/// The small tables that name an entry of the table and walk its graph: built in a fraction
/// of a second, never saved.
#[derive(Debug, Clone)]
pub(crate) struct CornerSliceTables {
    /// Classes of `twist * 70 + occupancy`.
    pub classes: CoordinateClasses,
    /// Occupancy move table: `occupancy * columns + m`.
    pub occupancy_move: Vec<u16>,
    extract: UdFlipExtract,
    /// A flip coordinate with each U/D flip at each placement (the middle edges' flips chosen
    /// to make the parity even): `placement * 256 + ud_flip`.
    expand: Vec<u16>,
    /// Names these tables (and so the graphs over them) in the threads' [`RowMoves`] caches:
    /// unique in the process.
    id: u64,
}

/// Source of [`CornerSliceTables`]'s ids.
static NEXT_TABLES_ID: AtomicU64 = AtomicU64::new(0);

impl CornerSliceTables {
    /// The tables for move tables of these cubies (their columns).
    pub fn new(syms: &Symmetries, twist_conj: &[u16], moves: &[CubieCube]) -> Self {
        let occupancy_conj: Vec<u16> = (0..CORNER_OCCUPANCIES * UD_SYMMETRIES)
            .map(|i| {
                let mut c = CubieCube::SOLVED;
                set_corner_occupancy(&mut c, (i / UD_SYMMETRIES) as u16);
                corner_occupancy(&syms.conjugate(&c, i % UD_SYMMETRIES))
            })
            .collect();
        let classes =
            CoordinateClasses::new(TWISTS * CORNER_OCCUPANCIES, UD_SYMMETRIES, syms, |v, s| {
                let (t, o) = (v / CORNER_OCCUPANCIES, v % CORNER_OCCUPANCIES);
                twist_conj[t * UD_SYMMETRIES + s] as usize * CORNER_OCCUPANCIES
                    + occupancy_conj[o * UD_SYMMETRIES + s] as usize
            });
        let mut expand = vec![0u16; SLICES * UD_FLIPS];
        for placement in 0..SLICES {
            let mut c = CubieCube::SOLVED;
            coords::set_slice(&mut c, placement as u16);
            for ud in 0..UD_FLIPS {
                let mut k = 0;
                let mut first_middle = None;
                for p in 0..EDGES {
                    if c.ep[p] < coords::FIRST_SLICE_EDGE {
                        c.eo[p] = (ud >> k & 1) as u8;
                        k += 1;
                    } else {
                        c.eo[p] = 0;
                        first_middle.get_or_insert(p);
                    }
                }
                if ud.count_ones() % 2 == 1 {
                    c.eo[first_middle.expect("four middle edges")] = 1;
                }
                expand[placement * UD_FLIPS + ud] = cube_coord::flip(&c);
            }
        }
        CornerSliceTables {
            classes,
            occupancy_move: coords::move_table(CORNER_OCCUPANCIES, corner_occupancy, moves),
            extract: UdFlipExtract::new(),
            expand,
            id: NEXT_TABLES_ID.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// The U/D flip of a cube of flip coordinate `flip` whose middle edges are at `placement`.
    #[inline]
    pub fn ud_flip(&self, flip: usize, placement: usize) -> usize {
        self.extract.of(flip, placement)
    }

    /// A flip coordinate of U/D flip `ud_flip` at `placement`.
    #[inline]
    pub fn flip_of(&self, ud_flip: usize, placement: usize) -> usize {
        self.expand[placement * UD_FLIPS + ud_flip] as usize
    }
}

/// `corner class x slice x U/D flip` as a graph of entries `(class * slices + slice) * 256 +
/// ud_flip`, for either kind of slice.
pub(crate) struct CornerSliceGraph<'a> {
    pub corners: &'a CornerSliceTables,
    pub twist_move: &'a [u16],
    pub flip_move: &'a [u16],
    pub conjugates: &'a FlipSliceConjugates,
    /// The slice's move table (`slice * columns + m`).
    pub slice_move: &'a [u16],
    /// The slice's conjugates (`slice * 16 + s`).
    pub slice_conj: &'a [u16],
    /// Values of the slice: 495 or 11,880.
    pub slices: usize,
    /// Slice values per placement of the middle edges: 1, or 24 orders when sorted.
    pub orders: usize,
    /// Columns of the move tables.
    pub columns: usize,
    /// The moves of the graph (columns of the move tables).
    pub moves: &'a [u8],
}

impl CornerSliceGraph<'_> {
    /// Number of entries.
    pub fn entries(&self) -> usize {
        self.corners.classes.len() * self.slices * UD_FLIPS
    }

    /// The entry of the position with these raw coordinates (its class's); `slice` is the
    /// table's kind of slice.
    #[inline]
    pub fn entry(&self, twist: usize, occupancy: usize, flip: usize, slice: usize) -> usize {
        let corners = twist * CORNER_OCCUPANCIES + occupancy;
        let classes = &self.corners.classes;
        let sym = classes.to_rep[corners] as usize;
        self.entry_through(classes.class[corners] as usize, sym, flip, slice)
    }

    /// Row `row`'s corner class and slice ([`coords::class_and_slice`]).
    #[inline]
    fn class_and_slice(&self, row: usize) -> (usize, usize) {
        coords::class_and_slice(row, self.slices)
    }

    /// Where the middle edges are, from the table's slice ([`coords::placement_of`]).
    #[inline]
    fn placement(&self, slice: usize) -> usize {
        coords::placement_of(slice, self.orders)
    }

    /// The entry of corner class `class` whose edges are those of flip `flip` and slice
    /// `slice` seen through symmetry `sym`.
    #[inline]
    fn entry_through(&self, class: usize, sym: usize, flip: usize, slice: usize) -> usize {
        self.entry_in(&self.row_through(class, sym, slice), flip)
    }

    /// The row's part of [`entry_through`](Self::entry_through): where every flip of corner
    /// class `class` and slice `slice` seen through `sym` lands.
    #[inline]
    fn row_through(&self, class: usize, sym: usize, slice: usize) -> RowMove {
        let at = self.placement(slice) * UD_SYMMETRIES + sym;
        let reached = class * self.slices + self.slice_conj[slice * UD_SYMMETRIES + sym] as usize;
        RowMove {
            base: reached * UD_FLIPS,
            sym: sym as u8,
            slice_flip: self.conjugates.slice_flip[at],
            placement: self.conjugates.slice[at],
        }
    }

    /// The flip's part of [`entry_through`](Self::entry_through): the entry of flip `flip`
    /// in the row `to` says.
    #[inline]
    fn entry_in(&self, to: &RowMove, flip: usize) -> usize {
        let conjugated =
            self.conjugates.flip[flip * UD_SYMMETRIES + to.sym as usize] ^ to.slice_flip;
        to.base
            + self
                .corners
                .ud_flip(conjugated as usize, to.placement as usize)
    }

    /// The raw coordinates of one position of `entry`: twist, occupancy, flip, slice.
    #[inline]
    fn position(&self, entry: usize) -> (usize, usize, usize, usize) {
        let (row, ud) = (entry / UD_FLIPS, entry % UD_FLIPS);
        let (class, slice) = self.class_and_slice(row);
        let corners = self.corners.classes.rep[class] as usize;
        let flip = self.corners.flip_of(ud, self.placement(slice));
        (
            corners / CORNER_OCCUPANCIES,
            corners % CORNER_OCCUPANCIES,
            flip,
            slice,
        )
    }
}

/// Where the entries of a row (`class * slices + slice`) land, seen through a symmetry or
/// after a move: all 256 U/D flips of a row land in one row, seen through one symmetry, so
/// only the flip's part of an entry is left to work out per entry
/// ([`CornerSliceGraph::entry_in`]). The neighbours kept per thread for the row last expanded
/// ([`RowMoves`]): a BFS pass meets a row's entries one after another.
#[derive(Clone, Copy)]
struct RowMove {
    /// First entry of the row reached.
    base: usize,
    sym: u8,
    /// What the reached slice's placement adds to the conjugated flip.
    slice_flip: u16,
    /// The conjugated placement of the middle edges.
    placement: u16,
}

/// A thread's [`RowMove`]s: for which graph and row ([`CornerSliceGraph::row_key`]), which
/// moves are worked out yet.
struct RowMoves {
    key: RowKey,
    ready: u32,
    moves: [RowMove; crate::optimal::LAYER_MOVES],
}

thread_local! {
    static ROW_MOVES: RefCell<RowMoves> = const {
        RefCell::new(RowMoves {
            key: (u64::MAX, 0, 0, 0, usize::MAX),
            ready: 0,
            moves: [RowMove { base: 0, sym: 0, slice_flip: 0, placement: 0 }; crate::optimal::LAYER_MOVES],
        })
    };
}

/// A graph (its tables' id, its kind of slice, its move tables' columns, its moves) and one
/// of its rows.
type RowKey = (u64, usize, usize, usize, usize);

impl CornerSliceGraph<'_> {
    /// The key of row `row` of this graph in the threads' caches.
    fn row_key(&self, row: usize) -> RowKey {
        let moves = self.moves.as_ptr() as usize;
        (self.corners.id, self.slices, self.columns, moves, row)
    }

    /// Where the `k`-th of the graph's moves takes row `row`.
    fn row_move(&self, row: usize, k: usize) -> RowMove {
        let (twist, occupancy, _, slice) = self.position(row * UD_FLIPS);
        let (c, m) = (self.columns, self.moves[k] as usize);
        let corners = self.twist_move[twist * c + m] as usize * CORNER_OCCUPANCIES
            + self.corners.occupancy_move[occupancy * c + m] as usize;
        let classes = &self.corners.classes;
        let sym = classes.to_rep[corners] as usize;
        let slice = self.slice_move[slice * c + m] as usize;
        self.row_through(classes.class[corners] as usize, sym, slice)
    }
}

impl crate::pruning::PairGraph for CornerSliceGraph<'_> {
    fn entries(&self) -> usize {
        CornerSliceGraph::entries(self)
    }

    fn max_degree(&self) -> usize {
        self.moves.len()
    }

    /// The same neighbours as [`CornerSliceGraph::entry`] of each move gives, with the row's
    /// part of the work ([`RowMove`]) done once a row per thread.
    fn neighbours(&self, entry: usize, mut f: impl FnMut(usize) -> bool) -> bool {
        let (row, ud) = (entry / UD_FLIPS, entry % UD_FLIPS);
        let flip = self
            .corners
            .flip_of(ud, self.placement(self.class_and_slice(row).1));
        let key = self.row_key(row);
        ROW_MOVES.with(|cell| {
            let mut cache = cell.borrow_mut();
            if cache.key != key {
                cache.key = key;
                cache.ready = 0;
            }
            let c = self.columns;
            for (k, &m) in self.moves.iter().enumerate() {
                if cache.ready >> k & 1 == 0 {
                    cache.moves[k] = self.row_move(row, k);
                    cache.ready |= 1 << k;
                }
                let moved = self.flip_move[flip * c + m as usize] as usize;
                if f(self.entry_in(&cache.moves[k], moved)) {
                    return true;
                }
            }
            false
        })
    }

    /// Inlined up to the test of the class's stabiliser, which nearly every entry passes: the
    /// table engine asks this of every entry it sets.
    #[inline]
    fn partners(&self, entry: usize, f: impl FnMut(usize)) {
        let class = self.class_and_slice(entry / UD_FLIPS).0;
        let mask = self.corners.classes.stabiliser[class];
        if mask != 1 {
            self.partners_by(entry, class, mask, f);
        }
    }
}

impl CornerSliceGraph<'_> {
    /// The partners of `entry`, of class `class` whose representative the symmetries of
    /// `mask` keep.
    #[inline(never)]
    fn partners_by(&self, entry: usize, class: usize, mask: u64, mut f: impl FnMut(usize)) {
        let (_, _, flip, slice) = self.position(entry);
        for sym in 1..UD_SYMMETRIES {
            if mask >> sym & 1 == 1 {
                f(self.entry_through(class, sym, flip, slice));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pruning::PairGraph;
    use crate::tests::random_walk;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn tables() -> CornerSliceTables {
        let syms = Symmetries::new();
        let moves: Vec<CubieCube> = (0..coords::MOVES)
            .map(|k| crate::search::to_move(k).cubie())
            .collect();
        CornerSliceTables::new(&syms, &crate::tables::twist_conjugates(&syms), &moves)
    }

    #[test]
    fn occupancies_round_trip_and_the_corners_have_their_classes() {
        for v in 0..CORNER_OCCUPANCIES as u16 {
            let mut c = CubieCube::SOLVED;
            set_corner_occupancy(&mut c, v);
            assert_eq!(corner_occupancy(&c), v);
        }
        assert_eq!(corner_occupancy(&CubieCube::SOLVED), 0);
        assert_eq!(tables().classes.len(), CORNER_OCCUPANCY_CLASSES);
    }

    /// The neighbours the threads' cached rows give are each move's entry, for both kinds of
    /// slice and two sets of moves, with three graphs used in turn on one thread.
    #[test]
    fn cached_rows_give_each_moves_entry() {
        let syms = Symmetries::new();
        let all: Vec<CubieCube> = (0..coords::MOVES)
            .map(|k| crate::search::to_move(k).cubie())
            .collect();
        let t = tables();
        let twist_move = coords::move_table(TWISTS, coords::twist, &all);
        let flip_move = coords::move_table(cube_coord::FLIPS, coords::flip, &all);
        let conjugates = FlipSliceConjugates::new(&syms);
        let placement_move = coords::move_table(SLICES, coords::slice, &all);
        let sorted_move = coords::move_table(coords::SLICE_SORTED, coords::slice_sorted, &all);
        let sorted_conj = crate::flipslice::slice_sorted_conjugates(&syms);
        let face_turns: Vec<u8> = (0..coords::MOVES as u8).collect();
        let quarter_turns: Vec<u8> = (0..coords::MOVES as u8).filter(|m| m % 3 != 1).collect();
        let graph = |slice_move, slice_conj, slices, moves| CornerSliceGraph {
            corners: &t,
            twist_move: &twist_move,
            flip_move: &flip_move,
            conjugates: &conjugates,
            slice_move,
            slice_conj,
            slices,
            orders: slices / SLICES,
            columns: coords::MOVES,
            moves,
        };
        let graphs = [
            graph(&placement_move, &conjugates.slice, SLICES, &face_turns),
            graph(
                &sorted_move,
                &sorted_conj,
                coords::SLICE_SORTED,
                &quarter_turns,
            ),
            graph(&placement_move, &conjugates.slice, SLICES, &quarter_turns),
        ];
        // Each move's entry, worked out from the entry's coordinates without the cache.
        let direct = |g: &CornerSliceGraph, entry: usize| -> Vec<usize> {
            let (twist, occupancy, flip, slice) = g.position(entry);
            let c = g.columns;
            (g.moves.iter())
                .map(|&m| {
                    let m = m as usize;
                    g.entry(
                        g.twist_move[twist * c + m] as usize,
                        g.corners.occupancy_move[occupancy * c + m] as usize,
                        g.flip_move[flip * c + m] as usize,
                        g.slice_move[slice * c + m] as usize,
                    )
                })
                .collect()
        };
        let mut rng = StdRng::seed_from_u64(8);
        for _ in 0..3000 {
            for g in &graphs {
                // An entry, then another of its row (the cache's case), then the next graph.
                let entry = rng.gen_range(0..g.entries());
                let same_row = entry - entry % UD_FLIPS + rng.gen_range(0..UD_FLIPS);
                // A caller that stops early leaves the row's later moves not worked out yet.
                let stop_after = rng.gen_range(1..=g.moves.len());
                let mut seen = Vec::new();
                assert!(g.neighbours(entry, &mut |n| {
                    seen.push(n);
                    seen.len() == stop_after
                }));
                assert_eq!(seen[..], direct(g, entry)[..stop_after]);
                for e in [entry, same_row] {
                    let mut got = Vec::new();
                    g.neighbours(e, &mut |n| {
                        got.push(n);
                        false
                    });
                    assert_eq!(got, direct(g, e));
                }
            }
        }
    }

    #[test]
    fn the_ud_flip_follows_from_the_flip_and_the_placement_and_back() {
        let t = tables();
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..3000 {
            let c = random_walk(&mut rng, 25);
            let (flip, placement) = (coords::flip(&c) as usize, coords::slice(&c) as usize);
            let ud = ud_flip(&c) as usize;
            assert_eq!(t.ud_flip(flip, placement), ud);
            assert_eq!(t.ud_flip(t.flip_of(ud, placement), placement), ud);
        }
    }
}
