"""Small widget helpers shared by the panels: buttons and labels that carry a CSS class.

Every control carries a ``pg-…`` class, so the browser tests (and users' own CSS) can find it.
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import anywidget
import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle

from powergrid_nb.bots import BOTS
from powergrid_nb.views.mapboard import NOMINAL_WIDTH

ERROR, INFO, OK = "#B00020", "#333333", "#1B5E20"
HUMAN = "human"  # a seat played by clicking


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The kernel's event loop when called from a notebook (timers, results of background work)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def seat_kinds() -> list[str]:
    """What a seat can be: played by hand, or by a bot registered in ``powergrid_nb.bots.BOTS``."""
    return [HUMAN, *sorted(BOTS)]


def shared(kind: type[w.Widget], **traits: Any) -> w.Widget:
    """One ``Layout`` or style widget per distinct setting, reused by every button and label.

    Each ipywidgets control otherwise brings its own layout and style models: a panel re-render opened
    three models per control (three comm messages, three front-end models to build) and, as replaced
    panels close only their controls, left the other two behind. Never mutate a shared one."""
    key = (kind, tuple(sorted(traits.items())))
    obj = _SHARED.get(key)
    if obj is None or getattr(obj, "comm", True) is None:  # closed (e.g. by Widget.close_all())
        obj = _SHARED[key] = kind(**traits)
        opened([obj])  # kept for every later render: sent now, even inside unopened()
    return obj


_SHARED: dict[tuple, w.Widget] = {}

# A panel is rendered anew at every click and mostly merged into the one shown (reuse()): each new
# widget used to open its comm at once, so the browser built a model for every control of every render
# (some 40 KiB of messages a click) only to close most of them. Inside unopened(), a widget is made
# without a comm; opened() sends the few that are shown. ipywidgets' constructor always calls open(),
# so open() itself checks the flag (outside unopened() it is ipywidgets' own).
_OPEN = w.Widget.open
_DEFERRED = [False]


def _open_unless_deferred(self: w.Widget) -> None:
    if not _DEFERRED[0]:
        _OPEN(self)


w.Widget.open = _open_unless_deferred


@contextmanager
def unopened() -> Iterator[None]:
    """Widgets made inside stay in the kernel (no comm, nothing sent) until :func:`opened`."""
    before, _DEFERRED[0] = _DEFERRED[0], True
    try:
        yield
    finally:
        _DEFERRED[0] = before


def opened(widgets: Iterable[w.Widget]) -> None:
    """Send to the browser every widget of these trees made in :func:`unopened`, each after the widgets
    its state names (children, layout, style), whose model ids it carries."""
    for x in widgets:
        if x.comm is not None:
            continue
        for key in x.keys:
            value = getattr(x, key)
            refs = value if isinstance(value, tuple | list) else (value,)
            opened(y for y in refs if isinstance(y, w.Widget))
        _OPEN(x)


def button(text: str, cls: str, on_click: Callable[[], Any] | None = None, *, style: str = "",
           tooltip: str = "", disabled: bool = False, width: str | None = None) -> w.Button:
    """A button with a ``pg-…`` class whose click calls ``on_click()``."""
    b = w.Button(description=text, button_style=style, tooltip=tooltip or text, disabled=disabled,
                 layout=shared(w.Layout, width=width or "auto"), style=shared(w.ButtonStyle),
                 _dom_classes=(cls,))  # in the opening state: add_class() would send one more message
    b._pg_on_click = on_click  # read at click time: reuse() hands a shown button a new render's action
    b.on_click(_clicked)
    return b


def _clicked(b: w.Button) -> None:
    if b._pg_on_click is not None:
        b._pg_on_click()


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


def tree(widgets: tuple[w.Widget, ...] | list[w.Widget]) -> list[w.Widget]:
    """Every widget in these trees, with their layout and style models."""
    out: list[w.Widget] = []
    todo = list(widgets)
    while todo:
        x = todo.pop()
        out.append(x)
        out.extend(p for p in (getattr(x, "layout", None), getattr(x, "style", None))
                   if isinstance(p, w.Widget))
        todo.extend(getattr(x, "children", ()))
    return out


def close_all(widgets: list[w.Widget], keep: set[int]) -> None:
    """Close the widgets (a :func:`tree`) not in ``keep`` (ids) nor :func:`shared`: frees the
    front-end models and views of a replaced panel (ipywidgets' close() leaves layout and style)."""
    keep = keep | set(map(id, _SHARED.values()))
    for x in widgets:
        if id(x) not in keep:
            keep.add(id(x))  # once
            x.close()


_SAME = {w.Button: ("description", "disabled", "button_style", "tooltip", "icon", "layout", "style"),
         w.HTML: ("value", "layout", "style")}


def reuse(old: w.Widget | None, new: w.Widget, kept: set[int]) -> w.Widget:
    """What to show for ``new``: ``old`` made to look like it when both are the same kind of box,
    button or label (the browser then keeps its views instead of building new ones), else ``new``.

    A reused button takes the new one's action; ``kept`` collects the old widgets kept."""
    kind = type(new)
    if (old is None or type(old) is not kind or id(old) in kept or old._dom_classes != new._dom_classes
            or (kind is w.Button and not hasattr(new, "_pg_on_click"))):
        return new
    if kind in (w.HBox, w.VBox, w.Box):
        if old.layout.get_state() != new.layout.get_state():
            return new
        olds = list(old.children)
        kids = tuple(reuse(olds[i] if i < len(olds) else None, n, kept) for i, n in enumerate(new.children))
        if tuple(old.children) != kids:
            opened(kids)
            old.children = kids
    elif kind in _SAME:
        for trait in _SAME[kind]:
            value = getattr(new, trait)
            if getattr(old, trait) is not value and getattr(old, trait) != value:
                if isinstance(value, w.Widget):
                    opened([value])
                setattr(old, trait, value)
        if kind is w.Button:
            old._pg_on_click = new._pg_on_click
    else:
        return new
    kept.add(id(old))
    return old


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

    def shown(self, cls: str) -> w.Widget | None:
        """The widget with class ``cls`` the table shows now (a render's own may have been
        replaced by the one already shown, see :func:`reuse`)."""
        return next((x for x in tree(self.table.actions.children) if cls in getattr(x, "_dom_classes", ())),
                    None)

    def plan(self) -> list[str]:
        """Cities to preview on the map (the build queue)."""
        return []

    def city_clicked(self, city: str) -> None:
        self.table.say(f"{esc(city)}: cities are chosen in the building phase", INFO)

    def plant_clicked(self, plant: int) -> None:
        self.table.say(f"plant {plant}: plants are chosen in the auction phase", INFO)


_GUARD_JS = """
function guard(event) {
  const target = event.target instanceof Element ? event.target : null;
  if (event.button === 0 && target && target.closest('.pg-table')
      && target.closest('button, .lm-TabBar-tab, [data-plant]')) {
    event.preventDefault();
  }
}
export default {
  render() {
    if (!window.__pgClickGuard) {
      window.__pgClickGuard = true;
      document.addEventListener('mousedown', guard, true);
    }
  },
};
"""


class ClickGuard(anywidget.AnyWidget):
    """Keeps a mouse press on a table's button, tab or plant card from selecting the notebook cell
    around it.

    On every mousedown in a cell, JupyterLab makes the cell active and focuses it, a style and layout
    pass over the whole notebook that held each click back some 40-50 ms before its message left the
    page. A button needs neither: the press is marked handled (the notebook skips handled presses), so
    the button takes no focus but its click fires as before; keyboard focus is untouched. Shown once
    anywhere on a page, it serves every table there (Voila has no cells: nothing changes)."""

    _esm = _GUARD_JS


_FIT_JS = """
// a figure's view takes its box's width (not its drawing's), so a resize can fit the drawing to it
const CSS = '%(css)s';
export default {
  render({ el }) {
    if (!document.getElementById('%(box)s-fit')) {
      const style = document.createElement('style');
      style.id = '%(box)s-fit';
      style.textContent = CSS;
      document.head.appendChild(style);
    }
    let box = null;
    const fit = (tries = 0) => {
      const gd = box && box.querySelector('.js-plotly-plot');
      if (!gd || !gd._fullLayout || !box.clientWidth) {  // not drawn, or its box not shown yet
        if (tries < 600) requestAnimationFrame(() => fit(tries + 1));
        return;
      }
      // the width Plotly's resize takes (clientWidth would leave out a scrollbar: never equal)
      if (Math.abs(gd._fullLayout.width - parseFloat(getComputedStyle(gd).width)) >= 2) {
        // each FigureWidget without a set width then fits its view (with its own Plotly: window.Plotly
        // may be another copy, whose redraw would drop the widget's click handlers)
        window.dispatchEvent(new Event('resize'));
      }
    };
    let width = null;
    const watch = new ResizeObserver(entries => {  // the box's width, not its height, sets the figure's
      const now = entries[entries.length - 1].contentRect.width;
      if (now !== width) {
        width = now;
        requestAnimationFrame(() => fit());
      }
    });
    let tries = 0;
    const attach = () => {  // the view is put on the page after render()
      box = el.closest('.%(box)s');
      if (box) watch.observe(box); else if (++tries < 600) requestAnimationFrame(attach);
    };
    requestAnimationFrame(attach);
    return () => watch.disconnect();
  },
};
"""


def fit_js(box: str, css: str) -> str:
    """The front end of a widget that fits the Plotly figure in the box of class ``box`` (its ancestor)
    to the box's width whenever the box is resized or shown; ``css`` lays the figure out in the box."""
    return _FIT_JS % {"box": box, "css": css}


class FitMap(anywidget.AnyWidget):
    """Fits the map to its box (class ``pg-map-box``) whenever the box changes size, down to the width
    the board's labels were placed for (narrower, it keeps that width, as before).

    A FigureWidget drawn before its box has a size takes Plotly's default width (700 px), whatever
    the box: a wide Voila page showed a gap of a third of the map beside it."""

    # never narrower than the width the map's labels were placed for (views.mapboard.NOMINAL_WIDTH)
    _esm = fit_js("pg-map-box", ".pg-map-box > .js-plotly-plot "
                  f"{{ flex: 1 1 auto; min-width: {NOMINAL_WIDTH}px; width: 100%; }}")


class FitTab(anywidget.AnyWidget):
    """Fits the figure of its box (class ``pg-fit-box``) to the box's width whenever the box is resized
    or shown: a FigureWidget drawn before its tab is laid out takes Plotly's default 700 px, and the
    History figure's subplot titles then run into each other."""

    _esm = fit_js("pg-fit-box", ".pg-fit-box > .js-plotly-plot { flex: 1 1 auto; width: 100%; }")


def fit_box() -> w.Box:
    """A box whose figure :func:`fitted` keeps as wide as the box."""
    box = w.Box(layout=w.Layout(width="100%"))
    box.add_class("pg-fit-box")
    return box


def fitted(fig: Any) -> list[w.Widget]:
    """The children of a :func:`fit_box` showing the FigureWidget ``fig`` at the box's width."""
    fig._config = {**fig._config, "responsive": True}  # FitTab's resize event reaches it
    return [fig, FitTab(layout=shared(w.Layout, display="none"))]
