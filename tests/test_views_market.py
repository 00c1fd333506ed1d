"""The resource-market view (supply curves) and the plant-market view (cards): their data must match
the engine's frames and what ``apply`` really charges, and ``update`` must keep them correct."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import pytest
from _helpers_steps import S3, scenario
from _position import assert_illegal

from powergrid_nb import BuyResources, Game, IllegalAction, Open, Pass, Power, new_game
from powergrid_nb.engine.phases import resources as engine
from powergrid_nb.engine.rules.plants import PLANTS, RESOURCES
from powergrid_nb.frames import owned_plants_frame, price_ladder_frame
from powergrid_nb.views import RESOURCE_COLORS, update
from powergrid_nb.views._fit import text_width
from powergrid_nb.views.plants import (
    CARD_H,
    CARD_W,
    NOMINAL_WIDTH,
    X_RANGE,
    Y_RANGE,
    card_lines,
    fit_print,
    plant_card,
    plants_figure,
)
from powergrid_nb.views.resources import resources_figure

M8 = [13, 14, 15, 16, 17, 18, 19, 20]
CONFIGS = [(2, "original", "germany"), (3, "recharged", "usa"), (4, "original", "usa"),
           (5, "recharged", "germany"), (6, "original", "germany"), (2, "recharged", "usa")]  # last: Trust


# --- helpers ---------------------------------------------------------------------------------

def trace(fig: go.Figure, name: str) -> Any:
    (t,) = [t for t in fig.data if t.name == name]
    return t


def ints(values: Any) -> list[int]:
    return [] if values is None else [int(v) for v in values]


def plain(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text.replace("<br>", " "))


def texts(fig: go.Figure) -> list[str]:
    return [plain(a.text or "") for a in fig.layout.annotations]


def positions(players: int, edition: str, map: str, seed: int, want: Callable[[Game], bool],
              limit: int = 6, every: int = 1) -> list[Game]:
    """Copies of positions of a seeded random game where ``want(g)`` holds (at most ``limit``)."""
    g = new_game(players, map=map, edition=edition, seed=seed)
    rng, out, n = random.Random(seed), [], 0
    while not g.is_over and len(out) < limit:
        g.apply(rng.choice(g.legal_actions()))
        n += 1
        if n % every == 0 and want(g):
            out.append(g.copy())
    return out


def totals(g: Game) -> dict[str, Any]:
    return g.resources_frame().groupby("resource", observed=True).first().to_dict("index")


def as_json(fig: go.Figure) -> dict:
    """The figure as plain JSON; no shapes/annotations and an empty list of them are the same."""
    d = json.loads(fig.to_json())
    for key in ("shapes", "annotations"):
        d["layout"][key] = d["layout"].get(key) or []
    return d


# --- resources: the curves are the engine's prices ---------------------------------------------

def _some_positions() -> list[Game]:
    out = []
    for k, (players, edition, map) in enumerate(CONFIGS):
        out += positions(players, edition, map, seed=10 + k, want=lambda g: True, limit=5, every=70)
    return out


def ident(g: Game) -> str:
    return f"{g.edition}-{g.map.name}-{len(g.players)}p-r{g.round}p{g.phase}s{g.step}"


SOME = _some_positions()


@pytest.mark.parametrize("g", SOME, ids=ident)
def test_resources_curves_match_price_ladder_frame(g):
    """R50 / R117: the ladder, the depot steps and the totals are the frame's rows; the first price
    is the market's next price (resources_frame)."""
    fig = resources_figure(g)
    lf, info = price_ladder_frame(g), totals(g)
    for r in RESOURCES:
        lad = lf[lf["resource"] == r]
        mkt, dep = lad[lad["source"] == "market"], lad[lad["source"] == "depot"]
        now, depot = trace(fig, f"{r}: price now"), trace(fig, f"{r}: depot")
        total = trace(fig, f"{r}: total now")
        assert (ints(now.x), ints(now.y)) == (ints(mkt["k"]), ints(mkt["price_of_kth"]))
        assert (ints(depot.x), ints(depot.y)) == (ints(dep["k"]), ints(dep["price_of_kth"]))
        assert (ints(total.x), ints(total.y)) == (ints(lad["k"]), ints(lad["cumulative_cost"]))
        first = (ints(total.y) or [None])[0]
        nxt = info[r]["next_price"]
        assert first == (None if pd.isna(nxt) else int(nxt)), r  # <NA>: nothing to buy


