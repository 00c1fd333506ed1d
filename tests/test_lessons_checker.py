"""The course's exercise checker: a right answer passes, typical wrong answers get their explanation, and
the package holds the answers only as hashes.

The answers live here: each is computed from the package (``SOLUTIONS``), with the explanation a
student reads after a right answer and the typical wrong answers. ``python tests/test_lessons_checker.py
write`` writes them, hashed and sealed, into the ``LOCKS`` of ``powergrid_nb/lessons/questions/`` and,
readable, into ``notebooks/lessons/ANSWERS.md`` for the teacher; the tests below fail when either falls
behind.
"""

from __future__ import annotations

import functools
import math
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from powergrid_nb.bots.planner import cheapest_cities, plan_targets
from powergrid_nb.engine.editions import REVERSIBLE
from powergrid_nb.engine.game import Game
from powergrid_nb.engine.newgame import new_game
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.engine.rules.plants import PLANTS
from powergrid_nb.lessons import Exercise, Mistake, check, exercise, exercises, rules_box
from powergrid_nb.lessons.capital import marginal_income, payback_rounds
from powergrid_nb.lessons.catchup import player_order
from powergrid_nb.lessons.checker import LESSONS, Lock, answer_hash, seal, unseal
from powergrid_nb.lessons.income import decided_by, end_cities_table
from powergrid_nb.lessons.market import refill_table
from powergrid_nb.lessons.networks import centrality, links_paid, steiner_estimate
from powergrid_nb.lessons.questions import lesson2, lesson3, lesson4, lesson5, lesson6
from powergrid_nb.lessons.whatif_reading import established, games_for_half_width
from powergrid_nb.play.results import wilson
from powergrid_nb.position.scenario import Scenario

ROOT = Path(__file__).resolve().parents[1]
ANSWERS = ROOT / "notebooks" / "lessons" / "ANSWERS.md"
QUESTIONS = ROOT / "powergrid_nb" / "lessons" / "questions"
COAL, OIL, URANIUM = 0, 1, 3  # the resource tracks' numbers


@dataclass(frozen=True)
class Solution:
    """An exercise's right answer, why it is right, and its typical wrong answers (in the order of the
    exercise's mistakes), each computed from the package."""

    answer: Callable[[], Any]
    why: Callable[[], str]
    mistakes: tuple[Callable[[], Any], ...] = ()


# ---- the positions -------------------------------------------------------------------------------

@functools.cache
def _new() -> Game:
    return new_game(4, seed=1)


@functools.cache
def _germany() -> Game:
    return new_game(4, map="germany", edition="original", seed=1)


@functools.cache
def _market(**resources: int) -> Game:
    sc = Scenario.from_game(new_game(4, seed=1))
    sc.set_resources(resources)
    return sc.game()


def _prices(g: Game, track: int, k: int) -> list[int]:
    name = ("coal", "oil", "garbage", "uranium")[track]
    costs = [g.market_cost(**{name: i}) for i in range(k + 1)]
    return [b - a for a, b in zip(costs, costs[1:], strict=False)]


def _income(k: int) -> int:
    return _new().income(k)


# ---- lesson 1 ------------------------------------------------------------------------------------

def _largest_refill(players: int, step: int) -> str:
    t = refill_table(("original",))
    t = t[(t["players"] == players) & (t["step"] == step)]
    return str(t.loc[t["tokens"].idxmax(), "resource"])


def _refill_words(players: int, step: int) -> str:
    t = refill_table(("original",))
    t = t[(t["players"] == players) & (t["step"] == step)]
    return ", ".join(f"{r.resource} {r.tokens}" for r in t.itertuples())


def _uranium() -> list[int]:
    """The prices of the first 3 uranium tokens with 5 on the market (exercise 1.3)."""
    return list(_germany().resource_track.price_ladder(URANIUM, 5)[:3])


def _num(x: float) -> str:
    return f"{x:.0f}" if x == int(x) else f"{x:.2f}"


def _oil5(k: int) -> int:
    """What k oil cost with 5 on the market (exercise 1.5)."""
    return int(_germany().resource_track.buy_cost(OIL, 5, k))


def _pencil_coal() -> list[int]:
    """The coal prices of exercises 1.p1 and 1.p2: 8 tokens on the spaces 6 (2), 7 (3) and 8 (3)."""
    return _prices(_market(coal=8), COAL, 8)


