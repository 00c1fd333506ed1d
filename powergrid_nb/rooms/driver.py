"""The bots of a room: one process at a time moves them, under a lease kept in the store."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable

from powergrid_nb.bots import Bot, make_bot
from powergrid_nb.engine.game import Game

from .errors import GameMovedOn, Paused
from .store import RoomInfo, RoomStore, bot_to_act

__all__ = ["LEASE_RETRY", "BotDriver"]

LEASE_RETRY = 1.0  # seconds before asking again for a bot lease another process held


class BotDriver:
    """Moves the bot seats of ``room`` while it holds the room's lease (``holder``: this process by
    default). A call of :meth:`step` when a bot is to act renews the lease, or takes it over once its
    holder has stopped renewing it for ``lease`` seconds; a driver without the lease moves nothing."""

    def __init__(self, store: RoomStore, room: str, holder: str | None = None, lease: float = 10.0,
                 seed: int = 0) -> None:
        self.store, self.room, self.lease, self.seed = store, room, lease, seed
        self.holder = holder or f"{socket.gethostname()}:{os.getpid()}:{id(self):x}"
        self._bots: dict[tuple[str, str], Bot] = {}
        self._refused_at = -LEASE_RETRY

    def _bot(self, seat: str, spec: str, names: list[str]) -> Bot:
        key = (seat, spec)
        if key not in self._bots:
            self._bots[key] = make_bot(spec, seed=self.seed * 1000 + names.index(seat))
        return self._bots[key]

    def step(self, max_moves: int = 1, stop: Callable[[], bool] | None = None) -> list[int]:
        """Make up to ``max_moves`` bot decisions while bots are to act; returns their sequence numbers
        (empty: a human is to act, the game is over, the room is paused or another process drives it)."""
        done: list[int] = []
        info = self.store.info(self.room)
        # the lease is a write: taken only when there is a bot move to make, so idle clients never write
        if (not bot_to_act(info, self.store.snapshot(self.room)[0])
                or not self.store.take_lease(self.room, self.holder, self.lease)):
            return done
        bots = {s.name: s.bot for s in info.seats if s.kind == "bot"}
        names = [s.name for s in info.seats]
        while len(done) < max_moves and not (stop and stop()):
            g, seen = self.store.snapshot(self.room)  # together: a later undo can only be GameMovedOn
            seat = g.current_player
            if g.is_over or seat not in bots:
                break
            try:
                action = self._bot(seat, bots[seat], names).act(g)  # type: ignore[arg-type]
                done.append(self.store.play_bot(self.room, self.holder, action, seen))
            except GameMovedOn:
                continue  # a teacher's undo or a handed seat came first: look again
            except Paused:
                break  # the teacher paused the room meanwhile
        return done

    def move_if_due(self, info: RoomInfo, g: Game, moved_at: float, delay: float) -> bool:
        """One bot move of the room shown as ``info`` and ``g`` when it is due: a bot is to act, ``delay``
        seconds have passed since the room's last decision (``moved_at``, ``time.monotonic()``), and no
        other process held the lease at the last try (asked again after :data:`LEASE_RETRY` seconds).
        True if a bot moved."""
        now = time.monotonic()
        if (not bot_to_act(info, g) or now - moved_at < delay
                or now - self._refused_at < LEASE_RETRY):
            return False
        if self.step(1):
            return True
        self._refused_at = now  # another process drives the bots (or the turn passed)
        return False
