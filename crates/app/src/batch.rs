//! Many positions solved under one request, with what they need (tables, databases, a ball of
//! positions) loaded or built once: the command line's argument lists and `--file` streams.
//! One position of the server's and Python's requests is a batch of one through the same
//! calls (`solve_one`), so no front end has a solver path of its own.
//!
//! A puzzle that solves batches ([`Puzzle::batch`](crate::registry::Puzzle::batch)) gives a
//! [`Batch`]: cheap, made as soon as the request is read, it checks the request's options and
//! reads positions (so a bad position in a list is refused before any table is built); its
//! [`Batch::solver`] loads or builds what the solving needs and returns a [`BatchSolver`].

use crate::progress::Notice;
use crate::request::{shorter, JobControl, JobLimits, SolveReport, SolveRequest, Workbench};
use crate::{AppError, AppResult};
use godsearch_core::Progress;
use godsearch_search::tiles::Watch;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::any::Any;
use std::borrow::Cow;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// One position read for a batch, kept as its puzzle reads it (a board with its file's id and
/// length, a cube): only the batch that read it can solve it.
pub struct Position(Box<dyn Any + Send + Sync>);

impl Position {
    /// Keeps `read`, a puzzle's own reading of a position.
    pub fn new<T: Any + Send + Sync>(read: T) -> Self {
        Position(Box::new(read))
    }

    /// The puzzle's reading, or an error when another puzzle's batch read it.
    pub fn get<T: Any>(&self) -> AppResult<&T> {
        self.0.downcast_ref().ok_or_else(|| {
            AppError::Check("a batch was given a position another puzzle read".into())
        })
    }
}

/// Where a position's text comes from, which decides what else it may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A position alone: a request's, or one argument on the command line.
    Given,
    /// A line of a file of positions, which may carry an id and a known length as well
    /// (Korf's format for boards).
    Line,
}

/// What a front end gives a batch's solver besides the request.
pub struct BatchSetup<'a> {
    /// Memory, time and table limits; `definition_files` also decides whether a table file the
    /// request names is read.
    pub limits: JobLimits,
    /// How many positions the batch holds, when known (a large batch of cubes gets the
    /// two-phase tables in huge pages).
    pub positions: Option<usize>,
    /// Where table and database builds report their levels.
    pub progress: &'a dyn Progress,
    /// Hears of tables built, fallbacks and what half-depth search holds.
    pub notices: &'a mut (dyn FnMut(Notice) + Send),
    /// The searches that look at a flag (the cube's) give up, as at their timeout, once it is
    /// set; IDA* on boards stops through its watch instead.
    pub stop: Option<&'a AtomicBool>,
}

impl BatchSetup<'_> {
    /// Each position's time limit: the request's timeout or the front end's, the shorter.
    pub fn timeout(&self, request: &SolveRequest) -> AppResult<Option<Duration>> {
        Ok(shorter(request.timeout()?, self.limits.max_seconds))
    }
}

/// Settings of a front end's own (not part of a request) that a batch's solver may leave
/// unused; a front end refuses one given for nothing rather than ignore it.
#[derive(Debug, Clone, Copy, Default)]
pub struct FrontEndOptions {
    /// A table cache folder was named.
    pub cache: bool,
    /// A memory budget was given.
    pub memory: bool,
    /// Staged solvers' plans are to be written out in full.
    pub verbose: bool,
}

/// A puzzle's batch under one request, its options checked: it reads positions and makes the
/// solver.
pub trait Batch: Send + Sync {
    /// Reads one position (refused with the reason when it cannot be read or solved).
    fn read(&self, text: &str, source: Source) -> AppResult<Position>;

    /// The positions `words` hold, given one after another (a command line's arguments):
    /// each word one position, unless the puzzle reads one position from several words.
    fn positions_in(&self, words: &[String]) -> Vec<String> {
        words.to_vec()
    }

    /// Refuses a front end's own setting the solver would not use.
    fn check_front_end(&self, given: FrontEndOptions) -> AppResult<()> {
        let _ = given;
        Ok(())
    }

    /// The solver, with what it needs loaded through `bench` (which keeps tables between
    /// requests) or built now, reporting to `setup`.
    fn solver<'a>(
        &'a self,
        bench: &'a Workbench,
        setup: BatchSetup<'a>,
    ) -> AppResult<Box<dyn BatchSolver + 'a>>;
}

/// Solves positions its batch read; every solution is replayed before it is returned.
pub trait BatchSolver: Sync {
    /// How many positions [`solve`](Self::solve) is best given at once: more than one when it
    /// spreads them over the threads.
    fn chunk(&self) -> usize {
        1
    }

