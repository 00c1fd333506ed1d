"""The map view (powergrid_nb.views.map): its data must match the engine's frames exactly."""

from __future__ import annotations

import json
import math
import random
import re
from pathlib import Path
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import pytest
from _position import position, random_game

from powergrid_nb import Game, MarkCity, new_game
from powergrid_nb.views import update
from powergrid_nb.views._base import player_color, player_symbol
from powergrid_nb.views._fit import RESCUE_FAR
from powergrid_nb.views.map import FADED, OUTLINE, map_figure, mix
from powergrid_nb.views.mapboard import board

SLOTS = ["slot_10", "slot_15", "slot_20"]


# --- helpers ---------------------------------------------------------------------------------

def traces(fig: go.Figure) -> dict[str, Any]:
    return {t.name: t for t in fig.data}


def note(fig: go.Figure) -> list[str]:
    """The lines of the map's one annotation (plan summary, forbidden steps), tags removed."""
    (a,) = fig.layout.annotations
    assert a.visible == bool(a.text)
    return [re.sub(r"<[^>]+>", "", line) for line in a.text.split("<br>")] if a.text else []


def polylines(t: Any) -> list[list[tuple[float, float]]]:
    """A line trace's None-separated pieces as lists of points."""
    out: list[list[tuple[float, float]]] = [[]]
    for x, y in zip(t.x or (), t.y or (), strict=True):
        if x is None:
            out.append([])
        else:
            out[-1].append((x, y))
    return [line for line in out if line]


def houses(t: Any) -> list[tuple[float, float]]:
    """A house trace's points; a participant without houses has one (None, None) point, so the legend
    still lists them."""
    pts = list(zip(t.x or (), t.y or (), strict=True))
    if pts == [(None, None)]:
        assert t.showlegend is True and not t.customdata
        return []
    return pts


def xy(g: Game, city: str) -> tuple[float, float]:
    """Where the map (at its default size) draws ``city``: its place on the board's layout."""
    return board(g).xy[city]


def region_traces(fig: go.Figure, g: Game) -> dict[str, Any]:
    t = traces(fig)
    return {r: t[r if r in g.regions else f"{r} (not in play)"] for r in g.map.regions}


def slot_state(row: pd.Series, k: int) -> str:
    owner = row[SLOTS[k]]
    if not pd.isna(owner):
        return str(owner)
    return "open" if k < row["houses"] + row["open_slots"] else "not open"


def check(fig: go.Figure, g: Game, player: str | None = None) -> None:
    """Everything the map shows agrees with cities_frame / connections_frame / cities_of."""
    cities = g.cities_frame(player)
    links = g.connections_frame()
    t = traces(fig)
    # cities: one marker per city, in play or not, with slot owners and build costs in customdata
    shown = 0
    for region, tr in region_traces(fig, g).items():
        rows = cities[cities["region"] == region]
        assert list(tr.text) == list(rows.index)
        assert [(x, y) for x, y in zip(tr.x, tr.y, strict=True)] == [xy(g, c) for c in rows.index]
        assert tr.opacity == (1.0 if region in g.regions else FADED)
        for data, (city, row) in zip(tr.customdata, rows.iterrows(), strict=True):
            assert data[0] == city and data[2] == ("yes" if row["in_play"] else "no")
            assert list(data[4:7]) == [slot_state(row, k) for k in range(3)]
            if player is not None:
                cost = row["build_cost"]
                assert data[7] == ("not allowed" if pd.isna(cost) else str(cost))
        shown += len(rows) if region in g.regions else 0
    assert shown == int(cities["in_play"].sum())
    # houses: one marker per house, on the slot the participant holds
    offsets = board(g).slots
    for name in g.participants:
        tr = t[name]
        mine = g.cities_of(name)
        assert len(houses(tr)) == len(mine) and [d[0] for d in tr.customdata or ()] == mine
        for city, (x, y) in zip(mine, houses(tr), strict=True):
            k = [cities.loc[city, s] for s in SLOTS].index(name)
            assert (x, y) == pytest.approx((xy(g, city)[0] + offsets[k][0], xy(g, city)[1] + offsets[k][1]))
        assert tr.marker.color == player_color(g, name) and tr.marker.symbol == player_symbol(g, name)
    # empty slots
    inside = cities[cities["in_play"]]
    assert len(t["open slot"].x or ()) == int(inside["open_slots"].sum())
    closed = 3 - inside["houses"] - inside["open_slots"]
    assert len(t["slot not open yet"].x or ()) == int(closed.sum())
    # links and their costs
    assert len(polylines(t["links"])) == int(links["in_play"].sum())
    assert len(polylines(t["links (not in play)"])) == int((~links["in_play"]).sum())
    assert [int(c) for c in t["link costs"].text] == list(links["cost"])
    assert fig.layout.title.text == f"{g.map.title} — round {g.round}, step {g.step}, {g.phase_name}"


