//! twsearch's `.tws` text format (ksolve's, extended): `Name`, `Set NAME PIECES ORIENTATIONS`,
//! `Solved` (slots numbered from 1) or `StartState` (from 0), `Move NAME` (from 1, ksolve's
//! orientation changes, listed by the slot a piece leaves) or `MoveTransformation NAME` (from 0,
//! KPuzzle's, listed by the slot a piece arrives in), `MoveSequence NAME ALG` and
//! `MoveAlias NAME ALG` for derived moves, each block closed by `End`. An orbit left out of a
//! block is unchanged; an orientation line left out is all zeros; `#` starts a comment.

use super::alg;
use super::definition::{
    check_orbit_pattern, check_orbit_transformation, orbit_def, Definition, DefinitionError,
    ListPlaces, NamedMove, OrbitDef, OrbitPattern, OrbitTransformation, Pattern, Transformation,
};

fn at_line(line: usize) -> String {
    format!("line {line}")
}

fn malformed(line: usize, what: impl Into<String>) -> DefinitionError {
    DefinitionError::Malformed {
        at: at_line(line),
        what: what.into(),
    }
}

/// The file's lines, numbered from 1, comments and blank lines dropped, split into words.
fn lines(text: &str) -> Vec<(usize, Vec<&str>)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("")))
        .map(|(n, l)| (n, l.split_whitespace().collect::<Vec<_>>()))
        .filter(|(_, words)| !words.is_empty())
        .collect()
}

/// How a block's numbers are read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Block {
    /// `Solved`: pieces numbered from 1.
    Solved,
    /// `StartState`: pieces numbered from 0.
    StartState,
    /// `Move`: slots from 1, orientation changes by the slot a piece leaves.
    Move,
    /// `MoveTransformation`: slots from 0, orientation changes by the slot a piece arrives in.
    MoveTransformation,
}

/// One orbit's lines in a block: the numbers, and the line each list was on.
struct OrbitLines {
    first: (usize, Vec<u64>),
    second: Option<(usize, Vec<u64>)>,
}

fn parse_numbers(line: usize, words: &[&str]) -> Result<Vec<u64>, DefinitionError> {
    words
        .iter()
        .map(|w| {
            w.parse::<u64>()
                .map_err(|_| malformed(line, format!("expected a number, found '{w}'")))
        })
        .collect()
}

