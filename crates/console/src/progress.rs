//! Progress bars on stderr for the library's [`Progress`] sink: shown only when stderr is a
//! terminal and only once a run has lasted a second.

use godsearch_app::progress::{Progress, Watch};
use godsearch_app::request::JobControl;
use godsearch_app::units::{format_count, format_rate, format_seconds};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

const SHOW_AFTER: Duration = Duration::from_secs(1);

/// A level-by-level progress bar.
pub struct LevelBar {
    bar: ProgressBar,
    started: Instant,
    visible: AtomicBool,
    depth: AtomicU32,
}

impl LevelBar {
    /// A bar that stays hidden for the first second.
    pub fn new() -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template(
                "{msg:>14} [{bar:40}] {percent:>3}% {elapsed_precise} eta {eta}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        Self {
            bar,
            started: Instant::now(),
            visible: AtomicBool::new(false),
            depth: AtomicU32::new(0),
        }
    }

    fn reveal_if_slow(&self) {
        if !self.visible.load(Ordering::Relaxed) && self.started.elapsed() >= SHOW_AFTER {
            self.visible.store(true, Ordering::Relaxed);
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// Runs `f` (which prints to stderr) with the bar cleared, then draws it again.
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        self.bar.suspend(f)
    }
}

impl Default for LevelBar {
    fn default() -> Self {
        Self::new()
    }
}

impl Progress for LevelBar {
    fn level_started(&self, depth: u32, units: u64) {
        self.bar.set_length(units);
        self.bar.set_position(0);
        self.bar.set_message(format!("depth {depth}"));
        self.depth.store(depth, Ordering::Relaxed);
        self.reveal_if_slow();
    }

    fn detail(&self, text: &str) {
        let depth = self.depth.load(Ordering::Relaxed);
        self.bar.set_message(format!("depth {depth}: {text}"));
    }

    fn advanced(&self, units: u64) {
        self.bar.inc(units);
        self.reveal_if_slow();
    }
}

/// A bar over the items of a batch (boards, cubes): done of total, rate and time left. Drawn
/// on stderr once the batch has lasted a second, only when stderr is a terminal, never when
/// `quiet`; one item shows no bar.
pub struct BatchBar {
    bar: Option<ProgressBar>,
    started: Instant,
    visible: AtomicBool,
}

impl BatchBar {
    /// A bar over `total` items called `unit`; a count alone when the total is not known
    /// (items read from standard input as they come).
    pub fn new(unit: &str, total: Option<u64>, quiet: bool) -> Self {
        let bar = (!quiet && total.is_none_or(|n| n > 1)).then(|| {
            let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
            let template = match total {
                Some(_) => format!(
                    "{{pos}}/{{len}} {unit} [{{bar:40}}] {{per_sec}} {{elapsed_precise}} eta {{eta}}"
                ),
                None => format!("{{pos}} {unit} {{per_sec}} {{elapsed_precise}}"),
            };
            bar.set_style(
                ProgressStyle::with_template(&template)
                    .expect("valid template")
                    .progress_chars("=> "),
            );
            bar
        });
        Self {
            bar,
            started: Instant::now(),
            visible: AtomicBool::new(false),
        }
    }

    /// One more item is done.
    pub fn advance(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
            if !self.visible.load(Ordering::Relaxed) && self.started.elapsed() >= SHOW_AFTER {
                self.visible.store(true, Ordering::Relaxed);
                bar.set_draw_target(ProgressDrawTarget::stderr());
            }
        }
    }

    /// Runs `f` (which prints) with the bar cleared, then draws it again.
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The iteration under way as the search line tells it: about how far it has come and how
/// long it has left, from the growth of the two iterations before it at the rate so far
/// (empty until two have finished, or once the iteration has passed its forecast).
fn iteration_estimate(watch: &Watch, rate: f64) -> String {
    let done = watch.iteration_expanded();
    match watch.iteration_forecast() {
        Some(total) if total > done && rate > 0.0 => format!(
            "; this iteration about {:.0}% done, {} left",
            100.0 * done as f64 / total as f64,
            format_seconds((total - done) as f64 / rate)
        ),
        _ => String::new(),
    }
}

/// "; N of M subtrees finished" for a parallel iteration that has finished any.
fn subtrees_finished(watch: &Watch) -> String {
    match watch.searched() {
        Some(searched) => format!(
            "; {} of {} subtrees finished",
            searched.done.len(),
            searched.subtrees
        ),
        None => String::new(),
    }
}

/// How often the search line is redrawn.
const SEARCH_LINE_EVERY: Duration = Duration::from_millis(250);

/// A line on stderr while one IDA* search runs: the threshold, the nodes expanded, the rate and
/// the time so far, read from the search's [`Watch`]. Shown once the search has lasted a
/// second, only when stderr is a terminal, never when `quiet`.
pub fn with_search_line<T>(watch: &Watch, quiet: bool, work: impl FnOnce() -> T) -> T {
    let line = |elapsed: Duration| {
        let nodes = watch.expanded();
        let rate = nodes as f64 / elapsed.as_secs_f64();
        format!(
            "threshold {}, {} nodes expanded, {}nodes/s, {}{}{}",
            watch.threshold(),
            format_count(nodes),
            format_rate(rate),
            format_seconds(elapsed.as_secs_f64()),
            iteration_estimate(watch, rate),
            subtrees_finished(watch)
        )
    };
    with_status_line(quiet, line, work)
}

/// A line on stderr while a request runs on the workbench, read from its [`JobControl`] as
/// the server's clients read a job: the tables it builds and their level, or its search's
/// threshold and nodes, and the time so far. Shown as [`with_search_line`] is.
pub fn with_job_line<T>(control: &JobControl, quiet: bool, work: impl FnOnce() -> T) -> T {
    let line = |elapsed: Duration| {
        let now = control.progress();
        let doing = match (now.tables.is_empty(), now.threshold) {
            (false, _) => format!(
                "{}: level {} ({:.0}%)",
                now.tables,
                now.level,
                100.0 * now.level_fraction
            ),
            (true, 0) => format!("level {} ({:.0}%)", now.level, 100.0 * now.level_fraction),
            (true, threshold) => format!(
                "threshold {threshold}, {} nodes expanded",
                format_count(now.nodes)
            ),
        };
        format!("{doing}, {}", format_seconds(elapsed.as_secs_f64()))
    };
    with_status_line(quiet, line, work)
}

/// Runs `work` with a line on stderr that `message` (given the time so far) redraws every
/// [`SEARCH_LINE_EVERY`], once the work has lasted a second, only when stderr is a terminal,
/// never when `quiet`.
fn with_status_line<T>(
    quiet: bool,
    message: impl Fn(Duration) -> String + Sync,
    work: impl FnOnce() -> T,
) -> T {
    if quiet {
        return work();
    }
    // Dropping the sender ends the line at once, not at the next redraw (a short command
    // used to wait up to a quarter of a second for it).
    let (finished, redraw) = mpsc::channel::<()>();
    let message = &message;
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let started = Instant::now();
            let line = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
            line.set_style(ProgressStyle::with_template("{msg}").expect("valid template"));
            while let Err(RecvTimeoutError::Timeout) = redraw.recv_timeout(SEARCH_LINE_EVERY) {
                let elapsed = started.elapsed();
                if elapsed < SHOW_AFTER {
                    continue;
                }
                if line.is_hidden() {
                    line.set_draw_target(ProgressDrawTarget::stderr());
                }
                line.set_message(message(elapsed));
            }
            line.finish_and_clear();
        });
        let result = work();
        drop(finished);
        result
    })
}
