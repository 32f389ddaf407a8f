//! Sorted keys as LEB128 varints of their gaps: what a level costs on disk.
//!
//! A level is a sorted, repeat-free list of states, so it is stored as the gaps between
//! consecutive keys (the first from 0), 7 bits a byte. A 15-puzzle level of a few billion
//! positions among its 10^13 ranks has gaps of a few thousand: 2 bytes a position, against 8 in
//! memory. Decoding is a single forward pass that checks everything it reads, so damaged bytes
//! give an error, never a panic or a wrong key (the file checksum is checked before, too).

pub use crate::keys::{KeyInt, KeyState};
use thiserror::Error;

/// Bits of payload in each varint byte.
const PAYLOAD_BITS: u32 = 7;
/// The byte's high bit: more bytes follow.
const MORE: u8 = 0x80;
/// Bytes of the longest 64-bit varint.
const MAX_VARINT_BYTES: usize = 10;

/// The bytes could not be decoded into the keys their header announced.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CodecError {
    /// The bytes ended inside a key or before the announced count.
    #[error("the key list ends early ({found} of {expected} keys)")]
    Truncated {
        /// Keys announced.
        expected: u64,
        /// Keys decoded before the end.
        found: u64,
    },
    /// Bytes remain after the announced count.
    #[error("bytes remain after the {0} announced keys")]
    TrailingBytes(u64),
    /// A gap of zero (a repeat) or a key beyond the state type.
    #[error("key {0} is out of order or out of range")]
    BadKey(u64),
}

/// Appends the sorted, repeat-free `states` to `out` as varint gaps.
pub fn encode_sorted<S: KeyState>(states: &[S], out: &mut Vec<u8>) {
    let mut last = S::Key::default();
    let more = S::Key::from(MORE);
    for (i, &s) in states.iter().enumerate() {
        let key = s.to_key();
        debug_assert!(i == 0 || key > last, "keys must be sorted and distinct");
        let mut gap = key - last;
        last = key;
        while gap >= more {
            out.push(gap.low_byte() | MORE);
            gap = gap >> PAYLOAD_BITS;
        }
        out.push(gap.low_byte());
    }
}

/// Decodes exactly `count` keys written by [`encode_sorted`], checking that they ascend
/// strictly, fit the state type, and use every byte.
pub fn decode_sorted<S: KeyState>(bytes: &[u8], count: u64) -> Result<Vec<S>, CodecError> {
    let mut states = Vec::new();
    decode_sorted_into(bytes, count, &mut states)?;
    Ok(states)
}

/// [`decode_sorted`], appending the keys to `out` (whose capacity a caller can reuse from one
/// file to the next). On an error `out` may hold some of the keys.
pub fn decode_sorted_into<S: KeyState>(
    bytes: &[u8],
    count: u64,
    out: &mut Vec<S>,
) -> Result<(), CodecError> {
    if S::BITS <= u64::BITS {
        // 64-bit arithmetic where the keys allow it: 8% of a 15-puzzle run was this loop in
        // 128-bit arithmetic.
        if decode_short_gaps(bytes, count, out) {
            return Ok(());
        }
        decode_as::<S, u64>(bytes, count, out)
    } else {
        decode_as::<S, S::Key>(bytes, count, out)
    }
}

/// The common case, fast: keys of at most 64 bits whose gaps mostly take one or two bytes
/// (a 15-puzzle level beyond depth 25 takes 1.1-1.3 bytes a key), decoded without a branch on
/// which of the two. `false`, with `out` as it was, when anything is amiss: [`decode_as`] then
/// finds and names the error.
fn decode_short_gaps<S: KeyState>(bytes: &[u8], count: u64, out: &mut Vec<S>) -> bool {
    let start = out.len();
    if count > bytes.len() as u64 {
        return false;
    }
    // Exactly: a buffer reused from file to file would otherwise double past the largest.
    out.reserve_exact(count as usize);
    let (mut at, mut last, mut ascending) = (0usize, 0u64, true);
    for i in 0..count {
        let (gap, len) = match bytes.get(at..at + 2) {
            Some(&[b0, b1]) if b0 & b1 & MORE == 0 => {
                let two = u64::from(b0 >> PAYLOAD_BITS);
                let high = (u64::from(b1) << PAYLOAD_BITS) & two.wrapping_neg();
                (u64::from(b0 & !MORE) | high, 1 + two as usize)
            }
            _ => match varint_at(bytes, at) {
                Some(read) => read,
                None => {
                    out.truncate(start);
                    return false;
                }
            },
        };
        at += len;
        let key = last.wrapping_add(gap);
        // A zero gap (a repeat) or one that wraps around leaves the key not above the last.
        ascending &= i == 0 || key > last;
        last = key;
        match S::from_key(S::Key::from(key)) {
            Some(state) => out.push(state),
            None => {
                out.truncate(start);
                return false;
            }
        }
    }
    if !ascending || at != bytes.len() {
        out.truncate(start);
        return false;
    }
    true
}

