"""The bots of a room: one process at a time moves them, under a lease kept in the store."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable

from ..bots import Bot, make_bot
from .errors import GameMovedOn, Paused
from .store import RoomStore

__all__ = ["BotDriver"]


class BotDriver:
    """Moves the bot seats of ``room`` while it holds the room's lease (``holder``: this process by
    default). A call of :meth:`step` when a bot is to act renews the lease, or takes it over once its
    holder has stopped renewing it for ``lease`` seconds; a driver without the lease moves nothing."""

    def __init__(self, store: RoomStore, room: str, holder: str | None = None, lease: float = 10.0,
                 seed: int = 0) -> None:
        self.store, self.room, self.lease, self.seed = store, room, lease, seed
        self.holder = holder or f"{socket.gethostname()}:{os.getpid()}:{id(self):x}"
        self._bots: dict[tuple[str, str], Bot] = {}

    def _bot(self, seat: str, spec: str, names: list[str]) -> Bot:
        key = (seat, spec)
        if key not in self._bots:
            self._bots[key] = make_bot(spec, seed=self.seed * 1000 + names.index(seat))
        return self._bots[key]

    def bot_to_act(self) -> bool:
        """Whether a bot seat is to act in the room now (not paused, not over): a read, no lease."""
        info = self.store.info(self.room)
        if info.paused:
            return False
        g = self.store.snapshot(self.room)[0]
        bots = {s.name for s in info.seats if s.kind == "bot"}
        return not g.is_over and g.current_player in bots

    def step(self, max_moves: int = 1, stop: Callable[[], bool] | None = None) -> list[int]:
        """Make up to ``max_moves`` bot decisions while bots are to act; returns their sequence numbers
        (empty: a human is to act, the game is over, the room is paused or another process drives it)."""
        done: list[int] = []
        # the lease is a write: taken only when there is a bot move to make, so idle clients never write
        if not self.bot_to_act() or not self.store.take_lease(self.room, self.holder, self.lease):
            return done
        info = self.store.info(self.room)
        bots = {s.name: s.bot for s in info.seats if s.kind == "bot"}
        names = [s.name for s in info.seats]
        while len(done) < max_moves and not info.paused and not (stop and stop()):
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