L1 = {
    "1.1": Solution(
        lambda: _germany().market_cost(coal=5),
        lambda: (f"{_germany().market_cost(coal=5)} Elektro. Tokens are taken from the cheapest space first "
                 f"(R50): the 5 tokens cost {' + '.join(map(str, _prices(_germany(), COAL, 5)))}."),
        (lambda: 5 * _prices(_germany(), COAL, 1)[0], lambda: 5 * _prices(_germany(), COAL, 5)[-1])),
    "1.2": Solution(
        lambda: _prices(_germany(), OIL, 5)[-1],
        lambda: (f"{_prices(_germany(), OIL, 5)[-1]} Elektro. Your 4 tokens cost "
                 f"{' + '.join(map(str, _prices(_germany(), OIL, 4)))}; the next token on the track "
                 f"costs {_prices(_germany(), OIL, 5)[-1]}. Your purchase moved the price every later "
                 "buyer pays."),
        (lambda: _prices(_germany(), OIL, 1)[0], lambda: _germany().market_cost(oil=4))),
    "1.3": Solution(
        lambda: _uranium()[2],
        lambda: (f"{_uranium()[2]} Elektro. With 5 uranium on the track the prices climb "
                 f"{', '.join(map(str, _uranium()))} (R116): the third token costs the last of these. "
                 f"The average, {_num(sum(_uranium()) / 3)}, is lower: on a rising supply curve the marginal "
                 "cost is above the average cost."),
        (lambda: sum(_uranium()) / 3, lambda: sum(_uranium()))),
    "1.4": Solution(
        lambda: _largest_refill(5, 3),
        lambda: (f"{_largest_refill(5, 3).capitalize()}. The refill of a 5-player game in Step 3 (R108) is "
                 f"{_refill_words(5, 3)}: in Step 3 the refill shifts away from coal."),
        (lambda: "coal",)),
    "1.5": Solution(
        lambda: _oil5(3),
        lambda: (f"{_oil5(3)} Elektro. Bo is short once fewer than 3 of the 5 tokens remain, so you buy 3, "
                 f"the cheapest first: "
                 f"{' + '.join(str(_oil5(k) - _oil5(k - 1)) for k in (1, 2, 3))} = {_oil5(3)}. Two tokens "
                 f"({_oil5(2)}) leave him his 3; four ({_oil5(4)}) spend more than needed."),
        (lambda: _oil5(5), lambda: 3 * (_oil5(5) - _oil5(4)), lambda: _oil5(2), lambda: _oil5(4), lambda: 3)),
    "1.p1": Solution(
        lambda: sum(_pencil_coal()[:3]),
        lambda: (f"{sum(_pencil_coal()[:3])} Elektro: the 2 tokens on the space at 6 and one at 7, "
                 f"{' + '.join(map(str, _pencil_coal()[:3]))}. The marginal cost of the third is "
                 f"{_pencil_coal()[2]}, the average {_num(sum(_pencil_coal()[:3]) / 3)}."),
        (lambda: 3 * _pencil_coal()[0], lambda: 3 * _pencil_coal()[2], lambda: 3 * _pencil_coal()[-1])),
    "1.p2": Solution(
        lambda: sum(_pencil_coal()[3:5]),
        lambda: (f"{sum(_pencil_coal()[3:5])} Elektro: after your 3 tokens the track holds 2 at 7 and 3 at "
                 f"8, and Bo takes the two at 7. Before your purchase 2 coal would have cost him "
                 f"{sum(_pencil_coal()[:2])}: your buying raised his price by "
                 f"{sum(_pencil_coal()[3:5]) - sum(_pencil_coal()[:2])} (the externality of buying fuel)."),
        (lambda: sum(_pencil_coal()[:2]), lambda: sum(_pencil_coal()[:5]))),
}


# ---- lesson 2 ------------------------------------------------------------------------------------

CITY = lesson2.CITY


def _payback(fuel: bool = True, marginal: bool = True, cities: bool = True) -> float:
    g = _new()
    extra = marginal_income(g, 5, PLANTS[16].cities) if marginal else g.income(PLANTS[16].cities)
    price = 16 + (PLANTS[16].cities * CITY if cities else 0)
    return payback_rounds(price, extra, (g.fuel_cost(16) or 0) if fuel else 0)


def _payback_why() -> str:
    g = _new()
    extra, fuel = marginal_income(g, 5, PLANTS[16].cities), g.fuel_cost(16) or 0
    return (f"{_payback():.2f} rounds: (16 + 3 x {CITY}) / ({extra} - {fuel}). The plant earns only for "
            f"cities the player has, so its capital is the card and the cities: they are complements. "
            f"Counting the card alone ({_payback(cities=False):.2f} rounds) makes plants look far cheaper "
            "than they are.")


@functools.cache
def _scarce() -> Game:
    return _market(coal=4, oil=4)


def _recharged() -> Game:
    return new_game(4, edition="recharged", seed=1)


def _p21(card: bool = False, fuel: bool = True, whole: bool = False) -> float:
    """Exercise 2.p1: plant 25, 2 cities at 20, fuel 5, from 4 to 6 cities powered."""
    extra = _income(6) if whole else _income(6) - _income(4)
    return payback_rounds(25 + (0 if card else 2 * 20), extra, 5 if fuel else 0)


