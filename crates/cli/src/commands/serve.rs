//! `godsearch serve`: the web page and the HTTP API ([`godsearch_server`]), with the limits
//! read from the command line and the cache folder chosen here.

use crate::args::ServeArgs;
use crate::errors::bad_input;
use crate::output::errln;
use crate::{cache, machine};
use anyhow::{Context, Result};
use godsearch_app::registry::definition::OfferedKind;
use godsearch_app::request::{optimal_table_size, JobLimits, Workbench};
use godsearch_server::{serve_blocking, ServerOptions};
use std::sync::Arc;

pub fn run(args: &ServeArgs) -> Result<()> {
    let max_jobs = match args.max_jobs {
        Some(n) => n as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let largest_table = optimal_table_size(Some(&args.max_table))?;
    let Ok(body_limit) = usize::try_from(args.body_limit) else {
        bad_input!("--body-limit {} is too large", args.body_limit);
    };
    let job_memory = args
        .job_memory
        .unwrap_or_else(|| machine::default_memory_budget() / max_jobs as u64);
    let options = ServerOptions {
        max_jobs,
        max_waiting: args.max_waiting as usize,
        limits: JobLimits {
            memory_bytes: job_memory,
            max_nodes: Some(args.job_nodes),
            max_seconds: Some(args.job_timeout),
            largest_table,
            max_scrambles: args.max_scrambles,
            definition_files: false,
        },
        wall_limit: Some(args.job_timeout),
        body_limit,
        max_connections: godsearch_server::MAX_CONNECTIONS,
        header_read_timeout: godsearch_server::HEADER_READ_TIMEOUT,
        max_response: usize::try_from(args.max_response).unwrap_or(usize::MAX),
    };
    let offered = OfferedKind::register(&args.definitions)?;
    let workbench = Arc::new(Workbench::new(cache::open(args.cache.as_deref())));
    serve_blocking(args.addr, workbench, options, |addr| {
        errln!(
            "godsearch serving on http://{addr} ({max_jobs} jobs at once, {} s and {} each; Ctrl-C stops)",
            args.job_timeout.as_secs_f64(),
            godsearch_app::units::format_bytes(job_memory as f64)
        );
        if !offered.is_empty() {
            errln!("offering {}", offered.join(", "));
        }
    })
    .with_context(|| format!("serving on {}", args.addr))
}
