//! Move strings of the blank that a depth-first search can leave out: the finite-state
//! machine of Taylor and Korf ("Pruning duplicate nodes in depth-first search", AAAI 1993).
//!
//! Many strings of moves lead to the same board: `U D` to where it started, and longer ones
//! too (the blank going three times round a 2x2 block, or two ways round a 2x3 one). Never
//! undoing the last move ([`Move::sequence_automaton`]) removes the first kind only. This
//! module finds every *duplicate string* up to a length: a string `s` for which another
//! string `t`, shorter or of the same length and earlier in the move order (`U D L R`), makes
//! the same change to any board and keeps the blank within the rectangle `s` keeps it in.
//! An automaton (Aho-Corasick over the four moves) then refuses a move that would complete one.
//!
//! **What it guarantees.** On a rectangular board, every position at distance `d` from a start
//! is reached by a string of `d` moves the automaton accepts: the first, in (length, move
//! order), of its shortest strings. If that string held a duplicate `s`, replacing `s` by its
//! `t` would give a string that is legal (the blank stays within `s`'s rectangle, so on the
//! board), reaches the same position, and comes earlier. So IDA* following the automaton
//! stays optimal. It is tested against breadth-first distances on the 3x3, 3x4 and 4x4.
//!
//! **How the strings are found.** Strings are enumerated in (length, move order) on a board
//! large enough that no edge is reached, skipping those that contain a duplicate already
//! found. Each is keyed by the arrangement it makes (a 64-bit hash, each hit confirmed by
//! replaying both strings: a collision only leaves a string unrefused), with the rectangles
//! of the strings that made it so far; a string whose arrangement was made before within a
//! rectangle inside its own is a duplicate.

use super::Move;

/// The longest strings looked for: a string is packed two bits a move into a `u64`, with its
/// length.
pub const MAX_DUPLICATE_LENGTH: usize = 28;

/// A state of a [`DuplicateAutomaton`]; [`DuplicateAutomaton::START`] before any move.
pub type DuplicateState = u32;

/// Marks a refused move in the transition table.
const REFUSED: DuplicateState = DuplicateState::MAX;
/// The four moves of the blank.
const MOVES: usize = Move::ALL.len();

/// The automaton over the blank's moves that refuses every duplicate string up to a length
/// (see the module documentation for what that guarantees).
#[derive(Debug, Clone)]
pub struct DuplicateAutomaton {
    /// `next[state * 4 + move]`: the state after the move, or [`REFUSED`].
    next: Vec<DuplicateState>,
    /// Duplicate strings refused (each contains no shorter one).
    rules: usize,
    /// The longest duplicate strings looked for.
    max_length: usize,
}

/// The automaton could not be built as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DuplicateError {
    /// Strings longer than the packing holds.
    #[error("duplicate strings are looked for up to {MAX_DUPLICATE_LENGTH} moves, not {0}")]
    TooLong(usize),
}

impl DuplicateAutomaton {
    /// The state before any move.
    pub const START: DuplicateState = 0;

    /// The automaton refusing every duplicate string of at most `max_length` moves. Strings of
    /// length 2 are the undone moves; 12 adds the first cycles round a 2x2 block. The work
    /// grows about 2.2 times with each move of `max_length`.
    pub fn new(max_length: usize) -> Result<Self, DuplicateError> {
        if max_length > MAX_DUPLICATE_LENGTH {
            return Err(DuplicateError::TooLong(max_length));
        }
        let mut finder = Finder::new(max_length);
        let mut automaton = Self::from_rules(&[], max_length);
        for length in 1..=max_length {
            finder.level(length, &automaton);
            automaton = Self::from_rules(&finder.duplicates, max_length);
        }
        Ok(automaton)
    }

    /// The state after `mv` (a move index, `0..4`) from `state`, or `None` when that move
    /// completes a duplicate string.
    #[inline]
    pub fn next(&self, state: DuplicateState, mv: u8) -> Option<DuplicateState> {
        let to = self.next[state as usize * MOVES + mv as usize];
        (to != REFUSED).then_some(to)
    }

    /// The state after the moves of `path` (move indices), or `None` when it holds a
    /// duplicate string.
    pub fn after(&self, path: &[u8]) -> Option<DuplicateState> {
        path.iter()
            .try_fold(Self::START, |state, &mv| self.next(state, mv))
    }

    /// Its states.
    pub fn states(&self) -> usize {
        self.next.len() / MOVES
    }

    /// The duplicate strings it refuses (none contains another).
    pub fn rules(&self) -> usize {
        self.rules
    }

    /// The longest duplicate strings it was built to refuse.
    pub fn max_length(&self) -> usize {
        self.max_length
    }

