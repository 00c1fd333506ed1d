"""Lesson 2 (power plants as capital): lessons.capital against the engine's tables and by hand."""

import math

import pandas as pd
import pytest

from powergrid_nb import PLANTS, Scenario, new_game, simulate
from powergrid_nb.lessons import capital


def _market(coal: int, oil: int) -> pd.DataFrame:
    return pd.DataFrame([{"game": 0, "round": 1, "resource": r, "tokens": n} for r, n in
                         (("coal", coal), ("oil", oil), ("garbage", 6), ("uranium", 2))])


def test_R110_marginal_income_is_the_difference_of_the_payment_table():
    g = new_game(4, seed=1)
    assert capital.marginal_income(g, 5, 3) == 90 - 64 == g.income(8) - g.income(5)


def test_payback_is_price_over_net_income_and_never_when_a_run_loses():
    assert capital.payback_rounds(16, 26, 6) == 0.8
    assert capital.payback_rounds(11, 13, 14) == math.inf


def test_plant_table_prices_fuel_as_the_engine_does():
    g = new_game(4, seed=1)
    t = capital.plant_table(g, powered=3)
    assert len(t) == len(PLANTS)
    for n in (3, 10, 12, 20, 29):
        assert t.loc[n, "fuel_cost"] == g.fuel_cost(n)
    assert t.loc[20, "cities_per_token"] == 5 / 3
    assert math.isnan(t.loc[13, "cities_per_token"]) and t.loc[13, "fuel_cost"] == 0
    assert t.loc[20, "payback"] == 20 / (g.income(8) - g.income(3) - g.fuel_cost(20))


def test_green_plants_cost_more_per_city_and_repay_it_in_saved_fuel():
    """Eco and fusion cards against the fuelled ones: a census of the deck at the table's prices."""
    g = new_game(4, seed=1)
    t = capital.plant_table(g, powered=3)
    out = capital.green_premium(t)
    green = [n for n, p in PLANTS.items() if p.tokens == 0]
    row = out.loc["green (eco, fusion)"]
    assert row["cards"] == len(green) and row["fuel per city per round"] == 0
    assert row["face value per city"] == sum(n / PLANTS[n].cities for n in green) / len(green)
    fuelled = out.loc["fuelled"]
    extra = row["face value per city"] - fuelled["face value per city"]
    assert extra > 0 and row["repaid_in"] == extra / fuelled["fuel per city per round"]


def test_R110_the_concave_table_makes_every_plant_worth_less_to_a_bigger_company():
    g = new_game(4, seed=1)
    early, late = capital.plant_table(g, powered=3), capital.plant_table(g, powered=12)
    assert (late["extra_income"] < early["extra_income"]).all()


def test_R46_a_hybrid_mixes_when_both_tracks_are_at_a_price_step():
    g = new_game(4, seed=1)
    costs = capital.hybrid_costs(_market(4, 4), g.resource_track, tokens=2)
    sc = Scenario.from_game(g)
    sc.set_resources({"coal": 4, "oil": 4})
    h = sc.game()
    row = costs.iloc[0]
    assert (row["coal"], row["oil"]) == (h.market_cost(coal=2), h.market_cost(oil=2)) == (15, 15)
    assert row["hybrid"] == h.fuel_cost(12) == h.market_cost(coal=1, oil=1) == 14


def test_hybrid_option_saves_against_either_fuel_never_less_than_nothing():
    g = new_game(4, seed=1)
    rows = [_market(c, o).assign(game=game, round=rnd)
            for game, (c, o) in enumerate([(4, 4), (24, 18), (3, 20)]) for rnd in (1, 2)]
    costs = capital.hybrid_costs(pd.concat(rows), g.resource_track)
    option = capital.hybrid_option(costs)
    assert (option["mean"] >= 0).all() and (option["games"] == 3).all()
    assert option.loc["vs coal only", "mean"] > 0  # the scarce coal of game 2


def test_premium_by_plant_leaves_out_discounted_and_rare_sales():
    a = pd.DataFrame({"edition": "x", "plant": [10, 10, 10, 10, 13], "premium": [0, 2, 4, -9, 5],
                      "discounted": [False, False, False, True, False]})
    out = capital.premium_by_plant(a, min_sales=3)
    assert out["plant"].tolist() == [10] and out.loc[0, "mean"] == 2 and out.loc[0, "n"] == 3
    assert out.loc[0, "low"] < 2 < out.loc[0, "high"]


def test_winners_curse_counts_wins_by_premium_place_within_each_game():
    games = pd.DataFrame({"game": [0, 0, 1, 1, 1], "mean_premium": [9.0, 1.0, 5.0, 2.0, math.nan],
                          "win_share": [0.0, 1.0, 1.0, 0.0, 0.0]})
    c = capital.winners_curse(games)
    assert c.loc[1, "n"] == 2 and c.loc[1, "win_rate"] == 0.5  # the top payer won game 1, not game 0
    assert c.loc[2, "win_rate"] == 0.5 and c.loc[1, "mean_premium"] == 7.0
    assert c.loc[1, "low"] < 0.5 < c.loc[1, "high"]


def test_R40_only_recharged_discounts_and_a_discounted_plant_can_sell_for_1():
    runs = {ed: simulate({"players": 4, "edition": ed}, games=4, bots="heuristic", seeds=0,
                         per_round=True, progress=False).auctions for ed in ("original", "recharged")}
    a = capital.edition_auctions(runs)
    d = capital.discount_sales(a)
    assert d.loc["original", "discounted"] == 0
    rech = a[(a["edition"] == "recharged") & a["discounted"]]
    assert d.loc["recharged", "discounted"] == len(rech) > 0
    assert d.loc["recharged", "sold_at_1"] == int((rech["price"] == 1).sum())
    assert (rech["price"] >= 1).all()


