"""Phase 4: building cities (R54-R70, R134-R136).

One home for what a city costs a player: :func:`slot_price` says whether ``p`` may put its next house
in a city and what the slot costs (R56-R59, R67, R135, R136), given the cities ``p`` already queued
this turn; :func:`city_price` adds the cheapest link from the network (R60, R61, R63). The legal
actions, ``apply``, the build preview (:mod:`powergrid_nb.engine.board.network`), the planner and the bots all
call these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from powergrid_nb.engine.actions import Action, Build, Done
from powergrid_nb.engine.errors import IllegalAction
from powergrid_nb.engine.events import HouseBuilt
from powergrid_nb.engine.gamelog import count, verb
from powergrid_nb.engine.rules.phases import Phase

from .base import PhaseRules

if TYPE_CHECKING:
    from powergrid_nb.engine.context import Context
    from powergrid_nb.engine.game import Game


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


def _start_cities(g: Game, queued: Sequence[str]) -> set[str] | None:
    """Where a first house may go under the starting-cities variant (R135, O23); None: anywhere."""
    marked = g.s.marked
    if not marked:
        return None
    empty = {c for c in marked if not g.s.houses.get(c) and c not in queued}
    if g.s.step == 1 or empty:
        return empty
    return None


def slot_price(g: Game, p: int, city: str, queued: Sequence[str] = (), founded: bool = False
               ) -> tuple[int | None, str, str]:
    """(price, rule, reason): what the slot for p's next house in ``city`` costs, with ``queued``
    (p's cities added earlier this turn) already built; None with the rule it breaks (R4, R56-R59,
    R67, R135, R136). Links are not included (see :func:`city_price`). ``founded``: price it as if
    p already had a network (a planner choosing p's first city elsewhere)."""
    s, ctx = g.s, g.ctx
    if city not in ctx.cidx:
        where = "is outside the play area" if city in ctx.map.cities else "is not a city of this map"
        return None, "R4", f"{city} {where}"
    owners = s.houses.get(city, ())
    if p in owners or city in queued:
        return None, "R57", f"{ctx.names[p]} already {verb(ctx.names[p], 'has')} a house in {city}"
    if len(owners) >= s.step:
        return None, "R58", f"{city} is full for Step {s.step} ({len(owners)} of {count(s.step, 'house')})"
    if len(s.mine[p]) + len(queued) >= ctx.max_cities:
        return None, "R67", f"{ctx.names[p]} {verb(ctx.names[p], 'has')} used all {ctx.max_cities} houses"
    if not (s.mine[p] or queued or founded):
        if owners:
            return None, "R59", f"a first house must go in an empty city; {city} is taken"
        starts = _start_cities(g, queued)
        if starts is not None and city not in starts:
            return None, "R135", f"a first house must go in a marked start city: {sorted(starts)}"
    elif s.step == 1 and city in s.marked:
        return None, "R136", f"{city} is a marked start city: only a first house may go there in Step 1"
    return ctx.build_prices[len(owners)], "", ""


def slot_prices(g: Game, p: int, queued: Sequence[str] = (), founded: bool = False) -> list[int | None]:
    """:func:`slot_price` of every play-area city (``ctx.cities`` order), None where not allowed."""
    s, ctx = g.s, g.ctx
    if s.marked or len(s.mine[p]) + len(queued) >= ctx.max_cities:
        return [slot_price(g, p, c, queued, founded)[0] for c in ctx.cities]
    # the common case, for speed: no marked cities; only occupied cities differ from an empty one
    prices, step, cidx = ctx.build_prices, s.step, ctx.cidx
    out: list[int | None] = [prices[0]] * len(ctx.cities)
    if s.mine[p] or queued or founded:
        for c, owners in s.houses.items():
            n = len(owners)
            if n:
                out[cidx[c]] = None if n >= step or p in owners else prices[n]  # R57, R58
        for c in queued:
            out[cidx[c]] = None  # R57
    else:
        for c, owners in s.houses.items():
            if owners:
                out[cidx[c]] = None  # R59: a first house goes in an empty city
    return out


def city_price(g: Game, p: int, city: str, queued: Sequence[str] = ()) -> tuple[int | None, str, str]:
    """(cost, rule, reason): what p pays to add ``city`` now, after ``queued`` (R54-R63): the slot
    plus the cheapest link cost from p's network and the queued cities; None with the rule broken."""
    slot, rule, why = slot_price(g, p, city, queued)
    if slot is None:
        return None, rule, why
    links = link_costs(g, p, queued)
    return slot + (0 if links is None else links[g.ctx.cidx[city]]), "", ""


def link_costs(g: Game, p: int, queued: Sequence[str] = ()) -> list[int] | None:
    """Cheapest link cost to every play-area city from p's network and the cities ``queued`` this
    turn (R60, R61, R63); None when p has neither (a first house pays no links)."""
    conn = connection_costs(g, p)
    if not queued:
        return conn
    dist, cidx = g.ctx.dist, g.ctx.cidx
    rows = [dist[cidx[c]] for c in queued] + ([conn] if conn is not None else [])
    return [min(col) for col in zip(*rows, strict=True)]


def legal(g: Game, p: int) -> list[Action]:
    s, ctx = g.s, g.ctx
    out: list[Action] = []
    if len(s.mine[p]) < ctx.max_cities:
        money = s.money[p]
        conn = connection_costs(g, p)
        slots = slot_prices(g, p)
        if conn is None:
            out = [a for a, slot in zip(ctx.build_one[p], slots, strict=True)
                   if slot is not None and slot <= money]
        else:
            out = [a for a, slot, link in zip(ctx.build_one[p], slots, conn, strict=True)
                   if slot is not None and slot + link <= money]
    out.append(ctx.done_action[p])
    return out


def apply(g: Game, a: Action, p: int) -> None:
    s = g.s
    if isinstance(a, Done):  # R15
        s.to_act.pop(0)
        return
    assert isinstance(a, Build)
    for city in a.cities:
        cost, rule, why = city_price(g, p, city)
        if cost is None:
            raise IllegalAction(why, rule, a)
        if cost > s.money[p]:
            raise IllegalAction(f"{city} costs {cost} Elektro but {g.ctx.names[p]} "
                                f"{verb(g.ctx.names[p], 'has')} {s.money[p]}", "R64", a)
        add_house(g, p, city, cost)


def add_house(g: Game, p: int, city: str, cost: int) -> None:
    s = g.s
    s.money[p] -= cost
    s.houses[city] = s.houses.get(city, ()) + (p,)
    s.mine[p].append(city)
    g._event(HouseBuilt, g.ctx.names[p], city, cost)
    if p != g.ctx.trust:
        g.ctx.edition.market_changed(g)  # R68 after each added city


class BuildingPhase(PhaseRules):
    """Phase 4 (R54-R70): in reverse player order each player builds, then is done."""

    number, name, actions = Phase.BUILDING, Phase.BUILDING.label, (Build, Done)

    def turns(self, ctx: Context, order: list[int]) -> list[int]:
        return order[::-1] if Phase.BUILDING in ctx.reverse_phases else list(order)  # R54

    legal = staticmethod(legal)  # type: ignore[assignment]
    apply = staticmethod(apply)  # type: ignore[assignment]

    def exit(self, g: Game) -> Phase | None:
        """The game ends once a network reaches the threshold (R96); otherwise phase 5."""
        if g.largest_network() >= g.ctx.end_cities:
            return None
        return Phase.BUREAUCRACY


BUILDING = BuildingPhase()
