//! Pattern databases for definition puzzles, found automatically: a **projection** keeps part
//! of the puzzle (some orbits whole, or an orbit's orientations alone, or its arrangement
//! alone) as a smaller definition over the same moves; the fewest moves that solve the
//! projection of a position never exceed the moves that solve the position, so a table of the
//! projection's distances is an admissible heuristic, and the maximum of several is too
//! ([`PatternDatabases`]). A projection's rank is read straight off the full space's decoded
//! coordinates (its components are the full space's components of the orbits it keeps), so a
//! lookup costs a few multiplications, not an unranking. A projection of some of an orbit's
//! pieces ([`Keep::Pieces`]) is a space of its own ([`super::subset`]), read off the full
//! space's coordinates by unranking that orbit's arrangement, or straight off the labels of
//! a position held as pieces ([`super::pieces`]).

use super::definition::{Definition, NamedMove, OrbitDef, OrbitPattern, OrbitTransformation};
use super::space::{Coords, OrbitSpace, SpaceError};
use super::subset::{SubsetReader, SubsetSpace, Unranked};
use godsearch_core::heuristic::raise_where;
use godsearch_core::{Heuristic, RankInt};
use godsearch_tables::prefetch;

/// What a projection keeps of one orbit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// The pieces and their orientations.
    Whole,
    /// Only the orientations (every piece alike).
    Orientations,
    /// Only where the pieces are (orientations ignored).
    Arrangement,
    /// Only where the pieces solved in these slots are (bit `s` for slot `s`, all of one
    /// component, whose pieces all differ), with their orientations when `orientations`; the
    /// other pieces alike and ignored.
    Pieces {
        /// The slots, as a mask.
        slots: u64,
        /// Whether their orientations are kept.
        orientations: bool,
    },
}

/// A part of a puzzle: the orbits it keeps, and how much of each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectionSpec {
    /// `(orbit index, what is kept of it)`, in orbit order.
    pub orbits: Vec<(usize, Keep)>,
}

impl Keep {
    /// Whether everything `self` keeps of an orbit, `other` keeps too.
    pub fn kept_by(self, other: Keep) -> bool {
        match (self, other) {
            (_, Keep::Whole) => true,
            (Keep::Pieces { orientations, .. }, Keep::Arrangement) => !orientations,
            (
                Keep::Pieces {
                    slots,
                    orientations,
                },
                Keep::Pieces {
                    slots: more,
                    orientations: with,
                },
            ) => slots & !more == 0 && (with || !orientations),
            (keep, other) => keep == other,
        }
    }
}

impl ProjectionSpec {
    /// Whether everything `self` keeps, `other` keeps too: `self`'s positions are then a
    /// projection of `other`'s, so `other`'s database is at least `self`'s at every position
    /// (both admissible).
    pub fn kept_by(&self, other: &ProjectionSpec) -> bool {
        self.orbits.iter().all(|&(orbit, keep)| {
            other
                .orbits
                .iter()
                .any(|&(o, more)| o == orbit && keep.kept_by(more))
        })
    }

    /// A short description: `CORNERS`, `EDGES orientations`, `EDGES arrangement`, joined by `+`.
    pub fn describe(&self, orbits: &[OrbitDef]) -> String {
        self.orbits
            .iter()
            .map(|&(o, keep)| match keep {
                Keep::Whole => orbits[o].name.clone(),
                Keep::Orientations => format!("{} orientations", orbits[o].name),
                Keep::Arrangement => format!("{} arrangement", orbits[o].name),
                Keep::Pieces {
                    slots,
                    orientations,
                } => format!(
                    "{} {}{}",
                    orbits[o].name,
                    describe_slots(slots),
                    match orientations {
                        true => " with their orientations",
                        false => "",
                    }
                ),
            })
            .collect::<Vec<_>>()
            .join(" + ")
    }

