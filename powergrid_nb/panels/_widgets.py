"""Small widget helpers shared by the panels: buttons and labels that carry a CSS class.

Every control carries a ``pg-…`` class, so the browser tests (and users' own CSS) can find it.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle

ERROR, INFO, OK = "#B00020", "#333333", "#1B5E20"


def shared(kind: type[w.Widget], **traits: Any) -> w.Widget:
    """One ``Layout`` or style widget per distinct setting, reused by every button and label.

    Each ipywidgets control otherwise brings its own layout and style models: a panel re-render opened
    three models per control (three comm messages, three front-end models to build) and, as replaced
    panels close only their controls, left the other two behind. Never mutate a shared one."""
    key = (kind, tuple(sorted(traits.items())))
    obj = _SHARED.get(key)
    if obj is None or getattr(obj, "comm", True) is None:  # closed (e.g. by Widget.close_all())
        obj = _SHARED[key] = kind(**traits)
    return obj


_SHARED: dict[tuple, w.Widget] = {}


def button(text: str, cls: str, on_click: Callable[[], Any] | None = None, *, style: str = "",
           tooltip: str = "", disabled: bool = False, width: str | None = None) -> w.Button:
    """A button with a ``pg-…`` class whose click calls ``on_click()``."""
    b = w.Button(description=text, button_style=style, tooltip=tooltip or text, disabled=disabled,
                 layout=shared(w.Layout, width=width or "auto"), style=shared(w.ButtonStyle),
                 _dom_classes=(cls,))  # in the opening state: add_class() would send one more message
    if on_click is not None:
        b.on_click(lambda _b: on_click())
    return b


def label(value: str = "", cls: str = "", **layout: Any) -> w.HTML:
    """An HTML label; ``value`` is HTML (escape user text with :func:`esc`)."""
    return w.HTML(value, layout=shared(w.Layout, **layout), style=shared(HTMLStyle),
                  _dom_classes=(cls,) if cls else ())


def esc(text: Any) -> str:
    return html.escape(str(text))


def note(text: str, colour: str = INFO) -> str:
    return f'<div style="color:{colour}">{text}</div>'


def heading(text: str) -> w.HTML:
    return label(f"<b style='font-size:1.1em'>{esc(text)}</b>")


def with_class(widget: w.Widget, cls: str) -> w.Widget:
    widget.add_class(cls)
    return widget


def close_tree(widget: w.Widget) -> None:
    """Close a widget and everything inside it, with their own layout and style models (frees the
    front-end models and views of a replaced panel; the :func:`shared` ones stay)."""
    for child in getattr(widget, "children", ()):
        close_tree(child)
    keep = set(map(id, _SHARED.values()))
    for attr in ("layout", "style"):
        part = getattr(widget, attr, None)
        if isinstance(part, w.Widget) and id(part) not in keep:
            part.close()
    widget.close()


class PhasePanel:
    """The controls of one phase for the player to act: built from ``legal_actions`` and frames.

    ``render`` returns the widgets to show; clicks call ``self.table.submit(action)``. Panels keep
    only a pending choice (a plant, amounts, a build queue, plants to run), never rules.
    """

    def __init__(self, table: Any) -> None:
        self.table = table

    def render(self, g: Any, player: str, legal: list[Any]) -> list[w.Widget]:
        raise NotImplementedError

    def rerender(self) -> None:
        """Show this panel again after a pending choice changed (no engine action)."""
        self.table.show_panel()

    def plan(self) -> list[str]:
        """Cities to preview on the map (the build queue)."""
        return []

    def city_clicked(self, city: str) -> None:
        self.table.say(f"{esc(city)}: cities are chosen in the building phase", INFO)

    def plant_clicked(self, plant: int) -> None:
        self.table.say(f"plant {plant}: plants are chosen in the auction phase", INFO)