def step2_scenario() -> Game:
    """3 players, Germany red/blue/yellow, Step 2, building; Ada Essen+Dortmund, Bo Essen+Kassel, Cy Köln."""
    return position(3, seed=5, regions=["red", "blue", "yellow"], round=5, phase=4, step=2, order="dealt",
                    rest="shuffled", who={"Ada": {"money": 80, "cities": ["Essen", "Dortmund"]},
                                          "Bo": {"money": 60, "cities": ["Essen", "Kassel"]},
                                          "Cy": {"money": 70, "cities": ["Köln"]}})


def played(players: int, map: str, edition: str, seed: int, n: int, **kw: Any) -> Game:
    return random_game(players, map, edition, seed=seed, moves=n, **kw)


TINY = {"schema": "powergrid_nb.map/1", "name": "tiny", "title": "Tiny Land",
        "regions": {"north": {"color": "#1f77b4"}, "middle": {"color": "#2ca02c"},
                    "south": {"color": "#d62728"}},
        "cities": [{"name": f"{r[0].upper()}{k}", "region": r, "lat": 50 - 2 * i + (k % 2) * 0.6,
                    "lon": 5 + 1.5 * k}
                   for i, r in enumerate(("north", "middle", "south")) for k in range(3)],
        "connections": [["N0", "N1", 5], ["N1", "N2", 0], ["M0", "M1", 7], ["M1", "M2", 9], ["S0", "S1", 3],
                        ["S1", "S2", 12], ["N0", "M0", 10], ["M2", "S2", 14], ["N2", "M2", 8]]}


# --- layout ----------------------------------------------------------------------------------

def test_trace_layout_fixed_order():
    """Links, link costs, one network per participant, plan path, one trace per region, slots,
    one house trace per participant, plan order and plan costs."""
    g = new_game(4, seed=3)
    names = [t.name for t in map_figure(g).data]
    assert names == ["links (not in play)", "links", "link costs", "Ada's network", "Bo's network",
                     "Cy's network", "Dee's network", "plan",
                     *[r if r in g.regions else f"{r} (not in play)" for r in g.map.regions],
                     "open slot", "slot not open yet", "Ada", "Bo", "Cy", "Dee",
                     "plan order", "plan costs"]


def test_layout_title_aspect_and_meta():
    g = new_game(3, seed=2)
    fig = map_figure(g, player="Bo", height=650)
    assert fig.layout.title.text == "Germany — round 1, step 1, auction"
    assert fig.layout.yaxis.scaleanchor == "x" and 1.4 < fig.layout.yaxis.scaleratio < 1.7
    assert fig.layout.height == 650
    assert fig.layout.meta == {"view": "map", "args": {"player": "Bo", "height": 650}}


@pytest.mark.parametrize("map", ["germany", "usa"])
@pytest.mark.parametrize("edition", ["original", "recharged"])
def test_new_game_matches_frames(map, edition):
    g = new_game(4, map=map, edition=edition, seed=8)
    fig = map_figure(g, player="Ada")
    check(fig, g, "Ada")
    inside = sum(len(region_traces(fig, g)[r].x) for r in g.regions)
    assert inside == 28  # 4 regions of 7 cities (R3)
    assert len(traces(fig)["open slot"].x) == 28 and len(traces(fig)["slot not open yet"].x) == 56


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("map,edition", [("germany", "original"), ("usa", "recharged")])
def test_random_positions_match_frames(players, map, edition):
    g = played(players, map, edition, seed=players, n=400, trust=False if players == 2 else None)
    assert sum(len(g.cities_of(p)) for p in g.players) > 0
    check(map_figure(g, player=g.players[-1]), g, g.players[-1])


# --- cities, slots, houses -------------------------------------------------------------------

