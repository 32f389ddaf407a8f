//! Pattern databases for definition puzzles, found automatically: a **projection** keeps part
//! of the puzzle (some orbits whole, or an orbit's orientations alone, or its arrangement
//! alone) as a smaller definition over the same moves; the fewest moves that solve the
//! projection of a position never exceed the moves that solve the position, so a table of the
//! projection's distances is an admissible heuristic, and the maximum of several is too
//! ([`PatternDatabases`]). A projection's rank is read straight off the full space's decoded
//! coordinates (its components are the full space's components of the orbits it keeps), so a
//! lookup costs a few multiplications, not an unranking.

use super::definition::{
    Definition, NamedMove, OrbitDef, OrbitPattern, OrbitTransformation, Pattern,
};
use super::slots::{SlotSpace, Slots};
use super::space::{Coords, OrbitSpace, SpaceError};
use godsearch_core::{Heuristic, RankInt};

/// What a projection keeps of one orbit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// The pieces and their orientations.
    Whole,
    /// Only the orientations (every piece alike).
    Orientations,
    /// Only where the pieces are (orientations ignored).
    Arrangement,
    /// Only where the pieces whose numbers are in this mask are (bit `n` for piece `n`); the
    /// others alike, orientations ignored.
    Subset(u64),
}

/// The number the pieces a [`Keep::Subset`] leaves out share.
const OTHER: u8 = u8::MAX;

/// A part of a puzzle: the orbits it keeps, and how much of each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectionSpec {
    /// `(orbit index, what is kept of it)`, in orbit order.
    pub orbits: Vec<(usize, Keep)>,
}

impl ProjectionSpec {
    /// A short description: `CORNERS`, `EDGES orientations`, `EDGES arrangement`, joined by `+`.
    pub fn describe(&self, orbits: &[OrbitDef]) -> String {
        self.orbits
            .iter()
            .map(|&(o, keep)| match keep {
                Keep::Whole => orbits[o].name.clone(),
                Keep::Orientations => format!("{} orientations", orbits[o].name),
                Keep::Arrangement => format!("{} arrangement", orbits[o].name),
                Keep::Subset(mask) => format!(
                    "{} pieces {}",
                    orbits[o].name,
                    (0..u64::BITS)
                        .filter(|b| mask >> b & 1 == 1)
                        .map(|b| b.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                ),
            })
            .collect::<Vec<_>>()
            .join(" + ")
    }

    /// The smaller definition this projection is: the kept orbits, with alike pieces or no
    /// orientations as asked, under the same moves (a move that changes nothing of it is
    /// dropped by [`Projection::new`]).
    pub fn definition(&self, full: &Definition) -> Definition {
        let orbits: Vec<OrbitDef> = self
            .orbits
            .iter()
            .map(|&(o, keep)| OrbitDef {
                orientations: match keep {
                    Keep::Arrangement | Keep::Subset(_) => 1,
                    _ => full.orbits[o].orientations,
                },
                ..full.orbits[o].clone()
            })
            .collect();
        let solved = super::Pattern {
            orbits: self
                .orbits
                .iter()
                .map(|&(o, keep)| {
                    let p = &full.solved.orbits[o];
                    project_orbit(keep, &p.pieces, &p.orientation)
                })
                .collect(),
        };
        let moves = full
            .moves
            .iter()
            .map(|m| NamedMove {
                name: m.name.clone(),
                derived: m.derived,
                transformation: super::Transformation {
                    orbits: self
                        .orbits
                        .iter()
                        .map(|&(o, keep)| {
                            let t = &m.transformation.orbits[o];
                            OrbitTransformation {
                                permutation: t.permutation.clone(),
                                orientation: match keep {
                                    Keep::Arrangement | Keep::Subset(_) => {
                                        vec![0; t.orientation.len()]
                                    }
                                    _ => t.orientation.clone(),
                                },
                            }
                        })
                        .collect(),
                },
            })
            .collect();
        Definition {
            name: format!("{} ({})", full.name, self.describe(&full.orbits)),
            orbits,
            solved,
            moves,
        }
    }
}

/// What `keep` leaves of an orbit's pieces and orientations.
fn project_orbit(keep: Keep, pieces: &[u8], orientation: &[u8]) -> OrbitPattern {
    OrbitPattern {
        pieces: match keep {
            Keep::Orientations => vec![0; pieces.len()],
            Keep::Subset(mask) => pieces
                .iter()
                .map(|&p| match p < 64 && mask >> p & 1 == 1 {
                    true => p,
                    false => OTHER,
                })
                .collect(),
            _ => pieces.to_vec(),
        },
        orientation: match keep {
            Keep::Arrangement | Keep::Subset(_) => vec![0; orientation.len()],
            _ => orientation.to_vec(),
        },
    }
}

/// A projection as a space of its own, and how to read its rank off the full space's
/// coordinates.
#[derive(Debug, Clone)]
pub struct Projection {
    /// What it keeps.
    pub spec: ProjectionSpec,
    /// Its positions, ranked.
    pub space: OrbitSpace<u64>,
    /// Per digit of its rank: the full component it is read from, and what it is.
    sources: Vec<Source>,
    /// For a slot space's positions: per component of the projection, how its labels and
    /// orientations are read off the slot bytes.
    readers: Vec<SlotReader>,
}

/// How one of a projection's components is read off a [`SlotSpace`] position: the bytes of
/// its slots, and for every byte value the projected label and orientation.
#[derive(Debug, Clone)]
struct SlotReader {
    bytes: Vec<usize>,
    label: Box<[u8; 256]>,
    orientation: Box<[u8; 256]>,
}

#[derive(Debug, Clone, Copy)]
struct Source {
    component: usize,
    orientation: bool,
    halve: bool,
    top_digit: Option<u128>,
    radix: u64,
}

impl Projection {
    /// The projection `spec` of `full` (a space over `definition`), over the same generators
    /// and metric; `None` when no generator changes it.
    pub fn new<R: RankInt>(
        full: &OrbitSpace<R>,
        definition: &Definition,
        spec: ProjectionSpec,
        quarter: bool,
    ) -> Result<Option<Self>, SpaceError> {
        let Some(space) =
            projected_space(definition, &spec, full.generators(), quarter, u128::MAX)?
        else {
            return Ok(None);
        };
        let sources = space
            .digit_layout()
            .into_iter()
            .map(|d| {
                let (orbit, first_slot) = space.component_key(d.component);
                let full_orbit = spec.orbits[orbit].0;
                let component = full
                    .component_index(full_orbit, first_slot)
                    .expect("the projection's components are the full space's");
                Source {
                    component,
                    orientation: d.orientation,
                    halve: d.halve,
                    top_digit: d.top_digit,
                    radix: d.radix as u64,
                }
            })
            .collect();
        Ok(Some(Projection {
            spec,
            space,
            sources,
            readers: Vec::new(),
        }))
    }

