"""Small widget helpers shared by the panels: buttons and labels that carry a CSS class.

Every control carries a ``pg-…`` class, so the browser tests (and users' own CSS) can find it.
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from weakref import WeakKeyDictionary

import anywidget
import ipywidgets as w
import traitlets
from ipywidgets.widgets.widget_string import HTMLStyle
from plotly.serializers import custom_serializers

from powergrid_nb.bots import BOTS
from powergrid_nb.views.mapboard import NOMINAL_WIDTH

from ._figure import SharedBundleFigure

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

    Each ipywidgets control otherwise brings its own layout and style models (three models, three comm
    messages, per control). Never mutate a shared one."""
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
                 layout=shared(w.Layout, width=width or "auto"), style=shared(w.ButtonStyle))
    b.add_class(cls)
    if on_click is not None:
        b.on_click(lambda _b: on_click())
    return b


def label(value: str = "", cls: str = "", **layout: Any) -> w.HTML:
    """An HTML label; ``value`` is HTML (escape user text with :func:`esc`)."""
    x = w.HTML(value, layout=shared(w.Layout, **layout), style=shared(HTMLStyle))
    if cls:
        x.add_class(cls)
    return x


def esc(text: Any) -> str:
    return html.escape(str(text))


def note(text: str, colour: str = INFO) -> str:
    return f'<div style="color:{colour}">{text}</div>'


def heading_html(text: str) -> str:
    return f"<b style='font-size:1.1em'>{esc(text)}</b>"


def heading(text: str) -> w.HTML:
    return label(heading_html(text))


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


# a selection's value is an index into its options: other options, another widget (see Controls.control)
_SELECTIONS = (w.Select, w.ToggleButtons, w.RadioButtons, w.SelectionSlider, w.Dropdown)


