"""How long ``legal_actions()`` takes in an auction as the bidder's money grows, up to the bound.

    .venv/bin/python benchmarks/legal.py [--repeat 200]

For each money value a fresh position (3 players, round 2, phase 2, nobody has opened: every bid on
every plant of the current market is legal, R31) is built ``--repeat`` times and its first
``legal_actions()`` call is timed (``perf_counter``; a game caches its answer, so only the first call
of a position costs). It prints the median and the 95th percentile in ms, and the number of actions.
The bound: 10 ms at any money a game may hold (``powergrid_nb.engine.limits.MAX_MONEY``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from _position import position  # noqa: E402  (the tests' one position builder)

from powergrid_nb.engine.limits import MAX_MONEY  # noqa: E402


def timed(money: int, repeat: int) -> tuple[float, float, int]:
    times, n = [], 0
    for _ in range(repeat):
        g = position(["Ada", "Bo", "Cy"], round=2, phase=2, order=["Ada", "Bo", "Cy"],
                     who={"Ada": {"money": money}})
        t = time.perf_counter()
        legal = g.legal_actions()
        times.append((time.perf_counter() - t) * 1e3)
        n = len(legal)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))], n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=200, help="positions per money value")
    args = ap.parse_args()
    print(f"{'money':>8}  {'actions':>8}  {'median ms':>9}  {'p95 ms':>7}")
    for money in (50, 1_000, 10_000, MAX_MONEY):
        med, p95, n = timed(money, args.repeat)
        print(f"{money:>8,}  {n:>8,}  {med:>9.4f}  {p95:>7.4f}")


if __name__ == "__main__":
    main()
