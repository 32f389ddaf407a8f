//! Reading the text files users name (`--file`, `--korf`): only regular files, so that a
//! device such as /dev/zero (endless) or a FIFO (waits for a writer) is refused with a message
//! instead of filling memory or hanging; `-` names standard input, read to its end.

use crate::errors::InputError;
use anyhow::{bail, Context, Result};
use std::io::{BufRead, Read};
use std::path::Path;

/// Names standard input where a file is asked for.
pub const STDIN: &str = "-";

/// How messages name the file at `path`: `standard input` for [`STDIN`].
pub fn shown(path: &Path) -> std::borrow::Cow<'_, str> {
    match path.as_os_str() == STDIN {
        true => "standard input".into(),
        false => path.to_string_lossy(),
    }
}

/// The whole text of the regular file at `path`, or of standard input for `-`.
pub fn read_text_file(path: &Path) -> Result<String> {
    if path.as_os_str() == STDIN {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
        return Ok(text);
    }
    check_regular(path)?;
    std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}

/// Refuses a path that is not a regular file (a device, a FIFO, a folder) with what it is.
fn check_regular(path: &Path) -> Result<()> {
    let meta = std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
    if !meta.is_file() {
        bail!(
            "{}: is {}, not a text file",
            path.display(),
            godsearch_app::tables::file::kind_of(&meta)
        );
    }
    Ok(())
}

/// The longest line a streamed file may have: a board of 30x30 written out, many times over.
const MAX_LINE_BYTES: u64 = 1 << 20;

/// The lines of a regular file or of standard input (`-`), read one at a time in constant
/// memory (a batch from `yes BOARD | godsearch solve 3x3 --file -` solves as it reads): each
/// non-blank line that is not a `#` comment, trimmed, with its line number.
pub struct Lines {
    reader: Box<dyn BufRead>,
    path: std::path::PathBuf,
    number: usize,
    line: String,
    /// Whether `#` comment lines are given too.
    pub comments: bool,
    /// Whether a `#` line declaring a goal is refused (standard input read where no goal is
    /// set: see [`board_lines`]).
    refuse_declarations: bool,
}

/// The lines of `path` (see [`Lines`]), refusing what is not a regular file as
/// [`read_text_file`] does.
pub fn lines(path: &Path) -> Result<Lines> {
    let reader: Box<dyn BufRead> = match path.as_os_str() == STDIN {
        true => Box::new(std::io::BufReader::new(std::io::stdin())),
        false => {
            check_regular(path)?;
            let file =
                std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
            Box::new(std::io::BufReader::new(file))
        }
    };
    Ok(Lines {
        reader,
        path: path.to_path_buf(),
        number: 0,
        line: String::new(),
        comments: false,
        refuse_declarations: false,
    })
}

/// The lines of boards (or of claims about them) in `path`, as [`lines`] gives them, but for
/// standard input where no goal is set (`goal_set`: `--goal`, or a named file's declaration,
/// read ahead by [`goal_for`](crate::declared_goal::goal_for)): there a line declaring a goal
/// is refused ([`refuse_unread`](crate::declared_goal::refuse_unread)), since standard input
/// is read only as it comes and its boards would otherwise be read for the default goal.
pub fn board_lines(path: &Path, goal_set: bool) -> Result<Lines> {
    let mut lines = lines(path)?;
    lines.refuse_declarations = path.as_os_str() == STDIN && !goal_set;
    Ok(lines)
}

/// How many lines [`lines`] will give for a regular file, each made an item by `read` and
/// dropped (read once, in constant memory), so that a bad line is refused before any table is
/// built for the rest (a 5x5 board's databases take minutes); `None` for standard input,
/// which can be read only once, and whose lines are refused when they are reached.
fn read_through<T>(path: &Path, read: &impl Fn(&str) -> Result<T>) -> Result<Option<usize>> {
    if path.as_os_str() == STDIN {
        return Ok(None);
    }
    let mut count = 0;
    for line in lines(path)? {
        let (number, line) = line?;
        read(&line).with_context(|| format!("{} line {number}", path.display()))?;
        count += 1;
    }
    Ok(Some(count))
}

impl Iterator for Lines {
    type Item = Result<(usize, String)>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            self.line.clear();
            self.number += 1;
            let read = (&mut self.reader)
                .take(MAX_LINE_BYTES + 1)
                .read_line(&mut self.line);
            match read {
                Ok(0) => return None,
                Ok(_) if self.line.len() as u64 > MAX_LINE_BYTES => {
                    return Some(Err(anyhow::anyhow!(
                        "{} line {}: longer than {MAX_LINE_BYTES} bytes",
                        shown(&self.path),
                        self.number
                    )))
                }
                Ok(_) => {}
                Err(e) => {
                    return Some(Err(anyhow::Error::new(e).context(format!(
                        "reading {} line {}",
                        shown(&self.path),
                        self.number
                    ))))
                }
            }
            let line = self.line.trim();
            let comment = line.starts_with('#');
            if comment && self.refuse_declarations {
                if let Err(e) = crate::declared_goal::refuse_unread(self.number, line) {
                    return Some(Err(e));
                }
            }
            if !line.is_empty() && (self.comments || !comment) {
                return Some(Ok((self.number, line.to_string())));
            }
        }
    }
}

/// Items to work through: those given as arguments, then a file's lines as they are read.
pub struct Batch<'a, T> {
    /// How many, when that is known (not for standard input).
    pub total: Option<usize>,
    /// The items, each read when it is reached.
    pub items: Box<dyn Iterator<Item = Result<T>> + 'a>,
}

/// `given`, then the lines of `file` (if any) as [`lines`] reads them, each made an item by
/// `read` (its text), errors naming the file and line; refused when it is known to hold
/// nothing, in words saying what (`boards`). A regular file is read through first, so that a
/// bad line anywhere in it is refused here, before any work. Where no goal is set
/// (`goal_set`), a `# goal:` line met on standard input is refused ([`board_lines`]).
pub fn batch<'a, T: 'a>(
    given: Vec<T>,
    file: Option<&'a Path>,
    goal_set: bool,
    what: &str,
    read: impl Fn(&str) -> Result<T> + 'a,
) -> Result<Batch<'a, T>> {
    let mut total = Some(given.len());
    let from_file: Box<dyn Iterator<Item = Result<T>> + 'a> = match file {
        None => Box::new(std::iter::empty()),
        Some(path) => {
            total = read_through(path, &read)?.and_then(|n| total.map(|t| t + n));
            let lines = board_lines(path, goal_set)?;
            Box::new(lines.map(move |line| {
                let (number, line) = line?;
                read(&line).with_context(|| format!("{} line {number}", shown(path)))
            }))
        }
    };
    if total == Some(0) {
        return Err(InputError(format!("no {what} to solve")).into());
    }
    Ok(Batch {
        total,
        items: Box::new(given.into_iter().map(Ok).chain(from_file)),
    })
}
