"""Helpers for the setup / round / player-order / auction rule tests (RULES.md §1-§4, §10, §13, §15, §16).

Positions come from :func:`_position.position`, with this module's defaults (see ``scenario``).
"""

from __future__ import annotations

from _position import position, who_of

from powergrid_nb import Game, Pass, Power, new_game
from powergrid_nb.engine.actions import Done, Open

EDITIONS = ("original", "recharged")
COUNTS = (2, 3, 4, 5, 6)

# R120: (fuel, k, cities) for every plant of the base deck ([EXT] table of RULES.md).
CARD_TABLE = {
    3: ("oil", 2, 1), 4: ("coal", 2, 1), 5: ("hybrid", 2, 1), 6: ("garbage", 1, 1), 7: ("oil", 3, 2),
    8: ("coal", 3, 2), 9: ("oil", 1, 1), 10: ("coal", 2, 2), 11: ("uranium", 1, 2),
    12: ("hybrid", 2, 2), 13: ("eco", 0, 1), 14: ("garbage", 2, 2), 15: ("coal", 2, 3),
    16: ("oil", 2, 3), 17: ("uranium", 1, 2), 18: ("eco", 0, 2), 19: ("garbage", 2, 3),
    20: ("coal", 3, 5), 21: ("hybrid", 2, 4), 22: ("eco", 0, 2), 23: ("uranium", 1, 3),
    24: ("garbage", 2, 4), 25: ("coal", 2, 5), 26: ("oil", 2, 5), 27: ("eco", 0, 3),
    28: ("uranium", 1, 4), 29: ("hybrid", 1, 4), 30: ("garbage", 3, 6), 31: ("coal", 3, 6),
    32: ("oil", 3, 6), 33: ("eco", 0, 4), 34: ("uranium", 1, 5), 35: ("oil", 1, 5),
    36: ("coal", 3, 7), 37: ("eco", 0, 4), 38: ("garbage", 3, 7), 39: ("uranium", 1, 6),
    40: ("oil", 2, 6), 42: ("coal", 2, 6), 44: ("eco", 0, 5), 46: ("hybrid", 3, 7), 50: ("fusion", 0, 6),
}

# R105 / R106: regions, step-2 cities, end cities, plant limit per player count.
TABLE = {
    "original": {"regions": (3, 3, 4, 5, 5), "limit": (4, 3, 3, 3, 3),
                 "step2": (10, 7, 7, 7, 6), "end": (21, 17, 17, 15, 14), "removed": (8, 8, 4, 0, 0)},
    "recharged": {"regions": (3, 3, 4, 5, 5), "limit": (3, 3, 3, 3, 3),
                  "step2": (7, 7, 7, 7, 6), "end": (18, 17, 17, 15, 14),
                  "removed": ((1, 5), (2, 6), (1, 3), (0, 0), (0, 0))},
}
# Derived deck sizes (plants only, Step 3 card excluded): R10 and R11/O4.
DECK_PLANTS = {"original": (26, 26, 30, 34, 34), "recharged": (28, 26, 30, 34, 34)}
PLUG = set(range(3, 16))


def row(edition: str, key: str, players: int):
    return TABLE[edition][key][players - 2]


def scenario(edition: str = "original", players: int = 4, *, seed: int = 7,
             order: list[str] | None = None, seats: list[str] | None = None,
             round: int = 1, phase: int = 2, step: int = 1,
             market: list[int] | None = None, deck_top: list[int] = (),  # type: ignore[assignment]
             money: dict[str, int] | None = None, plants: dict[str, list[int]] | None = None,
             tokens: dict[str, dict[str, int]] | None = None,
             cities: dict[str, list[str]] | None = None,
             discount: int | None | type(...) = ..., removed: list[int] = (),  # type: ignore[assignment]
             boxed: list[int] = (), deck: list[int] | None = None,  # type: ignore[assignment]
             to_act: list[str] | None = None, resources: dict[str, int] | None = None,
             **options) -> Game:
    """:func:`_position.position` at the start of ``phase`` (default: phase 2 of round 1, seed 7,
    the seed's regions, nobody acted yet; the market: the 8 lowest plants nobody holds).

    The deck is ``deck_top`` then every other unused plant ascending, then the Step 3 card
    (or exactly ``deck``, every other card then being boxed). Holdings are given per field.
    [RECH] in phase 2 the discount token defaults to the lowest current-market plant (R40).
    """
    if discount is ...:
        discount = "lowest" if edition == "recharged" and phase == 2 else None
    return position(players, edition, seed=seed, options=options, round=round, phase=phase, step=step,
                    who=who_of(money, plants, tokens, cities), order=order, seats=seats, market=market,
                    deck=deck_top if deck is None else deck, rest="deck" if deck is None else "boxed",
                    removed=removed, boxed=boxed, discount=discount, to_act=to_act, resources=resources)


def everyone_drops(g: Game) -> list[str]:
    """Every remaining rival drops out of the running auction (R29); returns who was asked, in order."""
    asked = []
    while g.s.auction is not None:
        asked.append(g.current_player)
        g.apply(Pass(g.current_player))
    return asked


def buy_uncontested(g: Game, plant: int, bid: int | None = None) -> str:
    """The current opener opens ``plant`` (at its minimum unless ``bid``) and nobody raises."""
    who = g.current_player
    g.apply(Open(who, plant, g.min_bid(plant) if bid is None else bid))
    everyone_drops(g)
    return who


def finish_phases_3_to_5(g: Game) -> None:
    """Nobody buys, builds or powers anything; returns at the next round's phase 2."""
    r = g.round
    while g.round == r and not g.is_over:
        who = g.current_player
        g.apply(Done(who) if g.phase in (3, 4) else Power(who))


def phase_events(g: Game, round_: int) -> list[int]:
    return [e.number for e in g.history if e.kind == "phase" and e.round == round_]


def area_cities(edition: str = "original", players: int = 4, seed: int = 7) -> list[str]:
    """The play-area cities of ``scenario(edition, players, seed=seed)`` (same seed, same regions)."""
    return list(new_game(players, edition=edition, seed=seed).ctx.cities)
