//! A puzzle registered at run time by a library (here a ring of `N` positions, turned one step
//! either way) is opened by every request that names it, enumerated by the same engines as
//! the built-in puzzles, and listed in the catalog the API serves.

use godsearch_app::bfs::{self, BfsRequest, RankedRun};
use godsearch_app::cache::TableCache;
use godsearch_app::registry::{self, Puzzle, PuzzleKind, Scrambler};
use godsearch_app::report::{BfsReport, DefinitionSolution, Scramble};
use godsearch_app::request::{
    catalog, BfsJob, JobControl, JobLimits, PuzzleEntry, Replay, ReplayRequest, ScrambleRequest,
    SolutionDocument, SolveReport, SolveRequest, TableSize, View, Workbench,
};
use godsearch_app::{AppError, AppResult};
use godsearch_core::{MoveIdx, Progress, RankedSpace, StateSpace};
use godsearch_testdata::data_dir;
use rand::rngs::StdRng;
use rand::Rng;

/// Positions `0..n` on a ring; a move turns it one step forward (`+`) or back (`-`).
#[derive(Debug, Clone, Copy)]
struct Ring {
    n: u64,
}

impl Ring {
    fn name(&self) -> String {
        format!("ring-{}", self.n)
    }

    fn parse(&self, text: &str) -> AppResult<u64> {
        match text.trim().parse::<u64>() {
            Ok(k) if k < self.n => Ok(k),
            _ => Err(AppError::Input(format!(
                "'{text}' is not a position of {}",
                self.name()
            ))),
        }
    }

    fn distance(&self, k: u64) -> u64 {
        k.min(self.n - k)
    }
}

impl StateSpace for Ring {
    type State = u64;

    fn goal_state(&self) -> u64 {
        0
    }

    fn move_count(&self) -> usize {
        2
    }

    fn move_name(&self, m: MoveIdx) -> String {
        ["+", "-"][m as usize].into()
    }

    fn inverse_move(&self, m: MoveIdx) -> MoveIdx {
        1 - m
    }

    fn for_each_neighbour(&self, state: u64, mut f: impl FnMut(MoveIdx, u64)) {
        f(0, (state + 1) % self.n);
        f(1, (state + self.n - 1) % self.n);
    }
}

impl RankedSpace for Ring {
    fn state_count(&self) -> u128 {
        u128::from(self.n)
    }

    fn rank_of(&self, state: u64) -> usize {
        state as usize
    }

    fn state_at(&self, rank: usize) -> u64 {
        rank as u64
    }
}

struct RingKind;

impl PuzzleKind for RingKind {
    fn family(&self) -> &'static str {
        "ring"
    }

    fn names_help(&self) -> String {
        "a ring ring-N".into()
    }

    fn listed(&self) -> Vec<String> {
        vec!["ring-12".into()]
    }

    fn open(&self, name: &str, _: bool) -> Option<AppResult<Box<dyn Puzzle>>> {
        let n = name.strip_prefix("ring-")?;
        Some(match n.parse::<u64>() {
            Ok(n) if n >= 2 => Ok(Box::new(Ring { n })),
            _ => Err(AppError::Input(format!(
                "{name}: a ring has 2 or more positions"
            ))),
        })
    }
}

impl Puzzle for Ring {
    fn entry(&self) -> PuzzleEntry {
        PuzzleEntry {
            name: self.name(),
            kind: RingKind.family(),
            goal: "0".into(),
            algorithms: vec!["auto"],
            partitions: Vec::new(),
            moves: Vec::new(),
            solution: SolutionDocument::Moves,
            patterns: false,
            view: View::Text,
            options: Vec::new(),
            metrics: Vec::new(),
            heuristics: Vec::new(),
            default_heuristic: "none: a ring's distance is worked out".into(),
        }
    }

    fn check_solve(&self, request: &SolveRequest) -> AppResult<()> {
        self.parse(&request.position).map(|_| ())
    }

    fn solve(
        &self,
        _: &Workbench,
        request: &SolveRequest,
        _: &JobLimits,
        _: &JobControl,
    ) -> AppResult<SolveReport> {
        let k = self.parse(&request.position)?;
        let steps = self.distance(k) as usize;
        let turn = if k <= self.n / 2 { "-" } else { "+" };
        Ok(SolveReport::Definition(DefinitionSolution {
            puzzle: self.name(),
            start: request.position.clone(),
            solution: vec![turn; steps].join(" "),
            length: steps,
            optimal: true,
            method: "the shorter way round".into(),
            databases: Vec::new(),
            build_seconds: 0.0,
            nodes_expanded: 0,
            seconds: 0.0,
            solutions: None,
            rest_at_least: None,
            notes: Vec::new(),
        }))
    }

    fn check_bfs(&self, _: &BfsJob) -> AppResult<()> {
        Ok(())
    }

    fn bfs(
        &self,
        _: &BfsJob,
        request: &BfsRequest,
        progress: &dyn Progress,
    ) -> AppResult<BfsReport> {
        let run = RankedRun {
            puzzle: self.name(),
            metric: "steps",
            run_name: format!("{} ranking v1", self.name()),
            what: "the ring",
            identity: None,
        };
        bfs::ranked(self, &run, request, progress)
    }

