"""Small widget helpers shared by the panels: buttons and labels that carry a CSS class.

Every control carries a ``pg-…`` class, so the browser tests (and users' own CSS) can find it.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as w

ERROR, INFO, OK = "#B00020", "#333333", "#1B5E20"


def button(text: str, cls: str, on_click: Callable[[], Any] | None = None, *, style: str = "",
           tooltip: str = "", disabled: bool = False, width: str | None = None) -> w.Button:
    """A button with a ``pg-…`` class whose click calls ``on_click()``."""
    b = w.Button(description=text, button_style=style, tooltip=tooltip or text, disabled=disabled,
                 layout=w.Layout(width=width) if width else w.Layout(width="auto"))
    b.add_class(cls)
    if on_click is not None:
        b.on_click(lambda _b: on_click())
    return b


def label(value: str = "", cls: str = "", **layout: Any) -> w.HTML:
    """An HTML label; ``value`` is HTML (escape user text with :func:`esc`)."""
    h = w.HTML(value, layout=w.Layout(**layout))
    if cls:
        h.add_class(cls)
    return h


def esc(text: Any) -> str:
    return html.escape(str(text))


def note(text: str, colour: str = INFO) -> str:
    return f'<div style="color:{colour}">{text}</div>'


def heading(text: str) -> w.HTML:
    return w.HTML(f"<b style='font-size:1.1em'>{esc(text)}</b>")


def with_class(widget: w.Widget, cls: str) -> w.Widget:
    widget.add_class(cls)
    return widget


def close_tree(widget: w.Widget) -> None:
    """Close a widget and everything inside it (frees the browser-side views of a replaced panel)."""
    for child in getattr(widget, "children", ()):
        close_tree(child)
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
