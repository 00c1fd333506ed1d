"""Rooms one machine can hold (docs/benchmarks.md): R rooms of 6 seats, every human seat a process
that keeps a real room table; how soon each table shows the other seats' decisions; target 1 s.

For each R of ``--rooms`` (default 1, 5, 10): a fresh rooms file with R rooms, each a 6-player game
(Germany, original edition) with 4 human seats and 2 bots (random and heuristic). Each human seat is a
process of its own (``spawn``), a stand-in for the player's kernel: the real code path
``powergrid_nb.panels.room.RoomTable(RoomClient(SQLiteStore(path), code), delay=0.6)`` on its own asyncio
loop, so its poll timer runs (every ``POLL`` = 0.25 s) and it drives the room's bots when it holds the
lease; no browser. When its seat is to act, the simulated player thinks 1-3 s (random) and decides
with a random bot's move through ``table.submit``, as the panels do. Bot seats have no process (a bot
has no code and no kernel): whichever table holds the lease moves them, ``delay`` s after the last move.

Measured for every decision: from its row's time stamp (``Decision.at``, taken in the writing
transaction) to the moment each other table has refreshed with it (a human's own table and the table
that moved a bot are not counted); median, p95 and max per R; the processes' CPU (user + system seconds
over the run, as a share of the machine's cores), the sum of their RSS at the end, the load average.
Tables are built before the clock starts; each R then runs ``--seconds``.

Run ``python benchmarks/rooms_load.py`` (``--help``); it prints the machine, a table and the command.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import platform
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

try:
    import powergrid_nb  # noqa: F401
except ImportError:  # a checkout without an installed package
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _machine import cores, cpu_model, nearest_rank  # noqa: E402  (benchmarks/_machine.py, beside this script)

from powergrid_nb import new_game  # noqa: E402
from powergrid_nb.rooms import Seat, SQLiteStore  # noqa: E402

SPAWN = mp.get_context("spawn")
HUMANS, BOTS = 4, ("random", "heuristic")


def seat_process(path: str, code: str, seed: int, seconds: float, ready: Any, start: Any, out: Any) -> None:
    """One player's kernel stand-in: a RoomTable on an asyncio loop, a simulated human at it."""
    asyncio.run(_seat(path, code, seed, seconds, ready, start, out))


