//! Reading the text files users name (`--file`, `--korf`): only regular files, so that a
//! device such as /dev/zero (endless) or a FIFO (waits for a writer) is refused with a message
//! instead of filling memory or hanging.

use anyhow::{bail, Context, Result};
use std::path::Path;

/// The whole text of the regular file at `path`.
pub fn read_text_file(path: &Path) -> Result<String> {
    let meta = std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
    if !meta.is_file() {
        bail!(
            "{}: is {}, not a text file",
            path.display(),
            godsearch_tables::file::kind_of(&meta)
        );
    }
    std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}
