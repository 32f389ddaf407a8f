"""godsearch from Python: solve, enumerate and scramble sliding-tile puzzles and Rubik's cubes.

The same engines, rules and reports as the command line: every function returns the dict that
``godsearch ... --json`` prints (field names as in docs/report.schema.json), and refuses bad input
with :class:`InputError` (a ``ValueError``) carrying the command line's message, its options named
as the keyword arguments (``max_length``, not ``--max-length``).

    >>> import godsearch
    >>> r = godsearch.solve("3x3", "8,6,7,2,5,4,3,0,1", algorithm="ida")
    >>> r["length"], r["optimal"]
    (31, True)
    >>> godsearch.bfs("3x3")["levels"][:5]
    [1, 2, 4, 8, 16]

Long work runs with the GIL released (other Python threads go on), and Ctrl-C stops it: IDA*
within a moment, an enumeration after the level under way. The :class:`Interrupted` it raises
(a ``KeyboardInterrupt``) keeps what the work had in ``report``: IDA*'s proven lower bound.
Every call that does work takes ``progress``, a function called with the job's progress dict
(seconds, threshold, nodes, level, the tables being loaded or built, and with ``probe`` the
way probed or chosen: ``{"way": 2, "name": "6-6-6-6 backwards", "ways": 4, "chosen": False}``)
four times a second; table loads and builds are also logged on the ``godsearch`` logger at
INFO, and hints (a database that would make the work faster) are issued as :class:`HintWarning`.

Tables (pattern databases, the cube's two-phase and optimal tables) are cached on disk, in the
command line's cache folder unless a :class:`Session` names another, and kept loaded by the
session between calls. The module-level functions use :data:`default_session`.
"""

import json as _json
import logging as _logging
import warnings as _warnings

from ._native import GodsearchError, InputError, Interrupted, __version__
from ._native import Session as _NativeSession
from ._native import catalog_json as _catalog_json
from ._native import puzzle_json as _puzzle_json
from ._native import replay_json as _replay_json

__all__ = [
    "GodsearchError",
    "InputError",
    "Interrupted",
    "HintWarning",
    "Session",
    "default_session",
    "solve",
    "solve_many",
    "solve_batch",
    "bfs",
    "scramble",
    "replay",
    "parse",
    "build_pdb",
    "puzzle",
    "puzzles",
    "__version__",
]


_log = _logging.getLogger("godsearch")


class HintWarning(UserWarning):
    """A hint from the work: something that would make it faster, such as a pattern database
    to build once with :func:`build_pdb` (it is then cached for every later call)."""


def _call(method, request, progress, **files):
    """Runs a native ``method`` on the JSON ``request`` (and the paths ``files`` names, which
    the JSON never carries): ``progress`` (if given) hears the job's progress dicts, table
    loads and builds are logged, hints are warned, and an interrupt carries the report the
    work stopped with. Returns the report, parsed."""
    tables = [""]

    def hook(text):
        state = _json.loads(text)
        if state["tables"] and state["tables"] != tables[0]:
            _log.info("loading or building %s", state["tables"])
        tables[0] = state["tables"]
        if progress is not None:
            progress(state)

    try:
        report, hints = method(request, hook, **files)
    except Interrupted as stopped:
        stopped.report = _json.loads(stopped.args[1]) if stopped.args[1:] and stopped.args[1] else None
        raise
    for hint in hints:
        _warnings.warn(hint, HintWarning, stacklevel=3)
    return _json.loads(report)


def _plain(value):
    """``value`` as JSON takes it: a numpy integer or float as a Python one (``.item()``)."""
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        return value.item()
    return value


def _request(**fields):
    """The JSON request of the given fields, those left at None omitted; several partitions
    (``pdb`` as a list) as the request writes them, separated by spaces."""
    if isinstance(fields.get("pdb"), (list, tuple)):
        fields["pdb"] = " ".join(fields["pdb"])
    return _json.dumps(
        {k: _plain(v) for k, v in fields.items() if v is not None and v is not False}
    )


