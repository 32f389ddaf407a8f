#!/usr/bin/env python3
"""Writes the shipped puzzle definitions from the puzzles' geometry.

Each puzzle is a set of pieces in space, each piece a point (its centre) with stickers (the
outward normals of the faces it shows). A move turns every piece on one side of a plane about
the plane's normal. Where a piece goes is read off the rotated centre; its twist off where its
first sticker lands among the destination slot's stickers, which are listed in the same cyclic
order for every slot (anticlockwise about the slot's centre seen from outside), so the twist is
the same whichever sticker is taken. Moves are written in KPuzzle's convention:
permutation[i] is the slot whose piece comes to slot i, orientationDelta[i] its added twist.

Run from anywhere: python3 data/definitions/make_definitions.py
"""

import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
EPS = 1e-6


def sub(a, b):
    return tuple(x - y for x, y in zip(a, b))


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def scale(a, s):
    return tuple(x * s for x in a)


def norm(a):
    return scale(a, 1 / math.sqrt(dot(a, a)))


def rotate(v, axis, angle):
    """Rodrigues: v turned by `angle` about the unit `axis` (right-handed)."""
    k = norm(axis)
    c, s = math.cos(angle), math.sin(angle)
    kv = cross(k, v)
    kd = dot(k, v)
    return tuple(v[i] * c + kv[i] * s + k[i] * kd * (1 - c) for i in range(3))


def same(a, b):
    return all(abs(x - y) < EPS for x, y in zip(a, b))


class Orbit:
    def __init__(self, name, pieces):
        """pieces: list of (centre, [normals]); every piece of an orbit has as many stickers."""
        self.name = name
        self.pieces = [(c, order_stickers(c, ns)) for c, ns in pieces]
        self.orientations = len(self.pieces[0][1])


def order_stickers(centre, normals):
    """Normals in anticlockwise order about the centre's direction seen from outside."""
    if len(normals) <= 2:
        return list(normals)
    axis = norm(centre)
    ref = normals[0]
    def angle(n):
        x = dot(n, ref)
        y = dot(cross(ref, n), axis)
        return math.atan2(y, x) % (2 * math.pi)
    return sorted(normals, key=angle)


def move_of(orbits, axis, angle, side, upto=math.inf):
    """The transformation turning every piece with side < dot(centre, axis) < upto by `angle`."""
    result = {}
    for orbit in orbits:
        n = len(orbit.pieces)
        perm = [None] * n
        twist = [None] * n
        for j, (c, stickers) in enumerate(orbit.pieces):
            if side < dot(c, norm(axis)) < upto:
                c2 = rotate(c, axis, angle)
                first = rotate(stickers[0], axis, angle)
            else:
                c2, first = c, stickers[0]
            i = next(i for i, (d, _) in enumerate(orbit.pieces) if same(d, c2))
            d_stickers = orbit.pieces[i][1]
            o = next(o for o, s in enumerate(d_stickers) if same(s, first))
            perm[i] = j
            twist[i] = o
        assert None not in perm, orbit.name
        result[orbit.name] = {"permutation": perm, "orientationDelta": twist}
    return result


def kpuzzle(name, orbits, moves, derived=None, alike=None):
    """alike: per orbit name, the piece numbers of its solved pattern where pieces are alike."""
    alike = alike or {}
    data = {
        "name": name,
        "orbits": [
            {"orbitName": o.name, "numPieces": len(o.pieces), "numOrientations": o.orientations}
            for o in orbits
        ],
        "defaultPattern": {
            o.name: {"pieces": alike.get(o.name, list(range(len(o.pieces)))),
                     "orientation": [0] * len(o.pieces)}
            for o in orbits
        },
        "moves": moves,
    }
    if derived:
        data["derivedMoves"] = derived
    return data


def write_json(file, data):
    with open(os.path.join(HERE, file), "w") as f:
        f.write("{\n")
        items = list(data.items())
        for k, (key, value) in enumerate(items):
            comma = "," if k + 1 < len(items) else ""
            if key == "moves":
                f.write('  "moves": {\n')
                moves = list(value.items())
                for m, (mname, parts) in enumerate(moves):
                    mc = "," if m + 1 < len(moves) else ""
                    f.write(f'    {json.dumps(mname)}: {{\n')
                    plist = list(parts.items())
                    for p, (oname, t) in enumerate(plist):
                        pc = "," if p + 1 < len(plist) else ""
                        f.write(f'      {json.dumps(oname)}: {{"permutation": {json.dumps(t["permutation"])}, '
                                f'"orientationDelta": {json.dumps(t["orientationDelta"])}}}{pc}\n')
                    f.write(f"    }}{mc}\n")
                f.write(f"  }}{comma}\n")
            else:
                f.write(f"  {json.dumps(key)}: {json.dumps(value)}{comma}\n")
        f.write("}\n")


