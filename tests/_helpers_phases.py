"""Positions for the phase 3-5 rule tests (R45-R87, R108-R117, W4-W16, W26-W28).

``scenario`` is :func:`_position.position` with the defaults these tests were written against:
seed 11, the W7 regions on Germany, round 2 at the start of phase 3, a plant market of 30-37
(so R68 never fires unless a test asks) and every other plant in the deck in ascending order.
"""

from __future__ import annotations

from typing import Any

from _position import S3, position  # noqa: F401  (S3: for the rule tests)

from powergrid_nb import Game
from powergrid_nb.engine.phases.resources import held_total, supply

# Germany: regions holding Essen, Duisburg, Düsseldorf, Münster, Dortmund (red) and Aachen, Köln (blue).
GERMANY_W7 = {3: ["red", "blue", "cyan"], 4: ["red", "blue", "cyan", "yellow"],
              5: ["red", "blue", "cyan", "yellow", "brown"]}
# A plant market high enough that R68 never fires in these tests unless a test asks for it.
HIGH_MARKET = [30, 31, 32, 33, 34, 35, 36, 37]


def scenario(players: int = 4, edition: str = "original", map: str = "germany", *,
             phase: int = 3, step: int = 1, round: int = 2, who: dict | None = None,
             market: list | None = None, deck: list = (), boxed: list = (),
             resources: Any = None, order: list | None = None, to_act: list | None = None,
             regions: list | None = None, flags: dict | None = None, **options: Any) -> Game:
    """:func:`_position.position` at the start of ``phase`` (``who``, ``resources``, ``order``,
    ``deck`` as there); the market defaults to the plants of HIGH_MARKET nobody owns."""
    if regions is None and map == "germany":
        regions = GERMANY_W7.get(players)
    if market is None:
        owned = {c for w in (who or {}).values() for c in w.get("plants", [])}
        market = [c for c in HIGH_MARKET if c not in owned]
    return position(players, edition, map, seed=11, regions=regions, options=options, round=round,
                    phase=phase, step=step, who=who, market=market, deck=deck, boxed=boxed,
                    resources=resources, order=order, to_act=to_act, flags=flags)


def supply_of(g: Game) -> list[int]:
    """Tokens per type that are neither on the market nor on any plant (R1)."""
    return supply(g.s.res, held_total(g))


def events(g: Game, kind: str, since: int = 0) -> list:
    """History events of one kind, from index ``since`` on."""
    return [e for e in g.history[since:] if e.kind == kind]
