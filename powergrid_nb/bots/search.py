"""SearchBot: Monte-Carlo rollouts over re-dealt hidden cards, with HeuristicBot as the rollout policy.

Only the decisions that shape a game are searched: which plant to open (or to pass), whether to raise a
contested bid, and how many cities to build. Everything else (fuel, the single steps of a planned build,
power, discards, start cities) is the heuristic's. Each candidate is scored on the same re-deals (common
random numbers), so the comparison between candidates is much sharper than the raw win rates.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..actions import Action, Bid, Build, Done, Open, Pass
from ..errors import IllegalAction
from ..planner import cheapest_k
from .base import Bot
from .heuristic import HeuristicBot, greedy_cities

if TYPE_CHECKING:
    from ..game import Game


Line = tuple[Action, ...]  # a candidate: the decisions applied before the rollout starts


class SearchBot(Bot):
    """Flat Monte-Carlo search at key decisions (the rest is :class:`HeuristicBot`'s).

    ``rollouts``: re-deals per key decision, each candidate played out once on each (the budget);
    ``think_time``: seconds per key decision instead (at least one re-deal; results then depend on the
    machine's speed); ``horizon``: rounds played out beyond the current one before the position is
    scored (None: to the end of the game, scored by :meth:`Game.returns` plus a small margin term);
    ``plants``: how many of the heuristic's best plants are candidates for opening;
    ``bid_window``: a bid is searched when it is within this much of the heuristic's limit.
    """

    name = "search"

    def __init__(self, seed: int | None = None, rollouts: int = 4, think_time: float | None = None,
                 horizon: int | None = None, plants: int = 3, bid_window: int = 6) -> None:
        super().__init__(seed)
        self.rollouts, self.think_time, self.horizon = rollouts, think_time, horizon
        self.plants, self.bid_window = plants, bid_window
        self.heuristic = HeuristicBot(seed)
        self.searched = 0        # key decisions searched so far
        self.simulations = 0     # rollouts played so far
        self._build: dict[tuple, tuple[list[Build], tuple | None]] = {}

    def __repr__(self) -> str:
        budget = f"think_time={self.think_time}" if self.think_time else f"rollouts={self.rollouts}"
        return f"SearchBot(seed={self.seed}, {budget}, horizon={self.horizon})"

    # --- decisions -------------------------------------------------------------------------------------
    def choose(self, game: Game) -> Action:
        s = game.s
        me = game.current_player
        assert me is not None
        p = game.ctx.index[me]
        if s.phase == 2 and s.discard != p:
            lines = self.auction_lines(game, p)
            if len(lines) > 1:
                return self.search(game, me, lines)[0]
        elif s.phase == 4:
            return self.build(game, p)
        return self.heuristic.choose(game)

    def auction_lines(self, g: Game, p: int) -> list[Line]:
        """Candidates: open one of the heuristic's best plants at its minimum or pass; raise or drop."""
        s, name = g.s, g.ctx.names[p]
        h = self.heuristic
        own = h.choose(g)
        limits = h.limits(g, p)
        money = s.money[p]
        if s.auction is not None:
            plant, high = s.auction[0], s.auction[1]
            limit = limits.get(plant, -1)
            if high + 1 > money or not limit - self.bid_window <= high + 1 <= limit + self.bid_window:
                return [(own,)]
            return [(own,), (Bid(name, high + 1),) if isinstance(own, Pass) else (Pass(name),)]
        lines: list[Line] = [(own,)]
        ranked = sorted(limits, key=lambda x: (limits[x] - g.min_bid(x), -x), reverse=True)
        for x in ranked[:self.plants]:
            a = Open(name, x, g.min_bid(x))
            if g.min_bid(x) <= money and (a,) not in lines:
                lines.append((a,))
        if (s.round > 1 or not lines[1:]) and (Pass(name),) not in lines:
            lines.append((Pass(name),))
        return lines

    def build(self, g: Game, p: int) -> Action:
        """Search the number of cities once per turn, then play the chosen cities one at a time."""
        s, name = g.s, g.ctx.names[p]
        if s.round not in {k[0] for k in self._build}:
            self._build.clear()  # plans of earlier rounds
        key = (s.round, p)
        sig = (s.money[p], len(s.mine[p]))
        hit = self._build.get(key)
        if hit is None:
            lines = self.build_lines(g, p)
            line = self.search(g, name, lines) if len(lines) > 1 else lines[0]
            hit = ([Build(name, c) for a in line if isinstance(a, Build) for c in a.cities], sig)
        steps, expect = hit
        if expect != sig:  # not the position the plan was made for: the heuristic takes over
            self._build[key] = ([], None)
            return self.heuristic.choose(g)
        if steps:
            cost = g.build_cost(name, steps[0].city)
            if cost is not None and cost <= s.money[p]:
                self._build[key] = (steps[1:], (s.money[p] - cost, len(s.mine[p]) + 1))
                return steps[0]
        self._build[key] = ([], sig)
        return Done(name)

    def build_lines(self, g: Game, p: int) -> list[Line]:
        """Candidates: the cheapest k cities for k around the heuristic's count, and none."""
        s, name = g.s, g.ctx.names[p]
        k0 = self.heuristic.build_count(g, p)
        lines: list[Line] = []
        seen: set[tuple[str, ...]] = set()
        for k in dict.fromkeys((k0, k0 - 1, k0 + 1, k0 + 2, 0)):  # the heuristic's count first (ties)
            if k < 0 or len(s.mine[p]) + k > g.ctx.max_cities:
                continue
            if k == k0:
                cities = tuple(self.heuristic.build_plan(g, p))
            elif s.mine[p] or k > 1:
                plan = cheapest_k(g, name, k, s.money[p])
                cities = () if plan is None else tuple(plan.cities)
            else:
                cities = tuple(greedy_cities(g, p, k, s.money[p])[0])
            if len(cities) < k or cities in seen:
                continue
            seen.add(cities)
            line: Line = ((Build(name, *cities),) if cities else ()) + (Done(name),)
            lines.append(line)
        return lines or [(Done(name),)]

    # --- the search ------------------------------------------------------------------------------------
    def search(self, g: Game, me: str, lines: list[Line]) -> Line:
        """The candidate with the best mean outcome over re-deals (ties: the earlier, the heuristic's)."""
        self.searched += 1
        totals = [0.0] * len(lines)
        start = time.perf_counter()
        n = 0
        while True:
            world = g.for_player(me, seed=self.rng.randrange(2**32))
            for i, line in enumerate(lines):
                totals[i] += self.rollout(world.copy(), me, line)
            n += 1
            if self.think_time is not None:
                if time.perf_counter() - start >= self.think_time:
                    break
            elif n >= self.rollouts:
                break
        best = max(range(len(lines)), key=lambda i: (totals[i], -i))
        return lines[best]

    def rollout(self, h: Game, me: str, line: Line) -> float:
        """Play ``line`` then the heuristic for everyone; the outcome for ``me``."""
        self.simulations += 1
        try:
            for a in line:
                h.apply(a)
        except IllegalAction:  # a candidate the engine refuses (should not happen): never chosen
            return -10.0
        policy = HeuristicBot(None)
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
