//! The API described for machines: an OpenAPI 3.1 document, served at `/api/openapi.json`.
//! Its request and answer schemas are made from the very types the routes read and answer
//! (their doc comments become the descriptions), so they cannot drift from them; the server's
//! tests check its paths against the routes and its examples against the server.

use godsearch_app::batch::SolveBatchRequest;
use godsearch_app::report::{BfsReport, Scramble};
use godsearch_app::request::{
    BfsJob, Catalog, JobProgress, PdbJob, PdbReport, PuzzleEntry, Replay, ReplayRequest,
    ScrambleRequest, SolveReport, SolveRequest,
};
use schemars::generate::SchemaSettings;
use schemars::SchemaGenerator;
use serde_json::{json, Value};

/// Where the schemas of the document live, as a JSON pointer (OpenAPI's place for them).
const SCHEMAS: &str = "/components/schemas";

/// A reference to the schema named `name` under [`SCHEMAS`].
fn schema_ref(name: &str) -> Value {
    json!({ "$ref": format!("#{SCHEMAS}/{name}") })
}

/// The answer of a route: JSON of `schema`, with `description`.
fn answer(description: &str, schema: Value) -> Value {
    json!({
        "description": description,
        "content": { "application/json": { "schema": schema } },
    })
}

/// The refusals every route with a body may answer.
fn refusals() -> Value {
    let error = |why: &str| answer(why, schema_ref("Error"));
    json!({
        "400": error("bad input: the request's message in plain words, naming the field"),
        "413": error("a body over the server's --body-limit, or an answer over its --max-response"),
        "503": error("every job slot is taken and the waiting line is full; try again"),
    })
}

/// A `POST` route taking a JSON body of `request`, answering `status` with `answered` (or one
/// of the [`refusals`]).
fn post_route(summary: &str, request: Value, status: &str, answered: Value) -> Value {
    let mut responses = refusals();
    responses[status] = answered;
    json!({
        "post": {
            "summary": summary,
            "requestBody": {
                "required": true,
                "content": { "application/json": { "schema": request } },
            },
            "responses": responses,
        }
    })
}

/// A route that runs a request and answers its report (`POST /api/solve` and the like).
fn run_now(summary: &str, request: Value, report: Value, report_description: &str) -> Value {
    post_route(summary, request, "200", answer(report_description, report))
}

/// A route that starts the same request as a job (`POST /api/jobs/solve` and the like).
fn start_job(summary: &str, request: Value) -> Value {
    let started = answer(
        "the job started; follow it at its events or state",
        schema_ref("JobStarted"),
    );
    post_route(summary, request, "202", started)
}

/// The path parameter `id` of a job.
fn job_id() -> Value {
    json!([{
        "name": "id",
        "in": "path",
        "required": true,
        "description": "the job's number, as POST /api/jobs/... answered it",
        "schema": { "type": "integer", "minimum": 0 },
    }])
}

/// The schemas written here rather than derived: the small answers the server builds itself.
fn server_schemas(progress: Value) -> Value {
    json!({
        "Error": {
            "type": "object",
            "description": "A refusal or a failure.",
            "properties": { "error": { "type": "string", "description": "what is wrong, in plain words" } },
            "required": ["error"],
        },
        "Health": {
            "type": "object",
            "properties": {
                "status": { "const": "ok" },
                "running": { "type": "integer", "description": "jobs running, those stopping past their limit included" },
                "waiting": { "type": "integer", "description": "jobs waiting for a slot" },
                "max_jobs": { "type": "integer", "description": "jobs that run at once" },
            },
            "required": ["status", "running", "waiting", "max_jobs"],
        },
        "JobStarted": {
            "type": "object",
            "properties": {
                "id": { "type": "integer" },
                "kind": { "enum": ["solve", "solve-batch", "bfs", "scramble", "pdb"] },
                "events": { "type": "string", "description": "the path of its server-sent events" },
            },
            "required": ["id", "kind", "events"],
        },
        "JobDocument": {
            "type": "object",
            "description": "A job's state. Its server-sent events carry it too: `progress` events carry JobProgress every 250 ms, and the last event (`result`, `cancelled` or `error`) this document.",
            "properties": {
                "id": { "type": "integer" },
                "kind": { "enum": ["solve", "solve-batch", "bfs", "scramble", "pdb"] },
                "state": { "enum": ["running", "done", "error", "cancelled"] },
                "progress": progress,
                "result": { "description": "the report, as the route run at once answers it; a cancelled job's is what its work had (a search's lower bound, an enumeration's levels), or null" },
                "error": {
                    "oneOf": [
                        { "type": "null" },
                        {
                            "type": "object",
                            "properties": {
                                "status": { "type": "integer", "description": "the HTTP status the route run at once would answer" },
                                "error": { "type": "string" },
                            },
                            "required": ["status", "error"],
                        },
                    ],
                },
            },
            "required": ["id", "kind", "state", "progress", "result", "error"],
        },
        "Cancelled": {
            "type": "object",
            "properties": {
                "id": { "type": "integer" },
                "cancelled": { "type": "boolean", "description": "whether it was running (a finished job is left as it is)" },
            },
            "required": ["id", "cancelled"],
        },
    })
}

