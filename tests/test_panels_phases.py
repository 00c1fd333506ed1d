"""The phase panels of the playing table, checked against the engine: auction (R25-R41), resources
(R47-R53), building (R54-R64) and bureaucracy (R71-R77). Positions are scenario dicts; the human
is Ada, and the other seats are random bots or, where a test drives several players, humans too."""

from __future__ import annotations

import html
import re

import _helpers_phases as phases
import _helpers_setup as setup
import pytest
from _panels import (
    YOU,
    click,
    click_city,
    click_errors_fail,  # noqa: F401 (autouse)
    click_plant_card,
    find,
    has,
    message,
    one,
    opening_table,
    plan_labels,
    table_for,
)

from powergrid_nb import Bid, Build, BuyResources, Discard, Done, IllegalAction, Open, Pass, Power, views
from powergrid_nb.engine.rules.plants import RESOURCES
from powergrid_nb.panels import Table

ADA = "Ada"


def everyone_human(g) -> Table:
    return Table(g, bots={}, delay=0)


def plants_shown(t: Table) -> list[int]:
    return [int(b._dom_classes[0].removeprefix("pg-plant-")) for b in find(t.actions, "pg-plant")]


# --- auction (R25-R41) -------------------------------------------------------------------------------------
def test_plant_buttons_are_the_current_market():
    t = opening_table()
    assert plants_shown(t) == t.game.current_market()


def test_plants_the_player_cannot_pay_for_are_disabled_R31():
    g = setup.scenario("original", 3, round=2, money={ADA: 7})  # market 03-06 now
    t = table_for(g, human=ADA)
    for n in g.current_market():
        affordable = g.min_bid(n) <= 7
        assert one(t, f"pg-plant-{n}").disabled is not affordable
        assert any(isinstance(a, Open) and a.plant == n for a in g.legal_actions()) is affordable


def test_a_player_who_can_pay_for_no_plant_can_only_pass_R31():
    g = setup.scenario("original", 3, round=2, money={ADA: 2})
    t = table_for(g, human=ADA)
    assert all(b.disabled for b in find(t.actions, "pg-plant"))
    assert not has(t, "pg-open") and not has(t, "pg-bid-amount")
    click(t, "pg-pass")
    assert Pass(ADA) in g.actions


def test_the_bid_amount_starts_at_the_minimum_bid_R28():
    t = opening_table()
    g = t.game
    amount = one(t, "pg-bid-amount")
    plant = g.current_market()[0]
    assert amount.value == g.min_bid(plant) == plant
    assert f"{plant} to {g.money(YOU)}" in one(t, "pg-bid-range").value  # R31: no bid above one's money


@pytest.mark.parametrize("typed, rule", [(60, "R31"), (2, "R28")])
def test_a_bid_out_of_range_is_refused_with_the_rule_not_clamped_R28_R31(typed: int, rule: str):
    """The box takes what is typed; the engine refuses a bid above one's money or below the minimum
    and says why, and nothing is played (a box that clamped 60 to 50 would bid 50 unasked)."""
    t = opening_table()
    g = t.game
    one(t, "pg-bid-amount").value = typed
    assert one(t, "pg-open").description.endswith(f" at {typed}")
    click(t, "pg-open")
    assert g.actions == [] and rule in message(t)


def test_the_discounted_plant_opens_at_1_Elektro_R40():
    g = setup.scenario("recharged", 3, round=2)
    t = table_for(g, human=ADA)
    low = g.current_market()[0]
    assert g.min_bid(low) == 1
    click(t, f"pg-plant-{low}")
    assert one(t, "pg-bid-amount").value == 1
    assert one(t, "pg-open").description == f"Open plant {low} at 1"


def test_round_1_has_no_pass_button_R35():
    t = opening_table()
    assert not has(t.actions, "pg-pass")
    assert "R35" in "".join(getattr(x, "value", "") for x in t.actions.children if hasattr(x, "value"))


def test_later_rounds_offer_pass_R27():
    t = table_for(setup.scenario("original", 3, round=2), human=ADA)
    assert has(t.actions, "pg-pass")
    click(t, "pg-pass")
    assert t.game.actions[0] == Pass(ADA)


