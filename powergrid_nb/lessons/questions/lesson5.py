"""Lesson 5, income and the endgame: marginal income, powered vs owned cities, the end, tie-breaks."""

from __future__ import annotations

from powergrid_nb.lessons.checker import Exercise, Mistake
from powergrid_nb.lessons.income import decided_by, end_cities_table, income_table

__all__ = ["EXERCISES", "TIE"]

TIE = {"Ada": (15, 40, 16), "Bo": (15, 40, 17), "Cy": (14, 90, 14)}
"""The end of game of exercises 5.4 and 5.5: (cities powered, money, cities in network) per player."""


def _income(k: int) -> int:
    t = income_table(("original",))
    return int(t.loc[t["powered"] == k, "income"].iloc[0])


EXERCISES: tuple[Exercise, ...] = (
    Exercise(
        "5.1", "How much more income does a player earn powering 7 cities rather than 6?",
        lambda: _income(7) - _income(6),
        "82 - 73 = 9 Elektro: the marginal income of the 7th city (R110).",
        unit="Elektro",
        mistakes=(Mistake(lambda: _income(7), "that is the whole income for 7 cities, not what the 7th "
                          "adds."),
                  Mistake(lambda: _income(7) / 7, "that is the average income per city; the question asks "
                          "for the marginal income of one more city.")),
        hint="subtract `g.income(6)` from `g.income(7)`."),
    Exercise(
        "5.2", "You own 14 cities and your plants, with the fuel you hold, can power 12. What do you earn "
        "this round?",
        lambda: _income(12),
        "Income counts cities powered, not cities owned (R110): 12 powered earn 118 Elektro.",
        unit="Elektro",
        mistakes=(Mistake(lambda: _income(14), "that pays for the 14 cities you own; only powered cities "
                          "earn (R110)."),),
        hint="which number of cities does the payment table use?"),
    Exercise(
        "5.3", "How many cities end a 2-player game in the Recharged edition?",
        lambda: int(end_cities_table().loc[2, "recharged"]),
        "18 cities in Recharged (R96); the original needs 21 with 2 players.",
        unit="cities",
        mistakes=(Mistake(lambda: int(end_cities_table().loc[2, "original"]),
                          "that is the original edition's threshold for 2 players."),
                  Mistake(lambda: int(end_cities_table().loc[3, "recharged"]),
                          "that is the threshold for 3 players.")),
        hint="see `end_cities_table()`."),
    Exercise(
        "5.4", "Original edition, the game is over. Ada powers 15 cities, has 40 Elektro and 16 cities; Bo "
        "powers 15, has 40 Elektro and 17 cities; Cy powers 14, has 90 Elektro and 14 cities (`TIE`). "
        "Who wins? (a name)",
        lambda: decided_by("original", TIE)[0][0],
        "Ada and Bo tie on cities powered (R100) and on money (R101); the original's second tie-break, "
        "cities in the network (R102), gives it to Bo.",
        kind="text",
        mistakes=(Mistake("Cy", "money only separates players tied on cities powered (R101); Cy powers "
                                "fewer."),
                  Mistake("Ada", "Ada and Bo are level on powered cities and money; the next tie-break "
                                 "is the larger network (R102).")),
        hint="apply R100, then R101, then R102, each only among those still level."),
    Exercise(
        "5.5", "The same end (`TIE`) in the Recharged edition: who wins? (a list of names)",
        lambda: decided_by("recharged", TIE)[0],
        "Recharged has no second tie-break (R102): Ada and Bo, level on powered cities and money, share "
        "the victory.",
        kind="set",
        mistakes=(Mistake(["Bo"], "cities in the network break ties only in the original edition (R102)."),
                  Mistake(["Cy"], "money only separates players tied on cities powered (R101).")),
        hint="Recharged breaks ties by money only."),
)
