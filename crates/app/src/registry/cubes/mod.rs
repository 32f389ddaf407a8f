//! What the cubes share in the registry. The 2x2x2 ([`cube2`](super::cube2)) and the 3x3x3
//! ([`cube3`](super::cube3)) are each their own puzzle with their own solvers; this module holds
//! what both do alike, told apart only by their [`CubeShape`]: reading a position, the options no
//! cube takes, replaying moves, checking claims ([`verify`]), random move scrambles
//! ([`scramble`]) and what `info` says ([`info`]).

pub mod info;
pub mod scramble;
pub mod verify;

use super::{no_board_options, no_generators, Puzzle, PuzzleKind, Verifier, VerifyQuery};
use crate::batch::{FrontEndOptions, Position, Source};
use crate::choice::{Algorithm, HeuristicChoice};
use crate::request::{
    check_replay_size, BfsJob, PuzzleEntry, Replay, ReplayRequest, ScrambleRequest,
    SolutionDocument, SolveRequest, View,
};
use crate::{AppError, AppResult};
use godsearch_core::excerpt;
use godsearch_puzzles::cube::algorithm::Algorithm as CubeAlgorithm;
use godsearch_puzzles::cube::{
    facelet, parse_position, CubeShape, CubieCube, Metric, Syntax, TurnMetric,
};
use godsearch_twophase::SolveError;
use verify::CubeProver;

/// The notation front ends write cube moves in.
pub use godsearch_puzzles::cube::Notation;

/// The family every cube is listed under in catalogs.
pub const FAMILY: &str = "cube";

/// Every `metric` a cube's lengths may be counted in, the default first (the 2x2x2, which has
/// no middle layer, counts `stm` as `htm`).
pub const METRICS: [&str; 4] = ["htm", "qtm", "stm", "etm"];

/// A cube to solve, with the text it was given as.
#[derive(Debug, Clone)]
pub struct CubeJob {
    /// The position as the user wrote it (stickers or moves).
    pub text: String,
    /// The position.
    pub cube: CubieCube,
}

/// One cube's kind in the registry: the names it answers to and the puzzle they open. Every
/// cube is listed under [`FAMILY`].
pub struct CubeKind {
    /// Its names, lower case, the one menus list first.
    pub names: &'static [&'static str],
    /// Opens its puzzle.
    pub open: fn() -> Box<dyn Puzzle>,
}

impl PuzzleKind for CubeKind {
    fn family(&self) -> &'static str {
        FAMILY
    }

    fn names_help(&self) -> String {
        let (name, others) = self.names.split_first().unwrap_or((&"", &[]));
        format!("a {name} cube ({})", others.join(", "))
    }

    fn listed(&self) -> Vec<String> {
        self.names.iter().take(1).map(|n| n.to_string()).collect()
    }

    fn open(&self, name: &str, _: bool) -> Option<crate::AppResult<Box<dyn Puzzle>>> {
        let name = name.trim().to_ascii_lowercase();
        self.names
            .iter()
            .any(|n| *n == name)
            .then(|| Ok((self.open)()))
    }
}

