//! The run's folder: a manifest, one folder a level with one file a bucket, and a lock.
//!
//! ```text
//! DIR/lock                  held (flock) while a run works in DIR
//! DIR/manifest              the finished levels: counts, bucket bounds, each file's checksum;
//!                           and the plan (bucket bounds) of the level being made
//! DIR/level-031/bucket-00017   states of level 31 with keys in bucket 17, sorted, as varint gaps
//! DIR/level-032/candidates/    neighbours spilled while level 32 is made (never trusted:
//!                              removed when a level starts)
//! ```
//! Every file but the candidates is a table file ([`godsearch_tables::file`]): header, checksum,
//! written to a temporary file, fsynced and renamed, and the folder fsynced after, so a level
//! listed in the manifest survives a crash, and a file that is damaged or was never finished is
//! detected when it is read.

use super::codec::{decode_sorted_into, encode_sorted, KeyInt, KeyState};
use super::DiskError;
use godsearch_tables::file::{self, Encoding, TableHeader};
use std::fmt::Write as _;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// What the manifest's header says it is, so that no other table file is taken for one.
const MANIFEST_KIND: &str = "disk enumeration manifest v1";
const MANIFEST: &str = "manifest";
const LOCK: &str = "lock";
const CANDIDATES: &str = "candidates";

/// The first key of each bucket of a level, ascending; bucket `i` holds the keys from
/// `starts[i]` up to `starts[i + 1]` (the last one has no end). `starts[0]` is 0. Keys are
/// integers `K` (`u128`, or `U256` past 128 bits).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Bounds<K> {
    pub starts: Vec<K>,
}

impl<K: KeyInt> Bounds<K> {
    /// One bucket for every key.
    pub fn single() -> Self {
        Bounds {
            starts: vec![K::default()],
        }
    }

    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// The keys of bucket `i`: `start..end`, `end` `None` for the last.
    pub fn range(&self, i: usize) -> (K, Option<K>) {
        (self.starts[i], self.starts.get(i + 1).copied())
    }
}

/// One finished bucket file as the manifest lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BucketRecord {
    pub states: u64,
    pub positions: u64,
    pub checksum: u32,
    pub bytes: u64,
}

/// A finished level as the manifest lists it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LevelRecord<K> {
    pub depth: u32,
    pub positions: u64,
    pub classes: u64,
    pub seconds: f64,
    /// Its files are still in the folder (levels no longer needed are deleted).
    pub on_disk: bool,
    pub bounds: Bounds<K>,
    pub buckets: Vec<BucketRecord>,
}

impl<K> LevelRecord<K> {
    /// Bytes its files take.
    pub fn bytes(&self) -> u64 {
        self.buckets.iter().map(|b| b.bytes).sum()
    }
}

/// Everything a run has made durable.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Manifest<K> {
    pub levels: Vec<LevelRecord<K>>,
    /// The depth and bucket bounds of the level being made, fixed before its first bucket is
    /// written so that a resumed run makes the same buckets.
    pub plan: Option<(u32, Bounds<K>)>,
}

impl<K> Default for Manifest<K> {
    fn default() -> Self {
        Manifest {
            levels: Vec::new(),
            plan: None,
        }
    }
}

/// The run's folder, locked for as long as this value lives.
#[derive(Debug)]
pub(crate) struct Workdir {
    dir: PathBuf,
    run: String,
    _lock: File,
}

fn io_error(path: &Path) -> impl Fn(io::Error) -> DiskError + '_ {
    move |error| DiskError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Bytes a level may still write, its bucket files and spilled runs together, within the
/// run's disk budget. The level's estimate ([`super::DiskEngine::disk_needed`]) can fall
/// short; the budget holds anyway: a write that would pass it fails as a full disk does
/// (`StorageFull`), and the run stops with exact counts, to be resumed.
#[derive(Debug)]
pub(crate) struct DiskBudget {
    left: AtomicU64,
}

impl DiskBudget {
    /// A budget of `bytes` (`None`: unbounded).
    pub fn new(bytes: Option<u64>) -> Self {
        match bytes {
            Some(bytes) => DiskBudget {
                left: AtomicU64::new(bytes),
            },
            None => Self::unbounded(),
        }
    }