class Controls:
    """The widgets of a phase panel, kept from one render to the next and updated in place.

    A panel is rendered anew at every click (its pending choice changed, or the game moved on). Inside
    :meth:`render`, each control a panel asks for (by kind, CSS classes and how many of those came
    before it) is the one the last render made, its text, state and action set to the new render's
    (only what differs is sent to the browser), or a new one when the last render had none; the
    controls of the last render not asked for again are closed when the render ends. So a click sends
    the few traits that changed instead of building a browser model for every control."""

    def __init__(self) -> None:
        self._last: dict[tuple, w.Widget] = {}
        self._now: dict[tuple, w.Widget] | None = None
        self._classes: WeakKeyDictionary[w.Widget, tuple[str, ...]] = WeakKeyDictionary()
        # a control's action: a closed button keeps its last (a click of a stale page reports why)
        self._actions: WeakKeyDictionary[w.Widget, Callable[..., Any] | None] = WeakKeyDictionary()
        self._quiet = False  # while a render sets a control's value: not the player's change

    @contextmanager
    def render(self) -> Iterator[None]:
        """Controls asked for inside are kept or made; the last render's others are closed at the end
        (after the caller has shown the new ones)."""
        self._now = {}
        try:
            yield
        finally:
            now, self._now = self._now, None
            kept = {id(x) for x in now.values()}
            for x in self._last.values():
                if id(x) not in kept:
                    self._forget(x)
            self._last = now

    def _forget(self, x: w.Widget) -> None:
        own = [p for p in (getattr(x, "layout", None), getattr(x, "style", None)) if isinstance(p, w.Widget)]
        x.close()
        shared_ids = set(map(id, _SHARED.values()))
        for p in own:
            if id(p) not in shared_ids:
                p.close()

    def _get(self, kind: type[w.Widget], cls: str, traits: dict[str, Any],
             action: Callable[..., Any] | None = None) -> w.Widget:
        assert self._now is not None, "controls are asked for inside Controls.render()"
        classes = tuple(cls.split())
        n = 0
        while (kind, classes, n) in self._now:
            n += 1
        key = (kind, classes, n)
        x = self._last.get(key)
        if x is not None and kind in _SELECTIONS and tuple(x.options) != tuple(traits["options"]):
            x = None  # new options: a new widget (the old one is closed with the render)
        if x is None:
            x = kind(**traits)
            for c in classes:
                x.add_class(c)
            self._classes[x] = classes
            if isinstance(x, w.Button):
                x.on_click(self._clicked)
            elif x.has_trait("value") and not isinstance(x, w.HTML | w.Box):
                x.observe(self._changed, names="value")
        else:
            self._set(x, traits)
        self._actions[x] = action
        self._now[key] = x
        return x

    def _set(self, x: w.Widget, traits: dict[str, Any]) -> None:
        changed = {k: v for k, v in traits.items() if k != "options" and getattr(x, k) != v}
        if not changed:
            return
        self._quiet = True
        try:
            with x.hold_sync(), x.hold_trait_notifications():
                for k, v in changed.items():
                    setattr(x, k, v)
        finally:
            self._quiet = False

    def _clicked(self, b: w.Button) -> None:
        action = self._actions.get(b)
        if action is not None:
            action()

    def _changed(self, change: dict[str, Any]) -> None:
        action = self._actions.get(change["owner"])
        if action is not None and not self._quiet:
            action(change)

    def find(self, cls: str) -> w.Widget | None:
        """The control of the last (or current) render that has class ``cls``."""
        for x in (self._now or self._last).values():
            if cls in self._classes.get(x, ()):
                return x
        return None

    # --- what panels ask for -------------------------------------------------------------------------
    def button(self, text: str, cls: str, on_click: Callable[[], Any] | None = None, *, style: str = "",
               tooltip: str = "", disabled: bool = False, width: str | None = None) -> w.Button:
        """A button with the ``pg-…`` classes ``cls`` (space separated) whose click calls ``on_click()``."""
        return self._get(w.Button, cls, {
            "description": text, "button_style": style, "tooltip": tooltip or text, "disabled": disabled,
            "layout": shared(w.Layout, width=width or "auto"), "style": shared(w.ButtonStyle)}, on_click)

    def label(self, value: str = "", cls: str = "", **layout: Any) -> w.HTML:
        """An HTML label; ``value`` is HTML (escape user text with :func:`esc`)."""
        return self._get(w.HTML, cls, {"value": value, "layout": shared(w.Layout, **layout),
                                       "style": shared(HTMLStyle)})

    def heading(self, text: str) -> w.HTML:
        return self.label(heading_html(text))

    def box(self, kind: type[w.Box], children: list[w.Widget], cls: str = "", **layout: Any) -> w.Box:
        """An ``HBox`` or ``VBox`` of controls asked for in this render."""
        return self._get(kind, cls, {"children": tuple(children), "layout": shared(w.Layout, **layout)})

    def control(self, kind: type[w.Widget], cls: str,
                on_change: Callable[[dict[str, Any]], Any] | None = None, *,
                layout: dict[str, Any] | None = None, **traits: Any) -> w.Widget:
        """An input (``kind``: a checkbox, a number, a selection ...) with the classes ``cls``;
        ``on_change(change)`` is called when the player changes its value (not when a render sets it).
        A ``style`` is best a :func:`shared` one."""
        traits["layout"] = shared(w.Layout, **(layout or {}))
        return self._get(kind, cls, traits, on_change)


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

    @property
    def ui(self) -> Controls:
        """The table's controls: what ``render`` asks for its widgets (kept from render to render)."""
        return self.table.controls

    def shown(self, cls: str) -> w.Widget | None:
        """The control with class ``cls`` the table shows now."""
        return self.ui.find(cls)

    def plan(self) -> list[str]:
        """Cities to preview on the map (the build queue)."""
        return []

    def chosen_plant(self) -> int | None:
        """A plant chosen to open but not opened yet (the plant market marks it)."""
        return None

    def city_clicked(self, city: str) -> None:
        self.table.say(f"{esc(city)}: cities are chosen in the building phase", INFO)

    def plant_clicked(self, plant: int) -> None:
        self.table.say(f"plant {plant}: plants are chosen in the auction phase", INFO)


_GUARD_JS = """
function guard(event) {
  const target = event.target instanceof Element ? event.target : null;
  if (event.button === 0 && target && target.closest('.pg-table')
      && target.closest('button, .lm-TabBar-tab, [data-plant]')) {
    // the press keeps the focus where it is, so a box typed in (a bid, a save name) would not commit its
    // value before the click: commit it here, its change message leaves before the click's
    const active = document.activeElement;
    if (active && active !== target && active.closest('.pg-table')
        && (active.matches('input, textarea') || active.isContentEditable)) {
      active.blur();
    }
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
    the button takes no focus but its click fires as before. A box of the table being typed in (a bid,
    a save name) is left first, as the press would have left it: its value goes to the kernel before
    the click does. Shown once anywhere on a page, it serves every table there (Voila has no cells)."""

    _esm = _GUARD_JS


