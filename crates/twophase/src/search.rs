//! The two-phase search: IDA* on phase-1 coordinates to `G1`, then for each way into `G1`
//! IDA* on phase-2 coordinates to solved, lengthening phase 1 while the total can still
//! improve, until a solution of at most the target length is found or the deadline passes.

use crate::coords::{self, MOVES, PHASE2_MOVES, SLICE_PERMS};
use crate::tables::Tables;
use godsearch_puzzles::cube::coord::{FLIPS, TWISTS};
use godsearch_puzzles::cube::notation::{apply_moves, Metric, Move};
use godsearch_puzzles::cube::symmetry::UD_SYMMETRIES;
use godsearch_puzzles::cube::CubieCube;
use std::time::Instant;
use thiserror::Error;

/// No two-phase solution is longer than this (phase 1 needs at most 12 moves, phase 2 18).
pub const LONGEST: usize = 30;
const PHASE2_COUNT: usize = PHASE2_MOVES.len();
const NO_FACE: usize = 6;
const UD_EDGE_PERMS: usize = coords::UD_EDGE_PERMS;
/// Nodes between two looks at the clock.
const CLOCK_EVERY: u64 = 1 << 12;

/// What to search for.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Stop as soon as a solution of at most this many moves (HTM) is found.
    pub target_length: usize,
    /// Give up improving at this moment and return the best solution so far.
    pub deadline: Option<Instant>,
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
    /// `true` when the search stopped at the deadline before reaching the target length.
    pub timed_out: bool,
}

/// Why no solution was returned.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SolveError {
    /// The cube is not reachable by face turns.
    #[error(transparent)]
    Invalid(#[from] godsearch_puzzles::cube::CubieError),
    /// The deadline passed before any solution was found.
    #[error("no solution found before the time limit")]
    Timeout,
    /// A solution failed its replay: a bug, reported rather than printed.
    #[error("internal error: a two-phase solution did not solve the cube on replay")]
    ReplayFailed,
}

/// `true` when move `m` may follow a move of face `last`: never the same face twice, and of two
/// opposite faces only the order `U D`, `R L`, `F B`.
#[inline]
fn allowed(m: usize, last: usize) -> bool {
    let face = m / 3;
    last == NO_FACE || (face != last && face + 3 != last)
}

struct Run<'t> {
    tables: &'t Tables,
    phase1: &'t [u8],
    phase2: &'t [u8],
    start: CubieCube,
    options: Options,
    path: [usize; LONGEST],
    best: Option<(Vec<usize>, usize)>,
    best_length: usize,
    nodes: u64,
    timed_out: bool,
}

/// Solves `cube` with the two-phase method.
///
/// Not optimal in general: the result has at most `options.target_length` moves unless the
/// deadline passed first (then `timed_out` is set and the best solution found is returned).
/// Every solution is replayed on `cube` before it is returned.
pub fn solve(tables: &Tables, cube: &CubieCube, options: Options) -> Result<Solution, SolveError> {
    cube.check()?;
    let mut run = Run {
        tables,
        phase1: tables.phase1(),
        phase2: tables.phase2(),
        start: *cube,
        options,
        path: [0; LONGEST],
        best: None,
        best_length: LONGEST + 1,
        nodes: 0,
        timed_out: false,
    };
    let (t, f, s) = (coords::twist(cube), coords::flip(cube), coords::slice(cube));
    let mut depth = run.phase1_bound(t, f, s) as usize;
    while depth < run.best_length && !run.done() {
        run.phase1(t, f, s, 0, depth, NO_FACE);
        depth += 1;
    }
    let (path, phase1_length) = run.best.ok_or(SolveError::Timeout)?;
    let moves: Vec<Move> = path
        .iter()
        .map(|&k| Move {
            face: (k / 3) as u8,
            turns: (k % 3 + 1) as u8,
        })
        .collect();
    if !apply_moves(cube, &moves).is_solved() {
        return Err(SolveError::ReplayFailed);
    }
    debug_assert_eq!(Metric::Htm.length(&moves), moves.len());
    Ok(Solution {
        moves,
        phase1_length,
        nodes: run.nodes,
        timed_out: run.timed_out,
    })
}

