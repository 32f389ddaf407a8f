//! IDA* from both ends of a board's path in turn: from the board to the goal (the heuristic
//! aimed at the goal) and from the goal to the board (aimed at the board). The two are the
//! same problem, and a bound either proves holds for the other, but on the 24-puzzle one can
//! expand a hundred times the nodes of the other, and which one is known only by trying.
//!
//! So the two take turns on each iteration, each keeping the subtrees of it it has finished
//! ([`Resume`]); a turn runs until its direction has spent twice the time the other has on
//! the iteration (the first, [`Race::first_turn`]). The first to finish the iteration proves
//! the next bound for both, and the next iteration begins with it. A direction that needs `T`
//! on an iteration finishes it before the other has spent more than `2T`, so the race costs
//! at most three times (about twice, typically) the better direction's search, iteration by
//! iteration, where a fixed direction can cost a hundred times. Each turn but the last loses
//! the subtrees under way when it ended; turns growing twice as long keep those few.

use super::ida::{forecast, prepare_pruning, Resume, SearchOutcome, TurnIteration, Watch};
use super::{SearchError, SearchedSubtrees};
use crate::SearchStats;
use std::time::{Duration, Instant};

/// Which end of a board's path a search starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// From the board to the goal, the heuristic aimed at the goal.
    Forwards,
    /// From the goal to the board, the heuristic aimed at the board; its moves lead from the
    /// goal to the board.
    Backwards,
}

