"""Fuel and income arithmetic of the heuristic bots: what a run costs to fuel and what it earns.

Prices come from the engine (:meth:`Game.market_cost`, :attr:`Game.resource_track`,
:meth:`Game.depot_price`); storage and run sizes from :mod:`powergrid_nb.plants`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from ..errors import IllegalAction
from ..plants import PLANTS, RESOURCES, capacities, fits, needs, production

if TYPE_CHECKING:
    from ..game import Game

FALLBACK = (9, 9, 9, 17)  # price assumed for a type the market cannot supply now
Amounts = tuple[int, int, int, int]


def fuel_plan(g: Game, plants: Sequence[int], held: Sequence[int], target: int,
              priced: dict[Amounts, int | None] | None = None) -> tuple[int, Amounts] | None:
    """Cheapest purchase (cost, amounts) letting ``plants`` power ``min(target, production)`` cities.

    Ties (same cost and token count) go to the first plant subset in ``plants`` order, then to the
    least coal for the hybrids; None when no purchase the market can supply does it. ``priced``:
    :meth:`Game.market_cost` of purchases already priced in this market (None: unpriceable), filled in.
    """
    cap, subsets = _runs(tuple(plants))
    target = min(target, subsets[-1][0] if subsets else 0)
    if target <= 0:
        return 0, (0, 0, 0, 0)
    if priced is None:
        priced = {}
    h0, h1, h2, h3 = held
    best: tuple[int, int] | None = None
    best_buy: Amounts = (0, 0, 0, 0)
    for made, (nc, no, ng, nu, nh) in subsets:
        if made < target:
            continue
        b0, b1, b2, b3 = max(0, nc - h0), max(0, no - h1), max(0, ng - h2), max(0, nu - h3)
        left = max(0, nh - max(0, h0 - nc) - max(0, h1 - no))
        for hc in range(left + 1):
            buy = (b0 + hc, b1 + left - hc, b2, b3)
            if not fits(cap, (h0 + buy[0], h1 + buy[1], h2 + b2, h3 + b3)):
                continue
            cost = priced.get(buy, -1)
            if cost == -1:
                try:
                    cost = g.market_cost(*buy)  # the engine's price (R50, R126)
                except IllegalAction:  # R52: the market cannot supply it
                    cost = None
                priced[buy] = cost
            if cost is None:
                continue
            key = (cost, sum(buy))
            if best is None or key < best:
                best, best_buy = key, buy
    return None if best is None else (best[0], best_buy)


_RUNS: dict[tuple[int, ...], tuple] = {}


def _runs(plants: tuple[int, ...]) -> tuple[tuple[int, ...], list[tuple[int, tuple[int, ...]]]]:
    """(storage, [(cities, tokens needed) of every non-empty subset, smallest first, in
    ``combinations`` order]) of ``plants`` (R47, R49, R73; memoised). The last subset is all of them."""
    hit = _RUNS.get(plants)
    if hit is None:
        if len(_RUNS) > 20_000:
            _RUNS.clear()
        subsets = [(production(sub), needs(sub)) for size in range(1, len(plants) + 1)
                   for sub in combinations(plants, size)]
        hit = _RUNS[plants] = (capacities(plants), subsets)
    return hit


def market_state(g: Game) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Tokens of each resource on the market and in the supply: what a purchase can draw on now (a
    cache key for prices, which also depend on the game's fixed edition and map rules)."""
    return tuple(g.resource_market().values()), tuple(g.resource_supply().values())


def unit_prices(g: Game) -> tuple[float, ...]:
    """Per-token price of a typical run now: mean of the next 3 tokens on each track (the supply's
    price under a map rule once a track is empty, else :data:`FALLBACK`)."""
    track, market = g.resource_track, g.resource_market()
    out = []
    for k, r in enumerate(RESOURCES):
        n = market[r]
        take = min(3, n)
        out.append((track.buy_cost(k, n, take) or 0) / take if take else g.depot_price(r) or FALLBACK[k])
    return tuple(out)