def test_choosing_a_plant_button_selects_it_for_the_opening_bid():
    t = opening_table()
    g = t.game
    third = g.current_market()[2]
    click(t, f"pg-plant-{third}")
    assert one(t, f"pg-plant-{third}").button_style == "info"
    assert one(t, "pg-bid-amount").value == g.min_bid(third)
    assert one(t, "pg-open").description == f"Open plant {third} at {g.min_bid(third)}"


def test_the_plant_chosen_but_not_opened_is_marked_in_the_plant_market():
    t = opening_table()
    g = t.game
    third = g.current_market()[2]
    click(t, f"pg-plant-{third}")
    html = t.board.market.html
    marked = re.findall(r'<div class="([^"]*pg-card-selected[^"]*)" data-plant="(\d+)"', html)
    assert [int(n) for _, n in marked] == [third] and "chosen: set your bid" in html


def test_clicking_a_plant_card_in_the_market_tab_selects_it():
    t = opening_table()
    g = t.game
    second = g.current_market()[1]
    click_plant_card(t, second)
    assert one(t, "pg-open").description == f"Open plant {second} at {g.min_bid(second)}"


@pytest.mark.parametrize("message", [{"plant": "13"}, {"plant": True}, {"plant": 13.0}, {"city": "Kiel"},
                                     ["plant", 13], "plant 13", None])
def test_a_market_message_that_is_not_a_card_number_changes_nothing(message):
    """A page is public: the plant-market tab takes only a card's number from the browser."""
    t = opening_table()
    before = t.snapshot()
    t.board.market._handle_custom_msg(message, [])
    assert t.snapshot() == before


def test_the_market_tab_is_redrawn_in_place_after_a_move():
    """The plant-market tab keeps its widget and replaces its cards: the same view, the new market."""
    t = opening_table()
    market, before = t.board.market, t.board.market.html
    click(t, f"pg-plant-{t.game.current_market()[0]}")
    click(t, "pg-open")
    assert t.board.market is market and market.html != before
    assert market.html == views.plants_html(t.game, style=False)  # the style sheet: the widget's own


def test_changing_the_bid_amount_opens_at_that_amount():
    t = opening_table()
    g = t.game
    plant = g.current_market()[0]
    one(t, "pg-bid-amount").value = plant + 4
    assert one(t, "pg-open").description == f"Open plant {plant} at {plant + 4}"
    n = len(g.actions)
    click(t, "pg-open")
    assert g.actions[n] == Open(YOU, plant, plant + 4)


def _auction_of_bo() -> Table:
    """Round 2: Bo opens plant 5 at 10; Ada is next to bid (seat order Bo, Ada, Cy)."""
    g = setup.scenario("original", 3, round=2, order=["Bo", ADA, "Cy"])
    t = everyone_human(g)
    assert t.submit(Open("Bo", 5, 10))
    assert g.current_player == ADA
    return t


def test_a_running_auction_offers_a_raise_above_the_high_bid_and_pass_R29():
    t = _auction_of_bo()
    amount = one(t, "pg-bid-amount")
    assert amount.value == 11 and f"11 to {t.game.money(ADA)}" in one(t, "pg-bid-range").value
    assert one(t, "pg-raise").description == "Bid 11"
    assert has(t.actions, "pg-pass")
    assert not has(t.actions, "pg-open") and not has(t.actions, "pg-plant")


def test_raise_submits_the_chosen_bid():
    t = _auction_of_bo()
    one(t, "pg-bid-amount").value = 14
    click(t, "pg-raise")
    assert t.game.actions[-1] == Bid(ADA, 14)
    pf = t.game.plants_frame()
    row = pf[pf["in_auction"]].iloc[0]
    assert (int(row["high_bid"]), row["leader"]) == (14, ADA)


def test_passing_in_a_running_auction_leaves_only_that_auction_R29():
    t = _auction_of_bo()
    click(t, "pg-pass")
    assert t.game.actions[-1] == Pass(ADA)
    assert t.game.current_player == "Cy"


def test_clicking_a_plant_card_during_an_auction_says_bid_or_pass():
    t = _auction_of_bo()
    before = t.game.to_dict()
    t.plant_clicked(8)
    assert "auction is running" in message(t)
    assert t.game.to_dict() == before


