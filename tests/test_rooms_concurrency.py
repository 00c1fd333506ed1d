"""Game rooms under concurrency ("Reliability"): several processes write one room file at once,
a writer dies inside its transaction, a store is reopened.

Each worker is its own process (``multiprocessing``, "spawn" on every platform) with its own
:class:`SQLiteStore` on the room file; it plays seeded random legal moves for its seat(s) as fast as it
can, on the game as :meth:`~SQLiteStore.game` shows it, and retries on :class:`GameMovedOn`. Afterwards
the log must be whole: seq 1..N, each row its player's, every row legal at its turn when the set-up is
replayed, the replay the store's game, and that game loads back from its ``to_dict()``.

With one seat per process, two decisions can never be made on the same state (only the player to act
may decide, and the engine checks it): the race there is for the file's write lock and the reads
between writes. :class:`GameMovedOn` comes from a player's second tab (two processes on one seat) or
from the teacher's undo landing between a player's look and click; all three are run.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import random
import signal
import sqlite3
import time
import traceback
from pathlib import Path

import pytest

from powergrid_nb import Game, new_game
from powergrid_nb.rooms import Created, GameMovedOn, RoomError, Seat, SQLiteStore

SPAWN = mp.get_context("spawn")


# --- worker processes (top level: "spawn" imports them by name) -------------------------------------
def _player(path: str, room: str, codes: dict[str, str], seed: int, cap: int, resend: bool,
            seen_from_log: bool, start, results) -> None:
    """Play random legal moves for the seats of ``codes`` until the game is over or has ``cap`` log rows.

    Puts ``(seed, {"played", "moved_on", "resent_refused", "polls"})`` on ``results`` (or
    ``(seed, traceback)``). ``resend``: after each own decision, send it again with the same ``seen``
    (a double click), which must be refused with GameMovedOn. ``seen``: the game's decisions, or with
    ``seen_from_log`` (rooms with undo rows) the log's length read before the game, so the game is at
    least as new as ``seen`` says and a newer one can only make ``play`` refuse with GameMovedOn."""
    try:
        store = SQLiteStore(path)
        rng = random.Random(seed)
        counts = {"played": 0, "moved_on": 0, "resent_refused": 0, "polls": 0}
        start.wait(60)
        rows = 0
        while True:
            if seen_from_log:
                rows += len(store.log(room, rows))
                g, seen = store.game(room), rows
            else:
                g = store.game(room)
                seen = len(g.actions)  # the rows this game is the replay of (no undo in these rooms)
            if g.is_over or seen >= cap:
                break
            seat = g.current_player
            if seat not in codes:
                counts["polls"] += 1
                time.sleep(0.0002)
                continue
            action = rng.choice(g.legal_actions())
            try:
                seq = store.play(room, codes[seat], action, seen)
            except GameMovedOn:
                counts["moved_on"] += 1
                continue
            assert seq == seen + 1, (seq, seen)
            counts["played"] += 1
            if resend:
                try:
                    store.play(room, codes[seat], action, seen)
                except GameMovedOn:
                    counts["resent_refused"] += 1
        store.close()
        results.put((seed, counts))
    except BaseException:
        results.put((seed, traceback.format_exc()))


def _teacher(path: str, room: str, teacher: str, cap: int, start, results) -> None:
    """The teacher's undo every 5-25 ms until the room has ``cap`` log rows or its game is over."""
    try:
        store = SQLiteStore(path)
        rng = random.Random(0)
        counts = {"undone": 0, "nothing": 0}
        start.wait(60)
        while len(store.log(room)) < cap and not store.game(room).is_over:
            time.sleep(rng.uniform(0.005, 0.025))
            try:
                store.undo_last(room, teacher)
                counts["undone"] += 1
            except RoomError:  # nothing to undo yet
                counts["nothing"] += 1
        results.put(("teacher", counts))
    except BaseException:
        results.put(("teacher", traceback.format_exc()))


def _die_after_insert(path: str, room: str, code: str, action: str, seen: int) -> None:
    """``store.play`` up to its INSERT, then the process dies before COMMIT (``os._exit``).

    Exit code 3: the row was in the open transaction when it died; 4: it was not (the test is void)."""
    store = SQLiteStore(path)
    decide = SQLiteStore._decide

    def decide_then_die(self, room, seat, action, seen, con):
        seq = decide(self, room, seat, action, seen, con)
        inside = con.execute("SELECT COUNT(*) FROM log WHERE room = ? AND seq = ?", (room, seq)).fetchone()
        os._exit(3 if inside[0] == 1 else 4)

    SQLiteStore._decide = decide_then_die
    store.play(room, code, action, seen)
    os._exit(5)  # not reached


def _hold_lock(path: str, room: str, seat: str, action: str, seen: int, locked) -> None:
    """Append a decision as ``play`` does (BEGIN IMMEDIATE, check, INSERT), then wait without committing
    until the test kills this process."""
    store = SQLiteStore(path)
    with store._write() as con:
        store._decide(room, seat, action, seen, con)
        locked.set()
        time.sleep(120)


