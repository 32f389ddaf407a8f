//! What a search reports about its work, the same for every engine and puzzle.

/// Counts that let searches be compared.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Nodes whose children were generated.
    pub expanded: u64,
    /// Children generated (each costs one heuristic update).
    pub generated: u64,
    /// The cost bound of each iteration, in order (IDA*); empty for A*.
    pub thresholds: Vec<u32>,
    /// Nodes expanded in each iteration, in the order of `thresholds` (IDA*; the last iteration
    /// stops at the first solution); empty for A*.
    pub iteration_expanded: Vec<u64>,
    /// Positions held when the search ended: A*'s open and closed sets; 0 for IDA*, which
    /// holds only its path.
    pub stored: u64,
}

impl SearchStats {
    /// Nodes expanded in the iteration of `threshold`, if there was one.
    pub fn iteration_nodes(&self, threshold: u32) -> Option<u64> {
        let at = self.thresholds.iter().position(|&t| t == threshold)?;
        self.iteration_expanded.get(at).copied()
    }

    /// Adds the work of another run of the same search (a later turn, or the search from the
    /// other end of the same path): counts summed, its iterations' nodes added to those of the
    /// same threshold here (new thresholds kept in ascending order), the larger `stored`.
    pub fn add_run(&mut self, run: &SearchStats) {
        self.expanded += run.expanded;
        self.generated += run.generated;
        self.stored = self.stored.max(run.stored);
        for (&threshold, &nodes) in run.thresholds.iter().zip(&run.iteration_expanded) {
            match self.thresholds.binary_search(&threshold) {
                Ok(at) => self.iteration_expanded[at] += nodes,
                Err(at) => {
                    self.thresholds.insert(at, threshold);
                    self.iteration_expanded.insert(at, nodes);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_add_up_iteration_by_iteration() {
        let mut total = SearchStats {
            expanded: 11,
            generated: 20,
            thresholds: vec![40, 42],
            iteration_expanded: vec![1, 10],
            stored: 0,
        };
        total.add_run(&SearchStats {
            expanded: 105,
            generated: 200,
            thresholds: vec![42, 44],
            iteration_expanded: vec![5, 100],
            stored: 0,
        });
        assert_eq!(total.thresholds, [40, 42, 44]);
        assert_eq!(total.iteration_expanded, [1, 15, 100]);
        assert_eq!((total.expanded, total.generated), (116, 220));
        assert_eq!(total.iteration_expanded.iter().sum::<u64>(), total.expanded);
    }
}