/// Reads a `.tws` definition.
pub fn read_definition(text: &str) -> Result<Definition, DefinitionError> {
    let lines = lines(text);
    let mut name = "unnamed".to_string();
    let mut orbits: Vec<OrbitDef> = Vec::new();
    let mut solved: Option<Pattern> = None;
    let mut moves: Vec<NamedMove> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (n, words) = &lines[i];
        let n = *n;
        let arity = |want: usize| -> Result<(), DefinitionError> {
            if words.len() != want {
                return Err(malformed(
                    n,
                    format!(
                        "'{}' takes {} words, found {}",
                        words[0],
                        want - 1,
                        words.len() - 1
                    ),
                ));
            }
            Ok(())
        };
        match words[0] {
            "Name" => {
                if words.len() < 2 {
                    return Err(malformed(n, "'Name' needs a name"));
                }
                name = words[1..].join(" ");
                i += 1;
            }
            "Set" => {
                arity(4)?;
                if solved.is_some() || !moves.is_empty() {
                    return Err(malformed(n, "every Set comes before Solved and the moves"));
                }
                let pieces = parse_numbers(n, &words[2..3])?[0];
                let orientations = parse_numbers(n, &words[3..4])?[0];
                let def = orbit_def(&at_line(n), words[1].to_string(), pieces, orientations)?;
                if orbits.iter().any(|o| o.name == def.name) {
                    return Err(malformed(n, format!("Set {} is defined twice", def.name)));
                }
                orbits.push(def);
                i += 1;
            }
            "Solved" | "StartState" => {
                arity(1)?;
                if orbits.is_empty() {
                    return Err(malformed(n, "Solved comes after the Set lines"));
                }
                if solved.is_some() {
                    return Err(malformed(n, "a second Solved block"));
                }
                let block = if words[0] == "Solved" { Block::Solved } else { Block::StartState };
                let (parts, next) = read_block(&lines, i + 1, &orbits)?;
                solved = Some(pattern_of(&parts, &orbits, block)?);
                i = next;
            }
            "Move" | "MoveTransformation" => {
                arity(2)?;
                if solved.is_none() {
                    return Err(malformed(n, "moves come after the Solved block"));
                }
                let block = if words[0] == "Move" { Block::Move } else { Block::MoveTransformation };
                let name = words[1].to_string();
                check_new_move(n, &name, &moves)?;
                let (parts, next) = read_block(&lines, i + 1, &orbits)?;
                let transformation = transformation_of(&parts, &orbits, block)?;
                moves.push(NamedMove {
                    name,
                    transformation,
                    derived: false,
                });
                i = next;
            }
            "MoveSequence" | "MoveAlias" => {
                if words.len() < 3 {
                    return Err(malformed(n, format!("'{}' needs a name and an algorithm", words[0])));
                }
                let name = words[1].to_string();
                check_new_move(n, &name, &moves)?;
                let text = words[2..].join(" ");
                let names: Vec<String> = moves.iter().map(|m| m.name.clone()).collect();
                let steps = alg::parse_at(&text, &names, &at_line(n))?;
                let refs: Vec<&Transformation> = moves.iter().map(|m| &m.transformation).collect();
                moves.push(NamedMove {
                    name,
                    transformation: alg::to_transformation(&steps, &refs, &orbits),
                    derived: true,
                });
                i += 1;
            }
            other => {
                return Err(malformed(
                    n,
                    format!("'{other}' is not a .tws statement godsearch reads (Name, Set, Solved, StartState, Move, MoveTransformation, MoveSequence, MoveAlias)"),
                ))
            }
        }
    }
    let solved =
        solved.ok_or_else(|| malformed(lines.last().map_or(1, |l| l.0), "no Solved block"))?;
    if moves.is_empty() {
        return Err(malformed(
            lines.last().map_or(1, |l| l.0),
            "the definition has no moves",
        ));
    }
    Ok(Definition {
        name,
        orbits,
        solved,
        moves,
    })
}

fn check_new_move(line: usize, name: &str, moves: &[NamedMove]) -> Result<(), DefinitionError> {
    if moves.iter().any(|m| m.name == name) {
        return Err(malformed(line, format!("move {name} is defined twice")));
    }
    Ok(())
}

/// Reads a block's orbit lines from `start` up to its `End`: for each orbit named, one or two
/// lists of numbers. Returns them by orbit index, and the index of the line after `End`.
fn read_block(
    lines: &[(usize, Vec<&str>)],
    start: usize,
    orbits: &[OrbitDef],
) -> Result<(Vec<Option<OrbitLines>>, usize), DefinitionError> {
    let mut parts: Vec<Option<OrbitLines>> = orbits.iter().map(|_| None).collect();
    let mut current: Option<usize> = None;
    let mut i = start;
    loop {
        let Some((n, words)) = lines.get(i) else {
            let last = lines.last().map_or(1, |l| l.0);
            return Err(malformed(last, "the block has no End"));
        };
        let n = *n;
        i += 1;
        if words[0] == "End" {
            return Ok((parts, i));
        }
        if words[0].chars().all(|c| c.is_ascii_digit()) {
            let Some(o) = current else {
                return Err(malformed(n, "numbers before an orbit name"));
            };
            let values = parse_numbers(n, words)?;
            let part = parts[o].as_mut().expect("named");
            if part.second.is_some() {
                return Err(malformed(
                    n,
                    format!("a third line of numbers for {}", orbits[o].name),
                ));
            }
            part.second = Some((n, values));
            continue;
        }
        if words.len() != 1 {
            return Err(malformed(
                n,
                format!(
                    "expected an orbit name or numbers, found '{}'",
                    words.join(" ")
                ),
            ));
        }
        let Some(o) = orbits.iter().position(|d| d.name == words[0]) else {
            return Err(DefinitionError::Unknown {
                at: at_line(n),
                kind: "orbit",
                name: words[0].to_string(),
                known: orbits.iter().map(|d| d.name.clone()).collect(),
            });
        };
        if parts[o].is_some() {
            return Err(malformed(
                n,
                format!("orbit {} appears twice in the block", words[0]),
            ));
        }
        // The first line of numbers must follow.
        let Some((m, numbers)) = lines.get(i) else {
            return Err(malformed(n, "the block has no End"));
        };
        let first = parse_numbers(*m, numbers)?;
        i += 1;
        parts[o] = Some(OrbitLines {
            first: (*m, first),
            second: None,
        });
        current = Some(o);
    }
}

