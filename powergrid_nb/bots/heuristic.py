"""HeuristicBot: plays like a sensible human, from nothing but what its player may see.

Plants are valued by the income they add over the next few rounds (payment table minus fuel at today's
market prices), fuel is bought for the next run, the cheapest cities are built up to what the plants can
power (with :func:`powergrid_nb.planner.cheapest_k`), and the run that earns most is powered.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from ..actions import Action, Bid, Build, Discard, Done, MarkCity, Open, Pass, Power
from ..errors import IllegalAction
from ..planner import cheapest_k
from ..plants import PLANTS, best_run, capacities, fits, needs, production
from ..resources import buy_cost, depot_price, next_price, purchase_cost
from ..steps import current_market
from .base import Bot

if TYPE_CHECKING:
    from ..game import Game


FALLBACK = (9, 9, 9, 17)  # price assumed for a type the market cannot supply now
BIG = 10**6


# --- fuel and income arithmetic ---------------------------------------------------------------------

def fuel_plan(g: Game, plants: list[int], held: list[int], target: int
              ) -> tuple[int, tuple[int, int, int, int]] | None:
    """Cheapest purchase (cost, amounts) letting ``plants`` power ``min(target, production)`` cities."""
    target = min(target, production(plants))
    if target <= 0:
        return 0, (0, 0, 0, 0)
    cap = capacities(plants)
    best: tuple[tuple[int, int], tuple[int, int, int, int]] | None = None
    for size in range(1, len(plants) + 1):
        for sub in combinations(plants, size):
            if production(sub) < target:
                continue
            nc, no, ng, nu, nh = needs(sub)
            base = [max(0, nc - held[0]), max(0, no - held[1]), max(0, ng - held[2]), max(0, nu - held[3])]
            left = max(0, nh - max(0, held[0] - nc) - max(0, held[1] - no))
            for hc in range(left + 1):
                buy = (base[0] + hc, base[1] + left - hc, base[2], base[3])
                if not fits(cap, [h + b for h, b in zip(held, buy, strict=True)]):
                    continue
                try:
                    cost = purchase_cost(g, buy)  # the engine's price (R50, R126); R52 when short
                except IllegalAction:
                    continue
                key = (cost, sum(buy))
                if best is None or key < best[0]:
                    best = (key, buy)
    return None if best is None else (best[0][0], best[1])


def unit_prices(g: Game) -> list[float]:
    """Per-token price of a typical run now: mean of the next 3 tokens on each track."""
    out = []
    for k in range(4):
        n = g.s.res[k]
        take = min(3, n)
        out.append((buy_cost(k, n, take) or 0) / take if take else depot_price(g, k) or FALLBACK[k])
    return out


_PROFILES: dict[tuple, list[tuple[int, float]]] = {}


def run_profiles(plants: tuple[int, ...], unit: list[float]) -> list[tuple[int, float]]:
    """(cities, fuel cost) of every subset of ``plants`` at per-token prices ``unit`` (memoised)."""
    key = (plants, tuple(unit))
    out = _PROFILES.get(key)
    if out is not None:
        return out
    per = []
    for n in plants:
        p = PLANTS[n]
        if p.is_green:
            per.append(0.0)
        elif p.is_hybrid:
            per.append(p.tokens * min(unit[0], unit[1]))
        else:
            per.append(p.tokens * unit[("coal", "oil", "garbage", "uranium").index(p.fuel)])
    out = []
    for size in range(len(plants) + 1):
        for idx in combinations(range(len(plants)), size):
            out.append((sum(PLANTS[plants[i]].cities for i in idx), sum(per[i] for i in idx)))
    if len(_PROFILES) > 50_000:
        _PROFILES.clear()
    _PROFILES[key] = out
    return out


# --- the bot ---------------------------------------------------------------------------------------

class HeuristicBot(Bot):
    """A sensible human: fair (uses only its view), never illegal, reproducible for a seed.

    ``horizon``: rounds of income a plant is valued over; ``growth``: cities a player is expected to add
    per round; ``slack``: cities built beyond what the plants can power when money allows.
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None, horizon: int = 3, growth: int = 2, slack: int = 0) -> None:
        super().__init__(seed)
        self.horizon, self.growth, self.slack = horizon, growth, slack
        self._plans: dict[tuple, tuple[Any, tuple]] = {}
        self._memo: dict[tuple, Any] = {}
        self._memo_round = -1

    # --- dispatch ----------------------------------------------------------------------------------
    def choose(self, game: Game) -> Action:
        s = game.s
        p = game.ctx.index[game.current_player]  # type: ignore[index]
        if s.round != self._memo_round:  # caches live for one round
            self._memo.clear()
            self._plans.clear()
            self._memo_round = s.round
        if s.phase == 0:
            return self.mark(game, p)
        if s.phase == 2:
            if s.discard == p:
                return self.discard(game, p)
            return self.auction(game, p)
        if s.phase == 3:
            return self.buy(game, p)
        if s.phase == 4:
            return self.build(game, p)
        return self.power(game, p)

    # --- valuation ---------------------------------------------------------------------------------
    def trajectory(self, g: Game, p: int) -> list[int]:
        """Cities p expects to have at the next ``horizon`` bureaucracies."""
        c, end = len(g.s.mine[p]), g.ctx.max_cities
        grow = self.growth + (g.s.step > 1)
        return [min(end, max(c + grow * t, 1 + t)) for t in range(1, self.horizon + 1)]

    def income(self, g: Game, plants: tuple[int, ...], cities: list[int], unit: list[float]) -> float:
        """Income minus fuel over the trajectory ``cities`` with the best run each round."""
        key = ("income", plants, tuple(cities), tuple(unit))
        hit = self._memo.get(key)
        if hit is None:
            table = g.ctx.edition.tables["payment"]
            top = len(table) - 1
            prof = run_profiles(plants, unit)
            total = 0.0
            for c in cities:
                total += max(table[min(c if c < made else made, top)] - cost for made, cost in prof)
            hit = self._memo[key] = total
        return hit

    def keep_sets(self, g: Game, p: int, plant: int) -> list[tuple[int, ...]]:
        own = tuple(g.s.plants[p])
        if len(own) < g.plant_limit:
            return [own + (plant,)]
        return [tuple(x for x in own if x != drop) + (plant,) for drop in own]

    def plant_gains(self, g: Game, p: int) -> dict[int, float]:
        """Income each current-market plant adds over the horizon (replacing the worst at the limit).

        Near the end (someone within 4 cities of it) capacity also wins the race: a plant that lifts p
        above every rival's capacity is worth half of p's money on top (a tie a quarter).
        """
        s, ctx = g.s, g.ctx
        unit, traj = unit_prices(g), self.trajectory(g, p)
        base = self.income(g, tuple(s.plants[p]), traj, unit)
        race = 0.0
        if max(len(s.mine[q]) for q in ctx.humans) >= ctx.end_cities - 4:
            race = s.money[p] / 2
        top = ctx.max_cities
        rival = max(min(production(s.plants[q]), top) for q in ctx.humans if q != p)

        def win(plants: tuple[int, ...]) -> float:
            mine = min(production(plants), top)
            return 1.0 if mine > rival else 0.5 if mine == rival else 0.0

        now = win(tuple(s.plants[p]))
        return {x: max(self.income(g, k, traj, unit) + race * (win(k) - now) for k in self.keep_sets(g, p, x))
                - base for x in current_market(g)}

    def reserve(self, g: Game, p: int, plant: int) -> int:
        """Money p keeps after buying ``plant``: fuel for its cities and a city or two more."""
        s = g.s
        c = len(s.mine[p])
        plants = max(self.keep_sets(g, p, plant), key=production)
        grow = min(1 if s.round == 1 else 2, max(0, production(plants) - c))
        fuel = fuel_plan(g, list(plants), s.tokens[p], c + grow)
        build = self.build_estimate(g, p, grow)
        return (fuel[0] if fuel else 0) + build

    def limits(self, g: Game, p: int) -> dict[int, int]:
        """The most p will pay for each current-market plant (below its minimum bid: not wanted)."""
        s = g.s
        key = ("limits", s.round, p, s.money[p], tuple(s.market), tuple(s.res), len(s.mine[p]),
               tuple(s.plants[p]))
        hit = self._plans.get(key)
        if hit is not None:
            return hit[0]
        gains = self.plant_gains(g, p)
        surplus = {x: v - g.min_bid(x) for x, v in gains.items()}
        out = {}
        for x, v in gains.items():
            alt = max([surplus[y] for y in gains if y != x] + [0])
            cash = s.money[p] - self.reserve(g, p, x)
            out[x] = int(min(v - 0.5 * alt, cash))
        self._plans[key] = (out, ())
        return out

    # --- phase 0 and 2 ------------------------------------------------------------------------------
    def mark(self, g: Game, p: int) -> Action:
        """A central city: cheap links to its nearest neighbours (R134)."""
        legal = g.legal_actions()
        cidx, dist = g.ctx.cidx, g.ctx.dist

        def spread(a: MarkCity) -> tuple[int, str]:
            row = sorted(dist[cidx[a.city]])
            return sum(row[1:5]), a.city
        return min(legal, key=spread)

    def auction(self, g: Game, p: int) -> Action:
        s, name = g.s, g.ctx.names[p]
        limits = self.limits(g, p)
        if s.auction is not None:
            plant, high = s.auction[0], s.auction[1]
            if high + 1 <= min(limits.get(plant, -1), s.money[p]):
                return Bid(name, high + 1)
            return Pass(name)
        money = s.money[p]
        options = [(limits[x] - g.min_bid(x), x) for x in limits if g.min_bid(x) <= min(limits[x], money)]
        if options:
            _, x = max(options)
            return Open(name, x, g.min_bid(x))
        if s.round == 1:  # R35: a plant must be bought; the best value that is affordable
            gains = self.plant_gains(g, p)
            ok = [(gains[x] - g.min_bid(x), -x, x) for x in gains if g.min_bid(x) <= s.money[p]]
            if ok:
                x = max(ok)[2]
                return Open(name, x, g.min_bid(x))
        return Pass(name)

    def discard(self, g: Game, p: int) -> Action:
        """Box the plant whose loss costs least income; keep the most valuable tokens (R36, R37)."""
        unit, traj = unit_prices(g), self.trajectory(g, p)
        own = g.s.plants[p]

        def score(a: Discard) -> tuple[float, float]:
            rest = tuple(x for x in own if x != a.plant)
            kept = sum(n * u for n, u in zip(a.keep or (0, 0, 0, 0), unit, strict=True))
            return self.income(g, rest, traj, unit), kept
        return max(g.legal_actions(), key=score)  # type: ignore[arg-type]

    # --- phase 3 ------------------------------------------------------------------------------------
    def buy_target(self, g: Game, p: int) -> tuple[int, int, int, int]:
        """Holdings to end the turn with: fuel for the cities p will have after building this round."""
        s = g.s
        plants, held, money = s.plants[p], s.tokens[p], s.money[p]
        c, cap = len(s.mine[p]), production(plants)
        want = max(0, cap - c) + self.slack
        for k in range(want, -1, -1):
            target = min(c + k, cap)
            plan = fuel_plan(g, plants, held, target)
            if plan is None:
                continue
            if plan[0] + (self.build_estimate(g, p, k) if k else 0) <= money:
                return tuple(h + b for h, b in zip(held, plan[1], strict=True))  # type: ignore[return-value]
        for target in range(min(c, cap), 0, -1):  # not even the cities p has: what money allows
            plan = fuel_plan(g, plants, held, target)
            if plan is not None and plan[0] <= money:
                return tuple(h + b for h, b in zip(held, plan[1], strict=True))  # type: ignore[return-value]
        return tuple(held)  # type: ignore[return-value]

    def buy(self, g: Game, p: int) -> Action:
        s, name = g.s, g.ctx.names[p]
        key = ("buy", s.round, 3, p)
        sig = (s.money[p], tuple(s.tokens[p]))
        hit = self._plans.get(key)
        target = hit[0] if hit is not None and hit[1] == sig else self.buy_target(g, p)
        for k in range(4):
            if s.tokens[p][k] < target[k]:
                price = next_price(k, s.res[k]) if s.res[k] else depot_price(g, k)
                a = g.ctx.buy_one[p][k]
                if price is not None and price <= s.money[p] and a in g.legal_actions():
                    after = list(s.tokens[p])
                    after[k] += 1
                    self._plans[key] = (target, (s.money[p] - price, tuple(after)))
                    return a
        self._plans.pop(key, None)
        return Done(name)

    # --- phase 4 ------------------------------------------------------------------------------------
    def build_estimate(self, g: Game, p: int, k: int) -> int:
        """Cost of the cheapest ``k`` cities by greedy pricing (used for reserves and plans)."""
        if k <= 0:
            return 0
        s = g.s
        key = ("est", s.phase, s.step, p, k, sum(len(m) for m in s.mine))
        hit = self._memo.get(key)
        if hit is None:
            cities, cost = greedy_cities(g, p, k, None)
            hit = self._memo[key] = cost + 40 * (k - len(cities))  # 40: a guess for a city not to be had
        return hit

    def build_count(self, g: Game, p: int) -> int:
        """Cities to add this turn: up to what the fuelled plants power (+slack), end-game aware."""
        s, ctx = g.s, g.ctx
        c, money = len(s.mine[p]), s.money[p]
        fuelled = best_run(s.plants[p], s.tokens[p], BIG)[0]
        cap = production(s.plants[p])
        want = min(max(0, min(cap, fuelled + self.slack) - c), ctx.max_cities - c)
        end = ctx.end_cities
        if any(len(s.mine[q]) >= end for q in ctx.humans):
            return max(0, fuelled - c)  # the game ends after this phase: only powered cities count (R99)
        k = min(max(end - c, fuelled - c), ctx.max_cities - c)
        if k > 0 and c + k >= end and self.build_estimate(g, p, k) <= money:
            score, rival = min(fuelled, c + k), self.rival_best(g, p)
            rich = money - self.build_estimate(g, p, k) > max(s.money[q] for q in ctx.humans if q != p)
            if score > rival or (score == rival and rich) or s.round > 40:
                return k  # ending the game now wins it
        if c + want >= end:
            return max(0, min(want, end - 1 - c))  # would end a game p does not win
        return want

    def rival_best(self, g: Game, p: int) -> int:
        """The most cities any rival could power if the game ended this phase (a guess)."""
        s = g.s
        best = 0
        for q in g.ctx.humans:
            if q == p:
                continue
            fuelled = best_run(s.plants[q], s.tokens[q], BIG)[0]
            room = s.money[q] // 15 if q in s.to_act else 0  # has not built yet this phase
            best = max(best, min(fuelled, len(s.mine[q]) + room))
        return best

    def build_plan(self, g: Game, p: int) -> list[str]:
        s = g.s
        k = self.build_count(g, p)
        if k <= 0:
            return []
        if k == 1 and not s.mine[p]:
            return greedy_cities(g, p, k, s.money[p])[0]  # a lone first house: where growth is cheapest
        plan = cheapest_k(g, g.ctx.names[p], k, s.money[p])
        return [] if plan is None else list(plan.cities)

    def build(self, g: Game, p: int) -> Action:
        s, name = g.s, g.ctx.names[p]
        key = ("build", s.round, 4, p)
        sig = (s.money[p], len(s.mine[p]))
        hit = self._plans.get(key)
        plan = hit[0] if hit is not None and hit[1] == sig else self.build_plan(g, p)
        if plan:
            city = plan[0]
            cost = g.build_cost(name, city)
            if cost is not None and cost <= s.money[p]:
                self._plans[key] = (plan[1:], (s.money[p] - cost, len(s.mine[p]) + 1))
                return Build(name, city)
        self._plans.pop(key, None)
        return Done(name)

    # --- phase 5 ------------------------------------------------------------------------------------
    def power(self, g: Game, p: int) -> Action:
        """The run with the best income minus the market value of the tokens it burns."""
        name = g.ctx.names[p]
        unit = unit_prices(g)

        def net(a: Power) -> tuple[float, int]:
            out = g.power_outcome(name, a.plants, a.hybrid_coal)  # income and burn by the engine (R74-R77)
            fuel = sum(b * u for b, u in zip(out.burn.values(), unit, strict=True))
            return out.income - fuel, -len(a.plants)
        return max(g.legal_actions(), key=net)  # type: ignore[arg-type]


