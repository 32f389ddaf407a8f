//! Perfect ranking of the positions that reach a goal, and moves as rank-to-rank steps.
//!
//! A position's rank is `blank_cell * B + r`, where `B = (N-1)!/2` and `r` ranks the tile
//! sequence (the tiles read row by row, skipping the blank) within the one parity class that
//! the goal allows for that blank cell. Laid out this way a horizontal move does not change the
//! tile sequence at all (the rank moves by `±B`), and a vertical move rotates `W` consecutive
//! items of it, so the engines never build a board.

use super::board::Board;
use super::moves::Move;
use super::shape::Shape;
use godsearch_core::perm::{HalfRanker, RankError, MAX_RANKED};
use godsearch_core::{MoveIdx, RankInt, RankedSpace, SequenceAutomaton, StateSpace};
use thiserror::Error;

/// Moves of every board: the blank up, down, left, right.
const MOVES: usize = Move::ALL.len();

/// The largest board that can be ranked: its tile sequence has at most [`MAX_RANKED`] items.
pub const MAX_RANKED_CELLS: usize = MAX_RANKED + 1;

/// Why a board size cannot be ranked with the chosen integer type.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SpaceError {
    /// The number of positions does not fit the rank type (or any supported one).
    #[error("a {shape} board has {cells}!/2 positions, too many to rank in {bits} bits")]
    TooLarge {
        /// The board size.
        shape: Shape,
        /// Its number of cells.
        cells: usize,
        /// Width of the rank type.
        bits: usize,
    },
}

/// The positions that reach a goal board, perfectly ranked onto `0..N!/2`.
///
/// ```
/// use godsearch_core::{RankedSpace, StateSpace};
/// use godsearch_puzzles::tiles::{Board, Shape, TileSpace};
/// let shape = Shape::new(3, 3).unwrap();
/// let space = TileSpace::<u64>::new(Board::goal(shape)).unwrap();
/// assert_eq!(space.state_count(), 181_440);
/// let board = Board::parse(shape, "2,4,0,1,8,5,3,6,7").unwrap();
/// assert_eq!(space.unrank(space.rank(&board)), board);
/// let mut neighbours = 0;
/// space.for_each_neighbour(space.rank(&board), |_, _| neighbours += 1);
/// assert_eq!(neighbours, 2); // the blank is in a corner
/// ```
#[derive(Debug, Clone)]
pub struct TileSpace<R: RankInt> {
    shape: Shape,
    goal: Board,
    ranker: HalfRanker<R>,
    block: R,
    block_divisor: R::Divisor,
    goal_invariant: bool,
    goal_rank: R,
    /// Each blank cell's row, column and sequence parity, looked up where the moves would
    /// otherwise divide by the width.
    cells: Vec<BlankCell>,
}

/// What the blank's cell says about a position.
#[derive(Debug, Clone, Copy)]
struct BlankCell {
    row: usize,
    col: usize,
    /// Whether the tile sequence is an odd permutation with the blank here.
    odd: bool,
}

/// How tile positions are ranked, written into table headers so that a table is never read
/// with another ranking. Change it whenever [`TileSpace`]'s ranking changes.
pub const TILE_RANKING: &str = "tiles rank=blank-cell*(N-1)!/2+lehmer-half v1";

impl<R: RankInt> TileSpace<R> {
    /// The space of boards that reach `goal` (any arrangement may be a goal).
    pub fn new(goal: Board) -> Result<Self, SpaceError> {
        let shape = goal.shape();
        let cells = shape.cells();
        let too_large = SpaceError::TooLarge {
            shape,
            cells,
            bits: R::BYTES * 8,
        };
        if cells > MAX_RANKED_CELLS {
            return Err(too_large);
        }
        let ranker = HalfRanker::<R>::new(cells - 1).map_err(|e| match e {
            RankError::Size(_) | RankError::TooWide { .. } => too_large.clone(),
        })?;
        let block = ranker.count();
        R::from_u64(cells as u64)
            .mul_add(block, R::default())
            .ok_or(too_large)?;
        let mut space = Self {
            shape,
            goal_invariant: goal.parity_invariant(),
            goal: goal.clone(),
            ranker,
            block,
            block_divisor: R::divisor(block),
            goal_rank: R::default(),
            cells: Vec::new(),
        };
        space.cells = (0..cells)
            .map(|c| BlankCell {
                row: c / shape.width(),
                col: c % shape.width(),
                odd: space.sequence_odd(c),
            })
            .collect();
        space.goal_rank = space.rank(&goal);
        Ok(space)
    }

    /// The board size.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The goal board (rank [`goal_state`](godsearch_core::StateSpace::goal_state)).
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// Whether the tile sequence must be an odd permutation when the blank is at `blank`.
    #[inline]
    fn sequence_odd(&self, blank: usize) -> bool {
        let width = self.shape.width();
        self.goal_invariant ^ (width % 2 == 0 && (blank / width) % 2 == 1)
    }

