//! Algorithms as cubers paste them: face turns, wide turns (`Rw`, `r`), slices (`M E S`),
//! whole-cube rotations (`x y z`), groups with repeats (`(R U R' U')3`), commutators
//! (`[R, U]` = `R U R' U'`), conjugates (`[F: R U R']` = `F R U R' F'`), a `'` or a count after
//! any of them, and `//` comments to the end of a line.
//!
//! **Geometry, not tables.** Every turn is a quarter-turn rotation of some layers about an axis
//! (a face turn: the outer layer; a wide turn: outer and middle; a slice: the middle; a
//! rotation: all three), so one function moves the 54 stickers of [`facelet`]
//! for all of them, from each sticker's place and facing in space. The face turns it makes
//! are tested to equal the cubie layer's.
//!
//! **Centres.** Slices and rotations move the centres. A sequence is replayed on the stickers
//! as written (each letter names the face that is at that side *now*, as a cuber reads it) and
//! the cube is then read back by its centres ([`facelet::parse`]): the
//! position is the one the cube shows **as held after the sequence**, and a solution of it is
//! written in face turns of that orientation. `x R` and `R x` are therefore both "R turned" as
//! held; `U x` is "B turned".
//!
//! **Metrics** ([`TurnMetric`]): in HTM and QTM a wide turn is one face turn (`Rw` = `L x`),
//! a slice two (`M` = `R L' x'`), a rotation none; STM counts any one layer's turn (slice or
//! face) as one; ETM counts every written turn, rotations too.

use super::cubie::{CubieCube, FACES};
use super::facelet::{self, FACELETS};
use super::notation::{Move, NotationError};
use super::CubeShape;
use std::fmt;
use std::str::FromStr;

/// What a turn turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TurnKind {
    /// The outer layer of a face (`R`).
    Face(u8),
    /// The outer and middle layers on a face's side (`Rw`, `r`).
    Wide(u8),
    /// The middle layer: `M` turns as `L`, `E` as `D`, `S` as `F`.
    Slice(Slice),
    /// The whole cube: `x` turns as `R`, `y` as `U`, `z` as `F`.
    Rotation(Axis),
}

/// The three middle layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slice {
    /// Between R and L, turned as L.
    M,
    /// Between U and D, turned as D.
    E,
    /// Between F and B, turned as F.
    S,
}

/// The three whole-cube rotations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Axis {
    /// Turned as R.
    X,
    /// Turned as U.
    Y,
    /// Turned as F.
    Z,
}

/// Face indices (into [`FACES`]) of U, R, F, D and L.
const U: u8 = 0;
const R: u8 = 1;
const F: u8 = 2;
const D: u8 = 3;
const L: u8 = 4;

impl Slice {
    /// The face whose clockwise turn this slice's clockwise turn follows.
    fn follows(self) -> u8 {
        match self {
            Slice::M => L,
            Slice::E => D,
            Slice::S => F,
        }
    }

    fn letter(self) -> char {
        match self {
            Slice::M => 'M',
            Slice::E => 'E',
            Slice::S => 'S',
        }
    }
}

impl Axis {
    /// The face whose clockwise turn this rotation follows.
    fn follows(self) -> u8 {
        match self {
            Axis::X => R,
            Axis::Y => U,
            Axis::Z => F,
        }
    }

    fn letter(self) -> char {
        match self {
            Axis::X => 'x',
            Axis::Y => 'y',
            Axis::Z => 'z',
        }
    }
}

/// One written turn: `turns` clockwise quarter turns (1, 2 or 3) of some layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Turn {
    /// The layers turned.
    pub kind: TurnKind,
    /// Clockwise quarter turns, seen from the face the turn follows: 1, 2 or 3 (`'`).
    pub turns: u8,
}

impl Turn {
    /// The turn that undoes this one.
    pub fn inverse(self) -> Turn {
        Turn {
            kind: self.kind,
            turns: QUARTERS - self.turns,
        }
    }