def write_tws(file, name, orbits, moves, comment):
    """twsearch's text format, KPuzzle-style moves (MoveTransformation, slots from 0)."""
    lines = [f"# {comment}", f"Name {name}", ""]
    for o in orbits:
        lines.append(f"Set {o.name} {len(o.pieces)} {o.orientations}")
    lines += ["", "Solved"]
    for o in orbits:
        lines.append(o.name)
        lines.append(" ".join(str(i + 1) for i in range(len(o.pieces))))
    lines += ["End", ""]
    for mname, parts in moves.items():
        lines.append(f"MoveTransformation {mname}")
        for oname, t in parts.items():
            if t["permutation"] == list(range(len(t["permutation"]))) and not any(t["orientationDelta"]):
                continue
            lines.append(oname)
            lines.append(" ".join(map(str, t["permutation"])))
            lines.append(" ".join(map(str, t["orientationDelta"])))
        lines += ["End", ""]
    with open(os.path.join(HERE, file), "w") as f:
        f.write("\n".join(lines))


# ---- cubes: faces U R F D L B as outward normals
FACES = {"U": (0, 1, 0), "R": (1, 0, 0), "F": (0, 0, 1), "D": (0, -1, 0), "L": (-1, 0, 0), "B": (0, 0, -1)}
QUARTER = -math.pi / 2  # clockwise seen from outside the face


def cube_pieces(kind):
    """Corners (3 nonzero coordinates), edges (2) or centres (1) of a cube of side 2."""
    out = []
    for x in (-1, 0, 1):
        for y in (-1, 0, 1):
            for z in (-1, 0, 1):
                c = (x, y, z)
                nonzero = sum(1 for v in c if v)
                if nonzero == kind:
                    # The U/D sticker first, then F/B: the usual reference stickers.
                    normals = [tuple(v if i == a else 0 for i, v in enumerate(c)) for a in (1, 2, 0) if c[a]]
                    out.append((c, normals))
    return out


def cube_moves(orbits, side):
    return {f: move_of(orbits, n, QUARTER, side) for f, n in FACES.items()}


def make_2x2x2():
    corners = Orbit("CORNERS", cube_pieces(3))
    moves = cube_moves([corners], 0)
    return kpuzzle("2x2x2", [corners], moves)


def make_3x3x3():
    edges = Orbit("EDGES", cube_pieces(2))
    corners = Orbit("CORNERS", cube_pieces(3))
    moves = cube_moves([edges, corners], 0.5)
    return kpuzzle("3x3x3", [edges, corners], moves)


def make_3x3x3_ru():
    """The 3x3x3's <R, U> group: only the pieces R and U move, only those two moves."""
    turned = lambda c: c[0] == 1 or c[1] == 1
    edges = Orbit("EDGES", [p for p in cube_pieces(2) if turned(p[0])])
    corners = Orbit("CORNERS", [p for p in cube_pieces(3) if turned(p[0])])
    moves = {f: move_of([edges, corners], FACES[f], QUARTER, 0.5) for f in ("R", "U")}
    return [edges, corners], moves


# ---- bigger cubes: cubies at odd (4x4x4) or even (5x5x5) coordinates; layer 1 the outer one
def surface_cubies(coords):
    """Each cubie on the surface of a cube with these coordinates: its centre, the normals of
    the faces it shows (U/D first, then F/B, as cube_pieces lists them), how many it shows."""
    edge = max(coords)
    for x in coords:
        for y in coords:
            for z in coords:
                c = (x, y, z)
                outer = [a for a in (1, 2, 0) if abs(c[a]) == edge]
                normals = [tuple(1 if i == a and c[a] > 0 else -1 if i == a else 0 for i in range(3))
                           for a in outer]
                if outer:
                    yield c, normals, len(outer)


