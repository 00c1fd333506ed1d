"""Lesson 1, the resource market: marginal and total cost, the next buyer's price, refills, denial."""

from __future__ import annotations

import functools

from powergrid_nb.engine.game import Game
from powergrid_nb.engine.newgame import new_game
from powergrid_nb.lessons.checker import Exercise, Mistake
from powergrid_nb.lessons.market import refill_table, supply_curve

__all__ = ["EXERCISES", "start"]


@functools.cache
def _start() -> Game:
    return new_game(4, map="germany", edition="original", seed=1)


def start() -> Game:
    """The position of the exercises: a fresh 4-player original game on Germany (seed 1)."""
    return _start().copy()


def _curve(resource: str, k: int, col: str) -> float:
    return float(supply_curve(_start(), resource).set_index("k").loc[k, col])


def _uranium(n: int, k: int) -> list[int]:
    """Prices of the first k uranium tokens bought with n on the market (R116, R117)."""
    return _start().resource_track.price_ladder(3, n)[:k]


def _largest_refill(players: int, step: int) -> str:
    t = refill_table(("original",))
    t = t[(t["players"] == players) & (t["step"] == step)]
    return str(t.loc[t["tokens"].idxmax(), "resource"])


def _deny(n: int, need: int) -> int:
    """What it costs to leave fewer than ``need`` of ``n`` oil tokens: buy n - need + 1, cheapest first."""
    return int(_start().resource_track.buy_cost(1, n, n - need + 1))


EXERCISES: tuple[Exercise, ...] = (
    Exercise(
        "1.1", "At the start of a 4-player original game (24 coal on the market), what do 5 coal tokens "
        "cost in total? (`start()` gives the position.)",
        lambda: _curve("coal", 5, "total"),
        "Tokens are taken from the cheapest space first (R50): 3 tokens at 1 and 2 at 2 make 7 Elektro.",
        unit="Elektro",
        mistakes=(Mistake(lambda: 5 * _curve("coal", 1, "marginal"),
                          "that prices every token at the first token's price; the cheap space holds only "
                          "3 tokens, then the price rises (R115)."),
                  Mistake(lambda: 5 * _curve("coal", 5, "marginal"),
                          "that is the marginal price of the 5th token times 5; the earlier tokens were "
                          "cheaper. Add the prices token by token.")),
        hint="add the price of each token in the order they are bought: `g.market_cost(coal=5)`."),
    Exercise(
        "1.2", "At the start (18 oil on the market) you buy 4 oil. What does the next buyer pay for one oil?",
        lambda: _curve("oil", 4, "next_buyer"),
        "Your 4 tokens emptied the 3-Elektro space (3 tokens) and took one at 4; the next token costs 4.",
        unit="Elektro",
        mistakes=(Mistake(lambda: _curve("oil", 1, "marginal"),
                          "that was the price before you bought; your purchase emptied the cheap space."),
                  Mistake(lambda: _curve("oil", 4, "total"),
                          "that is what you paid for your 4 tokens, not the next buyer's price for one.")),
        hint="look up row k = 4 of `supply_curve(g, 'oil')`, column next_buyer."),
    Exercise(
        "1.3", "5 uranium tokens are on the market. You buy 3. What does the third token cost you (its "
        "marginal cost)?",
        lambda: _uranium(5, 3)[-1],
        "The uranium track's prices climb 8, 10, 12 from 5 tokens down (R116): the third costs 12.",
        unit="Elektro",
        mistakes=(Mistake(lambda: sum(_uranium(5, 3)) / 3,
                          "that is the average cost per token (total / 3); the marginal cost is the price of "
                          "the last token, which is higher on a rising curve."),
                  Mistake(lambda: sum(_uranium(5, 3)),
                          "that is the total cost of the three tokens, not the cost of the third.")),
        hint="`g.resource_track.price_ladder(3, 5)` lists the uranium prices in buying order."),
    Exercise(
        "1.4", "In a 5-player game in Step 3, which resource gets the largest refill each round? "
        "(answer with its name, e.g. 'garbage')",
        lambda: _largest_refill(5, 3),
        "In Step 3 the refill shifts away from coal: oil gets the most (R108).",
        kind="text",
        mistakes=(Mistake("coal", "coal gets the most in Steps 1 and 2; read the Step 3 column of the "
                                  "refill table."),),
        hint="filter `refill_table()` on players == 5 and step == 3."),
    Exercise(
        "1.5", "You buy before Bo. Bo needs 3 oil to run his plants and 5 oil are on the market. What is the "
        "least you must pay to leave fewer than 3 oil for Bo?",
        lambda: _deny(5, 3),
        "Leaving 2 tokens is enough: buy 3, the cheapest first (7 + 7 + 8 = 22 Elektro).",
        unit="Elektro",
        mistakes=(Mistake(lambda: int(_start().resource_track.buy_cost(1, 5, 5)),
                          "that buys all 5 tokens; leaving 2 on the market already leaves Bo short."),
                  Mistake(lambda: 3 * int(_start().resource_track.price_ladder(1, 5)[-1]),
                          "that prices each token at the dearest price; tokens are bought cheapest first "
                          "(R50).")),
        hint="`g.resource_track.buy_cost(1, 5, k)` is what k oil cost with 5 on the market (1 = oil)."),
)
