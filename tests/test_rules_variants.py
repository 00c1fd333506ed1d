"""Map rules (§17 R124-R127, O20, O21; W25, W26), the Trust (§18 R128-R133, O22, provisional; W29)
and the default starting cities (§19 R134-R136, O23)."""

from __future__ import annotations

import pytest
from _helpers_steps import (
    REGIONS,
    S3,
    build_turn,
    done_phase,
    events,
    filler,
    pass_phase2,
    power_none,
    refills,
    scenario,
    to_phase,
)
from _position import assert_illegal

from powergrid_nb import (
    Build,
    BuyResources,
    Discard,
    Done,
    MarkCity,
    Open,
    Pass,
    Power,
    new_game,
)

U39 = [36, 37, 38, 39, 40, 42, 44, 46]  # plant 39 in the current market (Steps 1-2)
RES = {"coal": 12, "oil": 12, "garbage": 12, "uranium": 4}


# --- R125 / W25: Germany uranium freeze [RECH] ----------------------------------------------------

def _buy_39(edition="recharged", map="germany", **kw):
    """Round 2, phase 2: Ada buys plant 39; everybody else passes; on to phase 5."""
    g = scenario(edition=edition, map=map, market=U39, deck=[30, 31, 32], rest="removed", **kw)
    g.apply(Open("Ada", 39, 39))
    while g.s.auction is not None:
        g.apply(Pass(g.current_player))
    to_phase(g, 5)
    return g


def test_W25_uranium_never_refilled_after_39_bought():
    """W25 / R125: from phase 5 of the round in which 39 is bought, uranium refills add 0, for good."""
    g = _buy_39()
    assert [e.plant for e in events(g, "rule")] == [39]
    power_none(g)
    assert refills(g) == [5, 3, 2, 0]
    to_phase(g, 5)
    power_none(g)
    assert refills(g) == [5, 3, 2, 0]


def test_W25_uranium_on_market_still_buyable_after_freeze():
    """W25 / R125: uranium already on the market can still be bought (4 on the market: 10 + 12)."""
    g = _buy_39(money={"Ada": 100})
    power_none(g)
    to_phase(g, 3)
    while g.current_player != "Ada":
        g.apply(Done(g.current_player))
    uranium = g.s.res[3]
    g.apply(BuyResources("Ada", uranium=2))
    assert g.s.res[3] == uranium - 2 and g.tokens_of("Ada")["uranium"] == 2


def test_O20a_freeze_stays_after_39_is_discarded():
    """O20(a): the freeze is permanent even when the owner later boxes plant 39."""
    g = scenario(edition="recharged", market=U39, deck=[3, 4, 5, 6], rest="removed",
                 owned={"Ada": [30, 31]}, money={"Ada": 100})
    g.apply(Open("Ada", 39, 39))
    pass_phase2(g)
    to_phase(g, 2)
    assert g.current_player == "Ada" and 4 in g.current_market()
    g.apply(Open("Ada", 4, 4))
    while g.s.auction is not None:
        g.apply(Pass(g.current_player))
    g.apply(Discard("Ada", 39))
    assert 39 not in g.plants_of("Ada")
    to_phase(g, 5)
    power_none(g)
    assert refills(g)[3] == 0


def test_R125_39_boxed_by_R85_unbought_no_freeze():
    """R125 / W25: 39 boxed from the market without being bought: refills go on normally."""
    g = scenario(edition="recharged", phase=5, step=3, market=[39, 40, 42, 44, 46, 50], boxed=[S3],
                 deck=[30, 31, 32], rest="removed")
    power_none(g)
    assert 39 in g.s.boxed and events(g, "rule") == []
    to_phase(g, 5)
    power_none(g)
    assert refills(g) == [4, 5, 4, 2]


def test_R125_39_boxed_by_discount_cleanup_no_freeze():
    """R125 / R43: 39 unsold under the discount token is boxed, not bought: no freeze."""
    g = scenario(edition="recharged", step=3, market=[39, 40, 42, 44, 46, 50], boxed=[S3],
                 deck=[32, 33], rest="removed", discount=39)
    pass_phase2(g)
    assert 39 in g.s.boxed and events(g, "rule") == []
    to_phase(g, 5)
    power_none(g)
    assert refills(g) == [4, 5, 4, 2]


