//! Korf's 100 random 15-puzzle instances (data/korf100.txt) solved optimally with
//! additive pattern databases: all 100 on the blank-last goal with 6-6-3, and ten with 5-5-5. All
//! 100 with 7-8 (its 8-tile database is half a gigabyte and a minute's build on two cores) and the
//! 24-puzzle with 6-6-6-6 (a 45 s build and 1.2 GB) run when ignored tests are asked for: they
//! take the same build and search paths as 6-6-3 and 5-5-5, with larger tables.

use godsearch_enumerate::{pattern_db, NoProgress};
use godsearch_puzzles::tiles::{parse_instances, Board, Instance, Partition, Shape};
use godsearch_search::tiles::{ida_star, PatternHeuristic, ReflectedLookup, TableBytes};
use godsearch_testdata::data_dir;

const GIB: u64 = 1 << 30;
const THREADS: usize = 2;

fn instances(file: &str) -> Vec<Instance> {
    let text = std::fs::read_to_string(data_dir().join(file)).unwrap();
    parse_instances(Shape::new(4, 4).unwrap(), &text).unwrap()
}

fn heuristic(goal: &Board, partition: &str) -> PatternHeuristic {
    let partition = Partition::parse(partition, goal).unwrap();
    let tables = partition
        .patterns()
        .iter()
        .map(|p| TableBytes::Owned(pattern_db::build(p, 4 * GIB, &NoProgress).unwrap()))
        .collect();
    PatternHeuristic::new(goal, &partition, tables, ReflectedLookup::Mirror).unwrap()
}

fn solve_all(file: &str, goal: &Board, partition: &str, which: impl Fn(&Instance) -> bool) {
    let h = heuristic(goal, partition);
    for instance in instances(file).iter().filter(|i| which(i)) {
        let id = instance
            .id
            .as_deref()
            .expect("korf files name their instances");
        instance.board.check_solvable(goal).unwrap();
        let outcome = ida_star(&instance.board, goal, &h, THREADS).unwrap();
        assert_eq!(Some(outcome.moves.len()), instance.length, "instance {id}");
        let mut b = instance.board.clone();
        assert!(outcome.moves.iter().all(|&m| b.apply(m)), "instance {id}");
        assert_eq!(&b, goal);
    }
}

fn blank_first() -> Board {
    Board::parse(
        Shape::new(4, 4).unwrap(),
        "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
    )
    .unwrap()
}

/// The ten instances with the shortest optimal solutions: quick, and spread over the file.
fn easiest_ten(i: &Instance) -> bool {
    const EASIEST: [u32; 10] = [55, 16, 42, 79, 71, 85, 97, 12, 61, 86];
    EASIEST
        .iter()
        .any(|e| i.id.as_deref() == Some(&e.to_string()))
}

#[test]
fn ten_korf_instances_with_5_5_5() {
    solve_all("korf100.txt", &blank_first(), "5-5-5", easiest_ten);
}

#[test]
fn blank_last_goal_gives_the_same_lengths() {
    solve_all(
        "korf100-blank-last.txt",
        &Board::goal(Shape::new(4, 4).unwrap()),
        "6-6-3",
        |_| true,
    );
}

#[test]
#[ignore = "7-8 databases: half a gigabyte, a minute's build and a minute of search"]
fn all_korf_instances_with_7_8() {
    solve_all("korf100.txt", &blank_first(), "7-8", |_| true);
}

/// Two 24-puzzle boards of 84 moves (random walks, see `godsearch bench --large`), whose
/// optimal length the search must prove.
#[test]
#[ignore = "6-6-6-6 databases: a 45 s build and 1.2 GB"]
fn twenty_four_puzzle_boards_of_84_moves() {
    let shape = Shape::new(5, 5).unwrap();
    let goal = Board::goal(shape);
    let h = heuristic(&goal, "6-6-6-6");
    for cells in [
        "11,6,10,16,0,23,21,13,9,8,3,2,18,14,4,19,7,12,1,5,17,22,20,15,24",
        "11,3,1,13,15,6,20,24,23,10,7,14,4,5,2,12,0,17,16,19,8,21,22,18,9",
    ] {
        let board = Board::parse(shape, cells).unwrap();
        let outcome = ida_star(&board, &goal, &h, THREADS).unwrap();
        assert_eq!(outcome.moves.len(), 84, "{board}");
        let mut b = board.clone();
        assert!(outcome.moves.iter().all(|&m| b.apply(m)), "{board}");
        assert_eq!(b, goal);
    }
}

fn twenty_four_blank_first() -> Board {
    let cells: Vec<String> = (0..25).map(|t| t.to_string()).collect();
    Board::parse(Shape::new(5, 5).unwrap(), &cells.join(" ")).unwrap()
}

fn korf_felner() -> Vec<Instance> {
    let text = std::fs::read_to_string(data_dir().join("korf-felner-24.txt")).unwrap();
    parse_instances(Shape::new(5, 5).unwrap(), &text).unwrap()
}

/// Korf and Felner's fifty 24-puzzle instances as written in data/: numbered 1 to 50, each
/// solvable for the blank-first goal, each published length at least the board's Manhattan
/// distance and of its parity (every move changes that distance by one), which a mistyped tile
/// or length breaks; the first ten are Korf and Taylor's, sorted by length (95 to 114).
#[test]
fn korf_felner_instances_are_well_formed() {
    let goal = twenty_four_blank_first();
    let instances = korf_felner();
    assert_eq!(instances.len(), 50);
    let korf_taylor: Vec<usize> = instances[..10].iter().map(|i| i.length.unwrap()).collect();
    assert_eq!(korf_taylor, [95, 96, 97, 98, 100, 101, 104, 108, 113, 114]);
    for (k, instance) in instances.iter().enumerate() {
        assert_eq!(instance.id.as_deref(), Some((k + 1).to_string().as_str()));
        instance.board.check_solvable(&goal).unwrap();
        let cells = instance.board.to_list();
        let cells: Vec<usize> = cells.split(',').map(|c| c.parse().unwrap()).collect();
        let manhattan: usize = cells
            .iter()
            .enumerate()
            .filter(|(_, &tile)| tile != 0)
            .map(|(at, &tile)| (at / 5).abs_diff(tile / 5) + (at % 5).abs_diff(tile % 5))
            .sum();
        let length = instance.length.unwrap();
        assert!(manhattan <= length, "instance {}", k + 1);
        assert_eq!(manhattan % 2, length % 2, "instance {}", k + 1);
    }
}

/// Korf and Taylor's first instance (95 moves) solved to its published length: 1.3 G nodes,
/// about 90 s on two cores after the databases are built.
#[test]
#[ignore = "6-6-6-6 databases (a 45 s build, 1.2 GB) and about 90 s of search"]
fn korf_taylor_first_instance_with_6_6_6_6() {
    let goal = twenty_four_blank_first();
    let h = heuristic(&goal, "6-6-6-6");
    let first = &korf_felner()[0];
    let outcome = ida_star(&first.board, &goal, &h, THREADS).unwrap();
    assert_eq!(Some(outcome.moves.len()), first.length);
    let mut b = first.board.clone();
    assert!(outcome.moves.iter().all(|&m| b.apply(m)));
    assert_eq!(b, goal);
}