    /// The face turn this is, if it is one.
    pub fn face_turn(self) -> Option<Move> {
        match self.kind {
            TurnKind::Face(face) => Some(Move {
                face,
                turns: self.turns,
            }),
            _ => None,
        }
    }

    /// The face the turn follows and the layers it turns, as depths along that face's axis
    /// (1 the face's own layer, 0 the middle, -1 the opposite face's).
    fn layers(self) -> (u8, &'static [i8]) {
        match self.kind {
            TurnKind::Face(f) => (f, &[1]),
            TurnKind::Wide(f) => (f, &[1, 0]),
            TurnKind::Slice(s) => (s.follows(), &[0]),
            TurnKind::Rotation(a) => (a.follows(), &[1, 0, -1]),
        }
    }
}

/// A face turn as a written turn. A middle layer's [`Move`] (centres fixed) is not one turn as
/// written: [`held_form`] writes sequences of those.
impl From<Move> for Turn {
    fn from(m: Move) -> Self {
        debug_assert!(
            !m.is_slice(),
            "a middle layer's move is written by held_form"
        );
        Turn {
            kind: TurnKind::Face(m.face),
            turns: m.turns,
        }
    }
}

/// Quarter turns in a whole turn.
const QUARTERS: u8 = 4;

/// How a sequence's turns are written ([`Algorithm::format`]). Face turns and rotations are
/// written alike in all three (`R U2 F'`, `x`); they differ in wide turns and slices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Notation {
    /// Singmaster's letters, wide turns with a `w` (`Rw`), as most cubing sites print them.
    #[default]
    Singmaster,
    /// SiGN (cubing.js, twsearch): wide turns as lowercase letters (`r`).
    Sign,
    /// The WCA regulations (article 12a): wide turns with a `w` (`Rw`); slices, which 12a
    /// does not list, as the wide turn and face turn they are (`M` is `Lw L'`).
    Wca,
}

impl Notation {
    /// Every notation, with the name the command line takes.
    pub const ALL: [(Notation, &'static str); 3] = [
        (Notation::Singmaster, "singmaster"),
        (Notation::Sign, "sign"),
        (Notation::Wca, "wca"),
    ];
}

impl FromStr for Notation {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Notation::ALL
            .iter()
            .find(|(_, name)| name.eq_ignore_ascii_case(s))
            .map(|&(n, _)| n)
            .ok_or_else(|| format!("unknown notation '{s}': expected singmaster, sign or wca"))
    }
}

/// How the length of a written sequence is counted (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TurnMetric {
    /// Half-turn (face-turn) metric.
    Htm,
    /// Quarter-turn metric.
    Qtm,
    /// Slice-turn metric: a slice is one turn.
    Stm,
    /// Execution-turn metric: every written turn, rotations included.
    Etm,
}

impl TurnMetric {
    /// Every metric, in the order reports list them.
    pub const ALL: [TurnMetric; 4] = [
        TurnMetric::Htm,
        TurnMetric::Qtm,
        TurnMetric::Stm,
        TurnMetric::Etm,
    ];

    /// The metric's name as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            TurnMetric::Htm => "htm",
            TurnMetric::Qtm => "qtm",
            TurnMetric::Stm => "stm",
            TurnMetric::Etm => "etm",
        }
    }

    /// What one turn costs in this metric (exact).
    pub fn cost(self, t: Turn) -> usize {
        let quarter_cost = |quarters: usize| match self {
            TurnMetric::Qtm if t.turns == 2 => 2 * quarters,
            TurnMetric::Qtm => quarters,
            _ => 1,
        };
        match (t.kind, self) {
            (TurnKind::Rotation(_), TurnMetric::Etm) => 1,
            (TurnKind::Rotation(_), _) => 0,
            (TurnKind::Slice(_), TurnMetric::Htm | TurnMetric::Qtm) => 2 * quarter_cost(1),
            _ => quarter_cost(1),
        }
    }

    /// The length of `turns` in this metric.
    pub fn length(self, turns: &[Turn]) -> usize {
        turns.iter().map(|&t| self.cost(t)).sum()
    }
}

