"""Agents' interfaces: one fixed action space with masks, observations of what a player may see, and
adapters for PettingZoo, Gymnasium and OpenSpiel (those need ``pip install 'powergrid_nb[agents]'``).

>>> from powergrid_nb import agents
>>> e = agents.env(players=3)                  # PettingZoo AEC      # doctest: +SKIP
>>> g = agents.gym_env(players=3, seat=0)      # Gymnasium           # doctest: +SKIP
>>> agents.openspiel_game(players=3)           # pyspiel.Game        # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

from .observation import ObservationSpec
from .rewards import rank_returns, win_returns
from .space import BID_STEPS, ActionSpace, Block, NotInSpace

__all__ = ["BID_STEPS", "ActionSpace", "Block", "NotInSpace", "ObservationSpec", "env", "gym_env",
           "openspiel_game", "rank_returns", "raw_env", "win_returns"]

EXTRA = "pip install 'powergrid_nb[agents]'"


def _need(module: str) -> None:
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise ImportError(f"this adapter needs {module}, which is not installed: {EXTRA}")


def env(**kwargs: Any) -> Any:
    """The PettingZoo AEC environment, wrapped as PettingZoo's classic games are
    (:func:`powergrid_nb.agents.aec.env`)."""
    _need("pettingzoo")
    from .aec import env as make

    return make(**kwargs)


def raw_env(**kwargs: Any) -> Any:
    """The PettingZoo AEC environment without wrappers: an illegal index raises ``IllegalAction``."""
    _need("pettingzoo")
    from .aec import raw_env as make

    return make(**kwargs)


def gym_env(**kwargs: Any) -> Any:
    """The Gymnasium environment of one seat (:class:`powergrid_nb.agents.single.PowerGridEnv`)."""
    _need("gymnasium")
    from .single import PowerGridEnv

    return PowerGridEnv(**kwargs)


def openspiel_game(**params: Any) -> Any:
    """``pyspiel.load_game("python_powergrid", params)`` (registering the game first)."""
    _need("pyspiel")
    import pyspiel

    from .openspiel import GAME_NAME

    return pyspiel.load_game(GAME_NAME, params)
