//! The symmetries of a definition puzzle, found from its moves alone: the rearrangements `S`
//! of its slots (each slot sent to a slot of its orbit, turned by a fixed twist) under which
//! the move set maps onto itself by conjugation, `S^-1 g S` a move for every move `g`. Such an
//! `S` maps every position `P` to `S^-1 P S`, a position at the same distance from solved (the
//! conjugate of each move of a solution is a move), so a search may keep one position of each
//! class. For the 3x3x3 they are its 48 rotations and reflections, for the 2x2x2 over
//! `U, F, R` the 6 that keep the corner those moves leave in place; a file need not name them.
//!
//! **How they are found.** A symmetry commutes with the moves as maps of (slot, orientation)
//! points: `S(g(x)) = g'(S(x))` where `g' = S^-1 g S`. So once the image of one slot is chosen,
//! and the move each generator becomes, the images of every slot the generators reach from it
//! follow. The search places the first slot not yet placed (on any slot of its orbit that some
//! move reaches), chooses what each generator becomes once a slot is placed (a move with as
//! many slots changed in each orbit and the same order, consistent with the slots placed),
//! follows the consequences, and drops a choice at the first contradiction (a slot sent to two
//! places, or two slots to one). Twisting every slot of a component alike (every edge flipped)
//! conjugates each move to itself, so a component's first slot is placed untwisted, and one
//! symmetry is kept for each way of mapping the generators: the result is every way a
//! symmetry can act, each once, a group. The search runs twice: for rearrangements that keep
//! each piece's twist counting the same way, and for mirror images, which count it the other
//! way (`(t, d - a)` for `(s, a)`): the 3x3x3 gets its 24 rotations and 24 reflections.
//!
//! Slots no move reaches are left in place.
//!
//! **Alike pieces.** Where the solved pattern repeats a piece (the 4x4x4's four centres of a
//! colour), positions are patterns: what a slot holds is a piece's kind, not which piece. A
//! symmetry acts on them where it sends the slots of each kind onto the slots of one kind, each
//! kind's slots turned alike (`S^-1` sends kind `a` to kind `σ(a)`, `σ` one to one): the
//! conjugate of a pattern is then the pattern with its kinds renamed by `σ`, the same as the
//! conjugate of any rearrangement that makes it. The others are dropped; those kept are a
//! subgroup. The 4x4x4's 48 rotations and reflections all rename its centres' colours so, and
//! so does each of them followed by the swap of the two inner layers of every axis (`2U`
//! becomes `2D'`, the outer turns stay): 96 in all. A puzzle whose solved pattern has alike
//! pieces twisted is not handled: it gets the identity alone.

use super::definition::{Definition, OrbitDef, OrbitTransformation, Transformation};
use super::space::SpaceMove;

/// Choices tried before the search gives up; the symmetries are then the identity alone (a
/// search over classes is never wrong for having fewer). The shipped puzzles' searches take
/// 261 (the skewb) to 4,831 (the megaminx, 20 ms) choices each way.
const SEARCH_STEPS: usize = 1 << 20;

/// A symmetry of a puzzle: a rearrangement of its slots, each slot's piece going to a slot of
/// its orbit with a fixed twist added, its own twist reversed first where `mirror`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symmetry {
    /// In the definition's convention: slot `t` receives the piece of slot `permutation[t]`,
    /// turned by `orientation[t]`.
    pub transformation: Transformation,
    /// Whether the piece's own twist counts the other way after it (a mirror image).
    pub mirror: bool,
}

impl Symmetry {
    /// The symmetry that changes nothing.
    pub fn identity(orbits: &[OrbitDef]) -> Self {
        Symmetry {
            transformation: Transformation::identity(orbits),
            mirror: false,
        }
    }

