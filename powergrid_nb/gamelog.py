"""The game log: the history as sentences, one per event worth reading (``e.text()``).

A decision whose outcome the history records right after it (a purchase, a build, a run of plants,
a plant boxed by its owner) is shown by that outcome alone: "Cy buys 2 coal for 3 Elektro." rather
than "Cy asks for 2 coal." too. Decisions without such an outcome (open, bid, pass, done, mark) stay,
and refills that moved nothing are left out. Plain text: the panels add the markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Action, Build, BuyResources, Discard, Power
from .events import Decision, Event, HouseBuilt, PlantBoxed, PlantsRun, Refill, TokensBought

if TYPE_CHECKING:
    from .game import Game

__all__ = ["OUTCOMES", "log_entries", "log_lines"]

OUTCOMES: dict[type[Action], type[Event]] = {
    BuyResources: TokensBought, Build: HouseBuilt, Power: PlantsRun, Discard: PlantBoxed}
"""The event that states what a decision of this kind did (the log shows it instead)."""


def log_entries(g: Game, last: int | None = None) -> list[Event]:
    """The events the game log shows, oldest first; ``last``: only the newest ``last`` of them."""
    history = g.history
    kept: list[Event] = []
    after: set[tuple[type[Event], str | None]] = set()  # outcomes between this decision and the next
    for e in reversed(history):
        if last is not None and len(kept) >= last:
            break
        if isinstance(e, Decision):
            outcome = OUTCOMES.get(type(e.action))
            shown = outcome is None or (outcome, e.player) not in after
            after.clear()
            if shown:
                kept.append(e)
            continue
        after.add((type(e), e.who))
        if not (isinstance(e, Refill) and e.tokens == 0):
            kept.append(e)
    kept.reverse()
    return kept


def log_lines(g: Game, last: int | None = None) -> list[str]:
    """The game log as sentences, oldest first (``last``: the newest ``last`` lines only)."""
    return [e.text() for e in log_entries(g, last)]
