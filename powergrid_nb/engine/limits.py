"""The bounds on what a game takes from outside: numbers, names and rule parameters.

A game is built from a call (``new_game``), a save (``Game.from_dict``) or the scenario editor; each
checks its numbers and names here, so that no input can make a game that takes minutes or gigabytes
to list its decisions or draw. The bounds lie far beyond anything a game reaches in play: money grows
by at most 150 Elektro a round (R111), a game ends within about 20 rounds (R96).
"""

from __future__ import annotations

import unicodedata
from numbers import Integral
from typing import Any

MAX_MONEY = 100_000  # Elektro a player may hold
MAX_ROUND = 1_000
MAX_SEED = 2**64 - 1  # seeds are 0 to 2**64 - 1
MAX_COUNTER = 10_000  # the deck's shuffles so far (state.counter)
MAX_NAME = 40  # characters in a player's name
MAX_PLACE_NAME = 60  # characters in a map's city or region name
MAX_MAP_CITIES = 500  # cities on a map
MAX_TABLE_VALUE = 10_000  # any number in a rule table: income, house price, starting money
MAX_TABLE_LENGTH = 100  # entries of the payment table
MAX_COUNT = 200  # counts in rule parameters: cities that end the game or start Step 2, plants, houses
PLACE_FORBIDDEN = ",:"  # action texts separate cities with ', ' and the player with ': '
# control, format (bidirectional overrides, zero-width marks), surrogate, private and unassigned
# characters, line and paragraph separators: what a name cannot hold (but the joiner of emoji)
HIDDEN = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
ZWJ = "\u200d"


def check_int(value: Any, what: str, lo: int, hi: int) -> int:
    """``value`` as a whole number from ``lo`` to ``hi``; else ValueError naming ``what`` and the bounds."""
    if isinstance(value, bool) or not isinstance(value, Integral) or not lo <= value <= hi:
        raise ValueError(f"{what} must be a whole number from {lo:,} to {hi:,}, not {shown(value, 30)}")
    return int(value)


def name_problem(name: Any, limit: int = MAX_NAME, forbidden: str = "") -> str | None:
    """Why ``name`` cannot name a player or a place (None if it can): a str of 1 to ``limit``
    printable characters, valid Unicode, without control or bidirectional-override characters, the
    characters of ``forbidden``, or spaces around it."""
    if not isinstance(name, str):
        return f"a name is text, not {type(name).__name__}"
    if not name.strip():
        return "a name cannot be empty"
    if len(name) > limit:
        return f"a name has at most {limit} characters, not {len(name):,}"
    if name != name.strip():
        return "a name cannot begin or end with a space"
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return "a name must be valid Unicode (it has a lone surrogate)"
    for ch in name:
        if ch in forbidden:
            return f"a name cannot contain {ch!r}"
        if unicodedata.category(ch) in HIDDEN and ch != ZWJ:
            return (f"a name cannot contain the control or formatting character U+{ord(ch):04X} "
                    "(such as a bidirectional override)")
    return None


def shown(name: Any, limit: int = 40) -> str:
    """A name as an error message may quote it: repr, cut to ``limit`` characters."""
    text = repr(name)
    return text if len(text) <= limit else text[:limit - 3] + "..."
