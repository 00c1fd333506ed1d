"""What a widget tree shows, as plain data: ``snapshot(table)`` (also ``Table.snapshot()``).

Every widget on screen contributes its synced state (what the front end receives and draws: labels'
HTML, buttons' text, style and disabled state, options and values of selectors, tab titles, layout and
style models inlined), under a path naming its place in the tree. A Plotly ``FigureWidget``
contributes its figure as the state a browser connecting now would draw it from (``get_state``). Two
tables show the same thing exactly when their snapshots are equal.

Left out, each for a reason:

* tabs other than the selected one: not on screen (selecting one is a click, which refreshes it);
* trace ``uid``: a random name Plotly gives each trace, never drawn;
* a FigureWidget's message channels (``_py2js_*`` from the kernel, ``_js2py_*`` from the browser) and
  their counters (``_last_*_edit_id``, ``_view_count``): one-shot deltas already applied to the
  figure above, not state; an anywidget's ``_esm``, ``_css`` and ``_anywidget_id``: its front-end
  code, the same for all.
"""

from __future__ import annotations

import json
from typing import Any

import ipywidgets as w
import plotly.graph_objects as go
from plotly.utils import PlotlyJSONEncoder

__all__ = ["diff", "snapshot"]

SKIPPED = {"_esm", "_css", "_anywidget_id", "_view_count", "_last_layout_edit_id", "_last_trace_edit_id"}
CHANNELS = ("_py2js_", "_js2py_")
DRAWN = ("_widget_data", "_widget_layout")  # a FigureWidget's state: the figure a page draws first
CLASSES = "_dom_classes"  # the key of a widget's CSS classes in its synced state (ipywidgets' get_state)


def _plain(x: Any) -> Any:
    """JSON as the front end gets it: tuples are lists, numpy numbers plain, NaN null."""
    return json.loads(json.dumps(x, default=_ENCODER.default), parse_constant=lambda _c: None)


_ENCODER = PlotlyJSONEncoder()


def _no_uid(data: Any) -> list[dict[str, Any]]:
    return [{k: v for k, v in t.items() if k != "uid"} for t in data or ()]


def _kind(x: w.Widget) -> str:
    """The widget's ipywidgets or plotly class (a Table is a VBox: the front end knows no more)."""
    return next(c.__name__ for c in type(x).__mro__ if c.__module__.startswith(("ipywidgets", "plotly")))


def _state(x: w.Widget) -> dict[str, Any]:
    """The synced traits of one widget (``get_state``), its layout and style inlined, children left to
    the walk; a FigureWidget's figure once, as the state a browser connecting now gets."""
    out: dict[str, Any] = {"type": _kind(x)}
    figure = isinstance(x, go.FigureWidget)
    state = x.get_state()
    for key in x.keys:
        if key in SKIPPED or key == "children" or key.startswith(CHANNELS) or (figure and key in DRAWN):
            continue
        value = getattr(x, key)
        out[key] = _state(value) if isinstance(value, w.Widget) else _plain(state[key])
    if figure:
        out["figure"] = {"data": _plain(_no_uid(state[DRAWN[0]])), "layout": _plain(state[DRAWN[1]])}
    return out


def _shown_children(x: w.Widget) -> list[tuple[int, w.Widget]]:
    kids = list(getattr(x, "children", ()) or ())
    if isinstance(x, w.Tab):  # only the selected tab is on screen
        i = x.selected_index
        return [] if i is None or not 0 <= i < len(kids) else [(i, kids[i])]
    return list(enumerate(kids))


def snapshot(root: w.Widget) -> dict[str, dict[str, Any]]:
    """Everything ``root`` shows: {path: state} for each widget on screen, depth first; a path is the
    child positions from the root and the widget's type and CSS classes, e.g. ``"2.1.0 HTML.pg-log"``."""
    out: dict[str, dict[str, Any]] = {}
    todo: list[tuple[str, w.Widget]] = [("", root)]
    while todo:
        where, x = todo.pop()
        state = _state(x)
        classes = "".join(f".{c}" for c in state.get(CLASSES, ()))
        out[f"{where or 'root'} {_kind(x)}{classes}"] = state
        kids = _shown_children(x)
        todo.extend((f"{where}.{i}" if where else str(i), k) for i, k in reversed(kids))
    return out


def diff(a: Any, b: Any, path: str = "", limit: int = 20) -> list[str]:
    """Where two snapshots (or any plain data) differ: up to ``limit`` lines "path: a != b"."""
    out: list[str] = []

    def walk(x: Any, y: Any, at: str) -> None:
        if len(out) >= limit or x == y:
            return
        if isinstance(x, dict) and isinstance(y, dict):
            for k in sorted(set(x) | set(y), key=str):
                if k not in x or k not in y:
                    out.append(f"{at}/{k}: {'missing' if k not in x else _short(x[k])} != "
                               f"{'missing' if k not in y else _short(y[k])}")
                else:
                    walk(x[k], y[k], f"{at}/{k}")
            return
        if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
            for i, (p, q) in enumerate(zip(x, y, strict=True)):
                walk(p, q, f"{at}[{i}]")
            return
        out.append(f"{at}: {_short(x)} != {_short(y)}")

    walk(a, b, path)
    return out


def _short(x: Any, n: int = 160) -> str:
    text = repr(x)
    return text if len(text) <= n else text[:n] + "…"
