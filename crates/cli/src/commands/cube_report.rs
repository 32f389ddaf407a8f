//! How `godsearch solve` prints cubes: each solution as it comes (for people, as JSON or the
//! moves alone), the batch's summary at the end or at an interrupt.

use crate::args::SolveArgs;
use crate::output::outln;
use crate::progress::BatchBar;
use anyhow::Result;
use godsearch_app::report::{CubeSolution, CubeSummary};
use godsearch_app::units::{format_rate, format_seconds};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

/// Solves a second from which the summary writes the rate in thousands (`12.3 k`).
const RATE_IN_THOUSANDS: f64 = 1e3;

/// The running totals of a batch of cubes.
#[derive(Debug, Default)]
struct CubeTotals {
    solved: usize,
    /// Positions left unsolved at --timeout (half-depth search), with their bounds printed.
    unsolved: usize,
    length_sum: usize,
    max_length: usize,
    seconds: f64,
}

/// Prints each solution as it comes and keeps the totals for the summary; until
/// [`finish`](Self::finish), an interrupt prints the summary so far.
pub struct CubePrinter {
    json: bool,
    /// `--moves-only`: each solution's moves alone, one line a position, no summary.
    moves_only: bool,
    show_facelets: bool,
    started: Instant,
    totals: Arc<Mutex<CubeTotals>>,
    bar: BatchBar,
}

impl CubePrinter {
    pub fn new(args: &SolveArgs, positions: Option<usize>) -> Self {
        let started = Instant::now();
        let totals = Arc::new(Mutex::new(CubeTotals::default()));
        if !args.moves_only && positions.is_none_or(|n| n > 1) {
            let (shared, json) = (Arc::clone(&totals), args.json);
            crate::interrupt::on_interrupt(Box::new(move || {
                let totals = shared.lock().unwrap_or_else(PoisonError::into_inner);
                // Printing is all an interrupted batch can still do; its errors go nowhere.
                let _ = print_summary(json, &totals, started, true);
            }));
        }
        Self {
            json: args.json,
            moves_only: args.moves_only,
            show_facelets: args.show_facelets,
            started,
            totals,
            bar: BatchBar::new("positions", positions.map(|n| n as u64), args.quiet),
        }
    }

    pub fn emit(&mut self, s: CubeSolution) -> Result<()> {
        {
            let mut t = self.totals.lock().unwrap_or_else(PoisonError::into_inner);
            t.seconds += s.seconds;
            if s.timed_out && s.solution.is_empty() {
                t.unsolved += 1;
            } else {
                t.solved += 1;
                t.length_sum += s.length;
                t.max_length = t.max_length.max(s.length);
            }
        }
        self.bar.suspend(|| self.print(&s))?;
        self.bar.advance();
        Ok(())
    }

