//! A component: a set of an orbit's slots that the moves permute among themselves, with its two
//! coordinates (the arrangement of its pieces, their orientations) and the rules by which other
//! components fix its parity or its orientation sum (see [`super::space`]).

use super::arrange::{
    multinomial, rank_distinct, rank_is_odd_distinct, rank_multiset, unrank_distinct,
    unrank_multiset, FAST_DISTINCT,
};
use super::definition::Definition;
use super::space::SpaceMove;
use godsearch_core::perm::is_odd;
use rayon::prelude::*;

/// Components with at most this many distinct labels copy their label counts on the stack.
pub const INLINE_LABEL_KINDS: usize = 64;

/// The most entries (coordinate values x moves) a coordinate's move table may have: 16 M
/// entries, 64 MiB.
pub const TABLE_ENTRIES: u128 = 1 << 24;

/// A coordinate's size and, when it has one, its move table of stored values.
#[derive(Debug, Clone)]
pub(super) struct Coordinate {
    /// Values of the full coordinate.
    pub size: u128,
    /// `table[value * moves + m]`: the *stored* value (halved by a parity rule, its top digit
    /// dropped by a sum rule) after move `m` from full value `value`.
    pub table: Option<Vec<u32>>,
}

/// See the module docs.
#[derive(Debug, Clone)]
pub(super) struct Component {
    pub orbit: usize,
    pub slots: Vec<usize>,
    pub orientations: u8,
    /// Solved orientations, per slot.
    pub solved_orientation: Vec<u8>,
    /// The solved orientation sum mod k.
    pub ori_sum: u8,
    /// How many pieces carry each label (labels are dense per component).
    pub label_counts: Vec<u8>,
    /// The definition's piece number of each label.
    pub raw_labels: Vec<u8>,
    /// The solved pieces, as labels.
    pub solved_pieces: Vec<u8>,
    /// Whether each piece differs from every other.
    pub distinct: bool,
    /// Whether some move twists a piece here (else orientations stay as solved).
    pub twisted: bool,
    /// Per move, the local permutation and orientation change.
    pub moves: Vec<(Vec<u8>, Vec<u8>)>,
    pub arrangement: Coordinate,
    pub orientation: Coordinate,
    /// `k^(n-1)`: the place value of the last orientation digit.
    pub top_digit: u128,
    /// Its parity is the solved parity flipped by the listed components' parity changes.
    pub parity_rule: Option<Vec<usize>>,
    /// Its orientation sum is the solved sum plus the listed components' sum changes, each
    /// times its coefficient (mod k).
    pub sum_rule: Option<Vec<(usize, u8)>>,
    /// Whether another component's rule reads its parity / its orientation sum.
    pub parity_read: bool,
    pub sum_read: bool,
    /// Parity of the solved arrangement.
    pub solved_parity: bool,
    /// Bit `r` set when arrangement `r` is odd (where the arrangement has a move table).
    pub odd: Option<Vec<u64>>,
    /// Digit sum mod k of each orientation value (where the orientation has a move table).
    pub digit_sums: Option<Vec<u8>>,
}

impl Component {
    /// The components of every orbit under `moves`: the classes of slots they connect, the
    /// slots no move touches left out.
    pub fn all(definition: &Definition, moves: &[SpaceMove]) -> Vec<Component> {
        let mut out = Vec::new();
        for (o, def) in definition.orbits.iter().enumerate() {
            let n = def.pieces;
            let mut parent: Vec<usize> = (0..n).collect();
            fn find(parent: &mut [usize], x: usize) -> usize {
                let mut r = x;
                while parent[r] != r {
                    r = parent[r];
                }
                parent[x] = r;
                r
            }
            let mut touched = vec![false; n];
            for m in moves {
                let part = &m.transformation.orbits[o];
                for (i, (&from, &twist)) in
                    part.permutation.iter().zip(&part.orientation).enumerate()
                {
                    if from as usize != i || twist != 0 {
                        touched[i] = true;
                        touched[from as usize] = true;
                    }
                    let (a, b) = (find(&mut parent, i), find(&mut parent, from as usize));
                    parent[a] = b;
                }
            }
            let mut groups: Vec<Vec<usize>> = Vec::new();
            let mut root_group: Vec<Option<usize>> = vec![None; n];
            for slot in (0..n).filter(|&s| touched[s]) {
                let r = find(&mut parent, slot);
                match root_group[r] {
                    Some(g) => groups[g].push(slot),
                    None => {
                        root_group[r] = Some(groups.len());
                        groups.push(vec![slot]);
                    }
                }
            }
            for slots in groups {
                out.push(Component::new(definition, o, slots, moves));
            }
        }
        out
    }

