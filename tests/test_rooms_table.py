"""A player's table in a class room: the play table bound to one seat of a room.

Only the seat's own controls act; its decisions go through the room's store; the other seats' moves, a
teacher's pause, undo or seat handed over appear at the next read of the room (``RoomTable.sync``, the
kernel's timer in a notebook). Over whole games each table shows exactly what a table joined anew with
the same code shows (a reload, a kernel restart: it resumes at the room's state). The app page joins a
room by code, typed or from the link's ``?code=``.
"""

from __future__ import annotations

import base64
import json
import random
import re
import sqlite3
from copy import deepcopy
from pathlib import Path

import pytest
from _panels import click_errors_fail, click_randomly, find, message  # noqa: F401 (autouse)

from powergrid_nb import new_game
from powergrid_nb.bots import make_bot
from powergrid_nb.engine.actions import Build
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
    assert find(t, "pg-undo") == [] and find(t, "pg-new") == []
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


# --- a seat sees what its player may see; the teacher's controls are not built ----------------------------

TEACHERS = ["pg-undo", "pg-new", "pg-edit", "pg-path", "pg-save", "pg-load", "pg-upload", "pg-delay",
            "pg-pause", "pg-hints", "pg-hint", "pg-hint-cancel", "pg-new-after"]


def _made_while(build):
    """The widgets (open, with a model a page could message) made while ``build()`` runs, and its result."""
    from ipywidgets.widgets.widget import _instances

    before = set(_instances)
    made = build()
    return [x for k, x in list(_instances.items()) if k not in before], made


def test_a_seats_table_builds_none_of_the_teachers_controls(room):
    path, _store, created = room
    made, t = _made_while(lambda: table(path, created.codes["Ann"]))
    cls = {c for x in made for c in (getattr(x, "_dom_classes", ()) or ())}
    assert not cls & {*TEACHERS, *(f"pg-seat-{p}" for p in PLAYERS)}, sorted(cls & set(TEACHERS))
    kinds = {type(x).__name__ for x in made}
    assert not kinds & {"FileUpload", "Checkbox", "ToggleButton", "FloatSlider", "IntProgress"}, kinds
    assert not hasattr(t.toolbar, "edit") and not hasattr(t.hints, "enabled")


def test_a_seats_table_at_the_game_over_offers_no_new_game(room):
    path, store, created = room
    t = table(path, created.codes["Ann"], drive_bots=False)
    t.game.s.over = True  # the panel of a finished game, as the table renders it
    made, _ = _made_while(t.refresh)
    assert "Game over" in t.status.value or t.game.is_over
    assert find(t, "pg-new-after") == [] and not [x for x in made if "pg-new-after" in x._dom_classes]


def test_download_at_a_seat_gives_its_observation_without_deck_order_or_seed(room):
    path, _store, created = room
    t = table(path, created.codes["Ben"])
    t.toolbar.download.click()
    href = re.search(r"href='data:application/json;base64,([^']+)'", t.toolbar.link.value).group(1)
    got = json.loads(base64.b64decode(href))
    assert got["config"]["seed"] is None and got["viewer"] == "Ben"
    assert set(got["state"]["deck"]) == {"size", "top", "known_bottom"}  # a count, not the cards in order
    assert got == json.loads(json.dumps(t.game.observation("Ben")))
    assert "as Ben sees it" in message(t)


# --- what a visitor's click runs into is said, never raised ----------------------------------------------

def _to_act(path, store, created, **kw):
    who = store.game(created.room).current_player
    if who not in created.codes:
        pytest.skip("the bot opens")
    return who, table(path, created.codes[who], drive_bots=False, **kw)


class _FullDiskAtCommit:
    """A connection whose write transactions fail at COMMIT as on a full disk (reads go through)."""

    def __init__(self, con):
        self._con, self._writing = con, False

    def execute(self, sql, *args):
        if sql == "BEGIN IMMEDIATE":
            self._writing = True
        elif sql == "COMMIT" and self._writing:
            self._writing = False
            raise sqlite3.OperationalError("database or disk is full")
        elif sql == "ROLLBACK":
            self._writing = False
        return self._con.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._con, name)


