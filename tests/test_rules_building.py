"""Phase 4, building (RULES.md §6 R54-R70, R4) and W7, W8, W9, W10 on the Germany map."""

from __future__ import annotations

import json
from pathlib import Path

from _helpers_phases import GERMANY_W7, events, scenario
from _position import assert_illegal

from powergrid_nb import Build, Done, new_game

ORDER = ["Dee", "Cy", "Bo", "Ada"]  # reverse order: Ada builds first (R54)


def w7(step=1, to_act=("Ada", "Bo", "Cy", "Dee"), money=100, edition="original", **kw):
    """W7: A = Ada {Essen, Münster}; B = Bo {Düsseldorf}; Köln holds Cy's house (red + blue in play)."""
    who = {"Ada": {"money": money, "cities": ["Essen", "Münster"]},
           "Bo": {"money": 100, "cities": ["Düsseldorf"]},
           "Cy": {"money": 100, "cities": ["Köln"]}}
    return scenario(4, edition, phase=4, step=step, order=ORDER, to_act=list(to_act), who=who, **kw)


def test_R54_reverse_order_any_number_of_cities():
    """R54: players build in reverse player order, adding any number of cities one at a time."""
    g = scenario(4, phase=4, order=["Bo", "Dee", "Ada", "Cy"])
    assert g.current_player == "Cy"
    g.apply(Build("Cy", "Essen"))
    assert g.current_player == "Cy" and g.money("Cy") == 40
    g.apply(Build("Cy", "Duisburg"))
    assert g.current_player == "Cy" and g.money("Cy") == 30
    g.apply(Done("Cy"))
    seen = []
    while g.phase == 4:
        seen.append(g.current_player)
        g.apply(Done(g.current_player))
    assert seen == ["Ada", "Dee", "Bo"]
    assert g.cities_of("Cy") == ["Essen", "Duisburg"]


def test_R55_houses_take_lowest_empty_slot():
    """R55: each new house takes the lowest empty slot: 10, then 15, then 20."""
    g = scenario(4, phase=4, step=3, order=ORDER, to_act=["Ada", "Cy"],
                 who={"Ada": {"cities": ["Duisburg"]}, "Bo": {"cities": ["Essen"]},
                      "Cy": {"cities": ["Düsseldorf"]}})
    g.apply(Build("Ada", "Essen"))
    assert g.money("Ada") == 50 - 15  # slot 15, link Duisburg-Essen 0
    g.apply(Done("Ada"))
    g.apply(Build("Cy", "Essen"))
    assert g.money("Cy") == 50 - (20 + 2)
    assert g.to_dict()["state"]["houses"]["Essen"] == ["Bo", "Ada", "Cy"]


def test_R56_build_price_is_lowest_open_slot_plus_link():
    """R56: an empty city costs 10 in every step, a second house 15, a third 20 (plus links, R60)."""
    for step in (1, 2, 3):
        koeln = {"cities": ["Köln"]} if step > 1 else {}  # Köln full in every step
        g = scenario(4, phase=4, step=step, order=ORDER,
                     who={"Ada": {"cities": ["Essen"]}, "Bo": {"cities": ["Düsseldorf", "Köln"]},
                          "Cy": koeln})
        assert g.build_cost("Ada", "Duisburg") == 10 + 0
        assert g.build_cost("Ada", "Dortmund") == 10 + 4
        assert g.build_cost("Ada", "Düsseldorf") == (None if step == 1 else 15 + 2)
        assert g.build_cost("Ada", "Köln") == (20 + 6 if step == 3 else None)


def test_R57_never_two_houses_in_one_city():
    """R57: a player never has two houses in the same city."""
    g = w7(step=3)
    assert g.build_cost("Ada", "Essen") is None
    assert_illegal(g, Build("Ada", "Essen"), "R57")
    assert_illegal(g, Build("Ada", "Duisburg", "Duisburg"), "R57")
    assert Build("Ada", "Essen") not in g.legal_actions()


