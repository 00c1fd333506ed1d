"""One measurement of one engine in a fresh process: run by benchmarks/compare.py, not by hand.

    python -s -P benchmarks/_probe.py SPEC      # with PYTHONPATH=<the engine's root>

SPEC is a JSON object: ``task`` (random, latency, bots, undo or memory), ``root`` (the directory that
must hold the imported ``powergrid_nb``), ``core`` (the CPU to pin to), ``seed`` and the task's sizes.
The result is one JSON object on stdout. The same file measures both engines, and it uses only the
public API both have: ``new_game``, ``legal_actions()``, ``apply()``, ``is_over``, ``undo()``,
``copy()``, ``save()``, ``str(action)``, ``HeuristicBot`` and ``bots.play`` (whose bots are asked
through ``bot.act(game)``, the bot interface, which is how the heuristic games' actions are recorded).
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import random
import resource
import statistics
import sys
import time
import zlib
from pathlib import Path
from typing import Any

MAP = "germany"
MAX_DECISIONS = 200_000  # a random game that runs longer than this is a bug, not a slow game
WRONG_ENGINE = 3  # exit code when the child imported some other powergrid_nb


def pin(core: int) -> list[int]:
    """Run this process on ``core`` only; returns the CPUs it may use afterwards."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {core})
        return sorted(os.sched_getaffinity(0))
    return []


def import_engine(root: Path) -> Any:
    """``import powergrid_nb``, failing loudly unless it (and its bots) come from ``root``."""
    import powergrid_nb

    bots = importlib.util.find_spec("powergrid_nb.bots")  # where from, without loading them
    want = (root / "powergrid_nb").resolve()
    for name, file in (("powergrid_nb", powergrid_nb.__file__), ("powergrid_nb.bots", bots and bots.origin)):
        got = Path(file or "?").resolve()
        if want not in got.parents:
            sys.stderr.write(f"_probe.py: WRONG ENGINE: {name} was imported from {got}, "
                             f"not from {want} (sys.path = {sys.path})\n")
            raise SystemExit(WRONG_ENGINE)
    return powergrid_nb


def engine_kind() -> str:
    """Which engine runs: "compiled" if powergrid_nb.accel loaded the compiled one, else "python" (also
    for engines that predate it)."""
    accel = sys.modules.get("powergrid_nb.accel")
    return accel.status()["engine"] if accel else "python"