    /// No budget: only the disk's own size bounds the writes.
    pub const fn unbounded() -> Self {
        DiskBudget {
            left: AtomicU64::new(u64::MAX),
        }
    }

    /// Gives back `bytes` taken for files since removed.
    pub fn give_back(&self, bytes: u64) {
        let _ = self
            .left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                Some(left.saturating_add(bytes))
            });
    }

    /// Takes `bytes` for a write to `path`, or refuses it, leaving the budget as it was, when
    /// fewer are left.
    pub fn take(&self, bytes: u64, path: &Path) -> Result<(), DiskError> {
        self.left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                left.checked_sub(bytes)
            })
            .map(|_| ())
            .map_err(|_| DiskError::Io {
                path: path.to_path_buf(),
                error: io::Error::new(
                    io::ErrorKind::StorageFull,
                    "the level would pass the disk budget («disk»)",
                ),
            })
    }
}

/// The run the folder `dir` holds, as its manifest names it, or `None` where it holds none
/// (no manifest, or not a readable one). Reads without the lock: for a front end choosing
/// which run to resume; `Workdir::open` checks it all again.
pub fn run_in(dir: &Path) -> Option<String> {
    let table = file::load(&dir.join(MANIFEST)).ok()?;
    let header = table.header();
    (header.params == MANIFEST_KIND).then(|| header.puzzle.clone())
}

/// The folder under a distributed run's `root` that worker `worker` (of all processes) keeps
/// its levels in, as a run of its own.
pub fn worker_folder(root: &Path, worker: usize) -> PathBuf {
    root.join(format!("worker-{worker:03}"))
}

impl Workdir {
    /// Opens (creating it if needed) and locks `dir` for the run described by `run`, and reads
    /// its manifest: `None` for a fresh folder. A folder holding another run, or a run when
    /// `resume` is not set, is refused.
    pub fn open<K: KeyInt>(
        dir: &Path,
        run: &str,
        resume: bool,
    ) -> Result<(Workdir, Option<Manifest<K>>), DiskError> {
        if dir.exists() && !dir.is_dir() {
            return Err(DiskError::NotAFolder(dir.to_path_buf()));
        }
        fs::create_dir_all(dir).map_err(io_error(dir))?;
        let lock_path = dir.join(LOCK);
        // A folder refused (it holds other files) keeps no lock file of ours.
        let lock_was_there = lock_path.exists();
        let refuse = |e: DiskError| {
            if !lock_was_there {
                let _ = fs::remove_file(&lock_path);
            }
            Err(e)
        };
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(io_error(&lock_path))?;
        match fs4::FileExt::try_lock(&lock) {
            Ok(()) => {}
            Err(fs4::TryLockError::WouldBlock) => return Err(DiskError::Busy(dir.to_path_buf())),
            Err(fs4::TryLockError::Error(e)) => return Err(io_error(&lock_path)(e)),
        }
        let workdir = Workdir {
            dir: dir.to_path_buf(),
            run: run.to_string(),
            _lock: lock,
        };
        workdir.remove_temp_files()?;
        let manifest_path = dir.join(MANIFEST);
        if !manifest_path.exists() {
            let ours =
                |name: &str| name == LOCK || name.starts_with('.') || name.starts_with("level-");
            for entry in fs::read_dir(dir).map_err(io_error(dir))? {
                let name = entry.map_err(io_error(dir))?.file_name();
                if !ours(&name.to_string_lossy()) {
                    drop(workdir);
                    return refuse(DiskError::NotEmpty(dir.to_path_buf()));
                }
            }
            // Also with --resume: a run killed before level 0 was listed lost nothing.
            return Ok((workdir, None));
        }
        if !resume {
            return Err(DiskError::RunExists(dir.to_path_buf()));
        }
        let manifest = workdir.read_manifest()?;
        Ok((workdir, Some(manifest)))
    }