_FIT_JS = """
// a figure's view takes its box's width (not its drawing's); the kernel draws the figure at that width
const CSS = '%(css)s';
const ROOM = 8;  // px left free under a map kept in view
export default {
  render({ model, el }) {
    if (!document.getElementById('%(box)s-fit')) {
      const style = document.createElement('style');
      style.id = '%(box)s-fit';
      style.textContent = CSS;
      document.head.appendChild(style);
    }
    let box = null;
    const fit = (tries = 0) => {
      const gd = box && box.querySelector('.js-plotly-plot');
      const svg = gd && gd.querySelector('.main-svg');
      if (!svg || !box.clientWidth) {  // not drawn, or its box not shown yet
        if (tries < 600) requestAnimationFrame(() => fit(tries + 1));
        return;
      }
      // the view's width (clientWidth would leave out a scrollbar: never equal) and the drawing's
      const want = Math.round(parseFloat(getComputedStyle(gd).width));
      if (Math.abs(parseFloat(svg.getAttribute('width')) - want) >= 2 && model.get('width') !== want) {
        model.set('width', want);  // the kernel sets the figure's layout width (Fit.width)
        model.save_changes();
      }
    };
    let width = null;
    const watch = new ResizeObserver(entries => {  // the box's width, not its height, sets the figure's
      const now = entries[entries.length - 1].contentRect.width;
      requestAnimationFrame(() => within());  // the page laid out anew: its scroller may be another
      if (now !== width) {
        width = now;
        requestAnimationFrame(() => fit());
      }
    });
    // 'within' ([ratio, over, beside, least], the map's FitMap): the box no wider than keeps the whole
    // map in the height its page scrolls in (from the figure's top to the land's bottom the map is
    // over + (width - beside) * ratio px tall), never narrower than least px. The page's scroller is
    // the nearest box that scrolls (widget boxes have overflow auto and grow with what they hold).
    const scrolls = e => e.scrollHeight > e.clientHeight + 1
      && ['auto', 'scroll', 'overlay'].includes(getComputedStyle(e).overflowY);
    const scroller = () => {
      for (let e = box.parentElement; e && e !== document.body; e = e.parentElement) if (scrolls(e)) return e;
      return null;
    };
    // a box resized outside these observers' callbacks (a resize inside one is a ResizeObserver loop)
    const view = new ResizeObserver(() => requestAnimationFrame(() => within()));
    let seen = null;
    // Where the boxes beside it leave it less than least px, the row wraps: the map, alone on its line,
    // takes the whole line (a capped one left a gap beside it and the panel under it all the same).
    const besides = () => [...box.parentElement.children].filter(c => c !== box)
      .reduce((sum, c) => sum + (parseFloat(getComputedStyle(c).minWidth) || 0), 0);
    const within = () => {
      const w = model.get('within');
      if (!box || !w || w.length !== 4) return;
      const [ratio, over, beside, least] = w;
      if (box.parentElement.clientWidth - besides() < least) {
        if (box.style.maxWidth !== 'none') box.style.maxWidth = 'none';
        return;
      }
      const s = scroller();
      if (s && s !== seen) { view.observe(s); seen = s; }  // its height changes with the window's
      const height = Math.min(s ? s.clientHeight : window.innerHeight, window.innerHeight);
      const most = Math.max(least, Math.floor((height - ROOM - over) / ratio + beside)) + 'px';
      if (box.style.maxWidth !== most) box.style.maxWidth = most;
    };
    window.addEventListener('resize', within);
    let tries = 0;
    const attach = () => {  // the view is put on the page after render()
      box = el.closest('.%(box)s');
      if (!box) {
        if (++tries < 600) requestAnimationFrame(attach);
        return;
      }
      watch.observe(box);
      within();
    };
    requestAnimationFrame(attach);
    return () => { watch.disconnect(); view.disconnect(); window.removeEventListener('resize', within); };
  },
};
"""


def fit_js(box: str, css: str) -> str:
    """The front end of a widget that fits the Plotly figure in the box of class ``box`` (its ancestor)
    to the box's width whenever the box is resized or shown; ``css`` lays the figure out in the box."""
    return _FIT_JS % {"box": box, "css": css}


# what every live figure is drawn with (plotly.js config): no mode bar over the figure
CONFIG: dict[str, Any] = {"displayModeBar": False}

# the figure a FigureWidget's front end draws first: its synced state, named so by Plotly's widget
_DRAWN = {"_widget_data": "data", "_widget_layout": "layout"}


