"""``powergrid-nb room create|list|export``: the teacher's commands for game rooms."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from powergrid_nb.engine.board.maps import DEFAULT_MAP, builtin_maps
from powergrid_nb.engine.editions import DEFAULT_EDITION, EDITIONS, MAX_PLAYERS, MIN_PLAYERS

from .errors import RoomError
from .sqlite import SQLiteStore
from .store import APP_PORT, APP_URL_ENV, Seat, join_link

__all__ = ["add_parser", "command"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    r = sub.add_parser("room", help="create, list and export game rooms (one game, many browsers)",
                       description="Game rooms kept in a SQLite file: one join code per human seat, "
                                   "bots for the other seats, the teacher's code for pause and undo.")
    r.add_argument("action", choices=("create", "list", "export"))
    r.add_argument("room", nargs="?", help="export: the room's id")
    r.add_argument("out", nargs="?", help="export: the save file to write (.json)")
    r.add_argument("--db", default="rooms.sqlite",
                   help="the rooms file (create makes it if missing; list and export read an existing one)")
    r.add_argument("--players", default="3",
                   help=f"create: a count ({MIN_PLAYERS}-{MAX_PLAYERS}) or names: Ada,Bo,Cy")
    r.add_argument("--bot", action="append", default=[], metavar="SEAT=BOT",
                   help="create: a seat played by a bot, e.g. Cy=heuristic (repeatable); the others are "
                        "humans")
    r.add_argument("--map", default=DEFAULT_MAP, help=f"create: {' or '.join(builtin_maps())}")
    r.add_argument("--edition", default=DEFAULT_EDITION, choices=tuple(EDITIONS))
    r.add_argument("--seed", type=int, default=None, help="create: the game's seed (default: random)")
    r.add_argument("--from", dest="save", metavar="GAME.json", default=None,
                   help="create: play on from this saved game instead of a new one")
    r.add_argument("--title", default="", help="create: a name for the room, e.g. 'Class 3B'")
    r.add_argument("--app-url", default=None, metavar="URL",
                   help="create: where players open the app, for the join links (default: "
                        "$POWERGRID_APP_URL; without either, the codes are printed without links)")


def _create(store: SQLiteStore, args: argparse.Namespace) -> str:
    from powergrid_nb.engine.newgame import load, new_game

    if args.save:
        g = load(args.save)
    else:
        players = int(args.players) if args.players.strip().isdigit() else [
            p.strip() for p in args.players.split(",") if p.strip()]
        g = new_game(players, map=args.map, edition=args.edition, seed=args.seed)
    bots = {}
    for item in args.bot:
        seat, eq, bot = item.partition("=")
        if not eq or not seat.strip() or not bot.strip():
            raise RoomError(f"--bot takes SEAT=BOT (e.g. Cy=heuristic), not {item!r}")
        bots[seat.strip()] = bot.strip()
    unknown = set(bots) - set(g.players)
    if unknown:
        raise RoomError(f"--bot names a seat that is not a player ({', '.join(sorted(unknown))}); the "
                        f"players are {', '.join(g.players)}")
    seats = [Seat(p, "bot", bots[p]) if p in bots else Seat(p, "human") for p in g.players]
    created = store.create_room(g, seats, args.title)
    width = max(len(p) for p in g.players) + 1
    lines = [f"room {created.room}{' ' + repr(args.title) if args.title else ''}: {g.map.name}, "
             f"{g.edition}, {len(g.players)} players, in {store.path}",
             f"teacher code: {created.teacher}  (keep it: pause, undo, hand a seat to a bot)"]
    url = args.app_url or os.environ.get(APP_URL_ENV)  # else no links: this host's name may reach nobody
    for p in g.players:
        code = created.codes.get(p)
        who = (f"{code}  {join_link(code, url)}" if code and url else code) if code else f"bot ({bots[p]})"
        lines.append(f"  {p + ':':<{width}} {who}")
    if not url and created.codes:
        lines.append(f"(no join links: give --app-url, the address the players open, e.g. "
                     f"http://192.168.1.20:{APP_PORT}/ for `make app APP_HOST=0.0.0.0` on that machine, or "
                     f"set {APP_URL_ENV}; players can also type their code on the app's page)")
    return "\n".join(lines)


def command(args: argparse.Namespace) -> int:
    """Run ``powergrid-nb room ...``; returns the exit code (messages say what was wrong)."""
    import sys

    from powergrid_nb.engine.errors import PowerGridError

    try:
        if args.action != "create" and not Path(args.db).exists():  # never make a file it was to read
            raise RoomError(f"no rooms file {args.db!r}: `powergrid-nb room create --db {args.db}` makes one")
        store = SQLiteStore(args.db)
        if args.action == "create":
            print(_create(store, args))
        elif args.action == "list":
            for r in store.rooms():
                state = "paused" if r.paused else "running"
                print(f"{r.id}  {r.title or '-'}  {', '.join(r.players)}  {r.map}/{r.edition}  "
                      f"{r.decisions} decisions  {state}")
        else:
            if not args.room or not args.out:
                raise RoomError("export takes the room's id and a file name: "
                                "powergrid-nb room export ROOM game.json")
            print(f"wrote {store.export(args.room, Path(args.out))}")
    except (PowerGridError, ValueError, OSError) as e:
        print(f"powergrid-nb room {args.action}: error: {e}", file=sys.stderr)
        return 2
    return 0
