//! Property tests of every parser of user input in this crate: boards, goals, board sizes, cube facelets, move sequences and instance files. Random and mutated inputs
//! must give an error or a value that round-trips; never a panic. (The same contracts run for
//! much longer under `cargo fuzz`: see `fuzz/`.)

use godsearch_core::StateSpace;
use godsearch_puzzles::cube::algorithm::parse_moves;
use godsearch_puzzles::cube::notation::{apply_moves, format_moves};
use godsearch_puzzles::cube::{
    facelet, parse_position, Algorithm, CubieCube, Move, Notation, PositionError, Syntax, CUBE2,
    CUBE3,
};
use godsearch_puzzles::tiles::{parse_instances, Board, Move as TileMove, Shape, TileSpace};
use proptest::prelude::*;

/// Characters that appear in boards, names, sizes, moves and stickers, plus a few that must be
/// refused.
const ALPHABET: &str = "0123456789abcdefABCDEFxX,. _-+\n\t'2URFDLBwrgyoQ€";

fn text(max: usize) -> impl Strategy<Value = String> {
    let chars: Vec<char> = ALPHABET.chars().collect();
    proptest::collection::vec(proptest::sample::select(chars), 0..max)
        .prop_map(|v| v.into_iter().collect())
}

/// Characters of pasted algorithms: every turn letter, counts, primes, brackets, comments.
const ALGORITHM_ALPHABET: &str = "URFDLBurfdlbwMESxyz0123' ()[],:/\n Q";

fn algorithm_text(max: usize) -> impl Strategy<Value = String> {
    let chars: Vec<char> = ALGORITHM_ALPHABET.chars().collect();
    proptest::collection::vec(proptest::sample::select(chars), 0..max)
        .prop_map(|v| v.into_iter().collect())
}

fn shapes() -> impl Strategy<Value = Shape> {
    (2usize..6, 2usize..6).prop_map(|(w, h)| Shape::new(w, h).unwrap())
}

/// A random arrangement of a board's tiles (solvable or not).
fn board(shape: Shape) -> impl Strategy<Value = Board> {
    Just((0..shape.cells() as u16).collect::<Vec<_>>())
        .prop_shuffle()
        .prop_map(move |cells| Board::from_cells(shape, cells).unwrap())
}

/// `text` with one character replaced, removed or doubled at `at`.
fn mutate(text: &str, at: prop::sample::Index, how: u8, with: char) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return with.to_string();
    }
    let i = at.index(chars.len());
    match how % 3 {
        0 => chars[i] = with,
        1 => {
            chars.remove(i);
        }
        _ => chars.insert(i, chars[i]),
    }
    chars.into_iter().collect()
}

fn cube_moves() -> impl Strategy<Value = Vec<Move>> {
    proptest::collection::vec((0u8..6, 1u8..4), 0..40).prop_map(|v| {
        v.into_iter()
            .map(|(face, turns)| Move { face, turns })
            .collect()
    })
}

