"""The pandas frames (powergrid_nb/frames.py) agree with the Game API along random legal games."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from functools import cache

import pandas as pd
import pytest
from _helpers_props import choose
from _position import assert_illegal

from powergrid_nb import PLANTS, Build, BuyResources, Open, Power, new_game
from powergrid_nb import frames as F
from powergrid_nb.engine.rules.plants import FUELS, RESOURCES, STEP3, capacities, fits

START_MONEY = 50
GAMES = [  # (edition, map, players, options)
    ("original", "germany", 2, {}), ("original", "usa", 3, {}), ("recharged", "usa", 4, {}),
    ("original", "germany", 5, {"starting_cities": True}), ("recharged", "germany", 6, {}),
    ("recharged", "usa", 2, {"trust": False})]




@cache
def played(edition: str, map_name: str, n: int, opts: tuple, seed: int = 11):
    """(checkpoints, phase-5 positions with one player left to power) of one random game."""
    g = new_game(n, map=map_name, edition=edition, seed=seed, **dict(opts))
    rng = random.Random(seed)
    points, last_power, k = [g.copy()], [], 0
    while not g.is_over:
        if g.phase == 5 and len(g.s.to_act) == 1:
            last_power.append(g.copy())
        g.apply(choose(g, rng))
        k += 1
        if k % 25 == 0 or g.is_over:
            points.append(g.copy())
    return points, last_power


def games():
    return [played(ed, mp, n, tuple(opts.items())) for ed, mp, n, opts in GAMES]


def positions(phase: int | None = None):
    return [g for points, _ in games() for g in points if phase is None or g.phase == phase]


def all_names(g) -> list[str]:
    return g.players + ([g.trust] if g.trust else [])


def by_resource(df: pd.DataFrame) -> dict[str, list[dict]]:
    """The rows of a tidy resource frame as plain dicts, grouped by resource (fast to check)."""
    out: dict[str, list[dict]] = {r: [] for r in RESOURCES}
    for row in df.to_dict("records"):
        out[row["resource"]].append(row)
    return out


# --- players ---------------------------------------------------------------------------------

def test_players_frame_matches_game_api():
    """money, cities, plants, tokens, order, seat and the player to act are the Game's."""
    for g in positions():
        df = F.players_frame(g)
        assert list(df.index) == g.player_order and sorted(df.index) == sorted(all_names(g))
        rows = df.to_dict("index")
        for name in g.players:
            row = rows[name]
            assert (row["money"], row["cities"], row["plants"]) == \
                (g.money(name), len(g.cities_of(name)), tuple(g.plants_of(name)))
            assert {r: row[r] for r in RESOURCES} == g.tokens_of(name)
            assert (row["order"] - 1, row["seat"] - 1) == \
                (g.player_order.index(name), g.seat_order.index(name))
            assert row["is_current"] == (name == g.current_player) and not row["is_trust"]
        assert df["is_current"].sum() == (g.current_player is not None)


def test_R99_R47_players_frame_derived_columns():
    """R99/R76: can_power = g.scores(), income_now its payment; R47: storage is twice each plant's
    need by fuel; production sums the cards' cities; rank follows g.ranking()."""
    for g in positions():
        rows = F.players_frame(g).to_dict("index")
        scores, ranking = g.scores(), g.ranking()
        for name in g.players:
            row, cards = rows[name], [PLANTS[n] for n in g.plants_of(name)]
            assert row["can_power"] == scores[name]
            assert row["income_now"] == g.income(scores[name])
            assert row["rank"] == ranking.index(name) + 1
            for fuel in ("coal", "oil", "garbage", "uranium", "hybrid"):
                assert row[f"storage_{fuel}"] == sum(2 * c.tokens for c in cards if c.fuel == fuel)
            assert row["production"] == sum(c.cities for c in cards)


