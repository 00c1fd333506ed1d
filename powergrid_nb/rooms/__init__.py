"""Game rooms: one game, many browsers, kept in a database (SQLite by default).

A room is an append-only log (set-up, seats, one row per decision); the game is its replay.
``SQLiteStore("rooms.sqlite").create_room(game, seats)`` gives a join code per human seat and the
teacher's code; ``store.play(room, code, action, seen)`` appends a decision after the engine checked it
on the game the player saw (``seen`` rows), or says why not; :class:`BotDriver` moves the bots of a room
in the one process that holds its lease; :class:`RoomClient` is a player's seat, kept up to date.
"""

from .client import RoomClient
from .driver import BotDriver
from .errors import GameMovedOn, NotYourTurn, Paused, RoomError, StoreError, UnknownRoom, WrongCode
from .sqlite import SCHEMA_VERSION, SQLiteStore
from .store import Created, Decision, RoomInfo, RoomStore, Seat, app_url, join_link

__all__ = ["SCHEMA_VERSION", "BotDriver", "Created", "Decision", "GameMovedOn", "NotYourTurn", "Paused",
           "RoomClient", "RoomError", "RoomInfo", "RoomStore", "SQLiteStore", "Seat", "StoreError",
           "UnknownRoom", "WrongCode", "app_url", "join_link"]