impl Direction {
    /// The other end.
    pub fn other(self) -> Direction {
        match self {
            Direction::Forwards => Direction::Backwards,
            Direction::Backwards => Direction::Forwards,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// One turn of a race: a direction's search from the race's bound until its turn ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// Who searched.
    pub direction: Direction,
    /// The bound it started from.
    pub from_bound: u32,
    /// The bound it proved (the threshold of the iteration it ended in; unchanged if it
    /// finished none).
    pub to_bound: u32,
    /// Nodes it expanded.
    pub expanded: u64,
    /// How long it ran.
    pub time: Duration,
}

/// A race won: the winner's solution and every turn taken.
#[derive(Debug, Clone)]
pub struct Raced {
    /// The solution as the winner found it (from the goal to the board when it searched
    /// backwards), with the work of every turn of both directions: each iteration's nodes are
    /// those both expanded on it ([`SearchStats::add_run`]).
    pub outcome: SearchOutcome,
    /// Who found it.
    pub winner: Direction,
    /// The turns in order, the winning one last.
    pub turns: Vec<Turn>,
}

/// How a race is run.
#[derive(Debug, Clone)]
pub struct Race<'w> {
    /// The time of the first turn on each iteration (each later turn doubles the time spent).
    pub first_turn: Duration,
    /// The race gives up this long after it begins (the automata it builds included), with
    /// the bound it proved.
    pub time_limit: Option<Duration>,
    /// Where it starts: a bound proved earlier (by either direction) and, if that bound's
    /// iteration was stopped, the subtrees of it one direction finished (whichever search's
    /// fingerprint matches them takes them).
    pub resume: Resume,
    /// Told at each turn which direction searches and what it did on the iteration before
    /// ([`Watch::begin_turn`]), for a front end's line; the searches publish their progress to
    /// it themselves.
    pub watch: Option<&'w Watch>,
}

/// The shortest turn: a search looks at the clock every few milliseconds.
const SHORTEST_TURN: Duration = Duration::from_millis(10);

/// The time a direction may have spent on an iteration at the end of its turn, given what the
/// other has spent: twice that, and at least `first`.
fn turn_target(other_spent: Duration, first: Duration) -> Duration {
    const GROWTH: u32 = 2;
    (other_spent * GROWTH).max(first).max(SHORTEST_TURN)
}

/// Runs `search` from both ends in turn (see the module docs) until one finds a solution:
/// `search(direction, deadline, resume)` is IDA* of the board in that direction, stopped at
/// `deadline` with [`SearchError::Timeout`] and continued from `resume`; a run that stops
/// before its deadline was stopped by its watch, and the race stops with it.
///
/// Exact: the solution is shortest when both searches are (admissible heuristics, a true
/// starting bound), since each iteration starts from a bound proved by one of them. At the
/// race's deadline or a stop, [`SearchError::Timeout`] carries the bound proved and the
/// subtrees finished of its iteration by the direction that spent the more time on it.
///
/// Every turn after the first resumes a search above its start's estimate, which follows the
/// longest duplicate strings at once: their automata (about a second's build, once a process)
/// are built before the first such turn, within the time limit but charged to neither
/// direction. A limit shorter than the build stops the race after its first turn.
pub fn race_both_ways<S>(race: &Race, mut search: S) -> Result<Raced, SearchError>
where
    S: FnMut(Direction, Option<Instant>, &Resume) -> Result<SearchOutcome, SearchError>,
{
    // A limit past what the clock holds is no limit.
    let deadline = race
        .time_limit
        .and_then(|limit| Instant::now().checked_add(limit));
    let mut bound = race.resume.lower_bound;
    // Per direction: the subtrees finished of the iteration of `bound`, and time spent on it.
    let mut finished: [Option<SearchedSubtrees>; 2] = [None, None];
    let mut spent = [Duration::ZERO; 2];
    // A token given to the race, not yet placed: tried on one direction, then on the other.
    let mut given = race.resume.searched.clone();
    let mut refused_by: Option<Direction> = None;
    let mut first_turn = race.first_turn;
    let mut favourite = Direction::Forwards;
    let mut turns: Vec<Turn> = Vec::new();
    // The work of each direction's turns, iteration by iteration, and who finished each
    // iteration finished so far, in order.
    let mut own = [SearchStats::default(), SearchStats::default()];
    let mut finished_by: Vec<(u32, Direction)> = Vec::new();
    loop {
        // Built once a process: later calls find them built.
        if !turns.is_empty() || race.resume.lower_bound > 0 {
            prepare_pruning();
        }
        let now = Instant::now();
        if deadline.is_some_and(|d| now >= d) {
            return Err(stopped(bound, &own, &spent, finished));
        }
        let (f, b) = (spent[0], spent[1]);
        let direction = match f.cmp(&b) {
            std::cmp::Ordering::Less => Direction::Forwards,
            std::cmp::Ordering::Greater => Direction::Backwards,
            std::cmp::Ordering::Equal => favourite,
        };
        let i = direction.index();
        let target = turn_target(spent[direction.other().index()], first_turn);
        let turn_end = now + target.saturating_sub(spent[i]).max(SHORTEST_TURN);
        let turn_deadline = deadline.map_or(turn_end, |d| d.min(turn_end));
        let trying_given =
            finished[i].is_none() && given.is_some() && refused_by != Some(direction);
        let resume = Resume {
            lower_bound: bound,
            searched: match trying_given {
                true => given.clone(),
                false => finished[i].clone(),
            },
        };
        if let Some(watch) = race.watch {
            watch.begin_turn(
                direction,
                turn_iteration(direction, bound, &own[i], &finished_by),
            );
        }
        let result = search(direction, Some(turn_deadline), &resume);
        let time = now.elapsed();
        match result {
            Ok(mut outcome) => {
                turns.push(Turn {
                    direction,
                    from_bound: bound,
                    to_bound: outcome.moves.len() as u32,
                    expanded: outcome.stats.expanded,
                    time,
                });
                own[i].add_run(&outcome.stats);
                outcome.stats = every_turn(&own);
                return Ok(Raced {
                    outcome,
                    winner: direction,
                    turns,
                });
            }
            Err(SearchError::ResumeMismatch(why)) if trying_given => match refused_by {
                // Refused by both: recorded by another search altogether.
                Some(_) => return Err(SearchError::ResumeMismatch(why)),
                None => refused_by = Some(direction),
            },
            Err(SearchError::Timeout {
                lower_bound,
                stats,
                searched,
            }) => {
                if trying_given {
                    given = None;
                }
                turns.push(Turn {
                    direction,
                    from_bound: bound,
                    to_bound: lower_bound.max(bound),
                    expanded: stats.expanded,
                    time,
                });
                own[i].add_run(&stats);
                let done = stats.thresholds.iter().filter(|&&t| t < lower_bound);
                finished_by.extend(done.map(|&t| (t, direction)));
                if lower_bound > bound {
                    // It finished the iteration (and perhaps more): a new one for both, whose
                    // first turn is as long as this turn's part of it may have been.
                    bound = lower_bound;
                    finished = [None, None];
                    spent = [Duration::ZERO; 2];
                    first_turn = race.first_turn.max(time / 2);
                    favourite = direction;
                    given = None;
                } else {
                    spent[i] += time;
                }
                finished[i] = searched;
                if Instant::now() < turn_deadline {
                    // Stopped by its watch, not by its turn's end.
                    return Err(stopped(bound, &own, &spent, finished));
                }
            }
            Err(e) => return Err(e),
        }
    }
}

/// What a turn of `direction` resumes at `bound`, for its watch: the nodes the direction
/// expanded on that iteration in its earlier turns (`own`: its turns' work), and a forecast of
/// its nodes on it in all from the two iterations before, where it finished both
/// (`finished_by`: who finished each iteration, in order).
fn turn_iteration(
    direction: Direction,
    bound: u32,
    own: &SearchStats,
    finished_by: &[(u32, Direction)],
) -> TurnIteration {
    let forecast = match finished_by {
        [.., (before, first), (last, second)] if *first == direction && *second == direction => {
            let nodes = |t| own.iteration_nodes(t);
            nodes(*before)
                .zip(nodes(*last))
                .and_then(|(before, last)| forecast(before, last))
        }
        _ => None,
    };
    TurnIteration {
        threshold: bound,
        carried: own.iteration_nodes(bound).unwrap_or(0),
        forecast,
    }
}

/// The work of every turn of both directions (`own`: each direction's), iteration by
/// iteration ([`SearchStats::add_run`]).
fn every_turn(own: &[SearchStats; 2]) -> SearchStats {
    let mut work = own[0].clone();
    work.add_run(&own[1]);
    work
}

/// The race stopped at `bound`: the bound, the work of every turn (`own`: each direction's),
/// and the finished subtrees of the direction that spent the more time on that bound's
/// iteration.
fn stopped(
    bound: u32,
    own: &[SearchStats; 2],
    spent: &[Duration; 2],
    finished: [Option<SearchedSubtrees>; 2],
) -> SearchError {
    let [forwards, backwards] = finished;
    let searched = match spent[1] > spent[0] {
        true => backwards.or(forwards),
        false => forwards.or(backwards),
    };
    SearchError::Timeout {
        lower_bound: bound,
        stats: Box::new(every_turn(own)),
        searched,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::testing::random_walk;
    use crate::tiles::{ida_star, ida_star_resumed, Manhattan, Watch};
    use crate::SearchStats;
    use godsearch_puzzles::tiles::{Board, Move, Shape};
    use rand::SeedableRng;

    fn from_the_start(first_turn: Duration) -> Race<'static> {
        Race {
            first_turn,
            time_limit: None,
            resume: Resume::default(),
            watch: None,
        }
    }

    /// IDA* of `board` in `direction` with Manhattan distance, on two threads.
    fn ida(
        board: &Board,
        direction: Direction,
        deadline: Option<Instant>,
        watch: Option<&Watch>,
        resume: &Resume,
    ) -> Result<SearchOutcome, SearchError> {
        let goal = Board::goal(board.shape());
        let (start, to) = match direction {
            Direction::Forwards => (board, &goal),
            Direction::Backwards => (&goal, board),
        };
        let heuristic = Manhattan::new(to).unwrap();
        ida_star_resumed(start, to, &heuristic, 2, deadline, watch, resume)
    }

    /// The race's moves from the board to the goal, replayed.
    fn replayed(board: &Board, raced: &Raced) -> usize {
        let moves: Vec<Move> = match raced.winner {
            Direction::Forwards => raced.outcome.moves.clone(),
            Direction::Backwards => raced
                .outcome
                .moves
                .iter()
                .rev()
                .map(|m| m.inverse())
                .collect(),
        };
        let mut replay = board.clone();
        assert!(moves.iter().all(|&m| replay.apply(m)), "{board}");
        assert_eq!(replay, Board::goal(board.shape()), "{board}");
        moves.len()
    }

    /// Turns of a few milliseconds, so that the directions take many turns over an iteration
    /// and hand bounds and finished subtrees to each other: every solution is still shortest.
    #[test]
    fn a_race_of_short_turns_finds_shortest_solutions() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(31);
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let mut both_ran = 0;
        for _ in 0..6 {
            let board = random_walk(&goal, 500, &mut rng);
            let shortest = ida_star(&board, &goal, &Manhattan::new(&goal).unwrap(), 2)
                .unwrap()
                .moves
                .len();
            let watch = Watch::default();
            let race = Race {
                watch: Some(&watch),
                ..from_the_start(Duration::ZERO)
            };
            let raced = race_both_ways(&race, |d, deadline, resume| {
                ida(&board, d, deadline, Some(&watch), resume)
            })
            .unwrap();
            assert_eq!(replayed(&board, &raced), shortest, "{board}");
            // The watch was told who searched: last, the winner.
            assert_eq!(watch.direction(), Some(raced.winner));
            let turns = &raced.turns;
            assert_eq!(turns.last().unwrap().direction, raced.winner);
            assert!(turns.windows(2).all(|t| t[0].to_bound <= t[1].from_bound));
            // The report counts every turn's work, iteration by iteration.
            let stats = &raced.outcome.stats;
            let expanded: u64 = turns.iter().map(|t| t.expanded).sum();
            assert_eq!(stats.expanded, expanded);
            assert_eq!(stats.iteration_expanded.iter().sum::<u64>(), expanded);
            assert!(stats.thresholds.windows(2).all(|t| t[0] < t[1]));
            assert_eq!(stats.thresholds.last(), Some(&(shortest as u32)));
            assert!(stats.generated >= stats.expanded, "{stats:?}");
            if [Direction::Forwards, Direction::Backwards]
                .iter()
                .all(|&d| turns.iter().any(|t| t.direction == d))
            {
                both_ran += 1;
            }
        }
        assert!(both_ran >= 3, "only {both_ran} races took turns both ways");
    }

