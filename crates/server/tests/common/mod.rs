//! What the API tests and the load bench share: a server on a free loopback port and a
//! blocking JSON client.

#![allow(dead_code)] // each test binary uses its own part

use godsearch_app::cache::TableCache;
use godsearch_app::request::Workbench;
use godsearch_server::{serve_blocking, ServerOptions};
use serde_json::Value;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// A server with `options` and its tables cached in `cache`, on a free loopback port, running
/// for the rest of the process; its base URL.
pub fn start(options: ServerOptions, cache: PathBuf) -> String {
    let workbench = Arc::new(Workbench::new(TableCache::new(cache)));
    let (sender, receiver) = mpsc::channel::<SocketAddr>();
    std::thread::spawn(move || {
        let any_port = SocketAddr::from(([127, 0, 0, 1], 0));
        serve_blocking(any_port, workbench, options, |addr| {
            sender.send(addr).expect("the caller waits for the address")
        })
        .expect("the server runs");
    });
    let addr = receiver
        .recv_timeout(Duration::from_secs(10))
        .expect("the server starts");
    format!("http://{addr}")
}

/// A client that reads error statuses as answers, each request within `limit`.
pub fn agent(limit: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(limit))
        .build()
        .into()
}

/// The status and JSON answer of a finished request.
fn answer(response: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> (u16, Value) {
    let mut response = response.expect("the server answers");
    let status = response.status().as_u16();
    (
        status,
        response.body_mut().read_json().expect("a JSON answer"),
    )
}

/// POSTs `body` as JSON.
pub fn post(agent: &ureq::Agent, base: &str, path: &str, body: &Value) -> (u16, Value) {
    answer(agent.post(&format!("{base}{path}")).send_json(body))
}

/// GETs `path`.
pub fn get(agent: &ureq::Agent, base: &str, path: &str) -> (u16, Value) {
    answer(agent.get(&format!("{base}{path}")).call())
}

/// DELETEs `path`.
pub fn delete(agent: &ureq::Agent, base: &str, path: &str) -> (u16, Value) {
    answer(agent.delete(&format!("{base}{path}")).call())
}
