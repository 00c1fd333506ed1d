"""Phase 3, buying resources (RULES.md §5 R45-R53, §14 R115-R117) and W4, W5, W6, W16, W26, W27."""

from __future__ import annotations

from _helpers_phases import scenario, supply_of
from _position import assert_illegal

from powergrid_nb import BuyResources, Done, Power, new_game
from powergrid_nb.engine.events import PlantsRun
from powergrid_nb.engine.phases.resources import next_price, spaces
from powergrid_nb.engine.rules.plants import PLANTS, URANIUM

# token prices on a full track, most expensive first (R115, R116)
TRACK_LAYOUT = [8, 8, 8, 7, 7, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1]
URANIUM_LAYOUT = [16, 14, 12, 10, 8, 7, 6, 5, 4, 3, 2, 1]


def buyer(plants, tokens=(0, 0, 0, 0), money=50, resources=None, edition="original", map="germany",
          others=None, **kw):
    """Phase 3 with Ada to act first (she is last in player order, R45)."""
    who = {"Ada": {"plants": plants, "tokens": tokens, "money": money}, **(others or {})}
    return scenario(4, edition, map, phase=3, order=["Dee", "Cy", "Bo", "Ada"], who=who,
                    resources=resources, **kw)


def test_R45_reverse_player_order():
    """R45: players buy in reverse player order (last player first)."""
    g = scenario(4, phase=3, order=["Bo", "Dee", "Ada", "Cy"])
    seen = []
    while g.phase == 3:
        seen.append(g.current_player)
        g.apply(Done(g.current_player))
    assert seen == ["Cy", "Ada", "Dee", "Bo"]
    assert g.phase == 4


def test_R46_run_consumes_exactly_k():
    """R46: running consumes exactly k tokens, never more; without k suitable tokens a plant cannot run."""
    g = scenario(4, phase=5, resources=(16, 18, 6, 2),
                 who={"Ada": {"plants": [8], "tokens": (6, 0, 0, 0), "cities": ["Essen", "Münster"]},
                      "Bo": {"plants": [20], "tokens": (2, 0, 0, 0), "cities": ["Köln"]}})
    g.apply(Power("Ada", [8]))
    assert g.tokens_of("Ada")["coal"] == 3
    e = assert_illegal(g, Power("Bo", [20]), "R73")
    assert "20" in str(e)
    assert Power("Bo", [20]) not in g.legal_actions()


def test_R46_hybrid_coal_only_declared_for_hybrid_runs():
    """R46: a run without hybrids burns exactly its plants' own tokens; declaring a coal/oil mix for
    hybrids that are not in the run is not a legal action (apply must agree with legal_actions)."""
    g = scenario(4, phase=5, resources=(22, 18, 6, 2),
                 who={"Ada": {"plants": [4], "tokens": (2, 0, 0, 0), "cities": ["Essen"]}})
    bogus = Power("Ada", [4], hybrid_coal=2)
    assert bogus not in g.legal_actions()
    assert_illegal(g, bogus, "R46")


def test_R47_storage_twice_k_of_own_type_only():
    """R47: a plant stores at most 2k tokens and only of its own type; green plants store nothing."""
    g = buyer([8, 13], money=100)
    legal = g.legal_actions()
    assert BuyResources("Ada", coal=1) in legal
    assert not any(isinstance(a, BuyResources) and (a.oil or a.garbage or a.uranium) for a in legal)
    h = g.copy()
    h.apply(BuyResources("Ada", coal=6))
    assert h.tokens_of("Ada") == {"coal": 6, "oil": 0, "garbage": 0, "uranium": 0}
    assert BuyResources("Ada", coal=1) not in h.legal_actions()
    assert_illegal(h, BuyResources("Ada", coal=1), "R48")
    assert_illegal(g, BuyResources("Ada", coal=7), "R48")
    assert_illegal(g, BuyResources("Ada", oil=1), "R48")


def test_R48_purchase_must_fit_storage():
    """R48: a purchase is legal only if the holdings after it still fit the player's plants."""
    g = buyer([4], tokens=(3, 0, 0, 0), resources=(21, 18, 6, 2))
    assert_illegal(g, BuyResources("Ada", coal=2), "R48")
    assert_illegal(g, "Ada: buy coal 1 garbage 1", "R48")
    g.apply(BuyResources("Ada", coal=1))
    assert g.tokens_of("Ada")["coal"] == 4
    assert g.money("Ada") == 50 - 2


