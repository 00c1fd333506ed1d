"""The small protocol every phase follows: who acts, what is legal, apply, enter and exit (R13).

The phases' numbers and names are :class:`~powergrid_nb.engine.rules.phases.Phase`; this is the rules
each one plays."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from powergrid_nb.engine.rules.phases import Phase

if TYPE_CHECKING:
    from powergrid_nb.engine.actions import Action
    from powergrid_nb.engine.context import Context
    from powergrid_nb.engine.game import Game


class PhaseRules:
    """The rules of one phase of the round. The engine asks it who acts, lists and applies that
    player's actions, and enters and leaves it; :mod:`powergrid_nb.engine.phases.rounds` runs the
    phases in their order. ``number`` is the phase; ``name`` its words (``number.label``)."""

    number: ClassVar[Phase]
    name: ClassVar[str]
    actions: ClassVar[tuple[type[Action], ...]] = ()

    def turns(self, ctx: Context, order: list[int]) -> list[int]:
        """Who acts in this phase, in turn, given the player order (empty: nobody takes turns)."""
        return []

    def current(self, g: Game) -> int | None:
        """The participant to act now; None when the phase is finished."""
        to_act = g.s.to_act
        return to_act[0] if to_act else None

    def legal(self, g: Game, p: int) -> list[Action]:
        """Every legal decision of ``p`` (atomic forms)."""
        return []

    def apply(self, g: Game, a: Action, p: int) -> None:
        """Check ``a`` and carry it out; IllegalAction (and nothing changed) if the rules forbid it."""
        raise NotImplementedError

    def enter(self, g: Game) -> None:
        """Set the phase up once it begins."""
        g.s.to_act = self.turns(g.ctx, g.s.order)

    def exit(self, g: Game) -> Phase | None:
        """What the game does once nobody is left to act; returns the next phase (None: game over)."""
        raise NotImplementedError
