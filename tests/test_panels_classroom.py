"""The teacher's view of the class rooms (powergrid_nb.panels.classroom): a new room hands out
a code and a link per human seat and the teacher's code; the list shows every room of the file; the
selected room's tools (pause, undo, seats, export) need that room's teacher code, and a wrong one
changes nothing; what the view shows equals a view built anew on the same file, through a whole game
of humans, a bot and the teacher's interventions."""

from __future__ import annotations

import asyncio
import html
import random
from pathlib import Path

import ipywidgets as w
import pytest
from _panels import click, click_errors_fail, one  # noqa: F401 (autouse)

import powergrid_nb
from powergrid_nb import new_game
from powergrid_nb.bots import make_bot
from powergrid_nb.panels.classroom import Classroom, classroom
from powergrid_nb.panels.snapshot import diff
from powergrid_nb.rooms import (
    BotDriver,
    Created,
    Paused,
    RoomClient,
    Seat,
    SQLiteStore,
    StoreError,
    WrongCode,
)
from powergrid_nb.views.mapboard import board, fit_height, table_width

APP = "http://teacher.example:8866/"
PLAYERS = ["Ada", "Bo", "Cy"]


def seats(bots: dict[str, str]) -> list[Seat]:
    return [Seat(p, "bot", bots[p]) if p in bots else Seat(p, "human") for p in PLAYERS]


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "rooms.sqlite"


@pytest.fixture
def store(path: Path):
    s = SQLiteStore(path)
    yield s
    s.close()


def make_room(store: SQLiteStore, title: str = "Class 3B", seed: int = 3,
              bots: dict[str, str] | None = None) -> Created:
    return store.create_room(new_game(PLAYERS, seed=seed), seats({"Cy": "random"} if bots is None else bots),
                             title)


@pytest.fixture
def view(path: Path):
    made: list[Classroom] = []

    def build(**kw) -> Classroom:
        c = Classroom(path, app_url=APP, delay=0, **kw)
        made.append(c)
        return c

    yield build
    for c in made:
        c.close()


def play_humans_until_bot(store: SQLiteStore, room: Created, seed: int = 1) -> None:
    """Random legal decisions for the human seats until a bot seat is to act."""
    bot = make_bot("random", seed=seed)
    while True:
        g, seen = store.snapshot(room.room)
        if g.current_player not in room.codes:
            return
        store.play(room.room, room.codes[g.current_player], bot.act(g), seen)


# --- a new room -----------------------------------------------------------------------------------------
def test_a_new_room_hands_out_a_code_and_a_link_per_human_seat_and_the_teacher_code(view, path) -> None:
    c = view()
    click(c, "pg-new-room")
    one(c, "pg-room-title").value = "Class 3B"
    form = c.new.form
    form.players.value = 3
    for name, box in zip(PLAYERS, form.names[:3], strict=True):
        box.value = name
    form.kinds[1].value = "human"
    form.kinds[2].value = "random"
    click(c, "pg-start")
    store = SQLiteStore(path)
    (info,) = store.rooms()
    assert info.title == "Class 3B"
    assert [(s.name, s.kind, s.bot) for s in info.seats] == [("Ada", "human", None), ("Bo", "human", None),
                                                             ("Cy", "bot", "random")]
    shown = c.new.created.value
    for seat in ("Ada", "Bo"):
        code = next(code for code in _codes(shown) if store.seat_of(code)[1] == seat)
        assert f">{code}</span>" in shown, "the code as text to copy"
        assert f"href='{APP}?code={code}'" in shown, "the code as a link to the app"
    teacher = c.teacher_codes[info.id]
    assert f">{teacher}</span>" in shown and "shown this once" in shown
    assert c.selected == info.id and not one(c, "pg-room-pause").disabled, "the new room, unlocked"
    store.close()


def test_a_closed_new_room_form_leaves_none_of_its_widgets_open(view) -> None:
    c = view()
    click(c, "pg-new-room")
    form = c.new.form
    form.players.value = 2
    parts = [form, *form.names, *form.kinds, form.region_map, *form.seat_box.children]
    click(c, "pg-cancel")
    assert c.new.box.children == ()
    assert [type(x).__name__ for x in parts if x.comm is not None] == []


def _codes(html: str) -> list[str]:
    return [part.split("<")[0] for part in html.split("class='pg-code' style='")[1:]
            for part in [part.split("'>", 1)[1]]]


def test_hide_codes_clears_the_new_rooms_codes(view, path) -> None:
    c = view()
    click(c, "pg-new-room")
    click(c, "pg-start")
    assert "teacher code" in c.new.created.value
    click(c, "pg-hide-codes")
    assert c.new.created.value == ""


