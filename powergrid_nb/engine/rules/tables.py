"""The editions' rule tables as shipped (``data/editions.json``), read once."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from powergrid_nb.engine.datafiles import data_text


@cache
def edition_tables() -> dict[str, Any]:
    """The whole data file: one block of tables per edition (and ``notes``)."""
    return json.loads(data_text("editions.json"))
