//! The pancake puzzle (`pancake-N`): a stack of N pancakes of different sizes, a move flips the
//! top k of them (k = 2..N), the goal is the stack sorted, smallest on top.
//!
//! The whole puzzle is this module: its state space over the generic engines, its position
//! format, the gap heuristic, and its registry entry. It is the model for adding a puzzle.
//!
//! - A stack is written top first as the sizes 1..N (`3,1,2` or `3 1 2`); a move is the number
//!   of pancakes it flips (`4 2 3`).
//! - States are Lehmer ranks of the stack (0 = sorted), so every engine takes it: BFS by table
//!   or frontier (on disk or distributed too), table descent, IDA* and A*.
//! - The gap heuristic (Helmert 2010) counts neighbouring pancakes, the plate counting as
//!   pancake N + 1, whose sizes differ by more than one. A flip changes one neighbouring pair,
//!   so it closes at most one gap: admissible and consistent (tested against BFS distances).

use super::{
    no_board_options, no_generators, no_info_generators, InfoQuery, Puzzle, PuzzleKind, Scrambler,
    Verifier, VerifyQuery,
};
use crate::bfs::{self, BfsRequest, RankedRun};
use crate::choice::Algorithm;
use crate::error::ida_stopped;
use crate::progress::Notice;
use crate::report::{AnyInfo, BfsReport, DefinitionSolution, PuzzleInfo, Scramble, VerifyReport};
use crate::request::{
    check_replay_size, shorter, BfsJob, JobControl, JobLimits, PuzzleEntry, Replay, ReplayRequest,
    ScrambleRequest, SolutionDocument, SolveReport, SolveRequest, View, Workbench,
};
use crate::verify::Claim;
use crate::{scramble, AppError, AppResult};
use godsearch_core::perm::placement_index;
use godsearch_core::{excerpt, Heuristic, MoveIdx, Progress, RankedSpace, StateSpace};
use godsearch_enumerate::{table, Limits};
use godsearch_search::{astar_until, descend, ida_star_until, AStarError, IdaError};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The largest stack: 20! ranks still fit in 64 bits.
pub const MAX_PANCAKES: usize = 20;

/// The largest stack `--algorithm table` builds a table of every position for (12! ranks,
/// 120 MB at two bits each).
pub const MAX_TABLE_PANCAKES: usize = 12;

/// Bytes A* keeps a stack it has seen in (state, cost, parent, move, and the hash index).
const ASTAR_BYTES_PER_STATE: u64 = 48;

/// The solve options the pancake puzzle takes (see [`PuzzleEntry::options`]).
const PANCAKE_OPTIONS: [&str; 2] = ["algorithm", "timeout"];

/// The pancake puzzle's names: `pancake-N`.
pub struct PancakeKind;

impl PuzzleKind for PancakeKind {
    fn family(&self) -> &'static str {
        "pancake"
    }

    fn names_help(&self) -> String {
        "the pancake puzzle pancake-N (N = 2..20)".into()
    }

    fn listed(&self) -> Vec<String> {
        vec!["pancake-8".into()]
    }

    fn open(&self, name: &str, _: bool) -> Option<AppResult<Box<dyn Puzzle>>> {
        let lower = name.to_ascii_lowercase();
        let count = lower.strip_prefix("pancake-")?;
        Some(match count.parse::<usize>() {
            Ok(n) if (2..=MAX_PANCAKES).contains(&n) => Ok(Box::new(Pancakes { n })),
            _ => Err(AppError::Input(format!(
                "'{}': the pancake puzzle is pancake-N with N from 2 to {MAX_PANCAKES}",
                excerpt(name)
            ))),
        })
    }
}

/// Stacks of `n` pancakes, ranked by their Lehmer code (0 = sorted); move `k - 2` flips the
/// top `k`.
#[derive(Debug, Clone, Copy)]
pub struct Pancakes {
    n: usize,
}

impl Pancakes {
    /// A shortest way to the sorted stack from the stack of rank `start`: IDA* with the gap
    /// heuristic, giving up at `deadline` or when `stop` is set (the bound proven in the error).
    fn ida(
        &self,
        start: u64,
        deadline: Option<Instant>,
        stop: Option<&AtomicBool>,
    ) -> AppResult<godsearch_search::Path> {
        ida_star_until(self, &Gaps(*self), start, deadline, stop).map_err(|e| {
            ida_stopped(e, "flips", || {
                AppError::Check("the search found no way to the sorted stack".into())
            })
        })
    }

