//! One stage: a small puzzle over the positions of its tiles and the blank among the free cells.
//!
//! A stage is a state space ([`StageSpace`]: positions as cell arrays, every position with its
//! tiles home a goal), and uses the generic engines through it: on regions of at most 64 cells
//! the space is ranked (placements of the tiles and the blank), so the table engine builds its
//! exact distance table (one byte a position, from all goals at once) and table descent walks
//! it; larger stages are searched by A* with [`StageEstimate`], the blank kept inside a window
//! of the region.

use godsearch_core::perm::{placement_cells, placement_index};
use godsearch_core::{
    CancelOnly, Cancelled, Heuristic, MoveIdx, NoProgress, Progress, RankedSpace, StateSpace,
};
use godsearch_enumerate::{table, Limits, Stop};
use godsearch_puzzles::tiles::{Board, Move, Shape};
use godsearch_search::{astar, descend};
use godsearch_tables::ByteView;
use rustc_hash::FxHashSet;

/// Marks a cell outside the stage's region.
const OUTSIDE: u16 = u16::MAX;
/// No stage distance exceeds what a table byte holds.
const MAX_STAGE_DISTANCE: usize = u8::MAX as usize;
/// The most tiles one stage places.
pub const MAX_STAGE_TILES: usize = 8;
/// Margins (in cells) of the windows A* tries before the whole region.
const SEARCH_MARGINS: [usize; 2] = [1, 3];
/// Stage spaces of at most this many states get a distance table (a 3x3 sub-board in one stage
/// is 362,880); larger ones are searched with A*.
pub(crate) const TABLE_MAX_STATES: u64 = 4_000_000;

/// How a stage finds its moves.
#[derive(Debug)]
pub enum StageMethod {
    /// Descent of an exact distance table of the stage space: one byte a ranked position, as
    /// [`ByteView`] reads it.
    Table(Vec<u8>),
    /// A* over the stage space, per board.
    Search,
}

/// A stage: the tiles it brings home and the free cells it may use (the rest are fixed).
#[derive(Debug)]
pub struct Stage {
    shape: Shape,
    tiles: Vec<u16>,
    /// Home of each tile, as a local cell.
    homes: Vec<u16>,
    /// Global cell of each local cell.
    cells: Vec<u16>,
    /// Local cell of each global cell, or [`OUTSIDE`].
    local: Vec<u16>,
    /// Local neighbours of each local cell, with the blank's move that reaches them.
    neighbours: Vec<Vec<(u16, Move)>>,
    method: StageMethod,
    /// A helping step (a set-up before a pair): when it finds nothing, the solver goes on
    /// without it and the next stage starts from where this one would have.
    optional: bool,
}

/// A stage position: local cells of the stage's tiles, then the blank's. A fixed array, so the
/// searches copy positions instead of allocating them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct State {
    cells: [u16; MAX_STAGE_TILES + 1],
    len: u8,
}

impl State {
    fn from_slice(cells: &[u16]) -> Self {
        let mut s = State {
            cells: [0; MAX_STAGE_TILES + 1],
            len: cells.len() as u8,
        };
        s.cells[..cells.len()].copy_from_slice(cells);
        s
    }
}

impl std::ops::Deref for State {
    type Target = [u16];
    fn deref(&self) -> &[u16] {
        &self.cells[..self.len as usize]
    }
}

impl std::ops::DerefMut for State {
    fn deref_mut(&mut self) -> &mut [u16] {
        &mut self.cells[..self.len as usize]
    }
}

impl Stage {
    /// The stage placing `tiles` (home as in `goal`) using only the cells in `free`; small
    /// stages get their distance table built now.
    pub fn new(goal: &Board, tiles: &[u16], free: &[u16]) -> Self {
        let mut stage = Self::without_table(goal, tiles, free);
        stage.build_table_if_small();
        stage
    }

    /// [`new`](Self::new) without building the table: the stage searches until it gets one
    /// ([`build_table_if_small`](Self::build_table_if_small), [`set_table`](Self::set_table)).
    pub fn without_table(goal: &Board, tiles: &[u16], free: &[u16]) -> Self {
        let home = |t: u16| {
            goal.cells()
                .iter()
                .position(|&x| x == t)
                .expect("a tile of the board") as u16
        };
        let targets: Vec<u16> = tiles.iter().map(|&t| home(t)).collect();
        Self::to_targets(goal.shape(), tiles, &targets, free)
    }