@pytest.mark.parametrize(("edition", "map", "options"), [
    ("recharged", "germany", {"map_rules": False}),  # option disables the rule
    ("original", "germany", {}),                       # O21: off in the original
    ("recharged", "usa", {}),                          # only the Germany map
])
def test_R125_O21_no_freeze_without_the_germany_recharged_rule(edition, map, options):
    """R125 / O21: buying 39 freezes uranium only on Germany in Recharged with map rules on."""
    g = _buy_39(edition, map, options=options)
    power_none(g)
    assert refills(g) == [5, 3, 2, 1]


def test_O21_map_rules_option_turns_the_freeze_on_in_the_original():
    """O21: the map rules are configurable; map_rules=True applies the Germany freeze to the original."""
    g = _buy_39("original", options={"map_rules": True})
    power_none(g)
    assert refills(g) == [5, 3, 2, 0]


@pytest.mark.provisional
def test_O20b_trust_taking_39_freezes_uranium():
    """O20(b) / R130: the Trust taking 39 counts as bought."""
    g = scenario(2, "recharged", market=[30, 31, 32, 39, 40, 42, 44, 46], deck=[33, 34], rest="removed")
    g.apply(Pass("Ada"))
    assert 39 in g.plants_of("Trust")
    pass_phase2(g)
    to_phase(g, 5)
    power_none(g)
    assert refills(g) == [3, 2, 1, 0]


# --- R126 / R127 / W26: USA coal depot [RECH] -----------------------------------------------------

def _usa_phase3(edition="recharged", ada_plants=(10,), money=40, coal=0, options=None):
    """Coal track holds ``coal``; Bo and Cy store 19 coal, so the supply (depot) holds 5 - coal."""
    return scenario(edition=edition, map="usa", phase=3, market=[13, 14, 16, 17, 18, 19, 21, 22],
                    owned={"Ada": list(ada_plants), "Bo": [31, 36], "Cy": [20, 25]},
                    tokens={"Bo": {"coal": 12}, "Cy": {"coal": 7 - coal}}, money={"Ada": money},
                    resources={"coal": coal, "oil": 12, "garbage": 12, "uranium": 4},
                    to_act=["Ada"], options=options)


def test_W26_usa_recharged_coal_at_8_from_depot():
    """W26 / R126: empty coal track, depot holds 5, free storage 4, 40 E: 4 coal for 32 E."""
    g = _usa_phase3()
    assert BuyResources("Ada", coal=1) in g.legal_actions()
    g.apply(BuyResources("Ada", coal=4))
    assert g.money("Ada") == 8 and g.tokens_of("Ada")["coal"] == 4
    assert_illegal(g, BuyResources("Ada", coal=1), "R48")


def test_R126_depot_limited_to_the_coal_in_it():
    """R126 / O21: the depot is the coal supply: with 5 there, a 6th token cannot be bought."""
    g = _usa_phase3(ada_plants=(10, 15), money=100)
    assert_illegal(g, BuyResources("Ada", coal=6), "R52")
    g.apply(BuyResources("Ada", coal=5))
    assert g.money("Ada") == 60


def test_R126_track_price_while_the_track_has_coal():
    """R126 / O21: depot coal only once the track is empty; before that the track price applies."""
    g = _usa_phase3(coal=4)  # one token on space 7, three on space 8
    g.apply(BuyResources("Ada", coal=1))
    assert g.money("Ada") == 33
    g.apply(BuyResources("Ada", coal=3))
    assert g.money("Ada") == 33 - 24 and g.s.res[0] == 0


@pytest.mark.parametrize(("edition", "options"), [("original", None), ("recharged", {"map_rules": False})])
def test_O21_no_coal_depot_without_the_rule(edition, options):
    """W26 / O21: under the original rules (or map rules off) no coal can be bought from an empty track."""
    g = _usa_phase3(edition, options=options)
    assert BuyResources("Ada", coal=1) not in g.legal_actions()
    assert_illegal(g, BuyResources("Ada", coal=1), "R52")


def test_R127_burnt_coal_goes_to_depot_and_refill_takes_it():
    """R127: coal burnt in phase 5 goes to the depot; the coal refill (4p Step 1: 5) takes what is there."""
    g = scenario(edition="recharged", map="usa", phase=5, market=[13, 14, 15, 16, 17, 18, 19, 22],
                 owned={"Ada": [31, 36], "Bo": [20, 25]}, tokens={"Ada": {"coal": 12}, "Bo": {"coal": 10}},
                 cities={"Ada": ["Seattle", "Portland"]},
                 resources={"coal": 2, "oil": 12, "garbage": 12, "uranium": 4})
    g.apply(Power("Ada", (31,)))
    power_none(g)
    assert refills(g)[0] == 3 and g.s.res[0] == 5


