"""powergrid_nb: the board game Power Grid (original 2004 and Recharged 2018) for Jupyter notebooks.

Play
    ``powergrid_nb.panels.play()`` opens the play table in JupyterLab: a setup form, then the map, the
    markets and a panel for the player to act; any seat can be a bot. ``notebooks/01_play.ipynb`` is the
    game, ``make app`` serves it as a web page.

The engine
    ``new_game(4, map="germany", edition="original", seed=1)`` returns a :class:`Game`:
    ``g.legal_actions()``, ``g.apply(action)`` (an action or its text, e.g. ``"Ada: open 4 at 4"``),
    ``g.undo()``, ``g.copy()``, ``g.history`` (typed events), ``g.save(path)`` / ``load(path)``, and
    DataFrames of the position (``g.players_frame()``, ``g.plants_frame()``, ``g.history_frame()``,
    ...). An illegal action raises :class:`IllegalAction` naming the rule it breaks, in words;
    ``rule("R58")`` gives any rule and ``rules(phase=Phase.BUILDING)`` those of a phase; ``g.phase`` is a
    :class:`Phase` (an int: ``Phase.AUCTION == 2``).

Views and bots
    ``powergrid_nb.views`` draws a game with Plotly (map, plant market, resources, players, history);
    ``powergrid_nb.bots`` has ``HeuristicBot``, ``SearchBot``, ``RandomBot`` and ``bots.play(g, bots)``.

Simulation
    ``simulate({"players": 4}, games=100, bots="heuristic")`` plays many seeded games from a set-up (or
    a saved position) and returns tidy DataFrames; ``sweep(spec, grid)`` runs it over a grid of settings
    and rules; ``tournament(["heuristic", "random", ...], games=100)`` is ``simulate`` with the seats
    rotated. Backends: local, processes or Dask. The command line: ``powergrid-nb --help``.

What-if
    ``analyze(g)`` plays each meaningful decision of the player to act out to the end many times and
    says which wins most, with intervals (``Analysis.frame``, ``.figure()``); ``compare(a, b)`` plays
    positions or rule sets side by side on the same seeds; ``Scenario`` edits a position as data, with
    the engine's own checks per field (``problems()``); ``position.replay.position_at(g, k)`` is a game
    after its first k decisions. ``notebooks/03_what_if`` is the lab.

Rooms
    ``powergrid_nb.rooms.SQLiteStore("rooms.sqlite")`` keeps games as append-only logs in SQLite: seats
    with join codes, decisions checked by the engine in one transaction, the teacher's tools, a bot
    lease; ``powergrid-nb room create``.

Lessons
    ``notebooks/lessons/`` is a course on the game's economics in six notebooks; ``powergrid_nb.lessons``
    holds what they compute and ``check("1.3", answer)``, the checker of their exercises.

The package's layers, lowest first (docs/architecture.md): ``engine`` (the rules; pure Python) <
``position`` (scenarios, replay) and ``bots`` (with the build planner) < ``play`` (runner, simulate,
tournament, compare, analyze) and ``frames`` < ``views``, ``rooms``, ``agents`` < ``panels``, ``lessons``
< ``cli``. A layer imports only from those below it (import-linter checks it).

Notebooks: ``00_engine_tour`` (the API), ``01_play`` (the table), ``02_views`` (the figures),
``03_what_if`` (analysis, scenarios, compare, sweep, replay), ``lessons/`` (the course).

>>> from powergrid_nb import new_game
>>> g = new_game(4, seed=1)
>>> g.apply(g.legal_actions()[0])
"""

import importlib
from typing import Any

from powergrid_nb.accel import install as _install_accel

_install_accel()  # the compiled engine, if one was built from exactly these sources (powergrid_nb.accel)

from powergrid_nb.engine import faces as _faces
from powergrid_nb.engine.actions import (
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
from powergrid_nb.engine.board.maps import GameMap, MapError, load_map
from powergrid_nb.engine.errors import IllegalAction, PowerGridError, SaveFileError
from powergrid_nb.engine.game import Event, Game
from powergrid_nb.engine.newgame import load, new_game
from powergrid_nb.engine.options import OPTIONS
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.engine.rules.plants import PLANTS, PowerPlant
from powergrid_nb.engine.trust import TrustPolicy

__version__ = "0.1.0"

__all__ = [
    "OPTIONS", "PLANTS", "Action", "Bid", "Bot", "Build", "BuyResources", "Discard", "Done", "Event",
    "HeuristicBot", "RandomBot", "SearchBot", "analyze", "compare", "simulate", "sweep", "tournament",
    "Game", "GameMap", "IllegalAction", "MapError", "MarkCity", "Open", "Pass", "Phase", "Power",
    "PowerGridError", "PowerPlant", "Problem", "Rule", "SaveFileError", "Scenario", "TrustPolicy", "load",
    "load_map", "new_game", "rule", "rules",
]


# Loaded when first asked for, not with the engine: the bots (their planner), the rulebook, the scenario
# editor, and what loads pandas (simulate, sweep, tournament, analyze, compare). A game needs none of them.
_LAZY = {
    "Bot": "bots", "HeuristicBot": "bots", "RandomBot": "bots", "SearchBot": "bots",
    "Rule": "engine.rules.rulebook", "rule": "engine.rules.rulebook", "rules": "engine.rules.rulebook",
    "Problem": "position.scenario", "Scenario": "position.scenario",
    "simulate": "play.simulation", "sweep": "play.simulation", "tournament": "play.tournaments",
    "analyze": "play.analysis", "compare": "play.comparison",
}


# the package's parts, loaded on first use as attributes (``powergrid_nb.views``): a game loads the engine
_SUBMODULES = ("agents", "bots", "cli", "frames", "lessons", "panels", "play", "position", "rooms", "views")


def __getattr__(name: str) -> Any:
    """The names of :data:`_LAZY` and the submodules the engine does not load, imported on first use."""
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    if name not in _LAZY:
        raise AttributeError(f"module 'powergrid_nb' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value  # asked once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, *_SUBMODULES})


def _frames() -> Any:
    from powergrid_nb import frames
    return frames


def _views() -> Any:
    from powergrid_nb import views
    return views


def _panels() -> Any:
    from powergrid_nb import panels
    return panels


# The faces a game cannot draw itself (DataFrames, figures, the play table) come from the layers above
# the engine, plugged in here: g.players_frame(), g.picture(), a game's notebook display, a.figure().
_faces.provide("frames", _frames)
_faces.provide("views", _views)
_faces.provide("panels", _panels)
