"""Phase 0 of the default-starting-cities variant: each player marks a start city (R134, O23)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from powergrid_nb.engine.actions import Action, MarkCity
from powergrid_nb.engine.errors import IllegalAction
from powergrid_nb.engine.rules.phases import Phase

from .base import PhaseRules
from .resources import game_supply

if TYPE_CHECKING:
    from powergrid_nb.engine.context import Context
    from powergrid_nb.engine.game import Game


class StartCitiesPhase(PhaseRules):
    """Before round 1, in reverse player order, each player marks a distinct play-area city."""

    number, name, actions = Phase.START_CITIES, Phase.START_CITIES.label, (MarkCity,)

    def turns(self, ctx: Context, order: list[int]) -> list[int]:
        return [p for p in order[::-1] if p != ctx.trust]  # O23: reverse order marks

    def legal(self, g: Game, p: int) -> list[Action]:
        taken = set(g.s.marked)
        return [a for a, c in zip(g.ctx.mark_one[p], g.ctx.cities, strict=True) if c not in taken]

    def apply(self, g: Game, a: Action, p: int) -> None:
        assert isinstance(a, MarkCity)
        s = g.s
        if a.city not in g.ctx.cidx:
            raise IllegalAction(f"{a.city} is not a city of the play area", "R134", a)
        if a.city in s.marked:
            raise IllegalAction(f"{a.city} is already marked; marked cities are distinct", "R134", a)
        if g.ctx.options["start_markers"] == "uranium" and game_supply(g)[3] < 1:
            raise IllegalAction("no uranium token is left in the supply to mark a city with "
                                "(start_markers='uranium')", "R134", a)
        s.marked.append(a.city)
        s.to_act.pop(0)

    def exit(self, g: Game) -> Phase:
        return Phase.PLAYER_ORDER


START_CITIES = StartCitiesPhase()