    /// Replays `claim` (flips from a stack) and, with `proves`, finds the start's distance by
    /// IDA* with the gap heuristic (exact) to tell whether the flips are a shortest way.
    fn verify(&self, claim: Claim, proves: bool) -> AppResult<VerifyReport> {
        let stack = self.parse(claim.start)?;
        let flips = self.parse_flips(claim.moves)?;
        let mut end = stack.clone();
        for &m in &flips {
            Self::flip(&mut end, m as usize + 2);
        }
        let reaches_goal = self.rank(&end) == 0;
        let shortest = match proves {
            true => Some(self.ida(self.rank(&stack), None, None)?.moves.len()),
            false => None,
        };
        Ok(VerifyReport {
            puzzle: self.name(),
            start: claim.start.to_string(),
            moves: flips
                .iter()
                .map(|&m| self.move_name(m))
                .collect::<Vec<_>>()
                .join(" "),
            end: Self::format(&end),
            reaches_goal,
            problem: (!reaches_goal).then(|| "the stack is not sorted".to_string()),
            length: flips.len(),
            metric: "flips",
            htm: None,
            qtm: None,
            stm: None,
            etm: None,
            optimal: shortest.filter(|_| reaches_goal).map(|s| s == flips.len()),
            shortest,
            lower_bound: None,
        })
    }

    /// Stacks of `n` pancakes (2..=[`MAX_PANCAKES`]).
    pub fn new(n: usize) -> AppResult<Self> {
        match (2..=MAX_PANCAKES).contains(&n) {
            true => Ok(Pancakes { n }),
            false => Err(AppError::Input(format!(
                "a stack of {n} pancakes: from 2 to {MAX_PANCAKES}"
            ))),
        }
    }

    /// The rank of a stack (sizes `0..n`, top first).
    pub fn rank(&self, stack: &[u8]) -> u64 {
        placement_index(stack.iter().map(|&p| p as u32), self.n as u64)
    }

    /// The stack of a rank: Lehmer code digits, most significant first.
    pub fn unrank(&self, rank: u64) -> Vec<u8> {
        let mut stack = [0u8; MAX_PANCAKES];
        self.unrank_into(rank, &mut stack);
        stack[..self.n].to_vec()
    }

    /// [`unrank`](Self::unrank) into `stack`'s first `n` places, allocating nothing (the
    /// searches call it at every node).
    fn unrank_into(&self, mut rank: u64, stack: &mut [u8; MAX_PANCAKES]) {
        let n = self.n;
        let mut digits = [0u32; MAX_PANCAKES];
        for i in (0..n).rev() {
            let base = (n - i) as u64;
            digits[i] = (rank % base) as u32;
            rank /= base;
        }
        // The d-th size not taken yet: the d-th set bit of `left`.
        let mut left: u32 = (1 << n) - 1;
        for (place, &d) in stack.iter_mut().zip(&digits[..n]) {
            let mut rest = left;
            for _ in 0..d {
                rest &= rest - 1;
            }
            let size = rest.trailing_zeros();
            left &= !(1 << size);
            *place = size as u8;
        }
    }

    /// The stack read from `text`: the sizes 1..n top first, separated by commas or spaces.
    pub fn parse(&self, text: &str) -> AppResult<Vec<u8>> {
        let bad = |why: String| AppError::Input(format!("stack '{}': {why}", excerpt(text)));
        let sizes: Vec<&str> = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .collect();
        if sizes.len() != self.n {
            return Err(bad(format!(
                "{} sizes given; pancake-{} has {} pancakes (sizes 1 to {}, top first)",
                sizes.len(),
                self.n,
                self.n,
                self.n
            )));
        }
        let mut seen = [false; MAX_PANCAKES];
        let mut stack = Vec::with_capacity(self.n);
        for s in sizes {
            let size = match s.parse::<usize>() {
                Ok(v) if (1..=self.n).contains(&v) => v,
                _ => {
                    return Err(bad(format!(
                        "'{}' is not a size from 1 to {}",
                        excerpt(s),
                        self.n
                    )))
                }
            };
            if std::mem::replace(&mut seen[size - 1], true) {
                return Err(bad(format!("size {size} is given twice")));
            }
            stack.push((size - 1) as u8);
        }
        Ok(stack)
    }

