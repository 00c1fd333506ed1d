"""Game.purchase_cost and Game.power_outcome: what apply would charge or pay, checked as apply checks
it, without changing the game (R31, R46-R53, R72-R77). The play panels show these figures."""

import pytest
from _helpers_phases import scenario

from powergrid_nb import BuyResources, IllegalAction, Power


def buyer(money: int = 50, plants=(4,), tokens=None):
    """Dee to buy first in phase 3 (reverse order), holding ``plants``."""
    return scenario(4, phase=3, order=["Ada", "Bo", "Cy", "Dee"],
                    who={"Dee": {"money": money, "plants": list(plants), "tokens": tokens}})


def test_purchase_cost_is_what_apply_charges_cheapest_first_R50():
    g = buyer()
    cost = g.purchase_cost("Dee", coal=3)
    before = g.money("Dee")
    g.apply(BuyResources("Dee", coal=3))
    assert before - g.money("Dee") == cost


def test_purchase_cost_changes_nothing():
    g = buyer()
    state = g.to_dict()
    g.purchase_cost("Dee", coal=2)
    assert g.to_dict() == state


def test_purchase_cost_of_nothing_is_zero():
    assert buyer().purchase_cost("Dee") == 0


def test_purchase_cost_refuses_what_the_plants_cannot_store_R48():
    g = buyer(plants=(4,))
    state = g.to_dict()
    with pytest.raises(IllegalAction, match="R48"):
        g.purchase_cost("Dee", coal=5)  # plant 4 stores 2 x 2 coal
    assert g.to_dict() == state


def test_purchase_cost_refuses_what_the_player_cannot_pay_R31():
    g = buyer(money=2)
    state = g.to_dict()
    with pytest.raises(IllegalAction, match="R31"):
        g.purchase_cost("Dee", coal=4)
    assert g.to_dict() == state


def test_purchase_cost_refuses_more_than_the_market_has_R52():
    g = scenario(4, phase=3, order=["Ada", "Bo", "Cy", "Dee"], resources=(1, 18, 6, 2),
                 who={"Dee": {"money": 50, "plants": [4]}})
    state = g.to_dict()
    with pytest.raises(IllegalAction, match="R52"):
        g.purchase_cost("Dee", coal=2)
    assert g.to_dict() == state


def powerer(plants=(4, 13), tokens=(2, 0, 0, 0), cities=("Essen", "Duisburg")):
    return scenario(4, phase=5, order=["Dee", "Ada", "Bo", "Cy"], resources=(20, 18, 6, 2),
                    who={"Dee": {"plants": list(plants), "tokens": tokens, "cities": list(cities)}})


def test_power_outcome_is_what_apply_pays_and_burns_R74_R76():
    g = powerer()
    out = g.power_outcome("Dee", [4, 13])
    before, tokens = g.money("Dee"), g.tokens_of("Dee")
    g.apply(Power("Dee", [4, 13]))
    assert g.money("Dee") - before == out.income
    assert {r: tokens[r] - g.tokens_of("Dee")[r] for r in tokens} == out.burn
    assert out.powered == 2


def test_power_outcome_caps_powered_at_cities_owned_R74():
    assert powerer(cities=("Essen",)).power_outcome("Dee", [4, 13]).powered == 1


def test_power_outcome_changes_nothing():
    g = powerer()
    state = g.to_dict()
    g.power_outcome("Dee", [4])
    assert g.to_dict() == state


def test_power_outcome_refuses_a_plant_without_its_tokens_R73():
    g = powerer(tokens=(1, 0, 0, 0))
    state = g.to_dict()
    with pytest.raises(IllegalAction, match="R73"):
        g.power_outcome("Dee", [4])
    assert g.to_dict() == state


def test_power_outcome_refuses_a_plant_not_owned_R72():
    g = powerer()
    state = g.to_dict()
    with pytest.raises(IllegalAction, match="R72"):
        g.power_outcome("Dee", [5])
    assert g.to_dict() == state
