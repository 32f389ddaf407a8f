//! `godsearch._native`: the Python extension behind the `godsearch` package. Thin, like the
//! command line: each method takes a request as JSON (the HTTP API's bodies, named like the
//! command line's options), runs it through the application layer
//! ([`godsearch_app::request::Workbench`]) and answers the report as JSON, which the Python
//! package turns into dicts. The Python package (`godsearch/__init__.py`) gives the functions
//! their keyword arguments and docs.
//!
//! - The work runs on a thread of its own with the GIL released; the calling thread waits for
//!   it to finish (a quick call answers at once), waking every `SIGNAL_CHECK` to let Python
//!   handle signals, so Ctrl-C (KeyboardInterrupt) cancels the work (IDA* within 65,536 nodes
//!   a thread, an enumeration after its level) and raises `Interrupted` (a
//!   `KeyboardInterrupt`) carrying the report the work stopped with (IDA*'s proven lower
//!   bound). A progress callback, if given, hears the job's progress every
//!   `PROGRESS_EVERY`; if it raises, the work is cancelled and its exception raised.
//! - Each call answers its report and the hints the work gave (a database that would help).
//! - Errors: `InputError` (a `ValueError`) when the request is at fault, with the command
//!   line's message; `GodsearchError` (a `RuntimeError`) when the work failed.

use godsearch_app::batch::SolveBatchRequest;
use godsearch_app::cache::TableCache;
use godsearch_app::defaults;
use godsearch_app::request::{
    catalog, puzzle_entry, replay, BfsJob, JobControl, JobLimits, ReplayRequest, SolveRequest,
    TableSize, Workbench,
};
use godsearch_app::units::parse_size;
use godsearch_app::AppError;
use pyo3::create_exception;
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

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
create_exception!(
    godsearch,
    Interrupted,
    PyKeyboardInterrupt,
    "Ctrl-C stopped the work; `report` holds what it had (IDA*'s proven lower bound), or None."
);

/// How often the waiting thread lets Python look at its signals.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);
/// How often a progress callback hears from the work.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

fn input_error(message: impl Into<String>) -> PyErr {
    InputError::new_err(message.into())
}

/// `e` as a Python exception, the options it names written as keyword arguments (`max_length`).
fn app_error(e: AppError) -> PyErr {
    let message = godsearch_app::error::options_as_fields(&e.to_string());
    match e.is_bad_input() {
        true => InputError::new_err(message),
        false => GodsearchError::new_err(message),
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
    /// Runs `work` on `request` on a thread of its own with the GIL
    /// released, cancelling it when Python reports a signal (KeyboardInterrupt) or when
    /// `progress` (called with the job's progress as JSON every [`PROGRESS_EVERY`]) raises,
    /// and answers its report as JSON with the hints the work gave.
    fn run<R, T>(
        &self,
        py: Python<'_>,
        request: R,
        work: fn(&Workbench, &R, &JobLimits, &JobControl) -> Result<T, AppError>,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<(String, Vec<String>)>
    where
        R: Sync,
        T: Serialize + Send,
    {
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
            let mut told = Instant::now();
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
                let mut stopped = py.check_signals().err();
                if let (None, Some(callback)) = (&stopped, &progress) {
                    if told.elapsed() >= PROGRESS_EVERY {
                        told = Instant::now();
                        stopped = write(&control.progress())
                            .and_then(|json| callback.call1((json,)))
                            .err();
                    }
                }
                if let Some(error) = stopped {
                    // The engines stop at their next look; the exception is raised after, an
                    // interrupt with what the work had when it stopped.
                    control.cancel();
                    let had = worker.join().ok().and_then(Result::ok);
                    if error.is_instance_of::<PyKeyboardInterrupt>(py) {
                        let report = had.map(|report| write(&report)).transpose()?;
                        return Err(Interrupted::new_err((
                            "interrupted: the work was stopped",
                            report,
                        )));
                    }
                    return Err(error);
                }
            }
            worker
                .join()
                .map_err(|_| GodsearchError::new_err("the work panicked"))
        })?;
        let hints = control.hints().into_iter().map(|hint| hint.text).collect();
        Ok((write(&outcome.map_err(app_error)?)?, hints))
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

    /// Solves one position (a SolveRequest as JSON), by descent through the distance table
    /// file `table` if one is given; answers the report as JSON and the hints.
    #[pyo3(signature = (request, progress=None, table=None))]
    fn solve_json(
        &self,
        py: Python<'_>,
        request: &str,
        progress: Option<Bound<'_, PyAny>>,
        table: Option<PathBuf>,
    ) -> PyResult<(String, Vec<String>)> {
        let request = SolveRequest {
            table,
            ..read(request)?
        };
        self.run(py, request, Workbench::solve, progress)
    }

    /// Solves the positions of a batch request (a SolveBatchRequest as JSON) as one batch,
    /// by descent through `table` if one is given; answers the reports as a JSON list and the
    /// hints.
    #[pyo3(signature = (request, progress=None, table=None))]
    fn solve_batch_json(
        &self,
        py: Python<'_>,
        request: &str,
        progress: Option<Bound<'_, PyAny>>,
        table: Option<PathBuf>,
    ) -> PyResult<(String, Vec<String>)> {
        let mut batch: SolveBatchRequest = read(request)?;
        batch.request.table = table;
        self.run(py, batch, Workbench::solve_batch, progress)
    }

    /// Enumerates (a BfsJob as JSON), saving the distance table to `save` if a path is
    /// given; answers the report as JSON and the hints.
    #[pyo3(signature = (request, progress=None, save=None))]
    fn bfs_json(
        &self,
        py: Python<'_>,
        request: &str,
        progress: Option<Bound<'_, PyAny>>,
        save: Option<PathBuf>,
    ) -> PyResult<(String, Vec<String>)> {
        let job = BfsJob {
            save,
            ..read(request)?
        };
        self.run(py, job, Workbench::bfs, progress)
    }

    /// Makes scrambles (a ScrambleRequest as JSON); answers the list as JSON and the hints.
    #[pyo3(signature = (request, progress=None))]
    fn scramble_json(
        &self,
        py: Python<'_>,
        request: &str,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<(String, Vec<String>)> {
        self.run(py, read(request)?, Workbench::scramble, progress)
    }

    /// Builds or loads pattern databases (a PdbJob as JSON); answers the report as JSON and
    /// the hints.
    #[pyo3(signature = (request, progress=None))]
    fn build_pdb_json(
        &self,
        py: Python<'_>,
        request: &str,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<(String, Vec<String>)> {
        self.run(py, read(request)?, Workbench::build_pdb, progress)
    }
}

/// Plays a solution from its start (a ReplayRequest as JSON); answers the positions as JSON.
#[pyfunction]
fn replay_json(request: &str) -> PyResult<String> {
    let request: ReplayRequest = read(request)?;
    write(&replay(&request).map_err(app_error)?)
}

/// The catalog entry of any puzzle name or definition file, as JSON.
#[pyfunction]
fn puzzle_json(name: &str) -> PyResult<String> {
    write(&puzzle_entry(name, true).map_err(app_error)?)
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
    m.add_function(wrap_pyfunction!(puzzle_json, m)?)?;
    m.add("GodsearchError", m.py().get_type::<GodsearchError>())?;
    m.add("InputError", m.py().get_type::<InputError>())?;
    m.add("Interrupted", m.py().get_type::<Interrupted>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