/// The catalog entry of `cube`, solved by `algorithms` with `options`.
pub(crate) fn entry(
    cube: CubeShape,
    algorithms: Vec<&'static str>,
    options: &[&'static str],
    default_heuristic: &str,
) -> PuzzleEntry {
    PuzzleEntry {
        name: cube.name().to_string(),
        kind: FAMILY,
        goal: "solved".into(),
        algorithms,
        partitions: Vec::new(),
        moves: Vec::new(),
        solution: SolutionDocument::Cube,
        patterns: false,
        view: View::Cube {
            order: cube.layers(),
        },
        options: options.to_vec(),
        metrics: METRICS.to_vec(),
        heuristics: Vec::new(),
        default_heuristic: default_heuristic.into(),
    }
}

/// The metric `cube` is searched in for `--metric` (default: the half-turn metric): etm is
/// searched as stm (the same distances), and without middle layers stm as htm.
pub fn cube_metric(text: Option<&str>, cube: CubeShape) -> AppResult<Metric> {
    let metric = match text {
        Some(t) => t
            .parse::<Metric>()
            .map_err(|e| AppError::Input(e.to_string()))?,
        None => Metric::Htm,
    };
    Ok(metric.for_cube(cube))
}

/// Refuses what no cube's solve takes: generators, more than one solution asked of a solver
/// that gives one, a bad timeout, the board-only options, and options that need another.
pub(crate) fn check_request(request: &SolveRequest) -> AppResult<()> {
    no_generators(&request.generators)?;
    request.one_solution_only()?;
    request.timeout()?;
    let input = |text: &str| Err(AppError::Input(text.into()));
    let tile_only = [
        (request.goal.is_some(), "«goal»"),
        (request.pdb.is_some(), "«pdb»"),
        (request.heuristic != HeuristicChoice::Auto, "«heuristic»"),
        (request.stages.is_some(), "«stages»"),
        (request.effort.is_some(), "«effort»"),
        (request.no_reflection, "«no_reflection»"),
        (request.reverse, "«reverse»"),
        (request.both_ways, "«both_ways»"),
        (request.probe.is_some(), "«probe»"),
        (request.resume_from.is_some(), "«resume_from»"),
        (request.resume_subtrees.is_some(), "«resume_subtrees»"),
        (request.resume_way.is_some(), "«resume_way»"),
    ];
    if let Some((_, name)) = tile_only.iter().find(|(given, _)| *given) {
        return Err(AppError::Input(format!(
            "{name} is for sliding-tile boards, not cubes"
        )));
    }
    if request.all && !request.optimal {
        return input("«all» lists every shortest solution; it needs «optimal»");
    }
    if let Some(n) = request
        .max_length
        .filter(|&n| n as u64 > crate::units::MAX_TARGET_LENGTH)
    {
        return Err(AppError::Input(format!(
            "«max_length» {n}: at most {} moves can be asked for",
            crate::units::MAX_TARGET_LENGTH
        )));
    }
    if request.table_size.is_some() && !request.optimal {
        return input("«table_size» is for «optimal»");
    }
    Ok(())
}

/// Refuses the front-end options no cube solver uses: `verbose` always, `memory` but for
/// half-depth search.
pub(crate) fn check_front_end(request: &SolveRequest, given: FrontEndOptions) -> AppResult<()> {
    if given.verbose {
        return Err(AppError::Input(
            "«verbose» is for sliding-tile boards, not cubes".into(),
        ));
    }
    if given.memory && request.algorithm != Algorithm::HalfDepth {
        return Err(AppError::Input(
            "«memory» is used only by «algorithm» half-depth on cubes".into(),
        ));
    }
    Ok(())
}

/// A position of `cube` as stickers or moves, read by `syntax`; one given alone is quoted in
/// the error.
pub(crate) fn read_position(
    cube: CubeShape,
    syntax: Syntax,
    text: &str,
    source: Source,
) -> AppResult<Position> {
    let position = parse_position(cube, text, syntax).map_err(|e| match source {
        Source::Given => AppError::Input(format!("position '{}': {e}", excerpt(text))),
        Source::Line => AppError::Input(e.to_string()),
    })?;
    Ok(Position::new(CubeJob {
        text: text.to_string(),
        cube: position,
    }))
}

/// Refuses the enumeration options no cube takes and gives the metric `job` asks for.
pub(crate) fn check_bfs(job: &BfsJob, cube: CubeShape) -> AppResult<Metric> {
    no_generators(&job.generators)?;
    if job.goal.is_some() {
        return Err(AppError::Input(
            "«goal» is for sliding-tile boards; a cube is enumerated from solved".into(),
        ));
    }
    cube_metric(job.metric.as_deref(), cube)
}

/// Refuses the scramble options no cube takes and gives the metric `request` asks for.
pub(crate) fn check_scramble(request: &ScrambleRequest, cube: CubeShape) -> AppResult<Metric> {
    no_generators(&request.generators)?;
    no_board_options(request, "cubes print a scramble and its stickers, or json")?;
    cube_metric(request.metric.as_deref(), cube)
}

/// How `verify` and `apply` read and count a cube's claims.
pub(crate) struct ClaimReading {
    /// The metric lengths are given in.
    pub metric: TurnMetric,
    /// The notation moves are written back in.
    pub notation: Notation,
    /// How starts are read.
    pub syntax: Syntax,
}

impl ClaimReading {
    /// What `query` asks, the board-only options refused.
    pub fn of(query: &VerifyQuery) -> AppResult<Self> {
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
        Ok(ClaimReading {
            metric,
            notation: query.notation.unwrap_or_default(),
            syntax: match query.facelets {
                true => Syntax::Facelets,
                false => Syntax::Auto,
            },
        })
    }

    /// The checker of `cube`'s claims, which proves lengths shortest with `prover` where there
    /// is one; `unproven` says why a length may be reported as not proven.
    pub fn verifier<'a>(
        self,
        cube: CubeShape,
        prover: Option<Box<dyn CubeProver + 'a>>,
        unproven: &'static str,
    ) -> Verifier<'a> {
        Verifier {
            check: Box::new(move |claim| {
                verify::cube(
                    cube,
                    (self.metric, self.notation, self.syntax),
                    claim,
                    prover.as_deref(),
                )
            }),
            unproven,
        }
    }
}

