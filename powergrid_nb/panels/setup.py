"""The new-game form: players and seats (human or bot), edition, map, regions (a list or a click on
the small region map, or at random), seed and options; Start builds the game with ``new_game``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as w
import plotly.graph_objects as go

from powergrid_nb.engine.board.maps import DEFAULT_MAP, builtin_maps, load_map
from powergrid_nb.engine.editions import (
    DEFAULT_EDITION,
    EDITIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    get_edition,
)
from powergrid_nb.engine.newgame import new_game
from powergrid_nb.engine.options import DEFAULT_NAMES

from ._widgets import (
    ERROR,
    HUMAN,
    LiveFigure,
    button,
    close_all,
    esc,
    heading,
    label,
    note,
    seat_kinds,
    tree,
    with_class,
)


def region_figure(map_name: str, edition: str, chosen: list[str]) -> go.Figure:
    """The cities of a map coloured by region, the chosen regions bold (click a city: its region)."""
    m = load_map(map_name, edition)
    fig = go.Figure()
    for region, colour in m.regions.items():
        cities = [c for c in m.cities.values() if c.region == region]
        on = region in chosen
        fig.add_trace(go.Scatter(x=[c.lon for c in cities], y=[c.lat for c in cities], mode="markers",
                                 name=region, text=[region] * len(cities),
                                 hovertemplate="%{text}<extra></extra>",
                                 marker=dict(size=11 if on else 8, color=colour, opacity=1 if on else 0.3,
                                             line=dict(width=1.5 if on else 0, color="#000000"))))
    fig.update_layout(height=300, width=360, margin=dict(l=5, r=5, t=30, b=5), showlegend=False,
                      title=dict(text="regions (click to choose)", font=dict(size=13)),
                      xaxis=dict(visible=False), yaxis=dict(visible=False, scaleanchor="x", scaleratio=1.4),
                      plot_bgcolor="white")
    return fig


class SetupForm(w.VBox):
    """Fill in and press Start; ``on_start(game, bots, delay)`` receives the new game."""

    def __init__(self, on_start: Callable[[Any, dict[str, str], float], None],
                 on_cancel: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.add_class("pg-setup")
        self.on_start = on_start
        self.players = with_class(w.IntSlider(value=4, min=MIN_PLAYERS, max=MAX_PLAYERS,
                                              description="players"), "pg-players")
        self.edition = with_class(w.Dropdown(options=list(EDITIONS), value=DEFAULT_EDITION,
                                             description="edition"), "pg-edition")
        self.map = with_class(w.Dropdown(options=builtin_maps(), value=DEFAULT_MAP, description="map"),
                              "pg-map")
        whole = w.Layout(width="auto")  # a checkbox's label at its length, not cut at the default width
        self.random_regions = with_class(w.Checkbox(value=True, description="random regions", indent=False,
                                                    layout=whole), "pg-random-regions")
        self.regions = with_class(w.SelectMultiple(options=[], rows=6, description="regions"), "pg-regions")
        self.seed = with_class(w.Text(value="", placeholder="random", description="seed",
                                      continuous_update=False), "pg-seed")
        self.starting = with_class(w.Checkbox(value=False, description="default starting cities (R134)",
                                              indent=False, layout=whole), "pg-starting-cities")
        self.trust = with_class(w.Checkbox(value=True, description="2 players Recharged: play against the "
                                           "Trust (R128)", indent=False, layout=whole), "pg-trust")
        self.delay = with_class(w.FloatSlider(value=0.6, min=0, max=3, step=0.1, description="bot delay"),
                                "pg-setup-delay")
        self.names: list[w.Text] = []
        self.kinds: list[w.Dropdown] = []
        self._rows: list[w.HBox] = []  # one per seat made so far, shown for the first n seats
        self.seat_box = w.VBox()
        self.region_map = LiveFigure(region_figure(DEFAULT_MAP, DEFAULT_EDITION, []))
        self.error = label(cls="pg-setup-error")
        start = button("Start", "pg-start", self.start, style="success")
        actions = [start] + ([button("Cancel", "pg-cancel", on_cancel)] if on_cancel else [])
        self.players.observe(lambda _c: self._seats(), names="value")
        for wid in (self.players, self.edition, self.map, self.random_regions):
            wid.observe(lambda _c: self._regions(), names="value")
        for wid in (self.players, self.edition):
            wid.observe(lambda _c: self._trust(), names="value")
        self._trust()
        self.regions.observe(lambda _c: self._draw_regions(), names="value")
        self._seats()
        self._regions()
        left = w.VBox([heading("New game of Power Grid"), self.players, self.seat_box, self.edition, self.map,
                       self.seed, self.starting, self.trust, self.delay])
        right = w.VBox([self.random_regions, self.regions, self.region_map])
        self.children = [w.HBox([left, right]), w.HBox(actions), self.error]

    # --- the seats ----------------------------------------------------------------------------------
    def _seats(self) -> None:
        n = self.players.value
        while len(self.names) < n:
            i = len(self.names)
            self.names.append(with_class(w.Text(value=DEFAULT_NAMES[i] if i else "You",
                                                continuous_update=False,
                                                layout=w.Layout(width="140px")), f"pg-name-{i}"))
            kind = HUMAN if i == 0 else "heuristic"
            self.kinds.append(with_class(w.Dropdown(options=seat_kinds(), value=kind,
                                                    layout=w.Layout(width="130px")), f"pg-kind-{i}"))
            self._rows.append(w.HBox([label(f"seat {i + 1}", width="60px"), self.names[i], self.kinds[i]]))
        self.seat_box.children = self._rows[:n]  # rows are kept, not made again: no widget is left open

    def close(self) -> None:
        """Close the form and all its parts, the seat rows not shown now included."""
        close_all(tree([*self.children, *self._rows]), set())
        super().close()

    def _trust(self) -> None:
        """The Trust's checkbox is live only where the edition lets a Trust play (R128)."""
        self.trust.disabled = not get_edition(self.edition.value).trust_plays(self.players.value)

    # --- the regions -------------------------------------------------------------------------------
    def needed(self) -> int:
        return get_edition(self.edition.value).regions(self.players.value)

    def _regions(self) -> None:
        m = load_map(self.map.value, self.edition.value)
        keep = [r for r in self.regions.value if r in m.regions]
        self.regions.options = list(m.regions)
        self.regions.value = keep
        self.regions.disabled = self.random_regions.value
        self.regions.description = f"choose {self.needed()}"
        fig = region_figure(self.map.value, self.edition.value, keep)
        with self.region_map.batch_update():
            self.region_map.data = []
            self.region_map.add_traces(fig.data)
            self.region_map.layout = fig.layout
        for trace in self.region_map.data:
            trace.on_click(self._region_click)

    def _draw_regions(self) -> None:
        chosen = set(self.regions.value)
        with self.region_map.batch_update():
            for t in self.region_map.data:
                on = t.name in chosen
                t.marker.size, t.marker.opacity = (11 if on else 8), (1 if on else 0.3)
                t.marker.line.width = 1.5 if on else 0

    def _region_click(self, trace: Any, points: Any, _state: Any) -> None:
        if not points.point_inds:
            return
        self.random_regions.value = False
        chosen = list(self.regions.value)
        if trace.name in chosen:
            chosen.remove(trace.name)
        else:
            chosen.append(trace.name)
        self.regions.value = [r for r in self.regions.options if r in chosen]

    # --- start ---------------------------------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """The ``new_game`` arguments and the bots the form describes."""
        n = self.players.value
        names = [t.value.strip() for t in self.names[:n]]
        seed = self.seed.value.strip()
        opts: dict[str, Any] = {"starting_cities": self.starting.value}
        if get_edition(self.edition.value).trust_plays(n):  # the edition says whether a Trust plays
            opts["trust"] = self.trust.value
        return {"players": names, "map": self.map.value, "edition": self.edition.value,
                "regions": None if self.random_regions.value else list(self.regions.value),
                "seed": int(seed) if seed else None, **opts}

    def bots(self) -> dict[str, str]:
        n = self.players.value
        return {t.value.strip(): k.value for t, k in zip(self.names[:n], self.kinds[:n], strict=True)
                if k.value != "human"}

    def start(self) -> None:
        try:
            args = self.settings()
            game = new_game(**args)
        except ValueError as e:  # bad names, seed, region count (messages name the rule)
            self.error.value = note(esc(e), ERROR)
            return
        self.on_start(game, self.bots(), self.delay.value)