    /// The rank of a board that reaches the goal (check with [`Board::check_solvable`] first;
    /// an unsolvable board gets a meaningless rank).
    pub fn rank(&self, board: &Board) -> R {
        debug_assert!(board.check_solvable(&self.goal).is_ok());
        let mut seq = [0u8; MAX_RANKED];
        for (slot, t) in seq.iter_mut().zip(board.tile_sequence()) {
            *slot = t as u8;
        }
        R::from_u64(board.blank() as u64) * self.block + self.ranker.rank(&seq)
    }

    /// The board with the given rank (`rank < N!/2`).
    pub fn unrank(&self, rank: R) -> Board {
        let (blank, within) = rank.div_rem(self.block);
        let blank = blank.to_usize();
        let mut seq = [0u8; MAX_RANKED];
        let n = self.shape.cells() - 1;
        self.ranker
            .unrank(within, self.sequence_odd(blank), &mut seq[..n]);
        let mut tiles = seq[..n].iter().map(|&t| t as u16 + 1);
        let cells = (0..=n)
            .map(|c| {
                if c == blank {
                    0
                } else {
                    tiles.next().expect("n tiles")
                }
            })
            .collect();
        Board::from_cells(self.shape, cells).expect("unrank yields a permutation")
    }
}

/// Where a rank puts the blank, and the rank of its tile sequence.
#[derive(Debug, Clone, Copy)]
struct Located<R> {
    blank: usize,
    row: usize,
    col: usize,
    odd: bool,
    within: R,
}

impl<R: RankInt> TileSpace<R> {
    #[inline]
    fn locate(&self, rank: R) -> Located<R> {
        let (blank, within) = rank.div_rem_by(&self.block_divisor);
        let blank = blank.to_usize();
        let cell = self.cells[blank];
        Located {
            blank,
            row: cell.row,
            col: cell.col,
            odd: cell.odd,
            within,
        }
    }

    /// Writes the Lehmer digits of the tile sequence at `at` (the tiles read row by row,
    /// skipping the blank) into `digits`: all that [`vertical`](Self::vertical) needs.
    #[inline]
    fn sequence_digits(&self, at: Located<R>, digits: &mut [u8; MAX_RANKED]) {
        let n = self.shape.cells() - 1;
        self.ranker
            .lehmer_digits(at.within, at.odd, &mut digits[..n]);
    }

    /// The rank after the blank at `at` moves up or down, from the tile sequence's Lehmer
    /// `digits`: the tile that slides moves `W - 1` places in the sequence, so only those
    /// places are ranked again.
    #[inline]
    fn vertical(&self, digits: &[u8; MAX_RANKED], at: Located<R>, mv: Move) -> R {
        let w = self.shape.width();
        let blank = at.blank;
        let (from, to, blank_to) = match mv {
            // The tile above (sequence index blank-w) drops into the blank's cell, which is
            // index blank-1 once the blank has moved up.
            Move::Up => (blank - w, blank - 1, blank - w),
            _ => (blank + w - 1, blank, blank + w),
        };
        let within = self.ranker.rank_after_move(digits, at.within, from, to);
        R::from_u64(blank_to as u64) * self.block + within
    }
}

impl<R: RankInt> RankedSpace for TileSpace<R> {
    fn state_count(&self) -> u128 {
        self.shape.cells() as u128 * self.block.to_u128()
    }

    #[inline]
    fn rank_of(&self, state: Self::State) -> usize {
        state.to_usize()
    }

    #[inline]
    fn state_at(&self, rank: usize) -> Self::State {
        Self::State::from_u64(rank as u64)
    }
}

impl<R: RankInt> StateSpace for TileSpace<R> {
    type State = R;

