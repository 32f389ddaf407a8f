//! The facelet layer: 54 stickers in the order `U1..U9 R1..R9 F1..F9 D1..D9 L1..L9 B1..B9`
//! (each face read row by row as seen from outside, with U's top edge at the back and the
//! side faces' top edge at U), converted to and from cubies.
//!
//! Any six distinct characters are accepted; the centre stickers say which character is which
//! face, so `URFDLB` letters and colour letters (`W R G Y O B`) both work.

use super::cubie::{CubieCube, CubieError, CORNERS, CORNER_NAMES, EDGES, EDGE_NAMES, FACES};
use thiserror::Error;

/// Stickers on a cube.
pub const FACELETS: usize = 54;
const FACE_STICKERS: usize = 9;
const CENTRE: usize = 4;

/// Sticker indices of each corner position, clockwise starting on the U or D face.
const CORNER_FACELETS: [[usize; 3]; CORNERS] = [
    [8, 9, 20],
    [6, 18, 38],
    [0, 36, 47],
    [2, 45, 11],
    [29, 26, 15],
    [27, 44, 24],
    [33, 53, 42],
    [35, 17, 51],
];

/// Sticker indices of each edge position, the U/D (or F/B) sticker first.
const EDGE_FACELETS: [[usize; 2]; EDGES] = [
    [5, 10],
    [7, 19],
    [3, 37],
    [1, 46],
    [32, 16],
    [28, 25],
    [30, 43],
    [34, 52],
    [23, 12],
    [21, 41],
    [50, 39],
    [48, 14],
];

/// Faces (indices into [`FACES`]) of each corner cubie, in the order of [`CORNER_FACELETS`].
const CORNER_COLOURS: [[u8; 3]; CORNERS] = [
    [0, 1, 2],
    [0, 2, 4],
    [0, 4, 5],
    [0, 5, 1],
    [3, 2, 1],
    [3, 4, 2],
    [3, 5, 4],
    [3, 1, 5],
];

/// Faces of each edge cubie, in the order of [`EDGE_FACELETS`].
const EDGE_COLOURS: [[u8; 2]; EDGES] = [
    [0, 1],
    [0, 2],
    [0, 4],
    [0, 5],
    [3, 1],
    [3, 2],
    [3, 4],
    [3, 5],
    [2, 1],
    [2, 4],
    [5, 4],
    [5, 1],
];

/// Why a facelet string is not a cube.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum FaceletError {
    /// Not the number of stickers the cube has.
    #[error("a {cube} facelet string has {expected} stickers (all of face U, then R, F, D, L, B), this one has {found}")]
    Length {
        /// `3x3x3` or `2x2x2`.
        cube: &'static str,
        /// Stickers expected.
        expected: usize,
        /// Stickers found.
        found: usize,
    },
    /// A 2x2x2 whose colours cannot be told apart as six faces.
    #[error("not a 2x2x2: {0}")]
    Pocket(String),
    /// Two centres carry the same character.
    #[error(
        "the six centres (stickers 5, 14, 23, 32, 41, 50) must differ, but '{0}' is on two of them"
    )]
    Centres(char),
    /// A sticker whose character is on no centre.
    #[error("sticker {index} is '{sticker}', which is not the colour of any centre")]
    UnknownColour {
        /// 1-based sticker number.
        index: usize,
        /// The character found.
        sticker: char,
    },
    /// A colour on some number of stickers other than 9.
    #[error("colour '{colour}' (face {face}) is on {count} stickers, not {expected}")]
    ColourCount {
        /// The character.
        colour: char,
        /// The face it belongs to.
        face: char,
        /// How many stickers have it.
        count: usize,
        /// How many it should be on.
        expected: usize,
    },
    /// A corner position whose three stickers match no corner cubie.
    #[error("the {position} corner has colours {colours}, which no corner cubie has")]
    ImpossibleCorner {
        /// The corner position.
        position: &'static str,
        /// Its stickers, as face letters.
        colours: String,
    },
    /// An edge position whose two stickers match no edge cubie.
    #[error("the {position} edge has colours {colours}, which no edge cubie has")]
    ImpossibleEdge {
        /// The edge position.
        position: &'static str,
        /// Its stickers, as face letters.
        colours: String,
    },
    /// The cubies are all real but the cube cannot be reached by turning faces.
    #[error(transparent)]
    Unreachable(#[from] CubieError),
}

