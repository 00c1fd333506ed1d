"""Each view of the table is refreshed when what it shows changes: the differences the
fresh-build property test (tests/test_panels_fresh.py) found, one behaviour each."""

from __future__ import annotations

import ipywidgets as w
from _panels import (
    YOU,
    assert_shows_a_fresh_build,
    click,
    click_errors_fail,  # noqa: F401 (autouse)
    game_at,
    one,
    table_for,
    walk,
)
from _position import position

from powergrid_nb import Build, BuyResources, Done, new_game
from powergrid_nb.bots import make_bot, play
from powergrid_nb.panels import Table
from powergrid_nb.panels.board import TABS
from powergrid_nb.panels.market import MarketView


def shown(fig) -> dict | str:
    """A tab's figure as plain data; the plant market's HTML."""
    if isinstance(fig, MarketView):
        return fig.html
    if isinstance(fig, str):
        return fig
    out = fig.to_plotly_json()
    return {"data": [{k: v for k, v in t.items() if k != "uid"} for t in out["data"]],
            "layout": {k: v for k, v in out["layout"].items() if k != "template"}}


def tab(t: Table, name: str):
    """Show the tab ``name`` and return its figure (the plant market: its widget)."""
    t.board.tabs.selected_index = TABS.index(name)
    return t.board.market if name == "Plant market" else t.board.figures[name]


def fresh(t: Table, name: str) -> dict | str:
    """The tab's figure as a table built now would show it."""
    return shown(t.board.builders[name](t.game))


def building() -> Table:
    """Round 2, phase 4, You to build (heuristic players so far; random bots at the table)."""
    g = new_game([YOU, "Bo", "Cy"], seed=7)
    play(g, {p: make_bot("heuristic", seed=i) for i, p in enumerate(g.players)},
         until=lambda h: h.round >= 2 and h.phase == 4 and h.current_player == YOU)
    assert any(isinstance(a, Build) for a in g.legal_actions())
    return table_for(g)


def test_the_plant_market_title_follows_the_phase():
    t = table_for(game_at(phase=3, round=2))
    fig = tab(t, "Plant market")
    t.submit(Done(YOU))
    assert t.game.phase == 4 and t.game.current_player == YOU
    assert "phase 4 (building)" in fig.html
    assert shown(fig) == fresh(t, "Plant market")


def test_the_plant_markets_fuel_costs_follow_resource_purchases():
    g = game_at(phase=3, round=2)
    market = g.current_market() + g.future_market()
    buys = [a for a in g.legal_actions() if isinstance(a, BuyResources)]

    def costs(game):
        return [game.fuel_cost(n) for n in market if n < 99]

    def after(a):
        c = g.copy()
        c.apply(a)
        return costs(c)

    buy = next(a for a in buys if after(a) != costs(g))  # a purchase that moves a price
    t = table_for(g)
    t.board.tabs.selected_index = 1
    t.board.tabs.selected_index = 0  # the market tab shown again, as after a look at another tab
    fig = t.board.market
    t.pause(True)  # the bots wait: the view after this very purchase
    t.submit(buy)
    assert shown(fig) == fresh(t, "Plant market")


def test_the_resources_view_follows_your_money_when_you_build():
    t = building()
    fig = tab(t, "Resources")
    build = next(a for a in t.game.legal_actions() if isinstance(a, Build))
    t.pause(True)
    t.submit(build)
    assert fig.layout.title.text.endswith(f"You have {t.game.money(YOU)} Elektro")
    assert shown(fig) == fresh(t, "Resources")


def test_the_history_follows_money_within_the_round():
    t = building()
    fig = tab(t, "History")
    build = next(a for a in t.game.legal_actions() if isinstance(a, Build))
    t.pause(True)
    t.submit(build)
    assert shown(fig) == fresh(t, "History")