impl Run<'_> {
    fn done(&self) -> bool {
        self.best_length <= self.options.target_length || self.timed_out
    }

    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes % CLOCK_EVERY == 0 {
            if let Some(deadline) = self.options.deadline {
                if self.best.is_some() && Instant::now() >= deadline {
                    self.timed_out = true;
                }
            }
        }
    }

    /// Exact moves to `G1`, from the symmetry-reduced table.
    #[inline]
    fn phase1_bound(&self, t: u16, f: u16, s: u16) -> u8 {
        let tb = self.tables;
        let fs = s as usize * FLIPS + f as usize;
        let class = tb.flip_slice_class[fs] as usize;
        let sym = tb.flip_slice_to_rep[fs] as usize;
        let twist = tb.twist_conj[t as usize * UD_SYMMETRIES + sym] as usize;
        self.phase1[class * TWISTS + twist]
    }

    /// Phase-1 IDA* with exactly `depth` moves; `last` is the face of the previous move.
    fn phase1(&mut self, t: u16, f: u16, s: u16, done: usize, depth: usize, last: usize) {
        if done == depth {
            // In G1 (the bound is 0 exactly there). A last move inside G1 would mean G1 was
            // reached one move earlier, which the shorter depth already covered.
            let last_move_in_g1 = done > 0 && PHASE2_MOVES.contains(&self.path[done - 1]);
            if !last_move_in_g1 {
                self.enter_phase2(done);
            }
            return;
        }
        for m in 0..MOVES {
            if !allowed(m, last) {
                continue;
            }
            let tb = self.tables;
            let (nt, nf, ns) = (
                tb.twist_move[t as usize * MOVES + m],
                tb.flip_move[f as usize * MOVES + m],
                tb.slice_move[s as usize * MOVES + m],
            );
            let bound = self.phase1_bound(nt, nf, ns) as usize;
            if done + 1 + bound > depth {
                continue;
            }
            self.tick();
            self.path[done] = m;
            self.phase1(nt, nf, ns, done + 1, depth, m / 3);
            if self.done() {
                return;
            }
        }
    }

    fn enter_phase2(&mut self, phase1: usize) {
        let moves: Vec<Move> = self.path[..phase1]
            .iter()
            .map(|&k| Move {
                face: (k / 3) as u8,
                turns: (k % 3 + 1) as u8,
            })
            .collect();
        let c = apply_moves(&self.start, &moves);
        let (cp, ud, sp) = (
            coords::corner_perm(&c),
            coords::ud_edges(&c),
            coords::slice_perm(&c),
        );
        let last = if phase1 > 0 {
            self.path[phase1 - 1] / 3
        } else {
            NO_FACE
        };
        let room = self.best_length - 1 - phase1;
        let mut depth = self.phase2_bound(cp, ud, sp) as usize;
        while depth <= room {
            if self.phase2(cp, ud, sp, phase1, phase1 + depth, last) {
                self.best = Some((self.path[..phase1 + depth].to_vec(), phase1));
                self.best_length = phase1 + depth;
                return;
            }
            depth += 1;
        }
    }

    /// A lower bound on the phase-2 moves: exact in (corners, U/D edges) and in (corners,
    /// middle edges), the larger of the two.
    #[inline]
    fn phase2_bound(&self, cp: u16, ud: u16, sp: u16) -> u8 {
        let tb = self.tables;
        let class = tb.corner_class[cp as usize] as usize;
        let sym = tb.corner_to_rep[cp as usize] as usize;
        let edges = tb.ud_edge_conj[ud as usize * UD_SYMMETRIES + sym] as usize;
        self.phase2[class * UD_EDGE_PERMS + edges]
            .max(tb.corner_slice_perm[cp as usize * SLICE_PERMS + sp as usize])
    }

    /// Phase-2 IDA* to exactly `depth` total moves; `true` when solved.
    fn phase2(
        &mut self,
        cp: u16,
        ud: u16,
        sp: u16,
        done: usize,
        depth: usize,
        last: usize,
    ) -> bool {
        if done == depth {
            return cp == 0 && ud == 0 && sp == 0;
        }
        for (k, &m) in PHASE2_MOVES.iter().enumerate() {
            if !allowed(m, last) {
                continue;
            }
            let tb = self.tables;
            let (ncp, nud, nsp) = (
                tb.corner_move[cp as usize * PHASE2_COUNT + k],
                tb.ud_edge_move[ud as usize * PHASE2_COUNT + k],
                tb.slice_perm_move[sp as usize * PHASE2_COUNT + k],
            );
            if done + 1 + self.phase2_bound(ncp, nud, nsp) as usize > depth {
                continue;
            }
            self.tick();
            self.path[done] = m;
            if self.phase2(ncp, nud, nsp, done + 1, depth, m / 3) {
                return true;
            }
        }
        false
    }
}
