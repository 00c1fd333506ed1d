"""Game rooms (powergrid_nb.rooms): one game kept as an append-only log in SQLite, seats with codes, the
teacher's tools, and clear errors that change nothing."""

from __future__ import annotations

import sqlite3

import pytest

from powergrid_nb import IllegalAction, load, new_game
from powergrid_nb.rooms import (
    SCHEMA_VERSION,
    BotDriver,
    GameMovedOn,
    NotYourTurn,
    Paused,
    RoomError,
    Seat,
    SQLiteStore,
    StoreError,
    UnknownRoom,
    WrongCode,
)

SEATS = [Seat("Ada", "human"), Seat("Bo", "human"), Seat("Cy", "bot", "heuristic")]


@pytest.fixture
def room(tmp_path):
    store = SQLiteStore(tmp_path / "rooms.sqlite")
    created = store.create_room(new_game(3, seed=5), SEATS, title="class A")
    return store, created


def _turn(store, created):
    """(code, first legal action, rows seen) of the human to act."""
    g = store.game(created.room)
    return created.codes[g.current_player], g.legal_actions()[0], len(store.log(created.room))


def test_a_new_room_has_a_code_per_human_seat_and_a_teacher_code(room) -> None:
    store, created = room
    assert set(created.codes) == {"Ada", "Bo"} and len(created.teacher) == 12
    assert len(set(created.codes.values()) | {created.teacher}) == 3
    (info,) = store.rooms()
    assert (info.id, info.title, info.players, info.decisions) == (created.room, "class A",
                                                                 ("Ada", "Bo", "Cy"), 0)
    assert store.seats(created.room) == SEATS


def test_codes_are_not_stored_only_their_hashes(room, tmp_path) -> None:
    store, created = room
    raw = (tmp_path / "rooms.sqlite").read_bytes() + (tmp_path / "rooms.sqlite-wal").read_bytes()
    assert all(code.encode() not in raw for code in [*created.codes.values(), created.teacher])


def test_a_decision_is_appended_and_the_game_is_the_replay(room) -> None:
    store, created = room
    code, action, seen = _turn(store, created)
    assert store.play(created.room, code, action, seen) == 1
    (row,) = store.log(created.room)
    assert (row.seq, row.seat, row.action) == (1, action.player, str(action))
    g = new_game(3, seed=5)
    g.apply(action)
    assert store.game(created.room).to_dict() == g.to_dict()


def test_a_second_click_on_the_old_state_is_told_the_game_moved_on(room) -> None:
    store, created = room
    code, action, seen = _turn(store, created)
    store.play(created.room, code, action, seen)
    with pytest.raises(GameMovedOn, match="the game moved on: 1 decision came after"):
        store.play(created.room, code, action, seen)
    assert len(store.log(created.room)) == 1


def test_a_wrong_code_or_another_rooms_code_changes_nothing_and_says_why(room) -> None:
    store, created = room
    other = store.create_room(new_game(3, seed=6), SEATS)
    code, action, seen = _turn(store, created)
    with pytest.raises(WrongCode, match="no seat's code"):
        store.play(created.room, "not-a-code", action, seen)
    with pytest.raises(WrongCode, match="another room"):
        store.play(created.room, other.codes[action.player], action, seen)
    assert store.log(created.room) == [] and store.log(other.room) == []


def test_a_code_acts_for_its_own_seat_only(room) -> None:
    store, created = room
    g = store.game(created.room)
    other = next(p for p in ("Ada", "Bo") if p != g.current_player)
    with pytest.raises(NotYourTurn, match="a code acts for its own seat only"):
        store.play(created.room, created.codes[other], g.legal_actions()[0], 0)
    with pytest.raises(NotYourTurn, match=f"it is {g.current_player}'s turn"):
        store.play(created.room, created.codes[other], f"{other}: pass", 0)


def test_an_illegal_action_is_refused_with_the_rule_and_nothing_is_written(room) -> None:
    store, created = room
    code, action, _ = _turn(store, created)
    with pytest.raises(IllegalAction) as e:
        store.play(created.room, code, f"{action.player}: open 50 at 50", 0)
    assert e.value.rule and store.log(created.room) == []