    fn print(&self, s: &CubeSolution) -> Result<()> {
        if self.json {
            outln!("{}", serde_json::to_string(s)?);
            return Ok(());
        }
        if self.moves_only {
            outln!("{}", s.solution);
            return Ok(());
        }
        outln!("start      {}", s.start);
        if self.show_facelets {
            outln!("facelets   {}", s.facelets);
        }
        if let (Some(depth), Some(bound)) = (s.beyond_depth, s.lower_bound) {
            outln!(
                "solution   none: beyond twice the depth held ({depth}); every solution has at least {bound} moves ({}), proven",
                s.metric
            );
            outln!();
            return Ok(());
        }
        if s.timed_out && s.solution.is_empty() {
            outln!("solution   none found before --timeout");
            outln!(
                "bound      every solution has at least {} moves ({}), proven",
                s.lower_bound.unwrap_or(0),
                s.metric
            );
            outln!(
                "time       {} ({}, {} nodes)",
                format_seconds(s.seconds),
                s.algorithm,
                s.nodes_expanded
            );
            outln!();
            return Ok(());
        }
        crate::output::solution_line(&s.solution);
        let kind = match s.max_length {
            _ if s.optimal && s.known_solution == Some(true) => {
                "proven optimal: the known solution, every shorter bound searched".to_string()
            }
            _ if s.known_solution == Some(true) => format!(
                "--timeout passed: the known solution; every solution has at least {} moves",
                s.lower_bound.unwrap_or(0)
            ),
            _ if s.optimal && s.lower_bound.is_some() => "proven optimal".to_string(),
            _ if s.optimal => "optimal".to_string(),
            None if s.timed_out => format!(
                "--timeout passed: the two-phase solution; every solution has at least {} moves",
                s.lower_bound.unwrap_or(0)
            ),
            Some(max) if s.timed_out => format!(
                "--timeout passed before a solution of at most {max} moves: the first one found"
            ),
            Some(max) if s.length > max => format!(
                "the two-phase search finds none of at most {max} moves; the shortest it finds"
            ),
            _ => "not proven optimal".to_string(),
        };
        outln!(
            "length     {} {} ({kind}; replayed to solved)",
            s.length,
            s.metric
        );
        let phases = s
            .phase1_length
            .map_or(String::new(), |p| format!(", phase 1 {p} moves"));
        if let Some(all) = s.all_solutions.as_ref().filter(|all| all.len() > 1) {
            outln!("all        {} optimal solutions:", all.len());
            for moves in all {
                outln!("           {moves}");
            }
        }
        // Methods that count no nodes (3x3x3 half-depth search) report none.
        let nodes = match s.nodes_expanded {
            0 => String::new(),
            n => format!(", {n} nodes"),
        };
        outln!(
            "time       {} ({}{phases}{nodes})",
            format_seconds(s.seconds),
            s.algorithm
        );
        // With --all every opening is searched, so there is nothing to say.
        let reduced = s
            .position_symmetries
            .filter(|&n| n > 1 && s.all_solutions.is_none());
        if let Some(n) = reduced {
            outln!(
                "symmetry   {n} of the cube's 48 symmetries keep the position: one opening of \
                 each class was searched"
            );
        }
        outln!();
        Ok(())
    }

    pub fn finish(self) -> Result<()> {
        crate::interrupt::clear_on_interrupt();
        self.bar.finish();
        if self.moves_only {
            return Ok(());
        }
        let t = self.totals.lock().unwrap_or_else(PoisonError::into_inner);
        if t.solved > 0 {
            print_summary(self.json, &t, self.started, false)?;
        }
        if t.unsolved > 0 {
            anyhow::bail!(
                "{} of {} positions were left unsolved by --timeout or twice --depth (their lower bounds are above)",
                t.unsolved,
                t.solved + t.unsolved
            );
        }
        Ok(())
    }
}

/// The summary of a batch of cubes, as JSON or (for more than one, or an interrupted batch) a
/// line.
fn print_summary(json: bool, t: &CubeTotals, started: Instant, interrupted: bool) -> Result<()> {
    let count = t.solved;
    let wall_seconds = started.elapsed().as_secs_f64();
    let summary = CubeSummary {
        summary: true,
        solved: count,
        mean_length: t.length_sum as f64 / count as f64,
        max_length: t.max_length,
        seconds: t.seconds,
        wall_seconds,
        solves_per_second: count as f64 / wall_seconds.max(f64::MIN_POSITIVE),
        threads: rayon::current_num_threads(),
        interrupted,
    };
    if json {
        outln!("{}", serde_json::to_string(&summary)?);
    } else if count > 1 || interrupted {
        let rate = match summary.solves_per_second {
            r if r >= RATE_IN_THOUSANDS => format_rate(r).trim_end().to_string(),
            r if r >= 10.0 => format!("{r:.0}"),
            r => format!("{r:.2}"),
        };
        outln!(
            "{}solved {} positions: mean length {:.2} (longest {}), {} a position, {} solves/s on {} threads",
            if interrupted { "interrupted: " } else { "" },
            summary.solved,
            summary.mean_length,
            summary.max_length,
            format_seconds(summary.seconds / count.max(1) as f64),
            rate,
            summary.threads
        );
    }
    Ok(())
}
