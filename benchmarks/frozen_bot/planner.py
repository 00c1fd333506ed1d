"""The exact build planner: the cheapest way to add given cities this turn, or k cities.

What the engine charges
-----------------------
Cities are priced one at a time (R54): slot price (R56) + the cheapest link cost from the network
built so far (R60), where cities added earlier in the turn already count (R63) but links paid
earlier do not (R62: every use is paid again; a city passed through without a house is not part
of the network, R61). So for targets ``T`` added in the order ``c1, ..., ck``

    total = sum(slot(c)) + sum(d(S_{i-1}, c_i)),   S_0 = network, S_i = S_{i-1} + {c_i},

with ``d`` the cheapest play-area path cost (R61). The slot prices do not depend on the order: the
player adds one house per city, nobody else builds in between and the step never changes inside
phase 4 (R89 is checked when phase 5 starts; a Step 3 card drawn during building takes effect
in phase 5, R91).

Exactness argument (why this is NOT a Steiner tree problem)
-----------------------------------------------------------
Contract the network into one root vertex ``r`` and give the complete graph on ``{r} + T`` the
weights ``w(r, t) = d(network, t)`` and ``w(t, u) = d(t, u)`` (the metric closure).

* Any order costs at least the minimum spanning tree (MST) of that graph: join every ``c_i`` to the
  element of ``S_{i-1}`` its connection was measured from (``r`` for a network city); every
  vertex but ``r`` gets exactly one earlier parent, so these edges are a spanning tree, and the
  connection costs are exactly its weight.
* Prim's algorithm from ``r`` reaches the MST weight, and Prim's order is a build order whose
  connection costs are exactly Prim's edges (the next city is the one cheapest to connect).

Hence the optimum over orders is ``sum(slot) + MST``, found in O(k^2) with Prim, and the Prim order
realises it (checked against ``price_plan`` on every call). A Steiner tree can be cheaper than the
MST (a fork at a city without a house), but the engine cannot realise it: under R62 the shared
trunk to a fork is paid once per city that uses it. So the Dreyfus-Wagner Steiner programme would
give a wrong (too low) price; ``tests/test_planner.py`` shows a Germany position where that
happens. A player without a network pays 10 for a first house (R59, an empty city, a marked one
under R135) and no links; the MST does not depend on its root, so any target that may take the
first house serves as the root.

Choosing the cities (``cheapest_k``) is a node-weighted k-MST problem (NP-hard in general). It is
solved exactly by branch and bound over Prim sequences: at every node the candidates still
allowed are sorted by their connection cost from the current tree, and a child may only use
cities after the one it adds. Every set is reached along its own Prim order, so nothing is
missed; a branch is cut when its cost plus, for each city still needed, the smallest
``slot + min(connection from the tree, distance to the nearest other candidate)`` among the
cities still allowed (a valid lower bound of what each later city pays) reaches the best total
found (the engine-greedy solution to start with).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from operator import add, itemgetter
from typing import TYPE_CHECKING, NamedTuple

from powergrid_nb.engine.board.maps import UNREACHABLE
from powergrid_nb.engine.board.network import PlanStep, city_index, nearest_among, price_plan

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

__all__ = ["Plan", "cheapest_cities", "cheapest_k", "plan_targets"]

_INF = 1 << 60


class Plan(NamedTuple):
    """Cities to add, in the order to build them, and what apply(Build(player, *cities)) charges."""

    cities: tuple[str, ...]
    total: int              # slot prices + connection costs in this order (money is not checked)
    steps: list[PlanStep]   # network.price_plan of ``cities`` (priced with enough money, no R64)


class _Area:
    """What the planner needs about the player's position: distances, legal cities, slot prices."""

    def __init__(self, g: Game, player: str, only: Iterable[int] | None = None) -> None:
        self.g, self.player = g, player
        self.cities, self.dist = g.distance_table()
        self.cidx = city_index(self.cities)
        self.room = g.max_cities - g.city_count(player)  # R67
        self.root = g.link_cost_row(player)  # None: no network yet
        self.expand: dict[int, int] = {}  # city index -> slot price, cities the network may reach
        self.first: dict[int, int] = {}   # city index -> price, cities legal for a first house (R59)
        keep = None if only is None else set(only)
        slots = {i: x for i, x in enumerate(g.slot_price_row(player)) if x is not None
                 and (keep is None or i in keep)}
        if self.root is not None:
            root = self.root
            self.expand = {i: x for i, x in slots.items() if root[i] < UNREACHABLE}
            return
        self.first = slots
        # once a first house stands elsewhere (R57, R58, R136)
        self.expand = self._indexed(g.network_slot_prices(player), keep)

    def _indexed(self, prices: dict[str, int], keep: set[int] | None) -> dict[int, int]:
        cidx = self.cidx
        out = {cidx[c]: x for c, x in prices.items()}
        return out if keep is None else {i: x for i, x in out.items() if i in keep}


