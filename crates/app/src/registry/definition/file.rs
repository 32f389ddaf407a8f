//! Puzzles from definition files (KPuzzle JSON, `.tws`) as every front end takes them: the file
//! read and checked, the generators chosen, the space made (64-bit ranks where they fit), and
//! whether its ranks are exactly its positions, settled by the group order (Schreier-Sims).

use crate::report::{DefinitionInfoReport, OrbitReport};
use crate::{AppError, AppResult};
use godsearch_core::RankInt;
use godsearch_orbit::classes::{ClassKey, ClassSpace};
use godsearch_orbit::group::group_order;
use godsearch_orbit::slots::{SlotError, SlotSpace};
use godsearch_orbit::space::space_moves;
use godsearch_orbit::symmetry::symmetries;
use godsearch_orbit::SpaceError;
use godsearch_orbit::{Definition, Format, OrbitSpace};
use num_bigint::BigUint;
use std::path::Path;

/// The largest definition file read (the largest shipped one is a few kilobytes; twsearch's
/// 20x20x20 is about 2 MB).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Moves whose order is above this are not listed with their powers (the space refuses them).
const MOVE_ORDER_LIMIT: u64 = godsearch_orbit::space::MAX_MOVES as u64;

/// Whether a puzzle name is the path of a definition file (it ends in `.json` or `.tws`).
pub fn is_definition_path(name: &str) -> bool {
    Format::of_name(name).is_some()
}

/// A definition read from a file, with the name it is known by.
#[derive(Debug, Clone)]
pub struct DefinitionPuzzle {
    /// The file's name, as given.
    pub file: String,
    /// What it defines.
    pub definition: Definition,
}

/// Reads and checks the definition in `path` (its format from its name; a name that says
/// none is read as JSON when it starts with `{`, as `.tws` otherwise).
pub fn load(path: &Path) -> AppResult<DefinitionPuzzle> {
    let file = path.display().to_string();
    let input = |what: String| AppError::Input(format!("{file}: {what}"));
    let meta = std::fs::metadata(path).map_err(|e| input(e.to_string()))?;
    if !meta.is_file() {
        return Err(input("not a regular file".into()));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(input(format!(
            "{} bytes; a definition file is at most {MAX_FILE_BYTES}",
            meta.len()
        )));
    }
    let text = std::fs::read_to_string(path).map_err(|e| input(e.to_string()))?;
    parse(&file, &text)
}

/// Reads and checks the definition `text`, known as `file` (its format from that name; a name
/// that says none is read as JSON when the text starts with `{`, as `.tws` otherwise).
pub fn parse(file: &str, text: &str) -> AppResult<DefinitionPuzzle> {
    let format = Format::of_name(file).unwrap_or(if text.trim_start().starts_with('{') {
        Format::KPuzzle
    } else {
        Format::Tws
    });
    let definition = format.read(text).map_err(|source| AppError::Definition {
        file: file.to_string(),
        source,
    })?;
    Ok(DefinitionPuzzle {
        file: file.to_string(),
        definition,
    })
}

/// How the moves are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DefinitionMetric {
    /// Every power of a generator is one move (the half-turn metric on cubes).
    #[default]
    Outer,
    /// Only a generator and its inverse are moves (the quarter-turn metric on cubes).
    Quarter,
}

impl DefinitionMetric {
    /// Reads `htm`/`outer`/`btm` or `qtm`/`quarter`.
    pub fn parse(text: &str) -> AppResult<Self> {
        match text.to_ascii_lowercase().as_str() {
            "htm" | "outer" | "obtm" | "btm" => Ok(DefinitionMetric::Outer),
            "qtm" | "quarter" => Ok(DefinitionMetric::Quarter),
            other => Err(AppError::Input(format!(
                "unknown metric '{other}' for a definition puzzle: htm (every power of a move is one move) or qtm (only a move and its inverse)"
            ))),
        }
    }

    /// The name reports give it.
    pub fn name(self) -> &'static str {
        match self {
            DefinitionMetric::Outer => "htm",
            DefinitionMetric::Quarter => "qtm",
        }
    }
}

impl DefinitionPuzzle {
    /// The space over `generators` (all of the file's own moves when empty) in `metric`.
    pub fn space<R: RankInt>(
        &self,
        generators: &[String],
        metric: DefinitionMetric,
    ) -> AppResult<OrbitSpace<R>> {
        Ok(OrbitSpace::new(
            &self.definition,
            generators,
            metric == DefinitionMetric::Quarter,
        )?)
    }

