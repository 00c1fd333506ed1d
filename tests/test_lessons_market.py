"""Lesson 1's market computations (powergrid_nb.lessons.market), checked against the engine and by hand."""

import pandas as pd
import pytest

from powergrid_nb import BuyResources, Scenario, new_game
from powergrid_nb.bots import HeuristicBot, play
from powergrid_nb.lessons.market import (
    cost_text,
    denial_candidates,
    denial_study,
    denial_summary,
    denial_text,
    externality,
    externality_table,
    externality_text,
    history_text,
    next_buyer_table,
    paired_difference,
    price_history,
    price_spikes,
    refill_table,
    refill_wide,
    shortfall,
    spike_summary,
    spike_text,
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


def test_marginal_cost_lies_on_or_above_average_cost_on_every_market(start) -> None:
    for r in ("coal", "oil", "garbage", "uranium"):
        c = supply_curve(start, r)
        assert (c["marginal"] >= c["average"] - 1e-9).all(), r


def test_cost_text_states_the_engines_total_average_and_marginal(start) -> None:
    text = cost_text(start, "coal", 6)  # 1+1+1+2+2+2: the sixth coal costs 2, the six 9, 1.50 on average
    assert start.market_cost(coal=6) == 9
    assert "**9 Elektro**" in text and "AC(6) = 9/6 = 1.50" in text and "MC(6) = 2" in text
    assert "above the average" in text


def test_R50_the_externality_is_what_the_next_buyer_pays_more(start) -> None:
    # 24 coal at 1,1,1,2,2,2,3,...: after 3 bought, the next buyer's 3 coal cost 2+2+2 = 6 instead of 3
    assert externality(start, "coal", 3, 3) == 6 - 3
    assert externality(start, "coal", 0, 3) == 0
    assert externality(start, "uranium", 1, 1) == 16 - 14  # 2 uranium: spaces 14 and 16
    assert externality(start, "uranium", 1, 2) is None  # the market cannot sell 3


def test_externality_table_rows_add_up_to_what_the_engine_charges(start) -> None:
    t = externality_table(start, "coal", theirs=3, ks=range(0, 30))
    assert t["you buy"].max() == 24 - 3  # stops where the market cannot sell both
    for _, row in t.iterrows():
        k = int(row["you buy"])
        both = start.market_cost(coal=k + 3)
        assert row["you pay (Elektro)"] + row["next buyer pays for 3 (Elektro)"] == both
        alone = start.market_cost(coal=3)
        assert row["externality (Elektro)"] == row["next buyer pays for 3 (Elektro)"] - alone


def test_externality_text_says_what_the_first_buyers_purchase_costs_the_next(start) -> None:
    text = externality_text(start, "coal", mine=3, theirs=3)
    assert "pays 6 Elektro for 3 coal instead of 3" in text and "**3 Elektro more**" in text


def test_history_text_names_the_sold_out_round_with_its_interval() -> None:
    hist = pd.DataFrame({"round": [1, 2], "resource": "oil", "price": [3.0, 5.0], "low": [2.0, 4.0],
                         "high": [4.0, 6.0], "sold_out": [0.0, 0.5], "sold_out_low": [0.0, 0.2],
                         "sold_out_high": [0.3, 0.8], "games": [10, 10]})
    text = history_text(hist, 10)
    assert "3.0 Elektro in round 1" in text and "highest 5.0 [4.0, 6.0] in round 2" in text
    assert "**oil** in round 2: in 50% [20%, 80%] of 10 games" in text


def test_spike_text_reports_each_resources_peaks() -> None:
    s = pd.DataFrame([{"resource": "coal", "games": 4, "median_peak": 5.0, "max_peak": 8.0, "mean_top": 4.5,
                       "above": 0.5, "above_low": 0.15, "above_high": 0.85, "sold_out_games": 1}]
                     ).set_index("resource")
    text = spike_text(s)
    assert "median 5, highest 8" in text and "50% [15%, 85%] of the 4 games" in text and "1 games" in text


def test_denial_text_counts_the_positions_each_way() -> None:
    study = pd.DataFrame({"diff": [0.5, -0.25, 0.0], "diff_low": [0.1, -0.5, -0.2],
                          "diff_high": [0.9, -0.05, 0.2], "leaves_short": [True, False, False],
                          "playouts": [12, 12, 12]})
    text = denial_text(denial_summary(study), study)
    assert "**2 of 3 positions**" in text and "better in 1, worse in 1" in text
    assert "12 paired playouts" in text and "short of fuel in 1 of them" in text
    assert denial_text(denial_summary(study.iloc[:0]), study.iloc[:0]).startswith("No position")
