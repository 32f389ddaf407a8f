//! The godsearch HTTP server: a JSON API over the application layer and one web page, with its
//! assets compiled into the binary (no CDN: it works offline), that compares algorithms on one
//! puzzle and plays their solutions.
//!
//! Thin, like the command line: every rule and every report type is the application crate's
//! ([`godsearch_app::request`]); this crate turns HTTP requests into its calls, runs them as
//! [`jobs`] under the server's limits, and answers with the same JSON as `--json`. A bad request
//! gets HTTP 400 with the command line's message in the API's words (request fields for
//! options, plain words for a body serde could not read), a body over the size limit 413, a
//! full server 503.
//!
//! | Route | Does |
//! |---|---|
//! | `GET /` | the page |
//! | `GET /api/health` | `{"status":"ok", running, waiting, max_jobs}` |
//! | `GET /api/puzzles` | the puzzles, algorithms, heuristics and metrics on offer |
//! | `GET /api/puzzles/{name}` | the entry of any puzzle a request may name (`4x5`, `pancake-12`), or 400 saying why not |
//! | `GET /api/openapi.json` | the OpenAPI 3.1 description of every route ([`openapi`]) |
//! | `POST /api/solve`, `/api/bfs`, `/api/scramble` | runs the request and answers its report |
//! | `POST /api/solve-batch` | solves a list of positions under one request's options: the reports, in order |
//! | `POST /api/replay` | the positions a solution passes through |
//! | `POST /api/pdb` | loads or builds a partition's pattern databases, or a definition puzzle's, into the cache |
//! | `POST /api/jobs/solve`, `/api/jobs/solve-batch`, `/api/jobs/bfs`, `/api/jobs/scramble`, `/api/jobs/pdb` | starts a job: `202 {"id"}` |
//! | `GET /api/jobs/{id}` | its state, progress and outcome |
//! | `GET /api/jobs/{id}/events` | server-sent events: `progress` until `result` or `error` |
//! | `DELETE /api/jobs/{id}` | cancels it |

pub mod jobs;
pub mod openapi;
mod page;
mod words;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::stream::{self, Stream};
use godsearch_app::batch::SolveBatchRequest;
use godsearch_app::request::{
    catalog, puzzle_entry, replay, BfsJob, JobControl, JobLimits, PdbJob, Precheck, ReplayRequest,
    ScrambleRequest, SolveRequest, Workbench,
};
use godsearch_app::AppError;
use jobs::{Job, Jobs, Outcome, Refusal, Work};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::json;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use words::in_api_words;

/// How often a job's watchers get its progress.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// The server's limits.
#[derive(Debug, Clone, Copy)]
pub struct ServerOptions {
    /// Jobs that run at once.
    pub max_jobs: usize,
    /// Jobs that may wait for a slot; more are refused with 503.
    pub max_waiting: usize,
    /// Each job's node, time and memory limits.
    pub limits: JobLimits,
    /// Each job is cancelled this long after it starts (enumerations included).
    pub wall_limit: Option<Duration>,
    /// Largest request body, in bytes (413 beyond).
    pub body_limit: usize,
    /// Largest answer, in bytes of JSON: a job whose report is larger ends with 413 and says
    /// so; kept finished results hold at most [`KEPT_RESULT_FACTOR`] times this in all.
    pub max_response: usize,
    /// Connections served at once; one more is closed at once ([`MAX_CONNECTIONS`]).
    pub max_connections: usize,
    /// How long a connection may take to send a request's headers before it is closed
    /// ([`HEADER_READ_TIMEOUT`]).
    pub header_read_timeout: Duration,
}

/// A bound server, ready to run.
pub struct Server {
    listener: tokio::net::TcpListener,
    router: Router,
    max_connections: usize,
    header_read_timeout: Duration,
}

