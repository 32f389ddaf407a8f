//! Jobs: every request's work runs as one, on a blocking thread, under the server's limits.
//!
//! - At most `max_jobs` run at once (a semaphore); up to `max_waiting` more wait their turn,
//!   and a request beyond that is refused at once (503) rather than queued without end.
//! - Each job has a [`JobControl`]: its progress for watchers and its cancel switch. A job is
//!   cancelled by `DELETE /api/jobs/{id}`, when its time limit passes, or when the client of a
//!   waiting request goes away; the engines stop at their next look (see
//!   [`JobControl::cancel`]) and the job still answers with what it finished. The time limit
//!   counts the job's own work, not the loading and building of tables later requests reuse
//!   ([`JobControl::charged`]): a first 3x3x3 solve is not cut short by the two-phase build.
//! - Finished jobs are kept for their watchers, the newest `KEPT_FINISHED` of them.

use crate::words::in_api_words;
use godsearch_app::request::{JobControl, JobLimits, Workbench};
use godsearch_app::AppError;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::{watch, Semaphore};

/// How often a job on tables past its time limit looks again (the limit waits for its tables).
const TABLES_RECHECK: Duration = Duration::from_millis(100);

/// Finished jobs kept for `GET /api/jobs/{id}` after they end.
const KEPT_FINISHED: usize = 256;
/// Kept finished results hold at most this many times the largest answer, in all (the oldest
/// are forgotten first).
pub const KEPT_RESULT_FACTOR: usize = 4;

/// How a job ended, as the API answers it.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// The report, as JSON.
    Done(serde_json::Value),
    /// The request was at fault (HTTP 400), with the message the command line prints, in the
    /// API's words (`max_length` for `--max-length`).
    BadInput(String),
    /// The work failed (HTTP 500).
    Failed(String),
    /// The report is larger than the server answers (HTTP 413), with its size.
    TooLarge(String),
    /// The job was cancelled by its client (`DELETE`), with what the work had when it
    /// stopped (IDA*'s proven lower bound, an enumeration's finished levels), or `None` when it
    /// was cancelled before it started.
    Cancelled(Option<serde_json::Value>),
}

impl Outcome {
    fn of(result: Result<serde_json::Value, AppError>) -> Self {
        match result {
            Ok(value) => Outcome::Done(value),
            Err(e) if e.is_bad_input() => Outcome::BadInput(in_api_words(&e.to_string())),
            Err(e) => Outcome::Failed(in_api_words(&e.to_string())),
        }
    }
}

/// One job: what it is, its control and, once it ends, its outcome.
pub struct Job {
    /// Its number.
    pub id: u64,
    /// `solve`, `bfs` or `scramble`.
    pub kind: &'static str,
    /// Progress and cancel switch.
    pub control: JobControl,
    /// Whether its client cancelled it (not its time limit).
    cancelled_by_client: AtomicBool,
    /// Bytes of its report's JSON, once it has one.
    result_bytes: AtomicUsize,
    done: watch::Sender<Option<Outcome>>,
}

impl Job {
    /// Cancels it at its client's request: it stops at the engines' next look and ends in
    /// the state `cancelled`.
    pub fn cancel(&self) {
        self.cancelled_by_client.store(true, Ordering::Relaxed);
        self.control.cancel();
    }

    /// The outcome, once the job has ended.
    pub fn outcome(&self) -> Option<Outcome> {
        self.done.borrow().clone()
    }

    /// Waits for the outcome.
    pub async fn finished(&self) -> Outcome {
        let mut receiver = self.done.subscribe();
        loop {
            if let Some(outcome) = receiver.borrow_and_update().clone() {
                return outcome;
            }
            if receiver.changed().await.is_err() {
                return Outcome::Failed("the job ended without an answer".into());
            }
        }
    }

    /// Whether it is still running or waiting.
    pub fn running(&self) -> bool {
        self.done.borrow().is_none()
    }
}

