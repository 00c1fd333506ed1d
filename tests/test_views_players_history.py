"""The players, history and dashboard views: their data equal the frames, and ``update`` keeps them
equal to fresh builds through whole random games (also as a FigureWidget)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pandas as pd
import plotly.graph_objects as go
import plotly.utils
import pytest
from _helpers_setup import buy_uncontested
from _helpers_setup import scenario as scenario_limit
from test_timeline import choose, played

from powergrid_nb import Game, Open, new_game
from powergrid_nb.engine.phases.resources import next_price
from powergrid_nb.frames import owned_plants_frame
from powergrid_nb.position.timeline import auctions_frame, market_history_frame, rounds_frame
from powergrid_nb.views import update
from powergrid_nb.views._base import RESOURCE_COLORS, player_color, player_symbol
from powergrid_nb.views._fit import text_width
from powergrid_nb.views.dashboard import dashboard
from powergrid_nb.views.history import history_figure
from powergrid_nb.views.plants import INSET, LINE, TRAY
from powergrid_nb.views.players import INFO, MARGIN, NOMINAL_WIDTH, PAD, ROW, players_figure

MAPS_DIR = Path(__file__).resolve().parents[1] / "maps"


def scenario() -> Game:
    """Round 3 auction, Germany, 3 players (order Bo, Ada, Cy), plants and tokens set by hand."""
    d = new_game(3, seed=1).to_dict()
    d.pop("history")
    s = d["state"]
    for n in (11, 12, 13, 21):
        s["deck"].remove(n)
    s["round"] = 3
    s.pop("auction_round")
    s.pop("houses")
    s["resources"] = {"coal": 23, "oil": 16, "garbage": 6, "uranium": 1}
    none = {"coal": 0, "oil": 0, "garbage": 0, "uranium": 0}
    s["players"]["Ada"].update(money=23, plants=[13, 21], tokens={**none, "coal": 1, "oil": 2},
                               cities=["Bremen", "Cuxhaven", "Wilhelmshaven"])
    s["players"]["Bo"].update(money=7, plants=[12], tokens=none, cities=["Hamburg"])
    s["players"]["Cy"].update(money=41, plants=[11], tokens={**none, "uranium": 1},
                              cities=["Kiel", "Flensburg"])
    return Game.from_dict(d)


def data(fig) -> list:
    """Trace data as plain JSON (tuples, numpy values and widget types normalised; no widget uid)."""
    out = json.loads(json.dumps([t.to_plotly_json() for t in fig.data], cls=plotly.utils.PlotlyJSONEncoder))
    return [{k: v for k, v in t.items() if k != "uid"} for t in out]


def house_points(tr) -> list:
    """A dashboard house trace's x values; a participant without houses has one None point, which keeps
    them in the "houses:" legend (Plotly leaves traces without points out)."""
    xs = list(tr.x)
    if xs == [None]:
        assert tr.showlegend is True and list(tr.text) == []
        return []
    return xs


def decor(fig) -> list:
    lay = json.loads(json.dumps(fig.layout.to_plotly_json(), cls=plotly.utils.PlotlyJSONEncoder))
    return [lay.get("title"), lay.get("annotations"), lay.get("shapes")]


# --- players ---------------------------------------------------------------------------------

def info_rows(fig) -> list[tuple[str, ...]]:
    """Each participant's name, money and cities lines, top to bottom (the left-anchored annotations)."""
    notes = [plain(a.text) for a in fig.layout.annotations if a.xanchor == "left"]
    return [tuple(notes[k:k + 3]) for k in range(0, len(notes), 3)]


def plain(text: str) -> str:
    return text.replace("<b>", "").replace("</b>", "").replace("<br>", " ")


