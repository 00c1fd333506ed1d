"""Build plans (R54-R64): priced one city at a time exactly as apply(Build(...)) charges."""

import random

import pytest
from _position import position

from powergrid_nb import Build, IllegalAction, new_game


def _phase4_positions(seed: int, players: int, edition: str):
    g = new_game(players, edition=edition, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        if g.phase == 4:
            yield g
        g.apply(rng.choice(g.legal_actions()))


CASES = [(1, 3, "original"), (2, 4, "recharged"), (3, 5, "original")]


@pytest.mark.parametrize("seed,players,edition", CASES)
def test_R54_plan_prices_match_what_apply_charges(seed: int, players: int, edition: str) -> None:
    """R54/R60/R63: each planned city costs what apply charges when added in that order."""
    rng = random.Random(seed)
    checked = 0
    for g in _phase4_positions(seed, players, edition):
        if rng.random() > 0.3:
            continue
        p = g.current_player
        cities = rng.sample(list(g.ctx.cities), 3)
        steps = g.plan_build(p, cities)
        h = g.copy()
        for st in steps:
            money = h.money(p)
            try:
                h.apply(Build(p, st.city))
            except IllegalAction as e:
                assert st.rule == e.rule, (st, e)
                continue
            assert st.rule == "" and money - h.money(p) == st.cost, st
            assert st.slot_price + st.connection == st.cost
            if len(st.path) > 1:
                assert st.path[0] in g.cities_of(p) + cities and st.path[-1] == st.city
                links = {frozenset((a, b)): c for a, b, c in g.map.connections}
                hops = zip(st.path, st.path[1:], strict=False)
                assert sum(links[frozenset(x)] for x in hops) == st.connection
            checked += 1
    assert checked > 0


def test_R61_plan_path_passes_through_other_cities() -> None:
    """R61/W7: A (Essen, Münster) reaching Aachen pays 2 + 9 through Düsseldorf (no house there)."""
    g = position(4, seed=1, regions=["red", "blue", "cyan", "yellow"], round=3, phase=4,
                 order=["Bo", "Cy", "Dee", "Ada"], who={"Ada": {"cities": ["Essen", "Münster"], "money": 100},
                                                       "Bo": {"cities": ["Düsseldorf"]}})
    assert g.current_player == "Ada"
    (step,) = g.plan_build("Ada", ["Aachen"])
    assert (step.slot_price, step.connection, step.cost) == (10, 11, 21)
    assert step.path == ("Essen", "Düsseldorf", "Aachen")
