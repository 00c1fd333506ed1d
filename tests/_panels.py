"""Helpers for the play-panel tests (powergrid_nb.panels): find widgets by their ``pg-…`` class, click
them, and bring a game to a given phase with a human seat and bots.

Widgets work without a kernel: ``button.click()`` fires its handlers and setting ``.value`` fires
observers, so the tests drive a table exactly as a player would and assert on Python objects.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from copy import deepcopy
from typing import Any

import ipywidgets as w
import pytest
from ipywidgets.widgets.widget import CallbackDispatcher
from plotly.callbacks import Points

from powergrid_nb import Game, new_game
from powergrid_nb.bots import RandomBot, play
from powergrid_nb.panels import Table
from powergrid_nb.panels._widgets import close_all, tree
from powergrid_nb.panels.snapshot import diff

YOU = "You"
NAMES = [YOU, "Bo", "Cy"]
YOU_FIRST = 5  # seed: player order You, Cy, Bo (You opens round 1)
BOTS_FIRST = 2  # seed: player order Bo, Cy, You (the bots open round 1)


@pytest.fixture(autouse=True)
def click_errors_fail():
    """A click handler that raises fails the test (ipywidgets only logs it, as a kernel would show it).

    Autouse in every test module that imports it.
    """

    def call(self: CallbackDispatcher, *args: Any, **kwargs: Any) -> Any:
        value = None
        for callback in self.callbacks:
            local = callback(*args, **kwargs)
            value = local if local is not None else value
        return value

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(CallbackDispatcher, "__call__", call)
        yield


def walk(widget: Any) -> Iterator[Any]:
    """The widget and every widget inside it (children of boxes and tabs), depth first."""
    yield widget
    for child in getattr(widget, "children", ()) or ():
        yield from walk(child)


def classes(widget: Any) -> tuple[str, ...]:
    return tuple(getattr(widget, "_dom_classes", ()) or ())


def find(root: Any, cls: str) -> list[Any]:
    """The widgets under ``root`` carrying the CSS class ``cls`` (e.g. ``"pg-plant"``)."""
    return [x for x in walk(root) if cls in classes(x)]


def one(root: Any, cls: str) -> Any:
    """The single widget carrying ``cls``."""
    found = find(root, cls)
    assert len(found) == 1, f"{len(found)} widgets with class {cls!r}"
    return found[0]


def has(root: Any, cls: str) -> bool:
    return bool(find(root, cls))


def click(root: Any, cls: str) -> None:
    """Click the one enabled button with class ``cls``."""
    b = one(root, cls)
    assert isinstance(b, w.Button), b
    assert not b.disabled, f"{cls} is disabled"
    b.click()


def message(table: Table) -> str:
    """The text of the table's message line (``pg-message``)."""
    return one(table, "pg-message").value


def game_at(phase: int, round: int = 1, players: list[str] | None = None, seed: int = 1,
            who: str = YOU, **kw: Any) -> Game:
    """A game played by random bots until ``who`` is to act in ``phase`` of round ``round`` (or later)."""
    g = new_game(list(players or NAMES), seed=seed, **kw)
    bots = {p: RandomBot(seed + i) for i, p in enumerate(g.players)}
    play(g, bots, until=lambda h: h.round >= round and h.phase == phase and h.current_player == who)
    assert not g.is_over and g.phase == phase and g.current_player == who, g
    return g


def table_for(g: Game, human: str = YOU, bot: str = "random", delay: float = 0) -> Table:
    """A table where ``human`` plays by clicking and bots take every other seat."""
    return Table(g, bots={p: bot for p in g.players if p != human}, delay=delay)


def opening_table(**kw: Any) -> Table:
    """Round 1, You to open the first auction; bots Bo and Cy."""
    return table_for(new_game(NAMES, seed=YOU_FIRST, **kw))


def enabled_controls(root: Any) -> list[Any]:
    """The buttons and checkboxes a player could click now."""
    return [x for x in walk(root) if isinstance(x, w.Button | w.Checkbox) and not x.disabled]


def click_randomly(table: Table, rng: random.Random) -> None:
    """One random click among the enabled controls of the phase panel (ticking a checkbox, picking a
    list entry first when the panel shows a list)."""
    panel = table.actions
    for sel in find(panel, "pg-candidates") + find(panel, "pg-keep"):
        if sel.options and rng.random() < 0.5:
            opt = rng.choice(sel.options)
            sel.value = opt[1] if isinstance(opt, tuple) else opt
    controls = enabled_controls(panel)
    assert controls, f"nothing to click: {table.game!r}"
    c = rng.choice(controls)
    if isinstance(c, w.Checkbox):
        c.value = not c.value
    else:
        c.click()


def click_city(table: Table, city: str) -> None:
    """Click a city on the table's map (the plotly click of its marker)."""
    for trace in table.board.pieces.data:
        if trace.legendgroup == "regions" and city in trace.text:
            trace._dispatch_on_click(Points(point_inds=[list(trace.text).index(city)]), None)
            return
    raise AssertionError(f"no city {city!r} on the map")


def click_plant_card(table: Table, plant: int) -> None:
    """Click a plant card of the current market in the plant-market tab (the message its page sends)."""
    market = table.board.market
    assert market is not None, "the plant-market tab was never shown"
    assert f'data-plant="{plant}"' in market.html, f"no card {plant} in the current market"
    market._handle_custom_msg({"plant": plant}, [])


def plan_labels(table: Table) -> tuple[str, ...]:
    """The numbered plan markers the map shows (the build queue)."""
    trace = next(t for t in table.board.pieces.data if t.name == "plan order")
    return tuple(trace.text or ())


# --- what the table shows equals a fresh build -----------------------------------------------------------
class _Twin(Table):
    """A table that opens without the new-game form (its game comes from ``start``) and whose bots never
    move: it shows the position it is given, as a table whose bot is about to move does."""

    def show_setup(self) -> None:
        pass

    def run_bots(self) -> None:
        pass


def fresh_twin(t: Table) -> Table:
    """A table built anew on a copy of ``t``'s game with the same seats, bot delay and pause, the same
    tab selected, the panels' pending choices (a plant chosen, tokens counted, a build queue, plants
    ticked: the table's own state, no game's) and the message line (the echo of the last click)."""
    fresh = _Twin(delay=t.delay)
    for phase, panel in t._panels.items():
        pending = {k: v for k, v in vars(panel).items() if k != "table"}
        vars(fresh._panels[phase]).update(deepcopy(pending))
    fresh.start(t.game.copy(), dict(t.bots))
    if t.paused:
        fresh.pause(True)
    fresh.board.tabs.selected_index = t.board.tabs.selected_index
    fresh.hints.enabled.value = t.hints.enabled.value  # the player's switch, not the game's
    fresh.message.value = t.message.value
    return fresh


def assert_shows_a_fresh_build(t: Table, after: str = "") -> None:
    """``t`` shows exactly what a table built now on its game shows (:func:`fresh_twin`)."""
    fresh = fresh_twin(t)
    try:
        live, new = t.snapshot(), fresh.snapshot()
    finally:
        fresh.close()
        close_all(tree([fresh]), set())
    if live != new:
        lines = diff(live, new, limit=12)
        raise AssertionError(f"after {after}: the table differs from a fresh build "
                             f"(live != fresh):\n  " + "\n  ".join(lines))