def test_players_frame_auction_flags():
    """Phase 2: still_in_auction = not yet bought or passed; bought_this_round; one must_discard."""
    seen = 0
    for g in positions(2):
        rows = F.players_frame(g).to_dict("index")
        for name in g.players:
            row = rows[name]
            assert (row["still_in_auction"], row["bought_this_round"], row["must_discard"]) == \
                (name in g.still_to_act, name in g.bought_this_round, g.discarding == name)
            seen += row["bought_this_round"]
        leaders = [name for name, row in rows.items() if row["high_bidder"]]
        assert leaders == ([] if g.auction is None else [g.auction.leader])
    assert seen > 0


# --- plants ----------------------------------------------------------------------------------

def test_R12_plants_frame_rows_are_the_market():
    """R12/R93: the plant rows are the current market then the future market, cheapest first."""
    for g in positions():
        df = F.plants_frame(g)
        plants = df[~df["is_step3"]]
        future = [c for c in g.future_market() if c != STEP3]  # future_market() lists the card as 99
        assert list(plants["plant"]) == g.current_market() + future
        assert list(plants["market"]) == ["current"] * len(g.current_market()) + ["future"] * len(future)
        assert df["is_step3"].sum() == (STEP3 in g.s.market)
        assert (df.loc[df["is_step3"], "market"] == "future").all()
        assert list(df["position"]) == list(range(1, len(df) + 1))
        for row in plants.to_dict("records"):
            card = PLANTS[row["plant"]]
            assert (row["fuel"], row["tokens"], row["cities"], row["storage"]) == \
                (card.fuel, card.tokens, card.cities, 2 * card.tokens)


def test_R28_R40_plants_frame_min_bid_discount_and_biddable():
    """R28/R40: min_bid is g.min_bid (1 for the discounted plant); biddable_now = an Open is legal."""
    discounted = 0
    for g in positions():
        df = F.plants_frame(g)
        plants = df[~df["is_step3"]]
        assert list(plants["min_bid"]) == [g.min_bid(p) for p in plants["plant"]]
        openable = {a.plant for a in g.legal_actions() if isinstance(a, Open)}
        assert set(plants.loc[plants["biddable_now"], "plant"]) == openable
        for row in plants[plants["discounted"]].to_dict("records"):
            assert row["plant"] == g.discount and row["min_bid"] == 1
            discounted += 1
    assert discounted > 0


def test_R90_plants_frame_step3_card_row():
    """R90: the Step 3 card in the market is a row with plant <NA>, never biddable."""
    g = next(g for g in positions(2) if g.s.auction is None and g.s.discard is None and g.step < 3).copy()
    g.s.market.append(STEP3)
    g._legal = None
    df = F.plants_frame(g)
    last = df.iloc[-1]
    assert last["is_step3"] and pd.isna(last["plant"]) and pd.isna(last["fuel"])
    assert not last["biddable_now"] and pd.isna(last["min_bid"])
    assert g.future_market()[-1] == STEP3 and last["market"] == "future"
    assert list(df.loc[~df["is_step3"], "plant"]) == g.current_market() + g.future_market()[:-1]


def test_R50_plants_frame_fuel_cost_follows_price_ladder():
    """R50: fuel_cost_now buys one run cheapest first (hybrid: cheapest coal/oil mix); green 0."""
    checked = 0
    for g in positions():
        ladder = by_resource(F.price_ladder_frame(g))
        cum = {r: [0, *(x["cumulative_cost"] for x in ladder[r])] for r in RESOURCES}
        for row in F.plants_frame(g)[lambda d: ~d["is_step3"]].to_dict("records"):
            k, fuel = row["tokens"], row["fuel"]
            if fuel == "hybrid":
                costs = [cum["coal"][c] + cum["oil"][k - c] for c in range(k + 1)
                         if c < len(cum["coal"]) and k - c < len(cum["oil"])]
            else:
                costs = [0] if k == 0 else cum[fuel][k:k + 1]
            want = min(costs, default=None)
            if want is None:
                assert pd.isna(row["fuel_cost_now"])
            else:
                assert row["fuel_cost_now"] == want
                assert row["fuel_cost_per_city"] == pytest.approx(want / row["cities"])
                checked += 1
    assert checked > 100


