"""Readable as a board, measured in a real browser: the text Plotly draws is where the
views meant it to be.

Each figure is drawn by plotly.js in headless Debian Chromium (Playwright, no network) inside a
container of a given width, and the boxes of the drawn SVG elements are read back
(``getBoundingClientRect``):

* map (Germany and USA, both editions, a full table and a small play area, several widths): no city
  label overlaps another city label, a link-cost label or any marker (cities, slots, houses, link
  costs), and every city label is inside the plot area;
* map legend: every entry inside the figure, also at the play table's size;
* plant cards (every plant 3-50, both editions, Steps 1-2 and 3, the discount): the number and the
  print inside the card; the key of card colours: no name on a square, none clipped;
* the players' boards (2, 4 and 6 players): each plant card's print inside it, the name, money and
  cities lines on no card and inside the plot;
* zoom and pan survive a refresh (``uirevision``).

Screenshots go to test-artifacts/readable/. Without chromium these tests fail with instructions
(``POWERGRID_NO_BROWSER=1`` skips them), as in test_views_browser.py.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import pytest
from _browser import ROOT, plotly_page, require_browser, trust_game
from _helpers_steps import S3, scenario
from _position import random_game

from powergrid_nb import Game, Open, new_game
from powergrid_nb.engine.rules.plants import PLANTS
from powergrid_nb.frames import owned_plants_frame
from powergrid_nb.views import map_figure, plants_figure, players_figure, update
from powergrid_nb.views.mapboard import fit_height, table_width
from powergrid_nb.views.plants import FUEL_COLORS, KEY_NAME

SHOTS = ROOT / "test-artifacts" / "readable"
Box = list[float]

# The drawn boxes of a figure: city labels, link-cost labels, every marker, the legend's entries,
# annotations and the card rectangles (layout shapes, in page pixels), the plot area and the figure.
MEASURE_JS = """(gd) => {
  const R = el => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const out = {cities: [], costs: [], markers: [], texts: [], legend: [], notes: [], cards: []};
  gd.querySelectorAll('.scatterlayer .trace').forEach(tr => {
    const d = tr.__data__ && tr.__data__[0] && tr.__data__[0].trace;
    if (!d || d.visible !== true) return;
    tr.querySelectorAll('.textpoint text').forEach(t => {
      const row = [t.textContent, ...R(t)];
      (d.legendgroup === 'regions' ? out.cities : d.name === 'link costs' ? out.costs : out.texts).push(row);
    });
    tr.querySelectorAll('.points path.point').forEach(p => {
      const b = R(p); if (b[2] > b[0]) out.markers.push([d.name, ...b]);
    });
  });
  gd.querySelectorAll('.legend .legendtext').forEach(t => out.legend.push([t.textContent, ...R(t)]));
  gd.querySelectorAll('.annotation').forEach(a => {
    const t = a.querySelector('text'); if (t && t.textContent) out.notes.push([t.textContent, ...R(t)]);
  });
  const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis, plot = gd.querySelector('.nsewdrag');
  const p = plot.getBoundingClientRect();
  (gd._fullLayout.shapes || []).forEach(s => {
    if (s.type === 'rect' && s.xsizemode !== 'pixel' && s.line.width > 0)  // not a token tray
      out.cards.push([p.left + xa.l2p(s.x0), p.top + ya.l2p(s.y1),
                      p.left + xa.l2p(s.x1), p.top + ya.l2p(s.y0)]);
  });
  out.plot = R(plot); out.figure = R(gd);
  const title = gd.querySelector('.gtitle'); out.title = title ? R(title) : null;
  return out;
}"""


def hit(a: Box, b: Box, tol: float = 0.5) -> bool:
    """Do two boxes overlap by more than ``tol`` px both ways?"""
    return a[0] < b[2] - tol and b[0] < a[2] - tol and a[1] < b[3] - tol and b[1] < a[3] - tol


def inside(a: Box, b: Box, tol: float = 0.5) -> bool:
    return b[0] - tol <= a[0] and a[2] <= b[2] + tol and b[1] - tol <= a[1] and a[3] <= b[3] + tol


def label_clashes(m: dict[str, Any]) -> list[str]:
    """Every city label that overlaps another label or a marker, or leaves the plot area."""
    bad = []
    for name, *box in m["cities"]:
        others = [("label", n, b) for n, *b in m["cities"] if n != name] + \
                 [("cost", n, b) for n, *b in m["costs"]] + [("marker", n, b) for n, *b in m["markers"]]
        bad += [f"{name} on {kind} {other}" for kind, other, b in others if hit(box, b)]
        if not inside(box, m["plot"]):
            bad.append(f"{name} outside the plot area")
    return bad


@pytest.fixture(scope="module")
def page(chromium_session: Any) -> Iterator[Any]:
    """One page of the run's Chromium with plotly.js loaded; ``draw`` puts a figure in it (None without
    a browser: ``draw`` fails or skips the test with the reason)."""
    if chromium_session is None:
        yield None
        return
    pg = plotly_page(chromium_session, height=1200)  # the tallest map: 1080 px
    yield pg
    pg.close()


def draw(page: Any, fig: go.Figure, width: int, shot: str | None = None) -> dict[str, Any]:
    """Draw ``fig`` (as plotly.js gets it from Python) in a container ``width`` px wide; measure."""
    require_browser()
    data = json.loads(fig.to_json())
    page.evaluate("""([w, fig]) => { const box = document.getElementById('box'); Plotly.purge(box);
        box.innerHTML = ''; box.style.width = w + 'px';
        const gd = document.createElement('div'); box.appendChild(gd);
        return Plotly.newPlot(gd, fig.data, fig.layout, {responsive: true}); }""", [width, data])
    gd = page.query_selector("#box .js-plotly-plot")
    if shot:
        SHOTS.mkdir(parents=True, exist_ok=True)
        gd.screenshot(path=str(SHOTS / shot))
    return page.evaluate(MEASURE_JS, gd)


def mid_game(players: int, map: str, edition: str, seed: int = 4, actions: int = 400) -> Game:
    """A seeded random game some way in (houses on the board)."""
    return random_game(players, map, edition, seed=seed, moves=actions, trust=False if players == 2 else None)


# --- the map -------------------------------------------------------------------------------------

AREAS = {"full": 6, "play-area": 3}  # players: 5 of the 6 regions in play, or 3


@pytest.mark.parametrize("area", list(AREAS))
@pytest.mark.parametrize("edition", ["original", "recharged"])
@pytest.mark.parametrize("map", ["germany", "usa"])
def test_map_labels_clear_of_labels_and_markers(page, map: str, edition: str, area: str) -> None:
    """At the default size (700 px tall, as wide as the notebook's output or a FigureWidget: 700 to
    1400 px), every city label is clear of every other label and marker, and inside the plot area."""
    g = mid_game(AREAS[area], map, edition)
    fig = map_figure(g, player=g.players[0])
    for width in (700, 1000, 1400):
        shot = f"map_{map}_{edition}_{area}.png" if width == 1000 else None
        m = draw(page, fig, width, shot)
        assert len(m["cities"]) == 42 and len(m["costs"]) == len(g.connections_frame())
        assert label_clashes(m) == [], f"{map}/{edition}/{area} at {width} px"


@pytest.mark.parametrize("edition", ["original", "recharged"])
@pytest.mark.parametrize("map", ["germany", "usa"])
def test_map_labels_clear_at_the_play_tables_size(page, map: str, edition: str) -> None:
    """The play table's map (laid out for its narrowest box, ``table_width``, as tall as the map
    there, a fixed title): labels clear as well, from that width on."""
    g = mid_game(3, map, edition)
    width = table_width(g)
    height = fit_height(g, width)
    fig = map_figure(g, height=height, width=width, title=g.map.title, link_hover=False)
    fig.update_layout(autosize=True, width=None)
    for box in (width, 900):
        fig.update_layout(height=fit_height(g, box, least=height))
        assert label_clashes(draw(page, fig, box)) == [], f"{map}/{edition} at {box} px"


def test_the_measure_sees_overlaps(page) -> None:
    """The check is not vacuous: labels all put on their markers are reported."""
    fig = map_figure(new_game(3, map="germany", seed=1))
    fig.update_traces(textposition="middle center", selector=dict(legendgroup="regions"))
    assert len(label_clashes(draw(page, fig, 1000))) >= 42


@pytest.mark.parametrize(("map", "height", "width"), [
    ("germany", 700, 1000), ("usa", 700, 1000), ("germany", 938, 600), ("usa", 581, 700),
    ("germany", 1080, 1040), ("usa", 767, 1040)])
def test_map_legend_inside_the_figure(page, map: str, height: int, width: int) -> None:
    """Every legend entry inside the figure, at the notebook's size and the play table's (its
    narrowest box, and Voila's at 1500 px)."""
    g = new_game(6, map=map, seed=2)
    m = draw(page, map_figure(g, height=height, title=g.map.title), width)
    assert len(m["legend"]) >= 15
    assert [n for n, *b in m["legend"] if not inside(b, m["figure"])] == []


def test_zoom_survives_a_refresh(page) -> None:
    """uirevision: a map zoomed by the mouse stays zoomed when the refreshed figure (update) is drawn
    again with Plotly.react, as a live view is."""
    g = new_game(4, map="usa", seed=5)
    fig = map_figure(g)
    draw(page, fig, 1000)
    plot = page.query_selector("#box .nsewdrag").bounding_box()
    x, y = plot["x"] + plot["width"] * 0.55, plot["y"] + plot["height"] * 0.3
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 200, y + 120, steps=8)  # a zoom box over the north-east
    page.mouse.up()
    js = "() => document.querySelector('#box .js-plotly-plot')._fullLayout.xaxis.range"
    zoom = page.evaluate(js)
    assert zoom[1] - zoom[0] < 0.5 * (fig.layout.xaxis.range[1] - fig.layout.xaxis.range[0])
    rng = random.Random(5)
    for _ in range(120):
        g.apply(rng.choice(g.legal_actions()))
    update(fig, g)
    page.evaluate("""(fig) => Plotly.react(document.querySelector('#box .js-plotly-plot'), fig.data,
                     fig.layout)""", json.loads(fig.to_json()))
    assert page.evaluate(js) == pytest.approx(zoom)


