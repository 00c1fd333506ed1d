"""What every view shares: player colours, the view registry and in-place ``update``."""

from __future__ import annotations

import copy
import functools
import json
import weakref
from collections.abc import Callable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

# Okabe-Ito: distinguishable with the common colour-vision deficiencies. Players also get a marker
# symbol and their name in every legend and hover, so colour is never the only cue. No player is a
# circle: on the map a circle is a city (the first player's dark-blue circle read as a blue city).
PLAYER_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9")
PLAYER_SYMBOLS = ("square", "diamond", "triangle-up", "pentagon", "star", "hexagon")
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

    def __init__(self, data: Any = None, grid: Grid | None = None) -> None:
        self.data: list[dict] = []
        self.layout = _Layout()
        self._grid = grid
        if grid is not None:  # make_subplots' subplot titles
            self.layout["annotations"] = copy.deepcopy(grid.titles)
        self.add_traces(list(data or []))

    def add_trace(self, trace: Any, row: int | None = None, col: int | None = None) -> Sketch:
        plain = _plain(trace)
        if row is not None or col is not None:
            if self._grid is None:
                raise TypeError("a trace placed by row and col needs a figure made by subplots()")
            plain = {**plain, **copy.deepcopy(self._grid.refs[(row or 1, col or 1)])}
        self.data.append(plain)
        return self

    def add_traces(self, traces: list[Any]) -> Sketch:
        self.data += [_plain(t) for t in traces]
        return self

    def update_layout(self, dict1: dict | None = None, overwrite: bool = False, **kwargs: Any) -> Sketch:
        _merge(self.layout, {**(dict1 or {}), **kwargs})
        return self

    def add_annotation(self, arg: dict | None = None, **kwargs: Any) -> Sketch:
        self.layout.setdefault("annotations", []).append(_nested({**(arg or {}), **kwargs}))
        return self

    def add_shape(self, arg: dict | None = None, **kwargs: Any) -> Sketch:
        self.layout.setdefault("shapes", []).append(_nested({**(arg or {}), **kwargs}))
        return self

    def update_annotations(self, **kwargs: Any) -> Sketch:
        for note in self.layout.get("annotations", []):
            _merge(note, _nested(kwargs))
        return self

    def update_xaxes(self, *_args: Any, **_kwargs: Any) -> Sketch:  # update() keeps the shown axes
        return self

    update_yaxes = update_xaxes


class _Layout(dict):
    """A sketch's layout: a dict also read and set as attributes (``fig.layout.annotations``)."""

    def __getattr__(self, key: str) -> Any:
        return self.get(key, ())

    def __setattr__(self, key: str, value: Any) -> None:
        self[key] = list(value) if key in ("annotations", "shapes") else value


def _nested(props: dict[str, Any]) -> dict[str, Any]:
    """Plotly's "magic underscores" spelled out: {"font_size": 14} -> {"font": {"size": 14}}."""
    out: dict[str, Any] = {}
    for key, value in props.items():
        *path, last = key.split("_")
        node = out
        for part in path:
            node = node.setdefault(part, {})
        node[last] = value
    return out


def _merge(target: dict[str, Any], changes: dict[str, Any], spelled: bool = False) -> None:
    """Plotly's update: dicts merged key by key, anything else (lists too) replaced (``spelled``: the
    keys are spelled out already)."""
    for key, value in (changes if spelled else _nested(changes)).items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            _merge(target[key], value, spelled=True)
        elif key in ("annotations", "shapes"):
            target[key] = [_nested(dict(v)) for v in value]
        else:
            target[key] = copy.deepcopy(value) if isinstance(value, dict) else value


class Grid:
    """A ``make_subplots`` grid as a sketch needs it: each cell's trace references and the subplot
    titles (annotations; the text of each filled in by :func:`subplots`)."""

    def __init__(self, fig: go.Figure, rows: int, cols: int) -> None:
        self.refs: dict[tuple[int, int], dict[str, str]] = {}
        for r in range(1, rows + 1):
            for c in range(1, cols + 1):
                cell = fig.get_subplot(r, c)  # x and y axes (a view's grids are all xy), None: no cell
                if cell is not None:
                    self.refs[(r, c)] = {"xaxis": _axis_ref(cell.xaxis), "yaxis": _axis_ref(cell.yaxis)}
        self.titles = [a.to_plotly_json() for a in fig.layout.annotations]


def _axis_ref(axis: Any) -> str:
    """How a trace names an axis: layout's ``xaxis2`` is ``x2``."""
    return axis.plotly_name.replace("axis", "")


@functools.lru_cache(maxsize=32)
def _grid(spec: str, titled: tuple[bool, ...] | None) -> Grid:
    # the layout does not depend on the titles' text (a view's titles change with the game): only on
    # which cells have one
    args = json.loads(spec)
    if titled is not None:
        args["subplot_titles"] = ["t" if t else "" for t in titled]
    return Grid(make_subplots(**args), args.get("rows", 1), args.get("cols", 1))


