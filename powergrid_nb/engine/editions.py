"""The two editions as small rule objects over one data file (``data/editions.json``).

An edition is pluggable: it composes the phases' functions (the plant market's steps, the price tracks),
so it sits above ``phases/``, beside the Trust (``trust.py``); the facts it reads (tables, plants, the
phase numbers, the editions' names) are in ``rules/`` below both.
"""

from __future__ import annotations

import functools
import random
from typing import TYPE_CHECKING, Any

from .events import Discount
from .limits import MAX_COUNT, MAX_TABLE_LENGTH, MAX_TABLE_VALUE, shown
from .phases.resources import Track
from .phases.steps import box, box_lowest, current_market, draw, replace
from .rules.phases import Phase
from .rules.plants import PLANTS, RESOURCES, STEP3
from .rules.tables import EDITION_NAMES, edition_tables

if TYPE_CHECKING:
    from .game import Game


class Edition:
    """Rules shared by both editions; subclasses override only what differs (R122).

    Ask an edition what it has (``capabilities``: the Trust, the discount token, card backs, map
    rules by default) rather than testing its name.
    """

    name = ""
    title = ""  # the edition in words, as the rulebook texts and the forms name it

    def __init__(self, rules: dict[str, Any] | None = None) -> None:
        self.tables: dict[str, Any] = edition_tables()[self.name]
        if rules:
            self.tables = {**self.tables, **check_rules(rules, self.tables)}
        self.capabilities: dict[str, bool] = dict(self.tables["capabilities"])
        self.track = Track(self.tables)

    def trust_plays(self, players: int) -> bool:
        """Whether a game of ``players`` is played against the Trust by default (R128)."""
        return self.capabilities["trust"] and players == 2

    def card_back(self, plant: int) -> str | None:
        """What the back of a deck card shows (R119): 'plug' or 'socket', or None if nothing."""
        if not self.capabilities["card_backs"] or plant == STEP3:
            return None
        lo, hi = self.tables["plug_plants"]
        return "plug" if lo <= plant <= hi else "socket"

    def _by_players(self, key: str, players: int) -> Any:
        return self.tables[key][str(players)]

    def regions(self, players: int) -> int:
        return self._by_players("regions", players)

    def plant_limit(self, players: int) -> int:
        return self._by_players("plant_limit", players)

    def step2_cities(self, players: int) -> int:
        return self._by_players("step2_cities", players)

    def end_cities(self, players: int) -> int:
        return self._by_players("end_cities", players)

    def refill(self, players: int, step: int) -> list[int]:
        return self.tables["refill"][str(players)][str(step)]

    def payment(self, powered: int) -> int:
        table = self.tables["payment"]
        return table[min(powered, len(table) - 1)]  # O14: 150 for 20 or more

    def initial_resources(self) -> list[int]:
        m = self.tables["initial_market"]
        return [m[r] for r in RESOURCES]

    def setup_plants(self, rng: random.Random, players: int, removed: Any = None
                     ) -> tuple[list[int], list[int], list[int], bool]:
        """(market, deck top first, removed unseen, top card publicly known)."""
        raise NotImplementedError

    def min_bid(self, g: Game, plant: int) -> int:
        return plant

    def start_phase2(self, g: Game) -> None:
        """Hook at the start of every phase 2."""

    def after_sale_draw(self, g: Game, card: int | None) -> None:
        """Hook after the replacement of a sold plant is drawn (R32)."""

    def market_changed(self, g: Game) -> None:
        """Hook after any card entered the market or a city was built."""

    def end_phase2(self, g: Game) -> None:
        """Hook when every player has bought or passed."""

    # What breaks a tie on cities powered, in order (R100-R102): "money" left, "network" (cities owned)
    tiebreaks: tuple[str, ...] = ("money",)

    def tiebreak(self, g: Game, p: int) -> tuple[int, ...]:
        """Ranking key after cities powered (R100-R102), in the order of :attr:`tiebreaks`."""
        s = g.s
        return tuple(s.money[p] if k == "money" else len(s.mine[p]) for k in self.tiebreaks)