L2 = {
    "2.1": Solution(
        lambda: PLANTS[20].cities / PLANTS[20].tokens,
        lambda: (f"{PLANTS[20].cities / PLANTS[20].tokens:.2f} cities per token ({PLANTS[20].cities} / "
                 f"{PLANTS[20].tokens}): the higher, the less fuel each city's income needs."),
        (lambda: PLANTS[20].tokens / PLANTS[20].cities,)),
    "2.2": Solution(
        lambda: marginal_income(_new(), 5, 3),
        lambda: (f"{marginal_income(_new(), 5, 3)} Elektro: income(8) - income(5) = {_income(8)} - "
                 f"{_income(5)}. The payment table is concave, so the same plant adds less the more cities "
                 "a player already powers."),
        (lambda: _income(3), lambda: _income(8))),
    "2.3": Solution(_payback, _payback_why,
                    (lambda: _payback(cities=False), lambda: _payback(fuel=False),
                     lambda: _payback(marginal=False))),
    "2.4": Solution(
        lambda: _scarce().fuel_cost(12),
        lambda: (f"{_scarce().fuel_cost(12)} Elektro: one coal and one oil, each the cheapest token of its "
                 f"track; two coal cost {_scarce().market_cost(coal=2)} and two oil "
                 f"{_scarce().market_cost(oil=2)} (R46, R50). That is the hybrid's option: it never pays "
                 "more than the cheaper fuel and sometimes less."),
        (lambda: _scarce().market_cost(coal=2),)),
    "2.5": Solution(
        lambda: _recharged().min_bid(_recharged().discount),
        lambda: (f"{_recharged().min_bid(_recharged().discount)} Elektro whatever the plant's number (R40): "
                 "the discount token is a reserve price set low on purpose; unsold at the end of the phase "
                 "the plant leaves the market (R43)."),
        (lambda: _recharged().discount,)),
    "2.p1": Solution(
        _p21,
        lambda: (f"{_p21():.2f} rounds: (25 + 2 x 20) / ({_income(6)} - {_income(4)} - 5) = 65 / "
                 f"{_income(6) - _income(4) - 5}. The card alone would repay in {_p21(card=True):.2f} "
                 "rounds; the cities it needs are part of its capital."),
        (lambda: _p21(card=True), lambda: _p21(fuel=False), lambda: _p21(whole=True))),
    "2.p2": Solution(
        lambda: _income(8) - _income(3) - 18,
        lambda: (f"{_income(8) - _income(3) - 18} Elektro: income(8) - income(3) - 18 = {_income(8)} - "
                 f"{_income(3)} - 18, so run it. The 40 Elektro paid last round are sunk: gone whether it "
                 "runs or not, so they do not enter the decision."),
        (lambda: _income(8) - _income(3) - 18 - 40, lambda: _income(8) - _income(3),
         lambda: _income(8) - 18)),
}


# ---- lesson 3 ------------------------------------------------------------------------------------

@functools.cache
def _bremen() -> Game:
    """Ada's only house is in Bremen; the play area holds Bremen, Erfurt, Dresden and Nürnberg."""
    sc = Scenario.new(4, seed=1, regions=["cyan", "red", "yellow", "brown"])
    sc.set_cities("Ada", ["Bremen"])
    sc.set_money("Ada", 200)
    sc.set_phase(Phase.BUILDING)
    return sc.game()


def _fork(cities: list[str]) -> int:
    return plan_targets(_bremen(), "Ada", cities).total  # type: ignore[union-attr]


def _fork_why() -> str:
    g, fork = _bremen(), lesson3.FORK
    links = links_paid(g, "Ada", fork)
    twice = links[links["paid"] > 1]
    again = ", ".join(f"{r.link} ({r.cost} Elektro)" for r in twice.itertuples())
    saving = _fork(fork) - steiner_estimate(g, "Ada", fork)
    return (f"{_fork(fork)} Elektro: each city pays its whole path from the network (R60, R62), and "
            + (f"both paths run over {again}, so it is paid twice. " if len(twice) else "")
            + f"A Steiner tree that pays each link once would charge {saving} Elektro less, but links are "
            f"never owned. A house in Erfurt, where the paths fork, makes the three cities cost "
            f"{_fork(['Erfurt', *fork])}.")


def _alone(city: str) -> int:
    return _bremen().build_cost("Ada", city)


def _cheapest3(links: bool = True) -> int:
    g = _new()
    cities, total = cheapest_cities(g, g.players[0], 3) or ((), 0)
    return total if links else sum(g.slot_prices(g.players[0])[c] for c in cities)


def _cheapest3_cities() -> str:
    g = _new()
    cities, _ = cheapest_cities(g, g.players[0], 3) or ((), 0)
    return ", ".join(cities)


def _most_links() -> list[str]:
    c = centrality(_new())
    return sorted(set(c.index[c["degree"] == c["degree"].max()]) - {str(c.index[0])})


def _small_map() -> nx.Graph:
    g = nx.Graph()
    for (a, b), cost in lesson3.GRAPH.items():
        g.add_edge(a, b, cost=cost)
    return g


def _path(frm: set[str], to: str) -> int:
    return min(nx.shortest_path_length(_small_map(), f, to, weight="cost") for f in frm)


def _small(order: tuple[str, str], slots: bool = True, chained: bool = True) -> int:
    """Exercise 3.p1: the cost of adding ``order`` to a network in A, one after the other."""
    first, second = order
    links = _path({"A"}, first) + _path({"A", first} if chained else {"A"}, second)
    return links + (2 * _new().rules.tables["build_prices"][0] if slots else 0)


def _slot(k: int) -> int:
    return _new().rules.tables["build_prices"][k]