def test_the_history_title_follows_the_phase():
    t = table_for(game_at(phase=3, round=2))
    fig = tab(t, "History")
    t.submit(Done(YOU))
    assert "building" in fig.layout.title.text
    assert shown(fig) == fresh(t, "History")


def test_the_map_after_a_build_is_the_map_a_fresh_build_shows():
    t = building()
    t.pause(True)
    t.submit(next(a for a in t.game.legal_actions() if isinstance(a, Build)))
    assert_shows_a_fresh_build(t, "a house built")


def test_a_queued_city_shows_on_the_map_as_a_fresh_build_would():
    t = building()
    one(t, "pg-candidates").value = one(t, "pg-candidates").options[0][1]
    click(t, "pg-add")
    assert_shows_a_fresh_build(t, "a city queued")


def sent_order(t: Table) -> list[str]:
    """Record, in order, the map's updates ("map") and the phase panel's new controls ("panel"), as a
    page receives them: a page applies a figure's update only after the messages sent before it."""
    order: list[str] = []
    for trace in t.board.pieces.data:  # houses and the plan's order markers move with a build or a queue
        trace.on_change(lambda *_: order.append("map"), "x")
    for box in (x for x in walk(t.actions) if isinstance(x, w.Box)):  # the column and the boxes in it
        box.observe(lambda _c: order.append("panel"), names="children")
    return order


def test_a_queued_city_goes_to_the_map_before_the_panel_changes():
    t = building()
    order = sent_order(t)
    one(t, "pg-candidates").value = one(t, "pg-candidates").options[0][1]
    click(t, "pg-add")
    assert order[:1] == ["map"] and "panel" in order, order
    assert_shows_a_fresh_build(t, "a city queued")


def queue_the_first_listed(t: Table) -> None:
    one(t, "pg-candidates").value = one(t, "pg-candidates").options[0][1]
    click(t, "pg-add")


def test_a_second_queued_city_makes_no_control_again_but_the_list():
    """A page makes again the view of every control after the first one of a column that changed: the
    list of cities, new with each queued city, sits in a box of its own."""
    g = position([YOU, "Bo", "Cy"], phase=4, order=["Bo", "Cy", YOU], who={YOU: {"money": 200}})
    t = table_for(g)
    queue_the_first_listed(t)
    column, list_before = tuple(t.actions.children), one(t, "pg-candidates")
    queue_the_first_listed(t)
    assert len(t.plan()) == 2
    assert tuple(t.actions.children) == column
    assert one(t, "pg-candidates") is not list_before
    assert_shows_a_fresh_build(t, "two cities queued")


def test_a_build_goes_to_the_map_before_the_panel_changes():
    t = building()
    t.pause(True)
    order = sent_order(t)
    t.submit(next(a for a in t.game.legal_actions() if isinstance(a, Build)))
    assert order[:1] == ["map"] and "panel" in order, order
    assert_shows_a_fresh_build(t, "a house built")


def test_with_two_humans_the_map_follows_the_bot_to_act():
    """No viewer while a bot plays: the map's (empty) plan takes the colour of the player to act."""
    g = new_game([YOU, "Bo", "Cy"], seed=7)
    t = Table(g, bots={"Bo": "random"}, delay=0)
    t.pause(True)
    while g.current_player != "Bo":
        t.submit(g.legal_actions()[0])
    assert t.viewer() is None
    assert_shows_a_fresh_build(t, "the bot to act")


def test_with_two_humans_the_resources_view_drops_the_player_lines_while_a_bot_plays():
    g = new_game([YOU, "Bo", "Cy"], seed=7)
    t = Table(g, bots={"Bo": "random"}, delay=0)
    t.pause(True)
    fig = tab(t, "Resources")
    while g.current_player != "Bo":
        assert fig.layout.shapes  # a human's room and money lines
        t.submit(g.legal_actions()[0])
    assert "shapes" not in fig.to_plotly_json()["layout"]
    assert shown(fig) == fresh(t, "Resources")