    fn goal_state(&self) -> R {
        self.goal_rank
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

    /// Every move changes the blank's row plus column parity.
    fn same_level_possible(&self) -> bool {
        false
    }

    fn sequence_automaton(&self) -> SequenceAutomaton {
        Move::sequence_automaton()
    }

    #[inline]
    fn for_each_neighbour(&self, rank: R, f: impl FnMut(MoveIdx, R)) {
        self.for_each_neighbour_by(rank, &[true; MOVES], f);
    }

    /// The blank's cell: a horizontal move keeps the tile sequence, so each part is one run
    /// of ranks, `cell * B..(cell + 1) * B`.
    fn parts(&self) -> usize {
        self.cells.len()
    }

    #[inline]
    fn part_of(&self, rank: R) -> usize {
        self.locate(rank).blank
    }

    fn part_start(&self, part: usize) -> R {
        R::from_u64(part as u64) * self.block
    }

    fn part_after(&self, part: usize, m: MoveIdx) -> Option<usize> {
        let cell = self.cells[part];
        let w = self.shape.width();
        match Move::from_index(m) {
            Move::Up => (cell.row > 0).then(|| part - w),
            Move::Down => (cell.row + 1 < self.shape.height()).then(|| part + w),
            Move::Left => (cell.col > 0).then(|| part - 1),
            Move::Right => (cell.col + 1 < w).then(|| part + 1),
        }
    }

    /// Column by column: the vertical moves, which need the tile sequence's Lehmer digits,
    /// then stay within a group, and only the horizontal ones (an addition) cross between
    /// groups.
    fn parts_in_group_order(&self) -> Vec<usize> {
        let (w, h) = (self.shape.width(), self.shape.height());
        (0..w)
            .flat_map(|col| (0..h).map(move |row| row * w + col))
            .collect()
    }

    /// Takes the tile sequence's Lehmer digits only when a vertical move is allowed.
    #[inline]
    fn for_each_neighbour_by(&self, rank: R, allowed: &[bool], mut f: impl FnMut(MoveIdx, R)) {
        let at = self.locate(rank);
        let up = at.row > 0 && allowed[Move::Up.index() as usize];
        let down = at.row + 1 < self.shape.height() && allowed[Move::Down.index() as usize];
        if up || down {
            let mut digits = [0u8; MAX_RANKED];
            self.sequence_digits(at, &mut digits);
            if up {
                f(Move::Up.index(), self.vertical(&digits, at, Move::Up));
            }
            if down {
                f(Move::Down.index(), self.vertical(&digits, at, Move::Down));
            }
        }
        if at.col > 0 && allowed[Move::Left.index() as usize] {
            f(Move::Left.index(), rank - self.block);
        }
        if at.col + 1 < self.shape.width() && allowed[Move::Right.index() as usize] {
            f(Move::Right.index(), rank + self.block);
        }
    }

    #[inline]
    fn degree_by(&self, rank: R, allowed: &[bool]) -> usize {
        let at = self.locate(rank);
        let legal = [
            at.row > 0,
            at.row + 1 < self.shape.height(),
            at.col > 0,
            at.col + 1 < self.shape.width(),
        ];
        Move::ALL
            .iter()
            .zip(legal)
            .filter(|&(m, legal)| legal && allowed[m.index() as usize])
            .count()
    }

    /// Horizontal neighbours first: they cost an addition, vertical ones the Lehmer digits.
    #[inline]
    fn any_neighbour(&self, rank: R, mut pred: impl FnMut(R) -> bool) -> bool {
        let at = self.locate(rank);
        if (at.col > 0 && pred(rank - self.block))
            || (at.col + 1 < self.shape.width() && pred(rank + self.block))
        {
            return true;
        }
        if at.row == 0 && at.row + 1 == self.shape.height() {
            return false;
        }
        let mut digits = [0u8; MAX_RANKED];
        self.sequence_digits(at, &mut digits);
        (at.row > 0 && pred(self.vertical(&digits, at, Move::Up)))
            || (at.row + 1 < self.shape.height() && pred(self.vertical(&digits, at, Move::Down)))
    }

    /// Horizontal neighbours first, as in [`any_neighbour`](Self::any_neighbour).
    #[inline]
    fn find_neighbour(&self, rank: R, mut pred: impl FnMut(R) -> bool) -> Option<(MoveIdx, R)> {
        let at = self.locate(rank);
        let mut horizontal = [
            (at.col > 0).then(|| (Move::Left, rank - self.block)),
            (at.col + 1 < self.shape.width()).then(|| (Move::Right, rank + self.block)),
        ];
        if let Some((m, nb)) = horizontal.iter_mut().flatten().find(|(_, nb)| pred(*nb)) {
            return Some((m.index(), *nb));
        }
        if at.row == 0 && at.row + 1 == self.shape.height() {
            return None;
        }
        let mut digits = [0u8; MAX_RANKED];
        self.sequence_digits(at, &mut digits);
        [
            (at.row > 0).then_some(Move::Up),
            (at.row + 1 < self.shape.height()).then_some(Move::Down),
        ]
        .into_iter()
        .flatten()
        .map(|m| (m.index(), self.vertical(&digits, at, m)))
        .find(|&(_, nb)| pred(nb))
    }

    #[inline]
    fn degree(&self, rank: R) -> usize {
        let at = self.locate(rank);
        let edge = |at_edge: bool| usize::from(!at_edge);
        edge(at.row == 0)
            + edge(at.row + 1 == self.shape.height())
            + edge(at.col == 0)
            + edge(at.col + 1 == self.shape.width())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn space(w: usize, h: usize) -> TileSpace<u64> {
        TileSpace::new(Board::goal(Shape::new(w, h).unwrap())).unwrap()
    }

    #[test]
    fn ranking_is_a_bijection_on_small_boards() {
        for (w, h) in [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2)] {
            let sp = space(w, h);
            let count = sp.state_count() as u64;
            let mut seen = vec![false; count as usize];
            for r in 0..count {
                let b = sp.unrank(r);
                assert!(b.check_solvable(sp.goal()).is_ok(), "{w}x{h} rank {r}: {b}");
                assert_eq!(sp.rank(&b), r);
                assert!(!std::mem::replace(&mut seen[r as usize], true));
            }
        }
    }

    #[test]
    fn moves_agree_with_boards() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for (w, h) in [(3, 3), (4, 4), (3, 5), (5, 5)] {
            let goal = Board::goal(Shape::new(w, h).unwrap());
            let wide = TileSpace::<u128>::new(goal.clone()).unwrap();
            for _ in 0..200 {
                let r = rng.gen_range(0..wide.state_count());
                let board = wide.unrank(r);
                assert_eq!(wide.rank(&board), r);
                let mut seen = 0;
                wide.for_each_neighbour(r, |mv, next| {
                    let mut moved = board.clone();
                    assert!(moved.apply(Move::from_index(mv)));
                    assert_eq!(wide.unrank(next), moved);
                    seen += 1;
                });
                assert_eq!(seen, wide.degree(r));
                for target in 0..4 {
                    let mut expected = false;
                    wide.for_each_neighbour(r, |mv, _| expected |= mv == target);
                    let found = wide.any_neighbour(r, |nb| {
                        let mut moved = board.clone();
                        moved.apply(Move::from_index(target)) && wide.unrank(nb) == moved
                    });
                    assert_eq!(found, expected);
                    // The neighbour of one move, found with that move.
                    let hit = wide.find_neighbour(r, |nb| {
                        let mut moved = board.clone();
                        moved.apply(Move::from_index(target)) && wide.unrank(nb) == moved
                    });
                    assert_eq!(hit.map(|(mv, _)| mv), expected.then_some(target));
                }
                // With several qualifying, what is found is a neighbour by its move.
                if let Some((mv, nb)) = wide.find_neighbour(r, |_| true) {
                    let mut moved = board.clone();
                    assert!(moved.apply(Move::from_index(mv)));
                    assert_eq!(wide.unrank(nb), moved);
                }
            }
        }
    }

