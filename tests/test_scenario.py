"""Scenarios (the scenario editor's engine): a position edited as data, checked by the engine's
own validation, each problem on the field it belongs to, in the engine's words with the rule's text."""

from __future__ import annotations

import json

import pytest
from _position import position, random_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from powergrid_nb import Game, SaveFileError, load, rule
from powergrid_nb.engine.rules.plants import RESOURCES
from powergrid_nb.position.scenario import Scenario, problems


@pytest.fixture(scope="module")
def mid_game():
    """Round 3, phase 5 of a seeded 3-player game: Ada [7, 8, 10], Bo [6, 9] in Aachen, Cy [3, 4, 11]."""
    return random_game(3, seed=2, moves=60)


def fields(sc: Scenario) -> list[tuple[str, ...]]:
    return [p.field for p in problems(sc)]


def test_a_games_position_is_unchanged_by_the_round_trip(mid_game):
    sc = Scenario.from_game(mid_game)
    assert problems(sc) == []
    assert sc.game().to_dict()["state"] == mid_game.to_dict()["state"]


def test_negative_money_is_refused_on_the_players_money_O2(mid_game):
    sc = Scenario.from_game(mid_game)
    sc.set_money("Ada", -5)
    [p] = problems(sc)
    assert p.field == ("player", "Ada", "money")
    assert p.message.startswith("Ada: money cannot be negative (O2)")
    assert p.rule == "O2"


def test_a_plant_owned_twice_is_refused_on_both_owners_plants_R118(mid_game):
    sc = Scenario.from_game(mid_game)
    sc.set_plants("Bo", [6, 9, 7])  # 7 is Ada's
    assert fields(sc) == [("player", "Ada", "plants"), ("player", "Bo", "plants")]
    assert all("duplicated [7]" in p.message and p.rule == "R118" for p in problems(sc))


def test_a_market_plant_given_to_a_player_is_refused_on_the_player_and_the_plant_market_R118(mid_game):
    sc = Scenario.from_game(mid_game)
    market = sc.plant_market()
    sc.set_plants("Bo", [6, 9, market[0]])
    assert fields(sc) == [("player", "Bo", "plants"), ("plants",)]
    assert f"duplicated [{market[0]}]" in problems(sc)[0].message


def test_tokens_that_do_not_fit_the_plants_are_refused_on_the_players_tokens_R49(mid_game):
    sc = Scenario.from_game(mid_game)
    sc.set_tokens("Cy", {"uranium": 3})  # plants 3, 4 and 11: no uranium plant
    [p] = problems(sc)
    assert p.field == ("player", "Cy", "tokens")
    assert p.message.startswith("Cy: tokens [1, 1, 0, 3] do not fit plants [3, 4, 11] (R49)")


def test_more_tokens_than_the_game_has_are_refused_on_the_resource_market_R1(mid_game):
    sc = Scenario.from_game(mid_game)
    sc.set_resources({"coal": 24})  # Cy holds one coal
    [p] = problems(sc)
    assert p.field == ("market", "coal")
    assert p.message.startswith("coal: market 24 + held 1 must stay within the 24 tokens of the game (R1)")


def test_23_cities_are_refused_on_the_players_cities_R67():
    sc = Scenario.new(6, seed=3)
    sc.set_step(3)
    sc.set_cities("Ada", sc.game().play_area[:23])
    [p] = problems(sc)
    assert p.field == ("player", "Ada", "cities")
    assert p.message.startswith("Ada: cities must be distinct and at most 22 (R57, R67)")
    assert f"Rule R67: {rule('R67').text}" in p.message


def test_a_second_house_in_a_city_at_step_1_is_refused_on_the_newcomers_cities_R58(mid_game):
    sc = Scenario.from_game(mid_game)
    sc.toggle_city("Ada", "Aachen")  # Bo's house is there already
    [p] = problems(sc)
    assert p.field == ("player", "Ada", "cities")
    assert p.message.startswith("Aachen: 2 houses, Step 1 allows 1 (R58)")


def test_a_second_house_in_a_city_is_allowed_in_step_2_R58(mid_game):
    sc = Scenario.from_game(mid_game)
    sc.toggle_city("Ada", "Aachen")
    sc.set_step(2)
    assert problems(sc) == []
    assert sc.game().owners("Aachen") == ["Bo", "Ada"]


def test_a_house_outside_the_play_area_is_refused_on_the_players_cities_R4(mid_game):
    assert "München" not in mid_game.play_area
    sc = Scenario.from_game(mid_game)
    sc.toggle_city("Cy", "München")
    [p] = problems(sc)
    assert p.field == ("player", "Cy", "cities")
    assert p.message.startswith("'München' is not a city of the play area (R4)")


def test_a_step_outside_1_to_3_is_refused_on_the_step(mid_game):
    sc = Scenario.from_game(mid_game)
    sc.set_step(4)
    assert fields(sc) == [("turn", "step")]


