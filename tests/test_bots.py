"""HeuristicBot and SearchBot: never an illegal move, reproducible, fair, sensible play.

The long property run (thousands of games) and the measured strength bars are in benchmarks/bots.py.
"""

from __future__ import annotations

import math

import pytest

from powergrid_nb import Bid, Build, Discard, Done, Game, Open, Power, new_game
from powergrid_nb.bots.base import Bot, RandomBot, play
from powergrid_nb.bots.expansion import greedy_cities
from powergrid_nb.bots.fuel import fuel_plan
from powergrid_nb.bots.heuristic import HeuristicBot
from powergrid_nb.bots.planner import cheapest_cities, cheapest_k
from powergrid_nb.bots.search import SearchBot
from powergrid_nb.engine.phases.resources import TOTALS
from powergrid_nb.engine.rules.plants import RESOURCES, capacities, fits
from powergrid_nb.play.tournaments import tournament

EDITIONS = ("original", "recharged")
MAPS = ("germany", "usa")
CONFIGS = [(e, m, n) for e in EDITIONS for m in MAPS for n in range(2, 7)]


def play_checked(g, bots: list[Bot], limit: int = 20_000) -> int:
    """Play to the end asserting every decision is one of ``legal_actions()``; returns decisions."""
    seats = dict(zip(g.players, bots, strict=True))
    n = 0
    while not g.is_over:
        a = seats[g.current_player].act(g)
        assert a in g.legal_actions(), f"{a} is not legal in {g!r}"
        g.apply(a)
        n += 1
        assert n < limit, f"no end after {limit} decisions: {g!r}"
    return n


def at(players: int = 4, rnd: int = 2, phase: int = 3, seed: int = 5, **kw):
    """A heuristic self-play game stopped at the first decision of ``phase`` in round ``rnd``."""
    g = new_game(players, seed=seed, **kw)
    play(g, [HeuristicBot(i) for i in range(players)], until=lambda h: h.round == rnd and h.phase == phase)
    assert not g.is_over and g.phase == phase
    return g


def poke(g: Game, name: str, plants=None, tokens=None, money=None, cities=None, **state) -> Game:
    """``g`` with one player's plants, tokens, money and cities set, through the save format: a new game
    in the edited position. Plants come from wherever they lie (the deck's top plant takes a market or
    rival's place; a rival's tokens go if they no longer fit), the plants given up go to the box, houses
    move, and the market gives up tokens if R1 needs it. ``state``: saved-state fields to update too."""
    d = g.to_dict()
    st = d["state"]
    _update(st, state)
    me = st["players"][name]
    if plants is not None:
        for c in plants:
            if c in me["plants"]:
                continue
            piles = [st[w] for w in ("market", "deck", "removed", "boxed")]
            pile = next(w for w in [*piles, *(p["plants"] for p in st["players"].values())] if c in w)
            at = pile.index(c)
            if pile is st["deck"] or pile is st["removed"] or pile is st["boxed"]:
                del pile[at]
            else:  # from the market or a rival: the top plant of the deck takes its place
                pile[at] = next(x for x in st["deck"] if x != "step3")
                st["deck"].remove(pile[at])
        st["boxed"] += [c for c in me["plants"] if c not in plants]
        me["plants"] = list(plants)
        for rival in st["players"].values():  # a rival that lost a plant may lose its tokens too (R49)
            held = [rival["tokens"].get(r, 0) for r in RESOURCES]
            if rival is not me and not fits(capacities(rival["plants"]), held):
                rival["tokens"] = {}
    if tokens is not None:
        me["tokens"] = dict(zip(RESOURCES, tokens, strict=True))
        for k, r in enumerate(RESOURCES):
            held = sum(p["tokens"].get(r, 0) for p in st["players"].values())
            st["resources"][r] = min(st["resources"][r], TOTALS[k] - held)
    if money is not None:
        me["money"] = money
    if cities is not None:
        houses = st["houses"]
        for c in me["cities"]:
            houses[c].remove(name)
            if not houses[c]:
                del houses[c]
        for c in cities:
            houses.setdefault(c, []).append(name)
        me["cities"] = list(cities)
    return Game.from_dict(d)


def _update(st: dict, state: dict) -> None:
    for key, value in state.items():
        st[key] = {**st[key], **value} if isinstance(value, dict) else value


def free_cities(g: Game) -> list[str]:
    return [c for c in g.play_area if not g.owners(c)]


def clear_board(g: Game) -> Game:
    for name in g.players:
        g = poke(g, name, cities=[])
    return g


def turn(g, bot: Bot, name: str) -> list:
    """Let ``bot`` play ``name``'s decisions until someone else is to act; the actions."""
    out = []
    while not g.is_over and g.current_player == name:
        a = bot.act(g)
        assert a in g.legal_actions()
        g.apply(a)
        out.append(a)
    return out