    /// Whether the stage is small enough for a distance table.
    pub fn takes_table(&self) -> bool {
        self.table_size().is_some()
    }

    /// Bytes of the stage's distance table (one a position), when it takes one.
    pub fn table_size(&self) -> Option<usize> {
        self.table_states()
            .filter(|&n| n <= TABLE_MAX_STATES)
            .map(|n| n as usize)
    }

    /// Builds the distance table when the stage takes one.
    pub fn build_table_if_small(&mut self) {
        self.build_table_watched(&NoProgress)
            .expect("NoProgress never cancels");
    }

    /// [`build_table_if_small`](Self::build_table_if_small), stopping with `Cancelled` (the
    /// stage left without a table) when `progress` asks; only its cancel is read.
    pub fn build_table_watched(&mut self, progress: &dyn Progress) -> Result<(), Cancelled> {
        if self.takes_table() {
            self.method = StageMethod::Table(self.build_table(progress)?);
        }
        Ok(())
    }

    /// Gives the stage the table `bytes` (as [`table_bytes`](Self::table_bytes) gave it);
    /// `None` when the stage takes no table or `bytes` has the wrong length.
    pub fn set_table(&mut self, bytes: &[u8]) -> Option<()> {
        (self.table_size()? == bytes.len()).then(|| {
            self.method = StageMethod::Table(bytes.to_vec());
        })
    }

    /// The stage bringing `tiles` to `targets` on the cells `free`, with no table yet.
    pub fn to_targets(shape: Shape, tiles: &[u16], targets: &[u16], free: &[u16]) -> Self {
        let mut local = vec![OUTSIDE; shape.cells()];
        for (i, &c) in free.iter().enumerate() {
            local[c as usize] = i as u16;
        }
        let neighbours = free
            .iter()
            .map(|&c| {
                Move::ALL
                    .into_iter()
                    .filter_map(|mv| shape.step(c as usize, mv).map(|to| (to, mv)))
                    .filter(|&(to, _)| local[to] != OUTSIDE)
                    .map(|(to, mv)| (local[to], mv))
                    .collect()
            })
            .collect();
        Stage {
            shape,
            tiles: tiles.to_vec(),
            homes: targets.iter().map(|&c| local[c as usize]).collect(),
            cells: free.to_vec(),
            local,
            neighbours,
            method: StageMethod::Search,
            optional: false,
        }
    }

    /// Marks the stage as a helping step the solver may skip (see [`Stage::is_optional`]).
    pub fn optional(mut self) -> Self {
        self.optional = true;
        self
    }

    /// Whether the solver may go on without this stage when it finds no solution.
    pub fn is_optional(&self) -> bool {
        self.optional
    }

    /// Whether the stage is searched (A*) rather than read from a table.
    pub fn is_search(&self) -> bool {
        matches!(self.method, StageMethod::Search)
    }

    /// The tiles this stage places.
    pub fn tiles(&self) -> &[u16] {
        &self.tiles
    }

    /// How it finds its moves.
    pub fn method(&self) -> &StageMethod {
        &self.method
    }

    /// The stage's distance table as bytes (one a ranked position), for saving.
    pub fn table_bytes(&self) -> Option<&[u8]> {
        match &self.method {
            StageMethod::Table(t) => Some(t),
            StageMethod::Search => None,
        }
    }

    /// Number of states `R!/(R-k-1)!`, when the region is small enough to index (64 cells).
    fn table_states(&self) -> Option<u64> {
        let r = self.cells.len() as u64;
        if r > 64 || self.tiles.len() + 1 > self.cells.len() {
            return None;
        }
        (0..=self.tiles.len() as u64).try_fold(1u64, |acc, i| acc.checked_mul(r - i))
    }

    /// Whether the stage's tiles are at their targets (compared in a loop: a call to `memcmp`
    /// for a few cells costs more than the cells).
    #[inline]
    fn is_goal(&self, state: &[u16]) -> bool {
        state.iter().zip(&self.homes).all(|(a, b)| a == b)
    }

