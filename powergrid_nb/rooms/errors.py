"""What can go wrong with a room, each error saying what was wrong and what is allowed."""

from __future__ import annotations

from powergrid_nb.engine.errors import PowerGridError

__all__ = ["GameMovedOn", "NotYourTurn", "Paused", "RoomError", "StoreError", "UnknownRoom", "WrongCode"]


class RoomError(PowerGridError):
    """A request to a room was refused; nothing was written."""


class StoreError(RoomError):
    """The database cannot be used as a room store (not a database, another program's, a newer schema,
    a log that no longer replays); nothing in it was changed."""


class UnknownRoom(RoomError, KeyError):
    """No room of that id in this store."""

    def __str__(self) -> str:
        return str(self.args[0])


class WrongCode(RoomError):
    """The join or teacher code is not one of this room's."""


class GameMovedOn(RoomError):
    """The request was made on an older state of the game: another decision came first."""


class NotYourTurn(RoomError):
    """The seat of the code is not the one to act, or the action is another player's."""


class Paused(RoomError):
    """The teacher paused the room: no decision is taken until it is resumed."""
