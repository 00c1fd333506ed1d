"""The live views of a table: the map (click a city), a tab for the plant market (HTML cards, click
one) and tabs for resources, players and history, each a Plotly FigureWidget refreshed in place.

A view is refreshed only when what it shows changed (a key of every public fact it reads: the same
key, the same figure), and a tab only when it is visible, so a click costs one or two figure updates.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets as w
import plotly.graph_objects as go

from powergrid_nb import views
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.engine.rules.plants import PLANTS, RESOURCES
from powergrid_nb.views.mapboard import EDGE, MARGIN, fit_height, land_box, table_width

from ._widgets import FitMap, LiveFigure, fit_box, fitted, shared
from .market import MarketView
from .rules import RulesView

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

FIGURE_TABS = ("Resources", "Players", "History")
# Plant market: HTML cards (panels/market.py), replaced in place: a Plotly market redrawn whole at
# every move took most of a click's time. Rules: the rules of the phase being played (panels/rules.py)
TABS = ("Plant market", *FIGURE_TABS, "Rules")


def synced_update(fig: go.FigureWidget, g: Game, **changes: Any) -> None:
    """``views.update`` of a figure shown (a :class:`LiveFigure` gives a page connecting later the
    figure as it is then)."""
    views.update(fig, g, **changes)


def in_view(g: Game) -> list[float]:
    """How tall the map of ``g`` is for its width, for a page that keeps the whole map in view
    (:class:`~powergrid_nb.panels._widgets.FitMap`'s ``within``): from the figure's top (its title) to
    the land's bottom it is ``over + (width - beside) * ratio`` px; returns [ratio, over, beside, least],
    ``least`` the width it is laid out for (no narrower: its labels stay clear)."""
    box = land_box(g)
    ratio = (box[3] - box[1]) / (box[2] - box[0])
    return [ratio, MARGIN["t"] + 2 * EDGE, MARGIN["l"] + MARGIN["r"] + 2 * EDGE, table_width(g)]


def map_box(g: Game, fig: go.FigureWidget, height: int | None = None,
            also: Sequence[go.FigureWidget] = ()) -> w.Box:
    """The box a live map of ``g`` laid out as the table lays it out (``height`` px at
    :func:`~powergrid_nb.views.mapboard.table_width`; None: ``views.map_figure``'s default height) is
    shown in: as wide as the room it is given, never narrower than that width, no wider than keeps the
    whole map in the window's height, and as tall as the map across its width (``also``: figures drawn
    over it, given the same size)."""
    width = table_width(g)
    height = height or fit_height(g, width)
    fit = FitMap(fig, height=lambda across: fit_height(g, across, least=height), also=also,
                 within=in_view(g), layout=shared(w.Layout, display="none"))
    box = w.Box([fig, *also, fit], layout=w.Layout(flex=f"1 1 {width}px", min_width=f"{width}px"))
    box.add_class("pg-map-box")
    return box


class Board:
    """The figures of one game at a table (``table`` gives the viewer, the plan and click targets)."""

    def __init__(self, table: Any, g: Game, height: int | None = None) -> None:
        self.table = table
        self.game = g
        self.keys: dict[str, Hashable] = {}
        # a fixed title (the status line has round and phase), so the map changes only with what its key
        # holds; it opens with the panel's build plan, as every later refresh draws it. It is laid out
        # for the narrowest box the table gives it; its height (None: the map's own) shows the map
        # across that box
        self.width = table_width(g)  # the narrowest box the table gives the map
        self.height = height or fit_height(g, self.width)
        # Two figures over each other (views.map_figure's layers): a browser draws a figure anew at
        # every update, and the board (outline, links, names: most of the drawing) changes only with
        # the play area, so a click redraws the pieces only (docs/benchmarks.md, "Map clicks"). Both
        # are fixed (no zoom): the two must stay one over the other.
        self.map, self.pieces = (LiveFigure(self._layer(g, layer)) for layer in ("board", "pieces"))
        self.pieces.add_class("pg-map-pieces")
        # as wide as its box, and as tall as the map at that width: panels/_widgets.FitMap (fit_map)
        for trace in self.pieces.data:
            if trace.legendgroup == "regions":
                trace.on_click(self._city_click)
            elif trace.legendgroup in ("slots", "players") and trace.hoverinfo != "skip":
                trace.on_click(self._slot_click)  # a slot or a house is a click on its city
        self.keys["map"] = self._key("map")  # just built: the first refresh need not redo them
        self.keys["board"] = self._key("board")
        self.figures: dict[str, go.FigureWidget | None] = dict.fromkeys(FIGURE_TABS)
        self.market: MarketView | None = None
        self.rules = RulesView()
        self.builders: dict[str, Callable[[Game], Any]] = {
            # MarketView has the style
            "Plant market": lambda g: views.plants_html(g, style=False, selected=self.table.chosen_plant()),
            "Resources": lambda g: views.resources_figure(g, player=self.table.viewer(), height=560),
            "Players": lambda g: views.players_figure(g),  # its height: a row per participant
            "History": lambda g: views.history_figure(g, height=700)}
        self.tabs = w.Tab(children=[fit_box() if t in FIGURE_TABS else w.VBox() for t in TABS],
                          titles=list(TABS), selected_index=0)
        self.tabs.add_class("pg-tabs")
        self.tabs.observe(lambda _c: self.refresh(), names="selected_index")

    def _layer(self, g: Game, layer: str) -> go.Figure:
        """A layer of the map as the table opens it: laid out for its narrowest box, fixed. The board
        is no one's (no costs, no plan: it has a plan's legend entry whoever plans)."""
        who = dict(player=self.table.viewer(), plan=self.table.plan()) if layer == "pieces" else dict(plan=[])
        fig = views.map_figure(g, **who, height=self.height, width=self.width, title=g.map.title,
                               link_hover=False, layer=layer)
        fig.update_layout(autosize=True, width=None, dragmode=False)
        fig.update_xaxes(fixedrange=True)
        fig.update_yaxes(fixedrange=True)
        return fig

    # --- keys: everything each view shows depends on, from cheap public facts -----------------------
    def _key(self, name: str) -> Hashable:
        """Equal keys, equal figures: each view's key holds every fact the view reads (its title's
        round, phase and step too), so a view is rebuilt exactly when what it shows changed
        (tests/test_panels_fresh.py compares the table with a fresh build after every move)."""
        g, t = self.game, self.table
        who = t.viewer()
        everyone = g.participants  # the Trust builds and holds tokens too (R128-R133)
        when = (g.round, g.phase, g.phase_name, g.step, g.is_over)
        if name == "board":  # the play area (links and cities in or out of it)
            return tuple(g.regions)
        if name == "map":  # a fixed title; houses, slots, the viewer's costs and the build plan
            plan = tuple(t.plan())
            planner = who if who is not None else g.current_player  # the plan's owner and colour
            money = g.money(planner) if plan and planner is not None else None  # R64 in the plan
            houses = tuple(sorted((c, tuple(o)) for c, o in g.houses().items()))
            return (g.step, g.is_over, who, planner, plan, money, houses, tuple(g.marked_cities))
        if name == "Plant market":
            cards = tuple(g.current_market()), tuple(g.future_market())
            shown = [n for n in cards[0] + cards[1] if n in PLANTS]
            bid = g.auction[:3] if g.auction is not None else ()  # plant, high bid, leader
            choices = g.bid_choices()
            openable = frozenset(x for x, bids in choices.openings.items() if bids) if choices else \
                frozenset()
            # "Bo to open a plant or pass" (or not pass, R35; or discard, R36)
            opener = g.current_player if g.phase == Phase.AUCTION and not bid else None
            may_pass = bool(choices and choices.may_pass)
            return (when, opener, g.discarding, may_pass, t.chosen_plant(), cards, bid, openable, g.discount,
                    tuple(g.min_bid(n) for n in shown), tuple(g.fuel_cost(n) for n in shown))
        holdings = tuple((g.money(p), tuple(g.plants_in_order(p)), tuple(g.tokens_of(p).values()),
                          g.city_count(p)) for p in everyone)
        if name == "Resources":
            market = (tuple(g.resource_market().values()), tuple(g.resource_supply().values()),
                      tuple(g.next_refill().values()), tuple(g.depot_price(r) for r in RESOURCES))
            return (when, who, market, holdings)
        if name == "Players":
            return (when, g.current_player, tuple(g.player_order), holdings)
        # History: per round and participant; in phase 5 each run of plants adds cities powered
        return (when, g.current_player if g.phase == Phase.BUREAUCRACY else None, holdings)

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
        if self._stale("board"):
            synced_update(self.map, g)
        if self._stale("map"):
            synced_update(self.pieces, g, player=self.table.viewer(), plan=self.table.plan())
        name = TABS[self.tabs.selected_index or 0]
        if name == "Rules":
            self.rules.refresh(g)
            self.tabs.children[TABS.index(name)].children = [self.rules.widget]
            return
        if not self._stale(name):
            return
        if name == "Plant market":
            html = self.builders[name](g)
            if self.market is None:
                self.market = MarketView(html, self.table.plant_clicked)
                self.tabs.children[0].children = [self.market]
            else:
                self.market.html = html
            return
        fig = self.figures[name]
        if fig is None:
            fig = self.figures[name] = LiveFigure(self.builders[name](g))
            self.tabs.children[TABS.index(name)].children = fitted(fig)
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

    def close(self) -> None:
        for fig in (self.map, self.pieces, self.market, *self.figures.values()):
            if fig is not None:
                fig.close()
        self.tabs.close()
