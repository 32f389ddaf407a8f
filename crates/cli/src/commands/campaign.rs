//! `solve --checkpoint FILE` over many boards (`--file`, or several given): a campaign, such
//! as Korf and Felner's fifty 24-puzzle boards searched a few hours at a time. FILE keeps, for
//! each board met, the bound proved and the subtrees finished of the iteration under way (as
//! [`super::checkpoint`] keeps one board's), and once it is solved its report; it is rewritten
//! whole whenever one of them moves forward. The same command with the same FILE continues:
//! a board solved is not searched again (its report, kept in FILE, is printed in its place),
//! the others resume from where FILE has them, so `--timeout` may be raised from one run to
//! the next. The boards take their turns round: a run begins with the board the run before
//! was stopped in (or began its last whole round with) and goes on round to it, so that runs
//! shorter than a round still reach every board.
//!
//! With `--probe` and `--both-ways`, a board's first turn probes its forwards ways only: the
//! backwards ways need the board's own databases, minutes of builds that the boards solved in
//! their first turn never pay. A board that outlasts it has the backwards ways probed in its
//! next turn, against the way first chosen, which goes on with its finished subtrees unless
//! another way is clearly better (`SWITCH_MARGIN` times fewer nodes, in the search crate).
//! A campaign begun with probes forwards goes on so when `--both-ways` is added.

use super::checkpoint::{self, ChosenWay, Clock, Expanded, Search, Standing, Timed};
use crate::args::SolveArgs;
use crate::errors::{bad_input, InputError};
use crate::input::Batch as Positions;
use crate::output::errln;
use anyhow::{Context, Result};
use godsearch_app::batch::Source;
use godsearch_app::progress::{SearchedSubtrees, Watch};
use godsearch_app::registry::tiles::ways::probe_ways;
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
pub(super) struct Campaign {
    format: String,
    pub(super) search: Search,
    pub(super) boards: Vec<Kept>,
    /// The board the next run begins with: the one whose turn is under way (so a run stopped
    /// in it goes on there), or after a whole round the one this round began with (absent
    /// from files written before it was kept: the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) next: Option<String>,
}

/// Where one board of a campaign stands.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Kept {
    /// The board as given: an argument, or the file's line (with its id and length).
    pub(super) position: String,
    /// Every solution has at least this many moves (0 before its first search).
    pub(super) lower_bound: u32,
    /// The subtrees finished of the iteration of `lower_bound` (`--resume-subtrees`).
    pub(super) resume_subtrees: Option<String>,
    /// Its report once solved, as `solve --json` prints it.
    pub(super) solved: Option<serde_json::Value>,
    /// The nodes of its iteration under way and the two before, for the next run's estimate
    /// (absent from files written before they were kept, and once solved).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) expanded: Option<Expanded>,
    /// With --probe: the way the probes chose for it, which its token belongs to and the
    /// next run goes on with (absent before the choice, and without probes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) chosen_way: Option<SearchWay>,
    /// With --both-ways and --probe: whether the backwards ways were probed against the way
    /// its first turn chose (see the module docs).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    backwards_probed: bool,
    /// The time its turns took (absent from files written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) timed: Option<Timed>,
}

