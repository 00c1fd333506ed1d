"""HeuristicBot: plays like a sensible human, from nothing but what its player may see.

Plants are valued by the income they add over the next few rounds (payment table minus fuel at today's
market prices, :mod:`.fuel`), fuel is bought for the next run, the cheapest cities are built up to what
the plants can power (with :func:`powergrid_nb.bots.planner.cheapest_cities`; estimates by :mod:`.expansion`),
and the run that earns most is powered. Every fact comes from the public queries of :class:`Game`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from powergrid_nb.bots.base import Bot
from powergrid_nb.engine.actions import Action, Bid, Build, BuyResources, Discard, Done, MarkCity, Open, Pass
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.engine.rules.plants import RESOURCES, capacities, coal_bounds, production, room_for_one

from .expansion import BuildEstimates
from .fuel import market_state, plant_runs, unit_prices
from .planner import cheapest_cities
from .style import STYLES, BotStyle, style_of
from .valuation import PlantValues

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

__all__ = ["HeuristicBot", "TurnPlans"]

BIG = 10**6
_FUELLED: dict[tuple, int] = {}
_BUY_ONE: dict[tuple[str, int], BuyResources] = {}


def fuelled_cities(plants: list[int], held: tuple[int, ...]) -> int:
    """Cities ``plants`` can power with the tokens ``held`` (``best_run(plants, held, BIG)[0]``: the
    most any run the tokens allow powers, R73; memoised)."""
    key = (tuple(plants), held)
    hit = _FUELLED.get(key)
    if hit is None:
        if len(_FUELLED) > 20_000:
            _FUELLED.clear()
        hit = _FUELLED[key] = max([made for made, *need in plant_runs(key[0])
                                   if coal_bounds(need, held) is not None], default=0)
    return hit


class TurnPlans:
    """Plans made once in a turn and followed decision by decision (tokens to buy, cities to build)
    while the position is the one the last step expected (``sig``: the player's money and holdings)."""

    def __init__(self) -> None:
        self._plans: dict[tuple, tuple[Any, tuple]] = {}

    def follow(self, key: tuple, sig: tuple) -> Any:
        """The rest of the plan under ``key`` if the position is ``sig`` as expected, else None."""
        hit = self._plans.get(key)
        return hit[0] if hit is not None and hit[1] == sig else None

    def expect(self, key: tuple, rest: Any, sig: tuple) -> None:
        """Keep ``rest`` of the plan for the next decision, expected in position ``sig``."""
        self._plans[key] = (rest, sig)

    def drop(self, key: tuple) -> None:
        self._plans.pop(key, None)

    def clear(self) -> None:
        self._plans.clear()


class HeuristicBot(PlantValues, BuildEstimates, Bot):
    """A sensible human: fair (uses only public facts), never illegal, reproducible for a seed.

    ``style``: how the company plays (:class:`~powergrid_nb.bots.style.BotStyle`: a preset name such as
    ``"cautious"``, a ``BotStyle``, or None for the default); keyword arguments change single fields of
    it, e.g. ``HeuristicBot(seed, horizon=4)`` or ``HeuristicBot(seed, style="aggressive", slack=0)``.
    """

    name = "heuristic"
    needs_view = False  # only public queries, never the deck: the real game is its player's view

    def __init__(self, seed: int | None = None, style: BotStyle | str | None = None, **changes: Any) -> None:
        super().__init__(seed)
        self.style = style_of(style, **changes)
        preset = next((k for k, v in STYLES.items() if v == self.style), "custom")
        self.name = "heuristic" if preset == "default" else f"heuristic:{preset}"  # type: ignore[misc]
        self.horizon, self.growth, self.slack = self.style.horizon, self.style.growth, self.style.slack
        self._plans = TurnPlans()
        self._memo: dict[tuple, Any] = {}  # values of this round's positions (keys name every input)
        self._memo_round = -1

    def __repr__(self) -> str:
        return f"HeuristicBot(seed={self.seed}, style={self.style!r})"

    # --- dispatch ----------------------------------------------------------------------------------
    def choose(self, game: Game) -> Action:
        player = game.current_player
        assert player is not None, "the game is over"
        if game.round != self._memo_round:  # caches live for one round
            self._memo.clear()
            self._plans.clear()
            self._memo_round = game.round
        phase = game.phase
        if phase == Phase.START_CITIES:
            return self.mark(game, player)
        if phase == Phase.AUCTION:
            if game.discarding == player:
                return self.discard(game, player)
            return self.auction(game, player)
        if phase == Phase.RESOURCES:
            return self.buy(game, player)
        if phase == Phase.BUILDING:
            return self.build(game, player)
        return self.power(game, player)

    # --- phase 0 and 2 ------------------------------------------------------------------------------
    def mark(self, g: Game, player: str) -> Action:
        """A central city: cheap links to its nearest neighbours (R134)."""
        cities, dist = g.distance_table()
        row_of = dict(zip(cities, dist, strict=True))

        def spread(a: MarkCity) -> tuple[int, str]:
            row = sorted(row_of[a.city])
            return sum(row[1:5]), a.city
        return min(g.legal_actions(), key=spread)  # type: ignore[arg-type]

    def auction(self, g: Game, player: str) -> Action:
        money = g.money(player)
        running = g.auction
        if running is not None:
            if running.bid + 1 <= money and running.bid + 1 <= self.limit(g, player, running.plant):
                return Bid(player, running.bid + 1)
            return Pass(player)
        market = g.current_market()
        if all(g.min_bid(x) > money for x in market):
            return Pass(player)  # nothing affordable, even in round 1 (R35)
        v = self.valuation(g, player)
        # the plant with the most (limit - minimum bid, number): limits are worked out best bound first
        # (a limit is at most int(worth)) until no bound left can beat the best found
        bounds = []
        for x in v.gains:
            low = g.min_bid(x)
            if low <= money:
                top = int(self.bid_worth(v, x))
                if top >= low:  # else its limit is below its minimum bid
                    bounds.append((top - low, x, low))
        best = None
        for top, x, low in sorted(bounds, reverse=True):
            if best is not None and (top, x) < best:
                break
            limit = self.limit(g, player, x, v)
            if low <= limit and (best is None or (limit - low, x) > best):
                best = (limit - low, x)
        if best is not None:
            x = best[1]
            return Open(player, x, g.min_bid(x))
        if g.round == 1:  # R35: a plant must be bought; the best value that is affordable
            gains = v.gains
            ok = [(gains[x] - g.min_bid(x), -x, x) for x in gains if g.min_bid(x) <= money]
            if ok:
                x = max(ok)[2]
                return Open(player, x, g.min_bid(x))
        return Pass(player)

    def discard(self, g: Game, player: str) -> Action:
        """Box the plant whose loss costs least income; keep the most valuable tokens (R36, R37)."""
        unit, traj = unit_prices(g), self.trajectory(g, player)
        own = g.plants_in_order(player)

        def score(a: Discard) -> tuple[float, float]:
            rest = tuple(x for x in own if x != a.plant)
            kept = sum(n * u for n, u in zip(a.keep or (0, 0, 0, 0), unit, strict=True))
            return self.income(g, rest, traj, unit), kept
        return max(g.legal_actions(), key=score)  # type: ignore[arg-type]

    # --- phase 3 ------------------------------------------------------------------------------------
    def buy_target(self, g: Game, player: str) -> tuple[int, ...]:
        """Holdings to end the turn with: fuel for the cities the player will have after building."""
        plants, held = g.plants_in_order(player), list(g.held(player))
        money, c, cap = g.money(player), g.city_count(player), production(plants)
        want = max(0, cap - c) + self.slack
        market = market_state(g)
        for k in range(want, -1, -1):
            plan = self.fuel(g, plants, held, min(c + k, cap), market)
            if plan is None:
                continue
            if self.can_afford(g, player, k, money - plan[0]):
                return tuple(h + b for h, b in zip(held, plan[1], strict=True))
        for target in range(min(c, cap), 0, -1):  # not even the cities it has: what money allows
            plan = self.fuel(g, plants, held, target, market)
            if plan is not None and plan[0] <= money:
                return tuple(h + b for h, b in zip(held, plan[1], strict=True))
        return tuple(held)

    def buy(self, g: Game, player: str) -> Action:
        """One token at a time towards :meth:`buy_target`, made once per turn."""
        key = ("buy", player)
        money, held = g.money(player), g.held(player)
        target = self._plans.follow(key, (money, held))
        if target is None:
            target = self.buy_target(g, player)
        room = None
        for k, resource in enumerate(RESOURCES):
            if held[k] < target[k]:
                price = g.token_price(resource)
                if price is None or price > money:
                    continue
                if room is None:  # with a token to be had and the money: legal iff it fits (R48, R49)
                    room = room_for_one(capacities(g.plants_in_order(player)), held)
                if room[k]:
                    a = _BUY_ONE.get((player, k))
                    if a is None:
                        if len(_BUY_ONE) > 1_000:
                            _BUY_ONE.clear()
                        a = _BUY_ONE[(player, k)] = BuyResources(player, **{resource: 1})  # immutable
                    after = list(held)
                    after[k] += 1
                    self._plans.expect(key, target, (money - price, tuple(after)))
                    return a
        self._plans.drop(key)
        return Done(player)

    # --- phase 4 ------------------------------------------------------------------------------------
    def build_count(self, g: Game, player: str) -> int:
        """Cities to add this turn: up to what the fuelled plants power (+slack), end-game aware."""
        c, money, top = g.city_count(player), g.money(player), g.max_cities
        plants = g.plants_in_order(player)
        fuelled = fuelled_cities(plants, g.held(player))
        want = min(max(0, min(production(plants), fuelled + self.slack) - c), top - c)
        end = g.end_cities
        if any(g.city_count(q) >= end for q in g.players):
            return max(0, fuelled - c)  # the game ends after this phase: only powered cities count (R99)
        k = min(max(end - c, fuelled - c), top - c)
        if k > 0 and c + k >= end and self.can_afford(g, player, k, money):
            score, rival = min(fuelled, c + k), self.rival_best(g, player)
            richest = max(g.money(q) for q in g.players if q != player)
            rich = money - self.build_estimate(g, player, k) > richest
            if score > rival or (score == rival and rich) or g.round > 40:
                return k  # ending the game now wins it
        if c + want >= end:
            return max(0, min(want, end - 1 - c))  # would end a game it does not win
        return want

    def rival_best(self, g: Game, player: str) -> int:
        """The most cities any rival could power if the game ended this phase (a guess)."""
        best = 0
        waiting = g.still_to_act
        for q in g.players:
            if q == player:
                continue
            fuelled = fuelled_cities(g.plants_in_order(q), g.held(q))
            room = g.money(q) // 15 if q in waiting else 0  # has not built yet this phase
            best = max(best, min(fuelled, g.city_count(q) + room))
        return best

    def build_plan(self, g: Game, player: str) -> list[str]:
        """The cities to add this turn, in the order to build them."""
        k = self.build_count(g, player)
        if k <= 0:
            return []
        money = g.money(player)
        if k == 1 and not g.cities_of(player):  # a lone first house: where growth is cheapest
            run = self.greedy(g, player)
            return run.prefix(run.extend(g, player, k), money)[0]
        found = cheapest_cities(g, player, k, money)
        return [] if found is None else list(found[0])

    def build(self, g: Game, player: str) -> Action:
        """One city at a time from :meth:`build_plan`, made once per turn."""
        key = ("build", player)
        money, have = g.money(player), g.city_count(player)
        plan = self._plans.follow(key, (money, have))
        if plan is None:
            plan = self.build_plan(g, player)
        if plan:
            city = plan[0]
            cost = g.build_cost(player, city)
            if cost is not None and cost <= money:
                self._plans.expect(key, plan[1:], (money - cost, have + 1))
                return Build(player, city)
        self._plans.drop(key)
        return Done(player)

    # --- phase 5 ------------------------------------------------------------------------------------
    def power(self, g: Game, player: str) -> Action:
        """The run with the best income minus the market value of the tokens it burns."""
        u0, u1, u2, u3 = unit_prices(g)
        best, size, choice = 0.0, 0, None
        for a, income, (b0, b1, b2, b3) in g.power_options(player):  # by the engine (R74-R77)
            net = income - (b0 * u0 + b1 * u1 + b2 * u2 + b3 * u3)  # the same sum as sum() of the four
            n = len(a.plants)
            if choice is None or net > best or (net == best and n < size):  # the first of the best
                best, size, choice = net, n, a
        assert choice is not None
        return choice
