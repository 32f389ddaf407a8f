//! cubing.js KPuzzle definitions (JSON), the format twips reads: `name`, `orbits` (each with
//! `orbitName`, `numPieces`, `numOrientations`), `defaultPattern` (per orbit `pieces` and
//! `orientation`), `moves` (per orbit `permutation` and `orientationDelta`; an orbit left out
//! is unchanged) and `derivedMoves` (algorithms over the other moves, such as `[x: U]`).
//! KPuzzle patterns (`--pattern`) are read by [`read_pattern`].
//!
//! **Orientations that do not count.** A solved pattern's orbit may give `orientationMod`, per
//! piece the modulus its orientation counts in (cubing.js's 3x3x3 gives its centres 1: their
//! twist does not matter; 0 or the orbit's own count: every orientation counts). Where every
//! piece of an orbit has the same modulus `m`, the orbit is read as one of `m` orientations,
//! each twist taken modulo `m`: exact, as adding twists modulo the orbit's count and then
//! reducing modulo `m` (a divisor of it) is the same as adding them modulo `m`. Moduli that
//! differ within an orbit would make a piece's modulus travel with it; they are refused.

use super::alg;
use super::definition::{
    check_orbit_pattern, check_orbit_transformation, orbit_def, Definition, DefinitionError,
    ListPlaces, NamedMove, OrbitDef, OrbitTransformation, Pattern, Transformation,
};
use serde_json::{Map, Value};

fn malformed(at: &str, what: impl Into<String>) -> DefinitionError {
    DefinitionError::Malformed {
        at: at.into(),
        what: what.into(),
    }
}

fn object<'v>(value: &'v Value, at: &str) -> Result<&'v Map<String, Value>, DefinitionError> {
    value
        .as_object()
        .ok_or_else(|| malformed(at, "expected an object"))
}

fn field<'v>(
    obj: &'v Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<&'v Value, DefinitionError> {
    obj.get(key)
        .ok_or_else(|| malformed(at, format!("missing field '{key}'")))
}

fn join(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.into()
    } else {
        format!("{at}.{key}")
    }
}

fn number(value: &Value, at: &str) -> Result<u64, DefinitionError> {
    value.as_u64().ok_or_else(|| {
        malformed(
            at,
            format!("expected a whole number of at least 0, found {value}"),
        )
    })
}

fn numbers(value: &Value, at: &str) -> Result<Vec<u64>, DefinitionError> {
    let list = value
        .as_array()
        .ok_or_else(|| malformed(at, "expected a list of numbers"))?;
    list.iter()
        .enumerate()
        .map(|(i, v)| number(v, &format!("{at}[{i}]")))
        .collect()
}

/// Reads a KPuzzle definition from its JSON text.
pub fn read_definition(text: &str) -> Result<Definition, DefinitionError> {
    let root: Value = serde_json::from_str(text).map_err(|e| {
        malformed(
            &format!("line {} column {}", e.line(), e.column()),
            format!("not valid JSON: {e}"),
        )
    })?;
    let root = object(&root, "(the file)")?;
    let name = match root.get("name") {
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err(malformed("name", "expected a string")),
        None => "unnamed".into(),
    };
    let orbits = read_orbits(field(root, "orbits", "(the file)")?)?;
    let pattern_key = if root.contains_key("defaultPattern") {
        "defaultPattern"
    } else {
        "startStateData"
    };
    let solved = read_pattern_value(
        field(root, pattern_key, "(the file)")?,
        &orbits,
        pattern_key,
    )?;
    let mut moves = Vec::new();
    for (move_name, value) in object(field(root, "moves", "(the file)")?, "moves")? {
        let at = join("moves", move_name);
        moves.push(NamedMove {
            name: move_name.clone(),
            transformation: read_transformation(value, &orbits, &at)?,
            derived: false,
        });
    }
    if let Some(derived) = root
        .get("derivedMoves")
        .or_else(|| root.get("experimentalDerivedMoves"))
    {
        resolve_derived(object(derived, "derivedMoves")?, &orbits, &mut moves)?;
    }
    if moves.is_empty() {
        return Err(malformed("moves", "the definition has no moves"));
    }
    let moduli = orientation_moduli(
        field(root, pattern_key, "(the file)")?,
        &orbits,
        pattern_key,
    )?;
    let mut definition = Definition {
        name,
        orbits,
        solved,
        moves,
    };
    for (orbit, modulus) in moduli.into_iter().enumerate() {
        count_orientations_modulo(&mut definition, orbit, modulus);
    }
    Ok(definition)
}