def wing_sticker(c, normals, edge):
    """A wing cannot turn in place: its one sticker is the one whose cross product with the
    other points along the wing's offset from its edge's middle, a choice every turn keeps."""
    inner = next(a for a in range(3) if abs(c[a]) != edge)
    offset = tuple(c[a] if a == inner else 0 for a in range(3))
    a, b = normals
    return [a if dot(cross(a, b), offset) > 0 else b]


def cube4_pieces():
    corners, wings, centres = [], [], []
    for c, normals, shown in surface_cubies((-3, -1, 1, 3)):
        if shown == 3:
            corners.append((c, normals))
        elif shown == 2:
            wings.append((c, wing_sticker(c, normals, 3)))
        else:
            centres.append((c, normals))
    return corners, wings, centres


def layer_turns(orbits, edge):
    """The outer turns U..B of a cube whose outer cubies are at coordinate `edge`, then the
    inner slices 2U..2B next to them, each a quarter turn."""
    moves = {f: move_of(orbits, n, QUARTER, edge - 1) for f, n in FACES.items()}
    moves.update({"2" + f: move_of(orbits, n, QUARTER, edge - 3, edge - 1) for f, n in FACES.items()})
    return moves


def faces_of(pieces):
    """The number of the face each centre piece shows (alike centres share it)."""
    return [next(i for i, n in enumerate(FACES.values()) if same(n, st[0])) for _, st in pieces]


def make_4x4x4():
    corners, wings, centres = cube4_pieces()
    orbits = [Orbit("CORNERS", corners), Orbit("WINGS", wings), Orbit("CENTERS", centres)]
    moves = layer_turns(orbits, 3)
    derived = {f + "w": f"{f} 2{f}" for f in FACES}
    # Three layers: the face's and both inner ones, the far one turned the face's way. That is
    # a rotation of the whole cube less the opposite face, so the generators U,2U,2D,R,2R,2L,
    # F,2F,2B,3Uw,3Rw,3Fw turn any one layer (up to a rotation) and leave the DLB corner put.
    opposite = {f: next(g for g, m in FACES.items() if m == scale(n, -1)) for f, n in FACES.items()}
    derived.update({f"3{f}w": f"{f} 2{f} 2{opposite[f]}'" for f in FACES})
    # The centres of one face are alike: each is numbered by its face.
    return kpuzzle("4x4x4", orbits, moves, derived, {"CENTERS": faces_of(centres)})


# ---- the 5x5x5: cubies at coordinates -4, -2, 0, 2, 4; layers 1 (outer) and 2 (inner) per
# face. The face centres never move under these turns (the middle slices are left out), so
# they are not pieces.
def cube5_pieces():
    corners, midges, wings, x_centres, t_centres = [], [], [], [], []
    for c, normals, shown in surface_cubies((-4, -2, 0, 2, 4)):
        # Which of its coordinates are 0: a midge's one, a t-centre's one, a face centre's two.
        zeros = sum(1 for v in c if v == 0)
        if shown == 3:
            corners.append((c, normals))
        elif shown == 2 and zeros:
            midges.append((c, normals))
        elif shown == 2:
            wings.append((c, wing_sticker(c, normals, 4)))
        elif zeros == 0:
            x_centres.append((c, normals))
        elif zeros == 1:
            t_centres.append((c, normals))
    return corners, midges, wings, x_centres, t_centres


def make_5x5x5():
    corners, midges, wings, x_centres, t_centres = cube5_pieces()
    orbits = [Orbit("CORNERS", corners), Orbit("MIDGES", midges), Orbit("WINGS", wings),
              Orbit("XCENTERS", x_centres), Orbit("TCENTERS", t_centres)]
    moves = layer_turns(orbits, 4)
    derived = {f + "w": f"{f} 2{f}" for f in FACES}
    # The centres of one face are alike, in each of the two kinds: each numbered by its face.
    alike = {"XCENTERS": faces_of(x_centres), "TCENTERS": faces_of(t_centres)}
    return kpuzzle("5x5x5", orbits, moves, derived, alike)


# ---- pyraminx: a regular tetrahedron; faces opposite its vertices
TETRA = {"U": (1, 1, 1), "L": (-1, -1, 1), "R": (1, -1, -1), "B": (-1, 1, -1)}
THIRD = -2 * math.pi / 3  # clockwise seen from outside the vertex