impl FromStr for TurnMetric {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "htm" | "ftm" | "half" => Ok(TurnMetric::Htm),
            "qtm" | "quarter" => Ok(TurnMetric::Qtm),
            "stm" | "slice" => Ok(TurnMetric::Stm),
            "etm" | "execution" => Ok(TurnMetric::Etm),
            _ => Err(NotationError::Metric(s.to_string())),
        }
    }
}

impl From<super::Metric> for TurnMetric {
    fn from(m: super::Metric) -> Self {
        match m {
            super::Metric::Htm => TurnMetric::Htm,
            super::Metric::Qtm => TurnMetric::Qtm,
            super::Metric::Stm => TurnMetric::Stm,
        }
    }
}

/// A parsed algorithm: its turns with every group, repeat, commutator and conjugate expanded.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Algorithm {
    /// The turns in the order they are made.
    pub turns: Vec<Turn>,
}

/// The most turns an algorithm may expand to: repeats nest, so `((R U)999)999` is refused
/// rather than allowed to fill memory.
pub const MAX_TURNS: usize = 1_000_000;

impl Algorithm {
    /// Reads an algorithm (see the module docs); errors name the token and its line and column.
    pub fn parse(text: &str) -> Result<Algorithm, NotationError> {
        let mut parser = Parser::new(text);
        let turns = parser.sequence(Context::Top)?;
        Ok(Algorithm { turns })
    }

    /// The sequence of face turns it is, or `None` if a turn moves the centres.
    pub fn face_turns(&self) -> Option<Vec<Move>> {
        self.turns.iter().map(|t| t.face_turn()).collect()
    }

    /// The inverse sequence.
    pub fn inverse(&self) -> Algorithm {
        Algorithm {
            turns: invert(&self.turns),
        }
    }

    /// Its length in `metric`.
    pub fn length(&self, metric: TurnMetric) -> usize {
        metric.length(&self.turns)
    }

    /// The turns written in `notation`, separated by spaces.
    pub fn format(&self, notation: Notation) -> String {
        self.turns
            .iter()
            .map(|t| format_turn(*t, notation))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The same turns for `cube`: on a cube without middle layers (the 2x2x2), whose layers a
    /// wide turn turns together, a wide turn is a rotation, and a slice is refused.
    pub fn for_cube(&self, cube: CubeShape) -> Result<Algorithm, NotationError> {
        if cube.has_middle_layers() {
            return Ok(self.clone());
        }
        let turns = self
            .turns
            .iter()
            .map(|&t| match t.kind {
                TurnKind::Slice(s) => Err(NotationError::NoSlice(s.letter())),
                TurnKind::Wide(f) => Ok(rotation_of_wide(f, t.turns)),
                _ => Ok(t),
            })
            .collect::<Result<_, _>>()?;
        Ok(Algorithm { turns })
    }

    /// The position `start` shows, as held, after these turns on `cube` (see the module docs
    /// on centres). Exact: the stickers are moved and read back by their centres.
    pub fn apply_held(
        &self,
        cube: CubeShape,
        start: &CubieCube,
    ) -> Result<CubieCube, NotationError> {
        let stickers = self.for_cube(cube)?.apply_stickers(&Stickers::of(start));
        Ok(stickers.held(cube))
    }

    /// The stickers after these turns.
    pub fn apply_stickers(&self, start: &Stickers) -> Stickers {
        let mut s = *start;
        for &t in &self.turns {
            s = s.turned(t);
        }
        s
    }
}

/// Reads a sequence of face turns, written as [`Algorithm::parse`] reads algorithms
/// (whitespace optional, `RU R'U2`; groups, commutators, conjugates and comments expanded).
/// Wide turns, slices and rotations are refused here, since they move the centres: read those
/// with [`Algorithm`]. Consecutive turns of one face are kept as written.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, NotationError> {
    let algorithm = Algorithm::parse(text)?;
    algorithm
        .turns
        .iter()
        .enumerate()
        .map(|(k, t)| {
            t.face_turn().ok_or_else(|| NotationError::NotFaceTurn {
                turn: Algorithm { turns: vec![*t] }.to_string(),
                index: k + 1,
            })
        })
        .collect()
}

