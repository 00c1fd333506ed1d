"""The resource market in count form (R82, R114-R117): prices, buying cost and refill."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from powergrid_nb.engine.actions import Action, BuyResources, Done
from powergrid_nb.engine.errors import IllegalAction
from powergrid_nb.engine.events import TokensBought
from powergrid_nb.engine.gamelog import possessive, verb
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.engine.rules.plants import PLANTS, RESOURCES, capacities, fits, room_for_one
from powergrid_nb.engine.rules.tables import edition_tables

from .base import PhaseRules

if TYPE_CHECKING:
    from powergrid_nb.engine.context import Context
    from powergrid_nb.engine.game import Game

class Track:
    """The resource market's price tracks and token counts (R1, R115-R117), from the edition's data."""

    def __init__(self, tables: dict[str, Any]) -> None:
        spaces = tables["resource_track"]
        self.totals: tuple[int, ...] = tuple(tables["resource_tokens"][r] for r in RESOURCES)
        # space price of every token slot, cheapest first (R115, R116)
        self.slots: tuple[tuple[int, ...], ...] = tuple(
            tuple(price for price, room in spaces[r] for _ in range(room)) for r in RESOURCES)
        self.spaces_of: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((price, room) for price, room in spaces[r]) for r in RESOURCES)
        # next_of[kind][n]: price of the next token with n on the market (R117); cum: sum of the n dearest
        self.next_of = tuple((None, *(slots[len(slots) - n] for n in range(1, len(slots) + 1)))
                             for slots in self.slots)
        self.cum = tuple(tuple(sum(row[1:n + 1]) for n in range(len(row))) for row in self.next_of)

    def next_price(self, kind: int, n: int) -> int | None:
        """Price of the next token when ``n`` tokens of ``kind`` are on the market (R117); None if 0."""
        return self.next_of[kind][n] if n > 0 else None

    def buy_cost(self, kind: int, n: int, count: int) -> int | None:
        """Cost of ``count`` tokens bought cheapest first from ``n`` on the market (R50); None if short."""
        if count > n:
            return None
        cum = self.cum[kind]
        return cum[n] - cum[n - count]

    def price_ladder(self, kind: int, n: int) -> list[int]:
        """Prices of every token on the market, in the order they would be bought."""
        row = self.next_of[kind]
        return [row[n - i] for i in range(n)]  # type: ignore[misc]

    def spaces(self, kind: int, n: int) -> list[tuple[int, int]]:
        """(space price, tokens on it) for every space of the track, cheapest first; the market fills
        from the dearest space (R82)."""
        out = []
        empty = len(self.slots[kind]) - n  # slots left empty, from the cheapest
        for price, room in self.spaces_of[kind]:
            out.append((price, max(0, min(room, room - empty))))
            empty = max(0, empty - room)
        return out


# The shipped tracks, for callers without a game (tables, tests): both editions share them (R115, R116).
# A game reads its own, g.ctx.edition.track (the Track of its edition's tables).
STANDARD = Track(edition_tables()["original"])
TOTALS: tuple[int, ...] = STANDARD.totals  # R1: the token counts are hard limits


def next_price(kind: int, n: int, track: Track = STANDARD) -> int | None:
    """Price of the next token when ``n`` tokens of ``kind`` are on the market (R117); None if 0."""
    return track.next_price(kind, n)


def buy_cost(kind: int, n: int, count: int, track: Track = STANDARD) -> int | None:
    """Cost of buying ``count`` tokens cheapest-first from ``n`` on the market (R50); None if short."""
    return track.buy_cost(kind, n, count)


def price_ladder(kind: int, n: int, track: Track = STANDARD) -> list[int]:
    """Prices of every token on the market, in the order they would be bought."""
    return track.price_ladder(kind, n)


def spaces(kind: int, n: int, track: Track = STANDARD) -> list[tuple[int, int]]:
    """(space price, tokens on it) for every space of the track, cheapest first (R115, R116, R82)."""
    return track.spaces(kind, n)


def supply(market: Sequence[int], held: Sequence[int], totals: Sequence[int] = TOTALS) -> list[int]:
    """Tokens in the supply: neither on the market nor on any plant (R1)."""
    return [totals[k] - market[k] - held[k] for k in range(4)]


def game_supply(g: Game) -> list[int]:
    """Tokens in ``g``'s supply now (R1): neither on the market, on a plant nor marking a city (O23)."""
    out = supply(g.s.res, held_total(g), g.ctx.edition.track.totals)
    out[3] -= start_markers(g)
    return out


def start_markers(g: Game) -> int:
    """Uranium tokens marking start cities: one per marked city with ``start_markers="uranium"``
    (R134 says "with a uranium token"; O23), else none. They stay on the board all game."""
    return len(g.s.marked) if g.ctx.options["start_markers"] == "uranium" else 0


def resource_index(name: str) -> int:
    try:
        return RESOURCES.index(name)
    except ValueError:
        raise ValueError(f"unknown resource {name!r}; expected one of {', '.join(RESOURCES)}") from None


# --- phase 3: buying (R45-R53) -------------------------------------------------------------