def test_R49_owned_plants_frame_places_every_held_token():
    """R49: one row per owned plant; the shown tokens add up to the holdings within storage."""
    for g in positions():
        df = F.owned_plants_frame(g)
        for name in all_names(g):
            mine = df[df["owner"] == name]
            assert list(mine["plant"]) == g.plants_of(name)
            assert {r: int(mine[r].sum()) for r in RESOURCES} == g.tokens_of(name)
            assert (mine["stored"] <= mine["storage"]).all()


# --- resources -------------------------------------------------------------------------------

def test_R82_resources_frame_spaces_hold_the_market():
    """R82/R115/R116: tokens per resource sum to the market count; 8x3 and 12x1 spaces; R1 totals."""
    for g in positions():
        groups = by_resource(F.resources_frame(g))
        for k, r in enumerate(RESOURCES):
            rows = groups[r]
            assert len(rows) == (12 if r == "uranium" else 8)
            assert sum(x["tokens"] for x in rows) == g.s.res[k]
            assert sum(x["capacity"] for x in rows) == (12 if r == "uranium" else 24)
            assert all(0 <= x["tokens"] <= x["capacity"] for x in rows)
            held = sum(g.tokens_of(n)[r] for n in all_names(g))
            for x in rows:
                assert (x["market_total"], x["held"]) == (g.s.res[k], held)
                assert x["market_total"] + x["held"] + x["supply"] == x["total"] and x["supply"] >= 0


def test_R117_first_ladder_price_is_next_price():
    """R117: the first token of the ladder costs next_price; the ladder never gets cheaper."""
    for g in positions():
        res, ladder = by_resource(F.resources_frame(g)), by_resource(F.price_ladder_frame(g))
        for k, r in enumerate(RESOURCES):
            prices = [x["price_of_kth"] for x in ladder[r]]
            assert prices == sorted(prices) and [x["k"] for x in ladder[r]] == list(range(1, len(prices) + 1))
            if g.s.res[k]:
                assert prices[0] == res[r][0]["next_price"]
                assert sum(x["source"] == "market" for x in ladder[r]) == g.s.res[k]


def test_R50_ladder_cumulative_cost_is_what_apply_charges():
    """R50: buying k tokens on a copy in phase 3 charges exactly cumulative_cost of k."""
    charged = over_budget = 0
    for g in positions(3):
        p, ladder = g.current_player, by_resource(F.price_ladder_frame(g))
        cap, held = capacities(g.s.plants[g.ctx.index[p]]), g.s.tokens[g.ctx.index[p]]
        for k, r in enumerate(RESOURCES):
            for row in ladder[r]:
                amounts = [row["k"] if j == k else 0 for j in range(4)]
                if not fits(cap, [h + a for h, a in zip(held, amounts, strict=True)]):
                    break
                c = g.copy()
                if row["cumulative_cost"] > g.money(p):
                    assert_illegal(c, BuyResources(p, *amounts), "R31")
                    over_budget += 1
                    break
                c.apply(BuyResources(p, *amounts))
                assert g.money(p) - c.money(p) == row["cumulative_cost"]
                assert c.s.res[k] == max(0, g.s.res[k] - row["k"])
                charged += 1
    assert charged > 30 and over_budget > 0


def test_R126_price_ladder_depot_rows_usa_recharged():
    """R126: with the coal track empty on the USA (Recharged) coal comes from the depot at 8."""
    g = next(g for g in played("recharged", "usa", 4, ())[0] if g.phase == 3).copy()
    p = g.current_player
    i = g.ctx.index[p]
    g.s.res[0], g.s.plants[i], g.s.tokens[i], g.s.money[i] = 0, [25], [0, 0, 0, 0], 100  # 25: 2 coal
    g._legal = None
    ladder = F.price_ladder_frame(g)
    coal = ladder[ladder["resource"] == "coal"]
    supply = 24 - sum(g.tokens_of(n)["coal"] for n in all_names(g))
    assert len(coal) == supply and (coal["source"] == "depot").all()
    assert list(coal["price_of_kth"].head(3)) == [8, 8, 8]
    res = F.resources_frame(g)
    assert res.loc[res["resource"] == "coal", "next_price"].iloc[0] == 8
    c = g.copy()
    c.apply(BuyResources(p, coal=3))
    assert g.money(p) - c.money(p) == coal["cumulative_cost"].iloc[2] == 24