def test_an_unknown_room_lists_the_rooms(room) -> None:
    store, created = room
    with pytest.raises(UnknownRoom, match=created.room):
        store.game("nope")


def test_the_teacher_pauses_and_resumes_a_room(room) -> None:
    store, created = room
    code, action, seen = _turn(store, created)
    with pytest.raises(WrongCode, match="teacher's code"):
        store.set_paused(created.room, code, True)
    store.set_paused(created.room, created.teacher, True)
    with pytest.raises(Paused):
        store.play(created.room, code, action, seen)
    store.set_paused(created.room, created.teacher, False)
    assert store.play(created.room, code, action, seen) == 1


def test_a_teacher_code_is_checked_without_writing_anything(room) -> None:
    store, created = room
    store.check_teacher(created.room, created.teacher)
    with pytest.raises(WrongCode, match="teacher's code"):
        store.check_teacher(created.room, created.codes["Ada"])
    assert store.info(created.room).paused is False and store.log(created.room) == []


def test_the_teacher_undoes_the_last_decision_with_an_undo_row(room) -> None:
    store, created = room
    code, action, seen = _turn(store, created)
    store.play(created.room, code, action, seen)
    assert store.undo_last(created.room, created.teacher) == 2
    assert [r.action for r in store.log(created.room)] == [str(action), "undo"]
    assert store.game(created.room).to_dict() == new_game(3, seed=5).to_dict()
    with pytest.raises(RoomError, match="nothing to undo"):
        store.undo_last(created.room, created.teacher)


def test_a_seat_handed_to_a_bot_and_back_gets_a_new_code(room) -> None:
    store, created = room
    g = store.game(created.room)
    seat = g.current_player
    assert store.set_seat(created.room, created.teacher, seat, "random") is None
    with pytest.raises(WrongCode):
        store.play(created.room, created.codes[seat], g.legal_actions()[0], 0)
    new = store.set_seat(created.room, created.teacher, seat, None)
    assert new and new != created.codes[seat]
    assert store.play(created.room, new, g.legal_actions()[0], 0) == 1


def test_one_process_drives_the_bots_under_a_lease(room) -> None:
    store, created = room
    first, second = BotDriver(store, created.room, "one"), BotDriver(store, created.room, "two")
    while store.game(created.room).current_player != "Cy":
        code, action, seen = _turn(store, created)
        store.play(created.room, code, action, seen)
    assert first.step() and second.step() == []
    with pytest.raises(RoomError, match="lease"):
        store.play_bot(created.room, "two", "Cy: pass", len(store.log(created.room)))


def test_an_expired_lease_is_taken_over(room) -> None:
    store, created = room
    assert store.take_lease(created.room, "one", seconds=-1)  # already expired: its holder stopped
    assert store.take_lease(created.room, "two") and not store.take_lease(created.room, "one")


def test_a_reopened_store_resumes_at_the_same_state(room, tmp_path) -> None:
    store, created = room
    driver = BotDriver(store, created.room)
    while len(store.log(created.room)) < 12:
        if store.game(created.room).current_player == "Cy":
            driver.step()
        else:
            store.play(created.room, *_turn(store, created))
    again = SQLiteStore(tmp_path / "rooms.sqlite")
    assert again.log(created.room) == store.log(created.room)
    assert again.game(created.room).to_dict() == store.game(created.room).to_dict()


def test_a_room_is_exported_as_a_save_and_a_save_imported_as_a_room(room, tmp_path) -> None:
    store, created = room
    code, action, seen = _turn(store, created)
    store.play(created.room, code, action, seen)
    path = store.export(created.room, tmp_path / "room.json")
    g = load(path)
    assert g.to_dict() == store.game(created.room).to_dict()
    imported = store.create_room(g, SEATS)
    assert store.game(imported.room).to_dict() == g.to_dict()


def test_the_seats_must_be_the_games_players(room) -> None:
    store, _ = room
    with pytest.raises(RoomError, match="the game's players"):
        store.create_room(new_game(3, seed=1), SEATS[:2])
    with pytest.raises(RoomError, match="'bot' with a bot's name"):
        store.create_room(new_game(3, seed=1), [Seat("Ada", "bot"), *SEATS[1:]])


# --- files that are not room stores: clear errors, nothing overwritten ----------------------------