def test_R49_hybrid_storage_formula():
    """R49: legal iff G<=capG, U<=capU and max(0,C-capC)+max(0,O-capO) <= capH (O9)."""
    plants = [4, 7, 5]  # capC 4, capO 6, capH 4
    cases = {(6, 8): True, (8, 6): True, (4, 10): True, (8, 7): False, (7, 8): False, (9, 0): False,
             (0, 11): False, (0, 10): True}
    for (c, o), ok in cases.items():
        g = buyer(plants, money=200)
        a = BuyResources("Ada", coal=c, oil=o)
        if ok:
            g.apply(a)
            assert g.tokens_of("Ada") == {"coal": c, "oil": o, "garbage": 0, "uranium": 0}, (c, o)
        else:
            assert_illegal(g, a, "R48")


def test_R50_cheapest_first_prices():
    """R50: each token costs its space's price; tokens are taken cheapest space first."""
    g = buyer([8, 10], money=50)
    g.apply(BuyResources("Ada", coal=4))
    assert g.money("Ada") == 50 - (1 + 1 + 1 + 2)
    assert g.s.res[0] == 20
    g.apply(BuyResources("Ada", coal=3))
    assert g.money("Ada") == 45 - (2 + 2 + 3)
    g.apply(BuyResources("Ada", coal=1))
    assert g.money("Ada") == 38 - 3
    assert g.s.res[0] == 16


def test_R50_total_may_not_exceed_money():
    """R50/R31: the total price may not exceed the player's money; the state is left unchanged."""
    g = buyer([8], money=6)
    e = assert_illegal(g, BuyResources("Ada", coal=5), "R31")  # 1+1+1+2+2 = 7 > 6
    assert "7" in str(e)
    g.apply(BuyResources("Ada", coal=4))  # 5 <= 6
    assert g.money("Ada") == 1
    assert BuyResources("Ada", coal=1) not in g.legal_actions()  # next coal costs 2


def test_R51_any_number_any_types_one_turn():
    """R51: in their one turn a player buys any number of tokens of any types, including none."""
    g = buyer([4, 3, 6], money=50)
    g.apply(BuyResources("Ada", coal=1))
    g.apply(BuyResources("Ada", oil=2))
    g.apply(BuyResources("Ada", garbage=1))
    assert g.current_player == "Ada"
    assert g.money("Ada") == 50 - 1 - 6 - 7
    g.apply(Done("Ada"))
    assert g.current_player == "Bo"
    g.apply(Done("Bo"))  # buying nothing is allowed
    assert g.current_player == "Cy"
    assert g.tokens_of("Bo") == {"coal": 0, "oil": 0, "garbage": 0, "uranium": 0}


def test_R51_composite_purchase_equals_atomic_purchases():
    """R51/R50: BuyResources(coal=2, oil=1) charges exactly what the atomic purchases charge."""
    g = buyer([4, 3], money=50, resources=(14, 16, 6, 2))
    composite, text, atomic = g.copy(), g.copy(), g.copy()
    composite.apply(BuyResources("Ada", coal=2, oil=1))
    text.apply("Ada: buy coal 2 oil 1")
    for a in (BuyResources("Ada", coal=1), BuyResources("Ada", oil=1), BuyResources("Ada", coal=1)):
        atomic.apply(a)
    for h in (composite, text, atomic):
        assert h.money("Ada") == 50 - (4 + 4) - 3
        assert h.tokens_of("Ada") == {"coal": 2, "oil": 1, "garbage": 0, "uranium": 0}
        assert h.s.res == [12, 15, 6, 2]
        assert h.current_player == "Ada"
    # a composite purchase that breaks a limit in one type is rejected whole
    assert_illegal(g, BuyResources("Ada", coal=2, oil=5), "R48")
    assert_illegal(g, BuyResources("Ada", coal=2, uranium=1), "R48")


def test_R52_empty_track_cannot_buy():
    """R52: a type with no tokens left on the market cannot be bought this round (ORIG / no depot)."""
    g = buyer([3, 4], money=50, resources=(24, 0, 6, 2))
    assert supply_of(g)[1] == 24
    assert not any(isinstance(a, BuyResources) and a.oil for a in g.legal_actions())
    assert_illegal(g, BuyResources("Ada", oil=1), "R52")
    h = buyer([3], money=50, resources=(24, 2, 6, 2))
    assert_illegal(h, BuyResources("Ada", oil=3), "R52")
    h.apply(BuyResources("Ada", oil=2))
    assert h.money("Ada") == 50 - 16
    assert_illegal(h, BuyResources("Ada", oil=1), "R52")


