"""Lesson 1's market computations (powergrid_nb.lessons.market), checked against the engine and by hand."""

import pandas as pd
import pytest

from powergrid_nb import BuyResources, Scenario, new_game
from powergrid_nb.bots import HeuristicBot, play
from powergrid_nb.lessons.market import (
    denial_candidates,
    denial_study,
    denial_summary,
    next_buyer_table,
    paired_difference,
    price_history,
    price_spikes,
    refill_table,
    refill_wide,
    shortfall,
    spike_summary,
    supply_curve,
)
from powergrid_nb.play.results import wilson


@pytest.fixture(scope="module")
def start():
    return new_game(4, map="germany", edition="original", seed=1)


def test_R50_total_cost_is_the_sum_of_marginal_prices_cheapest_first(start) -> None:
    c = supply_curve(start, "coal")
    assert list(c["marginal"][:7]) == [1, 1, 1, 2, 2, 2, 3]  # 24 coal: spaces 1..8, 3 tokens each (R115)
    assert list(c["total"]) == list(c["marginal"].cumsum())
    assert c["total"].iloc[4] == start.market_cost(coal=5) == 7
    assert c["marginal"].is_monotonic_increasing


def test_R116_uranium_curve_climbs_to_16(start) -> None:
    c = supply_curve(start, "uranium")  # 2 uranium at the start: spaces 14 and 16
    assert list(c["marginal"]) == [14, 16] and list(c["total"]) == [14, 30]
    assert c["next_buyer"].isna().iloc[-1]  # sold out after both (R52)


def test_R117_next_buyer_pays_the_next_token_on_the_ladder(start) -> None:
    t = next_buyer_table(start, "oil", ks=range(0, 5)).set_index("you buy")
    assert t.loc[0, "next buyer pays for 1 (Elektro)"] == 3  # 18 oil: 3 tokens at 3
    assert t.loc[4, "next buyer pays for 1 (Elektro)"] == 4 and t.loc[4, "you pay (Elektro)"] == 13


def test_next_buyer_price_is_what_the_engine_charges_after_a_real_purchase() -> None:
    g = new_game(4, map="germany", edition="original", seed=1)
    play(g, [HeuristicBot(seed=k) for k in range(4)], until=lambda h: h.round >= 3 and h.phase == 3)
    me = g.current_player
    room = g.storage_room(me)
    r = next(x for x in ("coal", "oil", "garbage", "uranium") if room[x] and g.resource_market()[x] > room[x])
    k = room[r]
    expected = supply_curve(g, r).set_index("k").loc[k]
    paid = g.money(me)
    g.apply(BuyResources(me, **{r: k}))
    assert paid - g.money(me) == expected["total"]
    assert g.token_price(r) == expected["next_buyer"]


def test_R108_refill_is_larger_with_more_players() -> None:
    t = refill_table(("original",))
    per = t.groupby(["step", "players"])["tokens"].sum()
    for step in (1, 2, 3):
        assert per[step].is_monotonic_increasing and per[step].iloc[-1] > per[step].iloc[0]


def test_R108_step3_shifts_the_refill_from_coal_to_oil() -> None:
    t = refill_table(("original",)).set_index(["players", "step", "resource"])["tokens"]
    assert t[(5, 2, "coal")] == 7 and t[(5, 3, "coal")] == 5 and t[(5, 3, "oil")] == 6


def test_R108_refill_is_the_same_in_both_editions() -> None:
    t = refill_table()
    assert refill_wide(t, "original").equals(refill_wide(t, "recharged"))
    assert refill_wide(t).loc[4, "Step 1"] == "5 / 3 / 2 / 1"


def test_price_history_means_and_sold_out_shares_by_hand() -> None:
    market = pd.DataFrame({"game": [0, 1, 0, 1], "round": [1, 1, 2, 2], "resource": ["coal"] * 4,
                           "tokens": [3, 24, 0, 6], "next_price": pd.array([8, 1, None, 7], dtype="Int64"),
                           "refilled": [0, 0, 0, 0]})
    h = price_history(market).set_index("round")
    assert h.loc[1, "price"] == 4.5 and h.loc[1, "sold_out"] == 0 and h.loc[1, "games"] == 2
    assert h.loc[2, "price"] == 7 and h.loc[2, "sold_out"] == 0.5
    assert h.loc[1, "low"] < 4.5 < h.loc[1, "high"]
    assert price_history(market, min_games=3).empty


