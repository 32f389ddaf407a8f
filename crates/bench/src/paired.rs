//! `godsearch bench --against OLD -- COMMAND`: this build against another on the same command,
//! side by side.
//!
//! On a shared machine one run after another varies by 15% or more, even with nothing else of
//! ours running, so two builds are compared in pairs: both run the command at the same time,
//! each pinned to its own core (`taskset`, from util-linux), and the next pair swaps the cores.
//! Both runs of a pair see the same load, so their ratio holds where their times alone do not.
//! The command is measured whole (wall time from start to exit), so it should be fixed work:
//! a solve, an enumeration, not a run that stops at a `--timeout`.

use anyhow::{bail, Context, Result};
use godsearch_console::outln;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Two builds and the command to time them on.
#[derive(Debug, Clone)]
pub struct Pairing {
    /// The build compared against (the baseline).
    pub old: PathBuf,
    /// The build measured.
    pub new: PathBuf,
    /// The arguments both are run with.
    pub command: Vec<String>,
    /// Pairs to run; the builds swap cores from one pair to the next.
    pub pairs: usize,
}

/// One pair: the cores each build ran on and their wall seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairTimes {
    /// The core the old build ran on.
    pub old_core: usize,
    /// The core the new build ran on.
    pub new_core: usize,
    /// The old build's wall seconds.
    pub old: f64,
    /// The new build's wall seconds.
    pub new: f64,
}

impl PairTimes {
    /// The new build's time over the old one's: below 1 when the new build is faster.
    pub fn ratio(&self) -> f64 {
        self.new / self.old
    }
}

/// Runs the pairs of `pairing` on `cores` (the new build on the first in the first pair, then
/// swapped), calling `each` after every pair. Exact about what it times: each run from its
/// start to its exit, both runs of a pair started together. A run that fails (or `taskset`
/// missing) ends the measurement with an error naming the build and what it printed.
pub fn measure(
    pairing: &Pairing,
    cores: [usize; 2],
    mut each: impl FnMut(&PairTimes),
) -> Result<Vec<PairTimes>> {
    let mut times = Vec::with_capacity(pairing.pairs);
    for pair in 0..pairing.pairs {
        let (new_core, old_core) = match pair % 2 {
            0 => (cores[0], cores[1]),
            _ => (cores[1], cores[0]),
        };
        let (new, old) = std::thread::scope(|scope| {
            let new = scope.spawn(|| timed_run(&pairing.new, &pairing.command, new_core));
            let old = scope.spawn(|| timed_run(&pairing.old, &pairing.command, old_core));
            (
                new.join().expect("a timed run does not panic"),
                old.join().expect("a timed run does not panic"),
            )
        });
        let t = PairTimes {
            old_core,
            new_core,
            old: old?,
            new: new?,
        };
        each(&t);
        times.push(t);
    }
    Ok(times)
}

/// Wall seconds of `program command...` pinned to `core`; an error if it fails.
fn timed_run(program: &Path, command: &[String], core: usize) -> Result<f64> {
    let started = Instant::now();
    let output = Command::new("taskset")
        .arg("--cpu-list")
        .arg(core.to_string())
        .arg(program)
        .args(command)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .context("could not start taskset (util-linux), which pins each run to its core")?;
    let seconds = started.elapsed().as_secs_f64();
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        // The last line a failing run prints says why (godsearch's `error: ...`).
        let why = said.lines().rev().find(|l| !l.trim().is_empty());
        bail!(
            "{} {} failed ({}): {}",
            program.display(),
            command.join(" "),
            output.status,
            why.unwrap_or("it printed nothing on stderr")
        );
    }
    Ok(seconds)
}

/// The median of the pairs' ratios (new over old).
pub fn median_ratio(times: &[PairTimes]) -> Option<f64> {
    let mut ratios: Vec<f64> = times.iter().map(PairTimes::ratio).collect();
    ratios.sort_by(f64::total_cmp);
    let n = ratios.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(ratios[n / 2]),
        _ => Some((ratios[n / 2 - 1] + ratios[n / 2]) / 2.0),
    }
}

/// Measures `pairing` on cores 0 and 1 and prints each pair as it ends, then the median ratio.
pub fn run(pairing: &Pairing) -> Result<()> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    if cores < 2 {
        bail!("--against runs the two builds side by side, one on each core: this machine has one");
    }
    outln!(
        "== {} against {}, side by side",
        pairing.new.display(),
        pairing.old.display()
    );
    outln!("command: {}", pairing.command.join(" "));
    outln!(
        "{:>4} {:>9} {:>10} {:>9} {:>10} {:>8}",
        "pair",
        "new core",
        "new s",
        "old core",
        "old s",
        "new/old"
    );
    let mut pair = 0;
    let times = measure(pairing, [0, 1], |t| {
        pair += 1;
        outln!(
            "{:>4} {:>9} {:>10.3} {:>9} {:>10.3} {:>8.3}",
            pair,
            t.new_core,
            t.new,
            t.old_core,
            t.old,
            t.ratio()
        );
    })?;
    if let Some(median) = median_ratio(&times) {
        let lowest = times.iter().map(PairTimes::ratio).fold(f64::MAX, f64::min);
        let highest = times.iter().map(PairTimes::ratio).fold(0.0, f64::max);
        outln!(
            "new/old: median {median:.3} over {} pairs ({lowest:.3} to {highest:.3}; below 1: the new build is faster)",
            times.len()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(script: &str, pairs: usize) -> Pairing {
        Pairing {
            old: PathBuf::from("sh"),
            new: PathBuf::from("sh"),
            command: vec!["-c".to_string(), script.to_string()],
            pairs,
        }
    }

    /// Each pair times both builds, and the cores swap from one pair to the next.
    #[test]
    fn pairs_time_both_builds_and_swap_their_cores() {
        let mut seen = 0;
        let times = measure(&shell("sleep 0.05", 3), [0, 0], |_| seen += 1).unwrap();
        assert_eq!((times.len(), seen), (3, 3));
        for t in &times {
            assert!(t.old >= 0.05 && t.new >= 0.05, "{t:?}");
        }
        let cores = match std::thread::available_parallelism().map_or(1, usize::from) {
            1 => [0, 0],
            _ => [0, 1],
        };
        let times = measure(&shell("exit 0", 2), cores, |_| {}).unwrap();
        assert_eq!((times[0].new_core, times[0].old_core), (cores[0], cores[1]));
        assert_eq!((times[1].new_core, times[1].old_core), (cores[1], cores[0]));
    }

    /// A run that fails is an error naming its exit and what it printed.
    #[test]
    fn a_failing_run_is_an_error_with_its_message() {
        let err = measure(&shell("echo broken table >&2; exit 3", 1), [0, 0], |_| {})
            .unwrap_err()
            .to_string();
        assert!(err.contains("broken table") && err.contains('3'), "{err}");
    }

    #[test]
    fn the_median_ratio_is_of_the_pairs() {
        let t = |new, old| PairTimes {
            old_core: 0,
            new_core: 1,
            old,
            new,
        };
        assert_eq!(median_ratio(&[]), None);
        assert_eq!(
            median_ratio(&[t(1.0, 2.0), t(3.0, 2.0), t(2.0, 2.0)]),
            Some(1.0)
        );
        assert_eq!(median_ratio(&[t(1.0, 2.0), t(2.0, 2.0)]), Some(0.75));
    }
}
