//! One worker's part of a distributed run: the frontier engine's level loop over the states
//! this worker owns, with the candidates of each level exchanged to their owners in between.
//!
//! Every worker takes every decision (go on, stop, why) from the same reports, exchanged
//! after each level, so all of them stop at the same level with the same counts.

use super::checkpoint::Checkpoint;
use super::mailbox::{Body, Hello, Mailbox, Packet, Report};
use super::{owner_of, Event, LevelTraffic, Shared, WorkerError};
use crate::disk::codec::{decode_sorted, encode_sorted};
use crate::frontier::{aliases_of, degrees_of, expand_into, positions_in};
use crate::keys::KeyState;
use crate::level_store::{LevelStore, SortedLevels};
use crate::Stop;
use godsearch_core::StateSpace;
use rayon::prelude::*;
use std::sync::atomic::Ordering;
use std::time::Instant;
use timely::worker::Worker;

/// States a packet carries at most (about 2-8 MB encoded), so that no message is huge; also
/// the share of a slice's neighbours a thread deals out to their owners.
const STATES_PER_PACKET: usize = 1 << 20;
/// Slices a level is expanded in when there are several workers: the neighbours of one slice
/// are held twice while they are dealt out to their owners.
const EXPANSION_SLICES: usize = 8;

/// One sorted run a sender: its pieces (each sorted, cut from one sorted list, so their key
/// ranges do not overlap) put in key order and joined.
fn runs_by_sender<S: KeyState>(mut pieces: Vec<(u32, Vec<S>)>) -> Vec<Vec<S>> {
    pieces.retain(|(_, p)| !p.is_empty());
    pieces.sort_unstable_by_key(|(from, p)| (*from, p[0]));
    let mut runs: Vec<Vec<S>> = Vec::new();
    let mut last_from = None;
    for (from, piece) in pieces {
        match runs.last_mut() {
            Some(run) if last_from == Some(from) => run.extend(piece),
            _ => runs.push(piece),
        }
        last_from = Some(from);
    }
    runs
}

/// The sorted, repeat-free union of sorted, repeat-free `runs`, merged in pairs (the pairs of
/// a pass in parallel): `log2(runs)` linear passes instead of sorting everything again.
fn merge_runs<S: KeyState>(mut runs: Vec<Vec<S>>) -> Vec<S> {
    while runs.len() > 1 {
        let mut paired = Vec::with_capacity(runs.len().div_ceil(2));
        let mut it = runs.into_iter();
        while let Some(a) = it.next() {
            paired.push((a, it.next()));
        }
        runs = paired
            .into_par_iter()
            .map(|(a, b)| match b {
                Some(b) => merge_two(&a, &b),
                None => a,
            })
            .collect();
    }
    runs.pop().unwrap_or_default()
}

/// The sorted union of two sorted, repeat-free lists, without repeats.
fn merge_two<S: KeyState>(a: &[S], b: &[S]) -> Vec<S> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        out.push(x.min(y));
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// What a worker ends with: the global counts (the same on every worker) and its own share.
pub(crate) struct Outcome<S> {
    pub levels: Vec<u64>,
    pub classes: Vec<u64>,
    pub stop: Stop,
    /// The last level, gathered on worker 0 when the run is complete and it is small.
    pub last_level: Option<Vec<S>>,
    /// The most bytes this worker's arrays held at once.
    pub peak_bytes: u64,
    pub traffic: Vec<LevelTraffic>,
    pub resumed_from: Option<u32>,
    /// Bytes of this worker's checkpoint files at the end.
    pub disk_bytes: u64,
}

/// Runs worker `worker`'s share of the enumeration described by `shared`.
pub(crate) fn run<P>(
    worker: &mut Worker,
    shared: &Shared<P>,
) -> Result<Outcome<P::State>, WorkerError>
where
    P: StateSpace,
    P::State: KeyState,
{
    let mut this = This {
        me: worker.index(),
        peers: worker.peers(),
        mailbox: Mailbox::new(worker),
        worker,
        shared,
    };
    this.run()
}

