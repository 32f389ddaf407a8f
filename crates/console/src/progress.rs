//! Progress bars and status lines on stderr for the library's [`Progress`] sink: shown only
//! when stderr is a terminal and only once a run has lasted a second. They are drawn together
//! (an `indicatif` group), so that a message printed through one's `suspend` clears them all
//! and lands above them, never on a line drawn over.

use godsearch_app::progress::{Direction, Progress, Watch};
use godsearch_app::request::JobControl;
use godsearch_app::units::{format_count, format_percent, format_rate, format_seconds};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant, SystemTime};

const SHOW_AFTER: Duration = Duration::from_secs(1);

/// Where a long search's or job's status line goes on stderr.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatusLines {
    /// No line at all (`--quiet`).
    pub quiet: bool,
    /// Also write the line out whole every so often and whenever the work moves to its next
    /// stage (a search's next threshold, a job's next table), terminal or not, so that a log
    /// of a run in the background keeps it (`--progress-every`). Without it the line is only
    /// redrawn in place, and only on a terminal.
    pub logged_every: Option<Duration>,
}

/// The process's progress lines on stderr, drawn as one group (hidden where stderr is not a
/// terminal).
fn terminal_lines() -> &'static MultiProgress {
    static LINES: OnceLock<MultiProgress> = OnceLock::new();
    LINES.get_or_init(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr()))
}

/// Draws `bar` among the terminal's progress lines.
fn show(bar: &ProgressBar) {
    terminal_lines().add(bar.clone());
}

/// Takes `bar` off the terminal; it keeps its state, hidden, and may be shown again.
fn hide(bar: &ProgressBar) {
    bar.finish_and_clear();
    terminal_lines().remove(bar);
}

/// Runs `f` (which prints to stderr or stdout) with every progress line cleared, then draws
/// them again below what it printed.
pub fn suspended<T>(f: impl FnOnce() -> T) -> T {
    terminal_lines().suspend(f)
}

/// A level-by-level progress bar. Tables announced with [`Progress::tables_started`] each get
/// the bar anew, named, from their first level to [`Progress::tables_ready`], which takes it
/// off the terminal: a search that builds tables as it goes (a board's own databases) shows
/// each build and then its own line.
pub struct LevelBar {
    bar: ProgressBar,
    /// Since when the work the bar shows has run: it is shown once that is a second.
    started: Mutex<Instant>,
    visible: AtomicBool,
    depth: AtomicU32,
    /// The tables being built (empty when none were announced).
    tables: Mutex<String>,
    /// Where the bar is also written out whole for a log ([`LevelBar::logged`]).
    log: Option<Mutex<LevelLog>>,
}

/// A [`LevelBar`]'s log: since when it runs, when it last looked whether a line is due, and
/// its schedule.
struct LevelLog {
    started: Instant,
    looked: Duration,
    schedule: LogSchedule,
}

/// The columns a named [`LevelBar`] keeps within: a terminal's narrowest usual width.
const NAMED_BAR_COLUMNS: usize = 80;
/// The columns of a named bar after its message: ` [`, the bar's 16, `] `, the percentage,
/// ` eta ` and up to four of the time left (`59s`, `12m`).
const NAMED_BAR_TAIL: usize = 2 + 16 + 2 + 4 + 5 + 4;
/// The fewest characters of the tables' name a named bar keeps, however long its detail.
const NAME_AT_LEAST: usize = 16;

/// A [`LevelBar`]'s look: the depth, or the tables and their depth, then the bar.
fn level_style(named: bool) -> ProgressStyle {
    let template = match named {
        false => "{msg:>14} [{bar:40}] {percent:>3}% {elapsed_precise} eta {eta}",
        // The tables' name takes the room of most of the bar (see `NAMED_BAR_TAIL`).
        true => "{msg} [{bar:16}] {percent:>3}% eta {eta}",
    };
    ProgressStyle::with_template(template)
        .expect("valid template")
        .progress_chars("=> ")
}

