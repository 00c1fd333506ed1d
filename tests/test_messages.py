"""Errors explain themselves (issue #10): what was wrong and what is allowed, without internal paths."""

from __future__ import annotations

import pytest

import powergrid_nb
from powergrid_nb import new_game


def test_an_unknown_edition_names_the_editions_not_a_map_file():
    with pytest.raises(ValueError) as e:
        new_game(4, edition="deluxe")
    assert str(e.value) == "unknown edition 'deluxe'; choose 'original' or 'recharged'"
    assert ".json" not in str(e.value) and "/" not in str(e.value)


def test_a_built_in_map_error_names_the_map_not_where_it_is_installed():
    with pytest.raises(powergrid_nb.MapError) as e:
        powergrid_nb.load_map("usa", "deluxe")
    assert str(e.value).startswith("built-in map 'usa': unknown edition 'deluxe'")
    assert powergrid_nb.__file__.rsplit("/", 2)[0] not in str(e.value)


def test_undo_with_nothing_to_undo_says_so():
    g = new_game(3, seed=1)
    with pytest.raises(ValueError, match="^nothing to undo: no decision has been made since the game "
                                         "was created or loaded$"):
        g.undo()


def test_undo_of_more_decisions_than_were_made_says_how_many_can_be():
    g = new_game(3, seed=1)
    g.apply(g.legal_actions()[0])
    with pytest.raises(ValueError, match=r"^can undo 0 to 1 decisions .*, not 2$"):
        g.undo(2)
    assert len(g.actions) == 1


def test_the_package_help_starts_with_an_overview():
    doc = powergrid_nb.__doc__
    for name in ("play()", "new_game", "notebooks/01_play.ipynb", "powergrid_nb.views", "simulate", "sweep",
                 "tournament", 'rule("R58")'):
        assert name in doc, name
