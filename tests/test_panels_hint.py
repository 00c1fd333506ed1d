"""The table's Hint button: the engine's suggestion for the human's decision, worked out in
the background (the kernel's loop stays free), cancellable, of one position only, never applied."""

from __future__ import annotations

import asyncio
import html
import json
import time

import plotly.graph_objects as go
from _panels import (
    YOU,
    assert_shows_a_fresh_build,
    click,
    click_errors_fail,  # noqa: F401 (autouse)
    game_at,
    one,
    table_for,
)

from powergrid_nb import Pass, new_game
from powergrid_nb.panels import Table
from powergrid_nb.play.analysis import analyze
from powergrid_nb.views.analysis import analysis_figure


def hinted_table(playouts: int = 4) -> Table:
    t = table_for(game_at(2, round=3), bot="heuristic")
    t.hints.playouts = playouts
    return t


def test_hints_are_on_when_a_human_plays_and_off_in_a_bot_only_game() -> None:
    t = hinted_table()
    assert t.hints.enabled.value and t.hints.hint.layout.display is None
    assert t.hints.progress.layout.display == "none"  # no empty bar before a hint is asked for
    g = new_game(["Bo", "Cy"], seed=1)
    t = Table(g, bots={"Bo": "random", "Cy": "random"}, delay=3600)
    assert not t.hints.enabled.value
    assert t.hints.hint.layout.display == "none"


def test_turning_hints_off_hides_the_hint_controls_and_nothing_else() -> None:
    t = hinted_table()
    t.hints.enabled.value = False
    assert t.hints.hint.layout.display == "none" and t.hints.status.layout.display == "none"
    for x in (t.status, t.message, t.log_view, t.toolbar.save, t.toolbar.undo):
        assert x.layout.display is None, x  # labels and buttons share a layout: it must never be hidden


def test_a_hint_shows_the_engines_suggestion_and_its_figure() -> None:
    t = hinted_table()
    g = t.game
    seed = g.seed * 1000 + len(g.actions)
    want = analyze(g.copy(), playouts=4, seed=seed, progress=False, time_budget=30,
                   stop_when_separated=True)
    click(t, "pg-hint")
    a = t.hints.analysis
    assert a is not None and a.suggestion == want.suggestion
    bar = t.hints.progress
    assert bar.layout.display is None and bar.value == a.playouts * len(a.candidates)
    text, fig = t.hints.result.children
    assert html.escape(want.suggestion) in text.value and "Nothing is played for you" in text.value
    shown = json.loads(go.Figure(fig).to_json())
    fresh = json.loads(analysis_figure(want, width=760).to_json())
    for trace in shown["data"]:
        trace.pop("uid", None)  # a FigureWidget names its traces; never drawn
    assert shown["data"] == fresh["data"]
    assert shown["layout"]["title"] == fresh["layout"]["title"]
    assert len(want.candidates) >= 3


def test_a_hint_by_search_bots_keeps_to_its_time_budget() -> None:
    t = hinted_table(playouts=40)
    t.hints.bots, t.hints.time_budget = "search", 0.5
    click(t, "pg-hint")
    a = t.hints.analysis
    assert a is not None and a.partial and a.stopped_by == "time budget"
    assert "stopped by time budget" in t.hints.status.value


def test_a_hint_applies_nothing() -> None:
    t = hinted_table()
    before = t.game.to_dict()
    click(t, "pg-hint")
    assert t.game.to_dict() == before
    assert t.game.current_player == YOU


def test_a_move_drops_the_hint_of_the_position_before() -> None:
    t = hinted_table()
    click(t, "pg-hint")
    assert t.hints.result.children
    t.submit(Pass(YOU))
    assert t.hints.result.children == () and t.hints.analysis is None
    assert_shows_a_fresh_build(t)


def test_undo_drops_the_hint_too() -> None:
    t = hinted_table()
    click(t, "pg-hint")
    t.undo()
    assert t.hints.result.children == ()


def test_the_hint_button_is_off_on_a_bots_turn_unless_the_bots_are_paused() -> None:
    async def main() -> tuple[bool, bool]:
        g = new_game([YOU, "Bo"], seed=2)
        t = Table(g, bots={"Bo": "random"}, delay=3600)  # Bo waits for the timer
        if g.current_player == YOU:
            t.submit(Pass(YOU) if t.game.is_legal(Pass(YOU)) else t.game.legal_actions()[0])
        assert t.game.current_player == "Bo"
        on_bots_turn = one(t, "pg-hint").disabled
        t.pause(True)
        return on_bots_turn, one(t, "pg-hint").disabled

    assert asyncio.run(main()) == (True, False)


def test_switching_hints_off_hides_the_button() -> None:
    t = hinted_table()
    t.hints.enabled.value = False
    assert t.hints.hint.layout.display == "none" and t.hints.hint.disabled


def test_the_hint_runs_in_the_background_and_cancel_stops_it() -> None:
    async def main() -> tuple[int, object]:
        t = hinted_table(playouts=5000)
        t.hints.time_budget = 120
        click(t, "pg-hint")
        assert t.hints.running and not t.hints.cancel_button.disabled
        ticks = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 0.5:  # the loop keeps running while the thread works
            await asyncio.sleep(0.01)
            ticks += 1
        click(t, "pg-hint-cancel")
        for _ in range(500):
            if not t.hints.running:
                break
            await asyncio.sleep(0.01)
        return ticks, t.hints.analysis

    ticks, a = asyncio.run(main())
    assert ticks >= 10
    assert a is not None and a.partial and a.stopped_by == "stop"


def test_a_hint_finished_after_a_move_is_not_shown() -> None:
    async def main() -> Table:
        t = hinted_table(playouts=5000)
        t.hints.time_budget = 1.0
        click(t, "pg-hint")
        t.submit(Pass(YOU))
        for _ in range(300):
            await asyncio.sleep(0.01)
        return t

    t = asyncio.run(main())
    assert t.hints.result.children == () and not t.hints.running
