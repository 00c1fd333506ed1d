"""Bots: players that choose a legal action, for empty seats, tournaments and simulations."""

from .base import BOTS, Bot, BuilderBot, RandomBot, make_bot, play
from .heuristic import HeuristicBot
from .search import SearchBot

BOTS.update({"heuristic": HeuristicBot, "search": SearchBot})

__all__ = ["BOTS", "Bot", "BuilderBot", "HeuristicBot", "RandomBot", "SearchBot", "make_bot", "play"]
