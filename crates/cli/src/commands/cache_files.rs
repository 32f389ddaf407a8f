//! `godsearch cache list` and `godsearch cache clean`: the table cache's files, from
//! [`godsearch_app::cache::TableCache::entries`].

use crate::args::{CacheArgs, CacheCleanArgs, CacheCommand, CacheListArgs};
use crate::output::outln;
use anyhow::{Context, Result};
use godsearch_app::cache::{CacheEntry, Removal};
use godsearch_app::units::format_bytes;
use std::time::SystemTime;

pub fn run(args: &CacheArgs) -> Result<()> {
    match &args.command {
        CacheCommand::List(list) => run_list(list),
        CacheCommand::Clean(clean) => run_clean(clean),
    }
}

fn entries(dir: Option<&std::path::Path>) -> Result<(std::path::PathBuf, Vec<CacheEntry>)> {
    let cache = crate::cache::open(dir);
    let entries = cache
        .entries()
        .with_context(|| format!("reading the cache folder {}", cache.dir().display()))?;
    Ok((cache.dir().to_path_buf(), entries))
}

fn run_list(args: &CacheListArgs) -> Result<()> {
    let (dir, entries) = entries(args.cache.as_deref())?;
    if args.json {
        for entry in &entries {
            outln!("{}", serde_json::to_string(&entry.report())?);
        }
        return Ok(());
    }
    if entries.is_empty() {
        outln!("the cache {} is empty", dir.display());
        return Ok(());
    }
    outln!("cache {}", dir.display());
    outln!(
        "{:<17} {:>10}  {:<20} {:<36} contents",
        "kind",
        "size",
        "written (UTC)",
        "puzzle"
    );
    for entry in &entries {
        let r = entry.report();
        let what = match (&r.contents, &r.problem) {
            (_, Some(problem)) => format!("unreadable: {problem}"),
            (Some(contents), None) => contents.clone(),
            (None, None) => file_name(entry),
        };
        outln!(
            "{:<17} {:>10}  {:<20} {:<36} {what}",
            r.kind,
            format_bytes(r.bytes as f64),
            entry.modified.map_or("?".into(), date),
            r.puzzle.as_deref().unwrap_or("-"),
        );
    }
    let total: u64 = entries.iter().map(|e| e.bytes).sum();
    outln!("{} files, {}", entries.len(), format_bytes(total as f64));
    Ok(())
}

fn run_clean(args: &CacheCleanArgs) -> Result<()> {
    let cache = crate::cache::open(args.cache.as_deref());
    let (_, entries) = entries(args.cache.as_deref())?;
    let now = SystemTime::now();
    let old_enough = |e: &CacheEntry| match args.older_than {
        None => true,
        Some(age) => e
            .modified
            .and_then(|m| now.duration_since(m).ok())
            .is_some_and(|a| a >= age),
    };
    let (mut removed, mut freed, mut in_use, mut not_ours) = (0usize, 0u64, 0usize, 0usize);
    for entry in entries.iter().filter(|e| old_enough(e)) {
        let outcome = if args.dry_run {
            cache.removal(entry)
        } else {
            cache.remove(entry)
        }
        .with_context(|| format!("removing {}", entry.path.display()))?;
        match outcome {
            Removal::Remove => {
                removed += 1;
                freed += entry.bytes;
                outln!(
                    "{} {} ({}, {})",
                    if args.dry_run {
                        "would remove"
                    } else {
                        "removed"
                    },
                    entry.path.display(),
                    entry.kind.name(),
                    format_bytes(entry.bytes as f64)
                );
            }
            Removal::InUse => in_use += 1,
            Removal::NotOurs => not_ours += 1,
        }
    }
    let mut left = String::new();
    if in_use > 0 {
        left += &format!("; {in_use} in use by a running godsearch left alone");
    }
    if not_ours > 0 {
        left += &format!("; {not_ours} not written by godsearch's cache left alone");
    }
    outln!(
        "{} {removed} files, {}{left}",
        if args.dry_run {
            "would remove"
        } else {
            "removed"
        },
        format_bytes(freed as f64)
    );
    Ok(())
}

fn file_name(entry: &CacheEntry) -> String {
    entry
        .path
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned())
}

/// `2026-11-24 02:30`, in UTC.
fn date(t: SystemTime) -> String {
    let text = humantime::format_rfc3339_seconds(t).to_string();
    text.get(..16).unwrap_or(&text).replace('T', " ")
}
