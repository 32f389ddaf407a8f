//! One worker's part of a distributed run: the frontier engine's level loop over the states
//! this worker owns, with the candidates of each level exchanged to their owners in between.
//!
//! Every worker takes every decision (go on, stop, why) from the same reports, exchanged
//! after each level, so all of them stop at the same level with the same counts.

use super::mailbox::{Body, Mailbox, Packet, Report};
use super::{owner_of, Event, LevelTraffic, Shared, WorkerError};
use crate::back_moves::join_repeats;
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

/// A level's positions and states over every worker's report, and what it cost.
pub(super) fn level_totals(depth: u32, seconds: f64, all: &[Report]) -> (u64, u64, LevelTraffic) {
    let sum = |f: fn(&Report) -> u64| all.iter().map(f).sum::<u64>();
    let cost = LevelTraffic {
        depth,
        seconds,
        sent_bytes: sum(|r| r.sent_bytes),
        sent_states: sum(|r| r.sent_states),
        spilled_bytes: sum(|r| r.spilled_bytes),
        resumed: false,
    };
    (sum(|r| r.positions), sum(|r| r.classes), cost)
}

/// `listed` dealt out to its owners among `peers` workers, by threads. States that carry
/// `back_move_bits` go by the key above those bits, their position's: every copy of a
/// position, whichever moves lead back from it, reaches the one owner that joins them.
pub(super) fn deal<S: KeyState>(listed: &[S], peers: usize, back_move_bits: u32) -> Vec<Vec<S>> {
    let hands: Vec<Vec<Vec<S>>> = listed
        .par_chunks(STATES_PER_PACKET)
        .map(|chunk| {
            let mut hands: Vec<Vec<S>> = (0..peers).map(|_| Vec::new()).collect();
            for &s in chunk {
                hands[owner_of(s.to_key() >> back_move_bits, peers)].push(s);
            }
            hands
        })
        .collect();
    let mut by_owner: Vec<Vec<S>> = (0..peers).map(|_| Vec::new()).collect();
    for chunk_hands in hands {
        for (owner, hand) in chunk_hands.into_iter().enumerate() {
            by_owner[owner].extend(hand);
        }
    }
    by_owner
}

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
    /// Bytes of this worker's level files at the end (levels on disk).
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

pub(super) struct This<'a, P: StateSpace> {
    pub(super) me: usize,
    pub(super) peers: usize,
    mailbox: Mailbox,
    worker: &'a mut Worker,
    pub(super) shared: &'a Shared<P>,
}

