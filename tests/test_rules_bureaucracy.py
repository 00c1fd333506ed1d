"""Phase 5, bureaucracy (RULES.md §7 R71-R87), refill table R108, payment R110-R111 and
W11, W12, W13, W14, W15, W28."""

from __future__ import annotations

from itertools import combinations, product

from _helpers_phases import S3, events, scenario, supply_of
from _position import assert_illegal

from powergrid_nb import BuyResources, Done, Power, new_game
from powergrid_nb.engine.editions import get_edition
from powergrid_nb.engine.phases.resources import next_price, spaces
from powergrid_nb.engine.rules.plants import PLANTS, URANIUM, hybrid_coal_range, needs

REFILL = {  # R108: players -> step -> coal / oil / garbage / uranium
    2: {1: [3, 2, 1, 1], 2: [4, 2, 2, 1], 3: [3, 4, 3, 1]},
    3: {1: [4, 2, 1, 1], 2: [5, 3, 2, 1], 3: [3, 4, 3, 1]},
    4: {1: [5, 3, 2, 1], 2: [6, 4, 3, 2], 3: [4, 5, 4, 2]},
    5: {1: [5, 4, 3, 2], 2: [7, 5, 3, 3], 3: [5, 6, 5, 2]},
    6: {1: [7, 5, 3, 2], 2: [9, 6, 5, 3], 3: [6, 7, 6, 3]},
}
PAYMENT = [10, 22, 33, 44, 54, 64, 73, 82, 90, 98, 105, 112, 118, 124, 129, 134, 138, 142, 145, 148, 150]
CITIES = ["Essen", "Münster", "Dortmund", "Duisburg", "Düsseldorf", "Köln", "Aachen"]


def finish_phase5(g):
    """Every player still to act powers nothing; phase 5 then refills and updates the market."""
    while g.phase == 5:
        g.apply(Power(g.current_player, ()))


def powered(g):
    return {e.player: e.powered for e in events(g, "powered")}


def test_R71_power_then_refill_then_market_update():
    """R71: phase 5 runs (a) power and income, (b) refill, (c) plant-market update, in that order."""
    g = scenario(4, phase=5, resources=(10, 10, 4, 1), market=[3, 4, 5, 6, 7, 8, 9, 10], deck=[14],
                 who={"Ada": {"plants": [13], "cities": ["Essen"]}})
    start = len(g.history)
    finish_phase5(g)
    kinds = [e.kind for e in g.history[start:]]
    last_income = max(i for i, k in enumerate(kinds) if k == "income")
    refills = [i for i, k in enumerate(kinds) if k == "refill"]
    assert len(refills) == 4 and last_income < refills[0]
    assert refills[-1] < kinds.index("under") < kinds.index("draw")


def test_R72_each_owned_plant_runs_at_most_once():
    """R72: a player runs only their own plants, each at most once."""
    g = scenario(4, phase=5, resources=(20, 18, 6, 2),
                 who={"Ada": {"plants": [4, 13], "tokens": (4, 0, 0, 0), "cities": CITIES[:3]}})
    assert_illegal(g, Power("Ada", [4, 4]), "R72")
    assert_illegal(g, Power("Ada", [10]), "R72")
    g.apply(Power("Ada", [4, 13]))
    assert powered(g) == {"Ada": 2}
    assert g.tokens_of("Ada")["coal"] == 2


def test_R73_run_set_feasibility_hybrid():
    """R73: needC<=C, needO<=O, needG<=G, needU<=U and needH <= (C-needC)+(O-needO)."""
    g = scenario(4, phase=5, resources=(21, 15, 6, 2),
                 who={"Ada": {"plants": [4, 5, 7], "tokens": (3, 3, 0, 0), "cities": CITIES[:4]}})
    assert_illegal(g, Power("Ada", [4, 5, 7]), "R73")
    assert not any(a.plants == (4, 5, 7) for a in g.legal_actions())
    # the engine's test agrees with the formula on every subset and every holding (16 subsets)
    for plants in ([4, 5, 7], [5, 12, 29], [3, 6, 11]):
        for size in range(4):
            for subset in combinations(plants, size):
                nc, no, ng, nu, nh = needs(subset)
                for c, o, g_, u in product(range(5), range(5), range(3), range(3)):
                    ok = nc <= c and no <= o and ng <= g_ and nu <= u and nh <= (c - nc) + (o - no)
                    assert bool(hybrid_coal_range(subset, (c, o, g_, u))) == ok, (subset, c, o, g_, u)