# --- plant cards ---------------------------------------------------------------------------------

def markets() -> list[tuple[str, Game]]:
    """Markets holding every plant (8 a time in Steps 1-2, 6 in Step 3), both editions; the
    Recharged ones with the discount on the lowest plant."""
    nums = sorted(PLANTS)
    out = []
    for edition in ("original", "recharged"):
        for step, n in ((1, 8), (3, 6)):
            for k in range(0, len(nums), n):
                plants = nums[k:k + n] if k + n <= len(nums) else nums[-n:]
                out.append((f"{edition}-step{step}-{plants[0]}", scenario(
                    phase=2, step=step, market=plants, edition=edition,
                    discount="lowest" if edition == "recharged" else None)))
    return out


def card_clashes(m: dict[str, Any]) -> list[str]:
    """Annotations (a card's number and print) that start on a card but leave it."""
    bad = []
    for text, *box in m["notes"]:
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        card = [c for c in m["cards"] if c[0] <= cx <= c[2] and c[1] <= cy <= c[3]]
        if card and not inside(box, card[0]):
            by = [round(a - b) for a, b in zip(box, card[0], strict=True)]
            bad.append(f"{text!r} leaves its card by {by}")
    return bad


def key_clashes(m: dict[str, Any]) -> list[str]:
    """Names of the key of card colours on a square of the key, or outside the figure."""
    squares = [(n, b) for n, *b in m["markers"] if n == KEY_NAME]
    assert len(squares) == len(FUEL_COLORS), squares  # the key's squares, one per fuel
    names = [(t, b) for t, *b in m["texts"]] + [(t, b) for t, *b in m["notes"] if t.startswith("card colour")]
    bad = [f"{t!r} on the {n!r} square" for t, b in names for n, s in squares if hit(b, s)]
    return bad + [f"{t!r} clipped" for t, b in names if not inside(b, m["figure"])]


