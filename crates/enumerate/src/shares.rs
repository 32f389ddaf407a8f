//! The shape every parallel level operation here shares: an output vector filled by the
//! threads, cut into one slice a task, each task writing its own slice, and (where a task
//! keeps fewer items than its slice holds) the kept items joined up again.

use rayon::prelude::*;

/// Grows `v` by `added` default items, written by the threads: the first touch of fresh pages
/// is the kernel's work, and one thread's fill was a tenth of a 15-puzzle disk run (2.7 GB at
/// depth 28).
pub(crate) fn grow_in_parallel<S: Copy + Default + Send>(v: &mut Vec<S>, added: usize) {
    v.par_extend(rayon::iter::repeat_n(S::default(), added));
}

/// `items` cut into consecutive slices of the given `lengths`, in order, from its start.
///
/// # Panics
/// If the lengths add up to more than `items` holds.
pub(crate) fn slices_by_lengths<S>(
    items: &mut [S],
    lengths: impl IntoIterator<Item = usize>,
) -> Vec<&mut [S]> {
    let mut rest = items;
    lengths
        .into_iter()
        .map(|length| {
            let (slice, tail) = std::mem::take(&mut rest).split_at_mut(length);
            rest = tail;
            slice
        })
        .collect()
}

/// Joins up the items tasks kept: for each `(start, kept)`, in order, the `kept` items from
/// `start` are moved down to follow the ones before; `items` is cut after the last.
pub(crate) fn join_kept<S: Copy>(
    items: &mut Vec<S>,
    kept: impl IntoIterator<Item = (usize, usize)>,
) {
    let mut end = 0;
    for (start, kept) in kept {
        items.copy_within(start..start + kept, end);
        end += kept;
    }
    items.truncate(end);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_follow_each_other_with_the_lengths_asked() {
        let mut items: Vec<u32> = (0..10).collect();
        let slices = slices_by_lengths(&mut items, [3, 0, 4, 2]);
        let seen: Vec<Vec<u32>> = slices.iter().map(|s| s.to_vec()).collect();
        assert_eq!(seen, [vec![0, 1, 2], vec![], vec![3, 4, 5, 6], vec![7, 8]]);
    }

    #[test]
    fn kept_items_are_joined_in_order() {
        let mut items = vec![1, 2, 9, 9, 3, 9, 4, 5, 6];
        join_kept(&mut items, [(0, 2), (4, 1), (6, 3)]);
        assert_eq!(items, [1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn growth_appends_defaults() {
        let mut items = vec![7u64; 3];
        grow_in_parallel(&mut items, 100_000);
        assert_eq!(items.len(), 100_003);
        assert!(items[3..].iter().all(|&x| x == 0));
    }
}
