"""Fuel and income arithmetic of the heuristic bots: what a run costs to fuel and what it earns.

Prices come from the engine (:meth:`Game.market_cost`, :attr:`Game.resource_track`,
:meth:`Game.depot_price`); storage and run sizes from :mod:`powergrid_nb.engine.rules.plants`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from powergrid_nb.engine.errors import IllegalAction
from powergrid_nb.engine.rules.plants import PLANTS, RESOURCES, capacities, needs, production

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

FALLBACK = (9, 9, 9, 17)  # price assumed for a type the market cannot supply now
Amounts = tuple[int, int, int, int]


def fuel_plan(g: Game, plants: Sequence[int], held: Sequence[int], target: int,
              priced: dict[Amounts, int | None] | None = None) -> tuple[int, Amounts] | None:
    """Cheapest purchase (cost, amounts) letting ``plants`` power ``min(target, production)`` cities.

    Ties (same cost and token count) go to the first plant subset in ``plants`` order, then to the
    least coal for the hybrids; None when no purchase the market can supply does it. ``priced``:
    :meth:`Game.market_cost` of purchases already priced in this market (None: unpriceable), filled in.
    """
    plants = plants if type(plants) is tuple else tuple(plants)
    cap, runs = _runs(plants)
    target = min(target, runs[-1][0] if runs else 0)
    if target <= 0:
        return 0, (0, 0, 0, 0)
    if priced is None:
        priced = {}
    h0, h1, h2, h3 = held
    c0, c1, c2, c3, c4 = cap
    best: int | None = None
    best_n = 0
    best_buy: Amounts = (0, 0, 0, 0)
    for nc, no, ng, nu, nh in _minimal(plants, target):
        b2, b3 = (ng - h2 if ng > h2 else 0), (nu - h3 if nu > h3 else 0)
        if h2 + b2 > c2 or h3 + b3 > c3:
            continue  # R48: garbage or uranium does not fit, whatever the hybrids burn
        b0, b1 = (nc - h0 if nc > h0 else 0), (no - h1 if no > h1 else 0)
        left = nh - (h0 - nc if h0 > nc else 0) - (h1 - no if h1 > no else 0)
        if left < 0:
            left = 0
        n = b0 + b1 + left + b2 + b3  # tokens bought: the same for every coal/oil split
        for hc in range(left + 1):
            a0, a1 = b0 + hc, b1 + left - hc
            over0, over1 = h0 + a0 - c0, h1 + a1 - c1
            if (over0 if over0 > 0 else 0) + (over1 if over1 > 0 else 0) > c4:
                continue  # R49: more coal and oil than the plants can hold (plants.fits)
            buy = (a0, a1, b2, b3)
            cost = priced.get(buy, -1)
            if cost == -1:
                try:
                    cost = g.market_cost(*buy)  # the engine's price (R50, R126)
                except IllegalAction:  # R52: the market cannot supply it
                    cost = None
                priced[buy] = cost
            if cost is None:
                continue
            if best is None or cost < best or (cost == best and n < best_n):
                best, best_n, best_buy = cost, n, buy
    return None if best is None else (best, best_buy)


_RUNS: dict[tuple[int, ...], tuple] = {}
_MINIMAL: dict[tuple[tuple[int, ...], int], tuple[tuple[int, int, int, int, int], ...]] = {}
_MASKS: dict[int, list[int]] = {}  # n -> bit masks of the non-empty subsets of n items, combinations order


def _minimal(plants: tuple[int, ...], target: int) -> tuple[tuple[int, int, int, int, int], ...]:
    """The needs of the subsets of ``plants`` (:func:`_runs` order) that power ``target`` cities, less
    those holding an earlier such subset or needing what an earlier one needs (memoised). A subset
    holding another needs at least its tokens, so each purchase it allows costs at least one the
    smaller subset allows (which fits and is on the market if it is), found earlier: never cheaper."""
    key = (plants, target)
    hit = _MINIMAL.get(key)
    if hit is None:
        if len(_MINIMAL) > 20_000:
            _MINIMAL.clear()
        masks = _MASKS.get(len(plants))
        if masks is None:
            n = len(plants)
            masks = _MASKS[n] = [sum(1 << i for i in sub) for size in range(1, n + 1)
                                 for sub in combinations(range(n), size)]
        found: list[int] = []
        out: list[tuple[int, int, int, int, int]] = []
        for mask, (made, nc, no, ng, nu, nh) in zip(masks, _runs(plants)[1], strict=True):
            if made >= target and not any(f & mask == f for f in found):
                found.append(mask)
                if (nc, no, ng, nu, nh) not in out:
                    out.append((nc, no, ng, nu, nh))
        hit = _MINIMAL[key] = tuple(out)
    return hit


def plant_runs(plants: tuple[int, ...]) -> list[tuple[int, int, int, int, int, int]]:
    """(cities, *tokens needed) of every non-empty subset of ``plants`` (:func:`_runs`)."""
    return _runs(plants)[1]


def _runs(plants: tuple[int, ...]) -> tuple[tuple[int, ...], list[tuple[int, int, int, int, int, int]]]:
    """(storage, [(cities, *tokens needed) of every non-empty subset, smallest first, in
    ``combinations`` order]) of ``plants`` (R47, R49, R73; memoised). The last subset is all of them."""
    hit = _RUNS.get(plants)
    if hit is None:
        if len(_RUNS) > 20_000:
            _RUNS.clear()
        subsets = [(production(sub), *needs(sub)) for size in range(1, len(plants) + 1)
                   for sub in combinations(plants, size)]
        hit = _RUNS[plants] = (capacities(plants), subsets)
    return hit


def market_state(g: Game) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Tokens of each resource on the market and in the supply: what a purchase can draw on now (a
    cache key for prices, which also depend on the game's fixed edition and map rules). The supply is
    what :meth:`Game.resource_supply` counts (R1), from the holdings of every participant."""
    market = g.resource_counts()
    s0, s1, s2, s3 = g.resource_track.totals
    for h0, h1, h2, h3 in map(g.held, g.participants):
        s0, s1, s2, s3 = s0 - h0, s1 - h1, s2 - h2, s3 - h3
    m0, m1, m2, m3 = market
    return market, (s0 - m0, s1 - m1, s2 - m2, s3 - m3)