def test_plant_cards_text_inside_at_every_number(page) -> None:
    """Every plant's number and print inside its card, at the narrowest figure (700 px: what a
    FigureWidget gets in JupyterLab) and a wide one, at the play table's height and the default;
    the key and the title not clipped."""
    auction = scenario(phase=2, step=2, market=[13, 14, 15, 16, 17, 18, 19, 20], edition="recharged")
    auction.apply(Open("Ada", 15, 16))
    auction.apply("Bo: bid 18")
    step3_card = scenario(phase=2, step=2, market=[13, 14, 15, 16, 17, 18, 19, S3])
    for name, g in [*markets(), ("auction", auction), ("step3-card", step3_card)]:
        for height in (430, 460):
            fig = plants_figure(g, height=height)
            for width in (700, 1100):
                m = draw(page, fig, width, "plants_market.png" if name == "recharged-step1-3" and
                         height == 430 and width == 700 else None)
                assert len(m["cards"]) in (6, 8) and len(m["notes"]) >= 13
                assert card_clashes(m) == [], f"{name} at {width} x {height}"
                assert key_clashes(m) == [], f"{name} at {width} x {height}"
                assert inside(m["title"], m["figure"]), f"{name}: the title is clipped"


@pytest.mark.parametrize("players", [2, 4, 6])
def test_players_boards_cards_and_text_inside(page, players) -> None:
    """The players' boards (2p Recharged against the Trust, 4p Germany, 6p USA), at the Players tab's
    width in JupyterLab (655 px) and a wide one: each card's number and print inside it, the name,
    money and cities lines on no card and inside the plot, the title not clipped."""
    g = trust_game() if players == 2 else mid_game(players, *{4: ("germany", "original"),
                                                               6: ("usa", "recharged")}[players], seed=3)
    plants = owned_plants_frame(g)
    fig = players_figure(g)
    empty = sum(1 for s in fig.layout.shapes if s.type == "rect" and s.line.dash == "dot")
    for width in (655, 1100):
        m = draw(page, fig, width, f"players_{players}p.png" if width == 655 else None)
        assert len(m["cards"]) == len(plants) + empty and sum(plants["stored"]) > 0
        assert card_clashes(m) == [], f"{players} players at {width}"
        info = [(t, b) for t, *b in m["notes"] if not any(hit(b, c) for c in m["cards"])]
        assert len(info) >= 3 * len(g.participants)
        assert [t for t, b in info if not inside(b, m["plot"])] == []
        assert inside(m["title"], m["figure"])


def test_screenshots_written(page) -> None:
    """The maps of both boards (original edition, mid-game) and the market, for a look by eye."""
    for map in ("germany", "usa"):
        g = mid_game(4, map, "original")
        draw(page, map_figure(g, player=g.players[0]), 1000, f"map_{map}.png")
    assert all((SHOTS / f).stat().st_size > 20_000 for f in ("map_germany.png", "map_usa.png"))
    assert Path(SHOTS / "map_germany.png").exists()