@pytest.mark.parametrize("g", SOME, ids=ident)
def test_resources_after_refill_ladder_is_market_plus_refill(g):
    """R78-R81: the dashed curve has market + refill_next tokens at the engine's prices (plus the depot)."""
    fig = resources_figure(g)
    info = totals(g)
    for kind, r in enumerate(RESOURCES):
        after = trace(fig, f"{r}: price after refill")
        n = int(info[r]["market_total"]) + int(info[r]["refill_next"])
        depot = info[r]["depot_price"]
        extra = 0 if pd.isna(depot) else int(info[r]["supply"]) - int(info[r]["refill_next"])
        assert len(after.x) == n + extra, r
        assert ints(after.y)[:n] == engine.price_ladder(kind, n)
        assert ints(after.y)[n:] == ints([depot] * extra)
        cum = trace(fig, f"{r}: total after refill")
        assert ints(cum.y)[-1:] == ([sum(ints(after.y))] if n + extra else [])


@pytest.mark.parametrize(("players", "edition", "map"), CONFIGS[:5])
def test_resources_after_refill_curve_is_next_rounds_ladder(players, edition, map):
    """R78-R81: when nobody powers (the supply unchanged), the dashed curve of phase 5 is the ladder
    the next round starts with."""
    checked = 0
    starts = positions(players, edition, map, seed=3, limit=4,
                       want=lambda g: g.phase == 5 and g.history[-1].kind == "phase")  # nobody powered yet
    for g in starts:
        before = resources_figure(g)
        while g.phase == 5 and not g.is_over:
            g.apply(Power(g.current_player, []))
        if g.is_over:
            continue
        after = resources_figure(g)
        for r in RESOURCES:
            old = trace(before, f"{r}: price after refill")
            new_price, new_depot = trace(after, f"{r}: price now"), trace(after, f"{r}: depot")
            assert ints(old.y) == ints(new_price.y) + ints(new_depot.y), (r, g.round)
        checked += 1
    assert checked >= 2


def _buy_positions() -> list[Game]:
    out = []
    for k, (players, edition, map) in enumerate(CONFIGS[:5]):
        out += positions(players, edition, map, seed=20 + k, every=3, limit=3,
                         want=lambda g: g.phase == 3 and g.current_player != g.trust)
    return out


@pytest.mark.parametrize("g", _buy_positions(), ids=ident)
def test_resources_total_cost_is_what_apply_charges(g):
    """R50 / R31 / R48: buying n tokens costs the curve's total for n; the player's marks end exactly
    where the engine refuses (room, money or market)."""
    p = g.current_player
    fig = resources_figure(g, player=p)
    for r in RESOURCES:
        total, can = trace(fig, f"{r}: total now"), trace(fig, f"{p}: can buy {r}")
        limit = len(can.x or ())
        assert ints(can.y) == ints(total.y)[:limit]
        for n in range(1, limit + 1):
            c = g.copy()
            c.apply(BuyResources(p, **{r: n}))
            assert g.money(p) - c.money(p) == ints(total.y)[n - 1], (r, n)
        c, before = g.copy(), g.to_dict()
        with pytest.raises(IllegalAction):
            c.apply(BuyResources(p, **{r: limit + 1}))
        assert c.to_dict() == before


def _depot_game(money: int = 50) -> Game:
    """USA Recharged (R126): the coal track is empty, 6 coal in the supply, Ada stores coal."""
    return scenario(3, "recharged", "usa", phase=3, step=2, market=M8,
                    owned={"Ada": [25, 31], "Bo": [10, 36], "Cy": [4, 8]}, money={"Ada": money},
                    tokens={"Ada": {"coal": 3}, "Bo": {"coal": 10}, "Cy": {"coal": 5}},
                    resources={"coal": 0, "oil": 12, "garbage": 12, "uranium": 4}, order=["Bo", "Cy", "Ada"])


def test_R126_depot_steps_drawn_and_charged_at_8():
    """R126: with the coal track empty, coal comes from the supply at 8: drawn as depot steps whose
    totals are what apply charges."""
    g = _depot_game()
    fig = resources_figure(g, player="Ada")
    depot, total = trace(fig, "coal: depot"), trace(fig, "coal: total now")
    assert ints(trace(fig, "coal: price now").y) == []
    assert (ints(depot.x), ints(depot.y)) == ([1, 2, 3, 4, 5, 6], [8] * 6)
    assert ints(total.y) == [8, 16, 24, 32, 40, 48]
    assert ints(trace(fig, "Ada: can buy coal").x) == [1, 2, 3, 4, 5, 6]  # room 4+6-3=7, supply 6
    for n in (1, 4, 6):
        c = g.copy()
        c.apply(BuyResources("Ada", coal=n))
        assert g.money("Ada") - c.money("Ada") == 8 * n
    assert any("depot at 8" in t for t in texts(fig))