def test_a_full_disk_at_commit_is_said_in_the_message_line(room):
    path, store, created = room
    _who, t = _to_act(path, store, created)
    t.client.store._con = _FullDiskAtCommit(t.client.store._con)
    assert not t.submit(make_bot("random", seed=1).act(t.game))
    assert "the disk is full" in message(t) and "nothing was written" in message(t)
    assert store.log(created.room) == []


def test_a_read_only_rooms_file_is_said_in_the_message_line(room, monkeypatch):
    path, store, created = room
    connect = sqlite3.connect  # every connection read-only (mode=ro): a read-only file, even for root
    monkeypatch.setattr(sqlite3, "connect", lambda p, *a, **kw: connect(f"file:{p}?mode=ro", *a, uri=True,
                                                                        **kw))
    _who, t = _to_act(path, store, created)
    assert not t.submit(make_bot("random", seed=1).act(t.game))
    assert "read-only" in message(t) and store.log(created.room) == []


def test_a_rooms_file_locked_too_long_is_said_in_the_message_line(room):
    path, store, created = room
    who = store.game(created.room).current_player
    if who not in created.codes:
        pytest.skip("the bot opens")
    t = RoomTable(RoomClient(SQLiteStore(path, timeout=0.1), created.codes[who]), delay=0, drive_bots=False)
    store._con.execute("BEGIN IMMEDIATE")
    try:
        assert not t.submit(make_bot("random", seed=1).act(t.game))
    finally:
        store._con.execute("ROLLBACK")
    assert "is busy" in message(t) and store.log(created.room) == []


def test_a_decision_whose_text_would_not_replay_is_refused_at_the_table(room):
    path, store, created = room
    who, t = _to_act(path, store, created)
    assert not t.submit(Build(who, "Bremen, Stadt"))
    assert "does not read back" in message(t) and store.log(created.room) == []


def test_a_log_changed_under_the_table_is_said_and_nothing_is_written(room):
    path, store, created = room
    g, seen = store.snapshot(created.room)
    if g.current_player not in created.codes:
        pytest.skip("the bot opens")
    store.play(created.room, created.codes[g.current_player], make_bot("random", seed=2).act(g), seen)
    t = table(path, created.codes["Ann"], drive_bots=False)  # its store has read the log (1 row)
    store._con.execute("DELETE FROM log WHERE room = ? AND seq = 1", (created.room,))
    store._con.execute("INSERT INTO log VALUES (?, 2, 'Cy', 'Cy: pass', 0)", (created.room,))  # a gap
    assert not t.submit(make_bot("random", seed=1).act(t.game))
    assert "changed under this app" in message(t)
    assert [d.seq for d in store.log(created.room)] == [2]  # nothing appended


def test_joining_a_room_whose_setup_is_not_json_says_so(room):
    path, store, created = room
    store._con.execute("UPDATE rooms SET setup = '{garbage' WHERE id = ?", (created.room,))
    page = AppPage(str(path))
    page.code.value = created.codes["Ann"]
    assert not isinstance(page.table, RoomTable)
    assert "is not a game" in page.message.value


def test_joining_a_room_whose_setup_is_nested_too_deeply_says_so(room):
    path, store, created = room
    deep = "[" * 100_000 + "]" * 100_000
    store._con.execute("UPDATE rooms SET setup = ? WHERE id = ?", (deep, created.room))
    page = AppPage(str(path))
    page.code.value = created.codes["Ann"]
    assert "nested too deeply" in page.message.value


def test_joining_an_empty_rooms_file_says_so(tmp_path: Path):
    path = tmp_path / "class.sqlite"
    path.write_bytes(b"")
    page = AppPage(str(path), code="abcdefghijkl")
    assert "is an empty file" in page.message.value and path.read_bytes() == b""


def test_a_code_that_is_not_text_says_it_is_no_seats_code(room):
    path, _store, _created = room
    page = AppPage(str(path))
    page.code.value = "ab\ud800cd"  # a lone surrogate: valid in the widget's JSON, not UTF-8
    assert "no seat&#x27;s code" in page.message.value
