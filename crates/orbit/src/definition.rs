//! A puzzle as data: orbits of pieces, a solved pattern, and moves as transformations, in
//! cubing.js's KPuzzle model (which twsearch's `.tws` files describe too).
//!
//! **Convention** (KPuzzle's, pinned by the test `a_transformation_moves_pieces_as_kpuzzle_does`):
//! a transformation gives, for each orbit, `permutation[i]`, the slot whose piece comes to slot
//! `i`, and `orientation[i]`, the twist added to the piece that lands in slot `i`. Applied to a
//! pattern: `new.pieces[i] = old.pieces[permutation[i]]` and
//! `new.orientation[i] = (old.orientation[permutation[i]] + orientation[i]) mod k`.
//! [`Transformation::then`] composes left to right: `a.then(b)` is `a` first, then `b`.

use thiserror::Error;

/// One kind of piece: how many there are and how many ways each can be turned in its slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrbitDef {
    /// The orbit's name in the file (`CORNERS`, `EDGES`).
    pub name: String,
    /// Number of pieces (and slots).
    pub pieces: usize,
    /// Number of orientations each piece has (1: orientation does not matter).
    pub orientations: u8,
}

/// One orbit's part of a transformation (see the module docs for the convention).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OrbitTransformation {
    /// `permutation[i]`: the slot whose piece moves to slot `i`.
    pub permutation: Vec<u8>,
    /// `orientation[i]`: the twist added to the piece that lands in slot `i`.
    pub orientation: Vec<u8>,
}

/// A move, or any sequence of moves, as what it does to every orbit.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Transformation {
    /// One part per orbit, in the definition's orbit order.
    pub orbits: Vec<OrbitTransformation>,
}

/// One orbit's part of a pattern: which piece is in each slot, turned how.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OrbitPattern {
    /// `pieces[i]`: the piece in slot `i`; pieces that are alike share a number.
    pub pieces: Vec<u8>,
    /// `orientation[i]`: how the piece in slot `i` is turned.
    pub orientation: Vec<u8>,
}

/// A position of the whole puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pattern {
    /// One part per orbit, in the definition's orbit order.
    pub orbits: Vec<OrbitPattern>,
}

/// A named move of a definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedMove {
    /// Its name in the file (`R`, `BR`, `x`).
    pub name: String,
    /// What it does.
    pub transformation: Transformation,
    /// `true` for a move written as an algorithm of other moves (KPuzzle's `derivedMoves`,
    /// `.tws` `MoveSequence`).
    pub derived: bool,
}

/// A puzzle read from a definition file, checked: every permutation is one, every orientation
/// is in range, every orbit has its size everywhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    /// The puzzle's name as the file gives it.
    pub name: String,
    /// The orbits, in file order.
    pub orbits: Vec<OrbitDef>,
    /// The solved pattern (the goal).
    pub solved: Pattern,
    /// Every move the file names, its own moves first, then the derived ones, in file order.
    pub moves: Vec<NamedMove>,
}

/// What is wrong with a definition file, and where. Every message names the place (a JSON path
/// or a line) and the mistake.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DefinitionError {
    /// The file is not valid JSON, or not the shape of a KPuzzle definition.
    #[error("{at}: {what}")]
    Malformed {
        /// Where: a JSON path (`moves.R.CORNERS.permutation`) or `line N`.
        at: String,
        /// What is wrong.
        what: String,
    },
    /// A permutation that does not hold each slot once.
    #[error("{at}: not a permutation of 0..{n}: {found}")]
    NotAPermutation {
        /// Where.
        at: String,
        /// The orbit's size.
        n: usize,
        /// The values, as written.
        found: String,
    },
    /// An orientation outside `0..k`.
    #[error("{at}: orientation {value} is out of range for an orbit of {orientations} orientations (0 to {})", orientations - 1)]
    OrientationOutOfRange {
        /// Where.
        at: String,
        /// The value.
        value: u64,
        /// The orbit's orientation count.
        orientations: u8,
    },
    /// A list whose length is not the orbit's piece count.
    #[error("{at}: {found} entries, but orbit {orbit} has {expected} pieces")]
    SizeMismatch {
        /// Where.
        at: String,
        /// The orbit.
        orbit: String,
        /// Its piece count.
        expected: usize,
        /// Entries found.
        found: usize,
    },
    /// A name of a move or an orbit the file does not define.
    #[error("{at}: unknown {kind} '{name}'{}", known_list(.known))]
    Unknown {
        /// Where.
        at: String,
        /// `move` or `orbit`.
        kind: &'static str,
        /// The name.
        name: String,
        /// The names that exist.
        known: Vec<String>,
    },
    /// A derived move or a move sequence that does not parse.
    #[error("{at}: '{alg}' does not parse: {why}")]
    BadAlgorithm {
        /// Where.
        at: String,
        /// The algorithm.
        alg: String,
        /// Why.
        why: String,
    },
}

