"""The exact build planner: powergrid_nb.bots.planner against the engine's own pricing.

The engine prices cities one at a time (R54, R60, R63) and every link use is paid again (R62), so
the optimum over build orders is slots + a minimum spanning tree of the metric closure (see the
planner's module docstring); these tests check it against brute force over every order priced by
``g.plan_build`` and against what ``apply(Build(...))`` charges.
"""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest
from _helpers_phases import GERMANY_W7, scenario
from _position import assert_illegal, position, position_from
from networkx.algorithms.approximation import steiner_tree

from powergrid_nb import Build, Game, new_game
from powergrid_nb.bots.planner import Plan, cheapest_k, plan_targets

ORDER = ["Dee", "Cy", "Bo", "Ada"]


def seeded_position(seed: int, players: int, map: str = "germany", step: int = 1, marked: bool = False,
             edition: str = "original", regions: list[str] | None = None) -> Game:
    """Phase 4 of a seeded game: each player holds 0-5 random cities (some none), 1000 Elektro."""
    rng = random.Random(seed)
    g0 = new_game(players, map=map, edition=edition, seed=seed, regions=regions)
    cities = list(g0.map.cities_in(g0.regions))
    count: dict[str, int] = {}
    who = {}
    for n in g0.players:
        free = [c for c in cities if count.get(c, 0) < step]
        mine = rng.sample(free, rng.choice([0, 0, 1, 2, 3, 4, 5]))
        for c in mine:
            count[c] = count.get(c, 0) + 1
        who[n] = {"cities": mine, "money": 1000}
    return position_from(g0, round=5, phase=4, step=step, who=who, order="dealt", to_act=g0.players,
                         marked=rng.sample(cities, players) if marked else ())


def positions(n: int, seed0: int = 0):
    """n seeded positions over both maps, 2-6 players, Steps 1-3, both editions, some marked cities."""
    for seed in range(seed0, seed0 + n):
        rng = random.Random(seed)
        yield seeded_position(seed, rng.randint(2, 6), rng.choice(["germany", "usa"]), rng.randint(1, 3),
                       marked=rng.random() < 0.25, edition=rng.choice(["original", "recharged"]))


def brute_force(g: Game, player: str, targets) -> int | None:
    """The cheapest legal order by the engine's own pricing (g.plan_build), over every permutation."""
    best = None
    for perm in itertools.permutations(targets):
        steps = g.plan_build(player, list(perm))
        if all(st.rule == "" for st in steps) and (best is None or steps[-1].total < best):
            best = steps[-1].total
    return best


def charged(g: Game, player: str, cities, money: int | None = None) -> int:
    """What apply(Build(player, *cities)) takes from ``player`` (in a copy of the position in which
    ``player`` is to act, with ``money`` if given)."""
    d = g.to_dict()
    d["state"]["to_act"] = [player]
    if money is not None:
        d["state"]["players"][player]["money"] = money
    h = Game.from_dict(d)
    before = h.money(player)
    h.apply(Build(player, *cities))
    return before - h.money(player)


def w7(step: int, ada_money: int = 100) -> Game:
    who = {"Ada": {"money": ada_money, "cities": ["Essen", "Münster"]},
           "Bo": {"money": 100, "cities": ["Düsseldorf"]}, "Cy": {"money": 100, "cities": ["Köln"]}}
    return scenario(4, phase=4, step=step, order=ORDER, to_act=["Ada", "Bo", "Cy", "Dee"], who=who)


def test_W8_two_cities_one_turn_cheapest_order():
    """W8/R63: A {Essen, Münster}, Step 2, adds Düsseldorf and Köln: 36 = 17 then 19 (not 38)."""
    g = w7(step=2)
    for targets in (["Düsseldorf", "Köln"], ["Köln", "Düsseldorf"]):
        plan = plan_targets(g, "Ada", targets)
        assert plan is not None
        assert plan.cities == ("Düsseldorf", "Köln") and plan.total == 36
        assert [st.cost for st in plan.steps] == [17, 19]
        assert [st.path for st in plan.steps] == [("Essen", "Düsseldorf"), ("Düsseldorf", "Köln")]
    assert brute_force(g, "Ada", ["Köln", "Düsseldorf"]) == 36
    assert charged(g, "Ada", plan.cities) == 36


