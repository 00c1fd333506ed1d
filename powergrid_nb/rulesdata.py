"""The editions' rule tables as shipped (``data/editions.json``), read once."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources as _res
from typing import Any


@cache
def edition_tables() -> dict[str, Any]:
    """The whole data file: one block of tables per edition (and ``notes``)."""
    text = _res.files("powergrid_nb").joinpath("data/editions.json").read_text(encoding="utf-8")
    return json.loads(text)
