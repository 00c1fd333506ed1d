"""The table's Hint: the engine's suggestion for the decision to make now, from :func:`powergrid_nb.analyze`.

The analysis runs in a background thread (the kernel and the table stay responsive); Cancel stops it
and shows what it has, marked partial. A hint belongs to one position: any move, undo or new game
cancels it and clears it. It never applies anything.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from powergrid_nb.play.analysis import Analysis, analyze

from ._widgets import ERROR, INFO, button, esc, label, note, running_loop, with_class

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

PLAYOUTS = 60  # per candidate; the hint stops sooner once the best candidate is clearly ahead
TIME_BUDGET = 30.0  # seconds
FIGURE_WIDTH = 760


def position_key(g: Game | None) -> tuple | None:
    """What a hint is of: this game object at this many decisions."""
    return None if g is None else (id(g), len(g.actions), g.round, g.phase, g.current_player)


class HintBox:
    """The Hint controls (``row``, beside the phase panel) and the result (``result``, under the map).

    ``playouts`` per candidate, ``time_budget`` seconds and ``bots`` (who plays the playouts out, a
    name of ``powergrid_nb.bots.BOTS``) are :func:`~powergrid_nb.play.analysis.analyze`'s; the
    table's ``hints`` can be given others (``table.hints.bots = "search"``)."""

    def __init__(self, table: Any, playouts: int = PLAYOUTS, time_budget: float = TIME_BUDGET,
                 bots: str = "heuristic") -> None:
        self.table, self.playouts, self.time_budget, self.bots = table, playouts, time_budget, bots
        self.enabled = with_class(w.Checkbox(value=True, description="hints", indent=False,
                                             layout=w.Layout(width="70px")), "pg-hints")
        self.enabled.observe(lambda _c: self.refresh(), names="value")
        self.hint = button("Hint", "pg-hint", self.start,
                           tooltip="ask the engine what to do here (plays the game out many times; "
                                   "applies nothing)")
        self.cancel_button = button("Cancel", "pg-hint-cancel", self.cancel, tooltip="stop the analysis")
        self.progress = w.IntProgress(value=0, min=0, max=1, layout=w.Layout(width="120px"))
        self.status = label(cls="pg-hint-status")
        for x in (self.hint, self.cancel_button, self.status):
            x.layout = w.Layout()  # their own: refresh() hides them, and the shared layout is every label's
        self.row = w.HBox([self.enabled, self.hint, self.cancel_button, self.progress, self.status],
                          layout=w.Layout(align_items="center", flex_flow="row wrap"))
        self.row.add_class("pg-hint-row")
        self.result = w.VBox(layout=w.Layout(width="100%"))
        self.result.add_class("pg-hint-result")
        self.analysis: Analysis | None = None
        self._key: tuple | None = None  # the position of the running or shown hint
        self._stop: threading.Event | None = None
        self._thread: threading.Thread | None = None
        self._show_idle()

    # --- state -------------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._stop is not None

    def start_game(self, humans: list[str]) -> None:
        """A new game at the table: hints on when a human plays (off by default in bot-only games)."""
        self.cancel(clear=True)
        self.enabled.value = bool(humans)

    def can_hint(self) -> bool:
        """A human is to act (or the bots are paused) in a game not over, and hints are on."""
        t = self.table
        g = t.game
        if g is None or g.is_over or not self.enabled.value:
            return False
        return g.current_player not in t.bots or t.paused

    def refresh(self) -> None:
        """After every change at the table: drop a hint of another position; show or hide the controls."""
        if self._key is not None and self._key != position_key(self.table.game):
            self.cancel(clear=True)
        on = self.enabled.value
        for x in (self.hint, self.cancel_button, self.status):
            x.layout.display = None if on else "none"
        busy = self.running or self.analysis is not None  # an empty bar would read as a text field
        self.progress.layout.display = None if on and busy else "none"
        if not self.running:
            self._show_idle()
        self.hint.disabled = self.running or not self.can_hint()

    # --- running -----------------------------------------------------------------------------------
    def start(self) -> None:
        """Analyse the decision to make now: in a thread when a kernel's event loop runs, else here."""
        g = self.table.game
        if self.running or not self.can_hint():
            return
        self.cancel(clear=True)
        game = g.copy()  # the table's game may move on while the thread reads this one
        self._key = position_key(g)
        stop = self._stop = threading.Event()
        self.progress.value, self.progress.max = 0, 1
        self.progress.bar_style = ""
        self.progress.layout.display = None
        self.status.value = note(f"analysing {esc(g.current_player)}'s decision…", INFO)
        self.hint.disabled = True
        self.cancel_button.disabled = False
        seed = (g.seed or 0) * 1000 + len(g.actions)
        loop = running_loop()

        def work() -> Analysis | Exception:
            try:
                return analyze(game, playouts=self.playouts, seed=seed, progress=False, bots=self.bots,
                               time_budget=self.time_budget, stop_when_separated=True,
                               stop=lambda so_far: self._progress(so_far, stop) or stop.is_set())
            except Exception as e:  # shown, never raised into the kernel's loop
                return e

        if loop is None:
            self._finish(self._key, stop, work())
            return
        key = self._key

        def thread() -> None:
            out = work()
            loop.call_soon_threadsafe(self._finish, key, stop, out)

        self._thread = threading.Thread(target=thread, name="powergrid_nb-hint", daemon=True)
        self._thread.start()

    def _progress(self, so_far: Analysis, stop: threading.Event) -> None:
        if stop is not self._stop or stop.is_set():  # a run dropped meanwhile draws nothing more
            return
        total = so_far.asked * len(so_far.candidates)
        if self.progress.max != total:
            self.progress.max = total
        self.progress.value = so_far.playouts * len(so_far.candidates)

    def cancel(self, clear: bool = False) -> None:
        """Stop a running analysis (it then shows what it has, partial); ``clear``: drop it all."""
        if self._stop is not None:
            self._stop.set()
        if clear:
            self._stop, self._key, self.analysis = None, None, None
            for old in self.result.children:
                old.close()
            self.result.children = ()
            self._show_idle()

    def _finish(self, key: tuple | None, stop: threading.Event, out: Analysis | Exception) -> None:
        if stop is not self._stop:  # cleared meanwhile: another position
            return
        self._stop = None
        self.cancel_button.disabled = True
        self.hint.disabled = not self.can_hint()
        if key != position_key(self.table.game):
            self.cancel(clear=True)
            return
        if isinstance(out, Exception):
            self.status.value = note(f"the hint failed: {esc(out)}", ERROR)
            return
        self.show(out)

    def show(self, a: Analysis) -> None:
        """Show an analysis of the current position: the suggestion in words and the figure."""
        import plotly.graph_objects as go

        from powergrid_nb.views.analysis import analysis_figure

        self.analysis = a
        self.progress.layout.display = None
        self.progress.max = max(1, a.asked * len(a.candidates))
        self.progress.value = a.playouts * len(a.candidates)
        clear = not a.partial or a.stopped_by == "separation"
        self.progress.bar_style = "success" if clear else "warning"
        why = "" if not a.partial else (", stopped once the best was clear" if a.stopped_by == "separation"
                                        else f" (partial: stopped by {a.stopped_by})")
        self.status.value = note(f"{a.playouts} playouts per candidate{esc(why)}", INFO)
        text = label(f"<b>Engine's suggestion</b> for {esc(a.player)}: {esc(a.suggestion)}. "
                     "<i>Nothing is played for you.</i>", cls="pg-hint-text")
        fig = go.FigureWidget(analysis_figure(a, width=FIGURE_WIDTH))
        self.result.children = (text, fig)

    def _show_idle(self) -> None:
        self.cancel_button.disabled = True
        if self.analysis is None and not self.running:  # as a fresh table shows it
            self.status.value = ""
            self.progress.value, self.progress.max, self.progress.bar_style = 0, 1, ""
            self.progress.layout.display = "none"

