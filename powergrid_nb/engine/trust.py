"""The Trust of the 2-player Recharged game (R128-R133) as a pluggable policy (O22, provisional).

The policy plays the Trust's turns with the phases' own functions, so it sits above ``phases/``; the
round reaches it through the game's context (``ctx.trust_policy``), never by importing it.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .events import TrustFuel
from .phases import auction, building
from .phases.steps import current_market, rng
from .rules.phases import Phase
from .rules.plants import COAL, OIL, PLANTS, RESOURCES

if TYPE_CHECKING:
    from .game import Game

TRUST_NAME = "Trust"


class TrustPolicy:
    """The O22 placeholders: override a method to try another reading of the Trust's rules."""

    name = "default"

    def choose_plant(self, g: Game) -> int | None:
        """R130: the largest plant of the current market, without auction or payment."""
        cur = current_market(g)
        return cur[-1] if cur else None

    def fuel(self, g: Game, plant: int) -> list[int]:
        """R131: one run's worth for the plant taken this round, cheapest first (hybrid: cheaper type)."""
        p = PLANTS[plant]
        take = [0, 0, 0, 0]
        kinds = [COAL, OIL] if p.is_hybrid else [RESOURCES.index(p.fuel)] if p.tokens else []
        res, track = list(g.s.res), g.ctx.edition.track  # the game's price tracks (R117)
        for _ in range(p.tokens):
            priced = [(track.next_price(k, res[k]), k) for k in kinds if res[k] > 0]
            if not priced:
                break
            _, k = min(priced)
            res[k] -= 1
            take[k] += 1
        return take

    def seat(self, order: list[int], trust: int) -> list[int]:
        """R129: the Trust always sits second in the player order."""
        return [*order[:1], trust, *order[1:]]

    def box(self, g: Game, plants: list[int]) -> int:
        """Over the plant limit (O22): the Trust boxes its lowest plant, never the one just taken."""
        return min(plants[:-1])

    def choose_city(self, g: Game, rng: random.Random) -> str | None:
        """R132 placeholder: one free house a round in a random empty play-area city."""
        empty = [c for c in g.ctx.cities if not g.s.houses.get(c) and c not in g.s.marked]
        return rng.choice(empty) if empty else None

    def take_turn(self, g: Game, phase: Phase) -> None:
        """The Trust's automatic turn in phases 2-4 (R130-R132), as the methods above decide."""
        s, t = g.s, g.ctx.trust
        assert t is not None
        if phase == Phase.AUCTION:
            plant = self.choose_plant(g)
            if plant is None:
                s.active.remove(t)
            else:
                s.flags["trust_plant"] = plant
                auction.take_plant(g, t, plant, 0)
        elif phase == Phase.RESOURCES:
            plant = s.flags.pop("trust_plant", None)
            if plant is not None:
                take = self.fuel(g, plant)
                s.res = [n - x for n, x in zip(s.res, take, strict=True)]
                g._event(TrustFuel, g.ctx.names[t], tuple(take))
            s.to_act.pop(0)
        elif phase == Phase.BUILDING:
            city = self.choose_city(g, rng(g))
            if city is not None:
                building.add_house(g, t, city, 0)
            s.to_act.pop(0)


TRUST_POLICIES: dict[str, type[TrustPolicy]] = {"default": TrustPolicy}