def test_opening_the_view_on_a_missing_file_creates_nothing(view, path) -> None:
    c = view()
    assert not path.exists()
    assert "No rooms yet" in one(c, "pg-no-room").value
    c.sync()
    assert not path.exists()


def test_classroom_reads_the_rooms_file_from_the_environment(monkeypatch, store, path) -> None:
    made = make_room(store)
    monkeypatch.setenv("POWERGRID_ROOMS", str(path))
    monkeypatch.setenv("POWERGRID_APP_URL", APP)
    c = classroom()
    try:
        assert c.path == path and c.app_url == APP and made.room in c.infos
    finally:
        c.close()


# --- the list -------------------------------------------------------------------------------------------
def test_the_list_shows_every_room_with_whose_turn_it_is(view, store) -> None:
    a = make_room(store, "Table 1")
    b = make_room(store, "Table 2", seed=5, bots={"Ada": "random", "Bo": "random", "Cy": "random"})
    c = view()
    late = make_room(store, "Table 3")  # made elsewhere (the CLI) while the view is open
    BotDriver(store, b.room).step(5000)  # a finished room: its bots played it to the end
    assert store.game(b.room).is_over
    c.sync()
    lines = dict((room, text) for text, room in one(c, "pg-rooms").options)
    assert set(lines) == {a.room, b.room, late.room}
    assert "Table 1" in lines[a.room] and f"{store.game(a.room).current_player} to act" in lines[a.room]
    assert "game over:" in lines[b.room] and " ".join(store.game(b.room).winners) in lines[b.room]
    assert "Table 3" in lines[late.room]


def test_selecting_a_room_shows_its_status_map_players_and_log(view, store) -> None:
    a, b = make_room(store, "Table 1"), make_room(store, "Table 2", seed=9)
    c = view()
    one(c, "pg-rooms").value = a.room
    assert "Table 1" in one(c, "pg-room-status").value
    g = store.game(a.room)
    assert c.view is not None and c.view.map.layout.title.text == g.map.title
    # laid out as the play table's map (shipped, nothing clashing: Germany at 520 px put names on names)
    assert c.view.map.layout.height == fit_height(g, table_width(g)) and board(g).clashes == ()
    assert "Game log" in one(c, "pg-room-log").value
    one(c, "pg-rooms").value = b.room
    assert "Table 2" in one(c, "pg-room-status").value and c.selected == b.room


def test_a_move_at_a_players_screen_shows_after_a_sync(view, store) -> None:
    made = make_room(store)
    c = view()
    before = one(c, "pg-room-log").value
    client = RoomClient(store, made.codes[store.game(made.room).current_player])
    client.play(client.game.legal_actions()[0])
    c.sync()
    assert one(c, "pg-room-log").value != before
    assert "1 decision " in one(c, "pg-room-status").value


# --- the teacher's code ---------------------------------------------------------------------------------
def test_the_tools_stay_off_without_the_teacher_code(view, store) -> None:
    make_room(store)
    c = view()
    for cls in ("pg-room-pause", "pg-room-undo", "pg-export", "pg-room-download"):
        assert one(c, cls).disabled, cls
    assert all(d.disabled for d in c.view.seats.values())


def test_a_wrong_teacher_code_is_refused_and_changes_nothing(view, store) -> None:
    made = make_room(store)
    c = view()
    before = store.info(made.room)
    one(c, "pg-teacher-code").value = "not-the-code"
    click(c, "pg-unlock")
    assert "not this room's teacher code" in c.message.value
    assert one(c, "pg-room-pause").disabled
    assert store.info(made.room) == before
    other = make_room(store, "Other")
    c.sync()
    assert not c.unlock(made.room, other.teacher), "another room's teacher code"


def test_the_right_teacher_code_unlocks_the_tools(view, store) -> None:
    made = make_room(store)
    c = view()
    one(c, "pg-teacher-code").value = made.teacher
    click(c, "pg-unlock")
    assert not one(c, "pg-room-pause").disabled
    assert one(c, "pg-teacher-code").value == "", "the code does not stay on screen"


# --- pause, undo, seats ---------------------------------------------------------------------------------
def test_pause_stops_the_bots_and_the_players_until_resumed(view, store) -> None:
    made = make_room(store)
    c = view()
    c.unlock(made.room, made.teacher)
    play_humans_until_bot(store, made)
    click(c, "pg-room-pause")
    assert store.info(made.room).paused and one(c, "pg-room-pause").description == "Resume"
    before = store.info(made.room).decisions
    c.sync()
    assert store.info(made.room).decisions == before, "a bot moved in a paused room"
    g, seen = store.snapshot(made.room)
    human = next(iter(made.codes))
    with pytest.raises(Paused):
        store.play(made.room, made.codes[human], g.legal_actions()[0], seen)
    click(c, "pg-room-pause")
    c.sync()
    assert store.info(made.room).decisions == before + 1, "the bot moves once resumed"