def test_a_corrupted_file_is_refused_and_left_as_it_was(tmp_path) -> None:
    path = tmp_path / "rooms.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a room store"):
        SQLiteStore(path)
    assert path.read_bytes() == before


def test_another_programs_database_is_refused_and_left_as_it_was(tmp_path) -> None:
    path = tmp_path / "other.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE invoices (id INTEGER)")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match=r"another program \(tables: invoices\)"):
        SQLiteStore(path)
    assert path.read_bytes() == before


def test_a_store_of_an_unknown_schema_version_is_refused(room, tmp_path) -> None:
    store, _ = room
    store._con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION + 1}"):
        SQLiteStore(tmp_path / "rooms.sqlite")


def test_a_log_that_no_longer_replays_is_a_clear_error_and_is_kept(room, tmp_path) -> None:
    store, created = room
    code, action, seen = _turn(store, created)
    store.play(created.room, code, action, seen)
    store._con.execute("INSERT INTO log VALUES (?, 2, 'Ada', 'Ada: open 50 at 50', 0)", (created.room,))
    fresh = SQLiteStore(tmp_path / "rooms.sqlite")
    with pytest.raises(StoreError, match="decision 2 .* no longer replays"):
        fresh.game(created.room)
    assert len(fresh.log(created.room)) == 2  # nothing removed


# --- the command line -----------------------------------------------------------------------------

def test_room_create_list_and_export_on_the_command_line(tmp_path, capsys, monkeypatch) -> None:
    from powergrid_nb.cli import main

    monkeypatch.delenv("POWERGRID_APP_URL", raising=False)

    db = tmp_path / "rooms.sqlite"
    assert main(["room", "create", "--db", str(db), "--players", "Ada,Bo,Cy", "--bot", "Cy=heuristic",
                 "--seed", "1", "--title", "Class 3B"]) == 0
    out = capsys.readouterr().out
    (info,) = SQLiteStore(db).rooms()
    assert f"room {info.id} 'Class 3B'" in out and "teacher code: " in out and "Cy:  bot (heuristic)" in out
    code = out.split("Ada: ")[1].split()[0]
    assert SQLiteStore(db).seat_of(code) == (info.id, "Ada")
    # no address given: no links to a host the players may not reach, and how to get them
    assert "http" not in out.split("(no join links")[0] and "(no join links: give --app-url" in out
    assert main(["room", "list", "--db", str(db)]) == 0
    listed = capsys.readouterr().out
    assert f"{info.id}  Class 3B  Ada, Bo, Cy  germany/original  0 decisions  running" in listed
    assert main(["room", "export", info.id, str(tmp_path / "g.json"), "--db", str(db)]) == 0
    assert load(tmp_path / "g.json").to_dict() == new_game(["Ada", "Bo", "Cy"], seed=1).to_dict()


def test_room_create_prints_join_links_to_the_app_address_given(tmp_path, capsys) -> None:
    from powergrid_nb.cli import main

    db = tmp_path / "rooms.sqlite"
    assert main(["room", "create", "--db", str(db), "--players", "Ada,Bo", "--app-url",
                 "http://class.example:8866/"]) == 0
    out = capsys.readouterr().out
    code = out.split("Ada: ")[1].split()[0]
    assert f"Ada: {code}  http://class.example:8866/?code={code}" in out


@pytest.mark.parametrize("action", [["list"], ["export", "r1", "g.json"]])
def test_room_list_and_export_never_create_the_file_they_were_to_read(tmp_path, capsys, action) -> None:
    from powergrid_nb.cli import main

    typo = tmp_path / "typo.sqlite"
    assert main(["room", *action, "--db", str(typo)]) == 2
    assert not typo.exists()
    assert f"no rooms file {str(typo)!r}: `powergrid-nb room create --db" in capsys.readouterr().err


def test_room_create_takes_the_app_address_from_the_environment(tmp_path, capsys, monkeypatch) -> None:
    from powergrid_nb.cli import main

    monkeypatch.setenv("POWERGRID_APP_URL", "http://10.0.0.5:8866/")
    assert main(["room", "create", "--db", str(tmp_path / "r.sqlite"), "--players", "Ada,Bo"]) == 0
    out = capsys.readouterr().out
    code = out.split("Ada: ")[1].split()[0]
    assert f"Ada: {code}  http://10.0.0.5:8866/?code={code}" in out and "no join links" not in out


