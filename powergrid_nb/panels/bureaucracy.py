"""Phase 5 panel: tick the plants to run (the hybrids' coal/oil mix when it matters), see cities
powered and income from the engine, then confirm; the best run is ticked to begin with (R71-R77)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as w

from powergrid_nb.engine.actions import Power
from powergrid_nb.engine.errors import IllegalAction
from powergrid_nb.engine.gamelog import count

from ._widgets import ERROR, INFO, PhasePanel, esc, note
from .auction import plant_caption
from .rules import error_html

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game


def best(g: Game, player: str, runs: list[Power]) -> Power:
    """The legal run with the most income, burning the fewest tokens (the engine prices each)."""
    def key(a: Power) -> tuple[int, int]:
        out = g.power_outcome(player, a.plants, a.hybrid_coal)
        return out.income, -sum(out.burn.values())
    return max(runs, key=key)


class PowerPanel(PhasePanel):
    """Plants to run as checkboxes (a plant that no legal run adds is disabled)."""

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        self.chosen: set[int] = set()
        self.coal: int | None = None
        self._turn: tuple | None = None

    def render(self, g: Game, player: str, legal: list[Any]) -> list[w.Widget]:
        runs = [a for a in legal if isinstance(a, Power)]
        sets = {frozenset(a.plants) for a in runs}
        turn = (g.round, player)
        if turn != self._turn:
            top = best(g, player, runs)
            self.chosen, self.coal, self._turn = set(top.plants), top.hybrid_coal, turn
        ui = self.ui
        boxes = []
        for n in g.plants_of(player):
            on = n in self.chosen
            allowed = on or frozenset(self.chosen | {n}) in sets
            boxes.append(ui.control(w.Checkbox, f"pg-run-{n}", lambda c, n=n: self._toggle(n, c["new"]),
                                    value=on, description=plant_caption(n), disabled=not allowed,
                                    indent=False))
        mixes = sorted(a.hybrid_coal for a in runs if frozenset(a.plants) == frozenset(self.chosen)
                       and a.hybrid_coal is not None)
        kids: list[w.Widget] = [ui.heading(f"{player}: power cities ({len(g.cities_of(player))} owned)"),
                                ui.label(note("Tick the plants to run (greyed: not enough tokens).")), *boxes]
        if len(mixes) > 1:
            if self.coal not in mixes:
                self.coal = mixes[-1]
            mix = ui.control(w.SelectionSlider, "pg-hybrid-coal", self._mix, options=mixes, value=self.coal,
                             description="hybrid coal")
            kids += [mix, ui.label(note("coal the hybrids burn; oil makes up the rest (R46)"))]
        elif mixes:
            self.coal = mixes[0]
        try:
            out = g.power_outcome(player, sorted(self.chosen), self.coal if mixes else None)
        except IllegalAction as e:
            kids.append(ui.label(note(error_html(e), ERROR), "pg-outcome"))
            return kids
        burn = ", ".join(f"{k} {r}" for r, k in out.burn.items() if k) or "nothing"
        owned = count(len(g.cities_of(player)), "city", "cities")
        kids.append(ui.label(f"Powers <b>{out.powered}</b> of {owned} → income "
                          f"<b>{out.income}</b> Elektro (R76); burns {esc(burn)}", "pg-outcome"))
        if out.fewer:
            kids.append(ui.label(note(f"{esc(out.fewer[0].upper() + out.fewer[1:])}.", INFO), "pg-fewer"))
        action = Power(player, sorted(self.chosen), self.coal if mixes else None)
        kids.append(ui.button(f"Power {count(out.powered, 'city', 'cities')} (+{out.income})", "pg-power",
                           lambda: self.table.submit(action), style="success"))
        return kids

    def _toggle(self, plant: int, on: bool) -> None:
        (self.chosen.add if on else self.chosen.discard)(plant)
        self.rerender()

    def _mix(self, change: dict) -> None:
        self.coal = change["new"]
        self.rerender()
