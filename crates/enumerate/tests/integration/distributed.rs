//! The distributed backend in one process with several worker threads (the multi-process runs
//! are tested through the CLI): counts equal to the published figures and to the frontier
//! engine, levels on disk spilled and resumed, and the owner hash pinned.
#![cfg(feature = "distributed")]

use godsearch_core::StateSpace;
use godsearch_enumerate::back_moves::BackMoves;
use godsearch_enumerate::disk::DEFAULT_BUCKET_STATES;
use godsearch_enumerate::distributed::{
    enumerate_distributed, owner_of, Cluster, DistributedOptions, DistributedRun, LevelsOnDisk,
};
use godsearch_enumerate::{frontier, KeyState, Limits, NoProgress, Stop};
use godsearch_puzzles::cube::{Cube2Space, Cube3Classes, Metric, Reduction};
use godsearch_puzzles::tiles::{Board, Shape, TileSpace};
use godsearch_testdata::{column, levels};
use std::time::Duration;

const GIB: u64 = 1 << 30;

fn tiles(w: usize, h: usize) -> TileSpace<u64> {
    TileSpace::new(Board::goal(Shape::new(w, h).unwrap())).unwrap()
}

fn limits(max_depth: Option<u32>) -> Limits {
    Limits {
        max_depth,
        memory_bytes: 4 * GIB,
        antipode_cap: 100,
        count_last: false,
    }
}

fn run<P>(space: P, workers: usize, max_depth: Option<u32>) -> DistributedRun<P::State>
where
    P: StateSpace + Send + Sync + 'static,
    P::State: KeyState,
{
    let options = DistributedOptions {
        cluster: Cluster::single(workers),
        run: "test",
        on_disk: None,
        patience: Duration::from_secs(10),
    };
    enumerate_distributed(space, &options, &limits(max_depth), &NoProgress).unwrap()
}

#[test]
fn owner_hash_is_pinned() {
    // The split must be the same on every machine and in every release: changing the hash
    // or its seed breaks every checkpointed run. The figures are from an independent XXH3
    // (Python's xxhash: xxh3_64_intdigest(k.to_bytes(16, 'little'), seed) % 7).
    let owners: Vec<usize> = (0..8u128).map(|k| owner_of(k, 7)).collect();
    assert_eq!(owners, vec![2, 6, 1, 3, 5, 4, 3, 4]);
    let spread = (0..70_000u128).filter(|&k| owner_of(k, 7) == 3).count();
    assert!((9_000..11_000).contains(&spread), "{spread}");
}

#[test]
fn eight_puzzle_with_one_to_three_workers_equals_published_counts() {
    let expected = levels("sliding-3x3.txt");
    for workers in 1..=3 {
        let r = run(tiles(3, 3), workers, None);
        assert_eq!(r.enumeration.levels, expected, "{workers} workers");
        assert_eq!(r.enumeration.stop, Stop::Complete);
        assert_eq!(r.peers, workers);
        let antipodes = r.enumeration.last_level.expect("two antipodes gathered");
        assert_eq!(antipodes.len(), 2);
        if workers > 1 {
            let sent: u64 = r.traffic.iter().map(|t| t.sent_states).sum();
            assert!(sent > 0, "states cross workers");
        }
    }
}

#[test]
fn four_by_four_to_depth_20_equals_frontier_engine() {
    let space = tiles(4, 4);
    let plain = frontier::enumerate(&space, &limits(Some(20)), &NoProgress);
    let r = run(space, 3, Some(20));
    assert_eq!(r.enumeration.levels, plain.levels);
    assert_eq!(r.enumeration.levels, levels("sliding-4x4.txt")[..=20]);
    assert_eq!(r.enumeration.stop, Stop::MaxDepth(20));
}

#[test]
fn cubes_equal_published_counts() {
    let r = run(Cube2Space::new(Metric::Htm), 2, None);
    assert_eq!(r.enumeration.levels, levels("cube2x2x2-htm.txt"));
    let r = run(
        Cube3Classes::new(Metric::Htm, Reduction::Symmetries),
        2,
        Some(6),
    );
    assert_eq!(r.enumeration.levels, column("cube3x3x3-htm.txt", 1, 7));
    assert_eq!(r.enumeration.classes, column("cube3x3x3-htm.txt", 2, 7));
}

#[test]
fn a_run_on_disk_resumes_and_refuses_a_foreign_folder() {
    resumes_and_repairs(|| tiles(3, 3));
    // With their moves back, two levels are kept, and a damaged level is made again from the
    // one before it alone.
    resumes_and_repairs(|| BackMoves::ranked(tiles(3, 3)).unwrap());
}