def test_a_player_who_cannot_outbid_sees_only_pass_R31():
    g = setup.scenario("original", 3, round=2, order=["Bo", ADA, "Cy"], money={ADA: 10})
    t = everyone_human(g)
    t.submit(Open("Bo", 5, 10))
    assert not has(t.actions, "pg-raise") and has(t.actions, "pg-pass")


def _over_the_limit() -> Table:
    """Ada (plants 3, 4, 5 with 3 coal and 2 oil) buys plant 9: one plant too many (R36)."""
    g = setup.scenario("original", 3, round=2, plants={ADA: [3, 4, 5]}, tokens={ADA: {"coal": 3, "oil": 2}},
                       resources={"coal": 21, "oil": 16})
    t = everyone_human(g)
    for a in (Open(ADA, 9, 9), Pass("Bo"), Pass("Cy")):
        assert t.submit(a), message(t)
    assert g.current_player == ADA
    return t


def test_the_discard_dialog_appears_over_the_plant_limit_R36():
    t = _over_the_limit()
    g = t.game
    legal = [a for a in g.legal_actions() if isinstance(a, Discard)]
    assert legal
    assert [v for _, v in one(t, "pg-discard-plant").options] == sorted({a.plant for a in legal}) == [3, 4, 5]
    assert not has(t.actions, "pg-open")


def test_the_keep_options_are_the_engines_legal_discards_R37():
    t = _over_the_limit()
    g = t.game
    legal = [a for a in g.legal_actions() if isinstance(a, Discard)]
    for plant in (3, 4, 5):
        one(t, "pg-discard-plant").value = plant
        keep = one(t, "pg-keep")
        assert [v for _, v in keep.options] == [a for a in legal if a.plant == plant]
        assert one(t, "pg-discard").description == f"Discard plant {plant}"


def test_discard_applies_the_chosen_plant_and_tokens():
    t = _over_the_limit()
    g = t.game
    one(t, "pg-discard-plant").value = 4
    keep = one(t, "pg-keep")
    choice = keep.options[-1][1]
    keep.value = choice
    click(t, "pg-discard")
    assert choice in g.actions
    assert sorted(g.plants_of(ADA)) == [3, 5, 9]


# --- resources (R47-R53) -----------------------------------------------------------------------------------
def _buying(money: int = 12, **who) -> Table:
    """Phase 3, Ada first to buy (reverse order), with plants 4 (coal 2) and 7 (oil 3) by default."""
    g = phases.scenario(3, phase=3, order=["Bo", "Cy", ADA],
                        who={ADA: {"plants": [4, 7], "money": money, **who}})
    t = table_for(g, human=ADA)
    assert g.current_player == ADA
    return t


def _amounts(t: Table) -> dict[str, int]:
    """The amounts chosen, as the counters show them."""
    return {r: int(re.sub("<[^>]*>", "", one(t, f"pg-count-{r}").value)) if has(t, f"pg-count-{r}") else 0
            for r in RESOURCES}


def _engine_sells(g, amounts: dict[str, int]) -> bool:
    try:
        g.purchase_cost(ADA, **amounts)
    except IllegalAction:
        return False
    return True


def _check_steppers(t: Table) -> None:
    """+ is disabled exactly when the engine would refuse one more token; − only at zero."""
    g, amounts = t.game, _amounts(t)
    for r in RESOURCES:
        one_more = _engine_sells(g, {**amounts, r: amounts[r] + 1})
        if has(t, f"pg-more-{r}"):
            assert one(t, f"pg-more-{r}").disabled is not one_more, (r, amounts)
            assert one(t, f"pg-less-{r}").disabled is (amounts[r] == 0)
        else:
            assert not one_more and amounts[r] == 0, r


@pytest.mark.parametrize("money", [6, 12, 50], ids=["money-binds", "some-money", "storage-binds"])
def test_plus_is_disabled_exactly_when_the_engine_refuses_one_more_R48_R31(money):
    t = _buying(money)
    _check_steppers(t)
    for r in ("coal", "oil", "coal", "oil", "coal", "oil", "oil", "oil", "coal", "oil", "oil"):
        if not one(t, f"pg-more-{r}").disabled:
            click(t, f"pg-more-{r}")
        _check_steppers(t)
    assert one(t, "pg-more-coal").disabled and one(t, "pg-more-oil").disabled


def test_resources_the_plants_cannot_store_have_no_stepper_R48():
    t = _buying()
    assert not has(t, "pg-more-garbage") and not has(t, "pg-more-uranium")