    /// `S^-1 t S`: the rearrangement `t` seen through the symmetry. A move's conjugate is a
    /// move; a position's is one as far from solved.
    pub fn conjugate(&self, t: &Transformation, orbits: &[OrbitDef]) -> Transformation {
        let parts = self
            .transformation
            .orbits
            .iter()
            .zip(&t.orbits)
            .zip(orbits)
            .map(|((s, p), def)| {
                let (n, k) = (def.pieces, def.orientations);
                // Slot u goes to to[u], its piece turned by turn[u].
                let (mut to, mut turn) = (vec![0usize; n], vec![0u8; n]);
                for (target, (&from, &twist)) in
                    s.permutation.iter().zip(&s.orientation).enumerate()
                {
                    to[from as usize] = target;
                    turn[from as usize] = twist;
                }
                let mut q = OrbitTransformation::identity(n);
                for i in 0..n {
                    let (u, a) = (p.permutation[i] as usize, p.orientation[i]);
                    let own = if self.mirror { (k - a) % k } else { a };
                    q.permutation[to[i]] = to[u] as u8;
                    q.orientation[to[i]] = (own + turn[i] + k - turn[u]) % k;
                }
                q
            })
            .collect();
        Transformation { orbits: parts }
    }

    /// Whether it changes nothing.
    pub fn is_identity(&self) -> bool {
        !self.mirror && self.transformation.is_identity()
    }
}

/// Every symmetry of the puzzle `definition` over `moves` (a space's moves: each generator
/// with the powers it keeps), the identity first, one for each way of acting on positions.
/// Exact: the whole group of slot rearrangements (mirror images too) that conjugate the move
/// set onto itself and, where the solved pattern repeats a piece, rename its kinds (see the
/// module docs); the identity alone where the search passes its step limit or alike pieces
/// are solved twisted.
pub fn symmetries(definition: &Definition, moves: &[SpaceMove]) -> Vec<Symmetry> {
    let identity = Symmetry::identity(&definition.orbits);
    let twisted_alike = !distinct_pieces(definition).iter().all(|&d| d)
        && definition
            .solved
            .orbits
            .iter()
            .any(|o| o.orientation.iter().any(|&a| a != 0));
    if twisted_alike || moves.is_empty() {
        return vec![identity];
    }
    let points = Points::new(definition, moves);
    let mut found = Vec::new();
    let mut steps = 0;
    for mirror in [false, true] {
        let start = Partial {
            mirror,
            image: vec![None; points.slots],
            used: vec![false; points.slots],
            became: vec![None; points.generators.len()],
            queue: Vec::new(),
            head: 0,
        };
        if !points.explore(start, &mut found, &mut steps) {
            return vec![identity];
        }
    }
    // Symmetries that differ by a twist of whole orbits (every edge flipped) conjugate every
    // move alike, and where no orbit has more than two orientations a mirror image acts as
    // the rearrangement does: one stands for each way of mapping the generators, which is
    // what acts.
    let mut seen = std::collections::HashSet::new();
    let acts_as_identity = |p: &Partial| {
        p.became
            .iter()
            .zip(&points.generators)
            .all(|(h, &g)| *h == Some(g))
    };
    let mut group = vec![identity];
    for p in found.iter().filter(|p| !acts_as_identity(p)) {
        let s = points.symmetry(p, definition);
        if points.conjugates_moves(&s, definition, moves)
            && renames_kinds(&s, definition)
            && seen.insert(p.became.clone())
        {
            group.push(s);
        }
    }
    group
}

/// Per orbit, whether the solved pattern's pieces in it are distinct (none repeated).
pub(crate) fn distinct_pieces(definition: &Definition) -> Vec<bool> {
    definition
        .solved
        .orbits
        .iter()
        .map(|o| (0..o.pieces.len()).all(|i| !o.pieces[..i].contains(&o.pieces[i])))
        .collect()
}

/// Whether `s` acts on the puzzle's patterns (module docs): `S^-1` sends the slots of each
/// kind of piece of the solved pattern to the slots of one kind, turning them alike, and two
/// kinds to two. Always so where the pieces are distinct.
fn renames_kinds(s: &Symmetry, definition: &Definition) -> bool {
    let back = s.transformation.inverse(&definition.orbits);
    definition
        .solved
        .orbits
        .iter()
        .zip(&back.orbits)
        .zip(&definition.orbits)
        .all(|((solved, part), def)| {
            let mut image: Vec<Option<(u8, u8)>> = vec![None; 256];
            let mut taken = vec![false; 256];
            part.permutation
                .iter()
                .zip(&part.orientation)
                .zip(&solved.pieces)
                .all(|((&from, &twist), &kind)| {
                    let want = (solved.pieces[from as usize], twist % def.orientations);
                    match image[kind as usize] {
                        Some(known) => known == want,
                        None => {
                            image[kind as usize] = Some(want);
                            !std::mem::replace(&mut taken[want.0 as usize], true)
                        }
                    }
                })
        })
}

