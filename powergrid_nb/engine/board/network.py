"""Players' networks: the paths a build pays for (R60-R63), for previews and the map overlay."""

from __future__ import annotations

import functools
import heapq
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from powergrid_nb.engine.gamelog import verb
from powergrid_nb.engine.phases import building

from .maps import UNREACHABLE

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

    from .maps import GameMap


class PlanStep(NamedTuple):
    """One city of a planned build, priced as the engine would charge it at that point."""

    city: str
    slot_price: int | None     # the lowest open slot (R56); None if the city cannot be added
    connection: int | None     # cheapest link cost from the network built so far (R60)
    cost: int | None           # slot + connection
    path: tuple[str, ...]      # cities the paid links run through, network city first
    total: int | None          # running total of the plan up to and including this city
    rule: str                  # the rule that forbids this step, "" when allowed
    reason: str


def cheapest_path(g: Game, sources: Iterable[str], target: str) -> tuple[int, tuple[str, ...]]:
    """Cheapest connection from any source city to ``target`` inside the play area, with its path."""
    adj = _adjacency(g.map, g.regions)
    best: dict[str, int] = {}
    prev: dict[str, str | None] = {}
    heap = []
    for s in sources:
        best[s], prev[s] = 0, None
        heap.append((0, s))
    heapq.heapify(heap)
    while heap:
        d, c = heapq.heappop(heap)
        if c == target:
            path = [c]
            while prev[path[-1]] is not None:
                path.append(prev[path[-1]])  # type: ignore[arg-type]
            return d, tuple(reversed(path))
        if d > best.get(c, d):
            continue
        for nxt, cost in adj[c]:
            nd = d + cost
            if nd < best.get(nxt, 1 << 30):
                best[nxt], prev[nxt] = nd, c
                heapq.heappush(heap, (nd, nxt))
    raise ValueError(f"{target} cannot be reached inside the play area")


def price_plan(g: Game, player: str, cities: Sequence[str], money: int | None = None) -> list[PlanStep]:
    """Price ``cities`` added one at a time in this order (R54, R63), as ``apply(Build(...))`` would.

    Steps after a forbidden one are still priced as if it had been skipped. ``money``: what the
    player has to spend (default: their money now).
    """
    p = g.player_index(player)
    mine = g.cities_of(player)
    money = g.money(player) if money is None else money
    queued: list[str] = []
    steps: list[PlanStep] = []
    total = 0
    for city in cities:
        cost, rule, why = building.city_price(g, p, city, queued)
        if cost is not None and cost > money - total:
            rule, why = "R64", (f"{city} costs {cost} Elektro but {player} {verb(player, 'has')} "
                                f"{money - total}")
        if cost is None or rule:
            steps.append(PlanStep(city, None, None, cost, (), None, rule, why))
            continue
        slot = building.slot_price(g, p, city, queued)[0]
        network = mine + queued
        path = cheapest_path(g, network, city)[1] if network else (city,)
        total += cost
        steps.append(PlanStep(city, slot, cost - slot, cost, path, total, "", ""))  # type: ignore[operator]
        queued.append(city)
    return steps


@functools.cache
def _adjacency(game_map: GameMap, regions: tuple[str, ...]) -> dict[str, list[tuple[str, int]]]:
    inside = set(game_map.cities_in(regions))
    adj: dict[str, list[tuple[str, int]]] = {c: [] for c in game_map.cities if c in inside}
    for a, b, cost in game_map.connections:
        if a in inside and b in inside:
            adj[a].append((b, cost))
            adj[b].append((a, cost))
    return adj


_CIDX: dict[int, tuple[tuple[str, ...], dict[str, int]]] = {}
_NEAR: dict[int, tuple[object, list[list[tuple[int, int]]]]] = {}


def city_index(cities: tuple[str, ...]) -> dict[str, int]:
    """City -> its index in ``cities`` (a play area; memoised per tuple: do not change the dict)."""
    hit = _CIDX.get(id(cities))
    if hit is None or hit[0] is not cities:
        if len(_CIDX) > 64:
            _CIDX.clear()
        hit = _CIDX[id(cities)] = (cities, {c: i for i, c in enumerate(cities)})
    return hit[1]


def nearest_among(dist: Sequence[Sequence[int]], cities: Sequence[int]) -> list[int]:
    """For each of ``cities`` (indices into the table ``dist``), the distance to the nearest other of
    them (UNREACHABLE when there is none)."""
    hit = _NEAR.get(id(dist))
    if hit is None or hit[0] is not dist:  # every city's others, nearest first, once per table
        if len(_NEAR) > 64:
            _NEAR.clear()
        rows = [sorted((d, b) for b, d in enumerate(row) if b != a) for a, row in enumerate(dist)]
        hit = _NEAR[id(dist)] = (dist, rows)
    inside, out = set(cities), []
    for a in cities:
        low = UNREACHABLE
        for d, b in hit[1][a]:
            if b in inside:
                low = d
                break
        out.append(low)
    return out