def _prim(dist, root: list[int] | None, first: int | None, nodes: list[int]) -> tuple[int, list[int]]:
    """(MST weight, Prim order) of ``nodes`` joined to the network (``root`` row) or to ``first``."""
    if root is not None:
        key = {n: root[n] for n in nodes}
        order: list[int] = []
    else:
        assert first is not None
        key = {n: dist[first][n] for n in nodes if n != first}
        order = [first]
    weight = 0
    while key:
        n = min(key, key=key.__getitem__)  # first of the cheapest, in target order
        weight += key.pop(n)
        order.append(n)
        row = dist[n]
        for m in key:
            if row[m] < key[m]:
                key[m] = row[m]
    return weight, order


def _plan(area: _Area, order: list[int], total: int) -> Plan:
    g, player = area.g, area.player
    cities = tuple(area.cities[i] for i in order)
    steps = price_plan(g, player, cities, money=max(total, g.money(player)))
    if cities and (steps[-1].total != total or any(st.rule for st in steps)):
        raise RuntimeError(f"planner and engine disagree on {cities}: {total} vs {steps}")
    return Plan(cities, total, steps)


def plan_targets(g: Game, player: str, targets: Iterable[str]) -> Plan | None:
    """The cheapest way for ``player`` to add all ``targets`` this turn, with the order to build them.

    Exact: the total is the minimum over every build order of what the engine charges (see the
    module docstring). None when the targets cannot all be added (a full or own city, outside the
    play area, a marked city in Step 1 (R136), more houses than R67 allows, ...). Money is not
    checked: compare ``plan.total`` with ``g.money(player)``.
    """
    names = list(targets)
    cidx = {c: i for i, c in enumerate(g.play_area)}
    if len(set(names)) != len(names) or any(c not in cidx for c in names):
        return None
    nodes = [cidx[c] for c in names]
    return _plan_nodes(_Area(g, player, nodes), nodes)


def _plan_nodes(area: _Area, nodes: list[int]) -> Plan | None:
    """:func:`plan_targets` of the cities ``nodes`` (indices) in an area that covers them."""
    found = _order(area, nodes)
    return None if found is None else _plan(area, *found)


def _order(area: _Area, nodes: list[int]) -> tuple[list[int], int] | None:
    """(the cheapest build order of ``nodes``, its total), or None if they cannot all be added."""
    if len(nodes) > area.room:
        return None
    if not nodes:
        return [], 0
    if area.root is not None:
        if any(n not in area.expand for n in nodes):
            return None
        weight, order = _prim(area.dist, area.root, None, nodes)
    else:
        for r in nodes:  # the first house may go in any target legal for it (the MST has no root)
            if r in area.first and all(n in area.expand for n in nodes if n != r):
                weight, order = _prim(area.dist, None, r, nodes)
                break
        else:
            return None
    if weight >= UNREACHABLE:
        return None
    slots = sum(area.expand[n] for n in order[1:]) + (
        area.expand[order[0]] if area.root is not None else area.first[order[0]])
    return order, slots + weight


class _Tables:
    """The candidates of one search, by local index 0..m-1: their distances (rows on first use), slot
    prices and the distance to each one's nearest other candidate (shared by the searches for every k)."""

    def __init__(self, dist, cands: list[int], slot: list[int]) -> None:
        self.cands, self.dist = cands, dist
        self.slot = slot
        self.min_slot = min(slot, default=0)
        self.d = _Rows(dist, cands)
        self._nn: list[int] | None = None

    @property
    def nn(self) -> list[int]:
        """The distance from each candidate to the nearest other one (R61: no link to itself)."""
        if self._nn is None:
            self._nn = nearest_among(self.dist, self.cands)
        return self._nn


class _Rows(dict):
    """Local index -> the distances from that candidate to every candidate (a row of the submatrix of
    ``dist``), each worked out on first use: a search reads few of them."""

    def __init__(self, dist, cands: list[int]) -> None:
        super().__init__()
        self.dist, self.cands = dist, cands
        self.pick = itemgetter(*cands) if len(cands) > 1 else None

    def __missing__(self, i: int) -> tuple[int, ...]:
        row = self.dist[self.cands[i]]
        out = self[i] = self.pick(row) if self.pick is not None else tuple(row[b] for b in self.cands)
        return out


