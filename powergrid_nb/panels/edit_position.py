"""Edit the position of the table's game as a scenario, then play it on at the same table.

The table's "Edit position" button shows :class:`~powergrid_nb.panels.editor.ScenarioEditor` on a copy
of the position in the table's place; "Open in play table" plays the edited position there (the seats
keep their bots), "Back to the game" returns to the game as it was.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from ._widgets import button, label, note
from .editor import ScenarioEditor


def show_editor(table: Any) -> ScenarioEditor:
    """Put the scenario editor of ``table``'s current position in the table's place; returns it."""
    g = table.game
    if g is None:
        raise ValueError("no game at the table to edit: start one first")
    table._cancel()
    table.hints.cancel(clear=True)
    bots = dict(table.bots)

    def play_here(game: Any) -> None:
        table.start(game, {p: b for p, b in bots.items() if p in game.players})

    editor = ScenarioEditor(g, on_open=play_here)
    back = button("← Back to the game", "pg-edit-back", lambda: table.start(g, bots),
                  tooltip="leave the editor; the game goes on as it was")
    what = label(note("Editing a copy of the position. <b>Open in play table</b> plays the edited "
                      "position here; the game itself is unchanged until then."), cls="pg-edit-what")
    table.children = [w.HBox([back, what], layout=w.Layout(align_items="center")), editor, table.guard]
    return editor
