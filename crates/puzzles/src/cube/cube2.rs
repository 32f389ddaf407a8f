//! The 2x2x2 cube as a ranked puzzle: corners only, the DBL corner held fixed.
//!
//! Turning the whole cube changes nothing on a 2x2x2, so a position is counted once: it is
//! turned (a whole-cube rotation, applied after) until corner DBL is home and untwisted, and only
//! `U`, `R`, `F` turns are searched (they never move DBL). That leaves `7! * 3^6 = 3,674,160`
//! positions, ranked as `permutation * 729 + twist`; moves are table lookups on the two parts.

use super::coord::perm_rank;
use super::cubie::{CubieCube, CORNERS};
use super::notation::{Metric, Move};
use super::symmetry::{Symmetries, SYMMETRIES};
use godsearch_core::{MoveIdx, RankedSpace, SequenceAutomaton, StateSpace};

/// Positions of the 2x2x2 with one corner fixed.
pub const CUBE2_POSITIONS: u64 = 3_674_160;
const FIXED: usize = 6; // DBL
const FREE: [usize; 7] = [0, 1, 2, 3, 4, 5, 7];
const PERMS: usize = 5040;
const TWISTS: usize = 729;
/// Faces searched: U, R, F (indices into the face list).
const SEARCHED_FACES: [u8; 3] = [0, 1, 2];

/// The 2x2x2 cube's positions and moves in one metric.
#[derive(Debug, Clone)]
pub struct Cube2Space {
    metric: Metric,
    moves: Vec<Move>,
    perm_moves: Vec<u16>,
    twist_moves: Vec<u16>,
    rotations: Vec<CubieCube>,
}

/// How 2x2x2 positions are ranked ([`Cube2Space::rank`]), written into table headers.
pub const CUBE2_RANKING: &str = "cube2 DBL fixed rank=perm7*729+twist6 v1";

/// Longest 2x2x2 solution in either metric (11 face turns, 14 quarter turns); bounds descent.
pub const CUBE2_MAX_DISTANCE: usize = 14;

impl Cube2Space {
    /// Builds the move tables (a few milliseconds).
    pub fn new(metric: Metric) -> Self {
        let moves: Vec<Move> = metric
            .moves()
            .into_iter()
            .filter(|m| SEARCHED_FACES.contains(&m.face))
            .collect();
        let cubies: Vec<CubieCube> = moves.iter().map(|m| m.cubie()).collect();
        let n = moves.len();
        let mut perm_moves = vec![0u16; PERMS * n];
        let mut twist_moves = vec![0u16; TWISTS * n];
        for p in 0..PERMS {
            let c = from_parts(p as u32, 0);
            for (k, m) in cubies.iter().enumerate() {
                perm_moves[p * n + k] = perm_part(&c.then(m)) as u16;
            }
        }
        for t in 0..TWISTS {
            let c = from_parts(0, t as u32);
            for (k, m) in cubies.iter().enumerate() {
                twist_moves[t * n + k] = twist_part(&c.then(m)) as u16;
            }
        }
        let syms = Symmetries::new();
        let rotations = (0..SYMMETRIES)
            .map(|s| *syms.cube(s))
            .filter(|s| s.co.iter().all(|&t| t < 3))
            .collect();
        Cube2Space {
            metric,
            moves,
            perm_moves,
            twist_moves,
            rotations,
        }
    }

    /// The metric of the moves.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The searched moves in index order (`MoveIdx` k is `moves()[k]`).
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The cube turned as a whole so that DBL is home and untwisted, and the index of the
    /// rotation used (for [`Cube2Space::reorient`]). Only the corners of `c` are read.
    pub fn canonical(&self, c: &CubieCube) -> (CubieCube, usize) {
        for (r, rot) in self.rotations.iter().enumerate() {
            let mut turned = CubieCube::SOLVED;
            c.corners_then_into(rot, &mut turned);
            if turned.cp[FIXED] == FIXED as u8 && turned.co[FIXED] == 0 {
                return (turned, r);
            }
        }
        unreachable!("one of the 24 rotations brings any corner home untwisted")
    }

