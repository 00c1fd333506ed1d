"""What plants are worth to the heuristic bots: income over a few rounds, the money to keep, bid limits.

A plant's gain is the income (payment table minus fuel at today's prices, :mod:`.fuel`) it adds over the
next ``horizon`` bureaucracies; its limit is that gain less half the best alternative's surplus, capped
by the money left after fuel and a city or two (:meth:`PlantValues.reserve`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..plants import production
from .fuel import fuel_plan, market_state, payments, run_income, unit_prices

if TYPE_CHECKING:
    from ..game import Game


_INCOME: dict[tuple, float] = {}  # PlantValues.income of every bot (keys name every input)


def kept_plants(own: tuple[int, ...], limit: int, plant: int) -> list[tuple[int, ...]]:
    """The plants a player owning ``own`` may end with after buying ``plant``: all of them, or at the
    plant limit one of the old ones dropped (R36), in ``own`` order."""
    if len(own) < limit:
        return [(*own, plant)]
    return [(*(x for x in own if x != drop), plant) for drop in own]


class Valuation:
    """A player's plant values in one position: the gain of each current-market plant, its keep sets
    and surplus over the minimum bid, the money they were made with, and the limits worked out so far."""

    __slots__ = ("gains", "sets", "surplus", "money", "market", "limits")

    def __init__(self, gains: dict[int, float], sets: dict[int, list[tuple[int, ...]]],
                 surplus: dict[int, float], money: int, market: tuple) -> None:
        self.gains, self.sets, self.surplus, self.money = gains, sets, surplus, money
        self.market = market  # market_state: what the fuel for a reserve is priced on
        self.limits: dict[int, int] = {}


class PlantValues:
    """The valuation half of :class:`~powergrid_nb.bots.heuristic.HeuristicBot` (a mixin): needs
    ``horizon``, ``growth``, a per-round ``_memo`` and ``build_estimate``."""

    horizon: int
    growth: int
    _memo: dict[tuple, Any]

    if TYPE_CHECKING:
        def build_estimate(self, g: Game, player: str, k: int) -> int: ...

    def trajectory(self, g: Game, player: str) -> list[int]:
        """Cities ``player`` expects to have at the next ``horizon`` bureaucracies."""
        c, end = g.city_count(player), g.max_cities
        grow = self.growth + (g.step > 1)
        return [min(end, max(c + grow * t, 1 + t)) for t in range(1, self.horizon + 1)]

    def income(self, g: Game, plants: tuple[int, ...], cities: list[int], unit: tuple[float, ...]) -> float:
        """Income minus fuel over the trajectory ``cities`` with the best run each round."""
        pay = self._memo.get(("pay",))
        if pay is None:
            pay = self._memo[("pay",)] = payments(g)
        key = (plants, tuple(cities), unit, pay)  # every input: shared by the bots of a process
        hit = _INCOME.get(key)
        if hit is None:
            if len(_INCOME) > 100_000:
                _INCOME.clear()
            hit = _INCOME[key] = run_income(pay, plants, cities, unit)
        return hit

    def keep_sets(self, g: Game, player: str, plant: int) -> list[tuple[int, ...]]:
        """The plants ``player`` may end with after buying ``plant`` (one dropped at the limit, R36)."""
        return kept_plants(tuple(g.plants_in_order(player)), g.plant_limit, plant)

    def _gains(self, g: Game, player: str, own: tuple[int, ...]
               ) -> tuple[dict[int, float], dict[int, list[tuple[int, ...]]]]:
        """(Income each current-market plant adds over the horizon, replacing the worst at the limit;
        the keep sets of each plant). Near the end (someone within 4 cities of it) capacity also wins
        the race: a plant that lifts the player above every rival's capacity is worth half its money
        on top (a tie a quarter)."""
        unit, traj = unit_prices(g), tuple(self.trajectory(g, player))
        base = self.income(g, own, traj, unit)
        players = g.players
        race = 0.0
        if max(g.city_count(q) for q in players) >= g.end_cities - 4:
            race = g.money(player) / 2
        top, limit = g.max_cities, g.plant_limit
        rival = max(min(production(tuple(g.plants_in_order(q))), top) for q in players if q != player)

        def win(plants: tuple[int, ...]) -> float:
            mine = min(production(plants), top)
            return 1.0 if mine > rival else 0.5 if mine == rival else 0.0

        now = win(own)
        gains, sets = {}, {}
        memo = self._memo
        for x in g.current_market():
            key = ("gain", x, own, limit, traj, unit, race, rival, top)  # every input of the value
            hit = memo.get(key)
            if hit is None:
                keep = kept_plants(own, limit, x)
                hit = memo[key] = (max(self.income(g, k, traj, unit) + race * (win(k) - now) for k in keep)
                                   - base, keep)
            gains[x], sets[x] = hit
        return gains, sets

    def fuel(self, g: Game, plants: Sequence[int], held: Sequence[int], target: int, market: tuple
             ) -> tuple[int, tuple[int, int, int, int]] | None:
        """:func:`fuel_plan` (memoised; ``market``: :func:`market_state` of ``g``)."""
        key = ("fuel", tuple(plants), tuple(held), target, market)
        hit = self._memo.get(key, key)
        if hit is key:
            prices = self._memo.get(("prices", market))
            if prices is None:
                prices = self._memo[("prices", market)] = {}
            hit = self._memo[key] = fuel_plan(g, plants, held, target, prices)
        return hit

    def reserve(self, g: Game, player: str, plant: int, market: tuple | None = None,
                keep: list[tuple[int, ...]] | None = None) -> int:
        """Money kept after buying ``plant``: fuel for the player's cities and a city or two more.
        (``market``: :func:`market_state`; ``keep``: :meth:`keep_sets`, when the caller has them.)"""
        c = g.city_count(player)
        plants = max(self.keep_sets(g, player, plant) if keep is None else keep, key=production)
        grow = min(1 if g.round == 1 else 2, max(0, production(plants) - c))
        fuel = self.fuel(g, plants, g.held(player), c + grow,
                         market_state(g) if market is None else market)
        build = self.build_estimate(g, player, grow)
        return (fuel[0] if fuel else 0) + build

    def valuation(self, g: Game, player: str) -> Valuation:
        """The plant values of this position, memoised under the facts they depend on in phase 2 (where
        rivals' plants, houses, tokens and the discount change only together with the market)."""
        money = g.money(player)
        own = tuple(g.plants_in_order(player))
        key = ("limits", player, money, g.step, tuple(g.current_market()), tuple(g.future_market()),
               tuple(g.resource_market().values()), g.city_count(player), own)
        hit = self._memo.get(key)
        if hit is None:
            gains, sets = self._gains(g, player, own)
            surplus = {x: v - g.min_bid(x) for x, v in gains.items()}
            hit = self._memo[key] = Valuation(gains, sets, surplus, money, market_state(g))
        return hit

    def limit(self, g: Game, player: str, plant: int, value: Valuation | None = None) -> int:
        """The most ``player`` will pay for ``plant`` (below its minimum bid: not wanted; -1 for a plant
        not in the current market). Computed on demand: a bid needs one plant's limit, not all."""
        v = self.valuation(g, player) if value is None else value
        out = v.limits.get(plant)
        if out is None:
            if plant not in v.gains:
                return -1
            alt = max([v.surplus[y] for y in v.gains if y != plant] + [0])
            cash = v.money - self.reserve(g, player, plant, v.market, v.sets[plant])
            out = v.limits[plant] = int(min(v.gains[plant] - 0.5 * alt, cash))
        return out

    def limits(self, g: Game, player: str) -> dict[int, int]:
        """The most ``player`` will pay for each current-market plant (below its minimum bid: not wanted)."""
        v = self.valuation(g, player)
        return {x: self.limit(g, player, x, v) for x in v.gains}

