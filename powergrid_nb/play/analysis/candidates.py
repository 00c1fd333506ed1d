"""The candidate decisions :func:`~powergrid_nb.play.analysis.analyze` compares: the meaningful choices of a
phase, not every atomic step.

A :class:`Candidate` is a line of actions the player makes now (``actions``), and for an auction how
high the player keeps bidding afterwards (``bid_limit``). Everything after the line, the player's own
later decisions included, is the bots'. :func:`default_candidates` proposes them per phase;
:func:`parse_candidates` checks the ones a user passes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from powergrid_nb.bots.planner import cheapest_cities
from powergrid_nb.engine.actions import RESOURCES, Action, Bid, Build, BuyResources, Done, Open, Pass, Power
from powergrid_nb.engine.errors import IllegalAction
from powergrid_nb.engine.rules.phases import Phase

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

__all__ = ["Candidate", "default_candidates", "parse_candidates"]


@dataclass(frozen=True)
class Candidate:
    """A decision to evaluate: ``actions`` made now, in order; in an auction, ``bid_limit`` is the
    highest bid the player then makes on that plant this round (raising by 1 while it is not reached)."""

    label: str
    actions: tuple[Action, ...]
    bid_limit: int | None = None
    kind: str = "action"

    def __str__(self) -> str:
        return self.label


# --- the defaults, per phase ----------------------------------------------------------------------

def default_candidates(g: Game, player: str, limit: int = 8) -> list[Candidate]:
    """The meaningful decisions of ``player`` (who must be the one to act) now, at most ``limit``."""
    from powergrid_nb.bots import HeuristicBot

    bot = HeuristicBot(0)
    if g.phase == Phase.AUCTION and g.discarding != player:
        out = _auction(g, player, bot, limit)
    elif g.phase == Phase.RESOURCES:
        out = _buying(g, player, bot)
    elif g.phase == Phase.BUILDING:
        out = _building(g, player, bot, limit)
    elif g.phase == Phase.BUREAUCRACY:
        out = _bureaucracy(g, player)
    else:  # start cities, a discard: the legal actions themselves, the heuristic's choice first
        first = bot.choose(g)
        legal = [first, *(a for a in g.legal_actions() if a != first)]
        out = [Candidate(_short(a), (a,)) for a in legal]
    seen: set[tuple] = set()
    unique = []
    for c in out:
        key = (c.actions, c.bid_limit)
        if key not in seen:
            seen.add(key)
            unique.append(c)
    return unique[:limit]


def _short(a: Action) -> str:
    """An action's text without its player (``"open 13 at 13"``)."""
    return str(a).split(": ", 1)[1]


