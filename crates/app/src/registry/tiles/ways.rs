//! The ways a board's search may run when the request probes them (`probe`): each partition
//! `pdb` names, in each direction asked for; one is chosen per board by its first seconds
//! ([`probe_ways`](godsearch_search::tiles::probe_ways)).

use crate::report::SearchWay;
use crate::request::SolveRequest;
use crate::{AppError, AppResult};

impl SearchWay {
    /// `request` searching this way alone: its partition, its direction, no probes.
    pub fn applied_to(&self, request: &SolveRequest) -> SolveRequest {
        SolveRequest {
            pdb: self.pdb.clone(),
            reverse: self.reverse,
            both_ways: false,
            probe: None,
            ..request.clone()
        }
    }
}

/// The partitions `pdb` names, separated by spaces (none: the heuristic the request chose).
fn partitions(request: &SolveRequest) -> Vec<Option<String>> {
    let named: Vec<Option<String>> = request
        .pdb
        .iter()
        .flat_map(|pdb| pdb.split_whitespace())
        .map(|p| Some(p.to_string()))
        .collect();
    match named.is_empty() {
        true => vec![None],
        false => named,
    }
}

/// The ways `request` probes, in the order they are probed: each partition of `pdb` in turn
/// (as given), forwards (with `reverse`, backwards instead; with `both_ways`, forwards then
/// backwards). Refused where there is but one way, where `pdb` names a partition twice, and
/// with `resume_subtrees` (they belong to one way: give that way alone).
pub fn probe_ways(request: &SolveRequest) -> AppResult<Vec<SearchWay>> {
    let directions: &[bool] = match (request.reverse, request.both_ways) {
        (true, _) => &[true],
        (false, true) => &[false, true],
        (false, false) => &[false],
    };
    let drawings = partitions(request);
    if let Some(twice) = drawings
        .iter()
        .enumerate()
        .find_map(|(i, p)| drawings[..i].contains(p).then_some(p))
    {
        return Err(AppError::Input(format!(
            "«pdb» names {} twice: each partition is one way to probe",
            twice.as_deref().unwrap_or_default()
        )));
    }
    let ways: Vec<SearchWay> = drawings
        .iter()
        .flat_map(|pdb| {
            directions.iter().map(|&reverse| SearchWay {
                pdb: pdb.clone(),
                reverse,
            })
        })
        .collect();
    if ways.len() < 2 {
        return Err(AppError::Input(
            "«probe» chooses among ways to search: give several partitions in «pdb» \
             (`6-6-6-6 6-6-6-6b`), or «both_ways» to probe both directions"
                .into(),
        ));
    }
    if request.resume_subtrees.is_some() {
        return Err(AppError::Input(
            "«resume_subtrees» belong to the one way that finished them: continue with that \
             way alone (its «pdb», and «reverse» if backwards), without «probe»"
                .into(),
        ));
    }
    Ok(ways)
}

/// Refuses several partitions in `pdb` without `probe`, which alone searches more than one.
pub fn one_partition_unless_probed(request: &SolveRequest) -> AppResult<()> {
    if request.probe.is_none() && partitions(request).len() > 1 {
        return Err(AppError::Input(
            "«pdb» names several partitions, which only «probe» chooses among: give one, or \
             «probe» with the seconds to probe each"
                .into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(pdb: Option<&str>, reverse: bool, both_ways: bool) -> SolveRequest {
        SolveRequest {
            pdb: pdb.map(str::to_string),
            reverse,
            both_ways,
            probe: Some(5.0),
            ..SolveRequest::new("5x5", "")
        }
    }

    fn names(request: &SolveRequest) -> Vec<String> {
        probe_ways(request)
            .unwrap()
            .iter()
            .map(SearchWay::name)
            .collect()
    }

    #[test]
    fn ways_are_each_partition_in_each_direction_asked() {
        let both = Some("6-6-6-6 6-6-6-6b");
        assert_eq!(
            names(&request(both, false, false)),
            ["6-6-6-6 forwards", "6-6-6-6b forwards"]
        );
        assert_eq!(
            names(&request(both, true, false)),
            ["6-6-6-6 backwards", "6-6-6-6b backwards"]
        );
        assert_eq!(
            names(&request(both, false, true)),
            [
                "6-6-6-6 forwards",
                "6-6-6-6 backwards",
                "6-6-6-6b forwards",
                "6-6-6-6b backwards"
            ]
        );
        assert_eq!(
            names(&request(None, false, true)),
            ["forwards", "backwards"]
        );
        let way = &probe_ways(&request(both, false, true)).unwrap()[3];
        let alone = way.applied_to(&request(both, false, true));
        assert_eq!(alone.pdb.as_deref(), Some("6-6-6-6b"));
        assert!(alone.reverse && !alone.both_ways && alone.probe.is_none());
    }

    #[test]
    fn one_way_a_partition_twice_and_a_token_are_refused() {
        let refused = |r: &SolveRequest| probe_ways(r).unwrap_err().to_string();
        assert!(refused(&request(Some("6-6-6-6"), false, false)).contains("several partitions"));
        assert!(refused(&request(Some("6-6-6-6  6-6-6-6"), false, false)).contains("twice"));
        let token = SolveRequest {
            resume_from: Some(100),
            resume_subtrees: Some("14.6.0.1.2:0".into()),
            ..request(Some("6-6-6-6 6-6-6-6b"), false, false)
        };
        assert!(refused(&token).contains("one way"));
        let unprobed = SolveRequest {
            probe: None,
            ..request(Some("6-6-6-6 6-6-6-6b"), false, false)
        };
        assert!(one_partition_unless_probed(&unprobed).is_err());
        assert!(one_partition_unless_probed(&request(Some("6-6-6-6"), false, false)).is_ok());
    }
}
