//! The one timely dataflow every worker builds: packets exchanged to the worker they name, in
//! rounds. A round is one timestamp; [`Mailbox::round`] sends this worker's packets, closes the
//! round, and steps the worker until every worker's packets of the round have arrived.

use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandleVec, ProbeHandle};
use timely::worker::Worker;

/// How long a worker waiting for a round sleeps at most when nothing arrives (it is woken at
/// once by an arrival): waiting workers leave the cores to those still computing.
const PARK: Duration = Duration::from_millis(20);

/// What travels between workers.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Packet {
    /// The worker it is for.
    pub to: u32,
    /// The worker that sent it.
    pub from: u32,
    /// Its content.
    pub body: Body,
}

impl Packet {
    /// Bytes of states it carries.
    pub fn payload_bytes(&self) -> u64 {
        match &self.body {
            Body::States { gaps, .. } => gaps.len() as u64,
            _ => 0,
        }
    }

    /// States it carries.
    pub fn states(&self) -> u64 {
        match &self.body {
            Body::States { count, .. } => *count,
            _ => 0,
        }
    }
}

/// A packet's content.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Body {
    /// `count` states the receiver owns, sorted, as varint gaps ([`crate::disk::codec`]).
    States { count: u64, gaps: Vec<u8> },
    /// A worker's account of the level it just made, sent to every worker.
    Report(Report),
    /// A worker's levels on disk when the run starts, sent to every worker.
    Hello(Hello),
    /// Where a worker is in listing a level on disk, sent to every worker with each part.
    Listing {
        /// It has listed its whole part of the level.
        finished: bool,
        /// It could not go on (it still takes part in the rounds).
        failed: bool,
    },
}

/// What every worker tells every other after a level, so that all of them take the same
/// decision about the next one.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub(crate) struct Report {
    /// Positions of the level this worker owns.
    pub positions: u64,
    /// States of the level this worker owns.
    pub classes: u64,
    /// Bytes this worker would hold while it makes the next level (on disk: bytes of disk it
    /// would need).
    pub next_bytes: u64,
    /// On disk: bytes of disk this worker has for the next level.
    pub disk_free: u64,
    /// Bytes of states this worker sent to others for the level.
    pub sent_bytes: u64,
    /// States it sent to others.
    pub sent_states: u64,
    /// On disk: bytes of candidates it spilled while it made the level.
    pub spilled_bytes: u64,
    /// The caller asked this worker's process to stop.
    pub cancelled: bool,
    /// This worker could not go on (a level it could not write or read, states it could not
    /// decode; the message is its own to report).
    pub failed: bool,
}

/// A worker's levels on disk, compared when the run starts.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Hello {
    /// Its own (positions, classes) of every level its manifest lists, from 0.
    pub levels: Vec<(u64, u64)>,
    /// Seconds each of those levels took.
    pub seconds: Vec<f64>,
    /// It could not open its run folder.
    pub failed: bool,
}

/// One worker's end of the exchange.
pub(crate) struct Mailbox {
    input: InputHandleVec<u64, Packet>,
    probe: ProbeHandle<u64>,
    inbox: Rc<RefCell<Vec<(u64, Packet)>>>,
}

impl Mailbox {
    /// Builds the dataflow in `worker`: input, exchange by `to`, and an operator that moves
    /// every packet into this worker's inbox (so the probe passes a round only once its
    /// packets are in the inbox).
    pub fn new(worker: &mut Worker) -> Self {
        let mut input = InputHandleVec::new();
        let probe = ProbeHandle::new();
        let inbox = Rc::new(RefCell::new(Vec::new()));
        let sink = Rc::clone(&inbox);
        worker.dataflow::<u64, _, _>(|scope| {
            scope
                .input_from(&mut input)
                .unary::<timely::container::CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(|p: &Packet| u64::from(p.to)),
                    "Inbox",
                    move |capability, _| {
                        drop(capability);
                        move |packets, _| {
                            packets.for_each(|time, data| {
                                let t = time.least().copied().unwrap_or_default();
                                sink.borrow_mut().extend(data.drain(..).map(|p| (t, p)));
                            });
                        }
                    },
                )
                .probe_with(&probe);
        });
        Mailbox {
            input,
            probe,
            inbox,
        }
    }

    /// Sends `packets`, closes the round, and waits (stepping `worker`) until every worker has
    /// closed it; returns the packets of the round addressed to this worker. A worker that
    /// dies makes timely's connection threads panic, which ends the wait with a panic too.
    pub fn round(&mut self, worker: &mut Worker, packets: Vec<Packet>) -> Vec<Packet> {
        let round = *self.input.time();
        for packet in packets {
            self.input.send(packet);
        }
        self.input.advance_to(round + 1);
        while self.probe.less_than(self.input.time()) {
            worker.step_or_park(Some(PARK));
        }
        let mut inbox = self.inbox.borrow_mut();
        let (this, later): (Vec<_>, Vec<_>) = inbox.drain(..).partition(|(t, _)| *t <= round);
        *inbox = later;
        this.into_iter().map(|(_, p)| p).collect()
    }
}