def test_R78_refill_preview_is_the_next_refill():
    """R78-R81: refill_preview equals what the phase-5 refill then moves (last player powers none)."""
    checked = 0
    for g in (g for _, last_power in games() for g in last_power):
        preview, before, frame = F.refill_preview(g), len(g.history), by_resource(F.resources_frame(g))
        c = g.copy()
        c.apply(Power(c.current_player, ()))
        assert {e.resource: e.tokens for e in c.history[before:] if e.kind == "refill"} == preview
        assert all(x["refill_next"] == preview[r] for r in RESOURCES for x in frame[r])
        checked += 1
    assert checked > 20


def test_R81_refill_preview_table_and_supply_cap():
    """R78/R81/R125: the table amount for the step and player count, capped by supply and the track,
    none for uranium once Recharged Germany's freeze has fired."""
    for g in positions():
        table = g.ctx.edition.refill(g.ctx.refill_players, g.step)
        supply = F.resources_frame(g).groupby("resource", observed=True)["supply"].first()
        frozen = g.s.flags.get("uranium_frozen")
        for k, (r, v) in enumerate(F.refill_preview(g).items()):
            want = 0 if (r == "uranium" and frozen) else table[k]
            assert v == min(want, supply[r], (12 if r == "uranium" else 24) - g.s.res[k])
    g = new_game(3, map="germany", edition="recharged", seed=5)  # R125: frozen after plant 39
    assert F.refill_preview(g)["uranium"] == 1
    g.s.flags["uranium_frozen"] = True
    assert F.refill_preview(g)["uranium"] == 0


# --- map -------------------------------------------------------------------------------------

def test_R55_cities_frame_houses_and_slots():
    """R55: one row per map city; houses sum to all participants' cities; slots in build order."""
    for g in positions():
        df = F.cities_frame(g)
        assert list(df.index) == list(g.map.cities)
        assert df["houses"].sum() == sum(len(g.cities_of(n)) for n in all_names(g))
        in_play = set(g.map.cities_in(g.regions))
        assert set(df.index[df["in_play"]]) == in_play
        for city, row in df.to_dict("index").items():
            owners = [g.ctx.names[p] for p in g.s.houses.get(city, [])]
            slots = [row[f"slot_{x}"] for x in (10, 15, 20)]
            assert row["owners"] == tuple(owners) == tuple(s for s in slots if not pd.isna(s))
            assert row["open_slots"] == (max(0, g.step - len(owners)) if city in in_play else 0)
            assert row["marked"] == (city in g.s.marked)


def test_R56_cities_frame_build_cost_is_game_build_cost():
    """R56-R60: build_cost is g.build_cost (NA when not allowed); affordable Build = legal in phase 4."""
    legal_seen = 0
    for g in positions():
        name = g.current_player or g.players[0]
        df = F.cities_frame(g, name)
        for city, row in df.to_dict("index").items():
            cost = g.build_cost(name, city)
            assert (pd.isna(row["build_cost"]) if cost is None else row["build_cost"] == cost)
        if g.phase == 4 and g.current_player:
            legal = {a.cities[0] for a in g.legal_actions() if isinstance(a, Build)}
            assert set(df.index[df["affordable"]]) == legal
            legal_seen += len(legal)
    assert legal_seen > 0


def test_R4_connections_frame():
    """R4: one row per map connection; in_play when both ends lie in the play area."""
    for g in (points[0] for points, _ in games()):
        df = F.connections_frame(g)
        inside = set(g.map.cities_in(g.regions))
        rows = df[["city_a", "city_b", "cost"]].itertuples(index=False, name=None)
        assert list(rows) == list(g.map.connections)
        assert list(df["in_play"]) == [a in inside and b in inside for a, b, _ in g.map.connections]
        assert 0 < df["in_play"].sum() < len(df)


