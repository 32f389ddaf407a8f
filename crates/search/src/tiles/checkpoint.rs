//! The part of one IDA* iteration a stopped parallel search finished, so that a later run of
//! the same iteration skips it: which of the iteration's subtrees (the split the threads take
//! their work from) were searched to the end without a solution, and the least cost above the
//! threshold met there (what the next threshold is made of).
//!
//! Written as one token, `PRUNING.DEPTH.SPLIT.SUBTREES.NEXT:RANGES`, for instance
//! `14.5.9f3a01c2.131.105:0-35,37`: the duplicate strings the iteration pruned (their length),
//! the depth of its split, a fingerprint of the split (the start and the goal, threshold,
//! pruning, every subtree's moves in order: a token is refused for another board, goal,
//! direction, bound or build; high above the root's estimate nothing is cut off near the root,
//! and the split is the same for every board with its blank on the same cell, so the ends are
//! part of it), the subtrees in the split, the next threshold's bound from the part searched
//! (`-` where nothing was cut off yet) and the subtrees finished, as ranges of their indices.
//!
//! Skipping them is exact: a subtree searched to the end under the threshold holds no
//! solution within it, and with `NEXT` the next threshold is the one a whole run would find.

use std::fmt;
use std::str::FromStr;

/// The subtrees of one iteration a stopped search finished (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchedSubtrees {
    /// Length of the duplicate move strings the iteration pruned (2: undone moves only).
    pub pruning: u8,
    /// Moves from the start to each subtree's root.
    pub depth: u8,
    /// Fingerprint of the split: FNV-1a over the start and the goal, the threshold, the
    /// pruning length, the depth and each subtree's moves in order.
    pub split: u32,
    /// Subtrees in the split.
    pub subtrees: u32,
    /// The least `g + h` above the threshold met in the work done (`u32::MAX`: none): a bound
    /// on the next threshold from the part searched, never above the next threshold's value.
    pub next_threshold: u32,
    /// The subtrees searched to the end, indices into the split, ascending and distinct.
    pub done: Vec<u32>,
}

/// Fingerprint of an iteration's split: FNV-1a over its `ends` (the start's and the goal's
/// tiles by cell), the threshold, the pruning length, the depth and each subtree's moves in
/// order.
pub fn split_fingerprint<'p>(
    ends: [&[u8]; 2],
    threshold: u32,
    pruning: u8,
    depth: u8,
    paths: impl IntoIterator<Item = &'p [u8]>,
) -> u32 {
    const PATH_END: u8 = u8::MAX;
    let mut hash = godsearch_core::fingerprint::Fnv1a::default();
    for end in ends {
        hash.write(end);
        hash.write(&[PATH_END]);
    }
    hash.write(&threshold.to_le_bytes());
    hash.write(&[pruning, depth]);
    for path in paths {
        hash.write(path);
        hash.write(&[PATH_END]);
    }
    hash.finish()
}

impl SearchedSubtrees {
    /// The subtrees finished by either of two runs of one iteration, where both split it
    /// alike (`None` where they split it otherwise: neither run's may stand for the other's).
    pub fn joined(&self, other: &SearchedSubtrees) -> Option<SearchedSubtrees> {
        let split = |s: &SearchedSubtrees| (s.pruning, s.depth, s.split, s.subtrees);
        (split(self) == split(other)).then(|| {
            let mut done: Vec<u32> = self.done.iter().chain(&other.done).copied().collect();
            done.sort_unstable();
            done.dedup();
            SearchedSubtrees {
                done,
                next_threshold: self.next_threshold.min(other.next_threshold),
                ..self.clone()
            }
        })
    }
}

impl fmt::Display for SearchedSubtrees {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}.{}.{:08x}.{}.",
            self.pruning, self.depth, self.split, self.subtrees
        )?;
        match self.next_threshold {
            u32::MAX => write!(f, "-:")?,
            next => write!(f, "{next}:")?,
        }
        let mut i = 0;
        while i < self.done.len() {
            let first = self.done[i];
            let mut last = first;
            while self.done.get(i + 1) == Some(&(last + 1)) {
                last += 1;
                i += 1;
            }
            let comma = if first == self.done[0] { "" } else { "," };
            match last == first {
                true => write!(f, "{comma}{first}")?,
                false => write!(f, "{comma}{first}-{last}")?,
            }
            i += 1;
        }
        Ok(())
    }
}

impl FromStr for SearchedSubtrees {
    type Err = String;