/// The OpenAPI document of every `/api` route.
pub fn document() -> Value {
    let mut generator: SchemaGenerator = SchemaSettings::draft2020_12()
        .with(|settings| settings.definitions_path = SCHEMAS.into())
        .into_generator();
    let schema = |value: schemars::Schema| serde_json::to_value(value).unwrap_or(Value::Null);
    let solve = schema(generator.subschema_for::<SolveRequest>());
    let solved = schema(generator.subschema_for::<SolveReport>());
    let batch = schema(generator.subschema_for::<SolveBatchRequest>());
    let batch_solved = schema(generator.subschema_for::<Vec<SolveReport>>());
    let bfs = schema(generator.subschema_for::<BfsJob>());
    let counted = schema(generator.subschema_for::<BfsReport>());
    let scramble = schema(generator.subschema_for::<ScrambleRequest>());
    let scrambled = schema(generator.subschema_for::<Vec<Scramble>>());
    let replay = schema(generator.subschema_for::<ReplayRequest>());
    let replayed = schema(generator.subschema_for::<Replay>());
    let pdb = schema(generator.subschema_for::<PdbJob>());
    let built = schema(generator.subschema_for::<PdbReport>());
    let catalog = schema(generator.subschema_for::<Catalog>());
    let entry = schema(generator.subschema_for::<PuzzleEntry>());
    let progress = schema(generator.subschema_for::<JobProgress>());
    let mut schemas = Value::Object(generator.take_definitions(true));
    if let (Value::Object(all), Value::Object(own)) = (&mut schemas, server_schemas(progress)) {
        all.extend(own);
    }

    let mut replay_route = run_now(
        "the positions a solution passes through",
        replay,
        replayed,
        "the start and the position after each move",
    );
    // A replay runs at once, never as a job: no 503.
    if let Some(responses) = replay_route["post"]["responses"].as_object_mut() {
        responses.remove("503");
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "godsearch",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Exhaustive and heuristic search on permutation puzzles. Requests are JSON bodies whose fields are named like the command line's options; answers are the JSON of `godsearch ... --json`. Heavy work runs as jobs under the server's limits; each route under /api/jobs starts one and answers at once.",
        },
        "paths": {
            "/api/health": { "get": {
                "summary": "whether the server answers, and its load",
                "responses": { "200": answer("the load", schema_ref("Health")) },
            }},
            "/api/puzzles": { "get": {
                "summary": "the puzzles, algorithms, heuristics and metrics on offer",
                "responses": { "200": answer("the catalog", catalog) },
            }},
            "/api/puzzles/{name}": {
                "parameters": [{
                    "name": "name", "in": "path", "required": true,
                    "description": "a puzzle name as a request gives it: `4x5`, `15-puzzle`, `pancake-12`, `skewb`",
                    "schema": { "type": "string" },
                }],
                "get": {
                    "summary": "the catalog entry of any puzzle a request may name, not only those the catalog lists",
                    "responses": {
                        "200": answer("its entry; `name` is the one requests use", entry),
                        "400": answer("no puzzle has that name, or it cannot be made (a board too large, a file named)", schema_ref("Error")),
                    },
                },
            },
            "/api/openapi.json": { "get": {
                "summary": "this document",
                "responses": { "200": { "description": "the OpenAPI document" } },
            }},
            "/api/solve": run_now("solves a position", solve.clone(), solved, "the solution report of `solve --json`"),
            "/api/solve-batch": run_now("solves a list of positions under one request's options as one batch (tables loaded or built once, the 3x3x3's two-phase on every core)", batch.clone(), batch_solved, "one report of `solve --json` a position, in order; a cancelled job's holds the positions finished"),
            "/api/bfs": run_now("enumerates a puzzle breadth-first from its goal", bfs.clone(), counted, "the report of `bfs --json`"),
            "/api/scramble": run_now("draws random positions", scramble.clone(), scrambled, "one `scramble --json` document a position"),
            "/api/replay": replay_route,
            "/api/pdb": run_now("loads or builds a partition's pattern databases into the cache", pdb.clone(), built, "each group's database: cached or built"),
            "/api/jobs/solve": start_job("starts a solve as a job", solve),
            "/api/jobs/solve-batch": start_job("starts a batch solve as a job", batch),
            "/api/jobs/bfs": start_job("starts an enumeration as a job", bfs),
            "/api/jobs/scramble": start_job("starts scrambles as a job", scramble),
            "/api/jobs/pdb": start_job("starts a database build as a job", pdb),
            "/api/jobs/{id}": {
                "parameters": job_id(),
                "get": {
                    "summary": "a job's state, progress and outcome",
                    "responses": {
                        "200": answer("the job", schema_ref("JobDocument")),
                        "404": answer("no such job (or long forgotten)", schema_ref("Error")),
                    },
                },
                "delete": {
                    "summary": "cancels a job: it stops at its engines' next look and ends in state cancelled, with what its work had",
                    "responses": {
                        "200": answer("cancelled", schema_ref("Cancelled")),
                        "404": answer("no such job", schema_ref("Error")),
                    },
                },
            },
            "/api/jobs/{id}/events": {
                "parameters": job_id(),
                "get": {
                    "summary": "server-sent events: `progress` (JobProgress) until `result`, `cancelled` or `error` (JobDocument)",
                    "responses": {
                        "200": { "description": "an event stream", "content": { "text/event-stream": { "schema": { "type": "string" } } } },
                        "404": answer("no such job", schema_ref("Error")),
                    },
                },
            },
        },
        "components": { "schemas": schemas },
    })
}