def test_undo_takes_back_the_last_decision_and_says_which(view, store) -> None:
    made = make_room(store, bots={})
    c = view()
    c.unlock(made.room, made.teacher)
    g, seen = store.snapshot(made.room)
    action = g.legal_actions()[0]
    store.play(made.room, made.codes[g.current_player], action, seen)
    c.sync()
    click(c, "pg-room-undo")
    assert store.game(made.room).actions == []
    assert c.message.value.count("undone:") == 1 and action.player in c.message.value
    assert one(c, "pg-room-undo").disabled, "nothing left to undo"


def test_a_refused_undo_is_shown_not_raised(view, store) -> None:
    made = make_room(store, bots={})
    c = view()
    c.unlock(made.room, made.teacher)
    c.undo()
    assert "could not undo: nothing to undo" in c.message.value


def test_an_undo_on_a_log_changed_under_the_view_is_refused_and_said(view, store) -> None:
    made = make_room(store, bots={})
    for _ in range(3):
        g, seen = store.snapshot(made.room)
        store.play(made.room, made.codes[g.current_player], g.legal_actions()[0], seen)
    c = view()
    c.unlock(made.room, made.teacher)  # the view's store has read the log: 3 rows
    store._con.execute("DELETE FROM log WHERE room = ? AND seq = 2", (made.room,))
    c.undo()
    assert "could not undo" in c.message.value and "changed under this app" in c.message.value
    assert [d.seq for d in store.log(made.room)] == [1, 3]  # no undo row written


def test_the_view_refuses_an_empty_rooms_file_and_leaves_it_empty(view, path) -> None:
    path.write_bytes(b"")
    with pytest.raises(StoreError, match="is an empty file, not a room store"):
        view()
    assert path.read_bytes() == b""


def test_a_seat_handed_to_a_bot_and_back_gets_a_new_code_and_the_old_one_is_refused(view, store) -> None:
    made = make_room(store)
    c = view()
    c.unlock(made.room, made.teacher)
    one(c, "pg-room-seat-Bo").value = "random"
    assert store.info(made.room).seats[1] == Seat("Bo", "bot", "random")
    with pytest.raises(WrongCode):
        store.seat_of(made.codes["Bo"], made.room)
    one(c, "pg-room-seat-Bo").value = "human"
    new = _codes(c.message.value)
    assert len(new) == 1 and new[0] != made.codes["Bo"]
    assert store.seat_of(new[0], made.room) == (made.room, "Bo")
    assert f"href='{APP}?code={new[0]}'" in c.message.value
    with pytest.raises(WrongCode):
        store.seat_of(made.codes["Bo"], made.room)


# --- export ---------------------------------------------------------------------------------------------
def test_export_writes_a_save_that_load_reads_as_the_rooms_game(view, store, path) -> None:
    made = make_room(store)
    play_humans_until_bot(store, made, seed=2)
    c = view()
    c.unlock(made.room, made.teacher)
    one(c, "pg-export-name").value = "class 3b"
    click(c, "pg-export")
    saved = path.parent / "exports" / "class 3b.json"
    assert powergrid_nb.load(saved).to_dict() == store.game(made.room).to_dict()
    assert "powergrid_nb.load(" in c.message.value and "class 3b.json" in c.message.value


def test_export_takes_plain_names_only(view, store, path) -> None:
    made = make_room(store)
    c = view()
    c.unlock(made.room, made.teacher)
    one(c, "pg-export-name").value = "../escape"
    click(c, "pg-export")
    said = html.unescape(c.message.value)
    assert "could not export: '..' is not allowed, saves stay in the exports folder" in said
    assert not (path.parent / "escape.json").exists()


def test_download_offers_the_rooms_game_as_a_data_link(view, store) -> None:
    made = make_room(store)
    c = view()
    c.unlock(made.room, made.teacher)
    click(c, "pg-room-download")
    link = one(c, "pg-room-download-link").value
    assert f"download='room_{made.room}.json'" in link and "href='data:application/json;base64," in link


# --- the timer --------------------------------------------------------------------------------------------
def test_the_timer_runs_on_the_kernels_loop_and_close_cancels_it(path) -> None:
    async def main() -> None:
        c = Classroom(path, app_url=APP, poll=0.01)
        assert c._timer is not None
        await asyncio.sleep(0.05)
        assert c._timer is not None, "the timer keeps going"
        c.close()
        assert c._timer is None

    asyncio.run(main())


