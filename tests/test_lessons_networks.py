"""Lesson 3 (networks): powergrid_nb.lessons.networks against the engine's prices and by hand."""

import functools
import math

from powergrid_nb import Scenario, new_game
from powergrid_nb.bots.planner import cheapest_cities, plan_targets
from powergrid_nb.lessons import networks


@functools.cache
def _positions():
    return networks.positions(2, players=4, round=6, seed=0)


def _bremen():
    sc = Scenario.new(4, seed=1, regions=["cyan", "red", "yellow", "brown"])
    sc.set_cities("Ada", ["Bremen"])
    sc.set_phase(4)
    return sc.game()


def test_R62_a_steiner_fork_prices_below_what_the_engine_charges():
    g = _bremen()
    want = ["Nürnberg", "Dresden"]
    assert networks.steiner_estimate(g, "Ada", want) == 20 + 69
    assert plan_targets(g, "Ada", want).total == 108


def test_steiner_estimate_of_one_city_is_its_build_cost():
    g = _positions()[0]
    me = g.current_player
    for city, cost in list(g.build_costs(me).items())[:6]:
        assert networks.steiner_estimate(g, me, [city]) == cost


def test_the_exact_planner_never_pays_more_than_the_steiner_planners_cities():
    for g in _positions():
        c = networks.connection_curve(g, g.current_player, range(1, 6))
        assert len(c) == 5
        assert (c["exact"] <= c["steiner_price"]).all()
        assert (c["steiner_estimate"] <= c["steiner_price"]).all()
        assert c["exact"].is_monotonic_increasing


def test_curve_summary_has_every_method_and_k_with_its_positions():
    curves = [networks.connection_curve(g, g.current_player, range(1, 4)).assign(position=i)
              for i, g in enumerate(_positions())]
    import pandas as pd
    s = networks.curve_summary(pd.concat(curves))
    assert set(s["method"]) == {"exact", "steiner_price", "steiner_estimate", "gap"}
    assert (s["n"] == 2).all() and len(s) == 3 * 4


def test_R56_slot_prices_open_one_house_per_step():
    t = networks.slot_prices_by_step(new_game(4, seed=1))
    assert t.loc["Step 1", "house 1"] == 10 and t.loc["Step 1"].isna().sum() == 2
    assert t.loc["Step 2"].tolist()[:2] == [10, 15] and t.loc["Step 3"].tolist() == [10, 15, 20]


def test_R56_following_a_rival_costs_at_most_5_a_city_in_step_2():
    g = _positions()[0]
    me = g.current_player
    rival = next(p for p in g.players if p != me)
    s2 = networks.first_mover(g, me, rival, range(1, 4), step=2)
    assert ((s2["loss"] >= 0) & (s2["loss"] <= 5 * s2["k"])).all()
    s1 = networks.first_mover(g, me, rival, range(1, 4), step=1)
    assert (s1["loss"] >= 0).all()


def test_centrality_mean_cost_is_the_mean_cheapest_path_cost():
    g = new_game(4, seed=1)
    c = networks.centrality(g)
    cities, dist = g.distance_table()
    i = cities.index(c.index[0])
    assert math.isclose(c.iloc[0]["mean_cost"], sum(dist[i]) / (len(cities) - 1))
    assert c["mean_cost"].is_monotonic_increasing


def test_growth_to_two_cities_pays_the_cheapest_link():
    g = new_game(4, seed=1)
    cities, dist = g.distance_table()
    grow = networks.growth_costs(g, k=2)
    for i, city in enumerate(cities):
        assert grow.loc[city, "links"] == min(d for j, d in enumerate(dist[i]) if j != i)
    regions = networks.region_costs(networks.growth_costs(g, k=4))
    assert regions["mean"].is_monotonic_increasing and regions["cities"].sum() == len(cities)
    labels = list(networks.region_figure(g, regions, 4).data[0].x)
    assert labels == [f"{r} (n = {n} cities)" for r, n in regions["cities"].items()]


def test_cheapest_cities_from_scratch_pay_slots_and_links():
    g = new_game(4, seed=1)
    cities, total = cheapest_cities(g, g.players[0], 3)
    assert total == 36 and networks.steiner_estimate(g, g.players[0], cities) <= total


