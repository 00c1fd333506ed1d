"""The room store's interface: what a game room keeps and what may be asked of it.

A room is an append-only log: its set-up (a position as ``Game.to_dict()``, a new game or an imported
save), its seats, and one row per decision (sequence number, seat, action text, time). The game is
always the replay of the log. :class:`RoomStore` is the small interface every store keeps, so a server
database could replace the SQLite file (:class:`~powergrid_nb.rooms.sqlite.SQLiteStore`, the default).
The rules of a decision (whose turn, is it legal, did the game move on) live here, once, for every store.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import socket
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from powergrid_nb.engine.actions import Action
from powergrid_nb.engine.errors import PowerGridError
from powergrid_nb.engine.game import Game

from .errors import GameMovedOn, NotYourTurn, RoomError, StoreError

__all__ = ["UNDO", "Created", "Decision", "RoomInfo", "RoomStore", "Seat", "check_decision", "code_hash",
           "app_url", "bot_to_act", "check_written", "join_link", "new_code", "replay"]

UNDO = "undo"  # the action text of a teacher's undo: it cancels the last decision still standing
TEACHER = "teacher"  # the seat name of the teacher's rows in the log


def new_code() -> str:
    """A fresh join or teacher code: 12 random URL-safe characters (``secrets``)."""
    return secrets.token_urlsafe(9)


APP_URL_ENV = "POWERGRID_APP_URL"  # where players open the app, for the join links (e.g. http://host:8866/)
APP_PORT = 8866  # Voila's default port: `make app` serves there


def app_url(given: str | None = None) -> str:
    """Where players open the app: ``given``, else ``POWERGRID_APP_URL``, else Voila's default address on
    this machine (as `make app` serves it)."""
    return given or os.environ.get(APP_URL_ENV) or f"http://{socket.gethostname()}:{APP_PORT}/"


def join_link(code: str, url: str | None = None) -> str:
    """The link that opens the app (:func:`app_url` of ``url``) at the seat of ``code`` (``?code=``)."""
    base = app_url(url)
    return f"{base}{'&' if '?' in base else '?'}code={quote(code, safe='')}"


def code_hash(code: str) -> str:
    """What the store keeps of a code (its SHA-256): the code itself is only shown when it is made."""
    return hashlib.sha256(code.strip().encode("utf-8", "surrogatepass")).hexdigest()  # any text typed


@dataclass(frozen=True)
class Seat:
    """A seat of a room: a player of the game, played by a human (with a join code) or a bot."""

    name: str
    kind: str  # "human" or "bot"
    bot: str | None = None


@dataclass(frozen=True)
class Decision:
    """One row of a room's log: ``seq`` (1, 2, ...), the seat that acted, the action text, the time."""

    seq: int
    seat: str
    action: str
    at: float


@dataclass(frozen=True)
class RoomInfo:
    """A room as the teacher's list shows it."""

    id: str
    created: float
    title: str
    players: tuple[str, ...]
    map: str
    edition: str
    decisions: int
    paused: bool
    seats: tuple[Seat, ...] = ()


@dataclass(frozen=True)
class Created:
    """A new room: its id, one join code per human seat and the teacher's code (shown once)."""

    room: str
    codes: dict[str, str]
    teacher: str


def replay(g: Game, rows: list[tuple[int, str]], done: int) -> int:
    """Apply the log rows ``(seq, action)`` that follow the first ``done`` to ``g`` (a teacher's ``undo``
    row takes back the last decision standing); returns the rows now applied. Raises
    :class:`~powergrid_nb.rooms.errors.StoreError` on a gap in the log or a row the rules refuse."""
    for seq, action in rows:
        if seq != done + 1:
            raise StoreError(f"the log jumps from decision {done} to {seq}; it no longer replays, and it "
                             "was left as it is")
        try:
            g.undo(1) if action == UNDO else g.apply(action)
        except (ValueError, PowerGridError) as e:  # IllegalAction is a ValueError
            raise StoreError(f"decision {seq} ({action!r}) no longer replays ({e}); the room was left as "
                             "it is: export it with an older version, or start a new room") from None
        done = seq
    return done


def bot_to_act(info: RoomInfo, g: Game) -> bool:
    """Whether one of the room's bot seats is to act on ``g`` (the room not paused, the game not over)."""
    bots = {s.name for s in info.seats if s.kind == "bot"}
    return not info.paused and not g.is_over and g.current_player in bots