    /// Calls `f(next_state, move)` for every move of the blank within the region.
    #[inline]
    fn for_each_move(&self, state: &[u16], mut f: impl FnMut(State, Move)) {
        let k = self.tiles.len();
        let blank = state[k];
        for &(to, mv) in &self.neighbours[blank as usize] {
            let mut next = State::from_slice(state);
            if let Some(t) = state[..k].iter().position(|&c| c == to) {
                next[t] = blank;
            }
            next[k] = to;
            f(next, mv);
        }
    }

    /// Exact distances of every ranked stage position to the stage's goals, by the table
    /// engine from all of them at once.
    fn build_table(&self, progress: &dyn Progress) -> Result<Vec<u8>, Cancelled> {
        let limits = Limits {
            max_depth: None,
            memory_bytes: u64::MAX,
            antipode_cap: 0,
            count_last: false,
        };
        let built =
            table::enumerate_exact(&StageSpace::whole(self), &limits, &CancelOnly(progress))
                .expect("a stage table has at most TABLE_MAX_STATES entries and a short diameter");
        if let Stop::Cancelled(_) = built.enumeration.stop {
            return Err(Cancelled);
        }
        debug_assert_eq!(built.enumeration.stop, Stop::Complete);
        Ok(built.table.into_bytes())
    }

    /// The stage's position on `board`, or `None` if a stage tile or the blank is on a fixed cell.
    fn state_of(&self, board: &Board) -> Option<State> {
        let cell_of = |t: u16| {
            board
                .cells()
                .iter()
                .position(|&x| x == t)
                .expect("a tile of the board")
        };
        let mut cells: Vec<u16> = self.tiles.iter().map(|&t| self.local[cell_of(t)]).collect();
        cells.push(self.local[board.blank()]);
        cells
            .iter()
            .all(|&c| c != OUTSIDE)
            .then(|| State::from_slice(&cells))
    }

    /// A shortest move sequence (within the stage's region) that brings the stage's tiles home.
    /// `None` when the board has a stage tile or the blank on a fixed cell, or no solution exists
    /// inside the region.
    pub fn solve(&self, board: &Board) -> Option<Vec<Move>> {
        let start = self.state_of(board)?;
        match &self.method {
            StageMethod::Table(bytes) => {
                let (space, table) = (StageSpace::whole(self), ByteView::new(bytes));
                let moves = descend(&space, &table, start, MAX_STAGE_DISTANCE).ok()?;
                Some(moves.into_iter().map(Move::from_index).collect())
            }
            StageMethod::Search => self.search(start),
        }
    }

    /// The exact stage distance of `board`, for table stages.
    pub fn distance(&self, board: &Board) -> Option<u32> {
        match &self.method {
            StageMethod::Table(bytes) => {
                let rank = StageSpace::whole(self).rank_of(self.state_of(board)?);
                ByteView::new(bytes).distance(rank).map(u32::from)
            }
            StageMethod::Search => None,
        }
    }

    /// Shortest move sequences to up to `cap` different end positions of the stage (table
    /// stages follow every optimal path, level by level, keeping at most `cap` positions a
    /// level; search stages give their one solution).
    pub fn solve_options(&self, board: &Board, cap: usize) -> Option<Vec<Vec<Move>>> {
        let StageMethod::Table(bytes) = &self.method else {
            return self.solve(board).map(|m| vec![m]);
        };
        if cap <= 1 {
            return self.solve(board).map(|m| vec![m]);
        }
        let (space, table) = (StageSpace::whole(self), ByteView::new(bytes));
        let start = self.state_of(board)?;
        let mut d = table.distance(space.rank_of(start))?;
        // Each level: stage positions with the whole board and the moves so far. Paths are told
        // apart by the whole board, since where the other tiles end up matters to later stages.
        let mut level: Vec<(State, Board, Vec<Move>)> = vec![(start, board.clone(), Vec::new())];
        while d > 0 {
            let mut next: Vec<(State, Board, Vec<Move>)> = Vec::new();
            // Fx, not SipHash: hashing whole boards was a fifth of a 4x4 solve.
            let mut seen = FxHashSet::default();
            for (s, b, path) in &level {
                space.for_each_neighbour(*s, |m, n| {
                    if next.len() < cap && table.distance(space.rank_of(n)) == Some(d - 1) {
                        let mv = Move::from_index(m);
                        let mut moved = b.clone();
                        moved.apply(mv);
                        if seen.insert(moved.clone()) {
                            let mut p = path.clone();
                            p.push(mv);
                            next.push((n, moved, p));
                        }
                    }
                });
            }
            level = next;
            d -= 1;
        }
        Some(level.into_iter().map(|(_, _, p)| p).collect())
    }

