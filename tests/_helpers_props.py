"""Shared helpers of the property, save/load and regression tests (random games and invariants)."""

from __future__ import annotations

import contextlib
import copy
import random
import signal
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import _tiers
from _position import position
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from powergrid_nb import (
    Action,
    Bid,
    Build,
    BuyResources,
    Discard,
    Done,
    Game,
    MarkCity,
    Open,
    Pass,
    Power,
    new_game,
)
from powergrid_nb.engine.rules.plants import ALL_CARDS, PLANTS, capacities, fits, needs

TOTALS = (24, 24, 24, 12)   # R1
START_MONEY = 50            # R5
MAX_CITIES = 22             # R67
MAX_ROUNDS = 80             # random games end long before this (about 20-35 rounds)
MAX_ACTIONS = 6000

EDITIONS = ("original", "recharged")
MAPS = ("germany", "usa")


def props(max_examples: int, quick: int | None = None) -> settings:
    """Reproducible hypothesis settings: no deadline, derandomized, no example database.

    ``quick``: the examples of the quick tier (`make test`, POWERGRID_TESTS=quick; tests/conftest.py),
    for a test whose full budget takes minutes (mark it ``slow``); the full tier runs ``max_examples``."""
    if quick is not None and _tiers.quick():
        max_examples = quick
    return settings(max_examples=max_examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def game_params(draw: Callable, trust: bool = False) -> dict[str, Any]:
    """Seed, player count, edition, map and the options that change the flow of a game.

    Without ``trust`` the 2-player Recharged game is played without the Trust (O22 is provisional)."""
    edition = draw(st.sampled_from(EDITIONS))
    players = 2 if trust else draw(st.integers(2, 6))
    p = {"seed": draw(st.integers(0, 2**32 - 1)), "players": players, "edition": edition,
         "map": draw(st.sampled_from(MAPS)),
         "bidding": draw(st.sampled_from(("seat", "order"))),
         "discount_test": draw(st.sampled_from(("first", "every"))),
         "starting_cities": draw(st.booleans()) if edition == "recharged" else False}
    if trust:
        p["edition"], p["trust"] = "recharged", True
    elif edition == "recharged" and players == 2:
        p["trust"] = False
    return p


def make(params: dict[str, Any]) -> Game:
    p = dict(params)
    return new_game(p.pop("players"), map=p.pop("map"), edition=p.pop("edition"), seed=p.pop("seed"),
                    **p)


def label(params: dict[str, Any]) -> str:
    """How to rebuild the game of a failing example (goes into assertion messages)."""
    return f"new_game({params['players']}, map={params['map']!r}, edition={params['edition']!r}, " \
           f"seed={params['seed']}, ...) options {params}"


@contextlib.contextmanager
def deadline(seconds: float, what: str) -> Iterator[None]:
    """Fail (instead of hanging) when the block runs longer than ``seconds`` (SIGALRM, main thread)."""
    def boom(*_: Any) -> None:
        raise AssertionError(f"{what}: still running after {seconds} s (endless loop?)")

    old = signal.signal(signal.SIGALRM, boom)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# --- invariants ------------------------------------------------------------------------------

def card_census(g: Game) -> Counter:
    s = g.s
    return Counter(s.market + s.deck + s.removed + s.boxed + [c for pl in s.plants for c in pl])


def ledger(g: Game) -> dict[str, int]:
    """Money each human should have: 50 plus the money every event of the history moved."""
    out = dict.fromkeys(g.players, START_MONEY)
    for e in g.history:
        if e.who in out:
            out[e.who] += e.money_delta
    return out


class Ledger:
    """The same sums kept incrementally while a game is played forward (no undo in between)."""

    def __init__(self, g: Game) -> None:
        self.money = ledger(g)
        self.seen = len(g.history)

    def update(self, g: Game) -> dict[str, int]:
        events = g.history
        for e in events[self.seen:]:
            if e.who in self.money:
                self.money[e.who] += e.money_delta
        self.seen = len(events)
        return self.money


def check_invariants(g: Game, money: dict[str, int] | None = None, where: str = "") -> None:
    """Everything of part 1 of the brief that must hold after every action."""
    s, ctx = g.s, g.ctx
    n = len(ctx.names)
    for k in range(4):
        held = sum(s.tokens[p][k] for p in range(n))
        assert 0 <= s.res[k] <= TOTALS[k], f"{where} market {k} = {s.res[k]}"
        assert min(s.tokens[p][k] for p in range(n)) >= 0, f"{where} negative tokens {s.tokens}"
        assert TOTALS[k] - s.res[k] - held >= 0, f"{where} supply of {k} < 0: {s.res}, {s.tokens}"
    census = card_census(g)
    assert set(census) == ALL_CARDS and max(census.values()) == 1, \
        f"{where} cards: dup {[c for c, m in census.items() if m > 1]}, missing {ALL_CARDS - set(census)}"
    money = ledger(g) if money is None else money
    for name in g.players:
        assert g.money(name) == money[name], f"{where} {name} money {g.money(name)} != ledger {money[name]}"
        assert g.money(name) >= 0, f"{where} {name} money {g.money(name)}"
    if g.trust is not None:
        assert g.money(g.trust) == 0, f"{where} the Trust has money"
    for p in range(n):
        assert len(s.mine[p]) <= MAX_CITIES and len(set(s.mine[p])) == len(s.mine[p]), f"{where} {s.mine[p]}"
        assert len(s.plants[p]) <= g.plant_limit + (s.discard == p), f"{where} plants {s.plants[p]}"
        if s.discard != p:
            assert fits(capacities(s.plants[p]), s.tokens[p]), \
                f"{where} {ctx.names[p]} tokens {s.tokens[p]} do not fit plants {s.plants[p]}"
    for city, owners in s.houses.items():
        assert city in ctx.cidx, f"{where} house outside the play area: {city}"
        assert len(owners) <= s.step and len(set(owners)) == len(owners), f"{where} {city}: {owners}"
        assert all(city in s.mine[p] for p in owners), f"{where} {city} owners {owners} vs mine"
    assert sum(map(len, s.houses.values())) == sum(map(len, s.mine)), f"{where} houses vs cities"
    if not g.is_over:
        assert g.legal_actions(), f"{where} no legal action for {g.current_player} in phase {g.phase}"


# --- random play ----------------------------------------------------------------------------

def play(g: Game, rng: random.Random, steps: int | None = None,
         each: Callable[[Game, Action], None] | None = None) -> list[Action]:
    """Apply random legal actions (``steps`` of them, or to the end); ``each(g, a)`` after each."""
    done: list[Action] = []
    last = g.round + MAX_ROUNDS
    while not g.is_over and (steps is None or len(done) < steps):
        assert g.round <= last and len(done) < MAX_ACTIONS, f"game does not end: {g!r}"
        legal = g.legal_actions()
        assert legal, f"no legal action: {g!r}"
        a = rng.choice(legal)
        g.apply(a)
        done.append(a)
        if each is not None:
            each(g, a)
    return done


def replay(g: Game, actions: list[Action]) -> None:
    for a in actions:
        g.apply(a)


# --- actions that are not in legal_actions --------------------------------------------------

def other_names(g: Game, player: str) -> list[str]:
    return [n for n in g.ctx.names if n != player] + ["Nobody"]


def every_city(g: Game) -> list[str]:
    return sorted(g.map.cities) + ["Atlantis"]


def candidates(g: Game, rng: random.Random, k: int = 12) -> Iterator[Action]:
    """Random actions in canonical atomic form: wrong player, wrong phase, random numbers."""
    cur = g.current_player or g.players[0]
    s = g.s
    own = s.plants[g.ctx.index[cur]]
    money = g.money(cur)
    legal = g.legal_actions()
    for _ in range(k):
        r = rng.randrange(9)
        if r == 0 and legal:
            a = rng.choice(legal)
            d = a.to_dict()
            d["player"] = rng.choice(other_names(g, cur))
            yield Action.from_dict(d)
        elif r == 1:
            yield Open(cur, rng.choice([*PLANTS, 0, 41, 99]), rng.randint(-2, money + 5))
        elif r == 2:
            yield Bid(cur, rng.randint(-2, money + 5))
        elif r == 3:
            amounts = [0, 0, 0, 0]
            amounts[rng.randrange(4)] = rng.choice((-1, 0, 1))
            yield BuyResources(cur, *amounts)
        elif r == 4:
            yield Build(cur, rng.choice(every_city(g)))
        elif r == 5:
            pool = sorted(set(own) | {rng.choice(list(PLANTS))})
            subset = rng.sample(pool, rng.randint(0, len(pool)))
            hc = rng.randint(-1, 6) if needs(subset)[4] else None
            yield Power(cur, subset, hc)
        elif r == 6:
            yield rng.choice([Pass(cur), Done(cur), MarkCity(cur, rng.choice(every_city(g)))])
        elif r == 7:
            keep = tuple(rng.randint(0, 3) for _ in range(4))
            yield Discard(cur, rng.choice([*own, 3, 50]), keep)
        else:
            yield Power(cur, [])


def discard_accepts(g: Game, a: Discard) -> bool:
    """Oracle of R36/R37/O10: box an owned plant other than the newest, keep any subset that fits."""
    s = g.s
    p = g.ctx.index.get(a.player)
    if p is None or s.discard != p or g.phase != 2:
        return False
    own = s.plants[p]
    if a.plant not in own[:-1]:
        return False
    if a.keep is None:
        return True
    rest = [x for x in own if x != a.plant]
    return all(0 <= k <= t for k, t in zip(a.keep, s.tokens[p], strict=True)) and \
        fits(capacities(rest), a.keep)


def mutations(g: Game, a: Action, rng: random.Random) -> list[Action]:
    """Copies of ``a`` with one field changed (never to the documented ``None`` defaults)."""
    out: list[Action] = [Action.from_dict({**a.to_dict(), "player": rng.choice(other_names(g, a.player))})]
    if isinstance(a, Open):
        out += [Open(a.player, rng.choice([*PLANTS, 41]), a.bid),
                Open(a.player, a.plant, a.bid + rng.choice((-1, 1)))]
    elif isinstance(a, Bid):
        out += [Bid(a.player, a.amount - 1), Bid(a.player, a.amount + rng.randint(1, 3))]
    elif isinstance(a, BuyResources):
        kind = rng.randrange(4)
        out += [BuyResources(a.player, *[int(i == kind) for i in range(4)]), BuyResources(a.player)]
    elif isinstance(a, Build):
        out.append(Build(a.player, rng.choice(every_city(g))))
    elif isinstance(a, Power):
        own = g.s.plants[g.ctx.index[a.player]]
        other = sorted(set(a.plants) ^ {rng.choice([*own, 3])})
        hc = (a.hybrid_coal or 0) if needs(other)[4] else None  # keep the field canonical
        out.append(Power(a.player, other, hc))
        if a.hybrid_coal is not None:
            out.append(Power(a.player, a.plants, a.hybrid_coal + rng.choice((-1, 1))))
        else:  # R46: a run without hybrids burns no hybrid coal (0 is accepted as "none")
            out.append(Power(a.player, a.plants, rng.randint(1, 3)))
    elif isinstance(a, MarkCity):
        out.append(MarkCity(a.player, rng.choice(every_city(g))))
    return out


# --- tampering with saves ----------------------------------------------------------------

def tamper_base() -> dict:
    """A 4-player Step 1 position in phase 4 with cities, plants and tokens (scenario dict)."""
    g = position(4, seed=1, phase=4, order="dealt", rest="shuffled",
                 who={"Ada": {"plants": [4, 6], "tokens": [2, 0, 1, 0], "cities": [0, 1]},
                      "Bo": {"plants": [13], "cities": [2]}, "Cy": {"plants": [5]},
                      "Dee": {"plants": [7], "tokens": [0, 3, 0, 0]}})
    return g.to_dict()


def outside_city(d: dict) -> str:
    g = Game.from_dict(copy.deepcopy(d))
    return sorted(set(g.map.cities) - set(g.ctx.cities))[0]


def city_of(d: dict, i: int) -> str:
    return Game.from_dict(copy.deepcopy(d)).ctx.cities[i]


# Replacement values for the one-edit fuzzing of saves (JSON values a hand edit could produce).
JUNK = [None, True, 0, 1, -1, 2, 5, 13, 25, 99, "", "Ada", "Bo", "Trust", "step3", "Essen", "Boston",
        [], ["Ada"], ["Bo", "Ada"], [3], {}, {"a": 1}, 1.5]


def leaves(d: Any, pre: tuple = ()) -> Iterator[tuple]:
    """Paths to every value under the "state" key of a save dict."""
    if pre:
        yield pre
    if isinstance(d, dict):
        for k, v in d.items():
            if pre or k == "state":
                yield from leaves(v, (*pre, k))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield from leaves(v, (*pre, i))


def choose(g: Game, rng: random.Random) -> Action:
    """A seeded random legal action: a random kind first, then one of that kind (low bids and
    builds favoured so games get through Steps 2 and 3 to the end)."""
    kinds: dict[type, list] = {}
    for a in g.legal_actions():
        kinds.setdefault(type(a), []).append(a)
    if Build in kinds and rng.random() < 0.8:
        return rng.choice(kinds[Build])
    t = rng.choice(sorted(kinds, key=lambda c: c.__name__))
    opts = kinds[t]
    if t is Bid and rng.random() < 0.8:
        return opts[0]
    if t is Open and rng.random() < 0.8:
        return min(opts, key=lambda a: (a.bid - g.min_bid(a.plant), rng.random()))
    return rng.choice(opts)