_PROFILES: dict[tuple, tuple[list[int], list[float]]] = {}


def run_fuel_cost(plant: int, unit: tuple[float, ...]) -> float:
    """One run of ``plant`` at per-token prices ``unit`` (hybrids burn the cheaper of coal and oil)."""
    p = PLANTS[plant]
    if p.is_green:
        return 0.0
    if p.is_hybrid:
        return p.tokens * min(unit[0], unit[1])
    return p.tokens * unit[RESOURCES.index(p.fuel)]


def run_profiles(plants: tuple[int, ...], unit: tuple[float, ...]) -> tuple[list[int], list[float]]:
    """(cities, fuel cost) of every subset of ``plants`` at per-token prices ``unit``, as two parallel
    lists (memoised, built on the profiles of ``plants[:-1]``); a subset's cost is summed in plant order."""
    key = (plants, unit)
    out = _PROFILES.get(key)
    if out is not None:
        return out
    if not plants:
        out = ([0], [0])
    else:
        made, cost = run_profiles(plants[:-1], unit)
        cities, per = PLANTS[plants[-1]].cities, run_fuel_cost(plants[-1], unit)
        out = (made + [m + cities for m in made], cost + [f + per for f in cost])
    if len(_PROFILES) > 50_000:
        _PROFILES.clear()
    _PROFILES[key] = out
    return out


_FRONTS: dict[tuple, list[tuple[int, float]]] = {}


def run_frontier(plants: tuple[int, ...], unit: tuple[float, ...]) -> list[tuple[int, float]]:
    """The (cities, fuel cost) pairs of :func:`run_profiles` that no other pair beats on both counts
    (at least as many cities for at most the cost), most cities first (memoised, built on the frontier
    of ``plants[:-1]``). A pair beaten there stays beaten with the last plant added (the same plant
    added to both, its cost added last), so no pair left out is ever needed; with a payment table
    that never falls the best run of every round is one of these, at the same float."""
    key = (plants, unit)
    out = _FRONTS.get(key)
    if out is not None:
        return out
    if not plants:
        out = [(0, 0)]
    else:
        prev = run_frontier(plants[:-1], unit)
        extra, per = PLANTS[plants[-1]].cities, run_fuel_cost(plants[-1], unit)
        both = [(-m - extra, f + per) for m, f in prev] + [(-m, f) for m, f in prev]
        both.sort()  # most cities first, the cheapest first among equals
        out = []
        low = None
        for m, f in both:
            if low is None or f < low:
                out.append((-m, f))
                low = f
    if len(_FRONTS) > 50_000:
        _FRONTS.clear()
    _FRONTS[key] = out
    return out


_RISING: dict[tuple[int, ...], bool] = {}


def payments(g: Game) -> tuple[int, ...]:
    """Income for powering 0, 1, ..., ``max_cities`` cities (:meth:`Game.income`, R76)."""
    return tuple(g.income(n) for n in range(g.max_cities + 1))


def run_income(pay: Sequence[int], plants: tuple[int, ...], cities: Sequence[int], unit: Sequence[float]
               ) -> float:
    """Income minus fuel, summed over rounds with ``cities`` cities each (at most ``len(pay) - 1``),
    running the best subset of ``plants`` each round; ``pay``: :func:`payments`."""
    table = pay if isinstance(pay, tuple) else tuple(pay)
    rising = _RISING.get(table)
    if rising is None:
        rising = _RISING[table] = all(a <= b for a, b in zip(table, table[1:], strict=False))
    total = 0.0
    if rising:  # the pairs left out of the frontier never give the maximum
        front = run_frontier(plants, tuple(unit))
        for c in cities:
            total += max([pay[c if c < m else m] - f for m, f in front])
        return total
    made, cost = run_profiles(plants, tuple(unit))
    pairs = list(zip(made, cost, strict=True))
    for c in cities:
        total += max([pay[c if c < m else m] - f for m, f in pairs])
    return total