@pytest.mark.parametrize("edition, map, depot", [
    ("original", "germany", False), ("original", "usa", False), ("recharged", "germany", False),
    ("recharged", "usa", True)])
def test_R126_the_depot_legend_key_only_where_the_game_has_a_depot(edition, map, depot):
    """The legend's "from the depot" key means something only where a map rule sells tokens from the
    supply (R126: Recharged USA's coal); elsewhere it is not listed, though its trace is kept (update)."""
    g = new_game(4, edition=edition, map=map, seed=1)
    assert any(g.depot_price(r) is not None for r in RESOURCES) is depot
    key = trace(resources_figure(g), "from the depot")
    assert key.showlegend is depot


def test_resources_player_marks_room_and_money():
    """R48 / R31: 'can buy' = min(room, what the money pays for); both shown as numbers and lines."""
    g = _depot_game(money=20)
    fig = resources_figure(g, player="Ada")
    assert ints(trace(fig, "Ada: can buy coal").x) == [1, 2]  # 16 <= 20 < 24
    assert "Ada: room 7 · affords 2 → can buy 2" in texts(fig)
    assert "Ada: room 0 · affords" in " ".join(texts(fig))  # no oil plant
    lines = [s for s in fig.layout.shapes if s.type == "line"]
    assert {s.y0 for s in lines if s.yref == "y5"} == {20}  # the money line, coal column
    assert {s.x0 for s in lines if s.xref == "x"} == {7.5}  # the coal room line, top row
    assert resources_figure(g).layout.shapes == ()
    with pytest.raises(ValueError, match="unknown player"):
        resources_figure(g, player="Zed")


def test_R49_hybrid_room_shared_between_coal_and_oil():
    """R49: with a hybrid, coal and oil rooms share its space: each marked alone, with a note."""
    g = scenario(3, "original", "germany", phase=3, step=1, market=M8, owned={"Ada": [5, 10]},
                 tokens={"Ada": {"coal": 1, "oil": 3}}, order=["Bo", "Cy", "Ada"])  # 5: hybrid, 10: coal
    fig = resources_figure(g, player="Ada")
    assert len(trace(fig, "Ada: can buy coal").x) == 4  # 3 more on plant 10 + 1 left on hybrid 5
    assert len(trace(fig, "Ada: can buy oil").x) == 1
    assert "Ada: room 4 · affords 8 → can buy 4 (hybrid room shared with oil)" in texts(fig)
    for r, n in (("coal", 4), ("oil", 1)):
        g.copy().apply(BuyResources("Ada", **{r: n}))
        assert_illegal(g, BuyResources("Ada", **{r: n + 1}), "R48")


# --- plants: one card per market card ---------------------------------------------------------

def _plant_positions() -> list[Game]:
    out = []
    for k, (players, edition, map) in enumerate(CONFIGS):
        out += positions(players, edition, map, seed=30 + k, every=25, limit=4,
                         want=lambda g: g.phase in (2, 5))
    return out


@pytest.mark.parametrize("g", _plant_positions(), ids=ident)
def test_plant_cards_match_plants_frame(g):
    """R12 / R28 / R40: a card per market card, in order, with the frame's number, min bid and discount."""
    fig = plants_figure(g)
    pf = g.plants_frame()
    for market in ("current", "future"):
        rows = pf[(pf["market"] == market) & ~pf["is_step3"]]
        cd = [tuple(c) for c in trace(fig, f"{market} market").customdata or ()]
        assert cd == [(int(r.plant), int(r.min_bid), bool(r.discounted)) for r in rows.itertuples()]
    assert len(trace(fig, "Step 3 card").x or ()) == int(pf["is_step3"].sum())
    numbers = [t for t in texts(fig) if t.isdigit()]
    assert numbers == [str(int(p)) for p in pf["plant"].dropna()]
    for r in pf[~pf["is_step3"]].itertuples():
        hovers = fig.data[0].hovertext + fig.data[1].hovertext
        (card,) = [t for t in hovers if f"plant {int(r.plant)}</b>" in t]
        assert f"min bid {int(r.min_bid)}" in card and ("(discount token)" in card) == r.discounted


def test_R90_step3_card_drawn_as_special_card():
    """R90 / W21: the Step 3 card waiting in the future market is drawn as its own card (no number)."""
    g = scenario(phase=2, step=2, market=[13, 14, 15, 16, 17, 18, 19, S3])
    fig = plants_figure(g)
    assert trace(fig, "Step 3 card").x == (3.5,)  # the last slot of the future row
    assert ints(c[0] for c in trace(fig, "future market").customdata) == [17, 18, 19]
    assert any(t.startswith("STEP 3") for t in texts(fig))
    dashed = [s for s in fig.layout.shapes if s.line.dash == "dash"]
    assert len(dashed) == 1 and dashed[0].x0 == pytest.approx(3.05)


