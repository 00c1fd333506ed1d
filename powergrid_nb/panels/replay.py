"""Replay a game in a widget: a round slider and decision steps over its history, the map, markets,
players, history and log of each position, and "Branch here" to play on (or edit) from it.

>>> from powergrid_nb import load
>>> Replay(load("game.json"))      # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

import ipywidgets as w
import plotly.graph_objects as go

from powergrid_nb import views
from powergrid_nb.position.replay import Recording, ReplayError
from powergrid_nb.views.dashboard import status_text

from ._widgets import ERROR, INFO, LiveFigure, button, esc, fit_box, fitted, label, note
from .board import map_box, synced_update
from .market import MarketView
from .snapshot import snapshot
from .toolbar import log_html

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

TABS = ("Plant market", "Resources", "Players", "History")


def _icon(b: w.Button, name: str) -> w.Button:
    """A Font Awesome icon before the text (the media-control characters are missing from many fonts)."""
    b.icon = name
    return b


def tab_figure(name: str, g: Game) -> go.Figure:
    """The figure of a tab (not the plant market), as wide as the tab: without autosize Plotly draws
    700 px in a wider tab and the History tab's subplot titles run into each other."""
    if name == "Resources":
        fig = views.resources_figure(g, height=560)
    elif name == "Players":
        fig = views.players_figure(g)
    else:
        fig = views.history_figure(g, height=700)
    return fig.update_layout(autosize=True, width=None)


