"""Players' networks: the paths a build pays for (R60-R63), for previews and the map overlay."""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from . import building

if TYPE_CHECKING:
    from .game import Game


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


def adjacency(g: Game) -> dict[str, list[tuple[str, int]]]:
    """Links with both ends in the play area (R4), per city."""
    adj = getattr(g.ctx, "_adjacency", None)
    if adj is None:
        inside = set(g.ctx.cities)
        adj = {c: [] for c in g.ctx.cities}
        for a, b, cost in g.ctx.map.connections:
            if a in inside and b in inside:
                adj[a].append((b, cost))
                adj[b].append((a, cost))
        g.ctx._adjacency = adj
    return adj


def cheapest_path(g: Game, sources: Iterable[str], target: str) -> tuple[int, tuple[str, ...]]:
    """Cheapest connection from any source city to ``target`` inside the play area, with its path."""
    adj = adjacency(g)
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


def price_plan(g: Game, player: str, cities: Sequence[str]) -> list[PlanStep]:
    """Price ``cities`` added one at a time in this order (R54, R63), as ``apply(Build(...))`` would.

    Steps after the first forbidden one are still priced as if it had been skipped.
    """
    h = g.copy()
    p = h._index(player)
    steps: list[PlanStep] = []
    total = 0
    prices = h.ctx.edition.tables["build_prices"]
    for city in cities:
        cost, rule, why = building.city_cost(h, p, city)
        if cost is not None and cost > h.s.money[p]:
            rule, why = "R64", f"{city} costs {cost} Elektro but {player} has {h.s.money[p]}"
        if cost is None or rule:
            steps.append(PlanStep(city, None, None, cost, (), None, rule, why))
            continue
        slot = prices[len(h.s.houses.get(city, ()))]
        mine = h.s.mine[p]
        path = cheapest_path(h, mine, city)[1] if mine else (city,)
        total += cost
        steps.append(PlanStep(city, slot, cost - slot, cost, path, total, "", ""))
        building.add_house(h, p, city, cost)
    return steps