/// A solution found with the centres fixed ([`Move`]s, middle layers among them), written as
/// it is turned by hand: a face turn as it is, and a middle layer's turn (the two faces beside
/// it turned against each other) as its slice `M E S`. A slice turns the centres with it, so
/// every later turn is renamed for the face now at that side.
///
/// Exact: read as held ([`Algorithm::apply_held`]), the text leaves the cube the moves leave,
/// seen from the orientation the slices turned it to (so it solves what they solve), and it has
/// one turn a move, no rotation written.
pub fn held_form(moves: &[Move]) -> Algorithm {
    // side[f]: the side (a face index) where the face the search calls `f` is now.
    let mut side: [u8; 6] = std::array::from_fn(|f| f as u8);
    let mut turns = Vec::with_capacity(moves.len());
    for &m in moves {
        let Some((follows, _)) = m.slice_faces() else {
            turns.push(Turn {
                kind: TurnKind::Face(side[m.face as usize]),
                turns: m.turns,
            });
            continue;
        };
        // The middle layer turns as its face `follows` would, `m.turns` quarter turns, and
        // the whole cube turns that way with it once the centres are taken as fixed.
        let at = side[follows.face as usize];
        let (slice, same_way) = match at {
            L => (Slice::M, true),
            R => (Slice::M, false),
            D => (Slice::E, true),
            U => (Slice::E, false),
            F => (Slice::S, true),
            _ => (Slice::S, false),
        };
        turns.push(Turn {
            kind: TurnKind::Slice(slice),
            turns: if same_way {
                m.turns
            } else {
                QUARTERS - m.turns
            },
        });
        let axis = FACE_FRAMES[at as usize].0;
        for s in side.iter_mut() {
            let mut normal = FACE_FRAMES[*s as usize].0;
            for _ in 0..m.turns {
                normal = quarter_turn(axis, normal);
            }
            *s = face_facing(normal) as u8;
        }
    }
    Algorithm { turns }
}

/// A wide turn of the 2x2x2 as the rotation it is: `Rw` is `x`, `Lw` is `x'`, and so on.
fn rotation_of_wide(face: u8, turns: u8) -> Turn {
    let (axis, same_way) = match face {
        U => (Axis::Y, true),
        R => (Axis::X, true),
        F => (Axis::Z, true),
        D => (Axis::Y, false),
        L => (Axis::X, false),
        _ => (Axis::Z, false),
    };
    Turn {
        kind: TurnKind::Rotation(axis),
        turns: if same_way { turns } else { QUARTERS - turns },
    }
}

fn invert(turns: &[Turn]) -> Vec<Turn> {
    turns.iter().rev().map(|t| t.inverse()).collect()
}

fn format_turn(t: Turn, notation: Notation) -> String {
    let suffix = match t.turns {
        1 => "",
        2 => "2",
        _ => "'",
    };
    if let (TurnKind::Slice(slice), Notation::Wca) = (t.kind, notation) {
        let face = slice.follows();
        let wide = Turn {
            kind: TurnKind::Wide(face),
            turns: t.turns,
        };
        let undo_face = Turn {
            kind: TurnKind::Face(face),
            turns: t.turns,
        }
        .inverse();
        return format!(
            "{} {}",
            format_turn(wide, notation),
            format_turn(undo_face, notation)
        );
    }
    let letters = match t.kind {
        TurnKind::Face(f) => FACES[f as usize].to_string(),
        TurnKind::Wide(f) => match notation {
            Notation::Sign => FACES[f as usize].to_ascii_lowercase().to_string(),
            Notation::Singmaster | Notation::Wca => format!("{}w", FACES[f as usize]),
        },
        TurnKind::Slice(s) => s.letter().to_string(),
        TurnKind::Rotation(a) => a.letter().to_string(),
    };
    format!("{letters}{suffix}")
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.format(Notation::default()))
    }
}

/// The 54 stickers of a 3x3x3 (in [`facelet`]'s order), each the face letter it was coloured
/// with; a 2x2x2 is its corner stickers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stickers(pub [u8; FACELETS]);