# --- §18 / W29: the Trust (provisional) ----------------------------------------------------------

@pytest.mark.provisional
def test_R128_trust_mode_default_for_2p_recharged():
    """R128 / R106: a 2-player Recharged game is played against the Trust; limit 3 plants."""
    g = new_game(2, edition="recharged", seed=4)
    assert g.trust == "Trust" and g.players == ["Ada", "Bo"] and g.plant_limit == 3
    o = new_game(2, edition="original", seed=4)
    assert o.trust is None and o.plant_limit == 4


@pytest.mark.provisional
def test_R129_trust_always_position_2():
    """R129: the Trust holds position 2 whatever the city counts."""
    g = scenario(2, "recharged", phase=5, market=[13, 14, 15, 16, 17, 18, 19, 20],
                 cities={"Ada": filler(2, players=2), "Trust": filler(5, start=2, players=2)},
                 order=["Bo", "Trust", "Ada"])
    power_none(g)
    assert g.round == 3 and g.player_order == ["Ada", "Trust", "Bo"]


@pytest.mark.provisional
def test_R130_trust_takes_largest_current_plant_free():
    """R130 / O22: the Trust takes the 4th current plant, without auction or payment; replaced (R32)."""
    g = scenario(2, "recharged", market=[13, 14, 15, 16, 17, 18, 19, 20], deck=[30, 31], rest="removed",
                 discount=13)
    g.apply(Pass("Ada"))
    assert g.plants_of("Trust") == [16] and g.money("Trust") == 0
    assert g.s.market == [13, 14, 15, 17, 18, 19, 20, 30]
    assert g.current_player == "Bo"


@pytest.mark.provisional
def test_O22_trust_takes_highest_plant_in_step3():
    """O22: with a Step-3 market (6 current plants) the Trust takes the highest-numbered one."""
    g = scenario(2, "recharged", step=3, market=[13, 14, 15, 16, 17, 18], boxed=[S3], deck=[30],
                 rest="removed")
    g.apply(Pass("Ada"))
    assert g.plants_of("Trust") == [18] and g.s.market == [13, 14, 15, 16, 17, 30]


@pytest.mark.provisional
def test_R131_trust_fuel_free_from_market():
    """R131 / O22: in phase 3 the Trust removes one run's worth (16: 2 oil) from the market, free."""
    g = scenario(2, "recharged", market=[13, 14, 15, 16, 17, 18, 19, 20], deck=[30, 31], rest="removed")
    g.apply(Pass("Ada"))
    pass_phase2(g)
    g.apply(Done("Bo"))
    assert g.s.res == [12, 10, 12, 4]
    assert g.money("Trust") == 0 and sum(g.tokens_of("Trust").values()) == 0


@pytest.mark.provisional
def test_R132_trust_house_blocks_the_city():
    """R132: the Trust's house occupies the slot like a player's (Step 1: city full)."""
    g = scenario(2, "recharged", phase=4, market=[13, 14, 15, 16, 17, 18, 19, 20])
    g.apply(Done("Bo"))
    (city,) = g.cities_of("Trust")
    assert g.current_player == "Ada" and g.build_cost("Ada", city) is None
    assert_illegal(g, Build("Ada", city), "R58")


@pytest.mark.provisional
def test_R133_trust_does_not_trigger_step2():
    """R133: Trust houses never count toward the Step-2 threshold (2p Recharged: 7 human cities)."""
    for who, step in (("Trust", 1), ("Ada", 2)):
        g = scenario(2, "recharged", phase=4, market=[13, 14, 15, 16, 17, 18, 19, 20],
                     cities={who: filler(9, players=2, edition="recharged")})
        done_phase(g)
        assert g.step == step, who