@pytest.mark.parametrize("seed0", [0, 40, 80])
def test_R60_R63_plan_is_the_cheapest_order(seed0: int):
    """R60/R63: Plan.total == min over all orders of the engine price; the plan's order costs that."""
    found = impossible = 0
    for i, g in enumerate(positions(40, seed0)):
        rng = random.Random(1000 + seed0 + i)
        for player in g.players:
            cities = list(g.ctx.cities)
            legal = [c for c in cities if g.build_cost(player, c) is not None]
            for size in (1, 2, 3, 4):
                pool = legal if rng.random() < 0.7 and len(legal) >= size else cities
                targets = rng.sample(pool, size)
                best = brute_force(g, player, targets)
                plan = plan_targets(g, player, targets)
                if best is None:
                    assert plan is None, (targets, plan)
                    impossible += 1
                    continue
                assert plan is not None and plan.total == best, (g.cities_of(player), targets, plan, best)
                assert sorted(plan.cities) == sorted(targets)
                assert g.plan_build(player, list(plan.cities))[-1].total == plan.total
                assert [st.total for st in plan.steps][-1] == plan.total
                found += 1
    assert found > 150 and impossible > 20


def test_R54_apply_charges_plan_total():
    """R54/R64: apply(Build(player, *plan.cities)) with enough money takes exactly plan.total."""
    checked = 0
    for i, g in enumerate(positions(25, 300)):
        rng = random.Random(i)
        for player in g.players:
            legal = [c for c in g.ctx.cities if g.build_cost(player, c) is not None]
            plan = plan_targets(g, player, rng.sample(legal, min(len(legal), rng.randint(1, 6))))
            if plan is None:
                continue
            assert charged(g, player, plan.cities) == plan.total
            checked += 1
    assert checked > 40


def test_R64_money_is_the_callers_check():
    """R64: plan_targets ignores money (steps priced as if affordable); apply then refuses."""
    h = w7(step=2, ada_money=30)
    plan = plan_targets(h, "Ada", ["Köln", "Düsseldorf"])
    assert plan is not None and plan.total == 36 and all(st.rule == "" for st in plan.steps)
    assert_illegal(h, Build("Ada", *plan.cities), "R64")
    assert charged(h, "Ada", plan.cities, money=36) == 36


def test_illegal_targets_give_none():
    """R4/R57/R58/R67: outside the area, own city, full city, duplicates, too many houses -> None."""
    g = w7(step=1)
    assert plan_targets(g, "Ada", ["Köln"]) is None            # R58: full in Step 1
    assert plan_targets(g, "Ada", ["Essen"]) is None           # R57: own city
    assert plan_targets(g, "Ada", ["Atlantis"]) is None        # not a city
    outside = next(c for c in g.map.cities if c not in g.ctx.cidx)
    assert plan_targets(g, "Ada", [outside, "Duisburg"]) is None  # R4
    assert plan_targets(g, "Ada", ["Duisburg", "Duisburg"]) is None
    assert plan_targets(g, "Ada", []) == Plan((), 0, [])
    room = g.ctx.max_cities - 2
    legal = [c for c in g.ctx.cities if g.build_cost("Ada", c) is not None]
    assert plan_targets(g, "Ada", legal[:room + 1]) is None  # R67
    assert plan_targets(g, "Ada", legal[:3]) is not None


