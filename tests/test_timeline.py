"""powergrid_nb.position.timeline: the history-derived frames agree with the game, round by round."""

from __future__ import annotations

import random
from collections import defaultdict
from functools import cache

import pandas as pd
import pytest
from _helpers_props import choose

from powergrid_nb import Game, Open, Pass, new_game
from powergrid_nb.engine.events import Income, PlantBought, PlantsRun, Refill
from powergrid_nb.engine.phases.resources import next_price
from powergrid_nb.engine.rules.plants import RESOURCES
from powergrid_nb.position.timeline import auctions_frame, market_history_frame, rounds_frame

GAMES = [  # (edition, map, players, options)
    ("original", "germany", 3, {}), ("recharged", "usa", 4, {}), ("original", "usa", 6, {}),
    ("recharged", "germany", 2, {"trust": False}), ("recharged", "germany", 5, {"starting_cities": True})]
ROUNDS_COLUMNS = ["round", "player", "is_trust", "place", "money", "money_change", "income", "powered",
                  "cities", "new_cities", "plants_bought", "paid_for_plants", "paid_for_resources",
                  "paid_for_building", "in_progress"]




def played(edition: str, map_: str, players: int, options: tuple, seed: int = 7, limit: int = 10**5):
    """(game, ends, starts) of :func:`played_with_orders` (other test modules import this one)."""
    return played_with_orders(edition, map_, players, options, seed, limit)[:3]


@cache
def played_with_orders(edition: str, map_: str, players: int, options: tuple, seed: int = 7,
                       limit: int = 10**5):
    """A seeded game played to its end (or ``limit`` actions), with snapshots taken as each round
    ends: {round: {player: (money, cities)}} and {round: market counts at its start}."""
    g = new_game(players, map=map_, edition=edition, seed=seed, **dict(options))
    rng = random.Random(seed)
    names = g.players + ([g.trust] if g.trust else [])
    ends: dict[int, dict[str, tuple[int, int]]] = {}
    starts: dict[int, list[int]] = {}
    orders: dict[int, list[str]] = {}
    def market():
        rf = g.resources_frame().drop_duplicates("resource")
        return [int(x) for x in rf["market_total"]]
    if g.phase != 0:
        starts[g.round] = market()
    n = 0
    while not g.is_over and n < limit:
        r, ph = g.round, g.phase
        if ph >= 3:
            orders[r] = list(g.player_order)
        g.apply(choose(g, rng))
        n += 1
        if g.round > r:
            ends[r] = {p: (g.money(p), len(g.cities_of(p))) for p in names}
            starts[g.round] = market()
        elif ph == 0 and g.phase != 0:
            starts[g.round] = market()
    return g, ends, starts, orders


def game(i: int, **kw):
    ed, m, n, opts = GAMES[i]
    return played_with_orders(ed, m, n, tuple(sorted(opts.items())), **kw)


@pytest.mark.parametrize("i", range(len(GAMES)))
def test_rounds_money_and_cities_at_every_round_end(i):
    """Money (50 + the pay/income ledger) and cities (house events) at each round's end equal the
    game's own values when that round ended; the last row is the game now."""
    g, ends, _, _ = game(i)
    rf = rounds_frame(g)
    assert list(rf.columns) == ROUNDS_COLUMNS
    assert g.is_over and len(ends) == g.round - 1
    for r, snap in ends.items():
        for p, (money, cities) in snap.items():
            row = rf[(rf["round"] == r) & (rf["player"] == p)].iloc[0]
            assert (row["money"], row["cities"]) == (money, cities), (r, p)
    last = rf[rf["round"] == g.round].set_index("player")
    for p in g.players:
        assert last.loc[p, "money"] == g.money(p)
        assert last.loc[p, "cities"] == len(g.cities_of(p))


def test_rounds_round1_money_starts_from_50():
    """R5: everyone starts with 50 Elektro; round 1's money is 50 + that round's ledger."""
    g, _, _, _ = game(0)
    r1 = rounds_frame(g).query("round == 1")
    assert list(r1["money"] - r1["money_change"]) == [50] * len(g.players)


@pytest.mark.parametrize("i", range(len(GAMES)))
def test_R18_rounds_place_is_the_player_order_of_phases_3_to_5(i):
    """``place`` is each player's place in the order the round's phases 3-5 were played in."""
    g, _, _, orders = game(i)
    rf = rounds_frame(g)
    assert orders
    for r, order in orders.items():
        rows = rf[rf["round"] == r].set_index("player")["place"]
        assert sorted(order, key=lambda p: rows[p]) == order, r