    /// The classes of positions under the symmetries of the moves `generators` (in `metric`),
    /// where they have some and a class's key fits `K` ([`ClassSpace::new`]).
    pub fn class_space<K: ClassKey>(
        &self,
        generators: &[String],
        metric: DefinitionMetric,
    ) -> AppResult<Option<ClassSpace<K>>> {
        let quarter = metric == DefinitionMetric::Quarter;
        Ok(ClassSpace::new(&self.definition, generators, quarter)?)
    }

    /// Whole positions keyed as classes of one ([`ClassSpace::whole`]): integer keys for the
    /// disk and distributed engines past 128-bit ranks, where they fit `K`.
    pub fn whole_keys<K: ClassKey>(
        &self,
        generators: &[String],
        metric: DefinitionMetric,
    ) -> AppResult<Option<ClassSpace<K>>> {
        let quarter = metric == DefinitionMetric::Quarter;
        Ok(ClassSpace::whole(&self.definition, generators, quarter)?)
    }

    /// The slots of its positions, over all orbits.
    pub fn slot_count(&self) -> usize {
        godsearch_orbit::slots::slot_count(&self.definition)
    }

    /// How many symmetries the moves `generators` have ([`symmetries`]; 1: the identity alone).
    pub fn symmetry_count(&self, generators: &[String]) -> AppResult<usize> {
        let moves = space_moves(&self.definition, generators, false)?.moves;
        Ok(symmetries(&self.definition, &moves).len())
    }

    /// The space over `generators` in `metric` whose states are the pieces' slots themselves,
    /// for puzzles past 128-bit ranks (the megaminx, the 4x4x4): no rank, no table, any size
    /// up to [`MAX_SLOTS`](godsearch_orbit::slots::MAX_SLOTS) slots.
    pub fn slot_space(
        &self,
        generators: &[String],
        metric: DefinitionMetric,
    ) -> AppResult<SlotSpace> {
        self.slot_space_of(generators, metric)
    }

    /// [`Self::slot_space`] in positions of `N` bytes, for puzzles of up to `N` slots (the
    /// 5x5x5's 92 in [`MAX_WIDE_SLOTS`](godsearch_orbit::slots::MAX_WIDE_SLOTS)).
    pub fn slot_space_of<const N: usize>(
        &self,
        generators: &[String],
        metric: DefinitionMetric,
    ) -> AppResult<SlotSpace<N>> {
        let quarter = metric == DefinitionMetric::Quarter;
        SlotSpace::new(&self.definition, generators, quarter).map_err(|e| match e {
            SlotError::Space(e) => AppError::OrbitSpace(e),
            other => AppError::Input(format!("{}: {other}", self.name())),
        })
    }

    /// Whether no two pieces of the solved pattern are alike (then positions are group
    /// elements, one each).
    fn pieces_distinct(&self) -> bool {
        self.definition.solved.orbits.iter().all(|o| {
            let mut p = o.pieces.clone();
            p.sort_unstable();
            p.windows(2).all(|w| w[0] != w[1])
        })
    }

    /// The order of the group `generators` generate.
    pub fn group_order(&self, generators: &[String]) -> AppResult<BigUint> {
        let chosen = self.generator_moves(generators)?;
        group_order(&chosen, &self.definition.orbits)
            .map_err(|e| AppError::Input(format!("{}: {e}", self.file)))
    }

    /// The exact number of distinguishable positions `generators` reach from the solved
    /// pattern when some of its pieces are alike; `None` where it cannot be found (see
    /// [`distinct_positions`](godsearch_orbit::group::distinct_positions)).
    pub fn distinct_positions(&self, generators: &[String]) -> AppResult<Option<BigUint>> {
        let chosen = self.generator_moves(generators)?;
        let d = &self.definition;
        godsearch_orbit::group::distinct_positions(&chosen, &d.orbits, &d.solved)
            .map_err(|e| AppError::Input(format!("{}: {e}", self.file)))
    }