    /// Removes the temporary files of killed runs: with the lock held, no one else writes here.
    fn remove_temp_files(&self) -> Result<(), DiskError> {
        let mut folders = vec![self.dir.clone()];
        for entry in fs::read_dir(&self.dir).map_err(io_error(&self.dir))? {
            let path = entry.map_err(io_error(&self.dir))?.path();
            if path.is_dir() {
                folders.push(path);
            }
        }
        for folder in folders {
            file::remove_stale_temp_files(&folder, Duration::ZERO).map_err(io_error(&folder))?;
        }
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    fn level_dir(&self, depth: u32) -> PathBuf {
        self.dir.join(format!("level-{depth:03}"))
    }

    fn bucket_path(&self, depth: u32, bucket: usize) -> PathBuf {
        self.level_dir(depth).join(format!("bucket-{bucket:05}"))
    }

    /// The folder of level `depth`'s spilled candidates, emptied.
    pub fn fresh_candidates_dir(&self, depth: u32) -> Result<PathBuf, DiskError> {
        let dir = self.level_dir(depth).join(CANDIDATES);
        if dir.exists() {
            fs::remove_dir_all(&dir).map_err(io_error(&dir))?;
        }
        fs::create_dir_all(&dir).map_err(io_error(&dir))?;
        Ok(dir)
    }

    /// Removes the spilled candidates of level `depth`.
    pub fn remove_candidates(&self, depth: u32) -> Result<(), DiskError> {
        let dir = self.level_dir(depth).join(CANDIDATES);
        match fs::remove_dir_all(&dir) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(io_error(&dir)(e)),
            _ => Ok(()),
        }
    }

    /// Deletes the files of every level but the last `kept`, after the manifest (saved here)
    /// says they are gone.
    pub fn forget_levels_before_last<K: KeyInt>(
        &self,
        manifest: &mut Manifest<K>,
        kept: usize,
    ) -> Result<(), DiskError> {
        let keep_from = manifest.levels.len().saturating_sub(kept);
        let old: Vec<u32> = manifest.levels[..keep_from]
            .iter_mut()
            .filter(|l| l.on_disk)
            .map(|l| {
                l.on_disk = false;
                l.depth
            })
            .collect();
        if old.is_empty() {
            return Ok(());
        }
        self.write_manifest(manifest)?;
        for depth in old {
            self.remove_level(depth)?;
        }
        Ok(())
    }