# --- what is shown equals a fresh build -------------------------------------------------------------------
def fresh_twin(c: Classroom) -> Classroom:
    """A view built now on the same file, told the same teacher codes, the same room selected, the same
    message and new-room codes on screen."""
    twin = Classroom(c.path, app_url=c.app_url, poll=c.poll_every, delay=c.delay, room=c.selected)
    for room, code in c.teacher_codes.items():
        assert twin.unlock(room, code)
    twin.message.value = c.message.value
    twin.new.created.value = c.new.created.value
    twin.new.hide.layout.display = c.new.hide.layout.display
    if c.view is not None and twin.view is not None:
        twin.view.export_name.value = c.view.export_name.value
    return twin


def assert_shows_a_fresh_build(c: Classroom, after: str) -> None:
    twin = fresh_twin(c)
    try:
        live, new = c.snapshot(), twin.snapshot()
    finally:
        twin.close()
    if live != new:
        raise AssertionError(f"after {after}: the view differs from a fresh build (live != fresh):\n  "
                             + "\n  ".join(diff(live, new, limit=12)))


@pytest.mark.parametrize("seed", [3])
def test_the_view_equals_a_fresh_build_through_a_whole_game(view, store, seed: int) -> None:
    rng = random.Random(seed)
    made = make_room(store, seed=seed)
    other = make_room(store, "Other table", seed=seed + 1)  # listed, its line kept up to date too
    c = view()
    c.select(made.room)
    c.unlock(made.room, made.teacher)
    codes = dict(made.codes)
    chooser = make_bot("random", seed=seed)
    steps, paused, happened = 0, False, set()
    while not store.game(made.room).is_over and steps < 2000:
        steps += 1
        info = store.info(made.room)
        g, seen = store.snapshot(made.room)
        r = rng.random()
        if paused:
            if codes:
                seat = g.current_player if g.current_player in codes else next(iter(codes))
                with pytest.raises(Paused):  # the pause comes before every other check
                    store.play(made.room, codes[seat], g.legal_actions()[0], seen)
            click(c, "pg-room-pause")
            paused, what = False, "resume"
        elif r < 0.01:
            click(c, "pg-room-pause")
            paused, what = True, "pause"
        elif r < 0.03 and g.actions:
            click(c, "pg-room-undo")
            what = "undo"
        elif r < 0.04:
            seat = rng.choice(["Ada", "Bo"])
            kind = "random" if next(s for s in info.seats if s.name == seat).kind == "human" else "human"
            one(c, f"pg-room-seat-{seat}").value = kind
            if kind == "human":
                codes[seat] = _codes(c.message.value)[0]
            else:
                codes.pop(seat)
            what = f"{seat} handed to {kind}"
        elif g.current_player in codes:
            store.play(made.room, codes[g.current_player], chooser.act(g), seen)
            what = f"{g.current_player}'s decision"
        else:
            what = "a bot's turn"
        if steps % 7 == 0:  # the other room moves too, at its players' screens and by its bot
            og, oseen = store.snapshot(other.room)
            if not og.is_over and og.current_player in other.codes:
                store.play(other.room, other.codes[og.current_player], chooser.act(og), oseen)
        c.sync()  # bots move here (delay 0), one per room and sync
        happened.add(what.split()[-1] if "handed" in what else what)
        if steps % 30 == 0 or what in ("pause", "resume", "undo") or "handed" in what:
            assert_shows_a_fresh_build(c, f"step {steps}: {what}")
    assert store.game(made.room).is_over, f"not over after {steps} steps"
    assert {"pause", "resume", "undo", "random", "human", "a bot's turn"} <= happened, happened
    assert_shows_a_fresh_build(c, "the game's end")
    assert "game over" in one(c, "pg-room-status").value.lower()


def test_no_open_widget_refers_to_a_closed_one(view, store) -> None:
    """A page connecting later (Voila) loads every open widget: one whose child was closed never shows."""
    from ipywidgets.widgets.widget import _instances

    before = set(_instances)
    a = make_room(store)
    make_room(store, "Other")
    c = view()
    click(c, "pg-new-room")
    c.new.form.players.value = 3  # the form shows other seat rows
    click(c, "pg-start")
    c.select(a.room)  # the new room's view is replaced by this one's
    c.unlock(a.room, a.teacher)
    made = [x for k, x in list(_instances.items()) if k not in before]
    dangling = [f"{type(x).__name__}.{key}" for x in made for key in x.keys
                for y in (lambda v: v if isinstance(v, list | tuple) else [v])(getattr(x, key))
                if isinstance(y, w.Widget) and y.comm is None]
    assert dangling == []
