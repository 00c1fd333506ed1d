"""The heuristic bot as of commit 10d45e5 (the same play through fa6c577), frozen for the rating ladder.

Issue 27 measures the new heuristic against this one ("at least 40% of the wins against three of the
old"). These modules are copies of ``powergrid_nb/bots/{heuristic,valuation,style,fuel,expansion,planner}.py``
at fa6c577, whose games equal 10d45e5's (the golden corpus's heuristic games replayed unchanged through
both); only the import of ``Bot`` points at the package. They use the engine's public queries only, so
they keep playing while the engine's rules stay the same. Do not edit them: ``tests/test_ladder.py``
checks that they still play the games recorded from the package's bot at fa6c577.
"""

from __future__ import annotations

from typing import Any

from .heuristic import HeuristicBot as _Frozen

__all__ = ["OldHeuristicBot"]


class OldHeuristicBot(_Frozen):
    """HeuristicBot as of 10d45e5 (its default style), under the name ``heuristic-10d45e5``."""

    def __init__(self, seed: int | None = None, **changes: Any) -> None:
        super().__init__(seed, **changes)
        self.name = "heuristic-10d45e5"  # type: ignore[misc]
