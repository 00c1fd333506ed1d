"""A game's notebook display: the live table to play it on, with a static picture of the position in
the same output (JupyterLab shows the table; a saved notebook on GitHub or nbviewer, with no widgets,
the picture). ``Game._ipython_display_`` calls :func:`show`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from powergrid_nb.views.picture import position_html

from .table import play

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game


def show(game: Game) -> None:
    """Display ``game`` as its play table, with the static picture as the output's HTML."""
    from IPython.display import display

    table = play(game)
    view = {"version_major": 2, "version_minor": 0, "model_id": table.model_id}  # ipywidgets' widget view
    display({"text/plain": repr(table), "application/vnd.jupyter.widget-view+json": view,
             "text/html": position_html(game)}, raw=True)