    /// Deletes level `depth`'s files.
    pub fn remove_level(&self, depth: u32) -> Result<(), DiskError> {
        let dir = self.level_dir(depth);
        match fs::remove_dir_all(&dir) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(io_error(&dir)(e)),
            _ => self.sync(),
        }
    }

    /// Deletes every level folder deeper than `depth` (left by a run that stopped in them).
    pub fn remove_levels_after(&self, depth: u32) -> Result<(), DiskError> {
        for entry in fs::read_dir(&self.dir).map_err(io_error(&self.dir))? {
            let entry = entry.map_err(io_error(&self.dir))?;
            let name = entry.file_name();
            let level = name
                .to_str()
                .and_then(|n| n.strip_prefix("level-"))
                .and_then(|d| d.parse::<u32>().ok());
            if level.is_some_and(|l| l > depth) {
                let path = entry.path();
                fs::remove_dir_all(&path).map_err(io_error(&path))?;
            }
        }
        self.sync()
    }

    /// Flushes level `depth`'s folder entries (its buckets' renames) to disk, before the
    /// manifest lists the level.
    pub fn sync_level(&self, depth: u32) -> Result<(), DiskError> {
        let dir = self.level_dir(depth);
        File::open(&dir)
            .and_then(|d| d.sync_all())
            .map_err(io_error(&dir))
    }

    /// Flushes the folder's own entries (renames, removals) to disk.
    fn sync(&self) -> Result<(), DiskError> {
        File::open(&self.dir)
            .and_then(|d| d.sync_all())
            .map_err(io_error(&self.dir))
    }

    fn bucket_params<K: KeyInt>(depth: u32, bucket: usize, bounds: &Bounds<K>) -> String {
        format!(
            "level {depth} bucket {bucket} of {} from key {}",
            bounds.len(),
            bounds.starts[bucket]
        )
    }

    /// Writes bucket `bucket` of level `depth` durably, the whole file's size taken from
    /// `budget`; returns what the manifest lists.
    pub fn write_bucket<S: KeyState>(
        &self,
        depth: u32,
        bucket: usize,
        bounds: &Bounds<S::Key>,
        states: &[S],
        positions: u64,
        budget: &DiskBudget,
    ) -> Result<BucketRecord, DiskError> {
        let dir = self.level_dir(depth);
        fs::create_dir_all(&dir).map_err(io_error(&dir))?;
        let mut payload = Vec::new();
        encode_sorted(states, &mut payload);
        let path = self.bucket_path(depth, bucket);
        let header = TableHeader {
            puzzle: self.run.clone(),
            params: Self::bucket_params(depth, bucket, bounds),
            encoding: Encoding::SortedDeltas,
            entries: states.len() as u64,
            levels: vec![positions],
        };
        budget.take(header.file_len(payload.len() as u64), &path)?;
        let checksum = file::save_bytes(&path, &header, &payload)?;
        let bytes = fs::metadata(&path).map_err(io_error(&path))?.len();
        Ok(BucketRecord {
            states: states.len() as u64,
            positions,
            checksum,
            bytes,
        })
    }

    /// Reads bucket `bucket` of level `depth`, checking its checksum, that it is the file
    /// asked for, and (when given) that it is the one the manifest lists.
    pub fn read_bucket<S: KeyState>(
        &self,
        depth: u32,
        bucket: usize,
        bounds: &Bounds<S::Key>,
        listed: Option<&BucketRecord>,
    ) -> Result<(Vec<S>, BucketRecord), DiskError> {
        let mut states = Vec::new();
        let record = self.read_bucket_into(depth, bucket, bounds, listed, &mut states)?;
        Ok((states, record))
    }

    /// [`read_bucket`](Self::read_bucket), appending the states to `out` (a buffer reused
    /// from bucket to bucket: a fresh one costs its page faults every time).
    pub fn read_bucket_into<S: KeyState>(
        &self,
        depth: u32,
        bucket: usize,
        bounds: &Bounds<S::Key>,
        listed: Option<&BucketRecord>,
        out: &mut Vec<S>,
    ) -> Result<BucketRecord, DiskError> {
        let path = self.bucket_path(depth, bucket);
        let damaged = |why: String| DiskError::Damaged {
            path: path.clone(),
            why,
        };
        let table = file::load(&path).map_err(|e| damaged(e.to_string()))?;
        let header = table.header();
        header
            .expect(
                &path,
                &self.run,
                &Self::bucket_params(depth, bucket, bounds),
            )
            .map_err(|e| damaged(e.to_string()))?;
        if header.encoding != Encoding::SortedDeltas || header.levels.len() != 1 {
            return Err(damaged("not a level bucket".into()));
        }
        let record = BucketRecord {
            states: header.entries,
            positions: header.levels[0],
            checksum: table.checksum(),
            bytes: fs::metadata(&path).map_err(io_error(&path))?.len(),
        };
        if listed.is_some_and(|l| *l != record) {
            return Err(damaged("not the file the manifest lists".into()));
        }
        let start = out.len();
        decode_sorted_into(table.payload(), header.entries, out)
            .map_err(|e| damaged(e.to_string()))?;
        let states = &out[start..];
        let (lo, hi) = bounds.range(bucket);
        let outside = |s: &S| s.to_key() < lo || hi.is_some_and(|e| s.to_key() >= e);
        if states.first().is_some_and(outside) || states.last().is_some_and(outside) {
            return Err(damaged("keys outside the bucket".into()));
        }
        Ok(record)
    }

    /// Saves the manifest durably (temporary file, fsync, rename, folder fsync).
    pub fn write_manifest<K: KeyInt>(&self, manifest: &Manifest<K>) -> Result<(), DiskError> {
        let mut text = String::new();
        let line = |text: &mut String, bounds: &Bounds<K>, records: Option<&[BucketRecord]>| {
            for (i, start) in bounds.starts.iter().enumerate() {
                match records.map(|r| r[i]) {
                    Some(b) => writeln!(
                        text,
                        "bucket {start} {} {} {} {}",
                        b.states, b.positions, b.checksum, b.bytes
                    ),
                    None => writeln!(text, "bucket {start}"),
                }
                .expect("writing to a String");
            }
        };
        for l in &manifest.levels {
            writeln!(
                text,
                "level {} {} {} {} {}",
                l.depth, l.positions, l.classes, l.seconds, l.on_disk as u8
            )
            .expect("writing to a String");
            line(&mut text, &l.bounds, Some(&l.buckets));
        }
        if let Some((depth, bounds)) = &manifest.plan {
            writeln!(text, "plan {depth}").expect("writing to a String");
            line(&mut text, bounds, None);
        }
        let header = TableHeader {
            puzzle: self.run.clone(),
            params: MANIFEST_KIND.into(),
            encoding: Encoding::Bytes,
            entries: text.len() as u64,
            levels: manifest.levels.iter().map(|l| l.positions).collect(),
        };
        let path = self.dir.join(MANIFEST);
        file::save_bytes(&path, &header, text.as_bytes())?;
        self.sync()
    }

    pub(crate) fn read_manifest<K: KeyInt>(&self) -> Result<Manifest<K>, DiskError> {
        let path = self.dir.join(MANIFEST);
        let bad = |why: &str| DiskError::Manifest {
            path: path.clone(),
            why: why.to_string(),
        };
        let table = file::load(&path).map_err(|e| bad(&e.to_string()))?;
        let header = table.header();
        if header.params != MANIFEST_KIND {
            return Err(bad("not a run manifest"));
        }
        if header.puzzle != self.run {
            return Err(DiskError::OtherRun {
                path: self.dir.clone(),
                found: header.puzzle.clone(),
                expected: self.run.clone(),
            });
        }
        let text = std::str::from_utf8(table.payload()).map_err(|_| bad("not text"))?;
        let mut manifest = Manifest::default();
        let mut plan_bounds: Option<(u32, Vec<K>)> = None;
        for line in text.lines() {
            let words: Vec<&str> = line.split(' ').collect();
            let num = |i: usize| -> Result<u128, DiskError> {
                words
                    .get(i)
                    .and_then(|w| w.parse().ok())
                    .ok_or_else(|| bad("a malformed line"))
            };
            let key = |i: usize| -> Result<K, DiskError> {
                words
                    .get(i)
                    .and_then(|w| w.parse().ok())
                    .ok_or_else(|| bad("a malformed bucket key"))
            };
            match words[0] {
                "level" if words.len() == 6 => manifest.levels.push(LevelRecord {
                    depth: num(1)? as u32,
                    positions: num(2)? as u64,
                    classes: num(3)? as u64,
                    seconds: words[4].parse().map_err(|_| bad("a malformed time"))?,
                    on_disk: num(5)? == 1,
                    bounds: Bounds { starts: Vec::new() },
                    buckets: Vec::new(),
                }),
                "plan" if words.len() == 2 => plan_bounds = Some((num(1)? as u32, Vec::new())),
                "bucket" if words.len() == 2 => match &mut plan_bounds {
                    Some((_, starts)) => starts.push(key(1)?),
                    None => return Err(bad("a plan bucket outside a plan")),
                },
                "bucket" if words.len() == 6 && plan_bounds.is_none() => {
                    let level = manifest
                        .levels
                        .last_mut()
                        .ok_or_else(|| bad("a bucket before its level"))?;
                    level.bounds.starts.push(key(1)?);
                    level.buckets.push(BucketRecord {
                        states: num(2)? as u64,
                        positions: num(3)? as u64,
                        checksum: u32::try_from(num(4)?)
                            .map_err(|_| bad("a malformed checksum"))?,
                        bytes: num(5)? as u64,
                    });
                }
                _ => return Err(bad("a malformed line")),
            }
        }
        manifest.plan = plan_bounds.map(|(d, starts)| (d, Bounds { starts }));
        let well_formed = |b: &Bounds<K>| {
            b.starts.first() == Some(&K::default()) && b.starts.windows(2).all(|w| w[0] < w[1])
        };
        let consistent = manifest.levels.iter().enumerate().all(|(d, l)| {
            l.depth == d as u32
                && well_formed(&l.bounds)
                && l.buckets.iter().map(|b| b.positions).sum::<u64>() == l.positions
                && l.buckets.iter().map(|b| b.states).sum::<u64>() == l.classes
        }) && manifest
            .plan
            .as_ref()
            .is_none_or(|(d, b)| *d as usize == manifest.levels.len() && well_formed(b))
            && header.levels
                == manifest
                    .levels
                    .iter()
                    .map(|l| l.positions)
                    .collect::<Vec<_>>();
        if !consistent {
            return Err(bad("its levels do not add up"));
        }
        Ok(manifest)
    }
}

