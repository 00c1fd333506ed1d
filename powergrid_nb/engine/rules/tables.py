"""The editions' names and their rule tables as shipped (``data/editions.json``), read once."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from powergrid_nb.engine.datafiles import data_text

# The editions by name, in words (as the rulebook texts and the forms name them): the one home of both. The
# edition objects (engine/editions.py) take their titles from here; the rulebook reads it without them.
EDITION_NAMES: dict[str, str] = {"original": "Original edition (2004)", "recharged": "Recharged (2018)"}


@cache
def edition_tables() -> dict[str, Any]:
    """The whole data file: one block of tables per edition (and ``notes``)."""
    return json.loads(data_text("editions.json"))
