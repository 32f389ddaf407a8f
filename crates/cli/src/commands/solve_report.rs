//! What `godsearch solve` prints for boards: each solution as soon as it is found (human text or
//! one JSON document), then a summary of the batch. Only running totals are kept, so a file of
//! any length is reported in constant memory. The totals are shared with the interrupt
//! handler, so Ctrl-C during a batch still prints the summary of the boards solved so far.

use crate::output::errln;
use crate::output::outln;
use crate::progress::BatchBar;
use anyhow::{bail, Result};
use godsearch_app::registry::tiles::write_solution;
use godsearch_app::registry::tiles::Shape;
use godsearch_app::registry::tiles::SolutionNotation;
use godsearch_app::report::{Solution, SolveSummary};
use godsearch_app::units::{format_count, format_rate, format_seconds};
use std::sync::{Arc, Mutex, PoisonError};

/// How the printer writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// The human report.
    Human,
    /// One JSON document a board, then the summary.
    Json,
    /// `--moves-only`: each solution's moves alone, one line a board, no summary.
    MovesOnly,
}

/// The running totals of a batch.
#[derive(Debug, Default)]
struct Totals {
    solved: usize,
    timed_out: usize,
    length_sum: usize,
    max_length: usize,
    /// Sum of the lengths a --file gave, while every solved board had one.
    expected_sum: Option<usize>,
    /// Boards whose optimal length differs from the one the file gave.
    mismatched: Vec<String>,
    nodes_expanded: u64,
    nodes_generated: u64,
    seconds: f64,
}

/// Prints solutions as they come and keeps the totals for the summary.
pub struct Printer {
    style: Style,
    /// How solutions are written.
    notation: SolutionNotation,
    runs: bool,
    /// `--verbose`: staged solvers' plans written out.
    verbose: bool,
    totals: Arc<Mutex<Totals>>,
    bar: BatchBar,
}

impl Printer {
    /// A printer in `style`, writing solutions in `notation` (with run lengths when `runs`;
    /// staged solvers' plans in full when `verbose`), for a batch of `boards` (a progress bar
    /// on stderr unless `quiet`). Until [`finish`](Self::finish), an interrupt prints the
    /// summary so far.
    pub fn new(
        style: Style,
        notation: SolutionNotation,
        runs: bool,
        verbose: bool,
        boards: Option<usize>,
        quiet: bool,
    ) -> Self {
        let totals = Arc::new(Mutex::new(Totals {
            expected_sum: Some(0),
            ..Totals::default()
        }));
        if style != Style::MovesOnly && boards.is_none_or(|n| n > 1) {
            let shared = Arc::clone(&totals);
            crate::interrupt::on_interrupt(Box::new(move || {
                let totals = shared.lock().unwrap_or_else(PoisonError::into_inner);
                // Printing is all an interrupted batch can still do; its errors go nowhere.
                let _ = print_summary(style, &totals, true);
            }));
        }
        Self {
            style,
            notation,
            runs,
            verbose,
            totals,
            bar: BatchBar::new("boards", boards.map(|n| n as u64), quiet),
        }
    }