def test_R90_step3_card_appears_when_drawn_in_phase2():
    """R90: drawn as a replacement during phase 2, the card shows up; at the end of phase 2 it goes,
    and the Step 3 market is one row of six (R93)."""
    g = scenario(phase=2, step=2, market=M8, deck=[S3, 30, 31, 32], rest="removed")
    g.apply(Open("Ada", 13, 13))
    while g.plants_frame()["in_auction"].any():  # the others pass: Ada buys 13, the Step 3 card is drawn
        g.apply(Pass(g.current_player))
    fig = plants_figure(g)
    assert len(trace(fig, "Step 3 card").x) == 1
    while g.phase == 2:
        g.apply(Pass(g.current_player))
    update(fig, g)
    assert trace(fig, "Step 3 card").x == ()
    assert len(trace(fig, "current market").x) == 6 and trace(fig, "future market").x == ()
    assert "Step 3: one market, every plant biddable (above)" in texts(fig)


def test_R28_running_auction_highlighted():
    """R28-R31: the plant under auction has a gold frame and a badge "<leader> leads at <bid>"."""
    g = scenario(phase=2, step=1, market=M8)
    g.apply(Open("Ada", 15, 16))
    g.apply("Bo: bid 18")
    fig = plants_figure(g)
    assert "Bo leads at 18" in texts(fig)
    assert "auction: plant 15, Bo leads at 18" in fig.layout.title.text
    (gold,) = [s for s in fig.layout.shapes if s.line.width == 6]
    assert gold.x0 == pytest.approx(2.05)  # the third card of the current market
    assert "under auction now" in [t for t in fig.data[0].hovertext if "plant 15</b>" in t][0]


def test_plant_card_economics_text():
    """Cities per token and fuel cost per city at today's prices come from the frame."""
    g = scenario(phase=2, step=1, market=M8)
    pf = g.plants_frame().set_index("plant")
    fig = plants_figure(g)
    hover = {int(c[0]): h for c, h in zip(fig.data[0].customdata, fig.data[0].hovertext, strict=True)}
    row = pf.loc[15]  # 2 coal -> 3 cities
    assert f"fuel at today's prices: {int(row['fuel_cost_now'])} Elektro, {row['fuel_cost_per_city']:.2f}" \
        in hover[15]
    assert "cities per token: 1.50" in hover[15]
    assert "fuel at today's prices: free" in hover[13]  # eco


def test_resources_text_stays_off_the_curves():
    """Readability: the market's numbers are in the column titles (above the plots) and the player's
    under the columns, so no text covers a price step; the price axis leaves room above 16 E."""
    fig = resources_figure(_depot_game(), player="Ada")
    for a in fig.layout.annotations:
        assert a.yref == "paper" and (a.y == 1.0 or (a.y == 0 and a.yshift < 0)), a.text
    assert texts(fig)[0] == "coal: next token 8 E (depot) market 0 · supply 6 on plants 18 · refill +5 " \
                            "then the depot at 8 E"  # R126: the USA coal depot
    assert fig.layout.yaxis.range == (0, 17.5) and fig.layout.yaxis4.range == (0, 17.5)


def test_plant_cards_readable_and_step3_one_tight_row():
    """Card print as large as fits the card at the narrowest figure (at least 11 px, one size for the
    market); keys under the cards. Step 3 (R93): one row of taller cards, then the note, then the
    key, with no empty band between them."""
    fig = plants_figure(scenario(phase=2, step=1, market=M8))
    prints = [a for a in fig.layout.annotations if "min bid" in (a.text or "")]
    assert len(prints) == 8 and len({a.font.size for a in prints}) == 1 and prints[0].font.size >= 11
    bottom = min(s.y0 for s in fig.layout.shapes)
    assert all(t.y[0] < bottom for t in fig.data[3:])  # the fuel key is under the future row
    g = scenario(phase=2, step=3, market=[30, 31, 32, 33, 34, 35])
    fig = plants_figure(g)
    cards = [s for s in fig.layout.shapes if s.type == "rect"]
    (note,) = [a for a in fig.layout.annotations if (a.text or "").startswith("<b>Step 3")]
    bottom = min(s.y0 for s in cards)
    assert len({(s.y0, s.y1) for s in cards}) == 1 and cards[0].y1 - bottom > 1.0  # one row, taller
    assert 0 < bottom - note.y < 0.1 and note.yanchor == "top"  # the note just below the cards
    assert 0 < note.y - fig.data[3].y[0] < 0.4  # then the key