    /// The group `generators` generate (its order, uniformly random elements).
    pub fn group(&self, generators: &[String]) -> AppResult<godsearch_orbit::group::Group> {
        let chosen = self.generator_moves(generators)?;
        godsearch_orbit::group::Group::new(&chosen, &self.definition.orbits)
            .map_err(|e| AppError::Input(format!("{}: {e}", self.file)))
    }

    fn generator_moves(
        &self,
        generators: &[String],
    ) -> AppResult<Vec<godsearch_orbit::Transformation>> {
        let moves = space_moves(&self.definition, generators, false)?.moves;
        Ok(godsearch_orbit::space::generator_transformations(&moves))
    }

    /// The puzzle's name in reports: the definition's name.
    pub fn name(&self) -> &str {
        &self.definition.name
    }
}

/// Splits `--generators R,U` into names.
pub fn parse_generators(text: &str) -> Vec<String> {
    text.split([',', ' '])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// What `info` says of `puzzle` over `generators` (see [`DefinitionInfoReport`]).
pub fn info(puzzle: &DefinitionPuzzle, generators: &[String]) -> AppResult<DefinitionInfoReport> {
    let d = &puzzle.definition;
    let started = std::time::Instant::now();
    let order = puzzle.group_order(generators)?;
    let group_order_seconds = started.elapsed().as_secs_f64();
    let positions = match puzzle.pieces_distinct() {
        true => Some(order.clone()),
        false => puzzle.distinct_positions(generators)?,
    };
    let space: AppResult<OrbitSpace<u128>> = puzzle.space(generators, DefinitionMetric::Outer);
    let (ranks, space_moves, used) = match space {
        Ok(space) => (
            Some(space.rank_count()),
            space.moves().len(),
            space.generators().to_vec(),
        ),
        Err(AppError::OrbitSpace(SpaceError::TooLarge { .. })) => {
            let used = match generators.is_empty() {
                true => d
                    .moves
                    .iter()
                    .filter(|m| !m.derived)
                    .map(|m| m.name.clone())
                    .collect(),
                false => generators.to_vec(),
            };
            let powers: u64 = puzzle
                .generator_moves(generators)?
                .iter()
                .map(|t| t.order(&d.orbits, MOVE_ORDER_LIMIT).map_or(0, |o| o - 1))
                .sum();
            (None, powers as usize, used)
        }
        Err(e) => return Err(e),
    };
    let ranks_exact = match (&positions, ranks) {
        (Some(p), Some(r)) => *p == BigUint::from(r),
        _ => false,
    };
    Ok(DefinitionInfoReport {
        puzzle: d.name.clone(),
        file: puzzle.file.clone(),
        orbits: d
            .orbits
            .iter()
            .map(|o| OrbitReport {
                name: o.name.clone(),
                pieces: o.pieces,
                orientations: o.orientations,
            })
            .collect(),
        moves: d.move_names(),
        generators: used,
        space_moves,
        group_order: order.to_string(),
        positions: positions.map(|p| p.to_string()),
        ranks: ranks.map(|r| r.to_string()),
        ranks_exact,
        table_bytes: ranks
            .filter(|_| ranks_exact)
            .and_then(|r| u64::try_from(godsearch_enumerate::table::table_bytes(r)).ok()),
        group_order_seconds,
        symmetries: puzzle.symmetry_count(generators)?,
    })
}

/// The position `text` gives: a KPuzzle pattern (JSON, starting with `{`, as `--pattern`
/// files hold), or the position a move sequence from solved reaches: names of the file's
/// moves (derived ones too), each with a count and a prime, brackets, commutators and
/// conjugates.
pub fn position(puzzle: &DefinitionPuzzle, text: &str) -> AppResult<godsearch_orbit::Pattern> {
    let d = &puzzle.definition;
    if text.trim_start().starts_with('{') {
        return godsearch_orbit::kpuzzle::read_pattern(text, d)
            .map_err(|e| AppError::Input(format!("the pattern: {e}")));
    }
    let steps = godsearch_orbit::alg::parse(text, &d.move_names())
        .map_err(|why| AppError::Input(format!("'{}': {why}", godsearch_core::excerpt(text))))?;
    let moves: Vec<&godsearch_orbit::Transformation> =
        d.moves.iter().map(|m| &m.transformation).collect();
    let t = godsearch_orbit::alg::to_transformation(&steps, &moves, &d.orbits);
    Ok(t.apply(&d.solved, &d.orbits))
}
