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
    for c in text.chars().take(EXCERPT_CHARS) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if total > EXCERPT_CHARS {
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
        let long = "7".repeat(1_000_000);
        let cut = excerpt(&long);
        assert!(cut.len() < 100, "{cut}");
        assert!(cut.ends_with("... (1000000 characters)"), "{cut}");
        assert!(!excerpt("a\u{7}b\r").contains(['\u{7}', '\r']));
    }
}
