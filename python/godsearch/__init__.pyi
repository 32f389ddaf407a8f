"""Type stubs of the godsearch package: every public name with its arguments and what it
returns (the report dicts are those of ``godsearch ... --json``, see docs/report.schema.json)."""

import os
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Union

__version__: str

class GodsearchError(Exception):
    """The work failed (not the request): a table could not be built or read, ..."""

class InputError(ValueError):
    """The request cannot be done as given: a bad board, cube, option or combination."""

class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped the work; ``report`` holds what it had (IDA*'s proven lower bound)."""
    report: Optional[Dict[str, Any]]

class HintWarning(UserWarning):
    """A hint from the work: something that would make it faster (a database to build)."""

Progress = Optional[Callable[[Dict[str, Any]], Any]]
"""A function called with the job's progress dict four times a second."""

Report = Dict[str, Any]
"""A report dict, as ``--json`` prints it."""

Position = Union[str, Sequence[int], Any]
"""A position: a string, or a board as a list, tuple or numpy array of tiles."""

class Session:
    def __init__(self, cache: Optional[str] = ..., memory: Optional[str] = ...) -> None: ...
    @property
    def cache(self) -> str: ...
    @property
    def memory(self) -> int: ...
    def solve(
        self,
        puzzle: str,
        position: Position,
        *,
        algorithm: Optional[str] = ...,
        heuristic: Optional[str] = ...,
        pdb: Optional[str] = ...,
        no_reflection: bool = ...,
        reverse: bool = ...,
        both_ways: bool = ...,
        goal: Optional[str] = ...,
        stages: Optional[str] = ...,
        effort: Optional[int] = ...,
        depth: Optional[int] = ...,
        metric: Optional[str] = ...,
        facelets: bool = ...,
        moves: bool = ...,
        max_length: Optional[int] = ...,
        optimal: bool = ...,
        all: bool = ...,
        table_size: Optional[str] = ...,
        timeout: Optional[float] = ...,
        generators: Optional[str] = ...,
        known_solution: Optional[str] = ...,
        resume_from: Optional[int] = ...,
        resume_subtrees: Optional[str] = ...,
        resume_way: Optional[Dict[str, Any]] = ...,
        count: Optional[int] = ...,
        table: Optional[Union[str, "os.PathLike[str]"]] = ...,
        progress: Progress = ...,
    ) -> Report: ...
    def solve_many(
        self, puzzle: str, positions: Iterable[Position], **options: Any
    ) -> Iterator[Report]: ...
    def solve_batch(
        self,
        puzzle: str,
        positions: Iterable[Position],
        *,
        table: Optional[Union[str, "os.PathLike[str]"]] = ...,
        progress: Progress = ...,
        **options: Any,
    ) -> List[Report]: ...
    def bfs(
        self,
        puzzle: str,
        *,
        goal: Optional[str] = ...,
        metric: Optional[str] = ...,
        max_depth: Optional[int] = ...,
        count_last: bool = ...,
        generators: Optional[str] = ...,
        save: Optional[Union[str, "os.PathLike[str]"]] = ...,
        progress: Progress = ...,
    ) -> Report: ...
    def scramble(
        self,
        puzzle: str,
        *,
        count: int = ...,
        moves: Optional[int] = ...,
        metric: Optional[str] = ...,
        seed: Optional[int] = ...,
        generators: Optional[str] = ...,
        format: Optional[str] = ...,
        goal: Optional[str] = ...,
        progress: Progress = ...,
    ) -> List[Report]: ...
    def build_pdb(
        self,
        puzzle: str,
        partition: Optional[str] = ...,
        *,
        goal: Optional[str] = ...,
        generators: Optional[str] = ...,
        metric: Optional[str] = ...,
        no_reflection: bool = ...,
        force: bool = ...,
        progress: Progress = ...,
    ) -> Report: ...

default_session: Session

def solve(puzzle: str, position: Position, **options: Any) -> Report: ...
def solve_many(puzzle: str, positions: Iterable[Position], **options: Any) -> Iterator[Report]: ...
def solve_batch(puzzle: str, positions: Iterable[Position], **options: Any) -> List[Report]: ...
def bfs(puzzle: str, **options: Any) -> Report: ...
def scramble(puzzle: str, **options: Any) -> List[Report]: ...
def build_pdb(puzzle: str, partition: Optional[str] = ..., **options: Any) -> Report: ...
def replay(puzzle: str, position: Position, solution: str, *, goal: Optional[str] = ...) -> Report: ...
def parse(puzzle: str, position: Position, *, goal: Optional[str] = ...) -> str: ...
def puzzle(name: str) -> Report: ...
def puzzles() -> Report: ...