/// Reads a 54-character facelet string (whitespace ignored) as a valid cube.
pub fn parse(text: &str) -> Result<CubieCube, FaceletError> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if chars.len() != FACELETS {
        return Err(FaceletError::Length {
            cube: "3x3x3",
            expected: FACELETS,
            found: chars.len(),
        });
    }
    let mut centres = ['\0'; 6];
    for face in 0..6 {
        let c = chars[face * FACE_STICKERS + CENTRE];
        if centres[..face].contains(&c) {
            return Err(FaceletError::Centres(c));
        }
        centres[face] = c;
    }
    let mut faces = [0u8; FACELETS];
    let mut counts = [0usize; 6];
    for (i, &c) in chars.iter().enumerate() {
        let face = centres
            .iter()
            .position(|&x| x == c)
            .ok_or(FaceletError::UnknownColour {
                index: i + 1,
                sticker: c,
            })?;
        faces[i] = face as u8;
        counts[face] += 1;
    }
    for face in 0..6 {
        if counts[face] != FACE_STICKERS {
            return Err(FaceletError::ColourCount {
                colour: centres[face],
                face: FACES[face],
                count: counts[face],
                expected: FACE_STICKERS,
            });
        }
    }
    from_faces(&faces)
}

fn from_faces(faces: &[u8; FACELETS]) -> Result<CubieCube, FaceletError> {
    let mut cube = CubieCube::SOLVED;
    read_corners(faces, &mut cube)?;
    for i in 0..EDGES {
        let stickers = EDGE_FACELETS[i].map(|f| faces[f]);
        let found = EDGE_COLOURS.iter().enumerate().find_map(|(e, c)| {
            if *c == stickers {
                Some((e, 0))
            } else if c[0] == stickers[1] && c[1] == stickers[0] {
                Some((e, 1))
            } else {
                None
            }
        });
        let (edge, flip) = found.ok_or_else(|| FaceletError::ImpossibleEdge {
            position: EDGE_NAMES[i],
            colours: stickers.iter().map(|&f| FACES[f as usize]).collect(),
        })?;
        cube.ep[i] = edge as u8;
        cube.eo[i] = flip;
    }
    cube.check()?;
    Ok(cube)
}

/// Stickers on a 2x2x2.
pub const POCKET_FACELETS: usize = 24;
/// Where each 2x2x2 sticker sits among the 3x3x3's: the four corners of each face.
const POCKET_ON_CUBE: [usize; 4] = [0, 2, 6, 8];
/// The 3x3x3 stickers of corner DBL on faces D, B and L.
const DBL_STICKERS: [usize; 3] = [33, 53, 42];

fn pocket_sticker(i: usize) -> usize {
    (i / 4) * FACE_STICKERS + POCKET_ON_CUBE[i % 4]
}