@pytest.mark.parametrize("i", [0, 1])
def test_rounds_income_and_powered_equal_the_events(i):
    """income = the sum of that round's Income events; powered = the PlantsRun event; <NA> when none."""
    g, _, _, _ = game(i)
    income, powered = defaultdict(int), {}
    for e in g.history:
        if isinstance(e, Income):
            income[(e.round, e.player)] += e.income
        elif isinstance(e, PlantsRun):
            powered[(e.round, e.player)] = e.powered
    rf = rounds_frame(g)
    for _, row in rf.iterrows():
        key = (row["round"], row["player"])
        if key in income:
            assert row["income"] == income[key]
        else:
            assert row["income"] is pd.NA
        if key in powered:
            assert row["powered"] == powered[key]
        else:
            assert row["powered"] is pd.NA
    assert rf["income"].sum() == sum(income.values())
    # the game ended in phase 4 of the last round: nobody powered then (R96)
    assert rf.loc[rf["round"] == g.round, "income"].isna().all()


@pytest.mark.parametrize("i", [0, 1])
def test_rounds_spending_adds_up(i):
    """money_change = income − what was paid for plants, resources and cities."""
    g, _, _, _ = game(i)
    rf = rounds_frame(g)
    spent = rf["paid_for_plants"] + rf["paid_for_resources"] + rf["paid_for_building"]
    assert (rf["money_change"] == rf["income"].fillna(0) - spent).all()
    assert rf["new_cities"].sum() == sum(len(g.cities_of(p)) for p in g.players)


@pytest.mark.parametrize("i", range(len(GAMES)))
def test_market_history_matches_the_market_at_each_round_start(i):
    """R117: one row per (round, resource); tokens at the start of the round, next_price of that count."""
    g, _, starts, _ = game(i)
    mf = market_history_frame(g)
    assert list(mf.columns) == ["round", "resource", "tokens", "next_price", "refilled"]
    assert sorted(set(mf["round"])) == sorted(starts) == list(range(1, g.round + 1))
    for r, counts in starts.items():
        rows = mf[mf["round"] == r]
        assert list(rows["resource"].astype(str)) == list(RESOURCES)
        assert list(rows["tokens"]) == counts
        for k, (n, p) in enumerate(zip(rows["tokens"], rows["next_price"], strict=True)):
            assert (p is pd.NA) if n == 0 else p == next_price(k, n)


@pytest.mark.parametrize("edition, counts", [("original", [24, 18, 6, 2]), ("recharged", [24, 18, 9, 2])])
def test_R8_market_history_first_round(edition, counts):
    """R8: the initial market (original 24/18/6/2, Recharged 24/18/9/2), priced 1, 3, 7/6, 14."""
    g = new_game(3, edition=edition, seed=3)
    mf = market_history_frame(g)
    assert list(mf["tokens"]) == counts
    assert list(mf["next_price"]) == [1, 3, 7 if edition == "original" else 6, 14]
    assert mf["refilled"].isna().all()


def test_market_history_refilled_equals_refill_events():
    """R78-R81: ``refilled`` is what that round's phase-5 refill moved (none yet in the last round)."""
    g, _, _, _ = game(0)
    moved = {(e.round, e.resource): e.tokens for e in g.history if isinstance(e, Refill)}
    mf = market_history_frame(g)
    for _, row in mf.iterrows():
        key = (row["round"], str(row["resource"]))
        assert row["refilled"] == moved[key] if key in moved else row["refilled"] is pd.NA


def _sell_first(g: Game, bid: int | None = None) -> int:
    """The player to act opens the cheapest plant (at ``bid`` or its minimum); everyone else passes."""
    plant, buyer = g.current_market()[0], g.current_player
    g.apply(Open(buyer, plant, g.min_bid(plant) if bid is None else bid))
    while plant not in g.plants_of(buyer):
        g.apply(Pass(g.current_player))
    return plant


def test_R30_auction_price_and_premium():
    """R30: the winner pays the last bid; premium = price − face value (the plant number, R28)."""
    g = new_game(3, seed=1)
    buyer = g.current_player
    plant = _sell_first(g, bid=g.min_bid(g.current_market()[0]) + 4)
    af = auctions_frame(g)
    assert len(af) == 1
    row = af.iloc[0]
    assert (row["round"], row["player"], row["plant"], row["face_value"]) == (1, buyer, plant, plant)
    assert (row["price"], row["premium"], row["discounted"], row["trust"]) == (plant + 4, 4, False, False)
    assert rounds_frame(g).set_index("player").loc[buyer, "paid_for_plants"] == plant + 4