class LiveFigure(SharedBundleFigure):
    """A Plotly FigureWidget whose state, as a page connecting now gets it, is the figure now.

    Updates travel as one-shot messages that only existing front-end models apply, and Plotly sends a
    page the figure its constructor had: a page that connects later (Voila runs the notebook first; a
    page reloaded during a lesson; a second tab) would draw that. ipywidgets gives a page the state
    :meth:`get_state` returns, so this one gives the figure now (``to_plotly_json``).

    Its front-end model opens once the figure is built, with the whole figure: a FigureWidget opens
    empty and sends its traces and layout in updates after, and a view drawn before those arrive (or
    whose model missed them) showed an empty figure. Its front end imports Plotly's widget module once
    per page (:class:`~powergrid_nb.panels._figure.SharedBundleFigure`)."""

    _built = False  # Plotly builds the figure after the widget's constructor would open it

    def __init__(self, *args: Any, config: dict[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Plotly's options for the drawing (FigureWidget's synced ``_config``): no mode bar, which
        # floated over the figure's title and top right corner (zoom by dragging, reset by a double
        # click)
        self._config = {**CONFIG, **(config or {})}
        self._built = True
        self.open()

    def open(self) -> None:
        """Open the front-end model, once the figure is built (ipywidgets opens it in its constructor)."""
        if self._built:
            super().open()

    def get_state(self, key: Any = None, drop_defaults: bool = False) -> dict[str, Any]:
        state = super().get_state(key, drop_defaults)
        if not self._built:
            return state
        keys = self.keys if key is None else [key] if isinstance(key, str) else list(key)
        wanted = [k for k in _DRAWN if k in keys]
        if wanted:
            figure = self.to_plotly_json()
            for k in wanted:
                state[k] = custom_serializers["to_json"](figure[_DRAWN[k]], self)
        return state


# the widths (px) a page may ask a figure to take: a screen's, not what a crafted message can send
FIT_WIDTHS = range(100, 8001)


class Fit(anywidget.AnyWidget):
    """Keeps the FigureWidget ``fig`` as wide as its box: the page sets ``width`` whenever the box's
    width and the drawing's differ, and the figure's layout takes it (a FigureWidget drawn before its
    box has a size takes Plotly's default 700 px, whatever the box). A width outside
    :data:`FIT_WIDTHS` is ignored: the figure keeps the width it has."""

    width = traitlets.Int(0).tag(sync=True)

    def __init__(self, fig: Any, height: Callable[[int], int] | None = None, also: Sequence[Any] = (),
                 **kwargs: Any) -> None:
        """``height``: the figure's height for a width (None: the figure keeps its height); ``also``:
        figures drawn over ``fig`` (the map's layers), given the same size."""
        super().__init__(**kwargs)
        self._figs, self._height = [fig, *also], height
        self.observe(self._fit, names="width")

    def _fit(self, change: dict[str, Any]) -> None:
        width = change["new"]
        if width not in FIT_WIDTHS:
            return
        size = dict(width=width) if self._height is None else dict(width=width, height=self._height(width))
        for fig in self._figs:
            fig.update_layout(**size)


class FitMap(Fit):
    """Fits the map to its box (class ``pg-map-box``) whenever the box changes size, down to the width
    the board's labels were placed for (narrower, it keeps that width, as before): a wide Voila page
    showed a gap of a third of the map beside it. With ``height`` (a function of the width) the map
    grows taller as it grows wider (a wide map keeps filling the width). With ``within`` ([ratio, over,
    beside, least]: from the figure's top to the land's bottom the map is ``over + (width - beside) *
    ratio`` px tall) the box grows no wider than keeps that in the height the page scrolls in (the
    whole map in view at once), and never narrower than ``least`` px; where the boxes beside it leave
    it less than that (the row wraps: the map alone on its line), it takes the whole line."""

    within = traitlets.List(traitlets.Float(), maxlen=4).tag(sync=True)

    # never narrower than the width the map's labels were placed for (views.mapboard.NOMINAL_WIDTH)
    # the map's pieces (class pg-map-pieces) lie over its board, both as wide as the box
    _esm = fit_js("pg-map-box", ".pg-map-box > .js-plotly-plot "
                  f"{{ flex: 1 1 auto; min-width: {NOMINAL_WIDTH}px; width: 100%; }} "
                  ".pg-map-box { position: relative; } "
                  ".pg-map-box > .pg-map-pieces { position: absolute; top: 0; left: 0; }")


class FitTab(Fit):
    """Fits the figure of its box (class ``pg-fit-box``) to the box's width whenever the box is resized
    or shown: drawn before its tab is laid out, the History figure's subplot titles ran into each other."""

    _esm = fit_js("pg-fit-box", ".pg-fit-box > .js-plotly-plot { flex: 1 1 auto; width: 100%; }")


def fit_box() -> w.Box:
    """A box whose figure :func:`fitted` keeps as wide as the box."""
    box = w.Box(layout=w.Layout(width="100%"))
    box.add_class("pg-fit-box")
    return box


def fitted(fig: Any) -> list[w.Widget]:
    """The children of a :func:`fit_box` showing the FigureWidget ``fig`` at the box's width."""
    return [fig, FitTab(fig, layout=shared(w.Layout, display="none"))]