/// Plays `request.solution` on `cube` from its start, one position after each turn.
pub(crate) fn replay(cube: CubeShape, request: &ReplayRequest) -> AppResult<Replay> {
    if request.goal.is_some() {
        return Err(AppError::Input(
            "«goal» is for sliding-tile boards; a cube is solved to solved".into(),
        ));
    }
    let syntax = match request.facelets {
        true => Syntax::Facelets,
        false => Syntax::Auto,
    };
    let start = parse_position(cube, &request.position, syntax)
        .map_err(|e| AppError::Input(format!("position '{}': {e}", excerpt(&request.position))))?;
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
            .apply_held(cube, &last)
            .map_err(|e| AppError::Input(e.to_string()))?;
        positions.push(facelet::format(&last));
    }
    Ok(Replay {
        positions,
        solved: last == CubieCube::SOLVED,
    })
}

/// Whether a solver's failure is the input's fault (an impossible cube, a known solution that
/// does not solve it) rather than ours.
pub(crate) fn is_invalid_cube(error: &SolveError) -> bool {
    matches!(error, SolveError::Invalid(_) | SolveError::NotASolution)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::{replay, MAX_REPLAY_ENTRIES};
    use godsearch_puzzles::cube::{CUBE2, CUBE3};
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    /// The replay before: every prefix parsed and applied whole (quadratic).
    fn replay_by_prefixes(size: CubeShape, solution: &str) -> Vec<String> {
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
        for size in [CUBE2, CUBE3] {
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
                    Err(_) => assert!(!size.has_middle_layers(), "{solution}"),
                }
            }
        }
    }

    /// Each cube is its own kind: it opens every one of its names, in any case, and none of
    /// the other cube's.
    #[test]
    fn each_cube_kind_opens_its_own_names_only() {
        use crate::registry::{cube2, cube3};
        for (kind, other) in [(cube2::KIND, cube3::KIND), (cube3::KIND, cube2::KIND)] {
            for name in kind.names {
                let opened = kind.open(&format!(" {} ", name.to_uppercase()), false);
                let entry = opened.expect("its own name").unwrap().entry();
                assert_eq!((entry.name.as_str(), entry.kind), (kind.names[0], FAMILY));
                assert!(other.open(name, false).is_none(), "{name}");
            }
            assert_eq!(kind.listed(), vec![kind.names[0].to_string()]);
        }
        assert_eq!(cube2::KIND.names_help(), "a 2x2x2 cube (cube2, pocket)");
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
