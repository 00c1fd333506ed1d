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
from .errors import IllegalAction, PowerGridError, SaveFileError
from .game import Event, Game
from .io import load
from .maps import GameMap, MapError, load_map
from .newgame import OPTIONS, new_game
from .plants import PLANTS, PowerPlant
from .trust import TrustPolicy

__version__ = "0.1.0"

__all__ = [
    "OPTIONS", "PLANTS", "Action", "Bid", "Build", "BuyResources", "Discard", "Done", "Event",
    "Game", "GameMap", "IllegalAction", "MapError", "MarkCity", "Open", "Pass", "Power",
    "PowerGridError", "PowerPlant", "SaveFileError", "TrustPolicy", "load", "load_map",
    "new_game",
]