def card_boxes(fig) -> dict[tuple[str, int], tuple[float, float, float, float]]:
    """(owner, plant) -> the card's box, from the plants trace (a marker at each card's centre) and the
    card's frame (the rect around that centre)."""
    rects = [s for s in fig.layout.shapes if s.type == "rect" and s.xsizemode != "pixel"
             and s.line.width and s.line.dash is None]
    out = {}
    for (owner, plant), x, y in zip(fig.data[1].customdata, fig.data[1].x, fig.data[1].y, strict=True):
        (box,) = [(r.x0, r.y0, r.x1, r.y1) for r in rects if r.x0 < x < r.x1 and r.y0 < y < r.y1]
        out[owner, int(plant)] = box
    return out


def tokens_on(fig, box) -> list[str]:
    """The token squares in a card's tray, left to right: a resource, or "" for an empty space."""
    colour = {c: r for r, c in RESOURCE_COLORS.items()} | {"white": ""}
    squares = sorted((s for s in fig.layout.shapes if s.xsizemode == "pixel"
                      and box[0] < s.xanchor < box[2] and box[1] < s.yanchor < box[3]),
                     key=lambda s: s.xanchor)
    return [colour[s.fillcolor] for s in squares]


def test_players_rows_in_player_order_with_money_and_cities():
    """R74-R76: a row per player in player order (▶ to act), money with the income powering now would
    pay, cities owned and how many they can power now."""
    g = scenario()
    fig = players_figure(g)
    assert info_rows(fig) == [("▶ 1. Bo", "7 Elektro (+10 income)", "1 city, powers 0 now"),
                              ("2. Ada", "23 Elektro (+44 income)", "3 cities, powers 3 now"),
                              ("3. Cy", "41 Elektro (+33 income)", "2 cities, powers 2 now")]
    names = [a for a in fig.layout.annotations if a.xanchor == "left"][::3]
    assert [a.font.color for a in names] == [player_color(g, n) for n in ("Bo", "Ada", "Cy")]
    assert fig.layout.title.text == "Players · round 3 · auction · Bo to act"
    assert len(fig.data) == 2 and fig.data[0].name == "participants" and fig.data[1].name == "plants"


def test_each_plant_is_a_card_with_the_tokens_stored_on_it():
    """R49: every owned plant is a card in its owner's row, smallest first, a space per storage place
    in its tray filled with the token stored there (the green plant 13 has no tray)."""
    g = scenario()
    fig = players_figure(g)
    boxes = card_boxes(fig)
    assert list(boxes) == [("Bo", 12), ("Ada", 13), ("Ada", 21), ("Cy", 11)]
    assert tokens_on(fig, boxes["Bo", 12]) == ["", "", "", ""]
    assert tokens_on(fig, boxes["Ada", 13]) == []
    assert tokens_on(fig, boxes["Ada", 21]) == ["coal", "oil", "oil", ""]
    assert tokens_on(fig, boxes["Cy", 11]) == ["uranium", ""]
    numbers = [plain(a.text) for a in fig.layout.annotations if a.font.size == 22]
    assert numbers == ["12", "13", "21", "11"]
    rows = {n: box[1] for (n, _), box in boxes.items()}
    assert rows["Bo"] > rows["Ada"] > rows["Cy"]  # the rows top to bottom in player order
    assert boxes["Ada", 13][2] < boxes["Ada", 21][0]


@pytest.mark.parametrize("edition, players, opts", [("original", 5, {}), ("recharged", 2, {})])
def test_players_figure_matches_the_frames(edition, players, opts):
    """Mid-game: a row per participant of the players frame, and each row's cards are its owner's
    plants with the tokens ``owned_plants_frame`` places on them."""
    g, _, _ = played(edition, "usa", players, tuple(opts.items()), seed=4, limit=260)
    pf, fig = g.players_frame(), players_figure(g)
    rows = info_rows(fig)
    assert [r[0] for r in rows] == [("▶ " if c else "") + f"{o}. {n}"
                                    for o, n, c in zip(pf["order"], pf.index, pf["is_current"], strict=True)]
    for (_, money, cities), (name, r) in zip(rows, pf.iterrows(), strict=True):
        assert money.startswith("no money" if name == g.trust else f"{r['money']} Elektro")
        assert cities.startswith(f"{r['cities']} cit")
    boxes = card_boxes(fig)
    op = owned_plants_frame(g)
    assert list(boxes) == [(r.owner, int(r.plant)) for r in op.itertuples()]
    for r in op.itertuples():
        held = tokens_on(fig, boxes[r.owner, int(r.plant)])
        assert len(held) == (0 if r.fuel in ("eco", "fusion") else r.storage)
        assert {k: held.count(k) for k in RESOURCE_COLORS} == {k: getattr(r, k) for k in RESOURCE_COLORS}
    assert sum(op["stored"]) > 0