def test_R58_step1_one_house_per_city():
    """R58: in Step 1 a city holds one house; an occupied city cannot be built in."""
    g = w7(step=1)
    for city in ("Düsseldorf", "Köln"):
        assert g.build_cost("Ada", city) is None
        assert Build("Ada", city) not in g.legal_actions()
        assert_illegal(g, Build("Ada", city), "R58")
    assert_illegal(g, Build("Ada", "Duisburg", "Köln"), "R58")  # composite: nothing is kept


def test_R58_step2_two_houses_step3_three():
    """R58: Step 2 opens the 15 slot, Step 3 the 20 slot; a city at capacity cannot be built in."""
    who = {"Ada": {"cities": ["Essen"]}, "Bo": {"cities": ["Düsseldorf"]},
           "Cy": {"cities": ["Düsseldorf"]}}
    g2 = scenario(4, phase=4, step=2, order=ORDER, who=who)
    assert_illegal(g2, Build("Ada", "Düsseldorf"), "R58")
    g2.apply(Build("Ada", "Duisburg", "Köln"))  # 10 + 0, then 10 + 2 + 4 through Düsseldorf
    assert g2.money("Ada") == 50 - 10 - 16
    g3 = scenario(4, phase=4, step=3, order=ORDER, who=who)
    g3.apply(Build("Ada", "Düsseldorf"))
    assert g3.money("Ada") == 50 - (20 + 2)


def test_R59_first_city_costs_10_in_empty_city():
    """R59: a first house goes in any empty play-area city for 10 E, no link cost, in every step."""
    for step in (1, 2, 3):
        g = w7(step=step, to_act=["Dee"])
        assert g.build_cost("Dee", "Aachen") == 10
        assert g.build_cost("Dee", "Flensburg") == 10
        assert g.build_cost("Dee", "Düsseldorf") is None
        if step > 1:
            assert_illegal(g, Build("Dee", "Düsseldorf"), "R59")
        g.apply(Build("Dee", "Flensburg"))
        assert g.money("Dee") == 40


def test_R60_later_city_pays_cheapest_connection():
    """R60: a later city costs its price plus the cheapest path from any network city."""
    g = w7(step=1)
    assert g.build_cost("Ada", "Dortmund") == 10 + 2  # via Münster, not Essen (4)
    g.apply(Build("Ada", "Dortmund"))
    assert g.money("Ada") == 100 - 12
    assert [e.cost for e in events(g, "house")] == [12]


def test_R61_paths_pass_through_any_city():
    """R61: a path may pass through empty, occupied or full cities without a house there."""
    g = w7(step=1)
    assert g.build_cost("Ada", "Aachen") == 10 + 2 + 9  # through Düsseldorf, full in Step 1
    h = scenario(4, phase=4, order=ORDER, to_act=["Ada"], who={"Ada": {"cities": ["Essen"]}})
    assert h.build_cost("Ada", "Osnabrück") == 10 + 6 + 7  # through the empty Münster
    h.apply(Build("Ada", "Osnabrück"))
    assert h.cities_of("Ada") == ["Essen", "Osnabrück"]
    assert "Münster" not in h.to_dict()["state"]["houses"]


def test_R62_links_paid_again_by_everyone():
    """R62: links are never owned; each use is paid in full again."""
    g = scenario(4, phase=4, step=2, order=ORDER, to_act=["Ada", "Bo"],
                 who={"Ada": {"cities": ["Münster"]}, "Bo": {"cities": ["Münster"]}})
    g.apply(Build("Ada", "Dortmund"))
    g.apply(Done("Ada"))
    assert g.build_cost("Bo", "Dortmund") == 15 + 2
    g.apply(Build("Bo", "Dortmund"))
    assert g.money("Ada") == 50 - 12 and g.money("Bo") == 50 - 17