    /// The projection `spec` of `definition` over `generators` (of a [`SlotSpace`], whose
    /// positions it ranks by [`rank_of_slot_bytes`](Self::rank_of_slot_bytes)); `None` when no
    /// generator changes it; [`SpaceError::OverBudget`] past `largest` ranks.
    pub fn of_slots(
        slots: &SlotSpace,
        definition: &Definition,
        spec: ProjectionSpec,
        quarter: bool,
        largest: u128,
    ) -> Result<Option<Self>, SpaceError> {
        let Some(space) = projected_space(definition, &spec, slots.generators(), quarter, largest)?
        else {
            return Ok(None);
        };
        let readers = space
            .component_slots()
            .into_iter()
            .enumerate()
            .map(|(c, (orbit, component_slots))| {
                let (full, keep) = spec.orbits[orbit];
                let k = slots.orbits()[full].orientations;
                let start = slots.orbit_start(full);
                let mut label = Box::new([u8::MAX; 256]);
                let mut orientation = Box::new([0u8; 256]);
                for v in 0..=255u8 {
                    let (piece, ori) = (v / k, v % k);
                    let projected = project_orbit(keep, &[piece], &[ori]);
                    if let Some(l) = space.component_label(c, projected.pieces[0]) {
                        label[v as usize] = l;
                    }
                    orientation[v as usize] = projected.orientation[0];
                }
                SlotReader {
                    bytes: component_slots.iter().map(|&s| start + s).collect(),
                    label,
                    orientation,
                }
            })
            .collect();
        Ok(Some(Projection {
            spec,
            space,
            sources: Vec::new(),
            readers,
        }))
    }

    /// The projection's rank of a position of the slot space it was made for
    /// ([`of_slots`](Self::of_slots)), read straight off the slot bytes; the position must be
    /// one the slot space's moves reach.
    #[inline]
    pub fn rank_of_slot_bytes(&self, state: &Slots) -> u64 {
        self.space.rank_of_filled(|c, labels, orientations| {
            let reader = &self.readers[c];
            for ((label, orientation), &byte) in labels
                .iter_mut()
                .zip(orientations.iter_mut())
                .zip(&reader.bytes)
            {
                let v = state.0[byte] as usize;
                *label = reader.label[v];
                *orientation = reader.orientation[v];
            }
        })
    }