    fn scrambler<'a>(
        &'a self,
        _: &'a Workbench,
        _: &ScrambleRequest,
        _: &JobLimits,
        _: &dyn Progress,
    ) -> AppResult<Box<dyn Scrambler + 'a>> {
        Ok(Box::new(move |rng: &mut StdRng| {
            Ok(Scramble {
                puzzle: self.name(),
                scramble: None,
                length: None,
                metric: None,
                position: Some(rng.gen_range(0..self.n).to_string()),
            })
        }))
    }

    fn replay(&self, request: &ReplayRequest) -> AppResult<Replay> {
        let mut k = self.parse(&request.position)?;
        let mut positions = vec![k.to_string()];
        for turn in request.solution.split_whitespace() {
            k = match turn {
                "+" => (k + 1) % self.n,
                "-" => (k + self.n - 1) % self.n,
                other => return Err(AppError::Input(format!("unknown turn '{other}'"))),
            };
            positions.push(k.to_string());
        }
        Ok(Replay {
            positions,
            solved: k == 0,
        })
    }
}

fn limits() -> JobLimits {
    JobLimits {
        memory_bytes: 1 << 30,
        max_nodes: None,
        max_seconds: None,
        largest_table: TableSize::Small,
        max_scrambles: 100,
        definition_files: false,
    }
}

#[test]
fn a_puzzle_registered_at_run_time_is_offered_everywhere() {
    assert!(registry::open("ring-12", false).is_err());
    registry::register(&RingKind);
    registry::register(&RingKind);
    assert_eq!(
        registry::kinds()
            .iter()
            .filter(|k| k.family() == "ring")
            .count(),
        1
    );
    let listed = catalog();
    assert!(
        listed
            .puzzles
            .iter()
            .any(|p| p.name == "ring-12" && p.kind == "ring"),
        "the catalog lists the registered puzzle"
    );

    let dir = tempfile::tempdir().unwrap();
    let bench = Workbench::new(TableCache::new(dir.path().to_path_buf()));
    let control = JobControl::new(None);
    let report = bench
        .bfs(&BfsJob::new("ring-12"), &limits(), &control)
        .unwrap();
    assert_eq!(report.levels, vec![1, 2, 2, 2, 2, 2, 1]);
    let solved = bench
        .solve(&SolveRequest::new("ring-12", "9"), &limits(), &control)
        .unwrap();
    let SolveReport::Definition(solution) = solved else {
        panic!("the ring's own report");
    };
    assert_eq!(solution.solution, "+ + +");
    let scrambles = bench
        .scramble(
            &ScrambleRequest {
                puzzle: "ring-12".into(),
                generators: None,
                count: 5,
                moves: None,
                metric: None,
                seed: Some(1),
                format: None,
                goal: None,
            },
            &limits(),
            &control,
        )
        .unwrap();
    assert_eq!(scrambles.len(), 5);
    let unknown = registry::open("ring-1", false).err().unwrap().to_string();
    assert!(unknown.contains("2 or more"), "{unknown}");
    let nobody = registry::open("nothing-5", false)
        .err()
        .unwrap()
        .to_string();
    assert!(nobody.contains("a ring ring-N"), "{nobody}");
}

proptest::proptest! {
    /// Any text opens a puzzle or is refused, never a panic; an opened puzzle's own name opens
    /// the same puzzle again (every kind's names, boards of any size included).
    #[test]
    fn puzzle_names_never_panic_and_read_back(
        text in "[0-9a-fA-FxX,. _+'\\-pnckrubiswmgyto/]{0,30}"
    ) {
        if let Ok(puzzle) = registry::open(&text, false) {
            let name = puzzle.entry().name;
            let again = registry::open(&name, false).map(|p| p.entry().name);
            proptest::prop_assert_eq!(again.ok(), Some(name));
        }
    }
}

/// A server operator's definition files, offered by their definitions' names: listed in the
/// catalog, opened and solved by name where no file may be read, drawn as definitions; a name
/// already taken (the shipped skewb) and a second set are refused.
#[test]
fn offered_definitions_are_puzzles_by_name() {
    use godsearch_app::registry::definition::OfferedKind;
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(data_dir().join("definitions/skewb.kpuzzle.json"))
        .unwrap()
        .replace("\"name\": \"skewb\"", "\"name\": \"my-skewb\"");
    let mine = dir.path().join("mine.kpuzzle.json");
    std::fs::write(&mine, &text).unwrap();
    let taken = dir.path().join("taken.kpuzzle.json");
    std::fs::copy(data_dir().join("definitions/skewb.kpuzzle.json"), &taken).unwrap();
    let refused = OfferedKind::register(std::slice::from_ref(&taken)).unwrap_err();
    assert!(
        refused.to_string().contains("already named 'skewb'"),
        "{refused}"
    );

    assert_eq!(
        OfferedKind::register(std::slice::from_ref(&mine)).unwrap(),
        ["my-skewb"]
    );
    let entry = catalog()
        .puzzles
        .into_iter()
        .find(|p| p.name == "my-skewb")
        .expect("listed");
    assert_eq!(entry.kind, "definition");
    let bench = Workbench::new(TableCache::new(dir.path().to_path_buf()));
    let request = SolveRequest::new("My-Skewb", "R U' L");
    let solved = bench
        .solve(&request, &limits(), &JobControl::new(None))
        .unwrap();
    let SolveReport::Definition(solution) = solved else {
        panic!("a definition's report");
    };
    assert_eq!(solution.length, 3);
    let again = OfferedKind::register(&[mine]).unwrap_err();
    assert!(again.to_string().contains("already offered"), "{again}");
}
