"""Bots: players that choose a legal action, for empty seats, tournaments and simulations."""

import functools

from .base import BOTS, Bot, BuilderBot, RandomBot, make_bot, play
from .heuristic import HeuristicBot
from .search import SearchBot
from .style import STYLES, BotStyle

BOTS.update({"heuristic": HeuristicBot, "search": SearchBot})
# the style presets as bots of their own: "heuristic:cautious", "heuristic:aggressive"
BOTS.update({f"heuristic:{name}": functools.partial(HeuristicBot, style=name)
             for name in STYLES if name != "default"})

__all__ = ["BOTS", "STYLES", "Bot", "BotStyle", "BuilderBot", "HeuristicBot", "RandomBot", "SearchBot",
           "make_bot", "play"]
