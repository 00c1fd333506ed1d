"""A player's table in a class room: the usual table bound to one seat of a room (``powergrid_nb.rooms``).

Only the seat's own controls act, and its decisions go to the room's store (checked there against the
game as the log has it); the table reads the room a few times a second, so the other seats' moves, a
pause and a seat handed to a bot appear within a second. Undo, new game, edit, save and load, the seats
and the Hint belong to the teacher (``powergrid_nb.panels.classroom``): a seat's table does not build
them at all (no widget, so no message from the page can reach them). Its Download gives the seat's
observation (:meth:`~powergrid_nb.engine.game.Game.observation`: no deck order, no seed), never the
whole game. Bots of the room move from whichever process holds the room's bot lease, this one included.
Whatever a visitor's click runs into (a refused decision, a full disk, a read-only or locked rooms
file, a log that no longer replays) is said in the table's message line, never raised.

The app page (:func:`app_page`) adds "Join a room" when the server names a rooms file
(``POWERGRID_ROOMS``); a visitor can only type a code, never a path.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import ipywidgets as w

from powergrid_nb.engine.errors import PowerGridError
from powergrid_nb.rooms import BotDriver, GameMovedOn, RoomClient, RoomError, SQLiteStore

from ._widgets import ERROR, INFO, OK, button, esc, label, note, running_loop, with_class
from .rules import error_html
from .saves import download_name
from .table import Table, play
from .toolbar import GameOverPanel

__all__ = ["FAILURES", "ROOMS_ENV", "AppPage", "RoomTable", "SeatToolbar", "app_page", "join"]

# What a visitor's click at a seat's table may run into, said in the message line, never raised: the
# rules' and the room's refusals, SQLite's (a full disk, a read-only or locked file), a file that cannot
# be read, a set-up or a log too deep or not text (JSONDecodeError and UnicodeError are ValueErrors).
FAILURES = (PowerGridError, ValueError, sqlite3.Error, OSError, RecursionError)

ROOMS_ENV = "POWERGRID_ROOMS"  # the rooms file the app's join form reads (set by whoever starts the app)
POLL = 0.25  # seconds between two reads of the room: another seat's move shows within about this


class RoomOverPanel(GameOverPanel):
    """The final ranking; the game stays in the room (the teacher exports it)."""

    def render(self, g: Any, player: str | None, legal: list[Any]) -> list[w.Widget]:
        return [*self.ranking(g),
                self.ui.label(note("The game is over. The teacher can export it for the lessons and the "
                                   "analysis lab."))]


class SeatToolbar:
    """A seat's toolbar: the room bar and Download (the seat's observation) only. Undo, new game, edit,
    save, load and the seats are not built, so no widget message can reach them."""

    def __init__(self, table: RoomTable) -> None:
        self.table = table
        self.download = button("Download", "pg-download", self._download,
                               tooltip="download the game as your seat sees it (a JSON file, through your "
                                       "browser): no deck order, no seed")
        self.link = label(cls="pg-download-link")
        self._link_for: tuple[int, int] | None = None
        self.widget = w.HBox([table.room_bar, self.download, self.link],
                             layout=w.Layout(align_items="center", flex_flow="row wrap"))
        self.widget.add_class("pg-toolbar")

    def start(self, g: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        g = self.table.game
        if self.link.value and self._link_for != (id(g), len(g.actions) if g else 0):
            self.link.value = ""  # the download is of an earlier position

    def data(self) -> dict[str, Any]:
        """What the seat's Download holds: the game as the seat may see it (the deck's order, the unseen
        plants taken out and the seed hidden, which would tell the shuffles to come)."""
        return self.table.game.observation(self.table.client.seat)

    def _download(self) -> None:
        t = self.table
        g, seat = t.game, t.client.seat
        name = download_name(f"room_{t.client.room}_{seat}")
        try:
            text = json.dumps(self.data(), ensure_ascii=False)
            data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        except FAILURES as e:
            t.say(f"could not download: {esc(e)}", ERROR)
            return
        self.link.value = (f"<a class='pg-download-file' download='{esc(name)}' "
                           "style='color:#0B61A4;text-decoration:underline' "
                           f"href='data:application/json;base64,{data}'>⬇ {esc(name)}</a> "
                           f"<span style='color:#555555'>(round {g.round}, {esc(g.phase_name)}, as "
                           f"{esc(seat)} sees it)</span>")
        self._link_for = (id(g), len(g.actions))
        t.say(f"click ⬇ {esc(name)} to save the game as {esc(seat)} sees it with your browser", OK)


class NoHints:
    """A seat's table has no Hint (the engine's advice is the teacher's call): none of its widgets."""

    row = None
    result = None
    running = False

    def start_game(self, humans: list[str]) -> None:
        pass

    def refresh(self) -> None:
        pass

    def cancel(self, clear: bool = False) -> None:
        pass