def test_room_command_errors_say_what_is_wrong(tmp_path, capsys) -> None:
    from powergrid_nb.cli import main

    db = tmp_path / "rooms.sqlite"
    assert main(["room", "create", "--db", str(db), "--bot", "Zed=heuristic"]) == 2
    assert "--bot names a seat that is not a player (Zed)" in capsys.readouterr().err
    assert main(["room", "export", "nope", "x.json", "--db", str(db)]) == 2
    assert "no room 'nope'" in capsys.readouterr().err
    bad = tmp_path / "bad.sqlite"
    bad.write_text("hello")
    assert main(["room", "list", "--db", str(bad)]) == 2
    assert "not a room store" in capsys.readouterr().err


def test_a_snapshot_is_the_game_and_the_rows_it_replays_read_together(room) -> None:
    store, created = room
    store.play(created.room, *_turn(store, created))
    g, seen = store.snapshot(created.room)
    assert seen == len(store.log(created.room)) == 1
    assert g.to_dict() == store.game(created.room).to_dict()


def test_a_file_held_by_another_writer_too_long_is_a_clear_error(room, tmp_path) -> None:
    store, created = room
    other = SQLiteStore(tmp_path / "rooms.sqlite", timeout=0.2)
    store._con.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(RoomError, match="is busy: another writer held it for more than 0.2 s"):
            other.play(created.room, *_turn(other, created))
    finally:
        store._con.execute("ROLLBACK")
    assert other.play(created.room, *_turn(other, created)) == 1


def test_processes_opening_a_new_file_at_once_all_get_the_store(tmp_path) -> None:
    import threading

    errors = []
    for k in range(20):
        path, start = tmp_path / f"r{k}.sqlite", threading.Barrier(4)

        def open_it(path=path, start=start) -> None:
            start.wait()
            try:
                SQLiteStore(path).close()
            except Exception as e:  # noqa: BLE001 (collected for the assert)
                errors.append(repr(e))
        threads = [threading.Thread(target=open_it) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []


# --- what is written must read back; a file changed under a writer; what SQLite refuses -------------------

HUMANS = [Seat("Ada", "human"), Seat("Bo", "human"), Seat("Cy", "human")]


def _human_room(tmp_path, decisions: int):
    """A store with a room of three human seats and ``decisions`` rows in its log."""
    store = SQLiteStore(tmp_path / "humans.sqlite")
    created = store.create_room(new_game(3, seed=5), HUMANS)
    for _ in range(decisions):
        store.play(created.room, *_turn(store, created))
    return store, created


def test_an_action_whose_text_does_not_read_back_is_refused_and_nothing_is_written(room) -> None:
    from powergrid_nb.engine.actions import Build

    store, created = room
    who = store.game(created.room).current_player
    with pytest.raises(RoomError, match=r"build Bremen, Stadt'.* does not read back as the same decision"):
        store.play(created.room, created.codes.get(who, created.codes["Ada"]),
                   Build(who, "Bremen, Stadt"), 0)
    assert store.log(created.room) == []


def test_a_writer_refuses_to_append_after_a_row_in_the_middle_was_deleted(tmp_path) -> None:
    store, created = _human_room(tmp_path, 3)
    other = sqlite3.connect(tmp_path / "humans.sqlite")
    other.execute("DELETE FROM log WHERE room = ? AND seq = 2", (created.room,))
    other.commit()
    other.close()
    with pytest.raises(StoreError, match="changed under this app .*2 rows up to decision 3"):
        store.play(created.room, *_turn_cached(store, created))
    assert [d.seq for d in store.log(created.room)] == [1, 3]  # nothing appended


def _turn_cached(store, created):
    """(code, a legal action, rows seen) from the store's own (cached) game, without re-reading it."""
    g, seen = store._games[created.room]
    return created.codes[g.current_player], g.legal_actions()[0], seen


def test_a_log_cut_short_under_a_writer_is_refused_then_read_afresh(tmp_path) -> None:
    store, created = _human_room(tmp_path, 3)
    store.game(created.room)
    other = sqlite3.connect(tmp_path / "humans.sqlite")
    other.execute("DELETE FROM log WHERE room = ? AND seq = 3", (created.room,))
    other.commit()
    other.close()
    with pytest.raises(StoreError, match="changed under this app"):
        store.play(created.room, *_turn_cached(store, created))
    assert len(store.game(created.room).actions) == 2  # the next read replays the file's log


def test_an_empty_file_given_as_the_rooms_file_is_refused_and_left_empty(tmp_path) -> None:
    path = tmp_path / "rooms.sqlite"
    path.write_bytes(b"")
    with pytest.raises(StoreError, match="is an empty file, not a room store"):
        SQLiteStore(path)
    assert path.read_bytes() == b""


def test_a_rooms_file_that_cannot_be_opened_is_a_clear_error(tmp_path) -> None:
    path = tmp_path / "rooms.sqlite"
    path.mkdir()  # unreadable as a file, even for root
    with pytest.raises(StoreError, match="rooms.sqlite cannot be opened"):
        SQLiteStore(path)


def test_a_new_rooms_file_is_never_seen_half_made(tmp_path) -> None:
    path = tmp_path / "rooms.sqlite"
    SQLiteStore(path).close()
    assert SQLiteStore(path).rooms() == []
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("rooms.sqlite-")) == \
        ["rooms.sqlite"]  # the file it was made in is gone


