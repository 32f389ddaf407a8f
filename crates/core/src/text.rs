//! Text in one-line messages: quoting user input, and naming options.
//!
//! Error messages repeat what the user typed so they can find the mistake, but a message must
//! stay one readable line: a pasted megabyte or a multi-line grid would bury it. [`excerpt`] is
//! the one place that decides how much of an input a message shows.
//!
//! Messages name options in no front end's words: [`name_options`] writes them in each one's.

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

/// Opens an option's name in a message. Messages below the front ends name an option by its
/// request field between these marks (`«max_length»`), never as a command-line flag, and each
/// front end writes it in its own words with [`name_options`]: the command line as
/// `--max-length`, the HTTP API and Python as `max_length`.
pub const OPTION_OPEN: char = '«';
/// Closes an option's name in a message (see [`OPTION_OPEN`]).
pub const OPTION_CLOSE: char = '»';

/// `message` with every option named between [`OPTION_OPEN`] and [`OPTION_CLOSE`] (a request
/// field: lower-case letters, digits and `_`) written as `name` writes it; any other text,
/// marks around something else included, is left as it is.
pub fn name_options(message: &str, name: impl Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(open) = rest.find(OPTION_OPEN) {
        let (before, from) = rest.split_at(open);
        out.push_str(before);
        let inner = &from[OPTION_OPEN.len_utf8()..];
        let field = inner
            .find(OPTION_CLOSE)
            .map(|close| &inner[..close])
            .filter(|f| is_field_name(f));
        match field {
            Some(field) => {
                out.push_str(&name(field));
                rest = &inner[field.len() + OPTION_CLOSE.len_utf8()..];
            }
            None => {
                out.push(OPTION_OPEN);
                rest = inner;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Whether `text` is a request field's name: lower-case letters, digits and `_`, starting
/// with a letter.
fn is_field_name(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_lowercase())
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
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

    #[test]
    fn options_are_named_in_each_front_end_words() {
        let message = "«max_length» 101: at most 100; leave out «no_reflection» or «table»";
        let flag = |f: &str| format!("--{}", f.replace('_', "-"));
        assert_eq!(
            name_options(message, flag),
            "--max-length 101: at most 100; leave out --no-reflection or --table"
        );
        assert_eq!(
            name_options(message, str::to_string),
            "max_length 101: at most 100; leave out no_reflection or table"
        );
        // Marks around anything but a field name, or left open, stay as written.
        for text in [
            "«Not a field» and «a b»",
            "open «max_length",
            "»«",
            "«»",
            "«x»y»",
        ] {
            let named = name_options(text, |_| "X".into());
            assert_eq!(named, text.replace("«x»", "X"), "{text}");
        }
    }
}