def test_R136_marked_city_only_as_first_house_in_step1():
    """R135/R136: without a network the first house goes in a marked city; no other marked one."""
    g = position(4, regions=GERMANY_W7[4], options={"starting_cities": True}, phase=4, step=1,
                 order=ORDER, to_act=["Ada"], who={"Ada": {"money": 100}}, marked=["Essen", "Köln"])
    assert plan_targets(g, "Ada", ["Duisburg"]) is None  # R135: not a marked city
    assert plan_targets(g, "Ada", ["Essen", "Köln"]) is None  # R136: Köln by expansion in Step 1
    plan = plan_targets(g, "Ada", ["Duisburg", "Essen"])
    assert plan is not None and plan.cities == ("Essen", "Duisburg") and plan.total == 20
    assert charged(g, "Ada", plan.cities) == 20
    best = cheapest_k(g, "Ada", 3)
    assert best is not None and best.cities[0] in ("Essen", "Köln")
    assert best.total == min(brute_force(g, "Ada", s) or 999
                             for s in itertools.combinations(g.ctx.cities, 3) if {"Essen", "Köln"} & set(s))


def test_R59_first_house_goes_in_an_empty_target():
    """R59: a player without a network starts in an empty target, then reaches the occupied one."""
    g = scenario(4, phase=4, step=2, order=ORDER, to_act=["Dee"],
                 who={"Bo": {"cities": ["Köln"]}, "Dee": {"money": 100}})
    plan = plan_targets(g, "Dee", ["Köln", "Aachen"])
    assert plan is not None and plan.cities == ("Aachen", "Köln")
    assert plan.total == 10 + 15 + 7 == brute_force(g, "Dee", ["Köln", "Aachen"])
    assert charged(g, "Dee", plan.cities) == plan.total


def _graph(g: Game) -> nx.Graph:
    G = nx.Graph()
    inside = set(g.ctx.cities)
    for a, b, c in g.map.connections:
        if a in inside and b in inside and (not G.has_edge(a, b) or G[a][b]["weight"] > c):
            G.add_edge(a, b, weight=c)
    return G


def _tree_order(tree: nx.Graph, network: list[str], targets: list[str]) -> list[str]:
    """The targets in depth-first order from the network along ``tree``: how a player follows it."""
    root = network[0] if network else targets[0]
    seen = [c for c in nx.dfs_preorder_nodes(tree, root)]
    return [c for c in seen if c in targets]


def test_never_worse_than_networkx_steiner_approximation():
    """R62: following networkx's Steiner tree (depth-first, priced by the engine) never beats the
    plan; and the plan's links cost at most twice that tree (MST of the metric closure <= 2 Steiner)."""
    checked = 0
    for i, g in enumerate(positions(40, 500)):
        rng = random.Random(i)
        G = _graph(g)
        for player in g.players:
            mine = g.cities_of(player)
            legal = [c for c in g.ctx.cities if g.build_cost(player, c) is not None]
            targets = rng.sample(legal, min(len(legal), rng.randint(2, 5)))
            plan = plan_targets(g, player, targets)
            if plan is None:
                continue
            tree = steiner_tree(G, set(mine) | set(targets), weight="weight")
            weight = tree.size(weight="weight")
            steps = g.plan_build(player, _tree_order(tree, mine, targets))
            if all(st.rule == "" for st in steps):
                assert plan.total <= steps[-1].total
            slots = sum(st.slot_price for st in plan.steps)
            assert plan.total - slots <= 2 * weight
            checked += 1
    assert checked > 60


def test_R62_a_steiner_fork_is_paid_once_per_city():
    """R61/R62: Bremen -> {Dresden, Nürnberg}: a tree forking at Erfurt has links worth 69, but no
    order pays that: each city pays its whole path again. The engine optimum is 20 + 88 = 108;
    building Erfurt too (a house at the fork) costs 30 + 69 = 99 for three cities."""
    g = scenario(4, phase=4, step=1, order=ORDER, to_act=["Ada"],
                 who={"Ada": {"money": 200, "cities": ["Bremen"]}})
    tree = steiner_tree(_graph(g), {"Bremen", "Dresden", "Nürnberg"}, weight="weight")
    assert "Erfurt" in tree and tree.size(weight="weight") == 69
    plan = plan_targets(g, "Ada", ["Nürnberg", "Dresden"])
    assert plan is not None and plan.total == 108 == brute_force(g, "Ada", ["Dresden", "Nürnberg"])
    assert plan.total > 20 + 69
    fork = plan_targets(g, "Ada", ["Nürnberg", "Dresden", "Erfurt"])
    assert fork is not None and fork.cities[0] == "Erfurt" and fork.total == 99
    assert charged(g, "Ada", fork.cities) == 99