def test_R63_cities_added_earlier_count():
    """R63: cities added earlier in the same turn count as network cities for later ones (W8)."""
    g = w7(step=2)
    a = g.copy()
    a.apply(Build("Ada", "Düsseldorf"))
    assert a.build_cost("Ada", "Köln") == 15 + 4
    g.apply(Build("Ada", "Düsseldorf", "Köln"))
    assert g.money("Ada") == 100 - 36
    assert [(e.city, e.cost) for e in events(g, "house")] == [("Düsseldorf", 17), ("Köln", 19)]


def test_R63_one_network_second_city_pays_path():
    """R63: no second network: with a network, even a far empty city costs 10 + its path."""
    g = scenario(4, phase=4, order=ORDER, to_act=["Ada"], who={"Ada": {"cities": ["Essen"]}})
    assert g.build_cost("Ada", "Aachen") == 10 + 11
    far = g.build_cost("Ada", "Flensburg")
    assert far is not None and far > 10 + 20
    g.apply(Build("Ada", "Aachen"))
    assert g.money("Ada") == 50 - 21


def test_R64_cannot_afford_city():
    """R64: a city can be added only if its full cost can be paid."""
    g = w7(step=1, money=20)
    assert Build("Ada", "Aachen") not in g.legal_actions()
    e = assert_illegal(g, Build("Ada", "Aachen"), "R64")
    assert "21" in str(e)
    h = w7(step=1, money=21)
    assert Build("Ada", "Aachen") in h.legal_actions()
    h.apply(Build("Ada", "Aachen"))
    assert h.money("Ada") == 0


def test_R64_composite_build_with_unaffordable_city_changes_nothing():
    """R64: Build(A, X, Y) with Y unaffordable leaves the whole game unchanged."""
    g = w7(step=2, money=30)  # Düsseldorf 17, then Köln 19 > 13
    assert_illegal(g, Build("Ada", "Düsseldorf", "Köln"), "R64")
    assert g.money("Ada") == 30 and g.cities_of("Ada") == ["Essen", "Münster"]
    g.apply(Build("Ada", "Düsseldorf"))
    assert g.money("Ada") == 13
    # the first city's side effects (R68 boxing and a draw) are undone as well
    h = scenario(4, phase=4, order=ORDER, market=[3, 4, 7, 8, 9, 10, 11, 12], deck=[20, 21],
                 who={"Ada": {"money": 15, "cities": ["Essen", "Münster"]}})
    assert_illegal(h, Build("Ada", "Duisburg", "Dortmund"), "R64")  # 10, then 12 > 5
    assert h.current_market() == [3, 4, 7, 8]


def test_R65_city_count_updated_after_each_city():
    """R65: the city count changes right after each added city (seen here by R68 between builds)."""
    g = scenario(4, phase=4, order=ORDER, market=[3, 4, 7, 8, 9, 10, 11, 12], deck=[20, 21],
                 who={"Ada": {"cities": ["Essen", "Münster"]}})
    g.apply(Build("Ada", "Duisburg"))
    assert len(g.cities_of("Ada")) == 3
    assert g.to_dict()["state"]["boxed"] == [3]
    g.apply(Build("Ada", "Dortmund"))
    assert g.to_dict()["state"]["boxed"] == [3, 4]
    assert g.current_market() == [7, 8, 9, 10]


def test_R66_building_is_optional_even_in_round_1():
    """R66: nobody must build, including in round 1."""
    g = scenario(4, phase=4, round=1)
    while g.phase == 4:
        g.apply(Done(g.current_player))
    assert g.phase == 5
    assert all(g.cities_of(n) == [] for n in g.players)


def test_R67_at_most_22_cities():
    """R67 (O15): a player has at most 22 cities."""
    g0 = scenario(4, phase=4)
    cities = sorted(g0.ctx.cities)
    mine, rest = cities[:22], cities[22:]
    g = scenario(4, phase=4, order=ORDER, to_act=["Ada"], who={"Ada": {"money": 500, "cities": mine}})
    assert all(g.build_cost("Ada", c) is None for c in rest)
    assert g.legal_actions() == [Done("Ada")]
    assert_illegal(g, Build("Ada", rest[0]), "R67")


