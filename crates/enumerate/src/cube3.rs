//! God's algorithm on the 3x3x3 with symmetry: frontier levels of symmetry classes.
//!
//! The cube has `4.3 * 10^19` positions, so only levels are kept, as in [`crate::frontier`],
//! and each level holds one representative per class under the 48 symmetries of the cube
//! (rotations and reflections; the move set maps onto itself, so all members of a class are at
//! the same distance). This shrinks every level about 48 times. Each representative is stored
//! with the size of its stabiliser, so the number of positions in its class, `48 / stabiliser`,
//! is known without listing the class, and the printed counts are exact numbers of positions.
//!
//! A position is packed into a `u128` key: the raw corner permutation in the top bits, then
//! corner twists, edge permutation, edge flips, and the stabiliser size in the lowest bits. The
//! representative is the conjugate with the smallest key. Since the corner permutation is most
//! significant, a table of its 48 conjugates (40320 x 48) finds the few symmetries that can win,
//! and only those are applied to the whole cube: one table row instead of 48 cube products.

use crate::frontier::remove_known;
use crate::{Limits, Progress, Stop};
use godsearch_puzzles::cube::coord::{perm_rank, perm_unrank, CORNER_PERMS};
use godsearch_puzzles::cube::cubie::{CubieCube, CORNERS, EDGES};
use godsearch_puzzles::cube::symmetry::{Symmetries, SYMMETRIES};
use godsearch_puzzles::cube::Metric;
use rayon::prelude::*;

/// Classes a rayon task expands.
const CLASSES_PER_TASK: usize = 1 << 12;
/// Bits below the position in a key: the stabiliser size (1..=96).
const STABILISER_BITS: u32 = 7;

/// Which positions a class holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reduction {
    /// The conjugates of a position under the 48 symmetries of the cube.
    Symmetries,
    /// Those and the conjugates of its inverse (96 maps; a position and its inverse are at the
    /// same distance, since the inverse sequence solves the inverse).
    SymmetriesAndInverse,
}

impl Reduction {
    /// Number of maps in the group: 48 or 96.
    pub fn order(self) -> u64 {
        match self {
            Reduction::Symmetries => SYMMETRIES as u64,
            Reduction::SymmetriesAndInverse => 2 * SYMMETRIES as u64,
        }
    }
}
const KEY_BYTES: u64 = std::mem::size_of::<u128>() as u64;

/// The result of a symmetric enumeration of the 3x3x3.
#[derive(Debug, Clone)]
pub struct CubeEnumeration {
    /// The metric the levels are counted in.
    pub metric: Metric,
    /// `positions[d]`: exact number of positions at distance `d` from solved.
    pub positions: Vec<u64>,
    /// `classes[d]`: exact number of classes at distance `d`.
    pub classes: Vec<u64>,
    /// What a class is.
    pub reduction: Reduction,
    /// Why it ended (the cube is never exhausted within memory: `MaxDepth` or `Memory`).
    pub stop: Stop,
    /// The most bytes the level arrays held at once.
    pub peak_bytes: u64,
}

/// Finds the representative of a position's symmetry class.
#[derive(Debug, Clone)]
pub struct ClassReducer {
    syms: Symmetries,
    corner_conjugates: Vec<u16>,
    reduction: Reduction,
}

impl ClassReducer {
    /// Builds the corner-permutation conjugation table (40320 x 48; a few milliseconds).
    pub fn new(reduction: Reduction) -> Self {
        let syms = Symmetries::new();
        let mut corner_conjugates = vec![0u16; CORNER_PERMS * SYMMETRIES];
        let mut c = CubieCube::SOLVED;
        for cp in 0..CORNER_PERMS {
            perm_unrank(cp as u32, &mut c.cp);
            for s in 0..SYMMETRIES {
                corner_conjugates[cp * SYMMETRIES + s] =
                    perm_rank(&syms.conjugate(&c, s).cp) as u16;
            }
        }
        ClassReducer {
            syms,
            corner_conjugates,
            reduction,
        }
    }

    fn corner_row(&self, c: &CubieCube) -> &[u16] {
        &self.corner_conjugates[perm_rank(&c.cp) as usize * SYMMETRIES..][..SYMMETRIES]
    }

