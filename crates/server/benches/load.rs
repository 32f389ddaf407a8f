//! Load run of the HTTP API on loopback (`cargo bench -p godsearch-server --bench load`):
//! 200 concurrent solve requests of uniform random 8-puzzle boards, then 20 concurrent
//! requests of Korf's first 20 instances with the 7-8 pattern databases, each request a
//! thread of its own, while a watcher asks `/api/health` every 10 ms. Prints throughput and
//! p50/p99 latency per phase and the health checks' count, failures and slowest answer.
//! Every solution's length is checked (31 or less; Korf's published optimum).
//!
//! The server runs as `godsearch serve` would: one job a core, the rest waiting. The 7-8
//! databases come from the cache (`GODSEARCH_CACHE`, else the command line's cache folder);
//! the first run builds them (about a minute, reported apart).

#[path = "../tests/common/mod.rs"]
mod common;

use godsearch_app::request::{JobLimits, TableSize};
use godsearch_server::ServerOptions;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const EIGHT_PUZZLE_REQUESTS: usize = 200;
const KORF_REQUESTS: usize = 20;
const HEALTH_EVERY: Duration = Duration::from_millis(10);
/// No request may take longer: the run is bounded in time as in count.
const REQUEST_LIMIT: Duration = Duration::from_secs(600);

fn agent() -> ureq::Agent {
    common::agent(REQUEST_LIMIT)
}

fn post(base: &str, path: &str, body: &Value) -> (u16, Value) {
    common::post(&agent(), base, path, body)
}

fn start(cache: PathBuf) -> String {
    let max_jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let options = ServerOptions {
        max_jobs,
        max_waiting: 1024,
        limits: JobLimits {
            memory_bytes: 8 << 30,
            max_nodes: None,
            max_seconds: Some(REQUEST_LIMIT),
            largest_table: TableSize::Small,
            max_scrambles: 1000,
            definition_files: false,
        },
        wall_limit: Some(REQUEST_LIMIT),
        body_limit: 1 << 16,
        max_connections: godsearch_server::MAX_CONNECTIONS,
        header_read_timeout: godsearch_server::HEADER_READ_TIMEOUT,
        max_response: godsearch_server::MAX_RESPONSE,
    };
    common::start(options, cache)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let rank = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[rank]
}

/// Sends every request at once, one thread each; checks each answer with `check`; prints the
/// phase's figures.
fn phase(base: &str, name: &str, requests: Vec<Value>, check: impl Fn(usize, &Value) + Sync) {
    let started = Instant::now();
    let latencies = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for (i, request) in requests.iter().enumerate() {
            let (latencies, check) = (&latencies, &check);
            scope.spawn(move || {
                let sent = Instant::now();
                let (status, answer) = post(base, "/api/solve", request);
                let seconds = sent.elapsed().as_secs_f64();
                assert_eq!(status, 200, "{name} request {i}: {answer}");
                check(i, &answer);
                latencies.lock().unwrap().push(seconds);
            });
        }
    });
    let wall = started.elapsed().as_secs_f64();
    let mut latencies = latencies.into_inner().unwrap();
    latencies.sort_by(f64::total_cmp);
    println!(
        "{name:<28} {:>4} requests in {wall:>7.2} s: {:>8.1} requests/s, latency p50 {:>8.1} ms, p99 {:>8.1} ms, max {:>8.1} ms",
        latencies.len(),
        latencies.len() as f64 / wall,
        1e3 * percentile(&latencies, 0.5),
        1e3 * percentile(&latencies, 0.99),
        1e3 * latencies.last().copied().unwrap_or(0.0),
    );
}

fn main() {
    let cache = std::env::var_os("GODSEARCH_CACHE")
        .map(PathBuf::from)
        .or_else(|| dirs::cache_dir().map(|d| d.join("godsearch")))
        .unwrap_or_else(|| PathBuf::from(".godsearch-cache"));
    let base = start(cache.clone());
    println!("server at {base}, cache {}", cache.display());

    // The health watcher, all through the run.
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = {
        let (base, stop) = (base.clone(), Arc::clone(&stop));
        std::thread::spawn(move || {
            let (mut checks, mut failures, mut slowest) = (0u64, 0u64, 0f64);
            while !stop.load(Ordering::Relaxed) {
                let sent = Instant::now();
                let healthy = agent()
                    .get(&format!("{base}/api/health"))
                    .call()
                    .ok()
                    .filter(|r| r.status().as_u16() == 200)
                    .is_some();
                slowest = slowest.max(sent.elapsed().as_secs_f64());
                checks += 1;
                failures += u64::from(!healthy);
                std::thread::sleep(HEALTH_EVERY);
            }
            (checks, failures, slowest)
        })
    };

    // The 7-8 databases, loaded or built once before the clock starts.
    let korf = godsearch_testdata::rows("korf100.txt");
    let blank_first: String = (0..16).map(|t| t.to_string()).collect::<Vec<_>>().join(",");
    let korf_request = |row: &Vec<String>| {
        json!({"puzzle": "4x4", "position": row[2..].join(","), "goal": blank_first,
               "algorithm": "ida", "heuristic": "pdb", "pdb": "7-8"})
    };
    let warm = Instant::now();
    let (status, first) = post(&base, "/api/solve", &korf_request(&korf[0]));
    assert_eq!(status, 200, "{first}");
    println!(
        "7-8 databases loaded or built and Korf #1 solved in {:.2} s",
        warm.elapsed().as_secs_f64()
    );

    let (_, boards) = post(
        &base,
        "/api/scramble",
        &json!({"puzzle": "3x3", "count": EIGHT_PUZZLE_REQUESTS, "seed": 2026}),
    );
    let eight: Vec<Value> = boards
        .as_array()
        .expect("a list")
        .iter()
        .map(|b| json!({"puzzle": "3x3", "position": b["position"], "algorithm": "ida", "heuristic": "linear-conflict"}))
        .collect();
    phase(&base, "8-puzzle, IDA* + LC", eight, |_, answer| {
        assert!(answer["length"].as_u64().unwrap() <= 31);
        assert_eq!(answer["optimal"], json!(true));
    });

    let rows = &korf[..KORF_REQUESTS];
    let requests = rows.iter().map(korf_request).collect();
    phase(&base, "Korf 1-20, IDA* + 7-8 PDB", requests, |i, answer| {
        let expected: u64 = rows[i][1].parse().unwrap();
        assert_eq!(
            answer["length"].as_u64().unwrap(),
            expected,
            "Korf #{}",
            i + 1
        );
    });

    stop.store(true, Ordering::Relaxed);
    let (checks, failures, slowest) = watcher.join().unwrap();
    println!(
        "health checks during the run: {checks}, failed {failures}, slowest {:.1} ms",
        1e3 * slowest
    );
    assert_eq!(failures, 0, "the server stopped answering its health check");
}
