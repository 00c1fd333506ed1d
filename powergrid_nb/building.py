"""Phase 4: building cities (R54-R70, R134-R136)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Action, Build
from .errors import IllegalAction

if TYPE_CHECKING:
    from .game import Game


def connection_costs(g: Game, p: int) -> list[int] | None:
    """Cheapest link cost from p's network to every play-area city (R60, R61); None: no network."""
    mine = g.s.mine[p]
    if not mine:
        return None
    cached = g._conn.get(p)
    if cached is not None and cached[0] == len(mine) and cached[1] == mine[-1]:
        return cached[2]
    dist, idx = g.ctx.dist, g.ctx.cidx
    if cached is not None and cached[0] == len(mine) - 1 and (len(mine) < 2 or cached[1] == mine[-2]):
        row = dist[idx[mine[-1]]]
        vec = [a if a < b else b for a, b in zip(cached[2], row, strict=True)]
    else:
        vec = list(dist[idx[mine[0]]])
        for c in mine[1:]:
            vec = [a if a < b else b for a, b in zip(vec, dist[idx[c]], strict=True)]
    g._conn[p] = (len(mine), mine[-1], vec)
    return vec


def _start_cities(g: Game) -> set[str] | None:
    """Where a first house may go under the starting-cities variant (R135, O23); None: anywhere."""
    if not g.s.marked:
        return None
    empty = {c for c in g.s.marked if not g.s.houses.get(c)}
    if g.s.step == 1 or empty:
        return empty
    return None


def city_cost(g: Game, p: int, city: str) -> tuple[int | None, str, str]:
    """(cost, rule, reason): the price for p to add ``city`` now, or None with the rule it breaks."""
    s, ctx = g.s, g.ctx
    if city not in ctx.cidx:
        where = "is outside the play area" if city in ctx.map.cities else "is not a city of this map"
        return None, "R4", f"{city} {where}"
    owners = s.houses.get(city, ())
    if p in owners:
        return None, "R57", f"{ctx.names[p]} already has a house in {city}"
    if len(owners) >= s.step:
        return None, "R58", f"{city} is full for Step {s.step} ({len(owners)} of {s.step} houses)"
    if len(s.mine[p]) >= ctx.max_cities:
        return None, "R67", f"{ctx.names[p]} has used all {ctx.max_cities} houses"
    prices = ctx.edition.tables["build_prices"]
    conn = connection_costs(g, p)
    if conn is None:
        starts = _start_cities(g)
        if owners:
            return None, "R59", f"a first house must go in an empty city; {city} is taken"
        if starts is not None and city not in starts:
            return None, "R135", f"a first house must go in a marked start city: {sorted(starts)}"
        return prices[0], "", ""
    if s.step == 1 and city in s.marked:
        return None, "R136", f"{city} is a marked start city: only a first house may go there in Step 1"
    return prices[len(owners)] + conn[ctx.cidx[city]], "", ""


def legal(g: Game, p: int) -> list[Action]:
    s, ctx = g.s, g.ctx
    out: list[Action] = []
    money = s.money[p]
    if len(s.mine[p]) < ctx.max_cities:
        prices = ctx.edition.tables["build_prices"]
        conn = connection_costs(g, p)
        row = ctx.build_one[p]
        houses = s.houses
        step = s.step
        if conn is None or s.marked:
            for i, city in enumerate(ctx.cities):
                cost = city_cost(g, p, city)[0]
                if cost is not None and cost <= money:
                    out.append(row[i])
        else:
            for i, city in enumerate(ctx.cities):
                owners = houses.get(city)
                if owners:
                    n = len(owners)
                    if n >= step or p in owners:
                        continue
                    cost = prices[n] + conn[i]
                else:
                    cost = prices[0] + conn[i]
                if cost <= money:
                    out.append(row[i])
    out.append(ctx.done_action[p])
    return out


def apply(g: Game, a: Action, p: int) -> None:
    s = g.s
    assert isinstance(a, Build)
    for city in a.cities:
        cost, rule, why = city_cost(g, p, city)
        if cost is None:
            raise IllegalAction(why, rule, a)
        if cost > s.money[p]:
            raise IllegalAction(f"{city} costs {cost} Elektro but {g.ctx.names[p]} has "
                                f"{s.money[p]}", "R64", a)
        add_house(g, p, city, cost)


def add_house(g: Game, p: int, city: str, cost: int) -> None:
    s = g.s
    g._pay(p, cost, f"builds in {city}")
    s.houses.setdefault(city, []).append(p)
    s.mine[p].append(city)
    g._log("house", g.ctx.names[p], cost, city)
    if p != g.ctx.trust:
        g.ctx.edition.market_changed(g)  # R68 after each added city