def _position(position):
    """A position as the requests take it: a string as it is; a board given as a list, a
    tuple or a numpy array of tiles (any shape, or a list of rows: rows are read in order) as
    its tile list ``"1,2,3,..."``."""
    if isinstance(position, str):
        return position
    if hasattr(position, "ravel"):
        position = position.ravel().tolist()
    try:
        # Rows given as lists or tuples are read in order.
        cells = [t for row in position
                 for t in (row if isinstance(row, (list, tuple)) else [row])]
        tiles = [int(_plain(t)) for t in cells]
    except (TypeError, ValueError):
        raise InputError(
            "a position is a string, or a board as a list, tuple or array of tile numbers"
        ) from None
    return ",".join(str(t) for t in tiles)


class Session:
    """A table cache and the tables loaded from it, kept between calls.

    Parameters
    ----------
    cache : str, optional
        The cache folder (default: the command line's, ``~/.cache/godsearch``).
    memory : str, optional
        What builds and searches may use: ``"4G"``, ``"512M"``, ``"50%"`` or bytes (default:
        the command line's, 80% of the memory this process may use).

    Raises
    ------
    InputError
        When ``memory`` cannot be read.

    Examples
    --------
    >>> s = Session(cache=default_session.cache, memory="1G")
    >>> s.memory
    1073741824
    >>> s.solve("3x3", "1,2,3,4,5,6,7,0,8")["solution"]
    'R'
    """

    def __init__(self, cache=None, memory=None):
        self._native = _NativeSession(cache, memory)

    @property
    def cache(self):
        """The cache folder (str)."""
        return self._native.cache

    @property
    def memory(self):
        """The memory limit, in bytes (int)."""
        return self._native.memory

    def solve(self, puzzle, position, *, algorithm=None, heuristic=None, pdb=None,
              no_reflection=False, reverse=False, both_ways=False, probe=None, goal=None,
              stages=None,
              effort=None,
              depth=None, metric=None, facelets=False, moves=False, max_length=None,
              optimal=False, all=False, table_size=None, timeout=None, generators=None,
              known_solution=None, resume_from=None, resume_subtrees=None, resume_way=None,
              count=None, table=None, progress=None):
        """Solves one position; its solution is replayed against the start first.

        Parameters
        ----------
        puzzle : str
            ``"3x3"``, ``"4x4"``, any ``"WxH"``, ``"2x2x2"``, ``"3x3x3"``, ``"pancake-N"``, or
            the path of a puzzle definition file (KPuzzle JSON or ``.tws``).
        position : str, list, tuple or numpy array
            A board (``"8,6,7,2,5,4,3,0,1"``, hex, or tiles in rows), a cube's 54 facelets,
            or moves (``"R U R' U'"``) for cubes and definition puzzles.
        algorithm : str, optional
            ``auto`` (default), ``ida``, ``parallel-ida``, ``astar``, ``table``,
            ``half-depth``, ``two-stage``, ``subgoal``, ``two-phase``.
        heuristic : str, optional
            ``auto``, ``manhattan``, ``linear-conflict`` or ``pdb``.
        pdb : str or list of str, optional
            A partition by name (``"6-6-3"``) or tile groups (``"1,2,3/4,5,6"``); with
            ``probe``, several (``["6-6-6-6", "6-6-6-6b"]``), each a way to probe.
        timeout : float, optional
            Seconds; IDA* then reports its proven ``lower_bound`` (``timed_out``).
        optimal : bool, optional
            3x3x3: a proven shortest solution (``table_size`` ``small`` or ``1gb``).
        generators : str, optional
            Definition puzzles: the moves to search with (``"U,F,R"``).
        count : int, optional
            Definition puzzles: this many solutions, shortest first, in ``solutions`` (an
            alg search; ``rest_at_least`` is set when a timeout came first). Their reports'
            ``notes`` (when present) name a cached database that was damaged and left out or
            rebuilt, or one that could not be cached.
        table : str or path, optional
            A distance table file saved by :meth:`bfs` (``save=``) or ``godsearch bfs --save``
            to descend through: an optimal solution in microseconds. It is checked to be this
            puzzle's (goal, generators, metric) before it is read. Boards, the 2x2x2 and
            definition puzzles.
        resume_from : int, optional
            Boards, IDA*: the ``lower_bound`` an earlier search of the board proved, so that
            none of its finished iterations is searched again.
        resume_subtrees : str, optional
            Boards, parallel IDA*, with ``resume_from``: the ``searched_subtrees`` token of
            that search's report, so that the subtrees it finished of that bound's iteration
            are skipped too.
        resume_way : dict, optional
            With ``probe`` and ``resume_subtrees``: the report's ``chosen_way`` (``{"pdb":
            ..., "reverse": ...}``) that finished those subtrees. The probes still compare
            every way; that way goes on with them unless another expanded at most half its
            nodes.
        reverse : bool, optional
            Boards, IDA* and A*: search from the goal to the board, with pattern databases
            built (and cached) for the board as the goal; the solution is turned round and
            replayed from the board. The same optimal length, by a search that is far shorter
            on some boards and far longer on others.
        both_ways : bool, optional
            Boards, IDA*: search from both ends in turn, each iteration raced between the two
            directions, the first to finish it proving the next bound for both: at most about
            three times the better direction's time. Builds the databases for the board too.
            With ``probe``, both directions are probed instead.
        probe : float, optional
            Boards, IDA*: seconds to probe each way (each partition of ``pdb``; forwards, or
            with ``both_ways`` each direction) from the start; the one that expanded the fewest
            nodes on the last iteration all finished goes on alone. The report's
            ``chosen_way`` names it.
        progress : callable, optional
            Called with the job's progress dict four times a second while it runs.
        no_reflection, goal, stages, effort, depth, metric, facelets, moves, max_length, all, table_size, known_solution
            As the command line's options (``godsearch solve --help``).

        Returns
        -------
        dict
            The report of ``solve --json``: ``solution``, ``length``, ``optimal``,
            ``nodes_expanded``, ``seconds``, ``lower_bound``, ...

        Raises
        ------
        InputError
            A position that cannot be read or solved, an unknown option value, a combination
            the engines refuse.
        Interrupted
            Ctrl-C; its ``report`` holds what the search had (the proven lower bound).

        Examples
        --------
        >>> r = solve("3x3", [[8, 6, 7], [2, 5, 4], [3, 0, 1]], heuristic="manhattan")
        >>> r["length"], r["optimal"]
        (31, True)
        """
        request = _request(puzzle=puzzle, position=_position(position), algorithm=algorithm,
                           heuristic=heuristic, pdb=pdb, no_reflection=no_reflection,
                           reverse=reverse, both_ways=both_ways, probe=probe, goal=goal,
                           stages=stages,
                           effort=effort, depth=depth,
                           metric=metric, facelets=facelets, moves=moves,
                           max_length=max_length, optimal=optimal, all=all,
                           table_size=table_size, timeout=timeout, generators=generators,
                           known_solution=known_solution, resume_from=resume_from,
                           resume_subtrees=resume_subtrees, resume_way=resume_way,
                           count=count)
        return _call(self._native.solve_json, request, progress, table=table)

    def solve_many(self, puzzle, positions, **options):
        """Solves each of ``positions`` in order, yielding each report as it is found.

        Parameters
        ----------
        puzzle : str
            As for :meth:`solve`.
        positions : iterable
            Positions as :meth:`solve` takes them; read as they are consumed (an open file
            works).
        **options
            Those of :meth:`solve`. The tables load once, for the first position.

        Returns
        -------
        iterator of dict
            One report per position.

        Raises
        ------
        InputError
            As :meth:`solve`, at the position at fault.

        Examples
        --------
        >>> boards = ["1,2,3,4,5,6,7,0,8", (1, 2, 3, 4, 5, 6, 0, 7, 8)]
        >>> [r["length"] for r in solve_many("3x3", boards, heuristic="manhattan")]
        [1, 2]
        """
        for position in positions:
            yield self.solve(puzzle, position, **options)

    def solve_batch(self, puzzle, positions, *, table=None, progress=None, **options):
        """Solves ``positions`` together as one batch: what they need is loaded or built
        once, and where the solver can (the 3x3x3's two-phase) they are spread over every
        core. Each solution is replayed against its start first.

        Parameters
        ----------
        puzzle : str
            As for :meth:`solve`.
        positions : iterable
            Positions as :meth:`solve` takes them, all read before any work (a position that
            cannot be read is refused, named by its index, before any table is built).
        table, progress
            As for :meth:`solve`.
        **options
            The other options of :meth:`solve`, for every position.

        Returns
        -------
        list of dict
            One report a position, in order.

        Raises
        ------
        InputError
            As :meth:`solve`.
        Interrupted
            Ctrl-C; its ``report`` holds the reports of the positions finished.

        Examples
        --------
        >>> boards = ["1,2,3,4,5,6,7,0,8", (1, 2, 3, 4, 5, 6, 0, 7, 8)]
        >>> [r["length"] for r in solve_batch("3x3", boards, heuristic="manhattan")]
        [1, 2]
        """
        request = _request(puzzle=puzzle, positions=[_position(p) for p in positions], **options)
        return _call(self._native.solve_batch_json, request, progress, table=table)

    def bfs(self, puzzle, *, goal=None, metric=None, max_depth=None, count_last=False,
            generators=None, save=None, progress=None):
        """Counts the positions at every distance from the goal (God's algorithm).

        It stops with the exact counts so far at ``max_depth`` or when the next level would
        not fit the session's memory.

        Parameters
        ----------
        puzzle : str
            As for :meth:`solve`.
        goal : str, optional
            Boards: another goal (a board, or ``"blank-first"``: Korf's, ``0,1,...,N-1``).
        metric : str, optional
            Cubes and definition puzzles: ``htm`` or ``qtm``.
        max_depth : int, optional
            The last level to count.
        count_last : bool, optional
            Count the level after the last stored one without storing it.
        generators : str, optional
            Definition puzzles: the moves (``"R,U"``).
        save : str or path, optional
            Save the complete distance table there (written to a temporary file and renamed,
            with the puzzle's identity and a checksum), for :meth:`solve` with ``table=``.
        progress : callable, optional
            Called with the job's progress dict (its ``levels`` so far) four times a second.

        Returns
        -------
        dict
            The report of ``bfs --json``: ``levels`` (exact counts by distance), ``total``,
            ``diameter``, ``complete``, ``antipodes``, ``seconds``, ...

        Raises
        ------
        InputError
            An unknown puzzle or an option it does not take.
        Interrupted
            Ctrl-C; its ``report`` holds the levels finished.

        Examples
        --------
        >>> bfs("2x3")["levels"]
        [1, 2, 3, 5, 6, 7, 10, 12, 12, 16, 23, 25, 28, 39, 44, 40, 29, 21, 18, 12, 6, 1]
        """
        request = _request(puzzle=puzzle, goal=goal, metric=metric, max_depth=max_depth,
                           count_last=count_last, generators=generators)
        return _call(self._native.bfs_json, request, progress, save=save)

    def scramble(self, puzzle, *, count=1, moves=None, metric=None, seed=None,
                 generators=None, format=None, goal=None, progress=None):
        """Uniform random positions, or random canonical move sequences.

        Parameters
        ----------
        puzzle : str
            As for :meth:`solve`.
        count : int, optional
            How many (default 1).
        moves : int, optional
            Random sequences of this many moves instead of uniform positions.
        metric : str, optional
            Cubes: the metric of ``moves``.
        seed : int, optional
            Repeatable draws.
        generators : str, optional
            Definition puzzles: the moves.
        format : str, optional
            Boards: ``list`` (default), ``hex`` or ``grid``.
        goal : str, optional
            Boards: the goal each position can reach (a board, or ``"blank-first"``: Korf's);
            ``moves`` then walks from it.
        progress : callable, optional
            Called with the job's progress dict (the 3x3x3's first call builds its tables).

        Returns
        -------
        list of dict
            Each with ``position`` and, for cubes, ``scramble``.

        Raises
        ------
        InputError
            An unknown puzzle, a count or length out of range.

        Examples
        --------
        >>> first = scramble("3x3", count=2, seed=1)
        >>> first == scramble("3x3", count=2, seed=1) and len(first) == 2
        True
        """
        request = _request(puzzle=puzzle, count=count, moves=moves, metric=metric, seed=seed,
                           generators=generators, format=format, goal=goal)
        return _call(self._native.scramble_json, request, progress)

    def build_pdb(self, puzzle, partition=None, *, goal=None, generators=None, metric=None,
                  no_reflection=False, force=False, progress=None):
        """Loads or builds (and caches) a partition's pattern databases, or every database a
        definition puzzle's solver reads (the larger ones it reads but never builds itself,
        for deep positions, too).

        Searches with ``heuristic="pdb"`` (or ``auto``), and definition puzzles' solves,
        then use them.

        Parameters
        ----------
        puzzle : str
            A board size (``"4x4"``, ``"5x5"``) or a definition file's path.
        partition : str
            Boards: a name (``"6-6-3"``, ``"6-6-6-6"``) or tile groups (``"1,2,3/4,5,6"``).
        goal : str, optional
            Boards: another goal.
        generators : str, optional
            Definition puzzles: the moves the solves search with (``"U,F,R"``).
        metric : str, optional
            Definition puzzles: ``htm`` (default) or ``qtm``.
        no_reflection : bool, optional
            Boards: leave out the databases of the partition's mirror image, which solves
            with reflection (the default) also read where no mirror of the board keeps the
            goal's blank.
        force : bool, optional
            Build again even when cached.
        progress : callable, optional
            Called with the job's progress dict: the database under way and its level.

        Returns
        -------
        dict
            ``groups``: each database's ``what`` (``tiles 1,2,3`` or a projection), a
            group's ``tiles``, ``entries``, ``origin`` (``cached`` or ``built``) and
            ``seconds``.

        Raises
        ------
        InputError
            An unknown partition, or a build over the session's memory.

        Examples
        --------
        >>> [g["tiles"] for g in build_pdb("3x3", "4-4")["groups"]]
        [[8, 7, 5, 4], [6, 3, 2, 1]]
        """
        request = _request(puzzle=puzzle, partition=partition, goal=goal,
                           generators=generators, metric=metric, no_reflection=no_reflection,
                           force=force)
        return _call(self._native.build_pdb_json, request, progress)


