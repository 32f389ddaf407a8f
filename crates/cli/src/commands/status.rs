//! `solve --checkpoint FILE --status`: where FILE's search stands, read from FILE alone, with
//! nothing searched and nothing written: for each board (one, or a campaign's), its bound
//! and the iteration under way (the subtrees finished, its nodes so far against the forecast
//! from the two iterations before it), the way its probes chose, or its length once solved;
//! and the wall-clock time its runs have taken where FILE keeps it ([`Timed`]). For a long
//! campaign run in the background a few hours at a time, this is what it has done so far.

use super::campaign::Campaign;
use super::checkpoint::{self, Checkpoint, Expanded, Search, Timed};
use anyhow::{Context, Result};
use godsearch_app::progress::SearchedSubtrees;
use godsearch_app::report::SearchWay;
use godsearch_app::units::{format_count, format_percent};
use std::path::Path;

/// Where one board's search stands, as its checkpoint keeps it.
#[derive(Debug, Clone, Default)]
pub(super) struct Board {
    /// How the board is named: `#9 (113 moves given)` for a line of Korf's format, else its text.
    pub label: String,
    /// Every solution has at least this many moves (0: not searched yet).
    pub lower_bound: u32,
    /// The subtrees finished of the iteration of `lower_bound`.
    pub resume_subtrees: Option<String>,
    /// The nodes of that iteration so far and of the two before it.
    pub expanded: Option<Expanded>,
    /// The way its probes chose.
    pub chosen_way: Option<SearchWay>,
    /// Its report once solved.
    pub solved: Option<serde_json::Value>,
    /// The time its runs took, where kept.
    pub timed: Option<Timed>,
}

/// The lines `--status` prints for the checkpoint in `path`: a heading, a line a board, and
/// for a campaign the whole's time.
pub fn lines(path: &Path) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("checkpoint {}: cannot read it", path.display()))?;
    let refused = |why: String| anyhow::anyhow!("checkpoint {}: {why}", path.display());
    let format: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| refused(format!("not a checkpoint this build writes ({e})")))?;
    let shown = path.display();
    if format["format"].as_str() == Some(checkpoint::CAMPAIGN_FORMAT) {
        let campaign: Campaign =
            checkpoint::read_kept(&text, checkpoint::CAMPAIGN_FORMAT).map_err(refused)?;
        let boards: Vec<Board> = campaign
            .boards
            .iter()
            .map(|b| Board {
                label: label(&campaign.search, &b.position),
                lower_bound: b.lower_bound,
                resume_subtrees: b.resume_subtrees.clone(),
                expanded: b.expanded,
                chosen_way: b.chosen_way.clone(),
                solved: b.solved.clone(),
                timed: b.timed.clone(),
            })
            .collect();
        let solved = boards.iter().filter(|b| b.solved.is_some()).count();
        let mut lines = vec![format!(
            "{shown}: a campaign of {} boards, {solved} solved, {} left ({})",
            boards.len(),
            boards.len() - solved,
            campaign.search.command()
        )];
        lines.extend(boards.iter().map(line));
        lines.push(total(&boards));
        if let Some(next) = &campaign.next {
            let next = label(&campaign.search, next);
            lines.push(format!("the next run begins with {next}"));
        }
        Ok(lines)
    } else {
        let kept: Checkpoint = checkpoint::read_kept(&text, checkpoint::FORMAT).map_err(refused)?;
        let board = Board {
            label: format!("«{}»", kept.search.board().unwrap_or_default()),
            lower_bound: kept.lower_bound,
            resume_subtrees: kept.resume_subtrees.clone(),
            expanded: kept.expanded,
            chosen_way: kept.chosen_way.clone(),
            solved: kept.solved.clone(),
            timed: kept.timed.clone(),
        };
        Ok(vec![
            format!("{shown}: one board's search ({})", kept.search.command()),
            line(&board),
        ])
    }
}

/// `#ID (LENGTH moves given)` for a line of Korf's format (an id and a length before the tiles) on
/// the search's board size, else the text itself.
fn label(search: &Search, position: &str) -> String {
    let fields: Vec<&str> = position
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|f| !f.is_empty())
        .collect();
    match (search.cells(), &fields[..]) {
        (Some(cells), [id, length, tiles @ ..]) if tiles.len() == cells => {
            format!("#{id} ({length} moves given)")
        }
        _ => format!("«{position}»"),
    }
}

/// One board's line: solved, or where its search stands, and its time.
pub(super) fn line(board: &Board) -> String {
    let standing = match (&board.solved, board.lower_bound) {
        (Some(report), _) => solved(report),
        (None, 0) => "not searched yet".to_string(),
        (None, bound) => searching(board, bound),
    };
    match &board.timed {
        Some(timed) => format!(
            "{}: {standing}; {} of runs since {}",
            board.label,
            seconds(timed.seconds),
            timed.since
        ),
        None => format!("{}: {standing}", board.label),
    }
}

/// A solved board's report, told: its length, way, and the run that solved it.
fn solved(report: &serde_json::Value) -> String {
    let length = report["length"].as_u64().unwrap_or_default();
    let way: Option<SearchWay> = serde_json::from_value(report["chosen_way"].clone()).ok();
    let way = way.map(|w| format!(" ({})", w.name())).unwrap_or_default();
    let run = match (
        report["seconds"].as_f64(),
        report["nodes_expanded"].as_u64(),
    ) {
        (Some(s), Some(nodes)) => format!(
            ", the run that solved it {} and {} nodes",
            seconds(s),
            format_count(nodes)
        ),
        _ => String::new(),
    };
    format!("solved in {length} moves{way}{run}")
}