def test_a_player_order_without_every_player_is_refused_on_the_order(mid_game):
    sc = Scenario.from_game(mid_game)
    sc.set_order(["Ada", "Bo"])
    [p] = problems(sc)
    assert p.field == ("turn", "order")
    assert "must list each of ['Ada', 'Bo', 'Cy'] once" in p.message


def test_each_faulty_field_gets_its_own_problem(mid_game):
    sc = Scenario.from_game(mid_game)
    sc.set_money("Ada", -1)
    sc.set_tokens("Cy", {"uranium": 3})
    sc.set_resources({"oil": 99})
    sc.toggle_city("Ada", "München")
    assert sorted(fields(sc)) == sorted([("player", "Ada", "money"), ("player", "Cy", "tokens"),
                                         ("market", "oil"), ("player", "Ada", "cities")])


def test_a_problem_gives_the_rules_number_and_text(mid_game):
    sc = Scenario.from_game(mid_game)
    sc.set_tokens("Cy", {"uranium": 3})
    [p] = problems(sc)
    assert p.rule == "R49"
    assert p.message.splitlines()[1] == f"Rule R49: {rule('R49').text}"


def test_fixing_the_field_clears_its_problem(mid_game):
    sc = Scenario.from_game(mid_game)
    sc.set_money("Ada", -1)
    assert problems(sc)
    sc.set_money("Ada", 7)
    assert problems(sc) == [] and sc.game().money("Ada") == 7


def test_an_invalid_scenario_cannot_be_built_and_the_error_lists_its_problems(mid_game):
    sc = Scenario.from_game(mid_game)
    sc.set_money("Ada", -1)
    sc.set_tokens("Cy", {"uranium": 3})
    with pytest.raises(SaveFileError) as e:
        sc.game()
    assert "2 problems" in str(e.value)
    assert "Ada's money: Ada: money cannot be negative (O2)" in str(e.value)
    assert "Cy's tokens: Cy: tokens [1, 1, 0, 3] do not fit" in str(e.value)


def test_an_invalid_scenario_is_not_saved(mid_game, tmp_path):
    sc = Scenario.from_game(mid_game)
    sc.set_money("Ada", -1)
    with pytest.raises(SaveFileError, match="money cannot be negative"):
        sc.save(tmp_path / "s.json")
    assert not (tmp_path / "s.json").exists()


def test_a_saved_scenario_loads_as_the_same_position(mid_game, tmp_path):
    sc = Scenario.from_game(mid_game)
    sc.set_money("Ada", 99)
    sc.set_tokens("Ada", {"oil": 3})
    sc.save(tmp_path / "s.json")
    assert load(tmp_path / "s.json").to_dict() == sc.game().to_dict()
    assert Scenario.from_json((tmp_path / "s.json").read_text()).to_dict() == sc.to_dict()


def test_an_edited_position_has_no_history(mid_game):
    sc = Scenario.from_game(mid_game)
    assert sc.to_dict()["history"]
    sc.set_money("Ada", 1)
    assert sc.game().history == []


def test_a_plant_given_to_a_player_leaves_the_deck(mid_game):
    sc = Scenario.from_game(mid_game)
    card = sc.deck()[3]
    sc.set_plants("Bo", [6, 9, card])
    assert card not in sc.deck() and problems(sc) == []


def test_a_plant_given_up_goes_to_the_bottom_of_the_deck_above_the_step_3_card():
    sc = Scenario.new(3, seed=1)
    assert sc.deck()[-1] == "step3"
    card = sc.deck()[0]
    sc.set_plants("Ada", [card])
    sc.set_plants("Ada", [])
    assert sc.deck()[-2:] == [card, "step3"] and problems(sc) == []


def test_the_plant_market_takes_cards_from_the_deck_and_returns_those_it_drops(mid_game):
    sc = Scenario.from_game(mid_game)
    old, top = sc.plant_market(), sc.deck()[0]
    sc.set_plant_market([top, *old[1:]])
    assert sc.plant_market() == sorted([top, *old[1:]])
    assert top not in sc.deck() and old[0] in sc.deck() and problems(sc) == []


def test_the_deck_top_is_set_in_order_and_replaced_cards_go_to_the_bottom(mid_game):
    sc = Scenario.from_game(mid_game)
    first, second = sc.deck()[:2]
    sc.set_deck_top([50, second], replace=2)
    assert sc.deck()[:2] == [50, second] and sc.deck()[-1] == first
    assert sc.game().to_dict()["state"]["deck"][:2] == [50, second]


def test_a_phase_change_puts_the_position_at_the_start_of_that_phase(mid_game):
    sc = Scenario.from_game(mid_game)
    sc.set_phase(3)  # resources: the last in player order buys first (R45)
    g = sc.game()
    assert (g.phase, g.current_player) == (3, mid_game.player_order[-1])


