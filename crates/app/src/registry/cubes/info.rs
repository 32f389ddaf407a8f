//! What a cube's space holds and what storing it costs (`info 3x3x3`): the position count
//! exact, the symmetry classes and God's numbers as published, each with its source, from the
//! figures each cube's puzzle gives ([`CubeFigures`]).

use crate::info::{costs, Representation};
use crate::registry::{no_info_generators, InfoQuery};
use crate::report::{AnyInfo, CubeInfoReport, GodsNumber};
use crate::AppResult;
use godsearch_puzzles::cube::CubeShape;
use num_bigint::BigUint;

/// What a cube's puzzle knows of its space.
pub struct CubeFigures {
    /// The cube.
    pub shape: CubeShape,
    /// Its pieces, in words.
    pub pieces: &'static str,
    /// Its positions, exact.
    pub positions: BigUint,
    /// How they are counted.
    pub formula: &'static str,
    /// Its classes under its 48 symmetries, and under the 96 with inversion, as published;
    /// `None` where it is enumerated whole.
    pub classes: Option<[&'static str; 2]>,
    /// God's numbers: the metric, the moves, whether exact (else an upper bound), the source.
    pub gods_numbers: &'static [(&'static str, u32, bool, &'static str)],
    /// The engine that stores every position in a 2-bit table, where one does.
    pub table_engine: Option<&'static str>,
}

/// What `info` says of a cube from its `figures`, with the machine's memory and free disk
/// `query` knows; generators refused (a cube has no named moves to choose from).
pub fn info(figures: &CubeFigures, query: &InfoQuery) -> AppResult<AnyInfo> {
    no_info_generators(query)?;
    Ok(AnyInfo::Cube(cube_info(
        figures,
        query.ram_bytes,
        query.free_disk_bytes,
    )))
}

/// `n!`, exact.
pub fn factorial(n: u64) -> BigUint {
    (2..=n).map(BigUint::from).product::<BigUint>()
}

/// Bits of the class key the 3x3x3's frontier engine lists (a packed cube).
const CLASS_KEY_BITS: f64 = 128.0;
/// Bytes of a cube in the cubie layer (a byte per corner and edge place and orientation).
const CUBIE_BYTES: f64 = 40.0;
/// Bytes a class takes in the disk engine's bucket files (varint gaps between sorted class
/// keys), as measured at level 7 of `bfs 3x3x3 --workdir`: 18.2 MB for 2,101,575 classes.
/// Deeper levels are denser, so cost less a class.
const DISK_CLASS_BYTES: f64 = 8.7;

/// A cube's space from its puzzle's `figures`: its exact position count, its symmetry classes
/// and God's numbers as published, and each way of storing it against the machine's `ram_bytes` and
/// `free_disk_bytes` (when the front end knows them).
fn cube_info(
    figures: &CubeFigures,
    ram_bytes: Option<u64>,
    free_disk_bytes: Option<u64>,
) -> CubeInfoReport {
    let positions = &figures.positions;
    let stickers = figures.shape.stickers() as f64;
    let log10 = |n: &BigUint| {
        let digits = n.to_string();
        let lead: f64 = digits[..digits.len().min(15)].parse().expect("digits");
        lead.log10() + (digits.len() - digits.len().min(15)) as f64
    };
    let log10_positions = log10(positions);
    let rank_bits = (positions - 1u32).bits();
    let classes = figures.classes.map(|[with_symmetries, _]| with_symmetries);
    let classes_with_inversion = figures.classes.map(|[_, with_inversion]| with_inversion);
    let log10_classes = classes.map(|c| log10(&c.parse::<BigUint>().expect("a number")));
    let gods_numbers = figures
        .gods_numbers
        .iter()
        .map(|&(metric, moves, exact, source)| GodsNumber {
            metric,
            moves,
            exact,
            source,
        })
        .collect();
    let per_position = |name: &str, bits: f64, engine: Option<&'static str>| {
        (
            Representation {
                name: name.into(),
                bits_per_position: bits,
                engine,
            },
            log10_positions,
        )
    };
    let mut representations = vec![
        per_position("facelets (a byte a sticker)", stickers * 8.0, None),
        per_position("cubies (a byte a place and twist)", CUBIE_BYTES * 8.0, None),
        per_position(
            &format!("perfect rank, listed ({rank_bits} bits packed)"),
            rank_bits as f64,
            None,
        ),
        per_position("rank-indexed table, a byte a position", 8.0, None),
        per_position(
            "rank-indexed table, 2 bits a position",
            2.0,
            figures.table_engine,
        ),
    ];
    if let Some(log10_classes) = log10_classes {
        let per_class = |name: &str, bits: f64, engine: Option<&'static str>| {
            (
                Representation {
                    name: name.into(),
                    bits_per_position: bits,
                    engine,
                },
                log10_classes,
            )
        };
        representations.push(per_class(
            "class keys, listed (128-bit words)",
            CLASS_KEY_BITS,
            Some("frontier"),
        ));
        representations.push(per_class(
            "class keys on disk (varint gaps, about)",
            DISK_CLASS_BYTES * 8.0,
            Some("disk"),
        ));
        representations.push(per_class("class-indexed table, 2 bits a class", 2.0, None));
    }
    CubeInfoReport {
        puzzle: figures.shape.to_string(),
        pieces: figures.pieces,
        positions: positions.to_string(),
        formula: figures.formula,
        log10_positions,
        rank_bits,
        symmetry_classes: classes.map(str::to_string),
        classes_with_inversion: classes_with_inversion.map(str::to_string),
        gods_numbers,
        representations: costs(representations, ram_bytes, free_disk_bytes),
        ram_bytes,
        free_disk_bytes,
    }
}