    /// A stack written as its sizes 1..n, top first, separated by commas.
    pub fn format(stack: &[u8]) -> String {
        stack
            .iter()
            .map(|&p| (p + 1).to_string())
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The flips a solution text names (`4 2 3`), each from 2 to n.
    pub fn parse_flips(&self, text: &str) -> AppResult<Vec<MoveIdx>> {
        text.split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .map(|s| match s.parse::<usize>() {
                Ok(k) if (2..=self.n).contains(&k) => Ok((k - 2) as MoveIdx),
                _ => Err(AppError::Input(format!(
                    "moves '{}': '{}' is not a flip of 2 to {} pancakes",
                    excerpt(text),
                    excerpt(s),
                    self.n
                ))),
            })
            .collect()
    }

    /// `stack` with its top `k` pancakes flipped.
    pub fn flip(stack: &mut [u8], k: usize) {
        stack[..k].reverse();
    }

    fn name(&self) -> String {
        format!("pancake-{}", self.n)
    }
}

impl RankedSpace for Pancakes {
    fn state_count(&self) -> u128 {
        (1..=self.n as u128).product()
    }

    #[inline]
    fn rank_of(&self, state: u64) -> usize {
        state as usize
    }

    #[inline]
    fn state_at(&self, rank: usize) -> u64 {
        rank as u64
    }
}

/// Move `k - 2` flips the top `k` pancakes; every flip is its own inverse.
impl StateSpace for Pancakes {
    type State = u64;

    fn goal_state(&self) -> u64 {
        0
    }

    fn move_count(&self) -> usize {
        self.n - 1
    }

    /// Every move gives a neighbour: counted without making one.
    fn degree(&self, _: u64) -> usize {
        self.n - 1
    }

    fn move_name(&self, m: MoveIdx) -> String {
        (m as usize + 2).to_string()
    }

    fn inverse_move(&self, m: MoveIdx) -> MoveIdx {
        m
    }

    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(MoveIdx, u64)) {
        let mut stack = [0u8; MAX_PANCAKES];
        self.unrank_into(rank, &mut stack);
        for k in 2..=self.n {
            let mut flipped = stack;
            Self::flip(&mut flipped, k);
            f((k - 2) as MoveIdx, self.rank(&flipped[..self.n]));
        }
    }
}

/// The gap heuristic (see the module docs): admissible and consistent.
pub struct Gaps(pub Pancakes);

impl Heuristic<u64> for Gaps {
    const CONSISTENT: bool = true;

    fn lower_bound(&self, rank: u64) -> u32 {
        let n = self.0.n;
        let mut stack = [0u8; MAX_PANCAKES];
        self.0.unrank_into(rank, &mut stack);
        let gaps = stack[..n]
            .windows(2)
            .filter(|w| w[0].abs_diff(w[1]) > 1)
            .count();
        // The plate is pancake n under the stack: a gap unless the largest lies on it.
        let plate_gap = stack[n - 1] as usize != n - 1;
        (gaps + usize::from(plate_gap)) as u32
    }
}

impl Pancakes {
    /// The algorithm `request` names, refusing those this puzzle does not offer.
    fn algorithm(&self, request: &SolveRequest) -> AppResult<Algorithm> {
        match request.algorithm {
            Algorithm::Auto | Algorithm::Ida => Ok(Algorithm::Ida),
            Algorithm::Astar => Ok(Algorithm::Astar),
            Algorithm::Table if self.n <= MAX_TABLE_PANCAKES => Ok(Algorithm::Table),
            Algorithm::Table => Err(AppError::Input(format!(
                "a table of every stack is built up to pancake-{MAX_TABLE_PANCAKES}; pancake-{} is solved by IDA* (the default)",
                self.n
            ))),
            other => Err(AppError::Input(format!(
                "the pancake puzzle is solved by ida (the default), astar or table, not {}",
                other.name()
            ))),
        }
    }

    fn check_options(&self, request: &SolveRequest) -> AppResult<Algorithm> {
        no_generators(&request.generators)?;
        request.refuse_options_but(
            &PANCAKE_OPTIONS,
            "is not taken by the pancake puzzle, which takes only «algorithm» and «timeout»",
        )?;
        request.timeout()?;
        self.algorithm(request)
    }
}