/// Reads a 24-character 2x2x2 facelet string (`U1..U4 R1..R4 F1..F4 D1..D4 L1..L4 B1..B4`,
/// each face row by row as on the 3x3x3) as the corners of a cube; edges are left solved.
///
/// A 2x2x2 has no centres: the DBL corner names faces D, B and L, and the colour never found
/// on a corner with D is U (likewise F opposite B, R opposite L). Any six characters work.
pub fn parse_pocket(text: &str) -> Result<CubieCube, FaceletError> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if chars.len() != POCKET_FACELETS {
        return Err(FaceletError::Length {
            cube: "2x2x2",
            expected: POCKET_FACELETS,
            found: chars.len(),
        });
    }
    let mut colours: Vec<char> = chars.clone();
    colours.sort_unstable();
    colours.dedup();
    if colours.len() != 6 {
        return Err(FaceletError::Pocket(format!(
            "it needs six colours, this one has {} ({})",
            colours.len(),
            colours.iter().collect::<String>()
        )));
    }
    let mut on_cube = ['\0'; FACELETS];
    for (i, &c) in chars.iter().enumerate() {
        on_cube[pocket_sticker(i)] = c;
    }
    let together = |a: char, b: char| {
        CORNER_FACELETS.iter().any(|corner| {
            corner.iter().any(|&f| on_cube[f] == a) && corner.iter().any(|&f| on_cube[f] == b)
        })
    };
    let opposite =
        |a: char| -> Result<char, FaceletError> {
            let apart: Vec<char> = colours
                .iter()
                .copied()
                .filter(|&b| b != a && !together(a, b))
                .collect();
            match apart[..] {
                [b] => Ok(b),
                _ => {
                    Err(FaceletError::Pocket(format!(
                "colour '{a}' should be opposite exactly one other colour, but never meets {}",
                if apart.is_empty() { "none".to_string() } else { apart.iter().collect() }
            )))
                }
            }
        };
    let [d, b, l] = DBL_STICKERS.map(|f| on_cube[f]);
    let named = [opposite(d)?, opposite(l)?, opposite(b)?, d, l, b];
    let mut faces = [0u8; FACELETS];
    for i in 0..POCKET_FACELETS {
        let f = pocket_sticker(i);
        let face = named.iter().position(|&c| c == on_cube[f]).ok_or_else(|| {
            FaceletError::Pocket(format!(
                "colours {} do not form three pairs of opposite faces",
                colours.iter().collect::<String>()
            ))
        })?;
        faces[f] = face as u8;
    }
    for (face, &colour) in named.iter().enumerate() {
        let count = chars.iter().filter(|&&c| c == colour).count();
        if count != 4 {
            return Err(FaceletError::ColourCount {
                colour,
                face: FACES[face],
                count,
                expected: 4,
            });
        }
    }
    let mut cube = CubieCube::SOLVED;
    read_corners(&faces, &mut cube)?;
    cube.check_corners()?;
    Ok(cube)
}

/// The 24-character 2x2x2 facelet string of a cube's corners, face letters as colours.
pub fn format_pocket(cube: &CubieCube) -> String {
    let full: Vec<char> = format(cube).chars().collect();
    (0..POCKET_FACELETS)
        .map(|i| full[pocket_sticker(i)])
        .collect()
}

/// Reads the corner cubies off the stickers (faces `0..6` a sticker) into `cube`.
pub(crate) fn read_corners(
    faces: &[u8; FACELETS],
    cube: &mut CubieCube,
) -> Result<(), FaceletError> {
    for i in 0..CORNERS {
        let stickers = CORNER_FACELETS[i].map(|f| faces[f]);
        let letters = || stickers.iter().map(|&f| FACES[f as usize]).collect();
        let twist = stickers
            .iter()
            .position(|&f| f == 0 || f == 3)
            .ok_or_else(|| FaceletError::ImpossibleCorner {
                position: CORNER_NAMES[i],
                colours: letters(),
            })?;
        let next = stickers[(twist + 1) % 3];
        let after = stickers[(twist + 2) % 3];
        let cubie = CORNER_COLOURS
            .iter()
            .position(|c| c[0] == stickers[twist] && c[1] == next && c[2] == after)
            .ok_or_else(|| FaceletError::ImpossibleCorner {
                position: CORNER_NAMES[i],
                colours: letters(),
            })?;
        cube.cp[i] = cubie as u8;
        cube.co[i] = twist as u8;
    }
    Ok(())
}

/// The facelet string of a cube, with the face letters `URFDLB` as colours.
pub fn format(cube: &CubieCube) -> String {
    let mut faces = [0u8; FACELETS];
    for face in 0..6 {
        faces[face * FACE_STICKERS + CENTRE] = face as u8;
    }
    for i in 0..CORNERS {
        let (cubie, twist) = (cube.cp[i] as usize, cube.co[i] as usize % 3);
        for n in 0..3 {
            faces[CORNER_FACELETS[i][(n + twist) % 3]] = CORNER_COLOURS[cubie][n];
        }
    }
    for i in 0..EDGES {
        let (cubie, flip) = (cube.ep[i] as usize, cube.eo[i] as usize);
        for n in 0..2 {
            faces[EDGE_FACELETS[i][(n + flip) % 2]] = EDGE_COLOURS[cubie][n];
        }
    }
    faces.iter().map(|&f| FACES[f as usize]).collect()
}