impl LevelBar {
    /// A bar that stays hidden for the first second.
    pub fn new() -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(level_style(false));
        Self {
            bar,
            started: Mutex::new(Instant::now()),
            visible: AtomicBool::new(false),
            depth: AtomicU32::new(0),
            tables: Mutex::new(String::new()),
            log: None,
        }
    }

    /// A bar that, given `every`, is also written out whole on stderr every `every` and soon
    /// after each level begins (while tables are built, each table), terminal or not, once the
    /// work has lasted a second: for the log of a run in the background (`--progress-every`).
    pub fn logged(every: Option<Duration>) -> Self {
        let log = every.map(|every| {
            Mutex::new(LevelLog {
                started: Instant::now(),
                looked: Duration::ZERO,
                schedule: LogSchedule::new(every),
            })
        });
        Self { log, ..Self::new() }
    }

    /// Writes the bar out whole where its log's schedule says so, looking at most every
    /// [`SEARCH_LINE_EVERY`] (the engines report progress far more often).
    fn log_if_due(&self) {
        let Some(Ok(mut log)) = self.log.as_ref().map(Mutex::try_lock) else {
            return;
        };
        let elapsed = log.started.elapsed();
        if elapsed < SHOW_AFTER || elapsed < log.looked + SEARCH_LINE_EVERY {
            return;
        }
        log.looked = elapsed;
        if !log.schedule.due(elapsed, &self.log_stage()) {
            return;
        }
        let done = match self.bar.length() {
            Some(units) if units > 0 => format!(
                " ({:.0}%)",
                100.0 * self.bar.position() as f64 / units as f64
            ),
            _ => String::new(),
        };
        let text = format!(
            "{}{done}, {}",
            self.bar.message(),
            format_seconds(elapsed.as_secs_f64())
        );
        write_log_line(&text);
    }

    fn reveal_if_slow(&self) {
        let started = *self.started.lock().unwrap_or_else(PoisonError::into_inner);
        if !self.visible.load(Ordering::Relaxed) && started.elapsed() >= SHOW_AFTER {
            self.visible.store(true, Ordering::Relaxed);
            show(&self.bar);
        }
    }

    /// The bar's message for `depth` (and `text`, if any): after the tables' name, if any,
    /// shortened so that the bar keeps within [`NAMED_BAR_COLUMNS`].
    fn message(&self, depth: u32, text: Option<&str>) -> String {
        let level = match text {
            Some(text) => format!("depth {depth}: {text}"),
            None => format!("depth {depth}"),
        };
        let tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
        if tables.is_empty() {
            return level;
        }
        let message_room = NAMED_BAR_COLUMNS - NAMED_BAR_TAIL - ", ".len();
        let room = message_room
            .saturating_sub(level.chars().count())
            .max(NAME_AT_LEAST);
        format!("{}, {level}", shortened(&tables, room))
    }

    /// The stage a logged line is written soon after the start of: the level, or while tables
    /// are built, the table (their depths pass in a second or two each, and a build of four
    /// tables would log a hundred lines).
    fn log_stage(&self) -> String {
        let tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
        match tables.is_empty() {
            true => self.depth.load(Ordering::Relaxed).to_string(),
            false => tables.clone(),
        }
    }

    /// Removes the bar from the terminal; work reported after it (tables built later) shows
    /// it again, as a new bar would be.
    pub fn finish(&self) {
        if self.visible.swap(false, Ordering::Relaxed) {
            hide(&self.bar);
        }
        self.bar.reset();
        *self.started.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
    }

    /// Runs `f` (which prints) with the terminal's progress lines cleared, then draws them
    /// again.
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        suspended(f)
    }
}

/// `text` within `width` characters: whole if it fits, else its start and its end with an
/// ellipsis between (a name's start says what is built, its end which of how many).
fn shortened(text: &str, width: usize) -> String {
    let length = text.chars().count();
    if length <= width {
        return text.to_string();
    }
    let kept = width.saturating_sub(1);
    let (head, tail) = (kept - kept / 2, kept / 2);
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(length - tail).collect();
    format!("{start}…{end}")
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
        self.bar.set_message(self.message(depth, None));
        self.depth.store(depth, Ordering::Relaxed);
        self.reveal_if_slow();
        // Not logged here: an engine names the level's phase right after it starts it, and a
        // line written in between would read as the level under way with nothing done.
    }

    fn detail(&self, text: &str) {
        let depth = self.depth.load(Ordering::Relaxed);
        self.bar.set_message(self.message(depth, Some(text)));
        self.log_if_due();
    }

    fn advanced(&self, units: u64) {
        self.bar.inc(units);
        self.reveal_if_slow();
        self.log_if_due();
    }

    fn tables_started(&self, what: &str) {
        *self.tables.lock().unwrap_or_else(PoisonError::into_inner) = what.to_string();
        *self.started.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
        self.bar.set_style(level_style(true));
    }

    fn tables_ready(&self) {
        self.tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        self.bar.set_style(level_style(false));
        self.finish();
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
                show(bar);
            }
        }
    }

    /// Runs `f` (which prints) with the terminal's progress lines cleared, then draws them
    /// again.
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        suspended(f)
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            hide(bar);
        }
    }
}