def test_R53_selling_tokens_not_allowed():
    """R53 (O18): tokens are never sold back or dumped voluntarily."""
    g = buyer([4], tokens=(2, 0, 0, 0), resources=(22, 18, 6, 2))
    assert_illegal(g, BuyResources("Ada", coal=-1), "R53")
    assert_illegal(g, BuyResources("Ada", coal=1, oil=-1), "R53")
    for a in g.legal_actions():
        assert isinstance(a, Done) or (isinstance(a, BuyResources) and min(a.amounts) >= 0)


def test_R115_coal_oil_garbage_track():
    """R115: coal/oil/garbage spaces priced 1..8, 3 tokens each, 24 in all; never on 10-16."""
    for kind in range(3):
        assert spaces(kind, 24) == [(p, 3) for p in range(1, 9)]
        assert next_price(kind, 1) == 8
    g = buyer([20, 31, 36], money=100)  # 18 coal storage
    g.apply(BuyResources("Ada", coal=18))
    assert g.money("Ada") == 100 - 3 * (1 + 2 + 3 + 4 + 5 + 6)
    assert g.s.res[0] == 6
    assert next_price(0, g.s.res[0]) == 7


def test_R116_uranium_track():
    """R116: uranium spaces 1-8, 10, 12, 14, 16 with one token each (12 in all)."""
    assert [p for p, _ in spaces(URANIUM, 12)] == [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16]
    assert all(n == 1 for _, n in spaces(URANIUM, 12))
    assert [p for p, n in spaces(URANIUM, 4) if n] == [10, 12, 14, 16]
    g = buyer([11, 17], money=50, resources=(24, 18, 6, 12))
    g.apply(BuyResources("Ada", uranium=4))
    assert g.money("Ada") == 50 - (1 + 2 + 3 + 4)
    h = buyer([11], money=50)  # initial market: uranium on 14 and 16
    h.apply(BuyResources("Ada", uranium=2))
    assert h.money("Ada") == 50 - (14 + 16)


def test_R117_count_form_prices():
    """R117: with n tokens the next costs 8 - (n-1)//3 (coal/oil/garbage) or U[12 - n] (uranium)."""
    for n in range(1, 25):
        assert next_price(0, n) == TRACK_LAYOUT[n - 1] == 8 - (n - 1) // 3
    for n in range(1, 13):
        assert next_price(URANIUM, n) == URANIUM_LAYOUT[n - 1]
    assert next_price(0, 0) is None and next_price(URANIUM, 0) is None


def test_W4_plant_14_anatomy():
    """W4: plant 14 bids from 14, stores 4 garbage, runs on exactly 2 and powers at most 2 cities."""
    p = PLANTS[14]
    assert (p.fuel, p.tokens, p.cities, p.storage) == ("garbage", 2, 2, 4)
    assert new_game(4, seed=1).min_bid(14) == 14
    g = buyer([14], money=50)
    assert_illegal(g, BuyResources("Ada", garbage=5), "R48")
    g.apply(BuyResources("Ada", garbage=4))
    assert g.money("Ada") == 50 - (7 + 7 + 7 + 8)
    cities = ["Essen", "Münster", "Dortmund"]
    h = scenario(4, phase=5, resources=(24, 18, 2, 2),
                 who={"Ada": {"plants": [14], "tokens": (0, 0, 4, 0), "cities": cities}})
    h.apply(Power("Ada", [14]))
    assert h.tokens_of("Ada")["garbage"] == 2
    assert [e.powered for e in h.history if isinstance(e, PlantsRun)] == [2]
    assert h.money("Ada") == 50 + 33
    k = scenario(4, phase=5, resources=(24, 18, 2, 2),
                 who={"Ada": {"plants": [14], "tokens": (0, 0, 1, 0), "cities": cities}})
    assert_illegal(k, Power("Ada", [14]), "R73")


def test_W5_hybrid_05():
    """W5: 05 runs on 2 coal, 2 oil or 1 + 1, and stores any coal/oil mix up to 4 in total."""
    g = scenario(4, phase=5, resources=(22, 16, 6, 2),
                 who={"Ada": {"plants": [5], "tokens": (2, 2, 0, 0), "cities": ["Essen"]}})
    runs = {a.hybrid_coal for a in g.legal_actions() if a.plants == (5,)}
    assert runs == {0, 1, 2}
    for coal in (0, 1, 2):
        h = g.copy()
        h.apply(Power("Ada", [5], hybrid_coal=coal))
        assert h.tokens_of("Ada") == {"coal": 2 - coal, "oil": coal, "garbage": 0, "uranium": 0}
    assert_illegal(g, Power("Ada", [5], hybrid_coal=3), "R46")
    for c, o, ok in ((4, 0, True), (0, 4, True), (2, 2, True), (3, 2, False), (5, 0, False)):
        b = buyer([5], money=50)
        if ok:
            b.apply(BuyResources("Ada", coal=c, oil=o))
        else:
            assert_illegal(b, BuyResources("Ada", coal=c, oil=o), "R48")