def pyraminx(with_tips):
    names = list(TETRA)
    vs = [TETRA[n] for n in names]
    edges = []
    for a in range(4):
        for b in range(a + 1, 4):
            mid = scale(tuple(p + q for p, q in zip(vs[a], vs[b])), 0.5)
            normals = [scale(vs[c], -1) for c in range(4) if c not in (a, b)]
            edges.append((mid, normals))
    axial = [(scale(v, 0.5), [scale(vs[c], -1) for c in range(4) if vs[c] != v]) for v in vs]
    tips = [(scale(v, 0.9), [scale(vs[c], -1) for c in range(4) if vs[c] != v]) for v in vs]
    orbits = [Orbit("EDGES", edges), Orbit("CENTERS", axial)]
    if with_tips:
        orbits.append(Orbit("TIPS", tips))
    # A layer turn (U) turns the axial piece, the three edges beside it and the tip; a tip
    # turn (u) the tip alone.
    moves = {n: move_of(orbits, TETRA[n], THIRD, 0) for n in names}
    if with_tips:
        for n in names:
            moves[n.lower()] = move_of(orbits, TETRA[n], THIRD, math.sqrt(3) * 0.8)
    return orbits, moves


# ---- skewb: a cube cut through its centre perpendicular to each corner's axis; the corner
# DBL (-1,-1,-1) stays fixed: moves turn the half away from it, about the other four
# corners' axes that do not share a face with it (WCA's fixed-corner notation: R, U, L, B).
SKEWB_AXES = {"R": (1, -1, -1), "U": (-1, 1, -1), "L": (-1, -1, 1), "B": (1, 1, 1)}


def make_skewb():
    corners = Orbit("CORNERS", cube_pieces(3))
    centres = Orbit("CENTERS", [(c, ns[:1]) for c, ns in cube_pieces(1)])
    orbits = [corners, centres]
    moves = {n: move_of(orbits, a, THIRD, 0) for n, a in SKEWB_AXES.items()}
    return kpuzzle("skewb", orbits, moves)


# ---- megaminx: a dodecahedron; each face turns its layer (5 corners, 5 edges) by 72 degrees.
PHI = (1 + math.sqrt(5)) / 2
FIFTH = -2 * math.pi / 5  # clockwise seen from outside the face


def make_megaminx():
    # Face centres of a dodecahedron: the vertices of an icosahedron.
    normals = []
    for a in (1, -1):
        for b in (PHI, -PHI):
            normals += [(0, b, a), (a, 0, b), (b, a, 0)]
    normals = [norm(n) for n in normals]
    vertices = [(x, y, z) for x in (1, -1) for y in (1, -1) for z in (1, -1)]
    for a in (1, -1):
        for b in (1, -1):
            vertices += [(0, a / PHI, b * PHI), (a / PHI, b * PHI, 0), (b * PHI, 0, a / PHI)]

    def faces_at(point, count):
        ranked = sorted(normals, key=lambda n: -dot(n, point))
        return ranked[:count]

    corners = [(v, faces_at(v, 3)) for v in vertices]
    edge_length = min(math.dist(a, b) for a in vertices for b in vertices if a != b)
    mids = []
    for i, a in enumerate(vertices):
        for b in vertices[i + 1:]:
            if abs(math.dist(a, b) - edge_length) < EPS:
                mids.append(scale(tuple(p + q for p, q in zip(a, b)), 0.5))
    edges = [(m, faces_at(m, 2)) for m in mids]
    orbits = [Orbit("EDGES", edges), Orbit("CORNERS", corners)]
    # U on top; the upper ring F (front, +z), R, BR, BL, L clockwise seen from above; every
    # lower face named by the face opposite it.
    face_dot = max(dot(v, normals[0]) for v in vertices)
    top = max(normals, key=lambda n: (round(n[1], 6), n[2]))
    upper = [n for n in normals if EPS < dot(n, top) < 1 - EPS]
    front = max(upper, key=lambda n: n[2])

    def flat(n):
        return sub(n, scale(top, dot(n, top)))

    def clockwise(n):
        a, b = flat(front), flat(n)
        return (-math.atan2(dot(cross(a, b), top), dot(a, b))) % (2 * math.pi)

    upper.sort(key=clockwise)
    named = [("U", top)] + list(zip(["F", "R", "BR", "BL", "L"], upper))
    opposite = {"U": "D", "F": "B", "R": "DBL", "L": "DBR", "BR": "DL", "BL": "DR"}
    named += [(opposite[name], scale(n, -1)) for name, n in named]
    moves = {}
    for name, n in named:
        moves[name] = move_of(orbits, n, FIFTH, face_dot - 1e-3)
    return kpuzzle("megaminx", orbits, moves)


