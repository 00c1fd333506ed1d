"""Make ``notebooks/lessons/data/example_class/``: the exported games of a class, played by bots
standing in for students, so that lesson 7 runs without a class.

    python scripts/make_example_class.py

It goes the way a class's games go: a rooms file (a temporary one) with one room per table, every seat
a bot (each table mixes bot styles, so the stand-in class does not play exactly like the lesson's
comparison bots), the rooms' bots moved by :class:`~powergrid_nb.rooms.BotDriver` to the end of the
game, then each room exported with ``RoomStore.export``, as ``powergrid-nb room export`` does.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from powergrid_nb import new_game
from powergrid_nb.rooms import BotDriver, Seat, SQLiteStore

OUT = Path(__file__).resolve().parents[1] / "notebooks" / "lessons" / "data" / "example_class"
STYLES = ["heuristic:cautious", "heuristic:aggressive", "builder", "heuristic", "heuristic:cautious"]
TABLES = {  # the file name of each table's export: its seats (names of stand-ins) and the game's seed
    "table1": (["Ana", "Ben", "Cleo", "Dev"], 101),
    "table2": (["Eli", "Fay", "Gus"], 102),
    "table3": (["Hana", "Ivo", "Jun", "Kim", "Lea"], 103),
    "table4": (["Max", "Noa", "Oli", "Pia"], 104),
}


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(Path(tmp) / "class.sqlite")
        for k, (name, (players, seed)) in enumerate(TABLES.items()):
            seats = [Seat(p, "bot", STYLES[(i + k) % len(STYLES)]) for i, p in enumerate(players)]
            room = store.create_room(new_game(players, map="germany", seed=seed), seats,
                                     title=f"{name} (bots standing in for students)")
            driver = BotDriver(store, room.room, seed=seed)
            while driver.step(max_moves=500):
                pass
            g = store.game(room.room)
            if not g.is_over:
                raise RuntimeError(f"{name}: the bots stopped in round {g.round} before the end")
            store.export(room.room, OUT / f"{name}.json")
            print(f"{name}: {len(players)} players, {g.round} rounds, won by {', '.join(g.winners)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
