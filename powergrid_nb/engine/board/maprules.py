"""Map-specific rules of Recharged (R124-R127) as pluggable rule objects."""

from __future__ import annotations

from typing import TYPE_CHECKING

from powergrid_nb.engine.events import MapRuleApplied
from powergrid_nb.engine.rules.plants import COAL, URANIUM

if TYPE_CHECKING:
    from powergrid_nb.engine.editions import Edition
    from powergrid_nb.engine.game import Game


class MapRule:
    """A rule attached to a map; every hook defaults to 'no effect'."""

    name = ""
    rule = ""

    def on_acquire(self, g: Game, player: int, plant: int) -> None:
        """A participant takes a plant into play."""

    def refill(self, g: Game, kind: int, amount: int) -> int:
        """Tokens of ``kind`` the phase-5 refill moves (after the table, before the supply cap)."""
        return amount

    def depot_price(self, g: Game, kind: int) -> int | None:
        """Price of tokens bought from the supply once the track is empty; None: not allowed."""
        return None


class UraniumFreeze(MapRule):
    """R125 (O20): once plant 39 is bought, uranium is never refilled again."""

    name, rule = "uranium_freeze", "R125"

    def __init__(self, plant: int = 39) -> None:
        self.plant = plant

    def on_acquire(self, g: Game, player: int, plant: int) -> None:
        if plant == self.plant and not g.s.flags.get("uranium_frozen"):
            g.s.flags["uranium_frozen"] = True
            g._event(MapRuleApplied, g.ctx.names[player], plant, "R125", "uranium is never refilled again")

    def refill(self, g: Game, kind: int, amount: int) -> int:
        return 0 if kind == URANIUM and g.s.flags.get("uranium_frozen") else amount


class CoalDepot(MapRule):
    """R126-R127 (O21): with the coal track empty, coal is bought from the supply at 8."""

    name, rule = "coal_depot", "R126"

    def __init__(self, price: int = 8) -> None:
        self.price = price

    def depot_price(self, g: Game, kind: int) -> int | None:
        return self.price if kind == COAL else None


MAP_RULES: dict[tuple[str, str], tuple[type[MapRule], ...]] = {
    ("germany", "recharged"): (UraniumFreeze,),
    ("usa", "recharged"): (CoalDepot,),
}


def default_map_rules(map_name: str, edition: Edition, enabled: bool | None) -> list[MapRule]:
    """The rules for a map: on by default where the edition says so (Recharged), off otherwise (O21)."""
    if enabled is None:
        enabled = edition.capabilities["map_rules"]
    if not enabled:
        return []
    classes = MAP_RULES.get((map_name, "recharged"), ())
    return [cls() for cls in classes]