def _brute_k(g: Game, player: str, k: int, pool) -> int | None:
    totals = [brute_force(g, player, s) for s in itertools.combinations(pool, k)]
    return min((t for t in totals if t is not None), default=None)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cheapest_k_equals_brute_force_whole_area(seed: int):
    """cheapest_k(k) for k = 1..3 == the cheapest of every k-set of play-area cities (engine prices)."""
    g = seeded_position(seed, 2, "germany" if seed % 2 else "usa", step=1 + seed % 3, marked=seed == 3)
    for player in g.players:
        for k in (1, 2, 3):
            plan = cheapest_k(g, player, k)
            best = _brute_k(g, player, k, g.ctx.cities)
            assert (None if plan is None else plan.total) == best, (player, k, plan, best)
            if plan is not None:
                assert len(plan.cities) == k and charged(g, player, plan.cities) == plan.total


def test_cheapest_k_exact_over_candidates():
    """cheapest_k(k, candidates=...) for k = 1..4 == brute force over every k-subset of 10 cities."""
    for i, g in enumerate(positions(10, 700)):
        rng = random.Random(i)
        player = rng.choice(g.players)
        pool = rng.sample(list(g.ctx.cities), 10)
        for k in (1, 2, 3, 4):
            plan = cheapest_k(g, player, k, candidates=pool)
            best = _brute_k(g, player, k, pool)
            assert (None if plan is None else plan.total) == best, (g.cities_of(player), pool, k)
            if plan is not None:
                assert set(plan.cities) <= set(pool)


def test_cheapest_k_budget_takes_the_most_cities():
    """cheapest_k(budget=b): the largest n whose cheapest n-set fits b, and that set's total."""
    for i, g in enumerate(positions(8, 900)):
        player = random.Random(i).choice(g.players)
        opt = [0]  # opt[n]: the cheapest n-set; 9 cities cost at least 90 > every budget below
        for n in range(1, 10):
            plan = cheapest_k(g, player, n)
            if plan is None:
                break
            opt.append(plan.total)
        assert opt == sorted(opt)
        for budget in (0, 9, 10, 25, 40, 60, 85):
            plan = cheapest_k(g, player, budget=budget)
            n = max(j for j, t in enumerate(opt) if t <= budget)
            assert len(plan.cities) == n and plan.total == opt[n], (budget, plan, opt)
            assert n == 0 or charged(g, player, plan.cities) == plan.total
            capped = cheapest_k(g, player, k=2, budget=budget)
            assert len(capped.cities) == min(n, 2) and capped.total == opt[min(n, 2)]


def test_cheapest_k_W7_positions():
    """W7/W8: A {Essen, Münster}: the cheapest city is Duisburg (10); three in Step 2 cost 39."""
    assert cheapest_k(w7(step=1), "Ada", 1).cities == ("Duisburg",)
    plan = cheapest_k(w7(step=2), "Ada", 3)
    assert plan.total == 39 == _brute_k(w7(step=2), "Ada", 3, ["Duisburg", "Dortmund", "Düsseldorf", "Köln"])
    assert cheapest_k(w7(step=1), "Ada", 0) == Plan((), 0, [])
    assert cheapest_k(w7(step=1), "Ada", budget=9) == Plan((), 0, [])
    with pytest.raises(ValueError):
        cheapest_k(w7(step=1), "Ada")