class RoomTable(Table):
    """The table of one seat of a room (``client``: a :class:`~powergrid_nb.rooms.RoomClient`).

    ``poll``: seconds between reads of the room; ``drive_bots``: also move the room's bots when this
    process holds its lease (bots wait ``delay`` seconds after the last decision)."""

    def __init__(self, client: RoomClient, *, delay: float = 0.6, height: int = 560, poll: float = POLL,
                 drive_bots: bool = True) -> None:
        self.client = client
        self.poll_every = poll
        self.driver = BotDriver(client.store, client.room) if drive_bots else None
        self._poll_timer: asyncio.TimerHandle | None = None
        self._moved_at = time.monotonic()
        self.room_bar = label(cls="pg-room-bar")
        super().__init__(client.game, None, delay=delay, height=height, app=True)
        self._over = RoomOverPanel(self)
        self.refresh()

    def make_toolbar(self) -> SeatToolbar:
        return SeatToolbar(self)

    def make_hints(self) -> NoHints:
        return NoHints()

    # --- seats: the room's, read from the store ------------------------------------------------------
    def seat(self, player: str) -> str:
        return self.client.kind(player)

    @property
    def humans(self) -> list[str]:
        return [self.client.seat] if self.client.kind(self.client.seat) == "human" else []

    def viewer(self) -> str | None:
        return self.client.seat

    def controls_now(self) -> bool:
        return self.client.is_mine

    def turn_note(self, who: str | None) -> str:
        if who is None:
            return ""
        if self.client.info.paused:
            return " (the teacher paused the room)"
        if self.client.is_mine:
            return super().turn_note(who)
        kind = self.client.kind(who)
        if who == self.client.seat:
            return f" (your seat is played by a {esc(kind)} bot now)"
        return f" ({esc(kind)} bot)" if kind != "human" else " (at their own screen)"

    def waiting_note(self, who: str | None) -> str:
        if who is None:
            return ""
        if self.client.info.paused:
            return note("The teacher paused the room: decisions wait until it is resumed.")
        kind = self.client.kind(who)
        if who == self.client.seat:
            return note(f"The teacher handed your seat to a {esc(kind)} bot; ask to have it back.")
        if kind != "human":
            return note(f"{esc(who)} ({esc(kind)} bot) is playing…")
        return note(f"Waiting for {esc(who)}, who decides at their own screen…")

    # --- decisions go to the room ---------------------------------------------------------------------
    def submit(self, action: Any, *more: Any, done: str = "") -> bool:
        """Send the seat's decision to the room (and ``more``, one after the other: a room's log takes
        one decision at a time, so one refused stops the rest and those before it stand); a refused one
        (the game moved on, not your turn, the rules) is reported, and the table shows the room as it is
        now. ``done``: what the message line then says (plain text)."""
        try:
            for a in (action, *more):
                self.client.play(a)
        except GameMovedOn as e:
            said = f"{esc(e)}. Your table now shows the game as it is."
            self.say(said, ERROR)
            self._quietly(self._moved, said)
            return False
        except FAILURES as e:  # the rules (with their text), the room's refusal, the file's failure
            said = failure_html(e)
            self.say(said, ERROR)
            self._quietly(self._sync, said)
            return False
        self.say(esc(done), OK if done else INFO)
        self._quietly(self._moved)
        return True

    def _quietly(self, after: Any, said: str = "") -> None:
        """``after()`` (reading the room after a decision); a failure is said after what was ``said``,
        never raised."""
        try:
            after()
        except FAILURES as e:
            self.say(f"{said}<br>" * bool(said) +
                     f"reading the room failed: {esc(failure_text(e))}; it is read again shortly", ERROR)

    def undo(self) -> None:
        self.say("In a room only the teacher can take a decision back.", INFO)

    def show_setup(self) -> None:
        self.say("A room plays the teacher's game: a new game is the teacher's to start.", INFO)

    def set_seat(self, player: str, kind: str) -> None:
        raise RoomError("in a room the teacher hands seats over (the teacher's view)")

    def pause(self, paused: bool = True) -> None:
        self.say("Only the teacher pauses and resumes a room.", INFO)

    # --- keeping up with the room ---------------------------------------------------------------------
    def refresh(self) -> None:
        super().refresh()
        info = self.client.info
        seats = ", ".join(f"{esc(s.name)} ({self._who(s.name)})" for s in info.seats)
        paused = " · <b style='color:#B00020'>paused by the teacher</b>" if info.paused else ""
        self.room_bar.value = (f"<div style='padding:2px 8px 2px 0'><b>Room</b> {esc(info.title or info.id)}"
                               f" · you play <b>{esc(self.client.seat)}</b> · seats: {seats}{paused}</div>")

    def _who(self, seat: str) -> str:
        kind = self.client.kind(seat)
        mine = seat == self.client.seat
        if kind == "human":
            return "you" if mine else "human"
        return f"{'you, handed to a ' if mine else ''}{esc(kind)} bot"

    def sync(self) -> bool:
        """Read the room now; show what changed and move a bot when its turn and its delay have come.
        True if the table changed."""
        changed = self._sync()
        if self._drive_bot():
            changed = True
        return changed

    def _sync(self) -> bool:
        if self.client.poll():
            self._moved_at = time.monotonic()
            self.refresh()
            return True
        return False

    def _moved(self) -> None:
        """After this table's own decision (or a refusal): show the room, and let the bots start over."""
        self.client.poll()
        self._moved_at = time.monotonic()
        self.refresh()
        self.run_bots()

    def _drive_bot(self) -> bool:
        c = self.client
        if self.driver is None or not self.driver.move_if_due(c.info, c.game, self._moved_at, self.delay):
            return False
        return self._sync()

    def run_bots(self) -> None:
        """Keep reading the room on the kernel's timer (no event loop, as in tests: call :meth:`sync`)."""
        if self._poll_timer is None and running_loop() is not None:
            self._poll_timer = running_loop().call_later(self.poll_every, self._tick)  # type: ignore[union-attr]

    def _tick(self) -> None:
        self._poll_timer = None
        try:
            self.sync()
        except Exception as e:  # noqa: BLE001 (a busy file, a failing bot: the timer says it and goes on)
            self.say(f"reading the room failed: {esc(failure_text(e))}; trying again", ERROR)
        self.run_bots()

    def close(self) -> None:
        if self._poll_timer is not None:
            self._poll_timer.cancel()
            self._poll_timer = None
        super().close()


