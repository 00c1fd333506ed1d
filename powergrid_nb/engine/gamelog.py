"""The game log: the history as sentences, one per event worth reading (``e.text()``), and the
wording the table shares with it: a player named "You" is addressed ("You buy", "You have", "Your
plant"), counts agree with their noun ("1 city", "2 cities").

A decision whose outcome the history records right after it (a purchase, a build, a run of plants,
a plant boxed by its owner) is shown by that outcome alone: "Cy buys 2 coal for 3 Elektro." rather
than "Cy asks for 2 coal." too. A player's purchases one after another in one turn read as one line
("Cy buys 2 coal and 1 oil for 7 Elektro.", bots buy a token at a time). Decisions without such an
outcome (open, bid, pass, done, mark) stay, and refills that moved nothing are left out. Plain text:
the panels add the markup.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .actions import Action, Build, BuyResources, Discard, Power
from .events import Decision, Event, HouseBuilt, PlantBoxed, PlantsRun, Refill, TokensBought

if TYPE_CHECKING:
    from .game import Game

__all__ = ["OUTCOMES", "count", "log_entries", "log_lines", "possessive", "sentence", "their", "they", "verb"]

OUTCOMES: dict[type[Action], type[Event]] = {
    BuyResources: TokensBought, Build: HouseBuilt, Power: PlantsRun, Discard: PlantBoxed}
"""The event that states what a decision of this kind did (the log shows it instead)."""


def log_entries(g: Game, last: int | None = None) -> list[Event]:
    """The events the game log shows, oldest first; ``last``: only the newest ``last`` of them (the
    same as the whole log's last ``last``)."""
    history = g.history
    kept: list[Event] = []
    after: set[tuple[type[Event], str | None]] = set()  # outcomes between this decision and the next
    for e in reversed(history):
        # one entry more than asked: the oldest one asked for may still take in older purchases of the
        # same turn (one line for them all), and is whole only once an older entry has begun
        if last is not None and len(kept) > last:
            break
        if isinstance(e, Decision):
            outcome = OUTCOMES.get(type(e.action))
            shown = outcome is None or (outcome, e.player) not in after
            after.clear()
            if shown:
                kept.append(e)
            continue
        after.add((type(e), e.who))
        if isinstance(e, TokensBought) and kept and isinstance(later := kept[-1], TokensBought) \
                and (later.player, later.round, later.phase) == (e.player, e.round, e.phase):
            kept[-1] = TokensBought(e.round, e.phase, e.step, e.player,
                                    tuple(a + b for a, b in zip(e.tokens, later.tokens, strict=True)),
                                    e.cost + later.cost)  # the same turn: one line for the purchases
        elif not (isinstance(e, Refill) and e.tokens == 0):
            kept.append(e)
    if last is not None:
        kept = kept[:last]
    kept.reverse()
    return kept


def log_lines(g: Game, last: int | None = None) -> list[str]:
    """The game log as sentences, oldest first (``last``: the newest ``last`` lines only)."""
    return [sentence(e) for e in log_entries(g, last)]


# --- wording --------------------------------------------------------------------------------------
ADDRESSED = "You"  # the table's name for the seat in front of the screen (the setup form's first seat)
_BASE = {"has": "have", "is": "are", "does": "do"}
_SECOND_VERB = re.compile(r"\b(and) (powers|keeps)\b")  # "..., and powers 3 cities", "... and keeps 2 oil"


def _addressed(name: str | None) -> bool:
    return name is not None and name.casefold() == ADDRESSED.casefold()


def _base(third: str) -> str:
    """The plain form of a verb in the third person: has → have, passes → pass, runs → run."""
    if third in _BASE:
        return _BASE[third]
    if third.endswith(("sses", "xes", "ches", "shes", "zes")):
        return third[:-2]
    if third.endswith("ies"):
        return third[:-3] + "y"
    return third[:-1] if third.endswith("s") else third


def verb(name: str | None, third: str) -> str:
    """The form of a verb agreeing with ``name``: ("Bo", "has") → "has", ("You", "has") → "have"."""
    return _base(third) if _addressed(name) else third


def possessive(name: str, *, start: bool = True, alone: bool = False) -> str:
    """ "Bo's", "Your"; mid-sentence (``start=False``) "your"; standing alone ("not yours") "yours"."""
    if not _addressed(name):
        return f"{name}'s"
    return "yours" if alone else "Your" if start else "your"


def they(name: str) -> str:
    """The pronoun for ``name`` as a subject: "they", "you" (its verb: ``verb(name, ...)``)."""
    return "you" if _addressed(name) else "they"


def their(name: str) -> str:
    """The possessive pronoun for ``name``: "their", "your"."""
    return "your" if _addressed(name) else "their"


def count(n: int, noun: str, plural: str | None = None) -> str:
    """ "1 city", "2 cities", "0 tokens"."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def sentence(e: Event) -> str:
    """The event's sentence in the log (``e.text()``), addressed to a player named "You": "You buy 2
    coal for 3 Elektro.", "You run plant 8 and power 2 cities.", "Your plant 3 is boxed: ..."."""
    text, who = e.text(), e.who
    if not _addressed(who):
        return text
    assert who is not None
    if text.startswith(f"{who}'s "):
        return "Your " + text[len(who) + 3:]
    if not text.startswith(f"{who} "):
        return text
    first = re.match(r"\w+", text[len(who) + 1:])
    if first is None:
        return text
    rest = _SECOND_VERB.sub(lambda m: f"{m[1]} {_base(m[2])}", text[len(who) + 1 + first.end():])
    return f"{who} {verb(who, first[0])}{rest}"