    /// A turn's watch is told its direction's nodes on the iteration in its earlier turns,
    /// and a forecast of them in all only where that direction finished the two iterations
    /// before.
    #[test]
    fn a_turn_is_told_its_directions_nodes_and_forecast_on_the_iteration() {
        use Direction::{Backwards, Forwards};
        let own = SearchStats {
            thresholds: vec![51, 53, 55],
            iteration_expanded: vec![100, 400, 700],
            ..SearchStats::default()
        };
        let both_forwards = [(49, Backwards), (51, Forwards), (53, Forwards)];
        assert_eq!(
            turn_iteration(Forwards, 55, &own, &both_forwards),
            TurnIteration {
                threshold: 55,
                carried: 700,
                forecast: Some(1600),
            }
        );
        let mixed = [(51, Forwards), (53, Backwards)];
        assert_eq!(turn_iteration(Forwards, 55, &own, &mixed).forecast, None);
        assert_eq!(
            turn_iteration(Backwards, 55, &own, &both_forwards).forecast,
            None
        );
        let next = turn_iteration(Forwards, 57, &own, &[(53, Forwards), (55, Forwards)]);
        assert_eq!((next.carried, next.forecast), (0, Some(700 * 700 / 400)));
    }

    /// One iteration that takes each direction a set time: the race's turns, the time each
    /// spends, and who wins.
    struct Staged {
        needs: [Duration; 2],
        spent: [Duration; 2],
    }