class _Search:
    """Branch and bound for the cheapest ``need`` more cities on top of a tree (module docstring)."""

    def __init__(self, tables: _Tables, best: int) -> None:
        self.d, self.slot, self.nn, self.min_slot = tables.d, tables.slot, tables.nn, tables.min_slot
        self.best = best          # totals must be strictly below this
        self.best_set: list[int] | None = None

    def greedy(self, ds: list[int], allowed: list[int], need: int, cost: int, chosen: list[int]) -> None:
        """The engine-greedy completion (cheapest next city each time): a first upper bound."""
        ds, pool, chosen = ds[:], set(allowed), chosen[:]
        slot = self.slot
        for left in range(need - 1, -1, -1):
            if not pool:
                return
            price = list(map(add, slot, ds))
            x = min(pool, key=price.__getitem__)  # the first cheapest in the set's order
            pool.discard(x)
            cost += price[x]
            chosen.append(x)
            if left:
                ds = [a if a < b else b for a, b in zip(ds, self.d[x], strict=True)]
        if cost < self.best:
            self.best, self.best_set = cost, chosen

    def run(self, ds: list[int], allowed: list[int], need: int, cost: int, chosen: list[int]) -> None:
        slot = self.slot
        if need == 0:
            if cost < self.best:
                self.best, self.best_set = cost, chosen
            return
        if need == 1:  # the first of the cheapest, if below the best
            if allowed:
                price = [slot[x] + ds[x] for x in allowed]
                low = min(price)
                if cost + low < self.best:
                    self.best, self.best_set = cost + low, [*chosen, allowed[price.index(low)]]
            return
        order = sorted(allowed, key=ds.__getitem__)
        nn = self.nn
        lbv = [slot[y] + (ds[y] if ds[y] < nn[y] else nn[y]) for y in order]
        more = need - 1
        tail = [_INF] * (len(order) + 1)  # tail[i]: sum of the ``more`` smallest lbv from order[i:]
        if more == 1:  # the smallest: a running minimum (the common case, faster than the heap)
            acc = _INF
            for i in range(len(order) - 1, -1, -1):
                v = lbv[i]
                if v < acc:
                    acc = v
                tail[i] = acc
        else:
            heap: list[int] = []
            acc = 0
            for i in range(len(order) - 1, -1, -1):
                v = lbv[i]
                if len(heap) < more:
                    heapq.heappush(heap, -v)
                    acc += v
                elif v < -heap[0]:
                    acc += v + heapq.heapreplace(heap, -v)
                if len(heap) == more:
                    tail[i] = acc
        d, min_slot = self.d, self.min_slot
        for i, x in enumerate(order):
            if cost + min_slot + ds[x] + tail[i + 1] >= self.best:
                break  # later cities connect no cheaper and leave fewer cities to choose from
            c = cost + slot[x] + ds[x]
            if c + tail[i + 1] >= self.best:
                continue
            dx = d[x]
            if more == 1:  # the last city, as run(need=1) would pick it: the first of the cheapest
                rest = order[i + 1:]
                if rest:
                    price = [slot[y] + (ds[y] if ds[y] < dx[y] else dx[y]) for y in rest]
                    low = min(price)
                    if c + low < self.best:
                        self.best, self.best_set = c + low, [*chosen, x, rest[price.index(low)]]
                continue
            rest = order[i + 1:]
            nds = list(ds)  # the child reads only the cities after x: merge those (ds may be a row tuple)
            for y in rest:
                if dx[y] < nds[y]:
                    nds[y] = dx[y]
            self.run(nds, rest, more, c, [*chosen, x])


def _tables(area: _Area, pool: list[int]) -> _Tables:
    return _Tables(area.dist, pool, [area.expand[i] if i in area.expand else area.first[i] for i in pool])


