"""analyze() speed: 8 candidates x 200 playouts from a mid-game 4-player position (issue #11).

The position: a 4-player Germany game (original edition, seed 1) played by HeuristicBots to the start
of round 5's auction (heuristic games of 4 players last about 11 rounds); the first player to act there
has 8 default candidates (which plant to open and how high to bid, or pass).
``analyze(g, playouts=200, bots="heuristic", seed=0)`` is timed whole: candidates, every playout to the
end of the game, the frame. Target: <= 15 s on this 2-core machine.

Rows: each engine (pure Python; the compiled one if ``powergrid-nb accel build`` made it) in its own
process, one after the other in this run, on ``--backends`` (default: a process pool of 2 workers, then
this process alone); and once with ``stop_when_separated=True`` (the mode the table's Hint uses), which
stops as soon as the best candidate is ahead of every other at 95%. The frames of one engine must be
identical on every backend, which is checked.

Run ``python benchmarks/analyze.py`` (see ``--help``); it prints a table and the command.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

try:
    import powergrid_nb
except ImportError:  # a checkout without an installed package
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import powergrid_nb  # noqa: F401

from _machine import cores, cpu_model  # noqa: E402  (benchmarks/_machine.py, beside this script)

TARGET_S = 15.0


def position():
    from powergrid_nb import new_game
    from powergrid_nb.bots import HeuristicBot, play

    g = new_game(4, map="germany", edition="original", seed=1)
    play(g, [HeuristicBot(seed=k) for k in range(4)], until=lambda h: h.round >= 5 and h.phase == 2)
    return g


def measure(playouts: int, backends: list[str], workers: int) -> list[dict]:
    """This process's engine: one row per backend, then one that stops once separated."""
    from pandas.testing import assert_frame_equal

    from powergrid_nb import accel
    from powergrid_nb.analysis import analyze

    g = position()
    analyze(g, playouts=2, seed=10**6, progress=False)  # warm-up: imports, map, caches
    engine = accel.status()["engine"]
    rows, frames = [], []
    plan = [(b, False) for b in backends] + [(backends[0], True)]
    for backend, early in plan:
        kw = {"workers": workers} if backend != "local" else {}
        t = time.perf_counter()
        a = analyze(g, playouts=playouts, seed=0, progress=False, backend=backend,
                    stop_when_separated=early, **kw)
        s = time.perf_counter() - t
        if not early:
            frames.append(a.frame)
        rows.append({"engine": engine, "backend": backend + (", until separated" if early else ""),
                     "candidates": len(a.candidates), "playouts": a.playouts, "seconds": s,
                     "best": a.best.label})
    for f in frames[1:]:
        assert_frame_equal(frames[0], f)  # the same seed gives the same analysis on every backend
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--playouts", type=int, default=200)
    ap.add_argument("--backends", default="processes,local")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--engines", default="python,compiled", help="python and/or compiled")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    backends = args.backends.split(",")
    if args.child:
        print(json.dumps(measure(args.playouts, backends, args.workers)))
        return 0
    g = position()
    from powergrid_nb.analysis import default_candidates
    cands = default_candidates(g, g.current_player)
    print(f"position: round {g.round}, phase {g.phase}, {g.current_player} to act; {len(cands)} candidates: "
          f"{'; '.join(c.label for c in cands)}")
    print(f"{cpu_model()}, {cores()} cores, Python {platform.python_version()}; target <= {TARGET_S:.0f} s")
    print(f"{'engine':<9} {'backend':<28} {'cand.':>5} {'playouts':>9} {'seconds':>8} {'ms/playout':>11}"
          "  target")
    for engine in args.engines.split(","):
        env = dict(os.environ, POWERGRID_NB_ACCEL="0" if engine == "python" else "1")
        out = subprocess.run([sys.executable, __file__, "--child", "--playouts", str(args.playouts),
                              "--backends", args.backends, "--workers", str(args.workers)],
                             env=env, check=True, capture_output=True, text=True).stdout
        for r in json.loads(out.strip().splitlines()[-1]):
            if engine == "compiled" and r["engine"] != "compiled":
                print(f"{engine:<9} not built (powergrid-nb accel build): skipped")
                break
            total = r["playouts"] * r["candidates"]
            met = "met" if r["seconds"] <= TARGET_S else "NOT met"
            print(f"{r['engine']:<9} {r['backend']:<28} {r['candidates']:>5} {r['playouts']:>9} "
                  f"{r['seconds']:>8.1f} {1000 * r['seconds'] / total:>11.1f}  {met}  (best: {r['best']})")
    print(f"command: python benchmarks/analyze.py --playouts {args.playouts} --backends {args.backends} "
          f"--engines {args.engines}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