/// The iteration under way as the search line tells it: about how far it has come and how
/// long it has left, from the growth of the two iterations before it at the rate so far
/// (empty until two have finished, or once the iteration has passed its forecast). In a race
/// both ways, the turn's direction's part: how far it has come over its turns, and how much
/// of its own search is left (the other direction's turns come between).
fn iteration_estimate(watch: &Watch, rate: f64) -> String {
    let done = watch.iteration_expanded();
    let (way, left) = match watch.direction() {
        Some(_) => (" this way", "of its search left"),
        None => ("", "left"),
    };
    match watch.iteration_forecast() {
        Some(total) if total > done && rate > 0.0 => format!(
            "; this iteration about {} done{way}, {} {left}",
            format_percent(done as f64, total as f64),
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

/// How far back the rate a search line shows is counted ([`RecentRate`]).
const RATE_WINDOW: Duration = Duration::from_secs(60);

/// The rate of a count over about the last [`RATE_WINDOW`] of the looks at it (over all of
/// them while they span less), so that the line of a search of hours follows the machine's
/// load, and shows a pause (a stopped process, a busy machine), rather than averaging them
/// over its whole run.
#[derive(Debug, Default)]
struct RecentRate {
    /// The looks kept, oldest first: the newest that is at least the window old, then every
    /// later one.
    looks: std::collections::VecDeque<(Duration, u64)>,
}

impl RecentRate {
    /// Records that the count was `count` at `at` (the first look being where counting
    /// began), and gives its rate a second since the oldest look kept.
    fn rate(&mut self, at: Duration, count: u64) -> f64 {
        self.looks.push_back((at, count));
        while self
            .looks
            .get(1)
            .is_some_and(|&(then, _)| at.saturating_sub(then) >= RATE_WINDOW)
        {
            self.looks.pop_front();
        }
        let (since, from) = self.looks[0];
        let seconds = at.saturating_sub(since).as_secs_f64();
        count.saturating_sub(from) as f64 / seconds.max(f64::MIN_POSITIVE)
    }
}

/// A line on stderr while one IDA* search runs: the threshold, the nodes expanded, the rate
/// over the last minute and the time so far, read from the search's [`Watch`]. Shown as
/// `lines` says once the search has lasted a second; not before its first iteration begins
/// (the tables it builds first have their [`LevelBar`]), and the rate is counted from then.
/// Logged, it is written out at each new threshold as well as every period.
pub fn with_search_line<T>(watch: &Watch, lines: StatusLines, work: impl FnOnce() -> T) -> T {
    // The last time the line was asked for before the first iteration (the search began
    // after), and the rate counted from then.
    let clock = Mutex::new((Duration::ZERO, RecentRate::default()));
    let line = |elapsed: Duration| {
        let mut clock = clock.lock().unwrap_or_else(PoisonError::into_inner);
        let (before, recent) = &mut *clock;
        if watch.threshold() == 0 {
            *before = elapsed;
            return None;
        }
        if recent.looks.is_empty() {
            recent.rate(*before, 0);
        }
        let nodes = watch.expanded();
        let rate = recent.rate(elapsed, nodes);
        // A race's turns each resume their direction's part of the iteration: the direction
        // is said, and the estimate is of its part.
        let direction = match watch.direction() {
            Some(Direction::Forwards) => " forwards",
            Some(Direction::Backwards) => " backwards",
            None => "",
        };
        // Probes (`--probe`) each search from the start: which one is said, by name where
        // the front end named the ways.
        let probing = match watch.probing() {
            Some((way, ways)) => {
                let name = watch.way_name(way).map(|n| format!(", {n}"));
                format!("probe {} of {ways}{}: ", way + 1, name.unwrap_or_default())
            }
            None => String::new(),
        };
        // Then the way they chose goes on alone, named (where the front end named the ways).
        let chosen = watch
            .chosen_way()
            .and_then(|way| watch.way_name(way))
            .map(|name| format!(" by {name}"))
            .unwrap_or_default();
        let text = format!(
            "{probing}threshold {}{direction}{chosen}, {} nodes expanded, {}nodes/s, {}{}{}",
            watch.threshold(),
            format_count(nodes),
            format_rate(rate),
            format_seconds(elapsed.as_secs_f64()),
            iteration_estimate(watch, rate),
            subtrees_finished(watch)
        );
        Some(Status {
            stage: format!("{probing}{}", watch.threshold()),
            text,
        })
    };
    with_status_line(lines, line, work)
}

/// A line on stderr while a request runs on the workbench, read from its [`JobControl`] as
/// the server's clients read a job: the tables it builds and their level, or its search's
/// threshold and nodes, and the time so far. Shown as [`with_search_line`] is; logged, it is
/// written out whenever the tables built or the search's threshold change.
pub fn with_job_line<T>(control: &JobControl, lines: StatusLines, work: impl FnOnce() -> T) -> T {
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
        Some(Status {
            stage: format!("{} {}", now.tables, now.threshold),
            text: format!("{doing}, {}", format_seconds(elapsed.as_secs_f64())),
        })
    };
    with_status_line(lines, line, work)
}

/// Writes a progress line out whole on stderr for a log (above the terminal's lines, if any),
/// after the time of day it was written (UTC, RFC 3339: `2026-12-06T05:00:15Z`), so that a log
/// of hours says when each line came, beside the time since the start the line holds.
fn write_log_line(text: &str) {
    let now = humantime::format_rfc3339_seconds(SystemTime::now());
    suspended(|| crate::errln!("{now} {text}"));
}

/// What a status line says now, and the stage of the work it is at: a log writes the line out
/// at once when the stage changes.
struct Status {
    stage: String,
    text: String,
}

/// When a status line is written out whole for a log: the first time it is shown, then every
/// `every`, and soon after its stage changes: at the second look at the new stage in a row, so
/// that what the line reads has caught up with the stage (a job names its next table a moment
/// before it resets the level).
struct LogSchedule {
    every: Duration,
    /// When the line was last written out, and the stage it was at.
    last: Option<(Duration, String)>,
    /// A new stage seen at the last look and not written out yet.
    new_stage: Option<String>,
}

impl LogSchedule {
    fn new(every: Duration) -> Self {
        Self {
            every,
            last: None,
            new_stage: None,
        }
    }

    /// Whether the line at `stage`, `elapsed` into the work, is to be written out now (and if
    /// so, it counts as written).
    fn due(&mut self, elapsed: Duration, stage: &str) -> bool {
        let due = match &self.last {
            None => true,
            Some((at, seen)) => {
                let settled = seen != stage && self.new_stage.as_deref() == Some(stage);
                settled || elapsed >= *at + self.every
            }
        };
        if due {
            self.last = Some((elapsed, stage.to_string()));
            self.new_stage = None;
        } else if self.last.as_ref().is_some_and(|(_, seen)| seen != stage) {
            self.new_stage = Some(stage.to_string());
        }
        due
    }
}

/// Runs `work` with a line on stderr that `message` (given the time so far, and asked every
/// [`SEARCH_LINE_EVERY`] from the start) redraws, once the work has lasted a second, only when
/// stderr is a terminal, never when `lines` is quiet; hidden while `message` gives `None`.
/// Where `lines` logs it, the line is also written out whole as its schedule says (above the
/// redrawn line on a terminal).
fn with_status_line<T>(
    lines: StatusLines,
    message: impl Fn(Duration) -> Option<Status> + Sync,
    work: impl FnOnce() -> T,
) -> T {
    if lines.quiet {
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
            let mut log = lines.logged_every.map(LogSchedule::new);
            let mut shown = false;
            while let Err(RecvTimeoutError::Timeout) = redraw.recv_timeout(SEARCH_LINE_EVERY) {
                let elapsed = started.elapsed();
                let status = message(elapsed);
                if elapsed < SHOW_AFTER {
                    continue;
                }
                match (status, shown) {
                    (Some(status), _) => {
                        if let Some(log) = &mut log {
                            if log.due(elapsed, &status.stage) {
                                write_log_line(&status.text);
                            }
                        }
                        line.set_message(status.text);
                        if !shown {
                            show(&line);
                            shown = true;
                        }
                    }
                    (None, true) => {
                        hide(&line);
                        line.reset();
                        shown = false;
                    }
                    (None, false) => {}
                }
            }
            if shown {
                hide(&line);
            }
        });
        let result = work();
        drop(finished);
        result
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_is_counted_over_the_last_minute_of_looks() {
        let seconds = Duration::from_secs_f64;
        let mut recent = RecentRate::default();
        // Counted from the first look: 10 a second for the first minute and a half.
        assert_eq!(recent.rate(seconds(0.0), 0), 0.0);
        assert_eq!(recent.rate(seconds(30.0), 300), 10.0);
        assert_eq!(recent.rate(seconds(90.0), 900), 10.0);
        // Stopped for two minutes: the next look shows it, from the look a minute back.
        assert_eq!(recent.rate(seconds(210.0), 900), 0.0);
        // Then 20 a second: counted back into the pause while the window reaches it (600 in
        // the 150 s since the look at 90 s), the new rate once the pause is past it.
        assert_eq!(recent.rate(seconds(240.0), 1500), 4.0);
        assert_eq!(recent.rate(seconds(270.0), 2100), 20.0);
        assert_eq!(recent.rate(seconds(300.0), 2700), 20.0);
    }

    #[test]
    fn a_logged_line_is_written_first_then_every_period_and_soon_after_each_new_stage() {
        let seconds = Duration::from_secs_f64;
        let mut log = LogSchedule::new(seconds(60.0));
        let looks = [
            (1.0, "100", true),
            (30.0, "100", false),
            (60.9, "100", false),
            (61.0, "100", true),
            // A new stage is written at its second look in a row.
            (70.0, "102", false),
            (70.25, "102", true),
            (71.0, "102", false),
            (130.0, "102", false),
            (131.25, "102", true),
            // A stage seen once, then another: neither has settled.
            (132.0, "104", false),
            (132.25, "106", false),
            (132.5, "106", true),
            // The period writes the line whatever the stage.
            (192.5, "108", true),
        ];
        for (at, stage, written) in looks {
            assert_eq!(
                log.due(seconds(at), stage),
                written,
                "at {at} s, stage {stage}"
            );
        }
    }

    #[test]
    fn a_long_tables_name_is_shortened_in_its_middle_to_keep_the_bar_within_80_columns() {
        let bar = LevelBar::new();
        let width = |message: &str| message.chars().count() + NAMED_BAR_TAIL;
        // Korf and Felner's partition's name fits whole.
        bar.tables_started("the 6-6-6-6 pattern databases, 2 of 4");
        let message = bar.message(13, None);
        assert_eq!(message, "the 6-6-6-6 pattern databases, 2 of 4, depth 13");
        assert!(width(&message) <= NAMED_BAR_COLUMNS);
        // A partition given tile by tile is cut in its middle, its start and end kept.
        let long = "the 1,2,3,4,7,8,9/12,13,14,18,19,23,24/10,15,16,17,20,21,22/5,6,11 \
                    pattern databases, 3 of 4";
        bar.tables_started(long);
        for text in [None, Some("sorting")] {
            let message = bar.message(21, text);
            assert_eq!(width(&message), NAMED_BAR_COLUMNS, "{message}");
            assert!(message.starts_with("the 1,2,3,4"), "{message}");
            assert!(message.contains('…'), "{message}");
            let end = format!(
                "3 of 4, depth 21{}",
                text.map_or(String::new(), |t| format!(": {t}"))
            );
            assert!(message.ends_with(&end), "{message}");
        }
        // However long the detail, some of the name is kept.
        let waiting = "waiting for another godsearch that is building this table";
        let message = bar.message(21, Some(waiting));
        let name = message.split(", depth").next().unwrap();
        assert_eq!(name.chars().count(), NAME_AT_LEAST, "{message}");
        assert!(message.starts_with("the 1,2,"), "{message}");
        bar.tables_ready();
        assert_eq!(bar.message(5, None), "depth 5");
    }

    #[test]
    fn a_logged_stage_is_the_level_or_while_tables_are_built_the_table() {
        let bar = LevelBar::new();
        bar.level_started(3, 10);
        assert_eq!(bar.log_stage(), "3");
        bar.tables_started("the 6-6-6-6 pattern databases, 1 of 4");
        for depth in [0, 14, 15] {
            bar.level_started(depth, 10);
            assert_eq!(bar.log_stage(), "the 6-6-6-6 pattern databases, 1 of 4");
        }
        bar.tables_started("the 6-6-6-6 pattern databases, 2 of 4");
        assert_eq!(bar.log_stage(), "the 6-6-6-6 pattern databases, 2 of 4");
        bar.tables_ready();
        bar.level_started(4, 10);
        assert_eq!(bar.log_stage(), "4");
    }
}