# --- never illegal -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("edition", "map_", "players"), CONFIGS)
def test_heuristic_never_illegal(edition, map_, players):
    """Self-play, and a game with start cities against random bots, in every edition, map, player count."""
    seed = 100 * players + len(edition) + len(map_)
    g = new_game(players, map=map_, edition=edition, seed=seed)
    play_checked(g, [HeuristicBot(seed + i) for i in range(players)])
    assert g.is_over and g.winners
    g = new_game(players, map=map_, edition=edition, seed=seed + 1, starting_cities=True)
    play_checked(g, [HeuristicBot(i) if i % 2 == 0 else RandomBot(i) for i in range(players)])
    assert g.is_over


@pytest.mark.provisional
@pytest.mark.parametrize("map_", MAPS)
def test_heuristic_trust_game_never_illegal(map_):
    """R128-R133: the 2-player Recharged game against the Trust."""
    g = new_game(2, map=map_, edition="recharged", seed=7)
    assert g.trust == "Trust"
    play_checked(g, [HeuristicBot(1), HeuristicBot(2)])
    assert g.is_over and set(g.winners) <= {"Ada", "Bo"}


@pytest.mark.parametrize(("edition", "map_", "players"), [
    ("recharged", "germany", 3), ("recharged", "usa", 5), ("original", "usa", 4)])
def test_heuristic_starting_cities_never_illegal(edition, map_, players):
    """R134-R136: marks start cities, founds its network in one of them."""
    g = new_game(players, map=map_, edition=edition, seed=11, starting_cities=True)
    assert g.phase == 0
    play_checked(g, [HeuristicBot(i) for i in range(players)])
    marked = set(g.marked_cities)
    assert len(marked) == players
    assert all(g.cities_of(n)[0] in marked for n in g.players if g.cities_of(n))


@pytest.mark.parametrize(("players", "edition", "map_", "options"), [
    (3, "original", "germany", {}),
    (2, "recharged", "usa", {}),  # with the Trust
    (4, "recharged", "germany", {"starting_cities": True}),
])
def test_search_never_illegal(players, edition, map_, options):
    g = new_game(players, map=map_, edition=edition, seed=3, **options)
    bot = SearchBot(1, rollouts=1, horizon=1)
    play_checked(g, [bot] + [HeuristicBot(i) for i in range(1, players)])
    assert g.is_over and bot.searched > 0 and bot.simulations >= bot.searched


# --- reproducible and fair -----------------------------------------------------------------------------

def test_same_seed_same_game():
    runs = []
    for _ in range(2):
        g = new_game(4, seed=21)
        play(g, [HeuristicBot(1), RandomBot(2), HeuristicBot(3), RandomBot(4)])
        runs.append(g.actions)
    assert runs[0] == runs[1]


def test_search_same_seed_same_game():
    runs = []
    for _ in range(2):
        g = new_game(3, seed=4)
        play(g, [SearchBot(9, rollouts=1, horizon=1), HeuristicBot(1), HeuristicBot(2)])
        runs.append(g.actions)
    assert runs[0] == runs[1]


def test_heuristic_sees_only_its_view():
    """The choice does not depend on how the hidden cards were dealt (R10/R11 deck order)."""
    g = new_game(4, seed=8)
    bots = [HeuristicBot(i) for i in range(4)]
    seats = dict(zip(g.players, bots, strict=True))
    checked = 0
    while not g.is_over and g.round <= 6:
        me = g.current_player
        if len(g.actions) % 7 == 0:
            a1 = HeuristicBot(0).choose(g.for_player(me, seed=1))
            a2 = HeuristicBot(0).choose(g.for_player(me, seed=2))
            assert a1 == a2
            checked += 1
        g.apply(seats[me].act(g))
    assert checked > 20


def test_heuristic_beats_random():
    """The measured >= 90% bar is in benchmarks/bots.py; a small tournament here."""
    r = tournament([HeuristicBot, RandomBot], 20, players=4, seed=300, progress=False)
    assert r.summary.loc["heuristic", "win_rate"] >= 0.8


# --- sensible play: positions --------------------------------------------------------------------------

def test_heuristic_bids_within_its_limits():
    """It opens at the minimum and never raises above what it values the plant at (no overpaying)."""
    g = new_game(4, seed=12)
    bots = [HeuristicBot(0), RandomBot(1), RandomBot(2), HeuristicBot(3)]
    seats = dict(zip(g.players, bots, strict=True))
    bids = 0
    while not g.is_over:
        me = g.current_player
        bot = seats[me]
        if not isinstance(bot, HeuristicBot):
            g.apply(bot.act(g))
            continue
        view = g.for_player(me, seed=0)
        a = bot.choose(view)
        if isinstance(a, Open):
            assert a.bid == g.min_bid(a.plant)
        if isinstance(a, Bid):
            assert a.amount <= HeuristicBot().limits(view, me)[g.auction.plant]
            bids += 1
        g.apply(a)
    assert bids > 0