@pytest.mark.provisional
def test_R133_game_ends_at_18_human_cities_only():
    """R133 / W29: the end comes when a human reaches 18; the Trust's cities do not count."""
    for who, over in (("Trust", False), ("Ada", True)):
        g = scenario(2, "recharged", phase=4, step=3, market=[21, 22, 23, 24, 25, 26], boxed=[S3],
                     cities={who: filler(18, players=2, edition="recharged"),
                             "Bo": filler(17, players=2, edition="recharged")})
        done_phase(g)
        assert g.is_over is over, who


@pytest.mark.provisional
def test_R133_trust_cannot_win():
    """R133 / W29: the Trust is never ranked; scores, ranking and winners list humans only."""
    g = scenario(2, "recharged", phase=4, step=3, market=[21, 22, 23, 24, 25, 26], boxed=[S3],
                 owned={"Trust": [50, 44, 33], "Ada": [13]},
                 cities={"Trust": filler(18, players=2, edition="recharged"),
                         "Ada": filler(18, players=2, edition="recharged")})
    done_phase(g)
    assert g.is_over and set(g.scores()) == {"Ada", "Bo"}
    assert g.winners == ["Ada"] and "Trust" not in g.ranking()


@pytest.mark.provisional
def test_W29_trust_position_2_and_never_pays_over_several_rounds():
    """W29: over several rounds the Trust stays position 2, never pays, never acts by decision."""
    g = new_game(2, edition="recharged", seed=8)
    while g.round <= 5:
        assert g.player_order[1] == "Trust" and g.money("Trust") == 0
        assert g.current_player in ("Ada", "Bo")
        acts = g.legal_actions()
        cheap = [a for a in acts if isinstance(a, Open) and a.bid == g.min_bid(a.plant)]
        g.apply(Pass(g.current_player) if Pass(g.current_player) in acts else cheap[0] if cheap
                else acts[-1] if g.phase in (3, 4) else acts[0])
    assert len(g.plants_of("Trust")) == 3  # O22: a 4th plant boxes its lowest
    assert all(e.money_delta == 0 for e in g.history if e.who == "Trust")


# --- §19: default starting cities (R134-R136, O23) ------------------------------------------------

MARKS = ["Essen", "Kiel", "Köln", "Fulda"]


def test_R134_phase0_marking_in_reverse_player_order():
    """R134 / O23: phase 0, each player marks a start city, in reverse player order; no token used."""
    g = new_game(4, edition="recharged", seed=2, regions=REGIONS["germany"][4], starting_cities=True)
    assert g.phase == 0 and g.round == 1
    order, res = g.player_order, list(g.s.res)
    seen = []
    for city in MARKS:
        seen.append(g.current_player)
        g.apply(MarkCity(g.current_player, city))
    assert seen == order[::-1]
    assert g.s.marked == MARKS and g.s.res == res
    assert (g.phase, g.current_player) == (2, order[0])


def test_R134_marked_cities_distinct_and_in_play_area():
    """R134 / O23: a marked city cannot be marked again; only play-area cities can be marked."""
    g = new_game(4, edition="recharged", seed=2, regions=REGIONS["germany"][4], starting_cities=True)
    first = g.current_player
    g.apply(MarkCity(first, "Essen"))
    p = g.current_player
    assert MarkCity(p, "Essen") not in g.legal_actions()
    for city in ("Essen", "München"):
        assert_illegal(g, MarkCity(p, city), "R134")


def _marked(step=1, **kw):
    return scenario(edition="recharged", phase=4, step=step, market=[13, 14, 15, 16, 17, 18, 19, 20],
                    marked=MARKS, **kw)


def test_R135_first_house_must_be_in_an_empty_marked_city():
    """R135 / O23: a network is founded only in a still-empty marked city (anyone's mark), for 10."""
    g = _marked()
    assert g.build_cost("Dee", "Hamburg") is None
    assert_illegal(g, Build("Dee", "Hamburg"), "R135")
    assert {a.city for a in g.legal_actions() if isinstance(a, Build)} == set(MARKS)
    assert g.build_cost("Dee", "Kiel") == 10
    build_turn(g, "Kiel")
    assert g.build_cost("Cy", "Kiel") is None and g.build_cost("Cy", "Essen") == 10


def test_R136_marked_city_not_entered_by_expansion_in_step1():
    """R136: in Step 1 a marked city cannot be added from a network, even when empty."""
    g = _marked(cities={"Dee": ["Duisburg"]})
    assert g.build_cost("Dee", "Essen") is None
    assert_illegal(g, Build("Dee", "Essen"), "R136")
    assert g.build_cost("Dee", "Düsseldorf") == 12


