"""SearchBot: determinised Monte-Carlo search over re-dealt hidden cards, with HeuristicBot as rollout policy.

Only the decisions that shape a game are searched: which plant to open (or to pass), whether to raise a
contested bid, and how many cities to build. Everything else (fuel, the single steps of a planned build,
power, discards, start cities) is the heuristic's. Each re-deal is one determinisation of what the
player cannot see (:meth:`Game.for_player`); the candidates still in the race are each played out on
it (common random numbers: they face the same cards, so their comparison is much sharper than the raw
win rates). The budget goes by *sequential halving* (Karnin, Koren and Somekh 2013): in each of
ceil(log2 k) rounds the candidates left share an equal part of it, and the worse half is dropped, so
the good candidates get most of the playouts. The candidate plants widen with the budget (progressive
widening): about sqrt(playouts / 4) of the heuristic's best plants, at least ``plants``.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

from powergrid_nb.engine.actions import Action, Bid, Build, Done, Open, Pass
from powergrid_nb.engine.errors import IllegalAction
from powergrid_nb.engine.rules.phases import Phase

from .base import Bot
from .expansion import greedy_cities
from .heuristic import HeuristicBot
from .planner import cheapest_cities
from .style import BotStyle

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game


Line = tuple[Action, ...]  # a candidate: the decisions applied before the rollout starts


class SearchBot(Bot):
    """Determinised Monte-Carlo search at key decisions (the rest is :class:`HeuristicBot`'s).

    ``rollouts``: the budget, in playouts per candidate on average (k candidates: ``rollouts * k``
    playouts, shared out by sequential halving); ``think_time``: seconds per key decision instead (at
    least one re-deal in each halving round; results then depend on the machine's speed);
    ``horizon``: rounds played out beyond the current one before the position is scored (None: to the
    end of the game, scored by :meth:`Game.returns` plus a small margin term); ``plants``: at least
    this many of the heuristic's best plants are candidates for opening (more as the budget grows);
    ``bid_window``: a bid is searched when it is within this much of the heuristic's limit;
    ``style``: the :class:`~powergrid_nb.bots.style.BotStyle` of the heuristic it follows and plays out.
    """

    name = "search"

    def __init__(self, seed: int | None = None, rollouts: int = 4, think_time: float | None = None,
                 horizon: int | None = None, plants: int = 3, bid_window: int = 6,
                 style: BotStyle | str | None = None) -> None:
        super().__init__(seed)
        self.rollouts, self.think_time, self.horizon = rollouts, think_time, horizon
        self.plants, self.bid_window = plants, bid_window
        self.heuristic = HeuristicBot(seed, style=style)
        self.searched = 0        # key decisions searched so far
        self.simulations = 0     # rollouts played so far
        self._rollout_s = 0.02   # a running mean of a rollout's seconds (to widen a think_time search)
        self._build: dict[tuple, tuple[list[Build], tuple | None]] = {}

    def __repr__(self) -> str:
        budget = f"think_time={self.think_time}" if self.think_time else f"rollouts={self.rollouts}"
        return f"SearchBot(seed={self.seed}, {budget}, horizon={self.horizon})"

    # --- decisions -------------------------------------------------------------------------------------
    def choose(self, game: Game) -> Action:
        me = game.current_player
        assert me is not None, "the game is over"
        phase = game.phase
        if phase == Phase.AUCTION and game.discarding != me:
            lines = self.auction_lines(game, me)
            if len(lines) > 1:
                return self.search(game, me, lines)[0]
        elif phase == Phase.BUILDING:
            return self.build(game, me)
        return self.heuristic.choose(game)

    def auction_lines(self, g: Game, me: str) -> list[Line]:
        """Candidates: open one of the heuristic's best plants at its minimum or pass; raise or drop."""
        h = self.heuristic
        own = h.choose(g)
        limits = h.limits(g, me)
        money = g.money(me)
        running = g.auction
        if running is not None:
            high = running.bid
            limit = limits.get(running.plant, -1)
            if high + 1 > money or not limit - self.bid_window <= high + 1 <= limit + self.bid_window:
                return [(own,)]
            return [(own,), (Bid(me, high + 1),) if isinstance(own, Pass) else (Pass(me),)]
        lines: list[Line] = [(own,)]
        ranked = sorted(limits, key=lambda x: (limits[x] - g.min_bid(x), -x), reverse=True)
        for x in ranked[:self.widened(self.plants)]:
            a = Open(me, x, g.min_bid(x))
            if g.min_bid(x) <= money and (a,) not in lines:
                lines.append((a,))
        if (g.round > 1 or not lines[1:]) and (Pass(me),) not in lines:
            lines.append((Pass(me),))
        return lines

    def build(self, g: Game, me: str) -> Action:
        """Search the number of cities once per turn, then play the chosen cities one at a time."""
        if g.round not in {k[0] for k in self._build}:
            self._build.clear()  # plans of earlier rounds
        key = (g.round, me)
        money, have = g.money(me), g.city_count(me)
        sig = (money, have)
        hit = self._build.get(key)
        if hit is None:
            lines = self.build_lines(g, me)
            line = self.search(g, me, lines) if len(lines) > 1 else lines[0]
            hit = ([Build(me, c) for a in line if isinstance(a, Build) for c in a.cities], sig)
        steps, expect = hit
        if expect != sig:  # not the position the plan was made for: the heuristic takes over
            self._build[key] = ([], None)
            return self.heuristic.choose(g)
        if steps:
            cost = g.build_cost(me, steps[0].city)
            if cost is not None and cost <= money:
                self._build[key] = (steps[1:], (money - cost, have + 1))
                return steps[0]
        self._build[key] = ([], sig)
        return Done(me)

    def build_lines(self, g: Game, me: str) -> list[Line]:
        """Candidates: the cheapest k cities for k around the heuristic's count, and none."""
        k0 = self.heuristic.build_count(g, me)
        money, have = g.money(me), g.city_count(me)
        lines: list[Line] = []
        seen: set[tuple[str, ...]] = set()
        for k in dict.fromkeys((k0, k0 - 1, k0 + 1, k0 + 2, 0)):  # the heuristic's count first (ties)
            if k < 0 or have + k > g.max_cities:
                continue
            if k == k0:
                cities = tuple(self.heuristic.build_plan(g, me))
            elif have or k > 1:
                found = cheapest_cities(g, me, k, money)
                cities = () if found is None else found[0]
            else:
                cities = tuple(greedy_cities(g, me, k, money)[0])
            if len(cities) < k or cities in seen:
                continue
            seen.add(cities)
            line: Line = ((Build(me, *cities),) if cities else ()) + (Done(me),)
            lines.append(line)
        return lines or [(Done(me),)]

    # --- the search ------------------------------------------------------------------------------------
    def budget(self) -> float:
        """Playouts one key decision can expect: ``rollouts`` per candidate of an average decision (4),
        or what ``think_time`` buys at the rollouts' measured speed."""
        if self.think_time is not None:
            return self.think_time / self._rollout_s
        return 4 * self.rollouts

    def widened(self, least: int) -> int:
        """Progressive widening: candidate plants for a budget of :meth:`budget` playouts."""
        return max(least, math.isqrt(int(self.budget() / 4)))

    def search(self, g: Game, me: str, lines: list[Line]) -> Line:
        """The candidate with the best mean outcome after sequential halving over re-deals (ties: the
        earlier, the heuristic's)."""
        self.searched += 1
        k = len(lines)
        halvings = max(1, math.ceil(math.log2(k)))
        totals, counts = [0.0] * k, [0] * k
        alive = list(range(k))
        start = time.perf_counter()
        for r in range(halvings):
            deadline = start + self.think_time * (r + 1) / halvings if self.think_time is not None else None
            deals = max(1, self.rollouts * k // (halvings * len(alive)))  # this round's share, per candidate
            n = 0
            while True:
                world = g.for_player(me, seed=self.rng.randrange(2**32))
                for i in alive:
                    t = time.perf_counter()
                    totals[i] += self.rollout(world.copy(), me, lines[i])
                    counts[i] += 1
                    self._rollout_s += 0.05 * (time.perf_counter() - t - self._rollout_s)
                n += 1
                if deadline is not None:
                    if time.perf_counter() >= deadline:
                        break
                elif n >= deals:
                    break
            if len(alive) > 1:
                alive.sort(key=lambda i: (totals[i] / counts[i], -i), reverse=True)
                alive = sorted(alive[:(len(alive) + 1) // 2])
        best = max(alive, key=lambda i: (totals[i] / counts[i], -i))
        return lines[best]

    def rollout(self, h: Game, me: str, line: Line) -> float:
        """Play ``line`` then the heuristic for everyone; the outcome for ``me``."""
        self.simulations += 1
        try:
            for a in line:
                h.apply(a)
        except IllegalAction:  # a candidate the engine refuses (should not happen): never chosen
            return -10.0
        policy = HeuristicBot(None, style=self.heuristic.style)
        stop = None if self.horizon is None else h.round + self.horizon
        while not h.is_over and (stop is None or h.round < stop):
            h.apply(policy.choose(h))
        return outcome(h, me)


def outcome(h: Game, me: str) -> float:
    """Win share, plus a small term for the margin in cities powered (and money) over the best rival.

    For an unfinished game (a truncated rollout) the cities that could be powered now stand in for the
    final score; the margin term keeps the signal informative when the win share ties.
    """
    scores = h.scores()
    mine = scores[me]
    rivals = [n for n in h.players if n != me]
    best = max(rivals, key=lambda n: (scores[n], h.money(n)))
    margin = mine - scores[best] + (h.money(me) - h.money(best)) / 200
    if h.is_over:
        return h.returns()[me] + 0.02 * margin
    ranked = sorted(h.players, key=lambda n: (scores[n] + len(h.cities_of(n)) / 2, h.money(n)), reverse=True)
    return (1.0 if ranked[0] == me else 0.0) + 0.02 * margin
