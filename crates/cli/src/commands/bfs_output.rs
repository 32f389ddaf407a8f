//! What both `bfs` commands (tiles and cubes) share: checking the --save target before any
//! work, the request the arguments make, and the report printed as a table.

use super::bfs_cluster::Role;
use crate::args::BfsArgs;
use crate::machine;
use crate::output::outln;
use crate::progress::LevelBar;
use anyhow::{Context, Result};
use godsearch_app::bfs::Limits;
use godsearch_app::bfs::{BfsRequest, ClusterRequest, DiskRequest};
use godsearch_app::progress::{NoProgress, Progress};
use godsearch_app::report::{BfsReport, DistributedReport, LevelCostReport};
use godsearch_app::units::{format_bytes, format_count, format_rate};

/// Refuses a `--save` target that could not take the table, before any work is done.
pub(crate) fn check_save_target(args: &BfsArgs) -> Result<()> {
    if let Some(path) = &args.save {
        godsearch_app::tables::file::check_target(path)
            .with_context(|| format!("--save {}", path.display()))?;
    }
    Ok(())
}

/// The enumeration the arguments ask for, in a distributed run with `cluster`.
pub(crate) fn bfs_request<'a>(
    args: &'a BfsArgs,
    cluster: Option<ClusterRequest<'a>>,
) -> BfsRequest<'a> {
    BfsRequest {
        limits: Limits {
            max_depth: args.max_depth,
            memory_bytes: machine::memory_budget(args.memory),
            antipode_cap: args.show_antipodes,
            count_last: args.count_last,
        },
        engine: args.engine,
        save: args.save.as_deref(),
        disk: args.workdir.as_deref().map(|workdir| DiskRequest {
            workdir,
            resume: args.resume,
            keep_levels: args.keep_levels,
            bucket_states: args.bucket_states,
            disk_bytes: args.disk,
        }),
        cluster,
    }
}

/// The progress sink of a run: `bar`, except on the processes of a distributed run other
/// than process 0, which stay quiet.
pub(crate) fn bar_of<'a>(role: &Role, bar: &'a LevelBar) -> &'a dyn Progress {
    match role.shows_progress() {
        true => bar,
        false => &NoProgress,
    }
}

/// Prints a report, as JSON with `--json`, else as a table under `title`, with the process's
/// peak memory added.
pub(crate) fn emit_report(
    args: &BfsArgs,
    mut report: BfsReport,
    title: &str,
    render: impl Fn(&str) -> Vec<String>,
) -> Result<()> {
    report.process_peak_bytes = machine::peak_rss();
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
    } else {
        print_report(&report, title, args.workdir.is_some(), render);
    }
    Ok(())
}

