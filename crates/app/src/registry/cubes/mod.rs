//! The 2x2x2 and 3x3x3 cubes in the registry: the 2x2x2 solved by table descent or half-depth
//! search, the 3x3x3 by two-phase, optimally by IDA* over the optimal solver's table, or by
//! half-depth search; both enumerated (the 3x3x3 by symmetry classes) and scrambled.
//!
//! Everything the cubes need beyond the generic engines lives in this module's files: the
//! solvers ([`solvers`]) and the batch that chooses among them ([`batch`]), the tables a
//! workbench keeps loaded ([`loaded`]), enumeration ([`bfs`]), scrambles ([`scramble`]),
//! checking solutions ([`verify`]) and what `info` says ([`info`]).

pub mod batch;
pub mod bfs;
pub mod info;
pub mod loaded;
pub mod scramble;
pub mod solvers;
pub mod tables;
pub mod verify;

use super::{
    no_board_format, no_generators, no_info_generators, InfoQuery, Puzzle, PuzzleKind,
    ReadingCache, Scrambler, Verifier, VerifyQuery,
};
use crate::batch::Batch;
use crate::bfs::BfsRequest;
use crate::progress::Notice;
use crate::report::{AnyInfo, BfsReport};
use crate::request::{
    check_replay_size, optimal_table_size, BfsJob, JobLimits, PuzzleEntry, Replay, ReplayRequest,
    ScrambleRequest, SolutionDocument, SolveRequest, View, Workbench,
};
use crate::{AppError, AppResult};
use batch::CubeBatch;
use godsearch_core::{excerpt, Progress};
use godsearch_puzzles::cube::algorithm::Algorithm as CubeAlgorithm;
use godsearch_puzzles::cube::{
    facelet, parse_position, Cube2Space, CubeSize, CubieCube, Metric, Reduction, Syntax, TurnMetric,
};
use rand::rngs::StdRng;
use verify::CubeProver;

/// The notation front ends write cube moves in.
pub use godsearch_puzzles::cube::Notation;

/// The cubes: `2x2x2` (`cube2`, `pocket`) and `3x3x3` (`cube`, `cube3`, `rubik`).
pub struct CubesKind;

impl PuzzleKind for CubesKind {
    fn family(&self) -> &'static str {
        "cube"
    }

    fn names_help(&self) -> String {
        "a cube: 2x2x2 (cube2), 3x3x3 (cube, cube3)".into()
    }

    fn listed(&self) -> Vec<String> {
        vec!["2x2x2".into(), "3x3x3".into()]
    }

    fn open(&self, name: &str, _: bool) -> Option<AppResult<Box<dyn Puzzle>>> {
        Some(Ok(Box::new(Cube {
            size: cube_size(name)?,
        })))
    }
}

/// The cube `name` names (`3x3x3`, `cube`, `cube3`, `rubik`; `2x2x2`, `cube2`, `pocket`), or
/// `None`.
pub fn cube_size(name: &str) -> Option<CubeSize> {
    match name.trim().to_ascii_lowercase().as_str() {
        "3x3x3" | "cube" | "cube3" | "rubik" => Some(CubeSize::Three),
        "2x2x2" | "cube2" | "pocket" => Some(CubeSize::Two),
        _ => None,
    }
}

/// One cube.
pub struct Cube {
    size: CubeSize,
}

impl Cube {
    /// The batch of cubes `request` makes, its options checked.
    fn batch_of(&self, request: &SolveRequest) -> AppResult<CubeBatch> {
        no_generators(&request.generators)?;
        CubeBatch::new(self.size, request)
    }
}

impl Puzzle for Cube {
    fn entry(&self) -> PuzzleEntry {
        PuzzleEntry {
            name: self.size.to_string(),
            kind: CubesKind.family(),
            goal: "solved".into(),
            algorithms: match self.size {
                CubeSize::Two => vec!["table", "half-depth"],
                CubeSize::Three => vec!["two-phase", "ida", "half-depth"],
            },
            partitions: Vec::new(),
            moves: Vec::new(),
            solution: SolutionDocument::Cube,
            patterns: false,
            view: View::Cube {
                order: match self.size {
                    CubeSize::Two => 2,
                    CubeSize::Three => 3,
                },
            },
            options: match self.size {
                CubeSize::Two => CUBE2_OPTIONS.to_vec(),
                CubeSize::Three => CUBE3_OPTIONS.to_vec(),
            },
            metrics: METRICS.to_vec(),
            heuristics: Vec::new(),
            default_heuristic: match self.size {
                CubeSize::Two => "none: the distance table gives every distance exactly".into(),
                CubeSize::Three => "two-phase's phase tables (not optimal); with «optimal», the optimal solver's pruning table («table_size»)".into(),
            },
        }
    }

