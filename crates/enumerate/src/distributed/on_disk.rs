//! A worker's levels on disk (`--workdir` in a distributed run): the disk engine
//! ([`crate::disk`]) over the states this worker owns, in its own run folder
//! `ROOT/worker-NNN`, with the level's neighbours routed to their owners while they are
//! listed.
//!
//! Each worker reads its part of level `d` a bucket at a time, as the disk engine does; after
//! every slice it expands, one exchange round ([`Exchange`]) sends the neighbours other
//! workers own and takes in those it owns, which join its candidate list (spilled to disk in
//! sorted runs when they outgrow its share of `--memory`). Rounds go on until every worker has
//! listed its part; then each merges its buckets against its own levels `d - 1` and `d` on
//! disk and writes them durably, exactly as the disk engine does. Memory is bounded by
//! `--memory` whatever the level's size; disk holds four levels and the spilled candidates.
//!
//! A level is listed in the worker's manifest before the worker reports it, so `--resume`
//! continues from the newest level every worker listed; a worker that finds a file of that
//! level damaged makes all of them fall back a level, which is then made again. A level half
//! made when the run stopped is made again from its start.

use super::mailbox::{Body, Hello, Report};
use super::worker::{deal, level_totals, Outcome, This};
use super::{DiskPlan, Event, LevelTraffic, WorkerError};
use crate::disk::codec::decode_sorted;
use crate::disk::workdir::{LevelRecord, Manifest, Workdir};
use crate::disk::{
    DiskEngine, DiskError, DiskOptions, KeyOf, Layout, Making, RoundOutcome, Router,
};
use crate::keys::KeyState;
use crate::{Limits, Stop};
use godsearch_core::StateSpace;
use rayon::prelude::*;
use std::io;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Instant;

