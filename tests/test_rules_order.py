"""RULES.md §2 Round structure (R13-R17) and §3 Player order (R18-R23); W1, W2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from _helpers_setup import (
    EDITIONS,
    area_cities,
    buy_uncontested,
    finish_phases_3_to_5,
    phase_events,
    scenario,
)
from _position import assert_illegal

from powergrid_nb import Build, BuyResources, Done, Open, Pass, Power, new_game


def _next_round_order(edition="original", players=4, **kw):
    """Load a phase 5 with nothing left to do: the next round's phase 1 reorders (R18-R22)."""
    g = scenario(edition, players, round=2, phase=5, to_act=[], **kw)
    assert (g.round, g.phase) == (3, 2)
    return g.player_order


# --- §2 Round structure --------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_R13_five_phases_in_fixed_order(edition):
    """R13: each round runs phases 1, 2, 3, 4, 5 in this order; then the next round starts."""
    g = new_game(3, edition=edition, seed=12, trust=False)
    for plant in (3, 4, 5):
        buy_uncontested(g, plant if plant in g.current_market() else g.current_market()[0])
    finish_phases_3_to_5(g)
    assert phase_events(g, 1) == [1, 2, 3, 4, 5]
    assert phase_events(g, 2) == [1, 2]
    assert (g.round, g.phase) == (2, 2)


@pytest.mark.parametrize("edition", EDITIONS)
def test_R13_action_of_another_phase_rejected(edition):
    """R13: all players finish a phase before the next begins; a build in phase 2 is illegal."""
    g = scenario(edition, 4)
    assert_illegal(g, Build("Ada", g.ctx.cities[0]), "R13")
    assert_illegal(g, Done("Ada"), "R13")
    assert_illegal(g, BuyResources("Ada", coal=1), "R13")