    fn manhattan(&self, a: u16, b: u16) -> u32 {
        let (ra, ca) = self.shape.row_col(self.cells[a as usize] as usize);
        let (rb, cb) = self.shape.row_col(self.cells[b as usize] as usize);
        (ra.abs_diff(rb) + ca.abs_diff(cb)) as u32
    }

    /// Admissible: each move slides one tile one cell, and before the first tile that is not home
    /// can move, the blank must walk next to it.
    fn estimate(&self, s: &[u16]) -> u32 {
        let k = self.tiles.len();
        let tiles: u32 = (0..k).map(|i| self.manhattan(s[i], self.homes[i])).sum();
        let approach = (0..k)
            .filter(|&i| s[i] != self.homes[i])
            .map(|i| self.manhattan(s[k], s[i]).saturating_sub(1))
            .min()
            .unwrap_or(0);
        tiles + approach
    }

    /// A* inside a window around the stage's tiles and their targets, widened until a solution
    /// appears (the last try is the whole region, so nothing solvable is missed). A blank outside
    /// the window first walks to it by a shortest path that moves no stage tile, so the window
    /// does not grow with the blank's distance: on a 20x20 board that keeps every search small.
    /// The result is shortest within the window, not over the whole region.
    fn search(&self, start: State) -> Option<Vec<Move>> {
        let w = self.shape.width();
        let k = self.tiles.len();
        let spots = start[..k]
            .iter()
            .chain(&self.homes)
            .map(|&c| self.shape.row_col(self.cells[c as usize] as usize));
        let (mut r0, mut r1, mut c0, mut c1) = (usize::MAX, 0, usize::MAX, 0);
        for (r, c) in spots {
            (r0, r1, c0, c1) = (r0.min(r), r1.max(r), c0.min(c), c1.max(c));
        }
        for margin in SEARCH_MARGINS {
            let inside: Vec<bool> = self
                .cells
                .iter()
                .map(|&g| {
                    let (r, c) = (g as usize / w, g as usize % w);
                    r + margin >= r0 && r <= r1 + margin && c + margin >= c0 && c <= c1 + margin
                })
                .collect();
            let Some((mut walk, entered)) = self.walk_blank_into(&start, &inside) else {
                continue;
            };
            if let Some(moves) = self.astar(entered, &inside) {
                walk.extend(moves);
                return Some(walk);
            }
        }
        self.astar(start, &vec![true; self.cells.len()])
    }

    /// The blank's shortest walk into `inside` that slides no stage tile, and the position after
    /// it; empty when the blank is inside already.
    fn walk_blank_into(&self, start: &State, inside: &[bool]) -> Option<(Vec<Move>, State)> {
        let k = self.tiles.len();
        let blank = start[k];
        if inside[blank as usize] {
            return Some((Vec::new(), *start));
        }
        let mut parent: Vec<Option<(u16, Move)>> = vec![None; self.cells.len()];
        let mut queue = std::collections::VecDeque::from([blank]);
        let mut visited = vec![false; self.cells.len()];
        visited[blank as usize] = true;
        while let Some(at) = queue.pop_front() {
            if inside[at as usize] {
                let mut walk = Vec::new();
                let mut c = at;
                while let Some((from, mv)) = parent[c as usize] {
                    walk.push(mv);
                    c = from;
                }
                walk.reverse();
                let mut entered = *start;
                entered[k] = at;
                return Some((walk, entered));
            }
            for &(to, mv) in &self.neighbours[at as usize] {
                if !visited[to as usize] && !start[..k].contains(&to) {
                    visited[to as usize] = true;
                    parent[to as usize] = Some((at, mv));
                    queue.push_back(to);
                }
            }
        }
        None
    }