def test_slot_owners_and_build_costs_in_hover():
    g = step2_scenario()
    fig = map_figure(g, player="Cy")
    check(fig, g, "Cy")
    red = {d[0]: list(d[4:]) for d in region_traces(fig, g)["red"].customdata}
    assert red["Essen"] == ["Ada", "Bo", "not open", "not allowed"]      # full for Step 2 (R58)
    assert red["Dortmund"] == ["Ada", "open", "not open", "25"]  # 15 + Köln-Düsseldorf-Essen-Dortmund 10
    assert red["Dortmund"][3] == str(g.build_cost("Cy", "Dortmund"))
    assert "build cost for Cy" in region_traces(fig, g)["red"].hovertemplate


def test_houses_on_their_slots():
    g = step2_scenario()
    t = traces(map_figure(g))
    dx, dy = board(g).slots[1]
    assert [d[0] for d in t["Bo"].customdata] == ["Essen", "Kassel"]
    assert [d[1] for d in t["Bo"].customdata] == ["15", "10"]
    assert (t["Bo"].x[0], t["Bo"].y[0]) == pytest.approx((xy(g, "Essen")[0] + dx, xy(g, "Essen")[1] + dy))
    assert len(houses(t["Cy"])) == 1 and t["Cy"].customdata[0][0] == "Köln"


def test_out_of_play_regions_faded_without_slots():
    g = new_game(2, seed=4)
    fig = map_figure(g)
    out = [r for r in g.map.regions if r not in g.regions]
    assert len(out) == 3
    for r in out:
        tr = traces(fig)[f"{r} (not in play)"]
        assert tr.opacity == FADED and tr.textfont.color != "#222222"
    slot_cities = {d[0] for d in traces(fig)["open slot"].customdata}
    assert slot_cities == set(g.cities_frame().query("in_play").index)


def test_marked_start_city_in_hover():
    g = new_game(3, edition="recharged", seed=6, starting_cities=True)
    city = next(a.city for a in g.legal_actions() if isinstance(a, MarkCity))
    g.apply(MarkCity(g.current_player, city))
    data = {d[0]: d for t in region_traces(map_figure(g), g).values() for d in t.customdata}
    assert data[city][3].endswith("(marked start city)")
    assert sum("marked" in d[3] for d in data.values()) == 1


def test_city_markers_are_pale_region_tints():
    """In-play cities: 40 % region colour + 60 % white, a thin dark-grey ring: no city looks like a
    player's house (saturated, a dark edge), "You" in dark blue not like a blue region's city."""
    g = new_game(4, seed=3)
    assert mix("#1f5fbf") == "#A5BFE5" and mix("#000") == "#999999"
    for region, tr in region_traces(map_figure(g), g).items():
        assert tr.marker.line.color == OUTLINE and tr.marker.line.width == 1
        if region in g.regions:
            assert tr.marker.color == mix(g.map.regions[region])


def test_every_participant_in_the_legend_without_houses():
    """A fresh game: each house trace holds one (None, None) point, so Plotly lists it in the legend."""
    g = new_game(4, seed=3)
    t = traces(map_figure(g))
    for name in g.players:
        assert list(t[name].x) == [None] and t[name].showlegend and houses(t[name]) == []
    assert "x" not in t["slot not open yet"].marker.symbol   # a faint dot, unlike the Trust's x


@pytest.mark.parametrize("map", ["germany", "usa"])
def test_axes_fit_the_country_and_its_cities(map):
    """Ranges: the country outline and every city (where the board draws it) inside; no ticks."""
    g = new_game(3, map=map, seed=1)
    lay = map_figure(g).layout
    (x0, x1), (y0, y1) = lay.xaxis.range, lay.yaxis.range
    assert all(x0 < x < x1 and y0 < y < y1 for x, y in board(g).xy.values())
    outline = json.loads(Path(g.map.path).read_text(encoding="utf-8"))["outline"]["polygons"]
    assert all(x0 < x < x1 and y0 < y < y1 for ring in outline for x, y in ring)
    assert lay.xaxis.constrain == "domain" and lay.xaxis.showticklabels is False and not lay.xaxis.title.text
    assert lay.yaxis.scaleanchor == "x" and lay.yaxis.scaleratio == pytest.approx(board(g).ratio)


# --- links -----------------------------------------------------------------------------------

