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
/// backwards). Refused where there is but one way, where `pdb` names a partition twice, with
/// `resume_subtrees` but no `resume_way` (they belong to one way) and with a `resume_way`
/// that is none of them or has no subtrees.
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
    match (&request.resume_subtrees, &request.resume_way) {
        (Some(_), None) => {
            return Err(AppError::Input(
                "«resume_subtrees» belong to the one way that finished them: name it in \
                 «resume_way» (its report's «chosen_way»), or continue with that way alone \
                 (its «pdb», and «reverse» if backwards), without «probe»"
                    .into(),
            ))
        }
        (None, Some(_)) => {
            return Err(AppError::Input(
                "«resume_way» names the way that finished «resume_subtrees»: give them too".into(),
            ))
        }
        (Some(_), Some(way)) if !ways.contains(way) => {
            return Err(AppError::Input(format!(
                "«resume_way» {} is none of the ways probed ({})",
                way.name(),
                ways.iter()
                    .map(SearchWay::name)
                    .collect::<Vec<_>>()
                    .join(", ")
            )))
        }
        _ => {}
    }
    Ok(ways)
}

/// Refuses what only `probe` takes: several partitions in `pdb` (it alone searches more than
/// one) and `resume_way` (without probes, the way is the request's own).
pub fn refuse_probe_options_unprobed(request: &SolveRequest) -> AppResult<()> {
    if request.probe.is_some() {
        return Ok(());
    }
    if partitions(request).len() > 1 {
        return Err(AppError::Input(
            "«pdb» names several partitions, which only «probe» chooses among: give one, or \
             «probe» with the seconds to probe each"
                .into(),
        ));
    }
    if request.resume_way.is_some() {
        return Err(AppError::Input(
            "«resume_way» names the way among those «probe» compares that finished \
             «resume_subtrees»: without «probe», give that way's «pdb» and «reverse» alone"
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
    fn one_way_a_partition_twice_and_a_token_of_no_way_probed_are_refused() {
        let refused = |r: &SolveRequest| probe_ways(r).unwrap_err().to_string();
        assert!(refused(&request(Some("6-6-6-6"), false, false)).contains("several partitions"));
        assert!(refused(&request(Some("6-6-6-6  6-6-6-6"), false, false)).contains("twice"));
        let token = SolveRequest {
            resume_from: Some(100),
            resume_subtrees: Some("14.6.0.1.2:0".into()),
            ..request(Some("6-6-6-6 6-6-6-6b"), false, false)
        };
        assert!(refused(&token).contains("one way"));
        let forwards = SearchWay {
            pdb: Some("6-6-6-6b".into()),
            reverse: false,
        };
        let named = SolveRequest {
            resume_way: Some(forwards.clone()),
            ..token.clone()
        };
        assert_eq!(probe_ways(&named).unwrap()[1], forwards);
        let backwards = SearchWay {
            reverse: true,
            ..forwards.clone()
        };
        let elsewhere = SolveRequest {
            resume_way: Some(backwards.clone()),
            ..token
        };
        assert!(refused(&elsewhere).contains("6-6-6-6b backwards is none of the ways probed"));
        let with_both = SolveRequest {
            both_ways: true,
            ..elsewhere
        };
        assert_eq!(probe_ways(&with_both).unwrap()[3], backwards);
        let no_subtrees = SolveRequest {
            resume_way: Some(forwards),
            ..request(Some("6-6-6-6 6-6-6-6b"), false, false)
        };
        assert!(refused(&no_subtrees).contains("give them too"));
        let unprobed = SolveRequest {
            probe: None,
            ..request(Some("6-6-6-6 6-6-6-6b"), false, false)
        };
        assert!(refuse_probe_options_unprobed(&unprobed).is_err());
        let one = || SolveRequest {
            probe: None,
            ..request(Some("6-6-6-6"), false, false)
        };
        assert!(refuse_probe_options_unprobed(&one()).is_ok());
        let way_unprobed = SolveRequest {
            resume_way: Some(backwards),
            ..one()
        };
        let error = refuse_probe_options_unprobed(&way_unprobed).unwrap_err();
        assert!(error.to_string().contains("without «probe»"), "{error}");
    }
}
