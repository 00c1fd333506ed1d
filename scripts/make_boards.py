"""Write the layouts of the built-in maps that ship with the package (powergrid_nb/views/boards.json).

Laying a map out for the map view takes seconds (the USA's 3-15 s on two shared cores), which a player
waited for when the first table of a map opened (and a squeezed one, as the replay's 560 px Germany, a
minute). The layouts of the built-in maps at the sizes the play table (and a room's table in the class
app), the classroom's view and the replay draw them are made here, once, and found by
``views.mapboard.layout_key`` (the map, the size, the legend's room and the layout code's digest).
Run it after changing ``views/mapboard.py`` or ``views/_fit.py`` (tests/test_map_layouts.py fails until
then, and says so)::

    .venv/bin/python scripts/make_boards.py            # some minutes on two cores

The legend's room depends on the players' names only through its number of rows; every count of rows
that 2-6 players of either edition give (default names to 40-character ones) is laid out.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from powergrid_nb import new_game
from powergrid_nb.panels.classroom_parts import MAP_HEIGHT
from powergrid_nb.panels.replay import Replay
from powergrid_nb.views import mapboard

OUT = Path(mapboard.__file__).with_name(mapboard.SHIPPED)
MAPS = ("germany", "usa")
EDITIONS = ("original", "recharged")  # the Recharged boards have cities of their own
ROWS = range(3, 10)  # the legend's rows under the map at 2-6 players, names of 1-40 characters


def sizes(map_name: str, edition: str) -> list[tuple[int, int, tuple[int, int]]]:
    """(height, width, legend) of every layout of ``map_name`` to ship: the play table's
    (panels.board.Board), the classroom's (panels.classroom_parts.MAP_HEIGHT) and the replay's (its
    default height)."""
    g = new_game(3, map=map_name, edition=edition, seed=1)
    width, box = mapboard.table_width(g), mapboard.land_box(g)
    replay = inspect.signature(Replay.__init__).parameters["height"].default
    legends = [(0, 21 * rows + 8 + mapboard.NOTE) for rows in ROWS]  # as mapboard.legend_size
    return sorted({(height, width, legend) for legend in legends
                   for height in (mapboard.height_for(box, width, legend[1]), MAP_HEIGHT, replay)})


def one(job: tuple[str, str, int, int, tuple[int, int]]) -> tuple[str, dict, float]:
    map_name, edition, height, width, legend = job
    inputs = mapboard.board_inputs(new_game(3, map=map_name, edition=edition, seed=1))
    t = time.perf_counter()
    b = mapboard.lay_out(*inputs, height, width, legend)
    return mapboard.layout_key(*inputs, height, width, legend), mapboard.to_json(b), time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    jobs = [(m, e, *size) for m in MAPS for e in EDITIONS for size in sizes(m, e)]
    layouts: dict[str, dict] = {}
    t0 = time.perf_counter()
    with ProcessPoolExecutor(a.workers) as pool:
        running = {pool.submit(one, job): job for job in jobs}
        for k, done in enumerate(as_completed(running), 1):
            job, (key, layout, secs) = running[done], done.result()
            layouts[key] = layout
            clash = f", clashes: {layout['clashes']}" if layout["clashes"] else ""
            print(f"[{k}/{len(jobs)}] {job[0]} {job[1]} {job[3]}x{job[2]} px, legend {job[4][1]} px: "
                  f"{secs:.1f} s{clash}", flush=True)
    OUT.write_text(json.dumps(layouts, sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {len(layouts)} layouts to {OUT} ({OUT.stat().st_size // 1024} KiB) in "
          f"{time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
