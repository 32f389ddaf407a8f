//! Quoting user input inside one-line messages.
//!
//! Error messages repeat what the user typed so they can find the mistake, but a message must
//! stay one readable line: a pasted megabyte or a multi-line grid would bury it. [`excerpt`] is
//! the one place that decides how much of an input a message shows.

/// Characters of an input a message repeats before cutting it.
pub const EXCERPT_CHARS: usize = 60;

/// `text` as it may appear in a one-line message: line breaks and other control characters
/// escaped (`\n`), and anything past [`EXCERPT_CHARS`] characters replaced by
/// `... (N characters)`, where N is the length of the whole input.
pub fn excerpt(text: &str) -> String {
    let total = text.chars().count();
    let mut out = String::new();
    // Counted as written: an escaped control character (`\u{0}`) takes its escape's width, so
    // a text of NULs is cut as short as any other.
    let mut written = 0;
    let mut taken = 0;
    for c in text.chars() {
        let width = match c.is_control() {
            true => c.escape_default().count(),
            false => 1,
        };
        if written + width > EXCERPT_CHARS {
            break;
        }
        match c.is_control() {
            true => out.extend(c.escape_default()),
            false => out.push(c),
        }
        written += width;
        taken += 1;
    }
    if taken < total {
        out.push_str(&format!("... ({total} characters)"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_kept_and_long_text_is_cut() {
        assert_eq!(excerpt("1,2,3"), "1,2,3");
        assert_eq!(excerpt("2 4 0\n1 8 5"), "2 4 0\\n1 8 5");
        // NULs are escaped and cut like any text: no 400-character error lines.
        let nuls = excerpt(&"\0".repeat(400));
        assert!(nuls.len() <= EXCERPT_CHARS + 30, "{nuls}");
        assert!(nuls.starts_with("\\u{0}") && nuls.ends_with("(400 characters)"));
        let long = "7".repeat(1_000_000);
        let cut = excerpt(&long);
        assert!(cut.len() < 100, "{cut}");
        assert!(cut.ends_with("... (1000000 characters)"), "{cut}");
        assert!(!excerpt("a\u{7}b\r").contains(['\u{7}', '\r']));
    }
}
