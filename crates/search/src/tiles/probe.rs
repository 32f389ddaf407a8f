//! IDA* of one board by the way its first seconds say is best: each of several ways (a
//! heuristic and a direction) searched from the start for a short probe, then the one that
//! expanded the fewest nodes on the last iteration every probe finished goes on alone.
//!
//! On the 24-puzzle which of two 6-6-6-6 drawings, or which end of the path, is the shorter
//! search depends on the board, by up to three times for the drawing and a hundred for the
//! direction, and the ratio of two ways' iterations settles from iterations of a few million
//! nodes on: a probe of seconds tells what a search of hours will cost. Unlike a race
//! ([`race_both_ways`](super::race_both_ways)), which keeps paying for the worse way on every
//! iteration, a probe pays for it once. A way that an earlier search left part-way through an
//! iteration ([`Probe::kept`]) goes on with what it finished unless another way is clearly
//! better ([`SWITCH_MARGIN`]).

use super::ida::{prepare_pruning, Resume, ResumedIteration, SearchOutcome, Watch};
use super::{SearchError, SearchedSubtrees};
use crate::SearchStats;
use std::time::{Duration, Instant};

/// How the ways of a board are probed.
#[derive(Debug, Clone)]
pub struct Probe<'w> {
    /// Each way's probe: searched from the start this long.
    pub time: Duration,
    /// The whole search (probes and the way chosen) gives up this long after it begins, with
    /// the bound it proved.
    pub time_limit: Option<Duration>,
    /// A bound proved earlier (by any way), from which the way chosen goes on (or from a
    /// higher one a probe proved). The probes themselves search from the start, so that they
    /// compare the same iterations: from a high bound none might finish one in its time.
    /// Finished subtrees belong to one way and are not taken here: see `kept`.
    pub lower_bound: u32,
    /// Subtrees of the iteration of `lower_bound` that an earlier search of the way numbered
    /// here finished: taken where that way is the one chosen and goes on from that bound
    /// (with those its own probe finished of it), set aside where another way goes on. That
    /// way then resumes the iteration as the watch had it before the probes
    /// ([`Watch::resume_iteration`]: the nodes the earlier runs expanded on it).
    pub kept: Option<(usize, SearchedSubtrees)>,
    /// Told which way probes ([`Watch::begin_probe`]) and which was chosen
    /// ([`Watch::chosen_way`]); the searches publish their progress to it themselves.
    pub watch: Option<&'w Watch>,
}

/// What one way's probe did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probed {
    /// The bound it proved (the threshold of the iteration it was stopped in).
    pub lower_bound: u32,
    /// Its work, iteration by iteration, the stopped one last.
    pub stats: SearchStats,
}

impl Probed {
    /// Nodes it expanded on the iteration of `threshold`, which it finished: 0 where its
    /// start's estimate was above it (the way needed no search there).
    fn nodes_at(&self, threshold: u32) -> u64 {
        self.stats.iteration_nodes(threshold).unwrap_or(0)
    }

    /// Its iterations as its way's report lists them when the way goes on from `bound`: the
    /// one it was stopped in left out where that is below `bound` (the way never finished it;
    /// its nodes still count in the work).
    fn iterations_to(&self, bound: u32) -> SearchStats {
        let mut stats = self.stats.clone();
        if self.lower_bound < bound && stats.thresholds.last() == Some(&self.lower_bound) {
            stats.thresholds.pop();
            stats.iteration_expanded.pop();
        }
        stats
    }

    /// The iteration of `bound` as its way, going on from this probe, resumes it: the nodes
    /// expanded on it (where this probe began it) and on the two iterations before it, which
    /// are this probe's last finished ones where it stopped in that iteration (not where it
    /// stopped below it: those would forecast the iteration far too small).
    fn resumed_at(&self, bound: u32) -> ResumedIteration {
        let own = self.lower_bound == bound;
        let finished: Vec<u64> = self
            .stats
            .thresholds
            .iter()
            .zip(&self.stats.iteration_expanded)
            .filter(|(&t, _)| own && t < bound)
            .map(|(_, &n)| n)
            .collect();
        let before = match finished[..] {
            [.., a, b] => [a, b],
            [b] => [0, b],
            [] => [0, 0],
        };
        ResumedIteration {
            threshold: bound,
            carried: self.stats.iteration_nodes(bound).unwrap_or(0),
            before,
        }
    }
}