def _thin_oil() -> Scenario:
    """Ada buys before Bo (R45); Bo's plant 26 burns 2 oil and he has none; 4 oil on the market."""
    sc = Scenario.new(["Ada", "Bo"], map="germany", seed=11)
    sc.set_round(5)
    sc.set_step(1)
    sc.set_order(["Bo", "Ada"])
    sc.set_plants("Ada", [16])
    sc.set_money("Ada", 100)
    sc.set_plants("Bo", [26])
    sc.set_money("Bo", 100)
    sc.set_resources({"coal": 10, "oil": 4, "garbage": 5, "uranium": 1})
    sc.set_phase(3)
    return sc


def test_shortfall_is_the_fuel_missing_for_one_run() -> None:
    g = _thin_oil().game()
    assert shortfall(g, "Bo", "oil") == 2 and shortfall(g, "Bo", "coal") == 0


def test_R45_denial_takes_the_fuel_the_later_buyer_lacks() -> None:
    g = _thin_oil().game()
    assert g.current_player == "Ada" and g.still_to_act == ["Ada", "Bo"]
    d = denial_candidates(g, "Ada")
    assert d is not None and (d["opponent"], d["resource"]) == ("Bo", "oil")
    assert d["left"] == 0 and d["leaves_short"]
    h = g.copy()
    for a in d["denial"].actions:
        h.apply(a)
    assert h.resource_market()["oil"] == 0  # Bo, to act now, finds no oil (R52)
    assert h.current_player == "Bo"


def test_denial_study_reports_the_paired_difference_denial_minus_normal() -> None:
    g = _thin_oil().game()
    pos = {"game": g, "seed": 0, "round": 5, **denial_candidates(g, "Ada")}
    st = denial_study([pos], playouts=4, seed=3)
    row = st.iloc[0]
    assert row["diff"] == pytest.approx(row["p_denial"] - row["p_normal"])
    assert row["diff_low"] <= row["diff"] <= row["diff_high"]
    assert row["clear"] == (row["diff_low"] > 0 or row["diff_high"] < 0)
    s = denial_summary(st)
    assert s["positions"] == 1 and s["clear"] == s["better"] + s["worse"]


def test_a_paired_difference_at_0_and_n_has_an_honest_interval() -> None:
    """12 wins of 12 against 0 of 12 is not a certain difference of 1: Newcombe's interval from the two
    Wilson intervals (each 0 to 0.243 wide at 0 of 12) runs from about 0.66 to 1."""
    lo12 = wilson(0, 12)[1]
    d, lo, hi = paired_difference([0] * 12, [1] * 12)
    assert d == 1 and hi == 1 and lo == pytest.approx(1 - (2 * lo12 ** 2) ** 0.5) and lo < 0.7
    d, lo, hi = paired_difference([0] * 12, [0] * 12)
    assert d == 0 and (lo, hi) == pytest.approx((-lo12, lo12))
    d, lo, hi = paired_difference([1, 0, 1, 0, 1, 1], [1, 1, 0, 0, 1, 1])
    assert d == 0 and lo < 0 < hi
    # more concordant pairs (a correlated pair) give a narrower interval than independent ones
    same = paired_difference([1] * 10 + [0] * 10 + [0] * 2, [1] * 10 + [0] * 10 + [1] * 2)
    apart = paired_difference([1] * 10 + [0] * 12, [0] * 10 + [1] * 2 + [1] * 10)
    assert same[2] - same[1] < apart[2] - apart[1]


def test_price_spikes_are_each_games_own_peak_above_the_smooth_mean() -> None:
    market = pd.DataFrame({"game": [0, 0, 0, 1, 1, 1], "round": [1, 2, 3, 1, 2, 3], "resource": ["coal"] * 6,
                           "tokens": [24, 3, 0, 24, 20, 9], "next_price": pd.array([1, 8, None, 1, 2, 4],
                                                                               dtype="Int64")})
    spikes = price_spikes(market).set_index("game")
    assert spikes.loc[0, "peak"] == 8 and spikes.loc[0, "peak_round"] == 2 and spikes.loc[0, "sold_out"] == 1
    assert spikes.loc[1, "peak"] == 4 and spikes.loc[1, "peak_round"] == 3 and spikes.loc[1, "sold_out"] == 0
    hist = price_history(market)  # round means 1, 5, 4: the spike to 8 in game 0 is averaged away
    s = spike_summary(price_spikes(market), hist).loc["coal"]
    assert s["mean_top"] == 5 and s["median_peak"] == 6 and s["max_peak"] == 8
    assert s["above"] == 0.5 and s["sold_out_games"] == 1 and s["above_low"] < 0.5 < s["above_high"]