def test_W6_storage_limits():
    """W6: plants 03, 05, 13: 8 oil legal, 5 coal illegal, 4 coal + 4 oil legal, 4 + 5 illegal."""
    for c, o, ok in ((0, 8, True), (5, 0, False), (4, 4, True), (4, 5, False)):
        g = buyer([3, 5, 13], money=100)
        if ok:
            g.apply(BuyResources("Ada", coal=c, oil=o))
            assert g.tokens_of("Ada")["coal"] == c and g.tokens_of("Ada")["oil"] == o
        else:
            assert_illegal(g, BuyResources("Ada", coal=c, oil=o), "R48")


def test_W16_ecological_plant():
    """W16: plant 33 powers up to 4 cities without tokens and can store nothing."""
    g = buyer([33], money=50)
    assert g.legal_actions() == [Done("Ada")]
    assert_illegal(g, BuyResources("Ada", coal=1), "R48")
    cities = ["Essen", "Münster", "Dortmund", "Duisburg", "Köln"]
    h = scenario(4, phase=5, who={"Ada": {"plants": [33], "cities": cities}})
    h.apply(Power("Ada", [33]))
    assert [e.powered for e in h.history if isinstance(e, PlantsRun)] == [4]
    assert h.money("Ada") == 50 + 54


def _w26(edition, plants=(4,), money=40, track=0):
    # coal: track + 19 stored by Bo and Cy + supply (5 - track) = 24
    return buyer(list(plants), money=money, edition=edition, map="usa",
                 resources=(track, 18, 6, 2),
                 others={"Bo": {"plants": [20, 31, 36], "tokens": (18, 0, 0, 0)},
                         "Cy": {"plants": [15], "tokens": (1, 0, 0, 0)}})


def test_W26_usa_coal_depot_recharged():
    """W26 / R126: USA Recharged, empty coal track, 5 coal in the depot: up to 4 coal at 8 E each."""
    g = _w26("recharged")
    assert supply_of(g)[0] == 5
    assert BuyResources("Ada", coal=1) in g.legal_actions()
    h = g.copy()
    h.apply(BuyResources("Ada", coal=4))
    assert h.money("Ada") == 40 - 32
    assert h.tokens_of("Ada")["coal"] == 4
    assert h.s.res[0] == 0 and supply_of(h)[0] == 1
    assert_illegal(g, BuyResources("Ada", coal=5), "R48")
    # the depot holds only 5: a sixth token cannot be bought even with room and money
    k = _w26("recharged", plants=(4, 10), money=60)
    assert_illegal(k, BuyResources("Ada", coal=6), "R52")
    k.apply(BuyResources("Ada", coal=5))
    assert k.money("Ada") == 60 - 40
    # track first, then the depot: 2 on the track (at 8) + 2 from the depot (at 8)
    t = _w26("recharged", track=2)
    t.apply(BuyResources("Ada", coal=4))
    assert t.money("Ada") == 40 - 32
    assert t.s.res[0] == 0 and supply_of(t)[0] == 1


def test_W26_same_position_original_cannot_buy_coal():
    """W26: under the original rules the same player can buy no coal this round (R52, O21)."""
    g = _w26("original")
    assert not any(isinstance(a, BuyResources) and a.coal for a in g.legal_actions())
    assert_illegal(g, BuyResources("Ada", coal=1), "R52")


def test_W27_count_form_prices():
    """W27: next-token prices by market count; from coal n = 18, 3 tokens cost 9 and a 4th costs 4."""
    expected = {24: 1, 18: 3, 14: 4, 8: 6, 5: 7, 1: 8}
    for kind in range(3):
        assert {n: next_price(kind, n) for n in expected} == expected
    assert {n: next_price(URANIUM, n) for n in (12, 4, 2, 1)} == {12: 1, 4: 10, 2: 14, 1: 16}
    g = buyer([20, 31], money=50, resources=(18, 18, 6, 2))
    g.apply(BuyResources("Ada", coal=3))
    assert g.money("Ada") == 50 - 9
    g.apply(BuyResources("Ada", coal=1))
    assert g.money("Ada") == 41 - 4