    /// Prints one board's result and adds it to the totals (boards past --timeout are counted
    /// apart: the summary describes the boards solved; a length that differs from the file's
    /// is reported and the batch goes on).
    pub fn emit(&mut self, mut s: Solution) -> Result<()> {
        if (self.notation != SolutionNotation::Blank || self.runs) && !s.timed_out {
            s.written = Some(write_solution(
                s.puzzle.parse::<Shape>()?,
                &s.start,
                &s.solution,
                self.notation,
                self.runs,
            )?);
        }
        let mismatch = s
            .expected_length
            .filter(|&e| s.optimal && !s.timed_out && e != s.length);
        {
            let mut t = self.totals.lock().unwrap_or_else(PoisonError::into_inner);
            if s.timed_out {
                t.timed_out += 1;
            } else {
                t.solved += 1;
                t.length_sum += s.length;
                t.max_length = t.max_length.max(s.length);
                t.expected_sum = t.expected_sum.zip(s.expected_length).map(|(a, b)| a + b);
                t.nodes_expanded += s.nodes_expanded;
                t.nodes_generated += s.nodes_generated;
                t.seconds += s.seconds;
            }
            if mismatch.is_some() {
                let id = s.id.clone().unwrap_or_else(|| s.start.clone());
                t.mismatched.push(id);
            }
        }
        self.bar.suspend(|| -> Result<()> {
            match self.style {
                Style::Json => outln!("{}", serde_json::to_string(&s)?),
                Style::MovesOnly => match s.timed_out {
                    // Nothing on stdout is a solution; the exit code and stderr say what happened.
                    true => errln!(
                        "board {}: no solution found (every solution has at least {} moves)",
                        s.start,
                        s.lower_bound.unwrap_or(0)
                    ),
                    false => outln!("{}", s.written.as_deref().unwrap_or(&s.solution)),
                },
                Style::Human => print_human(&s, self.verbose),
            }
            if let (Some(expected), Style::MovesOnly) = (mismatch, self.style) {
                errln!(
                    "board {}: the optimal solution has {} moves, the file says {expected}",
                    s.id.as_deref().unwrap_or(&s.start),
                    s.length
                );
            }
            Ok(())
        })?;
        self.bar.advance();
        Ok(())
    }

    /// Prints the summary; an error when boards ran past --timeout or their optimal lengths
    /// differ from the file's (exit code 1).
    pub fn finish(self) -> Result<()> {
        crate::interrupt::clear_on_interrupt();
        self.bar.finish();
        let t = self.totals.lock().unwrap_or_else(PoisonError::into_inner);
        print_summary(self.style, &t, false)?;
        if t.timed_out > 0 {
            let boards = t.solved + t.timed_out;
            bail!(
                "{} of {boards} boards ran past --timeout or twice --depth (their lower bounds are above)",
                t.timed_out
            );
        }
        if !t.mismatched.is_empty() {
            let shown: Vec<&str> = t
                .mismatched
                .iter()
                .take(MISMATCHES_NAMED)
                .map(String::as_str)
                .collect();
            let more = t.mismatched.len().saturating_sub(MISMATCHES_NAMED);
            bail!(
                "{} boards' optimal lengths differ from the file's: {}{}",
                t.mismatched.len(),
                shown.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            );
        }
        Ok(())
    }
}

/// Boards named in the closing message about lengths that differ from the file's.
const MISMATCHES_NAMED: usize = 10;

/// The batch summary, as JSON or a line (`interrupted` says the batch was cut short).
fn print_summary(style: Style, t: &Totals, interrupted: bool) -> Result<()> {
    let count = t.solved as f64;
    let summary = SolveSummary {
        summary: true,
        solved: t.solved,
        timed_out: t.timed_out,
        length_mismatches: t.mismatched.len(),
        interrupted,
        mean_length: t.length_sum as f64 / count,
        max_length: t.max_length,
        mean_expected_length: t.expected_sum.map(|e| e as f64 / count),
        nodes_expanded: t.nodes_expanded,
        nodes_generated: t.nodes_generated,
        mean_nodes_generated: t.nodes_generated as f64 / count,
        seconds: t.seconds,
        nodes_per_second: t.nodes_generated as f64 / t.seconds.max(f64::MIN_POSITIVE),
        threads: rayon::current_num_threads(),
    };
    match style {
        Style::Json => outln!("{}", serde_json::to_string(&summary)?),
        Style::Human if t.solved > 1 || interrupted => {
            // Methods that count no nodes (staged solvers) get no node figures.
            let nodes = match summary.nodes_generated {
                0 => String::new(),
                n => format!(
                    ", {} nodes generated ({} a board), {}nodes/s",
                    format_count(n),
                    format_count(summary.mean_nodes_generated.round() as u64),
                    format_rate(summary.nodes_per_second)
                ),
            };
            outln!(
                "{}solved {} boards: mean length {:.2}{} (longest {}) in {}{nodes}",
                if interrupted { "interrupted: " } else { "" },
                summary.solved,
                summary.mean_length,
                summary
                    .mean_expected_length
                    .map_or(String::new(), |e| format!(" against the file's {e:.2}")),
                summary.max_length,
                format_seconds(summary.seconds),
            );
        }
        _ => {}
    }
    Ok(())
}

