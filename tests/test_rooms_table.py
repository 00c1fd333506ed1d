"""A player's table in a class room: the play table bound to one seat of a room.

Only the seat's own controls act; its decisions go through the room's store; the other seats' moves, a
teacher's pause, undo or seat handed over appear at the next read of the room (``RoomTable.sync``, the
kernel's timer in a notebook). Over whole games each table shows exactly what a table joined anew with
the same code shows (a reload, a kernel restart: it resumes at the room's state). The app page joins a
room by code, typed or from the link's ``?code=``.
"""

from __future__ import annotations

import random
import re
from copy import deepcopy
from pathlib import Path

import pytest
from _panels import click_errors_fail, click_randomly, find, message  # noqa: F401 (autouse)

from powergrid_nb import new_game
from powergrid_nb.bots import make_bot
from powergrid_nb.panels._widgets import close_all, tree
from powergrid_nb.panels.room import AppPage, RoomTable, app_page, join
from powergrid_nb.panels.snapshot import diff
from powergrid_nb.rooms import RoomClient, Seat, SQLiteStore

PLAYERS = ["Ann", "Ben", "Cy"]


@pytest.fixture
def room(tmp_path: Path):
    """A rooms file with one room: Ann and Ben human, Cy a random bot; (path, store, created)."""
    path = tmp_path / "class.sqlite"
    store = SQLiteStore(path)
    created = store.create_room(new_game(PLAYERS, seed=3),
                                [Seat("Ann", "human"), Seat("Ben", "human"), Seat("Cy", "bot", "random")],
                                title="Class 7b")
    yield path, store, created
    store.close()


def table(path: Path, code: str, **kw) -> RoomTable:
    return RoomTable(RoomClient(SQLiteStore(path), code), delay=0, **kw)


def assert_shows_a_fresh_join(t: RoomTable, path: Path, after: str) -> None:
    """``t`` shows what a table joined now with the same code shows, with the same tab, message line and
    the panels' pending choices (tokens counted, plants ticked: the table's own state, no game's)."""
    fresh = table(path, t.client.code, drive_bots=False)
    for phase, panel in t._panels.items():
        vars(fresh._panels[phase]).update(deepcopy({k: v for k, v in vars(panel).items() if k != "table"}))
    fresh.refresh()
    fresh.board.tabs.selected_index = t.board.tabs.selected_index
    fresh.message.value = t.message.value
    try:
        live, new = t.snapshot(), fresh.snapshot()
    finally:
        fresh.close()
        close_all(tree([fresh]), set())
    lines = "\n  ".join(diff(live, new, limit=12))
    assert live == new, f"after {after}: differs from a fresh join:\n  {lines}"



# --- seats -----------------------------------------------------------------------------------------------

def test_only_the_seat_to_act_gets_the_phase_controls(room):
    path, store, created = room
    ann, ben = table(path, created.codes["Ann"]), table(path, created.codes["Ben"])
    who = store.game(created.room).current_player
    mine, other = (ann, ben) if who == "Ann" else (ben, ann)
    assert mine.current_panel() is not None
    assert other.current_panel() is None
    assert f"Waiting for {who}" in other.actions.children[0].value
    assert "(at their own screen)" in other.status.value


def test_a_decision_goes_to_the_room_and_the_other_table_shows_it_at_its_next_read(room):
    path, store, created = room
    ann, ben = table(path, created.codes["Ann"]), table(path, created.codes["Ben"])
    g = store.game(created.room)
    mine, other = (ann, ben) if g.current_player == "Ann" else (ben, ann)
    action = make_bot("random", seed=1).act(mine.game)
    assert mine.submit(action)
    assert [d.action for d in store.log(created.room)] == [str(action)]
    assert other.game.actions == []  # not read yet
    assert other.sync()
    assert other.game.actions == store.game(created.room).actions


def test_the_room_bar_names_the_room_and_who_plays_each_seat(room):
    path, _store, created = room
    ann = table(path, created.codes["Ann"])
    bar = ann.room_bar.value
    assert "Class 7b" in bar and "you play <b>Ann</b>" in bar
    assert "Ann (you), Ben (human), Cy (random bot)" in bar


def test_two_tabs_of_one_seat_the_second_click_is_told_the_game_moved_on(room):
    path, store, created = room
    who = store.game(created.room).current_player
    one_tab, two_tab = table(path, created.codes[who]), table(path, created.codes[who])
    action = make_bot("random", seed=1).act(one_tab.game)
    assert one_tab.submit(action)
    assert not two_tab.submit(action)
    assert "the game moved on" in message(two_tab)
    assert "Your table now shows the game as it is" in message(two_tab)
    assert two_tab.game.actions == store.game(created.room).actions  # refreshed, not applied twice
    assert len(store.log(created.room)) == 1


def test_an_illegal_decision_is_explained_with_the_rule_and_nothing_is_written(room):
    path, store, created = room
    who = store.game(created.room).current_player
    t = table(path, created.codes[who])
    assert not t.submit(f"{who}: open 99 at 99")
    assert re.search(r"\bR\d+\b", message(t)) and store.log(created.room) == []  # the rule, by number


def test_undo_new_game_and_seats_are_the_teachers(room):
    path, store, created = room
    t = table(path, created.codes["Ann"])
    t.undo()
    assert "only the teacher" in message(t)
    t.show_setup()
    assert "teacher" in message(t)
    assert t.toolbar.undo not in tree([t]) and t.toolbar.new not in tree([t])
    assert t.toolbar.download in tree([t])  # the player may still download the game