def test_R68_too_small_plant_boxed_original():
    """R68 [ORIG]: current-market plants <= the largest city count are boxed and replaced, repeatedly."""
    g = scenario(4, phase=4, order=ORDER, market=[7, 8, 9, 10, 11, 12, 13, 14], deck=[5, 15, 16],
                 who={"Ada": {"plants": [3, 4], "cities": ["Essen", "Münster", "Dortmund", "Duisburg",
                                                           "Düsseldorf", "Köln"]}})
    g.apply(Build("Ada", "Aachen"))  # 7th city
    st = g.to_dict()["state"]
    assert st["boxed"] == [7, 5]
    assert st["market"] == [8, 9, 10, 11, 12, 13, 14, 15]
    assert st["deck"][0] == 16
    assert g.plants_of("Ada") == [3, 4]


def test_R69_no_too_small_rule_recharged():
    """R69 [RECH]: R68 does not exist; the market is untouched by building."""
    g = scenario(4, "recharged", phase=4, order=ORDER, market=[7, 8, 9, 10, 11, 12, 13, 14],
                 deck=[5, 15], who={"Ada": {"plants": [3, 4], "cities": [
                     "Essen", "Münster", "Dortmund", "Duisburg", "Düsseldorf", "Köln"]}})
    g.apply(Build("Ada", "Aachen"))
    st = g.to_dict()["state"]
    assert st["boxed"] == [] and st["market"] == [7, 8, 9, 10, 11, 12, 13, 14]
    assert st["deck"][:2] == [5, 15]


def test_R70_twin_halves_are_separate_cities():
    """R70 (O19): twin cities, if the map defines them, are two cities, each subject to R57."""
    path = Path(__file__).resolve().parents[1] / "maps" / "germany.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["twins"] = [["Essen", "Duisburg"]]
    regions = GERMANY_W7[4]
    g0 = new_game(4, map=data, regions=regions, seed=1)
    assert g0.map.twins == (("Essen", "Duisburg"),)
    g = scenario(4, map=data, regions=regions, phase=4, step=2, order=ORDER, to_act=["Ada"],
                 who={"Ada": {"cities": ["Essen"]}, "Bo": {"cities": ["Duisburg"]}})
    assert_illegal(g, Build("Ada", "Essen"), "R57")
    g.apply(Build("Ada", "Duisburg"))
    assert g.money("Ada") == 50 - 15


def test_R4_city_outside_play_area():
    """R4: cities outside the chosen regions cannot be built in (or reached)."""
    g = w7(step=1, to_act=["Dee", "Ada"])
    outside = [c for c, v in g.map.cities.items() if v.region not in g.regions]
    assert outside and all(g.build_cost("Dee", c) is None for c in outside)
    assert_illegal(g, Build("Dee", outside[0]), "R4")
    assert_illegal(g, Build("Dee", "Atlantis"), "R4")
    assert not any(isinstance(a, Build) and a.city in outside for a in g.legal_actions())
    # paths never run outside: Kiel-Leipzig is 37 through Lübeck/Schwerin/Magdeburg/Halle (purple,
    # brown regions), 50 inside the play area
    k = scenario(4, phase=4, order=ORDER, to_act=["Ada"], who={"Ada": {"cities": ["Kiel"]}})
    assert k.build_cost("Ada", "Leipzig") == 10 + 50