def _best_k(area: _Area, tables: _Tables, k: int, bound: int) -> tuple[int, list[int]] | None:
    """Exact cheapest k-set from ``tables.cands`` with total < bound: (total, city indices) or None."""
    pool = tables.cands
    if k > area.room or k > len(pool):
        return None
    if k == 0:
        return (0, []) if bound > 0 else None
    m = len(pool)
    if area.root is not None and k == 1:  # what greedy finds and run cannot beat: no distances needed
        slot, root, expand = tables.slot, area.root, area.expand
        price = [slot[j] + root[i] for j, i in enumerate(pool)]
        allowed = [j for j in range(m) if pool[j] in expand]
        if not allowed:
            return None
        x = min(set(allowed), key=price.__getitem__)  # the first cheapest in the set's order, as greedy
        return (price[x], [pool[x]]) if price[x] < bound and price[x] < UNREACHABLE else None
    search = _Search(tables, bound)
    if area.root is not None:
        ds = list(map(area.root.__getitem__, pool))
        allowed = list(range(m))  # with a network every candidate is one the network may reach
        search.greedy(ds, allowed, k, 0, [])
        search.run(ds, allowed, k, 0, [])  # (k == 1 is above)
    else:
        # each set is searched once, rooted at its first first-house city (any root gives its MST)
        roots = [j for j in range(m) if pool[j] in area.first]
        grows = [y for y in range(m) if pool[y] in area.expand]
        only = [y for y in grows if pool[y] not in area.first]  # before the root: not a root themselves
        plans = []
        for j in roots:
            allowed = [y for y in only if y < j] + [y for y in grows if y > j]
            plans.append((j, allowed))
            search.greedy(search.d[j], allowed, k - 1, area.first[pool[j]], [j])
        for j, allowed in plans if k > 2 else ():  # else the greedy passes found the first of the best
            if area.first[pool[j]] + (k - 1) * search.min_slot < search.best:
                search.run(search.d[j], allowed, k - 1, area.first[pool[j]], [j])
    if search.best_set is None or search.best >= UNREACHABLE:
        return None
    return search.best, [pool[j] for j in search.best_set]


def cheapest_k(g: Game, player: str, k: int | None = None, budget: int | None = None,
               candidates: Iterable[str] | None = None) -> Plan | None:
    """The cheapest cities for ``player`` to add this turn, as a :class:`Plan` (exact).

    * ``k`` only: the cheapest set of exactly ``k`` new cities; None if ``k`` cities cannot be added.
    * ``budget`` only: the most cities whose total is at most ``budget``, the cheapest such set
      (an empty plan if not even one city fits).
    * both: as with ``budget``, but at most ``k`` cities.

    ``candidates`` restricts the choice to these cities (default: every city the player may add;
    names outside the play area or not legal for the player are ignored).
    The result is exact over the candidates, not a heuristic: a branch and bound over build orders
    (module docstring). Its time grows with k and the number of candidates; the Germany benchmark
    (benchmarks/planner.py, all 42 cities) measures it for k <= 6.
    """
    area, found = _cheapest(g, player, k, budget, candidates)
    if found is None:
        return None
    total, chosen = found
    plan = _plan_nodes(area, chosen)
    if plan is None or plan.total != total:
        raise RuntimeError(f"cheapest_k found {chosen} at {total} but plan_targets says {plan}")
    return plan


def cheapest_cities(g: Game, player: str, k: int | None = None, budget: int | None = None,
                    candidates: Iterable[str] | None = None) -> tuple[tuple[str, ...], int] | None:
    """:func:`cheapest_k` as (cities in build order, total), without the engine's path-by-path
    pricing of each step (``Plan.steps``): what a bot needs, several times faster."""
    area, found = _cheapest(g, player, k, budget, candidates)
    if found is None:
        return None
    total, chosen = found
    ordered = _order(area, chosen)
    if ordered is None or ordered[1] != total:
        raise RuntimeError(f"cheapest_k found {chosen} at {total} but plan_targets says {ordered}")
    return tuple(area.cities[i] for i in ordered[0]), total


def _cheapest(g: Game, player: str, k: int | None, budget: int | None, candidates: Iterable[str] | None
              ) -> tuple[_Area, tuple[int, list[int]] | None]:
    """The area and (total, city indices) of :func:`cheapest_k`'s choice (None: no such set)."""
    if k is None and budget is None:
        raise ValueError("give k, budget or both")
    if k is not None and k < 0:
        raise ValueError(f"k must be >= 0, not {k}")
    area = _Area(g, player)
    legal = set(area.expand) | set(area.first)
    if candidates is not None:
        wanted = {area.cidx[c] for c in candidates if c in area.cidx}
        legal &= wanted
    pool = sorted(legal)
    if budget is None:
        assert k is not None
        return area, _best_k(area, _tables(area, pool), k, UNREACHABLE)
    best: tuple[int, list[int]] = (0, [])
    top = min(area.room, len(pool)) if k is None else min(k, area.room, len(pool))
    tables = _tables(area, pool) if top else None
    if top:  # the optimum grows with n (below): if ``top`` cities fit the budget, every smaller n does
        found = _best_k(area, tables, top, budget + 1)  # type: ignore[arg-type]
        if found is not None:
            return area, found
    for n in range(1, top):  # the optimum grows with n (drop the last city of a Prim order)
        found = _best_k(area, tables, n, budget + 1)  # type: ignore[arg-type]
        if found is None:
            break
        best = found
    return area, best
