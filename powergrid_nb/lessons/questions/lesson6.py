"""Lesson 6, the what-if lab: a changed rule's numbers, reading intervals, and how many games to play."""

from __future__ import annotations

import functools

from powergrid_nb.engine.game import Game
from powergrid_nb.engine.newgame import new_game
from powergrid_nb.lessons.checker import Exercise, Lock, Mistake

__all__ = ["DIFFERENCES", "EXERCISES", "LOCKS", "capped"]

# exercise 6.2: rule change -> (difference in game length, rounds; 95% interval low; high)
DIFFERENCES = {"A": (-0.4, -0.9, 0.1), "B": (1.2, 0.3, 2.1), "C": (0.05, -0.02, 0.12),
               "D": (-0.6, -1.0, -0.2)}


@functools.cache
def _standard() -> Game:
    return new_game(4, seed=1)


def capped(cities: int = 10) -> list[int]:
    """The standard payment table (R110) cut after ``cities`` cities powered: the last value repeats."""
    return list(_standard().rules.tables["payment"][:cities + 1])


EXERCISES: tuple[Exercise, ...] = (
    Exercise(
        "6.1", "The worked example caps the income at 10 cities: rules={'payment': capped()} keeps the "
        "payment table up to 10 cities powered and repeats its last value. How many Elektro less does a "
        "player who powers 14 cities earn per round under that rule than under the standard table?",
        unit="Elektro",
        mistakes=(Mistake("that is the standard income itself; the question asks for the difference."),
                  Mistake("that is the capped income itself; the question asks how much less it is.")),
        hint="compare the two tables at 14 cities powered: the capped one stops growing at 10."),
    Exercise(
        "6.2", "Four rule changes were each compared with the standard rules; DIFFERENCES gives each one's "
        "difference in game length (rounds) with its 95% interval: {'A': (-0.4, -0.9, 0.1), 'B': (1.2, 0.3, "
        "2.1), 'C': (0.05, -0.02, 0.12), 'D': (-0.6, -1.0, -0.2)}. Which changes have an effect on game "
        "length that these games establish? (a set of letters)",
        kind="set",
        mistakes=(Mistake("that picks the positive means; a shorter game is an effect too, and a mean "
                          "whose interval includes zero is not established."),
                  Mistake("that picks the big means; A's mean is large but its interval (-0.9, 0.1) "
                          "includes zero, so the games cannot tell its sign.")),
        hint="for each change: is 0 inside (low, high)?"),
    Exercise(
        "6.3", "An interval's width shrinks like 1/sqrt(games). By what factor must the games be multiplied "
        "to make an interval half as wide?",
        mistakes=(Mistake("doubling the games makes the interval 1/sqrt(2) as wide, not half: the width goes "
                          "with 1/sqrt(games)."),),
        hint="the width goes with 1/sqrt(games): which factor k gives 1/sqrt(k) of a half?"),
    Exercise(
        "6.4", "A seat wins about 25% of the games. How many games give a 95% Wilson interval no wider than "
        "5 percentage points on either side? (try a few numbers of games with `wilson` from "
        "powergrid_nb.play.results)",
        tolerance=5,
        mistakes=(Mistake("that is the rough 1/sqrt(n) rule, the worst case at a 50% win rate; at 25% "
                          "the spread p(1-p) is smaller, so fewer games do."),
                  Mistake("that is the normal approximation 1.96²·p(1-p)/0.05², a symmetric interval; the "
                          "Wilson interval's upper end is still more than 5 points above 25% there.")),
        hint="try a few numbers of games and watch both ends of the Wilson interval: which one is farther "
             "from 0.25?"),
    Exercise(
        "6.p1", "Pencil and paper. 40 games gave an interval of ±8 percentage points. About how many games "
        "give ±2 points?",
        unit="games",
        mistakes=(Mistake("4 times the games halves the interval (±4); a quarter of the width needs "
                          "4² times the games."),
                  Mistake("twice the games narrows the interval by 1/sqrt(2), not by half.")),
        hint="the width goes with 1/sqrt(games): by what factor must the width shrink, and what does "
             "that need of the games?"),
    Exercise(
        "6.p2", "Pencil and paper. You test 20 rule changes that in truth change nothing, each with a 95% "
        "interval. How many intervals do you expect to exclude zero all the same?",
        mistakes=(Mistake("each interval misses the truth 5 times in 100: with 20 of them, expect some to "
                          "exclude zero by chance."),
                  Mistake("that is how many you expect to include zero.")),
        hint="a 95% interval misses the true value in 5 cases of 100; how many of 20 is that?"),
)

