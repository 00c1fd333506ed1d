"""Exercises of lesson 3, networks (``notebooks/lessons/03_networks.ipynb``)."""

from __future__ import annotations

import functools

from powergrid_nb.bots.planner import cheapest_cities, plan_targets
from powergrid_nb.engine.game import Game
from powergrid_nb.engine.newgame import new_game
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.lessons.checker import Exercise, Mistake
from powergrid_nb.lessons.networks import centrality, links_paid, steiner_estimate
from powergrid_nb.position.scenario import Scenario

FORK = ["Nürnberg", "Dresden"]


@functools.cache
def _new() -> Game:
    return new_game(4, seed=1)


@functools.cache
def _bremen() -> Game:
    """Ada's only house is in Bremen; the play area holds Bremen, Erfurt, Dresden and Nürnberg."""
    sc = Scenario.new(4, seed=1, regions=["cyan", "red", "yellow", "brown"])
    sc.set_cities("Ada", ["Bremen"])
    sc.set_money("Ada", 200)
    sc.set_phase(Phase.BUILDING)
    return sc.game()


def _paid_twice_explanation() -> str:
    """Exercise 3.3's explanation, read from the engine's plan: the links paid more than once."""
    g = _bremen()
    plan = plan_targets(g, "Ada", FORK)
    links = links_paid(g, "Ada", FORK)
    twice = links[links["paid"] > 1]
    again = ", ".join(f"{r.link} ({r.cost} Elektro)" for r in twice.itertuples())
    saving = plan.total - steiner_estimate(g, "Ada", FORK)  # type: ignore[union-attr]
    return (f"{plan.total} Elektro: each city pays its whole path from the network (R60, R62), and "  # type: ignore[union-attr]
            + (f"both paths run over {again}, so it is paid twice. " if len(twice) else "")
            + f"A Steiner tree that pays each link once would charge {saving} Elektro less, but links are "
            "never owned; `g.plan_build('Ada', plan.cities)` shows the paths.")


def _cheapest3(links: bool = True) -> int:
    g = _new()
    cities, total = cheapest_cities(g, g.players[0], 3) or ((), 0)
    return total if links else sum(g.slot_prices(g.players[0])[c] for c in cities)


def _central() -> str:
    return str(centrality(_new()).index[0])


def _most_links() -> set[str]:
    c = centrality(_new())
    return set(c.index[c["degree"] == c["degree"].max()]) - {_central()}


EXERCISES: tuple[Exercise, ...] = (
    Exercise(
        "3.1", "Step 2: a city holds one house of another player. What is the slot price of a house "
        "there for you, links left out (R56, `g.rules.tables['build_prices']`)?",
        answer=lambda: _new().rules.tables["build_prices"][1], unit="Elektro",
        explanation="15 Elektro: the second house of a city. Being first into a city saves 5 in Step 2 "
                    "and keeps the city out of reach in Step 1.",
        mistakes=(Mistake(lambda: _new().rules.tables["build_prices"][0],
                          "10 is the price of the first (empty) slot; the city's first slot is taken."),
                  Mistake(lambda: sum(_new().rules.tables["build_prices"][:2]),
                          "you pay only the lowest empty slot (R56), not the slots before it too.")),
        hint="The slots cost 10, 15 and 20, and you take the lowest one still empty."),
    Exercise(
        "3.2", "In a new game (`g = new_game(4, seed=1)`), what do the cheapest 3 cities cost a player "
        "who has no city yet, in Step 1 (`powergrid_nb.bots.planner.cheapest_cities`)?",
        answer=lambda: _cheapest3(), unit="Elektro",
        explanation="The planner's total: three slots of 10 and the links from the first city to the "
                    "other two, each city paying its own path (R59, R60).",
        mistakes=(Mistake(lambda: _cheapest3(links=False),
                          "that counts the slots only; the second and third city pay their links "
                          "too (R60)."),),
        hint="`cheapest_cities(g, g.players[0], 3)` returns (cities, total)."),
    Exercise(
        "3.3", "In the Bremen position of lesson 3 (`fork`: Ada's only house is in Bremen), what does the "
        "engine charge her to add Nürnberg and Dresden in one turn (`plan_targets`)?",
        answer=lambda: plan_targets(_bremen(), "Ada", FORK).total, unit="Elektro",  # type: ignore[union-attr]
        explanation=lambda: _paid_twice_explanation(),
        mistakes=(Mistake(lambda: steiner_estimate(_bremen(), "Ada", FORK),
                          "that is the Steiner tree's price, the links shared; under R62 every city pays "
                          "its own path again, so a link on both paths is paid twice."),),
        hint="Ask the engine: `plan_targets(g, 'Ada', ['Nürnberg', 'Dresden']).total`."),
    Exercise(
        "3.4", "In the play area of `new_game(4, seed=1)`, which city has the lowest mean cheapest path "
        "cost to all other cities in play (the most central, closeness with the link costs)?",
        answer=_central, kind="text",
        explanation="Closeness weighs every link by its cost; the most central city is the cheapest "
                    "place to reach, and to grow from, in every direction.",
        mistakes=(Mistake(lambda: sorted(_most_links())[0] if _most_links() else "",
                          "that city has the most links, but not the cheapest ones: count the link "
                          "costs (closeness with distance='cost'), not the links.",
                          matches=lambda a: isinstance(a, str) and a.strip().lower() in
                          {c.lower() for c in _most_links()}),),
        hint="`networkx.closeness_centrality(g.map.play_graph(g.regions), distance='cost')`."),
)
