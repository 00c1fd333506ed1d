"""Exercises of lesson 2, power plants as capital (``notebooks/lessons/02_power_plants.ipynb``)."""

from __future__ import annotations

import functools

from powergrid_nb.engine.game import Game
from powergrid_nb.engine.newgame import new_game
from powergrid_nb.engine.rules.plants import PLANTS
from powergrid_nb.lessons.capital import marginal_income, payback_rounds
from powergrid_nb.lessons.checker import Exercise, Mistake
from powergrid_nb.position.scenario import Scenario


@functools.cache
def _new() -> Game:
    return new_game(4, seed=1)


@functools.cache
def _scarce() -> Game:
    """A new game whose market holds only 4 coal and 4 oil (exercise 2.4)."""
    sc = Scenario.from_game(new_game(4, seed=1))
    sc.set_resources({"coal": 4, "oil": 4})
    return sc.game()


CITY = 21  # Elektro per new city in exercise 2.3 (slot and links), a given of the question


def _payback(fuel: bool = True, marginal: bool = True, cities: bool = True) -> float:
    g = _new()
    extra = marginal_income(g, 5, PLANTS[16].cities) if marginal else g.income(PLANTS[16].cities)
    price = 16 + (PLANTS[16].cities * CITY if cities else 0)
    return payback_rounds(price, extra, (g.fuel_cost(16) or 0) if fuel else 0)


def _payback_explanation() -> str:
    g = _new()
    extra, fuel = marginal_income(g, 5, PLANTS[16].cities), g.fuel_cost(16) or 0
    return (f"(16 + 3 x {CITY}) / ({extra} - {fuel}) = {_payback():.2f} rounds: the plant earns only "
            f"for cities the company has, so its capital is the card and the cities. Counting the card "
            f"alone ({_payback(cities=False):.2f} rounds) makes plants look far cheaper than they are.")


EXERCISES: tuple[Exercise, ...] = (
    Exercise(
        "2.1", "Plant 20 burns 3 coal and powers 5 cities. How many cities does it power per token "
        "(`PLANTS[20]`)?",
        answer=lambda: PLANTS[20].cities / PLANTS[20].tokens, tolerance=0.01, unit="cities per token",
        explanation="5 / 3 ≈ 1.67 cities per token: the higher, the less fuel each city's income needs.",
        mistakes=(Mistake(lambda: PLANTS[20].tokens / PLANTS[20].cities,
                          "that is tokens per city (3 / 5), the inverse: divide the cities by the tokens."),),
        hint="Divide the cities the plant powers by the tokens one run burns."),
    Exercise(
        "2.2", "A player powers 5 cities. How much more income per round does a plant that powers 3 more "
        "cities bring (use `g.income(n)`, the payment table R110)?",
        answer=lambda: marginal_income(_new(), 5, 3), unit="Elektro",
        explanation="income(8) - income(5) = 26 Elektro: the payment table is concave, so the same plant "
                    "adds less the more cities a player already powers.",
        mistakes=(Mistake(lambda: _new().income(3),
                          "that is the income for powering 3 cities in all, as if the plant were the "
                          "player's only one; the plant adds cities 6 to 8 (marginal, not total)."),
                  Mistake(lambda: _new().income(8),
                          "that is the whole income for 8 cities; the question asks for the extra "
                          "income over the 5 cities already powered.")),
        hint="Subtract the income for 5 cities from the income for 5 + 3."),
    Exercise(
        "2.3", "In a new game (`new_game(4, seed=1)`, today's fuel prices), a player powering 5 cities "
        "buys plant 16 (2 oil, 3 cities) at face value, 16 Elektro, and builds the 3 cities it supplies at "
        f"{CITY} Elektro each. How many rounds of net income (extra income minus one run of fuel, "
        "`g.fuel_cost(16)`) repay the plant and its cities?",
        answer=lambda: _payback(), tolerance=0.02, unit="rounds",
        explanation=_payback_explanation,
        mistakes=(Mistake(lambda: _payback(cities=False),
                          "this counts the card only: the plant supplies 3 cities, and building them is "
                          "part of what the plant costs."),
                  Mistake(lambda: _payback(fuel=False),
                          "this leaves out the fuel: every run burns 2 oil bought at today's price."),
                  Mistake(lambda: _payback(marginal=False),
                          "this counts the income for 3 cities in all instead of the extra income "
                          "over the 5 cities already powered.")),
        hint="payback = (price + cities x city price) / (extra income - fuel cost of one run)."),
    Exercise(
        "2.4", "The market holds only 4 coal and 4 oil (`sc = Scenario.from_game(new_game(4, seed=1))`, "
        "`sc.set_resources({'coal': 4, 'oil': 4})`, `g = sc.game()`). "
        "What does one run of the hybrid plant 12 (2 coal or oil, any mix) cost at the cheapest mix?",
        answer=lambda: _scarce().fuel_cost(12), unit="Elektro",
        explanation="One coal and one oil: each is the cheapest token of its track, cheaper than the "
                    "second token of either (R46, R50). That is the hybrid's option: it never pays "
                    "more than the cheaper fuel and sometimes less.",
        mistakes=(Mistake(lambda: _scarce().market_cost(coal=2),
                          "that is 2 coal (or 2 oil, the same here): the second token of a track costs "
                          "more; a hybrid may mix."),),
        hint="Try the mixes 2+0, 1+1 and 0+2 with `g.market_cost(coal=..., oil=...)`."),
    Exercise(
        "2.5", "In a new Recharged game (`new_game(4, edition='recharged', seed=1)`), what is the "
        "minimum bid of the plant under the discount token (`g.discount`, `g.min_bid`)?",
        answer=lambda: new_game(4, edition="recharged", seed=1).min_bid(
            new_game(4, edition="recharged", seed=1).discount), unit="Elektro",
        explanation="1 Elektro whatever its number (R40): the lowest plant is offered at a discount, and "
                    "unsold at the end of the phase it leaves the market (R43).",
        mistakes=(Mistake(lambda: new_game(4, edition="recharged", seed=1).discount,
                          "that is the plant's number, its minimum bid without the token (R28); the "
                          "discount token makes it 1 (R40)."),),
        hint="Ask the game: `g.min_bid(g.discount)`."),
)
