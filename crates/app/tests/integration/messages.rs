//! No message below the front ends names a command-line flag (DESIGN.md): the crates under
//! them name an option as its request field between marks (`«max_length»`), which each front
//! end writes in its own words. This reads their sources (their unit tests left out) and lists
//! every string literal that names a flag (`--max-length`) outside backticks (a whole command to
//! run, quoted, may).

use std::path::{Path, PathBuf};

/// The crates under the front ends, by folder.
const BELOW_THE_FRONT_ENDS: [&str; 9] = [
    "app",
    "core",
    "enumerate",
    "orbit",
    "puzzles",
    "search",
    "subgoal",
    "tables",
    "twophase",
];

/// Flags that are not godsearch's options (cargo's, in a hint to rebuild).
const NOT_OURS: [&str; 1] = ["features"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literals of `source` (outside comments, raw strings left out: the JSON schema's).
fn string_literals(source: &str) -> Vec<String> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            'r' if matches!(chars.get(i + 1), Some('"') | Some('#'))
                && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')) =>
            {
                let hashes = chars[i + 1..].iter().take_while(|&&c| c == '#').count();
                let close: String = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                let rest: String = chars[i + 2 + hashes..].iter().collect();
                let end = rest.find(&close).map_or(rest.len(), |e| e + close.len());
                i += 2 + hashes + rest[..end].chars().count();
            }
            '\'' if chars.get(i + 2) == Some(&'\'') => i += 3,
            '\'' if chars.get(i + 1) == Some(&'\\') && chars.get(i + 3) == Some(&'\'') => i += 4,
            '"' => {
                let mut text = String::new();
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' {
                        text.push(chars[i]);
                        i += 1;
                    }
                    text.push(chars[i]);
                    i += 1;
                }
                out.push(text);
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// The flags `text` names outside backticks.
fn flags_named(text: &str) -> Vec<String> {
    let mut flags = Vec::new();
    for (k, part) in text.split('`').enumerate() {
        if k % 2 == 1 {
            continue;
        }
        let mut previous = ' ';
        for (at, c) in part.char_indices() {
            let rest = &part[at..];
            if rest.starts_with("--")
                && !(previous.is_alphanumeric() || previous == '-')
                && rest[2..].starts_with(|n: char| n.is_ascii_lowercase() || n == '{')
            {
                let name: String = rest[2..]
                    .chars()
                    .take_while(|n| n.is_ascii_alphanumeric() || "-_{}".contains(*n))
                    .collect();
                if !NOT_OURS.contains(&name.as_str()) {
                    flags.push(format!("--{name}"));
                }
            }
            previous = c;
        }
    }
    flags
}

#[test]
fn no_message_below_the_front_ends_names_a_flag() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    for name in BELOW_THE_FRONT_ENDS {
        let mut files = Vec::new();
        rust_files(&crates.join(name).join("src"), &mut files);
        assert!(!files.is_empty(), "no sources found for {name}");
        for file in files {
            let source = std::fs::read_to_string(&file).expect("a source file");
            // A module's unit tests (last in its file) may quote what a front end shows.
            let source = source
                .split("#[cfg(test)]\nmod tests")
                .next()
                .unwrap_or_default();
            for literal in string_literals(source) {
                for flag in flags_named(&literal) {
                    found.push(format!("{}: {flag} in \"{literal}\"", file.display()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "name these options as «field» (see godsearch_core::text::name_options):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_finds_flags_and_leaves_commands_and_marks() {
    let source = r#"
        // "--in-a-comment" is not a message
        let a = "leave out --table (see `godsearch bfs 4x4 --save FILE`)";
        let b = "«table» and «max_length»; a--b; --features distributed";
        let c = '"'; let d = "--goal"; let e = format!("--{name} {why}");
    "#;
    let literals = string_literals(source);
    let flags: Vec<String> = literals.iter().flat_map(|l| flags_named(l)).collect();
    assert_eq!(flags, ["--table", "--goal", "--{name}"], "{literals:?}");
}