class Replay(w.VBox):
    """Step through a game's history: ``game`` as it is now (later moves are not followed).

    ``at``: the position first shown (decisions from the start; default the last). ``on_branch``:
    called with an independent copy of the position shown when "Branch here" is clicked; without it,
    the click offers to open that position in the play table (or the scenario editor) below.
    ``height``: the map's (None: laid out as the play table lays it out, as tall as the map across
    its box; a shorter map of a tall country crowds its names).
    """

    def __init__(self, game: Game, *, on_branch: Callable[[Game], Any] | None = None,
                 at: int | None = None, height: int | None = None) -> None:
        super().__init__(layout=w.Layout(width="100%"))
        self.add_class("pg-replay")
        self.recording = rec = Recording(game)
        self.on_branch = on_branch
        self.height = height
        k = rec.total if at is None else at
        if not rec.start <= k <= rec.total:
            raise ReplayError(f"at: a position from {rec.start} to {rec.total} (decisions made), "
                              f"not {at!r}")
        self.k = k
        self.position = rec.position(k)
        self.starts = rec.round_starts()
        self.first = _icon(button("First", "pg-replay-first", lambda: self.show(rec.start),
                                  tooltip="the first position (the start)"), "fast-backward")
        self.back = _icon(button("Back", "pg-replay-back", lambda: self.show(self.k - 1),
                                 tooltip="one decision back"), "step-backward")
        self.forward = _icon(button("Next", "pg-replay-next", lambda: self.show(self.k + 1),
                                    tooltip="one decision on"), "step-forward")
        self.last = _icon(button("Last", "pg-replay-last", lambda: self.show(rec.total),
                                 tooltip="the last position"), "fast-forward")
        rounds = list(self.starts)
        self.slider = w.IntSlider(value=self._round(k), min=rounds[0], max=rounds[-1],
                                  description="Round", continuous_update=False,
                                  disabled=len(rounds) < 2, readout=True,
                                  layout=w.Layout(width="340px"), _dom_classes=("pg-replay-round",))
        self.slider.observe(self._slider_moved, names="value")
        self._moving = False  # set while show() moves the slider (not a user's jump)
        self.counter = label(cls="pg-replay-count", width="150px")
        self.status = label(cls="pg-replay-status")
        self.where = label(cls="pg-replay-where")
        self.note = label(self._problem_note(), cls="pg-replay-note")
        self.log_view = label(cls="pg-log")
        self.branch = button("Branch here", "pg-replay-branch", self._branch, style="primary",
                             tooltip="play on (or edit) from this position; the replay stays as it is")
        self.choices = w.VBox()
        self.choices.add_class("pg-replay-choices")
        self.branched = w.VBox(layout=w.Layout(width="100%"))
        self.branched.add_class("pg-replay-branched")
        self._view_keys: dict[str, Hashable] = {}
        self.map = self._map_widget()
        self.figures: dict[str, go.FigureWidget | MarketView | None] = dict.fromkeys(TABS)
        self.tabs = w.Tab(children=[fit_box() for _ in TABS], titles=list(TABS), selected_index=0)
        self.tabs.add_class("pg-tabs")
        self.tabs.observe(lambda _c: self.refresh(), names="selected_index")
        controls = w.HBox([self.first, self.back, self.slider, self.forward, self.last, self.counter],
                          layout=w.Layout(align_items="center", flex_flow="row wrap"))
        controls.add_class("pg-replay-controls")
        right = w.VBox([self.where, self.note, w.HBox([self.branch]), self.choices, self.log_view],
                       layout=w.Layout(width="440px", min_width="380px", padding="0 0 0 8px"))
        board = w.HBox([map_box(game, self.map, self.height), right],
                       layout=w.Layout(width="100%", flex_flow="row wrap"))
        self.children = [self.status, controls, board, self.tabs, self.branched]
        self.refresh()

    # --- moving ------------------------------------------------------------------------------------
    def show(self, k: int) -> None:
        """Show the position after ``k`` decisions (kept within the positions that can be shown)."""
        rec = self.recording
        k = max(rec.start, min(rec.total, k))
        if k != self.k:
            self.k = k
            self.position = rec.position(k)
            self.choices.children = []  # choices were for the position branched from
        self.refresh()

    def show_round(self, round: int) -> None:
        """Show the start of ``round`` (its first position)."""
        if round not in self.starts:
            raise ReplayError(f"round {round} is not in this game's history: rounds "
                              f"{min(self.starts)} to {max(self.starts)}")
        self.show(self.starts[round])

    def _round(self, k: int) -> int:
        return self.recording.round_phase(k)[0]

    def _slider_moved(self, change: dict[str, Any]) -> None:
        if not self._moving:
            self.show_round(change["new"])

    # --- what is shown ------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Bring the labels, buttons, slider, map and the visible tab up to the position shown."""
        rec, g, k = self.recording, self.position, self.k
        self.first.disabled = self.back.disabled = k <= rec.start
        self.forward.disabled = self.last.disabled = k >= rec.total
        self._moving = True
        try:
            self.slider.value = self._round(k)
        finally:
            self._moving = False
        self.counter.value = f"decision {k} of {rec.total}"
        self.where.value = f"<div style='line-height:1.35;padding:4px 0'><b>{esc(rec.label(k))}</b></div>"
        self.status.value = f"<div style='font-size:1.15em;padding:4px 0'><b>{esc(status_text(g))}</b></div>"
        self.log_view.value = log_html(g)
        if self._stale("map"):
            synced_update(self.map, g)
        name = TABS[self.tabs.selected_index or 0]
        if not self._stale(name):
            return
        box = self.tabs.children[TABS.index(name)]
        view = self.figures[name]
        if name == "Plant market":
            html = views.plants_html(g, style=False)  # MarketView has the style
            if view is None:
                self.figures[name] = MarketView(html, lambda _plant: None)  # shown, not played
                box.children = [self.figures[name]]
            else:
                view.html = html
        elif view is None:
            fig = self.figures[name] = LiveFigure(tab_figure(name, g))
            box.children = fitted(fig)
        else:
            synced_update(view, g)

    def _map_widget(self) -> go.FigureWidget:
        g = self.position
        base = views.map_figure(g, height=self.height, title=g.map.title, link_hover=False)
        base.update_layout(autosize=True, width=None)
        fig = LiveFigure(base)
        self._view_keys["map"] = self._key("map")
        return fig

    def _key(self, name: str) -> Hashable:
        """Equal keys, equal views: the map shows the houses (the step sets the slots open) and
        colours its (empty) build plan for the player to act; every other view is rebuilt at each
        position."""
        g = self.position
        if name == "map":
            houses = tuple(sorted((c, tuple(o)) for c, o in g.houses().items()))
            return (g.step, g.is_over, g.current_player, houses, tuple(g.marked_cities))
        return self.k

    def _stale(self, name: str) -> bool:
        key = self._key(name)
        if self._view_keys.get(name) == key:
            return False
        self._view_keys[name] = key
        return True

    def _problem_note(self) -> str:
        rec = self.recording
        if rec.problem is None:
            return ""
        return note(f"Only positions from decision {rec.start} (where the game was loaded) on can be "
                    f"shown: {esc(rec.problem)}", INFO)

    # --- branching ----------------------------------------------------------------------------------
    def _branch(self) -> None:
        g = self.position.copy()  # the position shown, independent of the replay
        if self.on_branch is not None:
            self.on_branch(g)
            return
        where = f"after decision {self.k}" if self.k else "at the start"
        buttons = [button("Play on at a table", "pg-replay-to-table", lambda: self._open("table", g),
                          tooltip="play on from here at a table (the replay stays as it is)"),
                   button("Edit as a scenario", "pg-replay-to-editor", lambda: self._open("editor", g),
                          tooltip="edit this position in the scenario editor")]
        self.choices.children = [
            label(note(f"Open the position {where} below the replay:"), cls="pg-replay-branch-what"),
            w.HBox(buttons, layout=w.Layout(flex_flow="row wrap"))]

    def _open(self, where: str, g: Game) -> None:
        """Show the branched position below the replay, in the play table or the scenario editor."""
        try:  # loaded on the click: most replays never branch
            if where == "table":
                from .table import play

                opened: w.Widget = play(g)
            else:
                from .editor import ScenarioEditor

                opened = ScenarioEditor(g)
        except ValueError as e:
            self.choices.children = [label(note(f"cannot open it: {esc(e)}", ERROR), cls="pg-replay-error")]
            return
        close = button("✕ Close", "pg-replay-close", self._close_branch, tooltip="close the branched game")
        for old in self.branched.children:
            old.close()
        self.branched.children = [w.HBox([label(note(f"<b>Branched from: {esc(self.recording.label(self.k))}"
                                                      "</b>")), close]), opened]
        self.choices.children = []

    def _close_branch(self) -> None:
        for old in self.branched.children:
            old.close()
        self.branched.children = []

    def close(self) -> None:
        """Close the replay's widgets (the figures and a branched game too)."""
        self._close_branch()
        for view in (self.map, *self.figures.values()):
            if view is not None:
                view.close()
        super().close()

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """Everything the replay shows now, as plain data (:func:`powergrid_nb.panels.snapshot.snapshot`)."""
        return snapshot(self)