    fn batch(&self, request: &SolveRequest) -> Option<AppResult<Box<dyn Batch + '_>>> {
        Some(
            self.batch_of(request)
                .map(|batch| Box::new(batch) as Box<dyn Batch>),
        )
    }

    fn check_bfs(&self, job: &BfsJob) -> AppResult<()> {
        no_generators(&job.generators)?;
        if job.goal.is_some() {
            return Err(AppError::Input(
                "«goal» is for sliding-tile boards; a cube is enumerated from solved".into(),
            ));
        }
        self.reduction(job.symmetry)?;
        cube_metric(job.metric.as_deref(), self.size).map(|_| ())
    }

    fn bfs(
        &self,
        job: &BfsJob,
        request: &BfsRequest,
        progress: &dyn Progress,
    ) -> AppResult<BfsReport> {
        self.check_bfs(job)?;
        let metric = cube_metric(job.metric.as_deref(), self.size)?;
        match self.size {
            CubeSize::Two => bfs::cube2(metric, request, progress),
            CubeSize::Three => bfs::cube3(metric, self.reduction(job.symmetry)?, request, progress),
        }
    }

    fn scrambler<'a>(
        &'a self,
        bench: &'a Workbench,
        request: &ScrambleRequest,
        _: &JobLimits,
        progress: &dyn Progress,
    ) -> AppResult<Box<dyn Scrambler + 'a>> {
        no_generators(&request.generators)?;
        no_board_format(request, "cubes print a scramble and its stickers, or json")?;
        let metric = cube_metric(request.metric.as_deref(), self.size)?;
        let size = self.size;
        Ok(match (size, request.moves) {
            (_, Some(n)) => Box::new(move |rng: &mut StdRng| {
                scramble::cube_moves(size, metric, n as usize, rng)
            }),
            (CubeSize::Two, None) => {
                let space = Cube2Space::new(metric);
                let (table, _) = crate::tables::table_in_memory(&space)?;
                Box::new(move |rng: &mut StdRng| scramble::cube2_uniform(&space, &table, rng))
            }
            (CubeSize::Three, None) => {
                let tables = loaded::twophase_tables(bench, progress, None, &mut |notice| {
                    progress.detail(&crate::request::notice_text(&notice))
                })?;
                Box::new(ReadingCache(move |rng: &mut StdRng| {
                    scramble::cube3_uniform(&tables, metric, rng)
                }))
            }
        })
    }

    fn info(&self, query: &InfoQuery) -> AppResult<AnyInfo> {
        no_info_generators(query)?;
        Ok(AnyInfo::Cube(info::cube_info(
            self.size,
            query.ram_bytes,
            query.free_disk_bytes,
        )))
    }

    fn verifier<'a>(
        &'a self,
        bench: &'a Workbench,
        query: &VerifyQuery,
        progress: &dyn Progress,
        notices: &mut dyn FnMut(Notice),
    ) -> AppResult<Verifier<'a>> {
        if query.goal.is_some() || query.table.is_some() {
            return Err(AppError::Input(
                "«goal» and «table» are for boards; a cube's goal is solved".into(),
            ));
        }
        let metric = match query.metric.as_deref() {
            Some(text) => text
                .parse::<TurnMetric>()
                .map_err(|e| AppError::Input(e.to_string()))?,
            None => TurnMetric::Htm,
        };
        let notation = query.notation.unwrap_or_default();
        let syntax = match query.facelets {
            true => Syntax::Facelets,
            false => Syntax::Auto,
        };
        let size = self.size;
        let search_metric = verify::prover_metric(metric, size);
        let (pocket, optimal) = match (size, query.prove) {
            (CubeSize::Two, true) => return Err(AppError::Input(
                "«prove» is for the 3x3x3; the 2x2x2 is proven from its distance table without it"
                    .into(),
            )),
            (CubeSize::Two, false) if query.proves => {
                (Some(loaded::cube2_solver(bench, search_metric)?), None)
            }
            (CubeSize::Two, false) => (None, None),
            (CubeSize::Three, true) => {
                let table_size = optimal_table_size(query.table_size.as_deref())?;
                let tables =
                    loaded::optimal_tables(bench, table_size, search_metric, progress, notices)?;
                (None, Some(tables))
            }
            (CubeSize::Three, false) => (None, None),
        };
        let timeout = query.timeout;
        Ok(Verifier {
            check: Box::new(move |claim| {
                let prover = match (&pocket, &optimal) {
                    (Some(table), _) => Some(CubeProver::Pocket(table)),
                    (_, Some(tables)) => Some(CubeProver::Optimal { tables, timeout }),
                    _ => None,
                };
                verify::cube(size, metric, notation, syntax, claim, prover.as_ref())
            }),
            unproven: match size {
                CubeSize::Two => "no distance table for this puzzle here",
                CubeSize::Three => "«prove» runs the optimal solver",
            },
        })
    }

    fn replay(&self, request: &ReplayRequest) -> AppResult<Replay> {
        if request.goal.is_some() {
            return Err(AppError::Input(
                "«goal» is for sliding-tile boards; a cube is solved to solved".into(),
            ));
        }
        let syntax = match request.facelets {
            true => Syntax::Facelets,
            false => Syntax::Auto,
        };
        let start = parse_position(self.size, &request.position, syntax).map_err(|e| {
            AppError::Input(format!("position '{}': {e}", excerpt(&request.position)))
        })?;
        // Read whole, as solve reads moves: groups, repeats, commutators, conjugates and
        // comments, one position after each turn they expand to.
        let moves = CubeAlgorithm::parse(&request.solution)
            .map_err(|e| AppError::Input(format!("moves '{}': {e}", excerpt(&request.solution))))?;
        check_replay_size(moves.turns.len(), facelet::FACELETS)?;
        let mut positions = Vec::with_capacity(moves.turns.len() + 1);
        let mut last = start;
        positions.push(facelet::format(&last));
        // Each turn is applied to the cube as held after the ones before it, which is how a
        // rotation or slice renames the faces of the turns after it in the whole sequence (a
        // test compares this with applying every prefix whole).
        for &turn in &moves.turns {
            last = CubeAlgorithm { turns: vec![turn] }
                .apply_held(self.size, &last)
                .map_err(|e| AppError::Input(e.to_string()))?;
            positions.push(facelet::format(&last));
        }
        Ok(Replay {
            positions,
            solved: last == CubieCube::SOLVED,
        })
    }
}

