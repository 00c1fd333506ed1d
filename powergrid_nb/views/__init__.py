"""Plotly views of a game: one function per view, each returning a ``go.Figure``; and the plant
market as HTML cards (``plants_html``), as the play table shows it.

``update(fig, game)`` refreshes any of them in place (also a ``go.FigureWidget`` built from one),
so panels can keep figures live without rebuilding them. Views read only the engine's public
frames and API.
"""

from ._base import PLAYER_COLORS, RESOURCE_COLORS, player_color, player_symbol, update
from .analysis import analysis_figure
from .dashboard import dashboard
from .history import history_figure
from .map import map_figure
from .market import plants_html
from .picture import picture, position_html
from .plants import plants_figure
from .players import players_figure
from .resources import resources_figure
from .whatif import compare_figure, sweep_figure

__all__ = [
    "PLAYER_COLORS", "RESOURCE_COLORS", "analysis_figure", "compare_figure", "dashboard", "history_figure",
    "map_figure", "picture", "plants_figure", "plants_html", "player_color", "player_symbol",
    "players_figure", "position_html", "resources_figure", "sweep_figure", "update",
]