    /// The projection's rank of a slot space's position, through its pattern and every
    /// check of [`OrbitSpace::rank_pattern`]; `None` if the projection's moves do not reach
    /// it. Slower than [`rank_of_slot_bytes`](Self::rank_of_slot_bytes), which tests compare
    /// with it.
    pub fn rank_of_slots(&self, slots: &SlotSpace, state: &Slots) -> Option<u64> {
        let pattern = Pattern {
            orbits: self
                .spec
                .orbits
                .iter()
                .map(|&(o, keep)| {
                    let k = slots.orbits()[o].orientations;
                    let contents = slots.orbit_slots(state, o);
                    let pieces: Vec<u8> = contents.iter().map(|v| v / k).collect();
                    let orientation: Vec<u8> = contents.iter().map(|v| v % k).collect();
                    project_orbit(keep, &pieces, &orientation)
                })
                .collect(),
        };
        self.space.rank_pattern(&pattern)
    }

    /// The projection's rank of a position, from the full space's decoded coordinates.
    #[inline]
    pub fn rank_from(&self, coords: &[Coords]) -> u64 {
        let mut rank = 0u64;
        for s in &self.sources {
            let (a, o) = coords[s.component];
            let mut value = if s.orientation { o } else { a };
            if s.halve {
                value >>= 1;
            }
            if let Some(top) = s.top_digit {
                value %= top;
            }
            rank = rank * s.radix + value as u64;
        }
        rank
    }
}

/// The space of `spec`'s projection of `definition` over those of `generators` that change
/// it; `None` when none does.
fn projected_space(
    definition: &Definition,
    spec: &ProjectionSpec,
    generators: &[String],
    quarter: bool,
    largest: u128,
) -> Result<Option<OrbitSpace<u64>>, SpaceError> {
    let projected = spec.definition(definition);
    let generators: Vec<String> = generators
        .iter()
        .filter(|g| {
            projected
                .find_move(g)
                .is_some_and(|m| !m.transformation.is_identity())
        })
        .cloned()
        .collect();
    if generators.is_empty() {
        return Ok(None);
    }
    Ok(Some(OrbitSpace::<u64>::new_within(
        &projected,
        &generators,
        quarter,
        largest,
    )?))
}

/// The maximum of pattern databases over projections of a [`SlotSpace`]: admissible and
/// consistent, as [`PatternDatabases`] is.
#[derive(Debug)]
pub struct SlotDatabases<'a> {
    tables: &'a [(Projection, Vec<u8>)],
}

impl<'a> SlotDatabases<'a> {
    /// The databases `tables` (projections made by [`Projection::of_slots`] for one slot
    /// space, each with its exact distances, one byte a rank, 255 for unreached).
    pub fn new(tables: &'a [(Projection, Vec<u8>)]) -> Self {
        Self { tables }
    }
}

impl Heuristic<Slots> for SlotDatabases<'_> {
    const CONSISTENT: bool = true;

    fn lower_bound(&self, state: Slots) -> u32 {
        self.tables
            .iter()
            .map(
                |(p, table)| match table[p.rank_of_slot_bytes(&state) as usize] {
                    u8::MAX => 0,
                    d => d as u32,
                },
            )
            .max()
            .unwrap_or(0)
    }
}

/// The maximum of pattern databases over projections of one space: admissible (each is a
/// lower bound on the moves left, see the module docs); consistent too, as a maximum of
/// consistent estimates (every move changes a projection's distance by at most one).
#[derive(Debug)]
pub struct PatternDatabases<'a, R: RankInt> {
    space: &'a OrbitSpace<R>,
    tables: &'a [(Projection, Vec<u8>)],
}

impl<'a, R: RankInt> PatternDatabases<'a, R> {
    /// The databases `tables` (each projection with its exact distances, one byte a rank, 255
    /// for unreached) over `space`.
    pub fn new(space: &'a OrbitSpace<R>, tables: &'a [(Projection, Vec<u8>)]) -> Self {
        Self { space, tables }
    }
}

impl<R: RankInt> Heuristic<R> for PatternDatabases<'_, R> {
    const CONSISTENT: bool = true;

    fn lower_bound(&self, state: R) -> u32 {
        self.space.with_coords(state, |coords| {
            self.tables
                .iter()
                .map(|(p, table)| match table[p.rank_from(coords) as usize] {
                    u8::MAX => 0,
                    d => d as u32,
                })
                .max()
                .unwrap_or(0)
        })
    }
}
