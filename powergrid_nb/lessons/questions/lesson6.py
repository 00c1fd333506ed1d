"""Lesson 6, the what-if lab: a changed rule's numbers, reading intervals, and how many games to play."""

from __future__ import annotations

import functools
import math

from powergrid_nb.engine.game import Game
from powergrid_nb.engine.newgame import new_game
from powergrid_nb.lessons.checker import Exercise, Mistake
from powergrid_nb.lessons.whatif_reading import established, games_for_half_width

__all__ = ["DIFFERENCES", "EXERCISES", "capped"]

# exercise 6.2: rule change -> (difference in game length, rounds; 95% interval low; high)
DIFFERENCES = {"A": (-0.4, -0.9, 0.1), "B": (1.2, 0.3, 2.1), "C": (0.05, -0.02, 0.12),
               "D": (-0.6, -1.0, -0.2)}


@functools.cache
def _standard() -> Game:
    return new_game(4, seed=1)


@functools.cache
def _capped() -> Game:
    return new_game(4, seed=1, rules={"payment": capped()})


def capped(cities: int = 10) -> list[int]:
    """The standard payment table (R110) cut after ``cities`` cities powered: the last value repeats."""
    return list(_standard().rules.tables["payment"][:cities + 1])


def _loss(powered: int) -> int:
    return _standard().income(powered) - _capped().income(powered)


def _normal_games(p: float, half: float) -> int:
    return math.ceil(1.96 ** 2 * p * (1 - p) / half ** 2)


EXERCISES: tuple[Exercise, ...] = (
    Exercise(
        "6.1", "The worked example caps the income at 10 cities: rules={'payment': capped()} keeps the "
        "payment table up to 10 cities powered and repeats its last value. How many Elektro less does a "
        "player who powers 14 cities earn per round under that rule than under the standard table?",
        lambda: _loss(14),
        "Standard: g.income(14); capped: the value for 10 cities, repeated. The rule takes exactly this "
        "much from a big network each round, and nothing from players powering 10 or fewer.",
        unit="Elektro",
        mistakes=(Mistake(lambda: _standard().income(14),
                          "that is the standard income itself; the question asks for the difference."),
                  Mistake(lambda: _capped().income(14),
                          "that is the capped income itself; the question asks how much less it is.")),
        hint="new_game(4, rules={'payment': capped()}).income(14) and new_game(4).income(14)."),
    Exercise(
        "6.2", "Four rule changes were each compared with the standard rules; DIFFERENCES gives each one's "
        "difference in game length (rounds) with its 95% interval: {'A': (-0.4, -0.9, 0.1), 'B': (1.2, 0.3, "
        "2.1), 'C': (0.05, -0.02, 0.12), 'D': (-0.6, -1.0, -0.2)}. Which changes have an effect on game "
        "length that these games establish? (a set of letters)",
        lambda: {k for k, v in DIFFERENCES.items() if established(*v)},
        "An effect is established when the whole interval lies on one side of zero: B (longer) and D "
        "(shorter). A and C include zero: their games cannot tell, however big or small the mean.",
        kind="set",
        mistakes=(Mistake(lambda: {k for k, v in DIFFERENCES.items() if v[0] > 0},
                          "that picks the positive means; a shorter game is an effect too, and a mean "
                          "whose interval includes zero is not established."),
                  Mistake(lambda: {k for k, v in DIFFERENCES.items() if abs(v[0]) >= 0.4},
                          "that picks the big means; A's mean is large but its interval (-0.9, 0.1) "
                          "includes zero, so the games cannot tell its sign.")),
        hint="for each change: is 0 inside (low, high)?"),
    Exercise(
        "6.3", "An interval's width shrinks like 1/sqrt(games). By what factor must the games be multiplied "
        "to make an interval half as wide?",
        lambda: 4,
        "Half the width needs sqrt(k) = 2, so k = 4 times the games: precision is expensive.",
        mistakes=(Mistake(2, "doubling the games makes the interval 1/sqrt(2), about 71% as wide, not half: "
                             "the width goes with 1/sqrt(games)."),),
        hint="solve 1/sqrt(k) = 1/2 for k."),
    Exercise(
        "6.4", "A seat wins about 25% of the games. How many games give a 95% Wilson interval no wider than "
        "5 percentage points on either side? (`games_for_half_width` in powergrid_nb.lessons.whatif_reading "
        "does it; try it by hand with `wilson` first)",
        lambda: games_for_half_width(0.25, 0.05),
        "The Wilson interval of a share below 50% reaches further up than down, so its upper end decides; "
        "the spread sqrt(p(1-p)/n) is smaller at 25% than at 50%, so fewer games do than the 1/sqrt(n) rule "
        "says.",
        tolerance=5,
        mistakes=(Mistake(400, "400 is the rough 1/sqrt(n) rule, the worst case at a 50% win rate; at 25% "
                               "the spread p(1-p) is smaller, so fewer games do."),
                  Mistake(lambda: _normal_games(0.25, 0.05),
                          "that is the normal approximation 1.96²·p(1-p)/0.05², a symmetric interval; the "
                          "Wilson interval's upper end is still more than 5 points above 25% there.")),
        hint="try n = 100, 200, 300 with wilson(0.25 * n, n) and look at both ends."),
)
