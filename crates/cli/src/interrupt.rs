//! Interrupts. A table is written to a temporary file and renamed into place when complete;
//! SIGINT, SIGTERM or SIGHUP during the write would leave a full-size temporary file behind.
//! [`remove_temp_files_on_signal`] starts a thread that, on the first such signal, runs the
//! last words a command registered with [`on_interrupt`] (a batch prints the summary of what it
//! solved), removes this process's temporary table files from the folders it may be writing
//! in, then ends the process the way the signal asks (exit status 128 + signal number).
//!
//! The last words live in a process-wide slot because a signal is process-wide: there is one
//! handler thread, and whatever command runs registers what it must say.

use anyhow::{Context, Result};
use godsearch_app::tables::file;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

/// What to do before the process ends on a signal.
type LastWords = Box<dyn Fn() + Send>;

static LAST_WORDS: Mutex<Option<LastWords>> = Mutex::new(None);

/// Runs `last_words` if a signal ends the process (until [`clear_on_interrupt`]).
pub fn on_interrupt(last_words: LastWords) {
    *LAST_WORDS.lock().unwrap_or_else(PoisonError::into_inner) = Some(last_words);
}

/// Forgets what [`on_interrupt`] registered.
pub fn clear_on_interrupt() {
    *LAST_WORDS.lock().unwrap_or_else(PoisonError::into_inner) = None;
}

/// Watches for interrupts for the rest of the process (see the module docs).
pub fn remove_temp_files_on_signal(dirs: Vec<PathBuf>) -> Result<()> {
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP]).context("watching for interrupts")?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            if let Some(last_words) = LAST_WORDS
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take()
            {
                last_words();
            }
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
