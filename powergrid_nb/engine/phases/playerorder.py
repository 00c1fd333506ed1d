"""Phase 1: the player order (R18-R22, R129), set again each round and once after round 1's auction."""

from __future__ import annotations

from typing import TYPE_CHECKING

from powergrid_nb.engine.events import MarketAtRoundStart, PlayerOrder
from powergrid_nb.engine.rules.phases import Phase

from .base import PhaseRules

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game


def reorder(g: Game) -> None:
    """R18-R22: most cities first, then the highest plant, then the previous order (R129: the Trust
    sits second)."""
    s = g.s
    prev = {p: i for i, p in enumerate(s.order)}
    humans = sorted(g.ctx.humans, key=lambda p: (-len(s.mine[p]), -max(s.plants[p], default=0),
                                                    prev[p]))
    if g.ctx.trust_policy is not None:
        humans = g.ctx.trust_policy.seat(humans, g.ctx.trust)
    s.order = humans
    g._event(PlayerOrder, tuple(g.ctx.names[p] for p in humans))


class PlayerOrderPhase(PhaseRules):
    """Phase 1: the new player order (R18), then the round's resource market is noted for the views."""

    number, name = Phase.PLAYER_ORDER, Phase.PLAYER_ORDER.label

    def enter(self, g: Game) -> None:
        if g.s.round > 1:
            reorder(g)
        g._event(MarketAtRoundStart, tuple(g.s.res))

    def exit(self, g: Game) -> Phase:
        return Phase.AUCTION


PLAYER_ORDER = PlayerOrderPhase()