    /// Rewrites moves found for the canonical cube of rotation `r` as the moves to make on
    /// the cube as it was given (each move conjugated back by the rotation).
    pub fn reorient(&self, moves: &[Move], r: usize) -> Vec<Move> {
        let rot = &self.rotations[r];
        let back = rot.inverse();
        moves
            .iter()
            .map(|m| {
                let target = rot.then(&m.cubie()).then(&back);
                // A face turn seen through a whole-cube rotation is the same turn of another
                // face; on the corners alone the six faces' turns all differ.
                (0..6u8)
                    .map(|face| Move {
                        face,
                        turns: m.turns,
                    })
                    .find(|c| {
                        let cc = c.cubie();
                        cc.cp == target.cp && cc.co == target.co
                    })
                    .expect("a rotated face turn is a face turn")
            })
            .collect()
    }

    /// The rank of a cube's corners (turned to the canonical orientation first).
    pub fn rank(&self, c: &CubieCube) -> u64 {
        let (c, _) = self.canonical(c);
        perm_part(&c) as u64 * TWISTS as u64 + twist_part(&c) as u64
    }

    /// The canonical cube of a rank (edges solved).
    pub fn unrank(&self, rank: u64) -> CubieCube {
        from_parts((rank / TWISTS as u64) as u32, (rank % TWISTS as u64) as u32)
    }
}

fn perm_part(c: &CubieCube) -> u32 {
    let mut p = [0u8; 7];
    for (k, &pos) in FREE.iter().enumerate() {
        let cubie = c.cp[pos];
        p[k] = if cubie as usize == CORNERS - 1 {
            FIXED as u8
        } else {
            cubie
        };
    }
    perm_rank(&p)
}

fn twist_part(c: &CubieCube) -> u32 {
    FREE[..6]
        .iter()
        .fold(0u32, |acc, &pos| acc * 3 + c.co[pos] as u32)
}

fn from_parts(perm: u32, mut twist: u32) -> CubieCube {
    let mut c = CubieCube::SOLVED;
    let mut p = [0u8; 7];
    super::coord::perm_unrank(perm, &mut p);
    let mut sum = 0;
    for (k, &pos) in FREE.iter().enumerate() {
        c.cp[pos] = if p[k] as usize == FIXED {
            (CORNERS - 1) as u8
        } else {
            p[k]
        };
    }
    for &pos in FREE[..6].iter().rev() {
        c.co[pos] = (twist % 3) as u8;
        sum += c.co[pos];
        twist /= 3;
    }
    c.co[CORNERS - 1] = (3 - sum % 3) % 3;
    c
}

impl RankedSpace for Cube2Space {
    fn state_count(&self) -> u128 {
        CUBE2_POSITIONS as u128
    }

    #[inline]
    fn rank_of(&self, state: u64) -> usize {
        state as usize
    }

    #[inline]
    fn state_at(&self, rank: usize) -> u64 {
        rank as u64
    }
}

impl StateSpace for Cube2Space {
    type State = u64;

    fn goal_state(&self) -> u64 {
        self.rank(&CubieCube::SOLVED)
    }

    fn move_count(&self) -> usize {
        self.moves.len()
    }

    /// Every move gives a neighbour: counted without making one.
    fn degree(&self, _: u64) -> usize {
        self.moves.len()
    }

    fn move_name(&self, m: MoveIdx) -> String {
        self.moves[m as usize].to_string()
    }

    fn inverse_move(&self, m: MoveIdx) -> MoveIdx {
        let inverse = self.moves[m as usize].inverse();
        self.metric
            .index_of(inverse)
            .expect("the inverse of a move is a move of the same metric")
    }

    /// In the quarter-turn metric every move is an odd permutation of the corners.
    fn same_level_possible(&self) -> bool {
        self.metric != Metric::Qtm
    }

    fn sequence_automaton(&self) -> SequenceAutomaton {
        self.metric.sequence_automaton()
    }

    #[inline]
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(MoveIdx, u64)) {
        let n = self.moves.len();
        let (p, t) = (
            (rank / TWISTS as u64) as usize,
            (rank % TWISTS as u64) as usize,
        );
        for k in 0..n {
            let next = self.perm_moves[p * n + k] as u64 * TWISTS as u64
                + self.twist_moves[t * n + k] as u64;
            f(k as MoveIdx, next);
        }
    }
}
