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
//! rectangle inside its own is a duplicate. The arrangements are kept by the parity of their
//! length, and the last level of each parity is judged in passes and never kept (see
//! [`Finder`]): strings of up to 14 moves are found in about 0.9 s and 0.55 GB, of up to 16 in
//! 13-14 s and 0.9 GB (a hash map of every arrangement took 1.75 s and 25.6 s, 0.6 and
//! 4.9 GB).

use super::Move;
use std::collections::VecDeque;

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
    /// grows three to four times with each move of `max_length` (14: about 0.9 s).
    pub fn new(max_length: usize) -> Result<Self, DuplicateError> {
        Self::found_in_passes_of(max_length, PASS_ARRANGEMENTS)
    }

    /// [`DuplicateAutomaton::new`], the last levels judged in passes of about
    /// `pass_arrangements` new arrangements each.
    fn found_in_passes_of(
        max_length: usize,
        pass_arrangements: usize,
    ) -> Result<Self, DuplicateError> {
        if max_length > MAX_DUPLICATE_LENGTH {
            return Err(DuplicateError::TooLong(max_length));
        }
        let mut finder = Finder::new(max_length, pass_arrangements);
        let mut automaton = Self::from_rules(&[], max_length);
        for length in 1..=max_length {
            finder.level(length, &automaton);
            // In the order one pass finds them, whatever the passes: the same numbering.
            finder
                .duplicates
                .sort_unstable_by_key(|rule| rule.shortlex());
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

    /// Its place in (length, move order): the order strings are enumerated in.
    fn shortlex(self) -> (usize, u64) {
        (
            self.len(),
            self.moves().fold(0, |key, mv| key << 2 | mv as u64),
        )
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
/// none inside another: the rest are kept in [`Finder::more`]. A slot of [`Arrangements`];
/// key 0 marks it empty.
#[derive(Debug, Clone, Copy)]
struct Made {
    key: u64,
    first: Packed,
    extent: Extent,
    more: bool,
}

impl Made {
    const EMPTY: Made = Made {
        key: 0,
        first: Packed::EMPTY,
        extent: Extent::POINT,
        more: false,
    };
}

/// Arrangements by their 64-bit hash (0 read as 1, so that 0 marks an empty slot), in open
/// addressing with linear probing: a slot's place is known from the hash alone, so the
/// enumeration can ask for it to be fetched ([`Arrangements::prefetch`]) strings before it is
/// read. Two arrangements with one hash are told apart by replaying (see [`Finder::judge`]).
struct Arrangements {
    slots: Vec<Made>,
    len: usize,
}

/// [`Arrangements`] grows (doubles) before more than this share of its slots is taken: linear
/// probing stays short below it.
const MAX_LOAD: (usize, usize) = (5, 8);
/// [`Arrangements`] is never smaller than this many slots.
const MIN_SLOTS: usize = 1 << 10;

impl Arrangements {
    fn new() -> Self {
        Arrangements {
            slots: vec![Made::EMPTY; MIN_SLOTS],
            len: 0,
        }
    }

    /// Room for `more` arrangements beside those held, so that none is moved while they come.
    fn reserve(&mut self, more: usize) {
        let wanted = (self.len + more) * MAX_LOAD.1 / MAX_LOAD.0 + 1;
        if wanted > self.slots.len() {
            let old = std::mem::replace(
                &mut self.slots,
                vec![Made::EMPTY; wanted.next_power_of_two()],
            );
            for made in old.into_iter().filter(|m| m.key != 0) {
                let Err(slot) = self.find(made.key) else {
                    unreachable!("keys are held once")
                };
                self.slots[slot] = made;
            }
        }
    }

    fn key(hash: u64) -> u64 {
        hash.max(1)
    }

    /// The slot a key is first looked for in: its low bits (the high bits pick a last
    /// level's pass, see [`Finder::launch`]).
    fn home(&self, key: u64) -> usize {
        key as usize & (self.slots.len() - 1)
    }

    /// Asks for the slot of `hash` to be brought into the cache (a hint, see
    /// [`godsearch_tables::prefetch`]).
    #[inline]
    fn prefetch(&self, hash: u64) {
        godsearch_tables::prefetch(&self.slots, self.home(Self::key(hash)));
    }

    /// The slot holding `hash`, or the empty slot where it would go.
    fn find(&self, hash: u64) -> Result<usize, usize> {
        let key = Self::key(hash);
        let mask = self.slots.len() - 1;
        let mut slot = self.home(key);
        loop {
            match self.slots[slot].key {
                k if k == key => return Ok(slot),
                0 => return Err(slot),
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    /// Puts `made` in the empty slot `slot` that [`Arrangements::find`] gave for its hash,
    /// growing first where that would pass [`MAX_LOAD`].
    fn insert(&mut self, slot: usize, hash: u64, made: Made) {
        let made = Made {
            key: Self::key(hash),
            ..made
        };
        let mut slot = slot;
        if (self.len + 1) * MAX_LOAD.1 > self.slots.len() * MAX_LOAD.0 {
            // Grown, so the string's slot moved.
            self.reserve(1);
            let Err(moved) = self.find(hash) else {
                unreachable!("the hash was not held")
            };
            slot = moved;
        }
        self.slots[slot] = made;
        self.len += 1;
    }

    /// Empties it, keeping its slots.
    fn clear(&mut self) {
        self.slots.fill(Made::EMPTY);
        self.len = 0;
    }
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

/// Strings whose arrangements are looked up together: each one's slot is asked for when it
/// is made, and it is judged this many strings later, in the order made.
const IN_FLIGHT: usize = 16;
/// A level whose arrangements no later level needs (the last of each parity) is made in as
/// many passes as keep each pass's new arrangements to about this many (a table of 400 MB):
/// each pass enumerates the whole level and judges the strings whose hash falls in its share.
/// Twice as many took 1.6 GB instead of 0.9 for strings of up to 16 moves, for 11.3 s
/// instead of 13.2.
const PASS_ARRANGEMENTS: usize = 1 << 23;

/// A string made and not yet judged: the hash of its arrangement, and its rectangle.
#[derive(Debug, Clone, Copy)]
struct Pending {
    hash: u64,
    path: Packed,
    extent: Extent,
}

/// The enumeration of [`DuplicateAutomaton::new`]: a board with the blank in the middle and
/// room for `max_length` moves each way.
///
/// Memory. A string's arrangement has the parity of its length (each move is a
/// transposition), so a string is only ever compared with strings of its own parity: the
/// arrangements are kept by parity ([`Finder::by_parity`]), and a parity's table is dropped
/// once its last level is done. The last level of each parity (`max_length` and the one
/// before: nearly nine tenths of all strings) is compared but never kept for a later level: it
/// is made in passes ([`PASS_ARRANGEMENTS`]), each pass's new arrangements in
/// [`Finder::pass_new`], emptied after it. Strings of up to 16 moves take about 0.9 GB so,
/// where keeping every arrangement took 4.9 GB.
struct Finder {
    grid: Grid,
    max_length: usize,
    /// The new arrangements a pass of a last level is sized for ([`PASS_ARRANGEMENTS`]).
    pass_arrangements: usize,
    /// The arrangements of the levels kept, by the parity of their length.
    by_parity: [Arrangements; 2],
    /// The new arrangements of the present pass of a last level.
    pass_new: Arrangements,
    /// The further rectangles of the arrangements whose [`Made::more`] is set.
    more: ByHash<Vec<Extent>>,
    duplicates: Vec<Packed>,
    /// Strings made, in order, whose slots are being fetched.
    in_flight: VecDeque<Pending>,
    /// The strings each level made (accepted by the automaton of the shorter duplicates).
    strings: Vec<usize>,
    /// The level being made: its length, whether it is the last of its parity, and the pass
    /// (which of how many shares of the hashes).
    length: usize,
    last_of_parity: bool,
    pass: (u64, u64),
    /// Strings made in the present pass (whatever their hash).
    pass_strings: usize,
    /// Two boards for confirming a hash hit by replaying.
    replay: [Vec<u16>; 2],
}

/// The enumeration's board, with room every way: tiles named by the cell they start on, and
/// the arrangement's hash.
struct Grid {
    side: usize,
    /// `cells[c]`: the tile on cell `c`.
    cells: Vec<u16>,
    blank: usize,
    hash: u64,
    /// `blank_keys[c]`: [`zobrist`] of the blank on cell `c`, the half of every slide's
    /// hash change that does not depend on the tile.
    blank_keys: Vec<u64>,
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
        let blank = side * max_length + max_length;
        Grid {
            side,
            blank_keys: (0..side * side).map(|c| zobrist(c, cells[blank])).collect(),
            cells,
            blank,
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

    /// The hash of the arrangement after the blank slides to `to`.
    #[inline]
    fn hash_after(&self, to: usize) -> u64 {
        let (from, tile) = (self.blank, self.cells[to]);
        self.hash
            ^ self.blank_keys[from]
            ^ self.blank_keys[to]
            ^ zobrist(to, tile)
            ^ zobrist(from, tile)
    }

    /// Slides the blank to `to`, keeping the hash.
    #[inline]
    fn slide(&mut self, to: usize) {
        self.hash = self.hash_after(to);
        self.cells.swap(self.blank, to);
        self.blank = to;
    }

    /// Makes `string` from the start on `board` (which holds the start); the blank's cell.
    fn make(&self, string: Packed, board: &mut [u16]) -> usize {
        string.moves().fold(self.start(), |blank, mv| {
            let (to, _) = self.step(blank, mv);
            board.swap(blank, to);
            to
        })
    }

    /// Undoes [`Grid::make`] of `string`, which left the blank on `blank`.
    fn unmake(&self, string: Packed, board: &mut [u16], mut blank: usize) {
        for i in (0..string.len()).rev() {
            let mv = ((string.0 >> (2 * i)) & 3) as u8;
            let (back, _) = self.step(blank, Move::from_index(mv).inverse().index());
            board.swap(blank, back);
            blank = back;
        }
    }

    /// Whether strings `a` and `b` make the same arrangement, replayed on `boards` (each
    /// holding the start, and left so).
    fn same(&self, a: Packed, b: Packed, boards: &mut [Vec<u16>; 2]) -> bool {
        let [first, second] = boards;
        let (blank_a, blank_b) = (self.make(a, first), self.make(b, second));
        let same = blank_a == blank_b && first == second;
        self.unmake(a, first, blank_a);
        self.unmake(b, second, blank_b);
        same
    }
}

impl Finder {
    fn new(max_length: usize, pass_arrangements: usize) -> Self {
        let grid = Grid::new(max_length);
        let mut even = Arrangements::new();
        let Err(slot) = even.find(grid.hash) else {
            unreachable!("the table is empty")
        };
        even.insert(slot, grid.hash, Made::EMPTY);
        Finder {
            replay: [grid.cells.clone(), grid.cells.clone()],
            grid,
            max_length,
            pass_arrangements,
            by_parity: [even, Arrangements::new()],
            pass_new: Arrangements::new(),
            more: ByHash::default(),
            duplicates: Vec::new(),
            in_flight: VecDeque::with_capacity(IN_FLIGHT + 1),
            strings: vec![1],
            length: 0,
            last_of_parity: false,
            pass: (0, 1),
            pass_strings: 0,
        }
    }

    /// The strings the next level may be expected to make: the last level's times its growth
    /// over the one before (each level makes about three times the last).
    fn expected(&self) -> usize {
        match self.strings[..] {
            [.., before, last] => (last as f64 * last as f64 / before as f64) as usize + 1,
            _ => Move::ALL.len(),
        }
    }

    /// Every string of `length` moves that the automaton of the shorter duplicates accepts,
    /// in move order: records the arrangement each makes and the duplicates among them.
    fn level(&mut self, length: usize, automaton: &DuplicateAutomaton) {
        let expected = self.expected();
        let parity = length % 2;
        self.length = length;
        self.last_of_parity = length + 2 > self.max_length;
        let passes = if self.last_of_parity {
            let passes = expected.div_ceil(self.pass_arrangements);
            self.pass_new.reserve(expected.div_ceil(passes));
            passes
        } else {
            self.by_parity[parity].reserve(expected);
            1
        };
        let start = (
            DuplicateAutomaton::START,
            Packed::EMPTY,
            Extent::POINT,
            (0, 0),
        );
        for pass in 0..passes {
            self.pass = (pass as u64, passes as u64);
            self.pass_strings = 0;
            self.descend(automaton, start);
            while let Some(string) = self.in_flight.pop_front() {
                self.judge(string);
            }
            self.pass_new.clear();
        }
        self.strings.push(self.pass_strings);
        if self.last_of_parity {
            self.by_parity[parity] = Arrangements::new();
        }
    }

    fn descend(
        &mut self,
        automaton: &DuplicateAutomaton,
        (state, path, extent, at): (DuplicateState, Packed, Extent, (i8, i8)),
    ) {
        let last = path.len() + 1 == self.length;
        for mv in 0..MOVES as u8 {
            let Some(next) = automaton.next(state, mv) else {
                continue;
            };
            let back = self.grid.blank;
            let (to, (dc, dr)) = self.grid.step(back, mv);
            let at = (at.0 + dc, at.1 + dr);
            if last {
                // A string of the level: judged by its hash (a hit is replayed apart), so the
                // board need not move.
                self.pass_strings += 1;
                self.launch(self.grid.hash_after(to), path.then(mv), extent.with(at));
                continue;
            }
            self.grid.slide(to);
            self.descend(automaton, (next, path.then(mv), extent.with(at), at));
            self.grid.slide(back);
        }
    }

    /// Takes the string `path` just made (within `extent`, its arrangement's hash `hash`) into
    /// the present pass, if its hash falls in the pass's share: asks for its slots, and judges the string made
    /// [`IN_FLIGHT`] strings before it.
    #[inline]
    fn launch(&mut self, hash: u64, path: Packed, extent: Extent) {
        let (pass, passes) = self.pass;
        if ((hash >> u32::BITS) * passes) >> u32::BITS != pass {
            return;
        }
        self.by_parity[self.length % 2].prefetch(hash);
        if self.last_of_parity {
            self.pass_new.prefetch(hash);
        }
        self.in_flight.push_back(Pending { hash, path, extent });
        if self.in_flight.len() > IN_FLIGHT {
            let oldest = self.in_flight.pop_front().expect("strings are in flight");
            self.judge(oldest);
        }
    }

    /// Records that `string.path` (within `string.extent`) makes the arrangement of
    /// `string.hash`: a duplicate if a string before it made it within a rectangle inside its
    /// own. A hash shared with another arrangement (seen by replaying the first string that
    /// made it) leaves the string unrecorded: it is kept, which costs a rule at most.
    fn judge(&mut self, string: Pending) {
        let Finder {
            by_parity,
            pass_new,
            grid,
            replay,
            more,
            duplicates,
            ..
        } = self;
        let kept = &mut by_parity[self.length % 2];
        let new = Made {
            first: string.path,
            extent: string.extent,
            ..Made::EMPTY
        };
        let (table, slot) = match (kept.find(string.hash), self.last_of_parity) {
            (Ok(slot), _) => (kept, slot),
            (Err(slot), false) => return kept.insert(slot, string.hash, new),
            (Err(_), true) => match pass_new.find(string.hash) {
                Ok(slot) => (pass_new, slot),
                Err(slot) => return pass_new.insert(slot, string.hash, new),
            },
        };
        let made = &mut table.slots[slot];
        if !grid.same(made.first, string.path, replay) {
            return;
        }
        let extent = string.extent;
        let others = match made.more {
            true => more.entry(made.key).or_default(),
            false => &mut Vec::new(),
        };
        if made.extent.within(extent) || others.iter().any(|e| e.within(extent)) {
            duplicates.push(string.path);
            return;
        }
        // Keep the rectangles none inside another: those around the new one go.
        others.retain(|e| !extent.within(*e));
        if extent.within(made.extent) {
            made.extent = extent;
        } else {
            others.push(extent);
        }
        let others = std::mem::take(others);
        made.more = !others.is_empty();
        if made.more {
            more.insert(made.key, others);
        } else {
            more.remove(&made.key);
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

    /// Judging the last levels in many passes finds the same strings as in one.
    #[test]
    fn passes_change_nothing() {
        for max_length in [9, 12] {
            let one = DuplicateAutomaton::found_in_passes_of(max_length, usize::MAX).unwrap();
            let many = DuplicateAutomaton::found_in_passes_of(max_length, 1 << 12).unwrap();
            assert_eq!(one.next, many.next, "strings up to {max_length}");
            assert_eq!(one.rules(), many.rules());
        }
        let twelve = DuplicateAutomaton::new(12).unwrap();
        assert_eq!((twelve.rules(), twelve.states()), (2_540, 9_223));
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