    fn new(definition: &Definition, o: usize, slots: Vec<usize>, moves: &[SpaceMove]) -> Self {
        let k = definition.orbits[o].orientations;
        let solved = &definition.solved.orbits[o];
        let local_of = |s: usize| slots.iter().position(|&x| x == s).expect("same component") as u8;
        let local_moves: Vec<(Vec<u8>, Vec<u8>)> = moves
            .iter()
            .map(|m| {
                let part = &m.transformation.orbits[o];
                slots
                    .iter()
                    .map(|&s| (local_of(part.permutation[s] as usize), part.orientation[s]))
                    .unzip()
            })
            .collect();
        let raw: Vec<u8> = slots.iter().map(|&s| solved.pieces[s]).collect();
        let mut raw_labels = raw.clone();
        raw_labels.sort_unstable();
        raw_labels.dedup();
        let solved_pieces: Vec<u8> = raw
            .iter()
            .map(|l| raw_labels.binary_search(l).expect("present") as u8)
            .collect();
        let mut label_counts = vec![0u8; raw_labels.len()];
        for &l in &solved_pieces {
            label_counts[l as usize] += 1;
        }
        let distinct = label_counts.iter().all(|&c| c == 1);
        let twisted = k > 1 && local_moves.iter().any(|(_, t)| t.iter().any(|&x| x != 0));
        let n = slots.len();
        let solved_orientation: Vec<u8> = slots.iter().map(|&s| solved.orientation[s]).collect();
        let ori_sum = (solved_orientation.iter().map(|&x| x as u32).sum::<u32>() % k as u32) as u8;
        let orientation_size = match twisted {
            true => (k as u128).checked_pow(n as u32).unwrap_or(u128::MAX),
            false => 1,
        };
        let top_digit = match twisted {
            true => (k as u128).checked_pow(n as u32 - 1).unwrap_or(u128::MAX),
            false => 1,
        };
        Component {
            orbit: o,
            slots,
            orientations: k,
            solved_orientation,
            ori_sum,
            label_counts: label_counts.clone(),
            raw_labels,
            solved_parity: distinct && is_odd(&solved_pieces),
            solved_pieces,
            distinct,
            twisted,
            moves: local_moves,
            arrangement: Coordinate {
                size: multinomial(&label_counts).unwrap_or(u128::MAX),
                table: None,
            },
            orientation: Coordinate {
                size: orientation_size,
                table: None,
            },
            top_digit,
            parity_rule: None,
            sum_rule: None,
            parity_read: false,
            sum_read: false,
            odd: None,
            digit_sums: None,
        }
    }

    /// The radix of the stored arrangement (halved by a parity rule).
    pub fn arrangement_radix(&self) -> u128 {
        match self.parity_rule {
            Some(_) => self.arrangement.size / 2,
            None => self.arrangement.size,
        }
    }

    /// The radix of the stored orientations (the top digit dropped by a sum rule).
    pub fn orientation_radix(&self) -> u128 {
        match self.sum_rule {
            Some(_) => self.top_digit,
            None => self.orientation.size,
        }
    }

    pub fn arrangement_of(&self, rank: u128) -> Vec<u8> {
        let mut out = vec![0; self.slots.len()];
        self.arrangement_into(rank, &mut out);
        out
    }

    /// The arrangement of rank `rank` into `out` (one label a slot); allocates nothing for
    /// distinct pieces.
    pub fn arrangement_into(&self, rank: u128, out: &mut [u8]) {
        if self.distinct && out.len() <= FAST_DISTINCT {
            unrank_distinct(rank, out);
        } else {
            self.with_counts(|counts| unrank_multiset(rank, counts, self.arrangement.size, out));
        }
    }

    /// The rank of an arrangement (one label a slot); allocates nothing for components of up
    /// to [`INLINE_LABEL_KINDS`] labels.
    pub fn rank_of_arrangement(&self, labels: &[u8]) -> u128 {
        if self.distinct && labels.len() <= FAST_DISTINCT {
            return rank_distinct(labels);
        }
        self.with_counts(|counts| rank_multiset(labels, counts, self.arrangement.size))
    }

    /// Calls `f` with a copy of the label counts to consume, on the stack where it fits.
    fn with_counts<T>(&self, f: impl FnOnce(&mut [u8]) -> T) -> T {
        let n = self.label_counts.len();
        if n <= INLINE_LABEL_KINDS {
            let mut counts = [0u8; INLINE_LABEL_KINDS];
            counts[..n].copy_from_slice(&self.label_counts);
            f(&mut counts[..n])
        } else {
            f(&mut self.label_counts.clone())
        }
    }

    /// The orientation of each slot in full orientation value `value`.
    pub fn orientations_of(&self, mut value: u128) -> Vec<u8> {
        if !self.twisted {
            return self.solved_orientation.clone();
        }
        let k = self.orientations as u128;
        self.slots
            .iter()
            .map(|_| {
                let digit = (value % k) as u8;
                value /= k;
                digit
            })
            .collect()
    }

    /// The full orientation value of per-slot orientations.
    pub fn value_of_orientations(&self, ori: &[u8]) -> u128 {
        if !self.twisted {
            return 0;
        }
        let k = self.orientations as u128;
        ori.iter().rev().fold(0u128, |v, &o| v * k + o as u128)
    }

