"""What every view shares: player colours, the view registry and in-place ``update``."""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

import pandas as pd
import plotly.graph_objects as go

if TYPE_CHECKING:
    from ..game import Game

# Okabe-Ito: distinguishable with the common colour-vision deficiencies. Players also get a marker
# symbol and their name in every legend and hover, so colour is never the only cue.
PLAYER_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9")
PLAYER_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "pentagon", "star")
TRUST_COLOR, TRUST_SYMBOL = "#7F7F7F", "x"
RESOURCE_COLORS = {"coal": "#7B4A2D", "oil": "#1A1A1A", "garbage": "#D4B000", "uranium": "#C62828"}
FONT = dict(family="Arial, Helvetica, sans-serif", size=14)

BUILDERS: dict[str, Callable[..., go.Figure]] = {}
_REFRESHING: ContextVar[bool] = ContextVar("refreshing", default=False)  # inside update()


def to_int(x: Any) -> int | None:
    """A frame's nullable integer as an int, or None for a missing value (pd.NA)."""
    return None if x is None or pd.isna(x) else int(x)


def player_color(g: Game, name: str) -> str:
    """A player's colour, fixed by their place in ``g.players`` (the same in every view)."""
    if name == g.trust:
        return TRUST_COLOR
    return PLAYER_COLORS[g.players.index(name) % len(PLAYER_COLORS)]


def player_symbol(g: Game, name: str) -> str:
    if name == g.trust:
        return TRUST_SYMBOL
    return PLAYER_SYMBOLS[g.players.index(name) % len(PLAYER_SYMBOLS)]


def view(name: str) -> Callable[[Callable[..., go.Figure]], Callable[..., go.Figure]]:
    """Register a figure builder under ``name``; the figure remembers its view and arguments, so
    :func:`update` can refresh it later."""

    def wrap(builder: Callable[..., go.Figure]) -> Callable[..., go.Figure]:
        @functools.wraps(builder)
        def build(g: Game, **kwargs: Any) -> go.Figure:
            fig = builder(g, **kwargs)
            fig.update_layout(meta={"view": name, "args": kwargs})
            return fig

        BUILDERS[name] = builder
        return build

    return wrap


class Sketch:
    """A view's figure while :func:`update` refreshes: its traces, annotations, shapes and title as
    plain dicts, with the few figure methods the views use. Building plotly objects for a figure that
    is only compared with the one shown was most of a refresh's cost."""

    def __init__(self, data: Any = None) -> None:
        self.data: list[dict] = []
        self.layout: dict[str, Any] = {}
        self.add_traces(list(data or []))

    def add_trace(self, trace: Any, row: int | None = None, col: int | None = None) -> Sketch:
        if row is not None or col is not None:
            raise TypeError("a Sketch has no subplots: build a subplot view with go.Figure")
        self.data.append(_plain(trace))
        return self

    def add_traces(self, traces: list[Any]) -> Sketch:
        self.data += [_plain(t) for t in traces]
        return self

    def update_layout(self, dict1: dict | None = None, overwrite: bool = False, **kwargs: Any) -> Sketch:
        for key, value in {**(dict1 or {}), **kwargs}.items():
            self.layout[key] = list(value) if key in ("annotations", "shapes") else value
        return self

    def add_annotation(self, arg: dict | None = None, **kwargs: Any) -> Sketch:
        self.layout.setdefault("annotations", []).append({**(arg or {}), **kwargs})
        return self

    def add_shape(self, arg: dict | None = None, **kwargs: Any) -> Sketch:
        self.layout.setdefault("shapes", []).append({**(arg or {}), **kwargs})
        return self

    def update_xaxes(self, *_args: Any, **_kwargs: Any) -> Sketch:  # update() keeps the shown axes
        return self

    update_yaxes = update_xaxes


def _plain(trace: Any) -> dict:
    """A trace as the dict of what it sets (a dict is taken as it is, "scatter" by default)."""
    if isinstance(trace, dict):
        return trace if "type" in trace else {"type": "scatter", **trace}
    return trace.to_plotly_json()


def new_figure(data: Any = None) -> go.Figure:
    """A view's figure (traces may be plotly objects or dicts). Inside :func:`update` it is a
    :class:`Sketch`: only the source of the properties copied into the figure being refreshed, which
    validates what it takes."""
    return Sketch(data) if _REFRESHING.get() else go.Figure(data)