fn pattern_of(
    parts: &[Option<OrbitLines>],
    orbits: &[OrbitDef],
    block: Block,
) -> Result<Pattern, DefinitionError> {
    let from = if block == Block::Solved { 1 } else { 0 };
    let orbits = orbits
        .iter()
        .zip(parts)
        .map(|(def, part)| {
            let Some(part) = part else {
                return Ok(OrbitPattern {
                    pieces: (0..def.pieces as u8).collect(),
                    orientation: vec![0; def.pieces],
                });
            };
            let (line, pieces) = &part.first;
            let pieces = shift(*line, pieces, from)?;
            let (oline, orientation) = part.second.clone().unwrap_or((*line, vec![0; def.pieces]));
            // Solved pieces may be numbered sparsely (1 1 1 1 5 5 5 5): close the gaps.
            let pieces = dense_labels(&pieces);
            let places = ListPlaces {
                first: at_line(*line),
                orientation: at_line(oline),
            };
            check_orbit_pattern(&places, def, &pieces, &orientation)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Pattern { orbits })
}

/// Relabels `labels` onto `0..distinct` keeping their order.
fn dense_labels(labels: &[u64]) -> Vec<u64> {
    let mut distinct = labels.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    labels
        .iter()
        .map(|l| distinct.binary_search(l).expect("present") as u64)
        .collect()
}

fn shift(line: usize, values: &[u64], from: u64) -> Result<Vec<u64>, DefinitionError> {
    values
        .iter()
        .map(|&v| {
            v.checked_sub(from).ok_or_else(|| {
                malformed(
                    line,
                    format!("slots are numbered from {from} here; found {v}"),
                )
            })
        })
        .collect()
}

fn transformation_of(
    parts: &[Option<OrbitLines>],
    orbits: &[OrbitDef],
    block: Block,
) -> Result<Transformation, DefinitionError> {
    let from = if block == Block::Move { 1 } else { 0 };
    let orbits = orbits
        .iter()
        .zip(parts)
        .map(|(def, part)| {
            let Some(part) = part else {
                return Ok(OrbitTransformation::identity(def.pieces));
            };
            let (line, permutation) = &part.first;
            let permutation = shift(*line, permutation, from)?;
            let (oline, mut orientation) =
                part.second.clone().unwrap_or((*line, vec![0; def.pieces]));
            let places = ListPlaces {
                first: at_line(*line),
                orientation: at_line(oline),
            };
            if block == Block::Move
                && orientation.len() == def.pieces
                && permutation.len() == def.pieces
            {
                // ksolve lists a twist by the slot the piece leaves; KPuzzle by where it lands.
                let by_source = orientation.clone();
                for (i, &p) in permutation.iter().enumerate() {
                    if let Some(&o) = by_source.get(p as usize) {
                        orientation[i] = o;
                    }
                }
            }
            check_orbit_transformation(&places, def, &permutation, &orientation)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Transformation { orbits })
}
