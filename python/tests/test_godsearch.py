"""The Python bindings against the built extension: every function, the errors, a solution
replayed in Python, the reference counts from data/, and the GIL released during work."""

import doctest
import pathlib
import re
import threading
import time

import pytest

import godsearch

DATA = pathlib.Path(__file__).resolve().parents[2] / "data"
BOARD = "8,6,7,2,5,4,3,0,1"
# Korf's instance 88 (65 moves, blank first): hopeless within a test, so it meets any limit.
HARD_BOARD = "15,2,12,11,14,13,9,5,1,3,8,7,0,10,6,4"
BLANK_FIRST = "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"


def levels(name):
    """The `distance count` rows of a reference file."""
    rows = [line.split() for line in (DATA / name).read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    return [int(row[1]) for row in rows]


def play_blank(board, moves, width):
    """Moves the blank of a tile list by U/D/L/R, in plain Python, as an independent check."""
    tiles = [int(t) for t in board.split(",")]
    step = {"U": -width, "D": width, "L": -1, "R": 1}
    for move in moves:
        blank = tiles.index(0)
        target = blank + step[move]
        assert 0 <= target < len(tiles), f"{move} leaves the board"
        if move in "LR":
            assert target // width == blank // width, f"{move} leaves the row"
        tiles[blank], tiles[target] = tiles[target], 0
    return tiles


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    return godsearch.Session(cache=str(tmp_path_factory.mktemp("cache")), memory="2G")


@pytest.mark.parametrize("algorithm,heuristic", [
    ("ida", "manhattan"), ("ida", "linear-conflict"), ("parallel-ida", "manhattan"),
    ("astar", "linear-conflict"), ("auto", None),
])
def test_solve_is_optimal_and_replays_in_python(session, algorithm, heuristic):
    report = session.solve("3x3", BOARD, algorithm=algorithm, heuristic=heuristic)
    assert report["length"] == 31
    assert report["optimal"] is True
    assert report["puzzle"] == "3x3"
    assert report["nodes_expanded"] > 0
    assert play_blank(BOARD, report["solution"], 3) == [1, 2, 3, 4, 5, 6, 7, 8, 0]
    assert godsearch.replay("3x3", BOARD, report["solution"])["solved"] is True


def test_staged_solvers_are_not_optimal_but_reach_the_goal(session):
    report = session.solve("3x3", BOARD, algorithm="two-stage")
    assert report["optimal"] is False and report["length"] >= 31
    assert play_blank(BOARD, report["solution"], 3)[-1] == 0
    board = session.scramble("5x5", seed=4)[0]["position"]
    report = session.solve("5x5", board, algorithm="subgoal")
    goal = list(range(1, 25)) + [0]
    assert play_blank(board, report["solution"], 5) == goal


def test_a_goal_and_a_timeout_give_a_lower_bound(session):
    report = session.solve("4x4", HARD_BOARD, goal=BLANK_FIRST, algorithm="ida",
                           heuristic="manhattan", timeout=0.3)
    assert report["timed_out"] is True
    assert report["solution"] == ""
    assert 40 <= report["lower_bound"] <= 65
    # Serial IDA* does not split its iterations: no subtrees to skip.
    assert report["searched_subtrees"] is None


def test_a_stopped_parallel_search_resumes_past_its_finished_subtrees(session):
    korf_1 = "14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3"  # 57 moves
    options = dict(goal=BLANK_FIRST, algorithm="parallel-ida", heuristic="manhattan")
    # A stop inside an iteration with a subtree finished: not too soon after one begins, nor
    # after the search ends (about 0.4 s on a quiet machine), whatever the load.
    for tenths in range(1, 16):
        stopped = session.solve("4x4", korf_1, timeout=tenths / 10, **options)
        if stopped["timed_out"] and stopped["searched_subtrees"]:
            break
    else:
        raise AssertionError("no stop with finished subtrees")
    resumed = session.solve("4x4", korf_1, resume_from=stopped["lower_bound"],
                            resume_subtrees=stopped["searched_subtrees"], **options)
    assert resumed["length"] == 57
    assert resumed["thresholds"][0] == stopped["lower_bound"]
    with pytest.raises(godsearch.InputError, match="resume_from"):
        session.solve("4x4", korf_1, resume_subtrees=stopped["searched_subtrees"], **options)
    # The way that finished them, named for probes: both directions probed, and the way
    # chosen, forwards or not, ends at the same length.
    token = dict(resume_from=stopped["lower_bound"], resume_subtrees=stopped["searched_subtrees"])
    forwards = {"pdb": None, "reverse": False}
    probed = session.solve("4x4", korf_1, both_ways=True, probe=0.05, resume_way=forwards,
                           **token, **options)
    assert probed["length"] == 57 and probed["chosen_way"] is not None
    with pytest.raises(godsearch.InputError, match="without probe"):
        session.solve("4x4", korf_1, resume_way=forwards, **token, **options)


def test_pattern_databases_are_built_cached_and_used(tmp_path):
    session = godsearch.Session(cache=str(tmp_path), memory="1G")
    built = session.build_pdb("3x3", "4-4")
    assert [g["origin"] for g in built["groups"]] == ["built", "built"]
    assert sum(g["entries"] for g in built["groups"]) > 0
    assert pathlib.Path(built["cache"]) == tmp_path
    again = godsearch.Session(cache=str(tmp_path)).build_pdb("3x3", "4-4")
    assert [g["origin"] for g in again["groups"]] == ["cached", "cached"]
    report = session.solve("3x3", BOARD, algorithm="ida", heuristic="pdb", pdb="4-4")
    assert report["heuristic"].startswith("pdb 4-4") and report["length"] == 31
    # The two 4-tile tables, as the search holds them: spread to their direct index (9^4
    # bytes each) from the 3,024 entries each holds in the cache.
    assert sum(g["entries"] for g in built["groups"]) == 2 * 3024
    assert report["memory_bytes"] == 2 * 9 ** 4
    # Searched from the goal to the board, with databases built for the board as the goal.
    back = session.solve("3x3", BOARD, algorithm="ida", pdb="4-4", reverse=True)
    assert back["length"] == 31 and back["heuristic"].endswith("from the goal to the board")
    # Both ways in turn: the same length, and the report says who found it.
    raced = session.solve("3x3", BOARD, algorithm="ida", pdb="4-4", both_ways=True)
    assert raced["length"] == 31 and "both ways: solved" in raced["heuristic"]
    # Two partitions probed: the way chosen is named, the length the same.
    probed = session.solve("3x3", BOARD, algorithm="ida", pdb=["4-4", "1,2,4,5/3,6,7,8"],
                           probe=0.001)
    assert probed["length"] == 31 and "probes of 2 ways" in probed["heuristic"]
    assert probed["chosen_way"]["pdb"] in ("4-4", "1,2,4,5/3,6,7,8")


def test_building_ahead_takes_the_mirror_image_a_reflected_solve_reads(tmp_path):
    # The 2x4's goal (blank last, in a corner) is kept by no mirror of the board.
    session = godsearch.Session(cache=str(tmp_path), memory="1G")
    alone = session.build_pdb("2x4", "1,2,3/4,5,6,7", no_reflection=True)
    assert [g["origin"] for g in alone["groups"]] == ["built", "built"]
    both = session.build_pdb("2x4", "1,2,3/4,5,6,7")
    assert [g["origin"] for g in both["groups"]] == ["cached", "cached", "built", "built"]
    assert both["partition"] == "1,2,3/4,5,6,7 and its mirror image"


def test_bfs_counts_equal_the_published_figures(session):
    report = session.bfs("3x3")
    assert report["levels"] == levels("sliding-3x3.txt")
    assert report["complete"] is True and report["diameter"] == 31
    assert sorted(report["antipodes"]) == ["6,4,7,8,5,0,3,2,1", "8,6,7,2,5,4,3,0,1"]
    cube = session.bfs("2x2x2", metric="qtm")
    assert cube["levels"] == levels("cube2x2x2-qtm.txt")
    partial = session.bfs("4x4", max_depth=12)
    assert partial["levels"] == levels("sliding-4x4.txt")[:13]
    assert partial["complete"] is False


def test_cubes_solve_and_replay(session):
    report = session.solve("2x2x2", "R U F2 D' R2")
    assert report["optimal"] is True
    replayed = godsearch.replay("2x2x2", "R U F2 D' R2", report["solution"])
    assert replayed["solved"] is True
    assert len(replayed["positions"]) == report["length"] + 1
    made = session.scramble("3x3x3", moves=9, seed=2)[0]
    assert made["length"] == 9
    assert godsearch.replay("3x3x3", "", made["scramble"])["positions"][-1] == made["position"]


def test_parse_writes_positions_out_and_refuses_bad_ones():
    assert godsearch.parse("3x3", "123456780") == "1,2,3,4,5,6,7,8,0"
    assert godsearch.parse("4x4", "123456789ABCDEF0").startswith("1,2,3,4,5")
    solved = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"
    assert godsearch.parse("3x3x3", "R R'") == solved
    assert godsearch.parse("3x3x3", "R") != solved
    with pytest.raises(godsearch.InputError, match="unsolvable"):
        godsearch.parse("3x3", "2,1,3,4,5,6,7,8,0")
    twisted = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"
    twisted = "F" + twisted[1:9] + twisted[9:18] + twisted[18:20] + "U" + twisted[21:]
    with pytest.raises(godsearch.InputError):
        godsearch.parse("3x3x3", twisted)


def test_scrambles_repeat_with_a_seed(session):
    first = session.scramble("4x4", count=3, seed=11)
    assert first == session.scramble("4x4", count=3, seed=11)
    assert len(first) == 3
    for made in first:
        # A uniform random board is solvable: the search finds a path (or its bound).
        assert sorted(int(t) for t in made["position"].split(",")) == list(range(16))



def test_scrambles_are_drawn_for_the_goal_asked(session):
    # On the 4x2 no board reaches both goals: each drawn for Korf's solves for it alone.
    for made in session.scramble("4x2", count=5, seed=3, goal="blank-first"):
        solved = session.solve("4x2", made["position"], goal="blank-first")
        assert solved["length"] >= 0
        with pytest.raises(godsearch.InputError, match="unsolvable"):
            session.solve("4x2", made["position"])
    walk = session.scramble("3x3", moves=0, goal="blank-first")[0]
    assert walk["position"] == "0,1,2,3,4,5,6,7,8"
    with pytest.raises(godsearch.InputError, match="goal"):
        session.scramble("3x3x3", goal="blank-first")

@pytest.mark.parametrize("call,needle", [
    (lambda: godsearch.solve("3x3", "1,2,3,4,5,6,8,7,0"), "unsolvable"),
    (lambda: godsearch.solve("3x3", "1,2,3,4,5,6,7,7,0"), "more than once"),
    (lambda: godsearch.solve("3x3", "1,2,3"), "has 9 cells"),
    (lambda: godsearch.solve("7x7x7", "x"), "unknown puzzle"),
    (lambda: godsearch.solve("3x3", BOARD, algorithm="quantum"), "unknown variant"),
    (lambda: godsearch.solve("3x3", BOARD, algorithm="two-stage", heuristic="pdb"),
     "heuristic is used only by IDA* and A*"),
    (lambda: godsearch.solve("3x3x3", "R U X", moves=True), "unknown move 'X'"),
    (lambda: godsearch.solve("3x3x3", "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBU",
                             facelets=True), "is on 10 stickers"),
    (lambda: godsearch.bfs("3x3", metric="qtm"), "metric is for cubes"),
    (lambda: godsearch.build_pdb("2x2x2", "4-4"), "for sliding-tile boards"),
    (lambda: godsearch.replay("3x3", "1,2,3,4,5,6,7,8,0", "D"), "off the board"),
    (lambda: godsearch.Session(memory="lots"), "memory"),
])
def test_bad_input_raises_input_error_naming_keywords(call, needle):
    with pytest.raises(godsearch.InputError) as raised:
        call()
    message = str(raised.value)
    assert needle in message
    # Options are named as the keyword arguments, never as the command line's flags.
    assert re.search(r"(^|[\s(])--[a-z]", message) is None, message
    assert isinstance(raised.value, ValueError)


def test_the_gil_is_released_during_work(session):
    done = {}

    def work():
        done["report"] = session.solve("4x4", HARD_BOARD, goal=BLANK_FIRST, algorithm="ida",
                                       heuristic="manhattan", timeout=1.5)

    worker = threading.Thread(target=work)
    worker.start()
    time.sleep(0.2)
    counted, until = 0, time.monotonic() + 0.5
    while time.monotonic() < until:
        counted += 1
    assert worker.is_alive(), "the search ended too early to tell"
    assert counted > 10_000, "this thread barely ran: the GIL was held"
    worker.join()
    assert done["report"]["timed_out"] is True


def test_the_catalog_lists_puzzles_and_options():
    catalog = godsearch.puzzles()
    names = [p["name"] for p in catalog["puzzles"]]
    assert "4x4" in names and "3x3x3" in names
    assert "linear-conflict" in catalog["heuristics"]
    assert "6-6-3" in next(p for p in catalog["puzzles"] if p["name"] == "4x4")["partitions"]
    skewb = next(p for p in catalog["puzzles"] if p["name"] == "skewb")
    assert skewb["kind"] == "definition" and skewb["moves"] == ["R", "U", "L", "B"]
    assert (skewb["solution"], skewb["patterns"]) == ("moves", True)
    cube = next(p for p in catalog["puzzles"] if p["name"] == "3x3x3")
    assert (cube["solution"], cube["patterns"]) == ("cube", False)
    assert godsearch.solve("skewb", "R U' L")["length"] == 3
    assert godsearch.__version__


def test_any_puzzle_name_or_file_has_an_entry():
    assert godsearch.puzzle("pancake-12")["goal"] == ",".join(str(i) for i in range(1, 13))
    board = godsearch.puzzle("15-puzzle")
    assert board["name"] == "4x4" and board["view"] == {"shape": "board", "width": 4, "height": 4}
    assert "pdb" in board["options"] and "metric" not in board["options"]
    pyraminx = godsearch.puzzle(str(DATA / "definitions" / "pyraminx-no-tips.tws"))
    assert pyraminx["view"] == {"shape": "orbits"} and pyraminx["metrics"] == ["htm", "qtm"]
    with pytest.raises(godsearch.InputError, match="pancake-N with N from 2 to 20"):
        godsearch.puzzle("pancake-40")


def test_a_definition_puzzles_databases_are_built_ahead(tmp_path):
    three = str(DATA / "definitions" / "3x3x3.kpuzzle.json")
    session = godsearch.Session(cache=str(tmp_path), memory="64M")
    built = session.build_pdb(three)
    assert built["goal"] == "solved"
    assert "EDGES slots 0-4 with their orientations" in [g["what"] for g in built["groups"]]
    assert {g["origin"] for g in built["groups"]} == {"built"}
    again = session.build_pdb(three)
    assert {g["origin"] for g in again["groups"]} == {"cached"}
    with pytest.raises(godsearch.InputError, match="partition"):
        session.build_pdb(three, "6-6-3")
    # A damaged file is never trusted: the solve leaves it out and its report says so, until
    # the databases are built ahead again.
    largest = max(tmp_path.iterdir(), key=lambda f: f.stat().st_size)
    data = bytearray(largest.read_bytes())
    data[len(data) // 2] ^= 0x5A
    largest.write_bytes(bytes(data))
    scramble = "R U F' L2 B D R2 F U'"
    report = session.solve(three, scramble)
    assert report["length"] == 9
    assert len(report["notes"]) == 1 and "damaged" in report["notes"][0]
    rebuilt = session.build_pdb(three)
    assert [g["origin"] for g in rebuilt["groups"]].count("built") == 1
    assert "notes" not in session.solve(three, scramble)


def test_definition_files_enumerate_and_solve(session):
    pyraminx = str(DATA / "definitions" / "pyraminx-no-tips.tws")
    report = session.bfs(pyraminx)
    assert report["levels"] == levels("pyraminx-no-tips.txt")
    two = str(DATA / "definitions" / "2x2x2.kpuzzle.json")
    quarter = session.bfs(two, generators="U,F,R", metric="qtm")
    assert quarter["levels"] == levels("cube2x2x2-qtm.txt")
    solved = godsearch.solve(str(DATA / "definitions" / "skewb.kpuzzle.json"), "R U L' B")
    assert solved["optimal"] is True and solved["length"] == 4
    with pytest.raises(godsearch.InputError, match="is for the built-in puzzles"):
        session.solve(pyraminx, "U", heuristic="pdb")
    with pytest.raises(godsearch.InputError, match="unknown move"):
        session.solve(pyraminx, "U X")
    listed = session.solve(two, "R U F", count=6)
    lengths = [len(s.split()) for s in listed["solutions"]]
    assert len(lengths) == 6 and lengths[0] == listed["length"] == 3 and lengths == sorted(lengths)
    # A batch builds the puzzle's tables once: the positions after the first reuse them.
    first, second = session.solve_many(two, ["R U", "F"])
    assert first["build_seconds"] > 0 and second["build_seconds"] == 0
    assert second["solution"] == "F'"


def test_a_saved_distance_table_solves_by_descent(session, tmp_path):
    # bfs(save=) writes the table; solve(table=) descends through it, as the command line's
    # `bfs --save` and `solve --table` do, for boards, the 2x2x2 and definition puzzles.
    board_table = tmp_path / "2x3.table"
    report = session.bfs("2x3", save=board_table)
    assert report["complete"] and board_table.stat().st_size > 0
    board = "4,1,2,5,0,3"
    solved = session.solve("2x3", board, table=board_table)
    assert solved["length"] == session.solve("2x3", board)["length"]
    assert play_blank(board, solved["solution"], 2) == [1, 2, 3, 4, 5, 0]  # 2 wide, 3 high
    skewb_table = tmp_path / "skewb.table"
    session.bfs("skewb", save=str(skewb_table))
    by_table = session.solve("skewb", "R U L' B", table=str(skewb_table))
    assert by_table["length"] == 4
    # A table is checked to be the puzzle's before it is read.
    with pytest.raises((godsearch.InputError, godsearch.GodsearchError), match="2x3|skewb|table"):
        session.solve("pyraminx", "R U", table=skewb_table)
    # Options are named as keyword arguments, not as the command line's flags.
    with pytest.raises(godsearch.InputError, match="^table is for the 2x2x2; .* the cache \\(cache\\)"):
        session.solve("3x3x3", "R U", table=board_table)


def test_the_pancake_puzzle_comes_from_the_registry(session):
    # No Python code names it: the registry's entry is all it takes.
    assert any(p["kind"] == "pancake" for p in godsearch.puzzles()["puzzles"])
    report = session.bfs("pancake-7")
    assert report["levels"] == [1, 6, 30, 149, 543, 1357, 1903, 1016, 35]
    solved = session.solve("pancake-8", "3,1,4,8,2,7,5,6")
    assert solved["optimal"] is True and solved["length"] == 8
    by_table = session.solve("pancake-8", "3,1,4,8,2,7,5,6", algorithm="table")
    assert by_table["length"] == 8
    with pytest.raises(godsearch.InputError, match="given twice"):
        session.solve("pancake-4", "1,1,2,3")


def test_solve_many_streams_reports_in_order(session):
    read = []

    def boards():
        for board in ["1,2,3,4,5,6,7,0,8", [1, 2, 3, 4, 5, 6, 0, 7, 8], BOARD]:
            read.append(board)
            yield board

    reports = session.solve_many("3x3", boards(), heuristic="manhattan")
    assert next(reports)["length"] == 1
    # Positions are read as the reports are asked for.
    assert len(read) == 1
    rest = list(reports)
    assert [r["length"] for r in rest] == [2, 31]
    assert rest[0]["start"] == "1,2,3,4,5,6,0,7,8"
    with pytest.raises(godsearch.InputError, match="a position is a string"):
        session.solve("3x3", [1, "x", 3])


def test_solve_batch_solves_a_list_at_once_in_order(session):
    boards = ["1,2,3,4,5,6,7,0,8", (1, 2, 3, 4, 5, 6, 0, 7, 8), BOARD]
    reports = session.solve_batch("3x3", boards, heuristic="manhattan")
    assert [r["length"] for r in reports] == [1, 2, 31]
    assert reports[2]["solution"] == session.solve("3x3", BOARD, heuristic="manhattan")["solution"]
    assert [r["solution"] for r in session.solve_batch("2x2x2", ["R U", "F"])] == ["U' R'", "F'"]
    # Every position is read before any work; the one at fault is named by its index.
    with pytest.raises(godsearch.InputError, match=r"positions\[1\]"):
        session.solve_batch("3x3", [BOARD, "1,1,2,3,4,5,6,7,8"])
    # Puzzles without batches are solved a position at a time, the same way.
    assert [r["length"] for r in session.solve_batch("pancake-5", ["2,1,3,4,5", "1,2,3,4,5"])] == [1, 0]


def test_numpy_boards_and_integers_are_taken(session):
    numpy = pytest.importorskip("numpy")
    board = numpy.array([[8, 6, 7], [2, 5, 4], [3, 0, 1]])
    report = session.solve("3x3", board, algorithm="ida", timeout=numpy.float64(30))
    assert report["length"] == 31
    made = session.scramble("3x3", count=numpy.int64(2), seed=numpy.uint32(5))
    assert len(made) == 2


def test_the_docstring_examples_run(tmp_path, monkeypatch):
    # The module-level functions use the default session: here one with a cache of its own.
    monkeypatch.setattr(godsearch, "default_session", godsearch.Session(cache=str(tmp_path)))
    failures, tried = doctest.testmod(godsearch)
    assert tried >= 20 and failures == 0


PUBLIC_FUNCTIONS = ["solve", "solve_many", "bfs", "scramble", "build_pdb", "replay", "parse",
                    "puzzles"]


@pytest.mark.parametrize("name", PUBLIC_FUNCTIONS)
def test_every_public_function_has_a_numpy_style_docstring_with_examples(name):
    module_level = getattr(godsearch, name).__doc__
    assert "Examples\n    --------\n    >>> " in module_level, name
    # The full description is the function's own, or its Session method's.
    full = getattr(godsearch.Session, name, getattr(godsearch, name)).__doc__
    for section in ["Parameters", "Returns", "Raises", "Examples"]:
        if name == "puzzles" and section in ("Parameters", "Raises"):
            continue  # takes nothing and refuses nothing
        assert f"{section}\n" in full and "--------" in full, f"{name}: no {section}"


def test_progress_reaches_the_callback_and_tables_are_logged(tmp_path, caplog):
    seen = []
    session = godsearch.Session(cache=str(tmp_path), memory="1G")
    with caplog.at_level("INFO", logger="godsearch"):
        session.build_pdb("4x4", "6-6-3", progress=seen.append)
    assert seen, "a 1-second build was never reported"
    assert any(p["tables"].startswith("the 6-6-3 pattern databases, ") for p in seen), seen
    assert all(isinstance(p["seconds"], float) for p in seen)
    assert any("loading or building the 6-6-3 pattern databases" in r.getMessage()
               for r in caplog.records), caplog.records
    searched = []
    report = session.solve("4x4", HARD_BOARD, goal=BLANK_FIRST, algorithm="ida",
                           heuristic="manhattan", timeout=0.8, progress=searched.append)
    assert report["timed_out"] is True
    assert searched and max(p["threshold"] for p in searched) > 0


def test_progress_names_the_way_probed():
    seen = []
    report = godsearch.solve("4x4", HARD_BOARD, goal=BLANK_FIRST, algorithm="ida",
                             heuristic="manhattan", both_ways=True, probe=0.5, timeout=1.5,
                             progress=seen.append)
    assert report["timed_out"] is True
    probes = [p["probe"] for p in seen if p["probe"] is not None]
    assert probes, seen
    # Each way by its number in the order probed (forwards, then backwards) and its name.
    for probe in probes:
        assert probe["ways"] == 2 and probe["name"] == ["forwards", "backwards"][probe["way"] - 1]


def test_a_callback_that_raises_stops_the_work():
    def give_up(progress):
        raise ValueError("enough")

    started = time.perf_counter()
    with pytest.raises(ValueError, match="enough"):
        godsearch.solve("4x4", HARD_BOARD, goal=BLANK_FIRST, algorithm="ida",
                        heuristic="manhattan", progress=give_up)
    assert time.perf_counter() - started < 5


def test_ctrl_c_raises_interrupted_with_the_proven_lower_bound():
    import _thread
    timer = threading.Timer(0.6, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(godsearch.Interrupted) as stopped:
            godsearch.solve("4x4", HARD_BOARD, goal=BLANK_FIRST, algorithm="ida",
                            heuristic="manhattan")
    finally:
        timer.cancel()
    assert isinstance(stopped.value, KeyboardInterrupt)
    report = stopped.value.report
    assert report["timed_out"] is True and 40 <= report["lower_bound"] <= 65


def test_a_database_that_would_help_is_a_hint_warning(tmp_path):
    session = godsearch.Session(cache=str(tmp_path), memory="1G")
    easy = "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,0,24"
    with pytest.warns(godsearch.HintWarning, match="6-6-6-6"):
        report = session.solve("5x5", easy)
    assert report["length"] == 1


def test_every_call_is_quick_for_quick_work(session):
    # A fixed wait per call (there was one of 50 ms) would make these 100 take 5 s.
    started = time.perf_counter()
    for _ in range(100):
        session.solve("3x3", BOARD, heuristic="manhattan")
    assert time.perf_counter() - started < 2.5


def test_the_type_stubs_cover_every_public_name():
    import ast
    package = pathlib.Path(godsearch.__file__).parent
    assert (package / "py.typed").exists()
    stub = ast.parse((package / "__init__.pyi").read_text())
    declared = set()
    for node in stub.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            declared.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            declared.add(node.target.id)
    assert set(godsearch.__all__) <= declared, set(godsearch.__all__) - declared
    session_stub = next(n for n in stub.body if isinstance(n, ast.ClassDef) and n.name == "Session")
    methods = {n.name for n in session_stub.body if isinstance(n, ast.FunctionDef)}
    public = {m for m in dir(godsearch.Session) if not m.startswith("_")}
    assert public <= methods, public - methods


def test_the_stubs_pass_mypy_strict():
    mypy = pytest.importorskip("mypy.api")
    example = pathlib.Path(__file__).parent / "typed" / "example.py"
    out, err, status = mypy.run(["--strict", "--no-incremental", str(example)])
    assert status == 0, out + err