def failure_text(e: BaseException) -> str:
    """What went wrong, in words: SQLite's and Python's errors named for what they mean here."""
    if isinstance(e, sqlite3.Error):
        return f"the rooms file failed (SQLite says: {e}); nothing was written"
    if isinstance(e, RecursionError):
        return "the room's data is nested too deeply to be read; nothing was written"
    if isinstance(e, UnicodeError):
        return f"the room's data is not text ({e}); nothing was written"
    if isinstance(e, json.JSONDecodeError):
        return f"the room's data is not JSON ({e}); nothing was written"
    if isinstance(e, OSError):
        return f"the rooms file cannot be read ({e.strerror or e})"
    return str(e)


def failure_html(e: BaseException) -> str:
    """:func:`failure_text` as the message line shows it (the rules' refusals with their rule)."""
    if isinstance(e, PowerGridError) and not isinstance(e, RoomError):
        return error_html(e)
    return esc(failure_text(e))


def join(code: str, rooms: str | os.PathLike[str], **table_args: Any) -> RoomTable:
    """The table of the seat of join ``code`` in the rooms file ``rooms`` (WrongCode if it is none)."""
    if not Path(rooms).is_file():
        raise RoomError("there is no room to join yet: the teacher creates the rooms first")
    store = SQLiteStore(rooms)
    try:
        return RoomTable(RoomClient(store, code), **table_args)
    except BaseException:
        store.close()  # a wrong code keeps no connection open
        raise


class AppPage(w.VBox):
    """The app: "Join a room" with a code (when ``rooms`` names a rooms file), above a table of one's own."""

    def __init__(self, rooms: str | os.PathLike[str] | None = None, code: str | None = None) -> None:
        super().__init__(layout=w.Layout(width="100%"))
        self.add_class("pg-app")
        self.rooms = rooms
        self.table: Table | None = None
        self.code = with_class(w.Text(placeholder="the code the teacher gave you", continuous_update=False,
                                      layout=w.Layout(width="260px")), "pg-join-code")
        self.join_button = button("Join", "pg-join", self.join, style="primary")
        # Enter (or leaving the box) joins too; the box is emptied on joining, which joins nothing
        self.code.observe(lambda c: c["new"].strip() and self.join(), names="value")
        self.message = label(cls="pg-join-message")
        self.join_row = w.HBox([label("<b>Join a class room:</b>&nbsp;"), self.code, self.join_button,
                                self.message], layout=w.Layout(align_items="center", flex_flow="row wrap"))
        self.join_row.add_class("pg-join-row")
        if rooms and code and self._join(code):
            return  # a link with its code: the seat's table only (no table of one's own built first)
        self.table = play(app=True)
        self.children = [self.join_row, self.table] if rooms else [self.table]

    def join(self) -> bool:
        """Join the room of the code typed; a wrong code changes nothing and says why."""
        code = self.code.value.strip()
        return bool(self.rooms and code) and self._join(code)

    def _join(self, code: str) -> bool:
        try:
            table = join(code, self.rooms)  # type: ignore[arg-type]
        except FAILURES as e:
            self.message.value = note(failure_html(e), ERROR)
            return False
        old, self.table = self.table, table
        self.code.value = ""  # the code leaves the screen (a neighbour, a projector)
        self.message.value = note(f"joined: you play {esc(table.client.seat)}", OK)
        self.children = [self.join_row, table]
        if old is not None:
            old.close()
            if isinstance(old, RoomTable):
                old.client.store.close()
        return True


def app_page(rooms: str | os.PathLike[str] | None = None, environ: dict[str, str] | None = None) -> AppPage:
    """The app notebook's page: a table of one's own, and "Join a room" when a rooms file is set
    (``rooms``, else ``POWERGRID_ROOMS``). A link with ``?code=…`` (Voila's ``QUERY_STRING``) joins at
    once."""
    env = os.environ if environ is None else environ
    query = parse_qs(env.get("QUERY_STRING", ""))
    code = (query.get("code") or [None])[0]
    return AppPage(rooms or env.get(ROOMS_ENV) or None, code=code)
