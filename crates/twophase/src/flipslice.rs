//! The coordinate `twist class x slice x flip` that phase 1 and the optimal solver's pruning
//! table share, reduced by the 16 symmetries that keep the U-D axis: the twist is replaced by
//! its class, and the slice and flip by their conjugates through the symmetry that takes the
//! twist to its class representative.
//!
//! The slice is either where the four middle edges are ([`coords::slice`], 495 values: phase 1)
//! or where they are and in which order ([`coords::slice_sorted`], 11,880 values: the optimal
//! solver's larger table). Conjugation moves the middle edges inside the middle layer, so the
//! conjugate of a slice depends on that slice alone, and the flip part it adds on the
//! positions alone.

use crate::coords::{self, MOVES, SLICES};

/// The 18 face turns, as the moves of a graph in the half-turn metric.
pub(crate) const ALL_MOVES: [u8; MOVES] = {
    let mut all = [0u8; MOVES];
    let mut m = 0;
    while m < MOVES {
        all[m] = m as u8;
        m += 1;
    }
    all
};
use godsearch_puzzles::cube::coord::{self as cube_coord, FLIPS};
use godsearch_puzzles::cube::symmetry::{CoordinateClasses, Symmetries, UD_SYMMETRIES};
use godsearch_puzzles::cube::CubieCube;

/// The flip and the slice of `S^-1 C S` for each of the 16 symmetries `S`: the slice depends
/// on the slice alone, and the flip on the flip and the slice, as the exclusive or of a part
/// from each (the symmetries that turn the cube a quarter about the U-D axis flip the middle
/// edges, wherever they are): `flip(f, s) ^ slice_flip(slice, s)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FlipSliceConjugates {
    /// `flip[f * 16 + s]`: the flip of the conjugate of a cube of flip `f` and slice 0.
    pub flip: Vec<u16>,
    /// `slice_flip[slice * 16 + s]`: what the slice adds to the conjugate's flip.
    pub slice_flip: Vec<u16>,
    /// `slice[slice * 16 + s]`: the conjugate's slice.
    pub slice: Vec<u16>,
}

impl FlipSliceConjugates {
    pub fn new(syms: &Symmetries) -> Self {
        let conjugate = |flip: usize, slice: usize, s: usize| {
            let mut c = CubieCube::SOLVED;
            coords::set_slice(&mut c, slice as u16);
            cube_coord::set_flip(&mut c, flip as u16);
            let d = syms.conjugate(&c, s);
            (coords::flip(&d), coords::slice(&d))
        };
        let table = |count: usize, f: &dyn Fn(usize, usize) -> u16| -> Vec<u16> {
            (0..count * UD_SYMMETRIES)
                .map(|i| f(i / UD_SYMMETRIES, i % UD_SYMMETRIES))
                .collect()
        };
        FlipSliceConjugates {
            flip: table(FLIPS, &|f, s| conjugate(f, 0, s).0),
            slice_flip: table(SLICES, &|sl, s| {
                conjugate(0, sl, s).0 ^ conjugate(0, 0, s).0
            }),
            slice: table(SLICES, &|sl, s| conjugate(0, sl, s).1),
        }
    }

    /// The flip and slice of the conjugate by `sym` of a cube with this flip and slice.
    #[inline]
    pub fn conjugate(&self, flip: usize, slice: usize, sym: usize) -> (usize, usize) {
        let at = slice * UD_SYMMETRIES + sym;
        (
            (self.flip[flip * UD_SYMMETRIES + sym] ^ self.slice_flip[at]) as usize,
            self.slice[at] as usize,
        )
    }
}

/// The sorted slice of `S^-1 C S` for each sorted slice of `C` and each of the 16 symmetries:
/// entry `slice_sorted * 16 + s`.
pub(crate) fn slice_sorted_conjugates(syms: &Symmetries) -> Vec<u16> {
    (0..coords::SLICE_SORTED * UD_SYMMETRIES)
        .map(|i| {
            let mut c = CubieCube::SOLVED;
            coords::set_slice_sorted(&mut c, (i / UD_SYMMETRIES) as u16);
            coords::slice_sorted(&syms.conjugate(&c, i % UD_SYMMETRIES))
        })
        .collect()
}

/// Where a move takes a row (twist class, slice) of a flip-slice table: every flip lands in
/// one row, seen through one symmetry.
#[derive(Clone, Copy)]
pub(crate) struct RowMove {
    /// First entry of the row reached.
    pub first: usize,
    sym: usize,
    /// What the slice adds to the conjugated flip.
    slice_flip: u16,
}