impl Cube {
    /// The classes the 3x3x3 is enumerated by: 48 symmetries (default) or 96 with inversion.
    fn reduction(&self, symmetry: Option<u32>) -> AppResult<Reduction> {
        match (self.size, symmetry) {
            (CubeSize::Two, Some(_)) => Err(AppError::Input(
                "«symmetry» is for the 3x3x3; the 2x2x2 is enumerated whole".into(),
            )),
            (_, None | Some(48)) => Ok(Reduction::Symmetries),
            (_, Some(96)) => Ok(Reduction::SymmetriesAndInverse),
            (_, Some(n)) => Err(AppError::Input(format!(
                "«symmetry» is 48 (the cube's symmetries) or 96 (with inversion), not {n}"
            ))),
        }
    }
}

/// Every `metric` a cube's lengths may be counted in, the default first (the 2x2x2, which has
/// no middle layer, counts `stm` as `htm`).
pub const METRICS: [&str; 4] = ["htm", "qtm", "stm", "etm"];

/// The solve options the 2x2x2 takes (see [`PuzzleEntry::options`]); `optimal` asks for what
/// its solvers give anyway.
const CUBE2_OPTIONS: [&str; 7] = [
    "algorithm",
    "metric",
    "facelets",
    "moves",
    "depth",
    "table",
    "optimal",
];

/// The solve options the 3x3x3 takes: two-phase's, the optimal solver's and half-depth's.
const CUBE3_OPTIONS: [&str; 11] = [
    "algorithm",
    "metric",
    "facelets",
    "moves",
    "depth",
    "max_length",
    "optimal",
    "all",
    "table_size",
    "known_solution",
    "timeout",
];