def unit_prices(g: Game) -> tuple[float, ...]:
    """Per-token price of a typical run now: mean of the next 3 tokens on each track (the supply's
    price under a map rule once a track is empty, else :data:`FALLBACK`)."""
    track, counts = g.resource_track, g.resource_counts()
    key = (track, counts) if min(counts) > 0 else None  # no empty track: the track's prices alone
    hit = _UNIT.get(key) if key is not None else None
    if hit is not None:
        return hit
    out = []
    for k, r in enumerate(RESOURCES):
        n = counts[k]
        take = min(3, n)
        out.append((track.buy_cost(k, n, take) or 0) / take if take else g.depot_price(r) or FALLBACK[k])
    if key is not None:
        if len(_UNIT) > 20_000:
            _UNIT.clear()
        _UNIT[key] = tuple(out)
    return tuple(out)


_UNIT: dict[tuple, tuple[float, ...]] = {}


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


_FRONTS: dict[tuple, tuple[tuple[int, float], ...]] = {}


def run_frontier(plants: tuple[int, ...], unit: tuple[float, ...]) -> tuple[tuple[int, float], ...]:
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
        front = [(0, 0)]
    else:
        prev = run_frontier(plants[:-1], unit)
        extra, per = PLANTS[plants[-1]].cities, run_fuel_cost(plants[-1], unit)
        both = [(-m - extra, f + per) for m, f in prev] + [(-m, f) for m, f in prev]
        both.sort()  # most cities first, the cheapest first among equals
        front = []
        low = None
        for m, f in both:
            if low is None or f < low:
                front.append((-m, f))
                low = f
    if len(_FRONTS) > 50_000:
        _FRONTS.clear()
    out = _FRONTS[key] = tuple(front)  # a tuple of numbers: the collector stops tracking it
    return out


_RISING: dict[tuple[int, ...], bool] = {}


_PAYMENTS: dict[tuple, tuple[int, ...]] = {}


def payments(g: Game) -> tuple[int, ...]:
    """Income for powering 0, 1, ..., ``max_cities`` cities (:meth:`Game.income`, R76; memoised on
    what it reads: the edition's payment table)."""
    rules = g.rules
    key = (type(rules), tuple(rules.tables["payment"]), g.max_cities)
    hit = _PAYMENTS.get(key)
    if hit is None:
        if len(_PAYMENTS) > 64:
            _PAYMENTS.clear()
        hit = _PAYMENTS[key] = tuple(g.income(n) for n in range(g.max_cities + 1))
    return hit


_PRICED: dict[tuple, dict[Amounts, int | None]] = {}


def priced_in(g: Game, market: tuple) -> dict[Amounts, int | None]:
    """The purchases priced so far (:func:`fuel_plan`'s ``priced``) in a market whose
    :func:`market_state` is ``market``, shared by every bot: keyed on the price track and the
    supply's prices (R126) too."""
    key = (g.resource_track, tuple(g.depot_price(r) for r in RESOURCES), market)
    hit = _PRICED.get(key)
    if hit is None:
        if len(_PRICED) > 2_000:
            _PRICED.clear()
        hit = _PRICED[key] = {}
    return hit


def run_income(pay: Sequence[int], plants: tuple[int, ...], cities: Sequence[int], unit: Sequence[float]
               ) -> float:
    """Income minus fuel, summed over rounds with ``cities`` cities each (at most ``len(pay) - 1``),
    running the best subset of ``plants`` each round; ``pay``: :func:`payments`."""
    total = 0.0
    if rising(pay):  # the pairs left out of the frontier never give the maximum
        front = run_frontier(plants, tuple(unit))
        for c in cities:
            total += max([pay[c if c < m else m] - f for m, f in front])
        return total
    made, cost = run_profiles(plants, tuple(unit))
    pairs = list(zip(made, cost, strict=True))
    for c in cities:
        total += max([pay[c if c < m else m] - f for m, f in pairs])
    return total


def rising(pay: Sequence[int]) -> bool:
    """Whether the payment table never falls (memoised)."""
    table = pay if isinstance(pay, tuple) else tuple(pay)
    hit = _RISING.get(table)
    if hit is None:
        hit = _RISING[table] = all(a <= b for a, b in zip(table, table[1:], strict=False))
    return hit
