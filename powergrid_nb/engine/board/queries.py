"""Read-only questions about the board: the play area, the houses and what building costs (R54-R67).

Part of :class:`~powergrid_nb.engine.queries.Queries` (a mixin), so asked of a game: ``g.build_costs(p)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from powergrid_nb.engine.phases import building

if TYPE_CHECKING:
    from powergrid_nb.engine.context import Context
    from powergrid_nb.engine.state import State


class MapQueries:
    """The board's queries of :class:`~powergrid_nb.engine.game.Game`."""

    ctx: Context
    s: State

    if TYPE_CHECKING:
        def _index(self, player: str) -> int: ...
        def _names(self, idx: list[int]) -> list[str]: ...

    @property
    def play_area(self) -> tuple[str, ...]:
        """The cities in play (R4), in the map file's order."""
        return self.ctx.cities

    def distance_table(self) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...]]:
        """(play-area cities, the cheapest link cost between every pair inside the play area, R61)."""
        return self.ctx.cities, self.ctx.dist

    def houses(self) -> dict[str, list[str]]:
        """Owners of each city with houses, in slot order (R55)."""
        names = self.ctx.names
        return {c: [names[p] for p in o] for c, o in self.s.houses.items() if o}

    def owners(self, city: str) -> list[str]:
        return self._names(self.s.houses.get(city, ()))

    @property
    def marked_cities(self) -> list[str]:
        """Start cities marked under the default-starting-cities variant (R134)."""
        return list(self.s.marked)

    def build_cost(self, player: str, city: str, after: Sequence[str] = ()) -> int | None:
        """What ``player`` would pay to add ``city`` now, once the cities ``after`` are added this
        turn (R56-R63), or None if not allowed."""
        return building.city_price(self, self._index(player), city, after)[0]  # type: ignore[arg-type]

    def build_costs(self, player: str, after: Sequence[str] = ()) -> dict[str, int]:
        """:meth:`build_cost` of every city ``player`` may add now (money not checked)."""
        p = self._index(player)
        slots = building.slot_prices(self, p, after)  # type: ignore[arg-type]
        conn = self.connection_costs(player, after)
        return {c: slot + conn.get(c, 0) for c, slot in zip(self.ctx.cities, slots, strict=True)
                if slot is not None}

    def slot_prices(self, player: str, after: Sequence[str] = ()) -> dict[str, int]:
        """The slot price (R56) of every city ``player`` may add now, links left out (R57-R59, R67,
        R135, R136), once the cities ``after`` are added this turn."""
        slots = building.slot_prices(self, self._index(player), after)  # type: ignore[arg-type]
        return {c: x for c, x in zip(self.ctx.cities, slots, strict=True) if x is not None}

    def slot_price_row(self, player: str, after: Sequence[str] = ()) -> list[int | None]:
        """:meth:`slot_prices` as a row in :meth:`distance_table` city order, None where not allowed."""
        return building.slot_prices(self, self._index(player), after)  # type: ignore[arg-type]

    def link_cost_row(self, player: str, after: Sequence[str] = ()) -> list[int] | None:
        """:meth:`connection_costs` as a row in :meth:`distance_table` city order; None for a player
        without a network (and nothing ``after``)."""
        links = building.link_costs(self, self._index(player), after)  # type: ignore[arg-type]
        return None if links is None else list(links)

    def connection_costs(self, player: str, after: Sequence[str] = ()) -> dict[str, int]:
        """The cheapest link cost from ``player``'s network (and ``after``) to each play-area city
        (R60, R61); empty for a player without a network."""
        links = building.link_costs(self, self._index(player), after)  # type: ignore[arg-type]
        return {} if links is None else dict(zip(self.ctx.cities, links, strict=True))

    def network_slot_prices(self, player: str) -> dict[str, int]:
        """:meth:`slot_prices` as if ``player`` had a network: where it could build after a first house."""
        slots = building.slot_prices(self, self._index(player), founded=True)  # type: ignore[arg-type]
        return {c: x for c, x in zip(self.ctx.cities, slots, strict=True) if x is not None}
