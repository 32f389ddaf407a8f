//! The HTTP API's request bodies: any bytes sent to `/api/solve`, `/api/bfs`,
//! `/api/scramble`, `/api/pdb` or `/api/replay` are read as the server reads them (serde JSON
//! into the app crate's request types), then put through the checks the server runs on its
//! request threads before a job is accepted (`Precheck`), and a replay is played out as the
//! server plays it. Each is answered or refused with a message, never a panic.
#![no_main]
use godsearch_app::request::{
    replay, BfsJob, JobLimits, PdbJob, Precheck, ReplayRequest, ScrambleRequest, SolveRequest,
    TableSize,
};
use libfuzzer_sys::fuzz_target;
use std::time::Duration;

/// The server's defaults (`godsearch serve`), with no definition files read.
fn limits() -> JobLimits {
    JobLimits {
        memory_bytes: 1 << 30,
        max_nodes: None,
        max_seconds: Some(Duration::from_secs(60)),
        largest_table: TableSize::Small,
        max_scrambles: 100,
        definition_files: false,
    }
}

fn check<T: serde::de::DeserializeOwned + Precheck>(bytes: &[u8], limits: &JobLimits) {
    if let Ok(request) = serde_json::from_slice::<T>(bytes) {
        if let Err(e) = request.precheck(limits) {
            assert!(!e.to_string().is_empty(), "a refusal says why");
        }
    }
}

fuzz_target!(|bytes: &[u8]| {
    let limits = limits();
    check::<SolveRequest>(bytes, &limits);
    check::<BfsJob>(bytes, &limits);
    check::<ScrambleRequest>(bytes, &limits);
    check::<PdbJob>(bytes, &limits);
    if let Ok(request) = serde_json::from_slice::<ReplayRequest>(bytes) {
        if let Err(e) = replay(&request) {
            assert!(!e.to_string().is_empty(), "a refusal says why");
        }
    }
});
