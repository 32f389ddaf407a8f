//! What this machine has: memory (with its container's limit), free disk, and this process's
//! peak memory (Linux `/proc`);
//! and the one process setting the command makes, the file-creation mask of `--private`.

use std::path::Path;

pub use godsearch_app::defaults::{total_memory, MEMORY_SHARE as DEFAULT_MEMORY_SHARE};

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

/// The default budget ([`godsearch_app::defaults::memory_budget`]).
pub fn default_memory_budget() -> u64 {
    godsearch_app::defaults::memory_budget()
}

/// The budget given with `--memory`, or [`default_memory_budget`].
pub fn memory_budget(option: Option<u64>) -> u64 {
    option.unwrap_or_else(default_memory_budget)
}

/// Reads `--memory` (`16G`, `512M`, `50%`): at most the memory this process may use
/// ([`total_memory`]), since a budget beyond it would let an engine allocate until the
/// operating system kills it.
pub fn parse_memory(text: &str) -> Result<u64, String> {
    let total = total_memory();
    let bytes =
        godsearch_app::units::parse_size(text, godsearch_app::defaults::total_memory_or_guess())?;
    match total {
        Some(total) if bytes > total => Err(format!(
            "{} is more than the {} of memory this machine has (give at most that, or a share such as 50%)",
            godsearch_app::units::format_bytes(bytes as f64),
            godsearch_app::units::format_bytes(total as f64)
        )),
        _ => Ok(bytes),
    }
}

/// Parses a disk size for `--disk` (`50G`, `800M`, bytes): no percentages, since the folder
/// it applies to may not exist yet; at least one byte.
pub fn parse_disk_size(text: &str) -> Result<u64, String> {
    if text.trim_end().ends_with('%') {
        return Err(format!(
            "'{}': give --disk as a size such as 50G or 800M",
            godsearch_app::units::excerpt(text)
        ));
    }
    match godsearch_app::units::parse_size(text, 0)? {
        0 => Err("--disk must be at least one byte".into()),
        bytes => Ok(bytes),
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

/// The file-creation mask of `--private`: new files get no permissions for group or others.
const PRIVATE_UMASK: libc::mode_t = 0o077;

/// Makes every file this process creates from now on readable by its owner alone (`--private`):
/// the libraries create table files 0644 (0644) and the
/// operating system takes away what the umask says. Called at the start, before any file is
/// written.
pub fn keep_new_files_private() {
    // SAFETY: umask(2) only sets the process's file-creation mask; it touches no memory and
    // cannot fail.
    #[allow(unsafe_code)]
    unsafe {
        libc::umask(PRIVATE_UMASK);
    }
}