    impl Staged {
        fn search(
            &mut self,
            d: Direction,
            deadline: Option<Instant>,
        ) -> Result<SearchOutcome, SearchError> {
            let i = d.index();
            let left = self.needs[i].saturating_sub(self.spent[i]);
            let until = deadline.unwrap().saturating_duration_since(Instant::now());
            // Time as the race measures it, oversleeping included.
            let slept = Instant::now();
            std::thread::sleep(left.min(until));
            self.spent[i] += slept.elapsed();
            match self.spent[i] >= self.needs[i] {
                true => Ok(SearchOutcome {
                    moves: vec![Move::Up; 7],
                    stats: SearchStats::default(),
                }),
                false => Err(SearchError::Timeout {
                    lower_bound: 7,
                    stats: Box::new(SearchStats {
                        expanded: 1,
                        ..SearchStats::default()
                    }),
                    searched: None,
                }),
            }
        }
    }

    #[test]
    fn the_direction_that_needs_less_wins_before_the_other_spends_three_times_as_much() {
        for (needs, winner) in [
            ([600, 60], Direction::Backwards),
            ([60, 600], Direction::Forwards),
            ([60, 150], Direction::Forwards),
        ] {
            let mut staged = Staged {
                needs: needs.map(Duration::from_millis),
                spent: [Duration::ZERO; 2],
            };
            let race = Race {
                resume: Resume {
                    lower_bound: 7,
                    searched: None,
                },
                ..from_the_start(Duration::from_millis(10))
            };
            let raced = race_both_ways(&race, |d, deadline, _| staged.search(d, deadline)).unwrap();
            assert_eq!(raced.winner, winner, "{needs:?}");
            let loser = winner.other().index();
            assert!(
                staged.spent[loser] <= staged.needs[winner.index()] * 3,
                "{needs:?}: {:?}",
                staged.spent
            );
            assert!(raced.turns.len() <= 8, "{needs:?}: {:?}", raced.turns);
        }
    }