    /// The sum mod k of the digits of an orientation value.
    pub fn digit_sum(&self, value: u128) -> u8 {
        if let Some(sums) = &self.digit_sums {
            return sums[value as usize];
        }
        let k = self.orientations as u32;
        (self
            .orientations_of(value)
            .iter()
            .map(|&d| d as u32)
            .sum::<u32>()
            % k) as u8
    }

    /// Whether the full arrangement of rank `rank` is an odd permutation (from the move table's
    /// bits, else read off the rank for distinct pieces, else unranked).
    pub fn parity_of(&self, rank: u128) -> bool {
        match &self.odd {
            Some(bits) => bits[(rank / 64) as usize] >> (rank % 64) & 1 == 1,
            None if self.distinct && self.slots.len() <= FAST_DISTINCT => {
                rank_is_odd_distinct(rank, self.slots.len())
            }
            None => is_odd(&self.arrangement_of(rank)),
        }
    }

    /// The stored arrangement after move `m` from full arrangement `rank` (`labels`: the
    /// arrangement unranked, where the caller has it).
    pub fn moved_arrangement(
        &self,
        rank: u128,
        labels: Option<&[u8]>,
        m: usize,
        scratch: &mut [u8],
    ) -> u128 {
        if self.arrangement.size == 1 {
            return 0;
        }
        if let Some(t) = &self.arrangement.table {
            return t[rank as usize * self.moves.len() + m] as u128;
        }
        let owned;
        let labels = match labels {
            Some(l) => l,
            None => {
                owned = self.arrangement_of(rank);
                &owned
            }
        };
        let (perm, _) = &self.moves[m];
        let moved = &mut scratch[..perm.len()];
        for (to, &from) in moved.iter_mut().zip(perm) {
            *to = labels[from as usize];
        }
        self.store_arrangement(self.rank_of_arrangement(moved))
    }

    fn store_arrangement(&self, full: u128) -> u128 {
        match self.parity_rule {
            Some(_) => full >> 1,
            None => full,
        }
    }

    fn store_orientation(&self, full: u128) -> u128 {
        match self.sum_rule {
            Some(_) => full % self.top_digit,
            None => full,
        }
    }

    /// The stored orientation value after move `m` from full value `value`.
    pub fn moved_orientation(&self, value: u128, m: usize) -> u128 {
        if self.orientation.size == 1 {
            return 0;
        }
        if let Some(t) = &self.orientation.table {
            return t[value as usize * self.moves.len() + m] as u128;
        }
        self.store_orientation(self.moved_orientation_full(value, m))
    }

    fn moved_orientation_full(&self, value: u128, m: usize) -> u128 {
        let ori = self.orientations_of(value);
        let (perm, twist) = &self.moves[m];
        let k = self.orientations;
        let moved: Vec<u8> = perm
            .iter()
            .zip(twist)
            .map(|(&from, &t)| (ori[from as usize] + t) % k)
            .collect();
        self.value_of_orientations(&moved)
    }

    /// Builds the move tables that fit [`TABLE_ENTRIES`], with the parity bits and digit sums
    /// beside them. Call after the rules are set (tables hold stored values).
    pub fn build_tables(&mut self) {
        let moves = self.moves.len() as u128;
        if self.arrangement.size > 1 && self.arrangement.size * moves <= TABLE_ENTRIES {
            // Rows of 64 ranks at a time on every core: each row its moves' ranks and a word
            // of parity bits.
            let size = self.arrangement.size as usize;
            let width = moves as usize;
            let mut table = vec![0u32; size * width];
            let mut odd = vec![0u64; size.div_ceil(64)];
            let this = &*self;
            table
                .par_chunks_mut(64 * width)
                .zip(odd.par_iter_mut())
                .enumerate()
                .for_each(|(block, (rows, word))| {
                    let mut scratch = Vec::new();
                    for (i, row) in rows.chunks_mut(width).enumerate() {
                        let r = (block * 64 + i) as u128;
                        let labels = this.arrangement_of(r);
                        if this.distinct && is_odd(&labels) {
                            *word |= 1 << i;
                        }
                        for (entry, (perm, _)) in row.iter_mut().zip(&this.moves) {
                            scratch.clear();
                            scratch.extend(perm.iter().map(|&from| labels[from as usize]));
                            *entry =
                                this.store_arrangement(this.rank_of_arrangement(&scratch)) as u32;
                        }
                    }
                });
            self.arrangement.table = Some(table);
            self.odd = self.distinct.then_some(odd);
        }
        if self.orientation.size > 1 && self.orientation.size * moves <= TABLE_ENTRIES {
            let mut table = Vec::with_capacity((self.orientation.size * moves) as usize);
            let mut sums = Vec::with_capacity(self.orientation.size as usize);
            let k = self.orientations as u32;
            for v in 0..self.orientation.size {
                sums.push(
                    (self
                        .orientations_of(v)
                        .iter()
                        .map(|&d| d as u32)
                        .sum::<u32>()
                        % k) as u8,
                );
                for m in 0..self.moves.len() {
                    table.push(self.store_orientation(self.moved_orientation_full(v, m)) as u32);
                }
            }
            self.orientation.table = Some(table);
            self.digit_sums = Some(sums);
        }
    }
}