/// How many times fewer nodes another way's probe must expand than the way whose finished
/// subtrees an earlier search kept ([`Probe::kept`]) for the search to leave that way: leaving
/// it throws those subtrees away, and probes compare low iterations, where ways within twice
/// each other's nodes can change places higher up: Korf and Felner's #7 (104 moves), compared
/// on its iteration of 96 (forwards 28.1 M nodes, backwards 26.7 M), went on backwards and
/// spent 7.83 G nodes on its iteration of 102, of which forwards had finished 83 of 128
/// subtrees.
pub const SWITCH_MARGIN: u64 = 2;

/// A board searched by probes and the way chosen: how the way was chosen, and what it found.
#[derive(Debug, Clone)]
pub struct Probing {
    /// Each way's probe, in the order of the ways; fewer than the ways where one solved the
    /// board in its probe (it is then the one chosen) or the search was stopped.
    pub probes: Vec<Probed>,
    /// The way that went on, or solved the board in its probe (`None`: stopped first).
    pub chosen: Option<usize>,
    /// The iteration the ways were compared on: the last that every probe finished (`None`:
    /// none did, and the way with the highest bound went on; or no comparison was made).
    pub compared_at: Option<u32>,
    /// Whether the way that went on is the one whose subtrees [`Probe::kept`] gives, held
    /// against a way whose probe expanded fewer nodes, but not [`SWITCH_MARGIN`] times fewer,
    /// on the iteration compared (or where none was compared).
    pub held: bool,
    /// The solution as the chosen way found it (from the goal to the board when it searched
    /// backwards), or why there is none. Its work (or the timeout's) counts every probe's
    /// nodes; its iterations are one way's: the chosen way's (its probe's and its search's
    /// after), or where the probes were stopped, those of the last probe that proved the bound
    /// given.
    pub result: Result<SearchOutcome, SearchError>,
}

