"""Where the heuristic bots build: the greedy city sequence, priced city by city by the engine.

Which cities a player may add and what each costs come from :meth:`Game.build_costs` (the one home
of R56-R63, R67, R135, R136 is :mod:`powergrid_nb.engine.phases.building`); nothing here restates them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from powergrid_nb.engine.board.network import city_index

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game


def next_city(g: Game, player: str, after: list[str], links: list[int]) -> tuple[int, str] | None:
    """(cost, city): the cheapest city ``player`` may add once ``after`` are added this turn (ties:
    the first name); a first house goes where the next three cities are cheapest. None: no city.
    ``links``: the link cost from the network and ``after`` to each play-area city, as
    :class:`GreedyRun` keeps them (empty: no network yet); slot plus link as ``Game.build_costs``."""
    if links:  # a network or cities added (so not a first house): slot plus link
        low, best = None, None
        for city, slot, link in zip(g.distance_table()[0], g.slot_price_row(player, after), links,
                                    strict=True):
            if slot is not None:
                cost = slot + link
                if low is None or cost < low or (cost == low and city < best):  # min (cost, city)
                    low, best = cost, city
        return None if low is None else (low, best)
    slots = g.slot_prices(player, after)
    if not slots:
        return None
    if not after and not g.city_count(player):
        city = first_city(g, player, slots)
        return slots[city], city
    low = min(slots.values())
    return low, min([city for city, cost in slots.items() if cost == low])


def _index_of(g: Game) -> dict[str, int]:
    """Play-area city -> its index in :meth:`Game.distance_table` (``network.city_index``, memoised)."""
    return city_index(g.distance_table()[0])




def greedy_cities(g: Game, player: str, k: int, budget: int | None) -> tuple[list[str], int]:
    """(cities, total): the cheapest next city, ``k`` times, within ``budget``, priced as the engine
    does; a first house goes where the next three cities are cheapest."""
    run = GreedyRun()
    n = run.extend(g, player, k)
    out, total = run.prefix(n, budget)
    return out, total


class GreedyRun:
    """The greedy sequence of one player from one position, extended on demand: the first ``k``
    cities of a longer run are the run of ``k`` (a budget cuts it at the first city it cannot pay)."""

    def __init__(self) -> None:
        self.cities: list[str] = []
        self.totals: list[int] = [0]  # totals[i]: what the first i cities cost
        self.ended = False
        self.links: list[int] | None = None  # link cost to each play-area city ([]: no network yet)

    def extend(self, g: Game, player: str, k: int, above: int | None = None) -> int:
        """Grow the run to ``k`` cities (from ``g``, the position it was started in) if it can, or
        until it costs more than ``above``; how many it has then (at most ``k``)."""
        totals = self.totals
        while len(self.cities) < k and not self.ended and (above is None or totals[-1] <= above):
            links = self.links
            if links is None:  # the link costs from the network (the cities added since: below)
                links = self.links = g.link_cost_row(player) or []
            step = next_city(g, player, self.cities, links)
            if step is None:
                self.ended = True
                break
            city = step[1]
            self.cities.append(city)
            totals.append(totals[-1] + step[0])
            row = g.distance_table()[1][_index_of(g)[city]]  # R63: an added city links the next ones
            self.links = (list(row) if not links
                          else [a if a < b else b for a, b in zip(links, row, strict=True)])
        return min(k, len(self.cities))

    def prefix(self, n: int, budget: int | None) -> tuple[list[str], int]:
        """The first ``n`` cities, stopped before the first one ``budget`` cannot pay; (cities, total)."""
        if budget is not None:
            totals = self.totals
            i = 0
            while i < n and totals[i + 1] <= budget:
                i += 1
            n = i
        return self.cities[:n], self.totals[n]


_FIRST: dict[tuple, str] = {}


def first_city(g: Game, player: str, options: Mapping[str, int]) -> str:
    """The first house (one of ``options``, in play-area order) where the next three cities are
    cheapest (memoised per board and position)."""
    occupancy = tuple(sorted((c, len(o)) for c, o in g.houses().items()))
    key = (g.distance_table(), tuple(g.rules.tables["build_prices"]), g.step, occupancy,
           tuple(g.marked_cities), tuple(options))
    city = _FIRST.get(key)
    if city is None:
        if len(_FIRST) > 4096:
            _FIRST.clear()
        city = _FIRST[key] = min(options, key=lambda c: (growth(g, player, c), c))
    return city


def growth(g: Game, player: str, city: str) -> int:
    """Cost of the three cheapest cities ``player`` could add after a first house in ``city``."""
    return sum(sorted(g.build_costs(player, [city]).values())[:3])


class BuildEstimates:
    """Greedy build estimates of one round's positions (a mixin for the heuristic bots; needs a
    per-round ``_memo``): a run per position, shared by every estimate made there."""

    _memo: dict[tuple, Any]

    def greedy(self, g: Game, player: str) -> GreedyRun:
        """The greedy build sequence from this position (shared by the estimates of one position)."""
        houses = g.house_total()  # houses only grow within a round
        key = ("greedy", g.step, player, houses)
        run = self._memo.get(key)
        if run is None:
            run = self._memo[key] = GreedyRun()
        return run

    def build_estimate(self, g: Game, player: str, k: int) -> int:
        """Cost of the cheapest ``k`` cities by greedy pricing (used for reserves and plans)."""
        if k <= 0:
            return 0
        run = self.greedy(g, player)
        n = run.extend(g, player, k)
        return run.totals[n] + 40 * (k - n)  # 40: a guess for a city not to be had

    def can_afford(self, g: Game, player: str, k: int, budget: int) -> bool:
        """``build_estimate(g, player, k) <= budget``, without pricing cities beyond the budget."""
        if k <= 0:
            return budget >= 0
        if k * min(40, *g.rules.tables["build_prices"]) > budget:
            return False  # no city costs less than a slot (links cost >= 0); 40 stands for a missing one
        run = self.greedy(g, player)
        n = run.extend(g, player, k, budget)
        return run.totals[n] <= budget and (n == k or run.ended) and run.totals[n] + 40 * (k - n) <= budget