# --- building helpers (exact engine pricing, R56-R61, R135-R136) ------------------------------------

def _allowed(g: Game, p: int, occ: dict[str, int], mine: set[str], founded: bool) -> list[str]:
    s, ctx = g.s, g.ctx
    if len(mine) >= ctx.max_cities:
        return []
    starts = None
    if not founded and s.marked:
        empty = [c for c in s.marked if not occ.get(c)]
        starts = set(empty) if s.step == 1 or empty else None
    out = []
    for c in ctx.cities:
        n = occ.get(c, 0)
        if c in mine or n >= s.step:
            continue
        if not founded and (n or (starts is not None and c not in starts)):
            continue
        if founded and s.step == 1 and c in s.marked:
            continue
        out.append(c)
    return out


def greedy_cities(g: Game, p: int, k: int, budget: int | None) -> tuple[list[str], int]:
    """(cities, total): the cheapest next city, ``k`` times, within ``budget``, priced as the engine
    does; a first house goes where the next three cities are cheapest."""
    s, ctx = g.s, g.ctx
    prices, dist, cidx = ctx.edition.tables["build_prices"], ctx.dist, ctx.cidx
    occ = {c: len(o) for c, o in s.houses.items()}
    mine = set(s.mine[p])
    vec = None
    if mine:
        vec = [BIG] * len(ctx.cities)
        for c in mine:
            vec = [a if a < b else b for a, b in zip(vec, dist[cidx[c]], strict=True)]
    out: list[str] = []
    money = left = BIG if budget is None else budget
    while len(out) < k:
        options = _allowed(g, p, occ, mine, vec is not None)
        if not options:
            break
        if vec is None:
            city = _first_city(g, options, occ)
            cost = prices[occ.get(city, 0)]
        else:
            cost, city = min((prices[occ.get(c, 0)] + vec[cidx[c]], c) for c in options)
        if cost > money:
            break
        money -= cost
        out.append(city)
        occ[city] = occ.get(city, 0) + 1
        mine.add(city)
        row = dist[cidx[city]]
        vec = list(row) if vec is None else [a if a < b else b for a, b in zip(vec, row, strict=True)]
    return out, left - money


_FIRST: dict[tuple, str] = {}


def _first_city(g: Game, options: list[str], occ: dict[str, int]) -> str:
    """The first house where the next three cities are cheapest (memoised per board)."""
    key = (g.ctx.map.name, g.ctx.map.connections, g.ctx.cities, tuple(g.ctx.edition.tables["build_prices"]),
           g.s.step, tuple(sorted(occ.items())), tuple(g.s.marked), tuple(options))
    city = _FIRST.get(key)
    if city is None:
        if len(_FIRST) > 4096:
            _FIRST.clear()
        city = _FIRST[key] = min(options, key=lambda c: (_growth(g, c, occ), c))
    return city


def _growth(g: Game, city: str, occ: dict[str, int]) -> int:
    """Cost of the three cheapest cities reachable from a first house in ``city``."""
    prices, dist, cidx = g.ctx.edition.tables["build_prices"], g.ctx.dist, g.ctx.cidx
    row = dist[cidx[city]]
    costs = sorted(prices[occ.get(c, 0)] + row[cidx[c]] for c in g.ctx.cities
                   if c != city and occ.get(c, 0) < g.s.step and not (g.s.step == 1 and c in g.s.marked))
    return sum(costs[:3])
