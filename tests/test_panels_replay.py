"""The replay panel ("Replay a game"): after every step click and slider move over a game,
each label, button, the map and the visible tab equal a fresh build from the position replayed
(``powergrid_nb.position.replay.position_at``); the first and last positions bound the steps; "Branch here"
hands over an independent game at the position shown; a saved game replays from round 1."""

from __future__ import annotations

import json
import random

import ipywidgets as w
import pytest
from _panels import click, click_errors_fail, find, one  # noqa: F401 (autouse)
from _position import random_game

from powergrid_nb import Game, load, new_game, views
from powergrid_nb.panels import Table
from powergrid_nb.panels._widgets import close_all, tree
from powergrid_nb.panels.editor import ScenarioEditor
from powergrid_nb.panels.replay import TABS, Replay
from powergrid_nb.panels.snapshot import diff, snapshot
from powergrid_nb.position.replay import Recording, ReplayError, position_at
from powergrid_nb.views.dashboard import status_text

FIGURES = {"Resources": lambda g: views.resources_figure(g, height=560),
           "Players": views.players_figure,
           "History": lambda g: views.history_figure(g, height=700)}  # drawn as wide as the tab:
WIDE = {"autosize": True}  # tab_figure's one change to each view


def _plain(fig) -> dict:
    """A figure as the browser draws it (trace uids are random names, never drawn)."""
    d = json.loads(fig.to_json())
    for t in d["data"]:
        t.pop("uid", None)
    d["layout"].pop("template", None)
    return d


def assert_shows_position(r: Replay, g: Game, after: str) -> None:
    """Each label and the figures on screen equal fresh builds from ``position_at(g, r.k)``."""
    k = r.k
    p = position_at(g, k)
    rec = Recording(g)
    assert r.where.value == f"<div style='line-height:1.35;padding:4px 0'><b>{rec.label(k)}</b></div>", after
    assert status_text(p) in r.status.value, after
    assert r.counter.value == f"decision {k} of {rec.total}", after
    assert r.slider.value == rec.round_phase(k)[0], after
    assert (r.first.disabled, r.back.disabled) == (k == rec.start,) * 2, after
    assert (r.forward.disabled, r.last.disabled) == (k == rec.total,) * 2, after
    fresh_map = views.map_figure(p, height=r.height, title=p.map.title, link_hover=False)
    fresh_map.update_layout(autosize=True, width=None)
    assert _plain(r.map) == _plain(fresh_map), f"map after {after}"
    name = TABS[r.tabs.selected_index]
    shown = r.tabs.children[r.tabs.selected_index].children[0]
    if name == "Plant market":
        assert shown.html == views.plants_html(p, style=False), f"plant market after {after}"
    else:
        assert _plain(shown) == _plain(FIGURES[name](p).update_layout(**WIDE)), f"{name} after {after}"


def assert_equals_a_fresh_replay(r: Replay, g: Game, after: str) -> None:
    """Everything on screen (snapshot) equals a replay built anew at the same position and tab."""
    fresh = Replay(g, at=r.k)
    fresh.tabs.selected_index = r.tabs.selected_index
    try:
        live, new = snapshot(r), snapshot(fresh)
    finally:
        close_all(tree([fresh]), set())
    assert live == new, f"after {after}:\n  " + "\n  ".join(diff(live, new, limit=12))


@pytest.fixture(scope="module")
def game() -> Game:
    return random_game(3, seed=7, moves=130)


@pytest.fixture(scope="module")
def finished() -> Game:
    g = random_game(3, seed=4, moves=5000)
    assert g.is_over
    return g


# --- every step shows the position -----------------------------------------------------------------

def walk_forward(r: Replay, g: Game, steps: int, rng: random.Random) -> None:
    """Click Next ``steps`` times (a tab now and then); after each, the screen shows the position."""
    for _ in range(steps):
        if rng.random() < 0.1:
            r.tabs.selected_index = rng.randrange(len(TABS))
        click(r, "pg-replay-next")
        assert_shows_position(r, g, f"next to {r.k}")
        if r.k % 20 == 0:
            assert_equals_a_fresh_replay(r, g, f"next to {r.k}")


def test_every_step_through_the_opening_shows_a_fresh_build_of_the_position(finished):
    r = Replay(finished, at=0)
    assert_shows_position(r, finished, "opening at 0")
    walk_forward(r, finished, 40, random.Random(1))


def test_every_step_through_the_end_of_a_game_shows_a_fresh_build_of_the_position(finished):
    total = Recording(finished).total
    r = Replay(finished, at=total - 40)
    walk_forward(r, finished, 40, random.Random(2))
    assert r.k == total and r.forward.disabled
    assert "Game over" in r.status.value
    assert_equals_a_fresh_replay(r, finished, "the last next")


def test_random_clicks_and_slider_moves_show_a_fresh_build_of_the_position(game):
    rng = random.Random(3)
    r = Replay(game)
    rounds = list(Recording(game).round_starts())
    for i in range(30):
        what = rng.choice(["next", "back", "first", "last", "round", "round", "tab"])
        if what == "round":
            r.slider.value = rng.choice(rounds)
        elif what == "tab":
            r.tabs.selected_index = rng.randrange(len(TABS))
        elif not one(r, f"pg-replay-{what}").disabled:
            click(r, f"pg-replay-{what}")
        assert_shows_position(r, game, f"click {i} ({what})")
        if i % 6 == 0:
            assert_equals_a_fresh_replay(r, game, f"click {i} ({what})")


