"""The resource market in count form (R82, R114-R117): prices, buying cost and refill."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .actions import Action, BuyResources
from .errors import IllegalAction
from .plants import RESOURCES, URANIUM, capacities, fits

if TYPE_CHECKING:
    from .game import Game

TOTALS: tuple[int, int, int, int] = (24, 24, 24, 12)  # R1: the token counts are hard limits
URANIUM_PRICES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16)  # R116
SPACE_PRICES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8)  # R115, 3 tokens per space


def next_price(kind: int, n: int) -> int | None:
    """Price of the next token when ``n`` tokens of ``kind`` are on the market (R117); None if 0."""
    if n <= 0:
        return None
    if kind == URANIUM:
        return URANIUM_PRICES[12 - n]
    return 8 - (n - 1) // 3


def buy_cost(kind: int, n: int, count: int) -> int | None:
    """Cost of buying ``count`` tokens cheapest-first from ``n`` on the market (R50); None if short."""
    if count > n:
        return None
    total = 0
    for i in range(count):
        total += next_price(kind, n - i)  # type: ignore[operator]
    return total


def price_ladder(kind: int, n: int) -> list[int]:
    """Prices of every token on the market, in the order they would be bought."""
    return [next_price(kind, n - i) for i in range(n)]  # type: ignore[misc]


def spaces(kind: int, n: int) -> list[tuple[int, int]]:
    """(space price, tokens on it) for every space of the track, cheapest first (R115, R116, R82)."""
    if kind == URANIUM:
        first = 12 - n
        return [(p, 1 if i >= first else 0) for i, p in enumerate(URANIUM_PRICES)]
    out = []
    for i, p in enumerate(SPACE_PRICES):
        out.append((p, max(0, min(3, n - 3 * (7 - i)))))
    return out


def supply(market: Sequence[int], held: Sequence[int]) -> list[int]:
    """Tokens in the supply: neither on the market nor on any plant (R1)."""
    return [TOTALS[k] - market[k] - held[k] for k in range(4)]


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
    for kind, count in enumerate(amounts):
        if count <= 0:
            continue
        n = g.s.res[kind]
        on_track = min(count, n)
        total += buy_cost(kind, n, on_track) or 0
        extra = count - on_track
        if extra:
            price = depot_price(g, kind)
            left = supply(g.s.res, held_total(g))[kind] if price is not None else 0
            if price is None or extra > left:
                more = f" and {left} in the supply at {price}" if price is not None else ""
                raise IllegalAction(f"only {n} {RESOURCES[kind]} on the market{more}; "
                                    f"{count} asked", "R52", a)
            total += price * extra
    return total


def legal(g: Game, p: int) -> list[Action]:
    s = g.s
    out: list[Action] = []
    cap = capacities(s.plants[p])
    tokens = s.tokens[p]
    for kind in range(4):
        n = s.res[kind]
        price = next_price(kind, n) if n else depot_price(g, kind)
        if price is None or price > s.money[p]:
            continue
        if not n and supply(s.res, held_total(g))[kind] <= 0:
            continue
        after = tokens[:]
        after[kind] += 1
        if fits(cap, after):
            out.append(g.ctx.buy_one[p][kind])
    out.append(g.ctx.done_action[p])
    return out


def check(g: Game, a: BuyResources, p: int) -> tuple[int, list[int]]:
    """The cost of a purchase and the holdings after it; IllegalAction if it is not allowed."""
    s = g.s
    amounts = a.amounts
    if not any(amounts):
        raise IllegalAction("buy at least one token, or end the turn with Done", "R51", a)
    if any(x < 0 for x in amounts):
        raise IllegalAction("amounts cannot be negative; tokens are never sold back", "R53", a)
    after = [t + x for t, x in zip(s.tokens[p], amounts, strict=True)]
    if not fits(capacities(s.plants[p]), after):
        raise IllegalAction(f"{g.ctx.names[p]}'s plants {sorted(s.plants[p])} cannot store "
                            f"{dict(zip(RESOURCES, after, strict=True))}", "R48", a)
    cost = purchase_cost(g, amounts, a)
    if cost > s.money[p]:
        raise IllegalAction(f"costs {cost} Elektro but {g.ctx.names[p]} has {s.money[p]}",
                            "R31", a)
    return cost, after


def apply(g: Game, a: Action, p: int) -> None:
    s = g.s
    assert isinstance(a, BuyResources)
    cost, after = check(g, a, p)
    amounts = a.amounts
    for kind, count in enumerate(amounts):
        s.res[kind] -= min(count, s.res[kind])
    s.tokens[p] = after
    g._pay(p, cost, str(a.amounts))