# --- the teacher's changes reach the table --------------------------------------------------------------

def test_a_paused_room_says_so_and_refuses_decisions(room):
    path, store, created = room
    who = store.game(created.room).current_player
    t = table(path, created.codes[who])
    store.set_paused(created.room, created.teacher, True)
    assert t.sync()
    assert "paused" in t.status.value and "paused by the teacher" in t.room_bar.value
    assert t.current_panel() is None
    assert not t.submit(make_bot("random", seed=1).act(t.game))
    assert "paused" in message(t) and store.log(created.room) == []


def test_a_seat_handed_to_a_bot_shows_on_its_table(room):
    path, store, created = room
    who = store.game(created.room).current_player
    t = table(path, created.codes[who], drive_bots=False)
    store.set_seat(created.room, created.teacher, who, "random")
    assert t.sync()
    assert t.current_panel() is None
    assert "handed your seat to a random bot" in t.actions.children[0].value
    assert f"{who} (you, handed to a random bot)" in t.room_bar.value


def test_a_teachers_undo_shows_at_the_next_read(room):
    path, store, created = room
    who = store.game(created.room).current_player
    t = table(path, created.codes[who], drive_bots=False)
    assert t.submit(make_bot("random", seed=1).act(t.game))
    store.undo_last(created.room, created.teacher)
    assert t.sync()
    assert t.game.actions == [] and t.client.is_mine


def test_the_bots_of_the_room_move_from_a_table_that_holds_the_lease(room):
    path, store, created = room
    t = table(path, created.codes["Ann"])
    bot = make_bot("random", seed=2)
    for _ in range(40):  # the humans decide through the store until the bot is to act
        g, seen = store.snapshot(created.room)
        if g.current_player == "Cy":
            break
        store.play(created.room, created.codes[g.current_player], bot.act(g), seen)
    assert store.game(created.room).current_player == "Cy"
    t.sync()
    assert store.log(created.room)[-1].seat == "Cy"
    assert t.game.actions == store.game(created.room).actions


# --- whole games: on screen equals a fresh join -----------------------------------------------------------

@pytest.mark.parametrize("seed", [11, 12])
def test_every_table_shows_a_fresh_join_over_a_whole_game(room, seed):
    path, store, created = room
    rng = random.Random(seed)
    tables = {p: table(path, created.codes[p]) for p in ("Ann", "Ben")}
    bots = {p: make_bot("random", seed=seed + i) for i, p in enumerate(tables)}
    moves = 0
    while not store.game(created.room).is_over and moves < 600:
        for t in tables.values():
            t.sync()
        g = store.game(created.room)
        t = tables.get(g.current_player)
        if t is not None:
            assert t.client.is_mine and t.current_panel() is not None
            if rng.random() < 0.3:
                click_randomly(t, rng)  # the real controls (may only choose, or be refused)
            else:
                assert t.submit(bots[g.current_player].act(t.game)), message(t)
            moves += 1
        if moves % 15 == 0 or store.game(created.room).is_over:
            for p, each in tables.items():
                each.sync()
                assert_shows_a_fresh_join(each, path, f"{moves} moves ({p}'s table)")
        if rng.random() < 0.02:
            store.undo_last(created.room, created.teacher)
    assert store.game(created.room).is_over
    for t in tables.values():
        t.sync()
        assert "Game over" in t.status.value
        assert t.game.actions == store.game(created.room).actions


# --- the app page ----------------------------------------------------------------------------------------

def test_the_app_page_offers_joining_only_with_a_rooms_file(room):
    path, _store, _created = room
    assert find(app_page(environ={}), "pg-join-row") == []
    assert len(find(app_page(environ={"POWERGRID_ROOMS": str(path)}), "pg-join-row")) == 1


def test_a_link_with_the_code_joins_at_once(room):
    path, _store, created = room
    page = app_page(environ={"POWERGRID_ROOMS": str(path), "QUERY_STRING": f"code={created.codes['Ben']}"})
    assert isinstance(page.table, RoomTable) and page.table.client.seat == "Ben"
    assert "you play Ben" in page.message.value
    assert page.children == (page.join_row, page.table)  # no table of one's own built first


def test_the_code_leaves_the_screen_once_joined(room):
    path, _store, created = room
    page = AppPage(str(path))
    page.code.value = created.codes["Ann"]  # Enter
    assert isinstance(page.table, RoomTable) and page.table.client.seat == "Ann"
    assert page.code.value == ""
    page.join_button.click()  # the button after Enter: nothing more happens
    assert page.table.client.seat == "Ann" and "you play Ann" in page.message.value


def test_a_wrong_code_says_why_and_keeps_the_page(room):
    path, _store, _created = room
    page = AppPage(str(path))
    before = page.table
    page.code.value = "not-a-code"
    assert not page.join()
    assert page.table is before
    assert "no seat&#x27;s code" in page.message.value


def test_joining_before_the_teacher_made_a_room_says_so_without_a_path(tmp_path: Path):
    page = AppPage(str(tmp_path / "secret" / "class.sqlite"), code="abc")
    assert "the teacher creates the rooms first" in page.message.value
    assert "secret" not in page.message.value and str(tmp_path) not in page.message.value
    assert not (tmp_path / "secret").exists()


def test_join_gives_the_seats_table(room):
    path, _store, created = room
    t = join(created.codes["Ann"], path, delay=0)
    assert t.client.seat == "Ann" and t.client.room == created.room