def test_R74_powered_is_capped_by_city_count():
    """R74: cities powered = min(capacity run, city count); the surplus is lost."""
    g = scenario(4, phase=5, who={"Ada": {"plants": [33], "cities": CITIES[:2]}})
    g.apply(Power("Ada", [33]))
    assert powered(g) == {"Ada": 2}
    assert g.money("Ada") == 50 + 33


def test_R75_may_power_fewer_cities():
    """R75: a player may run fewer plants and is paid only for the cities actually powered."""
    g = scenario(4, phase=5, resources=(17, 18, 6, 2),
                 who={"Ada": {"plants": [4, 8], "tokens": (7, 0, 0, 0), "cities": CITIES[:3]}})
    g.apply(Power("Ada", [4]))
    assert powered(g) == {"Ada": 1}
    assert g.money("Ada") == 50 + 22
    assert g.tokens_of("Ada")["coal"] == 5


def test_R75_R99_the_outcome_of_a_smaller_run_says_why_as_the_log_does():
    """A run below the most the player could power (R99) states that most, the income given up and
    the market price of the tokens kept, in the words the log then uses; a run at the most says nothing."""
    g = scenario(4, phase=5, resources=(17, 18, 6, 2),
                 who={"Ada": {"plants": [4, 8], "tokens": (7, 0, 0, 0), "cities": CITIES[:3]}})
    most = g.power_outcome("Ada", [4, 8])
    assert (most.powered, most.possible, most.fewer) == (3, None, "")
    out = g.power_outcome("Ada", [4])
    assert (out.powered, out.possible, out.forgone) == (1, 3, PAYMENT[3] - PAYMENT[1])
    assert out.kept == g.market_cost(coal=5) - g.market_cost(coal=2)  # the 3 coal plant 8 would burn
    assert out.fewer == (f"not the 3 possible: {out.forgone} Elektro less income for {out.kept} Elektro "
                         "of tokens kept (at today's market prices)")
    g.apply(Power("Ada", [4]))
    assert events(g, "powered")[-1].text().endswith(f"and powers 1 city, {out.fewer}.")


def test_R76_income_zero_cities_10():
    """R76: a player who powers no city still receives 10 E."""
    g = scenario(4, phase=5, resources=(22, 18, 6, 2),
                 who={"Ada": {"plants": [4], "tokens": (2, 0, 0, 0)},
                      "Bo": {"plants": [13], "cities": ["Essen"]}})
    g.apply(Power("Ada", [4]))  # no city: nothing powered
    g.apply(Power("Bo", []))
    assert powered(g) == {"Ada": 0, "Bo": 0}
    assert g.money("Ada") == 60 and g.money("Bo") == 60


def test_R77_burnt_tokens_to_supply():
    """R77: tokens consumed go to the supply, not to the market."""
    g = scenario(4, phase=5, resources=(10, 18, 6, 2),
                 who={"Ada": {"plants": [4], "tokens": (4, 0, 0, 0), "cities": ["Essen"]}})
    before = supply_of(g)
    g.apply(Power("Ada", [4]))
    assert g.s.res == [10, 18, 6, 2]
    assert supply_of(g) == [before[0] + 2, *before[1:]]


def test_R78_refill_by_player_count_and_step():
    """R78: the refill moves the §11 quantities for the player count and the current step."""
    for step in (1, 2, 3):
        market = [20, 21, 22, 23, 24, 25] if step == 3 else None
        g = scenario(4, phase=5, step=step, resources=(0, 0, 0, 0), market=market)
        finish_phase5(g)
        assert g.s.res == REFILL[4][step], step


def test_R79_refill_most_expensive_first():
    """R79: coal/oil/garbage fill the most expensive non-full space up to 3, then the next lower."""
    g = scenario(4, phase=5, resources=(14, 16, 0, 2))
    finish_phase5(g)  # 4p Step 1: +5 coal, +3 oil, +2 garbage
    assert spaces(0, g.s.res[0]) == [(1, 0), (2, 1), (3, 3), (4, 3), (5, 3), (6, 3), (7, 3), (8, 3)]
    assert spaces(1, g.s.res[1]) == [(1, 0), (2, 1), (3, 3), (4, 3), (5, 3), (6, 3), (7, 3), (8, 3)]
    assert spaces(2, g.s.res[2]) == [(p, 2 if p == 8 else 0) for p in range(1, 9)]


