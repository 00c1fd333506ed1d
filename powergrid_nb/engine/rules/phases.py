"""The phases of the game by number and name: :class:`Phase`, the one home of both (R13; 0: R134).

A rule fact like the tables beside it: this module imports nothing of the package, so every engine module
(events, state, the rulebook, the phases, saves) and every layer above can use it. The rules each phase
plays are :class:`~powergrid_nb.engine.phases.base.PhaseRules` objects in ``engine/phases/``.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["PHASE_NAMES", "Phase"]


class Phase(IntEnum):
    """A phase of the game: the five of a round in their order (R13), the marking of start cities
    before the first round (0, R134) and the end (6). An ``int`` too, so saves, events and frames,
    which store the number, read and write it as before: ``Phase.AUCTION == 2``."""

    START_CITIES = 0
    PLAYER_ORDER = 1
    AUCTION = 2
    RESOURCES = 3
    BUILDING = 4
    BUREAUCRACY = 5
    GAME_OVER = 6

    @property
    def label(self) -> str:
        """The phase in words, as the log and the views name it: ``"player order"``, ``"game over"``."""
        return PHASE_NAMES[self]


# the words of each phase, derived from the member names (a dict for quick look-ups by number)
PHASE_NAMES: dict[int, str] = {p: p.name.lower().replace("_", " ") for p in Phase}