def _auction(g: Game, me: str, bot: Any, limit: int) -> list[Candidate]:
    money = g.money(me)
    running = g.auction
    limits = bot.limits(g, me)
    out: list[Candidate] = []
    if running is not None:
        x, high = running.plant, running.bid
        top = min(money, max(limits.get(x, -1), high + 1))
        if high + 1 <= money:
            for cap in sorted({high + 1, top, min(money, top + max(3, top // 5))}):
                words = f"bid {high + 1}" + (", no higher" if cap == high + 1 else f", up to {cap}")
                out.append(Candidate(words, (Bid(me, high + 1),), cap, "bid"))
        out.append(Candidate("pass", (Pass(me),), None, "pass"))
        return out
    affordable = [x for x in g.current_market() if g.min_bid(x) <= money]
    ranked = sorted(affordable, key=lambda x: (limits.get(x, -1) - g.min_bid(x), x), reverse=True)
    for i, x in enumerate(ranked):
        low = g.min_bid(x)
        worth = max(low, min(money, limits.get(x, low)))
        caps = [worth] if i > 1 else sorted({low, worth, min(money, worth + max(3, worth // 5))})
        for cap in caps:
            words = f"open {x} at {low}" + (", don't raise" if cap == low else f", bid up to {cap}")
            out.append(Candidate(words, (Open(me, x, low),), cap, "open"))
    if any(isinstance(a, Pass) for a in g.legal_actions()):
        out.insert(min(len(out), limit - 1), Candidate("pass", (Pass(me),), None, "pass"))
    return out


def _buying(g: Game, me: str, bot: Any) -> list[Candidate]:
    """Nothing, the heuristic's fuel, every store full, and all one resource can store (a denial)."""
    plan = _bot_turn(g, me, bot)
    wanted = [tuple(sum(getattr(a, r) for a in plan if isinstance(a, BuyResources)) for r in RESOURCES)]
    room = g.storage_room(me)
    wanted += [_most(g, me, tuple(room[r] if r == one else 0 for r in RESOURCES)) for one in RESOURCES
               if room[one]]
    wanted.append(_most(g, me, tuple(room[r] for r in RESOURCES)))
    out = []
    for amounts in dict.fromkeys(wanted):
        if not any(amounts):
            continue
        buy = BuyResources(me, *amounts)
        out.append(Candidate(_short(buy), (buy, Done(me)), None, "buy"))
    heuristic = out[:1] if any(wanted[0]) else []
    return [*heuristic, Candidate("buy nothing", (Done(me),), None, "buy"), *out[len(heuristic):]]


def _most(g: Game, me: str, want: tuple[int, ...]) -> tuple[int, ...]:
    """``want`` cut down, one token at a time from the dearest resource, until the engine accepts it."""
    got = list(want)
    while any(got) and not g.is_legal(BuyResources(me, *got)):
        k = max((i for i in range(4) if got[i]), key=lambda i: (g.token_price(RESOURCES[i]) or 99, i))
        got[k] -= 1
    return tuple(got)


def _bot_turn(g: Game, me: str, bot: Any) -> list[Action]:
    """The heuristic's decisions for the rest of ``me``'s turn in this phase."""
    h = g.copy()
    made: list[Action] = []
    phase, round_ = h.phase, h.round
    while h.current_player == me and h.phase == phase and h.round == round_ and len(made) < 200:
        a = bot.choose(h)
        made.append(a)
        h.apply(a)
    return made


def _building(g: Game, me: str, bot: Any, limit: int) -> list[Candidate]:
    """The heuristic's build, then the cheapest sets of 0, 1, 2, ... cities (the exact planner)."""
    money, have = g.money(me), g.city_count(me)
    out = []
    own = [c for a in _bot_turn(g, me, bot) if isinstance(a, Build) for c in a.cities]
    if own:
        out.append(_build_line(g, me, tuple(own)))
    for k in range(0, g.max_cities - have + 1):
        if k == 0:
            out.append(Candidate("build nothing", (Done(me),), None, "build"))
            continue
        found = cheapest_cities(g, me, k, money)
        if found is None or len(found[0]) < k:
            break
        out.append(_build_line(g, me, found[0]))
        if len(out) >= limit + 1:
            break
    return out


def _build_line(g: Game, me: str, cities: tuple[str, ...]) -> Candidate:
    cost = g.copy()
    paid = cost.money(me)
    cost.apply(Build(me, *cities))
    words = f"build {len(cities)}: {', '.join(cities)} ({paid - cost.money(me)} Elektro)"
    return Candidate(words, (Build(me, *cities), Done(me)), None, "build")


def _bureaucracy(g: Game, me: str) -> list[Candidate]:
    """Each way to run plants, most cities powered first."""
    powers = [a for a in g.legal_actions() if isinstance(a, Power)]
    powers.sort(key=lambda a: (-len(a.plants), a.plants, a.hybrid_coal or 0))
    return [Candidate(_short(a), (a,), None, "power") for a in powers]


# --- candidates a user passes ---------------------------------------------------------------------

def parse_candidates(g: Game, player: str, given: Iterable[Any]) -> list[Candidate]:
    """``given`` as Candidates, checked: each an action, an action's text, a list of them (a line) or a
    :class:`Candidate`; each line legal from this position and made by ``player`` (who is to act)."""
    out = []
    items = list(given)
    if not items:
        raise ValueError("candidates is empty: pass at least one decision, or None for the defaults")
    for i, item in enumerate(items, 1):
        c = _as_candidate(g, player, item, i)
        _check_line(g, player, c, i)
        out.append(c)
    labels = [c.label for c in out]
    twice = sorted({x for x in labels if labels.count(x) > 1})
    if twice:
        raise ValueError(f"candidates must differ; given more than once: {', '.join(twice)}")
    return out


def _as_candidate(g: Game, player: str, item: Any, i: int) -> Candidate:
    if isinstance(item, Candidate):
        return item
    parts: Sequence[Any] = [item] if isinstance(item, str | Action) else item
    if not isinstance(parts, Sequence) or not parts:
        raise ValueError(f"candidate {i} ({item!r}) is not an action, an action's text or a list of them")
    actions = []
    for part in parts:
        if isinstance(part, Action):
            actions.append(part)
            continue
        if not isinstance(part, str):
            raise ValueError(f"candidate {i}: {part!r} is not an action or an action's text")
        text = part if ":" in part else f"{player}: {part}"
        try:
            actions.append(Action.parse(text))
        except ValueError as e:
            raise ValueError(f"candidate {i} ({part!r}) is not an action: {e}") from None
    label = "; ".join(_short(a) for a in actions)
    bid = actions[0] if isinstance(actions[0], Open | Bid) else None
    cap = None if bid is None else bid.bid if isinstance(bid, Open) else bid.amount
    kind = type(actions[0]).__name__.lower()
    return Candidate(label, tuple(actions), cap, kind)


def _check_line(g: Game, player: str, c: Candidate, i: int) -> None:
    h = g.copy()
    for a in c.actions:
        if a.player != player:
            raise ValueError(f"candidate {i} ({c.label}): {a} is {a.player}'s decision; the analysis is "
                             f"of {player}'s decision ({player} is to act)")
        if h.current_player != player:
            raise ValueError(f"candidate {i} ({c.label}): {a} comes after {player}'s turn has ended")
        try:
            h.apply(a)
        except IllegalAction as e:
            raise ValueError(f"candidate {i} ({c.label}) is not a legal decision now (phase {g.phase}, "
                             f"{g.phase_name}, {player} to act): {e}") from None