struct This<'a, P: StateSpace> {
    me: usize,
    peers: usize,
    mailbox: Mailbox,
    worker: &'a mut Worker,
    shared: &'a Shared<P>,
}

impl<P> This<'_, P>
where
    P: StateSpace,
    P::State: KeyState,
{
    fn space(&self) -> &P {
        &self.shared.space
    }

    /// Whether this worker tells the caller about levels (one worker a process does).
    fn speaks(&self) -> bool {
        self.me % self.shared.local_workers == 0
    }

    fn event(&self, event: Event) {
        if self.speaks() || matches!(event, Event::Advanced(_)) {
            // The caller stops listening only once every worker has ended.
            let _ = self.shared.events.send(event);
        }
    }

    /// One packet a worker, each with `body`.
    fn to_all(&self, body: Body) -> Vec<Packet> {
        (0..self.peers)
            .map(|to| Packet {
                to: to as u32,
                from: self.me as u32,
                body: body.clone(),
            })
            .collect()
    }

    /// Exchanges `packets`; the packets of the round addressed here, by sender.
    fn round(&mut self, packets: Vec<Packet>) -> Vec<Packet> {
        let mut got = self.mailbox.round(self.worker, packets);
        got.sort_by_key(|p| p.from);
        got
    }

    /// Every worker's report of the round, in worker order.
    fn reports(&mut self, mine: Report) -> Vec<Report> {
        let got = self.round(self.to_all(Body::Report(mine)));
        got.into_iter()
            .filter_map(|p| match p.body {
                Body::Report(r) => Some(r),
                _ => None,
            })
            .collect()
    }

    /// Tells every worker whether this one is fine; the first worker that is not, if any.
    fn first_failed(&mut self, ok: bool) -> Option<usize> {
        let reports = self.reports(Report {
            failed: !ok,
            ..Report::default()
        });
        reports.iter().position(|r| r.failed)
    }

    fn run(&mut self) -> Result<Outcome<P::State>, WorkerError> {
        let shared = self.shared;
        let opened = match &shared.checkpoints {
            None => Ok(None),
            Some(plan) => Checkpoint::open(
                &plan.root,
                self.me,
                &shared.run,
                plan.resume,
                plan.keep_levels,
            )
            .map(Some),
        };
        let hello = match &opened {
            Ok(c) => Hello {
                levels: c.as_ref().map_or_else(Vec::new, Checkpoint::levels),
                seconds: c.as_ref().map_or_else(Vec::new, Checkpoint::seconds),
                failed: false,
            },
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
        let mut checkpoint = match (opened, hellos.iter().position(|h| h.failed)) {
            (Err(e), _) => return Err(WorkerError::Disk(e)),
            (Ok(_), Some(w)) => return Err(WorkerError::Other(w)),
            (Ok(c), None) => c,
        };
        let common = hellos.iter().map(|h| h.levels.len()).min().unwrap_or(0);
        let (mut store, mut levels, mut classes, resumed_from) =
            self.begin(&mut checkpoint, &hellos, common)?;
        let mut traffic: Vec<LevelTraffic> = (0..levels.len())
            .map(|d| LevelTraffic {
                depth: d as u32,
                seconds: hellos
                    .first()
                    .and_then(|h| h.seconds.get(d).copied())
                    .unwrap_or(0.0),
                resumed: resumed_from.is_some(),
                ..LevelTraffic::default()
            })
            .collect();
        let bytes = std::mem::size_of::<P::State>() as u64;
        let budget = shared.limits.memory_bytes / shared.local_workers as u64;
        let mut peak_bytes = store.held() * bytes;
        let mut next_needed = self.bytes_to_expand(&store);
        let stop = loop {
            let depth = levels.len() as u32 - 1;
            if shared.limits.max_depth.is_some_and(|m| depth >= m) {
                break Stop::MaxDepth(depth);
            }
            let all = self.reports(Report {
                next_bytes: next_needed,
                cancelled: shared.cancel.load(Ordering::Relaxed),
                ..Report::default()
            });
            if all.iter().any(|r| r.cancelled) {
                break Stop::Cancelled(depth);
            }
            let needed = all.iter().map(|r| r.next_bytes).max().unwrap_or(0);
            if needed > budget {
                break Stop::Memory {
                    depth: depth + 1,
                    needed: needed * shared.local_workers as u64,
                    budget: shared.limits.memory_bytes,
                };
            }
            let started = Instant::now();
            self.event(Event::Started {
                depth: depth + 1,
                // Every worker of the process advances the bar; their shares are even.
                states: store.newest().len() as u64 * shared.local_workers as u64,
            });
            let (next, sent, held) = match self.make_level(&store) {
                Ok(made) => made,
                Err(why) => {
                    self.reports(Report {
                        failed: true,
                        ..Report::default()
                    });
                    return Err(WorkerError::Received(why));
                }
            };
            peak_bytes = peak_bytes.max(held * bytes);
            let positions = positions_in(self.space(), &next);
            let saved = match &mut checkpoint {
                Some(c) => {
                    let seconds = started.elapsed().as_secs_f64();
                    c.save(depth + 1, &next, positions, seconds)
                }
                None => Ok(()),
            };
            let all = self.reports(Report {
                positions,
                classes: next.len() as u64,
                sent_bytes: sent.0,
                sent_states: sent.1,
                failed: saved.is_err(),
                ..Report::default()
            });
            saved.map_err(WorkerError::Disk)?;
            if let Some(w) = all.iter().position(|r| r.failed) {
                return Err(WorkerError::Other(w));
            }
            let level_positions: u64 = all.iter().map(|r| r.positions).sum();
            let level_classes: u64 = all.iter().map(|r| r.classes).sum();
            if level_classes == 0 {
                break Stop::Complete;
            }
            levels.push(level_positions);
            classes.push(level_classes);
            traffic.push(LevelTraffic {
                depth: depth + 1,
                seconds: started.elapsed().as_secs_f64(),
                sent_bytes: all.iter().map(|r| r.sent_bytes).sum(),
                sent_states: all.iter().map(|r| r.sent_states).sum(),
                resumed: false,
            });
            store.push(next);
            next_needed = self.bytes_to_expand(&store);
            if checkpoint.is_some() {
                shared
                    .checkpointed
                    .store(i64::from(depth + 1), Ordering::Relaxed);
            }
            self.event(Event::Finished {
                depth: depth + 1,
                positions: level_positions,
            });
        };
        let newest_classes = *classes.last().expect("level 0 exists");
        let gather = stop == Stop::Complete && newest_classes <= shared.limits.antipode_cap as u64;
        let last_level = match gather {
            true => self.gather(store.newest()),
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
            disk_bytes: checkpoint.as_ref().map_or(0, Checkpoint::disk_bytes),
        })
    }

    /// The levels the run starts from: those every worker checkpointed (the newest `common`
    /// of them, falling back a level while a worker finds a file damaged), or level 0.
    #[allow(clippy::type_complexity)]
    fn begin(
        &mut self,
        checkpoint: &mut Option<Checkpoint>,
        hellos: &[Hello],
        common: usize,
    ) -> Result<(SortedLevels<P::State>, Vec<u64>, Vec<u64>, Option<u32>), WorkerError> {
        let mut store = SortedLevels::default();
        if let Some(c) = checkpoint.as_mut() {
            let mut newest = common;
            while newest > 0 {
                let depth = newest as u32 - 1;
                let loaded = c.load::<P::State>(depth);
                match self.first_failed(loaded.is_ok()) {
                    None => {
                        let (previous, current) = loaded.expect("checked");
                        c.truncate(Some(depth)).map_err(WorkerError::Disk)?;
                        store.start(previous);
                        store.push(current);
                        let sum = |f: fn(&(u64, u64)) -> u64| -> Vec<u64> {
                            (0..=depth as usize)
                                .map(|d| hellos.iter().map(|h| f(&h.levels[d])).sum())
                                .collect()
                        };
                        let levels = sum(|l| l.0);
                        let classes = sum(|l| l.1);
                        self.shared
                            .checkpointed
                            .store(i64::from(depth), Ordering::Relaxed);
                        return Ok((store, levels, classes, Some(depth)));
                    }
                    Some(_) => newest -= 1,
                }
            }
            c.truncate(None).map_err(WorkerError::Disk)?;
        }
        let space = self.space();
        let mut goals = Vec::new();
        space.for_each_goal(|g| goals.push(g));
        goals.extend(aliases_of(space, &goals));
        goals.retain(|g| owner_of(g.to_key(), self.peers) == self.me);
        goals.sort_unstable();
        goals.dedup();
        let positions = positions_in(space, &goals);
        let saved = match checkpoint.as_mut() {
            Some(c) => c.save(0, &goals, positions, 0.0),
            None => Ok(()),
        };
        let all = self.reports(Report {
            positions,
            classes: goals.len() as u64,
            failed: saved.is_err(),
            ..Report::default()
        });
        saved.map_err(WorkerError::Disk)?;
        if let Some(w) = all.iter().position(|r| r.failed) {
            return Err(WorkerError::Other(w));
        }
        store.start(goals);
        if checkpoint.is_some() {
            self.shared.checkpointed.store(0, Ordering::Relaxed);
        }
        let levels = vec![all.iter().map(|r| r.positions).sum()];
        let classes = vec![all.iter().map(|r| r.classes).sum()];
        Ok((store, levels, classes, None))
    }

    /// Bytes this worker holds while it makes the level after the newest: its two levels,
    /// the candidates it lists, and as many again received from the others (the owner hash
    /// spreads them evenly).
    fn bytes_to_expand(&self, store: &SortedLevels<P::State>) -> u64 {
        let candidates: usize = degrees_of(self.space(), store.newest()).iter().sum();
        (store.held() + 2 * candidates as u64) * std::mem::size_of::<P::State>() as u64
    }

    /// The states this worker owns of the level after `store`'s newest; the (bytes, states) it
    /// sent to other workers, and the most states it held at once.
    ///
    /// Each candidate is sorted once, by the worker that lists it (so that it travels as a
    /// gap); its owner merges the sorted runs of every sender. On 4x4 to depth 25 with 2
    /// processes that took 5.41-5.65 s against 5.49-5.76 s when the owner sorted everything
    /// again (4 runs each, interleaved), and about the same with 4 processes.
    /// States received that do not decode (a peer of another version, a damaged message) are
    /// an error, not trusted.
    #[allow(clippy::type_complexity)]
    fn make_level(
        &mut self,
        store: &SortedLevels<P::State>,
    ) -> Result<(Vec<P::State>, (u64, u64), u64), String> {
        let shared = self.shared;
        let space = &shared.space;
        let mut by_owner = self.list_by_owner(store.newest());
        let listed: u64 = by_owner.iter().map(|o| o.len() as u64).sum();
        let mut mine = std::mem::take(&mut by_owner[self.me]);
        let packets = self.encode(by_owner);
        let sent_bytes: u64 = packets.iter().map(Packet::payload_bytes).sum();
        let sent_states: u64 = packets.iter().map(Packet::states).sum();
        P::State::sort_all(&mut mine);
        mine.dedup();
        let received = self.round(packets);
        let mut pieces: Vec<(u32, Vec<P::State>)> = received
            .into_par_iter()
            .map(|p| match p.body {
                Body::States { count, gaps } => decode_sorted(&gaps, count)
                    .map(|states| (p.from, states))
                    .map_err(|e| format!("states from worker {}: {e}", p.from)),
                _ => Ok((p.from, Vec::new())),
            })
            .collect::<Result<_, _>>()?;
        let got: u64 = pieces.iter().map(|(_, s)| s.len() as u64).sum();
        let held = store.held() + listed.max(mine.len() as u64 + got);
        pieces.push((self.me as u32, mine));
        let mut next = merge_runs(runs_by_sender(pieces));
        store.remove_known(&mut next, space.same_level_possible());
        let mut mine = next;
        mine.shrink_to_fit();
        Ok((mine, (sent_bytes, sent_states), held))
    }

    /// The neighbours (and their aliases) of `current`, by owner, unsorted. With several
    /// workers the level is expanded a slice at a time, so that only one slice's neighbours
    /// are held twice while they are dealt out.
    fn list_by_owner(&self, current: &[P::State]) -> Vec<Vec<P::State>> {
        let shared = self.shared;
        let space = &shared.space;
        let progress = shared.progress();
        let peers = self.peers;
        let mut by_owner: Vec<Vec<P::State>> = (0..peers).map(|_| Vec::new()).collect();
        if peers == 1 {
            let degrees = degrees_of(space, current);
            expand_into(space, current, &degrees, &mut by_owner[0], progress);
            let aliases = aliases_of(space, &by_owner[0]);
            by_owner[0].extend(aliases);
            return by_owner;
        }
        let slice_len = current.len().div_ceil(EXPANSION_SLICES).max(1);
        for slice in current.chunks(slice_len) {
            let degrees = degrees_of(space, slice);
            let mut listed = Vec::new();
            expand_into(space, slice, &degrees, &mut listed, progress);
            let aliases = aliases_of(space, &listed);
            listed.extend(aliases);
            let dealt: Vec<Vec<Vec<P::State>>> = listed
                .par_chunks(STATES_PER_PACKET)
                .map(|chunk| {
                    let mut hands: Vec<Vec<P::State>> = (0..peers).map(|_| Vec::new()).collect();
                    for &s in chunk {
                        hands[owner_of(s.to_key(), peers)].push(s);
                    }
                    hands
                })
                .collect();
            drop(listed);
            for hands in dealt {
                for (owner, hand) in hands.into_iter().enumerate() {
                    by_owner[owner].extend(hand);
                }
            }
        }
        by_owner
    }

    /// Packets of the states for other workers (`by_owner`, this worker's own part taken
    /// out), each part sorted, without repeats, in pieces of at most [`STATES_PER_PACKET`].
    fn encode(&self, by_owner: Vec<Vec<P::State>>) -> Vec<Packet> {
        let me = self.me as u32;
        let mut packets = Vec::new();
        for (to, mut states) in by_owner.into_iter().enumerate() {
            if states.is_empty() {
                continue;
            }
            P::State::sort_all(&mut states);
            states.dedup();
            let pieces: Vec<Packet> = states
                .par_chunks(STATES_PER_PACKET)
                .map(|piece| {
                    let mut gaps = Vec::new();
                    encode_sorted(piece, &mut gaps);
                    Packet {
                        to: to as u32,
                        from: me,
                        body: Body::States {
                            count: piece.len() as u64,
                            gaps,
                        },
                    }
                })
                .collect();
            packets.extend(pieces);
        }
        packets
    }

    /// Every worker's `level` on worker 0, merged in order (`None` on the others).
    fn gather(&mut self, level: &[P::State]) -> Option<Vec<P::State>> {
        let mut gaps = Vec::new();
        encode_sorted(level, &mut gaps);
        let packet = Packet {
            to: 0,
            from: self.me as u32,
            body: Body::States {
                count: level.len() as u64,
                gaps,
            },
        };
        let got = self.round(vec![packet]);
        if self.me != 0 {
            return None;
        }
        let mut all: Vec<P::State> = Vec::new();
        for p in got {
            if let Body::States { count, gaps } = p.body {
                // The antipodes are a listing on top of exact counts: a part that does not
                // decode leaves them out rather than ending the run.
                all.extend(decode_sorted::<P::State>(&gaps, count).ok()?);
            }
        }
        all.sort_unstable();
        Some(all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_joined_by_sender_and_merged_without_repeats() {
        let pieces = vec![
            (1, vec![40u64, 50]),
            (0, vec![1, 5, 9]),
            (1, vec![2, 9, 30]),
            (0, vec![]),
            (2, vec![5, 6]),
            (0, vec![10, 41]),
        ];
        let runs = runs_by_sender(pieces);
        assert_eq!(
            runs,
            vec![vec![1, 5, 9, 10, 41], vec![2, 9, 30, 40, 50], vec![5, 6]]
        );
        assert_eq!(merge_runs(runs), vec![1, 2, 5, 6, 9, 10, 30, 40, 41, 50]);
        assert_eq!(merge_runs::<u64>(Vec::new()), Vec::<u64>::new());
    }
}