def test_O23_step2_marked_cities_are_normal_for_expansion():
    """O23: from Step 2 an unoccupied marked city can be added from a network."""
    g = _marked(step=2, cities={"Dee": ["Duisburg"]})
    assert g.build_cost("Dee", "Essen") == 10
    build_turn(g, "Essen")
    assert g.cities_of("Dee") == ["Duisburg", "Essen"]


def test_O23_step2_founding_in_empty_marked_city_while_one_exists():
    """O23: in Step 2 a founder still uses an empty marked city if one exists, else any empty city."""
    g = _marked(step=2)
    assert g.build_cost("Dee", "Hamburg") is None and g.build_cost("Dee", "Köln") == 10
    full = {"Ada": ["Essen"], "Bo": ["Kiel"], "Cy": ["Köln", "Fulda"]}
    g = _marked(step=2, cities=full)
    assert g.build_cost("Dee", "Hamburg") == 10


def test_O23_uranium_markers_take_tokens_from_the_supply():
    """O23 (configurable): with start_markers='uranium' each marked city holds a uranium token taken from
    the supply (R134: "marks it with a uranium token"), not from the market; it stays all game."""
    g = new_game(4, edition="recharged", seed=2, regions=REGIONS["germany"][4], starting_cities=True,
                 start_markers="uranium")
    before, market = g.resource_supply()["uranium"], g.resource_market()["uranium"]
    for n, city in enumerate(MARKS, start=1):
        g.apply(MarkCity(g.current_player, city))
        assert g.resource_supply()["uranium"] == before - n
    assert g.resource_market()["uranium"] == market
    back = type(g).from_dict(g.to_dict())
    assert back.resource_supply()["uranium"] == before - len(MARKS)


def test_O23_abstract_markers_by_default_take_no_token():
    g = new_game(4, edition="recharged", seed=2, regions=REGIONS["germany"][4], starting_cities=True)
    before = g.resource_supply()["uranium"]
    g.apply(MarkCity(g.current_player, "Essen"))
    assert g.resource_supply()["uranium"] == before


def test_O23_uranium_markers_leave_less_uranium_to_refill():
    """R81: the refill moves only what the supply holds; the markers are not in it."""
    import random

    g = new_game(4, edition="recharged", seed=5, starting_cities=True, start_markers="uranium")
    rng = random.Random(5)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
        held = sum(g.tokens_of(p)["uranium"] for p in g.players)
        markers = sum(isinstance(a, MarkCity) for a in g.actions)
        assert g.resource_supply()["uranium"] + g.resource_market()["uranium"] + held + markers == 12
    assert markers == 4


@pytest.mark.parametrize(("options", "match"), [
    ({"start_markers": "coal"}, "must be 'abstract' or 'uranium'"),
    ({"start_markers": "uranium"}, "needs starting_cities=True"),
])
def test_O23_start_markers_option_is_checked(options, match):
    with pytest.raises(ValueError, match=match):
        new_game(4, edition="recharged", **options)


@pytest.mark.provisional
def test_R109_trust_game_refills_from_the_two_player_row() -> None:
    """R109: the 2-player game against the Trust refills with the 2-player row (Step 1: 3/2/1/1)."""
    import random

    from powergrid_nb import new_game
    from powergrid_nb.engine.phases.resources import TOTALS

    g = new_game(2, edition="recharged", seed=11)
    assert g.trust == "Trust"
    rng = random.Random(11)
    while not any(e.kind == "refill" for e in g.history):
        before = g.to_dict()["state"]
        g.apply(rng.choice(g.legal_actions()))
    moved = {e.resource: e.tokens for e in g.history if e.kind == "refill"}
    after = g.to_dict()["state"]  # holdings after the last run are what the refill saw
    held = {r: sum(p["tokens"][r] for p in after["players"].values())
            for r in ("coal", "oil", "garbage", "uranium")}
    total = dict(zip(("coal", "oil", "garbage", "uranium"), TOTALS, strict=True))
    for r, want in zip(("coal", "oil", "garbage", "uranium"), (3, 2, 1, 1), strict=True):
        supply = total[r] - before["resources"][r] - held[r]
        assert moved[r] == min(want, supply), r
    assert moved["oil"] == 2 and moved["garbage"] == 1 and moved["uranium"] == 1