def test_fuel_for_the_cities_it_will_have():
    """Buys what its plants need for min(cities after building, capacity), money for building kept."""
    g = at(phase=3)
    me = g.current_player
    n = g.resource_market()["coal"]
    g = poke(g, me, plants=[4, 8], tokens=[0, 0, 0, 0], money=200, cities=free_cities(g)[:1])
    turn(g, HeuristicBot(), me)
    assert g.tokens_of(me) == {"coal": 5, "oil": 0, "garbage": 0, "uranium": 0}  # 4 and 8 for 3 cities
    assert g.money(me) == 200 - g.resource_track.buy_cost(0, n, 5)


def test_fuel_poor_player_powers_what_it_has():
    g = at(phase=3)
    me = g.current_player
    g = poke(g, me, plants=[4, 8], tokens=[0, 0, 0, 0], money=12, cities=free_cities(g)[:1])
    turn(g, HeuristicBot(), me)
    assert g.tokens_of(me)["coal"] == 2  # plant 4 for its single city: the cheapest run


def test_fuel_hybrid_takes_the_cheaper_type():
    g = at(phase=3)
    me = g.current_player
    g = poke(g, me, resources={"coal": 3, "oil": 18})  # coal at 8, oil at 3
    plan = fuel_plan(g, [5], [0, 0, 0, 0], 1)
    assert plan == (6, (0, 2, 0, 0))
    g = poke(g, me, plants=[5], tokens=[0, 0, 0, 0], money=50, cities=free_cities(g)[:1])
    turn(g, HeuristicBot(), me)
    assert g.tokens_of(me) == {"coal": 0, "oil": 2, "garbage": 0, "uranium": 0}


def test_build_the_cheapest_cities_it_can_power():
    g = at(phase=4)
    me = g.current_player
    g = poke(g, me, plants=[15], tokens=[2, 0, 0, 0], money=200, cities=free_cities(g)[:1])
    plan = cheapest_k(g, me, 2, 200)
    acts = turn(g, HeuristicBot(), me)
    assert acts == [Build(me, c) for c in plan.cities] + [Done(me)]
    assert g.money(me) == 200 - plan.total
    assert len(g.cities_of(me)) == 3  # plant 15 powers 3


def test_build_nothing_it_cannot_power():
    g = at(phase=4)
    me = g.current_player
    g = poke(g, me, plants=[15], tokens=[0, 0, 0, 0], money=200, cities=free_cities(g)[:1])
    assert turn(g, HeuristicBot(), me) == [Done(me)]


def test_power_the_run_that_earns_most():
    g = at(phase=5)
    me = g.current_player
    free = free_cities(g)
    g = poke(g, me, plants=[4, 8], tokens=[5, 0, 0, 0], cities=free[:3])
    assert HeuristicBot().act(g) == Power(me, (4, 8))
    g = poke(g, me, cities=free[:1])
    assert HeuristicBot().act(g) == Power(me, (4,))  # one city: the run burning the least


def test_discard_keeps_the_best_plants():
    """R36: over the limit it boxes the plant whose loss costs least."""
    g = at(phase=2)
    me = g.current_player
    # plant 4 burns as much coal as 10 for fewer cities than any other: losing it costs least
    g = poke(g, me, plants=[4, 10, 13, 25], tokens=[2, 0, 0, 0], cities=free_cities(g)[:1],
             auction_round={"discard": me})
    assert g.discarding == me
    a = HeuristicBot().act(g)
    assert isinstance(a, Discard) and a.plant == 4 and a.keep == (2, 0, 0, 0)


@pytest.mark.parametrize(("rival_money", "built"), [(0, 2), (500, 1)])
def test_end_the_game_only_when_winning(rival_money, built):
    """R96/R100: it ends the game (6 cities here) when it wins the tie on money, otherwise stops short."""
    g = at(phase=4, rules={"end_cities": 6})
    me = g.current_player
    rival = next(n for n in g.players if n != me)
    g = clear_board(g)
    free = free_cities(g)
    for n in g.players:
        g = poke(g, n, plants=[], tokens=[0, 0, 0, 0], money=0)
    g = poke(g, me, plants=[27, 18], money=100, cities=free[:4])  # two eco plants power 5
    g = poke(g, rival, plants=[13, 33], money=rival_money, cities=free[10:15])  # powers its 5
    acts = turn(g, HeuristicBot(), me)
    assert sum(isinstance(a, Build) for a in acts) == built
    if built == 2:
        play(g, [HeuristicBot(i) for i in range(4)])
        assert g.is_over and g.winner == me


