"""The fields of a position a Scenario sets beyond the editor's (the tests' position builder,
tests/_position.py, builds every position through them): the seat order, the removed and boxed plants,
the deck as the loader deals it, the discount token, who is still to act, the marked start cities, the
map rules' flags and whether the deck's top card is known. Each loads into the game as set."""

from __future__ import annotations

from powergrid_nb import Game, Scenario, new_game


def fresh(players: int = 4, edition: str = "original", **options) -> Scenario:
    return Scenario.new(players, edition=edition, seed=5, **options)


def state(sc: Scenario) -> dict:
    return sc.game().to_dict()["state"]


def test_the_seat_order_set_is_the_games():
    sc = fresh()
    seats = list(reversed(state(sc)["seat_order"]))
    sc.set_seat_order(seats)
    assert state(sc)["seat_order"] == seats


def test_a_plant_set_removed_leaves_the_deck_and_is_out_of_the_game():
    sc = fresh()
    card = sc.deck()[3]
    sc.set_removed([card])
    assert card not in sc.deck()
    assert state(sc)["removed"] == [card]


def test_a_removed_plant_put_back_goes_to_the_bottom_of_the_deck_above_the_step_3_card():
    sc = fresh(3, "recharged")  # the Recharged set-up removes plants with 3 players (R8)
    was = state(sc)["removed"]
    assert was, "the set-up should remove plants with 3 players"
    sc.set_removed(was[1:])
    assert sc.deck()[-2:] == [was[0], "step3"]
    assert state(sc)["removed"] == was[1:]


def test_a_plant_set_boxed_leaves_the_deck_and_is_in_the_box():
    sc = fresh()
    card = sc.deck()[0]
    sc.set_boxed([card])
    assert card not in sc.deck()
    assert state(sc)["boxed"] == [card]


def test_the_dealt_deck_is_the_one_the_loader_deals_without_a_deck():
    sc = fresh()
    sc.set_plants("Ada", [sc.deck()[0]])
    sc.deal_deck()
    data = sc.to_dict()
    data["state"].pop("deck")
    assert sc.deck() == Game.from_dict(data).to_dict()["state"]["deck"]
    assert set(sc.plants("Ada")).isdisjoint(sc.deck())


def test_the_discount_token_lies_on_the_plant_set_R40():
    sc = fresh(3, "recharged")
    market = sorted(c for c in sc.plant_market() if isinstance(c, int))
    sc.set_discount(market[1])
    assert state(sc)["discount"] == market[1]
    sc.set_discount(None)
    assert state(sc)["discount"] is None


def test_who_is_still_to_act_is_the_one_set():
    sc = fresh()
    sc.set_phase(3)
    last = sc.order[-2:]
    sc.set_to_act(last)
    g = sc.game()
    assert g.current_player == last[0]
    assert g.to_dict()["state"]["to_act"] == last


def test_the_marked_start_cities_are_the_ones_set_R134():
    sc = fresh(3, "recharged", starting_cities=True)
    sc.set_marked(["Essen", "Kiel"])
    assert state(sc)["marked"] == ["Essen", "Kiel"]


def test_the_map_rules_flags_are_the_ones_set():
    sc = fresh()
    sc.set_flags({"uranium_frozen": True})
    assert state(sc)["flags"] == {"uranium_frozen": True}


def test_whether_the_top_card_is_known_is_as_set():
    g = new_game(4, edition="original", seed=5)
    sc = Scenario.from_game(g)
    known = g.to_dict()["state"]["top_known"]
    sc.set_top_known(not known)
    assert state(sc)["top_known"] is (not known)