default_session = Session()
"""The session the module-level functions use (the command line's cache folder and memory
budget)."""


def solve(puzzle, position, **options):
    """:meth:`Session.solve` on :data:`default_session`.

    Examples
    --------
    >>> solve("3x3", "1,2,3,4,5,6,0,7,8")["solution"]
    'RR'
    """
    return default_session.solve(puzzle, position, **options)


def solve_many(puzzle, positions, **options):
    """:meth:`Session.solve_many` on :data:`default_session`.

    Examples
    --------
    >>> [r["length"] for r in solve_many("3x3", ["1,2,3,4,5,6,7,8,0"])]
    [0]
    """
    return default_session.solve_many(puzzle, positions, **options)


def solve_batch(puzzle, positions, **options):
    """:meth:`Session.solve_batch` on :data:`default_session`.

    Examples
    --------
    >>> [r["length"] for r in solve_batch("2x2x2", ["R U", "F"])]
    [2, 1]
    """
    return default_session.solve_batch(puzzle, positions, **options)


def bfs(puzzle, **options):
    """:meth:`Session.bfs` on :data:`default_session`.

    Examples
    --------
    >>> bfs("3x3", max_depth=3)["levels"]
    [1, 2, 4, 8]
    """
    return default_session.bfs(puzzle, **options)