L3 = {
    "3.1": Solution(
        lambda: _slot(1),
        lambda: (f"{_slot(1)} Elektro: the second slot of the city (the slots cost "
                 f"{', '.join(map(str, _new().rules.tables['build_prices']))}, R56). Being first into a city "
                 f"saves {_slot(1) - _slot(0)} in Step 2 and keeps the city out of reach in Step 1."),
        (lambda: _slot(0), lambda: _slot(0) + _slot(1))),
    "3.2": Solution(
        _cheapest3,
        lambda: (f"{_cheapest3()} Elektro for {_cheapest3_cities()}: three slots and the links from the "
                 "first city to the other two, each city paying its own path (R59, R60)."),
        (lambda: _cheapest3(links=False),)),
    "3.3": Solution(
        lambda: _fork(lesson3.FORK), _fork_why,
        (lambda: steiner_estimate(_bremen(), "Ada", lesson3.FORK), lambda: _fork(["Erfurt", *lesson3.FORK]),
         lambda: _alone("Nürnberg") + _alone("Dresden"))),
    "3.4": Solution(
        lambda: str(centrality(_new()).index[0]),
        lambda: (f"{centrality(_new()).index[0]}: its cheapest paths to the other cities in play cost "
                 f"{centrality(_new())['mean_cost'].iloc[0]:.1f} Elektro on average, the lowest. Closeness "
                 "weighs every link by its cost; the most central city is the cheapest place to reach, "
                 "and to grow from, in every direction."),
        tuple((lambda c=c: c) for c in _most_links())),
    "3.p1": Solution(
        lambda: min(_small(("C", "D")), _small(("D", "C"))),
        lambda: (f"{min(_small(('C', 'D')), _small(('D', 'C')))} Elektro: C first, over the direct link "
                 f"A–C ({_path({'A'}, 'C')}, cheaper than A–B–C), then D from C ({_path({'C'}, 'D')}), and "
                 f"two slots of {_slot(0)}. D first would cost {_small(('D', 'C'))}: its path from A is "
                 "dear, and the order of the cities matters."),
        (lambda: _small(("D", "C")), lambda: _small(("C", "D"), slots=False),
         lambda: _small(("C", "D"), chained=False))),
    "3.p2": Solution(
        lambda: min(_slot(0) + 14, _slot(1) + 8),
        lambda: (f"{min(_slot(0) + 14, _slot(1) + 8)} Elektro, in Y: {_slot(1)} + 8, against X at "
                 f"{_slot(0)} + 14 = {_slot(0) + 14}. Following the rival costs {_slot(1) - _slot(0)} more "
                 "in slot and saves 6 in links."),
        (lambda: _slot(0) + 8, lambda: _slot(0) + 14)),
}


# ---- lesson 4 ------------------------------------------------------------------------------------

def _order() -> list[str]:
    return player_order(lesson4.CITIES, lesson4.BIGGEST)


def _extra(n: int) -> int:
    g = _germany()
    return (g.market_cost(coal=2 * n) - g.market_cost(coal=n)) - g.market_cost(coal=n)


def _leader_first(keep: list[int]) -> set[int]:
    reversed_ = set(new_game(4, seed=1, rules={"reverse_order": keep}).rules.tables["reverse_order"])
    return {Phase.AUCTION.value} | ({p.value for p in REVERSIBLE} - reversed_)


PENCIL4 = ({"Ada": 7, "Bo": 7, "Cy": 8}, {"Ada": 22, "Bo": 25, "Cy": 15})


def _oil9(k: int) -> int:
    return _market(oil=9).market_cost(oil=k)


L4 = {
    "4.1": Solution(
        _order,
        lambda: (f"{', '.join(_order())}. Most cities first (R18); Bo and Cy both have 6, and the tie goes "
                 "to the bigger plant (R19): Cy's 31 beats Bo's 20. Then Ada (5) and Dee (4)."),
        (lambda: ["Bo", "Cy", "Ada", "Dee"], lambda: list(reversed(_order())))),
    "4.2": Solution(
        lambda: _order()[-1],
        lambda: (f"{_order()[-1]}. Phase 3 goes in reverse player order (R45): the last player, the one with "
                 "the fewest cities, buys first and gets the cheapest tokens."),
        (lambda: _order()[0],)),
    "4.3": Solution(
        lambda: _extra(4),
        lambda: (f"{_extra(4)} Elektro: the first buyer pays {_germany().market_cost(coal=4)} for the 4 "
                 f"cheapest tokens, the second "
                 f"{_germany().market_cost(coal=8) - _germany().market_cost(coal=4)} for the next 4, each "
                 "space dearer. The difference is what going later costs in this phase."),
        (lambda: _germany().market_cost(coal=8) - _germany().market_cost(coal=4),
         lambda: _germany().market_cost(coal=8))),
    "4.4": Solution(
        lambda: wilson(7, 10)[0],
        lambda: (f"{wilson(7, 10)[0]:.3f}: wilson(7, 10) is about ({wilson(7, 10)[0]:.2f}, "
                 f"{wilson(7, 10)[1]:.2f}). With 10 games the interval is wide and not centred on 0.7, "
                 "because a share cannot go above 1."),
        (lambda: 0.7 - 1.96 * (0.7 * 0.3 / 10) ** 0.5, lambda: 0.7)),
    "4.5": Solution(
        lambda: _leader_first([4]),
        lambda: (f"Phases {' and '.join(map(str, sorted(_leader_first([4]))))}: the auction (phase 2) "
                 "always starts with the first player (R26). reverse_order=[4] keeps only building in "
                 "reverse order, so resources (phase 3) now go in player order, leader first."),
        (lambda: {3}, lambda: {2, 4})),
    "4.p1": Solution(
        lambda: player_order(*PENCIL4)[-1],
        lambda: (f"{player_order(*PENCIL4)[-1]}. The player order is {', '.join(player_order(*PENCIL4))}: Cy "
                 "has the most cities (R18), and Bo's plant 25 beats Ada's 22 in their tie (R19). Phase 4 "
                 "goes in reverse (R54), so the last player builds first."),
        (lambda: player_order(*PENCIL4)[0], lambda: player_order(*PENCIL4)[1])),
    "4.p2": Solution(
        lambda: (_oil9(6) - _oil9(3)) - _oil9(3),
        lambda: (f"{(_oil9(6) - _oil9(3)) - _oil9(3)} Elektro: Bo takes the 3 tokens at 6 ({_oil9(3)}), you "
                 f"the 3 at 7 ({_oil9(6) - _oil9(3)}). Going later costs one price step on every token."),
        (lambda: _oil9(6) - _oil9(3), lambda: _oil9(6))),
}


