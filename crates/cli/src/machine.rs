//! What this machine has: memory, free disk, and this process's peak memory (Linux `/proc`).

use std::path::Path;

/// The default memory budget as a share of RAM.
pub const DEFAULT_MEMORY_SHARE: f64 = 0.8;
/// Assumed RAM when `/proc/meminfo` cannot be read.
const FALLBACK_RAM: u64 = 8 << 30;

fn proc_kib(file: &str, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(file).ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kib: u64 = line[field.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// Total RAM, if it can be read.
pub fn total_memory() -> Option<u64> {
    proc_kib("/proc/meminfo", "MemTotal:")
}

/// Total RAM, or a conservative guess when unknown.
pub fn total_memory_or_guess() -> u64 {
    total_memory().unwrap_or(FALLBACK_RAM)
}

/// The default budget: [`DEFAULT_MEMORY_SHARE`] of RAM.
pub fn default_memory_budget() -> u64 {
    (total_memory_or_guess() as f64 * DEFAULT_MEMORY_SHARE) as u64
}

/// The budget given with `--memory` (`16G`, `512M`, `50%`), or [`default_memory_budget`].
pub fn memory_budget(option: Option<&str>) -> anyhow::Result<u64> {
    use anyhow::Context;
    match option {
        Some(text) => {
            Ok(crate::units::parse_size(text, total_memory_or_guess()).context("--memory")?)
        }
        None => Ok(default_memory_budget()),
    }
}

/// Free disk space where `path` lives.
pub fn free_disk(path: &Path) -> Option<u64> {
    fs4::available_space(path).ok()
}

/// The most resident memory this process has used so far.
pub fn peak_rss() -> Option<u64> {
    proc_kib("/proc/self/status", "VmHWM:")
}
