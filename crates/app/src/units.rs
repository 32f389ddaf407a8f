//! Reading and writing sizes, times and counts for people. The readers take any text and
//! never panic (fuzzed: `fuzz/fuzz_targets/memory_size.rs`, `duration.rs`).

pub use godsearch_core::excerpt;
use std::time::Duration;

/// The longest `--timeout`: a year. Anything longer is a typo, and a deadline that far ahead
/// still fits every clock.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(365 * 24 * 60 * 60);
/// The shortest `--timeout`: a millisecond (shorter ones would round to no time at all; found
/// by fuzzing `--timeout 1e-110`).
pub const MIN_TIMEOUT: Duration = Duration::from_millis(1);

const KIB: f64 = 1024.0;
const SUFFIXES: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];

/// Parses a memory size: bytes (`1000000`), with a binary suffix (`512M`, `16G`, `1.5T`, an
/// optional trailing `B` or `iB`), or a percentage of `total` (`50%`). Sizes beyond `u64`
/// saturate at `u64::MAX`; the error is a one-line message.
pub fn parse_size(text: &str, total: u64) -> Result<u64, String> {
    let bad = || {
        format!(
            "'{}' is not a memory size (examples: 16G, 512M, 50%)",
            excerpt(text)
        )
    };
    let t = text.trim().to_ascii_uppercase();
    if let Some(p) = t.strip_suffix('%') {
        let p: f64 = p.trim().parse().map_err(|_| bad())?;
        if !(0.0..=100.0).contains(&p) {
            return Err(bad());
        }
        return Ok((total as f64 * p / 100.0) as u64);
    }
    let t = t.trim_end_matches("IB").trim_end_matches('B');
    let (number, power) = match t.chars().last() {
        Some('K') => (&t[..t.len() - 1], 1),
        Some('M') => (&t[..t.len() - 1], 2),
        Some('G') => (&t[..t.len() - 1], 3),
        Some('T') => (&t[..t.len() - 1], 4),
        _ => (t, 0),
    };
    let value: f64 = number.trim().parse().map_err(|_| bad())?;
    if value < 0.0 || !value.is_finite() {
        return Err(bad());
    }
    Ok((value * KIB.powi(power)) as u64)
}

/// The longest solution length a request may ask for (`--max-length`): more than any cube
/// metric's God's number.
pub const MAX_TARGET_LENGTH: u64 = 100;
/// The longest random move sequence a scramble may ask for (`scramble --moves`).
pub const MAX_SCRAMBLE_MOVES: u64 = 1_000_000;

/// Reads a time limit in seconds (`10`, `0.5`, `1e3`): from [`MIN_TIMEOUT`] to
/// [`MAX_TIMEOUT`].
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a number of seconds", excerpt(text)))?;
    check_seconds(seconds)
}

/// A time limit of `seconds`, from [`MIN_TIMEOUT`] to [`MAX_TIMEOUT`] (the rule the command
/// line and the API share).
pub fn check_seconds(seconds: f64) -> Result<Duration, String> {
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err("it must be a positive number of seconds".into());
    }
    if seconds < MIN_TIMEOUT.as_secs_f64() {
        return Err(format!(
            "at least {} seconds (a millisecond) must be given",
            MIN_TIMEOUT.as_secs_f64()
        ));
    }
    if seconds > MAX_TIMEOUT.as_secs_f64() {
        return Err(format!(
            "at most {} seconds (a year) can be given",
            MAX_TIMEOUT.as_secs()
        ));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// `1536` -> `1.5 KiB`.
pub fn format_bytes(bytes: f64) -> String {
    let mut value = bytes;
    let mut unit = 0;
    while value >= KIB && unit + 1 < SUFFIXES.len() {
        value /= KIB;
        unit += 1;
    }
    if unit == 0 {
        format!("{value:.0} B")
    } else {
        format!("{value:.1} {}", SUFFIXES[unit])
    }
}

/// `1234567` -> `1,234,567`.
pub fn format_count(n: impl ToString) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() * 4 / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The share `part` is of `whole` as a percentage, to a whole percent, or to a tenth under one
/// percent: `1, 3` -> `33%`, `2, 1000` -> `0.2%` (a long search's first minutes
/// should not read as no progress).
pub fn format_percent(part: f64, whole: f64) -> String {
    let percent = 100.0 * part / whole;
    if percent > 0.0 && percent < 1.0 {
        format!("{percent:.1}%")
    } else {
        format!("{percent:.0}%")
    }
}

/// Counts of more digits than this are written as a power of ten by [`format_large_count`].
pub const PLAIN_COUNT_DIGITS: usize = 30;
/// Digits after the point of a count written as a power of ten.
const MANTISSA_DIGITS: usize = 2;

/// A count given by its decimal `digits` with thousands separators, or, past
/// [`PLAIN_COUNT_DIGITS`] digits, as a power of ten to three significant digits, rounded half
/// up: `282870942...000` (75 digits) -> `2.83e74`.
pub fn format_large_count(digits: &str) -> String {
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return digits.to_string();
    }
    if digits.len() <= PLAIN_COUNT_DIGITS {
        return format_count(digits);
    }
    let kept = MANTISSA_DIGITS + 1;
    let lead: u64 = digits[..kept].parse().expect("ascii digits");
    let mut rounded = lead + u64::from(digits.as_bytes()[kept] >= b'5');
    let mut exponent = digits.len() - 1;
    if rounded == 10u64.pow(kept as u32) {
        rounded /= 10;
        exponent += 1;
    }
    let text = rounded.to_string();
    format!("{}.{}e{exponent}", &text[..1], &text[1..])
}