/// The job's work: a closure run on a blocking thread with the shared tables, the limits and
/// the job's control.
pub type Work = Box<
    dyn FnOnce(&Workbench, &JobLimits, &JobControl) -> Result<serde_json::Value, AppError> + Send,
>;

/// Why a job could not be started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Every slot is taken and the waiting line is full.
    Busy,
}

/// The jobs of one server.
pub struct Jobs {
    workbench: Arc<Workbench>,
    limits: JobLimits,
    wall_limit: Option<Duration>,
    max_response: usize,
    max_jobs: usize,
    slots: Arc<Semaphore>,
    max_waiting: usize,
    waiting: AtomicUsize,
    running: AtomicUsize,
    /// Held while a job ends and while health is read, so that a job seen finished is no
    /// longer counted as running and one seen running is still counted.
    ending: Mutex<()>,
    next_id: AtomicU64,
    table: Mutex<BTreeMap<u64, Arc<Job>>>,
}

/// Counts for the health check.
#[derive(Debug, Clone, Serialize)]
pub struct Load {
    /// Jobs running now.
    pub running: usize,
    /// Jobs waiting for a slot.
    pub waiting: usize,
    /// Jobs that may run at once.
    pub max_jobs: usize,
}

impl Jobs {
    /// Jobs over `workbench`, at most `max_jobs` at once and `max_waiting` waiting, each under
    /// `limits`, stopped `wall_limit` after it starts, and answering at most `max_response`
    /// bytes of JSON.
    pub fn new(
        workbench: Arc<Workbench>,
        limits: JobLimits,
        wall_limit: Option<Duration>,
        (max_jobs, max_waiting): (usize, usize),
        max_response: usize,
    ) -> Self {
        Jobs {
            workbench,
            limits,
            wall_limit,
            max_response,
            max_jobs: max_jobs.max(1),
            slots: Arc::new(Semaphore::new(max_jobs.max(1))),
            max_waiting,
            waiting: AtomicUsize::new(0),
            running: AtomicUsize::new(0),
            ending: Mutex::new(()),
            next_id: AtomicU64::new(1),
            table: Mutex::new(BTreeMap::new()),
        }
    }

    /// Jobs running and waiting.
    pub fn load(&self) -> Load {
        let _ending = self.ending.lock().unwrap_or_else(PoisonError::into_inner);
        Load {
            running: self.running.load(Ordering::Relaxed),
            waiting: self.waiting.load(Ordering::Relaxed),
            max_jobs: self.max_jobs,
        }
    }

