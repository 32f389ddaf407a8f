//! `godsearch completions` and `godsearch man`: shell completions and the manual page, made
//! from the same clap definitions as `--help`, so they never disagree with it.

use crate::args::Cli;
use crate::output::outln;
use anyhow::{Context, Result};
use clap::CommandFactory;
use clap_complete::Shell;

/// The name the scripts complete.
const BINARY: &str = "godsearch";

/// Prints the completion script for `shell`.
pub fn completions(shell: Shell) -> Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), BINARY, &mut script);
    print(script)
}

/// Prints the manual page in roff.
pub fn man() -> Result<()> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .context("writing the manual page")?;
    print(page)
}

/// Prints generated text through the one stdout writer (a closed pipe ends quietly).
fn print(bytes: Vec<u8>) -> Result<()> {
    let text = String::from_utf8(bytes).context("the generated text is not UTF-8")?;
    outln!("{}", text.trim_end());
    Ok(())
}