/// The metric a cube of `size` is searched in for `--metric` (default: the half-turn metric):
/// etm is searched as stm (the same distances), and on the 2x2x2 stm as htm (no middle layer).
pub fn cube_metric(text: Option<&str>, size: CubeSize) -> AppResult<Metric> {
    let metric = match text {
        Some(t) => t
            .parse::<Metric>()
            .map_err(|e| AppError::Input(e.to_string()))?,
        None => Metric::Htm,
    };
    Ok(metric.for_size(size))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::{replay, MAX_REPLAY_ENTRIES};
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    /// The replay before: every prefix parsed and applied whole (quadratic).
    fn replay_by_prefixes(size: CubeSize, solution: &str) -> Vec<String> {
        let turns: Vec<&str> = solution.split_whitespace().collect();
        (0..=turns.len())
            .map(|k| {
                let prefix = CubeAlgorithm::parse(&turns[..k].join(" ")).unwrap();
                facelet::format(&prefix.apply_held(size, &CubieCube::SOLVED).unwrap())
            })
            .collect()
    }

    #[test]
    fn a_replay_turn_by_turn_equals_applying_each_prefix_whole() {
        let words = [
            "R", "U'", "F2", "D", "L'", "B2", "M", "E'", "S2", "x", "y'", "z2", "Rw", "u'", "f2",
            "r", "Dw2", "b'",
        ];
        let mut rng = StdRng::seed_from_u64(11);
        for size in [CubeSize::Two, CubeSize::Three] {
            for _ in 0..40 {
                let solution: Vec<&str> =
                    (0..12).map(|_| *words.choose(&mut rng).unwrap()).collect();
                let solution = solution.join(" ");
                let request = ReplayRequest {
                    puzzle: size.to_string(),
                    position: String::new(),
                    solution: solution.clone(),
                    goal: None,
                    facelets: false,
                };
                match replay(&request) {
                    Ok(r) => assert_eq!(
                        r.positions,
                        replay_by_prefixes(size, &solution),
                        "{solution}"
                    ),
                    // The 2x2x2 has no middle layer: both refuse the same sequences.
                    Err(_) => assert!(size == CubeSize::Two, "{solution}"),
                }
            }
        }
    }

    #[test]
    fn a_replay_is_bounded_by_what_it_lists() {
        let long = vec!["R"; MAX_REPLAY_ENTRIES / 54 + 1].join(" ");
        let request = ReplayRequest {
            puzzle: "3x3x3".into(),
            position: String::new(),
            solution: long,
            goal: None,
            facelets: false,
        };
        let refused = replay(&request).unwrap_err().to_string();
        assert!(refused.contains("at most"), "{refused}");
        // Ten thousand turns are answered (in linear time).
        let request = ReplayRequest {
            solution: vec!["R U"; 5_000].join(" "),
            ..request
        };
        assert_eq!(replay(&request).unwrap().positions.len(), 10_001);
    }

    /// Replay reads moves as solve does: groups, repeats, commutators and comments, one
    /// position a turn they expand to; stickers are read with `facelets`.
    #[test]
    fn a_replay_reads_moves_as_solve_does() {
        let played = |solution: &str| {
            replay(&ReplayRequest {
                puzzle: "3x3x3".into(),
                position: String::new(),
                solution: solution.into(),
                goal: None,
                facelets: false,
            })
            .unwrap()
            .positions
        };
        assert_eq!(played("(R U)2"), played("R U R U"));
        assert_eq!(played("[R, U]"), played("R U R' U'"));
        assert_eq!(played("R U // a comment"), played("R U"));
        assert_eq!(played("R U // a comment").len(), 3);
        let bad = replay(&ReplayRequest {
            puzzle: "3x3x3".into(),
            position: String::new(),
            solution: "[R, U, F]".into(),
            goal: None,
            facelets: false,
        })
        .unwrap_err();
        assert!(bad.to_string().contains("two parts"), "{bad}");
        let after_u = played("U").pop().unwrap();
        let from_stickers = replay(&ReplayRequest {
            puzzle: "3x3x3".into(),
            position: after_u.clone(),
            solution: "U'".into(),
            goal: None,
            facelets: true,
        })
        .unwrap();
        assert!(from_stickers.solved);
        assert_eq!(from_stickers.positions[0], after_u);
    }
}
