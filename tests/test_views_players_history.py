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
from test_timeline import choose, played

from powergrid_nb import Game, Open, new_game
from powergrid_nb.frames import owned_plants_frame
from powergrid_nb.resources import next_price
from powergrid_nb.timeline import auctions_frame, market_history_frame, rounds_frame
from powergrid_nb.views import update
from powergrid_nb.views._base import player_color, player_symbol
from powergrid_nb.views.dashboard import dashboard
from powergrid_nb.views.history import history_figure
from powergrid_nb.views.players import plant_text, players_figure

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

def test_plant_text_formats():
    """Green plants show their fuel; the others held tokens / storage (hybrids: coal+oil)."""
    row = dict(plant=13, fuel="eco", tokens=0, storage=0, coal=0, oil=0, garbage=0, uranium=0)
    assert plant_text(row) == "13 (eco)"
    coal = {**row, "plant": 20, "fuel": "coal", "tokens": 3, "storage": 6, "coal": 2}
    assert plant_text(coal) == "20 [2 coal/6]"
    assert plant_text({**row, "plant": 21, "fuel": "hybrid", "tokens": 2, "storage": 4, "coal": 1,
                       "oil": 2}) == "21 [1 coal+2 oil/4]"
    assert plant_text({**row, "plant": 12, "fuel": "hybrid", "tokens": 2, "storage": 4}) == "12 [0 hybrid/4]"


def test_players_figure_scenario_exact():
    """R74-R76: cities 1/3/2, can power 0/3/2, money 7/23/41 with income now 10/44/33, in player order."""
    g = scenario()
    fig = players_figure(g)
    assert len(fig.data) == 4
    labels = ("▶ 1. Bo", "2. Ada", "3. Cy")  # ▶: to act
    assert tuple(fig.data[0].y) == labels == tuple(fig.data[2].y)
    assert list(fig.data[0].x) == [1, 3, 2] and list(fig.data[1].x) == [0, 3, 2]
    assert list(fig.data[2].x) == [7, 23, 41]
    assert list(fig.data[2].text) == ["7 (+10)", "23 (+44)", "41 (+33)"]
    cells = fig.data[3].cells.values
    assert list(cells[0]) == ["▶ 1. Bo", "2. Ada", "3. Cy"] and list(cells[1]) == ["10", "44", "33"]
    assert list(cells[2]) == ["12 [0 hybrid/4]", "13 (eco) · 21 [1 coal+2 oil/4]", "11 [1 uranium/2]"]
    assert list(fig.data[0].marker.color) == [player_color(g, n) for n in ("Bo", "Ada", "Cy")]
    assert fig.layout.title.text == "Players · round 3 · auction · Bo to act"
    assert fig.data[0].marker.line.width is None  # no heavy outline for the player to act (▶ instead)
    assert fig.layout.xaxis.showticklabels is not False and fig.layout.xaxis.tickformat == "d"


@pytest.mark.parametrize("edition, players, opts", [("original", 5, {}), ("recharged", 2, {})])
def test_players_figure_matches_players_frame(edition, players, opts):
    """Mid-game: every bar and table cell equals the players frame (the Trust too: no can_power)."""
    g, _, _ = played(edition, "usa", players, tuple(opts.items()), seed=4, limit=260)
    pf, fig = g.players_frame(), players_figure(g)
    na = lambda s: [None if x is pd.NA else int(x) for x in s]  # noqa: E731
    assert list(fig.data[0].y) == [("▶ " if c else "") + f"{o}. {n}"
                                   for o, n, c in zip(pf["order"], pf.index, pf["is_current"], strict=True)]
    assert list(fig.data[0].x) == na(pf["cities"]) and list(fig.data[1].x) == na(pf["can_power"])
    assert list(fig.data[2].x) == na(pf["money"])
    op = owned_plants_frame(g)
    for name, text in zip(pf.index, fig.data[3].cells.values[2], strict=True):
        mine = op[op["owner"] == name]
        assert text == (" · ".join(plant_text(r) for _, r in mine.iterrows()) or "none")
        assert [int(t.split()[0]) for t in text.split(" · ")] == g.plants_of(name)
    if g.trust:
        k = list(pf.index).index("Trust")
        assert fig.data[1].x[k] is None
        assert fig.data[2].text[k] == "–" and fig.data[2].customdata[k] == "no money (the Trust)"


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
    assert list(fig.data[0].customdata) == [""] * (g.round - 1) + [" (in progress: so far)"]
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
    assert len(players_figure(g).data) == 4 and len(history_figure(g).data) == 5 * len(names) + 5


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