    /// Reads the token [`Display`](fmt::Display) writes; ranges may come in any order but
    /// must lie within the split and not overlap.
    fn from_str(text: &str) -> Result<Self, String> {
        let wrong = |why: &str| format!("searched subtrees «{text}»: {why}");
        let (head, ranges) = text
            .split_once(':')
            .ok_or_else(|| wrong("expected PRUNING.DEPTH.SPLIT.SUBTREES.NEXT:RANGES"))?;
        let fields: Vec<&str> = head.split('.').collect();
        let [pruning, depth, split, subtrees, next] = fields[..] else {
            return Err(wrong("expected five fields before the colon"));
        };
        let number = |field: &str, what: &str| -> Result<u32, String> {
            field
                .parse()
                .map_err(|_| wrong(&format!("{what} «{field}» is not a number")))
        };
        let small = |field: &str, what: &str| -> Result<u8, String> {
            u8::try_from(number(field, what)?).map_err(|_| wrong(&format!("{what} is too large")))
        };
        let split = u32::from_str_radix(split, 16)
            .map_err(|_| wrong(&format!("the split «{split}» is not 8 hex digits")))?;
        let subtrees = number(subtrees, "the subtree count")?;
        let next_threshold = match next {
            "-" => u32::MAX,
            n => number(n, "the next threshold")?,
        };
        let mut done = Vec::new();
        for range in ranges.split(',').filter(|r| !r.is_empty()) {
            let (first, last) = match range.split_once('-') {
                Some((a, b)) => (number(a, "a subtree")?, number(b, "a subtree")?),
                None => (number(range, "a subtree")?, number(range, "a subtree")?),
            };
            if first > last || last >= subtrees {
                return Err(wrong(&format!(
                    "the range «{range}» is not within the split's {subtrees} subtrees"
                )));
            }
            done.extend(first..=last);
        }
        done.sort_unstable();
        if done.windows(2).any(|w| w[0] == w[1]) {
            return Err(wrong("a subtree is listed twice"));
        }
        Ok(SearchedSubtrees {
            pruning: small(pruning, "the pruning length")?,
            depth: small(depth, "the split depth")?,
            split,
            subtrees,
            next_threshold,
            done,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_reads_back_as_written() {
        let searched = SearchedSubtrees {
            pruning: 14,
            depth: 5,
            split: 0x09f3_a01c,
            subtrees: 131,
            next_threshold: 105,
            done: vec![0, 1, 2, 3, 7, 9, 10, 130],
        };
        let text = searched.to_string();
        assert_eq!(text, "14.5.09f3a01c.131.105:0-3,7,9-10,130");
        assert_eq!(text.parse::<SearchedSubtrees>(), Ok(searched));
        let none = "2.3.00000001.40.-:".parse::<SearchedSubtrees>().unwrap();
        assert_eq!((none.next_threshold, none.done.len()), (u32::MAX, 0));
        assert_eq!(none.to_string(), "2.3.00000001.40.-:");
    }

    #[test]
    fn a_wrong_token_is_refused_with_its_reason() {
        for (text, why) in [
            ("14.5.09f3a01c.131.105", "expected PRUNING"),
            ("14.5.09f3a01c.105:0-3", "five fields"),
            ("14.5.zz.131.105:0", "not 8 hex digits"),
            ("14.5.09f3a01c.131.105:0-131", "not within"),
            ("14.5.09f3a01c.131.105:5-3", "not within"),
            ("14.5.09f3a01c.131.105:0-3,2", "listed twice"),
            ("300.5.09f3a01c.131.105:0", "too large"),
            ("14.5.09f3a01c.131.x:0", "not a number"),
        ] {
            let error = text.parse::<SearchedSubtrees>().unwrap_err();
            assert!(error.contains(why), "{text}: {error}");
        }
    }

    #[test]
    fn the_fingerprint_follows_every_part_of_the_split() {
        let paths: [&[u8]; 2] = [&[0, 2], &[1, 3]];
        let ends: [&[u8]; 2] = [&[1, 0, 2, 3], &[0, 1, 2, 3]];
        let base = split_fingerprint(ends, 103, 14, 2, paths);
        assert_eq!(base, split_fingerprint(ends, 103, 14, 2, paths));
        assert_ne!(base, split_fingerprint(ends, 105, 14, 2, paths));
        assert_ne!(base, split_fingerprint(ends, 103, 12, 2, paths));
        assert_ne!(base, split_fingerprint(ends, 103, 14, 3, paths));
        let swapped: [&[u8]; 2] = [&[1, 3], &[0, 2]];
        assert_ne!(base, split_fingerprint(ends, 103, 14, 2, swapped));
        let joined: [&[u8]; 1] = [&[0, 2, 1, 3]];
        assert_ne!(base, split_fingerprint(ends, 103, 14, 2, joined));
        // Another board, or the same two ends the other way round (a search from the goal).
        let other_board: [&[u8]; 2] = [&[1, 2, 0, 3], &[0, 1, 2, 3]];
        assert_ne!(base, split_fingerprint(other_board, 103, 14, 2, paths));
        let reversed: [&[u8]; 2] = [ends[1], ends[0]];
        assert_ne!(base, split_fingerprint(reversed, 103, 14, 2, paths));
    }

    #[test]
    fn two_runs_of_one_split_join_and_of_two_splits_do_not() {
        let read = |text: &str| text.parse::<SearchedSubtrees>().unwrap();
        let a = read("14.5.09f3a01c.131.107:0-3,9");
        let b = read("14.5.09f3a01c.131.105:2-5,130");
        let joined = a.joined(&b).unwrap();
        assert_eq!(joined.to_string(), "14.5.09f3a01c.131.105:0-5,9,130");
        assert_eq!(b.joined(&a), Some(joined));
        assert_eq!(a.joined(&read("14.5.09f3a01d.131.107:0")), None);
        assert_eq!(a.joined(&read("14.6.09f3a01c.131.107:0")), None);
    }
}