def test_a_setup_that_is_not_json_is_a_store_error(room, tmp_path) -> None:
    store, created = room
    store._con.execute("UPDATE rooms SET setup = '{garbage' WHERE id = ?", (created.room,))
    fresh = SQLiteStore(tmp_path / "rooms.sqlite")
    with pytest.raises(StoreError, match=f"room {created.room}: its set-up .* is not a game"):
        fresh.info(created.room)
    with pytest.raises(StoreError, match="is not a game"):
        fresh.game(created.room)


def test_a_setup_nested_too_deeply_is_a_store_error(room, tmp_path) -> None:
    store, created = room
    deep = "[" * 100_000 + "]" * 100_000
    store._con.execute("UPDATE rooms SET setup = ? WHERE id = ?", (deep, created.room))
    with pytest.raises(StoreError, match="nested too deeply"):
        SQLiteStore(tmp_path / "rooms.sqlite").game(created.room)


def test_a_full_disk_is_a_clear_error_and_nothing_is_written(room) -> None:
    store, created = room
    pages = store._con.execute("PRAGMA page_count").fetchone()[0]
    store._con.execute(f"PRAGMA max_page_count = {pages}")  # the file may not grow: a full disk
    with pytest.raises(StoreError, match="the disk is full .*nothing was written"):
        for k in range(50):
            store.create_room(new_game(3, seed=k), SEATS, title="x" * 2000)
    assert store._con.execute("PRAGMA page_count").fetchone()[0] == pages


@pytest.fixture
def read_only(monkeypatch):
    """Every SQLite connection opened read-only (``mode=ro``), as a read-only file is even for root;
    gives the writable ``sqlite3.connect``."""
    connect = sqlite3.connect

    def ro(path, *args, **kw):
        return connect(f"file:{path}?mode=ro", *args, uri=True, **kw)
    monkeypatch.setattr(sqlite3, "connect", ro)
    return connect


def test_a_read_only_rooms_file_says_so_when_written(room, tmp_path, read_only) -> None:
    _store, created = room
    store = SQLiteStore(tmp_path / "rooms.sqlite")
    assert store.info(created.room).decisions == 0  # it reads
    with pytest.raises(StoreError, match="is read-only here .*nothing was written"):
        store.play(created.room, *_turn(store, created))


def test_a_read_only_rooms_file_is_not_called_another_programs(tmp_path, read_only) -> None:
    path = tmp_path / "rooms.sqlite"
    con = read_only(path)  # a room store not yet switched to WAL (the switch is a write)
    con.executescript("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                      "INSERT INTO meta VALUES ('app', 'powergrid_nb.rooms'), ('schema_version', '1');")
    from powergrid_nb.rooms.sqlite import SCHEMA
    con.executescript(SCHEMA.split(";", 1)[1])
    con.close()
    with pytest.raises(StoreError, match="is read-only here") as e:
        SQLiteStore(path)
    assert "not a room store" not in str(e.value)