impl<P> This<'_, P>
where
    P: StateSpace,
    P::State: KeyState,
{
    /// The level loop with this worker's levels on disk.
    pub(super) fn run_on_disk(
        &mut self,
        plan: &DiskPlan,
    ) -> Result<Outcome<P::State>, WorkerError> {
        let shared = self.shared;
        let local = shared.local_workers as u64;
        let limits = Limits {
            memory_bytes: shared.limits.memory_bytes / local,
            ..shared.limits
        };
        let folder = crate::disk::worker_folder(&plan.root, self.me);
        let options = DiskOptions {
            workdir: &folder,
            run: &shared.run,
            resume: plan.resume,
            keep_levels: plan.keep_levels,
            bucket_states: plan.bucket_states,
            disk_bytes: plan.disk_bytes.map(|b| b / local),
        };
        let opened = Workdir::open(&folder, &shared.run, plan.resume);
        let hello = match &opened {
            Ok((_, found)) => {
                let levels = found.as_ref().map_or(&[][..], |m| &m.levels[..]);
                Hello {
                    levels: levels.iter().map(|l| (l.positions, l.classes)).collect(),
                    seconds: levels.iter().map(|l| l.seconds).collect(),
                    failed: false,
                }
            }
            Err(_) => Hello {
                levels: Vec::new(),
                seconds: Vec::new(),
                failed: true,
            },
        };
        let hellos: Vec<Hello> = self
            .round(self.to_all(Body::Hello(hello)))
            .into_iter()
            .filter_map(|p| match p.body {
                Body::Hello(h) => Some(h),
                _ => None,
            })
            .collect();
        let (dir, found) = opened.map_err(WorkerError::Disk)?;
        if hellos.len() != self.peers {
            return Err(WorkerError::Other(hellos.len()));
        }
        if let Some(w) = hellos.iter().position(|h| h.failed) {
            return Err(WorkerError::Other(w));
        }
        let engine = DiskEngine::new(&shared.space, dir, &options, &limits, shared.progress());
        let mut manifest = found.unwrap_or_default();
        let common = hellos.iter().map(|h| h.levels.len()).min().unwrap_or(0);
        let resumed_from = self.resume_point(&engine, &mut manifest, common)?;
        let (mut levels, mut classes) = match resumed_from {
            Some(depth) => {
                let sum = |f: fn(&(u64, u64)) -> u64| -> Vec<u64> {
                    (0..=depth as usize)
                        .map(|d| hellos.iter().map(|h| f(&h.levels[d])).sum())
                        .collect()
                };
                (sum(|l| l.0), sum(|l| l.1))
            }
            None => self.start_on_disk(&engine, &mut manifest)?,
        };
        let mut traffic: Vec<LevelTraffic> = (0..levels.len())
            .map(|d| LevelTraffic {
                depth: d as u32,
                seconds: hellos[0].seconds.get(d).copied().unwrap_or(0.0),
                resumed: resumed_from.is_some(),
                ..LevelTraffic::default()
            })
            .collect();
        let mut peak_bytes = 0;
        let stop = loop {
            let depth = manifest.levels.len() as u32 - 1;
            if limits.max_depth.is_some_and(|m| depth >= m) {
                break Stop::MaxDepth(depth);
            }
            let newest = manifest.levels.last().expect("level 0 exists");
            let prepared = engine.plan(newest).and_then(|bounds| {
                let need = engine.disk_needed(&manifest.levels, &bounds, on_disk(&manifest))?;
                Ok((bounds, need.with(Layout::Spilling, false), need.available))
            });
            let (needed, free) = prepared.as_ref().map_or((0, 0), |p| (p.1, p.2));
            let all = self.reports(Report {
                next_bytes: needed,
                disk_free: free,
                cancelled: shared.cancel.load(Ordering::Relaxed),
                failed: prepared.is_err(),
                ..Report::default()
            });
            let (bounds, _, _) = prepared.map_err(WorkerError::Disk)?;
            if let Some(w) = all.iter().position(|r| r.failed) {
                return Err(WorkerError::Other(w));
            }
            if all.iter().any(|r| r.cancelled) {
                break Stop::Cancelled(depth);
            }
            if let Some(short) = all.iter().find(|r| r.next_bytes > r.disk_free) {
                break Stop::Disk {
                    depth: depth + 1,
                    needed: short.next_bytes,
                    available: short.disk_free,
                };
            }
            let started = Instant::now();
            self.event(Event::Started {
                depth: depth + 1,
                states: newest.classes * shared.local_workers as u64,
            });
            let wanted = vec![true; bounds.len()];
            // A single worker owns everything: nothing to route, the disk engine as it is.
            let mut exchange = (self.peers > 1).then(|| Exchange::new(self, &folder));
            let made = engine.make_level(
                &manifest,
                depth + 1,
                &bounds,
                &wanted,
                Making::default(),
                exchange.as_mut().map(|e| e as &mut dyn Router<P::State>),
            );
            let (sent_bytes, sent_states, received_damage) = match exchange.as_mut() {
                Some(exchange) => {
                    // A worker that failed while listing still takes part in the rounds until
                    // every worker has listed its part, so that none waits for it.
                    exchange.finish();
                    (
                        exchange.sent_bytes,
                        exchange.sent_states,
                        exchange.damage.take(),
                    )
                }
                None => (0, 0, None),
            };
            drop(exchange);
            let mut spilled_bytes = 0;
            let saved = made.and_then(|made| {
                peak_bytes = peak_bytes.max(made.peak_bytes);
                spilled_bytes = made.spilled_bytes;
                let record = made.record(depth + 1, started.elapsed().as_secs_f64(), bounds);
                engine.dir.sync_level(depth + 1)?;
                manifest.levels.push(record);
                manifest.plan = None;
                engine.dir.write_manifest(&manifest)?;
                engine.dir.remove_candidates(depth + 1)?;
                engine.forget_old_levels(&mut manifest)
            });
            let (positions, made_classes) = match (&saved, manifest.levels.last()) {
                (Ok(()), Some(l)) if l.depth == depth + 1 => (l.positions, l.classes),
                _ => (0, 0),
            };
            let all = self.reports(Report {
                positions,
                classes: made_classes,
                sent_bytes,
                sent_states,
                spilled_bytes,
                failed: saved.is_err() || received_damage.is_some(),
                ..Report::default()
            });
            saved.map_err(WorkerError::Disk)?;
            if let Some(why) = received_damage {
                return Err(WorkerError::Received(why));
            }
            if let Some(w) = all.iter().position(|r| r.failed) {
                return Err(WorkerError::Other(w));
            }
            let (level_positions, level_classes, cost) =
                level_totals(depth + 1, started.elapsed().as_secs_f64(), &all);
            if level_classes == 0 {
                manifest.levels.pop();
                engine
                    .dir
                    .write_manifest(&manifest)
                    .and_then(|()| engine.dir.remove_level(depth + 1))
                    .map_err(WorkerError::Disk)?;
                break Stop::Complete;
            }
            levels.push(level_positions);
            classes.push(level_classes);
            traffic.push(cost);
            shared
                .checkpointed
                .store(i64::from(depth + 1), Ordering::Relaxed);
            self.event(Event::Finished {
                depth: depth + 1,
                positions: level_positions,
            });
        };
        let newest_classes = *classes.last().expect("level 0 exists");
        let last_level = match shared.gathers_antipodes(stop, newest_classes) {
            true => {
                let newest = manifest.levels.last().expect("level 0 exists");
                // A part that cannot be read leaves the antipodes out, not short.
                let mine = engine.read_level(newest).ok();
                self.gather(mine.as_deref())
            }
            false => None,
        };
        Ok(Outcome {
            levels,
            classes,
            stop,
            last_level,
            peak_bytes,
            traffic,
            resumed_from,
            disk_bytes: on_disk(&manifest),
        })
    }

    /// The newest level every worker has listed (`common` levels) and whose files, with the
    /// level before it where the next is made from both (not for states with their moves
    /// back), read back intact on every worker, falling back a level while one does not; what
    /// is newer is forgotten. `None` when no level qualifies.
    fn resume_point(
        &mut self,
        engine: &DiskEngine<'_, P>,
        manifest: &mut Manifest<KeyOf<P>>,
        common: usize,
    ) -> Result<Option<u32>, WorkerError> {
        let mut newest = common;
        let made_from = engine.levels_made_from() as u32;
        while newest > 0 {
            let depth = newest as u32 - 1;
            let mut needed = (depth + 1).saturating_sub(made_from)..=depth;
            let intact = needed.all(|d| intact(engine, manifest, d));
            if self.first_failed(intact).is_none() {
                manifest.levels.truncate(depth as usize + 1);
                manifest.plan = None;
                engine
                    .dir
                    .write_manifest(manifest)
                    .and_then(|()| engine.dir.remove_levels_after(depth))
                    .map_err(WorkerError::Disk)?;
                self.shared
                    .checkpointed
                    .store(i64::from(depth), Ordering::Relaxed);
                return Ok(Some(depth));
            }
            newest -= 1;
        }
        Ok(None)
    }

    /// Level 0 (the goals this worker owns) written afresh; the counts over all workers.
    fn start_on_disk(
        &mut self,
        engine: &DiskEngine<'_, P>,
        manifest: &mut Manifest<KeyOf<P>>,
    ) -> Result<(Vec<u64>, Vec<u64>), WorkerError> {
        let goals = self.owned_goals();
        let started = engine.start_with(goals);
        let (positions, classes) = match &started {
            Ok(m) => (m.levels[0].positions, m.levels[0].classes),
            Err(_) => (0, 0),
        };
        let all = self.reports(Report {
            positions,
            classes,
            failed: started.is_err(),
            ..Report::default()
        });
        *manifest = started.map_err(WorkerError::Disk)?;
        if let Some(w) = all.iter().position(|r| r.failed) {
            return Err(WorkerError::Other(w));
        }
        self.shared.checkpointed.store(0, Ordering::Relaxed);
        Ok((
            vec![all.iter().map(|r| r.positions).sum()],
            vec![all.iter().map(|r| r.classes).sum()],
        ))
    }
}

