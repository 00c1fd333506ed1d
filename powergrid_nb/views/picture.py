"""A static picture of a position (SVG map and an HTML summary), like python-chess's board pictures.

A notebook that displays a ``Game`` keeps this picture beside the live table, so the saved notebook shows
the position on GitHub or nbviewer, where widgets do not run. Plain SVG and HTML: no script, no network.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from powergrid_nb.engine.rules.plants import PLANTS, STEP3

from ._base import RESOURCE_COLORS, player_color

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

__all__ = ["position_html", "position_svg"]

CHAR_WIDTH = 0.56  # of the font size: a generous average for Arial, so label boxes never overlap


def _card(n: int) -> str:
    if n == STEP3:
        return "Step 3"
    p = PLANTS[n]
    return f"{n:02d} ({p.tokens} {p.fuel} → {p.cities})" if p.tokens else f"{n:02d} ({p.fuel} → {p.cities})"


def position_svg(g: Game, width: int = 460) -> str:
    """The map: links and cities of the play area, houses in their owners' colours, the names of the
    cities with houses where they fit without overlapping; the rest of the board faded."""
    cities = g.map.cities
    inside = set(g.play_area)
    lats = [c.lat for c in cities.values()]
    lons = [c.lon for c in cities.values()]
    ratio = 1 / math.cos(math.radians((min(lats) + max(lats)) / 2))
    span_x, span_y = max(lons) - min(lons), (max(lats) - min(lats)) * ratio
    pad = 24
    scale = (width - 2 * pad) / max(span_x, span_y / 1.0)
    height = int(span_y * scale + 2 * pad)

    def xy(name: str) -> tuple[float, float]:
        c = cities[name]
        return pad + (c.lon - min(lons)) * scale, pad + (max(lats) - c.lat) * ratio * scale

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="Arial, Helvetica, sans-serif" role="img" '
           f'aria-label="{html.escape(g.map.title)}: the position">',
           f'<rect width="{width}" height="{height}" fill="#F7F7F2"/>']
    for a, b, _ in g.map.connections:
        (x1, y1), (x2, y2) = xy(a), xy(b)
        live = a in inside and b in inside
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                   f'stroke="{"#9A9A9A" if live else "#E0E0E0"}" stroke-width="{1.2 if live else 0.8}"/>')
    houses = g.houses()
    for name in cities:
        x, y = xy(name)
        live = name in inside
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{4 if live else 2.5}" '
                   f'fill="{"#FFFFFF" if live else "#EEEEEE"}" stroke="{"#555" if live else "#CCC"}">'
                   f'<title>{html.escape(name)}</title></circle>')
        for k, owner in enumerate(houses.get(name, [])):
            out.append(f'<rect x="{x - 7 + 5 * k:.1f}" y="{y - 12:.1f}" width="5" height="5" '
                       f'fill="{player_color(g, owner)}" stroke="#222" stroke-width="0.5">'
                       f'<title>{html.escape(owner)}: house in {html.escape(name)}</title></rect>')
    marks = [(x - 5, y - 5, x + 5, y + 5) for x, y in map(xy, cities)]  # the city circles
    marks += [(x - 8, y - 13, x + 9, y - 6) for x, y in map(xy, houses)]  # their houses
    out += _labels(sorted(houses), xy, width, height, marks)
    out.append("</svg>")
    return "".join(out)


def _labels(names: list[str], xy: Callable[[str], tuple[float, float]], width: int, height: int,
            marks: list[tuple[float, float, float, float]]) -> list[str]:
    """Names beside their cities, right or left, skipping a name whose box would overlap another name,
    a city or a house (``marks``)."""
    size, placed, out = 10, list(marks), []
    for name in names:
        x, y = xy(name)
        w = CHAR_WIDTH * size * len(name)
        for x0 in (x + 7, x - 7 - w):
            box = (x0, y - size / 2 + 5, x0 + w, y + size / 2 + 5)
            if box[0] < 0 or box[2] > width or box[3] > height:
                continue
            if all(box[2] <= b[0] or box[0] >= b[2] or box[3] <= b[1] or box[1] >= b[3] for b in placed):
                placed.append(box)
                out.append(f'<text x="{x0:.1f}" y="{box[3] - 1:.1f}" font-size="{size}" '
                           f'fill="#333">{html.escape(name)}</text>')
                break
    return out


def position_html(g: Game) -> str:
    """The map and, beside it, the state of play: round, step, phase and whose turn; each player's money,
    cities, plants and tokens; the plant market and the resource market."""
    if g.is_over:
        status = f"Game over: {', '.join(g.winners)} win{'s' if len(g.winners) == 1 else ''}"
    else:
        status = f"{html.escape(str(g.current_player))} to act"
    head = (f"<b>{html.escape(g.map.title)}</b> · {g.edition} edition · round {g.round} · step {g.step} · "
            f"phase {g.phase} ({g.phase_name}) · {status}")
    rows = []
    for p in g.participants:
        tokens = ", ".join(f'<span style="color:{RESOURCE_COLORS[r]}">{n} {r}</span>'
                           for r, n in g.tokens_of(p).items() if n) or "—"
        plants = ", ".join(_card(n) for n in g.plants_of(p)) or "—"
        money = "—" if p == g.trust else f"{g.money(p)} E"
        rows.append(f'<tr><td><span style="color:{player_color(g, p)}">■</span> {html.escape(p)}</td>'
                    f"<td>{money}</td><td>{len(g.cities_of(p))}</td><td>{plants}</td><td>{tokens}</td></tr>")
    market = ", ".join(_card(n) for n in g.current_market()) or "—"
    future = ", ".join(_card(n) for n in g.future_market()) or "—"
    res = ", ".join(f"{n} {r}" for r, n in g.resource_market().items())
    cell = 'style="padding:2px 8px;text-align:left"'
    table = (f'<table style="border-collapse:collapse;font-size:12px"><tr><th {cell}>player</th>'
             f"<th {cell}>money</th><th {cell}>cities</th><th {cell}>plants</th><th {cell}>tokens</th></tr>"
             + "".join(r.replace("<td>", f"<td {cell}>") for r in rows) + "</table>")
    side = (f'<div style="font-size:12px;line-height:1.5">{head}{table}'
            f"<div>Plant market: {market}</div><div>Future market: {future}</div>"
            f"<div>Resource market: {res}</div></div>")
    return (f'<div class="powergrid-position" style="display:flex;gap:16px;align-items:flex-start;'
            f'flex-wrap:wrap;font-family:Arial, Helvetica, sans-serif">{position_svg(g)}{side}</div>')


def picture(g: Game) -> Any:
    """The static picture of the position as an IPython ``HTML`` object (``g.picture()``)."""
    from IPython.display import HTML

    return HTML(position_html(g))
