//! What a cube's space holds and what storing it costs (`info 3x3x3`): the position count
//! exact, the symmetry classes and God's numbers as published, each with its source.

use crate::info::{costs, Representation};
use crate::report::{CubeInfoReport, GodsNumber};
use godsearch_puzzles::cube::CubeSize;
use num_bigint::BigUint;

/// The 3x3x3's classes under its 48 symmetries, and under the 96 with inversion (Rokicki,
/// cube20.org, "God's Number is 20": the counts of the positions up to symmetry).
const CUBE3_CLASSES_48: &str = "901083404981813616";
const CUBE3_CLASSES_96: &str = "450541810590509978";
/// Where the 3x3x3's figures come from.
const CUBE3_HTM_SOURCE: &str = "Rokicki, Kociemba, Davidson, Dethridge 2010, cube20.org";
const CUBE3_QTM_SOURCE: &str = "Rokicki, Davidson 2014, cube20.org";
/// The 2x2x2's diameters, from its complete enumeration (`bfs 2x2x2`, and the published
/// distributions in data/cube2x2x2-*.txt).
const CUBE2_SOURCE: &str = "complete enumeration: godsearch bfs 2x2x2, data/cube2x2x2-*.txt";
/// The 3x3x3's slice-turn God's number is not known; the half-turn one bounds it.
const CUBE3_STM_SOURCE: &str =
    "not known; every face-turn solution is one, so htm's bounds it; levels published to 10 by Rokicki";
/// God's numbers: the 3x3x3 in HTM and QTM (exact) and STM (an upper bound), the 2x2x2 in HTM
/// and QTM (its STM is HTM: no middle layer). Each with whether it is exact.
const CUBE3_DIAMETERS: [(&str, u32, bool); 3] =
    [("htm", 20, true), ("qtm", 26, true), ("stm", 20, false)];
const CUBE2_DIAMETERS: [(&str, u32, bool); 2] = [("htm", 11, true), ("qtm", 14, true)];
/// Bits of the class key the 3x3x3's frontier engine lists (a packed cube).
const CLASS_KEY_BITS: f64 = 128.0;
/// Bytes of a cube in the cubie layer (a byte per corner and edge place and orientation).
const CUBIE_BYTES: f64 = 40.0;
/// Bytes a class takes in the disk engine's bucket files (varint gaps between sorted class
/// keys), as measured at level 7 of `bfs 3x3x3 --workdir`: 18.2 MB for 2,101,575 classes.
/// Deeper levels are denser, so cost less a class.
const DISK_CLASS_BYTES: f64 = 8.7;

/// A cube's space: its exact position count, its symmetry classes and God's numbers as
/// published, and each way of storing it against the machine's `ram_bytes` and
/// `free_disk_bytes` (when the front end knows them).
pub fn cube_info(
    size: CubeSize,
    ram_bytes: Option<u64>,
    free_disk_bytes: Option<u64>,
) -> CubeInfoReport {
    let factorial = |n: u64| (2..=n).map(BigUint::from).product::<BigUint>();
    let pow = |b: u32, e: u32| BigUint::from(b).pow(e);
    let (positions, formula, stickers) = match size {
        // One corner held fixed: the 24 ways of holding the cube are one position.
        CubeSize::Two => (
            factorial(7) * pow(3, 6),
            "7!·3^6 (one corner held fixed)",
            24.0,
        ),
        CubeSize::Three => (
            factorial(8) * pow(3, 7) * factorial(12) * pow(2, 11) / 2u32,
            "8!·3^7·12!·2^11/2",
            54.0,
        ),
    };
    let log10 = |n: &BigUint| {
        let digits = n.to_string();
        let lead: f64 = digits[..digits.len().min(15)].parse().expect("digits");
        lead.log10() + (digits.len() - digits.len().min(15)) as f64
    };
    let log10_positions = log10(&positions);
    let rank_bits = (&positions - 1u32).bits();
    let (classes, classes_with_inversion) = match size {
        CubeSize::Two => (None, None),
        CubeSize::Three => (Some(CUBE3_CLASSES_48), Some(CUBE3_CLASSES_96)),
    };
    let log10_classes = classes.map(|c| log10(&c.parse::<BigUint>().expect("a number")));
    let (diameters, sources): (&[_], &[_]) = match size {
        CubeSize::Two => (&CUBE2_DIAMETERS, &[CUBE2_SOURCE; 2]),
        CubeSize::Three => (
            &CUBE3_DIAMETERS,
            &[CUBE3_HTM_SOURCE, CUBE3_QTM_SOURCE, CUBE3_STM_SOURCE],
        ),
    };
    let gods_numbers = diameters
        .iter()
        .zip(sources)
        .map(|(&(metric, moves, exact), &source)| GodsNumber {
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
            (size == CubeSize::Two).then_some("table"),
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
        puzzle: size.to_string(),
        positions: positions.to_string(),
        formula,
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
