"""Where the map view draws a map: a deterministic layout for one figure size (``board``), the
country outline from the map file, and the room the legend takes.

The layout itself is :func:`powergrid_nb.views._fit.board`; this module feeds it a map's cities and
links at the pixel scale of the figure's plot area, and caches the result per map and size. Laying a
map out takes seconds (the USA's 3-15 s), so the layouts of the built-in maps at the play table's size
ship with the package (``boards.json``, written by ``scripts/make_boards.py``): a table opens at once.
Each is found by a digest of everything the layout is made from, this module's and ``_fit``'s code
included, so a layout that the code would no longer make is never used (tests/test_map_layouts.py
says when the file needs writing again).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from powergrid_nb.engine.board.mapfile import parse_outline, read_json

from . import _fit

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

PAD = 0.02               # margin around the map, as a share of its larger span
EDGE = 30                # px: the least margin around the map (room for a label at the edge)
NOMINAL_WIDTH = 600      # px: the width the board is laid out for when the figure autosizes (the
                         # play table's narrowest map box, a FigureWidget's in JupyterLab; a wider
                         # figure only gives it more room)
WIDE_WIDTH = 700         # px: the play table's narrowest box for a map wider than tall
MAX_HEIGHT = 1080        # px: the tallest map :func:`fit_height` asks for (a tall map in a wide box)
MARGIN = dict(l=10, r=10, t=40, b=10)
NOTE = 40                # px under the map for the plan's note (two lines)
FONT, COST_FONT = 12, 12  # px: city names and link costs (legible at arm's length; 13 px names
                          # clashed more on the USA, at the play table's narrowest map)
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
    legend_below: bool  # the legend goes under the map (the map gets the full width): always
    below: int          # px under the map for the plan's note and the legend (the bottom margin)


@functools.lru_cache(maxsize=8)
def outline(path: str | None) -> tuple[tuple[tuple[float, float], ...], ...]:
    """The country outline of the map file at ``path`` (rings of lon, lat), () without one."""
    if path is None:
        return ()
    where = Path(path)
    return tuple(tuple(r) for r in parse_outline(read_json(where), where.name))


def legend_entries(g: Game) -> list[str]:
    """The names in the map view's legend (regions in or out of play: the longer name)."""
    return [*(f"{r} (not in play)" for r in g.map.regions), *g.participants, "links (not in play)",
            "links", "open slot", "slot not open yet", "Ada's network", "plan"]


def legend_height(g: Game, width: int | None = None) -> int:
    """Pixels the map view's legend takes under the map in a figure ``width`` px wide (None:
    ``NOMINAL_WIDTH``): its entries laid out in rows across the figure, as Plotly wraps them."""
    plot = (width or NOMINAL_WIDTH) - MARGIN["l"] - MARGIN["r"]
    rows, used = 1, 0.0
    for name in legend_entries(g):
        w = _fit.text_width(name, 12) + 50  # symbol, gaps
        if used and used + w > plot:
            rows, used = rows + 1, 0.0
        used += w
    return 21 * rows + 8


def legend_size(g: Game) -> tuple[int, int]:
    """Pixels the map view's legend takes beside the map (its width: none, it goes under it) and under
    it (its height at ``NOMINAL_WIDTH`` and two lines of the plan's note above it)."""
    return 0, legend_height(g) + NOTE


def table_width(g: Game) -> int:
    """The width (px) the play table lays its map out for, its narrowest map box: ``NOMINAL_WIDTH``
    for a map taller than wide (its height sets its size), ``WIDE_WIDTH`` for a wide one (its width
    does: at 600 px the USA's east was too crowded for every name and cost to find a clear place)."""
    box = land_box(g)
    return NOMINAL_WIDTH if box[3] - box[1] >= box[2] - box[0] else WIDE_WIDTH


def fit_height(g: Game, width: int, least: int = 0) -> int:
    """The figure height (px, at least ``least``, at most ``MAX_HEIGHT`` unless ``least`` is more) that
    shows the map of ``g`` across a figure ``width`` px wide, with its title and legend."""
    return height_for(land_box(g), width, legend_size(g)[1], least)


def height_for(box: tuple[float, float, float, float], width: int, below: int, least: int = 0) -> int:
    """:func:`fit_height` of a map whose land is ``box`` (:func:`land_box`), with ``below`` px under it."""
    plot = width - MARGIN["l"] - MARGIN["r"] - 2 * EDGE  # the least margin: EDGE px each side
    want = MARGIN["t"] + MARGIN["b"] + below + 2 * EDGE + plot * (box[3] - box[1]) / (box[2] - box[0])
    return max(least, min(MAX_HEIGHT, math.ceil(want)))


def land_box(g: Game) -> tuple[float, float, float, float]:
    """The map's cities and outline in screen units (lon, lat x ratio), with its margin ``PAD``."""
    lats = [c.lat for c in g.map.cities.values()]
    ratio = 1 / math.cos(math.radians((min(lats) + max(lats)) / 2))
    rings = outline(g.map.path)
    xs = [c.lon for c in g.map.cities.values()] + [x for r in rings for x, _ in r]
    ys = [c.lat * ratio for c in g.map.cities.values()] + [y * ratio for r in rings for _, y in r]
    pad = PAD * max(max(xs) - min(xs), max(ys) - min(ys))
    return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad


