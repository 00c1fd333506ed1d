"""The teacher's view of the class rooms: ``classroom()`` in JupyterLab.

It lists every room of a rooms file (``powergrid_nb.rooms.SQLiteStore``) with whose turn it is, and
shows the selected room live: its map, players and log, its seats. A new room is made with the
new-game form (which seats are humans, which bots) and hands out one join code per human seat, as
text and as a link to the app (``?code=…``), and the teacher's code. With a room's teacher code the
teacher pauses and resumes it, hands a seat to a bot or back to a human (a new code), undoes the last
decision, and exports the game for the lessons and the analysis lab (``powergrid_nb.load``). A timer
on the kernel's event loop reads the rooms every ``poll`` seconds and moves the rooms' bots (under
each room's lease, so one process moves them).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as w

from powergrid_nb.engine.errors import PowerGridError
from powergrid_nb.engine.game import Game
from powergrid_nb.rooms import BotDriver, Created, RoomInfo, Seat, SQLiteStore, WrongCode
from powergrid_nb.rooms import app_url as rooms_app_url

from ._widgets import ERROR, HUMAN, OK, close_all, esc, heading, label, note, running_loop, tree, with_class
from .classroom_parts import NewRoom, RoomView, code_html, room_line, row, undone_text
from .room import ROOMS_ENV
from .saves import SaveRefused, SavesFolder, download_name
from .snapshot import snapshot

__all__ = ["Classroom", "classroom"]

SAVES = "the app's saves folder"  # the saves policy's words for its folder: here, the exports folder
FAILURES = (PowerGridError, SaveRefused, OSError, sqlite3.Error)  # shown, never raised out of a click


class Classroom(w.VBox):
    """The teacher's view of the rooms in the SQLite file ``rooms`` (made when the first room is).

    ``app_url``: the app's address for the join links; ``poll``: seconds between two reads of the rooms;
    ``delay``: seconds a bot waits after a room's last decision; ``room``: the room shown first (default:
    the newest). :meth:`sync` reads the rooms and moves the bots once (the kernel's timer calls it);
    :meth:`unlock` gives a room's teacher code; :meth:`create_room` makes a room (the form calls it)."""

    def __init__(self, rooms: str | os.PathLike[str], *, app_url: str | None = None, poll: float = 0.5,
                 delay: float = 0.6, room: str | None = None) -> None:
        super().__init__(layout=w.Layout(width="100%"))
        self.add_class("pg-classroom")
        self.path = Path(rooms)
        self.app_url = rooms_app_url(app_url)
        self.poll_every, self.delay = poll, delay
        self.store: SQLiteStore | None = None
        self.teacher_codes: dict[str, str] = {}  # room -> teacher code, for this kernel's lifetime
        self.infos: dict[str, RoomInfo] = {}
        self.selected: str | None = room
        self.view: RoomView | None = None
        self._games: dict[str, tuple[int, Game]] = {}  # room -> (decisions, its game then)
        self._drivers: dict[str, BotDriver] = {}
        self._moved_at: dict[str, float] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._closed = False
        self._listing = False
        self.exports = SavesFolder(self.path.absolute().parent / "exports")
        self.message = label(cls="pg-classroom-message")
        self.heading = label(cls="pg-classroom-heading")
        self.new = NewRoom(self)
        # the Select sits 2 px in from its box: a full width would run past the right edge
        rows = w.Layout(width="calc(100% - 4px)")
        self.list = with_class(w.Select(options=[], rows=4, layout=rows), "pg-rooms")
        self.list.observe(lambda c: self._listing or self.select(c["new"]), names="value")
        self.empty = label(cls="pg-no-room")
        self.room_box = w.VBox(layout=w.Layout(width="100%"))
        self._compose()
        self._read()
        self.run()

    # --- the store --------------------------------------------------------------------------------
    def _open(self, create: bool = False) -> SQLiteStore | None:
        """The rooms file's store; a missing file is made only when a room is created."""
        if self.store is None and (create or self.path.exists()):
            self.store = SQLiteStore(self.path)
        return self.store

    def _attempt(self, what: str, act: Callable[[], Any]) -> Any:
        """``act()``; a refusal or failure is shown (what was tried, and why), never raised."""
        try:
            return act()
        except FAILURES as e:
            self.say(f"could not {what}: {esc(e)}", ERROR)
            return None

    def say(self, text: str, colour: str = OK) -> None:
        """Show a message (HTML) beside the selected room; empty clears it."""
        self.message.value = note(text, colour) if text else ""

    # --- reading the rooms ------------------------------------------------------------------------
    def _game(self, room: str, info: RoomInfo) -> Game:
        cached = self._games.get(room)
        if cached is None or cached[0] != info.decisions:
            g, rows = self.store.snapshot(room)  # type: ignore[union-attr]
            cached = self._games[room] = (rows, g)
            self._moved_at[room] = time.monotonic()
        return cached[1]

    def _read(self) -> bool:
        """Read every room; show the list and the selected room; True if anything shown changed."""
        store = self._open()
        infos = {i.id: i for i in store.rooms()} if store is not None else {}
        changed = infos != self.infos
        self.infos = infos
        for room, info in infos.items():
            self._game(room, info)
            if self._games[room][0] != info.decisions:  # a decision came between the two reads
                self.infos[room] = store.info(room)  # type: ignore[union-attr]
                self._games.pop(room)
                self._game(room, self.infos[room])
        if changed or self.selected not in infos:
            self._show_list()
        return changed

    def _show_list(self) -> None:
        infos = self.infos
        options = [(room_line(i, self._games[r][1]), r) for r, i in infos.items()]
        if self.selected not in infos:
            self.selected = next(reversed(infos), None)  # the newest room
        self._listing = True
        try:
            if list(self.list.options) != options:
                self.list.options = options
            self.list.value = self.selected
            self.list.rows = min(max(len(options), 2), 8)
        finally:
            self._listing = False
        n = len(infos)
        self.heading.value = (f"<b style='font-size:1.2em'>Class rooms</b> <span style='color:#555555'>"
                              f"in {esc(self.path.name)}: {n} room{'s' if n != 1 else ''}; players join at "
                              f"<a href='{esc(self.app_url)}' target='_blank' style='color:#0B61A4'>"
                              f"{esc(self.app_url)}</a></span>")
        self.empty.value = "" if n else note("No rooms yet: press <b>New room…</b> to set one up.")
        self._show_room()

    def _show_room(self) -> None:
        room = self.selected
        if room is None:
            if self.view is not None:
                self.view.close()
                self.view = None
            self.room_box.children = [self.message]
            return
        info, g = self.infos[room], self._games[room][1]
        if self.view is None or self.view.room != room:
            old, self.view = self.view, RoomView(self, info, g)
            self.room_box.children = [self.view.widget]
            if old is not None:
                old.close()
        self.view.show(info, g, unlocked=room in self.teacher_codes)

    def select(self, room: str | None) -> None:
        """Show ``room`` (its id) below the list."""
        if room is not None and room not in self.infos:
            self.say(f"no room {esc(room)} in {esc(self.path.name)}", ERROR)
            return
        if room != self.selected:
            self.say("")
        self.selected = room
        self._show_list()

    # --- live: the kernel's timer -------------------------------------------------------------------
    def sync(self) -> bool:
        """Read the rooms once and make each room's bot move that is due; True if anything shown changed."""
        changed = self._read()
        moved = False
        for room, info in list(self.infos.items()):
            driver = self._drivers.setdefault(room, BotDriver(self.store, room))  # type: ignore[arg-type]
            if driver.move_if_due(info, self._games[room][1], self._moved_at[room], self.delay):
                moved = True
        if moved:
            self._read()
            return True
        return changed

    def run(self) -> None:
        """Keep reading the rooms on the kernel's timer (none without an event loop: call :meth:`sync`)."""
        loop = running_loop()
        if self._timer is None and not self._closed and loop is not None:
            self._timer = loop.call_later(self.poll_every, self._tick)

    def _tick(self) -> None:
        self._timer = None
        try:
            self.sync()
        except Exception as e:  # noqa: BLE001 (the timer must outlive a busy file or a failing bot: say it)
            self.say(f"reading the rooms failed: {esc(e)}; trying again", ERROR)
        finally:
            self.run()

    def close(self) -> None:
        """Stop the timer and close the room's figures and the rooms file."""
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.store is not None:
            self.store.close()
        close_all(tree(list(self.children)), set())
        super().close()

    # --- a new room -------------------------------------------------------------------------------
    def create_room(self, game: Game, seats: list[Seat], title: str, delay: float) -> Created | None:
        """Make a room of ``game`` with these seats in the rooms file (made if missing) and show it; its
        teacher code is kept for this kernel's lifetime. None (and a message) if the store refused."""
        made = self._attempt("create the room", lambda: self._open(create=True).create_room(  # type: ignore[union-attr]
            game, seats, title))
        if made is not None:
            self.delay = delay
            self.teacher_codes[made.room] = made.teacher
            self._read()
            self.select(made.room)
        return made

    # --- the teacher's tools -----------------------------------------------------------------------
    def unlock(self, room: str, code: str) -> bool:
        """Check ``code`` against ``room``'s teacher code (nothing changes) and, if it is, enable the
        teacher's tools for that room; a wrong code is refused and said so."""
        code = code.strip()
        store = self._open()
        if store is None or room not in self.infos:
            self.say(f"no room {esc(room)} to unlock", ERROR)
            return False
        try:
            store.check_teacher(room, code)
        except WrongCode:
            self.say("that is not this room's teacher code: nothing was changed. It was printed (or "
                     "shown) once, when the room was created", ERROR)
            return False
        except FAILURES as e:
            self.say(f"could not check the code: {esc(e)}", ERROR)
            return False
        self.teacher_codes[room] = code
        self.say(f"unlocked room {esc(room)}: the teacher's tools are on")
        self._read()
        self._show_room()
        return True

    def unlock_selected(self) -> None:
        if self.view is not None and self.unlock(self.view.room, self.view.code.value):
            self.view.code.value = ""

    def _teacher(self) -> tuple[SQLiteStore, str, str] | None:
        room = self.selected
        if self.store is None or room is None or room not in self.teacher_codes:
            self.say("type this room's teacher code first (Unlock)", ERROR)
            return None
        return self.store, room, self.teacher_codes[room]

    def toggle_pause(self) -> None:
        """Pause the selected room (no decision is taken, bots wait) or resume it."""
        held = self._teacher()
        if held is None:
            return
        store, room, code = held
        paused = not self.infos[room].paused
        if self._attempt("pause" if paused else "resume",
                         lambda: store.set_paused(room, code, paused) or True) is None:
            return
        self.say("paused: no decision is taken until you resume" if paused else "resumed")
        self._read()
        self._show_room()

    def undo(self) -> None:
        """Take back the selected room's last decision still standing."""
        held = self._teacher()
        if held is None:
            return
        store, room, code = held
        seq = self._attempt("undo", lambda: store.undo_last(room, code))
        if seq is None:
            return
        self._read()
        texts = [d.action for d in store.log(room) if d.seq <= seq]
        paused = self.infos[room].paused
        again = "" if paused else " Bots move again after the delay: pause the room to step back further."
        self.say(f"undone: {esc(undone_text(texts, self._games[room][1]))}.{again}")
        self._show_room()

    def hand_seat(self, seat: str, kind: str) -> None:
        """Hand ``seat`` of the selected room to a bot (``kind``: its name) or back to a human (a new
        join code, shown with its link; the old one stops working)."""
        held = self._teacher()
        if held is not None:
            store, room, code = held
            bot = None if kind == HUMAN else kind
            done = self._attempt(f"hand {seat}'s seat over", lambda: (store.set_seat(room, code, seat, bot),))
            if done is not None:
                new = done[0]
                self.say(f"{esc(seat)} plays at a screen again with a new code (the old one no longer "
                         f"works): {code_html(self.app_url, new)}" if new else
                         f"{esc(seat)}'s seat is played by the {esc(kind)} bot now; {esc(seat)}'s code "
                         "no longer works")
        self._read()
        self._show_room()  # a refused hand-over: the menu shows the seat as it is

    def _export_target(self) -> tuple[SQLiteStore, str, str] | None:
        held = self._teacher()
        if held is None or self.view is None:
            return None
        return held[0], held[1], self.view.export_name.value

    def export(self) -> None:
        """Save the selected room's game as ``<name>.json`` in the exports folder beside the rooms file."""
        target = self._export_target()
        if target is None:
            return
        store, room, text = target
        try:  # the saves folder's policy: a plain name, never a path or a link
            name = self.exports.name(text)
            self.exports.save(store.game(room), text)
        except SaveRefused as e:
            self.say(f"could not export: {esc(str(e).replace(SAVES, 'the exports folder'))}", ERROR)
            return
        except FAILURES as e:
            self.say(f"could not export: {esc(e)}", ERROR)
            return
        path = self.exports.folder / name
        self.say(f"exported to <code>{esc(path)}</code>; load it with "
                 f"<code>powergrid_nb.load({esc(repr(str(path)))})</code> (the lessons and the analysis lab "
                 "read it too)")

    def download(self) -> None:
        """Offer the selected room's game as a file through the browser (a ``data:`` link)."""
        target = self._export_target()
        if target is None or self.view is None:
            return
        store, room, text = target
        got = self._attempt("download", lambda: store.snapshot(room))
        if got is None:
            return
        g, rows = got
        name = download_name(text, f"room_{room}.json")
        data = base64.b64encode(json.dumps(g.to_dict(), ensure_ascii=False).encode("utf-8")).decode("ascii")
        self.view.download_link(name, data, g, rows)
        self.say(f"click ⬇ {esc(name)} to save the room's game with your browser")

    # --- layout -----------------------------------------------------------------------------------
    def _compose(self) -> None:
        new = self.new
        top = row(self.heading, new.button, justify_content="space-between")
        self.children = [top, new.box, row(new.created, new.hide, align_items="flex-start"),
                         heading("Rooms"), self.list, self.empty, self.room_box]

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """Everything the view shows now, as plain data (:func:`powergrid_nb.panels.snapshot.snapshot`)."""
        return snapshot(self)


def classroom(rooms: str | os.PathLike[str] | None = None, **kw: Any) -> Classroom:
    """The teacher's view of the rooms file ``rooms`` (default ``POWERGRID_ROOMS``, else rooms.sqlite in
    the working directory); ``kw``: :class:`Classroom`'s ``app_url``, ``poll`` and ``delay``."""
    return Classroom(rooms or os.environ.get(ROOMS_ENV) or "rooms.sqlite", **kw)