    /// The Aho-Corasick automaton of `rules`: a trie of the strings, each state's failure link
    /// the longest proper suffix that is also in the trie, and every missing transition
    /// followed through the failure links. States that end a rule are dropped, and the moves
    /// into them refused.
    fn from_rules(rules: &[Packed], max_length: usize) -> Self {
        const NONE: u32 = u32::MAX;
        let mut children: Vec<[u32; MOVES]> = vec![[NONE; MOVES]];
        let mut ends = vec![false];
        for rule in rules {
            let mut at = 0usize;
            for mv in rule.moves() {
                if children[at][mv as usize] == NONE {
                    children[at][mv as usize] = children.len() as u32;
                    children.push([NONE; MOVES]);
                    ends.push(false);
                }
                at = children[at][mv as usize] as usize;
            }
            ends[at] = true;
        }
        // Breadth-first over the trie: a state's failure link is known before its children's.
        let mut delta = vec![[0u32; MOVES]; children.len()];
        let mut fail = vec![0u32; children.len()];
        let mut queue = std::collections::VecDeque::new();
        for mv in 0..MOVES {
            match children[0][mv] {
                NONE => delta[0][mv] = 0,
                child => {
                    delta[0][mv] = child;
                    queue.push_back(child as usize);
                }
            }
        }
        while let Some(at) = queue.pop_front() {
            let back = fail[at] as usize;
            ends[at] |= ends[back];
            for mv in 0..MOVES {
                match children[at][mv] {
                    NONE => delta[at][mv] = delta[back][mv],
                    child => {
                        fail[child as usize] = if at == 0 { 0 } else { delta[back][mv] };
                        delta[at][mv] = child;
                        queue.push_back(child as usize);
                    }
                }
            }
        }
        // Number the states that end no rule, the root first.
        let mut number = vec![REFUSED; children.len()];
        let mut live = 0u32;
        for (state, &end) in ends.iter().enumerate() {
            if !end {
                number[state] = live;
                live += 1;
            }
        }
        let mut next = Vec::with_capacity(live as usize * MOVES);
        for (state, row) in delta.iter().enumerate() {
            if !ends[state] {
                next.extend(row.iter().map(|&to| number[to as usize]));
            }
        }
        DuplicateAutomaton {
            next,
            rules: rules.len(),
            max_length,
        }
    }
}

/// A string of moves, two bits a move from the lowest bits up, and its length in the top byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Packed(u64);

/// Where a [`Packed`] string keeps its length.
const LENGTH_SHIFT: u32 = 56;

impl Packed {
    const EMPTY: Packed = Packed(0);

    fn len(self) -> usize {
        (self.0 >> LENGTH_SHIFT) as usize
    }

    fn moves(self) -> impl Iterator<Item = u8> {
        (0..self.len()).map(move |i| ((self.0 >> (2 * i)) & 3) as u8)
    }

    fn then(self, mv: u8) -> Packed {
        let len = self.len();
        let moves = self.0 & ((1 << LENGTH_SHIFT) - 1);
        Packed(moves | (mv as u64) << (2 * len) | ((len + 1) as u64) << LENGTH_SHIFT)
    }
}

/// The rectangle the blank keeps within, relative to where it starts: columns then rows,
/// each `(least, most)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Extent {
    cols: (i8, i8),
    rows: (i8, i8),
}

impl Extent {
    const POINT: Extent = Extent {
        cols: (0, 0),
        rows: (0, 0),
    };

    fn within(self, other: Extent) -> bool {
        other.cols.0 <= self.cols.0
            && self.cols.1 <= other.cols.1
            && other.rows.0 <= self.rows.0
            && self.rows.1 <= other.rows.1
    }

    fn with(self, (col, row): (i8, i8)) -> Extent {
        Extent {
            cols: (self.cols.0.min(col), self.cols.1.max(col)),
            rows: (self.rows.0.min(row), self.rows.1.max(row)),
        }
    }
}

/// What is known of one arrangement: a string that makes it, and the rectangle of a string
/// found to make it that is not a duplicate. Rarely two or more such strings keep rectangles
/// none inside another: the rest are kept in [`Finder::more`].
struct Made {
    first: Packed,
    extent: Extent,
    more: bool,
}

/// Hashes the arrangement keys, already uniform hashes, by taking them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

type ByHash<V> = std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<KeyHasher>>;

/// The enumeration of [`DuplicateAutomaton::new`]: a board with the blank in the middle and
/// room for `max_length` moves each way.
struct Finder {
    grid: Grid,
    /// Arrangements by their 64-bit hash. Two arrangements with one hash are told apart by
    /// replaying (see [`Finder::record`]).
    made: ByHash<Made>,
    /// The further rectangles of the arrangements whose [`Made::more`] is set.
    more: ByHash<Vec<Extent>>,
    duplicates: Vec<Packed>,
    /// A second board for confirming a hash hit by replaying.
    scratch: Vec<u16>,
}