async def _seat(path: str, code: str, seed: int, seconds: float, ready: Any, start: Any, out: Any) -> None:
    from powergrid_nb.bots import make_bot
    from powergrid_nb.panels.room import RoomTable
    from powergrid_nb.rooms import RoomClient

    class Timed(RoomTable):
        """A room table noting when each decision was first on it, and the bot moves it made."""

        def __init__(self, client: RoomClient, **kw: Any) -> None:
            self.shown_at: dict[int, float] = {}
            self.bot_moves: list[int] = []
            self._shown = client.seen
            super().__init__(client, **kw)
            step = self.driver.step  # type: ignore[union-attr]
            self.driver.step = lambda *a, **k: self._note(step(*a, **k))  # type: ignore[union-attr,method-assign]

        def _note(self, seqs: list[int]) -> list[int]:
            self.bot_moves += seqs
            return seqs

        def refresh(self) -> None:
            super().refresh()
            now, seen = time.time(), self.client.seen
            for s in range(self._shown + 1, seen + 1):
                self.shown_at.setdefault(s, now)
            self._shown = max(self._shown, seen)

    rng = random.Random(seed)
    player = make_bot("random", seed=seed)
    table = Timed(RoomClient(SQLiteStore(path), code), delay=0.6)
    ready.set()
    while not start.is_set():
        await asyncio.sleep(0.05)
    table.shown_at.clear()
    t0, cpu0 = time.time(), _cpu()
    due: float | None = None
    decided = 0
    while time.time() - t0 < seconds:
        await asyncio.sleep(0.05)
        if not table.client.is_mine:
            due = None
        elif due is None:
            due = time.time() + rng.uniform(1.0, 3.0)  # the player thinks
        elif time.time() >= due:
            decided += table.submit(player.act(table.game.copy()))
            due = None
    cpu = _cpu() - cpu0
    import psutil

    rss = psutil.Process().memory_info().rss
    out.put({"seat": table.client.seat, "room": table.client.room, "shown_at": table.shown_at,
             "bot_moves": table.bot_moves, "cpu": cpu, "rss": rss, "decided": decided})
    table.close()


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def run(rooms: int, seconds: float, seed: int, folder: Path) -> dict[str, Any]:
    """R rooms, a process per human seat, ``seconds`` of play; the latencies and the costs."""
    path = folder / f"load-{rooms}.sqlite"
    store = SQLiteStore(path)
    plan = []
    for r in range(rooms):
        g = new_game(6, map="germany", edition="original", seed=seed + r)
        seats = [Seat(p, "human") if i < HUMANS else Seat(p, "bot", BOTS[i - HUMANS])
                 for i, p in enumerate(g.players)]
        created = store.create_room(g, seats, title=f"load {r}")
        plan += [(created.room, code) for code in created.codes.values()]
    start, out = SPAWN.Event(), SPAWN.Queue()
    readies = [SPAWN.Event() for _ in plan]
    procs = [SPAWN.Process(target=seat_process, args=(str(path), code, seed * 100 + k, seconds, readies[k],
                                                      start, out))
             for k, (_room, code) in enumerate(plan)]
    t_build = time.perf_counter()
    for p in procs:
        p.start()
    for e in readies:
        if not e.wait(600):
            raise TimeoutError("a seat process did not build its table within 600 s")
    built = time.perf_counter() - t_build
    load0 = os.getloadavg()
    t_start = time.time()
    start.set()
    results = [out.get(timeout=seconds + 600) for _ in procs]
    for p in procs:
        p.join(60)
    load1 = os.getloadavg()
    logs = {r: {d.seq: d for d in store.log(r)} for r in {room for room, _ in plan}}
    lat: list[float] = []
    worst = (0.0, 0.0)  # (latency, when it was seen, in seconds after the start)
    for res in results:
        rows = logs[res["room"]]
        mine = set(res["bot_moves"])
        for seq, t in res["shown_at"].items():
            d = rows[seq]
            if d.seat != res["seat"] and seq not in mine:
                lat.append(t - d.at)
                worst = max(worst, (t - d.at, t - t_start))
    decisions = sum(len(rows) for rows in logs.values())
    return {"rooms": rooms, "procs": len(procs), "built": built, "lat": lat, "decisions": decisions,
            "worst_at": worst[1],
            "cpu": sum(r["cpu"] for r in results), "rss": sum(r["rss"] for r in results),
            "load0": load0, "load1": load1, "seconds": seconds}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", default="1,5,10", help="numbers of rooms to try, comma-separated")
    ap.add_argument("--seconds", type=float, default=60, help="seconds of play for each number of rooms")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="rooms-load-"))
    load = os.getloadavg()
    print(f"{cpu_model()}, {cores()} cores, Python {platform.python_version()}, SQLite "
          f"{__import__('sqlite3').sqlite_version}; load before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"rooms x 6 seats ({HUMANS} human processes + bots {', '.join(BOTS)}), think time 1-3 s, bot "
          f"delay 0.6 s, poll 0.25 s; {args.seconds:g} s of play each; files in {folder}")
    print(f"{'rooms':>5} {'procs':>5} {'build s':>7} {'decisions':>9} {'seen':>6} {'median ms':>9} "
          f"{'p95 ms':>7} {'max ms':>7} {'at s':>5} {'>1 s':>4} {'CPU %':>6} {'RSS MB':>7} {'load 1m':>11} "
          f"{'<= 1 s':>6}")
    for rooms in (int(x) for x in args.rooms.split(",")):
        r = run(rooms, args.seconds, args.seed, folder)
        lat = r["lat"]
        med, p95, top = ((1000 * statistics.median(lat), 1000 * nearest_rank(lat, 0.95), 1000 * max(lat))
                         if lat else (float("nan"),) * 3)
        cpu = 100 * r["cpu"] / r["seconds"] / cores()
        ok = "yes" if lat and p95 <= 1000 else "no"
        print(f"{rooms:>5} {r['procs']:>5} {r['built']:>7.0f} {r['decisions']:>9} {len(lat):>6} {med:>9.0f} "
              f"{p95:>7.0f} {top:>7.0f} {r['worst_at']:>5.0f} {sum(x > 1 for x in lat):>4} {cpu:>6.0f} "
              f"{r['rss'] / 2**20:>7.0f} "
              f"{r['load0'][0]:>5.2f}->{r['load1'][0]:<5.2f} {ok:>6}", flush=True)
    print("at s: when the slowest was seen (s after the start); >1 s: decisions seen later than 1 s;")
    print("CPU %: the seat processes' user + system time over the run, of all cores; load 1m: at the start")
    print("(it still counts the tables' build) and at the end; target: p95 <= 1 s")
    print("command: python " + " ".join(["benchmarks/rooms_load.py", *sys.argv[1:]]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
