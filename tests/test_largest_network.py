"""The largest network, ``g.largest_network()``: the one count Step 2 (R89), the end (R96) and R68 read."""

from __future__ import annotations

import random

from powergrid_nb import new_game
from powergrid_nb.position.scenario import Scenario


def test_the_largest_network_is_the_most_cities_a_player_has_connected() -> None:
    g, rng = new_game(4, seed=7), random.Random(7)
    seen = set()
    while not g.is_over:
        assert g.largest_network() == max(g.city_count(p) for p in g.players)
        seen.add(g.largest_network())
        g.apply(rng.choice(g.legal_actions()))
    assert len(seen) > 3  # the count grew during the game


def test_the_trusts_houses_do_not_count_toward_the_largest_network_r133() -> None:
    sc = Scenario.new(2, edition="recharged", seed=3)
    cities = sorted(sc.game().play_area)
    sc.set_cities("Trust", cities[:5])
    sc.set_cities("Ada", cities[5:7])
    g = sc.game()
    assert g.city_count("Trust") == 5 and g.largest_network() == 2