def test_R40_discounted_plant_sold_for_1():
    """R40 [RECH]: the discounted plant opens at 1; the row is ``discounted`` with premium 1 − plant."""
    g = new_game(3, edition="recharged", seed=1)
    plant = g.current_market()[0]
    assert g.min_bid(plant) == 1
    _sell_first(g)
    row = auctions_frame(g).iloc[0]
    assert (row["price"], row["premium"], row["discounted"]) == (1, 1 - plant, True)


@pytest.mark.parametrize("i", [0, 1, 2])
def test_auctions_match_the_plant_events(i):
    """One row per PlantBought event, its plant and price; premium = price − plant."""
    g, _, _, _ = game(i)
    af = auctions_frame(g)
    bought = [e for e in g.history if isinstance(e, PlantBought)]
    assert list(zip(af["player"], af["plant"], af["price"], strict=True)) == \
        [(e.player, e.plant, e.price) for e in bought]
    assert (af["premium"] == af["price"] - af["plant"]).all()
    assert (af["face_value"] == af["plant"]).all()
    assert (af["discounted"] == (af["price"] < af["plant"])).all()
    if GAMES[i][0] == "original":
        assert not af["discounted"].any()
    rf = rounds_frame(g)
    paid = af.groupby(["round", "player"])["price"].sum()
    for (r, p), v in paid.items():
        assert rf[(rf["round"] == r) & (rf["player"] == p)]["paid_for_plants"].iloc[0] == v


@pytest.mark.provisional
def test_R130_trust_takes_are_free():
    """R130 (O22): the Trust takes the largest current plant for nothing: price 0, ``trust`` True."""
    g, _, _ = played("recharged", "germany", 2, (), seed=11, limit=200)
    af = auctions_frame(g)
    trust = af[af["player"] == "Trust"]
    assert len(trust) >= 2 and trust["trust"].all() and (trust["price"] == 0).all()
    assert (trust["premium"] == -trust["plant"]).all() and not trust["discounted"].any()
    assert not af.loc[af["player"] != "Trust", "trust"].any()
    rf = rounds_frame(g)
    t = rf[rf["player"] == "Trust"]
    assert t["is_trust"].all() and (t["money"] == 0).all() and t["income"].isna().all()
    assert t["cities"].iloc[-1] == len(g.cities_of("Trust"))


def test_partial_history_frames_start_where_the_log_starts():
    """A game loaded with a truncated history: money and cities are anchored on the present, so
    every round still in the log has the right end-of-round values."""
    g, ends, _ = played("original", "germany", 4, (), seed=5, limit=250)
    d = g.to_dict()
    cut = next(k for k, e in enumerate(g.history) if (e.round, e.phase) == (4, 3))  # its save rows align
    d["history"] = d["history"][cut:]
    h = Game.from_dict(d)
    rf = rounds_frame(h)
    assert rf["round"].min() == 4 and rf["round"].max() == g.round
    for r in range(4, g.round):
        for p, (money, cities) in ends[r].items():
            row = rf[(rf["round"] == r) & (rf["player"] == p)].iloc[0]
            assert (row["money"], row["cities"]) == (money, cities)
    assert list(market_history_frame(h)["round"].unique()) == list(range(5, g.round + 1))
    assert auctions_frame(h)["round"].min() >= 5


def test_no_history_gives_one_round_and_empty_frames():
    """A scenario without a history: one row per participant for the round being played."""
    g, _, _ = played("recharged", "usa", 2, (), seed=3, limit=120)
    d = g.to_dict()
    d.pop("history", None)
    h = Game.from_dict(d)
    rf = rounds_frame(h)
    assert list(rf["player"]) == ["Ada", "Bo", "Trust"] and set(rf["round"]) == {g.round}
    assert list(rf["money"]) == [g.money(p) for p in ("Ada", "Bo", "Trust")]
    assert list(rf["cities"]) == [len(g.cities_of(p)) for p in ("Ada", "Bo", "Trust")]
    assert rf["in_progress"].all() and (rf["new_cities"] == 0).all()
    assert rf["place"].isna().all()  # no order in the log
    mf, af = market_history_frame(h), auctions_frame(h)
    assert mf.empty and list(mf.columns) == ["round", "resource", "tokens", "next_price", "refilled"]
    assert af.empty and "premium" in af.columns and str(af["price"].dtype) == "Int64"


def test_R134_frames_during_start_city_marking():
    """R134: while start cities are marked (phase 0) no round has started yet: frames are empty but work."""
    g = new_game(3, edition="recharged", seed=2, starting_cities=True)
    assert g.phase == 0
    assert market_history_frame(g).empty and auctions_frame(g).empty
    rf = rounds_frame(g)
    assert list(rf["money"]) == [50, 50, 50] and list(rf["round"]) == [1, 1, 1]