def board(g: Game, height: int | None = None, width: int | None = None) -> Board:
    """The board of ``g``'s map for a figure ``height`` x ``width`` px (width None: autosized, laid
    out for :func:`table_width`; height None: :func:`fit_height` there), with room for the map
    view's note and legend (under the map)."""
    if height is None:  # as map_figure's default
        height = fit_height(g, width or table_width(g))
    return _board(*board_inputs(g), height, width or table_width(g), legend_size(g))


def board_inputs(g: Game) -> tuple[tuple[tuple[str, float, float], ...], tuple[tuple[str, str], ...],
                                   str | None]:
    """What a layout of ``g``'s map is made from, besides the figure's size: its cities (name, lon,
    lat), its links and its map file (for the outline)."""
    return (tuple((n, c.lon, c.lat) for n, c in g.map.cities.items()),
            tuple((a, b) for a, b, _ in g.map.connections), g.map.path)


@functools.lru_cache(maxsize=32)
def _board(cities: tuple[tuple[str, float, float], ...], links: tuple[tuple[str, str], ...],
           path: str | None, height: int, width: int, legend: tuple[int, int]) -> Board:
    key = layout_key(cities, links, path, height, width, legend)
    found = shipped_layouts().get(key)
    return from_json(found) if found is not None else lay_out(cities, links, path, height, width, legend)


# the layouts the package ships (scripts/make_boards.py), by layout_key
SHIPPED = "boards.json"


@functools.cache
def code_digest() -> str:
    """A digest of the code that lays a board out (this module and ``_fit``): a layout made by other
    code is another layout."""
    h = hashlib.sha256()
    for module in (__file__, _fit.__file__):
        h.update(Path(module).read_bytes())
    return h.hexdigest()


def layout_key(cities: tuple[tuple[str, float, float], ...], links: tuple[tuple[str, str], ...],
               path: str | None, height: int, width: int, legend: tuple[int, int]) -> str:
    """The digest that finds a shipped layout: the cities, links and outline (its points, not its
    file's path), the size, the legend's room and :func:`code_digest`."""
    made_of = [cities, links, outline(path), height, width, legend, code_digest()]
    return hashlib.sha256(json.dumps(made_of, ensure_ascii=False).encode()).hexdigest()


@functools.cache
def shipped_layouts() -> dict[str, dict[str, Any]]:
    """The layouts shipped with the package, by :func:`layout_key` ({} if the file is missing)."""
    where = resources.files(__package__) / SHIPPED
    if not where.is_file():
        return {}
    return json.loads(where.read_text(encoding="utf-8"))


def to_json(b: Board) -> dict[str, Any]:
    """A board as JSON (link costs as [city, city, t, side] rows)."""
    d = dataclasses.asdict(b)
    d["costs"] = [[a, c, *v] for (a, c), v in b.costs.items()]
    return d


def from_json(d: dict[str, Any]) -> Board:
    """The board :func:`to_json` wrote."""
    return Board(xy={n: (x, y) for n, (x, y) in d["xy"].items()}, text=dict(d["text"]),
                 costs={(a, c): (t, side) for a, c, t, side in d["costs"]},
                 slots=[(x, y) for x, y in d["slots"]], xrange=list(d["xrange"]), yrange=list(d["yrange"]),
                 ratio=d["ratio"], scale=d["scale"], font=d["font"], clashes=tuple(d["clashes"]),
                 legend_below=d["legend_below"], below=d["below"])


def lay_out(cities: tuple[tuple[str, float, float], ...], links: tuple[tuple[str, str], ...],
            path: str | None, height: int, width: int, legend: tuple[int, int]) -> Board:
    """Lay a board out (seconds): :func:`board` without the shipped layouts or the cache."""
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
        scale = min(w / (box[2] - box[0]), (h - legend[1]) / (box[3] - box[1]))  # the legend under it
        pad = max(pad, EDGE / scale)
    frame = (box[0] * scale + 2, -box[3] * scale + 2, box[2] * scale - 2, -box[1] * scale - 2)
    tries = []
    widths = {n: _fit.text_width(n, FONT) for n in pts}
    for grow in (0.0, 16.0):  # links grow only where a cost needs room; else every link may, a little
        tries.append((*_fit.board(pts, links, widths, FONT, scale, SLOT_BOX, frame, 16, grow), FONT))
        if not tries[-1][3]:
            break
    xy, text, ts, clashes, font = min(tries, key=lambda t: len(t[3]))
    return Board({n: (x, y / ratio) for n, (x, y) in xy.items()}, text, dict(zip(links, ts, strict=True)),
                 [((k - 1) * SLOT_DX / scale, -SLOT_DY / scale / ratio) for k in range(3)],
                 [box[0], box[2]], [box[1] / ratio, box[3] / ratio], ratio, scale, font, tuple(clashes),
                 True, legend[1])


def outline_paths(g: Game) -> list[str]:
    """The map's outline as SVG paths in data coordinates (one per ring), [] without one."""
    return ["M" + "L".join(f"{x},{y}" for x, y in ring) + "Z" for ring in outline(g.map.path)]