/// Stickers on a face of the 3x3x3.
const FACE_STICKERS: usize = 9;

type Vector = [i8; 3];

/// Each face's outward normal, and the directions of its rows' top and its columns' right as
/// seen from outside (U's top is at the back, D's at the front, the side faces' at U).
const FACE_FRAMES: [(Vector, Vector, Vector); 6] = [
    ([0, 1, 0], [0, 0, -1], [1, 0, 0]),
    ([1, 0, 0], [0, 1, 0], [0, 0, -1]),
    ([0, 0, 1], [0, 1, 0], [1, 0, 0]),
    ([0, -1, 0], [0, 0, 1], [1, 0, 0]),
    ([-1, 0, 0], [0, 1, 0], [0, 0, 1]),
    ([0, 0, -1], [0, 1, 0], [-1, 0, 0]),
];

fn dot(a: Vector, b: Vector) -> i8 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: Vector, b: Vector) -> Vector {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `v` turned a quarter turn clockwise about `axis`, seen from the `axis` side:
/// `a (a·v) - a × v`.
fn quarter_turn(axis: Vector, v: Vector) -> Vector {
    let along = dot(axis, v);
    let c = cross(axis, v);
    [
        axis[0] * along - c[0],
        axis[1] * along - c[1],
        axis[2] * along - c[2],
    ]
}

/// Where sticker `i` is in space: its cubie's place and the way it faces.
fn sticker_place(i: usize) -> (Vector, Vector) {
    let (normal, up, right) = FACE_FRAMES[i / FACE_STICKERS];
    let (row, col) = ((i % FACE_STICKERS / 3) as i8, (i % 3) as i8);
    let place = [0, 1, 2].map(|k| normal[k] + up[k] * (1 - row) + right[k] * (col - 1));
    (place, normal)
}

/// The face whose outward normal is `normal`.
fn face_facing(normal: Vector) -> usize {
    FACE_FRAMES
        .iter()
        .position(|&(n, _, _)| n == normal)
        .expect("a quarter turn keeps a face's normal a face's normal")
}

/// The sticker at `place` facing `normal`.
fn sticker_at(place: Vector, normal: Vector) -> usize {
    let face = face_facing(normal);
    let (_, up, right) = FACE_FRAMES[face];
    let on_face = [0, 1, 2].map(|k| place[k] - normal[k]);
    let row = 1 - dot(on_face, up);
    let col = 1 + dot(on_face, right);
    face * FACE_STICKERS + (row * 3 + col) as usize
}

impl Stickers {
    /// The solved cube's stickers.
    pub const SOLVED: Stickers = {
        let mut s = [0u8; FACELETS];
        let mut i = 0;
        while i < FACELETS {
            s[i] = FACES[i / FACE_STICKERS] as u8;
            i += 1;
        }
        Stickers(s)
    };

    /// The stickers of a cube held with U up and F in front.
    pub fn of(cube: &CubieCube) -> Stickers {
        let mut s = [0u8; FACELETS];
        for (i, c) in facelet::format(cube).bytes().enumerate() {
            s[i] = c;
        }
        Stickers(s)
    }

    /// The stickers after one turn.
    pub fn turned(&self, t: Turn) -> Stickers {
        let (face, depths) = t.layers();
        let axis = FACE_FRAMES[face as usize].0;
        let mut out = *self;
        for i in 0..FACELETS {
            let (mut place, mut normal) = sticker_place(i);
            if !depths.contains(&dot(place, axis)) {
                continue;
            }
            for _ in 0..t.turns {
                place = quarter_turn(axis, place);
                normal = quarter_turn(axis, normal);
            }
            out.0[sticker_at(place, normal)] = self.0[i];
        }
        out
    }

    /// Whether every face of `cube` shows one colour (solved, in whatever orientation).
    pub fn solved(&self, cube: CubeShape) -> bool {
        self.0.chunks(FACE_STICKERS).all(|face| {
            let mut shown = cube.face_places().iter().map(|&k| face[k]);
            let first = shown.next();
            shown.all(|s| Some(s) == first)
        })
    }

    /// The stickers as a facelet string of `cube` (the 24 corner stickers of the 2x2x2).
    pub fn facelets(&self, cube: CubeShape) -> String {
        cube.sticker_places().map(|i| self.0[i] as char).collect()
    }

    /// The position these stickers show on `cube`, read as its facelet strings are (the
    /// 3x3x3 by its centres, the 2x2x2 by its DBL corner).
    pub fn held(&self, cube: CubeShape) -> CubieCube {
        cube.read_facelets(&self.facelets(cube))
            .expect("turning a real cube's layers gives a real cube")
    }
}

/// Where a sequence being read ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Context {
    /// The whole text.
    Top,
    /// Inside `( )`.
    Group,
    /// The first part of `[A, B]` or `[A: B]`.
    BracketFirst,
    /// The second part.
    BracketSecond,
}