/// Prints a report as a table; `render` gives extra lines to show under each antipode. A run
/// in a `--workdir` that stopped early is told how to go on.
fn print_report(
    r: &BfsReport,
    title: &str,
    in_workdir: bool,
    render: impl Fn(&str) -> Vec<String>,
) {
    outln!("{title}: {} engine, {} threads", r.engine, r.threads);
    match &r.classes {
        None => {
            outln!("{:>8}  {:>20}", "distance", "positions");
            for (d, n) in r.levels.iter().enumerate() {
                outln!("{d:>8}  {:>20}", format_count(*n));
            }
            outln!("{:>8}  {:>20}", "total", format_count(r.total));
        }
        Some(classes) => {
            let header = format!("classes ({} symmetries)", r.class_group.unwrap_or(1));
            outln!("{:>8}  {:>26}  {:>22}", "distance", "positions", header);
            for (d, (n, c)) in r.levels.iter().zip(classes).enumerate() {
                outln!("{d:>8}  {:>26}  {:>26}", format_count(*n), format_count(*c));
            }
            outln!(
                "{:>8}  {:>26}  {:>26}",
                "total",
                format_count(r.total),
                format_count(classes.iter().sum::<u64>())
            );
        }
    }
    if let Some(costs) = &r.level_costs {
        print_level_costs(r, costs);
    }
    if let Some(run) = &r.distributed {
        print_traffic(r, run);
    }
    if r.last_counted_only {
        outln!(
            "level {} was counted without being stored (--count-last)",
            r.levels.len() - 1
        );
    }
    match (&r.stopped, r.diameter) {
        (None, Some(d)) => outln!("diameter {d}: the farthest positions need {d} moves"),
        (Some(why), _) => {
            outln!("stopped: {why}; the counts above are exact");
            if in_workdir {
                outln!("the levels made are kept: continue with the same --workdir and --resume");
            }
        }
        (None, None) => {}
    }
    if let Some(count) = r.antipode_count {
        match &r.antipodes {
            Some(boards) => {
                outln!("antipodes ({count}):");
                for text in boards {
                    outln!("  {text}");
                    for line in render(text) {
                        outln!("    {line}");
                    }
                }
            }
            None => outln!(
                "antipodes: {} (too many to print; see --show-antipodes)",
                format_count(count)
            ),
        }
    }
    if let Some(disk) = r.peak_disk_bytes {
        outln!("disk peak {}", format_bytes(disk as f64));
    }
    let per_thread = r.positions_per_second / r.threads as f64;
    let peak = r.process_peak_bytes.map_or(String::new(), |b| {
        format!(", process peak {}", format_bytes(b as f64))
    });
    let per_state = match r.bytes_per_state {
        b if b.fract() == 0.0 => format!("{b}"),
        b => format!("{b:.2}"),
    };
    outln!(
        "time {:.3} s: {}positions/s ({}/s per thread); engine memory {} ({per_state} bytes a stored state){peak}",
        r.seconds,
        format_rate(r.positions_per_second),
        format_rate(per_thread),
        format_bytes(r.peak_bytes as f64),
    );
}

/// The time and traffic of each level of a distributed run.
fn print_traffic(r: &BfsReport, run: &DistributedReport) {
    let checkpoints = run.checkpoint_bytes.map_or(String::new(), |b| {
        format!("; this process's levels on disk {}", format_bytes(b as f64))
    });
    outln!(
        "distributed over {} processes, {} workers{checkpoints}",
        run.processes,
        run.workers
    );
    if let Some(from) = r.resumed_from {
        outln!("resumed after level {from}, made by an earlier run (marked *)");
    }
    outln!(
        "{:>8}  {:>10}  {:>16}  {:>10}  {:>12}  {:>10}",
        "distance",
        "seconds",
        "states sent",
        "bytes sent",
        "bytes/state",
        "spilled"
    );
    for l in &run.levels {
        outln!(
            "{:>8}  {:>10.2}  {:>16}  {:>10}  {:>12.2}  {:>10}",
            format!("{}{}", l.depth, if l.resumed { "*" } else { "" }),
            l.seconds,
            format_count(l.sent_states),
            format_bytes(l.sent_bytes as f64),
            l.sent_bytes as f64 / l.sent_states.max(1) as f64,
            format_bytes(l.spilled_bytes as f64),
        );
    }
}

/// The time and disk of each level of a run on disk.
fn print_level_costs(r: &BfsReport, costs: &[LevelCostReport]) {
    if let Some(from) = r.resumed_from {
        outln!("resumed after level {from}, made by an earlier run (marked *)");
    }
    outln!(
        "{:>8}  {:>10}  {:>10}  {:>8}  {:>12}  {:>10}  {:>6}",
        "distance",
        "seconds",
        "disk",
        "buckets",
        "bytes/state",
        "spilled",
        "passes"
    );
    for c in costs {
        let states = r
            .classes
            .as_ref()
            .map_or(r.levels[c.depth as usize], |k| k[c.depth as usize]);
        outln!(
            "{:>8}  {:>10.2}  {:>10}  {:>8}  {:>12.2}  {:>10}  {:>6}",
            format!("{}{}", c.depth, if c.resumed { "*" } else { "" }),
            c.seconds,
            format_bytes(c.disk_bytes as f64),
            c.buckets,
            c.disk_bytes as f64 / states.max(1) as f64,
            format_bytes(c.spilled_bytes as f64),
            match c.resumed {
                true => "-".to_string(),
                false => c.passes.to_string(),
            },
        );
    }
}