def test_connection_costs_on_or_beside_their_link_zero_shown():
    """Each cost sits on its link, or (where the line is crowded) at most RESCUE_FAR px beside it, not
    near its ends."""
    g = new_game(4, seed=3)
    links = g.connections_frame()
    t = traces(map_figure(g))["link costs"]
    assert list(t.text) == [str(c) for c in links["cost"]]
    assert "0" in t.text  # Duisburg-Essen costs 0 on the Germany board
    b = board(g)
    for (x, y), a, c in zip(zip(t.x, t.y, strict=True), links["city_a"], links["city_b"], strict=True):
        (xa, ya), (xc, yc) = xy(g, a), xy(g, c)
        px = [(u * b.scale, v * b.ratio * b.scale) for u, v in ((x, y), (xa, ya), (xc, yc))]
        (p, q, r) = px
        along = ((p[0] - q[0]) * (r[0] - q[0]) + (p[1] - q[1]) * (r[1] - q[1])) / math.dist(q, r) ** 2
        side = abs((r[0] - q[0]) * (p[1] - q[1]) - (r[1] - q[1]) * (p[0] - q[0])) / math.dist(q, r)
        assert 0.1 < along < 0.9 and side < RESCUE_FAR + 0.5, (a, c, along, side)
    first = links.itertuples(index=False)
    assert [list(d) for d in t.customdata] == [[a, c, int(k)] for a, c, k, _ in first]


def test_show_costs_false_keeps_an_empty_trace():
    g = new_game(4, seed=3)
    on, off = map_figure(g), map_figure(g, show_costs=False)
    assert len(on.data) == len(off.data)
    assert len(traces(off)["link costs"].x) == 0


def test_links_split_by_play_area():
    g = new_game(3, seed=9)
    links = g.connections_frame()
    t = traces(map_figure(g))
    inside = links[links["in_play"]]
    assert polylines(t["links"]) == [[xy(g, a), xy(g, b)] for a, b in zip(inside["city_a"], inside["city_b"],
                                                                           strict=True)]


# --- networks --------------------------------------------------------------------------------

def test_networks_highlight_links_between_own_cities():
    g = step2_scenario()
    t = traces(map_figure(g, networks=["Ada", "Bo"]))
    assert polylines(t["Ada's network"]) == [[xy(g, "Dortmund"), xy(g, "Essen")]]  # Dortmund-Essen link
    assert polylines(t["Bo's network"]) == []        # Essen and Kassel are not neighbours
    assert polylines(t["Cy's network"]) == [] and not t["Cy's network"].showlegend
    assert t["Ada's network"].showlegend and t["Ada's network"].line.color == player_color(g, "Ada")
    assert polylines(traces(map_figure(g))["Ada's network"]) == []   # not highlighted by default


# --- build plan ------------------------------------------------------------------------------

def test_plan_overlay_follows_plan_build():
    g = step2_scenario()
    plan = ["Duisburg", "Düsseldorf", "Berlin", "Essen"]
    steps = g.plan_build("Cy", plan)
    fig = map_figure(g, player="Cy", plan=plan)
    t = traces(fig)
    allowed = [s for s in steps if not s.rule]
    total = sum(s.cost for s in allowed)
    assert total == allowed[-1].total == 28    # Duisburg 16, Düsseldorf 12
    assert polylines(t["plan"]) == [[xy(g, c) for c in s.path] for s in allowed]
    assert list(t["plan order"].text) == ["1", "2", "✕", "✕"]
    assert list(t["plan costs"].text) == ["+16", "+12"]
    texts = note(fig)
    assert texts[0] == "Plan for Cy: Duisburg 16, Düsseldorf 12 → total 28"
    assert texts[1:] == ["✕ Berlin: R4 Berlin is outside the play area",
                         "✕ Essen: R58 Essen is full for Step 2 (2 of 2 houses)"]
    assert t["plan"].line.color == player_color(g, "Cy") and t["plan"].line.dash == "dash"


def test_plan_defaults_to_current_player_and_keeps_trace_count():
    g = step2_scenario()
    cur = g.current_player
    fig = map_figure(g, plan=["Aachen"])
    assert note(fig)[0].startswith(f"Plan for {cur}: Aachen")
    empty = map_figure(g)
    assert len(empty.data) == len(fig.data) and note(empty) == []
    assert len(empty.layout.annotations) == len(fig.layout.annotations) == 1
    assert all(len(traces(empty)[n].x) == 0 for n in ("plan", "plan order", "plan costs"))


