//! What `godsearch solve` prints for boards: each solution as soon as it is found (human text or
//! one JSON document), then a summary of the batch. Only running totals are kept, so a file of
//! any length is reported in constant memory.

use crate::output::outln;
use anyhow::{bail, Result};
use godsearch_app::choice::SolutionNotation;
use godsearch_app::report::{Solution, SolveSummary};
use godsearch_app::tiles::write_solution;
use godsearch_app::units::{format_count, format_rate, format_seconds};
use godsearch_puzzles::tiles::Shape;

/// Prints solutions as they come and keeps the totals for the summary.
pub struct Printer {
    json: bool,
    /// `--moves-only`: each solution's moves alone, one line a board, no summary.
    moves_only: bool,
    /// How solutions are written, for boards of `shape`.
    shape: Shape,
    notation: SolutionNotation,
    runs: bool,
    solved: usize,
    timed_out: usize,
    length_sum: usize,
    max_length: usize,
    /// Sum of the lengths a --file gave, while every solved board had one.
    expected_sum: Option<usize>,
    nodes_expanded: u64,
    nodes_generated: u64,
    seconds: f64,
}

impl Printer {
    /// A printer of human text, of JSON documents, or of the moves alone (`moves_only`),
    /// writing solutions of boards of `shape` in `notation` (with run lengths when `runs`).
    pub fn new(
        json: bool,
        moves_only: bool,
        shape: Shape,
        notation: SolutionNotation,
        runs: bool,
    ) -> Self {
        Self {
            json,
            moves_only,
            shape,
            notation,
            runs,
            solved: 0,
            timed_out: 0,
            length_sum: 0,
            max_length: 0,
            expected_sum: Some(0),
            nodes_expanded: 0,
            nodes_generated: 0,
            seconds: 0.0,
        }
    }

    /// Prints one board's result and adds it to the totals (boards past --timeout are counted
    /// apart: the summary describes the boards solved).
    pub fn emit(&mut self, mut s: Solution) -> Result<()> {
        if (self.notation != SolutionNotation::Blank || self.runs) && !s.timed_out {
            s.written = Some(write_solution(
                self.shape,
                &s.start,
                &s.solution,
                self.notation,
                self.runs,
            )?);
        }
        if s.timed_out {
            self.timed_out += 1;
        } else {
            self.solved += 1;
            self.length_sum += s.length;
            self.max_length = self.max_length.max(s.length);
            self.expected_sum = self.expected_sum.zip(s.expected_length).map(|(a, b)| a + b);
            self.nodes_expanded += s.nodes_expanded;
            self.nodes_generated += s.nodes_generated;
            self.seconds += s.seconds;
        }
        if self.json {
            outln!("{}", serde_json::to_string(&s)?);
        } else if self.moves_only {
            match s.timed_out {
                // Nothing on stdout is a solution; the exit code and stderr say what happened.
                true => eprintln!(
                    "board {}: no solution found (every solution has at least {} moves)",
                    s.start,
                    s.lower_bound.unwrap_or(0)
                ),
                false => outln!("{}", s.written.as_deref().unwrap_or(&s.solution)),
            }
        } else {
            print_human(&s);
        }
        Ok(())
    }

    /// Prints the summary; an error when boards ran past --timeout (exit code 1).
    pub fn finish(self) -> Result<()> {
        let count = self.solved as f64;
        let summary = SolveSummary {
            summary: true,
            solved: self.solved,
            timed_out: self.timed_out,
            mean_length: self.length_sum as f64 / count,
            max_length: self.max_length,
            mean_expected_length: self.expected_sum.map(|e| e as f64 / count),
            nodes_expanded: self.nodes_expanded,
            nodes_generated: self.nodes_generated,
            mean_nodes_generated: self.nodes_generated as f64 / count,
            seconds: self.seconds,
            nodes_per_second: self.nodes_generated as f64 / self.seconds.max(f64::MIN_POSITIVE),
            threads: rayon::current_num_threads(),
        };
        if self.json {
            outln!("{}", serde_json::to_string(&summary)?);
        } else if self.solved > 1 && !self.moves_only {
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
                "solved {} boards: mean length {:.2}{} (longest {}) in {}{nodes}",
                summary.solved,
                summary.mean_length,
                summary
                    .mean_expected_length
                    .map_or(String::new(), |e| format!(" against the file's {e:.2}")),
                summary.max_length,
                format_seconds(summary.seconds),
            );
        }
        if self.timed_out > 0 {
            let boards = self.solved + self.timed_out;
            bail!(
                "{} of {boards} boards ran past --timeout or twice --depth (their lower bounds are above)",
                self.timed_out
            );
        }
        Ok(())
    }
}

fn print_human(s: &Solution) {
    if let Some(id) = &s.id {
        outln!("instance   {id}");
    }
    outln!("board      {}", s.start);
    if let (true, Some(bound)) = (s.timed_out, s.lower_bound) {
        match s.algorithm {
            "half-depth" => outln!(
                "no solution: beyond twice the depth held ({}), every solution has at least {bound} moves",
                format_seconds(s.seconds)
            ),
            _ => outln!(
                "no solution within --timeout ({}, {} nodes expanded): every solution has at least {bound} moves",
                format_seconds(s.seconds),
                format_count(s.nodes_expanded)
            ),
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
    if !s.thresholds.is_empty() {
        let t: Vec<String> = s.thresholds.iter().map(u32::to_string).collect();
        outln!("thresholds {}", t.join(" "));
        let n: Vec<String> = s
            .iteration_expanded
            .iter()
            .map(|&n| format_count(n))
            .collect();
        outln!("expanded   {} (each iteration)", n.join(" "));
    }
    outln!(
        "time       {} ({}, {})",
        format_seconds(s.seconds),
        s.algorithm,
        s.heuristic
    );
    outln!();
}
