//! One stage: a small puzzle over the positions of its tiles and the blank among the free cells.

use godsearch_core::perm::placement_index;
use godsearch_puzzles::tiles::{Board, Move, Shape};
use std::collections::{BinaryHeap, HashMap};

/// Marks a cell outside the stage's region.
const OUTSIDE: u16 = u16::MAX;
/// Distance not yet known while a table is built.
const UNSEEN: u8 = u8::MAX;
/// The most tiles one stage places.
pub const MAX_STAGE_TILES: usize = 8;
/// Margins (in cells) of the windows A* tries before the whole region.
const SEARCH_MARGINS: [usize; 2] = [1, 3];
/// Stage spaces of at most this many states get a distance table (a 3x3 sub-board in one stage
/// is 362,880); larger ones are searched with A*.
pub(crate) const TABLE_MAX_STATES: u64 = 4_000_000;

/// How a stage finds its moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StageMethod {
    /// Descent of an exact distance table of the stage space.
    Table(Vec<u8>),
    /// A* over the stage space, per board.
    Search,
}

/// A stage: the tiles it brings home and the free cells it may use (the rest are fixed).
#[derive(Debug, Clone)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct State {
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
    /// The stage placing `tiles` (home as in `goal`) using only the cells in `free`.
    pub fn new(goal: &Board, tiles: &[u16], free: &[u16]) -> Self {
        let home = |t: u16| {
            goal.cells()
                .iter()
                .position(|&x| x == t)
                .expect("a tile of the board") as u16
        };
        let targets: Vec<u16> = tiles.iter().map(|&t| home(t)).collect();
        Self::with_targets(goal.shape(), tiles, &targets, free)
    }

    /// A stage bringing `tiles` to the cells `targets` (an intermediate subgoal, not their homes)
    /// using only the cells in `free`.
    pub fn with_targets(shape: Shape, tiles: &[u16], targets: &[u16], free: &[u16]) -> Self {
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
        let mut stage = Stage {
            shape,
            tiles: tiles.to_vec(),
            homes: targets.iter().map(|&c| local[c as usize]).collect(),
            cells: free.to_vec(),
            local,
            neighbours,
            method: StageMethod::Search,
            optional: false,
        };
        if let Some(states) = stage.table_states() {
            if states <= TABLE_MAX_STATES {
                stage.method = StageMethod::Table(stage.build_table(states as usize));
            }
        }
        stage
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
        self.method == StageMethod::Search
    }

    /// The tiles this stage places.
    pub fn tiles(&self) -> &[u16] {
        &self.tiles
    }

    /// How it finds its moves.
    pub fn method(&self) -> &StageMethod {
        &self.method
    }

    /// Number of states `R!/(R-k-1)!`, when the region is small enough to index (64 cells).
    fn table_states(&self) -> Option<u64> {
        let r = self.cells.len() as u64;
        if r > 64 || self.tiles.len() + 1 > self.cells.len() {
            return None;
        }
        (0..=self.tiles.len() as u64).try_fold(1u64, |acc, i| acc.checked_mul(r - i))
    }

    fn index(&self, state: &[u16]) -> usize {
        placement_index(state.iter().map(|&c| c as u32), self.cells.len() as u64) as usize
    }

    fn is_goal(&self, state: &[u16]) -> bool {
        state[..self.tiles.len()] == self.homes[..]
    }

    /// Calls `f(next_state, move)` for every move of the blank within the region.
    fn for_each_move(&self, state: &[u16], mut f: impl FnMut(&State, Move)) {
        let k = self.tiles.len();
        let blank = state[k];
        for &(to, mv) in &self.neighbours[blank as usize] {
            let mut next = State::from_slice(state);
            if let Some(t) = state[..k].iter().position(|&c| c == to) {
                next[t] = blank;
            }
            next[k] = to;
            f(&next, mv);
        }
    }

    /// Exact distances of every stage state to the stage's goals, by BFS from all of them.
    fn build_table(&self, states: usize) -> Vec<u8> {
        let k = self.tiles.len();
        let mut dist = vec![UNSEEN; states];
        let mut frontier: Vec<State> = Vec::new();
        for blank in 0..self.cells.len() as u16 {
            if !self.homes.contains(&blank) {
                let mut cells = self.homes.clone();
                cells.push(blank);
                let s = State::from_slice(&cells);
                dist[self.index(&s)] = 0;
                frontier.push(s);
            }
        }
        let mut depth = 0u8;
        while !frontier.is_empty() && depth < UNSEEN - 1 {
            let mut next = Vec::new();
            for s in &frontier {
                self.for_each_move(s, |n, _| {
                    let i = self.index(n);
                    if dist[i] == UNSEEN {
                        dist[i] = depth + 1;
                        next.push(*n);
                    }
                });
            }
            frontier = next;
            depth += 1;
        }
        debug_assert!(frontier.iter().all(|s| s.len() == k + 1));
        dist
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
            StageMethod::Table(dist) => self.descend(dist, start),
            StageMethod::Search => self.search(start),
        }
    }

    /// The exact stage distance of `board`, for table stages.
    pub fn distance(&self, board: &Board) -> Option<u32> {
        match &self.method {
            StageMethod::Table(dist) => {
                let d = dist[self.index(&self.state_of(board)?)];
                (d != UNSEEN).then_some(d as u32)
            }
            StageMethod::Search => None,
        }
    }

    /// Shortest move sequences to up to `cap` different end positions of the stage (table
    /// stages follow every optimal path, level by level, keeping at most `cap` positions a
    /// level; search stages give their one solution).
    pub fn solve_options(&self, board: &Board, cap: usize) -> Option<Vec<Vec<Move>>> {
        let StageMethod::Table(dist) = &self.method else {
            return self.solve(board).map(|m| vec![m]);
        };
        if cap <= 1 {
            return self.solve(board).map(|m| vec![m]);
        }
        let start = self.state_of(board)?;
        let mut d = dist[self.index(&start)];
        if d == UNSEEN {
            return None;
        }
        // Each level: stage states with the whole board and the moves so far. Paths are told
        // apart by the whole board, since where the other tiles end up matters to later stages.
        let mut level: Vec<(State, Board, Vec<Move>)> = vec![(start, board.clone(), Vec::new())];
        while d > 0 {
            let mut next: Vec<(State, Board, Vec<Move>)> = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for (s, b, path) in &level {
                self.for_each_move(s, |n, mv| {
                    if next.len() < cap && dist[self.index(n)] == d - 1 {
                        let mut moved = b.clone();
                        moved.apply(mv);
                        if seen.insert(moved.clone()) {
                            let mut p = path.clone();
                            p.push(mv);
                            next.push((*n, moved, p));
                        }
                    }
                });
            }
            level = next;
            d -= 1;
        }
        Some(level.into_iter().map(|(_, _, p)| p).collect())
    }

    fn descend(&self, dist: &[u8], start: State) -> Option<Vec<Move>> {
        let mut at = start;
        let mut moves = Vec::new();
        let mut d = dist[self.index(&at)];
        if d == UNSEEN {
            return None;
        }
        while d > 0 {
            let mut step = None;
            self.for_each_move(&at, |n, mv| {
                if step.is_none() && dist[self.index(n)] == d - 1 {
                    step = Some((*n, mv));
                }
            });
            let (n, mv) = step?;
            moves.push(mv);
            at = n;
            d -= 1;
        }
        Some(moves)
    }

    fn manhattan(&self, a: u16, b: u16) -> u32 {
        let (ra, ca) = self.shape.row_col(self.cells[a as usize] as usize);
        let (rb, cb) = self.shape.row_col(self.cells[b as usize] as usize);
        (ra.abs_diff(rb) + ca.abs_diff(cb)) as u32
    }

    /// Admissible: each move slides one tile one cell, and before the first tile that is not home
    /// can move, the blank must walk next to it.
    fn heuristic(&self, s: &[u16]) -> u32 {
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
            if let Some(moves) = self.astar(&entered, &inside) {
                walk.extend(moves);
                return Some(walk);
            }
        }
        self.astar(&start, &vec![true; self.cells.len()])
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

    fn astar(&self, start: &State, inside: &[bool]) -> Option<Vec<Move>> {
        let start = *start;
        struct Seen {
            g: u32,
            parent: usize,
            via: Option<Move>,
        }
        let mut states: Vec<State> = vec![start];
        let mut seen: Vec<Seen> = vec![Seen {
            g: 0,
            parent: 0,
            via: None,
        }];
        let mut ids: HashMap<State, usize> = HashMap::from([(start, 0)]);
        // Max-heap on (-f, g): smallest f first, deeper first on ties.
        let mut open =
            BinaryHeap::from([(std::cmp::Reverse(self.heuristic(&start)), 0u32, 0usize)]);
        while let Some((_, g, id)) = open.pop() {
            if seen[id].g != g {
                continue;
            }
            if self.is_goal(&states[id]) {
                let mut moves = Vec::new();
                let mut at = id;
                while let Some(mv) = seen[at].via {
                    moves.push(mv);
                    at = seen[at].parent;
                }
                moves.reverse();
                return Some(moves);
            }
            let current = states[id];
            self.for_each_move(&current, |n, mv| {
                if !inside[n[n.len() - 1] as usize] {
                    return;
                }
                let g = g + 1;
                let known = ids.get(n).copied();
                if known.is_some_and(|j| seen[j].g <= g) {
                    return;
                }
                let j = known.unwrap_or_else(|| {
                    states.push(*n);
                    seen.push(Seen {
                        g,
                        parent: id,
                        via: Some(mv),
                    });
                    ids.insert(*n, states.len() - 1);
                    states.len() - 1
                });
                seen[j] = Seen {
                    g,
                    parent: id,
                    via: Some(mv),
                };
                open.push((std::cmp::Reverse(g + self.heuristic(n)), g, j));
            });
        }
        None
    }
}