impl Server {
    /// Binds `addr` (port 0: a free port) with `workbench`'s tables and `options`' limits.
    pub async fn bind(
        addr: SocketAddr,
        workbench: Arc<Workbench>,
        options: ServerOptions,
    ) -> std::io::Result<Server> {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        Ok(Server {
            listener,
            router: router(workbench, options),
            max_connections: options.max_connections,
            header_read_timeout: options.header_read_timeout,
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Answers requests until the process ends: at most `max_connections` connections at once
    /// (one more is closed at once), each given `header_read_timeout` to send a request's
    /// headers, so half-open connections cannot crowd out the others for long.
    pub async fn run(self) -> std::io::Result<()> {
        let slots = Arc::new(tokio::sync::Semaphore::new(self.max_connections));
        let header_read_timeout = self.header_read_timeout;
        loop {
            let (stream, _) = match self.listener.accept().await {
                Ok(accepted) => accepted,
                // Out of file descriptors, or a connection reset before it was accepted: the
                // listener itself is fine.
                Err(_) => {
                    tokio::time::sleep(ACCEPT_RETRY).await;
                    continue;
                }
            };
            let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
                drop(stream);
                continue;
            };
            let service = hyper_util::service::TowerToHyperService::new(self.router.clone());
            tokio::spawn(async move {
                let _slot = slot;
                let _ = hyper::server::conn::http1::Builder::new()
                    .timer(hyper_util::rt::TokioTimer::new())
                    .header_read_timeout(header_read_timeout)
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                    .await;
            });
        }
    }
}

/// The default for the most connections served at once (event streams of jobs included).
pub const MAX_CONNECTIONS: usize = 1024;

/// The largest answer by default, in bytes of JSON (`--max-response`): a few thousand long
/// scrambles, a replay of tens of thousands of moves.
pub const MAX_RESPONSE: usize = 64 << 20;

pub use jobs::KEPT_RESULT_FACTOR;
/// The default time a connection may take to send a request's headers before it is closed.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// The pause before accepting again after a failed accept.
const ACCEPT_RETRY: Duration = Duration::from_millis(50);

/// Binds `addr` and serves on a runtime of its own until the process ends; `ready` hears the
/// address once it listens.
pub fn serve_blocking(
    addr: SocketAddr,
    workbench: Arc<Workbench>,
    options: ServerOptions,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let server = Server::bind(addr, workbench, options).await?;
        ready(server.local_addr()?);
        server.run().await
    })
}

#[derive(Clone)]
struct AppState {
    jobs: Arc<Jobs>,
}

/// The routes (see the module docs).
pub fn router(workbench: Arc<Workbench>, options: ServerOptions) -> Router {
    let jobs = Arc::new(Jobs::new(
        workbench,
        options.limits,
        options.wall_limit,
        (options.max_jobs, options.max_waiting),
        options.max_response,
    ));
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/style.css", get(page::style))
        .route("/api/health", get(health))
        .route("/api/puzzles", get(puzzles))
        .route("/api/puzzles/{name}", get(puzzle))
        .route("/api/openapi.json", get(openapi_document))
        .route("/api/solve", post(solve_now))
        .route("/api/solve-batch", post(solve_batch_now))
        .route("/api/bfs", post(bfs_now))
        .route("/api/scramble", post(scramble_now))
        .route("/api/replay", post(replay_now))
        .route("/api/pdb", post(pdb_now))
        .route("/api/jobs/solve", post(solve_job))
        .route("/api/jobs/solve-batch", post(solve_batch_job))
        .route("/api/jobs/bfs", post(bfs_job))
        .route("/api/jobs/scramble", post(scramble_job))
        .route("/api/jobs/pdb", post(pdb_job))
        .route("/api/jobs/{id}", get(job_state).delete(cancel_job))
        .route("/api/jobs/{id}/events", get(job_events))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::extract::DefaultBodyLimit::max(options.body_limit))
        .layer(axum::middleware::from_fn(log_request))
        .with_state(AppState { jobs })
}

/// 404, as JSON like every other refusal.
async fn not_found(uri: axum::http::Uri) -> Response {
    error(
        StatusCode::NOT_FOUND,
        format!("no such route: {}", uri.path()),
    )
}

/// 405, as JSON like every other refusal.
async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> Response {
    error(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{method} is not allowed on {}", uri.path()),
    )
}

