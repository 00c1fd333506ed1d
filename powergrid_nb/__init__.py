"""powergrid_nb: the board game Power Grid (original 2004 and Recharged 2018) for notebooks.

>>> from powergrid_nb import new_game
>>> g = new_game(4, seed=1)
>>> g.apply(g.legal_actions()[0])
"""

from .actions import (
    Action,
    Bid,
    Build,
    BuyResources,
    Discard,
    Done,
    MarkCity,
    Open,
    Pass,
    Power,
)
from .bots import Bot, HeuristicBot, RandomBot, SearchBot  # noqa: E402  (after the engine)
from .errors import IllegalAction, PowerGridError, SaveFileError
from .game import Event, Game
from .io import load
from .maps import GameMap, MapError, load_map
from .newgame import OPTIONS, new_game
from .plants import PLANTS, PowerPlant
from .trust import TrustPolicy

__version__ = "0.1.0"

__all__ = [
    "OPTIONS", "PLANTS", "Action", "Bid", "Bot", "Build", "BuyResources", "Discard", "Done", "Event",
    "HeuristicBot", "RandomBot", "SearchBot", "simulate", "sweep", "tournament",
    "Game", "GameMap", "IllegalAction", "MapError", "MarkCity", "Open", "Pass", "Power",
    "PowerGridError", "PowerPlant", "SaveFileError", "TrustPolicy", "load", "load_map",
    "new_game",
]


def __getattr__(name: str):
    """simulate, sweep and tournament load pandas: import them only when asked for."""
    if name in ("simulate", "sweep"):
        from . import simulation
        return getattr(simulation, name)
    if name == "tournament":
        from .tournaments import tournament
        return tournament
    raise AttributeError(f"module 'powergrid_nb' has no attribute {name!r}")