/// A board being searched, told: its bound, its way, and its iteration under way.
fn searching(board: &Board, bound: u32) -> String {
    let way = board
        .chosen_way
        .as_ref()
        .map(|w| format!(" ({})", w.name()))
        .unwrap_or_default();
    let subtrees = board
        .resume_subtrees
        .as_deref()
        .and_then(|t| t.parse::<SearchedSubtrees>().ok())
        .map(|s| format!("{} of {} subtrees finished", s.done.len(), s.subtrees));
    let nodes = board
        .expanded
        .filter(|_| board.resume_subtrees.is_some())
        .map(|e| {
            let so_far = e.in_iteration;
            match e.resumed(bound, true).forecast() {
                Some(all) if all > so_far => format!(
                    "{} nodes, about {} of the {} its growth forecasts",
                    format_count(so_far),
                    format_percent(so_far as f64, all as f64),
                    format_count(all)
                ),
                _ => format!("{} nodes", format_count(so_far)),
            }
        });
    let iteration = match [subtrees, nodes].into_iter().flatten().collect::<Vec<_>>() {
        done if done.is_empty() => "none of it finished".to_string(),
        done => done.join(", "),
    };
    format!("at least {bound} moves{way}; its iteration of {bound}: {iteration}")
}

/// A campaign's whole time: the boards' kept times added up, and those searched without.
fn total(boards: &[Board]) -> String {
    let timed: Vec<&Timed> = boards.iter().filter_map(|b| b.timed.as_ref()).collect();
    let untimed = boards
        .iter()
        .filter(|b| b.timed.is_none() && (b.solved.is_some() || b.lower_bound > 0))
        .count();
    let sum: f64 = timed.iter().map(|t| t.seconds).sum();
    let since = timed.iter().map(|t| t.since.as_str()).min();
    let whole = match since {
        Some(since) => format!("in all {} of runs since {since}", seconds(sum)),
        None => "no time kept".to_string(),
    };
    match untimed {
        0 => whole,
        n => format!(
            "{whole}; {n} board{} searched by builds that kept no time, not counted",
            if n == 1 { " was" } else { "s were" }
        ),
    }
}

/// Seconds as `12,345 s`, or to a tenth under a hundred.
fn seconds(seconds: f64) -> String {
    match seconds {
        s if s < 100.0 => format!("{s:.1} s"),
        s => format!("{} s", format_count(s.round() as u64)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Board {
        Board {
            label: "#9 (113 moves given)".into(),
            ..Board::default()
        }
    }

    /// A board's line says where its iteration stands by subtrees and by nodes against the
    /// forecast (growth 4: 1 G then 4 G forecast 16 G), and the time kept.
    #[test]
    fn a_board_searched_tells_its_iteration_and_time() {
        let expanded: Expanded = serde_json::from_value(serde_json::json!({
            "in_iteration": 4_000_000_000u64,
            "before": [1_000_000_000u64, 4_000_000_000u64]
        }))
        .unwrap();
        let searching = Board {
            lower_bound: 113,
            resume_subtrees: Some("14.6.7d252ec2.216.115:0-83".into()),
            expanded: Some(expanded),
            chosen_way: Some(SearchWay {
                pdb: Some("6-6-6-6b".into()),
                reverse: false,
            }),
            timed: Some(Timed {
                since: "2026-12-07T09:30:00Z".into(),
                seconds: 12_345.6,
            }),
            ..board()
        };
        assert_eq!(
            line(&searching),
            "#9 (113 moves given): at least 113 moves (6-6-6-6b forwards); its iteration of 113: 84 \
             of 216 subtrees finished, 4,000,000,000 nodes, about 25% of the 16,000,000,000 its \
             growth forecasts; 12,346 s of runs since 2026-12-07T09:30:00Z"
        );
        // Without finished subtrees the nodes kept are not the iteration's.
        let started = Board {
            resume_subtrees: None,
            timed: None,
            ..searching
        };
        assert_eq!(
            line(&started),
            "#9 (113 moves given): at least 113 moves (6-6-6-6b forwards); its iteration of 113: \
             none of it finished"
        );
        assert_eq!(line(&board()), "#9 (113 moves given): not searched yet");
    }

    /// A solved board is told by its report; the whole counts the kept times and says how
    /// many boards were searched without.
    #[test]
    fn a_solved_board_and_the_whole() {
        let solved = Board {
            lower_bound: 95,
            solved: Some(serde_json::json!({
                "length": 95, "seconds": 25.04, "nodes_expanded": 986_000_000u64,
                "chosen_way": {"pdb": "6-6-6-6", "reverse": true}
            })),
            ..board()
        };
        assert_eq!(
            line(&solved),
            "#9 (113 moves given): solved in 95 moves (6-6-6-6 backwards), the run that solved it \
             25.0 s and 986,000,000 nodes"
        );
        let timed = |since: &str, seconds| Board {
            lower_bound: 100,
            timed: Some(Timed {
                since: since.into(),
                seconds,
            }),
            ..board()
        };
        let boards = [
            timed("2026-12-07T10:00:00Z", 60.0),
            timed("2026-12-07T09:00:00Z", 30.5),
            solved,
            board(),
        ];
        assert_eq!(
            total(&boards),
            "in all 90.5 s of runs since 2026-12-07T09:00:00Z; 1 board was searched by builds \
             that kept no time, not counted"
        );
        assert_eq!(total(&[board()]), "no time kept");
    }
}