def test_the_trust_row_has_no_money():
    """R130: the Trust takes its plants without paying and never powers: no money, no income, its
    cities alone; its plants are cards like anyone's."""
    g, _, _ = played("recharged", "usa", 2, (), seed=4, limit=260)
    fig = players_figure(g)
    (row,) = [r for r in info_rows(fig) if r[0].endswith("Trust")]
    assert row[1:] == ("no money (the Trust)", f"{len(g.cities_of('Trust'))} cities")
    assert [p for o, p in card_boxes(fig) if o == "Trust"] == g.plants_of("Trust") != []


@pytest.mark.parametrize("edition, players, spaces", [("original", 2, 4), ("original", 4, 3),
                                                      ("recharged", 2, 3)])
def test_empty_plant_spaces_up_to_the_plant_limit(edition, players, spaces):
    """R36: each row has a space per plant a player may hold; at the start all are empty."""
    g = new_game(players, edition=edition, seed=1)
    fig = players_figure(g)
    empty = [s for s in fig.layout.shapes if s.type == "rect" and s.line.dash == "dot"]
    assert g.plant_limit == spaces and len(empty) == spaces * len(g.participants)
    assert len(fig.data[1].x) == 0


def test_over_the_limit_a_row_shows_every_plant_until_one_is_discarded():
    """R36: a player who bought a plant over the limit holds one more until they box one: the row has a
    card for each, inside the figure and none on another."""
    g = scenario_limit("original", 4, round=2, plants={"Ada": [11, 12, 13]})
    buy_uncontested(g, 3)
    assert g.discarding == "Ada"
    boxes = card_boxes(players_figure(g))
    ada = sorted(box for (o, _), box in boxes.items() if o == "Ada")
    assert len(ada) == 4 and ada[-1][2] <= NOMINAL_WIDTH - MARGIN["l"] - MARGIN["r"]
    assert all(a[2] < b[0] for a, b in zip(ada, ada[1:], strict=False))


@pytest.mark.parametrize("edition, players", [(e, n) for e in ("original", "recharged") for n in range(2, 7)])
def test_players_text_fits_at_the_tabs_width(edition, players):
    """2-6 players: at the Players tab's width in JupyterLab every name, money and cities line fits left
    of the cards, and every card's number and print fit the card above its tray (widths from Arial's
    metrics, as the market's cards)."""
    g, _, _ = played(edition, "germany", players, (), seed=players, limit=300)
    fig = players_figure(g)
    assert fig.layout.height == MARGIN["t"] + MARGIN["b"] + ROW * len(g.participants)
    boxes = card_boxes(fig)
    left = min(b[0] for b in boxes.values()) if boxes else INFO
    for a in fig.layout.annotations:
        if a.xanchor == "left":
            assert a.x + text_width(plain(a.text), a.font.size, bold="<b>" in a.text) <= left - PAD, a.text
    for box in boxes.values():
        number, text = [a for a in fig.layout.annotations if a.xanchor != "left" and box[0] < a.x < box[2]
                        and box[1] < a.y < box[3]]
        lines = text.text.split("<br>")
        room = box[2] - box[0] - 2 * INSET
        assert text_width(plain(number.text), number.font.size, bold=True) <= room
        assert max(text_width(t, text.font.size) for t in lines) <= room, lines
        assert text.font.size >= 12
        tray = TRAY + INSET + 2
        top = box[3] - 4 - 1.17 * number.font.size
        assert len(lines) * LINE * text.font.size <= top - (box[1] + tray), lines