LOCKS: dict[str, Lock] = {
    "6.1": Lock(
        "672363245a504e24b4cbc439389322c0",
        "3HAPRfYZpVYO0NH2M3yvCkqMbNjvFmVFNifpeslTEfQpeXZWICAcC0ZFcqJOqMeq2/9km3Y/kWUbuHw9fUQ2HPehWaufnY"
        "Bo5OEtN7RRBVPMcRLJFBGi10LPg6hFKil5UQHLytZicemzTj3FLyOESOtpG5DW/JuSxcly5lL/YGQVqX45LN4d4Zqlx3HH"
        "4zpqvKyd70BIb1Ol8zXoR2jAtEJeuT+4RC9zTJ75HF+wq6sp9Eg5FnqXZE8l5U3rdz4L",
        (
            "999a6962be32e61ff2642ed6842f6dfc",
            "3b4727a6ba6db50d712911492e5c40f4",
        ),
    ),
    "6.2": Lock(
        "b81b83dd2ff7408557441f27181d1d01",
        "ebeQhc2jhQeo84pweKUDmecGS03Is5fpDBA06CNFx9wZC/oTROakdKJgtf0q3gkjADM17SLFqXtnGB/zEQOMxXGydmLrkl"
        "u49Z6tC4ajDrbWM3upNxtRK1/yWAl++lze6IPZ1lNlK4eIuCidbb6kgEU9fnD9in95ALkFJJuz0/xBuYtBbUDO/nVdx1RR"
        "Hzm991SR9bswjEHzgKkZoFWRLjT88E+4Dcaddbym/5SnIRAjkYSrh5jxqjxWnudN",
        (
            "8482f3a4b0e5f966de303dfed9f92061",
            "d6089556e105b8b8689965238ea8bc12",
        ),
    ),
    "6.3": Lock(
        "35f8c3af3e7bd251babebb1f481f004d",
        "fSe6vC33eQV10QxxYKGx+vudde9HdbzedPj/IkWf4YKrvCTqZEiqhKHnn8ilxFMuImbHzyhzVh12UVJpi6A8BGnqpf4oCK"
        "kF47HIbEAFJ3AGMJ9LEQ8=",
        (
            "89d0ddf2d171d9434a8fdc32849b8cc4",
        ),
    ),
    "6.4": Lock(
        "75aca96f2b4a26f95ca7dc779737d52c",
        "ku3+tVxqD6PcDlfj2lT73nbZ3pxI3tdnoQ9810d/1FxOfVgZQeTdHsmhFxcjPMg0Za1j5cJQ6MteNgSmVKkg7xg1aMNPBT"
        "MfR4V3hUuFc1x7srthC28gkdj7IuczrYdynacEdMYsnE4XyMPXioPU2wc/OCEHvEgRdcIuyPrlCIyMvxAKTjvqHMpqwzxW"
        "Y2XJXXH/BYSoX5KOul1zL+/OgGxClM0FQkYDbEvkSYEEkNdO2GgwuKBZuZqjD9BwYlMejuT5ivlq9cyvngPMZSit8DcPiv"
        "kZycJsQ+h94nvU7xH9lo1Iy3iNrD5RhdBRBK7G1fclN3MGrEek0/QMsQPeAeDNhJDhuGXvgbxB1gEKWljRfg==",
        (
            "0c6d56707c9bc46aff50c5132ab02a76",
            "c7af8dfde32991d9b5cb112bf88967dc",
        ),
    ),
    "6.p1": Lock(
        "05257ecb6a10c09818c455b4fe5eb62e",
        "TlsC3oCf7U8K4/kaToNu7V8cVfoB/HQDSv9EmCFnX5huX0pgjM0wLSWyYxoWll3b9vmY2c0Ux3u5uiZS7Z3iSUCmZbwoc0"
        "Y8Y5fy9LlJsOJyszKp8jYWr1YxI2OZ9TzEEnR0gna/miGtPUkQ32icVi0=",
        (
            "e1c86946798290e5163a6c82771e6c8c",
            "b080213f3b2d6b55909b85175ddcb292",
        ),
    ),
    "6.p2": Lock(
        "d3b6c5617aa5061be1df3f7da7df25b9",
        "6m5PuMNHp8s2qS/MT6RV4zVN6tviTHYHfV7YkNN+3m/vgthHB3CA61qhk0IkxPdZN4Y6DYlFDNMpuyU8xIr1UjGh1mlAGg"
        "/2i63aQOYM5ZyKS31PYCH1UzrLaYyp1saTHcvUpvAw8I4xKxXUmO/uTdC2mrx/fphhmFBaNR2WbV4+Si2F/615ZDln5eMp"
        "MvZhuqo=",
        (
            "976553f17b77fc458d777960ecec93e6",
            "4e108a0e5fcd5fe27c2ddad1ca32aef0",
        ),
    ),
}
