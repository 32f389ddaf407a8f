//! Puzzles from definition files: cubing.js KPuzzle JSON ([`kpuzzle`]) and twsearch's `.tws`
//! ([`tws`]) read into one [`Definition`] (orbits, a solved pattern, named moves), and a
//! definition over chosen generators as an [`OrbitSpace`]: every position a dense rank, moves
//! as coordinate tables, the canonical-sequence automaton from which moves commute
//! ([`automaton`]), the exact group order and uniform random elements by Schreier-Sims
//! ([`group`]), pattern databases over projections of the puzzle ([`projection`]), and the
//! symmetries found from the moves ([`symmetry`]) with the space of classes under them
//! ([`classes`]).

pub mod alg;
mod arrange;
pub mod automaton;
pub mod classes;
mod component;
pub mod definition;
pub mod group;
pub mod kpuzzle;
pub mod pieces;
pub mod projection;
mod relations;
pub mod slots;
pub mod space;
pub mod subset;
pub mod symmetry;
pub mod tws;

pub use definition::{
    Definition, DefinitionError, NamedMove, OrbitDef, OrbitPattern, OrbitTransformation, Pattern,
    Transformation,
};
pub use space::{OrbitSpace, SpaceError, SpaceMove};

/// The format of a definition file, from its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// cubing.js KPuzzle JSON (`.json`, `.kpuzzle.json`).
    KPuzzle,
    /// twsearch's text format (`.tws`).
    Tws,
}

impl Format {
    /// The format a file name says, if it says one.
    pub fn of_name(name: &str) -> Option<Format> {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".json") {
            Some(Format::KPuzzle)
        } else if lower.ends_with(".tws") {
            Some(Format::Tws)
        } else {
            None
        }
    }

    /// Reads a definition in this format.
    pub fn read(self, text: &str) -> Result<Definition, DefinitionError> {
        match self {
            Format::KPuzzle => kpuzzle::read_definition(text),
            Format::Tws => tws::read_definition(text),
        }
    }
}

/// A shipped definition file (`data/definitions/NAME`), read, for the unit tests.
#[cfg(test)]
pub(crate) fn shipped_for_tests(name: &str) -> Definition {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/definitions/");
    let text = std::fs::read_to_string(format!("{path}{name}")).expect("a shipped file");
    Format::of_name(name)
        .expect("a format")
        .read(&text)
        .expect("it reads")
}
