"""The sweep panel: choose a rule parameter, a range of values and games per point; Run plays
:func:`~powergrid_nb.play.simulation.sweep` in a background thread (the kernel stays free) with a progress
bar and a Stop button, then draws :func:`~powergrid_nb.views.whatif.sweep_figure`."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

import ipywidgets as w
import plotly.graph_objects as go

from powergrid_nb.bots import BOTS
from powergrid_nb.engine.board.maps import DEFAULT_MAP, builtin_maps
from powergrid_nb.engine.editions import DEFAULT_EDITION, EDITIONS, MAX_PLAYERS, MIN_PLAYERS
from powergrid_nb.engine.game import Game
from powergrid_nb.play.comparison import RANGE_PARAMETERS, SMALLEST, parameter_rule, playable, rule_value
from powergrid_nb.play.results import SimulationResult
from powergrid_nb.play.simulation import make_job, sweep
from powergrid_nb.views.whatif import sweep_figure

from ._widgets import ERROR, INFO, OK, button, esc, heading, label, note, with_class

MAX_POINTS = 25  # values per sweep: a visitor of the app cannot ask for an endless run
MAX_GAMES = 2000  # games in all
# a default range around the current value: (below, above, step)
SPANS = {"starting_money": (20, 20, 10), "step2_cities": (3, 3, 1), "end_cities": (4, 0, 1),
         "plant_limit": (1, 2, 1), "max_cities": (0, 6, 2)}


class SweepPanel(w.VBox):
    """A rule parameter swept over a range with bots; ``result`` and ``figure`` hold the last run.

    ``base``: a position to play on (a ``Game``) or a new_game spec dict; None: the panel's own players,
    map and edition. ``wait()`` blocks until a run started by Run is over.
    """

    def __init__(self, base: Game | Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self.add_class("pg-sweep")
        self.base = base
        self.result: SimulationResult | None = None
        self.figure: go.FigureWidget | None = None
        self._thread: threading.Thread | None = None
        self._halt = threading.Event()
        self._what = ""
        self.param = _field(w.Dropdown, "parameter", "250px", "pg-sweep-param",
                            options=list(RANGE_PARAMETERS), value="starting_money")
        self.low = _field(w.IntText, "from", "120px", "pg-sweep-from")
        self.high = _field(w.IntText, "to", "110px", "pg-sweep-to")
        self.step = _field(w.IntText, "step", "120px", "pg-sweep-step", value=1)
        self.games = _field(w.IntText, "games per value", "190px", "pg-sweep-games", value=10)
        self.seed = _field(w.IntText, "first seed", "160px", "pg-sweep-seed", value=1)
        self.players = _field(w.IntSlider, "players", "210px", "pg-sweep-players", value=3,
                              min=MIN_PLAYERS, max=MAX_PLAYERS)
        self.map = _field(w.Dropdown, "map", "200px", "pg-sweep-map", options=builtin_maps(),
                          value=DEFAULT_MAP)
        self.edition = _field(w.Dropdown, "edition", "200px", "pg-sweep-edition", options=list(EDITIONS),
                              value=DEFAULT_EDITION)
        self.by = _field(w.Dropdown, "lines by", "190px", "pg-sweep-by", options=["player", "seat", "bot"],
                         value="player")
        self.bots: list[w.Dropdown] = []
        self.seats: list[str] = []
        self.seat_box = w.HBox(layout=ROW)
        self.about = label(cls="pg-sweep-about", width="100%", max_width="900px")
        self.run_button = button("Run", "pg-sweep-run", self.run, style="success")
        self.stop_button = button("Stop", "pg-sweep-stop", self.stop, style="danger", disabled=True)
        self.progress = with_class(w.IntProgress(value=0, min=0, max=1, description="games",
                                                 layout=w.Layout(width="300px")), "pg-sweep-progress")
        self.status = label(cls="pg-sweep-status")
        self.plot = w.VBox(layout=w.Layout(width="100%")).add_class("pg-sweep-plot")
        self.param.observe(lambda _c: self._defaults(), names="value")
        for wid in (self.players, self.map, self.edition):
            wid.observe(lambda _c: self._setup_changed(), names="value")
        self.by.observe(lambda _c: self._draw(), names="value")
        if base is None:
            where: list[w.Widget] = [self.players, self.map, self.edition]
        else:
            where = [label(f"from the position: {esc(_describe(self._base_game()))}", cls="pg-sweep-base")]
        self._seats()
        self._defaults()
        self.children = [heading("Sweep a rule parameter"),
                         w.HBox([self.param, self.low, self.high, self.step], layout=ROW), self.about,
                         w.HBox([self.games, self.seed], layout=ROW), w.HBox(where, layout=ROW),
                         self.seat_box,
                         w.HBox([self.run_button, self.stop_button, self.progress, self.by], layout=ROW),
                         self.status, self.plot]

    # --- the set-up ----------------------------------------------------------------------------------
    def spec(self) -> Game | Mapping[str, Any]:
        """What every game starts from: the base, or the panel's players, map and edition."""
        if self.base is not None:
            return self.base
        return {"players": self.players.value, "map": self.map.value, "edition": self.edition.value}

    def _base_game(self, rules: dict[str, Any] | None = None) -> Game:
        spec = self.spec()
        if isinstance(spec, Game) and not rules:
            return spec
        return make_job(spec, "random", rules)[1]

    def _setup_changed(self) -> None:
        self._seats()
        self._defaults()

    def _seats(self) -> None:
        names = self._base_game().players
        while len(self.bots) < len(names):
            self.bots.append(with_class(w.Dropdown(options=sorted(BOTS), value="heuristic",
                                                   layout=w.Layout(width="130px")),
                                        f"pg-sweep-bot-{len(self.bots)}"))
        self.seats = list(names)
        self.seat_box.children = [label("bots:", width="45px")] + [
            w.HBox([label(esc(n), width="auto", margin="0 4px 0 8px"), self.bots[i]])
            for i, n in enumerate(names)]

    def bot_specs(self) -> list[str]:
        """The bot of each seat, in ``game.players`` order."""
        return [b.value for b in self.bots[:len(self.seats)]]

    def _defaults(self) -> None:
        """A range around the parameter's value in the current set-up, and what the parameter means."""
        name = self.param.value
        g = self._base_game()
        v = rule_value(g, name)
        below, above, step = SPANS[name]
        low, high = max(0 if name == "starting_money" else 1, v - below), v + above
        if name == "end_cities":
            high = min(v, g.max_cities, len(g.play_area))
        if name == "max_cities":
            low = max(v - 4, g.end_cities)
        self.low.value, self.high.value, self.step.value = low, high, step
        self.about.value = (f'<div style="color:{INFO};font-size:12px;line-height:1.35;margin:2px 0 6px">'
                            f"<b>now {v}</b>. {esc(parameter_rule(name))}</div>")

    # --- checking and running -----------------------------------------------------------------------
    def plan(self) -> list[int]:
        """The values to play, every one checked with the rules; a ValueError saying what is wrong."""
        name, low, high, step, games = (self.param.value, self.low.value, self.high.value, self.step.value,
                                        self.games.value)
        if step < 1:
            raise ValueError(f"step must be 1 or more, not {step}")
        values = list(range(low, high + 1, step))
        if not values:
            raise ValueError(f"from {low} to {high} is an empty range: 'from' must be at most 'to'")
        if len(values) > MAX_POINTS:
            raise ValueError(f"{len(values)} values is too many: at most {MAX_POINTS} (use a larger step)")
        if not 1 <= games <= MAX_GAMES // len(values):
            raise ValueError(f"games/value must be 1 to {MAX_GAMES // len(values)} for {len(values)} values "
                             f"(at most {MAX_GAMES} games in all), not {games}")
        if low < SMALLEST[name]:
            raise ValueError(f"{name} = {low} is below the smallest value the rules take, {SMALLEST[name]} "
                             f"({parameter_rule(name)})")
        bad: dict[int, str] = {}
        for v in values:
            try:
                g = make_job(self.spec(), self.bot_specs(), {name: v})[1]
            except ValueError as e:
                bad[v] = str(e)
                continue
            why = playable(g)
            if why:
                bad[v] = why
        if bad:
            (v, why), *_ = bad.items()
            more = f" (also {', '.join(map(str, list(bad)[1:]))})" if len(bad) > 1 else ""
            tail = "" if name in why else f" ({parameter_rule(name)})"
            raise ValueError(f"{name} = {v}{more} cannot be played: {why}{tail}")
        return values

    def run(self) -> None:
        """Check the range, then sweep it in a background thread."""
        if self.running:
            return
        try:
            values = self.plan()
        except ValueError as e:
            self.status.value = note(esc(e), ERROR)
            return
        self._halt.clear()
        self.progress.max, self.progress.value = len(values) * self.games.value, 0
        self.progress.bar_style = "info"
        self.run_button.disabled, self.stop_button.disabled = True, False
        self.result, self.figure, self.plot.children = None, None, ()  # the last figure is not this run's
        self._what = f"{len(values)} values × {self.games.value} games"
        self.status.value = note(f"Running {self._what} …", INFO)
        args = (self.spec(), {self.param.value: values}, self.games.value, self.bot_specs(), self.seed.value)
        self._thread = threading.Thread(target=self._work, args=args, daemon=True, name="pg-sweep")
        self._thread.start()

    def _work(self, spec: Any, grid: dict[str, list[int]], games: int, bots: list[str], seed: int) -> None:
        try:
            result = sweep(spec, grid, games_per_point=games, bots=bots, seeds=seed, progress=False,
                           stop=self._tick)
        except Exception as e:  # shown, not lost in the thread
            self.status.value = note(f"The sweep failed: {esc(e)}", ERROR)
            self.progress.bar_style = "danger"
        else:
            self.result = result
            self._draw()
            done = f"{len(result)} of {self.progress.max} games in {result.seconds:.1f} s"
            if result.stopped and len(result) < self.progress.max:
                self.status.value = note(f"Stopped: a partial result, {done}.", ERROR)
                self.progress.bar_style = "warning"
            else:
                self.status.value = note(f"Done: {done}.", OK)
                self.progress.bar_style = "success"
        finally:
            self.run_button.disabled, self.stop_button.disabled = False, True

    def _tick(self, result: SimulationResult) -> bool:
        """The runner's ``stop=``: after each game, move the bar; true once Stop was pressed."""
        n, total = len(result), self.progress.max
        self.progress.value = n
        if n % max(1, total // 50) == 0:  # about 50 readouts a run, not one message per game
            self.status.value = note(f"Running {self._what}: {n} of {total} played …", INFO)
        return self._halt.is_set()

    def stop(self) -> None:
        """Stop the run after the game in progress; the games played so far are kept."""
        self._halt.set()
        self.stop_button.disabled = True

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wait(self, timeout: float | None = None) -> None:
        """Block until the run in progress (if any) is over."""
        if self._thread is not None:
            self._thread.join(timeout)

    def _draw(self) -> None:
        if self.result is None:
            return
        param = self.result.param_columns[0]
        self.figure = go.FigureWidget(sweep_figure(self.result, param, by=self.by.value))
        self.plot.children = (self.figure,)


ROW = w.Layout(flex_flow="row wrap", align_items="center")


def _field(kind: type[w.Widget], description: str, width: str, cls: str, **traits: Any) -> w.Widget:
    """A control with its description at its own length (not cut at the default width)."""
    return with_class(kind(description=description, layout=w.Layout(width=width),
                           style={"description_width": "initial"}, **traits), cls)


def _describe(g: Game) -> str:
    return f"{len(g.players)} players, {g.map.name}, {g.edition}, round {g.round}"