/// Per orbit of the solved pattern `value` (read and checked already), the modulus its
/// orientations count in: its `orientationMod`, the same for every piece, or the orbit's own
/// count where it gives none (see the module docs).
fn orientation_moduli(
    value: &Value,
    orbits: &[OrbitDef],
    at: &str,
) -> Result<Vec<u8>, DefinitionError> {
    let obj = object(value, at)?;
    orbits
        .iter()
        .map(|def| {
            let at = join(&join(at, &def.name), "orientationMod");
            let part = obj.get(&def.name).and_then(Value::as_object);
            let Some(moduli) = part.and_then(|p| p.get("orientationMod")) else {
                return Ok(def.orientations);
            };
            let moduli = read_moduli(moduli, def, &at)?;
            let count = u64::from(def.orientations);
            let mut modulus = None;
            for (i, &m) in moduli.iter().enumerate() {
                let m = if m == 0 { count } else { m };
                if count % m != 0 {
                    return Err(malformed(
                        &format!("{at}[{i}]"),
                        format!(
                            "{m} does not divide the {count} orientations of orbit {} (0 counts them all)",
                            def.name
                        ),
                    ));
                }
                match modulus {
                    Some(first) if first != m => {
                        return Err(malformed(
                            &format!("{at}[{i}]"),
                            format!(
                                "{m} differs from {first} for the first piece of orbit {}: its pieces must count their orientations modulo one number",
                                def.name
                            ),
                        ))
                    }
                    _ => modulus = Some(m),
                }
            }
            // Each modulus divides the orbit's count, itself a u8.
            Ok(modulus.map_or(def.orientations, |m| m as u8))
        })
        .collect()
}

/// An orbit's `orientationMod` list at `at`: a number a piece of `def`.
fn read_moduli(value: &Value, def: &OrbitDef, at: &str) -> Result<Vec<u64>, DefinitionError> {
    let moduli = numbers(value, at)?;
    if moduli.len() != def.pieces {
        return Err(DefinitionError::SizeMismatch {
            at: at.into(),
            orbit: def.name.clone(),
            expected: def.pieces,
            found: moduli.len(),
        });
    }
    Ok(moduli)
}

/// Reads orbit `orbit` of `definition` as one of `modulus` orientations (a divisor of its
/// count): its count, and every twist of the solved pattern and the moves, taken modulo it.
fn count_orientations_modulo(definition: &mut Definition, orbit: usize, modulus: u8) {
    if definition.orbits[orbit].orientations == modulus {
        return;
    }
    definition.orbits[orbit].orientations = modulus;
    let twists = definition
        .moves
        .iter_mut()
        .map(|m| &mut m.transformation.orbits[orbit].orientation)
        .chain(std::iter::once(
            &mut definition.solved.orbits[orbit].orientation,
        ));
    for twist in twists.flatten() {
        *twist %= modulus;
    }
}

fn read_orbits(value: &Value) -> Result<Vec<OrbitDef>, DefinitionError> {
    let read =
        |name: String, o: &Map<String, Value>, at: &str| -> Result<OrbitDef, DefinitionError> {
            let pieces = number(field(o, "numPieces", at)?, &join(at, "numPieces"))?;
            let orientations = number(
                o.get("numOrientations")
                    .or_else(|| o.get("orientations"))
                    .ok_or_else(|| malformed(at, "missing field 'numOrientations'"))?,
                &join(at, "numOrientations"),
            )?;
            orbit_def(at, name, pieces, orientations)
        };
    let orbits = match value {
        Value::Array(list) => list
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let at = format!("orbits[{i}]");
                let o = object(v, &at)?;
                let name = field(o, "orbitName", &at)?
                    .as_str()
                    .ok_or_else(|| malformed(&join(&at, "orbitName"), "expected a string"))?;
                read(name.to_string(), o, &at)
            })
            .collect::<Result<Vec<_>, _>>()?,
        Value::Object(map) => map
            .iter()
            .map(|(name, v)| {
                let at = join("orbits", name);
                read(name.clone(), object(v, &at)?, &at)
            })
            .collect::<Result<Vec<_>, _>>()?,
        _ => return Err(malformed("orbits", "expected a list of orbits")),
    };
    if orbits.is_empty() {
        return Err(malformed("orbits", "the definition has no orbits"));
    }
    for (i, o) in orbits.iter().enumerate() {
        if orbits[..i].iter().any(|p| p.name == o.name) {
            return Err(malformed(
                "orbits",
                format!("orbit {} is defined twice", o.name),
            ));
        }
    }
    Ok(orbits)
}