/// The moves as maps of slots (all orbits' slots numbered one after another).
struct Points {
    slots: usize,
    /// Each slot's orientation count.
    orientations: Vec<u8>,
    /// Each slot's orbit.
    orbit_of: Vec<usize>,
    /// Whether some move changes the slot.
    moved: Vec<bool>,
    /// Per move: where the piece in each slot goes.
    to: Vec<Vec<usize>>,
    /// Per move: the twist the piece in each slot takes on the way.
    twist: Vec<Vec<u8>>,
    /// The generators (moves of power 1), as indices into the moves.
    generators: Vec<usize>,
    /// Per generator: the moves it may become (as many slots changed in each orbit, the same
    /// order).
    candidates: Vec<Vec<usize>>,
}

/// A symmetry being chosen: each slot's image (slot, twist), the images taken, each
/// generator's conjugate, and the slots placed whose consequences are still to follow.
#[derive(Clone)]
struct Partial {
    /// Whether twists count the other way (a mirror image).
    mirror: bool,
    image: Vec<Option<(usize, u8)>>,
    used: Vec<bool>,
    became: Vec<Option<usize>>,
    queue: Vec<usize>,
    head: usize,
}

impl Points {
    fn new(definition: &Definition, moves: &[SpaceMove]) -> Self {
        let mut orientations = Vec::new();
        let mut orbit_of = Vec::new();
        let mut starts = Vec::new();
        for (o, def) in definition.orbits.iter().enumerate() {
            starts.push(orientations.len());
            orientations.extend(std::iter::repeat_n(def.orientations, def.pieces));
            orbit_of.extend(std::iter::repeat_n(o, def.pieces));
        }
        let slots = orientations.len();
        let (mut to, mut twist) = (Vec::new(), Vec::new());
        for m in moves {
            let (mut t, mut w) = (vec![0; slots], vec![0; slots]);
            for (o, part) in m.transformation.orbits.iter().enumerate() {
                // Slot i receives the piece of slot permutation[i], turned by orientation[i].
                for (i, (&from, &turn)) in
                    part.permutation.iter().zip(&part.orientation).enumerate()
                {
                    t[starts[o] + from as usize] = starts[o] + i;
                    w[starts[o] + from as usize] = turn;
                }
            }
            to.push(t);
            twist.push(w);
        }
        let moved: Vec<bool> = (0..slots)
            .map(|s| (0..moves.len()).any(|m| to[m][s] != s || twist[m][s] != 0))
            .collect();
        // A move and its conjugate change as many slots of each orbit and have one order.
        let signature = |m: usize| {
            let mut changed = vec![0usize; definition.orbits.len()];
            for s in 0..slots {
                if to[m][s] != s || twist[m][s] != 0 {
                    changed[orbit_of[s]] += 1;
                }
            }
            let order = moves[m]
                .transformation
                .order(&definition.orbits, crate::space::MAX_MOVES as u64 + 1);
            (changed, order)
        };
        let signatures: Vec<_> = (0..moves.len()).map(signature).collect();
        let generators: Vec<usize> = (0..moves.len()).filter(|&m| moves[m].power == 1).collect();
        let candidates = generators
            .iter()
            .map(|&g| {
                (0..moves.len())
                    .filter(|&m| signatures[m] == signatures[g])
                    .collect()
            })
            .collect();
        Points {
            slots,
            orientations,
            orbit_of,
            moved,
            to,
            twist,
            generators,
            candidates,
        }
    }

