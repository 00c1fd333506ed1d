"""Plotly views of a game: one function per view, each returning a ``go.Figure``.

``update(fig, game)`` refreshes any of them in place (also a ``go.FigureWidget`` built from one),
so panels can keep figures live without rebuilding them. Views read only the engine's public
frames and API.
"""

from ._base import PLAYER_COLORS, RESOURCE_COLORS, player_color, player_symbol, update

__all__ = ["PLAYER_COLORS", "RESOURCE_COLORS", "player_color", "player_symbol", "update"]
