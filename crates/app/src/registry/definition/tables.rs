//! The identity a definition puzzle's table file carries: its name, generators, metric and a
//! checksum of its moves.

use crate::tables::{file, TableIdentity};
use godsearch_core::RankInt;
use godsearch_orbit::OrbitSpace;

/// The identity of a definition puzzle's table over `space` (its generators' moves in
/// `metric`): its name, generators and metric, and a CRC-32 of its orbits, solved pattern and
/// every move, so that a table made from an edited file is refused.
pub fn definition_identity<R: RankInt>(
    name: &str,
    space: &OrbitSpace<R>,
    metric: &str,
) -> TableIdentity {
    let mut described = Vec::new();
    for orbit in space.orbits() {
        described.extend_from_slice(orbit.name.as_bytes());
        described.push(0);
        described.extend_from_slice(&(orbit.pieces as u64).to_le_bytes());
        described.push(orbit.orientations);
    }
    for part in &space.solved().orbits {
        described.extend_from_slice(&part.pieces);
        described.extend_from_slice(&part.orientation);
    }
    for m in space.moves() {
        described.extend_from_slice(m.name.as_bytes());
        described.push(0);
        for part in &m.transformation.orbits {
            described.extend_from_slice(&part.permutation);
            described.extend_from_slice(&part.orientation);
        }
    }
    TableIdentity {
        puzzle: format!(
            "definition {name} generators {} metric {metric} moves {:08x}",
            space.generators().join(","),
            file::checksum_of(&described)
        ),
        ranking: ORBIT_RANKING.to_string(),
    }
}

/// The version of [`OrbitSpace`]'s ranking: in table identities and the run names of levels on
/// disk, so that both change when the ranks would.
pub const ORBIT_RANKING: &str = "orbit components v1";