/// Brackets nested deeper than this are refused (each level is a call of the parser, and a
/// text of a million `(` must get an error, not exhaust the stack).
pub const MAX_NESTING: usize = 64;

struct Parser {
    chars: Vec<char>,
    at: usize,
    /// Brackets open around the current position.
    depth: usize,
}

impl Parser {
    fn new(text: &str) -> Self {
        Parser {
            chars: text.chars().collect(),
            at: 0,
            depth: 0,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    /// Line and column (1-based) of character `at`.
    fn place(&self, at: usize) -> (usize, usize) {
        let before = &self.chars[..at.min(self.chars.len())];
        let line = 1 + before.iter().filter(|&&c| c == '\n').count();
        let column = 1 + before.iter().rev().take_while(|&&c| c != '\n').count();
        (line, column)
    }

    fn unknown(&self, at: usize) -> NotationError {
        let token: String = self.chars[at..]
            .iter()
            .take_while(|c| !c.is_whitespace())
            .collect();
        let (line, column) = self.place(at);
        NotationError::UnknownMove {
            found: godsearch_core::excerpt(&token),
            line,
            column,
        }
    }

    fn structure(&self, at: usize, problem: &'static str) -> NotationError {
        let (line, column) = self.place(at);
        NotationError::Structure {
            problem,
            line,
            column,
        }
    }

    /// Skips whitespace, `//` comments, and commas that separate nothing (between turns, not
    /// in a bracket's second part, where a comma would make a third part).
    fn skip_blank(&mut self, context: Context) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() || (c == ',' && matches!(context, Context::Top | Context::Group)) {
                self.at += 1;
            } else if c == '/' && self.chars.get(self.at + 1) == Some(&'/') {
                while self.peek().is_some_and(|c| c != '\n') {
                    self.at += 1;
                }
            } else {
                break;
            }
        }
    }

    fn sequence(&mut self, context: Context) -> Result<Vec<Turn>, NotationError> {
        if context != Context::Top {
            self.depth += 1;
            if self.depth > MAX_NESTING {
                let (line, column) = self.place(self.at);
                return Err(NotationError::TooDeep {
                    limit: MAX_NESTING,
                    line,
                    column,
                });
            }
        }
        let read = self.sequence_inside(context);
        if context != Context::Top {
            self.depth -= 1;
        }
        read
    }

