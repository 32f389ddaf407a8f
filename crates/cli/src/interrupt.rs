//! Interrupts. A table is written to a temporary file and renamed into place when complete;
//! SIGINT, SIGTERM or SIGHUP during the write would leave a full-size temporary file behind.
//! [`remove_temp_files_on_signal`] starts a thread that, on the first such signal, removes this
//! process's temporary table files from the folders it may be writing in, then ends the
//! process the way the signal asks (exit status 128 + signal number).

use anyhow::{Context, Result};
use godsearch_tables::file;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::path::PathBuf;

/// Watches for interrupts for the rest of the process (see the module docs).
pub fn remove_temp_files_on_signal(dirs: Vec<PathBuf>) -> Result<()> {
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP]).context("watching for interrupts")?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let pid = std::process::id();
            for dir in &dirs {
                // A folder that cannot be read holds none of our files.
                let _ = file::remove_temp_files_of(dir, pid);
            }
            // Dies by the signal's default action; exiting is the fallback.
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            std::process::exit(128 + signal);
        }
    });
    Ok(())
}
