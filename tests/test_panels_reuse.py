"""A panel shown again keeps the buttons and labels the browser already shows (fewer views to build
per click), and those buttons carry out the new render's action."""

from _panels import click, click_errors_fail, find, game_at, one, opening_table, table_for, walk  # noqa: F401

from powergrid_nb import Open

RESOURCES = ("coal", "oil", "garbage", "uranium")


def first_enabled_plus(t):
    return next(b for r in RESOURCES for b in find(t.actions, f"pg-more-{r}") if not b.disabled)


def test_a_stepper_click_keeps_the_shown_buy_button_and_buys_the_new_amount():
    t = table_for(game_at(phase=3, round=2))
    buy = one(t, "pg-buy")
    first_enabled_plus(t).click()
    assert one(t, "pg-buy") is buy  # the same widget, with the new render's text and action
    assert buy.description.startswith("Buy for ")
    before = t.game.money("You")
    click(t, "pg-buy")
    assert t.game.money("You") < before


def test_choosing_another_plant_relabels_the_shown_open_button():
    t = opening_table()
    g = t.game
    plants = [n for n in g.current_market()
              if any(isinstance(a, Open) and a.plant == n for a in g.legal_actions())]
    t.plant_clicked(plants[1])
    bid = g.min_bid(plants[1]) + 2
    one(t, "pg-bid-amount").value = bid
    assert one(t, "pg-open").description == f"Open plant {plants[1]} at {bid}"
    click(t, "pg-open")
    assert Open("You", plants[1], bid) in g.actions


def test_replaced_widgets_are_closed_and_shown_ones_stay_open():
    t = table_for(game_at(phase=3, round=2))
    before = list(walk(t.actions))
    first_enabled_plus(t).click()
    shown = {id(x) for x in walk(t.actions)}
    assert any(id(x) in shown for x in before)  # some were kept
    for x in before:
        assert (x.comm is not None) == (id(x) in shown)