def update(fig: go.Figure, g: Game, **changes: Any) -> go.Figure:
    """Refresh a view (a ``go.Figure`` or ``go.FigureWidget``) in place for the game's current state.

    Trace data, annotations and shapes are replaced; the figure object, and so a displayed widget,
    stays the same. ``changes`` override the view's arguments (e.g. ``player="Bo"``).
    """
    meta = fig.layout.meta
    if not isinstance(meta, dict) or meta.get("view") not in BUILDERS:
        raise ValueError("not a powergrid_nb view: build it with a powergrid_nb.views function")
    args = {**meta.get("args", {}), **changes}
    token = _REFRESHING.set(True)
    try:
        fresh = BUILDERS[meta["view"]](g, **args)
    finally:
        _REFRESHING.reset(token)
    if len(fresh.data) != len(fig.data):
        raise ValueError(f"the {meta['view']} view now has {len(fresh.data)} traces, the figure "
                         f"{len(fig.data)}: build a new figure for this game")
    data, items, title = _parts(fresh)
    # Only what changed is set: validating and sending unchanged traces is most of a refresh's cost.
    with fig.batch_update():
        for old, props in zip(fig.data, data, strict=True):
            before = _props(old)
            changed = {k: v for k, v in props.items() if k not in ("type", "uid") and before.get(k) != v}
            # clear what the fresh trace no longer sets
            changed.update({k: None for k in before if k not in props and k not in ("type", "uid")})
            if changed:
                old.update(changed, overwrite=True)
        emptied = [key for key in ("annotations", "shapes") if not items[key] and fig.layout[key]]
        for key in ("annotations", "shapes"):
            if key not in emptied:
                _update_items(fig.layout, key, items[key])
        if fig.layout.title.to_plotly_json() != title:
            fig.layout.title = title
        fig.layout.meta = {"view": meta["view"], "args": args}
    for key in emptied:  # unset, as a fresh figure has it (inside a batch, plotly would keep an empty list)
        fig.layout[key] = None
    return fig


def _parts(fresh: go.Figure | Sketch) -> tuple[list[dict], dict[str, list[dict]], dict]:
    """What update() copies from a fresh build: each trace's, annotation's and shape's properties as
    set, and the title."""
    if isinstance(fresh, Sketch):
        return (fresh.data, {k: fresh.layout.get(k, []) for k in ("annotations", "shapes")},
                fresh.layout.get("title", {}))
    return ([_props(t) for t in fresh.data],
            {k: [_props(o) for o in fresh.layout[k]] for k in ("annotations", "shapes")},
            fresh.layout.title.to_plotly_json())


def _props(obj: Any) -> dict[str, Any]:
    """A trace's or layout item's properties as set, read in place (``to_plotly_json`` copies them all,
    a third of an update's cost): only compared here, never changed."""
    return obj._props or {}


def _update_items(layout: Any, key: str, fresh: list[dict]) -> None:
    """Annotations or shapes: item by item when their number is unchanged (a browser redraws just
    the changed ones), else the whole list (merging would keep items the fresh figure no longer has)."""
    items = layout[key]
    if len(items) != len(fresh):
        layout[key] = fresh
        return
    for old, props in zip(items, fresh, strict=True):
        before = _props(old)
        changed = {k: v for k, v in props.items() if before.get(k) != v}
        changed.update({k: None for k in before if k not in props})
        if changed:
            old.update(changed, overwrite=True)


def refreshing() -> bool:
    """True while :func:`update` builds the fresh figure it copies from: it copies only the traces,
    annotations, shapes and title, so a view may skip the rest of its layout (axes, margins, legend)."""
    return _REFRESHING.get()


def base_layout(fig: go.Figure, title: str, **kw: Any) -> go.Figure:
    """The look every view shares: white background, readable font, room for a legend."""
    if _REFRESHING.get():  # update() copies the title alone (and keeps the figure's template)
        fig.update_layout(title=dict(text=title, x=0.01, xanchor="left"))
        return fig
    fig.update_layout(template="plotly_white")
    fig.update_layout(title=dict(text=title, x=0.01, xanchor="left"), font=FONT,
                      margin=dict(l=40, r=20, t=60, b=40), **kw)
    return fig
