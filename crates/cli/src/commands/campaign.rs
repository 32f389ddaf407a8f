//! `solve --checkpoint FILE` over many boards (`--file`, or several given): a campaign, such
//! as Korf and Felner's fifty 24-puzzle boards searched a few hours at a time. FILE keeps, for
//! each board met, the bound proved and the subtrees finished of the iteration under way (as
//! [`super::checkpoint`] keeps one board's), and once it is solved its report; it is rewritten
//! whole whenever one of them moves forward. The same command with the same FILE continues:
//! a board solved is not searched again (its report, kept in FILE, is printed in its place),
//! the others resume from where FILE has them, so `--timeout` may be raised from one run to
//! the next.

use super::checkpoint::{self, ChosenWay, Expanded, Search, Standing};
use crate::args::SolveArgs;
use crate::errors::{bad_input, InputError};
use crate::input::Batch as Positions;
use crate::output::errln;
use anyhow::{Context, Result};
use godsearch_app::batch::Source;
use godsearch_app::progress::{SearchedSubtrees, Watch};
use godsearch_app::report::SearchWay;
use godsearch_app::request::{SolveReport, SolveRequest};
use godsearch_app::AppResult;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::{Mutex, PoisonError};

/// What names the format in a campaign file.
const FORMAT: &str = checkpoint::CAMPAIGN_FORMAT;

/// A campaign file: the search its boards share and where each stands.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Campaign {
    format: String,
    search: Search,
    boards: Vec<Kept>,
}

/// Where one board of a campaign stands.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Kept {
    /// The board as given: an argument, or the file's line (with its id and length).
    position: String,
    /// Every solution has at least this many moves (0 before its first search).
    lower_bound: u32,
    /// The subtrees finished of the iteration of `lower_bound` (`--resume-subtrees`).
    resume_subtrees: Option<String>,
    /// Its report once solved, as `solve --json` prints it.
    solved: Option<serde_json::Value>,
    /// The nodes of its iteration under way and the two before, for the next run's estimate
    /// (absent from files written before they were kept, and once solved).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    expanded: Option<Expanded>,
    /// With --probe: the way the probes chose for it, which its token belongs to and the
    /// next run goes on with (absent before the choice, and without probes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    chosen_way: Option<SearchWay>,
}

/// One board's search: the request (resumed where the campaign has it), the board's text and
/// where it was read, and the watch that follows it; the report, or why the board could not
/// be searched.
pub type SolveOne<'a> =
    dyn FnMut(&SolveRequest, &str, Source, &Watch) -> Result<AppResult<SolveReport>> + 'a;

/// Searches `positions` (texts and where each was read) as `base` asks, one at a time,
/// keeping the campaign in `path` (see the module docs); each report goes to `emit`.
pub fn run(
    path: &Path,
    args: &SolveArgs,
    base: &SolveRequest,
    positions: Positions<'_, (String, Source)>,
    solve_one: &mut SolveOne<'_>,
    emit: &mut dyn FnMut(SolveReport) -> Result<()>,
) -> Result<()> {
    checkpoint::check_algorithm(args)?;
    if args.resume_from.is_some() {
        bad_input!(
            "--checkpoint over several boards keeps each board's bound itself: leave out \
             --resume-from and --resume-subtrees"
        );
    }
    let campaign = Mutex::new(open(path, args)?);
    let shown = path.display().to_string();
    crate::interrupt::on_interrupt(Box::new(move || {
        checkpoint::last_look();
        errln!("interrupted: {shown} keeps where each board stands; the same command continues")
    }));
    for item in positions.items {
        let (text, source) = item?;
        let lock = || campaign.lock().unwrap_or_else(PoisonError::into_inner);
        let (index, kept) = {
            let mut c = lock();
            let index = match c.boards.iter().position(|b| b.position == text) {
                Some(i) => i,
                None => {
                    c.boards.push(Kept {
                        position: text.clone(),
                        lower_bound: 0,
                        resume_subtrees: None,
                        solved: None,
                        expanded: None,
                        chosen_way: None,
                    });
                    c.boards.len() - 1
                }
            };
            (index, c.boards[index].clone())
        };
        if let Some(report) = &kept.solved {
            emit(checkpoint::kept_report(
                path,
                &text,
                report,
                base.goal.as_deref(),
            )?)?;
            continue;
        }
        let mut request = match &kept.chosen_way {
            Some(way) => way.applied_to(base),
            None => base.clone(),
        };
        if kept.lower_bound > 0 {
            request.resume_from = Some(kept.lower_bound);
            request.resume_subtrees = kept.resume_subtrees.clone();
        }
        let from: Standing = (
            kept.lower_bound,
            checkpoint::finished(kept.resume_subtrees.as_deref())
                .map_err(|e| InputError(format!("checkpoint {}: {e}", path.display())))?,
        );
        let watch = Watch::default();
        if let (Some(expanded), true) = (kept.expanded, kept.lower_bound > 0) {
            let partly_done = kept.resume_subtrees.is_some();
            watch.resume_iteration(expanded.resumed(kept.lower_bound, partly_done));
        }
        let chosen_way = ChosenWay::new(args, kept.chosen_way.clone());
        let keep = |lower_bound, searched: Option<SearchedSubtrees>| {
            let mut c = lock();
            let board = &mut c.boards[index];
            board.chosen_way = chosen_way.of(&watch);
            board.lower_bound = lower_bound;
            board.resume_subtrees = searched.map(|s| s.to_string());
            board.expanded = Some(Expanded::of(&watch));
            checkpoint::write(path, &*c)
        };
        let solved = checkpoint::follow(&watch, from, keep, || {
            solve_one(&request, &text, source, &watch)
        });
        let report = solved
            .and_then(|report| match report {
                Err(e) if e.refused_resume_subtrees() && from.1 > 0 => {
                    Err(checkpoint::token_refused(&e, path, from.0))
                }
                report => Ok(report?),
            })
            .with_context(|| format!("board «{text}»"))?;
        {
            let settled = checkpoint::Settled::of(&report)?;
            let mut c = lock();
            let board = &mut c.boards[index];
            board.lower_bound = settled.lower_bound.unwrap_or(board.lower_bound);
            board.resume_subtrees = settled.resume_subtrees;
            board.chosen_way = chosen_way.of(&watch);
            if settled.solved.is_some() {
                board.expanded = None;
                board.chosen_way = None;
            }
            board.solved = settled.solved;
            // Unkept, the report is printed all the same.
            checkpoint::Unkept::default().check(checkpoint::write(path, &*c));
        }
        emit(report)?;
    }
    Ok(())
}

/// The campaign kept in `path` for the search `args` ask for, or a new one where there is no
/// file yet; refused when it was kept for another search or cannot be read.
fn open(path: &Path, args: &SolveArgs) -> Result<Campaign> {
    let search = Search::of(args, None);
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            checkpoint::check_writable(path)?;
            return Ok(Campaign {
                format: FORMAT.into(),
                search,
                boards: Vec::new(),
            });
        }
        Err(e) => return Err(anyhow::Error::new(e).context(format!("reading {}", path.display()))),
    };
    let refused = |why: String| anyhow::anyhow!("checkpoint {}: {why}", path.display());
    let kept: Campaign = checkpoint::read_kept(&text, FORMAT).map_err(refused)?;
    if !kept.search.is(&search) {
        return Err(refused(format!(
            "kept for another search ({}); give another file, or the options it was kept for",
            serde_json::to_string(&kept.search)?
        )));
    }
    Ok(kept)
}