impl Kept {
    /// What this board's next turn searches, for a campaign of `base`: the way its probes
    /// chose, or the ways to probe (the backwards ones in the turn after the first where
    /// `base` probes both directions, see the module docs), resumed where the file has it;
    /// and the way it goes on with if it searches one alone.
    fn next_turn(&self, base: &SolveRequest) -> (SolveRequest, Option<SearchWay>) {
        let staged = base.both_ways && base.probe.is_some();
        let (mut request, alone) = match (&self.chosen_way, staged) {
            (None, true) => {
                let forwards: Vec<SearchWay> = probe_ways(base)
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|w| !w.reverse)
                    .collect();
                match &forwards[..] {
                    [way] => (way.applied_to(base), Some(way.clone())),
                    _ => {
                        let forwards = SolveRequest {
                            both_ways: false,
                            ..base.clone()
                        };
                        (forwards, None)
                    }
                }
            }
            (Some(way), true) if !self.backwards_probed => {
                let every_way = SolveRequest {
                    resume_way: self.resume_subtrees.is_some().then(|| way.clone()),
                    ..base.clone()
                };
                (every_way, None)
            }
            (Some(way), _) => (way.applied_to(base), Some(way.clone())),
            (None, false) => (base.clone(), None),
        };
        if self.lower_bound > 0 {
            request.resume_from = Some(self.lower_bound);
            request.resume_subtrees = self.resume_subtrees.clone();
        }
        (request, alone)
    }

    /// Records where its search stands: the bound proved, the subtrees finished of that
    /// iteration and the way that goes on. A way chosen again by probes goes on in the
    /// iteration kept, whose subtrees stay kept until its search, resumed, says them (a turn
    /// stopped before that says none).
    fn stand(&mut self, lower_bound: u32, searched: Option<String>, way: Option<SearchWay>) {
        let same = (lower_bound, &way) == (self.lower_bound, &self.chosen_way);
        if searched.is_some() || !same {
            self.resume_subtrees = searched;
        }
        self.lower_bound = lower_bound;
        self.chosen_way = way;
    }
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
    let lock = || campaign.lock().unwrap_or_else(PoisonError::into_inner);
    let turns = in_turn(positions, lock().next.as_deref())?;
    let first = turns.first().map(|(text, _)| text.clone());
    for (text, source) in turns {
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
                        backwards_probed: false,
                        timed: None,
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
        // Its turn begins: a run stopped in it goes on with it.
        {
            let mut c = lock();
            c.next = Some(text.clone());
            checkpoint::Unkept::default().check(checkpoint::write(path, &*c));
        }
        let (request, alone) = kept.next_turn(base);
        let probes_backwards = request.both_ways && request.probe.is_some();
        let from: Standing = (
            kept.lower_bound,
            checkpoint::finished(kept.resume_subtrees.as_deref())
                .map_err(|e| InputError(format!("checkpoint {}: {e}", path.display())))?,
        );
        let clock = Clock::start(kept.timed.clone());
        let watch = Watch::default();
        if let (Some(expanded), true) = (kept.expanded, kept.lower_bound > 0) {
            let partly_done = kept.resume_subtrees.is_some();
            watch.resume_iteration(expanded.resumed(kept.lower_bound, partly_done));
        }
        let chosen_way = ChosenWay::of_request(&request, alone.clone().or(kept.chosen_way.clone()));
        // Probed against the way chosen before once the probes choose again.
        let probed_now = || probes_backwards && watch.chosen_way().is_some();
        let keep = |lower_bound, searched: Option<SearchedSubtrees>| {
            let mut c = lock();
            let board = &mut c.boards[index];
            board.stand(
                lower_bound,
                searched.map(|s| s.to_string()),
                chosen_way.of(&watch),
            );
            board.backwards_probed |= probed_now();
            board.expanded = Some(Expanded::of(&watch));
            board.timed = Some(clock.read());
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
        let report = checkpoint::naming_way(report, alone.as_ref());
        {
            let settled = checkpoint::Settled::of(&report)?;
            let mut c = lock();
            let board = &mut c.boards[index];
            board.stand(
                settled.lower_bound.unwrap_or(board.lower_bound),
                settled.resume_subtrees,
                chosen_way.of(&watch),
            );
            board.backwards_probed |= probed_now();
            board.timed = Some(clock.read());
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
    // A whole round: the next begins where this one did.
    let mut c = lock();
    if c.next != first {
        c.next = first;
        checkpoint::Unkept::default().check(checkpoint::write(path, &*c));
    }
    Ok(())
}

/// The boards of `positions` in the order of this run's turns: from `next` (the board the
/// campaign's last run was stopped in, or began its last round with) to the end, then round
/// from the start; in order where `next` is none of them.
fn in_turn(
    positions: Positions<'_, (String, Source)>,
    next: Option<&str>,
) -> Result<Vec<(String, Source)>> {
    let mut boards = positions.items.collect::<Result<Vec<_>>>()?;
    let start = boards
        .iter()
        .position(|(text, _)| Some(text.as_str()) == next)
        .unwrap_or(0);
    boards.rotate_left(start);
    Ok(boards)
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
                next: None,
            });
        }
        Err(e) => return Err(anyhow::Error::new(e).context(format!("reading {}", path.display()))),
    };
    let refused = |why: String| anyhow::anyhow!("checkpoint {}: {why}", path.display());
    let mut kept: Campaign = checkpoint::read_kept(&text, FORMAT).map_err(refused)?;
    if kept.search.widened_to(&search) {
        kept.search = search;
    } else if !kept.search.is(&search) {
        return Err(refused(format!(
            "kept for another search ({}); give another file, or the options it was kept for",
            serde_json::to_string(&kept.search)?
        )));
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn way(pdb: &str, reverse: bool) -> SearchWay {
        SearchWay {
            pdb: Some(pdb.into()),
            reverse,
        }
    }

    fn kept(chosen_way: Option<SearchWay>, backwards_probed: bool) -> Kept {
        Kept {
            position: "1 95 ...".into(),
            lower_bound: 93,
            resume_subtrees: Some("14.6.0badf00d.216.95:0-3".into()),
            solved: None,
            expanded: None,
            chosen_way,
            backwards_probed,
            timed: None,
        }
    }

    /// The turns of a board in a campaign probing both directions: its forwards ways first,
    /// then every way against the one kept (its subtrees named as that way's), then that way
    /// alone; without both directions, the way chosen alone from the second turn on.
    #[test]
    fn a_board_has_the_backwards_ways_probed_in_its_second_turn_only() {
        let base = SolveRequest {
            pdb: Some("6-6-6-6 6-6-6-6b".into()),
            both_ways: true,
            probe: Some(5.0),
            ..SolveRequest::new("5x5", "")
        };
        let fresh = Kept {
            lower_bound: 0,
            resume_subtrees: None,
            ..kept(None, false)
        };
        let (first, alone) = fresh.next_turn(&base);
        assert!(!first.both_ways && first.probe.is_some() && alone.is_none());
        assert_eq!(first.resume_from, None);
        let chosen = way("6-6-6-6b", false);
        let (second, alone) = kept(Some(chosen.clone()), false).next_turn(&base);
        assert!(second.both_ways && second.probe.is_some() && alone.is_none());
        assert_eq!(second.resume_way.as_ref(), Some(&chosen));
        assert_eq!(second.resume_from, Some(93));
        assert!(second.resume_subtrees.is_some());
        let tokenless = Kept {
            resume_subtrees: None,
            ..kept(Some(chosen.clone()), false)
        };
        assert_eq!(tokenless.next_turn(&base).0.resume_way, None);
        let (third, alone) = kept(Some(chosen.clone()), true).next_turn(&base);
        assert_eq!(alone.as_ref(), Some(&chosen));
        assert!(third.probe.is_none() && !third.both_ways);
        assert_eq!(third.pdb.as_deref(), Some("6-6-6-6b"));
        assert_eq!(third.resume_from, Some(93));
        // One partition: its first turn is its one forwards way, alone.
        let one = SolveRequest {
            pdb: Some("6-6-6-6".into()),
            ..base.clone()
        };
        let (first, alone) = fresh.next_turn(&one);
        assert_eq!(alone, Some(way("6-6-6-6", false)));
        assert!(first.probe.is_none() && !first.both_ways && !first.reverse);
        // Probing forwards only: the way chosen goes on alone from the second turn.
        let forwards = SolveRequest {
            both_ways: false,
            ..base
        };
        assert_eq!(fresh.next_turn(&forwards).0.probe, Some(5.0));
        let (second, alone) = kept(Some(chosen.clone()), false).next_turn(&forwards);
        assert_eq!((second.probe, alone), (None, Some(chosen)));
    }

    /// Where a search stands: a way chosen again in the iteration kept keeps its subtrees
    /// until its search says them; another way, or a higher bound, sets them aside.
    #[test]
    fn subtrees_kept_stay_with_their_way_and_iteration() {
        let chosen = Some(way("6-6-6-6", false));
        let token = kept(None, false).resume_subtrees;
        let mut board = kept(chosen.clone(), false);
        board.stand(93, None, chosen.clone());
        assert_eq!(board.resume_subtrees, token);
        let more = Some("14.6.0badf00d.216.95:0-4".to_string());
        board.stand(93, more.clone(), chosen.clone());
        assert_eq!(board.resume_subtrees, more);
        board.stand(93, None, Some(way("6-6-6-6", true)));
        assert_eq!(board.resume_subtrees, None);
        let mut board = kept(chosen.clone(), false);
        board.stand(95, None, chosen);
        assert_eq!((board.lower_bound, board.resume_subtrees), (95, None));
    }
}