def test_R80_uranium_one_per_space_from_16_down():
    """R80: uranium goes on 16, 14, 12, 10, 8, ... one per space, skipping occupied spaces."""
    g = scenario(5, phase=5, resources=(24, 18, 6, 0))
    finish_phase5(g)  # 5p Step 1: +2 uranium
    assert [p for p, n in spaces(URANIUM, g.s.res[3]) if n] == [14, 16]
    h = scenario(5, phase=5, resources=(24, 18, 6, 3))
    finish_phase5(h)
    assert [p for p, n in spaces(URANIUM, h.s.res[3]) if n] == [8, 10, 12, 14, 16]
    assert next_price(URANIUM, h.s.res[3]) == 8


def test_R81_partial_refill_when_supply_short():
    """R81: with fewer tokens in the supply than required, all available are placed."""
    g = scenario(4, phase=5, resources=(10, 10, 4, 1),
                 who={"Bo": {"plants": [20, 31], "tokens": (12, 0, 0, 0)}})
    assert supply_of(g)[0] == 2
    start = len(g.history)
    finish_phase5(g)
    assert g.s.res == [12, 13, 6, 2]
    assert supply_of(g)[0] == 0
    assert [(e.resource, e.tokens) for e in events(g, "refill", start)] == \
        [("coal", 2), ("oil", 3), ("garbage", 2), ("uranium", 1)]


def test_R82_market_is_a_contiguous_block_at_the_top():
    """R82: each type's tokens form one block ending at the most expensive space (count form)."""
    for n in range(25):
        per = [k for _, k in spaces(0, n)]
        assert sum(per) == n
        full_from = next((i for i, k in enumerate(per) if k), 8)
        assert all(k == 3 for k in per[full_from + 1:]) and all(k == 0 for k in per[:full_from])
    for n in range(13):
        assert [k for _, k in spaces(URANIUM, n)] == [0] * (12 - n) + [1] * n


def test_R83_map_exceptions_freeze_and_depot():
    """R83 [RECH]: Germany's uranium freeze and the USA coal depot change the refill."""
    g = scenario(4, "recharged", phase=5, resources=(0, 0, 0, 0), flags={"uranium_frozen": True})
    finish_phase5(g)
    assert g.s.res == [5, 3, 2, 0]
    h = scenario(4, "recharged", "usa", phase=5, resources=(0, 0, 0, 0),
                 who={"Bo": {"plants": [20, 31, 36], "tokens": (18, 0, 0, 0)},
                      "Cy": {"plants": [15], "tokens": (3, 0, 0, 0)}})
    assert supply_of(h)[0] == 3  # the depot
    finish_phase5(h)
    assert h.s.res == [3, 3, 2, 1] and supply_of(h)[0] == 0


def test_R84_highest_future_plant_under_deck():
    """R84: Steps 1-2: the highest future plant goes under the deck, the top card replaces it."""
    for step in (1, 2):
        g = scenario(4, phase=5, step=step, market=[3, 4, 5, 6, 7, 8, 9, 10], deck=[13])
        finish_phase5(g)
        st = g.to_dict()["state"]
        assert st["market"] == [3, 4, 5, 6, 7, 8, 9, 13], step
        assert st["deck"][-2:] == [S3, 10]
        assert [e.plant for e in events(g, "under")] == [10]


def test_R85_step3_update_boxes_lowest():
    """R85: Step 3: box the lowest plant and draw a replacement; with an empty deck, no replacement."""
    g = scenario(4, phase=5, step=3, market=[20, 21, 22, 23, 24, 25], deck=[40], boxed=[S3])
    finish_phase5(g)
    st = g.to_dict()["state"]
    assert st["market"] == [21, 22, 23, 24, 25, 40]
    assert st["boxed"] == [S3, 20]
    market = [20, 21, 22, 23, 24, 25]
    rest = [c for c in sorted(PLANTS) if c not in market]
    h = scenario(4, phase=5, step=3, market=market, boxed=[*rest, S3])
    assert h.s.deck == []
    finish_phase5(h)
    assert h.current_market() == [21, 22, 23, 24, 25]


def test_R86_step3_card_drawn_in_market_update():
    """R86/R92: the Step 3 card drawn in R84 is boxed with the lowest plant; Step 3 next round."""
    g = scenario(4, phase=5, step=2, market=[20, 21, 22, 23, 24, 25, 26, 27], deck=[S3])
    finish_phase5(g)
    st = g.to_dict()["state"]
    assert S3 in st["boxed"] and 20 in st["boxed"]
    assert st["market"] == [21, 22, 23, 24, 25, 26]
    assert 27 in st["deck"]
    assert g.round == 3 and g.step == 3
    assert g.current_market() == [21, 22, 23, 24, 25, 26]