def test_W7_build_costs_germany_step1():
    """W7: A adds Duisburg 10, Dortmund 12, Aachen 21; B adds Duisburg 12; A cannot add Düsseldorf, Köln."""
    g = w7(step=1)
    for c, v in (("Essen", "red"), ("Duisburg", "red"), ("Düsseldorf", "red"), ("Münster", "red"),
                 ("Dortmund", "red"), ("Aachen", "blue"), ("Köln", "blue")):
        assert g.map.cities[c].region == v and v in g.regions
    assert {c: g.build_cost("Ada", c) for c in ("Duisburg", "Dortmund", "Aachen", "Düsseldorf", "Köln")} \
        == {"Duisburg": 10, "Dortmund": 12, "Aachen": 21, "Düsseldorf": None, "Köln": None}
    assert g.build_cost("Bo", "Duisburg") == 12
    for city, cost in (("Duisburg", 10), ("Dortmund", 12), ("Aachen", 21)):
        h = g.copy()
        h.apply(Build("Ada", city))
        assert h.money("Ada") == 100 - cost
    b = w7(step=1, to_act=["Bo"])
    b.apply(Build("Bo", "Duisburg"))
    assert b.money("Bo") == 100 - 12


def test_W8_build_costs_germany_step2():
    """W8: Step 2: Düsseldorf 17, Köln 21; Düsseldorf then Köln 36; Köln then Düsseldorf 38."""
    g = w7(step=2)
    assert g.build_cost("Ada", "Düsseldorf") == 17
    assert g.build_cost("Ada", "Köln") == 21
    a = g.copy()
    a.apply(Build("Ada", "Düsseldorf", "Köln"))
    assert a.money("Ada") == 100 - 36
    b = g.copy()
    b.apply("Ada: build Köln, Düsseldorf")
    assert b.money("Ada") == 100 - 38
    assert [e.cost for e in events(b, "house")] == [21, 17]


def test_W9_empty_city_price_in_later_steps():
    """W9: empty city 10 + x in Steps 2-3; second house 15 + x; third 20 + x (Step 3 only)."""
    for step in (2, 3):
        g = w7(step=step)
        assert g.build_cost("Ada", "Aachen") == 10 + 11
        assert g.build_cost("Ada", "Düsseldorf") == 15 + 2
        assert g.build_cost("Dee", "Düsseldorf") is None  # a first house needs an empty city
        assert g.build_cost("Dee", "Aachen") == 10
    g3 = scenario(4, phase=4, step=3, order=ORDER, to_act=["Ada"],
                  who={"Ada": {"cities": ["Essen"]}, "Bo": {"cities": ["Köln"]}, "Cy": {"cities": ["Köln"]}})
    assert g3.build_cost("Ada", "Köln") == 20 + 6
    g2 = scenario(4, phase=4, step=2, order=ORDER, to_act=["Ada"],
                  who={"Ada": {"cities": ["Essen"]}, "Bo": {"cities": ["Köln"]}, "Cy": {"cities": ["Köln"]}})
    assert g2.build_cost("Ada", "Köln") is None


def test_W10_too_small_plants_original():
    """W10 [ORIG]: a 6th city boxes 06 at once and draws a replacement; owned 03-05 are unaffected."""
    five = ["Essen", "Münster", "Dortmund", "Duisburg", "Düsseldorf"]
    g = scenario(4, phase=4, order=ORDER, market=[6, 7, 8, 9, 10, 11, 12, 13], deck=[14, 15],
                 who={"Ada": {"plants": [3], "cities": five}, "Bo": {"plants": [4, 5]}})
    g.apply(Build("Ada", "Köln"))
    st = g.to_dict()["state"]
    assert st["boxed"] == [6]
    assert st["market"] == [7, 8, 9, 10, 11, 12, 13, 14]
    assert g.plants_of("Ada") == [3] and g.plants_of("Bo") == [4, 5]
    assert [e.plant for e in events(g, "draw")] == [14]


def test_W10_recharged_nothing_happens():
    """W10 [RECH]: no too-small rule (R69): 06 stays."""
    five = ["Essen", "Münster", "Dortmund", "Duisburg", "Düsseldorf"]
    g = scenario(4, "recharged", phase=4, order=ORDER, market=[6, 7, 8, 9, 10, 11, 12, 13], deck=[14],
                 who={"Ada": {"plants": [3], "cities": five}, "Bo": {"plants": [4, 5]}})
    g.apply(Build("Ada", "Köln"))
    assert g.current_market() == [6, 7, 8, 9]
    assert events(g, "box") == []