    /// The key of the class representative of `c` (the smallest conjugate), with the class's
    /// stabiliser size in the low bits. Equal for every member of a class.
    pub fn representative(&self, c: &CubieCube) -> u128 {
        let inverse;
        let seen: &[CubieCube] = match self.reduction {
            Reduction::Symmetries => std::slice::from_ref(c),
            Reduction::SymmetriesAndInverse => {
                inverse = [*c, c.inverse()];
                &inverse
            }
        };
        let least = seen
            .iter()
            .map(|x| *self.corner_row(x).iter().min().expect("48 symmetries"))
            .min()
            .expect("a cube");
        let mut best = u128::MAX;
        let mut stabiliser = 0u128;
        for x in seen {
            for (s, _) in self
                .corner_row(x)
                .iter()
                .enumerate()
                .filter(|(_, &v)| v == least)
            {
                let key = pack(&self.syms.conjugate(x, s));
                if key < best {
                    best = key;
                    stabiliser = 1;
                } else if key == best {
                    stabiliser += 1;
                }
            }
        }
        best << STABILISER_BITS | stabiliser
    }

    /// Positions in the class of a representative key.
    pub fn class_size(&self, key: u128) -> u64 {
        self.reduction.order() / (key & ((1 << STABILISER_BITS) - 1)) as u64
    }
}

/// The cube of a representative key.
pub fn cube_of(key: u128) -> CubieCube {
    unpack(key >> STABILISER_BITS)
}

fn pack(c: &CubieCube) -> u128 {
    let mut k = 0u128;
    for i in 0..CORNERS {
        k = k << 3 | c.cp[i] as u128;
    }
    for i in 0..CORNERS {
        k = k << 2 | c.co[i] as u128;
    }
    for i in 0..EDGES {
        k = k << 4 | c.ep[i] as u128;
    }
    for i in 0..EDGES {
        k = k << 1 | c.eo[i] as u128;
    }
    k
}

fn unpack(mut k: u128) -> CubieCube {
    let mut c = CubieCube::SOLVED;
    for i in (0..EDGES).rev() {
        c.eo[i] = (k & 1) as u8;
        k >>= 1;
    }
    for i in (0..EDGES).rev() {
        c.ep[i] = (k & 15) as u8;
        k >>= 4;
    }
    for i in (0..CORNERS).rev() {
        c.co[i] = (k & 3) as u8;
        k >>= 2;
    }
    for i in (0..CORNERS).rev() {
        c.cp[i] = (k & 7) as u8;
        k >>= 3;
    }
    c
}

/// Members of a class expanded to find the next level: the representative, and with the
/// inverse reduction also its inverse. (A class then also holds inverses, whose neighbours are
/// the representative's *left* multiples `m r`; those are the inverses of `r^-1 m^-1`, the
/// right multiples of the inverse.)
fn expanded_members(reduction: Reduction) -> usize {
    match reduction {
        Reduction::Symmetries => 1,
        Reduction::SymmetriesAndInverse => 2,
    }
}

/// Bytes needed to make the level after one of `current` classes, with `previous` kept.
pub fn level_bytes(previous: usize, current: usize, metric: Metric, reduction: Reduction) -> u64 {
    let candidates = current * metric.moves().len() * expanded_members(reduction);
    (previous + current + candidates) as u64 * KEY_BYTES
}