def test_the_cost_shown_is_the_engines_purchase_cost_R50():
    t = _buying(50)
    g = t.game
    assert "Total: 0 Elektro" in one(t, "pg-cost").value
    for r in ("coal", "coal", "oil", "coal", "oil"):
        click(t, f"pg-more-{r}")
        amounts = _amounts(t)
        cost = g.purchase_cost(ADA, **amounts)
        assert f"Total: {cost} Elektro" in one(t, "pg-cost").value
        assert f"{50 - cost} Elektro left" in one(t, "pg-cost").value
        assert one(t, "pg-buy").description == f"Buy for {cost}"


def test_minus_takes_a_token_back():
    t = _buying(50)
    click(t, "pg-more-coal")
    click(t, "pg-more-coal")
    click(t, "pg-less-coal")
    assert _amounts(t)["coal"] == 1


def test_buy_is_disabled_with_nothing_chosen():
    t = _buying()
    assert one(t, "pg-buy").disabled


def test_buy_applies_the_purchase_and_money_falls_by_the_cost_R50():
    t = _buying(50)
    g = t.game
    for r in ("coal", "coal", "oil"):
        click(t, f"pg-more-{r}")
    cost = g.purchase_cost(ADA, coal=2, oil=1)
    click(t, "pg-buy")
    assert g.actions[-1] == BuyResources(ADA, coal=2, oil=1)
    assert g.money(ADA) == 50 - cost
    assert g.tokens_of(ADA)["coal"] == 2 and g.tokens_of(ADA)["oil"] == 1
    assert g.current_player == ADA  # R51: still Ada's turn, she may buy more
    assert _amounts(t) == dict.fromkeys(RESOURCES, 0)


def test_done_ends_the_turn_R15():
    t = _buying()
    click(t, "pg-done")
    g = t.game
    assert Done(ADA) in g.actions
    assert g.phase != 3 or g.current_player != ADA


def test_the_next_price_counts_the_tokens_already_queued_R50():
    t = _buying(money=50)
    g = t.game
    first = g.purchase_cost(ADA, coal=1)
    assert f"next at {first}" in one(t, "pg-info-coal").value
    click(t, "pg-more-coal")
    click(t, "pg-more-coal")
    third = g.purchase_cost(ADA, coal=3) - g.purchase_cost(ADA, coal=2)
    assert f"next at {third}," in one(t, "pg-info-coal").value


def test_done_with_tokens_queued_buys_them_first_and_says_so_R51():
    """No click loses work: Done with a queued purchase buys it, then ends the turn."""
    t = _buying(money=50)
    g = t.game
    click(t, "pg-more-coal")
    click(t, "pg-more-coal")
    cost = g.purchase_cost(ADA, coal=2)
    assert one(t, "pg-done").description == "Buy and end turn"
    click(t, "pg-done")
    mine = [a for a in g.actions if a.player == ADA]
    assert mine[-2:] == [BuyResources(ADA, coal=2), Done(ADA)]
    assert g.money(ADA) == 50 - cost and g.tokens_of(ADA)["coal"] == 2
    assert f"Bought the tokens queued (2 coal) for {cost} Elektro, then ended the turn." in message(t)
    assert any(e.kind == "buy" and e.player == ADA for e in g.history)  # the log says so too


def test_done_with_a_purchase_the_engine_refuses_ends_nothing_and_says_why_R52():
    t = _buying(money=50)
    g = t.game
    click(t, "pg-more-coal")
    t.current_panel().amounts["coal"] = 99  # as a stale click could leave it: beyond storage (R48)
    before = len(g.actions)
    click(t, "pg-done")
    assert len(g.actions) == before and g.current_player == ADA
    assert "The tokens queued cannot be bought" in message(t) and "end your turn without buying" in message(t)


# --- building (R54-R64) -----------------------------------------------------------------------------------
def _building(money: int = 40) -> Table:
    """Phase 4, Ada (house in Essen) first to build; Bo has Duisburg (full in Step 1)."""
    g = phases.scenario(3, phase=4, order=["Bo", "Cy", ADA],
                        who={ADA: {"plants": [4], "money": money, "cities": ["Essen"]},
                             "Bo": {"plants": [5], "cities": ["Duisburg"]}})
    t = table_for(g, human=ADA)
    assert g.current_player == ADA
    return t