    /// Completes `p` every way it can be completed, adding each symmetry to `found`; `false`
    /// when the step limit was reached. It follows the consequences of what is chosen, then
    /// chooses what one generator that changes a placed slot becomes (the one with the fewest
    /// choices consistent with the slots placed), or else where the first slot not placed goes.
    fn explore(&self, mut p: Partial, found: &mut Vec<Partial>, steps: &mut usize) -> bool {
        *steps += 1;
        if *steps > SEARCH_STEPS {
            return false;
        }
        if !self.follow(&mut p) {
            return true;
        }
        // Generators that change a slot placed are chosen first: their choices are narrowed
        // by it (one that changes none yet would be chosen blind, once for each choice of the
        // rest).
        let open = (0..self.generators.len()).filter(|&gi| {
            let g = self.generators[gi];
            p.became[gi].is_none()
                && p.queue
                    .iter()
                    .any(|&s| self.to[g][s] != s || self.twist[g][s] != 0)
        });
        let choices = open
            .map(|gi| {
                let fits: Vec<usize> = self.candidates[gi]
                    .iter()
                    .copied()
                    .filter(|&h| self.fits(&p, self.generators[gi], h))
                    .collect();
                (gi, fits)
            })
            .min_by_key(|(_, fits)| fits.len());
        if let Some((gi, fits)) = choices {
            for h in fits {
                let mut q = p.clone();
                q.became[gi] = Some(h);
                q.head = 0;
                if !self.explore(q, found, steps) {
                    return false;
                }
            }
            return true;
        }
        let Some(s) = (0..self.slots).find(|&s| self.moved[s] && p.image[s].is_none()) else {
            found.push(p);
            return true;
        };
        // `s` is the first slot of its component (the slots the moves carry it to: those
        // placed were followed through every move), and twisting a whole component alike
        // conjugates every move to itself: sending `s` to each slot untwisted finds every
        // way a symmetry can act.
        for t in (0..self.slots)
            .filter(|&t| self.moved[t] && !p.used[t] && self.orbit_of[t] == self.orbit_of[s])
        {
            let mut q = p.clone();
            q.image[s] = Some((t, 0));
            q.used[t] = true;
            q.queue.push(s);
            q.head = 0;
            if !self.explore(q, found, steps) {
                return false;
            }
        }
        true
    }

    /// Where `S` must send the slot generator `g` sends `s` to, when `S` sends `s` to `(t, d)`
    /// and `g` becomes `h`: `S(g(s, a)) = h(S(s, a))`, where `S(s, a)` is `(t, d + a)`, or
    /// `(t, d - a)` for a mirror image.
    fn image_after(
        &self,
        mirror: bool,
        s: usize,
        (t, d): (usize, u8),
        g: usize,
        h: usize,
    ) -> (usize, (usize, u8)) {
        let k = self.orientations[s];
        let own = match mirror {
            false => k - self.twist[g][s],
            true => self.twist[g][s],
        };
        let turn = (d + self.twist[h][t] + own) % k;
        (self.to[g][s], (self.to[h][t], turn))
    }

    /// Whether `g` may become `h` given the slots placed in `p`.
    fn fits(&self, p: &Partial, g: usize, h: usize) -> bool {
        p.queue.iter().all(|&s| {
            let image = p.image[s].expect("queued slots are placed");
            let (next, want) = self.image_after(p.mirror, s, image, g, h);
            match p.image[next] {
                Some(known) => known == want,
                None => !p.used[want.0] && self.moved[want.0],
            }
        })
    }

    /// Places every slot that the slots placed and the generators chosen imply; `false` at a
    /// contradiction.
    fn follow(&self, p: &mut Partial) -> bool {
        while p.head < p.queue.len() {
            let s = p.queue[p.head];
            let image = p.image[s].expect("queued slots are placed");
            for (gi, &g) in self.generators.iter().enumerate() {
                let Some(h) = p.became[gi] else { continue };
                let (next, want) = self.image_after(p.mirror, s, image, g, h);
                match p.image[next] {
                    Some(known) if known != want => return false,
                    Some(_) => {}
                    None => {
                        if p.used[want.0] || !self.moved[want.0] {
                            return false;
                        }
                        p.image[next] = Some(want);
                        p.used[want.0] = true;
                        p.queue.push(next);
                    }
                }
            }
            p.head += 1;
        }
        true
    }

