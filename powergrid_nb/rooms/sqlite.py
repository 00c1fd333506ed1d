"""Rooms in one SQLite file (Python's ``sqlite3``, WAL mode): the default :class:`RoomStore`.

Every write is one ``BEGIN IMMEDIATE`` transaction: it takes the file's write lock first, then reads
the log, checks the decision on the replayed game and appends it, so two writers never both append
on the same state. A writer that dies inside its transaction leaves nothing (SQLite rolls it back).
Opening a file that is not a room store (not a database, an empty or unreadable file, another
program's tables, a newer schema) raises :class:`StoreError` and changes nothing in it; a new file is
made whole (its schema written in a file beside it, then linked in place), so no process ever sees a
half-made one. What SQLite itself refuses (a full disk, a read-only file, a file locked too long) is
a :class:`RoomError` that says so, never a raw ``sqlite3`` error. A writer checks the log against what
it has read before (the rows' count and the last decision): a file changed under it is an error, and
the next read replays the log afresh.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from powergrid_nb.engine.actions import Action
from powergrid_nb.engine.errors import PowerGridError
from powergrid_nb.engine.game import Game

from .errors import NotYourTurn, Paused, RoomError, StoreError, UnknownRoom, WrongCode
from .store import (
    TEACHER,
    UNDO,
    Created,
    Decision,
    RoomInfo,
    RoomStore,
    Seat,
    check_decision,
    code_hash,
    new_code,
    replay,
)

__all__ = ["APP", "SCHEMA_VERSION", "SQLiteStore"]

APP = "powergrid_nb.rooms"
SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE rooms (id TEXT PRIMARY KEY, created REAL NOT NULL, title TEXT NOT NULL, setup TEXT NOT NULL,
                    teacher_hash TEXT NOT NULL, paused INTEGER NOT NULL DEFAULT 0);
CREATE TABLE seats (room TEXT NOT NULL REFERENCES rooms(id), seat TEXT NOT NULL, place INTEGER NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('human', 'bot')), bot TEXT, code_hash TEXT UNIQUE,
                    PRIMARY KEY (room, seat));
CREATE TABLE log (room TEXT NOT NULL REFERENCES rooms(id), seq INTEGER NOT NULL, seat TEXT NOT NULL,
                  action TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (room, seq));
CREATE TABLE leases (room TEXT PRIMARY KEY REFERENCES rooms(id), holder TEXT NOT NULL, until REAL NOT NULL);
"""
TABLES = {"meta", "rooms", "seats", "log", "leases"}
# what a set-up that is not a game raises (JSONDecodeError and UnicodeError are ValueErrors)
SETUP_FAILURES = (ValueError, KeyError, TypeError, AttributeError, RecursionError, PowerGridError)

F = TypeVar("F", bound=Callable[..., Any])


def explained(method: F) -> F:
    """A store method whose ``sqlite3`` failures (a full disk, a read-only or locked file, I/O) come out
    as a :class:`RoomError` saying what happened (:meth:`SQLiteStore.failure`)."""
    @functools.wraps(method)
    def run(self: SQLiteStore, *args: Any, **kw: Any) -> Any:
        try:
            return method(self, *args, **kw)
        except sqlite3.Error as e:
            raise self.failure(e) from None
    return run  # type: ignore[return-value]