def _candidates(t: Table) -> dict[str, str]:
    return {city: text for text, city in one(t, "pg-candidates").options}


def test_candidates_are_the_legal_builds_with_their_planned_cost_R60():
    t = _building()
    g = t.game
    legal = {a.cities[0] for a in g.legal_actions() if isinstance(a, Build)}
    shown = _candidates(t)
    assert set(shown) == legal
    for city, text in shown.items():
        assert re.search(rf"= {g.plan_build(ADA, [city])[-1].cost}\b", text), text
    costs = [g.plan_build(ADA, [c])[-1].cost for _, c in one(t, "pg-candidates").options]
    assert costs == sorted(costs)  # cheapest first


def test_queueing_two_cities_prices_them_in_order_R63():
    t = _building()
    g = t.game
    alone = g.plan_build(ADA, ["Köln"])[-1].cost
    for city in ("Düsseldorf", "Köln"):
        one(t, "pg-candidates").value = city
        click(t, "pg-add")
    steps = g.plan_build(ADA, ["Düsseldorf", "Köln"])
    assert steps[1].cost < alone  # Köln is cheaper through Düsseldorf, queued before it
    queue = one(t, "pg-queue").value
    assert f"= <b>{steps[0].cost}</b>" in queue and f"= <b>{steps[1].cost}</b>" in queue
    assert queue.index("Düsseldorf") < queue.index("Köln")
    assert one(t, "pg-build").description == f"Build 2 for {steps[-1].total}"
    assert "Köln" not in _candidates(t) and "Düsseldorf" not in _candidates(t)


def test_candidates_are_repriced_through_the_queue():
    t = _building()
    g = t.game
    click_city(t, "Düsseldorf")
    cost = g.plan_build(ADA, ["Düsseldorf", "Köln"])[-1].cost
    assert re.search(rf"= {cost}\b", _candidates(t)["Köln"])


def test_clicking_a_city_on_the_map_queues_it():
    t = _building()
    click_city(t, "Dortmund")
    assert t.plan() == ["Dortmund"]
    assert "Dortmund" in one(t, "pg-queue").value


def test_clicking_a_queued_city_again_says_so():
    t = _building()
    click_city(t, "Dortmund")
    click_city(t, "Dortmund")
    assert "already queued" in message(t)
    assert t.plan() == ["Dortmund"]


@pytest.mark.parametrize(("city", "rule"), [("Duisburg", "R58"), ("Berlin", "R4"), ("Essen", "R57")])
def test_a_forbidden_city_gives_a_message_naming_the_rule(city, rule):
    t = _building()
    before = t.game.to_dict()
    t.city_clicked(city)
    assert rule in message(t)
    assert t.plan() == [] and t.game.to_dict() == before


def test_an_unaffordable_city_gives_a_message_R64():
    t = _building(money=40)
    t.city_clicked("Mannheim")  # 45 Elektro away
    assert "R64" in message(t) or "R31" in message(t)
    assert t.plan() == []


def test_a_city_that_the_queue_makes_unaffordable_gives_a_message_R31():
    t = _building(money=30)
    click_city(t, "Düsseldorf")  # 12
    t.city_clicked("Aachen")  # 21 alone, 19 after Düsseldorf: 31 in all
    assert ("R31" in message(t) or "R64" in message(t)) and t.plan() == ["Düsseldorf"]


def test_build_applies_the_queued_cities_and_pays_the_total_R54():
    t = _building()
    g = t.game
    click_city(t, "Düsseldorf")
    click_city(t, "Köln")
    total = g.plan_build(ADA, ["Düsseldorf", "Köln"])[-1].total
    click(t, "pg-build")
    assert g.actions[-1] == Build(ADA, "Düsseldorf", "Köln")
    assert g.cities_of(ADA) == ["Essen", "Düsseldorf", "Köln"]
    assert g.money(ADA) == 40 - total
    assert t.plan() == [] and not has(t, "pg-queue")


def test_a_second_click_on_build_after_the_build_changes_nothing():
    t = _building()
    g = t.game
    click_city(t, "Düsseldorf")
    build = one(t, "pg-build")
    build.click()
    before = g.to_dict()
    build.click()  # a double click: the button of the panel before the build
    assert g.to_dict() == before
    assert g.cities_of(ADA) == ["Essen", "Düsseldorf"]


