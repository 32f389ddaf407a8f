//! Reading the text files users name (`--file`, `--korf`): only regular files, so that a
//! device such as /dev/zero (endless) or a FIFO (waits for a writer) is refused with a message
//! instead of filling memory or hanging; `-` names standard input, read to its end.

use anyhow::{bail, Context, Result};
use std::io::Read;
use std::path::Path;

/// Names standard input where a file is asked for.
pub const STDIN: &str = "-";

/// The whole text of the regular file at `path`, or of standard input for `-`.
pub fn read_text_file(path: &Path) -> Result<String> {
    if path.as_os_str() == STDIN {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
        return Ok(text);
    }
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