/// One line a request on stderr: method, path, status and the time to the answer's headers
/// (an event stream's, not its whole life). A failed write is ignored.
async fn log_request(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    use std::io::Write;
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let started = std::time::Instant::now();
    let response = next.run(request).await;
    let _ = writeln!(
        std::io::stderr(),
        "{method} {path} {} {:.1} ms",
        response.status().as_u16(),
        started.elapsed().as_secs_f64() * 1e3
    );
    response
}

/// An error answer: `{"error": message}` with its status.
fn error(status: StatusCode, message: impl Into<String>) -> Response {
    ApiError(status, message.into()).into_response()
}

/// A refusal on its way to becoming an error answer.
struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

/// A request body read as `T`, or the answer refusing it: 413 when too large, else 400 (axum
/// would say 422 or 415; a bad request is a bad request).
fn body<T>(parsed: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    parsed.map(|Json(value)| value).map_err(|rejection| {
        let status = match rejection.status() {
            StatusCode::PAYLOAD_TOO_LARGE => StatusCode::PAYLOAD_TOO_LARGE,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError(status, words::plain_json_error(&rejection.body_text()))
    })
}

fn to_json<T: Serialize>(value: T) -> Result<serde_json::Value, AppError> {
    serde_json::to_value(value).map_err(|e| AppError::Check(format!("report not written: {e}")))
}

/// A workbench method: what one kind of request runs, with the report it answers.
type Method<T, R> = fn(&Workbench, &T, &JobLimits, &JobControl) -> Result<R, AppError>;

/// The job that runs `method` on `request` and answers its report as JSON.
fn work<T, R>(request: T, method: Method<T, R>) -> Work
where
    T: Send + 'static,
    R: Serialize + 'static,
{
    Box::new(
        move |bench: &Workbench, limits: &JobLimits, control: &JobControl| {
            to_json(method(bench, &request, limits, control)?)
        },
    )
}

fn busy() -> Response {
    error(
        StatusCode::SERVICE_UNAVAILABLE,
        "the server is busy: every job slot is taken and the waiting line is full; try again",
    )
}

fn outcome_response(outcome: Outcome) -> Response {
    match outcome {
        Outcome::Done(value) => Json(value).into_response(),
        Outcome::BadInput(message) => error(StatusCode::BAD_REQUEST, message),
        Outcome::Failed(message) => error(StatusCode::INTERNAL_SERVER_ERROR, message),
        Outcome::TooLarge(message) => error(StatusCode::PAYLOAD_TOO_LARGE, message),
        Outcome::Cancelled(Some(value)) => Json(value).into_response(),
        Outcome::Cancelled(None) => error(StatusCode::CONFLICT, "cancelled before it started"),
    }
}

/// Cancels a job whose waiting client went away (the request's future is dropped).
struct CancelOnDrop(Arc<Job>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if self.0.running() {
            self.0.control.cancel();
        }
    }
}

/// Runs `work` as a job and answers with its outcome.
async fn run_now(state: &AppState, kind: &'static str, work: Work) -> Response {
    let job = match state.jobs.start(kind, work) {
        Ok(job) => job,
        Err(Refusal::Busy) => return busy(),
    };
    let guard = CancelOnDrop(job);
    outcome_response(guard.0.finished().await)
}

/// Starts `work` as a job and answers with its number.
fn start_job(state: &AppState, kind: &'static str, work: Work) -> Response {
    match state.jobs.start(kind, work) {
        Ok(job) => (
            StatusCode::ACCEPTED,
            Json(json!({
                "id": job.id,
                "kind": job.kind,
                "events": format!("/api/jobs/{}/events", job.id),
            })),
        )
            .into_response(),
        Err(Refusal::Busy) => busy(),
    }
}

async fn health(State(state): State<AppState>) -> Response {
    let load = state.jobs.load();
    Json(json!({
        "status": "ok",
        "running": load.running,
        "waiting": load.waiting,
        "max_jobs": load.max_jobs,
    }))
    .into_response()
}

async fn openapi_document() -> Response {
    static DOCUMENT: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    Json(DOCUMENT.get_or_init(openapi::document)).into_response()
}

