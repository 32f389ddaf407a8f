"""godsearch from Python: solve, enumerate and scramble sliding-tile puzzles and Rubik's cubes.

The same engines, rules and reports as the command line: every function returns the dict that
``godsearch ... --json`` prints (field names as in docs/report.schema.json), and refuses bad input
with :class:`InputError` (a ``ValueError``) carrying the command line's message.

    >>> import godsearch
    >>> r = godsearch.solve("3x3", "8,6,7,2,5,4,3,0,1", algorithm="ida")
    >>> r["length"], r["optimal"]
    (31, True)
    >>> godsearch.bfs("3x3")["levels"][:5]
    [1, 2, 4, 8, 16]

Long work runs with the GIL released (other Python threads go on), and Ctrl-C stops it: IDA*
within a moment, an enumeration after the level under way.

Tables (pattern databases, the cube's two-phase and optimal tables) are cached on disk, in the
command line's cache folder unless a :class:`Session` names another, and kept loaded by the
session between calls. The module-level functions use :data:`default_session`.
"""

import json as _json

from ._native import GodsearchError, InputError, __version__
from ._native import Session as _NativeSession
from ._native import catalog_json as _catalog_json
from ._native import replay_json as _replay_json

__all__ = [
    "GodsearchError",
    "InputError",
    "Session",
    "default_session",
    "solve",
    "solve_many",
    "bfs",
    "scramble",
    "replay",
    "parse",
    "build_pdb",
    "puzzles",
    "__version__",
]


def _plain(value):
    """``value`` as JSON takes it: a numpy integer or float as a Python one (``.item()``)."""
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        return value.item()
    return value


def _request(**fields):
    """The JSON request of the given fields, those left at None omitted."""
    return _json.dumps(
        {k: _plain(v) for k, v in fields.items() if v is not None and v is not False}
    )


def _position(position):
    """A position as the requests take it: a string as it is; a board given as a list, a
    tuple or a numpy array of tiles (any shape: rows are read in order) as its tile list
    ``"1,2,3,..."``."""
    if isinstance(position, str):
        return position
    if hasattr(position, "ravel"):
        position = position.ravel().tolist()
    try:
        tiles = [int(_plain(t)) for t in position]
    except (TypeError, ValueError):
        raise InputError(
            "a position is a string, or a board as a list, tuple or array of tile numbers"
        ) from None
    return ",".join(str(t) for t in tiles)