# --- history ---------------------------------------------------------------------------------

@pytest.mark.parametrize("edition, map_, players", [("original", "germany", 4), ("recharged", "usa", 2)])
def test_history_lines_equal_timeline_frames(edition, map_, players):
    """Money, cities, powered, income per player; prices per resource; auctions vs face value."""
    g, _, _ = played(edition, map_, players, (), seed=9)
    names = g.players + ([g.trust] if g.trust else [])
    n = len(names)
    fig = history_figure(g)
    assert len(fig.data) == 5 * n + 5
    rf, mf, af = rounds_frame(g), market_history_frame(g), auctions_frame(g)
    ints = lambda s: [None if x is pd.NA else int(x) for x in s]  # noqa: E731
    for k, col in enumerate(("money", "cities", "powered", "income")):
        for j, name in enumerate(names):
            tr, rows = fig.data[k * n + j], rf[rf["player"] == name]
            assert tr.name == name and tr.legendgroup == name
            assert tr.marker.symbol == player_symbol(g, name) and tr.line.color == player_color(g, name)
            if name == g.trust and col != "cities":
                assert list(tr.x) == [] and list(tr.y) == []
            else:
                assert list(tr.x) == ints(rows["round"]) and list(tr.y) == ints(rows[col])
            assert tr.showlegend is (col == "cities")
    for j, res in enumerate(("coal", "oil", "garbage", "uranium")):
        tr, rows = fig.data[4 * n + j], mf[mf["resource"] == res]
        assert list(tr.x) == list(range(1, g.round + 1)) and list(tr.y) == ints(rows["next_price"])
        assert list(tr.y) == [next_price(j, t) for t in rows["tokens"]]
    for j, name in enumerate(names):
        tr, rows = fig.data[4 * n + 4 + j], af[af["player"] == name]
        assert list(tr.x) == ints(rows["plant"]) and list(tr.y) == ints(rows["price"])
        assert [c[1] for c in tr.customdata] == [p - f for p, f in zip(tr.y, tr.x, strict=True)]
        assert [c[0] for c in tr.customdata] == ints(rows["round"])
    diag = fig.data[-1]
    assert diag.name == "paid = face value" and list(diag.x) == list(diag.y) and diag.x[0] == 0


def test_history_of_a_fresh_game_has_every_trace():
    """Round 1 before any sale: the same number of traces, the auction traces empty."""
    g = new_game(6, seed=2)
    fig = history_figure(g)
    assert len(fig.data) == 5 * 6 + 5
    assert all(len(fig.data[4 * 6 + 4 + j].x) == 0 for j in range(6))
    assert list(fig.data[0].y) == [50]


@pytest.mark.provisional
def test_history_marks_round_in_progress_and_discounts():
    """Whole-round ticks; the round being played is shaded and its hovers say "so far"; discount
    purchases (R40) have open markers; the Trust's free takes (R130) sit above the price axis's bottom."""
    g, _, _ = played("recharged", "usa", 2, (), seed=9, limit=100)  # round 9: one discount purchase
    fig, af = history_figure(g), auctions_frame(g)
    assert not g.is_over and fig.layout.xaxis.dtick == 1 and fig.layout.xaxis5.dtick == 1
    (band,) = [s for s in fig.layout.shapes if s.xref == "x"]
    assert (band.x0, band.x1) == (g.round - 0.5, g.round + 0.5)
    assert [c[0] for c in fig.data[0].customdata] == [""] * (g.round - 1) + [" (in progress: so far)"]
    n = len(g.players) + 1
    for j, name in enumerate(g.players + [g.trust]):
        rows, tr = af[af["player"] == name], fig.data[4 * n + 4 + j]
        assert [s.endswith("-open") for s in tr.marker.symbol] == list(rows["discounted"])
    assert af["discounted"].any() and af["trust"].any()
    assert fig.layout.yaxis6.autorangeoptions.include == (-1.5, 10)


# --- dashboard -------------------------------------------------------------------------------