def test_a_second_click_on_buy_after_the_purchase_buys_nothing_more_R51():
    t = _buying(50)
    g = t.game
    click(t, "pg-more-coal")
    buy = one(t, "pg-buy")
    buy.click()
    before = g.to_dict()
    buy.click()
    assert g.to_dict() == before
    assert g.tokens_of(ADA)["coal"] == 1
    assert message(t) == ""


def test_remove_last_and_clear_empty_the_queue():
    t = _building()
    click_city(t, "Düsseldorf")
    click_city(t, "Köln")
    click(t, "pg-unqueue")
    assert t.plan() == ["Düsseldorf"]
    click(t, "pg-clear")
    assert t.plan() == []


def test_the_map_shows_the_queue_as_a_plan():
    t = _building()
    assert plan_labels(t) == ()
    click_city(t, "Düsseldorf")
    assert plan_labels(t) == ("1",)
    click_city(t, "Köln")
    assert plan_labels(t) == ("1", "2")
    click(t, "pg-clear")
    assert plan_labels(t) == ()


def test_a_player_who_cannot_build_anywhere_only_has_done_R64():
    t = _building(money=5)
    assert not has(t, "pg-candidates") and not has(t, "pg-add")
    assert "cannot build anywhere" in "".join(getattr(x, "value", "") for x in t.actions.children)
    click(t, "pg-done")
    assert Done(ADA) in t.game.actions


def test_done_ends_the_build_turn():
    t = _building()
    click(t, "pg-done")
    assert Done(ADA) in t.game.actions


def test_done_with_cities_queued_builds_them_first_and_says_so_R54():
    """No click loses work: Done with cities queued builds them, then ends the turn."""
    t = _building()
    g = t.game
    click_city(t, "Düsseldorf")
    click_city(t, "Köln")
    total = g.plan_build(ADA, ["Düsseldorf", "Köln"])[-1].total
    assert one(t, "pg-done").description == "Build and end turn"
    click(t, "pg-done")
    mine = [a for a in g.actions if a.player == ADA]
    assert mine[-2:] == [Build(ADA, "Düsseldorf", "Köln"), Done(ADA)]
    assert g.cities_of(ADA) == ["Essen", "Düsseldorf", "Köln"] and g.money(ADA) == 40 - total
    said = f"Built the cities queued (Düsseldorf, Köln) for {total} Elektro, then ended the turn."
    assert said in message(t)


def test_done_with_a_queue_the_engine_refuses_ends_nothing_and_says_why_R64():
    t = _building()
    g = t.game
    click_city(t, "Düsseldorf")
    t.current_panel().queue.append("Duisburg")  # as a stale click could leave it: Bo's, full in Step 1
    before = len(g.actions)
    click(t, "pg-done")
    assert len(g.actions) == before and t.plan() == ["Düsseldorf", "Duisburg"]
    assert "The cities queued cannot be built" in message(t)


# --- bureaucracy (R71-R77) -------------------------------------------------------------------------------
def _powering(plants=(4, 5, 13), tokens=None, cities=("Essen", "Duisburg", "Düsseldorf", "Köln")) -> Table:
    """Phase 5, Ada first (player order); by default plants 4 (coal 2), 5 (hybrid 2), 13 (eco)
    with 3 coal and 2 oil, and 4 cities."""
    tokens = {"coal": 3, "oil": 2} if tokens is None else tokens
    ada = {"plants": list(plants), "tokens": tokens, "cities": list(cities)}
    g = phases.scenario(3, phase=5, who={ADA: ada},
                        resources=(24 - tokens.get("coal", 0), 18 - tokens.get("oil", 0), 6, 2))
    t = table_for(g, human=ADA)
    assert g.current_player == ADA
    return t


def _ticked(t: Table) -> list[int]:
    return sorted(n for n in t.game.plants_of(ADA) if one(t, f"pg-run-{n}").value)


def test_the_best_run_is_ticked_to_begin_with_R75():
    t = _powering()
    g = t.game
    best = max(g.power_outcome(ADA, a.plants, a.hybrid_coal).income
               for a in g.legal_actions() if isinstance(a, Power))
    assert _ticked(t) == [4, 5, 13]
    assert f"income <b>{best}</b>" in one(t, "pg-outcome").value


