"""Replaying a game from its typed history ("Replay a game"): the position after any
number of decisions equals the game as it was at that point, also for a saved game loaded and
played on (rebuilt from its set-up), and a history that cannot be replayed says why."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from _helpers_props import props
from _position import position, random_game
from hypothesis import given
from hypothesis import strategies as st

from powergrid_nb import Game, load, new_game
from powergrid_nb.engine.events import Decision
from powergrid_nb.position.replay import (
    Recording,
    ReplayError,
    decision_label,
    decisions,
    position_at,
    round_starts,
)


def played(g: Game, moves: int, seed: int = 1) -> list[dict]:
    """Play ``moves`` seeded random decisions (fewer if the game ends); the states before and after each."""
    rng = random.Random(seed)
    states = [g.to_dict()["state"]]
    for _ in range(moves):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
        states.append(g.to_dict()["state"])
    return states


def save_and_load(g: Game, path: Path) -> Game:
    g.save(path)
    return load(path)


# --- the position after k decisions ---------------------------------------------------------------

@props(12)
@given(players=st.integers(2, 6), edition=st.sampled_from(["original", "recharged"]),
       map=st.sampled_from(["germany", "usa"]), seed=st.integers(0, 10_000),
       starting_cities=st.booleans())
def test_position_at_k_is_the_state_recorded_while_playing(players, edition, map, seed, starting_cities):
    g = new_game(players, map=map, edition=edition, seed=seed,
                 starting_cities=starting_cities and edition == "recharged")
    states = played(g, 90, seed)
    assert decisions(g) == len(states) - 1
    for k, state in enumerate(states):
        assert position_at(g, k).to_dict()["state"] == state, f"position {k}"


def test_position_at_the_last_decision_is_the_whole_game():
    g = random_game(3, seed=4, moves=5000)
    assert g.is_over
    assert position_at(g, decisions(g)).to_dict() == g.to_dict()


def test_position_at_0_is_the_set_up():
    g = random_game(4, "usa", "recharged", seed=8, moves=60)
    assert position_at(g, 0).to_dict() == new_game(4, map="usa", edition="recharged", seed=8).to_dict()


def test_a_position_is_an_independent_game():
    g = random_game(3, seed=2, moves=50)
    before = g.to_dict()
    p = position_at(g, 20)
    p.apply(p.legal_actions()[0])
    assert g.to_dict() == before
    assert position_at(g, 20).to_dict()["state"] != p.to_dict()["state"]


def test_a_position_keeps_its_history_and_can_be_played_on():
    g = random_game(3, seed=2, moves=50)
    p = position_at(g, 20)
    assert sum(isinstance(e, Decision) for e in p.history) == 20
    assert p.history == g.history[:len(p.history)]
    assert len(p.actions) == 20  # undo reaches back to set-up
    p.undo(20)
    assert p.to_dict() == new_game(3, seed=2).to_dict()


def test_a_recording_does_not_follow_later_moves_of_the_game():
    g = random_game(3, seed=2, moves=30)
    rec = Recording(g)
    g.apply(g.legal_actions()[0])
    assert rec.total == 30
    assert rec.position(30).to_dict()["state"] != g.to_dict()["state"]


# --- a saved game: rebuilt from its set-up before the load point ------------------------------------

def test_a_loaded_game_replays_from_set_up(tmp_path):
    g = new_game(4, edition="recharged", seed=5)
    states = played(g, 70, seed=5)
    g = save_and_load(g, tmp_path / "g.json")
    states += played(g, 40, seed=6)[1:]
    assert len(g.actions) == 40  # undo alone would reach back only to the load point
    assert decisions(g) == 110
    rec = Recording(g)
    assert (rec.start, rec.loaded_at, rec.problem) == (0, 70, None)
    for k, state in enumerate(states):
        assert rec.position(k).to_dict()["state"] == state, f"position {k}"


def test_a_game_set_up_with_chosen_regions_replays_from_set_up(tmp_path):
    g = new_game(3, regions=["blue", "purple", "red"], seed=3)
    states = played(g, 30, seed=3)
    g = save_and_load(g, tmp_path / "g.json")
    assert Recording(g).position(0).to_dict()["state"] == states[0]
    assert position_at(g, 12).to_dict()["state"] == states[12]


def test_a_game_saved_at_the_end_replays_from_set_up(tmp_path):
    g = random_game(3, seed=4, moves=5000)
    g2 = save_and_load(g, tmp_path / "g.json")
    assert g2.actions == []
    assert position_at(g2, 0).to_dict() == new_game(3, seed=4).to_dict()
    assert position_at(g2, 100).to_dict() == position_at(g, 100).to_dict()


def test_an_edited_save_replays_only_from_its_load_point(tmp_path):
    g = random_game(3, seed=2, moves=40)
    d = g.to_dict()
    d["state"]["players"]["Ada"]["money"] += 7
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(d))
    edited = load(path)
    edited.apply(edited.legal_actions()[0])
    rec = Recording(edited)
    assert (rec.start, rec.loaded_at, rec.total) == (40, 40, 41)
    assert "does not give the position that was loaded" in rec.problem
    assert rec.position(40).to_dict()["state"] == Game.from_dict(d).to_dict()["state"]
    with pytest.raises(ReplayError, match=r"position 39 comes before the load point \(decision 40\).*"
                                          r"Positions 40 to 41 can be shown"):
        rec.position(39)


def test_a_scenario_whose_history_is_not_a_new_games_set_up_replays_from_its_load_point(tmp_path):
    g = random_game(3, seed=2, moves=40)
    d = g.to_dict()
    d["config"]["seed"] += 1  # the history was not dealt by this seed
    scenario = Game.from_dict(d)
    rec = Recording(scenario)
    assert rec.start == 40
    assert rec.problem.startswith("replaying the history from a new game with its settings (3 players, "
                                  "original, germany, regions ")
    assert "seed 3) fails: after decision " in rec.problem
    with pytest.raises(ReplayError, match="before the load point"):
        position_at(scenario, 0)


def test_a_scenario_without_history_replays_from_itself():
    s = position(3, round=2, phase=3)
    states = played(s, 10)
    rec = Recording(s)
    assert (rec.start, rec.total, rec.problem) == (0, 10, None)
    assert [rec.position(k).to_dict()["state"] for k in range(11)] == states
    assert rec.label(0) == "Round 2, phase 3 (resources): the start of the history, before the first decision"


# --- where a position is -----------------------------------------------------------------------

def test_round_starts_are_the_positions_where_each_round_begins():
    g = random_game(3, seed=7, moves=200)
    starts = round_starts(g)
    assert list(starts) == list(range(1, g.round + 1))
    assert starts[1] == 0
    for r, k in starts.items():
        p = position_at(g, k)
        assert p.round == r
        if k:
            assert position_at(g, k - 1).round == r - 1


def test_a_label_names_round_phase_player_and_decision():
    g = new_game(3, seed=5)  # order Ada, Cy, Bo: Ada opens round 1
    g.apply("Ada: open 3 at 3")
    g.apply("Cy: bid 4")
    assert decision_label(g, 2) == "Round 1, phase 2 (auction), after Cy: bid 4"
    assert decision_label(g, 1) == "Round 1, phase 2 (auction), after Ada: open 3 at 3"
    assert decision_label(g, 0) == ("Round 1, phase 2 (auction): the start of the game, before the "
                                    "first decision")


def test_a_label_is_the_round_and_phase_the_decision_was_made_in():
    g = random_game(4, seed=3, moves=150)
    rec = Recording(g)
    made = [e for e in g.history if isinstance(e, Decision)]
    for k in range(1, rec.total + 1):
        e = made[k - 1]
        assert rec.label(k).startswith(f"Round {e.round}, phase {e.phase} (")
        assert rec.label(k).endswith(f"after {e.action}")


@pytest.mark.parametrize("k", [-1, 31, "3", True, 2.0])
def test_a_position_out_of_range_is_refused_with_the_range(k):
    g = random_game(3, seed=2, moves=30)
    with pytest.raises(ReplayError, match=r"a position is a number of decisions from 0 to 30"):
        position_at(g, k)
