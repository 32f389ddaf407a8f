//! Plans (lists of stages) and the solver that runs them.

use crate::stage::{Stage, MAX_STAGE_TILES, TABLE_MAX_STATES};
use godsearch_core::{Cancelled, NoProgress, Progress};
use godsearch_puzzles::tiles::{Board, Move, Shape};
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use thiserror::Error;

/// A final sub-board of at most this many rows and columns is solved in one stage.
const FINAL_SIDE: usize = 3;

/// Why a plan cannot be used.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PlanError {
    /// A stage names a number that is not a tile of the board.
    #[error("'{0}' is not a tile of this board")]
    NotATile(String),
    /// A tile in two stages.
    #[error("tile {0} is in more than one stage")]
    Repeated(u16),
    /// A stage with too many tiles.
    #[error("a stage may place at most {MAX_STAGE_TILES} tiles; {0} given")]
    TooManyTiles(usize),
    /// The two-stage method is for the 3x3 board with the standard goal.
    #[error("the two-stage method is defined for the 3x3 board with the goal 1,2,3,4,5,6,7,8,0")]
    NotEightPuzzle,
}

/// The stages of a solver: groups of tiles placed in order; tiles in no group are placed by a
/// last stage. Data, not code: [`Plan::parse`] reads `1,2/3,4/5` and [`Plan::default_for`]
/// derives one from the board's shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    goal: Board,
    stages: Vec<Vec<u16>>,
}