def test_R87_phase5_ends_the_round():
    """R87: after phase 5 the next round starts with phase 1 (player order), then phase 2."""
    g = scenario(4, phase=5, round=2, order=["Ada", "Bo", "Cy", "Dee"],
                 who={"Dee": {"plants": [13], "cities": ["Essen"]}})
    start = len(g.history)
    finish_phase5(g)
    assert g.round == 3 and g.phase == 2
    assert [e.number for e in events(g, "phase", start)] == [1, 2]
    assert g.player_order[0] == "Dee"


def test_R108_refill_table():
    """R108: the refill table, identical in both editions, applied by the engine's phase 5."""
    for edition in ("original", "recharged"):
        ed = get_edition(edition)
        for players, row in REFILL.items():
            for step, want in row.items():
                assert ed.refill(players, step) == want
                market = [20, 21, 22, 23, 24, 25] if step == 3 else None
                g = scenario(players, edition, phase=5, step=step, resources=(0, 0, 0, 0),
                             market=market, trust=False if players == 2 else None)
                finish_phase5(g)
                assert g.s.res == want, (edition, players, step)


def test_R110_payment_table():
    """R110: income by cities powered, 0..20, both editions."""
    for edition in ("original", "recharged"):
        ed = get_edition(edition)
        assert [ed.payment(n) for n in range(21)] == PAYMENT


def test_R111_income_above_20_is_150():
    """R111 (O14): powering more than 20 cities pays 150 rather than failing."""
    for edition in ("original", "recharged"):
        assert all(get_edition(edition).payment(n) == 150 for n in (20, 21, 22, 27, 40))


def test_W11_income_full_storage():
    """W11: 6 cities, 07 + 10 + 15 burn 4 coal and 3 oil, produce 7, power 6: 73 E."""
    who = {"Ada": {"plants": [7, 10, 15], "tokens": (8, 6, 0, 0), "cities": CITIES[:6]}}
    g = scenario(4, phase=5, resources=(10, 10, 6, 2), who=who)
    assert g.scores()["Ada"] == 6
    before = supply_of(g)
    alt = g.copy()
    g.apply(Power("Ada", [7, 10, 15]))
    assert powered(g) == {"Ada": 6}
    assert g.money("Ada") == 50 + 73
    assert g.tokens_of("Ada") == {"coal": 4, "oil": 3, "garbage": 0, "uranium": 0}
    assert supply_of(g) == [before[0] + 4, before[1] + 3, before[2], before[3]]
    alt.apply(Power("Ada", [7, 15]))
    assert powered(alt) == {"Ada": 5} and alt.money("Ada") == 50 + 64


def test_W12_income_small():
    """W12: Blue with 07, 6 oil and 2 cities earns 33 (keeps 3 oil); the others power 1: 22 each."""
    who = {"Ada": {"plants": [7], "tokens": (0, 6, 0, 0), "cities": ["Essen", "Duisburg"]},
           "Bo": {"plants": [13], "cities": ["Köln"]},
           "Cy": {"plants": [4], "tokens": (2, 0, 0, 0), "cities": ["Aachen", "Hamburg", "Kiel"]},
           "Dee": {"plants": [18], "cities": ["Münster"]}}
    g = scenario(4, phase=5, resources=(22, 12, 6, 2), who=who)
    g.apply(Power("Ada", [7]))
    g.apply(Power("Bo", [13]))
    g.apply(Power("Cy", [4]))
    g.apply(Power("Dee", [18]))
    assert {n: g.money(n) - 50 for n in g.players} == {"Ada": 33, "Bo": 22, "Cy": 22, "Dee": 22}
    assert g.tokens_of("Ada")["oil"] == 3