class Original(Edition):
    """The 2004 original edition."""

    name = "original"
    title = EDITION_NAMES[name]

    def setup_plants(self, rng, players, removed=None):
        t = self.tables
        market = sorted(t["opening_market"])  # R9
        top = t["deck_top"]
        rest = [n for n in PLANTS if n not in market and n != top]
        rng.shuffle(rest)
        k = self._by_players("removed", players) if removed is None else int(removed)
        boxed, deck = rest[:k], rest[k:]  # R10
        return market, [top, *deck, STEP3], sorted(boxed), True

    def market_changed(self, g: Game) -> None:
        """R68: box current-market plants numbered at most the largest city count, repeatedly."""
        biggest = g.largest_network()
        while True:
            small = [c for c in current_market(g) if c <= biggest]
            if not small:
                return
            box(g, small[0], "R68", f"too small for a network of {biggest} cities")
            draw(g)

    def end_phase2(self, g: Game) -> None:
        """R38: nobody bought a plant (after round 1): box the lowest plant and replace it."""
        if g.s.round > 1 and not g.s.bought and g.s.market:
            box_lowest(g, "R38", "no plant was bought this round")
            replace(g)

    tiebreaks = ("money", "network")  # R101, R102


class Recharged(Edition):
    """The 2018 Recharged edition."""

    name = "recharged"
    title = EDITION_NAMES[name]

    def setup_plants(self, rng, players, removed=None):
        lo, hi = self.tables["plug_plants"]
        plug = [n for n in PLANTS if lo <= n <= hi]
        socket = [n for n in PLANTS if n > hi]
        rng.shuffle(plug)
        rng.shuffle(socket)
        size = self.tables["opening_size"]
        market, top, plug = sorted(plug[:size]), plug[size], plug[size + 1:]  # R11 / O4 steps 2-3
        k_plug, k_socket = self._by_players("removed", players) if removed is None else removed
        boxed = plug[:k_plug] + socket[:k_socket]
        deck = plug[k_plug:] + socket[k_socket:]
        rng.shuffle(deck)
        return market, [top, *deck, STEP3], sorted(boxed), False

    def min_bid(self, g: Game, plant: int) -> int:
        return 1 if plant == g.s.discount else plant  # R40

    def discount_plant(self, g: Game) -> int | None:
        """R40: the plant the discount token goes on as phase 2 begins (O13: none on an empty market)."""
        cur = current_market(g)
        return cur[0] if cur else None

    def start_phase2(self, g: Game) -> None:
        g.s.discount = self.discount_plant(g)
        if g.s.discount is not None:
            g._event(Discount, g.s.discount, "R40")

    def after_sale_draw(self, g: Game, card: int | None) -> None:
        """R42 (O7): a first replacement below the discounted plant is boxed, the token removed."""
        s = g.s
        tested = not s.first_draw or g.ctx.options["discount_test"] == "every"
        s.first_draw = True
        if tested and s.discount is not None and card is not None and card != STEP3 \
                and card < s.discount and card in s.market:
            box(g, card, "R42", "a replacement below the discounted plant")
            s.discount = None
            g._event(Discount, None, "R42")
            replace(g)

    def end_phase2(self, g: Game) -> None:
        """R43: the discounted plant, still unsold, is boxed and replaced."""
        s = g.s
        if s.discount is not None and s.discount in s.market:
            box(g, s.discount, "R43", "the discounted plant was not sold")
            s.discount = None
            replace(g)
        s.discount = None  # R44


# The editions by name: the one list of them every choice, form and check reads (their names and titles:
# rules.tables.EDITION_NAMES, in the same order, as tests/test_registries.py checks)
EDITIONS: dict[str, type[Edition]] = {cls.name: cls for cls in (Original, Recharged)}
DEFAULT_EDITION: str = Original.name  # what new_game and every form start with


def get_edition(name: str, rules: dict[str, Any] | None = None) -> Edition:
    """The edition's rule object, with ``rules`` overriding its tables (for what-if sweeps)."""
    try:
        cls = EDITIONS[name]
    except KeyError:
        raise ValueError(f"unknown edition {name!r}; choose {' or '.join(map(repr, EDITIONS))}") from None
    if not rules:
        return _standard(cls)
    return cls(rules)


@functools.cache
def _standard(cls: type[Edition]) -> Edition:
    """The edition with its shipped tables, built once (editions are read-only)."""
    return cls()


MIN_PLAYERS, MAX_PLAYERS = 2, 6  # R105: the game is for 2 to 6 players
PLAYER_COUNTS = tuple(str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1))  # the tables' keys
# the phases a rule set may play in reverse player order (R45, R54)
REVERSIBLE = (Phase.RESOURCES, Phase.BUILDING)
_REVERSIBLE_TEXT = ", ".join(f"{p:d} {p.label}" for p in REVERSIBLE)

