//! Reads the published reference figures in `shared/data` (beside the repository root) for
//! the tests of every crate. Test-only: panics with a clear message when a file is missing.

use std::path::PathBuf;

/// The `shared/data` folder: `$GODSEARCH_SHARED_DATA` if set, else `../shared/data` from the
/// repository root.
pub fn data_dir() -> PathBuf {
    std::env::var_os("GODSEARCH_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"))
}

/// The whitespace-separated rows of a data file, `#` comment lines skipped.
pub fn rows(file: &str) -> Vec<Vec<String>> {
    let path = data_dir().join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reference data {} unreadable: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// Positions at each distance from a `distance count` file, checked to be in order from 0.
pub fn levels(file: &str) -> Vec<u64> {
    rows(file)
        .iter()
        .enumerate()
        .map(|(i, row)| {
            assert_eq!(
                row[0].parse::<usize>().ok(),
                Some(i),
                "{file}: distances must run 0, 1, 2, ..."
            );
            row[1]
                .parse()
                .unwrap_or_else(|_| panic!("{file}: bad count {}", row[1]))
        })
        .collect()
}
