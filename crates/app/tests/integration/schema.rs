//! `docs/report.schema.json` says what the report types say (the command-line tests check
//! every JSON document they read against it).

use godsearch_app::report::json_schema;
use std::path::PathBuf;

/// Set to rewrite the committed schema from the types.
const WRITE: &str = "GODSEARCH_WRITE_SCHEMA";

fn schema_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/report.schema.json")
}

#[test]
fn the_committed_schema_is_the_one_the_types_give() {
    let expected = serde_json::to_string_pretty(&json_schema()).unwrap() + "\n";
    if std::env::var_os(WRITE).is_some() {
        std::fs::write(schema_path(), &expected).unwrap();
    }
    let committed = std::fs::read_to_string(schema_path()).unwrap_or_default();
    assert!(
        committed == expected,
        "docs/report.schema.json is out of date; rewrite it with \
         {WRITE}=1 cargo test --release -p godsearch-app --test integration schema"
    );
}
