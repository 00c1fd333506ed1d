"""What plants are worth to the heuristic bots: income over a few rounds, the money to keep, bid limits.

A plant's gain is the income (payment table minus fuel at today's prices, :mod:`.fuel`) it adds over the
next ``horizon`` bureaucracies; its worth is that gain less what buying it gives up (:func:`worth`: the
best other plant's surplus, or waiting for a future-market plant, shares set by the
:class:`~powergrid_nb.bots.style.BotStyle`); its limit is the worth capped by the money left after fuel
and a city or two (:meth:`PlantValues.reserve`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from powergrid_nb.engine.rules.plants import PLANTS

from .fuel import (
    fuel_plan,
    market_state,
    payments,
    priced_in,
    rising,
    run_frontier,
    run_fuel_cost,
    run_income,
    unit_prices,
)
from .style import BotStyle

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game


_PAY = ("pay",)
_TRAJ: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
CITIES = {n: p.cities for n, p in PLANTS.items()}


def production(plants: tuple[int, ...] | list[int]) -> int:
    """Cities ``plants`` power together (:func:`powergrid_nb.engine.rules.plants.production`, without a
    generator)."""
    return sum(map(CITIES.__getitem__, plants))


class Incomes(dict):
    """plants -> :func:`run_income` of them with one payment table, trajectory and unit prices (a memo).

    With a payment table that never falls, the income of ``head + (plant,)`` is worked out from the
    frontier of ``head`` (:func:`run_frontier`): the frontier of the whole is the best of that frontier
    and of it with ``plant`` added, so the best of both, unpruned, is the same float each round."""

    __slots__ = ("pay", "cities", "unit", "rising", "heads")

    def __init__(self, pay: tuple[int, ...], cities: tuple[int, ...], unit: tuple[float, ...]) -> None:
        super().__init__()
        self.pay, self.cities, self.unit = pay, cities, unit
        self.rising = rising(pay)
        self.heads: dict[tuple[int, ...], tuple[list, list]] = {}  # head -> (frontier, best each round)

    def __missing__(self, plants: tuple[int, ...]) -> float:
        if not (self.rising and plants):
            out = self[plants] = run_income(self.pay, plants, self.cities, self.unit)
            return out
        pay, head, cities = self.pay, plants[:-1], self.cities
        known = self.heads.get(head)
        if known is None:
            prev = run_frontier(head, self.unit)
            firsts = []  # each round's best without the last plant (max() of the list, the first of equals)
            for c in cities:
                top = None
                for m, f in prev:
                    v = pay[c if c < m else m] - f
                    if top is None or v > top:
                        top = v
                firsts.append(top)
            known = self.heads[head] = (prev, firsts)
        prev, best = known
        extra, per = CITIES[plants[-1]], run_fuel_cost(plants[-1], self.unit)
        runs = [(m + extra, f + per) for m, f in prev]  # the runs with the last plant: once, not per round
        total = 0.0
        for c, b in zip(cities, best, strict=True):  # plain loops: a list per round costs more here
            for m, f in runs:
                v = pay[c if c < m else m] - f
                if v > b:
                    b = v
            total += b
        self[plants] = total
        return total


_INCOME: dict[tuple, Incomes] = {}  # (pay, cities, unit) -> Incomes: shared by every bot of a process


def incomes(pay: tuple[int, ...], cities: tuple[int, ...], unit: tuple[float, ...]) -> Incomes:
    """The memo of incomes with payment table ``pay`` over ``cities`` at ``unit`` prices."""
    key = (pay, cities, unit)
    hit = _INCOME.get(key)
    if hit is None:
        if len(_INCOME) > 20_000:
            _INCOME.clear()
        hit = _INCOME[key] = Incomes(pay, cities, unit)
    return hit


_KEPT: dict[tuple, tuple[tuple[int, ...], ...]] = {}


def kept_plants(own: tuple[int, ...], limit: int, plant: int) -> tuple[tuple[int, ...], ...]:
    """The plants a player owning ``own`` may end with after buying ``plant``: all of them, or at the
    plant limit one of the old ones dropped (R36), in ``own`` order (memoised: do not change it)."""
    key = (own, limit, plant)
    hit = _KEPT.get(key)
    if hit is None:
        if len(_KEPT) > 20_000:
            _KEPT.clear()
        if len(own) < limit:
            hit = ((*own, plant),)
        else:
            hit = tuple((*(x for x in own if x != drop), plant) for drop in own)
        _KEPT[key] = hit
    return hit


class Valuation:
    """A player's plant values in one position: the gain of each current-market plant, its keep sets
    and surplus over the minimum bid, the money they were made with, the alternatives a bid gives up
    (``alternative``: the share of the best other plant's surplus; ``later``: what waiting for a
    future-market plant is worth) and the limits worked out so far."""

    __slots__ = ("gains", "sets", "surplus", "money", "market", "limits", "worths", "alternative", "later")

    def __init__(self, gains: dict[int, float], sets: dict[int, tuple[tuple[int, ...], ...]],
                 surplus: dict[int, float], money: int, market: tuple | None, alternative: float = 1.0,
                 later: float = 0.0) -> None:
        self.gains, self.sets, self.surplus, self.money = gains, sets, surplus, money
        self.market = market  # market_state: what the fuel for a reserve is priced on (None: not yet)
        self.alternative, self.later = alternative, later
        self.limits: dict[int, int] = {}
        self.worths: dict[int, float] | None = None


def worth(v: Valuation, plant: int) -> float:
    """What ``plant`` (in ``v``'s market) is worth before the money kept: its gain less what buying it
    gives up, the larger of ``v.alternative`` times the best other plant's surplus and ``v.later``
    (waiting for a plant of the future market)."""
    out = v.worths
    if out is None:
        # the best alternative: the best surplus, or for the plant that has it the second best (as
        # max() of the others and 0: the same value, so the same float)
        best_x, first, second = None, 0.0, None
        for x, y in v.surplus.items():
            if best_x is None or y > first:
                if best_x is not None:
                    second = first
                best_x, first = x, y
            elif second is None or y > second:
                second = y
        gains, share, later = v.gains, v.alternative, v.later
        alt = first if first > 0 else 0
        alt_best = second if second is not None and second > 0 else 0
        out = v.worths = {x: gains[x] - max(share * (alt_best if x == best_x else alt), later) for x in gains}
    return out[plant]


class PlantValues:
    """The valuation half of :class:`~powergrid_nb.bots.heuristic.HeuristicBot` (a mixin): needs
    ``horizon``, ``growth``, a ``style``, a per-round ``_memo`` and ``build_estimate``."""

    horizon: int
    growth: int
    style: BotStyle
    _memo: dict[tuple, Any]

    if TYPE_CHECKING:
        def build_estimate(self, g: Game, player: str, k: int) -> int: ...

    def trajectory(self, g: Game, player: str) -> list[int]:
        """Cities ``player`` expects to have at the next ``horizon`` bureaucracies."""
        return list(self._trajectory(g, player))

    def _trajectory(self, g: Game, player: str) -> tuple[int, ...]:
        """:meth:`trajectory` as a tuple (memoised on its inputs)."""
        key = (g.city_count(player), g.max_cities, self.growth + (g.step > 1), self.horizon)
        hit = _TRAJ.get(key)
        if hit is None:
            c, end, grow, horizon = key
            hit = _TRAJ[key] = tuple(min(end, max(c + grow * t, 1 + t)) for t in range(1, horizon + 1))
        return hit

    def income(self, g: Game, plants: tuple[int, ...], cities: list[int] | tuple[int, ...],
               unit: tuple[float, ...]) -> float:
        """Income minus fuel over the trajectory ``cities`` with the best run each round."""
        return self._incomes(g, tuple(cities), unit)[plants]

    def _incomes(self, g: Game, cities: tuple[int, ...], unit: tuple[float, ...]) -> Incomes:
        """:func:`incomes` with the payment table, read once a round."""
        pay = self._memo.get(_PAY)
        if pay is None:
            pay = self._memo[_PAY] = payments(g)
        return incomes(pay, cities, unit)

    def keep_sets(self, g: Game, player: str, plant: int) -> tuple[tuple[int, ...], ...]:
        """The plants ``player`` may end with after buying ``plant`` (one dropped at the limit, R36)."""
        return kept_plants(tuple(g.plants_in_order(player)), g.plant_limit, plant)

    def _gains(self, g: Game, player: str, own: tuple[int, ...]
               ) -> tuple[dict[int, float], dict[int, tuple[tuple[int, ...], ...]]]:
        """(What each current-market plant adds over the horizon, replacing the worst at the limit:
        :meth:`net_incomes`; the keep sets of each plant). Near the end (someone within 4 cities of
        it) capacity also wins the race: a plant that lifts the player above every rival's capacity is
        worth half its money on top (a tie a quarter)."""
        net = self.net_incomes(g, player)
        base = net(own)
        players = g.players
        race = 0.0
        if g.largest_network() >= g.end_cities - 4:
            race = g.money(player) / 2
        limit = g.plant_limit
        gains, sets = {}, {}
        if not race:  # race * (win - now) adds an exact 0.0 to incomes that are never -0.0: no rival needed
            for x in g.current_market():
                keep = sets[x] = kept_plants(own, limit, x)
                gains[x] = max(map(net, keep)) - base
            return gains, sets
        top = g.max_cities
        rival = max(min(production(g.plants_in_order(q)), top) for q in players if q != player)

        def win(plants: tuple[int, ...]) -> float:
            mine = min(production(plants), top)
            return 1.0 if mine > rival else 0.5 if mine == rival else 0.0

        now = win(own)
        for x in g.current_market():
            keep = sets[x] = kept_plants(own, limit, x)
            gains[x] = max(net(k) + race * (win(k) - now) for k in keep) - base
        return gains, sets

    def net_incomes(self, g: Game, player: str) -> Any:
        """plants -> the income they earn over the horizon (the best run each round, fuel at today's
        prices, on the cities of :meth:`trajectory` they can power) less ``style.city_cost`` times what
        the cities they need cost to build: the cheapest ones by greedy pricing, up to the trajectory's
        last count or the plants' capacity, beyond the cities owned (memoised for the position)."""
        unit, traj = unit_prices(g), self._trajectory(g, player)
        known = self._incomes(g, traj, unit)
        if not self.style.city_cost:
            return known.__getitem__  # the incomes alone (the default company)
        key = ("net", player, traj, unit, g.house_total(), g.step)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        have, last, top = g.city_count(player), traj[-1], g.max_cities
        # a city earns until the game ends: the horizon bears its share of the cost, horizon rounds of
        # the rounds left (the cities still to build to the end, at the expected growth a round)
        grow = max(1, self.growth + (g.step > 1))
        left = max(len(traj), -(-(g.end_cities - g.largest_network()) // grow))
        share = self.style.city_cost * len(traj) / left
        costs: dict[int, float] = {}

        def net(plants: tuple[int, ...]) -> float:
            need = min(production(plants), top, last) - have
            cost = costs.get(need)
            if cost is None:
                cost = costs[need] = share * self.build_estimate(g, player, need)
            return known[plants] - cost

        self._memo[key] = net
        return net

    def fuel(self, g: Game, plants: Sequence[int], held: Sequence[int], target: int, market: tuple
             ) -> tuple[int, tuple[int, int, int, int]] | None:
        """:func:`fuel_plan` (memoised; ``market``: :func:`market_state` of ``g``)."""
        key = ("fuel", tuple(plants), tuple(held), target, market)
        hit = self._memo.get(key, key)
        if hit is key:
            prices = self._memo.get(("prices", market))
            if prices is None:
                prices = self._memo[("prices", market)] = priced_in(g, market)
            hit = self._memo[key] = fuel_plan(g, plants, held, target, prices)
        return hit

    def reserve(self, g: Game, player: str, plant: int, market: tuple | None = None,
                keep: tuple[tuple[int, ...], ...] | None = None) -> int:
        """Money kept after buying ``plant``: fuel for the player's cities and a city or two more.
        (``market``: :func:`market_state`; ``keep``: :meth:`keep_sets`, when the caller has them.)"""
        c = g.city_count(player)
        if keep is None:
            keep = self.keep_sets(g, player, plant)
        plants = keep[0] if len(keep) == 1 else max(keep, key=production)
        reserve = self.style.reserve
        grow = min(min(1, reserve) if g.round == 1 else reserve, max(0, production(plants) - c))
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
               g.resource_counts(), g.city_count(player), own)
        hit = self._memo.get(key)
        if hit is None:
            gains, sets = self._gains(g, player, own)
            surplus = {x: v - g.min_bid(x) for x, v in gains.items()}
            style = self.style
            later = style.waiting * self.later_surplus(g, player, own) if style.waiting else 0.0
            hit = self._memo[key] = Valuation(gains, sets, surplus, money, None, style.alternative, later)
        return hit

    def later_surplus(self, g: Game, player: str, own: tuple[int, ...]) -> float:
        """The best surplus of a future-market plant (R30: it comes on sale later, for at least its
        number): the income it adds over the horizon less its number; 0 if none adds more."""
        net = self.net_incomes(g, player)
        base, limit = net(own), g.plant_limit
        best = 0.0
        for y in g.future_market():
            if y not in CITIES:  # the Step 3 card (R38)
                continue
            gain = max(map(net, kept_plants(own, limit, y))) - base
            if gain - y > best:
                best = gain - y
        return best

    def limit(self, g: Game, player: str, plant: int, value: Valuation | None = None) -> int:
        """The most ``player`` will pay for ``plant`` (below its minimum bid: not wanted; -1 for a plant
        not in the current market). Computed on demand: a bid needs one plant's limit, not all."""
        v = self.valuation(g, player) if value is None else value
        out = v.limits.get(plant)
        if out is None:
            if plant not in v.gains:
                return -1
            if v.market is None:  # the tokens in phase 2 change only with the market, so with the key
                v.market = market_state(g)
            cash = v.money - self.reserve(g, player, plant, v.market, v.sets[plant])
            out = v.limits[plant] = int(min(self.bid_worth(v, plant), cash))
        return out

    def bid_worth(self, v: Valuation, plant: int) -> float:
        """The most the style bids for ``plant`` before the money kept: :func:`worth` with its
        ``alternative``, plus its ``premium`` (a share of it)."""
        value = worth(v, plant)
        premium = self.style.premium
        return value + premium * abs(value) if premium else value

    def limits(self, g: Game, player: str) -> dict[int, int]:
        """The most ``player`` will pay for each current-market plant (below its minimum bid: not wanted)."""
        v = self.valuation(g, player)
        return {x: self.limit(g, player, x, v) for x in v.gains}