impl Puzzle for Pancakes {
    fn entry(&self) -> PuzzleEntry {
        let goal: Vec<u8> = (0..self.n as u8).collect();
        PuzzleEntry {
            name: self.name(),
            kind: PancakeKind.family(),
            goal: Self::format(&goal),
            algorithms: vec!["auto", "ida", "astar", "table"],
            partitions: Vec::new(),
            moves: Vec::new(),
            solution: SolutionDocument::Moves,
            patterns: false,
            view: View::Stack,
            options: PANCAKE_OPTIONS.to_vec(),
            metrics: Vec::new(),
            heuristics: Vec::new(),
            default_heuristic: "the gap heuristic (Helmert 2010)".into(),
        }
    }

    fn info(&self, query: &InfoQuery) -> AppResult<AnyInfo> {
        no_info_generators(query)?;
        let entry = self.entry();
        Ok(AnyInfo::Puzzle(PuzzleInfo {
            puzzle: entry.name,
            kind: entry.kind,
            goal: entry.goal,
            positions: self.state_count().to_string(),
            moves: (0..self.move_count() as MoveIdx)
                .map(|m| self.move_name(m))
                .collect(),
            algorithms: entry.algorithms,
            table_bytes: u64::try_from(table::table_bytes(self.state_count())).ok(),
        }))
    }

    fn check_solve(&self, request: &SolveRequest) -> AppResult<()> {
        self.check_options(request)?;
        self.parse(&request.position).map(|_| ())
    }

    fn solve(
        &self,
        _: &Workbench,
        request: &SolveRequest,
        limits: &JobLimits,
        control: &JobControl,
    ) -> AppResult<SolveReport> {
        let algorithm = self.check_options(request)?;
        let stack = self.parse(&request.position)?;
        let start = self.rank(&stack);
        let deadline = shorter(request.timeout()?, limits.max_seconds).map(|t| Instant::now() + t);
        let began = Instant::now();
        let mut build_seconds = 0.0;
        let (moves, method, nodes) = match algorithm {
            Algorithm::Table => {
                let unbounded = Limits {
                    max_depth: None,
                    memory_bytes: limits.memory_bytes,
                    antipode_cap: 0,
                    count_last: false,
                };
                let built = table::enumerate(self, &unbounded, control)?;
                crate::bfs::table_complete(built.enumeration.stop)?;
                build_seconds = began.elapsed().as_secs_f64();
                let longest = built.enumeration.levels.len();
                (
                    descend(self, &built.table, start, longest)?,
                    "table descent",
                    0,
                )
            }
            Algorithm::Astar => {
                let most = (limits.memory_bytes / ASTAR_BYTES_PER_STATE).max(1);
                let stop = || control.cancel_flag().load(Ordering::Relaxed);
                let path =
                    astar_until(self, &Gaps(*self), start, most, &stop).map_err(|e| match e {
                        AStarError::Stopped {
                            lower_bound,
                            expanded,
                        } => ida_stopped(
                            IdaError::Timeout {
                                lower_bound,
                                expanded,
                            },
                            "flips",
                            || AppError::Check("A* stopped without a bound".into()),
                        ),
                        _ => AppError::Input(e.to_string()),
                    })?;
                (path.moves, "A* with the gap heuristic", path.stats.expanded)
            }
            _ => {
                let path = self.ida(start, deadline, Some(control.cancel_flag()))?;
                (
                    path.moves,
                    "IDA* with the gap heuristic",
                    path.stats.expanded,
                )
            }
        };
        let seconds = began.elapsed().as_secs_f64() - build_seconds;
        let mut replayed = stack;
        for &m in &moves {
            Self::flip(&mut replayed, m as usize + 2);
        }
        if self.rank(&replayed) != 0 {
            return Err(AppError::Check(format!(
                "the solution found for {} does not sort the stack when replayed",
                self.name()
            )));
        }
        let solution: Vec<String> = moves.iter().map(|&m| self.move_name(m)).collect();
        Ok(SolveReport::Definition(DefinitionSolution {
            puzzle: self.name(),
            start: request.position.clone(),
            length: solution.len(),
            solution: solution.join(" "),
            optimal: true,
            method: method.into(),
            databases: Vec::new(),
            build_seconds,
            nodes_expanded: nodes,
            seconds,
            solutions: None,
            rest_at_least: None,
            notes: Vec::new(),
        }))
    }