    /// The symmetry a complete choice describes, in the definition's convention: slot `t`
    /// receives the piece of slot `s` turned by `d` where `s` goes to `(t, d)`.
    fn symmetry(&self, p: &Partial, definition: &Definition) -> Symmetry {
        let mut t = Transformation::identity(&definition.orbits);
        let mut start = 0;
        for (o, def) in definition.orbits.iter().enumerate() {
            let part: &mut OrbitTransformation = &mut t.orbits[o];
            for local in 0..def.pieces {
                if let Some((to, turn)) = p.image[start + local] {
                    part.permutation[to - start] = local as u8;
                    part.orientation[to - start] = turn;
                }
            }
            start += def.pieces;
        }
        Symmetry {
            transformation: t,
            mirror: p.mirror,
        }
    }

    /// Whether `S^-1 g S` is one of `moves` for every move `g` (what the search guarantees,
    /// checked again on whole transformations).
    fn conjugates_moves(&self, s: &Symmetry, definition: &Definition, moves: &[SpaceMove]) -> bool {
        self.generators.iter().all(|&g| {
            let conjugate = s.conjugate(&moves[g].transformation, &definition.orbits);
            moves.iter().any(|m| m.transformation == conjugate)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::space_moves;

    use crate::shipped_for_tests as shipped;

    fn count(name: &str, generators: &[&str], quarter: bool) -> usize {
        let definition = shipped(name);
        let generators: Vec<String> = generators.iter().map(|g| g.to_string()).collect();
        let moves = space_moves(&definition, &generators, quarter)
            .expect("moves")
            .moves;
        let group = symmetries(&definition, &moves);
        assert!(group[0].is_identity());
        // What a symmetry does: the move each move becomes.
        let orbits = &definition.orbits;
        let action = |s: &Symmetry| -> Vec<usize> {
            moves
                .iter()
                .map(|m| {
                    let c = s.conjugate(&m.transformation, orbits);
                    moves
                        .iter()
                        .position(|x| x.transformation == c)
                        .expect("a move")
                })
                .collect()
        };
        let actions: Vec<Vec<usize>> = group.iter().map(action).collect();
        // Each acts differently, and together they are a group: closed under products.
        let distinct: std::collections::HashSet<_> = actions.iter().collect();
        assert_eq!(distinct.len(), group.len(), "{name}: repeated actions");
        for a in &actions {
            for b in &actions {
                let product: Vec<usize> = a.iter().map(|&m| b[m]).collect();
                assert!(distinct.contains(&product), "{name}: not closed");
            }
        }
        group.len()
    }

    #[test]
    fn the_cubes_have_their_rotations_and_reflections() {
        assert_eq!(count("3x3x3.kpuzzle.json", &[], false), 48);
        assert_eq!(count("3x3x3.kpuzzle.json", &[], true), 48);
        // Over U, F, R the corner they leave in place stays: the turns about it, and the
        // reflections in the planes through it and the opposite corner.
        assert_eq!(count("2x2x2.kpuzzle.json", &["U", "F", "R"], false), 6);
        // <R, U>: the half turn about the edge between them swaps them, and two reflections.
        assert_eq!(count("3x3x3.kpuzzle.json", &["R", "U"], false), 4);
    }

    #[test]
    fn a_conjugate_of_a_product_is_the_product_of_conjugates() {
        let definition = shipped("3x3x3.kpuzzle.json");
        let orbits = &definition.orbits;
        let moves = space_moves(&definition, &[], false).expect("moves").moves;
        let (a, b) = (&moves[0].transformation, &moves[4].transformation);
        for s in symmetries(&definition, &moves) {
            let whole = s.conjugate(&a.then(b, orbits), orbits);
            let parts = s.conjugate(a, orbits).then(&s.conjugate(b, orbits), orbits);
            assert_eq!(whole, parts, "mirror {}", s.mirror);
        }
    }

    #[test]
    fn alike_pieces_keep_the_symmetries_that_rename_their_kinds() {
        // The 4x4x4's rotations and reflections each rename its centres' six colours, and
        // each may be followed by swapping its two inner layers of every axis (2U becomes
        // 2D', the outer turns stay): 96.
        assert_eq!(count("4x4x4.kpuzzle.json", &[], false), 96);
    }
}