    /// Whether the search publishes its threshold and nodes to the watch it is given (IDA*),
    /// so that a front end can show them and, when stopped, the bound proven.
    fn watched(&self) -> bool {
        false
    }

    /// Solves `positions`, results in their order; a search that takes a watch publishes to
    /// `watch` and stops when it is cancelled.
    fn solve(&self, positions: &[Position], watch: Option<&Watch>) -> Vec<AppResult<SolveReport>>;
}

/// Solves `request.position` as a batch of one, within `limits`, reporting to `control`: the
/// server's and Python's solve, through the calls a command line's batch makes.
pub(crate) fn solve_one(
    batch: &dyn Batch,
    bench: &Workbench,
    request: &SolveRequest,
    limits: &JobLimits,
    control: &JobControl,
) -> AppResult<SolveReport> {
    let position = batch.read(&request.position, Source::Given)?;
    let setup = BatchSetup {
        limits: *limits,
        positions: Some(1),
        progress: control,
        notices: &mut |notice| control.tell(&notice),
        stop: Some(control.cancel_flag()),
    };
    let solver = batch.solver(bench, setup)?;
    let mut reports = solver.solve(std::slice::from_ref(&position), Some(control.watch()));
    reports
        .pop()
        .unwrap_or_else(|| Err(AppError::Check("a batch of one gave no report".into())))
}

/// Many positions solved under one request's options as one batch (`POST /api/solve-batch`,
/// Python's `solve_batch`). As JSON: every field of a [`SolveRequest`] but `position`, and
/// `positions`, the list.
#[derive(Debug, Clone)]
pub struct SolveBatchRequest {
    /// The options every position is solved under; its `position` is unused (empty).
    pub request: SolveRequest,
    /// The positions, each read as a request's `position` is.
    pub positions: Vec<String>,
}

/// The field of a batch request that lists its positions.
const POSITIONS: &str = "positions";
/// The field of a [`SolveRequest`] that a batch request leaves out.
const POSITION: &str = "position";

impl SolveBatchRequest {
    /// The request of one of its positions alone: its options with `position`.
    pub(crate) fn request_for(&self, position: &str) -> SolveRequest {
        SolveRequest {
            position: position.into(),
            ..self.request.clone()
        }
    }

    /// Reads a batch request from its JSON fields: `positions` taken out, the rest read as a
    /// [`SolveRequest`] without its `position`.
    fn from_fields(mut fields: serde_json::Map<String, Value>) -> Result<Self, String> {
        if fields.contains_key(POSITION) {
            return Err(format!(
                "unknown field `{POSITION}`: a batch lists its positions in `{POSITIONS}`"
            ));
        }
        let positions = fields.remove(POSITIONS);
        fields.insert(POSITION.into(), Value::String(String::new()));
        // Read by the request's own rules, so its fields, defaults and refusals are the same;
        // only the list of fields it names is the batch's.
        let request = SolveRequest::deserialize(Value::Object(fields)).map_err(|e| {
            e.to_string()
                .replace(&format!("`{POSITION}`"), &format!("`{POSITIONS}`"))
        })?;
        let positions = positions.ok_or_else(|| format!("missing field `{POSITIONS}`"))?;
        let positions = Vec::<String>::deserialize(positions)
            .map_err(|e| format!("{POSITIONS}: {e}: a list of positions, each a string"))?;
        Ok(SolveBatchRequest { request, positions })
    }
}

impl<'de> Deserialize<'de> for SolveBatchRequest {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let fields = serde_json::Map::deserialize(deserializer)?;
        SolveBatchRequest::from_fields(fields).map_err(D::Error::custom)
    }
}

impl JsonSchema for SolveBatchRequest {
    fn schema_name() -> Cow<'static, str> {
        "SolveBatchRequest".into()
    }

    /// The request's schema with `positions` for `position`.
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = SolveRequest::json_schema(generator);
        let list = generator.subschema_for::<Vec<String>>();
        if let Some(object) = schema.as_object_mut() {
            if let Some(Value::Object(properties)) = object.get_mut("properties") {
                properties.remove(POSITION);
                let mut list = serde_json::to_value(list).unwrap_or(Value::Null);
                list["description"] =
                    "The positions, each read as a solve request's `position` is.".into();
                properties.insert(POSITIONS.into(), list);
            }
            if let Some(Value::Array(required)) = object.get_mut("required") {
                for name in required.iter_mut().filter(|name| *name == POSITION) {
                    *name = POSITIONS.into();
                }
            }
            object.insert(
                "description".into(),
                "Many positions solved under one request's options as one batch: every field of a solve request but `position`, and `positions`.".into(),
            );
        }
        schema
    }
}