RULE_PARAMETERS: dict[str, str] = {
    "starting_money": "an int: Elektro each player starts with (R5)",
    "payment": "a list of ints: income for 0, 1, 2, ... cities powered (R110); the last value repeats",
    "refill": "{players: {step: [coal, oil, garbage, uranium]}} (R108); partial dicts allowed",
    "initial_market": "{resource: tokens on the market at set-up} (R112-R114)",
    "build_prices": "[first, second, third house] (R56)",
    "step2_cities": "an int, or {players: int}: cities that start Step 2 (R89)",
    "end_cities": "an int, or {players: int}: cities that end the game (R96)",
    "plant_limit": "an int, or {players: int}: plants a player may own (R36)",
    "max_cities": "an int: houses per player (R67)",
    "reverse_order": f"a list of the phases ({_REVERSIBLE_TEXT}) played in reverse player order, the "
                     "leader last (R45, R54); [] plays both in player order, the leader first",
}


def _ints(v: Any, n: int | None, what: str, hi: int = MAX_TABLE_VALUE) -> list[int]:
    if not isinstance(v, list | tuple) or (n is not None and len(v) != n) or not v \
            or len(v) > MAX_TABLE_LENGTH or any(type(x) is not int or not 0 <= x <= hi for x in v):
        size = f"{n} " if n else f"1 to {MAX_TABLE_LENGTH} "
        raise ValueError(f"rules[{what!r}] must be a list of {size}whole numbers from 0 to {hi:,}, "
                         f"not {shown(v, 60)}")
    return list(v)


def check_rules(rules: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    """Validate rule overrides and return them merged into the shape of ``base``."""
    if not isinstance(rules, dict):
        raise ValueError("rules must be a dict; parameters: " + "; ".join(RULE_PARAMETERS))
    unknown = set(rules) - set(RULE_PARAMETERS)
    if unknown:
        known = "; ".join(f"{k}: {v}" for k, v in RULE_PARAMETERS.items())
        raise ValueError(f"unknown rule parameter(s) {sorted(unknown)}; known: {known}")
    out: dict[str, Any] = {}
    for key, v in rules.items():
        if key in ("starting_money", "max_cities"):
            out[key] = _ints([v], 1, key, MAX_TABLE_VALUE if key == "starting_money" else MAX_COUNT)[0]
        elif key == "payment":
            out[key] = _ints(v, None, key)
        elif key == "build_prices":
            out[key] = _ints(v, 3, key)
        elif key == "reverse_order":
            if not isinstance(v, list | tuple) \
                    or any(not isinstance(x, int) or isinstance(x, bool) or x not in REVERSIBLE for x in v) \
                    or len(set(v)) != len(v):
                among = " and ".join(f"{p:d}" for p in REVERSIBLE)
                raise ValueError(f"rules['reverse_order'] lists phases among {among}, each once, not {v!r}")
            out[key] = sorted(int(x) for x in v)  # plain numbers, as the edition's tables have them
        elif key == "initial_market":
            if not isinstance(v, dict) or set(v) - set(base[key]):
                raise ValueError(f"rules['initial_market'] takes {sorted(base[key])}, not {v!r}")
            caps = base["resource_tokens"]
            merged = {**base[key], **v}
            for r, n in merged.items():
                if type(n) is not int or not 0 <= n <= caps[r]:
                    raise ValueError(f"rules['initial_market'][{r!r}] must be 0 to {caps[r]}, not {n!r}")
            out[key] = merged
        elif key == "refill":
            if not isinstance(v, dict):
                raise ValueError("rules['refill'] must be {players: {step: [c, o, g, u]}}")
            merged = {p: dict(steps) for p, steps in base[key].items()}
            for p, steps in v.items():
                if str(p) not in PLAYER_COUNTS or not isinstance(steps, dict):
                    raise ValueError(f"rules['refill'] keys are player counts {MIN_PLAYERS}-{MAX_PLAYERS}, "
                                     f"not {p!r}")
                for st, amounts in steps.items():
                    if str(st) not in ("1", "2", "3"):
                        raise ValueError(f"rules['refill'][{p!r}] keys are steps 1-3, not {st!r}")
                    merged[str(p)][str(st)] = _ints(amounts, 4, f"refill {p} {st}")
            out[key] = merged
        else:  # per player count
            if type(v) is int:
                v = dict.fromkeys(PLAYER_COUNTS, v)
            if not isinstance(v, dict) or any(str(p) not in PLAYER_COUNTS or type(x) is not int
                                              or not 1 <= x <= MAX_COUNT for p, x in v.items()):
                raise ValueError(f"rules[{key!r}] must be a whole number from 1 to {MAX_COUNT}, or "
                                 f"{{players: such a number}}, not {shown(v, 60)}")
            out[key] = {**base[key], **{str(p): x for p, x in v.items()}}
    return out