/// Whether level `depth`'s files are all there and intact.
fn intact<P>(engine: &DiskEngine<'_, P>, manifest: &Manifest<KeyOf<P>>, depth: u32) -> bool
where
    P: StateSpace,
    P::State: KeyState,
{
    let Some(level) = manifest.levels.get(depth as usize) else {
        return false;
    };
    level.on_disk
        && (0..level.bounds.len()).all(|b| {
            engine
                .dir
                .read_bucket::<P::State>(depth, b, &level.bounds, Some(&level.buckets[b]))
                .is_ok()
        })
}

/// Bytes of the levels kept on disk.
fn on_disk<K>(manifest: &Manifest<K>) -> u64 {
    let kept = manifest.levels.iter().filter(|l| l.on_disk);
    kept.map(LevelRecord::bytes).sum()
}

/// The exchange rounds of one level ([`Router`]), with what they sent.
struct Exchange<'t, 'a, P: StateSpace> {
    this: &'t mut This<'a, P>,
    /// This worker's folder, named in errors.
    folder: &'t Path,
    sent_bytes: u64,
    sent_states: u64,
    /// Every worker has listed its part (no round follows).
    all_finished: bool,
    /// States received that did not decode.
    damage: Option<String>,
}

impl<'t, 'a, P> Exchange<'t, 'a, P>
where
    P: StateSpace,
    P::State: KeyState,
{
    fn new(this: &'t mut This<'a, P>, folder: &'t Path) -> Self {
        Exchange {
            this,
            folder,
            sent_bytes: 0,
            sent_states: 0,
            all_finished: false,
            damage: None,
        }
    }

    /// Rounds with nothing to send until every worker has listed its part (after a failure
    /// here, so that the others do not wait for this worker).
    fn finish(&mut self) {
        while !self.all_finished {
            let mut nothing = Vec::new();
            if self.round(&mut nothing, 0, true).is_err() {
                break;
            }
        }
    }
}

impl<P> Router<P::State> for Exchange<'_, '_, P>
where
    P: StateSpace,
    P::State: KeyState,
{
    fn round(
        &mut self,
        listed: &mut Vec<P::State>,
        from: usize,
        finished: bool,
    ) -> Result<RoundOutcome<P::State>, DiskError> {
        let this = &mut *self.this;
        let (me, peers) = (this.me, this.peers);
        let back_move_bits = this.space().back_move_bits();
        let mut by_owner = deal(&listed[from..], peers, back_move_bits);
        listed.truncate(from);
        listed.append(&mut by_owner[me]);
        let mut packets = this.encode(by_owner);
        self.sent_bytes += packets.iter().map(|p| p.payload_bytes()).sum::<u64>();
        self.sent_states += packets.iter().map(|p| p.states()).sum::<u64>();
        packets.extend(this.to_all(Body::Listing {
            finished,
            failed: self.damage.is_some(),
        }));
        let got = this.round(packets);
        let statuses: Vec<bool> = got
            .iter()
            .filter_map(|p| match p.body {
                Body::Listing { finished, .. } => Some(finished),
                _ => None,
            })
            .collect();
        let decoded: Vec<Result<Vec<P::State>, String>> = got
            .into_par_iter()
            .filter_map(|p| match p.body {
                Body::States { count, gaps } => Some(
                    decode_sorted(&gaps, count)
                        .map_err(|e| format!("states from worker {}: {e}", p.from)),
                ),
                _ => None,
            })
            .collect();
        let mut received = Vec::with_capacity(decoded.iter().flatten().map(Vec::len).sum());
        for part in decoded {
            match part {
                Ok(states) => received.extend(states),
                Err(why) => {
                    self.damage.get_or_insert(why);
                }
            }
        }
        if statuses.len() != peers {
            // A worker of this process stopped in the middle of the level.
            self.all_finished = true;
            return Err(DiskError::Io {
                path: self.folder.to_path_buf(),
                error: io::Error::new(
                    io::ErrorKind::ConnectionAborted,
                    "another worker stopped in the middle of the level",
                ),
            });
        }
        self.all_finished = statuses.iter().all(|&f| f);
        Ok(RoundOutcome {
            received,
            all_finished: self.all_finished,
        })
    }
}