    #[test]
    fn parts_are_blank_cells_that_moves_map_exactly() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(16);
        for (w, h) in [(3, 3), (4, 4), (2, 5)] {
            let sp = space(w, h);
            assert_eq!(sp.parts(), w * h);
            let mut order = sp.parts_in_group_order();
            order.sort_unstable();
            assert_eq!(order, (0..w * h).collect::<Vec<_>>());
            for p in 0..sp.parts() {
                assert_eq!(sp.part_of(sp.part_start(p)), p);
                if p > 0 {
                    assert_eq!(sp.part_of(sp.part_start(p) - 1), p - 1);
                }
            }
            for _ in 0..300 {
                let r = rng.gen_range(0..sp.state_count() as u64);
                let allowed: Vec<bool> = (0..4).map(|_| rng.gen_bool(0.5)).collect();
                let mut all = Vec::new();
                sp.for_each_neighbour(r, |m, nb| all.push((m, nb)));
                let mut some = Vec::new();
                sp.for_each_neighbour_by(r, &allowed, |m, nb| some.push((m, nb)));
                all.retain(|&(m, _)| allowed[m as usize]);
                assert_eq!(some, all);
                assert_eq!(sp.degree_by(r, &allowed), some.len());
                for m in 0..4 {
                    let reached = some.iter().find(|&&(mv, _)| mv == m);
                    let after = sp.part_after(sp.part_of(r), m);
                    match reached {
                        Some(&(_, nb)) => assert_eq!(after, Some(sp.part_of(nb))),
                        None if allowed[m as usize] => assert_eq!(after, None),
                        None => {}
                    }
                }
            }
        }
    }

    #[test]
    fn any_goal_defines_the_space() {
        let shape = Shape::new(4, 4).unwrap();
        let blank_first = Board::parse(shape, "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15").unwrap();
        let sp = TileSpace::<u64>::new(blank_first.clone()).unwrap();
        assert_eq!(sp.unrank(sp.goal_state()), blank_first);
        assert_eq!(sp.state_count(), 10_461_394_944_000);
    }

    #[test]
    fn too_large_boards_are_refused() {
        let shape = Shape::new(5, 5).unwrap();
        assert!(TileSpace::<u64>::new(Board::goal(shape)).is_err());
        assert!(TileSpace::<u128>::new(Board::goal(shape)).is_ok());
        assert!(TileSpace::<u128>::new(Board::goal(Shape::new(6, 6).unwrap())).is_err());
    }
}
