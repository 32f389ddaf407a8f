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