    /// A* with [`StageEstimate`] over the stage positions whose blank stays `inside`.
    fn astar(&self, start: State, inside: &[bool]) -> Option<Vec<Move>> {
        let window = StageSpace {
            stage: self,
            window: Some(inside),
        };
        let path = astar(&window, &StageEstimate(self), start, u64::MAX).ok()?;
        Some(path.moves.into_iter().map(Move::from_index).collect())
    }
}

/// A stage's positions as a space: cell arrays, goals where the stage's tiles are at their
/// targets (the blank anywhere else), and the blank kept inside a window of the region when
/// one is given. Ranked as placements (the tiles, then the blank) on regions of at most 64
/// cells, so the table engine can index it.
struct StageSpace<'a> {
    stage: &'a Stage,
    window: Option<&'a [bool]>,
}

impl<'a> StageSpace<'a> {
    /// The whole region.
    fn whole(stage: &'a Stage) -> Self {
        StageSpace {
            stage,
            window: None,
        }
    }
}

impl StateSpace for StageSpace<'_> {
    type State = State;

    fn goal_state(&self) -> State {
        let stage = self.stage;
        let mut cells = stage.homes.clone();
        let blank = (0..stage.cells.len() as u16)
            .find(|c| !stage.homes.contains(c))
            .expect("a free cell for the blank");
        cells.push(blank);
        State::from_slice(&cells)
    }

    fn is_goal(&self, state: State) -> bool {
        self.stage.is_goal(&state)
    }

    fn for_each_goal(&self, mut f: impl FnMut(State)) {
        let stage = self.stage;
        let mut cells = stage.homes.clone();
        cells.push(0);
        for blank in 0..stage.cells.len() as u16 {
            if !stage.homes.contains(&blank) {
                *cells.last_mut().expect("the blank") = blank;
                f(State::from_slice(&cells));
            }
        }
    }

    fn move_count(&self) -> usize {
        Move::ALL.len()
    }

    fn move_name(&self, m: MoveIdx) -> String {
        Move::name_of(m)
    }

    fn inverse_move(&self, m: MoveIdx) -> MoveIdx {
        Move::inverse_of(m)
    }

    /// Every move takes the blank to a cell of the other colour of the board's chequering.
    fn same_level_possible(&self) -> bool {
        false
    }

    #[inline]
    fn for_each_neighbour(&self, state: State, mut f: impl FnMut(MoveIdx, State)) {
        self.stage.for_each_move(&state, |next, mv| {
            if self
                .window
                .is_none_or(|inside| inside[next[next.len() - 1] as usize])
            {
                f(mv.index(), next);
            }
        });
    }
}

impl RankedSpace for StageSpace<'_> {
    fn state_count(&self) -> u128 {
        self.stage.table_states().unwrap_or(0) as u128
    }

    #[inline]
    fn rank_of(&self, state: State) -> usize {
        placement_index(
            state.iter().map(|&c| c as u32),
            self.stage.cells.len() as u64,
        ) as usize
    }

    #[inline]
    fn state_at(&self, rank: usize) -> State {
        let n = self.stage.tiles.len() + 1;
        let mut cells = [0u32; MAX_STAGE_TILES + 1];
        placement_cells(rank as u64, self.stage.cells.len() as u64, &mut cells[..n]);
        let mut state = State {
            cells: [0; MAX_STAGE_TILES + 1],
            len: n as u8,
        };
        for (s, &c) in state.cells.iter_mut().zip(&cells[..n]) {
            *s = c as u16;
        }
        state
    }
}

/// The stage's A* heuristic: Manhattan distance of its tiles to their targets, plus the
/// blank's walk to the nearest tile not yet placed. Admissible (see [`Stage::estimate`]).
struct StageEstimate<'a>(&'a Stage);

impl Heuristic<State> for StageEstimate<'_> {
    const CONSISTENT: bool = false;

    fn lower_bound(&self, state: State) -> u32 {
        self.0.estimate(&state)
    }
}
