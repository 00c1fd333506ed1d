"""Phase 4 panel: queue cities (from a list or by clicking the map), see each one's connection and
slot cost and the path it pays for, priced by the engine in queue order; build or clear (R54-R64).
Also the start-city marks of the default-starting-cities variant (R134)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as w

from powergrid_nb.engine.actions import Build, Done, MarkCity

from ._widgets import ERROR, PhasePanel, esc, note

if TYPE_CHECKING:
    from powergrid_nb.engine.board.network import PlanStep
    from powergrid_nb.engine.game import Game

LIST_WIDTH = "calc(100% - 4px)"  # the panel's width less the list's margins: its right border stays in view


def list_box(ui: Any, pick: w.Select) -> w.Box:
    """The list of cities in a box of its own. New costs make a new list (Controls: a selection with new
    options is a new widget); in its own box it is the one view the page makes again, where in the
    panel's column the page would make again every control after it (a list of views changed from the
    first one that differs)."""
    return ui.box(w.VBox, [pick], "pg-candidates-box", overflow="visible")


def step_text(s: PlanStep) -> str:
    """ "Hamburg: 10 link (Bremen → Hamburg) + 10 house = 20" (or why it cannot be built)."""
    if s.rule:
        return f"{esc(s.city)}: cannot be built ({esc(s.rule)}: {esc(s.reason)})"
    path = f" ({esc(' → '.join(s.path))})" if len(s.path) > 1 else ""
    return f"{esc(s.city)}: {s.connection} link{path} + {s.slot_price} house = <b>{s.cost}</b>"


class BuildPanel(PhasePanel):
    """The build queue of the player to act; the map shows it as a plan."""

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        self.queue: list[str] = []
        self._turn: tuple | None = None

    def plan(self) -> list[str]:
        return list(self.queue)

    def render(self, g: Game, player: str, legal: list[Any]) -> list[w.Widget]:
        turn = (g.round, player, len(g.actions))
        if turn != self._turn:
            self.queue = []
            self._turn = turn
        money = g.money(player)
        steps = g.plan_build(player, self.queue) if self.queue else []
        spent = steps[-1].total if steps and steps[-1].total is not None else 0
        options = []
        for city in sorted({a.city for a in legal if isinstance(a, Build)} - set(self.queue)):
            s = g.plan_build(player, [*self.queue, city])[-1]
            if not s.rule:  # plan_build marks a step over the player's money (R64)
                options.append((s.cost, city, s))
        options.sort()
        ui = self.ui
        kids: list[w.Widget] = [ui.heading(f"{player}: build ({money} Elektro)")]
        if options:
            labels = [(f"{c} · {s.connection} link + {s.slot_price} house = {s.cost}"
                       + (f" (from {s.path[0]})" if len(s.path) > 1 else ""), c) for _, c, s in options]
            pick = ui.control(w.Select, "pg-candidates", options=labels, rows=min(8, len(options)),
                              layout={"width": LIST_WIDTH})
            kids += [ui.label(note("Add cities in the order to build them: choose one and Add, or click "
                                   "a city on the map. Costs count the cities queued before.")),
                     list_box(ui, pick), ui.button("Add to queue", "pg-add", lambda: self.add(pick.value))]
        else:
            kids.append(ui.label(note("No more cities affordable now." if self.queue else
                                      f"{esc(player)} cannot build anywhere now.")))
        if steps:
            lines = "".join(f"<li>{step_text(s)} (total {s.total})</li>" for s in steps)
            kids.append(ui.label(f"<b>Queue</b><ol style='margin:2px 0'>{lines}</ol>", "pg-queue"))
            can = all(not s.rule for s in steps)
            kids.append(ui.box(w.HBox, [
                ui.button(f"Build {len(steps)} for {spent}", "pg-build", self._build, style="success",
                          disabled=not can),
                ui.button("Remove last", "pg-unqueue", self._unqueue),
                ui.button("Clear", "pg-clear", self._clear)]))
        queued = bool(steps) and all(not s.rule for s in steps)
        kids.append(ui.button("Build and end turn" if queued else "Done (end of turn)", "pg-done", self._done,
                              tooltip="build the cities queued above, then end the turn" if queued else
                              "end the turn"))
        return kids

    def _done(self) -> None:
        """End the turn; cities queued are built first (a click never drops them), or, if the engine
        refuses them, nothing happens but the reason."""
        g = self.table.game
        player = g.current_player
        if not self.queue:
            self.table.submit(Done(player))
            return
        steps = g.plan_build(player, self.queue)
        bad = next((s for s in steps if s.rule), None)
        if bad is not None:
            self.table.say(f"The cities queued cannot be built: {step_text(bad)}. Remove them (Remove "
                           "last, Clear) to end your turn without building.", ERROR)
            return
        queue, self.queue = self.queue, []
        said = (f"Built the cities queued ({', '.join(queue)}) for {steps[-1].total} Elektro, then ended "
                "the turn.")
        if not self.table.submit(Build(player, *queue), Done(player), done=said):
            self.queue = queue

    def add(self, city: str | None) -> None:
        if not city:
            return
        g = self.table.game
        step = g.plan_build(g.current_player, [*self.queue, city])[-1]
        if step.rule:  # forbidden or, with the queue before it, unaffordable (R64)
            self.table.say(step_text(step), ERROR)
            return
        self.queue.append(city)
        self.table.say("")
        self._changed()

    def city_clicked(self, city: str) -> None:
        if city in self.queue:
            self.table.say(f"{esc(city)} is already queued", ERROR)
            return
        self.add(city)

    def _unqueue(self) -> None:
        if self.queue:
            self.queue.pop()
        self._changed()

    def _clear(self) -> None:
        self.queue = []
        self._changed()

    def _changed(self) -> None:
        self.table.board.refresh()  # the map shows the queue; sent first, it is drawn first (Table.refresh)
        self.rerender()

    def _build(self) -> None:
        g = self.table.game
        if not self.queue:  # a second click on the button of a panel already built (a double click)
            return
        queue, self.queue = self.queue, []
        if not self.table.submit(Build(g.current_player, *queue)):
            self.queue = queue


class StartCitiesPanel(PhasePanel):
    """Default-starting-cities variant: mark a start city before round 1 (R134-R136)."""

    def render(self, g: Game, player: str, legal: list[Any]) -> list[w.Widget]:
        cities = sorted(a.city for a in legal if isinstance(a, MarkCity))
        ui = self.ui
        pick = ui.control(w.Select, "pg-candidates", options=cities, rows=min(10, len(cities)),
                          layout={"width": LIST_WIDTH})
        return [ui.heading(f"{player}: mark a start city"),
                ui.label(note("Choose a city (or click it on the map); it is yours at the start (R134).")),
                list_box(ui, pick),
                ui.button("Mark", "pg-mark", lambda: self.city_clicked(pick.value), style="success")]

    def city_clicked(self, city: str) -> None:
        g = self.table.game
        self.table.submit(MarkCity(g.current_player, city))
