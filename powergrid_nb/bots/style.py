"""A company's style: the few numbers that make one HeuristicBot play unlike another, as data.

``BotStyle()`` is the default company; ``STYLES`` names presets (``"cautious"``, ``"aggressive"``) that
simulations, sweeps and lessons can set against each other::

    HeuristicBot(seed, style="cautious")
    HeuristicBot(seed, style=BotStyle(premium=0.1))
    simulate(spec, 100, bots=["heuristic:cautious", "heuristic:aggressive", "heuristic", "heuristic"])
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["STYLES", "BotStyle", "style_of"]


@dataclass(frozen=True)
class BotStyle:
    """How a :class:`~powergrid_nb.bots.HeuristicBot` company values plants, bids, keeps money and grows.

    ``horizon``: rounds of income a plant is valued over. ``growth``: cities the company expects to add
    per round (one more from Step 2). ``slack``: cities it builds beyond what its fuelled plants power,
    when money allows. ``alternative``: the share of the best other plant's surplus (its value less its
    minimum bid) a bid gives up, as the price of not buying that one instead. ``premium``: the share above
    its valuation the company still bids (risk appetite; below 0 it bids under its valuation).
    ``reserve``: cities' worth of fuel and building it keeps after an auction (one in round 1).
    ``waiting``: the share of the best future-market plant's surplus (its value less its number) a bid
    gives up, as the price of not waiting for it; a bid gives up the larger of the two alternatives.
    ``city_cost``: the share of the cost of the cities a plant needs (to power what it adds, up to the
    cities the company expects) that the plant's value bears, spread over the rounds left.
    """

    horizon: int = 3
    growth: int = 2
    slack: int = 0
    alternative: float = 1.0
    premium: float = 0.0
    reserve: int = 2
    waiting: float = 0.5
    city_cost: float = 0.0

    def __post_init__(self) -> None:
        for name, (low, high) in BOUNDS.items():
            value = getattr(self, name)
            whole = name in WHOLE
            if isinstance(value, bool) or not isinstance(value, int if whole else (int, float)) \
                    or not low <= value <= high:
                kind = "a whole number" if whole else "a number"
                raise ValueError(f"BotStyle {name}={value!r}: {name} is {kind} from {low} to {high}")

    def replace(self, **changes: Any) -> BotStyle:
        """This style with some fields changed (checked like a new one)."""
        unknown = set(changes) - set(BOUNDS)
        if unknown:
            raise ValueError(f"BotStyle has no {', '.join(sorted(unknown))}; its fields: {', '.join(BOUNDS)}")
        return dataclasses.replace(self, **changes)


# the range of each field: wide enough for a sweep, narrow enough that no value stalls or breaks a bot
BOUNDS: dict[str, tuple[float, float]] = {
    "horizon": (1, 12), "growth": (0, 6), "slack": (0, 6), "alternative": (0.0, 1.0), "premium": (-0.5, 1.0),
    "reserve": (0, 6), "waiting": (0.0, 1.0),
    "city_cost": (0.0, 1.0)}
WHOLE = frozenset({"horizon", "growth", "slack", "reserve"})

STYLES: Mapping[str, BotStyle] = {
    "default": BotStyle(),
    # values income over fewer rounds, bids below its valuation, keeps money for fuel and three cities
    "cautious": BotStyle(horizon=2, premium=-0.2, reserve=3),
    # values income over more rounds, bids above it, builds a city beyond its plants, keeps little
    "aggressive": BotStyle(horizon=4, premium=0.2, slack=1, reserve=1, alternative=0.5),
}


def style_of(style: BotStyle | str | None = None, **changes: Any) -> BotStyle:
    """A style from a preset name in :data:`STYLES`, a ``BotStyle`` or None (the default), with
    ``changes`` to its fields."""
    if style is None:
        base = STYLES["default"]
    elif isinstance(style, BotStyle):
        base = style
    elif isinstance(style, str) and style in STYLES:
        base = STYLES[style]
    else:
        raise ValueError(f"unknown bot style {style!r}; the presets: {', '.join(STYLES)} (or a BotStyle)")
    return base.replace(**changes) if changes else base