# ---- lesson 5 ------------------------------------------------------------------------------------

L5 = {
    "5.1": Solution(
        lambda: _income(7) - _income(6),
        lambda: (f"{_income(7) - _income(6)} Elektro: {_income(7)} - {_income(6)}, the marginal income of "
                 f"the 7th city (R110). The average per city at 7 is {_income(7) / 7:.2f}: the table is "
                 "concave, so the marginal income lies below the average."),
        (lambda: _income(7), lambda: _income(7) / 7, lambda: _income(6))),
    "5.2": Solution(
        lambda: _income(12),
        lambda: (f"{_income(12)} Elektro: income counts cities powered, not cities owned (R110); the 2 "
                 f"cities without power earn nothing ({_income(14)} would be the income for 14)."),
        (lambda: _income(14),)),
    "5.3": Solution(
        lambda: int(end_cities_table().loc[2, "recharged"]),
        lambda: (f"{int(end_cities_table().loc[2, 'recharged'])} cities in Recharged (R96); the original "
                 f"needs {int(end_cities_table().loc[2, 'original'])} with 2 players."),
        (lambda: int(end_cities_table().loc[2, "original"]),
         lambda: int(end_cities_table().loc[3, "recharged"]))),
    "5.4": Solution(
        lambda: decided_by("original", lesson5.TIE)[0][0],
        lambda: (f"{decided_by('original', lesson5.TIE)[0][0]}. Ada and Bo tie on cities powered (R100) and "
                 "on money (R101); the original's second tie-break, cities in the network (R102), decides."),
        (lambda: "Cy", lambda: "Ada")),
    "5.5": Solution(
        lambda: decided_by("recharged", lesson5.TIE)[0],
        lambda: (f"{' and '.join(decided_by('recharged', lesson5.TIE)[0])} share the victory: Recharged has "
                 "no second tie-break (R102), and they are level on powered cities and money."),
        (lambda: ["Bo"], lambda: ["Cy"])),
    "5.p1": Solution(
        lambda: 35 / (_income(10) - _income(8)),
        lambda: (f"{35 / (_income(10) - _income(8)):.2f} rounds: 35 / ({_income(10)} - {_income(8)}). The "
                 f"9th and 10th city add {_income(10) - _income(8)} Elektro a round together, less than "
                 f"twice the average income per city at 10 ({_income(10) / 10:.1f}): marginal, not average."),
        (lambda: 35 / _income(10), lambda: 35 / (2 * _income(10) / 10))),
    "5.p2": Solution(
        lambda: decided_by("original", {"Ada": (13, 2, 13), "Bo": (12, 35, 12)})[0][0],
        lambda: (f"{decided_by('original', {'Ada': (13, 2, 13), 'Bo': (12, 35, 12)})[0][0]}: cities powered "
                 "decide first (R100), 13 against 12; money (R101) only separates players level on them. At "
                 "the end, money is worth only what it buys before the count."),
        (lambda: "Bo",)),
}


# ---- lesson 6 ------------------------------------------------------------------------------------

def _capped_loss(powered: int) -> int:
    return _new().income(powered) - new_game(4, seed=1, rules={"payment": lesson6.capped()}).income(powered)


L6 = {
    "6.1": Solution(
        lambda: _capped_loss(14),
        lambda: (f"{_capped_loss(14)} Elektro: {_income(14)} under the standard table, {_income(10)} capped "
                 "(the value for 10 cities, repeated). The rule takes this much from a big network each "
                 "round, and nothing from players powering 10 or fewer."),
        (lambda: _income(14), lambda: _income(14) - _capped_loss(14))),
    "6.2": Solution(
        lambda: {k for k, v in lesson6.DIFFERENCES.items() if established(*v)},
        lambda: (f"{' and '.join(sorted(k for k, v in lesson6.DIFFERENCES.items() if established(*v)))}: an "
                 "effect is established when the whole interval lies on one side of zero: B (longer) and D "
                 "(shorter). A and C include zero: their games cannot tell, however big or small the mean."),
        (lambda: {k for k, v in lesson6.DIFFERENCES.items() if v[0] > 0},
         lambda: {k for k, v in lesson6.DIFFERENCES.items() if abs(v[0]) >= 0.4})),
    "6.3": Solution(
        lambda: 4,
        lambda: "4: half the width needs sqrt(k) = 2, so k = 4 times the games. Precision is expensive.",
        (lambda: 2,)),
    "6.4": Solution(
        lambda: games_for_half_width(0.25, 0.05),
        lambda: (f"{games_for_half_width(0.25, 0.05)} games. The Wilson interval of a share below one half "
                 "reaches further up than down, so its upper end decides; the spread sqrt(p(1-p)/n) is "
                 "smaller at p = 0.25 than at one half, so fewer games do than the 1/sqrt(n) rule's 400, and "
                 f"more than the normal approximation's {_normal_games(0.25, 0.05)}."),
        (lambda: 400, lambda: _normal_games(0.25, 0.05))),
    "6.p1": Solution(
        lambda: 40 * (8 / 2) ** 2,
        lambda: (f"{40 * (8 / 2) ** 2:.0f} games: ±2 is a quarter of ±8, and the width goes with "
                 "1/sqrt(games), so the games must grow 4² = 16 times."),
        (lambda: 40 * 4, lambda: 40 * 2)),
    "6.p2": Solution(
        lambda: 20 * 0.05,
        lambda: (f"{20 * 0.05:.0f}: each interval excludes the true value in 5 cases of 100, and "
                 "20 x 0.05 = 1. One 'significant' result among 20 tests is what chance alone gives."),
        (lambda: 0, lambda: 19)),
}