async fn puzzles() -> Response {
    Json(catalog()).into_response()
}

/// The entry of one puzzle by the name a request would give, so that a page offers any board
/// size or pancake stack the registry reads without reading names itself.
async fn puzzle(Path(name): Path<String>) -> Response {
    // Opening a shipped definition reads and checks it.
    answer_off_the_runtime("opening the puzzle", move || puzzle_entry(&name, false)).await
}

/// Runs `work` (short, but not to be run on the runtime's threads, so that it never holds up
/// the health check) and answers its value, or its error: 400 for bad input, else 500.
async fn answer_off_the_runtime<T: Serialize + Send + 'static>(
    what: &'static str,
    work: impl FnOnce() -> Result<T, AppError> + Send + 'static,
) -> Response {
    let done = tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|_| Err(AppError::Check(format!("{what} panicked"))));
    match done {
        Ok(value) => Json(value).into_response(),
        Err(e) if e.is_bad_input() => error(StatusCode::BAD_REQUEST, in_api_words(&e.to_string())),
        Err(e) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            in_api_words(&e.to_string()),
        ),
    }
}

async fn solve_now(
    State(state): State<AppState>,
    parsed: Result<Json<SolveRequest>, JsonRejection>,
) -> Response {
    now_from(&state, "solve", parsed, Workbench::solve).await
}

async fn solve_batch_now(
    State(state): State<AppState>,
    parsed: Result<Json<SolveBatchRequest>, JsonRejection>,
) -> Response {
    now_from(&state, "solve-batch", parsed, Workbench::solve_batch).await
}

async fn bfs_now(
    State(state): State<AppState>,
    parsed: Result<Json<BfsJob>, JsonRejection>,
) -> Response {
    now_from(&state, "bfs", parsed, Workbench::bfs).await
}

async fn scramble_now(
    State(state): State<AppState>,
    parsed: Result<Json<ScrambleRequest>, JsonRejection>,
) -> Response {
    now_from(&state, "scramble", parsed, Workbench::scramble).await
}

async fn pdb_now(
    State(state): State<AppState>,
    parsed: Result<Json<PdbJob>, JsonRejection>,
) -> Response {
    now_from(&state, "pdb", parsed, Workbench::build_pdb).await
}

/// Reads a request body and runs it as a job, answering with its outcome.
async fn now_from<T: DeserializeOwned + Send + 'static, R: Serialize + 'static>(
    state: &AppState,
    kind: &'static str,
    parsed: Result<Json<T>, JsonRejection>,
    method: Method<T, R>,
) -> Response {
    match body(parsed) {
        Ok(request) => run_now(state, kind, work(request, method)).await,
        Err(refused) => refused.into_response(),
    }
}

async fn replay_now(parsed: Result<Json<ReplayRequest>, JsonRejection>) -> Response {
    let request = match body(parsed) {
        Ok(request) => request,
        Err(refused) => return refused.into_response(),
    };
    // Linear in the moves and bounded (app::request::MAX_REPLAY_ENTRIES).
    answer_off_the_runtime("the replay", move || replay(&request)).await
}

async fn solve_job(
    State(state): State<AppState>,
    parsed: Result<Json<SolveRequest>, JsonRejection>,
) -> Response {
    job_from(&state, "solve", parsed, Workbench::solve)
}

async fn solve_batch_job(
    State(state): State<AppState>,
    parsed: Result<Json<SolveBatchRequest>, JsonRejection>,
) -> Response {
    job_from(&state, "solve-batch", parsed, Workbench::solve_batch)
}

async fn bfs_job(
    State(state): State<AppState>,
    parsed: Result<Json<BfsJob>, JsonRejection>,
) -> Response {
    job_from(&state, "bfs", parsed, Workbench::bfs)
}

async fn pdb_job(
    State(state): State<AppState>,
    parsed: Result<Json<PdbJob>, JsonRejection>,
) -> Response {
    job_from(&state, "pdb", parsed, Workbench::build_pdb)
}