def test_W13_refill_after_round1_5p():
    """W13: 5p ORIG; round 1 buys 10 coal, 2 oil, 1 garbage; 4 coal left in the supply; refill."""
    who = {"Ada": {"plants": [4]}, "Bo": {"plants": [10]}, "Cy": {"plants": [8, 3]},
           "Dee": {"plants": [6]}, "Eli": {"plants": [13]}}
    g = scenario(5, phase=3, round=1, order=["Ada", "Bo", "Cy", "Dee", "Eli"], who=who)
    assert g.s.res == [24, 18, 6, 2] and supply_of(g) == [0, 6, 18, 10]
    for a in (Done("Eli"), BuyResources("Dee", garbage=1), Done("Dee"),
              BuyResources("Cy", coal=2, oil=2), Done("Cy"), BuyResources("Bo", coal=4), Done("Bo"),
              BuyResources("Ada", coal=4), Done("Ada")):
        g.apply(a)
    paid = {n: 50 - g.money(n) for n in g.players}
    assert paid["Ada"] + paid["Bo"] + paid["Cy"] == 22 + 6 and paid["Dee"] == 7
    before = {"coal": [0, 0, 0, 2, 3, 3, 3, 3], "oil": [0, 0, 1, 3, 3, 3, 3, 3],
              "garbage": [0, 0, 0, 0, 0, 0, 2, 3]}
    for kind, row in enumerate(before.values()):
        assert [k for _, k in spaces(kind, g.s.res[kind])] == row
    assert [k for _, k in spaces(URANIUM, g.s.res[3])] == [0] * 10 + [1, 1]
    while g.phase == 4:
        g.apply(Done(g.current_player))
    g.apply(Power("Ada", [4]))
    g.apply(Power("Bo", [10]))
    g.apply(Power("Cy", []))
    g.apply(Power("Dee", []))
    start = len(g.history)
    g.apply(Power("Eli", [13]))
    assert [(e.resource, e.tokens) for e in events(g, "refill", start)] == \
        [("coal", 4), ("oil", 4), ("garbage", 3), ("uranium", 2)]
    after = {"coal": [0, 0, 3, 3, 3, 3, 3, 3], "oil": [0, 2, 3, 3, 3, 3, 3, 3],
             "garbage": [0, 0, 0, 0, 0, 2, 3, 3]}
    for kind, row in enumerate(after.values()):
        assert [k for _, k in spaces(kind, g.s.res[kind])] == row
    assert [k for _, k in spaces(URANIUM, g.s.res[3])] == [0] * 8 + [1, 1, 1, 1]
    assert [next_price(k, g.s.res[k]) for k in range(4)] == [3, 2, 6, 10]
    assert g.s.res == [18, 20, 8, 4]
    assert supply_of(g)[0] == 0
    assert sum(g.tokens_of(n)["coal"] for n in g.players) == 6


def test_W14_refill_quantities_lookup():
    """W14: 5p Step 1 -> 5/4/3/2; 2p Step 3 -> 3/4/3/1; 6p Step 2 -> 9/6/5/3."""
    for edition in ("original", "recharged"):
        ed = get_edition(edition)
        assert ed.refill(5, 1) == [5, 4, 3, 2]
        assert ed.refill(2, 3) == [3, 4, 3, 1]
        assert ed.refill(6, 2) == [9, 6, 5, 3]


def test_W15_payment_lookups():
    """W15: 0 -> 10, 1 -> 22, 2 -> 33, 6 -> 73, 10 -> 105, 17 -> 142, 20 -> 150."""
    g = new_game(4, seed=1)
    pay = g.ctx.edition.payment
    assert {n: pay(n) for n in (0, 1, 2, 6, 10, 17, 20)} == \
        {0: 10, 1: 22, 2: 33, 6: 73, 10: 105, 17: 142, 20: 150}


def test_W28_run_set_feasibility_with_hybrid():
    """W28: 04 + 05 + 07 with 3 coal and 4 oil run together (4 cities, 54 E); with 3 + 3 only 3 (44 E)."""
    who = {"Ada": {"plants": [4, 5, 7], "tokens": (3, 4, 0, 0), "cities": CITIES[:4]}}
    g = scenario(4, phase=5, resources=(21, 14, 6, 2), who=who)
    assert g.scores()["Ada"] == 4
    assert Power("Ada", [4, 5, 7], hybrid_coal=1) in g.legal_actions()
    g.apply(Power("Ada", [4, 5, 7]))
    assert powered(g) == {"Ada": 4} and g.money("Ada") == 50 + 54
    assert g.tokens_of("Ada") == {"coal": 0, "oil": 0, "garbage": 0, "uranium": 0}
    who["Ada"]["tokens"] = (3, 3, 0, 0)
    h = scenario(4, phase=5, resources=(21, 15, 6, 2), who=who)
    assert h.scores()["Ada"] == 3
    assert_illegal(h, Power("Ada", [4, 5, 7]), "R73")
    for run in ([4, 7], [5, 7]):
        k = h.copy()
        k.apply(Power("Ada", run))
        assert powered(k) == {"Ada": 3} and k.money("Ada") == 50 + 44