/// A run of the 8-puzzle's `space` on disk with two workers: refused without `--resume`, or
/// for another puzzle; resumed to the same counts; and a damaged newest level made again.
fn resumes_and_repairs<P>(space: impl Fn() -> P)
where
    P: StateSpace + Send + Sync + 'static,
    P::State: KeyState,
{
    let dir = tempfile::tempdir().unwrap();
    let with = |resume: bool, run: &'static str, depth: u32| {
        let options = DistributedOptions {
            cluster: Cluster::single(2),
            run,
            on_disk: Some(LevelsOnDisk {
                root: dir.path(),
                resume,
                keep_levels: false,
                bucket_states: DEFAULT_BUCKET_STATES,
                disk_bytes: None,
            }),
            patience: Duration::from_secs(10),
        };
        enumerate_distributed(space(), &options, &limits(Some(depth)), &NoProgress)
    };
    let first = with(false, "3x3", 12).unwrap();
    assert_eq!(first.resumed_from, None);
    assert!(first.disk_bytes > 0);
    let again = with(false, "3x3", 20).unwrap_err().to_string();
    assert!(again.contains("«resume»"), "{again}");
    let other = with(true, "3x4", 20).unwrap_err().to_string();
    assert!(other.contains("holds a run of"), "{other}");
    let resumed = with(true, "3x3", 31).unwrap();
    assert_eq!(resumed.resumed_from, Some(12));
    assert_eq!(resumed.enumeration.levels, levels("sliding-3x3.txt")[..=31]);
    // A damaged newest file makes every worker fall back a level and make it again.
    let newest = dir.path().join("worker-001/level-031/bucket-00000");
    let mut bytes = std::fs::read(&newest).unwrap();
    let last = bytes.len() - 1;
    bytes[last / 2] ^= 0x40;
    std::fs::write(&newest, bytes).unwrap();
    let repaired = with(true, "3x3", 32).unwrap();
    assert_eq!(repaired.resumed_from, Some(30));
    assert_eq!(repaired.enumeration.levels, levels("sliding-3x3.txt"));
    assert_eq!(repaired.enumeration.stop, Stop::Complete);
    let antipodes = repaired
        .enumeration
        .last_level
        .expect("gathered from the level files");
    assert_eq!(antipodes.len(), 2);
}

#[test]
fn a_process_that_never_comes_is_named_after_the_wait() {
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let mine = free.local_addr().unwrap().to_string();
    drop(free);
    let absent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let theirs = absent.local_addr().unwrap().to_string();
    drop(absent);
    let options = DistributedOptions {
        cluster: Cluster {
            workers: 1,
            process: 0,
            addresses: vec![mine, theirs.clone()],
        },
        run: "test",
        on_disk: None,
        patience: Duration::from_millis(300),
    };
    let err = enumerate_distributed(tiles(3, 3), &options, &limits(None), &NoProgress)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&format!("process 1 ({theirs}) did not connect")),
        "{err}"
    );
}

#[test]
fn states_with_their_moves_back_give_the_published_counts_in_memory_and_on_disk() {
    // Owned by their positions' keys, so that every copy of a position meets the others at
    // one owner, which joins their moves back.
    let expected = levels("sliding-3x3.txt");
    for workers in 1..=3 {
        // A depth limit past the diameter, so that a run whose copies of a position never
        // meet (and so never runs out of levels) ends.
        let past = expected.len() as u32;
        let r = run(BackMoves::ranked(tiles(3, 3)).unwrap(), workers, Some(past));
        assert_eq!(r.enumeration.levels, expected, "{workers} workers");
        assert_eq!(r.enumeration.last_level.map(|l| l.len()), Some(2));
    }
    let dir = tempfile::tempdir().unwrap();
    let space = BackMoves::ranked(tiles(4, 4)).unwrap();
    let r = spilling_to_depth_19(space, dir.path(), false);
    assert_eq!(r.enumeration.levels, levels("sliding-4x4.txt")[..=19]);
    assert!(r.traffic[19].spilled_bytes > 0, "level 19 spilled");
}

/// `space` (the 4x4's states) to depth 19 on disk under `root`, with 3 workers, a tiny memory
/// share and small buckets, so that candidates spill to disk and levels split into many
/// bucket files on every worker.
fn spilling_to_depth_19<P>(
    space: P,
    root: &std::path::Path,
    keep_levels: bool,
) -> DistributedRun<P::State>
where
    P: StateSpace + Send + Sync + 'static,
    P::State: KeyState,
{
    let options = DistributedOptions {
        cluster: Cluster::single(3),
        run: "4x4 small",
        on_disk: Some(LevelsOnDisk {
            root,
            resume: false,
            keep_levels,
            bucket_states: 5_000,
            disk_bytes: None,
        }),
        patience: Duration::from_secs(10),
    };
    let tight = Limits {
        memory_bytes: 3 << 20,
        ..limits(Some(19))
    };
    enumerate_distributed(space, &options, &tight, &NoProgress).unwrap()
}

#[test]
fn levels_on_disk_spill_and_split_into_buckets_with_the_same_counts() {
    let dir = tempfile::tempdir().unwrap();
    let r = spilling_to_depth_19(tiles(4, 4), dir.path(), true);
    assert_eq!(r.enumeration.levels, levels("sliding-4x4.txt")[..=19]);
    let buckets = std::fs::read_dir(dir.path().join("worker-002/level-019"))
        .unwrap()
        .count();
    assert!(buckets > 10, "{buckets} buckets");
    assert!(r.disk_bytes > 0);
    let sent: u64 = r.traffic.iter().map(|t| t.sent_states).sum();
    assert!(sent > 0);
    assert!(r.traffic[19].spilled_bytes > 0, "level 19 spilled");
    let spilled = (0..3).any(|w| {
        dir.path()
            .join(format!("worker-{w:03}/level-019/candidates"))
            .exists()
    });
    assert!(
        !spilled,
        "spilled candidates are removed once the level is listed"
    );
}
