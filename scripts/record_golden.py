"""Record the golden corpus (tests/golden/corpus.json.gz) with the engine installed here.

The corpus was recorded at commit bab14b2, its bot games with a HeuristicBot or SearchBot seat again
at 241fe51 (the new heuristic of issue 27; the 220 uniform-random games came out identical), the 11
with a SearchBot seat again for its sequential-halving search.
Re-record only with a game-changing fix that a rule demands, or a bot that plays differently, in its
own commit whose message says why:

    .venv/bin/python scripts/record_golden.py
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import _golden  # noqa: E402


def record(spec: dict) -> dict:
    actions, digests = _golden.play(spec)
    return {**spec, "actions": actions, "digests": digests}


def main() -> None:
    t = time.perf_counter()
    # One fresh process per game: a game must not depend on what was played before it in a process.
    with ProcessPoolExecutor(max_tasks_per_child=1) as pool:
        games = list(pool.map(record, _golden.specs()))
    _golden.write(games)
    n = sum(len(g["actions"]) for g in games)
    print(f"{len(games)} games, {n} actions, {time.perf_counter() - t:.0f} s -> {_golden.CORPUS}")


if __name__ == "__main__":
    main()