async fn scramble_job(
    State(state): State<AppState>,
    parsed: Result<Json<ScrambleRequest>, JsonRejection>,
) -> Response {
    job_from(&state, "scramble", parsed, Workbench::scramble)
}

/// Starts `method` on the request as a job, after the checks that cost nothing
/// ([`Precheck`]): a job with a bad position or option is refused with 400 at once, not
/// accepted and failed later.
fn job_from<T: DeserializeOwned + Precheck + Send + 'static, R: Serialize + 'static>(
    state: &AppState,
    kind: &'static str,
    parsed: Result<Json<T>, JsonRejection>,
    method: Method<T, R>,
) -> Response {
    match body(parsed) {
        Ok(request) => match request.precheck(state.jobs.limits()) {
            Ok(()) => start_job(state, kind, work(request, method)),
            Err(e) if e.is_bad_input() => {
                error(StatusCode::BAD_REQUEST, in_api_words(&e.to_string()))
            }
            Err(e) => error(
                StatusCode::INTERNAL_SERVER_ERROR,
                in_api_words(&e.to_string()),
            ),
        },
        Err(refused) => refused.into_response(),
    }
}

fn find(state: &AppState, id: &str) -> Result<Arc<Job>, ApiError> {
    id.parse::<u64>()
        .ok()
        .and_then(|id| state.jobs.get(id))
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no job {id}")))
}

/// A job's state: `waiting`/`running` with progress, or `done`/`error`/`cancelled` with its
/// outcome.
fn job_document(job: &Job) -> serde_json::Value {
    let progress = job.control.progress();
    let (state, result, error) = match job.outcome() {
        None => ("running", None, None),
        Some(Outcome::Done(value)) => ("done", Some(value), None),
        Some(Outcome::BadInput(m)) => ("error", None, Some(json!({"status": 400, "error": m}))),
        Some(Outcome::Failed(m)) => ("error", None, Some(json!({"status": 500, "error": m}))),
        Some(Outcome::TooLarge(m)) => ("error", None, Some(json!({"status": 413, "error": m}))),
        Some(Outcome::Cancelled(result)) => ("cancelled", result, None),
    };
    json!({
        "id": job.id,
        "kind": job.kind,
        "state": state,
        "progress": progress,
        "result": result,
        "error": error,
    })
}

async fn job_state(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    match find(&state, &id) {
        Ok(job) => Json(job_document(&job)).into_response(),
        Err(missing) => missing.into_response(),
    }
}

async fn cancel_job(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    match find(&state, &id) {
        Ok(job) => {
            let was_running = job.running();
            job.cancel();
            Json(json!({ "id": job.id, "cancelled": was_running })).into_response()
        }
        Err(missing) => missing.into_response(),
    }
}

/// The event that ends a job's stream.
fn final_event(job: &Job, outcome: Outcome) -> Event {
    let document = job_document(job);
    match outcome {
        Outcome::Done(_) => Event::default().event("result"),
        Outcome::Cancelled(_) => Event::default().event("cancelled"),
        Outcome::BadInput(_) | Outcome::Failed(_) | Outcome::TooLarge(_) => {
            Event::default().event("error")
        }
    }
    .data(document.to_string())
}

/// `progress` events every [`PROGRESS_EVERY`], then one `result`, `error` or `cancelled`
/// event with the job's document, then the end of the stream.
fn job_stream(job: Arc<Job>) -> impl Stream<Item = Result<Event, Infallible>> {
    stream::unfold(Some(job), |state| async move {
        let job = state?;
        if job.running() {
            tokio::select! {
                _ = job.finished() => {}
                _ = tokio::time::sleep(PROGRESS_EVERY) => {}
            }
        }
        let event = match job.outcome() {
            Some(outcome) => return Some((Ok(final_event(&job, outcome)), None)),
            None => Event::default()
                .event("progress")
                .data(json!(job.control.progress()).to_string()),
        };
        Some((Ok(event), Some(job)))
    })
}

async fn job_events(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    match find(&state, &id) {
        Ok(job) => Sse::new(job_stream(job))
            .keep_alive(KeepAlive::default())
            .into_response(),
        Err(missing) => missing.into_response(),
    }
}