def test_R62_the_link_paid_twice_is_read_from_the_engines_paths():
    """Bremen to Nürnberg and Dresden: both paths run over Erfurt–Dresden (19), the whole difference
    between the engine's price and the Steiner tree's; the links out of Bremen are paid once."""
    g = _bremen()
    want = ["Nürnberg", "Dresden"]
    links = networks.links_paid(g, "Ada", want).set_index("link")
    twice = links[links["paid"] > 1]
    assert list(twice.index) == ["Erfurt–Dresden"] and twice.loc["Erfurt–Dresden", "cost"] == 19
    assert (links.loc[[x for x in links.index if "Bremen" in x], "paid"] == 1).all()
    plan = plan_targets(g, "Ada", want)
    assert links["cost"].mul(links["paid"]).sum() + 20 == plan.total
    assert plan.total - networks.steiner_estimate(g, "Ada", want) == 19
    from powergrid_nb.lessons import check
    assert "Erfurt–Dresden" in check("3.3", 108).message


def test_the_steiner_planners_extra_cost_splits_into_choice_and_sharing():
    curves = networks.connection_curve(_positions()[0], _positions()[0].current_player, range(1, 6))
    s = networks.steiner_sources(curves)
    assert math.isclose(s["gap"], s["choice"] + s["sharing"]) and s["sharing"] >= 0 and s["choice"] >= 0
    assert 0 <= s["under"] <= 1 and s["rows"] == len(curves)


def test_region_costs_are_a_complete_count_without_an_interval():
    g = new_game(4, seed=1)
    regions = networks.region_costs(networks.growth_costs(g, k=4))
    assert not {"low", "high"} & set(regions.columns)
    assert (regions["min"] <= regions["mean"]).all() and (regions["mean"] <= regions["max"]).all()
    assert networks.region_figure(g, regions, 4).data[0].error_y.array is None


def test_fork_text_names_the_link_paid_twice_and_the_whole_difference():
    text = networks.fork_text(_bremen(), "Ada", ["Nürnberg", "Dresden"])
    assert "would price the two cities at 89 E; the engine charges 108 E, 19 E more" in text
    assert "Erfurt–Dresden (19 E, paid 2 times" in text and "exactly the difference" in text


def _wide(exact):
    import pandas as pd
    rows = [{"k": k, "method": m, "mean": float(v if m == "exact" else v + 1), "n": 3}
            for k, v in enumerate(exact, 1) for m in ("exact", "steiner_price", "steiner_estimate", "gap")]
    return networks.cost_table(pd.DataFrame(rows))


def test_cost_table_marginal_costs_add_up_to_the_total_and_average_is_total_over_k():
    w = _wide([20, 35, 55, 80])
    assert w["marginal (exact)"].tolist() == [20, 15, 20, 25] and w["marginal (exact)"].sum() == 80
    assert w["average (exact)"].round(1).tolist() == [20, 17.5, 18.3, 20] and (w["positions"] == 3).all()


def test_cost_curve_text_says_where_the_marginal_cost_pulls_the_average_up():
    text = networks.cost_curve_text(_wide([20, 35, 55, 80]))  # MC 20, 15, 20, 25; AC 20, 17.5, 18.3, 20
    assert "lowest at k = 2, $MC(2) = 15.0$ E, and city 4 costs $MC(4) = 25.0$ E" in text
    assert "to its lowest, $AC(2) = 17.5$ E at k = 2; city 3 costs $MC(3) = 20.0$ E, more than that" in text
    assert "over 3 positions" in text
    falling = networks.cost_curve_text(_wide([20, 35, 45, 55]))  # MC 20, 15, 10, 10: the average falls
    assert "falls over every k" in falling and "$AC(4) = 13.8$ E" in falling


def test_first_mover_text_compares_the_steps_by_their_intervals():
    import pandas as pd
    first = pd.DataFrame([{"step": 1, "k": 3, "free": 40.0, "taken": 60.0, "loss": 20.0, "low": 15.0,
                           "high": 25.0, "n": 5},
                          {"step": 2, "k": 3, "free": 40.0, "taken": 44.0, "loss": 4.0, "low": 2.0,
                           "high": 6.0, "n": 5}])
    text = networks.first_mover_text(first, k=3)
    assert "20.0 E more in Step 1 (95% interval 15.0–25.0" in text and "50% and 10%" in text
    assert "worth more in Step 1" in text


def test_region_and_centrality_texts_name_the_extremes():
    g = new_game(4, seed=1)
    growth = networks.growth_costs(g, k=4)
    regions = networks.region_costs(growth)
    assert f"in the {regions.index[0]} region" in networks.region_text(regions, growth, 4)
    central = networks.centrality(g)
    text = networks.centrality_text(central)
    assert text.startswith(f"{central.index[0]} is the most central") and central.index[-1] in text


def test_map_view_draws_a_plans_path_under_the_link_costs():
    g = _bremen()
    fig = networks.map_view(g, player="Ada", plan=["Dresden", "Nürnberg"])
    names = [t.name for t in fig.data]
    assert names.index("plan") < names.index("link costs") < names.index("yellow")  # city names on top
    assert fig.layout.title.font.size >= 20