    /// Stopped by its deadline or its watch, a race reports the bound proved and the subtrees
    /// finished, which a race continued takes up, whichever direction finished them.
    #[test]
    fn a_race_stops_with_its_bound_and_continues_from_it() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let mut continued = 0;
        for _ in 0..20 {
            let board = random_walk(&goal, 500, &mut rng);
            let watch = Watch::with_node_limit(1 << 22);
            let race = from_the_start(Duration::from_millis(1));
            let stopped = race_both_ways(&race, |d, deadline, resume| {
                ida(&board, d, deadline, Some(&watch), resume)
            });
            let Err(SearchError::Timeout {
                lower_bound,
                searched: Some(searched),
                ..
            }) = stopped
            else {
                continue;
            };
            let resume = Resume {
                lower_bound,
                searched: Some(searched),
            };
            let race = Race {
                resume: resume.clone(),
                ..from_the_start(Duration::from_millis(1))
            };
            let raced = race_both_ways(&race, |d, deadline, resume| {
                ida(&board, d, deadline, None, resume)
            })
            .unwrap();
            let shortest = ida_star(&board, &goal, &Manhattan::new(&goal).unwrap(), 2)
                .unwrap()
                .moves
                .len();
            assert_eq!(replayed(&board, &raced), shortest, "{board}");
            assert_eq!(raced.turns[0].from_bound, lower_bound);
            // A token neither direction recorded is refused.
            let mut tampered = resume.clone();
            tampered.searched.as_mut().unwrap().split ^= 1;
            let race = Race {
                resume: tampered,
                ..from_the_start(Duration::from_millis(1))
            };
            let refused = race_both_ways(&race, |d, deadline, resume| {
                ida(&board, d, deadline, None, resume)
            });
            assert!(
                matches!(refused, Err(SearchError::ResumeMismatch(_))),
                "{refused:?}"
            );
            continued += 1;
            if continued == 2 {
                return;
            }
        }
        panic!("only {continued} races stopped with subtrees finished");
    }
}
