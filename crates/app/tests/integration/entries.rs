//! A puzzle's catalog entry says what a page draws and what its requests take, and the
//! options it names are true: every solve option the entry leaves out is refused by name,
//! never ignored, so a front end that offers only the entry's options offers nothing the
//! puzzle would drop.

use godsearch_app::registry;
use godsearch_app::request::{catalog, SolveRequest, View, SOLVE_OPTIONS};
use serde_json::{json, Value};

/// The puzzles the catalog lists, and names it does not list but requests take.
fn names() -> Vec<String> {
    let mut names: Vec<String> = catalog().puzzles.into_iter().map(|p| p.name).collect();
    names.extend(["2x3", "5x5", "pancake-12"].map(String::from));
    names
}

/// A value of `option` that some puzzle takes, so that a refusal is for the option itself.
fn value_of(option: &str) -> Value {
    match option {
        "generators" => json!("R"),
        "goal" => json!("1,2,3,4,5,0"),
        "algorithm" => json!("ida"),
        "heuristic" => json!("manhattan"),
        "pdb" => json!("5-5-5"),
        "stages" => json!("2"),
        "effort" => json!(2),
        "depth" => json!(3),
        "metric" => json!("htm"),
        "max_length" => json!(20),
        "count" => json!(2),
        "table_size" => json!("small"),
        "known_solution" => json!("R"),
        "timeout" | "probe" => json!(1.0),
        "resume_from" => json!(3),
        "resume_subtrees" => json!("14.6.0.1.2:0"),
        "resume_way" => json!({"pdb": "5-5-5", "reverse": false}),
        "no_reflection" | "reverse" | "both_ways" | "facelets" | "moves" | "optimal" | "all" => {
            json!(true)
        }
        other => panic!("no value for {other}: add one"),
    }
}

/// The options are exactly the request's fields: its JSON fields, and the file the command
/// line names.
#[test]
fn the_options_are_the_requests_fields() {
    let schema = serde_json::to_value(schemars::schema_for!(SolveRequest)).unwrap();
    let mut fields: Vec<&str> = schema["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .filter(|field| !["puzzle", "position"].contains(field))
        .chain(["table"])
        .collect();
    fields.sort();
    let mut options = SOLVE_OPTIONS.to_vec();
    options.sort();
    assert_eq!(fields, options);
}

#[test]
fn every_option_an_entry_leaves_out_is_refused_by_name() {
    for name in names() {
        let puzzle = registry::open(&name, true).unwrap();
        let entry = puzzle.entry();
        for option in &entry.options {
            assert!(SOLVE_OPTIONS.contains(option), "{name}: {option}");
        }
        let position = match entry.view {
            View::Cube { .. } => "R U".to_string(),
            View::Orbits => entry.moves[0].clone(),
            _ => entry.goal.clone(),
        };
        let plain = json!({"puzzle": name, "position": position});
        let request: SolveRequest = serde_json::from_value(plain.clone()).unwrap();
        puzzle
            .check_solve(&request)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for option in SOLVE_OPTIONS
            .iter()
            .filter(|option| !entry.options.contains(option))
        {
            let mut body = plain.clone();
            let request: SolveRequest = match *option {
                // A file the command line names: no JSON field (a server reads no files).
                "table" => {
                    let mut request: SolveRequest = serde_json::from_value(body).unwrap();
                    request.table = Some("no-such-table.bin".into());
                    request
                }
                _ => {
                    body[*option] = value_of(option);
                    serde_json::from_value(body).unwrap()
                }
            };
            let refused = puzzle
                .check_solve(&request)
                .err()
                .unwrap_or_else(|| panic!("{name} took «{option}», which its entry leaves out"));
            assert!(
                refused.is_bad_input() && refused.to_string().contains(&format!("«{option}»")),
                "{name}, «{option}»: {refused}"
            );
        }
    }
}

#[test]
fn an_entry_says_what_a_page_draws_and_offers() {
    let entry = |name: &str| registry::open(name, false).unwrap().entry();
    assert_eq!(
        entry("15-puzzle").view,
        View::Board {
            width: 4,
            height: 4
        }
    );
    assert_eq!(
        entry("3x5").view,
        View::Board {
            width: 3,
            height: 5
        }
    );
    assert_eq!(entry("2x2x2").view, View::Cube { order: 2 });
    assert_eq!(entry("3x3x3").view, View::Cube { order: 3 });
    assert_eq!(entry("pancake-9").view, View::Stack);
    assert_eq!(entry("skewb").view, View::Orbits);
    // The heuristics a board takes are every one there is; the rest choose their own, and
    // every entry says in words what they choose.
    assert_eq!(entry("4x4").heuristics, catalog().heuristics);
    assert!(entry("4x4").default_heuristic.contains("7-8"));
    assert!(entry("3x3x3").heuristics.is_empty());
    for name in names() {
        assert!(!entry(&name).default_heuristic.is_empty(), "{name}");
    }
    assert_eq!(entry("3x3x3").metrics, catalog().metrics);
    assert_eq!(entry("skewb").metrics, ["htm", "qtm"]);
    assert!(entry("pancake-9").metrics.is_empty());
}