def check_written(act: Action) -> str:
    """The text the log keeps of ``act``; raises :class:`RoomError` (nothing is written) unless that text
    reads back as the very same action: a row that would not replay is never appended."""
    text = str(act)
    try:
        back: Action | None = Action.parse(text)
    except (ValueError, PowerGridError, RecursionError):
        back = None
    if back != act:
        raise RoomError(f"this decision cannot be kept in the room's log: its text {text!r} does not read "
                        "back as the same decision (a name with a ',' or ':' in it?); nothing was written")
    return text


def check_decision(g: Game, seat: str, action: Action | str, seen: int, count: int) -> Action:
    """The decision of ``seat`` on the game ``g`` (the replay of ``count`` log rows), as the engine and
    the room's rules check it; raises (nothing is written) when it cannot be taken."""
    if seen != count:
        moved = count - seen
        raise GameMovedOn(f"the game moved on: {moved} decision{'s' if moved != 1 else ''} came after "
                          f"the position you acted on ({seen} then, {count} now); look again and decide "
                          "on the game as it is now" if moved > 0 else
                          f"you acted on decision {seen}, but the room has only {count}")
    if g.is_over:
        raise RoomError("the game is over: no more decisions are taken")
    act = Action.parse(action) if isinstance(action, str) else action
    check_written(act)
    if act.player != seat:
        raise NotYourTurn(f"your code is {seat}'s seat, and this action is {act.player}'s: a code acts "
                          "for its own seat only")
    if g.current_player != seat:
        raise NotYourTurn(f"it is {g.current_player}'s turn, not {seat}'s")
    g.copy().apply(act)  # IllegalAction (with the rule and its text) if the rules forbid it
    return act


class RoomStore(ABC):
    """Rooms kept somewhere: create, list, read the log and the game, decide, and the teacher's tools.

    Every method that writes checks and appends in one transaction: two decisions made at once give one
    row and a :class:`GameMovedOn` for the other; a refused request writes nothing."""

    @abstractmethod
    def create_room(self, setup: Game, seats: list[Seat], title: str = "") -> Created:
        """A new room playing ``setup`` (a new game or a loaded save) with these seats."""

    @abstractmethod
    def rooms(self) -> list[RoomInfo]:
        """Every room, oldest first."""

    @abstractmethod
    def info(self, room: str) -> RoomInfo:
        """One room: its players, decisions so far, whether paused, its seats (one quick read: clients
        poll it to see whether the game moved)."""

    @abstractmethod
    def seats(self, room: str) -> list[Seat]:
        """The seats of ``room`` in the game's player order of seats."""

    @abstractmethod
    def log(self, room: str, since: int = 0) -> list[Decision]:
        """The log rows of ``room`` after the first ``since``."""

    @abstractmethod
    def game(self, room: str) -> Game:
        """The game of ``room`` now: the replay of its log (a copy; changing it changes nothing here)."""

    @abstractmethod
    def snapshot(self, room: str) -> tuple[Game, int]:
        """The game of ``room`` and the number of log rows it replays, read together: the ``seen`` to
        send with a decision made on that game."""

    @abstractmethod
    def seat_of(self, code: str, room: str | None = None) -> tuple[str, str]:
        """(room, seat) of a join code; :class:`WrongCode` if it is none (or another room's)."""

    @abstractmethod
    def play(self, room: str, code: str, action: Action | str, seen: int) -> int:
        """The seat of ``code`` takes ``action`` on the game after ``seen`` log rows; returns its seq."""

    @abstractmethod
    def take_lease(self, room: str, holder: str, seconds: float = 10.0) -> bool:
        """Whether ``holder`` drives the room's bots now (taken if free, expired or already its own)."""

    @abstractmethod
    def play_bot(self, room: str, holder: str, action: Action | str, seen: int) -> int:
        """A bot's decision, appended by the lease holder only; returns its seq."""

    @abstractmethod
    def check_teacher(self, room: str, teacher: str) -> None:
        """Raise :class:`WrongCode` unless ``teacher`` is the teacher's code of ``room`` (a read only)."""

    @abstractmethod
    def set_paused(self, room: str, teacher: str, paused: bool) -> None:
        """Pause or resume the room (teacher only)."""

    @abstractmethod
    def set_seat(self, room: str, teacher: str, seat: str, bot: str | None) -> str | None:
        """Hand ``seat`` to a bot (``bot`` = its name) or back to a human (``None``: returns a new code)."""

    @abstractmethod
    def undo_last(self, room: str, teacher: str) -> int:
        """Take back the last decision still standing (teacher only): an ``undo`` row; returns its seq."""

    def export(self, room: str, path: str | Path) -> Path:
        """Save the room's game as a save file (``load`` reads it; the analysis lab and lessons too)."""
        self.game(room).save(str(path))
        return Path(path)