def _normal_games(p: float, half: float) -> int:
    return math.ceil(1.96 ** 2 * p * (1 - p) / half ** 2)


SOLUTIONS: dict[str, Solution] = {**L1, **L2, **L3, **L4, **L5, **L6}


# ---- the locks and the teacher's answers, written from the solutions -----------------------------

def _lock(ex: Exercise, sol: Solution) -> Lock:
    right = sol.answer()
    return Lock(answer_hash(ex.id, ex.kind, right, ex.step), seal(ex.id, ex.kind, right, sol.why(), ex.step),
                tuple(None if m.matches is not None
                      else answer_hash(ex.id, ex.kind, wrong(), m.step or ex.step)
                      for m, wrong in zip(ex.mistakes, sol.mistakes, strict=True)))


def _chunks(text: str, width: int = 94) -> list[str]:
    return [text[i:i + width] for i in range(0, len(text), width)] or [""]


def locks_source(lesson: int) -> str:
    """The ``LOCKS`` block of ``questions/lessonN.py``, computed from the solutions."""
    out = ["LOCKS: dict[str, Lock] = {"]
    for ex in exercises(lesson):
        lk = _lock(ex, SOLUTIONS[ex.id])
        out.append(f'    "{ex.id}": Lock(')
        out.append(f'        "{lk.answer}",')
        sealed = _chunks(lk.explanation)
        out.extend(f'        "{c}"' for c in sealed[:-1])
        out.append(f'        "{sealed[-1]}",')
        out.append("        (")
        out.extend(f'            "{k}",' if k else "            None," for k in lk.mistakes)
        out.append("        ),")
        out.append("    ),")
    out.append("}")
    return "\n".join(out) + "\n"


def _decimals(step: float) -> int:
    return max(0, -math.floor(math.log10(step) + 1e-9))


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def shown(ex: Exercise, value: Any, unit: bool = True, step: float | None = None) -> str:
    """An answer as the teacher reads it (a number to the decimals of ``step``, else the exercise's)."""
    if ex.kind == "number":
        text = f"{float(value):.{_decimals(step or ex.step)}f}"
        return f"{text} {ex.unit}".strip() if unit else text
    if ex.kind == "set":
        return "{" + ", ".join(repr(x) for x in sorted(value)) + "}"
    if ex.kind == "list":
        return repr(list(value))
    return str(value)


TITLES = {1: "The resource market", 2: "Power plants as capital", 3: "Networks",
          4: "Turn order and catch-up", 5: "Income and the endgame", 6: "The what-if lab"}


def answers_markdown() -> str:
    """``notebooks/lessons/ANSWERS.md``: every exercise's answer and reasoning, computed."""
    out = ["# Answers to the lessons' exercises", "",
           "For the teacher: every exercise of the six lessons with its answer, the reasoning a student "
           "reads after answering it right, and the typical wrong answers with what each one misses. "
           "Items marked *pencil and paper* are answered by reasoning, without code. The package "
           "holds these answers only hashed; this file is written from the answers the tests compute "
           "(`python tests/test_lessons_checker.py write`), and a test fails when it falls behind.", ""]
    for n in range(1, LESSONS + 1):
        out += [f"## Lesson {n}: {TITLES[n]}", ""]
        for ex in exercises(n):
            sol = SOLUTIONS[ex.id]
            question = ex.question.removeprefix("Pencil and paper. ").removeprefix("Pencil and paper, ")
            out += [f"### {ex.id}{' (pencil and paper)' if ex.pencil else ''}", "", _sentence(question), "",
                    f"**Answer:** {shown(ex, sol.answer())}", "", sol.why(), ""]
            if ex.mistakes:
                out += ["Typical wrong answers:", ""]
                out += [f"- {shown(ex, wrong(), unit=False, step=m.step)}: {m.why}"
                        for m, wrong in zip(ex.mistakes, sol.mistakes, strict=True)]
                out.append("")
    return "\n".join(out).rstrip() + "\n"


def write() -> None:
    """Write the locks into the questions and the answers into ANSWERS.md."""
    for n in range(1, LESSONS + 1):
        path = QUESTIONS / f"lesson{n}.py"
        text = path.read_text(encoding="utf-8")
        head = text[:text.index("LOCKS: dict[str, Lock] = {")]
        path.write_text(head + locks_source(n), encoding="utf-8")
    ANSWERS.write_text(answers_markdown(), encoding="utf-8")


STALE = "the stored answers are behind: run `python tests/test_lessons_checker.py write`"


# ---- the checker, on an exercise of its own --------------------------------------------------------

def _locked(ex: Exercise, right: Any, why: str, wrongs: tuple[Any, ...] = ()) -> Exercise:
    sol = Solution(lambda: right, lambda: why, tuple((lambda w=w: w) for w in wrongs))
    return replace(ex, lock=_lock(ex, sol))


SQUARE = _locked(Exercise("9.1", "What is 3 squared?", unit="Elektro",
                          mistakes=(Mistake("that is 3 + 3, not 3 x 3."),
                                    Mistake("that is 3 cubed.", matches=lambda a: a > 20)),
                          hint="multiply 3 by itself."),
                 9, "3 x 3 = 9.", (6, 27))