def test_R13_scenario_loaded_in_phase1_runs_into_phase2():
    """R13/R18: a scenario saved at phase 1 must run phase 1 (reorder) and stop in phase 2.
    Run in a subprocess: a hang is reported as a failure instead of blocking the suite."""
    here, city = str(Path(__file__).parent), area_cities()[0]
    code = (
        f"import sys; sys.path.insert(0, {here!r})\n"
        "from _helpers_setup import scenario\n"
        f"g = scenario('original', 4, round=2, phase=1, cities={{'Dee': [{city!r}]}})\n"
        "print(g.phase, ','.join(g.player_order))\n"
    )
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=15)
    except subprocess.TimeoutExpired:
        pytest.fail("Game.from_dict with state.phase == 1 never returns (Game._advance loops)")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["2", "Dee,Ada,Bo,Cy"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_R14_acting_order_per_phase(edition):
    """R14: phase 2 in player order; phases 3 and 4 in reverse order; phase 5 in player order."""
    order = ["Cy", "Ada", "Dee", "Bo"]
    g = scenario(edition, 4, round=2, order=order)
    seen = {2: [], 3: [], 4: [], 5: []}
    while g.round == 2:
        who = g.current_player
        seen[g.phase].append(who)
        g.apply(Pass(who) if g.phase == 2 else Done(who) if g.phase in (3, 4) else Power(who))
    assert seen == {2: order, 3: order[::-1], 4: order[::-1], 5: order}


@pytest.mark.parametrize("edition", EDITIONS)
def test_R14_wrong_player_rejected(edition):
    """R14: only the player whose turn it is may act (phases 2 and 3)."""
    g = scenario(edition, 4, round=2)
    assert_illegal(g, Open("Bo", 3, 3), "R14")
    assert_illegal(g, Pass("Dee"), "R14")
    g = scenario(edition, 4, phase=3, plants={"Ada": [11], "Bo": [12], "Cy": [13], "Dee": [14]})
    assert g.current_player == "Dee"
    assert_illegal(g, BuyResources("Ada", uranium=1), "R14")


@pytest.mark.parametrize("edition", EDITIONS)
def test_R15_one_turn_per_player_in_phase3(edition):
    """R15/O18: a player does everything in one turn (several purchases), then Done; no second turn."""
    g = scenario(edition, 4, phase=3, plants={"Ada": [11], "Bo": [12], "Cy": [13], "Dee": [10]})
    g.apply(BuyResources("Dee", coal=1))
    g.apply(BuyResources("Dee", coal=2))
    assert g.current_player == "Dee" and g.tokens_of("Dee")["coal"] == 3
    g.apply(Done("Dee"))
    assert g.current_player == "Cy"
    assert_illegal(g, BuyResources("Dee", coal=1), "R14")


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_R16_game_starts_in_step1(edition, players):
    """R16/R88: the step starts at 1."""
    assert new_game(players, edition=edition, seed=players).step == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_R17_round1_exceptions(edition):
    """R17: round 1 — no passing in phase 2 (R35), reorder after phase 2 (R21), no obligation to build."""
    g = new_game(4, edition=edition, seed=31)
    start = g.player_order
    assert g.current_player == start[0]
    for _ in range(4):
        assert all(not isinstance(a, Pass) for a in g.legal_actions())
        buy_uncontested(g, g.current_market()[0])
    assert g.phase == 3
    by_plant = sorted(g.players, key=lambda n: -max(g.plants_of(n)))
    assert g.player_order == by_plant
    while g.phase == 3:
        g.apply(Done(g.current_player))
    assert Done(g.current_player) in g.legal_actions()
    while g.phase == 4:
        g.apply(Done(g.current_player))
    assert g.phase == 5 and all(g.cities_of(n) == [] for n in g.players)


# --- §3 Player order -----------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_R18_rank_by_city_count(edition):
    """R18: most cities first (plants would give another order)."""
    c = area_cities(edition)
    order = _next_round_order(edition, cities={"Ada": c[0:1], "Bo": c[1:4], "Cy": c[4:6]},
                              plants={"Ada": [11], "Bo": [12], "Cy": [13], "Dee": [40]})
    assert order == ["Bo", "Cy", "Ada", "Dee"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_R19_tie_broken_by_highest_plant_down_the_ranking(edition):
    """R19: ties by the highest-numbered plant (not the number of plants, C1), all the way down."""
    c = area_cities(edition)
    order = _next_round_order(
        edition, cities={"Ada": c[0:2], "Bo": c[2:4], "Cy": c[4:5], "Dee": c[5:6]},
        plants={"Ada": [11, 12, 14], "Bo": [20], "Cy": [30], "Dee": [15, 16]})
    assert order == ["Bo", "Ada", "Cy", "Dee"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_R20_houses_count_not_cities_powered(edition):
    """R20: a player with more houses but no power ranks before a smaller network that is powered."""
    c = area_cities(edition)
    order = _next_round_order(edition, cities={"Ada": c[0:3], "Bo": c[3:5]},
                              plants={"Ada": [11], "Bo": [13, 18], "Cy": [20], "Dee": [30]})
    assert order[:2] == ["Ada", "Bo"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_R21_round1_setup_order_then_reorder_by_plants(edition):
    """R21: round 1 phase 2 uses the random set-up order; after it the order is by plant numbers."""
    g = new_game(4, edition=edition, seed=77)
    setup = g.player_order
    openers = []
    for plant in (5, 3, 6, 4):
        openers.append(g.current_player)
        buy_uncontested(g, plant if plant in g.current_market() else g.current_market()[0])
    assert openers == setup
    assert g.player_order == sorted(setup, key=lambda n: -max(g.plants_of(n)))
    assert g.seat_order == setup  # O3: seats stay fixed
    assert [e.round for e in g.history if e.kind == "order"] == [1]


@pytest.mark.parametrize("edition", EDITIONS)
def test_R22_unresolved_tie_keeps_previous_order(edition):
    """R22/O17: players tied on cities and without plants keep their previous relative order."""
    c = area_cities(edition)
    order = _next_round_order(edition, order=["Dee", "Cy", "Bo", "Ada"], cities={"Ada": c[0:1]})
    assert order == ["Ada", "Dee", "Cy", "Bo"]


@pytest.mark.provisional
def test_R23_trust_always_position_2():
    """R23/R129 [RECH 2p]: the Trust holds position 2 at set-up and after every reorder."""
    g = new_game(2, edition="recharged", seed=3)
    assert g.player_order[1] == "Trust" and len(g.player_order) == 3
    c = area_cities("recharged", 2)
    order = _next_round_order("recharged", 2, order=["Ada", "Trust", "Bo"],
                              cities={"Trust": c[0:3], "Bo": c[3:4]},
                              plants={"Trust": [40], "Ada": [11], "Bo": [12]})
    assert order == ["Bo", "Trust", "Ada"]


@pytest.mark.provisional
def test_R23_trust_position_2_after_round1_reorder():
    """R23/R21: the round-1 reorder after phase 2 keeps the Trust second."""
    g = new_game(2, edition="recharged", seed=8)
    while g.phase == 2:
        buy_uncontested(g, g.current_market()[0])
    assert g.player_order[1] == "Trust"
    humans = [n for n in g.player_order if n != "Trust"]
    assert humans == sorted(g.players, key=lambda n: -max(g.plants_of(n)))


# --- Worked examples ------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_W1_player_order_with_tiebreak(edition):
    """W1: cities S 6, T 5, O 5, K 4; T's highest plant 17, O's 15 -> S, T, O, K."""
    c = area_cities(edition)
    names = {"S": "Ada", "T": "Bo", "O": "Cy", "K": "Dee"}
    order = _next_round_order(
        edition, order=["Dee", "Cy", "Bo", "Ada"],
        cities={"Ada": c[0:6], "Bo": c[6:11], "Cy": c[11:16], "Dee": c[16:20]},
        plants={"Ada": [11], "Bo": [12, 17], "Cy": [15], "Dee": [30]})
    assert order == [names[k] for k in "STOK"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_W2_round1_reorder(edition):
    """W2: round 1, P1 bought 04, P2 10, P3 07 -> P2, P3, P1 for phases 3-5 and round 2 phase 1."""
    g = scenario(edition, 3, market=[4, 7, 10, 20, 21, 22, 23, 24], deck_top=[30, 31, 32])
    for plant in (4, 10, 7):
        buy_uncontested(g, plant)
    assert [g.plants_of(n) for n in ("Ada", "Bo", "Cy")] == [[4], [10], [7]]
    assert g.phase == 3 and g.player_order == ["Bo", "Cy", "Ada"]
    finish_phases_3_to_5(g)
    assert g.round == 2 and g.player_order == ["Bo", "Cy", "Ada"]
    assert g.current_player == "Bo"