class Session:
    """A table cache and the tables loaded from it, kept between calls.

    :param cache: the cache folder (default: the command line's, ``~/.cache/godsearch``).
    :param memory: what builds and searches may use, e.g. ``"4G"``, ``"512M"`` or ``"50%"``
        (default: the command line's, 80% of the memory this process may use).
    """

    def __init__(self, cache=None, memory=None):
        self._native = _NativeSession(cache, memory)

    @property
    def cache(self):
        """The cache folder."""
        return self._native.cache

    @property
    def memory(self):
        """The memory limit, in bytes."""
        return self._native.memory

    def solve(self, puzzle, position, *, algorithm=None, heuristic=None, pdb=None,
              no_reflection=False, goal=None, stages=None, effort=None, depth=None,
              metric=None, facelets=False, moves=False, max_length=None, optimal=False,
              all=False, table_size=None, timeout=None, generators=None,
              known_solution=None, resume_from=None):
        """Solves one position; returns the report dict (``solution``, ``length``,
        ``optimal``, ``nodes_expanded``, ``seconds``, ...), its solution replayed first.

        :param puzzle: ``"3x3"``, ``"4x4"``, any ``"WxH"``, ``"2x2x2"``, ``"3x3x3"``, or the
            path of a puzzle definition file (KPuzzle JSON or ``.tws``).
        :param position: a board (``"8,6,7,2,5,4,3,0,1"``, hex, or a list, tuple or numpy
            array of tiles), a cube's 54 facelets, or moves (``"R U R' U'"``) for cubes and
            definition puzzles.
        :param generators: definition puzzles: the moves to search with (``"U,F,R"``).
        :param algorithm: ``auto`` (default), ``ida``, ``parallel-ida``, ``astar``, ``table``,
            ``half-depth``, ``two-stage``, ``subgoal``, ``two-phase``.
        :param heuristic: ``auto``, ``manhattan``, ``linear-conflict`` or ``pdb``.
        :param pdb: a partition by name (``"6-6-3"``) or tile groups (``"1,2,3/4,5,6"``).
        :param timeout: seconds; IDA* then reports its proven ``lower_bound`` (``timed_out``).
        :param optimal: 3x3x3: a proven shortest solution (``table_size`` ``small`` or ``1gb``).
        :param resume_from: boards, IDA*: start at the ``lower_bound`` an earlier search of the
            board proved, so that none of its finished iterations is searched again.

        The other options are the command line's (``godsearch solve --help``).
        """
        request = _request(puzzle=puzzle, position=_position(position), algorithm=algorithm,
                           heuristic=heuristic, pdb=pdb, no_reflection=no_reflection,
                           goal=goal, stages=stages, effort=effort, depth=depth,
                           metric=metric, facelets=facelets, moves=moves,
                           max_length=max_length, optimal=optimal, all=all,
                           table_size=table_size, timeout=timeout, generators=generators,
                           known_solution=known_solution, resume_from=resume_from)
        return _json.loads(self._native.solve_json(request))

    def solve_many(self, puzzle, positions, **options):
        """Solves each of ``positions`` (any iterable, read as it is consumed) with the same
        options as :meth:`solve`, yielding each report as it is found, in order. The tables
        are loaded once, for the first position, and kept by the session.

        >>> boards = ["1,2,3,4,5,6,7,0,8", (1, 2, 3, 4, 5, 6, 0, 7, 8)]
        >>> [r["length"] for r in solve_many("3x3", boards, heuristic="manhattan")]
        [1, 2]
        """
        for position in positions:
            yield self.solve(puzzle, position, **options)

    def bfs(self, puzzle, *, goal=None, metric=None, max_depth=None, count_last=False,
            generators=None):
        """Counts the positions at every distance from the goal (God's algorithm); returns the
        report dict: ``levels`` (exact counts by distance), ``total``, ``diameter``,
        ``complete``, ``antipodes``, ``seconds``, ... It stops with exact counts so far at
        ``max_depth`` or when the next level would not fit the session's memory. ``puzzle``
        may be a definition file's path, with ``generators`` (``"R,U"``) and ``metric``
        (``"htm"`` or ``"qtm"``).
        """
        request = _request(puzzle=puzzle, goal=goal, metric=metric, max_depth=max_depth,
                           count_last=count_last, generators=generators)
        return _json.loads(self._native.bfs_json(request))

    def scramble(self, puzzle, *, count=1, moves=None, metric=None, seed=None,
                 generators=None, format=None):
        """Uniform random positions (or, with ``moves``, random canonical move sequences);
        returns a list of dicts with ``position`` and, for cubes, ``scramble``. Boards are
        written as ``format`` says: ``list`` (default), ``hex`` or ``grid``."""
        request = _request(puzzle=puzzle, count=count, moves=moves, metric=metric, seed=seed,
                           generators=generators, format=format)
        return _json.loads(self._native.scramble_json(request))

    def build_pdb(self, puzzle, partition, *, goal=None, force=False):
        """Loads or builds (and caches) a partition's pattern databases, e.g.
        ``build_pdb("4x4", "6-6-3")``; returns which were cached and which built, in how long.
        Searches with ``heuristic="pdb"`` (or ``auto``) then use them."""
        request = _request(puzzle=puzzle, partition=partition, goal=goal, force=force)
        return _json.loads(self._native.build_pdb_json(request))


default_session = Session()
"""The session the module-level functions use (the command line's cache folder and memory
budget)."""


def solve(puzzle, position, **options):
    """:meth:`Session.solve` on :data:`default_session`."""
    return default_session.solve(puzzle, position, **options)


def solve_many(puzzle, positions, **options):
    """:meth:`Session.solve_many` on :data:`default_session`."""
    return default_session.solve_many(puzzle, positions, **options)


def bfs(puzzle, **options):
    """:meth:`Session.bfs` on :data:`default_session`."""
    return default_session.bfs(puzzle, **options)


def scramble(puzzle, **options):
    """:meth:`Session.scramble` on :data:`default_session`."""
    return default_session.scramble(puzzle, **options)


def build_pdb(puzzle, partition, **options):
    """:meth:`Session.build_pdb` on :data:`default_session`."""
    return default_session.build_pdb(puzzle, partition, **options)


def replay(puzzle, position, solution, *, goal=None):
    """The positions a solution passes through: ``{"positions": [...], "solved": bool}``
    (tile lists, or 54-sticker facelet strings for cubes)."""
    request = _request(puzzle=puzzle, position=position, solution=solution, goal=goal)
    return _json.loads(_replay_json(request))


def parse(puzzle, position, *, goal=None):
    """Reads a position as a solve would and returns it written out: a board as its tile
    list (refused with :class:`InputError` if it cannot reach ``goal``), a cube (facelets or
    moves) as its 54 facelets (refused if no cube can be so: a twisted corner, a flipped edge,
    a parity)."""
    return replay(puzzle, position, "", goal=goal)["positions"][0]


def puzzles():
    """The puzzles, algorithms, heuristics and metrics on offer."""
    return _json.loads(_catalog_json())
