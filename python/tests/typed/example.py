"""Uses every kind of public name as a typed program would; mypy --strict must accept it
(test_the_stubs_pass_mypy_strict). It is type-checked, never run."""
from typing import Any, Dict, List
import godsearch

def show(progress: Dict[str, Any]) -> None:
    print(progress["seconds"])

report: Dict[str, Any] = godsearch.solve("3x3", [8, 6, 7, 2, 5, 4, 3, 0, 1], progress=show)
levels: List[int] = godsearch.bfs("3x3")["levels"]
try:
    godsearch.Session(memory="1G").solve("4x4", "1,2", timeout=1.0)
except godsearch.Interrupted as stopped:
    print(stopped.report)