    /// The job numbered `id`, if it is running or among the kept finished ones.
    pub fn get(&self, id: u64) -> Option<Arc<Job>> {
        self.lock().get(&id).cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Arc<Job>>> {
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The limits every job runs under.
    pub fn limits(&self) -> &JobLimits {
        &self.limits
    }

    /// Starts a job: it waits for a slot, runs `work` on a blocking thread, and is cancelled
    /// when its wall-clock limit passes. Refused when the waiting line is full.
    pub fn start(self: &Arc<Self>, kind: &'static str, work: Work) -> Result<Arc<Job>, Refusal> {
        if self.slots.available_permits() == 0
            && self.waiting.load(Ordering::Relaxed) >= self.max_waiting
        {
            return Err(Refusal::Busy);
        }
        let (done, _) = watch::channel(None);
        let job = Arc::new(Job {
            id: self.next_id.fetch_add(1, Ordering::Relaxed),
            kind,
            control: JobControl::new(self.limits.max_nodes),
            cancelled_by_client: AtomicBool::new(false),
            result_bytes: AtomicUsize::new(0),
            done,
        });
        self.keep(&job);
        self.waiting.fetch_add(1, Ordering::Relaxed);
        let (jobs, running) = (Arc::clone(self), Arc::clone(&job));
        tokio::spawn(async move { jobs.run(running, work).await });
        Ok(job)
    }

    async fn run(self: Arc<Self>, job: Arc<Job>, work: Work) {
        if self.slots.available_permits() == 0 {
            job.control.say(&format!(
                "waiting for a free slot ({} running)",
                self.running.load(Ordering::Relaxed)
            ));
        }
        let permit = Arc::clone(&self.slots).acquire_owned().await;
        self.waiting.fetch_sub(1, Ordering::Relaxed);
        job.control.say("");
        let Ok(permit) = permit else {
            job.done
                .send_replace(Some(Outcome::Failed("the server is stopping".into())));
            return;
        };
        if job.control.progress().cancelled {
            job.done.send_replace(Some(Outcome::Cancelled(None)));
            return;
        }
        self.running.fetch_add(1, Ordering::Relaxed);
        let (jobs, worker) = (Arc::clone(&self), Arc::clone(&job));
        let mut task = tokio::task::spawn_blocking(move || {
            work(&jobs.workbench, &jobs.limits, &worker.control)
        });
        let mut past_limit = None;
        let joined = match self.wall_limit {
            Some(limit) => loop {
                // The limit is on the job's own work: time spent loading or building tables
                // (which later requests reuse) is not charged, so the deadline moves on by it.
                let left = limit.saturating_sub(job.control.charged());
                if left.is_zero() && !job.control.on_tables() {
                    // Cancelled at its limit, the job keeps its slot (and so its memory
                    // budget), and health counts it as running, until its thread has
                    // stopped (the engines look at the cancel at least every second).
                    job.control.cancel();
                    let why = format!("the job passed its time limit of {} s", limit.as_secs_f64());
                    job.control.say(&format!("stopping: {why}"));
                    past_limit = Some(why);
                    break task.await;
                }
                let wait = left.max(TABLES_RECHECK);
                if let Ok(joined) = tokio::time::timeout(wait, &mut task).await {
                    break joined;
                }
            },
            None => task.await,
        };
        let outcome = match joined {
            Ok(result) => Outcome::of(result),
            Err(e) => Outcome::Failed(format!("the job failed: {e}")),
        };
        let outcome = self.bounded(&job, outcome);
        let outcome = match outcome {
            Outcome::Done(value) if job.cancelled_by_client.load(Ordering::Relaxed) => {
                Outcome::Cancelled(Some(value))
            }
            // Work its client cancelled that stopped with nothing to show (a table build).
            Outcome::BadInput(_) | Outcome::Failed(_)
                if job.cancelled_by_client.load(Ordering::Relaxed) =>
            {
                Outcome::Cancelled(None)
            }
            // Work stopped at its limit with nothing to show says so first.
            Outcome::BadInput(e) | Outcome::Failed(e) if past_limit.is_some() => {
                Outcome::Failed(format!("{} ({e})", past_limit.unwrap_or_default()))
            }
            other => other,
        };
        // Its state, its count in health and its slot change together.
        let _ending = self.ending.lock().unwrap_or_else(PoisonError::into_inner);
        job.done.send_replace(Some(outcome));
        self.running.fetch_sub(1, Ordering::Relaxed);
        drop(permit);
    }

    /// A report larger than the server answers, replaced by a 413 that says how large; the
    /// size of what is kept is recorded for [`keep`](Self::keep).
    fn bounded(&self, job: &Job, outcome: Outcome) -> Outcome {
        let value = match &outcome {
            Outcome::Done(value) | Outcome::Cancelled(Some(value)) => value,
            _ => return outcome,
        };
        let bytes = serde_json::to_vec(value).map_or(usize::MAX, |v| v.len());
        let ask_less = "ask for less (fewer or shorter scrambles, a smaller board)";
        if bytes > self.max_response {
            return Outcome::TooLarge(format!(
                "the answer would be {bytes} bytes of JSON, over this server's limit of {} (--max-response); {ask_less}",
                self.max_response
            ));
        }
        // A kept answer is memory the job holds after it ends: it counts against the job's
        // memory as its tables and levels do.
        if bytes as u64 > self.limits.memory_bytes {
            return Outcome::TooLarge(format!(
                "the answer would be {bytes} bytes of JSON, over the memory a job may hold ({} bytes, --job-memory); {ask_less}",
                self.limits.memory_bytes
            ));
        }
        job.result_bytes.store(bytes, Ordering::Relaxed);
        outcome
    }

    /// Adds a job to the table, forgetting the oldest finished ones beyond [`KEPT_FINISHED`]
    /// jobs or [`KEPT_RESULT_FACTOR`] times the largest answer in all.
    fn keep(&self, job: &Arc<Job>) {
        let mut table = self.lock();
        table.insert(job.id, Arc::clone(job));
        let finished: Vec<(u64, usize)> = table
            .iter()
            .filter(|(_, j)| !j.running())
            .map(|(id, j)| (*id, j.result_bytes.load(Ordering::Relaxed)))
            .collect();
        let most_bytes = self.max_response.saturating_mul(KEPT_RESULT_FACTOR);
        let mut bytes: usize = finished.iter().map(|(_, b)| b).sum();
        let mut left = finished.len();
        for (id, size) in finished {
            if left <= KEPT_FINISHED && bytes <= most_bytes {
                break;
            }
            table.remove(&id);
            bytes -= size;
            left -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use godsearch_app::cache::TableCache;
    use godsearch_app::request::TableSize;
    use serde_json::json;

    fn jobs(cache: &std::path::Path, wall_limit: Duration, memory_bytes: u64) -> Arc<Jobs> {
        let limits = JobLimits {
            memory_bytes,
            max_nodes: None,
            max_seconds: None,
            largest_table: TableSize::Small,
            max_scrambles: 1,
            definition_files: false,
        };
        let workbench = Arc::new(Workbench::new(TableCache::new(cache.to_path_buf())));
        Arc::new(Jobs::new(
            workbench,
            limits,
            Some(wall_limit),
            (1, 4),
            1 << 20,
        ))
    }

    /// Work past its limit that does not stop (here: it waits to be let go, ignoring its
    /// cancel) keeps its slot and its count in health until its thread ends; the next job
    /// waits for the slot, and the late one ends saying it passed its limit.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_job_past_its_limit_holds_its_slot_until_its_thread_stops() {
        let cache = tempfile::tempdir().unwrap();
        let jobs = jobs(cache.path(), Duration::from_millis(50), 1 << 20);
        let (let_go, wait) = std::sync::mpsc::channel::<()>();
        let stubborn: Work = Box::new(move |_, _, control| {
            control.start();
            wait.recv().ok();
            Err(AppError::Run("stopped late".into()))
        });
        let late = jobs.start("solve", stubborn).unwrap();
        let started = std::time::Instant::now();
        while !late.control.progress().cancelled {
            assert!(started.elapsed() < Duration::from_secs(10));
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let next = jobs
            .start("solve", Box::new(|_, _, _| Ok(json!("next"))))
            .unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(late.running() && next.running());
        let load = jobs.load();
        assert_eq!((load.running, load.waiting), (1, 1));
        // The waiting job says why it waits.
        let waiting = next.control.progress().detail;
        assert_eq!(waiting, "waiting for a free slot (1 running)");
        let_go.send(()).unwrap();
        match late.finished().await {
            Outcome::Failed(e) => assert!(e.starts_with("the job passed its time limit"), "{e}"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(next.finished().await, Outcome::Done(_)));
        assert_eq!(jobs.load().running, 0);
    }

    /// An answer larger than the memory a job may hold is refused, as one larger than the
    /// server's response limit is.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_answer_counts_against_the_job_memory() {
        let cache = tempfile::tempdir().unwrap();
        let jobs = jobs(cache.path(), Duration::from_secs(60), 1_000);
        let large = jobs
            .start("scramble", Box::new(|_, _, _| Ok(json!("x".repeat(2_000)))))
            .unwrap();
        match large.finished().await {
            Outcome::TooLarge(e) => assert!(e.contains("--job-memory"), "{e}"),
            other => panic!("{other:?}"),
        }
        let small = jobs
            .start("scramble", Box::new(|_, _, _| Ok(json!("x".repeat(500)))))
            .unwrap();
        assert!(matches!(small.finished().await, Outcome::Done(_)));
    }
}