/// Runs `search` over `ways` ways (see the module docs): `search(way, deadline, resume)` is
/// IDA* of the board the way numbered `way` searches it, stopped at `deadline` with
/// [`SearchError::Timeout`] and continued from `resume`. Each way is probed from the start for
/// `probe.time`; a probe that solves the board ends the search. Then
/// the way that expanded the fewest nodes on the last iteration all the probes finished (on a
/// tie, or where they finished none in common, the one that proved the highest bound, then
/// the one that expanded fewer in all, then the earlier) goes on from
/// the highest bound any probe proved or `probe.lower_bound` gave, with the subtrees it
/// finished of that iteration where its own bound is that one, and those `probe.kept` gives
/// where they are its own.
///
/// Exact: the solution is shortest when every way's heuristic is admissible and the starting
/// bound is true, since a bound proved by one way holds for all. At the time limit or a stop
/// of the watch, [`SearchError::Timeout`] carries the highest bound proved, the work of every
/// probe (the iterations of one way, see [`Probing::result`]), and the chosen way's finished
/// subtrees once it goes on (none during the probes: a probe's subtrees belong to a way not
/// yet chosen). With no ways nothing is searched: the starting bound, as a timeout.
pub fn probe_ways<S>(ways: usize, probe: &Probe, mut search: S) -> Probing
where
    S: FnMut(usize, Option<Instant>, &Resume) -> Result<SearchOutcome, SearchError>,
{
    let started = Instant::now();
    // A limit past what the clock holds is no limit.
    let deadline = probe.time_limit.and_then(|l| started.checked_add(l));
    let stopped =
        || deadline.is_some_and(|d| Instant::now() >= d) || probe.watch.is_some_and(Watch::stopped);
    let mut probing = Probing {
        probes: Vec::with_capacity(ways),
        chosen: None,
        compared_at: None,
        held: false,
        result: Err(SearchError::Timeout {
            lower_bound: probe.lower_bound,
            stats: Box::default(),
            searched: None,
        }),
    };
    if ways == 0 {
        return probing;
    }
    // What the watch was told of the iteration kept, before the probes tell it theirs.
    let kept_iteration = probe.watch.and_then(Watch::resumed_iteration);
    let mut finished: Vec<Option<SearchedSubtrees>> = Vec::with_capacity(ways);
    let mut work = SearchStats::default();
    // Every probe from the start: the bound given is not lost, the way chosen goes on from it.
    let from = Resume::default();
    for way in 0..ways {
        if let Some(watch) = probe.watch {
            watch.begin_probe(way, ways);
        }
        let probe_end = Instant::now() + probe.time;
        let probe_deadline = deadline.map_or(probe_end, |d| d.min(probe_end));
        match search(way, Some(probe_deadline), &from) {
            Ok(mut outcome) => {
                if let Some(watch) = probe.watch {
                    watch.probe_solved(way);
                }
                outcome.stats = reported(&work, &SearchStats::default(), &outcome.stats);
                probing.chosen = Some(way);
                probing.result = Ok(outcome);
                return probing;
            }
            Err(SearchError::Timeout {
                lower_bound,
                stats,
                searched,
            }) => {
                work.add_run(&stats);
                probing.probes.push(Probed {
                    lower_bound,
                    stats: *stats,
                });
                finished.push(searched);
                if stopped() {
                    let bound = highest_bound(&probing.probes, probe.lower_bound);
                    // The iterations of the last probe that proved the bound (none where the
                    // bound was given above them all).
                    let own = probing.probes.iter().rev().find(|p| p.lower_bound == bound);
                    let none = SearchStats::default();
                    let own = own.map_or(&none, |p| &p.stats);
                    probing.result = Err(SearchError::Timeout {
                        lower_bound: bound,
                        stats: Box::new(reported(&work, own, &none)),
                        searched: None,
                    });
                    return probing;
                }
            }
            Err(e) => {
                probing.result = Err(e);
                return probing;
            }
        }
    }
    let (best, compared_at) = choose(&probing.probes);
    let bound = highest_bound(&probing.probes, probe.lower_bound);
    // The way kept goes on in its iteration unless another is clearly better.
    let kept_way = probe.kept.as_ref().map(|(way, _)| *way);
    let in_kept_iteration = bound == probe.lower_bound;
    let chosen = match (kept_way, in_kept_iteration) {
        (Some(kept), true) if held_against(&probing.probes, kept, best, compared_at) => kept,
        _ => best,
    };
    probing.chosen = Some(chosen);
    probing.compared_at = compared_at;
    probing.held = chosen != best;
    let own = match probing.probes[chosen].lower_bound == bound {
        true => finished[chosen].take(),
        false => None,
    };
    let kept = match &probe.kept {
        Some((way, searched)) if *way == chosen && in_kept_iteration => Some(searched),
        _ => None,
    };
    let kept_taken = kept.is_some();
    let resume = Resume {
        lower_bound: bound,
        searched: match (own, kept) {
            // Split alike (one way's one iteration); where not, the earlier search's.
            (Some(own), Some(kept)) => Some(own.joined(kept).unwrap_or_else(|| kept.clone())),
            (own, kept) => own.or_else(|| kept.cloned()),
        },
    };
    if let Some(watch) = probe.watch {
        let resumed = match kept_iteration {
            Some(kept) if kept.threshold == bound && kept_taken => kept,
            _ => probing.probes[chosen].resumed_at(bound),
        };
        watch.choose_way(chosen, resumed);
    }
    // The way chosen resumes above its start's estimate: the deepest automata, built now.
    prepare_pruning();
    let own = &probing.probes[chosen].iterations_to(bound);
    probing.result = match search(chosen, deadline, &resume) {
        Ok(mut outcome) => {
            outcome.stats = reported(&work, own, &outcome.stats);
            Ok(outcome)
        }
        Err(SearchError::Timeout {
            lower_bound,
            stats,
            searched,
        }) => Err(SearchError::Timeout {
            lower_bound: lower_bound.max(bound),
            stats: Box::new(reported(&work, own, &stats)),
            searched,
        }),
        Err(e) => Err(e),
    };
    probing
}