def test_a_right_number_passes_with_the_explanation() -> None:
    v = SQUARE.check(9.0)
    assert v and v.correct and v.message == "3 x 3 = 9."
    assert "Right" in v._repr_html_() and "9.1" in str(v)
    assert "&lt;b&gt;" in _locked(Exercise("9.7", "q"), 1, "<b>").check(1)._repr_html_()


def test_a_typical_wrong_number_gets_its_explanation() -> None:
    assert SQUARE.check(6).message == "that is 3 + 3, not 3 x 3."
    assert SQUARE.check(30).message == "that is 3 cubed."  # matches widens the family


def test_any_other_wrong_number_gets_the_hint() -> None:
    v = SQUARE.check(8)
    assert not v and v.message == "multiply 3 by itself."


@pytest.mark.parametrize("answer,says", [("nine", "a number (Elektro)"), (True, "a number"),
                                         (None, "no answer yet"), (..., "no answer yet")])
def test_an_answer_of_the_wrong_kind_says_what_kind_is_wanted(answer, says) -> None:
    v = SQUARE.check(answer)
    assert not v and says in v.message


def test_a_number_written_as_text_is_told_to_drop_the_quotes() -> None:
    v = SQUARE.check("9")
    assert not v and "without quotes" in v.message


def test_tolerance_text_set_and_list_comparisons() -> None:
    near = _locked(Exercise("9.2", "q", tolerance=0.01, step=0.001), 0.25, "ok")
    assert near.check(0.255) and near.check(0.241) and not near.check(0.27)
    text = _locked(Exercise("9.3", "q", kind="text"), "Coal", "ok")
    assert text.check("  coal ") and not text.check("oil") and not text.check(3)
    group = _locked(Exercise("9.4", "q", kind="set"), ["Berlin", "Essen"], "ok")
    assert group.check(("essen", "berlin")) and not group.check(["Essen"]) and not group.check("Essen")
    seq = _locked(Exercise("9.5", "q", kind="list", items="number"), [1, 2, 3], "ok")
    assert seq.check([1.0, 2, 3]) and not seq.check([3, 2, 1])
    with pytest.raises(ValueError, match="kind"):
        Exercise("9.6", "q", kind="guess")


def test_a_sealed_explanation_opens_only_with_the_right_answer() -> None:
    sealed = seal("9.8", "number", 42, "because 6 x 7")
    assert unseal("9.8", "number", 42, sealed) == "because 6 x 7"
    assert "because" not in sealed and "42" not in sealed
    for wrong in (41, 43, 420):
        try:
            opened = unseal("9.8", "number", wrong, sealed)
        except UnicodeDecodeError:  # another key gives bytes that are mostly not even text
            opened = None
        assert opened != "because 6 x 7"
    assert answer_hash("9.8", "number", 42) != answer_hash("9.9", "number", 42), "salted by the exercise"


def test_unknown_exercise_lists_the_known_ones() -> None:
    with pytest.raises(KeyError, match="the exercises are"):
        check("0.0", 1)


# ---- the course's exercises ----------------------------------------------------------------------

ALL = [e.id for e in exercises()]


def test_every_lesson_has_exercises_and_two_or_three_pencil_items() -> None:
    for n in range(1, LESSONS + 1):
        found = exercises(n)
        assert len([e for e in found if not e.pencil]) >= 2, f"lesson {n} has too few exercises"
        assert 2 <= len([e for e in found if e.pencil]) <= 3, f"lesson {n}'s pencil items"
        assert all(re.fullmatch(rf"{n}\.p?\d+", e.id) for e in found)


def test_every_exercise_has_a_solution_and_every_solution_an_exercise() -> None:
    assert sorted(SOLUTIONS) == sorted(ALL)


@pytest.mark.parametrize("eid", ALL)
def test_each_exercise_accepts_its_computed_answer_and_explains_it(eid) -> None:
    sol = SOLUTIONS[eid]
    v = check(eid, sol.answer())
    assert v.correct, f"{v.message} ({STALE})"
    assert v.message == sol.why(), STALE
    assert len(v.message) > 20


@pytest.mark.parametrize("eid", ALL)
def test_each_typical_wrong_answer_gets_its_why(eid) -> None:
    ex, sol = exercise(eid), SOLUTIONS[eid]
    assert ex.mistakes, f"exercise {eid} names no typical wrong answer"
    assert len(sol.mistakes) == len(ex.mistakes)
    for m, wrong in zip(ex.mistakes, sol.mistakes, strict=True):
        assert not ex.accepts(wrong()), f"{eid}: the mistake {wrong()!r} is the right answer"
        v = check(eid, wrong())
        assert not v.correct and v.message == m.why, f"{eid}: {wrong()!r} gets {v.message!r} ({STALE})"


NUMBERS = [e.id for e in exercises() if e.kind == "number"]


@pytest.mark.parametrize("eid", NUMBERS)
def test_a_number_is_accepted_within_its_tolerance_and_refused_beyond(eid) -> None:
    ex = exercise(eid)
    right = float(SOLUTIONS[eid].answer())
    grid = round(right / ex.step) * ex.step  # the stored value: the right answer on the exercise's grid
    for inside in (grid - ex.tolerance, grid, grid + ex.tolerance):
        assert ex.accepts(inside), f"{eid}: {inside} is within {ex.tolerance} of {grid}"
    for outside in (grid - ex.tolerance - ex.step, grid + ex.tolerance + ex.step):
        assert not ex.accepts(outside), f"{eid}: {outside} is beyond the tolerance"