def subplots(**kwargs: Any) -> go.Figure | Sketch:
    """``make_subplots(**kwargs)`` for a view; inside :func:`update` a :class:`Sketch` on the same grid
    (laid out once per set of arguments)."""
    if not _REFRESHING.get():
        return make_subplots(**kwargs)
    titles = kwargs.pop("subplot_titles", None)
    grid = _grid(json.dumps(kwargs, sort_keys=True), None if titles is None else tuple(map(bool, titles)))
    sketch = Sketch(grid=grid)
    for note, text in zip(sketch.layout.get("annotations", []), [t for t in titles or () if t], strict=True):
        note["text"] = text
    return sketch


def scatter(**props: Any) -> dict:
    """A scatter trace as a plain dict: what ``go.Scatter(**props)`` sets, without building it."""
    return {"type": "scatter", **props}


def _plain(trace: Any) -> dict:
    """A trace as the dict of what it sets (a dict, e.g. from :func:`scatter`, as it is)."""
    return trace if isinstance(trace, dict) else trace.to_plotly_json()


def new_figure(data: Any = None) -> go.Figure:
    """A view's figure (traces may be plotly objects or dicts). Inside :func:`update` it is a
    :class:`Sketch`: only the source of the properties copied into the figure being refreshed, which
    validates what it takes."""
    return Sketch(data) if _REFRESHING.get() else go.Figure(data)


def update(fig: go.Figure, g: Game, **changes: Any) -> go.Figure:
    """Refresh a view (a ``go.Figure`` or ``go.FigureWidget``) in place for the game's current state.

    Trace data, annotations and shapes are replaced; the figure object, and so a displayed widget,
    stays the same. ``changes`` override the view's arguments (e.g. ``player="Bo"``). What changed is
    told from what the last update set (:class:`_Shown`): a trace property changed by hand in between
    stays as it is unless the game changes it.
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
    shown = _SHOWN.get(id(fig))
    if shown is None or len(shown.data) != len(fig.data):
        shown = _Shown(fig)
    # Only what changed is set: validating and sending unchanged traces is most of a refresh's cost.
    with fig.batch_update():
        for old, before, props in zip(fig.data, shown.data, data, strict=True):
            changed = {k: v for k, v in props.items() if k not in ("type", "uid") and before.get(k) != v}
            # clear what the fresh trace no longer sets
            changed.update({k: None for k in before if k not in props and k not in ("type", "uid")})
            if changed:
                old.update(changed, overwrite=True)
        emptied = [key for key in ("annotations", "shapes") if not items[key] and fig.layout[key]]
        for key in ("annotations", "shapes"):
            if key not in emptied:
                _update_items(fig.layout, key, shown.items.get(key), items[key])
        if fig.layout.title.to_plotly_json() != title:
            fig.layout.title = title
        fig.layout.meta = {"view": meta["view"], "args": args}
    for key in emptied:  # unset, as a fresh figure has it (inside a batch, plotly would keep an empty list)
        fig.layout[key] = None
    shown.data, shown.items = data, items
    return fig


class _Shown:
    """What :func:`update` last set in a figure: each trace's properties, the annotations and shapes.

    An update compares the fresh build with it, not with the figure: reading a figure's properties
    through Plotly's public API copies them all (``to_plotly_json``), a third of an update's cost. A
    figure seen for the first time is read once that way."""

    def __init__(self, fig: go.Figure) -> None:
        self.data: list[dict[str, Any]] = [t.to_plotly_json() for t in fig.data]
        self.items: dict[str, list[dict[str, Any]] | None] = dict.fromkeys(("annotations", "shapes"))
        _SHOWN[id(fig)] = self
        weakref.finalize(fig, _SHOWN.pop, id(fig), None)


_SHOWN: dict[int, _Shown] = {}  # by the figure's id, for as long as the figure lives


def _parts(fresh: go.Figure | Sketch) -> tuple[list[dict], dict[str, list[dict]], dict]:
    """What update() copies from a fresh build: each trace's, annotation's and shape's properties as
    set, and the title."""
    if isinstance(fresh, Sketch):
        return (fresh.data, {k: fresh.layout.get(k, []) for k in ("annotations", "shapes")},
                fresh.layout.get("title", {}))
    return ([t.to_plotly_json() for t in fresh.data],
            {k: [o.to_plotly_json() for o in fresh.layout[k]] for k in ("annotations", "shapes")},
            fresh.layout.title.to_plotly_json())


def _update_items(layout: Any, key: str, shown: list[dict] | None, fresh: list[dict]) -> None:
    """Annotations or shapes: item by item when their number is unchanged (a browser redraws just
    the changed ones), else the whole list (merging would keep items the fresh figure no longer has).
    ``shown``: what the last update set (None: read from the figure)."""
    items = layout[key]
    if len(items) != len(fresh):
        layout[key] = fresh
        return
    if shown is None or len(shown) != len(items):
        shown = [o.to_plotly_json() for o in items]
    for old, before, props in zip(items, shown, fresh, strict=True):
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
