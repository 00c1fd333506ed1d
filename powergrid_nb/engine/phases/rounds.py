"""The round: the phases in their order, and what the engine does between decisions (R13-R23, R89-R96).

Each phase's rules are a :class:`~powergrid_nb.engine.phases.base.PhaseRules` (its number a
:class:`~powergrid_nb.engine.rules.phases.Phase`); this module runs them as a loop: ask
the phase who acts, let the Trust take its turns (its policy, held by the game's context: the policy plays
with these phases, so it lives above them), and when nobody is left, leave the phase and enter the next.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from powergrid_nb.engine.events import GameOver, PhaseBegins
from powergrid_nb.engine.rules.phases import Phase

from .auction import AUCTION
from .base import PhaseRules
from .building import BUILDING
from .bureaucracy import BUREAUCRACY
from .playerorder import PLAYER_ORDER
from .resources import RESOURCES_PHASE
from .startcities import START_CITIES
from .steps import begin_step2, begin_step3

if TYPE_CHECKING:
    from powergrid_nb.engine.context import Context
    from powergrid_nb.engine.game import Game


class GameOverPhase(PhaseRules):
    """Phase "6": the game has ended (R96); nothing is legal."""

    number, name = Phase.GAME_OVER, Phase.GAME_OVER.label

    def current(self, g: Game) -> int | None:
        return None


PHASES: dict[int, PhaseRules] = {ph.number: ph for ph in (
    START_CITIES, PLAYER_ORDER, AUCTION, RESOURCES_PHASE, BUILDING, BUREAUCRACY, GameOverPhase())}


def turns(ctx: Context, order: list[int], phase: Phase) -> list[int]:
    """Who acts in ``phase``, in turn, for this player order (the one home of R25, R45, R54, R71)."""
    return PHASES[phase].turns(ctx, order)


def advance(g: Game) -> None:
    """Run everything automatic until a player must decide or the game ends."""
    s = g.s
    while not s.over:
        phase = PHASES[s.phase]
        p = phase.current(g)
        if p is None:
            nxt = phase.exit(g)
            if nxt is None:
                end_game(g)
            else:
                enter(g, nxt)
        elif p == g.ctx.trust:
            g.ctx.trust_policy.take_turn(g, s.phase)  # type: ignore[union-attr]
        else:
            return


def enter(g: Game, ph: Phase) -> None:
    """Begin phase ``ph``: Step 2 or 3 if due (R89, R93), then the phase's own set-up."""
    s = g.s
    s.phase = ph
    g._event(PhaseBegins, ph)
    if ph == Phase.BUREAUCRACY and s.step == 1 and g.largest_network() >= g.ctx.step2_cities:
        begin_step2(g)
    if s.step3_from is not None and (s.round, ph) >= s.step3_from:
        begin_step3(g)
    PHASES[ph].enter(g)


def end_game(g: Game) -> None:
    s = g.s
    s.over, s.phase = True, Phase.GAME_OVER
    g._event(GameOver, tuple(g.scores().items()))