# --- SearchBot plumbing --------------------------------------------------------------------------------

class _Scripted(SearchBot):
    """Scores candidate lines from a table instead of playing them out."""

    def __init__(self, values):
        super().__init__(0, rollouts=3)
        self.values = values

    def rollout(self, h, me, line):
        self.simulations += 1
        return self.values(line)


def test_search_takes_the_best_scored_line():
    g = at(phase=2)
    me = g.current_player
    lines = SearchBot(0).auction_lines(g, me)
    opens = [line[0] for line in lines if isinstance(line[0], Open)]
    assert len(lines) > 2 and opens
    target = max(opens, key=lambda a: a.plant)
    bot = _Scripted(lambda line: 1.0 if line[0] == target else 0.5)
    assert bot.choose(g.for_player(me, 1)) == target
    # sequential halving: every line played at least once, about rollouts x lines in all
    assert len(lines) <= bot.simulations <= 3 * len(lines) + len(lines) and bot.searched == 1


def test_search_halving_gives_the_better_candidates_more_playouts():
    """Sequential halving: after each round the worse half is dropped; the best is played most."""
    g = at(phase=2)
    me = g.current_player
    played: dict = {}

    class Counting(_Scripted):
        def rollout(self, h, me, line):
            played[line] = played.get(line, 0) + 1
            return super().rollout(h, me, line)

    lines = SearchBot(0).auction_lines(g, me)
    assert len(lines) >= 3
    score = {line: i / len(lines) for i, line in enumerate(lines)}  # the last line is the best
    bot = Counting(lambda line: score[line])
    bot.rollouts = 8
    bot.choose(g.for_player(me, 1))
    assert played[lines[-1]] == max(played.values()) > min(played.values()) == played[lines[0]]


def test_search_build_plan_is_followed_city_by_city():
    g = at(phase=4)
    me = g.current_player
    g = poke(g, me, plants=[15], tokens=[2, 0, 0, 0], money=200, cities=free_cities(g)[:1])
    bot = _Scripted(lambda line: float(sum(len(a.cities) for a in line if isinstance(a, Build)) == 3))
    acts = turn(g, bot, me)
    assert [type(a) for a in acts] == [Build, Build, Build, Done]
    assert bot.searched == 1


def test_search_think_time_plays_at_least_one_rollout_per_line():
    g = at(phase=2)
    me = g.current_player
    bot = SearchBot(0, think_time=0.0, horizon=1)
    lines = bot.auction_lines(g.for_player(me, 0), me)
    a = bot.choose(g.for_player(me, 0))
    assert a in g.legal_actions()
    # one re-deal in each halving round, for the candidates still in it: k + ceil(k/2) + ...
    k, expected = len(lines), 0
    for _ in range(max(1, math.ceil(math.log2(k)))):
        expected += k
        k = (k + 1) // 2
    assert bot.simulations == (expected if len(lines) > 1 else 0)


def test_greedy_estimate_prices_like_the_engine():
    """The fast estimate used for reserves charges what apply() would, city by city (R56-R61)."""
    g = at(phase=4, seed=9)
    for me in g.players:
        g = poke(g, me, money=500)
        cities, total = greedy_cities(g, me, 3, None)
        steps = g.plan_build(me, cities)
        assert len(cities) == 3 and not any(st.rule for st in steps)
        assert steps[-1].total == total


def test_greedy_run_budget_and_affordability_agree_with_the_estimate():
    """A budget cuts the greedy run at the first city it cannot pay; can_afford is estimate <= budget."""
    g = at(phase=4, seed=9)
    bot = HeuristicBot()
    for me in g.players:
        cities, total = greedy_cities(g, me, 6, None)
        for budget in (0, 9, 25, 40, 70, 100, 1000):
            cut, paid = greedy_cities(g, me, 6, budget)
            assert cut == cities[:len(cut)] and paid <= budget
            if len(cut) < len(cities):
                assert paid + g.build_cost(me, cities[len(cut)], cut) > budget
            for k in range(0, 8):
                assert bot.can_afford(g, me, k, budget) == (bot.build_estimate(g, me, k) <= budget)


@pytest.mark.parametrize("seed", [3, 9, 21])
def test_cheapest_cities_is_cheapest_k_without_the_steps(seed):
    g = at(phase=4, seed=seed)
    for me in g.players:
        for k, budget in ((1, None), (3, None), (None, 60), (4, 90)):
            plan = cheapest_k(g, me, k, budget)
            found = cheapest_cities(g, me, k, budget)
            assert (plan is None) == (found is None)
            if plan is not None:
                assert found == (plan.cities, plan.total)
