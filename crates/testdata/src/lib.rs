//! Reads the published reference figures in the repository's `data/` folder (each file names
//! its source; see `data/README.md`) for the tests of every crate, so that a clone alone
//! passes its tests, and damages table files for the tests that check a damaged one is
//! caught. Test-only: panics with a clear message when a file is missing.

use std::path::PathBuf;

/// The repository's `data/` folder.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data")
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

/// Column `column` of the first `count` rows of `file`, as numbers.
pub fn column(file: &str, column: usize, count: usize) -> Vec<u64> {
    rows(file)
        .iter()
        .take(count)
        .map(|row| {
            row[column]
                .parse()
                .unwrap_or_else(|_| panic!("{file}: bad number {}", row[column]))
        })
        .collect()
}

/// Damages the largest file in `dir` (one byte flipped in its middle), for tests that check a
/// damaged table is caught.
pub fn damage_largest_file(dir: &std::path::Path) {
    let largest = std::fs::read_dir(dir)
        .expect("a folder")
        .map(|e| e.expect("an entry").path())
        .max_by_key(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
        .expect("a file");
    let mut bytes = std::fs::read(&largest).expect("readable");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x5a;
    std::fs::write(&largest, bytes).expect("writable");
}