/// The work a probed search reports: the counts of all of it, `probes` (every probe's) and
/// `after` (the search after them); the iterations of one way, its probe's `own` and `after`,
/// so that their nodes show that way's growth from one iteration to the next (several ways'
/// iterations summed show none).
fn reported(probes: &SearchStats, own: &SearchStats, after: &SearchStats) -> SearchStats {
    let mut all = probes.clone();
    all.add_run(after);
    let mut way = own.clone();
    way.add_run(after);
    SearchStats {
        thresholds: way.thresholds,
        iteration_expanded: way.iteration_expanded,
        ..all
    }
}

/// Whether the way numbered `kept` goes on rather than `best`, the way [`choose`] chose:
/// where `best` did not expand [`SWITCH_MARGIN`] times fewer nodes on the iteration compared,
/// or no iteration was compared.
fn held_against(probes: &[Probed], kept: usize, best: usize, compared_at: Option<u32>) -> bool {
    let (Some(kept_probe), Some(best_probe)) = (probes.get(kept), probes.get(best)) else {
        return false;
    };
    match compared_at {
        Some(at) => best_probe.nodes_at(at).saturating_mul(SWITCH_MARGIN) > kept_probe.nodes_at(at),
        None => true,
    }
}

/// The highest bound the probes proved, at least `from`.
fn highest_bound(probes: &[Probed], from: u32) -> u32 {
    probes.iter().map(|p| p.lower_bound).fold(from, u32::max)
}

