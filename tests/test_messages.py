"""Errors explain themselves: what was wrong and what is allowed, without internal paths; a
player named "You" is addressed ("You have", "your plants"), counts agree with their noun."""

from __future__ import annotations

import pytest
from _position import assert_illegal, position

import powergrid_nb
from powergrid_nb import Build, BuyResources, Discard, Game, Open, Pass, Power, new_game


def test_an_unknown_edition_names_the_editions_not_a_map_file():
    with pytest.raises(ValueError) as e:
        new_game(4, edition="deluxe")
    assert str(e.value) == "unknown edition 'deluxe'; choose 'original' or 'recharged'"
    assert ".json" not in str(e.value) and "/" not in str(e.value)


def test_a_built_in_map_error_names_the_map_not_where_it_is_installed():
    with pytest.raises(powergrid_nb.MapError) as e:
        powergrid_nb.load_map("usa", "deluxe")
    assert str(e.value).startswith("built-in map 'usa': unknown edition 'deluxe'")
    assert powergrid_nb.__file__.rsplit("/", 2)[0] not in str(e.value)


def test_undo_with_nothing_to_undo_says_so():
    g = new_game(3, seed=1)
    with pytest.raises(ValueError, match="^nothing to undo: no decision has been made since the game "
                                         "was created or loaded$"):
        g.undo()


def test_undo_of_more_decisions_than_were_made_says_how_many_can_be():
    g = new_game(3, seed=1)
    g.apply(g.legal_actions()[0])
    with pytest.raises(ValueError, match=r"^can undo 0 to 1 decisions .*, not 2$"):
        g.undo(2)
    assert len(g.actions) == 1


def test_the_package_help_starts_with_an_overview():
    doc = powergrid_nb.__doc__
    for name in ("play()", "new_game", "notebooks/01_play.ipynb", "powergrid_nb.views", "simulate", "sweep",
                 "tournament", 'rule("R58")'):
        assert name in doc, name


# --- a player named "You" is addressed: "You have", "your plants", "it is your turn" -----------

YOU3 = ["You", "Bo", "Cy"]


def test_R31_a_bid_above_your_money_says_your_elektro():
    g = position(YOU3, phase=2, who={"You": {"money": 10}})
    assert assert_illegal(g, Open("You", 3, 11), "R31").reason == "bid 11 exceeds your 10 Elektro"


def test_R31_a_bid_above_another_players_money_keeps_their_name():
    g = position(YOU3, phase=2, order=["Bo", "Cy", "You"], who={"Bo": {"money": 10}})
    assert assert_illegal(g, Open("Bo", 3, 11), "R31").reason == "bid 11 exceeds Bo's 10 Elektro"


def test_R14_out_of_turn_it_is_your_turn_not_theirs():
    g = position(YOU3, phase=2)
    assert assert_illegal(g, Open("Bo", 3, 3), "R14").reason == "it is your turn, not Bo's (phase 2, auction)"


def test_R14_out_of_turn_it_is_their_turn_not_yours():
    g = position(YOU3, phase=2, order=["Bo", "Cy", "You"])
    e = assert_illegal(g, Open("You", 3, 3), "R14")
    assert e.reason == "it is Bo's turn, not yours (phase 2, auction)"


def over_the_limit() -> Game:
    """You bought a fourth plant (3) and must box one of 7, 8, 9 (R36)."""
    g = position(YOU3, phase=2, who={"You": {"plants": [7, 8, 9]}}, market=[3, 4, 5, 6, 10, 11, 12, 13])
    for a in (Open("You", 3, 3), Pass("Bo"), Pass("Cy")):
        g.apply(a)
    assert g.discarding == "You"
    return g


def test_R36_over_the_limit_you_must_box_one_of_your_plants():
    e = assert_illegal(over_the_limit(), Open("You", 4, 4), "R36")
    assert e.reason == "You must first box one of your plants (over the limit of 3)"


def test_R36_boxing_a_plant_you_do_not_own_lists_yours():
    e = assert_illegal(over_the_limit(), Discard("You", 20), "R36")
    assert e.reason == "You do not own plant 20; you own 7, 8, 9, 3"


def building() -> Game:
    """Phase 4, You to build first (last in player order), 5 Elektro and a house in Bremen; Bo in Hamburg."""
    return position(YOU3, phase=4, order=["Bo", "Cy", "You"],
                    who={"You": {"money": 5, "cities": ["Bremen"]}, "Bo": {"cities": ["Hamburg"]}})


def test_R57_a_city_you_are_in_says_you_already_have_a_house():
    e = assert_illegal(building(), Build("You", "Bremen"), "R57")
    assert e.reason == "You already have a house in Bremen"


def test_R58_a_full_city_counts_one_house():
    e = assert_illegal(building(), Build("You", "Hamburg"), "R58")
    assert e.reason == "Hamburg is full for Step 1 (1 of 1 house)"


def test_R64_a_city_you_cannot_pay_says_you_have():
    g = building()
    cost = g.build_cost("You", "Hannover")
    e = assert_illegal(g, Build("You", "Hannover"), "R64")
    assert e.reason == f"Hannover costs {cost} Elektro but You have 5"
    (step,) = g.plan_build("You", ["Hannover"])
    assert (step.rule, step.reason) == ("R64", e.reason)


def test_R48_tokens_your_plants_cannot_store_say_your_plants():
    g = position(YOU3, phase=3, order=["Bo", "Cy", "You"], who={"You": {"plants": [4]}})
    e = assert_illegal(g, BuyResources("You", 5), "R48")
    assert e.reason.startswith("Your plants [4] cannot store ")


def test_R31_tokens_you_cannot_pay_say_you_have():
    g = position(YOU3, phase=3, order=["Bo", "Cy", "You"], who={"You": {"money": 1, "plants": [4]}})
    e = assert_illegal(g, BuyResources("You", 2), "R31")
    assert e.reason.startswith("costs ") and e.reason.endswith(" Elektro but You have 1")


def running() -> Game:
    """Phase 5, You to power: plant 4 (2 coal) without tokens, a house in Bremen."""
    return position(YOU3, phase=5, who={"You": {"plants": [4], "cities": ["Bremen"]}})


def test_R72_running_a_plant_you_do_not_own_says_you_do_not():
    assert assert_illegal(running(), Power("You", (5,)), "R72").reason == "You do not own plant 5"


def test_R73_running_without_the_fuel_says_what_you_hold():
    e = assert_illegal(running(), Power("You", (4,)), "R73")
    assert e.reason == "plants [4] need 2 coal but You hold nothing"
