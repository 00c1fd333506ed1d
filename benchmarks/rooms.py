"""Game rooms in SQLite (docs/benchmarks.md): decisions appended per second, one play's time, and how
soon another process sees a new decision.

1. Throughput, rows side by side in one run, each on a fresh room of a 6-player Germany game
   (original edition) in a file of its own: one process deciding for all six seats; six processes with
   one seat each; six processes on a 3-player game with two per seat (two tabs of one code: they race
   on each decision and the loser gets GameMovedOn). Every worker (its own process, "spawn", its own
   ``SQLiteStore``) plays seeded random legal moves on ``store.game(room)`` as fast as it can, polling
   every 0.2 ms while another seat is to act, until the room has ``--decisions`` decisions (a new room
   when a game ends).
   ``play`` is the time of one ``store.play`` call (refused ones included), median and p95; each row
   runs ``--repeat`` times (fresh rooms), decisions/s is the median run (with the slowest and fastest).
2. Visibility: one process appends a decision every 10-30 ms (random); another polls
   ``store.log(room, since)`` every ``--poll-ms`` and notes when each row arrives, from the row's
   time stamp (taken in the writing transaction, just before COMMIT; one clock, one machine). "game"
   adds the ``store.game(room)`` that follows (incremental replay and copy). This is the store's part
   of the "a move in one browser appears in another within 1 s" target.

Run ``python benchmarks/rooms.py`` (see ``--help``); it prints a table and the command.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

try:
    import powergrid_nb  # noqa: F401
except ImportError:  # a checkout without an installed package
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _machine import cores, cpu_model, nearest_rank  # noqa: E402  (benchmarks/_machine.py, beside this script)

from powergrid_nb import new_game  # noqa: E402
from powergrid_nb.rooms import GameMovedOn, Seat, SQLiteStore  # noqa: E402

SPAWN = mp.get_context("spawn")


def new_room(store: SQLiteStore, players: int, seed: int) -> tuple[str, dict[str, str]]:
    g = new_game(players, seed=seed)
    created = store.create_room(g, [Seat(p, "human") for p in g.players], title=f"bench {seed}")
    return created.room, created.codes


def worker(path: str, room: str, codes: dict[str, str], seed: int, cap: int, start, results) -> None:
    """Random legal moves for the seats of ``codes`` until the room has ``cap`` decisions or is over."""
    store = SQLiteStore(path)
    rng = random.Random(seed)
    plays: list[float] = []
    moved = 0
    start.wait(120)
    while True:
        g = store.game(room)
        seen = len(g.actions)  # the rows this game replays (no undo here)
        if g.is_over or seen >= cap:
            break
        seat = g.current_player
        if seat not in codes:
            time.sleep(0.0002)
            continue
        action = rng.choice(g.legal_actions())
        t = time.perf_counter()
        try:
            store.play(room, codes[seat], action, seen)
        except GameMovedOn:
            moved += 1
        plays.append(time.perf_counter() - t)
    results.put({"plays": plays, "moved_on": moved})


def throughput(path: str, players: int, per_seat: int, one_process: bool, decisions: int,
               seed: int) -> dict:
    """``decisions`` decisions into rooms of ``players`` players (a new room when a game ends)."""
    store = SQLiteStore(path)
    done, seconds, plays, moved, n_procs = 0, 0.0, [], 0, 0
    while done < decisions:
        room, codes = new_room(store, players, seed + done)
        plan = [codes] if one_process else [{s: c} for s, c in codes.items()] * per_seat
        n_procs = len(plan)
        start, results = SPAWN.Event(), SPAWN.Queue()
        procs = [SPAWN.Process(target=worker, args=(path, room, codes, seed + 7 * k + done,
                                                    decisions - done, start, results))
                 for k, codes in enumerate(plan)]
        for p in procs:
            p.start()
        time.sleep(0.5 + 0.5 * len(procs))  # let them import and open the store (not timed)
        t = time.perf_counter()
        start.set()
        outs = [results.get(timeout=600) for _ in procs]
        seconds += time.perf_counter() - t
        for p in procs:
            p.join()
        for o in outs:
            plays += o["plays"]
            moved += o["moved_on"]
        done += len(store.log(room))
    return {"processes": n_procs, "players": players, "per_seat": per_seat, "decisions": done,
            "seconds": seconds, "plays": plays, "moved_on": moved}


def paced_writer(path: str, room: str, codes: dict[str, str], n: int, seed: int, start) -> None:
    store = SQLiteStore(path)
    rng = random.Random(seed)
    start.wait(120)
    for _ in range(n):
        time.sleep(rng.uniform(0.010, 0.030))
        g = store.game(room)
        if g.is_over:
            break
        store.play(room, codes[g.current_player], rng.choice(g.legal_actions()), len(g.actions))


def visibility(path: str, samples: int, poll_ms: float, seed: int) -> dict:
    """The writer in a child process, this process polls."""
    store = SQLiteStore(path)
    room, codes = new_room(store, 6, seed)
    start = SPAWN.Event()
    p = SPAWN.Process(target=paced_writer, args=(path, room, codes, samples, seed, start))
    p.start()
    time.sleep(1.5)
    store.game(room)
    seen_lat, game_lat, empty = [], [], []
    since = 0
    start.set()
    while since < samples and (p.is_alive() or store.log(room, since)):
        t = time.perf_counter()
        rows = store.log(room, since)
        now = time.time()
        if not rows:
            empty.append(time.perf_counter() - t)
            time.sleep(poll_ms / 1000)
            continue
        store.game(room)
        ready = time.time()
        for r in rows:
            seen_lat.append(now - r.at)
            game_lat.append(ready - r.at)
        since = rows[-1].seq
    p.join()
    return {"seen": seen_lat, "game": game_lat, "empty": empty}


def ms(values: list[float], q: float | None = None) -> str:
    if not values:
        return "-"
    v = statistics.median(values) if q is None else nearest_rank(values, q)
    return f"{1000 * v:.2f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=800, help="decisions per throughput row")
    ap.add_argument("--samples", type=int, default=300, help="decisions timed for visibility")
    ap.add_argument("--poll-ms", type=float, default=5.0, help="the observer's poll interval")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each throughput row (median shown)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dir", default=None, help="where the room file goes (default: a temporary folder)")
    args = ap.parse_args()
    folder = Path(args.dir or tempfile.mkdtemp(prefix="rooms-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    load0 = os.getloadavg()
    print(f"{cpu_model()}, {cores()} cores, Python {platform.python_version()}, SQLite "
          f"{__import__('sqlite3').sqlite_version}; load {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}")
    print(f"room file in {folder}")
    rows = [("1 process, 6 seats", 6, 1, True), ("6 processes, 1 seat each", 6, 1, False),
            ("6 processes, 2 per seat (3p)", 3, 2, False)]
    print(f"{'writers':<30} {'decisions':>9} {'dec/s':>7} {'(min-max)':>11} {'play med ms':>11} "
          f"{'play p95 ms':>11} {'GameMovedOn':>11}")
    for k, (label, players, per_seat, one) in enumerate(rows):
        runs = [throughput(str(folder / f"throughput{k}-{i}.sqlite"), players, per_seat, one, args.decisions,
                           args.seed + 1000 * i) for i in range(args.repeat)]
        rates = [r["decisions"] / r["seconds"] for r in runs]
        plays = [t for r in runs for t in r["plays"]]
        span = f"{min(rates):.0f}-{max(rates):.0f}"
        print(f"{label:<30} {sum(r['decisions'] for r in runs):>9} {statistics.median(rates):>7.0f} "
              f"{span:>11} {ms(plays):>11} {ms(plays, 0.95):>11} {sum(r['moved_on'] for r in runs):>11}")
    v = visibility(str(folder / "visibility.sqlite"), args.samples, args.poll_ms, args.seed)
    print()
    print(f"another process sees a decision (poll every {args.poll_ms:g} ms), {len(v['seen'])} decisions:")
    print(f"  row seen:   median {ms(v['seen'])} ms, p95 {ms(v['seen'], 0.95)} ms, max {ms(v['seen'], 1)} ms")
    print(f"  game ready: median {ms(v['game'])} ms, p95 {ms(v['game'], 0.95)} ms, max {ms(v['game'], 1)} ms")
    print(f"  one empty poll (store.log, nothing new): median {ms(v['empty'])} ms, "
          f"p95 {ms(v['empty'], 0.95)} ms")
    load1 = os.getloadavg()
    print(f"load after: {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}")
    print(f"command: python benchmarks/rooms.py --decisions {args.decisions} --repeat {args.repeat} "
          f"--samples {args.samples} --poll-ms {args.poll_ms:g} --seed {args.seed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