/// Spilled candidates of one level: a file a bucket, each a sequence of sorted runs
/// (`count: u64, bytes: u64, varint gaps`). Temporary: not checksummed, never resumed from.
#[derive(Debug)]
pub(crate) struct Spill<'a> {
    dir: PathBuf,
    bytes: AtomicU64,
    budget: &'a DiskBudget,
}

impl<'a> Spill<'a> {
    /// Spilled runs in `dir`, each taken from `budget`.
    pub fn new(dir: PathBuf, budget: &'a DiskBudget) -> Self {
        Spill {
            dir,
            bytes: AtomicU64::new(0),
            budget,
        }
    }

    /// Bytes written so far, over all buckets.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    fn path(&self, bucket: usize) -> PathBuf {
        self.dir.join(format!("bucket-{bucket:05}"))
    }

    /// Appends `states` (sorted, distinct) as one run of bucket `bucket`'s candidates.
    pub fn append<S: KeyState>(&self, bucket: usize, states: &[S]) -> Result<(), DiskError> {
        if states.is_empty() {
            return Ok(());
        }
        let mut run = Vec::with_capacity(states.len() * 2 + 16);
        run.extend_from_slice(&(states.len() as u64).to_le_bytes());
        run.extend_from_slice(&0u64.to_le_bytes());
        encode_sorted(states, &mut run);
        let len = (run.len() - 16) as u64;
        run[8..16].copy_from_slice(&len.to_le_bytes());
        let path = self.path(bucket);
        self.budget.take(run.len() as u64, &path)?;
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(&run))
            .map_err(io_error(&path))?;
        self.bytes.fetch_add(run.len() as u64, Ordering::Relaxed);
        Ok(())
    }

    /// Every candidate spilled to bucket `bucket`, in runs (each sorted), appended to `out`
    /// with room reserved for `extra` more; `file` holds the file's bytes meanwhile. Both are
    /// buffers a merging thread keeps from bucket to bucket: fresh vectors grown by doubling
    /// took up to 4x a bucket's candidates, and the process went 7% past its memory budget.
    pub fn read_into<S: KeyState>(
        &self,
        bucket: usize,
        file: &mut Vec<u8>,
        out: &mut Vec<S>,
        extra: usize,
    ) -> Result<(), DiskError> {
        let path = self.path(bucket);
        file.clear();
        match File::open(&path).and_then(|mut f| f.read_to_end(file)) {
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(io_error(&path)(e)),
        }
        let damaged = |why: &str| DiskError::Damaged {
            path: path.clone(),
            why: why.into(),
        };
        let word = |i: usize| -> Result<u64, DiskError> {
            file.get(i..i + 8)
                .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes")))
                .ok_or_else(|| damaged("a run header is cut short"))
        };
        let mut runs = Vec::new();
        let mut at = 0;
        while at < file.len() {
            let (count, len) = (word(at)?, word(at + 8)? as usize);
            let body = at + 16..(at + 16).saturating_add(len);
            if body.end > file.len() {
                return Err(damaged("a run is cut short"));
            }
            // Every state takes at least a byte, so a damaged count cannot ask for more memory
            // than the file's size.
            if count > len as u64 {
                return Err(damaged("a run counts more states than its bytes can hold"));
            }
            runs.push((count, body));
            at += 16 + len;
        }
        let total: u64 = runs.iter().map(|(count, _)| count).sum();
        out.reserve_exact((total as usize).saturating_add(extra));
        for (count, body) in runs {
            decode_sorted_into(&file[body], count, out).map_err(|e| damaged(&e.to_string()))?;
        }
        Ok(())
    }
}