def test_plan_with_unknown_city_is_reported():
    g = step2_scenario()
    fig = map_figure(g, player="Ada", plan=["Atlantis"])
    assert note(fig) == [
        "Plan for Ada: nothing can be built → total 0", "✕ Atlantis: R4 Atlantis is not a city of this map"]
    assert len(traces(fig)["plan order"].x) == 0


# --- other games -----------------------------------------------------------------------------

@pytest.mark.provisional
def test_trust_game_has_a_trust_trace():
    g = played(2, "germany", "recharged", seed=12, n=300)
    assert g.trust == "Trust"
    fig = map_figure(g, networks=["Trust"])
    check(fig, g)
    assert traces(fig)["Trust"].marker.symbol == player_symbol(g, "Trust")
    assert "Trust's network" in traces(fig)


def test_scenario_loaded_game():
    g = Game.from_dict(json.loads(json.dumps(played(4, "usa", "original", seed=5, n=350).to_dict())))
    check(map_figure(g, player="Dee"), g, "Dee")


@pytest.mark.parametrize("edition", ["original", "recharged"])
def test_user_map_file(tmp_path: Path, edition):
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TINY), encoding="utf-8")
    g = new_game(2, map=str(path), edition=edition, seed=1)
    g = played(2, str(path), edition, seed=1, n=150)
    fig = map_figure(g, player="Ada", networks=g.players, plan=["N1", "N2"])
    check(fig, g, "Ada")
    assert fig.layout.title.text.startswith("Tiny Land — ")
    assert sum(len(region_traces(fig, g)[r].x) for r in TINY["regions"]) == 9
    assert list(traces(fig)["link costs"].text) == ["5", "0", "7", "9", "3", "12", "10", "14", "8"]


# --- update ----------------------------------------------------------------------------------

def same(fig: go.Figure, fresh: go.Figure) -> None:
    def plain(t: Any) -> dict[str, Any]:
        return {k: v for k, v in t.to_plotly_json().items() if k != "uid"}  # FigureWidget adds uids

    assert [plain(t) for t in fig.data] == [plain(t) for t in fresh.data]
    assert fig.layout.annotations == fresh.layout.annotations
    assert fig.layout.title.text == fresh.layout.title.text


@pytest.mark.parametrize("players,map,edition", [
    (3, "germany", "original"), pytest.param(5, "usa", "recharged", marks=pytest.mark.slow)])
def test_update_through_a_whole_random_game(players, map, edition):
    g = new_game(players, map=map, edition=edition, seed=21)
    plan = list(g.cities_frame().query("in_play").index[:3])
    args = dict(player="Ada", networks=g.players, plan=plan)
    fig = map_figure(g, **args)
    n0 = len(fig.data)
    rng = random.Random(21)
    n = 0
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
        n += 1
        if n % 10 == 0 or g.is_over:
            assert update(fig, g) is fig and len(fig.data) == n0
            same(fig, map_figure(g, **args))
    check(fig, g, "Ada")
    assert fig.layout.title.text.endswith("game over")


def test_figure_widget_update():
    g = new_game(4, seed=30)
    fw = go.FigureWidget(map_figure(g, networks=["Ada", "Cy"], plan=["Berlin"]))
    rng = random.Random(30)
    for k in range(1, 201):
        g.apply(rng.choice(g.legal_actions()))
        if k % 20 == 0:
            assert update(fw, g) is fw
            same(fw, map_figure(g, networks=["Ada", "Cy"], plan=["Berlin"]))
    update(fw, g, player="Bo")
    check(fw, g, "Bo")
    assert fw.layout.meta["args"]["player"] == "Bo"


def test_each_player_has_a_house_shape_of_their_own_and_none_is_a_city_circle() -> None:
    g = new_game(6, seed=4)
    t = traces(map_figure(g))
    shapes = [t[name].marker.symbol for name in g.participants]
    assert len(set(shapes)) == 6  # shapes as well as colours: colour is never the only cue
    city_shapes = {tr.marker.symbol or "circle" for tr in t.values() if tr.legendgroup == "regions"}
    assert city_shapes == {"circle"} and "circle" not in shapes
