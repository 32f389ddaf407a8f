//! The cubes the cubie model holds, each described by what sets it apart: its name, its
//! layers, and the stickers its facelet strings list. Code that serves more
//! than one cube (reading positions, replaying moves, counting metrics) reads these and never
//! asks which cube it is; a cube's own solvers live with its puzzle.

use super::cubie::CubieCube;
use super::facelet::{self, FaceletError};

/// Sticker places on a face of the 3x3x3, row by row.
const FACE_PLACES: usize = 9;
/// Faces of a cube.
const FACES: usize = 6;

/// One cube of the cubie model ([`CUBE2`], [`CUBE3`]). Equal when named alike.
#[derive(Clone, Copy)]
pub struct CubeShape {
    name: &'static str,
    layers: u8,
    face_places: &'static [usize],
    read: fn(&str) -> Result<CubieCube, FaceletError>,
    write: fn(&CubieCube) -> String,
}

/// The 2x2x2 (pocket cube): the 3x3x3's corners, no middle layer, 24 stickers, held by its
/// DBL corner.
pub const CUBE2: CubeShape = CubeShape {
    name: "2x2x2",
    layers: 2,
    face_places: &[0, 2, 6, 8],
    read: facelet::parse_pocket,
    write: facelet::format_pocket,
};

/// The 3x3x3 (Rubik's cube): 54 stickers, held by its centres.
pub const CUBE3: CubeShape = CubeShape {
    name: "3x3x3",
    layers: 3,
    face_places: &[0, 1, 2, 3, 4, 5, 6, 7, 8],
    read: facelet::parse,
    write: facelet::format,
};

impl CubeShape {
    /// Its name: `2x2x2`, `3x3x3`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Layers along each axis: 2 or 3.
    pub fn layers(&self) -> u8 {
        self.layers
    }

    /// Stickers a facelet string of it lists.
    pub fn stickers(&self) -> usize {
        FACES * self.face_places.len()
    }

    /// Whether it has middle layers to turn (slices); without them a wide turn turns the whole
    /// cube, and the slice-turn metric is the half-turn metric.
    pub fn has_middle_layers(&self) -> bool {
        self.layers > 2
    }

    /// Which of a 3x3x3 face's nine sticker places (row by row) it has a sticker on, in the
    /// order its facelet strings list them.
    pub fn face_places(&self) -> &'static [usize] {
        self.face_places
    }

    /// The place among a 3x3x3's 54 stickers of each of its stickers, in facelet order.
    pub fn sticker_places(&self) -> impl Iterator<Item = usize> + '_ {
        (0..FACES).flat_map(move |face| {
            self.face_places
                .iter()
                .map(move |&p| face * FACE_PLACES + p)
        })
    }

    /// Reads its facelet string (whitespace ignored), checked to be a real cube.
    pub fn read_facelets(&self, text: &str) -> Result<CubieCube, FaceletError> {
        (self.read)(text)
    }

    /// Its facelet string of `cube`, face letters as colours.
    pub fn write_facelets(&self, cube: &CubieCube) -> String {
        (self.write)(cube)
    }
}

impl PartialEq for CubeShape {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for CubeShape {}

impl std::fmt::Debug for CubeShape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

impl std::fmt::Display for CubeShape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_shape_lists_as_many_stickers_as_its_facelet_strings() {
        for shape in [CUBE2, CUBE3] {
            let solved = shape.write_facelets(&CubieCube::SOLVED);
            assert_eq!(solved.len(), shape.stickers(), "{shape}");
            assert_eq!(shape.sticker_places().count(), shape.stickers(), "{shape}");
            let full: Vec<char> = facelet::format(&CubieCube::SOLVED).chars().collect();
            let picked: String = shape.sticker_places().map(|p| full[p]).collect();
            assert_eq!(picked, solved, "{shape}");
            assert_eq!(
                shape.read_facelets(&solved),
                Ok(CubieCube::SOLVED),
                "{shape}"
            );
        }
    }
}
