//! The puzzle definitions godsearch ships (`data/definitions`, written from each puzzle's
//! geometry by `make_definitions.py`), built into the library so that every front end offers
//! them by name: `godsearch bfs skewb`, the page's puzzle menu, `godsearch.solve("pyraminx",
//! ...)`, and a server that reads no files its clients name.

use super::file::{self, DefinitionPuzzle};
use crate::AppResult;

/// One shipped definition.
#[derive(Debug, Clone, Copy)]
pub struct ShippedDefinition {
    /// The name requests use (lower case); the built-in cubes' files carry `-kpuzzle`, so that
    /// `2x2x2` and `3x3x3` stay the built-in solvers.
    pub name: &'static str,
    /// The file in `data/definitions` (its ending says its format).
    pub file: &'static str,
    /// The file's text.
    pub text: &'static str,
}

/// Every shipped definition, in the order menus list them.
pub const SHIPPED: &[ShippedDefinition] = &[
    ShippedDefinition {
        name: "pyraminx",
        file: "pyraminx.kpuzzle.json",
        text: include_str!("../../../data/definitions/pyraminx.kpuzzle.json"),
    },
    ShippedDefinition {
        name: "pyraminx-no-tips",
        file: "pyraminx-no-tips.tws",
        text: include_str!("../../../data/definitions/pyraminx-no-tips.tws"),
    },
    ShippedDefinition {
        name: "skewb",
        file: "skewb.kpuzzle.json",
        text: include_str!("../../../data/definitions/skewb.kpuzzle.json"),
    },
    ShippedDefinition {
        name: "megaminx",
        file: "megaminx.kpuzzle.json",
        text: include_str!("../../../data/definitions/megaminx.kpuzzle.json"),
    },
    ShippedDefinition {
        name: "4x4x4",
        file: "4x4x4.kpuzzle.json",
        text: include_str!("../../../data/definitions/4x4x4.kpuzzle.json"),
    },
    ShippedDefinition {
        name: "5x5x5",
        file: "5x5x5.kpuzzle.json",
        text: include_str!("../../../data/definitions/5x5x5.kpuzzle.json"),
    },
    ShippedDefinition {
        name: "masterball",
        file: "masterball.kpuzzle.json",
        text: include_str!("../../../data/definitions/masterball.kpuzzle.json"),
    },
    ShippedDefinition {
        name: "3x3x3-ru",
        file: "3x3x3-ru.tws",
        text: include_str!("../../../data/definitions/3x3x3-ru.tws"),
    },
    ShippedDefinition {
        name: "2x2x2-kpuzzle",
        file: "2x2x2.kpuzzle.json",
        text: include_str!("../../../data/definitions/2x2x2.kpuzzle.json"),
    },
    ShippedDefinition {
        name: "3x3x3-kpuzzle",
        file: "3x3x3.kpuzzle.json",
        text: include_str!("../../../data/definitions/3x3x3.kpuzzle.json"),
    },
];

/// The shipped definition named `name` (any case), if one is.
pub fn find(name: &str) -> Option<&'static ShippedDefinition> {
    SHIPPED.iter().find(|s| s.name.eq_ignore_ascii_case(name))
}

/// The shipped definition whose file is `file` (`skewb.kpuzzle.json`), if one is.
pub fn by_file(file: &str) -> Option<&'static ShippedDefinition> {
    SHIPPED.iter().find(|s| s.file == file)
}

impl ShippedDefinition {
    /// The definition read and checked, known by its name.
    pub fn open(&self) -> AppResult<DefinitionPuzzle> {
        let mut puzzle = file::parse(self.file, self.text)?;
        puzzle.file = self.name.to_string();
        Ok(puzzle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shipped definition reads, and each is found by its name in any case and by its
    /// file; names are unique and none is taken by a built-in puzzle (which would hide it).
    #[test]
    fn every_shipped_definition_opens_by_name() {
        for shipped in SHIPPED {
            let puzzle = find(&shipped.name.to_uppercase()).unwrap().open().unwrap();
            assert_eq!(puzzle.file, shipped.name);
            assert_eq!(by_file(shipped.file).unwrap().name, shipped.name);
            assert_eq!(SHIPPED.iter().filter(|s| s.name == shipped.name).count(), 1);
            let opened = crate::registry::open(shipped.name, false).unwrap();
            assert_eq!(opened.entry().name, shipped.name);
            assert_eq!(opened.entry().kind, "definition");
        }
    }
}
