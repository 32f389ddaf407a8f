//! One worker's checkpoints: the levels of the states it owns, in its own run folder
//! (`ROOT/worker-NNN`), in the disk engine's format ([`crate::disk`]'s folder, manifest and
//! checksummed bucket files, one bucket a level). Every level is durable before the worker
//! reports it, so the levels every worker has reported can be resumed from.

use crate::disk::workdir::{Bounds, LevelRecord, Manifest, Workdir};
use crate::disk::DiskError;
use crate::keys::KeyState;
use std::path::Path;

/// Levels kept: the two the next level is made from, one more (a worker can be a level ahead
/// of another that was killed), and one before them, so that a run whose newest common level
/// has a damaged file can fall back a level.
const LEVELS_KEPT: usize = 4;

/// A worker's run folder and what it lists.
pub(crate) struct Checkpoint {
    dir: Workdir,
    manifest: Manifest,
    keep_levels: bool,
}

impl Checkpoint {
    /// Opens (creating it) worker `worker`'s folder under `root` for `run`, refusing a folder
    /// of another run, or of this one when `resume` is not set.
    pub fn open(
        root: &Path,
        worker: usize,
        run: &str,
        resume: bool,
        keep_levels: bool,
    ) -> Result<Self, DiskError> {
        let (dir, found) = Workdir::open(&root.join(format!("worker-{worker:03}")), run, resume)?;
        Ok(Checkpoint {
            dir,
            manifest: found.unwrap_or_default(),
            keep_levels,
        })
    }

    /// This worker's (positions, classes) of every level it has checkpointed, from 0.
    pub fn levels(&self) -> Vec<(u64, u64)> {
        let levels = &self.manifest.levels;
        levels.iter().map(|l| (l.positions, l.classes)).collect()
    }

    /// Seconds each checkpointed level took.
    pub fn seconds(&self) -> Vec<f64> {
        self.manifest.levels.iter().map(|l| l.seconds).collect()
    }

    /// Forgets every level deeper than `newest` (all of them with `None`).
    pub fn truncate(&mut self, newest: Option<u32>) -> Result<(), DiskError> {
        let keep = newest.map_or(0, |d| d as usize + 1);
        if self.manifest.levels.len() > keep {
            self.manifest.levels.truncate(keep);
            self.manifest.plan = None;
            self.dir.write_manifest(&self.manifest)?;
        }
        match newest {
            Some(d) => self.dir.remove_levels_after(d),
            None => {
                self.dir.remove_levels_after(0)?;
                self.dir.remove_level(0)
            }
        }
    }

    /// Levels `depth - 1` (empty at depth 0) and `depth`, read and checked against the
    /// manifest.
    pub fn load<S: KeyState>(&self, depth: u32) -> Result<(Vec<S>, Vec<S>), DiskError> {
        let read = |d: u32| -> Result<Vec<S>, DiskError> {
            let level = self.manifest.levels.get(d as usize);
            match level {
                Some(l) if l.on_disk => {
                    let (states, _) =
                        self.dir
                            .read_bucket(d, 0, &Bounds::single(), Some(&l.buckets[0]))?;
                    Ok(states)
                }
                _ => Err(DiskError::Unrepairable {
                    depth: d,
                    why: "its file was deleted".into(),
                }),
            }
        };
        let previous = match depth {
            0 => Vec::new(),
            d => read(d - 1)?,
        };
        Ok((previous, read(depth)?))
    }

    /// Saves `states` (sorted) as level `depth`, after the levels listed, durably, and deletes
    /// the files of levels no longer needed.
    pub fn save<S: KeyState>(
        &mut self,
        depth: u32,
        states: &[S],
        positions: u64,
        seconds: f64,
    ) -> Result<(), DiskError> {
        debug_assert_eq!(self.manifest.levels.len(), depth as usize);
        let bounds = Bounds::single();
        let bucket = self
            .dir
            .write_bucket(depth, 0, &bounds, states, positions)?;
        self.dir.sync_level(depth)?;
        self.manifest.levels.push(LevelRecord {
            depth,
            positions,
            classes: states.len() as u64,
            seconds,
            on_disk: true,
            bounds,
            buckets: vec![bucket],
        });
        self.dir.write_manifest(&self.manifest)?;
        if self.keep_levels {
            return Ok(());
        }
        self.dir
            .forget_levels_before_last(&mut self.manifest, LEVELS_KEPT)
    }

    /// Bytes of the level files kept.
    pub fn disk_bytes(&self) -> u64 {
        let levels = self.manifest.levels.iter().filter(|l| l.on_disk);
        levels.map(LevelRecord::bytes).sum()
    }
}