# --- dtypes, freshness, isolation --------------------------------------------------------------

def test_frame_dtypes():
    """Categoricals for resource (ordered), fuel, region, phase name; nullable ints; bools."""
    g = played("original", "usa", 3, ())[0][-1]
    for df in (F.resources_frame(g), F.price_ladder_frame(g)):
        assert df["resource"].cat.ordered and list(df["resource"].cat.categories) == list(RESOURCES)
    for df in (F.plants_frame(g), F.owned_plants_frame(g)):
        assert list(df["fuel"].cat.categories) == list(FUELS)
    cities = F.cities_frame(g, g.players[0])
    assert list(cities["region"].cat.categories) == list(g.map.regions)
    assert str(cities["build_cost"].dtype) == "Int64" and cities["in_play"].dtype == bool
    hist = F.history_frame(g)
    assert hist["phase_name"].cat.ordered and hist["phase_name"].cat.categories[0] == "start cities"
    players = F.players_frame(g)
    assert str(players["money"].dtype) == "Int64" and players["is_trust"].dtype == bool
    assert isinstance(players["plants"].iloc[0], tuple)


def test_frames_are_fresh_and_leave_the_game_unchanged():
    points = played("recharged", "usa", 4, ())[0]
    g = points[len(points) // 2]
    before, hist = g.to_dict(), len(g.history)
    for name in ("players", "plants", "resources", "cities", "connections", "history", "owned_plants",
                 "price_ladder"):
        f = getattr(F, f"{name}_frame")
        a, b = f(g), f(g)
        assert a is not b
        pd.testing.assert_frame_equal(a, b)
        b0 = b.copy(deep=True)
        a.iloc[0, 0] = a.iloc[-1, 0]
        pd.testing.assert_frame_equal(f(g), b0)  # editing one frame leaks into no other
    F.refill_preview(g)
    assert g.players_frame().equals(F.players_frame(g))
    assert g.to_dict() == before and len(g.history) == hist
    assert g.legal_actions() == g.copy().legal_actions()


def test_engine_does_not_import_pandas():
    """Only frames.py imports pandas, and only when a frame is asked for."""
    code = ("import sys, random\nfrom powergrid_nb import new_game\n"
            "g = new_game(4, seed=1)\nr = random.Random(1)\n"
            "for _ in range(200):\n    g.apply(r.choice(g.legal_actions()))\n"
            "g.to_dict(); g.scores()\nassert 'pandas' not in sys.modules, 'pandas imported'\n"
            "g.players_frame()\nassert 'pandas' in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.provisional
def test_R129_players_frame_trust_row():
    """R128/R129: a 2-player Recharged game lists the Trust second in order, with no seat or score."""
    g, rng = new_game(2, edition="recharged", seed=4), random.Random(4)
    for _ in range(60):
        g.apply(choose(g, rng))
    df = F.players_frame(g)
    assert list(df.index) == g.player_order and df.loc["Trust", "is_trust"] and df["is_trust"].sum() == 1
    assert pd.isna(df.loc["Trust", "seat"]) and pd.isna(df.loc["Trust", "can_power"])
    assert df.loc["Trust", "plants"] == tuple(g.plants_of("Trust"))
    hist = F.history_frame(g)
    assert hist.loc[hist["player"] == "Trust", "money_delta"].sum() == g.money("Trust") == 0
    owned = F.owned_plants_frame(g)
    assert list(owned.loc[owned["owner"] == "Trust", "plant"]) == g.plants_of("Trust")


def test_random_games_cover_every_decision_kind():
    """Sanity: the random games make every kind of decision, so the frames saw every phase."""
    kinds = Counter(type(a).__name__ for points, _ in games() for a in points[-1].actions)
    assert {"Open", "Bid", "Pass", "BuyResources", "Build", "Done", "Power", "MarkCity"} <= set(kinds)