class SQLiteStore(RoomStore):
    """Rooms in the SQLite file ``path`` (created with its schema if it does not exist)."""

    def __init__(self, path: str | Path, timeout: float = 30.0) -> None:
        self.path = Path(path)
        self._timeout = timeout
        self._games: dict[str, tuple[Game, int]] = {}  # room -> (replayed game, log rows applied)
        self._configs: dict[str, dict] = {}  # room -> its set-up's config (never changes)
        if not self.path.exists():
            self._create()
        elif self.path.is_file() and self.path.stat().st_size == 0:
            raise StoreError(f"{self.path.name} is an empty file, not a room store; nothing in it was "
                             "changed. Give the file the teacher's app created, or the name of a file that "
                             "does not exist yet (it is made with the first room)")
        self._con = self._connect()
        try:
            self._check_schema()
            # only now, on a file known to be a room store: write-ahead logging (readers never wait for a
            # writer); switching it on rewrites the file's header, which another program's file must keep
            self._wal()
        except BaseException:
            self._con.close()
            raise

    def _create(self) -> None:
        """Make the store's file whole: the schema is written to a file beside it, which is then linked
        to the store's name unless another process made that first (then the other's is used)."""
        tmp = self.path.with_name(f".{self.path.name}.{uuid.uuid4().hex}.new")
        try:
            con = sqlite3.connect(tmp, isolation_level=None)
            try:
                con.execute("BEGIN")
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        con.execute(statement)
                con.executemany("INSERT INTO meta VALUES (?, ?)",
                                [("app", APP), ("schema_version", str(SCHEMA_VERSION))])
                con.execute("COMMIT")
            finally:
                con.close()
            try:
                os.link(tmp, self.path)  # never replaces a file: made at once, or another's is kept
            except FileExistsError:
                pass
            except OSError:  # a file system without hard links: written in one go, never over another's
                with contextlib.suppress(FileExistsError), open(self.path, "xb") as f:
                    f.write(tmp.read_bytes())
        except (OSError, sqlite3.Error) as e:
            raise StoreError(f"the rooms file {self.path.name} cannot be made here ({e}); give a folder "
                             "the app may write to") from None
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()

    # --- the file ---------------------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        try:
            con = sqlite3.connect(self.path, timeout=self._timeout, isolation_level=None)
        except sqlite3.Error as e:
            raise StoreError(f"{self.path.name} cannot be opened (SQLite says: {e}); nothing in it was "
                             "changed. Give the rooms file the teacher's app created") from None
        try:
            con.execute("PRAGMA foreign_keys = ON")
            con.execute("PRAGMA schema_version").fetchone()  # reads the header: fails on a non-database
        except sqlite3.Error as e:
            con.close()
            if getattr(e, "sqlite_errorname", "") == "SQLITE_CANTOPEN" or "unable to open" in str(e):
                raise StoreError(f"{self.path.name} cannot be opened (SQLite says: {e}); nothing in it was "
                                 "changed. Give the rooms file the teacher's app created") from None
            raise StoreError(f"{self.path.name} is not a room store (SQLite says: {e}); nothing in it was "
                             "changed. Give a new file name, or the file the teacher's app created") from None
        return con

    def failure(self, e: sqlite3.Error) -> RoomError:
        """What a ``sqlite3`` error means for the rooms, said plainly (nothing was written: SQLite rolled
        the transaction back)."""
        name, code = self.path.name, getattr(e, "sqlite_errorname", "") or ""
        text = str(e).lower()
        if code.startswith("SQLITE_FULL") or "disk is full" in text:
            return StoreError(f"the rooms file {name} cannot grow: the disk is full (SQLite says: {e}); "
                              "nothing was written. Free some space, then try again")
        if code.startswith("SQLITE_READONLY") or "readonly" in text:
            return StoreError(f"the rooms file {name} is read-only here (SQLite says: {e}); nothing was "
                              "written. The rooms need a file (and folder) the app may write to")
        if code.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text:
            return RoomError(f"the rooms file {name} is busy: another writer held it for more than "
                             f"{self._timeout:g} s ({e}); nothing was written, try again")
        return StoreError(f"the rooms file {name} could not be used (SQLite says: {e}); nothing was "
                          "written")

    def _wal(self) -> None:
        """Switch the file to WAL; another process switching it at the same moment holds the file for
        an instant, and SQLite does not wait for that by itself: retry until the timeout."""
        deadline = time.monotonic() + self._timeout
        while True:
            try:
                if self._con.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    self._con.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as e:
                if "locked" not in str(e):
                    raise self.failure(e) from None
                if time.monotonic() > deadline:
                    raise StoreError(f"{self.path.name} stays locked by another program ({e})") from None
                time.sleep(0.01)

    @staticmethod
    def _tables(con: sqlite3.Connection) -> set[str]:
        return {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def _check_schema(self) -> None:
        name = self.path.name
        try:
            tables = self._tables(self._con)
            meta = dict(self._con.execute("SELECT key, value FROM meta")) if "meta" in tables else {}
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{name} cannot be read as a room store ({e}); nothing in it was "
                             "changed") from None
        if meta.get("app") != APP or not tables >= TABLES:
            listed = ", ".join(sorted(tables)) or "none"
            raise StoreError(f"{name} is a database of another program (tables: {listed}), not a room "
                             "store; nothing in it was changed. Use another file name")
        version = meta.get("schema_version")
        if version != str(SCHEMA_VERSION):
            raise StoreError(f"{name} is a room store of schema version {version}; this powergrid_nb reads "
                             f"version {SCHEMA_VERSION}. Open it with the version that wrote it; nothing in "
                             "it was changed")

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction holding the file's write lock from its start (BEGIN IMMEDIATE)."""
        con = self._con
        try:
            con.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise self.failure(e) from None
        try:
            yield con
            con.execute("COMMIT")  # a full disk may refuse only here
        except BaseException as e:
            with contextlib.suppress(sqlite3.Error):
                con.execute("ROLLBACK")
            if isinstance(e, sqlite3.Error):
                raise self.failure(e) from None
            raise

    def close(self) -> None:
        self._con.close()

    # --- reading ----------------------------------------------------------------------------------
    def _room_row(self, room: str) -> tuple:
        row = self._con.execute("SELECT setup, teacher_hash, paused FROM rooms WHERE id = ?",
                                (room,)).fetchone()
        if row is None:
            known = ", ".join(r[0] for r in self._con.execute("SELECT id FROM rooms ORDER BY created"))
            raise UnknownRoom(f"no room {room!r} in {self.path.name}; its rooms: {known or 'none'}")
        return row

    @explained
    def rooms(self) -> list[RoomInfo]:
        return [self.info(r[0]) for r in self._con.execute("SELECT id FROM rooms ORDER BY created, id")]

    @explained
    def info(self, room: str) -> RoomInfo:
        con = self._con
        # one read transaction: the count, the pause and the seats of the same moment
        con.execute("BEGIN")
        try:
            row = con.execute("SELECT created, title, setup, paused FROM rooms WHERE id = ?",
                              (room,)).fetchone()
            if row is None:
                self._room_row(room)  # raises UnknownRoom, naming the rooms there are
            created, title, setup, paused = row
            seats = self._seats(room)
            n = self._count(room)
        finally:
            con.execute("COMMIT")
        cfg = self._configs.get(room)
        if cfg is None:
            try:
                cfg = json.loads(setup)["config"]
                m = cfg["map"]
                cfg = {"players": tuple(str(p) for p in cfg["players"]), "edition": str(cfg["edition"]),
                       "map": m if isinstance(m, str) else str(m.get("name", "custom"))}
            except SETUP_FAILURES as e:
                raise self._bad_setup(room, e) from None
            self._configs[room] = cfg
        return RoomInfo(room, created, title, cfg["players"], cfg["map"], cfg["edition"], n, bool(paused),
                        seats)

    def _bad_setup(self, room: str, e: BaseException) -> StoreError:
        what = "nested too deeply" if isinstance(e, RecursionError) else f"{type(e).__name__}: {e}"
        return StoreError(f"room {room}: its set-up in {self.path.name} is not a game ({what}); the room "
                          "was left as it is: start a new room")

    @explained
    def seats(self, room: str) -> list[Seat]:
        self._room_row(room)
        return list(self._seats(room))

    def _seats(self, room: str) -> tuple[Seat, ...]:
        return tuple(Seat(s, k, b) for s, k, b in self._con.execute(
            "SELECT seat, kind, bot FROM seats WHERE room = ? ORDER BY place", (room,)))

    def _count(self, room: str, con: sqlite3.Connection | None = None) -> int:
        return (con or self._con).execute("SELECT COALESCE(MAX(seq), 0) FROM log WHERE room = ?",
                                          (room,)).fetchone()[0]

    @explained
    def log(self, room: str, since: int = 0) -> list[Decision]:
        self._room_row(room)
        return [Decision(*r) for r in self._con.execute(
            "SELECT seq, seat, action, at FROM log WHERE room = ? AND seq > ? ORDER BY seq", (room, since))]

    def _replayed(self, room: str, con: sqlite3.Connection | None = None) -> tuple[Game, int]:
        """The cached replay of ``room``, brought up to the log's end (rows read through ``con``)."""
        con = con or self._con
        if not con.in_transaction:  # the rows and their count of one moment
            con.execute("BEGIN")
            try:
                return self._replayed(room, con)
            finally:
                con.execute("COMMIT")
        cached = self._games.get(room)
        if cached is None:
            setup = self._room_row(room)[0]
            try:
                cached = (Game.from_dict(json.loads(setup)), 0)
            except SETUP_FAILURES as e:
                raise self._bad_setup(room, e) from None
        g, done = cached
        count, last = con.execute("SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM log WHERE room = ?",
                                  (room,)).fetchone()
        if count != last or last < done:  # a row taken out of the log, or the file replaced under us
            self._games.pop(room, None)
            raise StoreError(f"room {room}: the rooms file {self.path.name} changed under this app (its log "
                             f"has {count} rows up to decision {last}; {done} were read here before); "
                             "nothing was written. The next read replays the log as the file has it")
        rows = con.execute("SELECT seq, action FROM log WHERE room = ? AND seq > ? ORDER BY seq",
                           (room, done)).fetchall()
        try:
            done = replay(g, rows, done)
        except StoreError as e:
            self._games.pop(room, None)
            raise StoreError(f"room {room}: {e}") from None
        self._games[room] = (g, done)
        return g, done

    @explained
    def game(self, room: str) -> Game:
        return self._replayed(room)[0].copy()

    @explained
    def snapshot(self, room: str) -> tuple[Game, int]:
        g, rows = self._replayed(room)
        return g.copy(), rows

    @explained
    def seat_of(self, code: str, room: str | None = None) -> tuple[str, str]:
        row = self._con.execute("SELECT room, seat FROM seats WHERE code_hash = ?",
                                (code_hash(code),)).fetchone()
        if row is None:
            raise WrongCode("this code is no seat's code: check it (codes are 12 letters, digits, - and _), "
                            "or ask the teacher for a new one")
        if room is not None and row[0] != room:
            raise WrongCode("this code is a seat's code in another room, not in this one")
        return row[0], row[1]

    # --- writing ----------------------------------------------------------------------------------
    @explained
    def create_room(self, setup: Game, seats: list[Seat], title: str = "") -> Created:
        players = list(setup.players)
        names = [s.name for s in seats]
        if sorted(names) != sorted(players):
            raise RoomError(f"the seats must be the game's players, each once ({', '.join(players)}), "
                            f"not {', '.join(names)}")
        for s in seats:
            if s.kind not in ("human", "bot") or (s.kind == "bot") != bool(s.bot):
                raise RoomError(f"seat {s.name}: a seat is 'human' (no bot) or 'bot' with a bot's name")
        room, teacher = uuid.uuid4().hex[:8], new_code()
        codes = {s.name: new_code() for s in seats if s.kind == "human"}
        with self._write() as con:
            con.execute("INSERT INTO rooms VALUES (?, ?, ?, ?, ?, 0)",
                        (room, time.time(), title, json.dumps(setup.to_dict()), code_hash(teacher)))
            con.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)",
                            [(room, s.name, players.index(s.name), s.kind, s.bot,
                              code_hash(codes[s.name]) if s.name in codes else None) for s in seats])
        return Created(room, codes, teacher)

    def _decide(self, room: str, seat: str, action: Action | str, seen: int, con: sqlite3.Connection) -> int:
        if self._room_row(room)[2]:
            raise Paused("the teacher paused this room: decisions wait until it is resumed")
        g, count = self._replayed(room, con)
        act = check_decision(g, seat, action, seen, count)
        seq = count + 1
        con.execute("INSERT INTO log VALUES (?, ?, ?, ?, ?)", (room, seq, seat, str(act), time.time()))
        return seq

    @staticmethod
    def _kind(con: sqlite3.Connection, room: str, seat: str) -> str | None:
        """"human" or "bot" (None: no such seat), read inside the caller's transaction."""
        row = con.execute("SELECT kind FROM seats WHERE room = ? AND seat = ?", (room, seat)).fetchone()
        return None if row is None else row[0]

    @explained
    def play(self, room: str, code: str, action: Action | str, seen: int) -> int:
        with self._write() as con:
            _, seat = self.seat_of(code, room)
            if self._kind(con, room, seat) != "human":
                raise NotYourTurn(f"{seat}'s seat is played by a bot now; the teacher can hand it back")
            return self._decide(room, seat, action, seen, con)

    @explained
    def take_lease(self, room: str, holder: str, seconds: float = 10.0) -> bool:
        now = time.time()
        with self._write() as con:
            self._room_row(room)
            row = con.execute("SELECT holder, until FROM leases WHERE room = ?", (room,)).fetchone()
            if row is not None and row[0] != holder and row[1] > now:
                return False
            con.execute("INSERT OR REPLACE INTO leases VALUES (?, ?, ?)", (room, holder, now + seconds))
            return True

    @explained
    def play_bot(self, room: str, holder: str, action: Action | str, seen: int) -> int:
        with self._write() as con:
            row = con.execute("SELECT holder, until FROM leases WHERE room = ?", (room,)).fetchone()
            if row is None or row[0] != holder or row[1] <= time.time():
                raise RoomError("only the process holding the room's bot lease moves its bots")
            act = Action.parse(action) if isinstance(action, str) else action
            if self._kind(con, room, act.player) != "bot":
                raise NotYourTurn(f"{act.player}'s seat is not a bot's")
            return self._decide(room, act.player, act, seen, con)

    @explained
    def check_teacher(self, room: str, teacher: str) -> None:
        if self._room_row(room)[1] != code_hash(teacher):
            raise WrongCode("this is not the teacher's code of this room: only the teacher may do that")

    _teacher = check_teacher  # inside the teacher's write transactions

    @explained
    def set_paused(self, room: str, teacher: str, paused: bool) -> None:
        with self._write() as con:
            self._teacher(room, teacher)
            con.execute("UPDATE rooms SET paused = ? WHERE id = ?", (int(paused), room))

    @explained
    def set_seat(self, room: str, teacher: str, seat: str, bot: str | None) -> str | None:
        with self._write() as con:
            self._teacher(room, teacher)
            if seat not in {s.name for s in self.seats(room)}:
                raise RoomError(f"no seat {seat!r} in this room")
            code = None if bot else new_code()
            con.execute("UPDATE seats SET kind = ?, bot = ?, code_hash = ? WHERE room = ? AND seat = ?",
                        ("bot" if bot else "human", bot, code_hash(code) if code else None, room, seat))
            return code

    @explained
    def undo_last(self, room: str, teacher: str) -> int:
        with self._write() as con:
            self._teacher(room, teacher)
            g, count = self._replayed(room, con)
            if not g.actions:
                raise RoomError("nothing to undo: no decision of this room is standing")
            con.execute("INSERT INTO log VALUES (?, ?, ?, ?, ?)",
                        (room, count + 1, TEACHER, UNDO, time.time()))
            return count + 1
