"""Lesson 4, turn order and catch-up: the player order, who buys first, what going last costs, intervals."""

from __future__ import annotations

import functools
import math

from powergrid_nb.engine.editions import REVERSIBLE
from powergrid_nb.engine.game import Game
from powergrid_nb.engine.newgame import new_game
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.lessons.catchup import player_order
from powergrid_nb.lessons.checker import Exercise, Mistake
from powergrid_nb.play.results import wilson

__all__ = ["BIGGEST", "CITIES", "EXERCISES", "start"]

# the position of exercises 4.1 and 4.2: cities on the map and each player's biggest plant
CITIES = {"Ada": 5, "Bo": 6, "Cy": 6, "Dee": 4}
BIGGEST = {"Ada": 25, "Bo": 20, "Cy": 31, "Dee": 13}


@functools.cache
def _start() -> Game:
    return new_game(4, map="germany", edition="original", seed=1)


def start() -> Game:
    """The position of exercise 4.3: a fresh 4-player original game on Germany (seed 1)."""
    return _start().copy()


def _order() -> list[str]:
    return player_order(CITIES, BIGGEST)


def _extra(n: int) -> int:
    """What the second of two buyers of ``n`` coal pays more than the first, on the opening market."""
    g = _start()
    return (g.market_cost(coal=2 * n) - g.market_cost(coal=n)) - g.market_cost(coal=n)


def _normal_low(wins: int, n: int) -> float:
    p = wins / n
    return p - 1.96 * math.sqrt(p * (1 - p) / n)


def _leader_first_phases(keep: list[int]) -> set[int]:
    """Phases 2-4 in which the leader acts first when ``reverse_order`` = ``keep`` (their numbers)."""
    reversed_ = set(new_game(4, seed=1, rules={"reverse_order": keep}).rules.tables["reverse_order"])
    return {Phase.AUCTION.value} | ({p.value for p in REVERSIBLE} - reversed_)


EXERCISES: tuple[Exercise, ...] = (
    Exercise(
        "4.1", "Cities on the map: Ada 5, Bo 6, Cy 6, Dee 4 (`CITIES`); biggest plants: Ada 25, Bo 20, "
        "Cy 31, Dee 13 (`BIGGEST`). Give the player order of the next round as a list of names, first "
        "player first.",
        _order,
        "Most cities first (R18); Bo and Cy both have 6, and the tie goes to the bigger plant (R19): Cy's 31 "
        "beats Bo's 20. Then Ada (5) and Dee (4).",
        kind="list",
        mistakes=(Mistake(lambda: ["Bo", "Cy", "Ada", "Dee"],
                          "the tie between Bo and Cy is broken by the biggest plant (R19), not by the name "
                          "or the seat: Cy's plant 31 is bigger than Bo's 20."),
                  Mistake(lambda: list(reversed(_order())),
                          "that is the reverse order (the one phases 3 and 4 use, R45, R54); the player "
                          "order itself starts with the most cities (R18).")),
        hint="sort by cities, most first (R18); break ties by the biggest plant (R19)."),
    Exercise(
        "4.2", "In the same position, who is the first to buy resources in phase 3? (a name)",
        lambda: _order()[-1],
        "Phase 3 goes in reverse player order (R45): the last player, Dee with the fewest cities, buys first "
        "and gets the cheapest tokens.",
        kind="text",
        mistakes=(Mistake(lambda: _order()[0],
                          "that is the first player, who opens the auction first (phase 2) but buys "
                          "resources last: phase 3 goes in reverse player order (R45)."),),
        hint="find the player order first (4.1), then read R45."),
    Exercise(
        "4.3", "On the opening coal market of a 4-player game (`start().market_cost(coal=...)`), two "
        "players each want 4 coal. How many Elektro more does the one who buys second pay than the one who "
        "buys first?",
        lambda: _extra(4),
        "The first buyer takes the 4 cheapest tokens; the second pays the next 4 "
        "(`market_cost(coal=8) - market_cost(coal=4)`), each space dearer. The difference is what going "
        "later costs in this phase.",
        unit="Elektro",
        mistakes=(Mistake(lambda: _start().market_cost(coal=8) - _start().market_cost(coal=4),
                          "that is what the second buyer pays in all; the question asks how much more than "
                          "the first buyer."),
                  Mistake(lambda: _start().market_cost(coal=8),
                          "that is the cost of all 8 tokens together, not the second buyer's extra cost.")),
        hint="the second buyer's 4 tokens cost market_cost(coal=8) - market_cost(coal=4); subtract what "
             "the first paid."),
    Exercise(
        "4.4", "In 10 games the leader won 7. What is the lower end of the 95% Wilson interval of the "
        "leader's win rate? (a share, e.g. 0.42; `powergrid_nb.play.results.wilson`)",
        lambda: wilson(7, 10)[0],
        "wilson(7, 10) is about (0.40, 0.89): with 10 games the interval is wide and not centred on 0.7, "
        "because a share cannot go above 1.",
        tolerance=0.005,
        mistakes=(Mistake(lambda: _normal_low(7, 10),
                          "that is the normal approximation p - 1.96·sqrt(p(1-p)/n); with 10 games it is "
                          "off, and it can even go below 0 or above 1. Use the Wilson interval."),
                  Mistake(0.7, "0.7 is the measured share itself; the question asks for the lower end of "
                               "its interval.")),
        hint="from powergrid_nb.play.results import wilson; wilson(wins, n) gives (low, high)."),
    Exercise(
        "4.5", "With rules={'reverse_order': [4]}, in which of the phases 2, 3 and 4 does the leader act "
        "first? (a set of phase numbers)",
        lambda: _leader_first_phases([4]),
        "The auction (phase 2) always starts with the first player (R26). reverse_order=[4] keeps only "
        "building in reverse order, so resources (phase 3) now go in player order, leader first.",
        kind="set",
        mistakes=(Mistake(lambda: {3}, "the leader also acts first in phase 2: every auction round starts "
                                        "with the first player in player order (R26)."),
                  Mistake(lambda: {2, 4}, "reverse_order lists the phases that *stay* reversed (leader "
                                          "last); [4] keeps building reversed, so phase 3 is the one that "
                                          "changes.")),
        hint="reverse_order lists the phases played leader last; phase 2 is not among them."),
)
