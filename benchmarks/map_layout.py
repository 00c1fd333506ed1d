"""How long a table's first map takes to lay out: the shipped layout (views/boards.json) against laying
it out (what every kernel did before the layouts shipped), side by side, each in a fresh process.

    .venv/bin/python benchmarks/map_layout.py [--rounds 3]

A 6-player game of each built-in map (original edition) at the play table's size; wall seconds of
``views.mapboard.board`` (shipped) and of ``views.mapboard.lay_out`` (laid out), alternating.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

CHILD = """
import sys, time
from powergrid_nb import new_game
from powergrid_nb.views import mapboard
g = new_game(6, map=sys.argv[1], seed=1)
width = mapboard.table_width(g)
size = (mapboard.fit_height(g, width), width, mapboard.legend_size(g))
t = time.perf_counter()
if sys.argv[2] == "shipped":
    mapboard.board(g, size[0], size[1])
else:
    mapboard.lay_out(*mapboard.board_inputs(g), *size)
print(time.perf_counter() - t)
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    print(f"{'map':<9}{'laid out (s)':>22}{'shipped (s)':>22}")
    for map_name in ("germany", "usa"):
        times: dict[str, list[float]] = {"laid out": [], "shipped": []}
        for k in range(a.rounds):
            for how in (("laid out", "shipped") if k % 2 == 0 else ("shipped", "laid out")):
                out = subprocess.run([sys.executable, "-c", CHILD, map_name, how], capture_output=True,
                                     text=True, check=True).stdout
                times[how].append(float(out))
        cells = [f"{statistics.median(v):.3f} [{min(v):.3f}-{max(v):.3f}]" for v in times.values()]
        print(f"{map_name:<9}{cells[0]:>22}{cells[1]:>22}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
