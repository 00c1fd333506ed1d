"""A panel shown again keeps the buttons and labels the browser already shows (fewer views to build
per click), and those buttons carry out the new render's action."""

from _panels import (  # noqa: F401
    YOU,
    click,
    click_errors_fail,
    find,
    game_at,
    one,
    opening_table,
    table_for,
    walk,
)

from powergrid_nb import Open, new_game
from powergrid_nb.bots import make_bot, play

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


def test_a_click_sends_the_browser_only_the_widgets_it_shows(monkeypatch):
    """A new render is merged into the panel shown: a widget of it reaches the browser (a comm opened,
    its model built there) only if it is shown, not to be closed again at once."""
    from powergrid_nb.panels import _widgets

    t = table_for(game_at(phase=3, round=2))
    sent: list = []
    real = _widgets._OPEN

    def counting(x):
        sent.append(x)
        real(x)

    monkeypatch.setattr(_widgets, "_OPEN", counting)

    def new_and_not_shared(before):
        shared = {id(x) for x in _widgets._SHARED.values()}  # one per setting, kept for later renders
        return ({id(x) for x in _widgets.tree([t]) if id(x) not in before | shared},
                {id(x) for x in sent if id(x) not in shared})

    for _ in range(3):
        before = {id(x) for x in _widgets.tree([t])}
        first_enabled_plus(t).click()
        shown, opened = new_and_not_shared(before)
        assert opened == shown
        sent.clear()
    for cls in ("pg-buy", "pg-done"):  # new positions
        before = {id(x) for x in _widgets.tree([t])}
        click(t, cls)
        shown, opened = new_and_not_shared(before)
        assert opened == shown
        sent.clear()
    g = new_game([YOU, "Bo", "Cy"], seed=7)
    play(g, {p: make_bot("heuristic", seed=i) for i, p in enumerate(g.players)},
         until=lambda h: h.round >= 2 and h.phase == 4 and h.current_player == YOU)
    t = table_for(g)
    before = {id(x) for x in _widgets.tree([t])}
    sent.clear()
    click(t, "pg-add")  # the queue and the build button appear: new widgets, shown, so sent
    shown, opened = new_and_not_shared(before)
    assert opened and opened == shown