def depot_price(g: Game, kind: int) -> int | None:
    """Price of tokens bought from the supply once the track is empty (a map rule, R126)."""
    for rule in g.ctx.map_rules:
        price = rule.depot_price(g, kind)
        if price is not None:
            return price
    return None


def held_total(g: Game) -> list[int]:
    return [sum(t[k] for t in g.s.tokens) for k in range(4)]


def purchase_cost(g: Game, amounts: Sequence[int], a: Action | None = None) -> int:
    """Cost of buying ``amounts`` now, cheapest first (R50), the depot after an empty track (R126).

    Raises IllegalAction when the market (and depot) cannot supply them (R52).
    """
    total = 0
    cum, res = g.ctx.edition.track.cum, g.s.res
    for kind in range(4):
        count = amounts[kind]
        if count <= 0:
            continue
        n = res[kind]
        if count <= n:  # all from the track (R50): the ``count`` cheapest of the ``n`` there
            total += cum[kind][n] - cum[kind][n - count]
            continue
        total += cum[kind][n]
        extra = count - n
        if extra:
            price = depot_price(g, kind)
            left = game_supply(g)[kind] if price is not None else 0
            if price is None or extra > left:
                more = f" and {left} in the supply at {price}" if price is not None else ""
                raise IllegalAction(f"only {n} {RESOURCES[kind]} on the market{more}; "
                                    f"{count} asked", "R52", a)
            total += price * extra
    return total


def fuel_cost(g: Game, plant: int) -> int | None:
    """Cost at today's prices of one run of fuel for ``plant`` (cheapest first, the depot after an
    empty track, R50/R126); hybrids take the cheapest coal/oil mix; green plants 0; None if short."""
    card = PLANTS[plant]
    if card.is_green:
        return 0
    if card.is_hybrid:
        mixes = [(c, card.tokens - c, 0, 0) for c in range(card.tokens + 1)]
    else:
        k = RESOURCES.index(card.fuel)
        mixes = [tuple(card.tokens if i == k else 0 for i in range(4))]
    costs = []
    for amounts in mixes:
        try:
            costs.append(purchase_cost(g, amounts))
        except IllegalAction:
            continue  # R52: the market cannot supply this mix
    return min(costs) if costs else None


def legal(g: Game, p: int) -> list[Action]:
    s = g.s
    out: list[Action] = []
    room = room_for_one(capacities(s.plants[p]), s.tokens[p])
    next_of, money, row = g.ctx.edition.track.next_of, s.money[p], g.ctx.buy_one[p]
    for kind in range(4):
        if not room[kind]:
            continue
        n = s.res[kind]
        if n:
            if next_of[kind][n] <= money:  # type: ignore[operator]
                out.append(row[kind])
            continue
        price = depot_price(g, kind)  # an empty track: the supply under a map rule (R126)
        if price is not None and price <= money and game_supply(g)[kind] > 0:
            out.append(row[kind])
    out.append(g.ctx.done_action[p])
    return out


def check(g: Game, a: BuyResources, p: int) -> tuple[int, list[int]]:
    """The cost of a purchase and the holdings after it; IllegalAction if it is not allowed."""
    s = g.s
    amounts = a.amounts
    if min(amounts) < 0:
        raise IllegalAction("amounts cannot be negative; tokens are never sold back", "R53", a)
    if not any(amounts):
        raise IllegalAction("buy at least one token, or end the turn with Done", "R51", a)
    t = s.tokens[p]
    after = [t[0] + amounts[0], t[1] + amounts[1], t[2] + amounts[2], t[3] + amounts[3]]
    if not fits(capacities(s.plants[p]), after):
        raise IllegalAction(f"{possessive(g.ctx.names[p])} plants {sorted(s.plants[p])} cannot store "
                            f"{dict(zip(RESOURCES, after, strict=True))}", "R48", a)
    cost = purchase_cost(g, amounts, a)
    if cost > s.money[p]:
        raise IllegalAction(f"costs {cost} Elektro but {g.ctx.names[p]} {verb(g.ctx.names[p], 'has')} "
                            f"{s.money[p]}", "R31", a)
    return cost, after


def apply(g: Game, a: Action, p: int) -> None:
    s = g.s
    if isinstance(a, Done):  # R15
        s.to_act.pop(0)
        return
    assert isinstance(a, BuyResources)
    cost, after = check(g, a, p)
    amounts = a.amounts
    for kind, count in enumerate(amounts):
        s.res[kind] -= min(count, s.res[kind])
    s.tokens[p] = after
    s.money[p] -= cost
    g._event(TokensBought, g.ctx.names[p], amounts, cost)


class ResourcesPhase(PhaseRules):
    """Phase 3 (R45-R53): in reverse player order each player buys tokens, then is done."""

    number, name, actions = Phase.RESOURCES, Phase.RESOURCES.label, (BuyResources, Done)

    def turns(self, ctx: Context, order: list[int]) -> list[int]:
        return order[::-1] if Phase.RESOURCES in ctx.reverse_phases else list(order)  # R45

    legal = staticmethod(legal)  # type: ignore[assignment]
    apply = staticmethod(apply)  # type: ignore[assignment]

    def exit(self, g: Game) -> Phase:
        return Phase.BUILDING


RESOURCES_PHASE = ResourcesPhase()
