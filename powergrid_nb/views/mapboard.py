"""Where the map view draws a map: a deterministic layout for one figure size (``board``), the
country outline from the map file, and the room the legend takes.

The layout itself is :func:`powergrid_nb.views._fit.board`; this module feeds it a map's cities and
links at the pixel scale of the figure's plot area, and caches the result per map and size.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from powergrid_nb.engine.board.mapfile import parse_outline, read_json

from . import _fit

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

PAD = 0.04               # margin around the map, as a share of its larger span
EDGE = 30                # px: the least margin around the map (room for a label at the edge)
NOMINAL_WIDTH = 700      # px: the width the board is laid out for when the figure autosizes (a
                         # FigureWidget's in JupyterLab; a wider figure only gives it more room)
MARGIN = dict(l=10, r=10, t=50, b=10)
SLOT_DX, SLOT_DY = 14.0, 15.0            # px between slots; from a city's centre down to its slot row
SLOT_BOX = (-21.5, 7.5, 21.5, 22.5)      # px: the slot row (three 13 px houses) around a city's centre


@dataclass(frozen=True)
class Board:
    """Where a map is drawn at one nominal figure size: each city (lon, lat; a few cities moved apart
    from their true place), its label's ``textposition``, where each link's cost sits along it (0
    first city, 1 second), the slots' offsets (lon, lat) from a city, the axis ranges, and what
    still clashes at that size (nothing on the built-in maps)."""

    xy: dict[str, tuple[float, float]]
    text: dict[str, str]
    costs: dict[tuple[str, str], tuple[float, float]]
    slots: list[tuple[float, float]]
    xrange: list[float]
    yrange: list[float]
    ratio: float
    scale: float
    font: int
    clashes: tuple[str, ...]
    legend_below: bool  # a wide map: the legend goes under it (the map gets the full width)


@functools.lru_cache(maxsize=8)
def outline(path: str | None) -> tuple[tuple[tuple[float, float], ...], ...]:
    """The country outline of the map file at ``path`` (rings of lon, lat), () without one."""
    if path is None:
        return ()
    where = Path(path)
    return tuple(tuple(r) for r in parse_outline(read_json(where), where.name))


def legend_size(g: Game) -> tuple[int, int]:
    """Pixels the map view's legend takes beside the map (its width) or under it (its height, laid
    out in rows: one column per group, each as tall as its longest group)."""
    names = [*(f"{r} (not in play)" for r in g.map.regions), *g.participants, "links (not in play)",
             "slot not open yet"]
    rows = max(len(g.map.regions), len(g.participants)) + 1
    return round(max(_fit.text_width(n, 12) for n in names) + 52), 19 * rows + 16


def board(g: Game, height: int = 700, width: int | None = None) -> Board:
    """The board of ``g``'s map for a figure ``height`` x ``width`` px (None: autosized, laid out
    for ``NOMINAL_WIDTH``), with room for the map view's legend."""
    cities = tuple((n, c.lon, c.lat) for n, c in g.map.cities.items())
    return _board(cities, tuple((a, b) for a, b, _ in g.map.connections), g.map.path, height,
                  width or NOMINAL_WIDTH, legend_size(g))


@functools.lru_cache(maxsize=32)
def _board(cities: tuple[tuple[str, float, float], ...], links: tuple[tuple[str, str], ...],
           path: str | None, height: int, width: int, legend: tuple[int, int]) -> Board:
    lats = [c[2] for c in cities]
    ratio = 1 / math.cos(math.radians((min(lats) + max(lats)) / 2))
    pts = {n: (lon, lat * ratio) for n, lon, lat in cities}
    rings = outline(path)
    xs = [p[0] for p in pts.values()] + [x for r in rings for x, _ in r]
    ys = [p[1] for p in pts.values()] + [y * ratio for r in rings for _, y in r]
    w, h = width - MARGIN["l"] - MARGIN["r"], height - MARGIN["t"] - MARGIN["b"]
    pad = PAD * max(max(xs) - min(xs), max(ys) - min(ys))
    for _ in range(2):  # the margin: PAD of the map, and room for an edge city's label (px)
        box = (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)
        beside = min((w - legend[0]) / (box[2] - box[0]), h / (box[3] - box[1]))
        below = min(w / (box[2] - box[0]), (h - legend[1]) / (box[3] - box[1]))
        scale = max(beside, below)
        pad = max(pad, EDGE / scale)
    frame = (box[0] * scale + 2, -box[3] * scale + 2, box[2] * scale - 2, -box[1] * scale - 2)
    tries = []
    for font, attempts in ((12, 8), (11, 4)):  # labels of 12 px, else 11 (fewer clashes; 12 on a tie)
        widths = {n: _fit.text_width(n, font) for n in pts}
        tries.append((*_fit.board(pts, links, widths, font, scale, SLOT_BOX, frame, attempts), font))
        if not tries[-1][3]:
            break
    xy, text, ts, clashes, font = min(tries, key=lambda t: len(t[3]))
    return Board({n: (x, y / ratio) for n, (x, y) in xy.items()}, text, dict(zip(links, ts, strict=True)),
                 [((k - 1) * SLOT_DX / scale, -SLOT_DY / scale / ratio) for k in range(3)],
                 [box[0], box[2]], [box[1] / ratio, box[3] / ratio], ratio, scale, font, tuple(clashes),
                 below > beside)


def outline_paths(g: Game) -> list[str]:
    """The map's outline as SVG paths in data coordinates (one per ring), [] without one."""
    return ["M" + "L".join(f"{x},{y}" for x, y in ring) + "Z" for ring in outline(g.map.path)]