/// What the time line says of the method: the heuristic, or for a staged solver its plan,
/// which on large boards runs to hundreds of characters, so without `verbose` its stages are
/// counted rather than listed (the JSON keeps them all).
fn method_text(s: &Solution, verbose: bool) -> String {
    match s.heuristic.strip_prefix(STAGES_PREFIX) {
        Some(plans) if !verbose => {
            let stages: Vec<usize> = plans
                .split(PLAN_SEPARATOR)
                .map(|p| p.split('/').count())
                .collect();
            match stages.as_slice() {
                [one] => format!("{one} stages; --verbose lists them"),
                many => {
                    let (least, most) = (many.iter().min(), many.iter().max());
                    let stages = match (least, most) {
                        (Some(l), Some(m)) if l < m => format!("{l} to {m}"),
                        _ => format!("{}", most.expect("plans")),
                    };
                    format!(
                        "the best of {} plans of {stages} stages; --verbose lists them",
                        many.len()
                    )
                }
            }
        }
        _ => s.heuristic.clone(),
    }
}

/// How a staged solver's report names its plans: `stages A/B/C | D/E/F`.
const STAGES_PREFIX: &str = "stages ";
const PLAN_SEPARATOR: &str = " | ";

/// The `thresholds` and `expanded` lines of an IDA* report (none for other methods), the
/// nodes' line saying what they count (`each iteration`).
fn print_iterations(s: &Solution, counted: &str) {
    if s.thresholds.is_empty() {
        return;
    }
    let t: Vec<String> = s.thresholds.iter().map(u32::to_string).collect();
    let resumed = match s.resumed_from {
        Some(bound) => format!(
            " (resumed from {bound}, the bound given with --resume-from or kept by --checkpoint)"
        ),
        None => String::new(),
    };
    outln!("thresholds {}{resumed}", t.join(" "));
    let n: Vec<String> = s
        .iteration_expanded
        .iter()
        .map(|&n| format_count(n))
        .collect();
    outln!("expanded   {} ({counted})", n.join(" "));
}

fn print_human(s: &Solution, verbose: bool) {
    if let Some(id) = &s.id {
        outln!("instance   {id}");
    }
    outln!("board      {}", s.start);
    if let Some(goal) = &s.goal {
        outln!("goal       {goal}");
    }
    if let (true, Some(bound)) = (s.timed_out, s.lower_bound) {
        match s.algorithm {
            "half-depth" => outln!(
                "no solution: beyond twice the depth held ({}), every solution has at least {bound} moves",
                format_seconds(s.seconds)
            ),
            _ => {
                outln!(
                    "no solution within --timeout ({}, {} nodes expanded): every solution has at least {bound} moves",
                    format_seconds(s.seconds),
                    format_count(s.nodes_expanded)
                );
                print_iterations(s, "each iteration, the last until the stop");
                let how = super::solve::continue_with(
                    bound,
                    s.searched_subtrees.as_deref(),
                    s.chosen_way.as_ref(),
                );
                outln!("continue   with {how}: the work finished is not searched again");
            }
        }
        outln!();
        return;
    }
    crate::output::solution_line(s.written.as_deref().unwrap_or(&s.solution));
    let kind = if s.optimal {
        "optimal"
    } else {
        "not proven optimal"
    };
    let expected = match s.expected_length {
        Some(e) if !s.optimal => format!(", optimal {e}"),
        Some(e) if e != s.length => format!(", BUT THE FILE SAYS {e}"),
        _ => String::new(),
    };
    outln!(
        "length     {} ({kind}{expected}, replayed to the goal)",
        s.length
    );
    if s.nodes_generated > 0 {
        outln!(
            "nodes      {} expanded, {} generated",
            format_count(s.nodes_expanded),
            format_count(s.nodes_generated)
        );
    }
    print_iterations(s, "each iteration");
    outln!(
        "time       {} ({}, {})",
        format_seconds(s.seconds),
        s.algorithm,
        method_text(s, verbose)
    );
    if let Some(file) = &s.kept_in {
        outln!("kept       in {file} by an earlier run: the time and nodes above are that run's");
    }
    outln!();
}