/// The enumeration's board, with room every way: tiles named by the cell they start on, and
/// the arrangement's hash.
struct Grid {
    side: usize,
    /// `cells[c]`: the tile on cell `c`.
    cells: Vec<u16>,
    blank: usize,
    hash: u64,
}

/// The hash of tile `tile` on cell `cell` (the splitmix64 finaliser): an arrangement hashes to
/// the exclusive or over its cells.
fn zobrist(cell: usize, tile: u16) -> u64 {
    let mut z = ((cell as u64) << 32 | tile as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Grid {
    fn new(max_length: usize) -> Self {
        let side = 2 * max_length + 1;
        let cells: Vec<u16> = (0..side * side).map(|c| c as u16).collect();
        let hash = cells
            .iter()
            .enumerate()
            .fold(0, |h, (c, &t)| h ^ zobrist(c, t));
        Grid {
            side,
            cells,
            blank: side * max_length + max_length,
            hash,
        }
    }

    fn start(&self) -> usize {
        self.side * (self.side / 2) + self.side / 2
    }

    /// The cell the blank reaches from `cell` by `mv` (never off the board within
    /// `max_length` moves of the middle), and the step in columns and rows.
    fn step(&self, cell: usize, mv: u8) -> (usize, (i8, i8)) {
        match Move::from_index(mv) {
            Move::Up => (cell - self.side, (0, -1)),
            Move::Down => (cell + self.side, (0, 1)),
            Move::Left => (cell - 1, (-1, 0)),
            Move::Right => (cell + 1, (1, 0)),
        }
    }

    /// Slides the blank to `to`, keeping the hash.
    fn slide(&mut self, to: usize) {
        let from = self.blank;
        let (blank, tile) = (self.cells[from], self.cells[to]);
        self.hash ^= zobrist(from, blank) ^ zobrist(to, tile);
        self.hash ^= zobrist(from, tile) ^ zobrist(to, blank);
        self.cells.swap(from, to);
        self.blank = to;
    }

    /// Whether `string`, made from the start on `scratch` (left as the start again), gives
    /// this board's arrangement.
    fn made_by(&self, string: Packed, scratch: &mut [u16]) -> bool {
        let mut blank = self.start();
        for mv in string.moves() {
            let (to, _) = self.step(blank, mv);
            scratch.swap(blank, to);
            blank = to;
        }
        let same = blank == self.blank && self.cells[..] == scratch[..];
        for i in (0..string.len()).rev() {
            let mv = ((string.0 >> (2 * i)) & 3) as u8;
            let (back, _) = self.step(blank, Move::from_index(mv).inverse().index());
            scratch.swap(blank, back);
            blank = back;
        }
        same
    }
}

impl Finder {
    fn new(max_length: usize) -> Self {
        let grid = Grid::new(max_length);
        let mut made = ByHash::default();
        made.insert(
            grid.hash,
            Made {
                first: Packed::EMPTY,
                extent: Extent::POINT,
                more: false,
            },
        );
        Finder {
            scratch: grid.cells.clone(),
            grid,
            made,
            more: ByHash::default(),
            duplicates: Vec::new(),
        }
    }

    /// Every string of `length` moves that the automaton of the shorter duplicates accepts,
    /// in move order: records the arrangement each makes and the duplicates among them.
    fn level(&mut self, length: usize, automaton: &DuplicateAutomaton) {
        let start = (
            DuplicateAutomaton::START,
            Packed::EMPTY,
            Extent::POINT,
            (0, 0),
        );
        self.descend(length, automaton, start);
    }

    fn descend(
        &mut self,
        length: usize,
        automaton: &DuplicateAutomaton,
        (state, path, extent, at): (DuplicateState, Packed, Extent, (i8, i8)),
    ) {
        if path.len() == length {
            self.record(path, extent);
            return;
        }
        for mv in 0..MOVES as u8 {
            let Some(next) = automaton.next(state, mv) else {
                continue;
            };
            let back = self.grid.blank;
            let (to, (dc, dr)) = self.grid.step(back, mv);
            let at = (at.0 + dc, at.1 + dr);
            self.grid.slide(to);
            self.descend(
                length,
                automaton,
                (next, path.then(mv), extent.with(at), at),
            );
            self.grid.slide(back);
        }
    }

    /// Records that `path` (the string just made, within `extent`) makes the present
    /// arrangement; a duplicate if a string before it made it within a rectangle inside
    /// `extent`. A hash shared with another arrangement (seen by replaying the first string
    /// that made it) leaves the string unrecorded: it is kept, which costs a rule at most.
    fn record(&mut self, path: Packed, extent: Extent) {
        use std::collections::hash_map::Entry;
        let made = match self.made.entry(self.grid.hash) {
            Entry::Vacant(vacant) => {
                vacant.insert(Made {
                    first: path,
                    extent,
                    more: false,
                });
                return;
            }
            Entry::Occupied(occupied) => occupied.into_mut(),
        };
        if !self.grid.made_by(made.first, &mut self.scratch) {
            return;
        }
        let more = match made.more {
            true => self.more.entry(self.grid.hash).or_default(),
            false => &mut Vec::new(),
        };
        if made.extent.within(extent) || more.iter().any(|e| e.within(extent)) {
            self.duplicates.push(path);
            return;
        }
        // Keep the rectangles none inside another: those around the new one go.
        more.retain(|e| !extent.within(*e));
        if extent.within(made.extent) {
            made.extent = extent;
        } else {
            more.push(extent);
        }
        let kept = std::mem::take(more);
        made.more = !kept.is_empty();
        if made.more {
            self.more.insert(self.grid.hash, kept);
        } else {
            self.more.remove(&self.grid.hash);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::{Board, Shape};
    use std::collections::HashMap;

    /// Up to length 2 the duplicates are the four undone moves, as the canonical sequences
    /// say; longer ones only add rules.
    #[test]
    fn the_shortest_duplicates_are_the_undone_moves() {
        let two = DuplicateAutomaton::new(2).unwrap();
        assert_eq!(two.rules(), 4);
        for first in 0..4u8 {
            let state = two.next(DuplicateAutomaton::START, first).unwrap();
            for second in 0..4u8 {
                let undone = Move::from_index(second) == Move::from_index(first).inverse();
                assert_eq!(two.next(state, second).is_none(), undone);
            }
        }
        let twelve = DuplicateAutomaton::new(12).unwrap();
        assert!(twelve.rules() > two.rules());
        // Round a 2x2 block three times is the empty string.
        let round: Vec<u8> = "RDLURDLURDLU".bytes().map(index).collect();
        assert!(twelve.after(&round).is_none());
        assert!(two.after(&round).is_some());
        assert!(matches!(
            DuplicateAutomaton::new(MAX_DUPLICATE_LENGTH + 1),
            Err(DuplicateError::TooLong(_))
        ));
    }

    fn index(letter: u8) -> u8 {
        "UDLR".bytes().position(|l| l == letter).unwrap() as u8
    }

    /// The guarantee: from every start cell of the 3x3, 3x4 and 4x4, every board within
    /// `depth` moves is reached by an accepted string of exactly its distance (breadth-first).
    #[test]
    fn every_position_keeps_a_shortest_accepted_string() {
        let automaton = DuplicateAutomaton::new(14).unwrap();
        for (w, h, depth) in [(3, 3, 18), (4, 3, 16), (4, 4, 14)] {
            let shape = Shape::new(w, h).unwrap();
            for blank in 0..shape.cells() {
                let mut start = Board::goal(shape);
                // Walk the blank to `blank` along the first row, then down its column.
                let (row, col) = shape.row_col(blank);
                let (r0, c0) = shape.row_col(start.blank());
                for _ in 0..r0 {
                    start.apply(Move::Up);
                }
                for _ in 0..c0 {
                    start.apply(Move::Left);
                }
                for _ in 0..col {
                    start.apply(Move::Right);
                }
                for _ in 0..row {
                    start.apply(Move::Down);
                }
                let distances = breadth_first(&start, depth);
                let mut reached = HashMap::new();
                accepted(
                    &automaton,
                    &start,
                    DuplicateAutomaton::START,
                    0,
                    depth,
                    &mut reached,
                );
                for (board, d) in &distances {
                    assert_eq!(
                        reached.get(board),
                        Some(d),
                        "{w}x{h}, blank at {blank}: {board} is {d} moves away"
                    );
                }
            }
        }
    }

    fn breadth_first(start: &Board, depth: usize) -> HashMap<Board, usize> {
        let mut distances = HashMap::from([(start.clone(), 0)]);
        let mut level = vec![start.clone()];
        for d in 1..=depth {
            let mut next = Vec::new();
            for board in &level {
                for (_, child) in board.successors() {
                    if !distances.contains_key(&child) {
                        distances.insert(child.clone(), d);
                        next.push(child);
                    }
                }
            }
            level = next;
        }
        distances
    }

    fn accepted(
        automaton: &DuplicateAutomaton,
        board: &Board,
        state: DuplicateState,
        g: usize,
        depth: usize,
        reached: &mut HashMap<Board, usize>,
    ) {
        let best = reached.entry(board.clone()).or_insert(g);
        *best = (*best).min(g);
        if g == depth {
            return;
        }
        for mv in Move::ALL {
            let Some(next) = automaton.next(state, mv.index()) else {
                continue;
            };
            let mut child = board.clone();
            if child.apply(mv) {
                accepted(automaton, &child, next, g + 1, depth, reached);
            }
        }
    }
}
