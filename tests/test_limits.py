"""Bounded games: every number and name a game takes from outside has a limit, and the error names the
field and the limit (``powergrid_nb.engine.limits``); the auction's bids are listed as ranges, so
``legal_actions()`` does not grow with money."""

from __future__ import annotations

import random
import tracemalloc

import pytest
from _position import position
from hypothesis import given, settings
from hypothesis import strategies as st

from powergrid_nb import Bid, Game, Open, Pass, SaveFileError, Scenario, new_game
from powergrid_nb.bots import RandomBot, play
from powergrid_nb.engine.board.maps import MapError, load_map
from powergrid_nb.engine.limits import MAX_MONEY, MAX_NAME, MAX_ROUND, MAX_SEED, name_problem

# --- names -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, why", [
    ("A" * (MAX_NAME + 1), f"at most {MAX_NAME} characters"),
    ("Ada\u202eevil", "U+202E"),  # right-to-left override
    ("Ada\x07", "U+0007"),
    ("Ada\ud800", "lone surrogate"),
    ("Ada, Bo", "','"),
    (" Ada", "space"),
])
def test_a_player_name_is_short_printable_valid_unicode(name: str, why: str) -> None:
    with pytest.raises(ValueError, match="bad player name") as e:
        new_game(["Bo", name])
    assert why in str(e.value) and f"1 to {MAX_NAME} printable characters" in str(e.value)
    assert len(str(e.value)) < 300  # a 1 MB name is not echoed back


def test_names_of_40_characters_accents_and_emoji_are_fine() -> None:
    names = ["A" * MAX_NAME, "Jürgen Müller", "\U0001f469\u200d\U0001f4bb Dev"]
    assert new_game(names).players == names
    assert name_problem("Zoë") is None


# --- numbers of a new game -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 10**4000])
def test_a_seed_is_a_whole_number_from_0_to_2_64_minus_1(seed: int) -> None:
    with pytest.raises(ValueError, match=f"seed must be a whole number from 0 to {MAX_SEED:,}"):
        new_game(4, seed=seed)


def test_the_largest_seed_is_fine() -> None:
    assert new_game(4, seed=MAX_SEED).seed == MAX_SEED


@pytest.mark.parametrize("rules, field", [
    ({"end_cities": 10**9}, "end_cities"), ({"step2_cities": {"4": 0}}, "step2_cities"),
    ({"starting_money": 10**6}, "starting_money"), ({"payment": [10] * 101}, "payment"),
    ({"build_prices": [10, 15, 10**7]}, "build_prices"), ({"max_cities": 500}, "max_cities"),
])
def test_every_rule_parameter_is_bounded(rules: dict, field: str) -> None:
    with pytest.raises(ValueError, match=f"rules\\['{field}'\\] must be .*from") as e:
        new_game(4, seed=1, rules=rules)
    assert len(str(e.value)) < 300


def test_a_map_city_or_region_name_holds_no_comma_or_colon() -> None:
    """An action's text lists cities with ', ' after the player's ': ' (``Ada: build Essen, Köln``)."""
    data = {"schema": "powergrid_nb.map/1", "name": "tiny", "title": "Tiny",
            "regions": {"north": {"color": "#00bcd4"}},
            "cities": [{"name": "Bremen, Stadt", "region": "north", "lat": 53.0, "lon": 8.8},
                       {"name": "Kiel", "region": "north", "lat": 54.3, "lon": 10.1}],
            "connections": [["Bremen, Stadt", "Kiel", 10]]}
    with pytest.raises(MapError, match="cannot contain ','"):
        load_map(data)
    data["cities"][0]["name"] = data["connections"][0][0] = "Bremen"
    data["regions"] = {"no:rth": {"color": "#00bcd4"}}
    for c in data["cities"]:
        c["region"] = "no:rth"
    with pytest.raises(MapError, match="cannot contain ':'"):
        load_map(data)


# --- a save or a scenario --------------------------------------------------------------------------


def _saved(**state: object) -> dict:
    d = new_game(4, seed=1).to_dict()
    d["state"].update(state)
    return d


@pytest.mark.parametrize("path, value, limit", [
    (("state", "players", "Ada", "money"), 10**6, MAX_MONEY),
    (("state", "round"), 10**18, MAX_ROUND),
    (("config", "seed"), 10**4000, MAX_SEED),
    (("state", "counter"), 10**9, 10_000),
])
def test_a_save_with_a_number_beyond_its_limit_is_refused_naming_field_and_limit(path, value, limit) -> None:
    d = new_game(4, seed=1).to_dict()
    d["state"]["players"].setdefault("Ada", {})
    at = d
    for k in path[:-1]:
        at = at[k]
    at[path[-1]] = value
    with pytest.raises(SaveFileError) as e:
        Game.from_dict(d)
    assert e.value.path == path and f"{limit:,}" in str(e.value)
    assert len(str(e.value)) < 400


def test_the_scenario_editor_reports_money_beyond_the_limit_on_its_field() -> None:
    sc = Scenario.from_game(new_game(4, seed=1))
    sc.set_money("Ada", MAX_MONEY + 1)
    found = sc.problems()
    assert [p.field for p in found] == [("player", "Ada", "money")]
    assert f"{MAX_MONEY:,}" in found[0].message
    sc.set_money("Ada", MAX_MONEY)
    assert sc.problems() == []


# --- the auction's bids: listed as ranges ----------------------------------------------------------


def _rich(money: int) -> Game:
    return position(["Ada", "Bo", "Cy"], round=2, phase=2, order=["Ada", "Bo", "Cy"],
                    who={"Ada": {"money": money}})


def test_legal_actions_do_not_grow_with_money_R31() -> None:
    """Every bid up to the player's money is legal (R31), but listing them takes no memory per bid."""
    sizes = []
    for money in (50, MAX_MONEY):
        g = _rich(money)
        tracemalloc.start()
        legal = g.legal_actions()
        sizes.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert Open("Ada", g.current_market()[0], money) in legal
        assert Open("Ada", g.current_market()[0], money + 1) not in legal
    assert sizes[1] < 2 * sizes[0] + 10_000
    assert len(g.legal_actions()) == sum(len(r) for r in g.bid_choices().openings.values()) + 1


def test_the_legal_actions_equal_their_list_and_index_as_it() -> None:
    g = _rich(80)
    legal = g.legal_actions()
    listed = list(legal)
    assert legal == listed and listed == legal and len(legal) == len(listed)
    assert [legal[i] for i in range(-len(legal), len(legal))] == listed + listed
    assert legal[3:9] == listed[3:9] and legal[::7] == listed[::7]
    assert isinstance(legal[-1], Pass) and Pass("Ada") in legal and Bid("Ada", 5) not in legal
    with pytest.raises(IndexError):
        legal[len(legal)]
    with pytest.raises(TypeError):
        hash(legal)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**16), st.integers(2, 6))
def test_a_random_bot_picks_the_same_action_from_the_sequence_as_from_its_list(seed: int, n: int) -> None:
    """random.choice reads a length and an index: a sequence and its list give the same picks, so no
    recorded game of RandomBots changes."""
    g = new_game(n, seed=seed)
    play(g, [RandomBot(seed + k) for k in range(n)], until=lambda h: h.round >= 2 and h.phase == 2)
    if g.is_over:
        return
    legal = g.legal_actions()
    a, b = random.Random(seed), random.Random(seed)
    assert [a.choice(legal) for _ in range(5)] == [b.choice(list(legal)) for _ in range(5)]