/// The 64-bit varint at `bytes[at..]` and its length, or `None` if it is cut short or does
/// not fit.
fn varint_at(bytes: &[u8], at: usize) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (k, &b) in bytes.get(at..)?.iter().enumerate().take(MAX_VARINT_BYTES) {
        let shift = PAYLOAD_BITS * k as u32;
        let payload = u64::from(b & !MORE);
        let part = payload << shift;
        if part >> shift != payload {
            return None;
        }
        value |= part;
        if b & MORE == 0 {
            return Some((value, k + 1));
        }
    }
    None
}

/// The checked decoder, in arithmetic of the integer `A`.
fn decode_as<S: KeyState, A: KeyInt>(
    bytes: &[u8],
    count: u64,
    states: &mut Vec<S>,
) -> Result<(), CodecError>
where
    S::Key: From<A>,
{
    states.reserve_exact(count.min(bytes.len() as u64) as usize);
    let mut at = 0;
    let mut last = A::default();
    for i in 0..count {
        let mut gap = A::default();
        let mut shift = 0;
        loop {
            let Some(&b) = bytes.get(at) else {
                return Err(CodecError::Truncated {
                    expected: count,
                    found: i,
                });
            };
            at += 1;
            let payload = A::from(b & !MORE);
            // A payload shifted past the top, or with bits shifted out, is no key of ours.
            if shift >= A::BITS
                || (shift > A::BITS - PAYLOAD_BITS && (b & !MORE) >> (A::BITS - shift) != 0)
            {
                return Err(CodecError::BadKey(i));
            }
            gap = gap | payload << shift;
            shift += PAYLOAD_BITS;
            if b & MORE == 0 {
                break;
            }
        }
        let key = last.checked_add(gap).ok_or(CodecError::BadKey(i))?;
        if i > 0 && gap == A::default() {
            return Err(CodecError::BadKey(i));
        }
        states.push(S::from_key(S::Key::from(key)).ok_or(CodecError::BadKey(i))?);
        last = key;
    }
    if at != bytes.len() {
        return Err(CodecError::TrailingBytes(count));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_costs_a_byte_a_small_gap() {
        let keys: Vec<u64> = vec![0, 1, 127, 128, 16_511, 1 << 40, u64::MAX];
        let mut bytes = Vec::new();
        encode_sorted(&keys, &mut bytes);
        assert_eq!(decode_sorted::<u64>(&bytes, keys.len() as u64), Ok(keys));
        let dense: Vec<u128> = (0..1000u128).map(|k| k * 100).collect();
        let mut bytes = Vec::new();
        encode_sorted(&dense, &mut bytes);
        assert_eq!(bytes.len(), 1000);
        assert_eq!(decode_sorted::<u128>(&bytes, 1000), Ok(dense));
    }

    #[test]
    fn keys_past_128_bits_round_trip_and_overflow_is_refused() {
        use crate::keys::U256;
        let big = |hi: u128, lo: u128| U256::from_words(hi, lo);
        let keys = vec![
            big(0, 5),
            big(0, u128::MAX),
            big(1, 0),
            big(1 << 100, 7),
            big(u128::MAX, u128::MAX - 1),
            U256::MAX,
        ];
        let mut bytes = Vec::new();
        encode_sorted(&keys, &mut bytes);
        assert_eq!(decode_sorted::<U256>(&bytes, keys.len() as u64), Ok(keys));
        // A gap of one past the largest key wraps: refused, not taken as a small key.
        let mut bytes = Vec::new();
        encode_sorted(&[U256::MAX], &mut bytes);
        encode_sorted(&[U256::ONE], &mut bytes);
        assert_eq!(decode_sorted::<U256>(&bytes, 2), Err(CodecError::BadKey(1)));
        // 37 bytes of 7 bits make 259: bits past 256 are refused.
        let mut too_big = vec![0xff; 36];
        too_big.push(0x7f);
        assert_eq!(
            decode_sorted::<U256>(&too_big, 1),
            Err(CodecError::BadKey(0))
        );
    }

    #[test]
    fn keys_past_256_bits_round_trip_and_overflow_is_refused() {
        use crate::keys::U512;
        let big = |digits: [u64; 8]| U512::from_digits(digits);
        let keys = vec![
            big([5, 0, 0, 0, 0, 0, 0, 0]),
            big([u64::MAX, u64::MAX, u64::MAX, u64::MAX, 0, 0, 0, 0]),
            big([0, 0, 0, 0, 1, 0, 0, 0]),
            big([7, 0, 0, 0, 0, 0, 1 << 40, 3]),
            U512::MAX - U512::ONE,
            U512::MAX,
        ];
        let mut bytes = Vec::new();
        encode_sorted(&keys, &mut bytes);
        assert_eq!(decode_sorted::<U512>(&bytes, keys.len() as u64), Ok(keys));
        let mut bytes = Vec::new();
        encode_sorted(&[U512::MAX], &mut bytes);
        encode_sorted(&[U512::ONE], &mut bytes);
        assert_eq!(decode_sorted::<U512>(&bytes, 2), Err(CodecError::BadKey(1)));
        // 74 bytes of 7 bits make 518: bits past 512 are refused.
        let mut too_big = vec![0xff; 73];
        too_big.push(0x7f);
        assert_eq!(
            decode_sorted::<U512>(&too_big, 1),
            Err(CodecError::BadKey(0))
        );
    }

    #[test]
    fn the_fast_path_decodes_exactly_what_the_checked_one_does() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(16);
        for case in 0..300 {
            // Gaps of one, two and more bytes, mixed.
            let mut keys = vec![rng.gen_range(0..1000u64)];
            for _ in 0..rng.gen_range(0..200) {
                let gap = match rng.gen_range(0..4) {
                    0 => rng.gen_range(1..128),
                    1 | 2 => rng.gen_range(128..16_384),
                    _ => rng.gen_range(16_384..1 << 40),
                };
                keys.push(keys.last().unwrap() + gap);
            }
            let mut bytes = Vec::new();
            encode_sorted(&keys, &mut bytes);
            if case % 2 == 1 {
                let at = rng.gen_range(0..bytes.len());
                bytes[at] ^= 1 << rng.gen_range(0..8);
            }
            let count = keys.len() as u64;
            let mut checked = Vec::new();
            let expected = decode_as::<u64, u64>(&bytes, count, &mut checked).map(|()| checked);
            assert_eq!(decode_sorted::<u64>(&bytes, count), expected, "case {case}");
            if case % 2 == 0 {
                assert_eq!(expected, Ok(keys));
            }
        }
    }

    #[test]
    fn damage_is_an_error() {
        let keys: Vec<u64> = vec![5, 300, 70_000];
        let mut bytes = Vec::new();
        encode_sorted(&keys, &mut bytes);
        assert!(matches!(
            decode_sorted::<u64>(&bytes[..bytes.len() - 1], 3),
            Err(CodecError::Truncated { .. })
        ));
        assert_eq!(
            decode_sorted::<u64>(&bytes, 2),
            Err(CodecError::TrailingBytes(2))
        );
        assert_eq!(decode_sorted::<u64>(&[1, 0], 2), Err(CodecError::BadKey(1)));
        assert_eq!(
            decode_sorted::<u32>(&[0xff, 0xff, 0xff, 0xff, 0x7f], 1),
            Err(CodecError::BadKey(0))
        );
        assert!(decode_sorted::<u128>(&[0xff; 40], 1).is_err());
        // Ten bytes make 70 bits: one more than 64 set is refused, not wrapped.
        let mut too_big = vec![0xff; 9];
        too_big.push(0x02);
        assert_eq!(
            decode_sorted::<u64>(&too_big, 1),
            Err(CodecError::BadKey(0))
        );
        let mut top = vec![0xff; 9];
        top.push(0x01);
        assert_eq!(decode_sorted::<u64>(&top, 1), Ok(vec![u64::MAX]));
    }
}