def engine_digest(root: Path) -> str:
    """sha256 of the engine's sources and maps, to see whether an engine changed during a run."""
    h = sha256()  # after the task: hashlib's OpenSSL would count in the memory task's RSS
    files = [p for p in (root / "powergrid_nb").rglob("*") if p.suffix in (".py", ".json")
             and "__pycache__" not in p.parts]
    files += list((root / "maps").glob("*.json"))
    for p in sorted(files):
        h.update(str(p.relative_to(root)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


class Checksum:
    """CRC-32 and Adler-32 of the bytes fed, as ``update``/``hexdigest`` (hashlib's interface): the
    memory task's digest, which must not load hashlib (OpenSSL) before its reading of the RSS."""

    def __init__(self) -> None:
        self.crc, self.adler = 0, 1

    def update(self, data: bytes) -> None:
        self.crc, self.adler = zlib.crc32(data, self.crc), zlib.adler32(data, self.adler)

    def hexdigest(self) -> str:
        return f"{self.crc:08x}{self.adler:08x}"


def sha256() -> Any:
    """A new sha256 (hashlib loaded on first use)."""
    import hashlib

    return hashlib.sha256()


def add_game(h: Any, actions: list[Any]) -> None:
    """Feed one game's action texts to the hash ``h``."""
    h.update("\n".join(map(str, actions)).encode())
    h.update(b"\n\0\n")


def nearest_rank(values: list[int], q: float) -> float:
    """Nearest-rank percentile (as benchmarks/_machine.py, which this process cannot import)."""
    s = sorted(values)
    return s[max(0, math.ceil(q * len(s)) - 1)] if s else 0.0


def random_game(new_game: Any, players: int, edition: str, seed: int, actions: list[Any]) -> int:
    """A seeded uniform-random game to its end; its actions go to ``actions``; returns decisions."""
    g = new_game(players, map=MAP, edition=edition, seed=seed)
    choice = random.Random(seed).choice
    legal, apply, keep = g.legal_actions, g.apply, actions.append
    n = 0
    while not g.is_over:
        a = choice(legal())
        apply(a)
        keep(a)
        n += 1
        if n > MAX_DECISIONS:
            raise RuntimeError(f"{players}p {edition} seed {seed}: no end after {MAX_DECISIONS} decisions")
    return n


# --- the tasks -------------------------------------------------------------------------------------

def task_random(pg: Any, spec: dict[str, Any]) -> dict[str, Any]:
    """Throughput of uniform-random games, per player count and edition; new_game() is timed too.

    Each game is timed by the wall clock and by the process's CPU clock (compare.py's figures), which
    leaves out the time other processes had the core."""
    rows = {}
    for edition in spec["editions"]:
        for players in spec["players"]:
            random_game(pg.new_game, players, edition, spec["seed"] + 10**6, [])  # warm-up
            h, seconds, cpu_seconds, decisions = sha256(), 0.0, 0.0, 0
            for seed in range(spec["seed"], spec["seed"] + spec["games"]):
                actions: list[Any] = []
                t, c = time.perf_counter(), time.process_time()
                decisions += random_game(pg.new_game, players, edition, seed, actions)
                seconds += time.perf_counter() - t
                cpu_seconds += time.process_time() - c
                add_game(h, actions)
            rows[f"{players}p {edition}"] = {"players": players, "edition": edition, "games": spec["games"],
                                            "seconds": seconds, "cpu_seconds": cpu_seconds,
                                            "decisions": decisions, "hash": h.hexdigest()}
    return {"rows": rows}


def task_latency(pg: Any, spec: dict[str, Any]) -> dict[str, Any]:
    """Each legal_actions() + apply() pair timed (4p original); the random choice between is not."""
    players, edition = 4, "original"
    random_game(pg.new_game, players, edition, spec["seed"] + 10**6, [])  # warm-up
    pairs: list[int] = []
    h = sha256()
    clock, keep = time.perf_counter_ns, pairs.append
    for seed in range(spec["seed"], spec["seed"] + spec["games"]):
        g = pg.new_game(players, map=MAP, edition=edition, seed=seed)
        choice = random.Random(seed).choice
        legal, apply = g.legal_actions, g.apply
        actions = []
        while not g.is_over:
            t0 = clock()
            acts = legal()
            t1 = clock()
            a = choice(acts)
            t2 = clock()
            apply(a)
            t3 = clock()
            keep(t1 - t0 + t3 - t2)
            actions.append(a)
            if len(actions) > MAX_DECISIONS:
                raise RuntimeError(f"seed {seed}: no end after {MAX_DECISIONS} decisions")
        add_game(h, actions)
    return {"games": spec["games"], "pairs": len(pairs), "median_us": statistics.median(pairs) / 1e3,
            "p95_us": nearest_rank(pairs, 0.95) / 1e3, "max_us": max(pairs) / 1e3, "hash": h.hexdigest()}


class Recorder:
    """A bot that passes another bot's decisions through and keeps each one in ``out``."""

    def __init__(self, bot: Any, out: list[Any]) -> None:
        self.bot, self.out = bot, out

    def act(self, game: Any) -> Any:
        a = self.bot.act(game)
        self.out.append(a)
        return a


def task_bots(pg: Any, spec: dict[str, Any]) -> dict[str, Any]:
    """Four HeuristicBots (``HeuristicBot(seed*10+i)``), 4p original; new_game() and play() timed.

    The bots are the heuristic of 10d45e5 on every engine, so that the engines play the same games:
    the frozen copy (``benchmarks/frozen_bot``) in a tree that has it, else the package's own, which
    is that heuristic in every commit before it was frozen."""
    from powergrid_nb.bots import play
    try:
        from benchmarks.frozen_bot import OldHeuristicBot as HeuristicBot
    except ImportError:  # a tree from before the freeze
        from powergrid_nb.bots import HeuristicBot

    def game(seed: int, actions: list[Any]) -> None:
        g = pg.new_game(4, map=MAP, edition="original", seed=seed)
        play(g, [Recorder(HeuristicBot(seed * 10 + i), actions) for i in range(4)])
        if not g.is_over:
            raise RuntimeError(f"heuristic game seed {seed} stopped before its end")

    game(spec["seed"] + 10**6, [])  # warm-up
    h, seconds, cpu_seconds, decisions = sha256(), 0.0, 0.0, 0
    for seed in range(spec["seed"], spec["seed"] + spec["games"]):
        actions: list[Any] = []
        t, c = time.perf_counter(), time.process_time()
        game(seed, actions)
        seconds += time.perf_counter() - t
        cpu_seconds += time.process_time() - c
        decisions += len(actions)
        add_game(h, actions)
    return {"games": spec["games"], "seconds": seconds, "cpu_seconds": cpu_seconds, "decisions": decisions,
            "hash": h.hexdigest()}


def task_undo(pg: Any, spec: dict[str, Any]) -> dict[str, Any]:
    """copy() and undo(1) at decision ``at`` of a seeded random 4p game (or its end if sooner).

    undo(1) is timed on copies made before the clock starts, one copy per repetition, by the process's
    CPU clock (an undo replays the game and takes milliseconds, long enough to lose the CPU to other
    processes on a busy machine; the wall clock is kept too); copy() by ``perf_counter_ns``.
    """
    seed, at = spec["undo_seed"], spec["at"]
    g = pg.new_game(4, map=MAP, edition="original", seed=seed)
    choice = random.Random(seed).choice
    actions = []
    while not g.is_over and len(actions) < at:
        a = choice(g.legal_actions())
        g.apply(a)
        actions.append(a)
    clock = time.perf_counter_ns
    for _ in range(10):  # warm-up
        g.copy().undo(1)
    copy_ns = []
    for _ in range(spec["copy_reps"]):
        t0 = clock()
        g.copy()
        copy_ns.append(clock() - t0)
    copies = [g.copy() for _ in range(spec["undo_reps"])]
    undo_ns, undo_wall_ns = [], []
    undone = ""
    cpu = time.process_time_ns
    for c in copies:
        t0, c0 = clock(), cpu()
        out = c.undo(1)
        undo_ns.append(cpu() - c0)
        undo_wall_ns.append(clock() - t0)
        undone = str(out[0])
    if undone != str(actions[-1]):
        raise RuntimeError(f"undo(1) took back {undone!r}, not the last action {str(actions[-1])!r}")
    h = sha256()
    add_game(h, [*actions, f"undo: {undone}"])
    return {"decisions": len(actions), "over": g.is_over, "copy_median_us": statistics.median(copy_ns) / 1e3,
            "undo_median_us": statistics.median(undo_ns) / 1e3,
            "undo_p95_us": nearest_rank(undo_ns, 0.95) / 1e3,
            "undo_wall_median_us": statistics.median(undo_wall_ns) / 1e3, "copy_reps": spec["copy_reps"],
            "undo_reps": spec["undo_reps"], "hash": h.hexdigest()}


def task_memory(pg: Any, spec: dict[str, Any]) -> dict[str, Any]:
    """Peak RSS after ``games`` random 4p games in this fresh process; then one game's save() size. The
    probe loads nothing heavy of its own before the reading (no hashlib, tempfile or bots): the RSS is
    the engine's."""
    h = Checksum()
    for seed in range(spec["seed"], spec["seed"] + spec["games"]):
        actions: list[Any] = []
        random_game(pg.new_game, 4, "original", seed, actions)
        add_game(h, actions)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    rss = rss // 1024 if sys.platform == "darwin" else rss  # bytes on macOS, KiB on Linux
    g = pg.new_game(4, map=MAP, edition="original", seed=spec["seed"])
    choice = random.Random(spec["seed"]).choice
    while not g.is_over:
        g.apply(choice(g.legal_actions()))
    import tempfile

    with tempfile.TemporaryDirectory(prefix="powergrid-probe-") as tmp:
        path = Path(tmp) / "game.json"
        g.save(str(path))
        save_bytes = path.stat().st_size
    return {"games": spec["games"], "max_rss_kib": rss, "save_bytes": save_bytes, "hash": h.hexdigest()}


TASKS = {"random": task_random, "latency": task_latency, "bots": task_bots, "undo": task_undo,
         "memory": task_memory}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        sys.stderr.write(__doc__)
        return 2
    spec = json.loads(argv[0])
    start = time.perf_counter()
    affinity = pin(spec["core"])
    root = Path(spec["root"])
    pg = import_engine(root)
    result = TASKS[spec["task"]](pg, spec)
    kind = engine_kind()  # after the task, which imported every module a game uses
    if kind != spec.get("want", "python"):
        sys.stderr.write(f"_probe.py: WRONG ENGINE: the {kind} engine was loaded, not the "
                         f"{spec.get('want')} one\n")
        return WRONG_ENGINE
    out = {"task": spec["task"], "engine_file": pg.__file__, "engine": kind,
           "engine_digest": engine_digest(root),
           "python": sys.version.split()[0], "affinity": affinity,
           "seconds": time.perf_counter() - start, "result": result}
    sys.stdout.write(json.dumps(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