def test_an_edited_position_plays_on(mid_game):
    sc = Scenario.from_game(mid_game)
    sc.set_money("Cy", 80)
    sc.set_phase(2)
    g = sc.game()
    g.apply(g.legal_actions()[0])
    assert len(g.actions) == 1


def test_a_fork_is_independent(mid_game):
    sc = Scenario.from_game(mid_game)
    other = sc.fork()
    other.set_money("Ada", 1)
    assert sc.money("Ada") == mid_game.money("Ada") and other.money("Ada") == 1


def test_the_sketch_keeps_the_valid_houses_and_leaves_out_the_faulty_one(mid_game):
    sc = Scenario.from_game(mid_game)
    sc.toggle_city("Ada", "Berlin")
    sc.toggle_city("Ada", "Aachen")  # R58: Bo was there first
    g = sc.sketch()
    assert g.houses() == {"Aachen": ["Bo"], "Berlin": ["Ada"]}


def test_an_unknown_edition_is_refused_as_the_games_set_up():
    d = Scenario.new(3, seed=1).to_dict()
    d["config"]["edition"] = "chess"
    sc = Scenario(d)
    [p] = problems(sc)
    assert p.field == ("config",) and "must be one of ['original', 'recharged']" in p.message
    assert sc.sketch() is None


def test_money_that_is_not_a_number_in_a_file_is_refused_on_the_players_money(mid_game):
    d = mid_game.to_dict()
    d["state"]["players"]["Bo"]["money"] = "lots"
    [p] = problems(Scenario(d))
    assert p.field == ("player", "Bo", "money") and "expected an integer, got 'lots'" in p.message


def test_a_file_that_is_not_json_is_refused_saying_so():
    with pytest.raises(SaveFileError, match="not a JSON scenario"):
        Scenario.from_json("{oops")


def test_a_json_file_that_is_not_a_scenario_is_refused_saying_what_one_is():
    with pytest.raises(SaveFileError, match="'format', 'config' and 'state'"):
        Scenario.from_json(json.dumps({"hello": 1}))


EDITS = st.lists(st.one_of(
    st.tuples(st.just("money"), st.sampled_from(["Ada", "Bo", "Cy"]), st.integers(-3, 60)),
    st.tuples(st.just("tokens"), st.sampled_from(["Ada", "Bo", "Cy"]),
              st.fixed_dictionaries({r: st.integers(-1, 4) for r in RESOURCES})),
    st.tuples(st.just("plants"), st.sampled_from(["Ada", "Bo", "Cy"]),
              st.lists(st.sampled_from([3, 4, 6, 7, 8, 9, 10, 11, 13, 20, 50]), max_size=4, unique=True)),
    st.tuples(st.just("city"), st.sampled_from(["Ada", "Bo", "Cy"]),
              st.sampled_from(["Aachen", "Berlin", "Köln", "München", "Trier"])),
    st.tuples(st.just("market"), st.sampled_from(RESOURCES), st.integers(0, 26)),
    st.tuples(st.just("step"), st.integers(0, 4)),
    st.tuples(st.just("phase"), st.integers(2, 5)),
), min_size=1, max_size=6)


def apply_edit(sc: Scenario, edit: tuple) -> None:
    kind, *args = edit
    if kind == "money":
        sc.set_money(*args)
    elif kind == "tokens":
        sc.set_tokens(*args)
    elif kind == "plants":
        sc.set_plants(*args)
    elif kind == "city":
        sc.toggle_city(*args)
    elif kind == "market":
        sc.set_resources({args[0]: args[1]})
    elif kind == "step":
        sc.set_step(args[0])
    else:
        sc.set_phase(args[0])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(EDITS)
def test_a_scenario_has_no_problems_exactly_when_the_engine_loads_it(mid_game, edits):
    sc = Scenario.from_game(mid_game)
    for e in edits:
        apply_edit(sc, e)
        try:
            Game.from_dict(sc.to_dict())
            loads = True
        except (SaveFileError, ValueError, KeyError, IndexError, TypeError):  # as validate() counts them
            loads = False
        assert (problems(sc) == []) == loads, problems(sc)
        assert sc.sketch() is not None  # an editor can always draw an edited position


def test_the_test_position_builder_agrees():
    """A position built by tests/_position.py (the shared builder) is a valid scenario."""
    g = position(3, who={"Ada": {"plants": [4], "tokens": (2, 0, 0, 0), "cities": [0]}})
    assert problems(Scenario.from_game(g)) == []


def test_a_hand_written_scenario_without_deck_or_houses_gets_the_loaders_deck_and_houses(mid_game):
    d = mid_game.to_dict()
    for key in ("deck", "houses"):
        del d["state"][key]
    sc = Scenario(d)
    assert problems(sc) == []
    assert sc.deck() == Game.from_dict(d).to_dict()["state"]["deck"]
    assert sc.game().houses() == {"Aachen": ["Bo"]}
