"""Bots: players that choose a legal action, for empty seats, tournaments and simulations."""

from .base import BOTS, Bot, RandomBot, make_bot, play

__all__ = ["BOTS", "Bot", "RandomBot", "make_bot", "play"]
