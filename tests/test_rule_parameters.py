"""What-if rule parameters: the edition's tables can be overridden per game."""

import random

import pytest
from _position import position

from powergrid_nb import Power, new_game


def test_starting_money_override() -> None:
    g = new_game(3, seed=1, rules={"starting_money": 75})
    assert [g.money(p) for p in g.players] == [75, 75, 75]


def test_refill_override_changes_the_phase5_refill() -> None:
    """R108 replaced: 4 players, Step 1 refills 0 coal, 0 oil, 0 garbage and 0 uranium."""
    g = new_game(4, seed=2, rules={"refill": {"4": {"1": [0, 0, 0, 0]}}})
    rng = random.Random(2)
    while not any(e.kind == "refill" for e in g.history):
        g.apply(rng.choice(g.legal_actions()))
    assert [e.tokens for e in g.history if e.kind == "refill"] == [0, 0, 0, 0]


def test_end_threshold_override_ends_the_game_sooner() -> None:
    """R96 with end_cities=3: the game ends after the phase 4 in which someone has 3 cities."""
    g = new_game(3, seed=3, rules={"end_cities": 3})
    rng = random.Random(3)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    assert g.ctx.end_cities == 3
    assert 3 <= max(len(g.cities_of(p)) for p in g.players) < 17  # the default end (17) never came
    assert g.history[-1].kind == "game_over"


def test_payment_override_pays_the_new_table() -> None:
    """R110 replaced: powering nothing pays the first entry of the new table."""
    g = position(3, seed=4, options={"rules": {"payment": [7, 9, 11]}}, round=2, phase=5, order="dealt")
    p = g.current_player
    before = g.money(p)
    g.apply(Power(p, []))
    assert g.money(p) - before == 7


def test_rules_survive_save_and_load(tmp_path) -> None:
    g = new_game(4, seed=5, rules={"refill": {4: {1: [1, 1, 1, 1]}}, "step2_cities": 5})
    g.save(tmp_path / "g.json")
    from powergrid_nb import load

    h = load(tmp_path / "g.json")
    assert h.to_dict() == g.to_dict()
    assert h.ctx.step2_cities == 5 and h.ctx.edition.refill(4, 1) == [1, 1, 1, 1]


@pytest.mark.parametrize("phase", [3, 4])
def test_R45_R54_phases_3_and_4_go_in_reverse_player_order_by_default(phase) -> None:
    g = position(4, phase=phase, order=["Ada", "Bo", "Cy", "Dee"])
    assert g.still_to_act == ["Dee", "Cy", "Bo", "Ada"]


@pytest.mark.parametrize("phase", [3, 4])
def test_reverse_order_empty_lets_the_leader_buy_and_build_first(phase) -> None:
    """The catch-up of R45/R54 switched off: phases 3 and 4 follow the player order, leader first."""
    g = position(4, phase=phase, order=["Ada", "Bo", "Cy", "Dee"], options={"rules": {"reverse_order": []}})
    assert g.still_to_act == ["Ada", "Bo", "Cy", "Dee"]


def test_reverse_order_per_phase() -> None:
    """reverse_order=[4]: resources in player order, building still leader last."""
    opts = {"rules": {"reverse_order": [4]}}
    assert position(3, phase=3, order=["Ada", "Bo", "Cy"], options=opts).still_to_act == ["Ada", "Bo", "Cy"]
    assert position(3, phase=4, order=["Ada", "Bo", "Cy"], options=opts).still_to_act == ["Cy", "Bo", "Ada"]


def test_reverse_order_in_a_whole_game_follows_the_player_order() -> None:
    """Every phase 3 and 4 of a random game with reverse_order=[] starts with the leader."""
    g = new_game(4, seed=8, rules={"reverse_order": []})
    rng = random.Random(8)
    seen = 0
    while not g.is_over:
        if g.phase in (3, 4) and len(g.still_to_act) == len(g.players):
            assert g.still_to_act == g.player_order
            seen += 1
        g.apply(rng.choice(g.legal_actions()))
    assert seen > 4


BAD = [{"unknown": 1}, {"payment": [1, -2]}, {"refill": {"7": {"1": [1, 1, 1, 1]}}},
       {"initial_market": {"coal": 30}}, {"end_cities": 0}, {"build_prices": [1]},
       {"reverse_order": [2]}, {"reverse_order": [3, 3]}, {"reverse_order": 3}]


@pytest.mark.parametrize("rules", BAD)
def test_bad_rule_parameters_are_rejected_with_a_message(rules) -> None:
    with pytest.raises(ValueError, match="rule|rules"):
        new_game(4, seed=1, rules=rules)