def test_dashboard_scenario_exact():
    """Status title, next-token prices (R117: 1, 3, 7, 16), money/cities bars, houses per player."""
    g = scenario()
    fig = dashboard(g)
    n = 3
    assert len(fig.data) == n + 7
    assert fig.layout.title.text == "Round 3 · Step 1 · Phase: auction · Bo to act"
    for j, name in enumerate(g.players):
        tr = fig.data[3 + j]
        assert tr.name == name and sorted(tr.text) == sorted(g.cities_of(name))
    bars = fig.data[3 + n:]
    assert list(bars[0].x) == ["coal", "oil", "garbage", "uranium"] and list(bars[0].y) == [1, 3, 7, 16]
    assert list(bars[0].text) == ["23 left", "16 left", "6 left", "1 left"]
    assert list(bars[1].x) == ["1. Bo", "2. Ada", "3. Cy"] and list(bars[1].y) == [7, 23, 41]
    assert list(bars[2].y) == [1, 3, 2] and list(bars[3].y) == [0, 3, 2]
    cities = fig.data[2]
    houses = dict(zip(cities.text, (c[0] for c in cities.customdata), strict=True))
    assert houses["Bremen"] == 1 and houses["Hannover"] == 0


def test_dashboard_lists_every_participant_and_fits_the_map():
    """Fresh game: every player in the "houses:" legend; the map's ranges hug the cities (4 % margin)."""
    g = new_game(4, map="usa", seed=2)
    fig = dashboard(g)
    for j, name in enumerate(g.players):
        assert fig.data[3 + j].name == name and house_points(fig.data[3 + j]) == []
    lons = [c.lon for c in g.map.cities.values()]
    x0, x1 = fig.layout.xaxis.range
    m = 0.04 * (max(lons) - min(lons))   # the USA is wider than tall: its width sets the margin
    assert (x0, x1) == pytest.approx((min(lons) - m, max(lons) + m))
    assert fig.layout.xaxis.constrain == fig.layout.yaxis.constrain == "domain"
    assert fig.layout.yaxis.scaleanchor == "x"


@pytest.mark.provisional
def test_dashboard_trust_has_no_money():
    """The Trust has no purse: "–" and no bar in the money chart, as in the players view."""
    g, _, _ = played("recharged", "germany", 2, (), seed=3, limit=120)
    assert g.trust == "Trust"
    money = dashboard(g).data[3 + 3 + 1]
    k = [label.endswith("Trust") for label in money.x].index(True)
    assert money.y[k] == 0 and money.text[k] == "–" and money.customdata[k][0] == "no money (the Trust)"
    assert sorted(t for i, t in enumerate(money.text) if i != k) == sorted(str(g.money(n)) for n in g.players)


def test_dashboard_auction_and_build_costs():
    """A running auction shows in the title; ``player`` puts that player's build costs in the hovers."""
    g = scenario()
    g.apply(Open("Bo", 3, 5))
    assert "Auction: plant 3, Bo leads at 5 Elektro" in dashboard(g).layout.title.text
    fig = dashboard(g, player="Cy")
    hover = dict(zip(fig.data[2].text, (c[2] for c in fig.data[2].customdata), strict=True))
    cost = g.build_cost("Cy", "Hannover")
    assert cost is not None and cost > 10 and hover["Hannover"] == f"Cy builds for {cost} Elektro"
    assert hover["Hamburg"] == "Cy cannot build"  # R58: Step 1, Bo has its only slot
    assert hover["Kiel"] == "Cy cannot build"  # Cy is there already
    assert fig.layout.meta == {"view": "dashboard", "args": {"player": "Cy"}}


CONFIGS = [(e, m, n) for e in ("original", "recharged") for m in ("germany", "usa") for n in range(2, 7)]


@pytest.mark.parametrize("edition, map_, players", CONFIGS)
def test_dashboard_builds_for_every_configuration(edition, map_, players):
    """Both maps, both editions, 2-6 players (2p Recharged: the Trust): n + 7 traces, in any phase."""
    g, _, _ = played(edition, map_, players, (), seed=players, limit=150)
    names = g.players + ([g.trust] if g.trust else [])
    fig = dashboard(g)
    assert len(fig.data) == len(names) + 7
    for j, name in enumerate(names):
        assert len(house_points(fig.data[3 + j])) == len(g.cities_of(name))
    assert len(players_figure(g).data) == 2 and len(history_figure(g).data) == 5 * len(names) + 5


