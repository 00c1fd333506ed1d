"""A player's view of a room: the game as the log has it, kept up to date by polling, and decisions
sent for the player's seat. Widgets build on it (``powergrid_nb.panels.room``); it knows none."""

from __future__ import annotations

from powergrid_nb.engine.actions import Action

from .errors import GameMovedOn
from .store import RoomInfo, RoomStore, replay

__all__ = ["RoomClient"]


class RoomClient:
    """The seat of the join ``code`` in its room of ``store``: :attr:`game` is the room's game after
    :attr:`seen` log rows; :meth:`poll` brings it up to the log's end; :meth:`play` decides for the seat.
    Raises :class:`~powergrid_nb.rooms.errors.WrongCode` for a code that is no seat's (``room``: the code
    must be one of that room's)."""

    def __init__(self, store: RoomStore, code: str, room: str | None = None) -> None:
        self.store = store
        self.code = code.strip()
        self.room, self.seat = store.seat_of(self.code, room)
        self.game, self.seen = store.snapshot(self.room)
        self.info: RoomInfo = store.info(self.room)

    @property
    def is_mine(self) -> bool:
        """Whether the seat is to act now (and is still played by this code's human, in a room not paused)."""
        g = self.game
        return (not g.is_over and g.current_player == self.seat and not self.info.paused
                and self.kind(self.seat) == "human")

    def kind(self, seat: str) -> str:
        """"human" or the name of the bot playing ``seat`` now."""
        s = next((s for s in self.info.seats if s.name == seat), None)
        return "human" if s is None or s.kind == "human" else str(s.bot)

    def poll(self) -> bool:
        """Read the room; apply the decisions made since (and the teacher's undos); True if anything a
        player sees changed (the game, a pause, a seat handed over)."""
        info = self.store.info(self.room)
        changed = info != self.info
        self.info = info
        if info.decisions < self.seen:  # the log is shorter than what was read: read the room afresh
            self.game, self.seen = self.store.snapshot(self.room)
            changed = True
        elif info.decisions != self.seen:
            rows = [(d.seq, d.action) for d in self.store.log(self.room, since=self.seen)]
            self.seen = replay(self.game, rows, self.seen)
            changed = True
        return changed

    def play(self, action: Action | str) -> int:
        """Decide for the seat on the game as shown (:attr:`seen` rows); returns the decision's sequence
        number. A refused decision writes nothing and raises (:class:`GameMovedOn` when another came
        first: :meth:`poll`, look again); either way the game is brought up to date."""
        try:
            seq = self.store.play(self.room, self.code, action, self.seen)
        except GameMovedOn:
            self.poll()
            raise
        self.poll()
        return seq