/// `12345678.0` -> `12.3 M`.
pub fn format_rate(per_second: f64) -> String {
    match per_second {
        r if r >= 1e9 => format!("{:.2} G", r / 1e9),
        r if r >= 1e6 => format!("{:.1} M", r / 1e6),
        r if r >= 1e3 => format!("{:.1} k", r / 1e3),
        r => format!("{r:.0} "),
    }
}

/// A duration in the unit that reads best, to three significant digits: `0.000140` ->
/// `140 µs`, `0.0123` -> `12.3 ms`, `1.5` -> `1.50 s`; a thousand seconds and more in whole
/// seconds.
pub fn format_seconds(seconds: f64) -> String {
    let three_digits = |value: f64, unit: &str| match value {
        v if v >= 100.0 => format!("{v:.0} {unit}"),
        v if v >= 10.0 => format!("{v:.1} {unit}"),
        v => format!("{v:.2} {unit}"),
    };
    match seconds {
        s if s >= 1000.0 => format!("{s:.0} s"),
        s if s >= 1.0 => three_digits(s, "s"),
        s if s >= 1e-3 => three_digits(s * 1e3, "ms"),
        s => three_digits(s * 1e6, "µs"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_counts_are_rounded_to_three_digits() {
        let five_cube =
            "282870942277741856536180333107150328293127731985672134721536000000000000000";
        assert_eq!(format_large_count(five_cube), "2.83e74");
        let nines = format!("9995{}", "0".repeat(40));
        assert_eq!(format_large_count(&nines), "1.00e44");
        let down = format!("1234{}", "9".repeat(40));
        assert_eq!(format_large_count(&down), "1.23e43");
        assert_eq!(
            format_large_count("43252003274489856000"),
            "43,252,003,274,489,856,000"
        );
    }

    #[test]
    fn durations_in_the_unit_that_reads_best() {
        assert_eq!(format_seconds(0.000_140), "140 µs");
        assert_eq!(format_seconds(0.000_001_5), "1.50 µs");
        assert_eq!(format_seconds(0.0123), "12.3 ms");
        assert_eq!(format_seconds(0.999), "999 ms");
        assert_eq!(format_seconds(1.5), "1.50 s");
        assert_eq!(format_seconds(181.0), "181 s");
        assert_eq!(format_seconds(7200.4), "7200 s");
        assert_eq!(format_seconds(0.0), "0.00 µs");
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1000", 0).unwrap(), 1000);
        assert_eq!(parse_size("16G", 0).unwrap(), 16 << 30);
        assert_eq!(parse_size("512mib", 0).unwrap(), 512 << 20);
        assert_eq!(parse_size("1.5K", 0).unwrap(), 1536);
        assert_eq!(parse_size("50%", 1000).unwrap(), 500);
        assert!(parse_size("lots", 0).is_err());
        assert!(parse_size("150%", 0).is_err());
        assert!(parse_size("1e400", 0).is_err());
        assert!(parse_size("-1G", 0).is_err());
        assert_eq!(parse_seconds("1.5"), Ok(Duration::from_millis(1500)));
        for bad in [
            "0", "-1", "NaN", "inf", "1e300", "", "ten", "1e-110", "0.0001",
        ] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(format_bytes(1536.0), "1.5 KiB");
        assert_eq!(format_bytes(12.0), "12 B");
        assert_eq!(format_count(1234567u64), "1,234,567");
        assert_eq!(format_count(12u64), "12");
        assert_eq!(format_percent(1.0, 3.0), "33%");
        assert_eq!(format_percent(2.0, 1000.0), "0.2%");
        assert_eq!(format_percent(6.0, 1000.0), "0.6%");
        assert_eq!(format_percent(15.0, 1000.0), "2%");
        assert_eq!(format_percent(0.0, 1000.0), "0%");
    }

    mod fuzz {
        use super::super::*;
        use proptest::prelude::*;

        proptest! {
            /// Any text is a size or a one-line error; numbers with a suffix scale exactly.
            #[test]
            fn sizes(text in "[-+0-9.eEkKmMgGtTiIbB% ]{0,12}", n in 0u64..1_000_000) {
                if let Err(e) = parse_size(&text, 1 << 34) {
                    prop_assert!(!e.contains('\n'));
                }
                prop_assert_eq!(parse_size(&format!("{n}M"), 0), Ok(n << 20));
                prop_assert_eq!(parse_size(&format!("{n}"), 0), Ok(n));
            }

            /// Any text is a time within the limits or a one-line error.
            #[test]
            fn durations(text in "[-+0-9.eEnaNifIF ]{0,14}", ms in 1u64..1_000_000_000) {
                match parse_seconds(&text) {
                    Ok(d) => prop_assert!(MIN_TIMEOUT <= d && d <= MAX_TIMEOUT),
                    Err(e) => prop_assert!(!e.contains('\n')),
                }
                let secs = ms as f64 / 1000.0;
                prop_assert!(parse_seconds(&secs.to_string()).is_ok());
            }
        }
    }
}
