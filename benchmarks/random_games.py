"""Engine speed with a seeded uniform-random player: full games, single process.

Each game ``i`` of a configuration uses seed ``--seed + i`` for both ``new_game(seed=...)`` and the
player, ``random.Random(seed).choice(g.legal_actions())``, so every run plays the same games.

Three passes per configuration (all in this one process, on one core):

1. throughput: the games played with no per-decision timing (games/s, rounds/s, decisions/s);
2. latency: the same games again with ``time.perf_counter_ns`` around each ``legal_actions()`` and
   each ``apply()`` (one pair = one decision; the random choice in between is not timed);
3. memory: one game (the first seed) under ``tracemalloc`` for the peak of Python allocations.

Run ``python benchmarks/random_games.py`` for the headline configuration (4 players, Germany,
original) or ``--all`` for every player count, edition and map. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import resource
import statistics
import sys
import time
import tracemalloc
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

try:
    import powergrid_nb
except ImportError:  # running from a checkout without an installed package
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import powergrid_nb

from _machine import cores, cpu_model, nearest_rank  # noqa: E402  (benchmarks/_machine.py, beside this script)

from powergrid_nb import new_game

MAX_DECISIONS = 200_000  # a random game that runs longer than this is a bug, not a slow game
ALL_DEFAULT_GAMES = 10


@dataclass
class Result:
    players: int
    edition: str
    map: str
    games: int
    seed: int
    seconds: float = 0.0
    rounds: int = 0
    decisions: int = 0
    new_game_ms: float = 0.0
    pair_median_us: float = 0.0
    pair_p95_us: float = 0.0
    legal_median_us: float = 0.0
    apply_median_us: float = 0.0
    pair_max_us: float = 0.0
    tracemalloc_peak_kib: float = 0.0
    max_rss_kib: int = 0

    @property
    def label(self) -> str:
        return f"{self.players}p {self.map} {self.edition}"

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def rounds_per_game(self) -> float:
        return self.rounds / self.games

    @property
    def rounds_per_s(self) -> float:
        return self.rounds / self.seconds

    @property
    def decisions_per_game(self) -> float:
        return self.decisions / self.games

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        for k in ("games_per_s", "rounds_per_game", "rounds_per_s", "decisions_per_game", "decisions_per_s"):
            d[k] = getattr(self, k)
        return d


# --- the three passes ------------------------------------------------------------------------------

def play(players: int, edition: str, game_map: str, seed: int) -> tuple[int, int]:
    """One full random game, untimed inside; returns (rounds, decisions)."""
    g = new_game(players, map=game_map, edition=edition, seed=seed)
    choice = random.Random(seed).choice
    legal, apply = g.legal_actions, g.apply
    n = 0
    while not g.is_over:
        apply(choice(legal()))
        n += 1
        if n > MAX_DECISIONS:
            raise RuntimeError(f"game seed {seed} ({players}p {game_map} {edition}) did not end "
                               f"after {MAX_DECISIONS} decisions")
    return g.round, n


def play_timed(players: int, edition: str, game_map: str, seed: int,
               legal_ns: list[int], apply_ns: list[int]) -> int:
    """The same game with each legal_actions() and apply() timed; returns decisions."""
    g = new_game(players, map=game_map, edition=edition, seed=seed)
    choice = random.Random(seed).choice
    legal, apply, clock = g.legal_actions, g.apply, time.perf_counter_ns
    n = 0
    while not g.is_over:
        t0 = clock()
        acts = legal()
        t1 = clock()
        a = choice(acts)
        t2 = clock()
        apply(a)
        t3 = clock()
        legal_ns.append(t1 - t0)
        apply_ns.append(t3 - t2)
        n += 1
        if n > MAX_DECISIONS:
            raise RuntimeError(f"game seed {seed} did not end after {MAX_DECISIONS} decisions")
    return n


class Progress:
    """A counter on stderr: rewritten in place on a terminal, one line per finished pass otherwise."""

    def __init__(self, enabled: bool) -> None:
        self.enabled, self.tty = enabled, sys.stderr.isatty()

    def show(self, label: str, what: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        if self.tty:
            end = "\n" if done == total else ""
            sys.stderr.write(f"\r  {label}: {what} {done}/{total}{end}")
        elif done == total:
            sys.stderr.write(f"  {label}: {what} {done}/{total}\n")
        sys.stderr.flush()


def run_config(players: int, edition: str, game_map: str, games: int, seed: int,
               progress: Progress) -> Result:
    r = Result(players, edition, game_map, games, seed)
    seeds = [seed + i for i in range(games)]
    play(players, edition, game_map, seed + 10**6)  # warm-up: map load, imports, caches

    # setup cost alone (also included in the throughput figures)
    t = time.perf_counter()
    for s in seeds[:10]:
        new_game(players, map=game_map, edition=edition, seed=s)
    r.new_game_ms = (time.perf_counter() - t) / min(10, games) * 1e3

    # pass 1: throughput, no per-decision instrumentation
    rounds = decisions = 0
    elapsed = 0.0
    for i, s in enumerate(seeds, 1):
        t = time.perf_counter()
        gr, gd = play(players, edition, game_map, s)
        elapsed += time.perf_counter() - t
        rounds += gr
        decisions += gd
        progress.show(r.label, "throughput", i, games)
    r.seconds, r.rounds, r.decisions = elapsed, rounds, decisions

    # pass 2: latency of each legal_actions() + apply() pair
    legal_ns: list[int] = []
    apply_ns: list[int] = []
    timed_decisions = 0
    for i, s in enumerate(seeds, 1):
        timed_decisions += play_timed(players, edition, game_map, s, legal_ns, apply_ns)
        progress.show(r.label, "latency", i, games)
    if timed_decisions != decisions:
        raise RuntimeError(f"{r.label}: the timed pass played {timed_decisions} decisions, the untimed "
                           f"pass {decisions}; the games are not deterministic")
    pairs = sorted(a + b for a, b in zip(legal_ns, apply_ns, strict=True))
    r.pair_median_us = statistics.median(pairs) / 1e3
    r.pair_p95_us = nearest_rank(pairs, 0.95) / 1e3
    r.pair_max_us = pairs[-1] / 1e3
    r.legal_median_us = statistics.median(legal_ns) / 1e3
    r.apply_median_us = statistics.median(apply_ns) / 1e3
    del legal_ns, apply_ns, pairs

    # pass 3: memory of one game
    gc.collect()
    tracemalloc.start()
    play(players, edition, game_map, seeds[0])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    r.tracemalloc_peak_kib = peak / 1024
    r.max_rss_kib = max_rss_kib()
    return r


# --- reporting ---------------------------------------------------------------------------------------

def max_rss_kib() -> int:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss // 1024 if sys.platform == "darwin" else rss  # bytes on macOS, KiB on Linux




def environment() -> dict[str, Any]:
    n_cores = cores()
    try:
        from importlib.metadata import version
        engine = version("powergrid_nb")
    except Exception:
        engine = "unknown"
    return {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cpus_available": n_cores,
        "engine": f"powergrid_nb {engine} ({Path(powergrid_nb.__file__).parent})",
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
    }


COLUMNS = [  # header, width, format
    ("config", 22, "{}"), ("games", 5, "{:d}"), ("games/s", 8, "{:.1f}"), ("rounds/g", 8, "{:.1f}"),
    ("rounds/s", 8, "{:,.0f}"), ("dec/g", 7, "{:.0f}"), ("dec/s", 8, "{:,.0f}"),
    ("med µs", 7, "{:.1f}"), ("p95 µs", 7, "{:.1f}"), ("trace KiB", 9, "{:,.0f}"), ("RSS KiB", 9, "{:,d}"),
]


def row(cells: list[str]) -> str:
    out = [f"{c:<{w}}" if i == 0 else f"{c:>{w}}" for i, (c, (_, w, _)) in enumerate(zip(cells, COLUMNS,
                                                                                         strict=True))]
    return "  ".join(out)


def table(results: list[Result]) -> str:
    lines = [row([h for h, _, _ in COLUMNS]), row(["-" * w for _, w, _ in COLUMNS])]
    for r in results:
        values = [r.label, r.games, r.games_per_s, r.rounds_per_game, r.rounds_per_s, r.decisions_per_game,
                  r.decisions_per_s, r.pair_median_us, r.pair_p95_us, r.tracemalloc_peak_kib, r.max_rss_kib]
        lines.append(row([f.format(v) for v, (_, _, f) in zip(values, COLUMNS, strict=True)]))
    return "\n".join(lines)


def details(results: list[Result]) -> str:
    lines = ["config                  new_game ms  legal med µs  apply med µs  pair max µs  seconds"]
    for r in results:
        lines.append(f"{r.label:<22}  {r.new_game_ms:>11.2f}  {r.legal_median_us:>12.1f}  "
                     f"{r.apply_median_us:>12.1f}  {r.pair_max_us:>11.0f}  {r.seconds:>7.2f}")
    return "\n".join(lines)


# --- command line ------------------------------------------------------------------------------------

def int_list(text: str) -> list[int]:
    values = [int(x) for x in text.split(",") if x.strip()]
    if not values or any(not 2 <= v <= 6 for v in values):
        raise argparse.ArgumentTypeError("players are 2 to 6, comma-separated, e.g. 2,4")
    return values


def choice_list(allowed: tuple[str, ...]):
    def parse(text: str) -> list[str]:
        values = [x.strip().lower() for x in text.split(",") if x.strip()]
        bad = [v for v in values if v not in allowed]
        if not values or bad:
            raise argparse.ArgumentTypeError(f"choose from {', '.join(allowed)} (comma-separated)")
        return values
    return parse


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--games", type=int, default=None,
                    help=f"games per configuration (default 50; {ALL_DEFAULT_GAMES} with --all)")
    ap.add_argument("--players", type=int_list, default=[4], help="player counts, e.g. 2,3,4,5,6")
    ap.add_argument("--editions", type=choice_list(("original", "recharged")), default=["original"],
                    help="original,recharged")
    ap.add_argument("--maps", type=choice_list(("germany", "usa")), default=["germany"], help="germany,usa")
    ap.add_argument("--seed", type=int, default=0, help="seed of the first game (game i uses seed+i)")
    ap.add_argument("--all", action="store_true",
                    help="all of 2-6 players x both editions x both maps (overrides the three lists)")
    ap.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    ap.add_argument("--quiet", action="store_true", help="no progress counter on stderr")
    args = ap.parse_args(argv)

    if args.all:
        args.players, args.editions = [2, 3, 4, 5, 6], ["original", "recharged"]
        args.maps = ["germany", "usa"]
    games = args.games if args.games is not None else (ALL_DEFAULT_GAMES if args.all else 50)
    if games < 1:
        ap.error("--games must be at least 1")

    env = environment()
    print("powergrid_nb random-game benchmark (uniform-random legal player, single process, one core)")
    for k in ("python", "platform", "cpu", "cpus_available", "engine", "date", "command"):
        print(f"  {k + ':':<15} {env[k]}")
    print(f"  {'games:':<15} {games} per configuration, seeds {args.seed}..{args.seed + games - 1}")
    print()

    progress = Progress(not args.quiet)
    results = []
    configs = [(p, e, m) for e in args.editions for m in args.maps for p in args.players]
    for i, (p, e, m) in enumerate(configs, 1):
        if not args.quiet and len(configs) > 1:
            sys.stderr.write(f"[{i}/{len(configs)}] {p}p {m} {e}\n")
        results.append(run_config(p, e, m, games, args.seed, progress))

    print(table(results))
    print()
    print(details(results))
    print()
    print("throughput (games/s, rounds/s, decisions/s) is from an untimed pass and includes new_game();")
    print("med/p95 µs: one legal_actions() + apply() pair, from a second pass over the same games;")
    print("trace KiB: tracemalloc peak of one game; RSS KiB: process max RSS so far (cumulative).")

    if args.json:
        out = {"environment": env, "games": games, "seed": args.seed,
               "results": [r.to_json() for r in results]}
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
