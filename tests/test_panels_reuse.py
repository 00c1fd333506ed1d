"""A panel shown again keeps the buttons and labels the browser already shows, updated in place (fewer
views to build per click), and those buttons carry out the new render's action."""

import gc

import ipywidgets as w
from _panels import (  # noqa: F401
    YOU,
    click,
    click_errors_fail,
    find,
    game_at,
    has,
    one,
    opening_table,
    table_for,
    walk,
)

from powergrid_nb import Open, new_game
from powergrid_nb.bots import make_bot, play
from powergrid_nb.panels._widgets import tree

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


def open_widgets():
    """Every widget of the kernel that has a browser model (an open comm)."""
    return {id(x): x for x in gc.get_objects() if isinstance(x, w.Widget) and x.comm is not None}


def test_a_click_makes_browser_models_only_for_the_widgets_it_shows():
    """A new render updates the controls shown in place: a click opens a widget (a comm, a model built in
    the browser) only if it is shown, not to be closed again at once; a stepper click opens none."""
    t = table_for(game_at(phase=3, round=2))
    for _ in range(3):
        before = open_widgets()
        first_enabled_plus(t).click()
        assert set(open_widgets()) - set(before) == set()
    for cls in ("pg-buy", "pg-done"):  # new positions
        before = open_widgets()
        click(t, cls)
        shown = {id(x) for x in tree([t])}
        assert set(open_widgets()) - set(before) <= shown
    g = new_game([YOU, "Bo", "Cy"], seed=7)
    play(g, {p: make_bot("heuristic", seed=i) for i, p in enumerate(g.players)},
         until=lambda h: h.round >= 2 and h.phase == 4 and h.current_player == YOU)
    t = table_for(g)
    before = open_widgets()
    click(t, "pg-add")  # the queue and the build buttons appear: new widgets, shown
    opened = set(open_widgets()) - set(before)
    assert opened and opened <= {id(x) for x in tree([t])}


def test_a_panel_control_no_longer_shown_is_closed_and_one_still_shown_is_kept():
    t = table_for(game_at(phase=3, round=2))
    buy, done = one(t, "pg-buy"), one(t, "pg-done")
    click(t, "pg-done")  # on to the building phase: a Done button again, no Buy
    assert t.game.phase == 4 and not has(t.actions, "pg-buy")
    assert buy.comm is None  # closed: its browser model freed
    assert one(t, "pg-done") is done and done.comm is not None