/// `twist class x slice x flip` as a graph of entries `(class * slices + slice) * 2048 + flip`,
/// the twist being its class's representative, for either kind of slice.
pub(crate) struct FlipSliceGraph<'a> {
    pub twists: &'a CoordinateClasses,
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
    /// Columns of the move tables: the 18 face turns, or with the 9 middle-layer turns 27.
    pub columns: usize,
    /// The moves of the graph (columns of the move tables): all 18 face turns in the
    /// half-turn metric, the quarter turns in the quarter-turn metric, all 27 in the
    /// slice-turn metric.
    pub moves: &'a [u8],
}

impl FlipSliceGraph<'_> {
    /// Number of entries.
    pub fn entries(&self) -> usize {
        self.twists.len() * self.slices * FLIPS
    }

    /// The entry of the position with these raw coordinates (its class's).
    #[inline]
    pub fn entry(&self, twist: usize, flip: usize, slice: usize) -> usize {
        let sym = self.twists.to_rep[twist] as usize;
        let placement = coords::placement_of(slice, self.orders);
        let flip = self.conjugates.flip[flip * UD_SYMMETRIES + sym]
            ^ self.conjugates.slice_flip[placement * UD_SYMMETRIES + sym];
        (self.twists.class[twist] as usize * self.slices
            + self.slice_conj[slice * UD_SYMMETRIES + sym] as usize)
            * FLIPS
            + flip as usize
    }

    /// Where move `m` takes row `row` (`class * slices + slice`).
    #[inline]
    pub fn row_move(&self, row: usize, m: usize) -> RowMove {
        let (class, slice) = coords::class_and_slice(row, self.slices);
        let twist = self.twists.rep[class] as usize;
        let t2 = self.twist_move[twist * self.columns + m] as usize;
        let sl2 = self.slice_move[slice * self.columns + m] as usize;
        let sym = self.twists.to_rep[t2] as usize;
        RowMove {
            first: (self.twists.class[t2] as usize * self.slices
                + self.slice_conj[sl2 * UD_SYMMETRIES + sym] as usize)
                * FLIPS,
            sym,
            slice_flip: self.conjugates.slice_flip
                [coords::placement_of(sl2, self.orders) * UD_SYMMETRIES + sym],
        }
    }

    /// The entry that move `m` reaches from flip `flip` of a row it takes to `to`.
    #[inline]
    pub fn flip_move(&self, to: RowMove, flip: usize, m: usize) -> usize {
        let f2 = self.flip_move[flip * self.columns + m] as usize;
        to.first + (self.conjugates.flip[f2 * UD_SYMMETRIES + to.sym] ^ to.slice_flip) as usize
    }
}

impl crate::pruning::PairGraph for FlipSliceGraph<'_> {
    fn entries(&self) -> usize {
        FlipSliceGraph::entries(self)
    }

    fn max_degree(&self) -> usize {
        self.moves.len()
    }

    fn neighbours(&self, entry: usize, mut f: impl FnMut(usize) -> bool) -> bool {
        let (row, flip) = (entry / FLIPS, entry % FLIPS);
        self.moves.iter().any(|&m| {
            let m = m as usize;
            f(self.flip_move(self.row_move(row, m), flip, m))
        })
    }

    /// Inlined up to the test of the class's stabiliser, which nearly every entry passes: the
    /// table engine asks this of every entry it sets.
    #[inline]
    fn partners(&self, entry: usize, f: impl FnMut(usize)) {
        let (class, _) = coords::class_and_slice(entry / FLIPS, self.slices);
        let mask = self.twists.stabiliser[class];
        if mask != 1 {
            self.partners_by(entry, mask, f);
        }
    }
}

impl FlipSliceGraph<'_> {
    /// The partners of `entry`, whose class's representative the symmetries of `mask` keep.
    #[inline(never)]
    fn partners_by(&self, entry: usize, mask: u64, mut f: impl FnMut(usize)) {
        let (row, flip) = (entry / FLIPS, entry % FLIPS);
        let (class, slice) = coords::class_and_slice(row, self.slices);
        for sym in 1..UD_SYMMETRIES {
            if mask >> sym & 1 == 1 {
                let placement = coords::placement_of(slice, self.orders);
                let (f2, _) = self.conjugates.conjugate(flip, placement, sym);
                let sl2 = self.slice_conj[slice * UD_SYMMETRIES + sym] as usize;
                f((class * self.slices + sl2) * FLIPS + f2);
            }
        }
    }
}
