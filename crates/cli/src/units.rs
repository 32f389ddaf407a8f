//! Reading and writing sizes and counts for people.

use crate::errors::InputError;

const KIB: f64 = 1024.0;
const SUFFIXES: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];

/// Parses a memory size: bytes (`1000000`), with a binary suffix (`512M`, `16G`, `1.5T`, an
/// optional trailing `B` or `iB`), or a percentage of `total` (`50%`).
pub fn parse_size(text: &str, total: u64) -> Result<u64, InputError> {
    let bad = || {
        InputError(format!(
            "'{text}' is not a memory size (examples: 16G, 512M, 50%)"
        ))
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

/// `12345678.0` -> `12.3 M`.
pub fn format_rate(per_second: f64) -> String {
    match per_second {
        r if r >= 1e9 => format!("{:.2} G", r / 1e9),
        r if r >= 1e6 => format!("{:.1} M", r / 1e6),
        r if r >= 1e3 => format!("{:.1} k", r / 1e3),
        r => format!("{r:.0} "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1000", 0).unwrap(), 1000);
        assert_eq!(parse_size("16G", 0).unwrap(), 16 << 30);
        assert_eq!(parse_size("512mib", 0).unwrap(), 512 << 20);
        assert_eq!(parse_size("1.5K", 0).unwrap(), 1536);
        assert_eq!(parse_size("50%", 1000).unwrap(), 500);
        assert!(parse_size("lots", 0).is_err());
        assert!(parse_size("150%", 0).is_err());
        assert_eq!(format_bytes(1536.0), "1.5 KiB");
        assert_eq!(format_bytes(12.0), "12 B");
        assert_eq!(format_count(1234567u64), "1,234,567");
        assert_eq!(format_count(12u64), "12");
    }
}
