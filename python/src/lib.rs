//! `godsearch._native`: the Python extension behind the `godsearch` package. Thin, like the
//! command line: each method takes a request as JSON (the HTTP API's bodies, named like the
//! command line's options), runs it through the application layer
//! ([`godsearch_app::request::Workbench`]) and answers the report as JSON, which the Python
//! package turns into dicts. The Python package (`godsearch/__init__.py`) gives the functions
//! their keyword arguments and docs.
//!
//! - The work runs on a thread of its own with the GIL released; the calling thread waits for
//!   it to finish (a quick call answers at once), waking every [`SIGNAL_CHECK`] to let Python
//!   handle signals, so Ctrl-C (KeyboardInterrupt) cancels
//!   the work (IDA* within 65,536 nodes a thread, an enumeration after its level) and raises.
//! - Errors: `InputError` (a `ValueError`) when the request is at fault, with the command
//!   line's message; `GodsearchError` (a `RuntimeError`) when the work failed.

use godsearch_app::cache::TableCache;
use godsearch_app::defaults;
use godsearch_app::request::{
    catalog, replay, JobControl, JobLimits, ReplayRequest, TableSize, Workbench,
};
use godsearch_app::units::parse_size;
use godsearch_app::AppError;
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

create_exception!(
    godsearch,
    GodsearchError,
    PyRuntimeError,
    "The work failed (not the request): a table that could not be read, an internal check."
);
create_exception!(
    godsearch,
    InputError,
    PyValueError,
    "The request cannot be done as given: a bad board, cube, option or combination."
);

/// How often the waiting thread lets Python look at its signals.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

fn input_error(message: impl Into<String>) -> PyErr {
    InputError::new_err(message.into())
}

fn app_error(e: AppError) -> PyErr {
    match e.is_bad_input() {
        true => InputError::new_err(e.to_string()),
        false => GodsearchError::new_err(e.to_string()),
    }
}

fn read<T: DeserializeOwned>(json: &str) -> PyResult<T> {
    serde_json::from_str(json).map_err(|e| input_error(e.to_string()))
}

fn write<T: Serialize>(value: &T) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| GodsearchError::new_err(e.to_string()))
}

/// A cache folder and the tables loaded from it, kept between calls (a pattern database or the
/// two-phase tables load once a session).
#[pyclass(frozen, module = "godsearch")]
struct Session {
    bench: Workbench,
    limits: JobLimits,
}

impl Session {
    /// Reads `request` (JSON), runs `work` on it on a thread of its own with the GIL
    /// released, cancelling it when Python reports a signal (KeyboardInterrupt), and answers
    /// its report as JSON.
    fn run<R, T>(
        &self,
        py: Python<'_>,
        request: &str,
        work: fn(&Workbench, &R, &JobLimits, &JobControl) -> Result<T, AppError>,
    ) -> PyResult<String>
    where
        R: DeserializeOwned + Sync,
        T: Serialize + Send,
    {
        let request: R = read(request)?;
        let control = JobControl::new(self.limits.max_nodes);
        let (bench, limits, control, request) = (&self.bench, &self.limits, &control, &request);
        let outcome = std::thread::scope(|scope| {
            // The worker says when it is done, so a quick call answers at once; the wait
            // wakes every SIGNAL_CHECK only to let Python look at its signals.
            let (done, finished) = std::sync::mpsc::channel::<()>();
            let worker = scope.spawn(move || {
                let outcome = work(bench, request, limits, control);
                let _ = done.send(());
                outcome
            });
            let mut finished = finished;
            loop {
                // The receiver goes into the GIL-free wait and comes back (it is Send, not Sync).
                let (outcome, receiver) = py.allow_threads(move || {
                    let outcome = finished.recv_timeout(SIGNAL_CHECK);
                    (outcome, finished)
                });
                finished = receiver;
                match outcome {
                    // Done, or the worker ended without saying so (a panic): join it.
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
                    Err(RecvTimeoutError::Timeout) => {}
                }
                if let Err(interrupt) = py.check_signals() {
                    control.cancel();
                    // The engines stop at their next look; the interrupt is raised after.
                    let _ = worker.join();
                    return Err(interrupt);
                }
            }
            worker
                .join()
                .map_err(|_| GodsearchError::new_err("the work panicked"))
        })?;
        write(&outcome.map_err(app_error)?)
    }
}

#[pymethods]
impl Session {
    /// A session whose tables are cached in `cache` (default: the command line's cache
    /// folder) and whose work may use `memory` (`"4G"`, `"512M"`, `"50%"`, bytes; default: the
    /// command line's, 80% of the memory this process may use).
    #[new]
    #[pyo3(signature = (cache=None, memory=None))]
    fn new(cache: Option<PathBuf>, memory: Option<&str>) -> PyResult<Self> {
        let dir = cache.unwrap_or_else(defaults::cache_folder);
        let memory_bytes = match memory {
            Some(text) => parse_size(text, defaults::total_memory_or_guess())
                .map_err(|e| input_error(format!("memory: {e}")))?,
            None => defaults::memory_budget(),
        };
        Ok(Session {
            bench: Workbench::new(TableCache::new(dir)),
            limits: JobLimits {
                memory_bytes,
                max_nodes: None,
                max_seconds: None,
                largest_table: TableSize::Gigabyte,
                max_scrambles: u32::MAX,
                definition_files: true,
            },
        })
    }

    /// The cache folder.
    #[getter]
    fn cache(&self) -> String {
        self.bench.cache().dir().display().to_string()
    }

    /// The memory limit in bytes.
    #[getter]
    fn memory(&self) -> u64 {
        self.limits.memory_bytes
    }

    /// Solves one position (a SolveRequest as JSON); answers the report as JSON.
    fn solve_json(&self, py: Python<'_>, request: &str) -> PyResult<String> {
        self.run(py, request, Workbench::solve)
    }

    /// Enumerates (a BfsJob as JSON); answers the report as JSON.
    fn bfs_json(&self, py: Python<'_>, request: &str) -> PyResult<String> {
        self.run(py, request, Workbench::bfs)
    }

    /// Makes scrambles (a ScrambleRequest as JSON); answers the list as JSON.
    fn scramble_json(&self, py: Python<'_>, request: &str) -> PyResult<String> {
        self.run(py, request, Workbench::scramble)
    }

    /// Builds or loads pattern databases (a PdbJob as JSON); answers the report as JSON.
    fn build_pdb_json(&self, py: Python<'_>, request: &str) -> PyResult<String> {
        self.run(py, request, Workbench::build_pdb)
    }
}

/// Plays a solution from its start (a ReplayRequest as JSON); answers the positions as JSON.
#[pyfunction]
fn replay_json(request: &str) -> PyResult<String> {
    let request: ReplayRequest = read(request)?;
    write(&replay(&request).map_err(app_error)?)
}

/// The puzzles, algorithms, heuristics and metrics on offer, as JSON.
#[pyfunction]
fn catalog_json() -> PyResult<String> {
    write(&catalog())
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Session>()?;
    m.add_function(wrap_pyfunction!(replay_json, m)?)?;
    m.add_function(wrap_pyfunction!(catalog_json, m)?)?;
    m.add("GodsearchError", m.py().get_type::<GodsearchError>())?;
    m.add("InputError", m.py().get_type::<InputError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