    fn sequence_inside(&mut self, context: Context) -> Result<Vec<Turn>, NotationError> {
        let mut turns_out: Vec<Turn> = Vec::new();
        loop {
            self.skip_blank(context);
            let start = self.at;
            let Some(c) = self.peek() else {
                return match context {
                    Context::Top => Ok(turns_out),
                    _ => Err(self.structure(start, "a bracket is not closed")),
                };
            };
            let closes = match context {
                Context::Top => false,
                Context::Group => c == ')',
                Context::BracketFirst => matches!(c, ',' | ':' | ']'),
                Context::BracketSecond => c == ']',
            };
            if closes {
                return Ok(turns_out);
            }
            let part = match c {
                '(' => {
                    self.at += 1;
                    let inner = self.sequence(Context::Group)?;
                    self.at += 1;
                    inner
                }
                '[' => self.bracket()?,
                ')' | ']' | ':' => return Err(self.structure(start, "nothing opened this")),
                ',' => {
                    return Err(self.structure(
                        start,
                        "a commutator or conjugate has two parts: [A, B] or [A: B]",
                    ))
                }
                _ => {
                    // A single turn's count is its quarter turns: `R2` is one half turn.
                    let kind = self.turn()?;
                    let (count, inverse) = self.suffix()?;
                    let quarters = (count % usize::from(QUARTERS)) as u8;
                    let turns = if inverse {
                        (QUARTERS - quarters) % QUARTERS
                    } else {
                        quarters
                    };
                    if turns > 0 {
                        if turns_out.len() >= MAX_TURNS {
                            return Err(NotationError::TooLong(MAX_TURNS));
                        }
                        turns_out.push(Turn { kind, turns });
                    }
                    continue;
                }
            };
            let (count, inverse) = self.suffix()?;
            let part = if inverse { invert(&part) } else { part };
            if turns_out.len() + part.len().saturating_mul(count) > MAX_TURNS {
                return Err(NotationError::TooLong(MAX_TURNS));
            }
            for _ in 0..count {
                turns_out.extend_from_slice(&part);
            }
        }
    }

    /// `[A, B]` as `A B A' B'`, `[A: B]` as `A B A'`.
    fn bracket(&mut self) -> Result<Vec<Turn>, NotationError> {
        let open = self.at;
        self.at += 1;
        let a = self.sequence(Context::BracketFirst)?;
        let separator = self.peek();
        if separator == Some(']') {
            return Err(self.structure(
                open,
                "a bracket needs a comma ([A, B], a commutator) or a colon ([A: B], a conjugate)",
            ));
        }
        self.at += 1;
        let b = self.sequence(Context::BracketSecond)?;
        self.at += 1;
        let mut out = a.clone();
        out.extend_from_slice(&b);
        out.extend(invert(&a));
        if separator == Some(',') {
            out.extend(invert(&b));
        }
        Ok(out)
    }

    /// One turn's letters, `'` and count excluded.
    fn turn(&mut self) -> Result<TurnKind, NotationError> {
        let at = self.at;
        let c = self.peek().expect("called on a character");
        let kind = if let Some(face) = FACES.iter().position(|&f| f == c) {
            if self.chars.get(at + 1) == Some(&'w') {
                self.at += 1;
                TurnKind::Wide(face as u8)
            } else {
                TurnKind::Face(face as u8)
            }
        } else if let Some(face) = FACES.iter().position(|&f| f.to_ascii_lowercase() == c) {
            TurnKind::Wide(face as u8)
        } else {
            match c {
                'M' => TurnKind::Slice(Slice::M),
                'E' => TurnKind::Slice(Slice::E),
                'S' => TurnKind::Slice(Slice::S),
                'x' => TurnKind::Rotation(Axis::X),
                'y' => TurnKind::Rotation(Axis::Y),
                'z' => TurnKind::Rotation(Axis::Z),
                _ => return Err(self.unknown(at)),
            }
        };
        self.at += 1;
        Ok(kind)
    }

    /// A count and a `'` after a turn or a group: how often to repeat it, and whether to invert.
    fn suffix(&mut self) -> Result<(usize, bool), NotationError> {
        let at = self.at;
        let mut count: Option<usize> = None;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            let so_far = count.unwrap_or(0);
            count = Some(
                so_far
                    .checked_mul(10)
                    .and_then(|n| n.checked_add(d as usize))
                    .filter(|&n| n <= MAX_TURNS)
                    .ok_or(NotationError::TooLong(MAX_TURNS))?,
            );
            self.at += 1;
        }
        let inverse = matches!(self.peek(), Some('\'' | '’'));
        if inverse {
            self.at += 1;
        }
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.unknown(at));
        }
        Ok((count.unwrap_or(1), inverse))
    }
}

#[cfg(test)]
#[path = "algorithm_tests.rs"]
mod tests;