fn known_list(known: &[String]) -> String {
    const SHOWN: usize = 24;
    if known.is_empty() {
        return String::new();
    }
    let mut names: Vec<&str> = known.iter().take(SHOWN).map(String::as_str).collect();
    if known.len() > SHOWN {
        names.push("...");
    }
    format!(" (known: {})", names.join(", "))
}

/// Most orientations an orbit may have (a byte holds each, with room to add two).
pub const MAX_ORIENTATIONS: u8 = 127;
/// Most pieces an orbit may have (a byte numbers each).
pub const MAX_PIECES: usize = 255;

impl OrbitTransformation {
    /// The orbit's identity.
    pub fn identity(n: usize) -> Self {
        Self {
            permutation: (0..n as u8).collect(),
            orientation: vec![0; n],
        }
    }

    /// `true` when nothing moves or turns.
    pub fn is_identity(&self) -> bool {
        self.orientation.iter().all(|&o| o == 0)
            && self
                .permutation
                .iter()
                .enumerate()
                .all(|(i, &p)| p as usize == i)
    }
}

impl Transformation {
    /// The transformation that changes nothing.
    pub fn identity(orbits: &[OrbitDef]) -> Self {
        Self {
            orbits: orbits
                .iter()
                .map(|o| OrbitTransformation::identity(o.pieces))
                .collect(),
        }
    }

    /// `self` first, then `next`.
    pub fn then(&self, next: &Transformation, orbits: &[OrbitDef]) -> Transformation {
        let parts = self
            .orbits
            .iter()
            .zip(&next.orbits)
            .zip(orbits)
            .map(|((a, b), def)| {
                let k = def.orientations;
                let (permutation, orientation) = b
                    .permutation
                    .iter()
                    .zip(&b.orientation)
                    .map(|(&from, &twist)| {
                        let from = from as usize;
                        (a.permutation[from], (a.orientation[from] + twist) % k)
                    })
                    .unzip();
                OrbitTransformation {
                    permutation,
                    orientation,
                }
            })
            .collect();
        Transformation { orbits: parts }
    }

    /// The transformation that undoes `self`.
    pub fn inverse(&self, orbits: &[OrbitDef]) -> Transformation {
        let parts = self
            .orbits
            .iter()
            .zip(orbits)
            .map(|(t, def)| {
                let k = def.orientations;
                let n = t.permutation.len();
                let mut inv = OrbitTransformation::identity(n);
                for (i, (&p, &o)) in t.permutation.iter().zip(&t.orientation).enumerate() {
                    inv.permutation[p as usize] = i as u8;
                    inv.orientation[p as usize] = (k - o % k) % k;
                }
                inv
            })
            .collect();
        Transformation { orbits: parts }
    }

    /// `self` applied `times` times (0: the identity).
    pub fn power(&self, times: u64, orbits: &[OrbitDef]) -> Transformation {
        let mut result = Transformation::identity(orbits);
        for _ in 0..times {
            result = result.then(self, orbits);
        }
        result
    }

    /// `true` when nothing moves or turns.
    pub fn is_identity(&self) -> bool {
        self.orbits.iter().all(OrbitTransformation::is_identity)
    }

    /// How many times `self` must be applied to give the identity; `None` above `limit`.
    pub fn order(&self, orbits: &[OrbitDef], limit: u64) -> Option<u64> {
        let mut power = self.clone();
        for order in 1..=limit {
            if power.is_identity() {
                return Some(order);
            }
            power = power.then(self, orbits);
        }
        None
    }

    /// The pattern `pattern` becomes under `self`.
    pub fn apply(&self, pattern: &Pattern, orbits: &[OrbitDef]) -> Pattern {
        let parts = self
            .orbits
            .iter()
            .zip(&pattern.orbits)
            .zip(orbits)
            .map(|((t, p), def)| {
                let (pieces, orientation) = t
                    .permutation
                    .iter()
                    .zip(&t.orientation)
                    .map(|(&from, &twist)| {
                        let from = from as usize;
                        (
                            p.pieces[from],
                            (p.orientation[from] + twist) % def.orientations,
                        )
                    })
                    .unzip();
                OrbitPattern {
                    pieces,
                    orientation,
                }
            })
            .collect();
        Pattern { orbits: parts }
    }
}

impl Definition {
    /// The move named `name`, if the file defines it.
    pub fn find_move(&self, name: &str) -> Option<&NamedMove> {
        self.moves.iter().find(|m| m.name == name)
    }

    /// The names of every move, in order.
    pub fn move_names(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.name.clone()).collect()
    }
}

/// Where each list of an orbit's part of a move or pattern was read: a JSON path or a line.
pub(crate) struct ListPlaces {
    /// The permutation's or the pieces' place.
    pub first: String,
    /// The orientations' place.
    pub orientation: String,
}