def test_the_slider_goes_to_the_start_of_the_round(game):
    r = Replay(game)
    starts = Recording(game).round_starts()
    r.slider.value = 4
    assert r.k == starts[4]
    assert position_at(game, r.k).round == 4
    assert position_at(game, r.k - 1).round == 3


def test_a_step_back_over_a_round_start_moves_the_slider_to_that_round(game):
    starts = Recording(game).round_starts()
    r = Replay(game, at=starts[3])
    click(r, "pg-replay-back")
    assert (r.k, r.slider.value) == (starts[3] - 1, 2)


# --- bounds ---------------------------------------------------------------------------------------

def test_at_the_first_position_first_and_back_are_disabled(game):
    r = Replay(game)
    click(r, "pg-replay-first")
    assert r.k == 0
    assert one(r, "pg-replay-first").disabled and one(r, "pg-replay-back").disabled
    assert not one(r, "pg-replay-next").disabled
    assert ("<b>Round 1, phase 2 (auction): the start of the game, before the first decision</b>"
            in r.where.value)


def test_at_the_last_position_next_and_last_are_disabled(game):
    r = Replay(game, at=0)
    click(r, "pg-replay-last")
    assert r.k == Recording(game).total
    assert one(r, "pg-replay-next").disabled and one(r, "pg-replay-last").disabled
    assert r.position.to_dict() == game.to_dict()


def test_a_game_without_decisions_has_nothing_to_step_through():
    r = Replay(new_game(3, seed=1))
    assert r.k == 0 and r.slider.disabled
    assert all(one(r, f"pg-replay-{b}").disabled for b in ("first", "back", "next", "last"))


def test_a_replay_opens_at_the_last_position_by_default(game):
    assert Replay(game).k == Recording(game).total


def test_show_keeps_within_the_positions(game):
    r = Replay(game)
    r.show(-5)
    assert r.k == 0
    r.show(10_000)
    assert r.k == Recording(game).total


@pytest.mark.parametrize("at", [-1, 131])
def test_opening_at_a_position_out_of_range_is_refused(game, at):
    with pytest.raises(ReplayError, match="at: a position from 0 to 130"):
        Replay(game, at=at)


# --- branch here ----------------------------------------------------------------------------------

def test_branch_hands_on_branch_an_independent_game_at_the_position(game):
    got: list[Game] = []
    r = Replay(game, at=57, on_branch=got.append)
    before = game.to_dict()
    click(r, "pg-replay-branch")
    assert len(got) == 1
    g = got[0]
    assert g.to_dict() == position_at(game, 57).to_dict()
    g.apply(g.legal_actions()[0])
    assert game.to_dict() == before
    assert r.position.to_dict() == position_at(game, 57).to_dict()
    assert_shows_position(r, game, "a move in the branched game")


def test_branch_without_a_callback_opens_the_position_in_the_play_table(game):
    r = Replay(game, at=57)
    click(r, "pg-replay-branch")
    assert has_editor_choice(r)
    click(r, "pg-replay-to-table")
    table = one(r, "pg-table")
    assert isinstance(table, Table)
    assert table.game.to_dict() == position_at(game, 57).to_dict()
    assert table.game is not r.position
    click(r, "pg-replay-close")
    assert not find(r, "pg-table")


def test_branch_opens_the_position_in_the_scenario_editor(game):
    r = Replay(game, at=57)
    click(r, "pg-replay-branch")
    click(r, "pg-replay-to-editor")
    shown = one(r, "pg-editor")
    assert isinstance(shown, ScenarioEditor)
    assert shown in r.branched.children
    assert shown.game().to_dict()["state"] == position_at(game, 57).to_dict()["state"]


def has_editor_choice(r: Replay) -> bool:
    return bool(find(r, "pg-replay-to-editor"))


def test_moving_on_takes_back_the_branch_choices(game):
    r = Replay(game, at=57)
    click(r, "pg-replay-branch")
    click(r, "pg-replay-next")
    assert not find(r, "pg-replay-to-table")


# --- saved games ------------------------------------------------------------------------------------

def test_a_loaded_saved_game_replays_from_round_1(tmp_path):
    g = new_game(3, edition="recharged", seed=4)
    rng = random.Random(2)
    for _ in range(90):
        g.apply(rng.choice(g.legal_actions()))
    g.save(tmp_path / "saved.json")
    loaded = load(tmp_path / "saved.json")
    r = Replay(loaded)
    assert loaded.actions == [] and r.k == 90
    r.slider.value = 1
    assert r.k == 0
    assert r.position.to_dict() == new_game(3, edition="recharged", seed=4).to_dict()
    assert_shows_position(r, loaded, "round 1 of a loaded game")
    for _ in range(5):
        click(r, "pg-replay-next")
        assert_shows_position(r, g, f"next to {r.k} in a loaded game")
    assert r.note.value == ""


def test_an_edited_save_replays_from_its_load_point_and_says_why(tmp_path):
    g = random_game(3, seed=2, moves=40)
    d = g.to_dict()
    d["state"]["players"]["Ada"]["money"] += 7
    (tmp_path / "edited.json").write_text(json.dumps(d))
    edited = load(tmp_path / "edited.json")
    edited.apply(edited.legal_actions()[0])
    r = Replay(edited)
    click(r, "pg-replay-first")
    assert r.k == 40
    assert "Only positions from decision 40 (where the game was loaded) on can be shown" in r.note.value
    assert "does not give the position that was loaded" in r.note.value
    assert r.slider.min == r.slider.max == r.slider.value == edited.round
    assert r.slider.disabled


def test_the_replay_is_a_widget_with_its_class():
    r = Replay(random_game(2, seed=1, moves=10))
    assert isinstance(r, w.VBox) and "pg-replay" in r._dom_classes