@pytest.mark.parametrize("make", [
    lambda: new_game(4, edition="recharged", seed=1, starting_cities=True),  # R134: phase 0
    lambda: played("original", "germany", 3, (), seed=2)[0],  # game over
    lambda: new_game(3, map=str(MAPS_DIR / "usa.json"), seed=5),  # a user map file
    lambda: Game.from_dict({k: v for k, v in played("recharged", "usa", 2, (), seed=3,
                                                     limit=120)[0].to_dict().items() if k != "history"}),
])
def test_views_build_in_odd_positions(make):
    g = make()
    for build in (players_figure, history_figure, dashboard):
        fig = build(g)
        assert isinstance(fig, go.Figure) and fig.layout.meta["view"] in ("players", "history", "dashboard")
    if g.is_over:
        assert "Game over" in dashboard(g).layout.title.text


# --- update through whole games ----------------------------------------------------------------

def run_updates(g: Game, seed: int, every: int, widget: bool) -> tuple[int, int]:
    """Random game to its end; every ``every`` actions (and at the end) ``update`` each view and
    compare it with a fresh build. Returns (actions, checks)."""
    rng = random.Random(seed)
    builds = (players_figure, history_figure, dashboard)
    figs = [build(g) for build in builds]
    if widget:
        figs = [go.FigureWidget(f) for f in figs]
    counts = [len(f.data) for f in figs]
    checks, n = 0, 0
    while True:
        if n % every == 0 or g.is_over:
            for fig, build, count in zip(figs, builds, counts, strict=True):
                assert update(fig, g) is fig and len(fig.data) == count
                fresh = build(g)
                assert data(fig) == data(fresh) and decor(fig) == decor(fresh)
            checks += 1
        if g.is_over:
            return n, checks
        g.apply(choose(g, rng))
        n += 1


@pytest.mark.provisional
def test_update_through_a_trust_game_figurewidget():
    """Trust game: update() keeps each FigureWidget equal to a fresh build, every 10 actions."""
    g = new_game(2, map="usa", edition="recharged", seed=21)
    n, checks = run_updates(g, seed=21, every=10, widget=True)
    assert g.is_over and checks == n // 10 + 1 + (n % 10 > 0)


@pytest.mark.slow
@pytest.mark.parametrize("edition, map_, players, every, widget", [
    ("original", "germany", 4, 10, False), ("recharged", "germany", 6, 25, True)])
def test_update_through_a_whole_game(edition, map_, players, every, widget):
    g = new_game(players, map=map_, edition=edition, seed=players)
    n, checks = run_updates(g, seed=players, every=every, widget=widget)
    assert g.is_over and n > 300 and checks > n // every


def test_update_with_changed_player():
    """update(fig, g, player=...) switches the dashboard's build-cost player in place."""
    g = scenario()
    fig = dashboard(g)
    update(fig, g, player="Ada")
    assert data(fig) == data(dashboard(g, player="Ada"))
    assert fig.layout.meta["args"] == {"player": "Ada"}


def test_R134_dashboard_shows_marked_start_cities():
    """R134: a city marked as a start city says so in the dashboard's hover; no house there yet."""
    g = new_game(3, edition="recharged", seed=1, starting_cities=True)
    city = g.legal_actions()[0].city
    g.apply(g.legal_actions()[0])
    fig = dashboard(g)
    hover = dict(zip(fig.data[2].text, (c[1] for c in fig.data[2].customdata), strict=True))
    assert hover[city] == "nobody (a marked start city)"
    assert fig.layout.title.text.startswith("Round 1 · Step 1 · Phase: start cities · ")
    assert players_figure(g).layout.title.text.startswith("Players · round 1 · start cities · ")
