"""The table's "Edit position": the scenario editor on a copy of the table's position, in the
table's place; "Open in play table" plays the edited position there with the same bots; "Back to the game"
returns to the game unchanged."""

from __future__ import annotations

from _panels import YOU, click, click_errors_fail, game_at, one, table_for  # noqa: F401 (autouse)

from powergrid_nb.panels.editor import ScenarioEditor


def editing(t):
    click(t, "pg-edit")
    ed = one(t, "pg-editor")
    assert isinstance(ed, ScenarioEditor)
    return ed


def test_edit_position_shows_the_editor_on_the_tables_position() -> None:
    t = table_for(game_at(3, round=2), bot="heuristic")
    ed = editing(t)
    assert ed.scenario.money(YOU) == t.game.money(YOU)
    assert ed.scenario.cities(YOU) == t.game.cities_of(YOU)


def test_the_edited_position_plays_on_at_the_table_with_the_same_bots() -> None:
    t = table_for(game_at(3, round=2), bot="heuristic")
    old, bots = t.game, dict(t.bots)
    ed = editing(t)
    ed.fields[YOU]["money"].value = 123
    ed.play_button.click()
    assert t.game is not old and t.game.money(YOU) == 123
    assert {p: type(b) for p, b in t.bots.items()} == {p: type(b) for p, b in bots.items()}
    assert one(t, "pg-status") is t.status


def test_back_to_the_game_leaves_it_as_it_was() -> None:
    t = table_for(game_at(3, round=2), bot="heuristic")
    old, before = t.game, t.game.to_dict()
    ed = editing(t)
    ed.fields[YOU]["money"].value = 5
    click(t, "pg-edit-back")
    assert t.game is old and t.game.to_dict() == before
    assert one(t, "pg-status") is t.status