# ---- the Masterball (Geza Gyovai, 1989): a ball cut like an orange into 8 segments and across
# into 4 layers (two polar caps, two bands), 32 tiles. A layer turns by an eighth; a hemisphere
# bounded by a line of longitude turns by a half turn, which carries each tile across the
# equator. Tiles never leave their kind (caps or bands), so each kind is an orbit. The standard
# Rainbow Masterball colours each segment: the two tiles of a colour in an orbit are alike.
MASTERBALL_LATITUDES = (67.5, 22.5, -22.5, -67.5)  # the 4 layers' tile centres, north first
MASTERBALL_SEGMENTS = 8
EIGHTH = -math.pi / 4  # clockwise seen from above the north pole
MASTERBALL_LAYER_SPLIT = 0.65  # between the caps' and the bands' heights (0.92 and 0.38)


def masterball_tile(latitude, segment):
    lat = math.radians(latitude)
    lon = math.radians(360 / MASTERBALL_SEGMENTS * (segment + 0.5))
    return (math.cos(lat) * math.sin(lon), math.sin(lat), math.cos(lat) * math.cos(lon))


def make_masterball():
    def tiles(layers):
        return [(c, [c]) for c in (masterball_tile(MASTERBALL_LATITUDES[r], s)
                                   for r in layers for s in range(MASTERBALL_SEGMENTS))]

    caps = Orbit("CAPS", tiles((0, 3)))
    bands = Orbit("BANDS", tiles((1, 2)))
    orbits = [caps, bands]
    up = (0, 1, 0)
    split = MASTERBALL_LAYER_SPLIT
    moves = {
        "U": move_of(orbits, up, EIGHTH, split),
        "Um": move_of(orbits, up, EIGHTH, 0, split),
        "Dm": move_of(orbits, up, EIGHTH, -split, 0),
        "D": move_of(orbits, up, EIGHTH, -math.inf, -split),
    }
    # A hemisphere named by the direction of its middle (F the front, then clockwise seen from
    # above) turns half about that direction.
    for k, name in enumerate(["F", "FR", "R", "BR", "B", "BL", "L", "FL"]):
        a = math.radians(360 / MASTERBALL_SEGMENTS * k)
        moves[name] = move_of(orbits, (math.sin(a), 0, math.cos(a)), math.pi, 0)
    # Rainbow colouring: a tile's colour is its segment.
    colours = [s for _ in range(2) for s in range(MASTERBALL_SEGMENTS)]
    return kpuzzle("masterball", orbits, moves, alike={"CAPS": colours, "BANDS": colours})


def main():
    write_json("2x2x2.kpuzzle.json", make_2x2x2())
    write_json("3x3x3.kpuzzle.json", make_3x3x3())
    orbits, moves = pyraminx(False)
    write_json("pyraminx-no-tips.kpuzzle.json", kpuzzle("pyraminx (no tips)", orbits, moves))
    write_tws("pyraminx-no-tips.tws", "pyraminx (no tips)", orbits, moves,
              "The pyraminx without its tips: 6 edges, 4 axial centres. Made by make_definitions.py.")
    orbits, moves = pyraminx(True)
    write_json("pyraminx.kpuzzle.json", kpuzzle("pyraminx", orbits, moves))
    write_json("skewb.kpuzzle.json", make_skewb())
    write_json("megaminx.kpuzzle.json", make_megaminx())
    write_json("4x4x4.kpuzzle.json", make_4x4x4())
    write_json("5x5x5.kpuzzle.json", make_5x5x5())
    write_json("masterball.kpuzzle.json", make_masterball())
    orbits, moves = make_3x3x3_ru()
    write_tws("3x3x3-ru.tws", "3x3x3 <R, U>", orbits, moves,
              "The 3x3x3's <R, U> group: the 7 edges and 6 corners R and U move. Made by make_definitions.py.")


if __name__ == "__main__":
    main()