# --- helpers --------------------------------------------------------------------------------------------
def _room(tmp_path: Path, players: int, seed: int) -> tuple[str, SQLiteStore, str, Game, dict[str, str]]:
    path, store, created, setup = _created(tmp_path, players, seed)
    return path, store, created.room, setup, created.codes


def _created(tmp_path: Path, players: int, seed: int) -> tuple[str, SQLiteStore, Created, Game]:
    path = str(tmp_path / "rooms.sqlite")
    setup = new_game(players, seed=seed)
    store = SQLiteStore(path)
    return path, store, store.create_room(setup, [Seat(p, "human") for p in setup.players]), setup


def _run_players(path: str, room: str, plan: list[dict[str, str]], cap: int, resend: bool = False,
                 teacher: str | None = None, timeout: float = 90) -> list[dict]:
    """One spawned process per entry of ``plan`` (its seats' codes), and one for the ``teacher``'s undos
    if given, started together once each has opened its store; their counts (the teacher's last)."""
    n = len(plan) + (teacher is not None)
    start, results = SPAWN.Barrier(n + 1), SPAWN.Queue()
    procs = [SPAWN.Process(target=_player, args=(path, room, codes, k, cap, resend, teacher is not None,
                                                 start, results))
             for k, codes in enumerate(plan)]
    if teacher is not None:
        procs.append(SPAWN.Process(target=_teacher, args=(path, room, teacher, cap, start, results)))
    for p in procs:
        p.start()
    out = {}
    try:
        start.wait(60)
        deadline = time.monotonic() + timeout
        while len(out) < len(procs):
            who, counts = results.get(timeout=max(0.1, deadline - time.monotonic()))
            assert isinstance(counts, dict), f"worker {who} failed:\n{counts}"
            out[who] = counts
    finally:
        for p in procs:
            p.join(5)
            if p.is_alive():
                p.kill()
    assert all(p.exitcode == 0 for p in procs), [p.exitcode for p in procs]
    return [out[k] for k in range(len(plan))] + ([out["teacher"]] if teacher is not None else [])


def _check_room(store: SQLiteStore, room: str, setup: Game) -> Game:
    """The file is sound, the log is whole and replays to the store's game; returns that game."""
    with sqlite3.connect(store.path) as con:
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    log = store.log(room)
    assert [d.seq for d in log] == list(range(1, len(log) + 1))  # no gap, no duplicate
    replay = Game.from_dict(setup.to_dict())
    for d in log:
        if d.action == "undo":  # the teacher's: it takes back the last decision still standing
            assert d.seat == "teacher" and replay.actions, d
            replay.undo(1)
            continue
        assert d.seat == d.action.split(":", 1)[0] == replay.current_player, d
        assert replay.is_legal(d.action), d
        replay.apply(d.action)
    g = store.game(room)
    assert g.to_dict() == replay.to_dict()
    assert Game.from_dict(g.to_dict()).to_dict() == g.to_dict()  # the engine's load checks pass
    return g


# --- the tests -------------------------------------------------------------------------------------------
@pytest.mark.slow  # 4-9 s: six spawned processes, a whole 6-player game
def test_six_processes_one_seat_each_play_a_whole_game(tmp_path):
    """A 6-player game, each seat its own process, to the end (or 1000 decisions: random 6-player games
    end after about 800). Each worker also sends each of its decisions a second time with the same
    ``seen`` (a double click): every resend is refused with GameMovedOn and leaves no row."""
    path, store, room, setup, codes = _room(tmp_path, 6, seed=3)
    counts = _run_players(path, room, [{seat: code} for seat, code in codes.items()], cap=1000, resend=True)
    g = _check_room(store, room, setup)
    n = len(store.log(room))
    assert g.is_over or n == 1000
    assert sum(c["played"] for c in counts) == n
    assert all(c["played"] > 0 for c in counts)
    assert [c["resent_refused"] for c in counts] == [c["played"] for c in counts]
    # only the player to act may decide: distinct seats never decide on the same state
    assert sum(c["moved_on"] for c in counts) == 0


@pytest.mark.slow  # 3-4 s
def test_two_processes_per_seat_race_on_each_decision(tmp_path):
    """A 3-player game with each seat open in two processes (two tabs of one code), to the end: both
    tabs decide on the same state, one decision is appended and the other gets GameMovedOn."""
    path, store, room, setup, codes = _room(tmp_path, 3, seed=5)
    plan = [{seat: code} for seat, code in codes.items()] * 2
    counts = _run_players(path, room, plan, cap=2000)
    g = _check_room(store, room, setup)
    assert g.is_over
    assert sum(c["played"] for c in counts) == len(store.log(room))
    assert sum(c["moved_on"] for c in counts) > 0, counts  # the race was real


