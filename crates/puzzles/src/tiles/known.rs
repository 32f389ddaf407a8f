//! Published diameters (God's numbers) of sliding boards with the blank's goal in a corner.

use super::Shape;

/// Diameters with the goal's blank in a corner, for `(min side, max side)`. A board and its
/// transpose have the same diameter. Sources: OEIS A089473 (3x3), A090035 (2x4), A090166 (3x4),
/// A089484 (4x4, Korf and Schultze's complete BFS), data/ for 2x5; 2x2 and 2x3 are small
/// enough that the tests recompute them.
const KNOWN: [((usize, usize), u32); 7] = [
    ((2, 2), 6),
    ((2, 3), 21),
    ((3, 3), 31),
    ((2, 4), 36),
    ((2, 5), 55),
    ((3, 4), 53),
    ((4, 4), 80),
];

/// The exact diameter of the board for a goal with the blank in a corner, where it is known.
///
/// Exact (a published complete enumeration); `None` for boards never enumerated completely,
/// such as 5x5.
pub fn known_diameter(shape: Shape) -> Option<u32> {
    let key = (
        shape.width().min(shape.height()),
        shape.width().max(shape.height()),
    );
    KNOWN.iter().find(|(k, _)| *k == key).map(|&(_, d)| d)
}