def scramble(puzzle, **options):
    """:meth:`Session.scramble` on :data:`default_session`.

    Examples
    --------
    >>> len(scramble("4x4", count=3, seed=7))
    3
    """
    return default_session.scramble(puzzle, **options)


def build_pdb(puzzle, partition=None, **options):
    """:meth:`Session.build_pdb` on :data:`default_session`.

    Examples
    --------
    >>> build_pdb("3x3", "4-4")["groups"][0]["entries"]
    3024
    """
    return default_session.build_pdb(puzzle, partition, **options)


def replay(puzzle, position, solution, *, goal=None):
    """The positions a solution passes through.

    Parameters
    ----------
    puzzle : str
        As for :meth:`Session.solve`.
    position : str, list, tuple or numpy array
        The start.
    solution : str
        Moves as ``solve`` reads them: a board's blank moves (``"UULDR"``), cube turns with
        groups, repeats and commutators (``"(R U)2 [R, U]"``).
    goal : str, optional
        Boards: another goal.

    Returns
    -------
    dict
        ``positions`` (the start and the position after each move: tile lists, or 54-sticker
        facelet strings for cubes) and ``solved``.

    Raises
    ------
    InputError
        A position or move that cannot be read, or a move the position cannot make.

    Examples
    --------
    >>> replay("3x3", "1,2,3,4,5,6,7,0,8", "R")
    {'positions': ['1,2,3,4,5,6,7,0,8', '1,2,3,4,5,6,7,8,0'], 'solved': True}
    """
    request = _request(puzzle=puzzle, position=_position(position), solution=solution, goal=goal)
    return _json.loads(_replay_json(request))