@pytest.mark.parametrize("eid", ALL)
def test_the_package_holds_no_readable_answer(eid) -> None:
    ex, right = exercise(eid), SOLUTIONS[eid].answer()
    assert not hasattr(ex, "answer") and not hasattr(ex, "explanation")
    source = (QUESTIONS / f"lesson{eid.split('.')[0]}.py").read_text(encoding="utf-8")
    assert SOLUTIONS[eid].why() not in source
    said = " ".join([ex.hint, *(m.why for m in ex.mistakes)]) if ex.kind == "number" else ex.hint
    if ex.kind == "number":
        words = {shown(ex, right).split()[0], f"{float(right):g}"}
        words = {w for w in words if abs(float(right)) >= 10 or "." in w}  # a small digit is everywhere
    elif ex.kind == "text":
        words = {str(right)}
    else:
        words = set() if len(ex.mistakes) else {str(x) for x in right}
    for w in words:
        assert not re.search(rf"(?<![\w.]){re.escape(w)}(?![\w])", said, re.I), f"{eid} says {w!r}"


@pytest.mark.parametrize("eid", ALL)
def test_no_hint_hands_over_a_call(eid) -> None:
    hint = exercise(eid).hint
    calls = set(re.findall(r"\b([A-Za-z_][\w.]*)\(", hint)) - {"sqrt"}
    assert hint and "`" not in hint and not calls, f"{eid}'s hint names {calls or 'code'}: point at the idea"


# ---- the gaps a teacher found, each with its own feedback ----------------------------------------

def test_5_1_takes_a_whole_number_and_recognises_the_average_however_it_is_rounded() -> None:
    """A count of Elektro is whole: 9.0 is 9, 9.5 is not; the average per city is known rounded or not."""
    right = _income(7) - _income(6)
    assert check("5.1", float(right)) and not check("5.1", right + 0.5)
    average = "the average income per city"
    average_per_city = _income(7) / 7
    for written in (average_per_city, round(average_per_city, 2), round(average_per_city, 1),
                    round(average_per_city)):
        assert average in check("5.1", written).message


def test_2_1_an_answer_rounded_or_cut_to_one_decimal_is_told_so() -> None:
    per_token = PLANTS[20].cities / PLANTS[20].tokens
    assert check("2.1", round(per_token, 2)) and check("2.1", round(per_token, 3))
    assert "rounded too early" in check("2.1", round(per_token, 1)).message
    assert "cut off" in check("2.1", math.floor(per_token * 10) / 10).message


def test_1_5_an_answer_one_token_off_is_told_it_counted_one_too_many_or_few() -> None:
    assert "one token too few" in check("1.5", _oil5(2)).message
    assert "one token too many" in check("1.5", _oil5(4)).message


def test_4_5_phase_numbers_written_as_texts_are_told_to_drop_the_quotes() -> None:
    v = check("4.5", {str(p) for p in _leader_first([4])})
    assert not v and "numbers" in v.message and "without quotes" in v.message
    assert check("4.5", _leader_first([4]))


def test_4_1_the_order_given_as_a_set_is_told_that_the_order_matters() -> None:
    v = check("4.1", set(_order()))
    assert not v and "order matters" in v.message and "list" in v.message


def test_4_4_a_share_given_as_a_percentage_is_told_to_give_a_share() -> None:
    percent = 100 * wilson(7, 10)[0]
    for written in (round(percent, 1), f"{percent:.1f}%"):
        v = check("4.4", written)
        assert not v and "right share written as a percentage" in v.message
    assert "share between 0 and 1" in check("4.4", 70).message


def test_4_4_a_share_cut_to_two_decimals_is_told_to_round() -> None:
    low = wilson(7, 10)[0]
    assert check("4.4", round(low, 2)) and "cut off" in check("4.4", math.floor(low * 100) / 100).message


def test_3_3_the_price_of_three_cities_with_the_fork_gets_its_own_feedback() -> None:
    v = check("3.3", _fork(["Erfurt", *lesson3.FORK]))
    assert not v and "three cities" in v.message and "Erfurt" in v.message


# ---- the teacher's answers -----------------------------------------------------------------------

def test_answers_md_states_every_computed_answer() -> None:
    text = ANSWERS.read_text(encoding="utf-8")
    assert text == answers_markdown(), STALE
    for ex in exercises():
        assert f"### {ex.id}" in text and f"**Answer:** {shown(ex, SOLUTIONS[ex.id].answer())}" in text


def test_answers_md_stays_out_of_the_wheel() -> None:
    import tomllib
    build = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["hatch"]["build"]
    assert build["targets"]["wheel"]["packages"] == ["powergrid_nb"]
    assert "notebooks" not in build["targets"]["wheel"].get("force-include", {})
    assert ANSWERS.relative_to(ROOT).parts[0] == "notebooks"


def test_rules_box_shows_the_shipped_rule_texts() -> None:
    box = rules_box("R45", "R54", title="Turn order")
    md = box._repr_markdown_()
    assert "<details>" in md and "Turn order" in md and "reverse player order" in md
    assert str(box).startswith("R45")
    with pytest.raises(ValueError):
        rules_box()


if __name__ == "__main__":
    if sys.argv[1:] != ["write"]:
        sys.exit("usage: python tests/test_lessons_checker.py write")
    write()