/// Checks that an object's keys are all orbit names.
fn check_orbit_keys(
    obj: &Map<String, Value>,
    orbits: &[OrbitDef],
    at: &str,
) -> Result<(), DefinitionError> {
    for key in obj.keys() {
        if !orbits.iter().any(|o| o.name == *key) {
            return Err(DefinitionError::Unknown {
                at: at.into(),
                kind: "orbit",
                name: key.clone(),
                known: orbits.iter().map(|o| o.name.clone()).collect(),
            });
        }
    }
    Ok(())
}

fn read_transformation(
    value: &Value,
    orbits: &[OrbitDef],
    at: &str,
) -> Result<Transformation, DefinitionError> {
    let obj = object(value, at)?;
    check_orbit_keys(obj, orbits, at)?;
    let parts = orbits
        .iter()
        .map(|def| {
            let Some(part) = obj.get(&def.name) else {
                return Ok(OrbitTransformation::identity(def.pieces));
            };
            let at = join(at, &def.name);
            let part = object(part, &at)?;
            let permutation = numbers(field(part, "permutation", &at)?, &join(&at, "permutation"))?;
            let key = match part.contains_key("orientationDelta") {
                true => "orientationDelta",
                false => "orientation",
            };
            let orientation = match part.get(key) {
                Some(v) => numbers(v, &join(&at, key))?,
                None => vec![0; def.pieces],
            };
            let places = ListPlaces {
                first: join(&at, "permutation"),
                orientation: join(&at, key),
            };
            check_orbit_transformation(&places, def, &permutation, &orientation)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Transformation { orbits: parts })
}

fn read_pattern_value(
    value: &Value,
    orbits: &[OrbitDef],
    at: &str,
) -> Result<Pattern, DefinitionError> {
    let obj = object(value, at)?;
    check_orbit_keys(obj, orbits, at)?;
    let parts = orbits
        .iter()
        .map(|def| {
            let at = join(at, &def.name);
            let part = object(
                obj.get(&def.name).ok_or_else(|| {
                    malformed(&at, format!("the pattern has no orbit {}", def.name))
                })?,
                &at,
            )?;
            let pieces = numbers(field(part, "pieces", &at)?, &join(&at, "pieces"))?;
            let orientation = match part.get("orientation") {
                Some(v) => numbers(v, &join(&at, "orientation"))?,
                None => vec![0; def.pieces],
            };
            let places = ListPlaces {
                first: join(&at, "pieces"),
                orientation: join(&at, "orientation"),
            };
            check_orbit_pattern(&places, def, &pieces, &orientation)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Pattern { orbits: parts })
}

/// Reads a KPuzzle pattern (JSON: per orbit `pieces` and `orientation`) of `definition`.
pub fn read_pattern(text: &str, definition: &Definition) -> Result<Pattern, DefinitionError> {
    let root: Value = serde_json::from_str(text).map_err(|e| {
        malformed(
            &format!("line {} column {}", e.line(), e.column()),
            format!("not valid JSON: {e}"),
        )
    })?;
    // A pattern file may wrap the pattern as cubing.js prints it: {"patternData": {...}}.
    let mut inner = root.get("patternData").unwrap_or(&root).clone();
    reduce_pattern_orientations(&mut inner, definition)?;
    let pattern = read_pattern_value(&inner, &definition.orbits, "(the pattern)")?;
    for ((p, s), def) in pattern
        .orbits
        .iter()
        .zip(&definition.solved.orbits)
        .zip(&definition.orbits)
    {
        let mut a = p.pieces.clone();
        let mut b = s.pieces.clone();
        a.sort_unstable();
        b.sort_unstable();
        if a != b {
            return Err(malformed(
                &format!("(the pattern).{}.pieces", def.name),
                "the pattern does not hold the pieces of the solved pattern",
            ));
        }
    }
    Ok(pattern)
}

/// Takes the twists of each orbit of the pattern `value` that gives `orientationMod` modulo
/// the orientations `definition` counts (fewer than the file's own where its solved pattern
/// gives moduli): a pattern may know a twist more finely than the puzzle counts it, as its
/// modulus is 0 or a multiple of the puzzle's, but not more coarsely.
fn reduce_pattern_orientations(
    value: &mut Value,
    definition: &Definition,
) -> Result<(), DefinitionError> {
    let Some(obj) = value.as_object_mut() else {
        return Ok(());
    };
    for def in &definition.orbits {
        let Some(part) = obj.get_mut(&def.name).and_then(Value::as_object_mut) else {
            continue;
        };
        let Some(moduli) = part.remove("orientationMod") else {
            continue;
        };
        let at = format!("(the pattern).{}.orientationMod", def.name);
        let count = u64::from(def.orientations);
        for (i, m) in read_moduli(&moduli, def, &at)?.into_iter().enumerate() {
            if m != 0 && m % count != 0 {
                return Err(malformed(
                    &format!("{at}[{i}]"),
                    format!(
                        "the pattern knows this piece's orientation modulo {m}, but orbit {} counts {count}: a pattern may not know less of a twist than the puzzle counts",
                        def.name
                    ),
                ));
            }
        }
        if let Some(Value::Array(twists)) = part.get_mut("orientation") {
            for twist in twists.iter_mut() {
                if let Some(t) = twist.as_u64() {
                    *twist = (t % count).into();
                }
            }
        }
    }
    Ok(())
}

/// Derived moves may name each other in any order: each pass resolves those whose names are
/// all known; what is left after a pass that resolves nothing does not parse.
fn resolve_derived(
    derived: &Map<String, Value>,
    orbits: &[OrbitDef],
    moves: &mut Vec<NamedMove>,
) -> Result<(), DefinitionError> {
    let mut pending: Vec<(&String, &Value)> = derived.iter().collect();
    while !pending.is_empty() {
        let before = pending.len();
        let mut still = Vec::new();
        for (name, value) in pending {
            let at = join("derivedMoves", name);
            let text = value
                .as_str()
                .ok_or_else(|| malformed(&at, "expected an algorithm as a string"))?;
            let names: Vec<String> = moves.iter().map(|m| m.name.clone()).collect();
            match alg::parse(text, &names) {
                Ok(steps) => {
                    let refs: Vec<&Transformation> =
                        moves.iter().map(|m| &m.transformation).collect();
                    let transformation = alg::to_transformation(&steps, &refs, orbits);
                    moves.push(NamedMove {
                        name: name.clone(),
                        transformation,
                        derived: true,
                    });
                }
                Err(_) => still.push((name, value)),
            }
        }
        if still.len() == before {
            let (name, value) = still[0];
            let names: Vec<String> = moves
                .iter()
                .map(|m| m.name.clone())
                .chain(still.iter().map(|(n, _)| (*n).clone()))
                .collect();
            let text = value.as_str().unwrap_or_default();
            let why = match alg::parse(text, &names) {
                Ok(_) => "it names itself, directly or through other derived moves".to_string(),
                Err(why) => why,
            };
            return Err(DefinitionError::BadAlgorithm {
                at: join("derivedMoves", name),
                alg: text.into(),
                why,
            });
        }
        pending = still;
    }
    Ok(())
}

/// `pattern` of `definition` as a one-line KPuzzle pattern (per orbit `pieces` and
/// `orientation`), the form [`read_pattern`] reads back.
pub fn write_pattern(pattern: &Pattern, definition: &Definition) -> String {
    let mut out = Map::new();
    for (part, def) in pattern.orbits.iter().zip(&definition.orbits) {
        let mut orbit = Map::new();
        orbit.insert("pieces".into(), part.pieces.clone().into());
        orbit.insert("orientation".into(), part.orientation.clone().into());
        out.insert(def.name.clone(), Value::Object(orbit));
    }
    Value::Object(out).to_string()
}
