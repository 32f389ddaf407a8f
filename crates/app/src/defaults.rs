//! The defaults every front end offers when the user names none, decided here once: the
//! memory budget and the table cache's folder. Nothing in the application layer uses them by
//! itself; a front end calls them (the command line, the server it starts, a Python session),
//! so that a table cached by one is found by the others.

use std::path::PathBuf;

/// The default memory budget as a share of the memory this process may use.
pub const MEMORY_SHARE: f64 = 0.8;

/// Assumed memory when the machine's cannot be read.
const FALLBACK_MEMORY: u64 = 8 << 30;

/// The folder, under the platform's cache folder, that godsearch's tables are cached in.
const CACHE_FOLDER_NAME: &str = "godsearch";

/// The cache folder used where the platform has none (relative to the working folder).
const FALLBACK_CACHE_FOLDER: &str = ".godsearch-cache";

/// The memory this process may use: the machine's RAM, or its container's limit (cgroup v1 or
/// v2) when that is lower, as the `sysinfo` crate reads them on each operating system; `None`
/// if neither can be read.
pub fn total_memory() -> Option<u64> {
    let mut system = sysinfo::System::new();
    system.refresh_memory_specifics(sysinfo::MemoryRefreshKind::nothing().with_ram());
    let ram = Some(system.total_memory()).filter(|&r| r > 0);
    let container = system.cgroup_limits().map(|c| c.total_memory);
    match (ram, container) {
        (Some(r), Some(c)) => Some(r.min(c)),
        (r, c) => r.or(c),
    }
}

/// [`total_memory`], or a conservative guess (8 GiB) when it cannot be read.
pub fn total_memory_or_guess() -> u64 {
    total_memory().unwrap_or(FALLBACK_MEMORY)
}

/// The memory budget when none is given: [`MEMORY_SHARE`] of [`total_memory_or_guess`].
pub fn memory_budget() -> u64 {
    (total_memory_or_guess() as f64 * MEMORY_SHARE) as u64
}

/// The table cache's folder when none is given: `godsearch` in the platform's cache folder
/// (the `dirs` crate: `$XDG_CACHE_HOME` or `~/.cache` on Linux, `~/Library/Caches` on macOS,
/// `%LOCALAPPDATA%` on Windows), else `.godsearch-cache` in the working folder.
pub fn cache_folder() -> PathBuf {
    dirs::cache_dir().map_or_else(
        || PathBuf::from(FALLBACK_CACHE_FOLDER),
        |d| d.join(CACHE_FOLDER_NAME),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_a_share_of_what_the_machine_has() {
        let total = total_memory_or_guess();
        assert!(memory_budget() < total);
        assert!(memory_budget() as f64 >= total as f64 * MEMORY_SHARE - 1.0);
    }

    #[test]
    fn the_cache_folder_is_godsearchs_own() {
        assert!(
            cache_folder().ends_with(CACHE_FOLDER_NAME)
                || cache_folder().ends_with(FALLBACK_CACHE_FOLDER)
        );
    }
}