def test_card_print_fits_every_plant_at_the_narrowest_size():
    """Every plant (3-50, both editions, also with the discount): the print's widest line and its
    height fit the card at NOMINAL_WIDTH (measured in a browser by tests/test_views_readable.py)."""
    nums = sorted(PLANTS)
    px = ((NOMINAL_WIDTH - 20) / (X_RANGE[1] - X_RANGE[0]), (430 - 60) / (Y_RANGE[1] - Y_RANGE[0]))
    for edition in ("original", "recharged"):
        for k in range(0, len(nums), 8):
            g = scenario(phase=2, step=1, market=(nums[k:k + 8] + nums[:8])[:8], edition=edition,
                         discount="lowest" if edition == "recharged" else None)
            for _, row in g.plants_frame().iterrows():
                lines = card_lines(row)
                size = fit_print([lines], CARD_W * px[0], CARD_H * px[1] - 4 - 1.17 * 26)
                assert size >= 11 and max(text_width(t, size) for t in lines) <= CARD_W * px[0] - 10, lines


def test_owned_plant_card_shows_its_tokens():
    """plant_card on an owned_plants_frame row: number, fuel, cities, and a square per storage space
    filled in the colour of each token stored there (for the players' boards)."""
    g = scenario(phase=5, step=2, market=[6, 7, 8, 9, 10, 11, 12, 14], owned={"Ada": [5, 13]},
                 tokens={"Ada": {"coal": 1, "oil": 2}})
    rows = {int(r.plant): r for _, r in owned_plants_frame(g).iterrows()}
    shapes, notes = plant_card(rows[5], 0, 0, 1, 1, (100, 120))
    assert [plain(n["text"]) for n in notes] == ["5", "2 coal/oil → 1 city"]
    squares = [s for s in shapes if s.get("xsizemode") == "pixel"]
    assert [s["fillcolor"] for s in squares] == [RESOURCE_COLORS["coal"], RESOURCE_COLORS["oil"],
                                                 RESOURCE_COLORS["oil"], "white"]
    shapes, notes = plant_card(rows[13], 0, 0, 1, 1, (100, 120))  # eco: no tokens, no tray
    assert not [s for s in shapes if s.get("xsizemode") == "pixel"]
    assert plain(notes[1]["text"]) == "eco → 1 city"


# --- update keeps the figures equal to fresh builds ------------------------------------------

def _check_updates(players: int, edition: str, map: str, widget: bool) -> int:
    """Play a seeded random game; every 10 actions at first (every phase of the early rounds), then
    every 150 (later steps) and at the end, update the figures and compare with fresh builds."""
    g = new_game(players, map=map, edition=edition, seed=players)
    name = g.players[1]

    def build() -> list[go.Figure]:
        return [resources_figure(g, player=name), plants_figure(g)]

    figs = [go.FigureWidget(f) for f in build()] if widget else build()
    rng, n, checks = random.Random(players), 0, 0
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
        n += 1
        if n % (10 if n <= 50 else 150) and not g.is_over:
            continue
        for fig, fresh in zip(figs, build(), strict=True):
            assert update(fig, g) is fig
            assert as_json(fig) == as_json(fresh), (n, fig.layout.meta)
        checks += 1
    return checks


@pytest.mark.slow
@pytest.mark.parametrize(("players", "edition", "map"), CONFIGS)
def test_update_through_random_game_matches_fresh_builds(players, edition, map):
    """The trace layout depends only on the configuration: update() equals a fresh build all game long."""
    assert _check_updates(players, edition, map, widget=False) >= 7


@pytest.mark.slow
def test_update_figurewidget_through_random_game():
    """The same in place on go.FigureWidget (what the panels display), 2 players with the Trust."""
    assert _check_updates(2, "recharged", "usa", widget=True) >= 7


def test_update_switches_player():
    """update(fig, g, player=...) re-targets the player marks without changing the trace count."""
    g = _depot_game()
    fig = resources_figure(g)
    update(fig, g, player="Ada")
    assert as_json(fig) == as_json(resources_figure(g, player="Ada"))
    assert fig.layout.meta == {"view": "resources", "args": {"player": "Ada"}}
    widget = go.FigureWidget(plants_figure(g))
    g.apply(BuyResources("Ada", coal=2))
    update(widget, g)
    assert as_json(widget) == as_json(plants_figure(g))