    fn check_bfs(&self, job: &BfsJob) -> AppResult<()> {
        no_generators(&job.generators)?;
        let refused = [
            (job.goal.is_some(), "«goal»"),
            (job.metric.is_some(), "«metric»"),
            (job.symmetry.is_some(), "«symmetry»"),
        ];
        match refused.iter().find(|(given, _)| *given) {
            Some((_, name)) => Err(AppError::Input(format!(
                "{name} is not taken by the pancake puzzle: it is enumerated from the sorted stack, one flip a move"
            ))),
            None => Ok(()),
        }
    }

    fn bfs(
        &self,
        job: &BfsJob,
        request: &BfsRequest,
        progress: &dyn Progress,
    ) -> AppResult<BfsReport> {
        self.check_bfs(job)?;
        let run = RankedRun {
            puzzle: self.name(),
            metric: "flips",
            run_name: format!("{} ranking lehmer v1", self.name()),
            what: "the pancake puzzle",
            identity: None,
        };
        let mut report = bfs::ranked(self, &run, request, progress)?;
        report.goal = Self::format(&self.unrank(0));
        Ok(report)
    }

    fn scrambler<'a>(
        &'a self,
        _: &'a Workbench,
        request: &ScrambleRequest,
        _: &JobLimits,
        _: &dyn Progress,
    ) -> AppResult<Box<dyn Scrambler + 'a>> {
        no_generators(&request.generators)?;
        no_board_options(request, "pancake stacks print as a list, or json")?;
        if request.metric.is_some() {
            return Err(AppError::Input(
                "«metric» is not taken by the pancake puzzle: one flip is one move".into(),
            ));
        }
        let automaton = self.sequence_automaton();
        let walk = request.moves;
        Ok(Box::new(move |rng: &mut StdRng| {
            let sorted: Vec<u8> = (0..self.n as u8).collect();
            let (stack, moves) = match walk {
                Some(length) => {
                    let mut stack = sorted;
                    let moves = scramble::random_sequence(
                        &automaton,
                        &mut stack,
                        length as usize,
                        rng,
                        |_, _| true,
                        |s, m| Self::flip(s, m as usize + 2),
                    )?;
                    (stack, Some(moves))
                }
                None => {
                    let mut stack = sorted;
                    stack.shuffle(rng);
                    (stack, None)
                }
            };
            Ok(Scramble {
                puzzle: self.name(),
                length: moves.as_ref().map(Vec::len),
                scramble: moves.map(|m| {
                    m.iter()
                        .map(|&m| self.move_name(m))
                        .collect::<Vec<_>>()
                        .join(" ")
                }),
                metric: None,
                position: Some(Self::format(&stack)),
            })
        }))
    }

    fn verifier<'a>(
        &'a self,
        _: &'a Workbench,
        query: &VerifyQuery,
        _: &dyn Progress,
        _: &mut dyn FnMut(Notice),
    ) -> AppResult<Verifier<'a>> {
        let unused = [
            (query.goal.is_some(), "«goal»"),
            (query.table.is_some(), "«table»"),
            (query.metric.is_some(), "«metric»"),
            (query.facelets, "«facelets»"),
            (query.notation.is_some(), "«notation»"),
            (query.prove, "«prove»"),
        ];
        if let Some((_, option)) = unused.iter().find(|(given, _)| *given) {
            return Err(AppError::Input(format!(
                "{option} is not taken by the pancake puzzle (lengths are proven shortest by IDA* with the gap heuristic)"
            )));
        }
        let proves = query.proves;
        Ok(Verifier {
            check: Box::new(move |claim| self.verify(claim, proves)),
            unproven: "the flips do not sort the stack, so there is no length to prove",
        })
    }

    fn replay(&self, request: &ReplayRequest) -> AppResult<Replay> {
        if request.goal.is_some() {
            return Err(AppError::Input(
                "«goal» is not taken by the pancake puzzle: the goal is the sorted stack".into(),
            ));
        }
        let mut stack = self.parse(&request.position)?;
        let flips = self.parse_flips(&request.solution)?;
        check_replay_size(flips.len(), self.n)?;
        let mut positions = vec![Self::format(&stack)];
        for &m in &flips {
            Self::flip(&mut stack, m as usize + 2);
            positions.push(Self::format(&stack));
        }
        Ok(Replay {
            positions,
            solved: self.rank(&stack) == 0,
        })
    }
}