/// Checks one orbit's permutation and orientation lists as read from a file (`at` names
/// them); a permutation must hold each slot once.
pub(crate) fn check_orbit_transformation(
    at: &ListPlaces,
    def: &OrbitDef,
    permutation: &[u64],
    orientation: &[u64],
) -> Result<OrbitTransformation, DefinitionError> {
    check_len(&at.first, def, permutation.len())?;
    check_len(&at.orientation, def, orientation.len())?;
    let mut seen = vec![false; def.pieces];
    for &p in permutation {
        match seen.get_mut(p as usize) {
            Some(s) if !*s => *s = true,
            _ => {
                return Err(DefinitionError::NotAPermutation {
                    at: at.first.clone(),
                    n: def.pieces,
                    found: format!("{permutation:?}"),
                })
            }
        }
    }
    Ok(OrbitTransformation {
        permutation: permutation.iter().map(|&p| p as u8).collect(),
        orientation: check_orientations(&at.orientation, def, orientation)?,
    })
}

/// Checks one orbit's pattern (pieces may repeat: alike pieces share a number).
pub(crate) fn check_orbit_pattern(
    at: &ListPlaces,
    def: &OrbitDef,
    pieces: &[u64],
    orientation: &[u64],
) -> Result<OrbitPattern, DefinitionError> {
    check_len(&at.first, def, pieces.len())?;
    check_len(&at.orientation, def, orientation.len())?;
    if let Some(&p) = pieces.iter().find(|&&p| p as usize >= def.pieces) {
        return Err(DefinitionError::Malformed {
            at: at.first.clone(),
            what: format!(
                "piece {p} is out of range for an orbit of {} pieces (0 to {})",
                def.pieces,
                def.pieces - 1
            ),
        });
    }
    Ok(OrbitPattern {
        pieces: pieces.iter().map(|&p| p as u8).collect(),
        orientation: check_orientations(&at.orientation, def, orientation)?,
    })
}

fn check_len(at: &str, def: &OrbitDef, found: usize) -> Result<(), DefinitionError> {
    if found != def.pieces {
        return Err(DefinitionError::SizeMismatch {
            at: at.into(),
            orbit: def.name.clone(),
            expected: def.pieces,
            found,
        });
    }
    Ok(())
}

fn check_orientations(
    at: &str,
    def: &OrbitDef,
    values: &[u64],
) -> Result<Vec<u8>, DefinitionError> {
    values
        .iter()
        .map(|&v| {
            if v < def.orientations as u64 {
                Ok(v as u8)
            } else {
                Err(DefinitionError::OrientationOutOfRange {
                    at: at.into(),
                    value: v,
                    orientations: def.orientations,
                })
            }
        })
        .collect()
}

/// The orbit `name` of the declared sizes (as read, before any narrowing), refused where they
/// are out of range.
pub(crate) fn orbit_def(
    at: &str,
    name: String,
    pieces: u64,
    orientations: u64,
) -> Result<OrbitDef, DefinitionError> {
    let out_of_range = |what: String| DefinitionError::Malformed {
        at: at.into(),
        what,
    };
    let pieces = usize::try_from(pieces)
        .ok()
        .filter(|p| (1..=MAX_PIECES).contains(p))
        .ok_or_else(|| {
            out_of_range(format!(
                "orbit {name} has {pieces} pieces; an orbit has 1 to {MAX_PIECES}"
            ))
        })?;
    let orientations = u8::try_from(orientations)
        .ok()
        .filter(|o| (1..=MAX_ORIENTATIONS).contains(o))
        .ok_or_else(|| {
            out_of_range(format!(
                "orbit {name} has {orientations} orientations; an orbit has 1 to {MAX_ORIENTATIONS}"
            ))
        })?;
    Ok(OrbitDef {
        name,
        pieces,
        orientations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn orbit(n: usize, k: u8) -> Vec<OrbitDef> {
        vec![OrbitDef {
            name: "X".into(),
            pieces: n,
            orientations: k,
        }]
    }

    fn t(p: &[u8], o: &[u8]) -> Transformation {
        Transformation {
            orbits: vec![OrbitTransformation {
                permutation: p.to_vec(),
                orientation: o.to_vec(),
            }],
        }
    }

    #[test]
    fn a_transformation_moves_pieces_as_kpuzzle_does() {
        let defs = orbit(3, 3);
        let start = Pattern {
            orbits: vec![OrbitPattern {
                pieces: vec![0, 1, 2],
                orientation: vec![0, 0, 0],
            }],
        };
        // Slot 0 receives the piece of slot 1, turned once.
        let a = t(&[1, 2, 0], &[1, 0, 0]);
        let after = a.apply(&start, &defs);
        assert_eq!(after.orbits[0].pieces, [1, 2, 0]);
        assert_eq!(after.orbits[0].orientation, [1, 0, 0]);
        // `then` is left first: applying the composite equals applying one after the other.
        let b = t(&[0, 2, 1], &[0, 2, 1]);
        let both = a.then(&b, &defs).apply(&start, &defs);
        assert_eq!(both, b.apply(&a.apply(&start, &defs), &defs));
        assert!(a.then(&a.inverse(&defs), &defs).is_identity());
        assert!(a.inverse(&defs).then(&a, &defs).is_identity());
        assert_eq!(a.order(&defs, 100), Some(9));
        assert_eq!(a.power(9, &defs), Transformation::identity(&defs));
    }
}