/// Enumerates the 3x3x3 from solved in `metric`, level by level, until `limits.max_depth` or
/// until the next level would not fit in `limits.memory_bytes`.
///
/// Exact: `positions[d]` is the number of positions at distance `d`, `classes[d]` the number
/// of symmetry classes among them.
pub fn enumerate(
    metric: Metric,
    reduction: Reduction,
    limits: &Limits,
    progress: &dyn Progress,
) -> CubeEnumeration {
    let reducer = ClassReducer::new(reduction);
    let moves: Vec<CubieCube> = metric.moves().iter().map(|m| m.cubie()).collect();
    // In the quarter-turn metric every move changes the permutation parity, so a neighbour of
    // level d is at d - 1 or d + 1, never d; in the half-turn metric it may be at d.
    let same_level_possible = metric == Metric::Htm;
    let mut previous: Vec<u128> = Vec::new();
    let mut current = vec![reducer.representative(&CubieCube::SOLVED)];
    let mut positions = vec![1u64];
    let mut classes = vec![1u64];
    let mut peak_bytes = KEY_BYTES;
    let stop = loop {
        let depth = positions.len() as u32 - 1;
        if limits.max_depth.is_some_and(|m| depth >= m) {
            break Stop::MaxDepth(depth);
        }
        let needed = level_bytes(previous.len(), current.len(), metric, reduction);
        if needed > limits.memory_bytes {
            break Stop::Memory {
                depth: depth + 1,
                needed,
                budget: limits.memory_bytes,
            };
        }
        peak_bytes = peak_bytes.max(needed);
        progress.level_started(depth + 1, current.len() as u64);
        let per_class = moves.len() * expanded_members(reduction);
        let mut next = vec![0u128; current.len() * per_class];
        current
            .par_chunks(CLASSES_PER_TASK)
            .zip(next.par_chunks_mut(CLASSES_PER_TASK * per_class))
            .for_each(|(chunk, out)| {
                let mut slots = out.iter_mut();
                for &key in chunk {
                    let c = cube_of(key);
                    let members = [c, c.inverse()];
                    for member in &members[..expanded_members(reduction)] {
                        for m in &moves {
                            *slots.next().expect("sized in advance") =
                                reducer.representative(&member.then(m));
                        }
                    }
                }
                progress.advanced(chunk.len() as u64);
            });
        next.par_sort_unstable();
        next.dedup();
        let same: &[u128] = if same_level_possible { &current } else { &[] };
        remove_known(&mut next, &previous, same);
        next.shrink_to_fit();
        let count: u64 = next.par_iter().map(|&k| reducer.class_size(k)).sum();
        positions.push(count);
        classes.push(next.len() as u64);
        progress.level_finished(depth + 1, count);
        previous = std::mem::replace(&mut current, next);
    };
    CubeEnumeration {
        metric,
        positions,
        classes,
        reduction,
        stop,
        peak_bytes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NoProgress;
    use godsearch_testdata::rows;

    fn check_against_data(metric: Metric, file: &str, depth: u32) {
        check_classes(metric, Reduction::Symmetries, file, 2, depth);
    }

    /// Positions (column 1) and classes (column `classes_column`) against `file`.
    fn check_classes(
        metric: Metric,
        reduction: Reduction,
        file: &str,
        classes_column: usize,
        depth: u32,
    ) {
        let limits = Limits {
            max_depth: Some(depth),
            memory_bytes: 8 << 30,
            antipode_cap: 0,
        };
        let e = enumerate(metric, reduction, &limits, &NoProgress);
        assert_eq!(e.stop, Stop::MaxDepth(depth));
        let data = rows(file);
        assert_eq!(e.positions.len(), depth as usize + 1);
        for (d, row) in data.iter().enumerate().take(e.positions.len()) {
            assert_eq!(
                e.positions[d].to_string(),
                row[1],
                "{file} positions at {d}"
            );
            assert_eq!(
                e.classes[d].to_string(),
                row[classes_column],
                "{file} classes at {d}"
            );
        }
    }

    #[test]
    fn htm_levels_match_the_published_counts_through_depth_7() {
        check_against_data(Metric::Htm, "cube3x3x3-htm.txt", 7);
    }

    #[test]
    fn qtm_levels_match_the_published_counts_through_depth_8() {
        check_against_data(Metric::Qtm, "cube3x3x3-qtm.txt", 8);
    }

    #[test]
    fn classes_with_inversion_match_the_published_counts() {
        check_classes(
            Metric::Qtm,
            Reduction::SymmetriesAndInverse,
            "cube3x3x3-qtm.txt",
            3,
            8,
        );
    }

    #[test]
    #[ignore = "HTM depth 8 and QTM depth 10: tens of seconds and several GB"]
    fn deeper_levels_match_the_published_counts() {
        check_against_data(Metric::Htm, "cube3x3x3-htm.txt", 8);
        check_against_data(Metric::Qtm, "cube3x3x3-qtm.txt", 10);
    }

    #[test]
    fn every_conjugate_has_the_same_representative() {
        let reducer = ClassReducer::new(Reduction::Symmetries);
        let both = ClassReducer::new(Reduction::SymmetriesAndInverse);
        let syms = Symmetries::new();
        let c = godsearch_puzzles::cube::notation::apply_moves(
            &CubieCube::SOLVED,
            &godsearch_puzzles::cube::notation::parse_moves("R U2 F' L D B2").unwrap(),
        );
        let key = reducer.representative(&c);
        assert_eq!(reducer.class_size(key), 48);
        let key96 = both.representative(&c);
        assert_eq!(both.class_size(key96), 96);
        for s in 0..SYMMETRIES {
            let d = syms.conjugate(&c, s);
            assert_eq!(reducer.representative(&d), key);
            assert_eq!(both.representative(&d), key96);
            assert_eq!(both.representative(&d.inverse()), key96);
        }
        assert_eq!(
            reducer.class_size(reducer.representative(&CubieCube::SOLVED)),
            1
        );
        assert_eq!(both.class_size(both.representative(&CubieCube::SOLVED)), 1);
        assert_eq!(unpack(pack(&c)), c);
    }
}