def test_a_plant_without_its_tokens_cannot_be_ticked_R46():
    t = _powering(plants=(4, 6, 13), tokens={"coal": 2})  # 6 burns garbage: none held
    assert one(t, "pg-run-6").disabled and not one(t, "pg-run-6").value
    assert not one(t, "pg-run-4").disabled


def test_the_outcome_shown_is_the_engines_power_outcome_R74_R76():
    t = _powering()
    g = t.game
    out = g.power_outcome(ADA, _ticked(t), one(t, "pg-hybrid-coal").value)
    assert f"Powers <b>{out.powered}</b>" in one(t, "pg-outcome").value
    assert f"income <b>{out.income}</b>" in one(t, "pg-outcome").value
    one(t, "pg-run-13").value = False
    out = g.power_outcome(ADA, [4, 5], one(t, "pg-hybrid-coal").value)
    assert _ticked(t) == [4, 5]
    assert f"Powers <b>{out.powered}</b>" in one(t, "pg-outcome").value
    assert f"income <b>{out.income}</b>" in one(t, "pg-outcome").value
    cities = "city" if out.powered == 1 else "cities"
    assert one(t, "pg-power").description == f"Power {out.powered} {cities} (+{out.income})"


def test_a_run_below_the_most_says_why_as_the_log_will_R99():
    t = _powering()
    assert not has(t, "pg-fewer")  # the best run is ticked to begin with
    one(t, "pg-run-13").value = False
    out = t.game.power_outcome(ADA, [4, 5], one(t, "pg-hybrid-coal").value)
    assert out.fewer.startswith("not the ")
    assert f"N{html.escape(out.fewer[1:])}." in one(t, "pg-fewer").value


def test_unticking_every_plant_still_earns_the_base_income_R76():
    t = _powering()
    for n in (4, 5, 13):
        one(t, f"pg-run-{n}").value = False
    assert "income <b>10</b>" in one(t, "pg-outcome").value


def test_a_plant_that_only_runs_without_another_is_disabled_while_that_one_is_ticked_R73():
    t = _powering(plants=(4, 5), tokens={"coal": 2}, cities=("Essen", "Duisburg"))  # 2 coal: one of them
    ticked = _ticked(t)
    assert len(ticked) == 1
    other = ({4, 5} - set(ticked)).pop()
    assert one(t, f"pg-run-{other}").disabled


def test_the_hybrid_mix_slider_appears_when_the_mix_matters_R46():
    t = _powering()  # hybrid 5 beside coal plant 4, 3 coal and 2 oil: coal 0 or 1 in the hybrid
    g = t.game
    mix = one(t, "pg-hybrid-coal")
    legal = sorted(a.hybrid_coal for a in g.legal_actions()
                   if isinstance(a, Power) and sorted(a.plants) == [4, 5, 13])
    assert list(mix.options) == legal == [0, 1]
    mix.value = 1
    out = g.power_outcome(ADA, [4, 5, 13], 1)
    assert out.burn == {"coal": 3, "oil": 1, "garbage": 0, "uranium": 0}
    assert "burns 3 coal, 1 oil" in one(t, "pg-outcome").value
    mix.value = 0
    assert "burns 2 coal, 2 oil" in one(t, "pg-outcome").value


def test_no_mix_slider_when_the_hybrid_has_only_one_fuel():
    t = _powering(tokens={"coal": 6})
    assert not has(t, "pg-hybrid-coal")


def test_no_mix_slider_without_a_hybrid():
    t = _powering(plants=(4, 7, 13), tokens={"coal": 2, "oil": 3})
    assert not has(t, "pg-hybrid-coal")


def test_power_applies_the_chosen_run_R72():
    t = _powering()
    g = t.game
    money = g.money(ADA)
    one(t, "pg-run-13").value = False
    one(t, "pg-hybrid-coal").value = 1
    out = g.power_outcome(ADA, [4, 5], 1)
    click(t, "pg-power")
    assert Power(ADA, [4, 5], 1) in g.actions
    assert g.money(ADA) == money + out.income
    assert g.tokens_of(ADA)["coal"] == 3 - out.burn["coal"]
    assert g.tokens_of(ADA)["oil"] == 2 - out.burn["oil"]