impl<P> This<'_, P>
where
    P: StateSpace,
    P::State: KeyState,
{
    pub(super) fn space(&self) -> &P {
        &self.shared.space
    }

    /// Whether this worker tells the caller about levels (one worker a process does).
    fn speaks(&self) -> bool {
        self.me % self.shared.local_workers == 0
    }

    pub(super) fn event(&self, event: Event) {
        if self.speaks() || matches!(event, Event::Advanced(_)) {
            // The caller stops listening only once every worker has ended.
            let _ = self.shared.events.send(event);
        }
    }

    /// One packet a worker, each with `body`.
    pub(super) fn to_all(&self, body: Body) -> Vec<Packet> {
        (0..self.peers)
            .map(|to| Packet {
                to: to as u32,
                from: self.me as u32,
                body: body.clone(),
            })
            .collect()
    }

    /// Exchanges `packets`; the packets of the round addressed here, by sender.
    pub(super) fn round(&mut self, packets: Vec<Packet>) -> Vec<Packet> {
        let mut got = self.mailbox.round(self.worker, packets);
        got.sort_by_key(|p| p.from);
        got
    }

    /// Every worker's report of the round, in worker order. A worker whose report did not
    /// come (it stopped) counts as failed.
    pub(super) fn reports(&mut self, mine: Report) -> Vec<Report> {
        let missing = Report {
            failed: true,
            ..Report::default()
        };
        let mut all = vec![missing; self.peers];
        for p in self.round(self.to_all(Body::Report(mine))) {
            if let Body::Report(r) = p.body {
                all[p.from as usize] = r;
            }
        }
        all
    }

    /// Tells every worker whether this one is fine; the first worker that is not, if any.
    pub(super) fn first_failed(&mut self, ok: bool) -> Option<usize> {
        let reports = self.reports(Report {
            failed: !ok,
            ..Report::default()
        });
        reports.iter().position(|r| r.failed)
    }

    fn run(&mut self) -> Result<Outcome<P::State>, WorkerError> {
        let shared = self.shared;
        if let Some(plan) = &shared.on_disk {
            return self.run_on_disk(plan);
        }
        let (mut store, mut levels, mut classes) = self.begin()?;
        let mut traffic = vec![LevelTraffic::default()];
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
            let all = self.reports(Report {
                positions,
                classes: next.len() as u64,
                sent_bytes: sent.0,
                sent_states: sent.1,
                ..Report::default()
            });
            if let Some(w) = all.iter().position(|r| r.failed) {
                return Err(WorkerError::Other(w));
            }
            let (level_positions, level_classes, cost) =
                level_totals(depth + 1, started.elapsed().as_secs_f64(), &all);
            if level_classes == 0 {
                break Stop::Complete;
            }
            levels.push(level_positions);
            classes.push(level_classes);
            traffic.push(cost);
            store.push(next);
            // States that carry their moves back are never looked up in the level before.
            if self.space().back_move_bits() > 0 {
                store.forget_previous();
            }
            next_needed = self.bytes_to_expand(&store);
            self.event(Event::Finished {
                depth: depth + 1,
                positions: level_positions,
            });
        };
        let newest_classes = *classes.last().expect("level 0 exists");
        let last_level = match shared.gathers_antipodes(stop, newest_classes) {
            true => self.gather(Some(store.newest())),
            false => None,
        };
        Ok(Outcome {
            levels,
            classes,
            stop,
            last_level,
            peak_bytes,
            traffic,
            resumed_from: None,
            disk_bytes: 0,
        })
    }

    /// Level 0: the goals (and their aliases) this worker owns, and the counts of all.
    #[allow(clippy::type_complexity)]
    fn begin(&mut self) -> Result<(SortedLevels<P::State>, Vec<u64>, Vec<u64>), WorkerError> {
        let goals = self.owned_goals();
        let positions = positions_in(self.space(), &goals);
        let all = self.reports(Report {
            positions,
            classes: goals.len() as u64,
            ..Report::default()
        });
        if let Some(w) = all.iter().position(|r| r.failed) {
            return Err(WorkerError::Other(w));
        }
        let mut store = SortedLevels::default();
        store.start(goals);
        let levels = vec![all.iter().map(|r| r.positions).sum()];
        let classes = vec![all.iter().map(|r| r.classes).sum()];
        Ok((store, levels, classes))
    }

    /// The goals and their aliases this worker owns, sorted.
    pub(super) fn owned_goals(&self) -> Vec<P::State> {
        let space = self.space();
        let mut goals = Vec::new();
        space.for_each_goal(|g| goals.push(g));
        goals.extend(aliases_of(space, &goals));
        let back_move_bits = space.back_move_bits();
        goals.retain(|g| owner_of(g.to_key() >> back_move_bits, self.peers) == self.me);
        goals.sort_unstable();
        goals.dedup();
        goals
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
        let back_move_bits = space.back_move_bits();
        let mut by_owner = self.list_by_owner(store.newest());
        let listed: u64 = by_owner.iter().map(|o| o.len() as u64).sum();
        let mut mine = std::mem::take(&mut by_owner[self.me]);
        let packets = self.encode(by_owner);
        let sent_bytes: u64 = packets.iter().map(Packet::payload_bytes).sum();
        let sent_states: u64 = packets.iter().map(Packet::states).sum();
        P::State::sort_all(&mut mine);
        join_repeats(&mut mine, back_move_bits);
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
        // States that carry their moves back list only new states (every move forward leads
        // to the next level), and the copies of one from several senders are joined here.
        match back_move_bits {
            0 => store.remove_known(&mut next, space.same_level_possible()),
            bits => join_repeats(&mut next, bits),
        }
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
            let dealt = deal(&listed, peers, space.back_move_bits());
            drop(listed);
            for (owner, hand) in dealt.into_iter().enumerate() {
                by_owner[owner].extend(hand);
            }
        }
        by_owner
    }

    /// Packets of the states for other workers (`by_owner`, this worker's own part taken
    /// out), each part sorted, without repeats, in pieces of at most [`STATES_PER_PACKET`].
    pub(super) fn encode(&self, by_owner: Vec<Vec<P::State>>) -> Vec<Packet> {
        let me = self.me as u32;
        let back_move_bits = self.space().back_move_bits();
        let mut packets = Vec::new();
        for (to, mut states) in by_owner.into_iter().enumerate() {
            if states.is_empty() {
                continue;
            }
            P::State::sort_all(&mut states);
            join_repeats(&mut states, back_move_bits);
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

    /// Every worker's `level` on worker 0, merged in order (`None` on the others, and when a
    /// worker had no `level` to give).
    pub(super) fn gather(&mut self, level: Option<&[P::State]>) -> Option<Vec<P::State>> {
        let body = match level {
            Some(states) => {
                let mut gaps = Vec::new();
                encode_sorted(states, &mut gaps);
                Body::States {
                    count: states.len() as u64,
                    gaps,
                }
            }
            None => Body::Listing {
                finished: true,
                failed: true,
            },
        };
        let packet = Packet {
            to: 0,
            from: self.me as u32,
            body,
        };
        let got = self.round(vec![packet]);
        if self.me != 0 || got.len() != self.peers {
            return None;
        }
        let mut all: Vec<P::State> = Vec::new();
        for p in got {
            // The antipodes are a listing on top of exact counts: a part that is missing or
            // does not decode leaves them out rather than short, and does not end the run.
            match p.body {
                Body::States { count, gaps } => {
                    all.extend(decode_sorted::<P::State>(&gaps, count).ok()?)
                }
                _ => return None,
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