def parse(puzzle, position, *, goal=None):
    """Reads a position as a solve would and writes it out.

    Parameters
    ----------
    puzzle : str
        As for :meth:`Session.solve`.
    position : str, list, tuple or numpy array
        A board, a cube's facelets or moves.
    goal : str, optional
        Boards: the goal it must reach.

    Returns
    -------
    str
        A board as its tile list; a cube as its 54 facelets.

    Raises
    ------
    InputError
        A board that cannot reach ``goal``; a cube no cube can be (a twisted corner, a
        flipped edge, a parity).

    Examples
    --------
    >>> parse("3x3", (1, 2, 3, 4, 5, 6, 7, 0, 8))
    '1,2,3,4,5,6,7,0,8'
    >>> parse("3x3x3", "R U R' U'")[:9]
    'UULUUFUUF'
    """
    return replay(puzzle, position, "", goal=goal)["positions"][0]


def puzzle(name):
    """The catalog entry of any puzzle name (``"4x5"``, ``"15-puzzle"``, ``"pancake-12"``) or
    definition file, listed in :func:`puzzles` or not.

    Returns
    -------
    dict
        ``name`` (the one requests use: ``"15-puzzle"`` is ``"4x4"``), ``kind``, ``goal``,
        ``algorithms``, ``partitions``, ``moves``, ``solution`` (the document its solves
        return), ``patterns``, ``view`` (what a page draws: ``{"shape": "board", "width",
        "height"}``, ``stack``, ``cube`` with its ``order``, ``orbits`` or ``text``),
        ``options`` (the solve options it takes; any other is refused), ``metrics``,
        ``heuristics`` and ``default_heuristic`` (in words).

    Raises
    ------
    InputError
        A name no puzzle has, a board that cannot be made, a malformed definition file.

    Examples
    --------
    >>> puzzle("15-puzzle")["view"]
    {'shape': 'board', 'width': 4, 'height': 4}
    >>> puzzle("pancake-12")["options"]
    ['algorithm', 'timeout']
    """
    return _json.loads(_puzzle_json(name))


def puzzles():
    """The puzzles, algorithms, heuristics and metrics on offer.

    Returns
    -------
    dict
        ``puzzles`` (each an entry as :func:`puzzle` gives it; the shipped definitions, such
        as ``skewb``, are listed by name), ``algorithms``, ``heuristics``, ``metrics``,
        ``table_sizes``.

    Examples
    --------
    >>> "manhattan" in puzzles()["heuristics"]
    True
    """
    return _json.loads(_catalog_json())