proptest! {
    #[test]
    fn random_board_text_never_panics(shape in shapes(), t in text(60)) {
        if let Ok(b) = Board::parse(shape, &t) {
            prop_assert_eq!(Board::parse(shape, &b.to_list()), Ok(b));
        }
        if let Ok(goal) = Board::parse_goal(shape, &t) {
            prop_assert_eq!(Board::parse_goal(shape, &goal.to_list()), Ok(goal));
        }
    }

    #[test]
    fn boards_round_trip_in_every_notation(b in shapes().prop_flat_map(board)) {
        let shape = b.shape();
        prop_assert_eq!(Board::parse(shape, &b.to_list()), Ok(b.clone()));
        prop_assert_eq!(Board::parse(shape, &b.to_grid()), Ok(b.clone()));
        if let Some(hex) = b.to_hex() {
            prop_assert_eq!(Board::parse(shape, &hex), Ok(b));
        }
    }

    #[test]
    fn mutated_boards_are_refused_or_still_boards(
        b in shapes().prop_flat_map(board),
        at in any::<prop::sample::Index>(),
        how in any::<u8>(),
        with in proptest::sample::select(ALPHABET.chars().collect::<Vec<_>>()),
    ) {
        let shape = b.shape();
        let t = mutate(&b.to_list(), at, how, with);
        if let Ok(parsed) = Board::parse(shape, &t) {
            // Whatever was read is a whole board: every tile once.
            let mut cells = parsed.cells().to_vec();
            cells.sort_unstable();
            prop_assert!(cells.iter().enumerate().all(|(i, &c)| c as usize == i));
        }
    }

    #[test]
    fn any_goal_ranks_itself_and_parity_decides(
        goal in (2usize..5, 2usize..5)
            .prop_map(|(w, h)| Shape::new(w, h).unwrap())
            .prop_flat_map(board),
        m in proptest::collection::vec(0usize..4, 0..30),
    ) {
        let space = TileSpace::<u64>::new(goal.clone()).unwrap();
        prop_assert_eq!(space.rank(&goal), space.goal_state());
        // Any walk from the goal stays solvable; a swap of two tiles never is.
        let mut walked = goal.clone();
        for k in m {
            walked.apply(TileMove::ALL[k]);
        }
        prop_assert!(walked.check_solvable(&goal).is_ok());
        let mut cells = walked.cells().to_vec();
        let tiles: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] != 0).collect();
        cells.swap(tiles[0], tiles[1]);
        let swapped = Board::from_cells(goal.shape(), cells).unwrap();
        prop_assert!(swapped.check_solvable(&goal).is_err());
    }

    #[test]
    fn board_sizes_of_any_magnitude_are_checked(w in any::<u64>(), h in any::<u64>(), small in 0u64..80) {
        for (w, h) in [(w, h), (small, h % 80), (w % 80, small)] {
            let fits = (2..=4096).contains(&w)
                && (2..=4096).contains(&h)
                && (w as u128) * (h as u128) <= 4096;
            let parsed = format!("{w}x{h}").parse::<Shape>();
            prop_assert_eq!(parsed.is_ok(), fits, "{}x{}", w, h);
            let tiles = format!("{w}-puzzle").parse::<Shape>();
            if let Ok(s) = tiles {
                prop_assert_eq!(s.cells() as u64, w + 1);
            }
        }
    }

    #[test]
    fn move_sequences_round_trip(moves in cube_moves()) {
        let text = format_moves(&moves);
        prop_assert_eq!(parse_moves(&text), Ok(moves.clone()));
        let compact: String = text.split_whitespace().collect();
        prop_assert_eq!(parse_moves(&compact), Ok(moves.clone()));
        let cube = parse_position(CUBE3, &text, Syntax::Moves).unwrap();
        prop_assert_eq!(cube, apply_moves(&CubieCube::SOLVED, &moves));
    }

    #[test]
    fn random_algorithms_never_panic_and_read_back(t in algorithm_text(60)) {
        if let Ok(a) = Algorithm::parse(&t) {
            for size in [CUBE2, CUBE3] {
                if let Ok(cube) = a.apply_held(size, &CubieCube::SOLVED) {
                    if size.has_middle_layers() {
                        prop_assert!(cube.check().is_ok());
                    }
                }
            }
            for notation in [Notation::Singmaster, Notation::Sign] {
                prop_assert_eq!(Algorithm::parse(&a.format(notation)), Ok(a.clone()));
            }
        }
    }

    #[test]
    fn random_cube_text_never_panics(t in text(70)) {
        for size in [CUBE2, CUBE3] {
            for syntax in [Syntax::Auto, Syntax::Facelets, Syntax::Moves] {
                if let Ok(cube) = parse_position(size, &t, syntax) {
                    match size.has_middle_layers() {
                        true => prop_assert!(cube.check().is_ok()),
                        // A 2x2x2 is its corners (its edges are not read).
                        false => prop_assert!(cube.check_corners().is_ok()),
                    }
                }
            }
        }
    }

    #[test]
    fn facelets_of_reachable_cubes_round_trip(moves in cube_moves()) {
        let cube = apply_moves(&CubieCube::SOLVED, &moves);
        let stickers = facelet::format(&cube);
        prop_assert_eq!(parse_position(CUBE3, &stickers, Syntax::Facelets), Ok(cube));
        // Face-letter stickers are move letters too: read without a hint, they are never
        // taken for moves.
        prop_assert!(
            matches!(
                parse_position(CUBE3, &stickers, Syntax::Auto),
                Err(PositionError::Ambiguous { .. })
            ),
            "stickers read as moves"
        );
        let colours: String = stickers
            .chars()
            .map(|c| match c { 'U' => 'w', 'R' => 'r', 'F' => 'g', 'D' => 'y', 'L' => 'o', _ => 'b' })
            .collect();
        prop_assert_eq!(parse_position(CUBE3, &colours, Syntax::Auto), Ok(cube));
        // A 2x2x2 is read with its DBL corner naming the faces, so the first reading may turn
        // the whole cube; from then on it reads back as itself.
        let corners = facelet::parse_pocket(&facelet::format_pocket(&cube)).unwrap();
        prop_assert_eq!(facelet::parse_pocket(&facelet::format_pocket(&corners)), Ok(corners));
    }

    #[test]
    fn mutated_facelets_are_refused_or_valid(
        moves in cube_moves(),
        at in any::<prop::sample::Index>(),
        how in any::<u8>(),
        with in proptest::sample::select("URFDLBX ".chars().collect::<Vec<_>>()),
    ) {
        let stickers = facelet::format(&apply_moves(&CubieCube::SOLVED, &moves));
        let t = mutate(&stickers, at, how, with);
        for syntax in [Syntax::Auto, Syntax::Facelets] {
            if let Ok(cube) = parse_position(CUBE3, &t, syntax) {
                prop_assert!(cube.check().is_ok());
                // A damaged sticker string is never quietly solved as moves: with a sticker
                // more or less it is refused, with one changed it is ambiguous or invalid.
                prop_assert!(syntax == Syntax::Facelets || t == stickers);
            }
        }
    }

    #[test]
    fn instance_files_never_panic(lines in proptest::collection::vec(text(50), 0..6)) {
        let file = lines.join("\n");
        if let Err((line, _)) = parse_instances(Shape::new(3, 3).unwrap(), &file) {
            prop_assert!(line >= 1 && line <= file.lines().count());
        }
    }

    #[test]
    fn korf_lines_read_back(
        boards in proptest::collection::vec(board(Shape::new(4, 4).unwrap()), 1..5),
        lengths in proptest::collection::vec(0usize..100, 5),
    ) {
        let shape = Shape::new(4, 4).unwrap();
        let file: String = boards
            .iter()
            .zip(&lengths)
            .enumerate()
            .map(|(i, (b, l))| format!("{} {l} {}\n", i + 1, b.to_list().replace(',', " ")))
            .collect();
        let read = parse_instances(shape, &file).unwrap();
        prop_assert_eq!(read.len(), boards.len());
        for ((r, b), l) in read.iter().zip(&boards).zip(&lengths) {
            prop_assert_eq!(&r.board, b);
            prop_assert_eq!(r.length, Some(*l));
        }
    }
}
