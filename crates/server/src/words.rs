//! Refusals in the API's own words: the application crate names options in no front end's
//! words (`«max_length» 101: ...`) and serde writes its own (`invalid type: string "abc",
//! expected u32 at line 1 column 80`); an API client, and the page that shows the message,
//! should read the request's field names and plain words instead.

/// `message` (an error of the application crate or below) with each option it names as the
/// request field that carries it (`max_length`).
pub fn in_api_words(message: &str) -> String {
    godsearch_app::error::options_as_fields(message)
}

/// What axum says of a JSON body it could not read, in plain words: the field, what it takes
/// and what it got (`max_depth takes a whole number from 0 to 4294967295, not the text
/// "abc"`), without the type names and the line and column of a one-line body.
pub fn plain_json_error(text: &str) -> String {
    const NOT_READ: &str = "Failed to deserialize the JSON body into the target type: ";
    const NOT_JSON: &str = "Failed to parse the request body as JSON: ";
    if let Some(why) = text.strip_prefix(NOT_JSON) {
        return format!("the request body is not valid JSON: {why}");
    }
    let Some(why) = text.strip_prefix(NOT_READ) else {
        return text.to_string();
    };
    let why = without_position(why);
    for marker in [": invalid type: ", ": invalid value: "] {
        if let Some((field, wrong)) = why.split_once(marker) {
            if let Some((got, expected)) = wrong.rsplit_once(", expected ") {
                return format!("{field} takes {}, not {}", takes(expected), got_words(got));
            }
        }
    }
    why.to_string()
}

/// `text` without serde's trailing ` at line L column C`.
fn without_position(text: &str) -> &str {
    match text.rfind(" at line ") {
        Some(at) if text[at..].contains(" column ") => &text[..at],
        _ => text,
    }
}

/// What a field takes, from serde's name of the type it expected.
fn takes(expected: &str) -> String {
    let whole = |most: u64| format!("a whole number from 0 to {most}");
    match expected {
        "u8" => whole(u8::MAX.into()),
        "u16" => whole(u16::MAX.into()),
        "u32" => whole(u32::MAX.into()),
        "u64" | "usize" => whole(u64::MAX),
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".into(),
        "f32" | "f64" => "a number".into(),
        "a string" => "text".into(),
        "a boolean" => "true or false".into(),
        other => other.into(),
    }
}

/// What serde says it got (`string "abc"`, ``integer `-1` ``), in plain words.
fn got_words(got: &str) -> String {
    let bare = |prefix: &str| {
        got.strip_prefix(prefix)
            .map(|v| v.trim_matches('`').to_string())
    };
    if let Some(text) = got.strip_prefix("string ") {
        return format!("the text {text}");
    }
    bare("integer ")
        .or_else(|| bare("floating point "))
        .or_else(|| bare("boolean "))
        .unwrap_or_else(|| match got {
            "sequence" => "a list".into(),
            "map" => "an object".into(),
            "unit value" | "null" => "null".into(),
            other => other.into(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_become_field_names() {
        assert_eq!(
            in_api_words("«max_length» 101: at most 100 moves; with «no_reflection»"),
            "max_length 101: at most 100 moves; with no_reflection"
        );
        assert_eq!(
            in_api_words("build them with `godsearch pdb build 5x5 --pdb 6-6-6-6`"),
            "build them with `godsearch pdb build 5x5 --pdb 6-6-6-6`"
        );
    }

    #[test]
    fn serde_refusals_read_as_plain_words() {
        let serde =
            |why: &str| format!("Failed to deserialize the JSON body into the target type: {why}");
        assert_eq!(
            plain_json_error(&serde(
                "max_depth: invalid type: string \"abc\", expected u32 at line 1 column 80"
            )),
            "max_depth takes a whole number from 0 to 4294967295, not the text \"abc\""
        );
        assert_eq!(
            plain_json_error(&serde(
                "max_depth: invalid value: integer `-1`, expected u32 at line 1 column 17"
            )),
            "max_depth takes a whole number from 0 to 4294967295, not -1"
        );
        assert_eq!(
            plain_json_error(&serde(
                "timeout: invalid type: boolean `true`, expected f64 at line 1 column 9"
            )),
            "timeout takes a number, not true"
        );
        assert_eq!(
            plain_json_error(&serde("missing field `position` at line 1 column 20")),
            "missing field `position`"
        );
        assert_eq!(
            plain_json_error(
                "Failed to parse the request body as JSON: expected value at line 1 column 1"
            ),
            "the request body is not valid JSON: expected value at line 1 column 1"
        );
    }
}