def test_payback_counts_the_cities_a_plant_needs():
    """A plant earns only for cities the company has: its capital is the card plus the cities. Plant 16
    (3 cities) at 21 Elektro a city, for a company powering 5: (16 + 63) / (26 - 6) rounds, not 16 / 20."""
    g = new_game(4, seed=1)
    t = capital.plant_table(g, powered=5, city=21)
    net = g.income(8) - g.income(5) - g.fuel_cost(16)
    assert t.loc[16, "capital"] == 16 + 3 * 21 and t.loc[16, "payback"] == pytest.approx(79 / net)
    assert 3.5 < t.loc[16, "payback"] < 4.5
    from powergrid_nb.lessons import check
    assert check("2.3", 79 / net).correct and not check("2.3", 16 / net).correct


def test_npv_and_discounted_payback():
    assert capital.npv(10, 10, 1, 0.0) == 0 and capital.npv(100, 10, 3, 0.0) == -70
    assert capital.npv(0, 11, 1, 0.1) == pytest.approx(10)
    assert capital.discounted_payback(20, 10, 0.0) == 2 and capital.discounted_payback(20, 10, 0.1) == 3
    assert capital.discounted_payback(20, 0, 0.1) == math.inf
    g = new_game(4, seed=1)
    t = capital.plant_table(g, powered=5, city=21, rate=0.1, rounds=5)
    row = t.loc[16]
    assert row["npv"] == pytest.approx(capital.npv(row["capital"], row["net_per_round"], 5, 0.1))
    assert row["discounted_payback"] >= math.ceil(row["payback"])


def test_city_price_is_the_engines_price_of_the_cheapest_cities_per_city():
    from powergrid_nb.bots.planner import cheapest_cities
    g = new_game(4, seed=1)
    assert capital.city_price(g, 3) == pytest.approx(cheapest_cities(g, g.players[0], 3)[1] / 3)


def test_R110_a_plant_and_its_cities_are_complements_earning_only_together():
    g = new_game(4, seed=1)
    t = capital.complements(g, 16, powered=5, city=21)
    assert t.loc["plant only", "net (Elektro/round)"] == 0 == t.loc["cities only", "net (Elektro/round)"]
    both = t.loc["plant and cities"]
    assert both["cities powered"] == 8 and both["spent (Elektro)"] == 16 + 3 * 21
    assert both["net (Elektro/round)"] == g.income(8) - g.income(5) - g.fuel_cost(16)
    text = capital.complements_text(t, 16)
    assert f"together they add {both['net (Elektro/round)']:.0f} E a round for 79 E" in text


def test_sunk_text_prices_the_opportunity_and_decides_on_the_next_run_only():
    g = new_game(4, seed=1)
    t = capital.plant_table(g, powered=5, city=20, rate=0.1)
    text = capital.sunk_text(t, 16, 20, 0.1)
    assert "would build 0.80 cities at 20.0 E each" in text and "**sunk**" in text and "R36" in text
    row = t.loc[16]
    assert f"extra income {row['extra_income']:.0f} E against fuel {row['fuel_cost']:.0f} E" in text
    losing = t.assign(net_per_round=-1.0)
    assert "leave it idle" in capital.sunk_text(losing, 16, 20, 0.1)


def test_plant_text_works_the_example_from_the_table():
    g = new_game(4, seed=1)
    t = capital.plant_table(g, powered=5, city=21, rate=0.1, rounds=5)
    text = capital.plant_text(g, t, 5, 21, 0.1, 5, plant=16)
    assert f"costs 16 + 63 = 79 E and nets {t.loc[16, 'net_per_round']:.0f} E a round" in text
    assert f"a payback of {t.loc[16, 'payback']:.1f} rounds" in text


def test_premium_text_counts_sales_at_the_reserve_price():
    a = pd.DataFrame({"edition": "x", "plant": [10, 10, 10, 13], "premium": [0, 0, 4, 2],
                      "discounted": False})
    text = capital.premium_text(a, capital.premium_by_plant(a, min_sales=1), games=2)
    assert "4 plants sold without discount in 2 games; 50%" in text and "reserve price" in text
    assert "the other 2 were bid up, by a median 3 E" in text


def test_curse_text_compares_with_the_share_a_place_that_did_not_matter_wins():
    games = pd.DataFrame({"game": [0, 0, 1, 1], "mean_premium": [9.0, 1.0, 5.0, 2.0],
                          "win_share": [0.0, 1.0, 1.0, 0.0]})
    text = capital.curse_text({"original": capital.winners_curse(games)})
    assert "won 50% of the games" in text and "With 2 places" in text and "about 50%" in text


def test_R40_discount_text_reads_the_sales_at_the_reserve_of_1():
    a = pd.DataFrame({"edition": "recharged", "plant": [3, 4, 4, 20], "price": [1, 1, 6, 20],
                      "premium": [-2, -3, 2, 0], "discounted": [True, True, True, False]})
    text = capital.discount_text(capital.discount_sales(a), a, games=1)
    assert "3 of 4 plants bought were discounted" in text and "2 of them went for the reserve of 1 E" in text
    assert "4 (2×), 3 (1×)" in text