impl Plan {
    /// The goal the plan's stages lead to.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// Stages written as tile groups separated by `/` (`1,2,3/4,7/5,6,8`).
    pub fn parse(text: &str, goal: &Board) -> Result<Self, PlanError> {
        let n = goal.shape().cells() as u16;
        let mut seen = vec![false; n as usize];
        let mut stages = Vec::new();
        for group in text.split('/') {
            let mut tiles = Vec::new();
            for token in group
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|t| !t.is_empty())
            {
                let t: u16 = token
                    .parse()
                    .ok()
                    .filter(|&t| t > 0 && t < n)
                    .ok_or_else(|| PlanError::NotATile(godsearch_core::excerpt(token)))?;
                if std::mem::replace(&mut seen[t as usize], true) {
                    return Err(PlanError::Repeated(t));
                }
                tiles.push(t);
            }
            if tiles.len() > MAX_STAGE_TILES {
                return Err(PlanError::TooManyTiles(tiles.len()));
            }
            if !tiles.is_empty() {
                stages.push(tiles);
            }
        }
        Ok(Self {
            goal: goal.clone(),
            stages,
        }
        .completed())
    }

    /// The reference method for the 8-puzzle: tiles 1, 2, 3 first (the top row), then the 2x3
    /// sub-board left below.
    pub fn two_stage(goal: &Board) -> Result<Self, PlanError> {
        if *goal != Board::goal(Shape::new(3, 3).expect("3x3 is a board")) {
            return Err(PlanError::NotEightPuzzle);
        }
        Self::parse("1,2,3", goal)
    }

    /// Peels rows and columns off the board (the side away from the goal's blank, the longer
    /// dimension first) until a sub-board of at most 3x3 is left, which is one last stage. A
    /// line's tiles are placed as many at once as keep the stage's table small, never the last
    /// one alone (see `line_groups`).
    pub fn default_for(goal: &Board) -> Self {
        Self::peeled(
            goal,
            Peel {
                rows_first: true,
                final_rows: FINAL_SIDE,
                final_cols: FINAL_SIDE,
            },
        )
    }

    /// A few different peeling orders (rows or columns first; a last 3x3, 2x4 or 4x2
    /// sub-board): [`SubgoalSolver::portfolio`] solves with each and keeps the shortest.
    pub fn variants(goal: &Board) -> Vec<Self> {
        let mut plans: Vec<Self> = [
            Peel {
                rows_first: true,
                final_rows: FINAL_SIDE,
                final_cols: FINAL_SIDE,
            },
            Peel {
                rows_first: false,
                final_rows: FINAL_SIDE,
                final_cols: FINAL_SIDE,
            },
            Peel {
                rows_first: true,
                final_rows: 2,
                final_cols: 4,
            },
            Peel {
                rows_first: false,
                final_rows: 4,
                final_cols: 2,
            },
        ]
        .into_iter()
        .map(|peel| Self::peeled(goal, peel))
        .collect();
        plans.dedup();
        plans
    }

    fn peeled(goal: &Board, peel: Peel) -> Self {
        let shape = goal.shape();
        let (mut top, mut bottom, mut left, mut right) = (0, shape.height(), 0, shape.width());
        let (blank_row, blank_col) = shape.row_col(goal.blank());
        let mut stages = Vec::new();
        let tile_at = |r: usize, c: usize| goal.cells()[r * shape.width() + c];
        loop {
            let (h, w) = (bottom - top, right - left);
            let (can_row, can_col) = (h > peel.final_rows, w > peel.final_cols);
            if !can_row && !can_col {
                break;
            }
            let take_row = match (can_row, can_col) {
                (true, true) if peel.rows_first => h >= w,
                (true, true) => h > w,
                (row, _) => row,
            };
            let free = h * w;
            let line: Vec<u16> = if take_row {
                let row = if blank_row != top { top } else { bottom - 1 };
                if row == top {
                    top += 1
                } else {
                    bottom -= 1
                }
                (left..right).map(|c| tile_at(row, c)).collect()
            } else {
                let col = if blank_col != left { left } else { right - 1 };
                if col == left {
                    left += 1
                } else {
                    right -= 1
                }
                (top..bottom).map(|r| tile_at(r, col)).collect()
            };
            stages.extend(line_groups(&line, free));
        }
        // The sub-board left is one last stage (at most 3x3, 2x4 or 4x2: 8 tiles).
        let last: Vec<u16> = (top..bottom)
            .flat_map(|r| (left..right).map(move |c| (r, c)))
            .map(|(r, c)| tile_at(r, c))
            .filter(|&t| t != 0)
            .collect();
        stages.push(last);
        Self {
            goal: goal.clone(),
            stages,
        }
    }

    /// Places every tile no stage names, in the groups and order of the default plan.
    fn completed(mut self) -> Self {
        let named: Vec<u16> = self.stages.concat();
        for group in Self::default_for(&self.goal).stages {
            let rest: Vec<u16> = group.into_iter().filter(|t| !named.contains(t)).collect();
            if !rest.is_empty() {
                self.stages.push(rest);
            }
        }
        self
    }

    /// The tile groups, in order.
    pub fn stages(&self) -> &[Vec<u16>] {
        &self.stages
    }

    /// The plan written as `parse` reads it.
    pub fn to_text(&self) -> String {
        self.stages
            .iter()
            .map(|g| {
                g.iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// How [`Plan::peeled`] takes a board apart.
#[derive(Debug, Clone, Copy)]
struct Peel {
    /// Peel a row rather than a column when the remaining region is square.
    rows_first: bool,
    /// Stop peeling rows at this many.
    final_rows: usize,
    /// Stop peeling columns at this many.
    final_cols: usize,
}

/// Splits a line of tiles (a row or column being peeled) into stages: as many tiles at once as
/// keep the stage's table small on a region of `free` cells, never leaving one tile alone at the
/// end (the last tile of a line cannot be slid in without moving the one before it).
fn line_groups(line: &[u16], free: usize) -> Vec<Vec<u16>> {
    let states =
        |k: usize| (0..=k as u64).try_fold(1u64, |acc, i| acc.checked_mul(free as u64 - i));
    let fits = |k: usize| free <= 64 && states(k).is_some_and(|s| s <= TABLE_MAX_STATES);
    let mut groups = Vec::new();
    let mut at = 0;
    while at < line.len() {
        let left = line.len() - at;
        let mut k = (1..=left.min(MAX_STAGE_TILES))
            .rev()
            .find(|&k| fits(k))
            .unwrap_or(1);
        if left == 2 || (left - k == 1 && k == 1) {
            k = 2;
        } else if left - k == 1 {
            k -= 1;
        }
        groups.push(line[at..at + k].to_vec());
        at += k;
    }
    groups
}

/// Why a board could not be solved by a plan.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SubgoalError {
    /// A stage found no way to place its tiles within the cells left free.
    #[error("stage {stage} (tiles {tiles:?}) has no solution in the cells left free; the plan does not fit this board")]
    StageFailed {
        /// 1-based stage number.
        stage: usize,
        /// Its tiles.
        tiles: Vec<u16>,
    },
}

/// A solver for one plan, with every stage's table built once.
#[derive(Debug)]
pub struct SubgoalSolver {
    plan: Plan,
    stages: Vec<Stage>,
    effort: usize,
}

/// Stage endings compared by default (see [`SubgoalSolver::with_effort`]).
pub const DEFAULT_EFFORT: usize = 8;

impl SubgoalSolver {
    /// Builds the stages of `plan` (tables for the small ones, several at once).
    pub fn new(plan: Plan) -> Self {
        Self::build(plan, &NoProgress).expect("NoProgress never cancels")
    }

    /// [`new`](Self::new), stopping with `Cancelled` when `progress` asks (only its cancel
    /// is read: the stages build side by side).
    pub fn build(plan: Plan, progress: &dyn Progress) -> Result<Self, Cancelled> {
        let mut stages = Self::stages_of(&plan);
        stages
            .par_iter_mut()
            .try_for_each(|stage| stage.build_table_watched(progress))?;
        Ok(Self {
            plan,
            stages,
            effort: DEFAULT_EFFORT,
        })
    }

    /// The stages of `plan` with the tables `tables` (as [`tables`](Self::tables) gave them
    /// for the same plan) instead of building them; `None` when they do not fit the plan.
    pub fn with_tables(plan: Plan, tables: &[u8]) -> Option<Self> {
        let mut stages = Self::stages_of(&plan);
        let mut rest = tables;
        for stage in &mut stages {
            if let Some(size) = stage.table_size() {
                let (bytes, tail) = rest.split_at_checked(size)?;
                stage.set_table(bytes)?;
                rest = tail;
            }
        }
        rest.is_empty().then_some(Self {
            plan,
            stages,
            effort: DEFAULT_EFFORT,
        })
    }

    /// Every stage table, one after another in stage order: what
    /// [`with_tables`](Self::with_tables) takes back.
    pub fn tables(&self) -> Vec<u8> {
        self.stages
            .iter()
            .filter_map(Stage::table_bytes)
            .flatten()
            .copied()
            .collect()
    }

    /// Entries of all the plan's stage tables (what building them costs, about 20 ns each).
    pub fn table_entries(plan: &Plan) -> u64 {
        Self::stages_of(plan)
            .iter()
            .filter_map(Stage::table_size)
            .map(|n| n as u64)
            .sum()
    }

    /// The stages of `plan`, tables not built: each group of tiles on the cells left free by
    /// the groups before it, with a pair's set-up stages before a searched pair.
    fn stages_of(plan: &Plan) -> Vec<Stage> {
        let goal = &plan.goal;
        let mut fixed = vec![false; goal.shape().cells()];
        let mut stages = Vec::new();
        for tiles in &plan.stages {
            let free: Vec<u16> = (0..fixed.len() as u16)
                .filter(|&c| !fixed[c as usize])
                .collect();
            let stage = Stage::without_table(goal, tiles, &free);
            if !stage.takes_table() {
                stages.extend(pair_setup(goal, tiles, &free));
            }
            stages.push(stage);
            for &t in tiles {
                fixed[goal.cells().iter().position(|&x| x == t).expect("a tile")] = true;
            }
        }
        stages
    }

    /// Keeps up to `effort` partial solutions after each stage (a beam), each table stage
    /// contributing up to `effort` different optimal endings, ranked by length plus what the
    /// next stage still needs: more effort, shorter solutions, more time.
    pub fn with_effort(mut self, effort: usize) -> Self {
        self.effort = effort.max(1);
        self
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// A solution (not in general optimal) of a board that reaches the goal: each stage's moves
    /// in turn, then shortened by cutting every loop that returns to a board already visited.
    pub fn solve(&self, board: &Board) -> Result<Vec<Move>, SubgoalError> {
        // A beam of partial solutions: after each stage keep the `effort` shortest, judged by
        // their length plus the next stage's exact distance where it has a table.
        let mut beam: Vec<(Board, Vec<Move>)> = vec![(board.clone(), Vec::new())];
        for (i, stage) in self.stages.iter().enumerate() {
            let next = self.stages.get(i + 1);
            let mut candidates: Vec<(u32, Board, Vec<Move>)> = Vec::new();
            for (at, moves) in &beam {
                for path in stage.solve_options(at, self.effort).unwrap_or_default() {
                    let mut b = at.clone();
                    for &m in &path {
                        b.apply(m);
                    }
                    let mut all = moves.clone();
                    all.extend_from_slice(&path);
                    let score = all.len() as u32 + next.and_then(|n| n.distance(&b)).unwrap_or(0);
                    candidates.push((score, b, all));
                }
            }
            if candidates.is_empty() && stage.is_optional() {
                continue;
            }
            if candidates.is_empty() {
                return Err(SubgoalError::StageFailed {
                    stage: i + 1,
                    tiles: stage.tiles().to_vec(),
                });
            }
            candidates.sort_by_key(|c| c.0);
            candidates.dedup_by(|a, b| a.1 == b.1);
            candidates.truncate(self.effort);
            beam = candidates.into_iter().map(|(_, b, m)| (b, m)).collect();
        }
        let (_, moves) = beam
            .into_iter()
            .next()
            .expect("a stage left at least one candidate");
        Ok(remove_loops(board, &moves))
    }
}

/// For the last two tiles `a`, `b` of a line (homes side by side, `b`'s at the end), the
/// classic set-up, as two one-tile stages: `a` onto `b`'s home, then `b` just inside the free
/// region beside it (with `a` held); from there the pair drops into place in two moves once the
/// blank reaches `a`'s home. Searched as one stage, the pair's detour is invisible to the A*
/// heuristic and the search floods the region (seconds on a 20x20 board); the set-up stages
/// are quick. Both are optional: when placing `a` leaves `b` on `a`'s home (a dead end once
/// `b`'s home is held), the blank could never get `b` out, the second step finds nothing, and
/// the pair stage searches that case itself. Empty when the tiles are not such a pair.
fn pair_setup(goal: &Board, tiles: &[u16], free: &[u16]) -> Vec<Stage> {
    let [a, b] = tiles else { return Vec::new() };
    let shape = goal.shape();
    let home = |t: u16| goal.cells().iter().position(|&x| x == t).expect("a tile");
    let (ha, hb) = (home(*a), home(*b));
    let is_free = |c: usize| free.contains(&(c as u16));
    let Some(along) = Move::ALL
        .into_iter()
        .find(|&m| shape.step(ha, m) == Some(hb))
    else {
        return Vec::new();
    };
    // `b`'s home must end the line: the next cell along is not free.
    if shape.step(hb, along).is_some_and(is_free) {
        return Vec::new();
    }
    // Inward: free, with a free cell beside it on `a`'s side (the region goes on there).
    let inward = Move::ALL
        .into_iter()
        .filter(|&m| m != along && m != along.inverse())
        .filter_map(|m| shape.step(hb, m))
        .find(|&c| is_free(c) && shape.step(c, along.inverse()).is_some_and(is_free));
    let Some(inward) = inward else {
        return Vec::new();
    };
    let without_hb: Vec<u16> = free.iter().copied().filter(|&c| c as usize != hb).collect();
    vec![
        Stage::to_targets(shape, &[*a], &[hb as u16], free).optional(),
        Stage::to_targets(shape, &[*b], &[inward as u16], &without_hb).optional(),
    ]
}

/// Several solvers for one goal; a board gets the shortest of their solutions.
#[derive(Debug)]
pub struct Portfolio {
    solvers: Vec<SubgoalSolver>,
}

impl SubgoalSolver {
    /// A portfolio of every [`Plan::variants`] with the given effort.
    pub fn portfolio(goal: &Board, effort: usize) -> Portfolio {
        Portfolio::of(Plan::variants(goal), effort)
    }
}

impl Portfolio {
    /// Solvers for `plans`, each with `effort`.
    pub fn of(plans: Vec<Plan>, effort: usize) -> Self {
        Portfolio {
            solvers: plans
                .into_iter()
                .map(|p| SubgoalSolver::new(p).with_effort(effort))
                .collect(),
        }
    }

    /// A portfolio of solvers made elsewhere (for example with cached tables).
    pub fn of_solvers(solvers: Vec<SubgoalSolver>) -> Self {
        Portfolio { solvers }
    }

    /// The plans tried, written as [`Plan::parse`] reads them.
    pub fn plans(&self) -> Vec<String> {
        self.solvers.iter().map(|s| s.plan().to_text()).collect()
    }

    /// The shortest solution any plan finds; an error only if every plan fails.
    pub fn solve(&self, board: &Board) -> Result<Vec<Move>, SubgoalError> {
        let mut best: Option<Vec<Move>> = None;
        let mut last_error = None;
        for solver in &self.solvers {
            match solver.solve(board) {
                Ok(moves) if best.as_ref().is_none_or(|b| moves.len() < b.len()) => {
                    best = Some(moves)
                }
                Ok(_) => {}
                Err(e) => last_error = Some(e),
            }
        }
        best.ok_or_else(|| last_error.expect("at least one plan"))
    }
}

/// Removes every stretch of moves that comes back to a board visited before it (an inverse pair
/// is the shortest such loop). The result reaches the same board.
pub fn remove_loops(start: &Board, moves: &[Move]) -> Vec<Move> {
    // Boards are recognised by a hash kept up to date move by move (the XOR of a mixed value
    // for every tile-and-cell pair), so no board is copied per move; a repeat is confirmed by
    // undoing the loop on a copy before it is cut.
    let cell_hash = |tile: u16, cell: usize| splitmix64(((tile as u64) << 32) | cell as u64);
    let mut board = start.clone();
    let mut hash = board
        .cells()
        .iter()
        .enumerate()
        .fold(0, |h, (c, &t)| h ^ cell_hash(t, c));
    let mut path: Vec<Move> = Vec::with_capacity(moves.len());
    let mut hashes: Vec<u64> = vec![hash];
    let mut index: HashMap<u64, usize, BuildHasherDefault<MixedKey>> = HashMap::default();
    index.insert(hash, 0);
    for &m in moves {
        let (from, to) = (
            board.blank(),
            board.target(m).expect("solver moves stay on the board"),
        );
        let tile = board.cells()[to];
        board.apply(m);
        hash ^= cell_hash(tile, to) ^ cell_hash(tile, from) ^ cell_hash(0, from) ^ cell_hash(0, to);
        path.push(m);
        if let Some(&earlier) = index.get(&hash) {
            let mut undone = board.clone();
            for &back in path[earlier..].iter().rev() {
                undone.apply(back.inverse());
            }
            if undone == board {
                for h in hashes.drain(earlier + 1..) {
                    index.remove(&h);
                }
                path.truncate(earlier);
                continue;
            }
        }
        index.insert(hash, hashes.len());
        hashes.push(hash);
    }
    path
}

/// The hasher of keys that are already well-mixed 64-bit hashes (the board hashes of
/// [`remove_loops`]): it passes them through, where the default SipHash would spend about a
/// fifth of a 3x3 two-stage solve hashing them again.
#[derive(Default)]
struct MixedKey(u64);

impl Hasher for MixedKey {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = splitmix64(self.0 ^ b as u64);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// A 64-bit mixing function (splitmix64's finaliser): distinct inputs give unrelated outputs.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