    /// The smaller definition this projection is: the kept orbits, with alike pieces or no
    /// orientations as asked, under the same moves (a move that changes nothing of it is
    /// dropped by [`Projection::new`]). Not for [`Keep::Pieces`], which is no definition.
    fn definition(&self, full: &Definition) -> Definition {
        let orbits: Vec<OrbitDef> = self
            .orbits
            .iter()
            .map(|&(o, keep)| OrbitDef {
                orientations: match keep {
                    Keep::Arrangement => 1,
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
                                    Keep::Arrangement => {
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

/// A slot mask as `slots 0-5` or `slots 0,2,7-9`.
fn describe_slots(mask: u64) -> String {
    let slots: Vec<u32> = (0..u64::BITS).filter(|s| mask >> s & 1 == 1).collect();
    let mut runs: Vec<String> = Vec::new();
    let mut i = 0;
    while i < slots.len() {
        let mut j = i;
        while j + 1 < slots.len() && slots[j + 1] == slots[j] + 1 {
            j += 1;
        }
        runs.push(match j > i {
            true => format!("{}-{}", slots[i], slots[j]),
            false => slots[i].to_string(),
        });
        i = j + 1;
    }
    format!("slots {}", runs.join(","))
}

/// What `keep` leaves of an orbit's pieces and orientations.
fn project_orbit(keep: Keep, pieces: &[u8], orientation: &[u8]) -> OrbitPattern {
    OrbitPattern {
        pieces: match keep {
            Keep::Orientations => vec![0; pieces.len()],
            _ => pieces.to_vec(),
        },
        orientation: match keep {
            Keep::Arrangement => vec![0; orientation.len()],
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
    reading: Reading,
}

/// How a projection's rank is read off the full space's coordinates.
#[derive(Debug, Clone)]
enum Reading {
    /// Its own positions, ranked, and per digit of its rank the full component it is read
    /// from and what it is.
    Digits(OrbitSpace<u64>, Vec<Source>),
    /// Some pieces of one component ([`Keep::Pieces`]).
    Pieces(SubsetReader),
}

#[derive(Debug, Clone, Copy)]
struct Source {
    component: usize,
    orientation: bool,
    halve: bool,
    top_digit: Option<u128>,
    radix: u64,
}

/// A projection's positions as a space to search breadth-first (for its database):
/// [`Projection::space`].
pub enum ProjectedSpace<'a> {
    /// A smaller definition's positions.
    Orbits(&'a OrbitSpace<u64>),
    /// Some pieces of one component, with the move tables built for it.
    Pieces(SubsetSpace),
}

impl Projection {
    /// The projection `spec` of `full` (a space over `definition`), over the same generators
    /// and metric; `None` when no generator changes it. A [`Keep::Pieces`] projection must be
    /// the only orbit of its spec, its slots all of one component of `full` whose pieces all
    /// differ ([`SpaceError::NotASubset`] otherwise).
    pub fn new<R: RankInt>(
        full: &OrbitSpace<R>,
        definition: &Definition,
        spec: ProjectionSpec,
        quarter: bool,
    ) -> Result<Option<Self>, SpaceError> {
        if let Some(reader) = pieces_reader(full, &spec)? {
            return Ok(Some(Projection {
                spec,
                reading: Reading::Pieces(reader),
            }));
        }
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
            reading: Reading::Digits(space, sources),
        }))
    }

    /// Whether it keeps some pieces ([`Keep::Pieces`]): its rank is read by unranking an
    /// arrangement of the full space, not straight off its coordinates.
    pub fn reads_pieces(&self) -> bool {
        matches!(self.reading, Reading::Pieces(_))
    }

    /// Its number of ranks (a database has an entry for each).
    pub fn state_count(&self) -> u128 {
        match &self.reading {
            Reading::Digits(space, _) => space.rank_count(),
            Reading::Pieces(reader) => reader.rank_count(),
        }
    }

    /// Its positions as a space, over the moves of `full` (the space it was made for); a
    /// [`Keep::Pieces`] projection builds its move table now.
    pub fn space<R: RankInt>(
        &self,
        full: &OrbitSpace<R>,
    ) -> Result<ProjectedSpace<'_>, SpaceError> {
        match &self.reading {
            Reading::Digits(space, _) => Ok(ProjectedSpace::Orbits(space)),
            Reading::Pieces(reader) => SubsetSpace::new(full, reader)
                .map(ProjectedSpace::Pieces)
                .ok_or(SpaceError::NotASubset),
        }
    }

    /// The projection's rank of a position, from the full space's decoded coordinates.
    #[inline]
    pub fn rank_from(&self, coords: &[Coords]) -> u64 {
        self.rank_in(&mut PositionView::of_coords(coords))
    }

    /// The projection's rank of the position `view` shows; an arrangement unranked for one
    /// projection is kept in the view for the next.
    #[inline]
    pub fn rank_in(&self, view: &mut PositionView) -> u64 {
        let sources = match &self.reading {
            Reading::Digits(_, sources) => sources,
            Reading::Pieces(reader) => {
                return match &view.pieces {
                    Some(held) => {
                        let start = held.starts[reader.component()];
                        let n = reader.slots();
                        reader.rank_of_slots(
                            &held.labels[start..start + n],
                            &held.twists[start..start + n],
                        )
                    }
                    None => reader.rank_from(view.coords, &mut view.unranked),
                }
            }
        };
        let mut rank = 0u64;
        for s in sources {
            let (a, o) = view.coords[s.component];
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

    /// Adds the coordinates its rank reads to `needs` (a projection of some pieces reads them
    /// off the labels where a position is held as pieces).
    fn add_needs(&self, needs: &mut Needs) {
        if let Reading::Digits(_, sources) = &self.reading {
            for s in sources {
                needs.add(s.component, s.orientation);
            }
        }
    }
}

/// Which components' coordinates a position's reader must work out: bit `i` of each word for
/// component `i` (a component past the words' bits always).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Needs {
    arrangements: u64,
    orientations: u64,
}

impl Needs {
    /// Every coordinate.
    pub const ALL: Needs = Needs {
        arrangements: u64::MAX,
        orientations: u64::MAX,
    };

    /// No coordinate.
    pub const NONE: Needs = Needs {
        arrangements: 0,
        orientations: 0,
    };

    fn add(&mut self, component: usize, orientation: bool) {
        let bit = 1u64.checked_shl(component as u32).unwrap_or(0);
        match orientation {
            true => self.orientations |= bit,
            false => self.arrangements |= bit,
        }
    }

    /// Whether component `i`'s arrangement is needed.
    #[inline]
    pub fn arrangement(self, i: usize) -> bool {
        i >= u64::BITS as usize || self.arrangements >> i & 1 == 1
    }

    /// Whether component `i`'s orientations are needed.
    #[inline]
    pub fn orientation(self, i: usize) -> bool {
        i >= u64::BITS as usize || self.orientations >> i & 1 == 1
    }
}

/// A position as projections read it: its components' full coordinates (those asked for),
/// and, where it is held as pieces, every slot's label and orientation.
pub struct PositionView<'p> {
    coords: &'p [Coords],
    unranked: Unranked,
    pieces: Option<HeldPieces<'p>>,
}

/// A position's slots, component after component.
struct HeldPieces<'p> {
    labels: &'p [u8],
    twists: &'p [u8],
    starts: &'p [usize],
}

impl<'p> PositionView<'p> {
    /// A position decoded into every component's full coordinates.
    pub fn of_coords(coords: &'p [Coords]) -> Self {
        PositionView {
            coords,
            unranked: Unranked::default(),
            pieces: None,
        }
    }

    /// A position held as pieces: each slot's label and orientation (component `c`'s from
    /// `starts[c]`), with the coordinates the projections read by digits.
    pub fn of_pieces(
        coords: &'p [Coords],
        labels: &'p [u8],
        twists: &'p [u8],
        starts: &'p [usize],
    ) -> Self {
        PositionView {
            coords,
            unranked: Unranked::default(),
            pieces: Some(HeldPieces {
                labels,
                twists,
                starts,
            }),
        }
    }
}

/// States whose positions projections read: ranks of an [`OrbitSpace`], or
/// [`Pieces`](super::pieces::Pieces).
pub trait Positions: Sync {
    /// The state.
    type State: Copy + Default;

    /// Calls `f` with a view of `state`'s position that holds at least the coordinates
    /// `needs` asks for.
    fn view<T>(
        &self,
        state: Self::State,
        needs: Needs,
        f: impl FnOnce(&mut PositionView) -> T,
    ) -> T;
}

impl<R: RankInt> Positions for OrbitSpace<R> {
    type State = R;

    /// Every coordinate, decoded from the rank.
    #[inline]
    fn view<T>(&self, state: R, _: Needs, f: impl FnOnce(&mut PositionView) -> T) -> T {
        self.with_coords(state, |coords| f(&mut PositionView::of_coords(coords)))
    }
}

/// The reader of `spec` when it keeps some pieces ([`Keep::Pieces`]), checked; `None` for
/// the other kinds.
fn pieces_reader<R: RankInt>(
    full: &OrbitSpace<R>,
    spec: &ProjectionSpec,
) -> Result<Option<SubsetReader>, SpaceError> {
    let pieces = spec.orbits.iter().find_map(|&(o, keep)| match keep {
        Keep::Pieces {
            slots,
            orientations,
        } => Some((o, slots, orientations)),
        _ => None,
    });
    let Some((orbit, mask, orientations)) = pieces else {
        return Ok(None);
    };
    let slots: Vec<usize> = (0..u64::BITS as usize)
        .filter(|s| mask >> s & 1 == 1)
        .collect();
    let component = match (spec.orbits.len(), slots.first()) {
        (1, Some(&first)) => full.component_index(orbit, first),
        _ => None,
    };
    let reader = component.and_then(|c| {
        let local: Option<Vec<usize>> = slots
            .iter()
            .map(|&s| full.component_slot(c, orbit, s))
            .collect();
        SubsetReader::new(full, c, &local?, orientations)
    });
    reader.map(Some).ok_or(SpaceError::NotASubset)
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
        .filter(|g| !crate::space::generator_is_identity(&projected, g))
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

/// The maximum of pattern databases over projections of one space: admissible (each is a
/// lower bound on the moves left, see the module docs); consistent too, as a maximum of
/// consistent estimates (every move changes a projection's distance by at most one). Each
/// table's bytes are held as `B` (built in memory, or a file's mapped payload); the states
/// are those of `P` (ranks of the space, or its positions as pieces).
#[derive(Debug)]
pub struct PatternDatabases<'a, P, B = Vec<u8>> {
    space: &'a P,
    tables: &'a [(Projection, B)],
    /// The coordinates the databases read off a position.
    needs: Needs,
}

impl<'a, P: Positions, B: AsRef<[u8]>> PatternDatabases<'a, P, B> {
    /// The databases `tables` (each projection with its exact distances, one byte a rank, 255
    /// for unreached) over `space`.
    pub fn new(space: &'a P, tables: &'a [(Projection, B)]) -> Self {
        let mut needs = Needs::NONE;
        for (p, _) in tables {
            p.add_needs(&mut needs);
        }
        Self {
            space,
            tables,
            needs,
        }
    }
}

/// [`PatternDatabases::lower_bounds`] works out this many entries before it reads them.
const BATCH_ENTRIES: usize = 256;

/// A database's distance as an estimate (255, unreached, says nothing).
#[inline]
fn distance(entry: u8) -> u32 {
    match entry {
        u8::MAX => 0,
        d => d as u32,
    }
}

impl<P: Positions, B: AsRef<[u8]> + Sync> Heuristic<P::State> for PatternDatabases<'_, P, B> {
    const CONSISTENT: bool = true;

    fn lower_bound(&self, state: P::State) -> u32 {
        self.space.view(state, self.needs, |view| {
            self.tables
                .iter()
                .map(|(p, table)| distance(table.as_ref()[p.rank_in(view) as usize]))
                .max()
                .unwrap_or(0)
        })
    }

    /// Every state's entries worked out first (and fetched), then read: the reads wait on
    /// memory (the 3x3x3's corner table is 88 MB) and no longer wait one after another.
    fn lower_bounds(&self, states: &[P::State], out: &mut [u32]) {
        self.largest_of(states, out, |_| true);
    }

    /// The databases read straight off the coordinates first; those of some pieces (which
    /// unrank an arrangement where a state is a rank) only for the states the first leave
    /// below `enough` (the 3x3x3's corners cut some children alone, and its sets of edges are
    /// not read for them).
    fn lower_bounds_past(&self, states: &[P::State], out: &mut [u32], enough: u32) {
        let pieces = |p: &Projection| p.reads_pieces();
        if self
            .tables
            .iter()
            .all(|(p, _)| pieces(p) == pieces(&self.tables[0].0))
        {
            return self.lower_bounds(states, out);
        }
        self.largest_of(states, out, |p| !pieces(p));
        raise_where(
            states,
            out,
            |bound| bound < enough,
            |left, read| self.largest_of(left, read, pieces),
        );
    }
}

impl<P: Positions, B: AsRef<[u8]> + Sync> PatternDatabases<'_, P, B> {
    /// The largest distance in the databases `pick` chooses, for each of `states`, into `out`
    /// (0 where it chooses none): every state's entries worked out and fetched first, then
    /// read.
    fn largest_of(&self, states: &[P::State], out: &mut [u32], pick: impl Fn(&Projection) -> bool) {
        let picked = || self.tables.iter().filter(|(p, _)| pick(p));
        let tables = picked().count().max(1);
        if tables > BATCH_ENTRIES {
            for (&state, bound) in states.iter().zip(out) {
                *bound = self.space.view(state, self.needs, |view| {
                    picked()
                        .map(|(p, table)| distance(table.as_ref()[p.rank_in(view) as usize]))
                        .max()
                        .unwrap_or(0)
                });
            }
            return;
        }
        let mut entries = [0usize; BATCH_ENTRIES];
        for (states, out) in states
            .chunks(BATCH_ENTRIES / tables)
            .zip(out.chunks_mut(BATCH_ENTRIES / tables))
        {
            for (i, &state) in states.iter().enumerate() {
                self.space.view(state, self.needs, |view| {
                    for (t, (p, table)) in picked().enumerate() {
                        let entry = p.rank_in(view) as usize;
                        prefetch(table.as_ref(), entry);
                        entries[i * tables + t] = entry;
                    }
                });
            }
            for (i, bound) in out.iter_mut().enumerate() {
                let at = &entries[i * tables..][..tables];
                *bound = picked()
                    .zip(at)
                    .map(|((_, table), &e)| distance(table.as_ref()[e]))
                    .max()
                    .unwrap_or(0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Keep, ProjectionSpec};

    fn pieces(slots: u64, orientations: bool) -> Keep {
        Keep::Pieces {
            slots,
            orientations,
        }
    }

    #[test]
    fn a_projection_is_kept_by_those_that_keep_more_of_the_same_orbits() {
        let spec = |orbits: &[(usize, Keep)]| ProjectionSpec {
            orbits: orbits.to_vec(),
        };
        let six = spec(&[(0, pieces(0b11_1111, true))]);
        let seven = spec(&[(0, pieces(0b111_1111, true))]);
        let last_seven = spec(&[(0, pieces(0b1111_1110_0000, true))]);
        assert!(six.kept_by(&seven) && !seven.kept_by(&six));
        assert!(!six.kept_by(&last_seven), "slot 0 is not among them");
        assert!(six.kept_by(&spec(&[(0, Keep::Whole)])));
        assert!(!six.kept_by(&spec(&[(1, Keep::Whole)])), "another orbit");
        // Without their orientations, where the pieces are: the arrangement keeps that.
        let placed = spec(&[(0, pieces(0b11, false))]);
        assert!(placed.kept_by(&spec(&[(0, Keep::Arrangement)])));
        assert!(placed.kept_by(&six));
        assert!(!six.kept_by(&spec(&[(0, Keep::Arrangement)])));
        assert!(!six.kept_by(&spec(&[(0, pieces(0b111_1111, false))])));
        let orientations = spec(&[(0, Keep::Orientations)]);
        assert!(!orientations.kept_by(&seven) && !orientations.kept_by(&placed));
        // Two orbits are kept only by what keeps both.
        let both = spec(&[(0, Keep::Orientations), (1, Keep::Arrangement)]);
        assert!(!both.kept_by(&orientations));
        assert!(both.kept_by(&spec(&[(0, Keep::Whole), (1, Keep::Whole)])));
    }
}