/// The way to go on with and the iteration compared (see [`probe_ways`]).
fn choose(probes: &[Probed]) -> (usize, Option<u32>) {
    let lowest_bound = probes.iter().map(|p| p.lower_bound).min().unwrap_or(0);
    // The iterations someone finished below every probe's bound: finished by all.
    let compared_at = probes
        .iter()
        .flat_map(|p| p.stats.thresholds.iter().copied())
        .filter(|&t| t < lowest_bound)
        .max();
    // Then the higher bound (it went further in the same time), then the fewer nodes in all.
    let further = |i: usize| {
        (
            std::cmp::Reverse(probes[i].lower_bound),
            probes[i].stats.expanded,
            i,
        )
    };
    let chosen = match compared_at {
        Some(t) => (0..probes.len()).min_by_key(|&i| (probes[i].nodes_at(t), further(i))),
        None => (0..probes.len()).min_by_key(|&i| further(i)),
    };
    (chosen.unwrap_or(0), compared_at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::testing::random_walk;
    use crate::tiles::{ida_star, ida_star_resumed, LinearConflict, Manhattan, TileHeuristic};
    use godsearch_puzzles::tiles::{Board, Shape};
    use rand::SeedableRng;

    fn probed(lower_bound: u32, iterations: &[(u32, u64)]) -> Probed {
        Probed {
            lower_bound,
            stats: SearchStats {
                thresholds: iterations.iter().map(|&(t, _)| t).collect(),
                iteration_expanded: iterations.iter().map(|&(_, n)| n).collect(),
                expanded: iterations.iter().map(|&(_, n)| n).sum(),
                ..SearchStats::default()
            },
        }
    }

    /// Compared on the last iteration all finished: one that started above it needed none.
    #[test]
    fn the_way_with_fewest_nodes_on_the_last_common_iteration_is_chosen() {
        let a = probed(55, &[(49, 10), (51, 100), (53, 900), (55, 2000)]);
        let b = probed(53, &[(51, 60), (53, 500)]);
        let c = probed(57, &[(53, 300), (55, 800), (57, 10)]);
        // Only 51 is finished by all (b stopped in 53); c started above it.
        assert_eq!(choose(&[a.clone(), b.clone(), c.clone()]), (2, Some(51)));
        assert_eq!(choose(&[a.clone(), b.clone()]), (1, Some(51)));
        // A tie goes to the way that went further, then to the earlier way.
        let b_tied = probed(53, &[(51, 100), (53, 500)]);
        assert_eq!(choose(&[b_tied.clone(), a.clone()]), (1, Some(51)));
        assert_eq!(choose(&[b_tied.clone(), b_tied]), (0, Some(51)));
        // None in common: the highest bound, then the fewest nodes.
        let first = probed(51, &[(51, 5)]);
        let second = probed(51, &[(51, 3)]);
        assert_eq!(choose(&[first.clone(), second]), (1, None));
        assert_eq!(choose(&[first, probed(53, &[(53, 9)])]), (1, None));
    }

    /// The iteration the way chosen resumes, for its watch.
    #[test]
    fn the_way_chosen_resumes_with_its_probes_nodes() {
        let a = probed(55, &[(51, 100), (53, 900), (55, 2000)]);
        assert_eq!(
            a.resumed_at(55),
            ResumedIteration {
                threshold: 55,
                carried: 2000,
                before: [100, 900],
            }
        );
        // Another probe proved more (or the bound came from an earlier run): its iterations
        // are not the ones before 57, its stopped one not finished.
        assert_eq!(
            a.resumed_at(57),
            ResumedIteration {
                threshold: 57,
                carried: 0,
                before: [0, 0],
            }
        );
    }

    /// The iterations the chosen way reports from its probe: the one it was stopped in only
    /// where the way goes on in it.
    #[test]
    fn a_way_reports_its_probes_stopped_iteration_only_where_it_goes_on_in_it() {
        let a = probed(55, &[(51, 100), (53, 900), (55, 2000)]);
        let listed = |bound| {
            let stats = a.iterations_to(bound);
            (stats.thresholds, stats.iteration_expanded)
        };
        assert_eq!(listed(55), (vec![51, 53, 55], vec![100, 900, 2000]));
        assert_eq!(listed(57), (vec![51, 53], vec![100, 900]));
        let after = SearchStats {
            thresholds: vec![55, 57],
            iteration_expanded: vec![3000, 40000],
            expanded: 43000,
            ..SearchStats::default()
        };
        let others = probed(57, &[(53, 10), (55, 20), (57, 30)]).stats;
        let reported = reported(&others, &a.iterations_to(55), &after);
        assert_eq!(reported.thresholds, [51, 53, 55, 57]);
        assert_eq!(reported.iteration_expanded, [100, 900, 5000, 40000]);
        assert_eq!(reported.expanded, 60 + 43000);
    }

    /// An earlier search's subtrees go to their way where it is chosen and goes on from
    /// their bound (joined with those its probe finished of that iteration), to no other way,
    /// and nowhere once a probe proved more.
    #[test]
    fn kept_subtrees_go_to_their_way_alone() {
        let token = |text: &str| text.parse::<SearchedSubtrees>().unwrap();
        let kept = "14.5.0000abcd.100.59:0-9";
        // Way 1 expands fewer nodes on 51, so it goes on; what does it resume with?
        // The earlier runs' nodes on 57, and on the two iterations before it.
        let earlier = ResumedIteration {
            threshold: 57,
            carried: 7000,
            before: [500, 2000],
        };
        let resumed = |kept_way: usize, bounds: [u32; 2], own: Option<&str>| {
            let watch = Watch::default();
            watch.resume_iteration(earlier);
            let probe = Probe {
                time: Duration::ZERO,
                time_limit: None,
                lower_bound: 57,
                kept: Some((kept_way, token(kept))),
                watch: Some(&watch),
            };
            let mut went_on = Vec::new();
            let probing = probe_ways(2, &probe, |way, _, resume| {
                let searched = match resume.lower_bound {
                    0 => own.filter(|_| way == 1).map(token),
                    _ => {
                        went_on.push((way, resume.clone()));
                        None
                    }
                };
                let nodes = [1000, 10][way];
                let stopped = probed(bounds[way], &[(51, nodes), (bounds[way], 5)]);
                Err(SearchError::Timeout {
                    lower_bound: stopped.lower_bound,
                    stats: Box::new(stopped.stats),
                    searched,
                })
            });
            assert_eq!(probing.chosen, Some(1));
            let [(1, resume)] = &went_on[..] else {
                panic!("went on with {went_on:?}")
            };
            // The earlier runs' nodes follow their subtrees.
            let iteration = watch.resumed_iteration().unwrap();
            let taken = (kept_way, bounds[1] <= 57) == (1, true);
            assert_eq!(iteration == earlier, taken, "{iteration:?}");
            (
                resume.lower_bound,
                resume.searched.as_ref().map(|s| s.to_string()),
            )
        };
        assert_eq!(resumed(1, [53, 55], None), (57, Some(kept.into())));
        assert_eq!(resumed(0, [53, 55], None), (57, None));
        let own = "14.5.0000abcd.100.61:20";
        let joined = "14.5.0000abcd.100.59:0-9,20";
        assert_eq!(resumed(1, [53, 57], Some(own)), (57, Some(joined.into())));
        assert_eq!(resumed(0, [53, 57], Some(own)), (57, Some(own.into())));
        let above = "14.5.0000ffff.100.61:3";
        assert_eq!(resumed(1, [53, 59], Some(above)), (59, Some(above.into())));
    }

    /// The way kept goes on where another expanded fewer nodes but not half as many, or
    /// where no iteration was compared; it is left for one that expanded half as many or
    /// fewer, or where a probe proved more than its bound (its subtrees are then done with).
    #[test]
    fn the_way_kept_is_left_only_for_one_twice_as_good() {
        let token = "14.5.0000abcd.100.59:0-9"
            .parse::<SearchedSubtrees>()
            .unwrap();
        let went_on = |iterations: [&[(u32, u64)]; 2], bounds: [u32; 2]| {
            let probe = Probe {
                time: Duration::ZERO,
                time_limit: None,
                lower_bound: 57,
                kept: Some((0, token.clone())),
                watch: None,
            };
            let probing = probe_ways(2, &probe, |way, _, resume| {
                let stopped = match resume.lower_bound {
                    0 => probed(bounds[way], iterations[way]),
                    bound => probed(bound, &[(bound, 1)]),
                };
                Err(SearchError::Timeout {
                    lower_bound: stopped.lower_bound,
                    stats: Box::new(stopped.stats),
                    searched: None,
                })
            });
            (probing.chosen.unwrap(), probing.held)
        };
        let on_51 = |kept: u64, other: u64| -> [Vec<(u32, u64)>; 2] {
            [vec![(51, kept), (55, 5)], vec![(51, other), (55, 5)]]
        };
        let run = |[a, b]: [Vec<(u32, u64)>; 2], bounds| went_on([&a, &b], bounds);
        assert_eq!(run(on_51(100, 60), [55, 55]), (0, true));
        assert_eq!(run(on_51(100, 50), [55, 55]), (1, false));
        assert_eq!(run(on_51(100, 120), [55, 55]), (0, false));
        assert_eq!(run(on_51(100, 60), [55, 59]), (1, false));
        // Nothing in common: the kept way, though the other proved more in its probe.
        let apart = [vec![(53, 5)], vec![(55, 5)]];
        assert_eq!(run(apart, [53, 55]), (0, true));
    }

    /// IDA* of `board` with `heuristic` on two threads.
    fn ida(
        board: &Board,
        heuristic: &impl TileHeuristic,
        deadline: Option<Instant>,
        watch: &Watch,
        resume: &Resume,
    ) -> Result<SearchOutcome, SearchError> {
        let goal = Board::goal(board.shape());
        ida_star_resumed(board, &goal, heuristic, 2, deadline, Some(watch), resume)
    }

    /// Manhattan distance and linear conflict probed for a few milliseconds: linear conflict,
    /// which never expands more, goes on, and every solution is shortest. One watch follows
    /// every board: each board's probes are said as probes again.
    #[test]
    fn probes_choose_the_stronger_heuristic_and_solve_shortest() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let manhattan = Manhattan::new(&goal).unwrap();
        let conflict = LinearConflict::new(&goal).unwrap();
        let watch = Watch::default();
        let mut went_on = 0;
        for _ in 0..4 {
            let board = random_walk(&goal, 500, &mut rng);
            let shortest = ida_star(&board, &goal, &conflict, 2).unwrap().moves.len();
            let probe = Probe {
                time: Duration::from_millis(5),
                time_limit: None,
                lower_bound: 0,
                kept: None,
                watch: Some(&watch),
            };
            let mut calls = 0;
            let probing = probe_ways(2, &probe, |way, deadline, resume| {
                // The first two calls are the probes; a third is the way chosen.
                let probing = (calls < 2).then_some((calls, 2));
                assert_eq!(watch.probing(), probing);
                calls += 1;
                match way {
                    0 => ida(&board, &manhattan, deadline, &watch, resume),
                    _ => ida(&board, &conflict, deadline, &watch, resume),
                }
            });
            let outcome = probing.result.unwrap();
            let mut replay = board.clone();
            assert!(outcome.moves.iter().all(|&m| replay.apply(m)), "{board}");
            assert_eq!((replay, outcome.moves.len()), (goal.clone(), shortest));
            assert_eq!(watch.chosen_way(), probing.chosen);
            assert_eq!(watch.probing(), None);
            if let (2, Some(at)) = (probing.probes.len(), probing.compared_at) {
                went_on += 1;
                // Linear conflict dominates Manhattan distance: never more nodes, and chosen
                // where fewer (a tie, on a loaded machine's first tiny iteration, goes to the
                // way that proved the higher bound).
                let nodes = probing
                    .probes
                    .iter()
                    .map(|p| p.nodes_at(at))
                    .collect::<Vec<_>>();
                assert!(nodes[1] <= nodes[0], "{board}: {:?}", probing.probes);
                if nodes[1] < nodes[0] {
                    assert_eq!(probing.chosen, Some(1), "{board}: {:?}", probing.probes);
                }
                // The work counts both probes and the search that went on; the iterations
                // are the chosen way's alone, its probe's finished ones as they were.
                let probed: u64 = probing.probes.iter().map(|p| p.stats.expanded).sum();
                assert!(outcome.stats.expanded > probed);
                let chosen = probing.chosen.unwrap();
                let own = &probing.probes[chosen].stats;
                let finished = own.thresholds.len() - 1;
                for (&t, &n) in own
                    .thresholds
                    .iter()
                    .zip(&own.iteration_expanded)
                    .take(finished)
                {
                    assert_eq!(outcome.stats.iteration_nodes(t), Some(n), "{board}");
                }
                // Left out of the iterations: the other probe, and the chosen one's stopped
                // iteration where the other proved more (the way goes on above it).
                let bound = probing.probes.iter().map(|p| p.lower_bound).max().unwrap();
                let listed = probing.probes[chosen]
                    .iterations_to(bound)
                    .iteration_expanded;
                let unlisted = own.expanded - listed.iter().sum::<u64>();
                let iterations: u64 = outcome.stats.iteration_expanded.iter().sum();
                let other = &probing.probes[1 - chosen].stats;
                assert_eq!(
                    outcome.stats.expanded - iterations,
                    other.expanded + unlisted
                );
            }
        }
        assert!(went_on >= 1, "no board outlasted its probes");
    }

    /// A bound proved before (here the board's length itself): the probes still search from
    /// the start, so they compare an iteration below it, and the way chosen goes on from it.
    #[test]
    fn probes_of_a_search_resumed_at_a_high_bound_compare_iterations_from_the_start() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let manhattan = Manhattan::new(&goal).unwrap();
        let conflict = LinearConflict::new(&goal).unwrap();
        let watch = Watch::default();
        let mut compared = 0;
        for _ in 0..4 {
            let board = random_walk(&goal, 500, &mut rng);
            let shortest = ida_star(&board, &goal, &conflict, 2).unwrap().moves.len();
            let bound = u32::try_from(shortest).unwrap();
            let probe = Probe {
                time: Duration::from_millis(5),
                time_limit: None,
                lower_bound: bound,
                kept: None,
                watch: Some(&watch),
            };
            let mut resumed_from = Vec::new();
            let probing = probe_ways(2, &probe, |way, deadline, resume| {
                resumed_from.push(resume.lower_bound);
                match way {
                    0 => ida(&board, &manhattan, deadline, &watch, resume),
                    _ => ida(&board, &conflict, deadline, &watch, resume),
                }
            });
            let outcome = probing.result.unwrap();
            assert_eq!(outcome.moves.len(), shortest, "{board}");
            let first = outcome.stats.thresholds.first().copied().unwrap_or(bound);
            assert!(first < bound, "{board}: {:?}", outcome.stats);
            if probing.probes.len() == 2 {
                // Both probed from the start, then the way chosen from the bound given.
                assert_eq!(resumed_from, [0, 0, bound], "{board}");
                let at = probing.compared_at.expect("an iteration compared");
                assert!(at < bound, "{board}: compared at {at}");
                compared += 1;
            }
        }
        assert!(compared >= 1, "no board outlasted its probes");
    }

    /// A board the first probe solves: that way is the one chosen, on the watch as in the
    /// answer, and the second way is never searched.
    #[test]
    fn a_probe_that_solves_the_board_is_the_way_chosen() {
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let board = random_walk(&goal, 10, &mut rand::rngs::StdRng::seed_from_u64(3));
        let manhattan = Manhattan::new(&goal).unwrap();
        let watch = Watch::default();
        let probe = Probe {
            time: Duration::from_secs(60),
            time_limit: None,
            lower_bound: 0,
            kept: None,
            watch: Some(&watch),
        };
        let mut asked = Vec::new();
        let probing = probe_ways(2, &probe, |way, deadline, resume| {
            asked.push(way);
            ida(&board, &manhattan, deadline, &watch, resume)
        });
        let outcome = probing.result.unwrap();
        let iterations: u64 = outcome.stats.iteration_expanded.iter().sum();
        assert_eq!(iterations, outcome.stats.expanded);
        assert_eq!((asked, probing.chosen), (vec![0], Some(0)));
        assert_eq!((watch.chosen_way(), watch.probing()), (Some(0), None));
        assert_eq!(watch.ways_probed(), 2);
    }

    /// A limit reached during the probes: the highest bound any proved, and no subtrees (they
    /// belong to no way chosen).
    #[test]
    fn a_limit_during_the_probes_gives_the_highest_bound() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let goal = Board::goal(Shape::new(5, 5).unwrap());
        let board = random_walk(&goal, 2000, &mut rng);
        let manhattan = Manhattan::new(&goal).unwrap();
        let watch = Watch::default();
        // The limit falls in the second probe, with room for a loaded machine's late stop.
        let probe = Probe {
            time: Duration::from_millis(300),
            time_limit: Some(Duration::from_millis(450)),
            lower_bound: 0,
            kept: None,
            watch: Some(&watch),
        };
        let mut asked = Vec::new();
        let probing = probe_ways(3, &probe, |way, deadline, resume| {
            asked.push(way);
            if way == 1 {
                // Stopped here, its subtrees are said to be no one's.
                assert_eq!(watch.probing(), Some((1, 3)));
            }
            ida(&board, &manhattan, deadline, &watch, resume)
        });
        assert_eq!(asked, [0, 1]);
        assert_eq!(probing.chosen, None);
        let Err(SearchError::Timeout {
            lower_bound,
            searched,
            stats,
        }) = probing.result
        else {
            panic!("{:?}", probing.result)
        };
        let highest = probing.probes.iter().map(|p| p.lower_bound).max().unwrap();
        assert_eq!((lower_bound, searched), (highest, None));
        assert_eq!(watch.searched(), None);
        // Every probe's nodes, the iterations of the last that proved the bound.
        let all: u64 = probing.probes.iter().map(|p| p.stats.expanded).sum();
        let own = probing
            .probes
            .iter()
            .rev()
            .find(|p| p.lower_bound == highest);
        assert_eq!(stats.expanded, all);
        let own = &own.unwrap().stats;
        assert_eq!(stats.thresholds, own.thresholds);
        assert_eq!(stats.iteration_expanded, own.iteration_expanded);
    }
}
