"""The play table's map read as a board, measured in a real browser.

Germany and USA with 6 players late in a game (BuilderBots played to Step 3 with a player near the
end, every seat's houses on the board, a build plan drawn) are built as the play table builds its map
(``panels.board.Board``: the map's own height, autosized, no mode bar) and drawn by plotly.js in
headless Debian Chromium at the widths the table's map box has:

* the narrowest box (``mapboard.table_width``: 600 px for Germany, 700 px for the USA; where the
  panel beside it would leave less, the table puts the panel under the map);
* 660 px: JupyterLab at 1500 px with the file browser open (Germany; the USA gets the whole width);
* 810 px and 1040 px: Voila at 1280 and 1500 px (the USA's box; Germany's map there is as wide as
  keeps it whole in the window: 600 and 820 px, tests/test_play_browser.py measures it).

At each width the map is as tall as the table makes it (``Board.fit_height``) and the boxes of what
plotly.js drew are read back (``getBoundingClientRect`` of the SVG text elements and point paths):
no city name on another name, a link cost, a marker (city, slot, house, cost square, plan step); no
link cost on another cost or on a city, slot, house or plan marker; names and costs drawn at 12 px
or more; the land (the country outline) at least 600 px across at Voila's 1500 px; no horizontal
scrollbar. Screenshots go to test-artifacts/readable/ (``board_<map>_<width>.png``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from _browser import ROOT, play_until, plotly_page, require_browser

from powergrid_nb import Game, new_game
from powergrid_nb.panels._widgets import CONFIG
from powergrid_nb.views import map_figure
from powergrid_nb.views.mapboard import fit_height, table_width

SHOTS = ROOT / "test-artifacts" / "readable"
WIDTHS = {600: "narrowest box", 660: "Lab 1500 px, file browser open", 700: "narrowest wide-map box",
          810: "Voila 1280 px", 820: "Voila 1500 px, Germany whole in the window", 1040: "Voila 1500 px"}
VOILA_1500 = {"germany": 820, "usa": 1040}  # the map's width in Voila at 1500x1100

MEASURE_JS = """(gd) => {
  const R = el => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const out = {names: [], costs: [], squares: [], markers: [], fonts: []};
  gd.querySelectorAll('.scatterlayer .trace').forEach(tr => {
    const d = tr.__data__ && tr.__data__[0] && tr.__data__[0].trace;
    if (!d || d.visible !== true) return;
    const kind = d.legendgroup === 'regions' ? 'names' : d.name === 'link costs' ? 'costs' : null;
    tr.querySelectorAll('.textpoint text').forEach(t => {
      if (!t.textContent) return;
      if (kind) out[kind].push([t.textContent, ...R(t)]);
      out.fonts.push([d.name, t.textContent, parseFloat(getComputedStyle(t).fontSize)]);
    });
    tr.querySelectorAll('.points path.point').forEach(p => {
      const b = R(p); if (b[2] <= b[0]) return;
      (d.name === 'link costs' ? out.squares : out.markers).push([d.name, ...b]);
    });
  });
  const land = gd.querySelector('.shapelayer path');
  out.land = land ? R(land) : null;
  out.plot = R(gd.querySelector('.nsewdrag'));
  out.figure = R(gd);
  out.modebar = !!gd.querySelector('.modebar');
  out.scroll = [document.documentElement.scrollWidth, document.documentElement.clientWidth];
  return out;
}"""


def hit(a: list[float], b: list[float], tol: float = 0.5) -> bool:
    return a[0] < b[2] - tol and b[0] < a[2] - tol and a[1] < b[3] - tol and b[1] < a[3] - tol


def inside(a: list[float], b: list[float], tol: float = 0.5) -> bool:
    return b[0] - tol <= a[0] and a[2] <= b[2] + tol and b[1] - tol <= a[1] and a[3] <= b[3] + tol


def overlaps(m: dict[str, Any]) -> list[str]:
    """Every drawn name on a name, a cost or a marker; every cost on a cost or a marker; every cost
    square on a marker or another square (the cost's own square is where its text is drawn)."""
    bad = []
    names, costs, squares, markers = m["names"], m["costs"], m["squares"], m["markers"]
    for i, (name, *box) in enumerate(names):
        bad += [f"name {name} on name {n}" for n, *b in names[i + 1:] if hit(box, b)]
        bad += [f"name {name} on cost {c}" for c, *b in costs if hit(box, b)]
        bad += [f"name {name} on cost square" for _, *b in squares if hit(box, b)]
        bad += [f"name {name} on {k}" for k, *b in markers if hit(box, b)]
        if not inside(box, m["plot"]):
            bad.append(f"name {name} outside the plot area")
    for i, (cost, *box) in enumerate(costs):
        bad += [f"cost {cost} on cost {c}" for c, *b in costs[i + 1:] if hit(box, b)]
        bad += [f"cost {cost} on {k}" for k, *b in markers if hit(box, b)]
    for i, (_, *box) in enumerate(squares):
        bad += [f"cost square on {k}" for k, *b in markers if hit(box, b)]
        bad += ["cost square on cost square" for _, *b in squares[i + 1:] if hit(box, b)]
    return bad


def late_game(map: str, seed: int = 3) -> Game:
    """6 players, BuilderBots to Step 3, a player at 10 or more cities, at the building phase."""
    g = new_game(6, map=map, edition="original", seed=seed)
    return play_until(g, seed, lambda g: g.step >= 3 and g.phase_name == "building"
                      and max(g.city_count(p) for p in g.players) >= 10)


def table_map(g: Game) -> tuple[Any, int]:
    """The map as the play table builds it (``panels.board.Board``), and its height there."""
    who = g.current_player
    free = [c for c in g.map.cities if c not in g.houses() and g.cities_frame().loc[c, "in_play"]]
    width = table_width(g)
    height = fit_height(g, width)
    fig = map_figure(g, player=who, plan=free[:2], height=height, width=width, title=g.map.title,
                     link_hover=False)
    fig.update_layout(autosize=True, width=None)
    return fig, height


@pytest.fixture(scope="module")
def page(chromium_session: Any) -> Iterator[Any]:
    if chromium_session is None:
        yield None
        return
    pg = plotly_page(chromium_session)
    yield pg
    pg.close()


def draw(page: Any, fig: Any, width: int, height: int, shot: str) -> dict[str, Any]:
    """Draw ``fig`` at ``height`` in a box ``width`` px wide (as FitMap sizes the table's map), with the
    table's plotly config; screenshot; measure."""
    require_browser()
    data = json.loads(fig.to_json())
    data["layout"]["height"] = height
    page.evaluate("""([w, fig, config]) => { const box = document.getElementById('box'); Plotly.purge(box);
        box.innerHTML = ''; box.style.width = w + 'px';
        const gd = document.createElement('div'); box.appendChild(gd);
        return Plotly.newPlot(gd, fig.data, fig.layout, {...config, responsive: true}); }""",
                  [width, data, CONFIG])
    gd = page.query_selector("#box .js-plotly-plot")
    SHOTS.mkdir(parents=True, exist_ok=True)
    gd.screenshot(path=str(SHOTS / shot))
    return page.evaluate(MEASURE_JS, gd)


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    return {m: late_game(m) for m in ("germany", "usa")}


@pytest.mark.parametrize("map", ["germany", "usa"])
def test_table_map_reads_as_a_board(page, games, map: str) -> None:
    g = games[map]
    fig, height = table_map(g)
    assert sum(len(g.cities_of(p)) for p in g.players) >= 30  # a board full of houses
    lands = {}
    for width, where in WIDTHS.items():
        if width < table_width(g):
            continue  # the table gives the map no box this narrow
        h = fit_height(g, width, least=height)
        m = draw(page, fig, width, h, f"board_{map}_{width}.png")
        assert len(m["names"]) == len(g.map.cities) and len(m["costs"]) == len(g.map.connections)
        assert overlaps(m) == [], f"{map} at {width} px ({where})"
        small = [f for f in m["fonts"] if f[2] < 12]
        assert small == [], f"{map} at {width} px: text under 12 px {small[:5]}"
        assert not m["modebar"], "the table's map has no mode bar"
        assert m["scroll"][0] <= m["scroll"][1], f"{map} at {width} px: a horizontal scrollbar"
        assert m["figure"][2] - m["figure"][0] <= width + 0.5, "the figure is wider than its box"
        lands[width] = m["land"][2] - m["land"][0]
    land = lands[VOILA_1500[map]]
    assert land >= 600, f"{map}: the land is {land:.0f} px across in Voila at 1500 px"
    assert land >= min(lands.values()), "a wider box draws the map no smaller"


def test_the_measure_sees_overlaps(page, games) -> None:
    """Not vacuous: names put on their markers, costs moved onto their first city, are reported."""
    g = games["germany"]
    fig, height = table_map(g)
    fig.update_traces(textposition="middle center", selector=dict(legendgroup="regions"))
    m = draw(page, fig, table_width(g), height, "board_measure_check.png")
    assert sum(s.startswith("name ") for s in overlaps(m)) >= len(g.map.cities)
