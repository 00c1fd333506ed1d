"""The live views of a table: the map (click a city) and tabs for the plant market (click a card),
resources, players and history, each a Plotly FigureWidget refreshed in place.

A view is refreshed only when what it shows changed (a cheap key from the public API), and a tab
only when it is visible, so a click costs one or two small figure updates.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from copy import deepcopy
from typing import TYPE_CHECKING, Any

import ipywidgets as w
import plotly.graph_objects as go

from .. import views

if TYPE_CHECKING:
    from ..game import Game

TABS = ("Plant market", "Resources", "Players", "History")


def keep_state(fig: go.FigureWidget) -> None:
    """Make a FigureWidget's synced state match its figure until a browser view reports in.

    Updates travel as one-shot messages that only an existing front-end model applies; a page that
    connects later (Voila runs the notebook first) would get the constructor state. So until a view
    has drawn the figure (it then reports trace and layout deltas), every update also rewrites the
    widget state.
    """
    shown: list[bool] = []

    def seen(_change: Any) -> None:
        shown.append(True)

    fig.observe(seen, names=["_js2py_traceDeltas", "_js2py_layoutDelta"])

    def sync() -> None:
        if not shown:
            fig._widget_data = deepcopy(fig._data)
            fig._widget_layout = deepcopy(fig._layout_obj._props)

    fig._pg_sync = sync


def synced_update(fig: go.FigureWidget, g: Game, **changes: Any) -> None:
    """``views.update`` plus :func:`keep_state`'s state rewrite."""
    views.update(fig, g, **changes)
    sync = getattr(fig, "_pg_sync", None)
    if sync is not None:
        sync()


class Board:
    """The figures of one game at a table (``table`` gives the viewer, the plan and click targets)."""

    def __init__(self, table: Any, g: Game, height: int = 560) -> None:
        self.table = table
        self.game = g
        self.keys: dict[str, Hashable] = {}
        # a fixed title (the status line has round and phase): the map changes only with houses,
        # the step, the viewer and the build queue
        base = views.map_figure(g, player=table.viewer(), height=height, title=g.map.title,
                                link_hover=False)
        base.update_layout(autosize=True, width=None)
        self.map = go.FigureWidget(base)
        keep_state(self.map)
        for trace in self.map.data:
            if trace.legendgroup == "regions":
                trace.on_click(self._city_click)
            elif trace.legendgroup in ("slots", "players") and trace.hoverinfo != "skip":
                trace.on_click(self._slot_click)  # a slot or a house is a click on its city
        self.keys["map"] = self._key("map")  # just built: the first refresh need not redo it
        self.figures: dict[str, go.FigureWidget | None] = dict.fromkeys(TABS)
        self.builders: dict[str, Callable[[Game], go.Figure]] = {
            "Plant market": lambda g: views.plants_figure(g, height=430),
            "Resources": lambda g: views.resources_figure(g, player=self.table.viewer(), height=560),
            "Players": lambda g: views.players_figure(g, height=400),
            "History": lambda g: views.history_figure(g, height=700)}
        self.tabs = w.Tab(children=[w.VBox() for _ in TABS], titles=list(TABS), selected_index=0)
        self.tabs.add_class("pg-tabs")
        self.tabs.observe(lambda _c: self.refresh(), names="selected_index")

    # --- keys: what each view shows, from cheap public facts ---------------------------------------
    def _key(self, name: str) -> Hashable:
        g, t = self.game, self.table
        who = t.viewer()
        everyone = g.participants  # the Trust builds and holds tokens too (R128-R133)
        if name == "map":
            houses = tuple(tuple(g.cities_of(p)) for p in everyone)
            marks = len(g.actions) if g.phase == 0 else 0  # start-city marks (R134)
            return (g.step, who, houses, marks, tuple(t.plan()), g.is_over)
        if name == "Plant market":
            bid = g.auction[:3] if g.auction is not None else ()  # plant, high bid, leader
            return (g.step, tuple(g.current_market()), tuple(g.future_market()), bid, g.round)
        tokens = tuple(tuple(g.tokens_of(p).values()) for p in everyone)
        if name == "Resources":
            return (g.round, g.phase, g.step, who, tokens)
        if name == "Players":
            return (g.round, g.phase, g.current_player, tokens, tuple(map(g.money, g.players)),
                    tuple(tuple(g.plants_of(p)) for p in everyone),
                    tuple(len(g.cities_of(p)) for p in everyone))
        return (g.round, g.is_over)  # History: per round

    def _stale(self, name: str) -> bool:
        key = self._key(name)
        if self.keys.get(name) == key:
            return False
        self.keys[name] = key
        return True

    # --- refresh -------------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Update the map and the visible tab if what they show changed."""
        g = self.game
        if self._stale("map"):
            synced_update(self.map, g, player=self.table.viewer(), plan=self.table.plan())
        name = TABS[self.tabs.selected_index or 0]
        if not self._stale(name):
            return
        fig = self.figures[name]
        if fig is None:
            fig = self.figures[name] = go.FigureWidget(self.builders[name](g))
            keep_state(fig)
            if name == "Plant market":
                fig.data[0].on_click(self._plant_click)  # trace 0: the current market's cards
            self.tabs.children[TABS.index(name)].children = [fig]
        elif name == "Resources":
            synced_update(fig, g, player=self.table.viewer())
        else:
            synced_update(fig, g)

    # --- clicks ----------------------------------------------------------------------------------------
    def _city_click(self, trace: Any, points: Any, _state: Any) -> None:
        for i in points.point_inds:
            self.table.city_clicked(str(trace.text[i]))

    def _slot_click(self, trace: Any, points: Any, _state: Any) -> None:
        for i in points.point_inds:
            self.table.city_clicked(str(trace.customdata[i][0]))

    def _plant_click(self, trace: Any, points: Any, _state: Any) -> None:
        for i in points.point_inds:
            self.table.plant_clicked(int(trace.customdata[i][0]))

    def close(self) -> None:
        for fig in (self.map, *self.figures.values()):
            if fig is not None:
                fig.close()
        self.tabs.close()