@pytest.mark.slow  # 3-6 s
def test_the_teachers_undo_races_with_six_players(tmp_path):
    """Six processes, one seat each, and a seventh for the teacher's undo every 5-25 ms, to 300 log rows:
    a player who decided on the game before an undo is told the game moved on, and the log with its
    undo rows replays to the store's game."""
    path, store, created, setup = _created(tmp_path, 6, seed=11)
    plan = [{seat: code} for seat, code in created.codes.items()]
    *counts, teacher = _run_players(path, created.room, plan, cap=300, teacher=created.teacher)
    _check_room(store, created.room, setup)
    log = store.log(created.room)
    assert len(log) in (300, 301)  # the teacher may undo once more after the players stopped at 300
    undos = sum(d.action == "undo" for d in log)
    assert undos == teacher["undone"] > 0
    assert sum(c["played"] for c in counts) == len(log) - undos
    assert sum(c["moved_on"] for c in counts) > 0, (counts, teacher)  # the race was real


def _next_move(store: SQLiteStore, room: str) -> tuple[str, str, int]:
    g = store.game(room)
    return g.current_player, str(random.Random(len(g.actions)).choice(g.legal_actions())), len(g.actions)


def _play_some(store: SQLiteStore, room: str, codes: dict[str, str], n: int) -> None:
    for _ in range(n):
        seat, action, seen = _next_move(store, room)
        store.play(room, codes[seat], action, seen)


def test_writer_dying_before_commit_leaves_the_room_as_it_was(tmp_path):
    """``play`` dies (``os._exit``) after its INSERT, before COMMIT: no half row, the lock is free, and
    the same decision is then appended by another writer with the next seq."""
    path, store, room, setup, codes = _room(tmp_path, 4, seed=7)
    _play_some(store, room, codes, 12)
    before, state = store.log(room), store.game(room).to_dict()
    seat, action, seen = _next_move(store, room)
    p = SPAWN.Process(target=_die_after_insert, args=(path, room, codes[seat], action, seen))
    p.start()
    p.join(60)
    assert p.exitcode == 3  # it died with its row inside the open transaction
    again = SQLiteStore(path, timeout=2)  # a writer that would fail if the lock were still held
    assert again.log(room) == before and again.game(room).to_dict() == state
    assert store.log(room) == before and store.game(room).to_dict() == state
    assert again.play(room, codes[seat], action, seen) == seen + 1
    _play_some(again, room, codes, 5)
    _check_room(store, room, setup)
    assert len(store.log(room)) == seen + 6


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="SIGKILL is POSIX")
def test_writer_killed_while_holding_the_write_lock(tmp_path):
    """A process holding BEGIN IMMEDIATE with its row inserted is killed (SIGKILL). While it holds the
    lock, readers see the room as before and another writer waits (and fails after its timeout);
    once it is dead, nothing of it is in the file and writers go on."""
    path, store, room, setup, codes = _room(tmp_path, 4, seed=8)
    _play_some(store, room, codes, 9)
    before, state = store.log(room), store.game(room).to_dict()
    seat, action, seen = _next_move(store, room)
    locked = SPAWN.Event()
    p = SPAWN.Process(target=_hold_lock, args=(path, room, seat, action, seen, locked))
    p.start()
    try:
        assert locked.wait(60)
        reader = SQLiteStore(path)
        assert reader.log(room) == before and reader.game(room).to_dict() == state  # WAL: reads go on
        blocked = SQLiteStore(path, timeout=0.3)
        t = time.monotonic()
        with pytest.raises((sqlite3.OperationalError, RoomError)):  # today sqlite3's "database is locked"
            blocked.play(room, codes[seat], action, seen)
        assert time.monotonic() - t >= 0.25  # it waited for the lock, then gave up
    finally:
        os.kill(p.pid, signal.SIGKILL)
        p.join(10)
    assert p.exitcode == -signal.SIGKILL
    assert store.log(room) == before and store.game(room).to_dict() == state
    assert blocked.play(room, codes[seat], action, seen) == seen + 1
    _play_some(store, room, codes, 5)
    _check_room(SQLiteStore(path), room, setup)


def test_reconnect_resumes_at_the_same_state(tmp_path):
    """A new store object on the file (a page reload, a kernel restart) has the same game and log, its
    codes still work, and two stores on the file see each other's decisions."""
    path, store, room, setup, codes = _room(tmp_path, 5, seed=9)
    _play_some(store, room, codes, 40)
    old = store.game(room).to_dict()
    store.close()
    again = SQLiteStore(path)
    assert again.game(room).to_dict() == old
    assert [(d.seq, d.seat, d.action) for d in again.log(room)] == [
        (d.seq, d.seat, d.action) for d in SQLiteStore(path).log(room)]
    assert len(again.log(room)) == 40
    assert {again.seat_of(code, room)[1] for code in codes.values()} == set(codes)
    other = SQLiteStore(path)
    other.game(room)  # its cached replay, then moved on by another store
    _play_some(again, room, codes, 7)
    assert other.game(room).to_dict() == again.game(room).to_dict()
    _play_some(other, room, codes, 3)
    assert [d.seq for d in again.log(room, since=40)] == list(range(41, 51))
    _check_room(again, room, setup)
