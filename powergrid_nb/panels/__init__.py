"""Play Power Grid in JupyterLab (and Voila) by clicking: ipywidgets panels over the engine.

>>> from powergrid_nb.panels import play
>>> play()                                    # the new-game form  # doctest: +SKIP
>>> play(new_game(["You", "Bo"]), bots={"Bo": "heuristic"})      # doctest: +SKIP

Panels depend on the views and the engine, never the other way round.
"""

from . import table as _table
from .display import show
from .edit_position import show_editor as _show_editor
from .editor import ScenarioEditor
from .replay import Replay
from .setup import SetupForm
from .sweep import SweepPanel
from .table import Table, play

__all__ = ["Replay", "ScenarioEditor", "SetupForm", "SweepPanel", "Table", "play", "show"]

# The table's "Edit position" shows the scenario editor, which opens play tables itself: it stands above the
# table and is plugged in here rather than imported by it.
_table.provide("edit position", _show_editor)
