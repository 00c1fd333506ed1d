"""analyze() speed: 8 candidates x 200 playouts from a mid-game 4-player position (docs/benchmarks.md).

The position: a 4-player Germany game (original edition, seed 7) played by HeuristicBots to the start
of round 5's auction (heuristic games of 4 players last about 11 rounds); the first player to act there
has 8 default candidates (which plant to open and how high to bid, or pass). Until the heuristic of
issue 27 the seed was 1; with the new bots seed 1's position has 7 candidates, seed 7 is the first
with the full 8.
``analyze(g, playouts=200, bots="heuristic", seed=0)`` is timed whole: candidates, every playout to the
end of the game, the frame. Target: <= 15 s on this 2-core machine.

Rows: each engine (pure Python; the compiled one if ``powergrid-nb accel build`` made it) in its own
process, one after the other in this run, on ``--backends`` (default: a process pool of 2 workers, then
this process alone); and once with ``stop_when_separated=True`` (the mode the table's Hint uses), which
stops as soon as the best candidate is ahead of every other at 95%. The frames of one engine must be
identical on every backend, which is checked.

Run ``python benchmarks/analyze.py`` (see ``--help``); it prints a table and the command.

``--against REV`` compares the pure-Python engine of the commit ``REV`` (checked out into a temporary
worktree, as ``compare.py`` does) with the working tree's, side by side: ``--rounds`` times each,
alternating (baseline, head, head, baseline, ...), on the first of ``--backends``. Both must give the
same analysis (the frames' digests are compared).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import statistics
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
SEED = 7  # the game whose round-5 auction is analysed (see the docstring)


def position():
    from powergrid_nb import new_game
    from powergrid_nb.bots import HeuristicBot, play

    g = new_game(4, map="germany", edition="original", seed=SEED)
    play(g, [HeuristicBot(seed=k) for k in range(4)], until=lambda h: h.round >= 5 and h.phase == 2)
    return g


def measure(playouts: int, backends: list[str], workers: int, early: bool = True) -> list[dict]:
    """This process's engine: one row per backend, then one that stops once separated."""
    from pandas.testing import assert_frame_equal

    from powergrid_nb import accel
    from powergrid_nb.play.analysis import analyze

    g = position()
    analyze(g, playouts=2, seed=10**6, progress=False)  # warm-up: imports, map, caches
    engine = accel.status()["engine"]
    rows, frames = [], []
    plan = [(b, False) for b in backends] + ([(backends[0], True)] if early else [])
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
    digest = hashlib.sha256(frames[0].to_csv().encode()).hexdigest()[:16]
    return [dict(r, digest=digest, engine_file=powergrid_nb.__file__) for r in rows]


def against(args: argparse.Namespace) -> int:
    """The pure-Python engine of ``args.against`` and of the working tree, alternately (see above)."""
    from compare import child_env, git, worktree

    commit = git("rev-parse", "--verify", f"{args.against}^{{commit}}")
    backend = args.backends.split(",")[0]
    print(f"{cpu_model()}, {cores()} cores, Python {platform.python_version()}; target <= {TARGET_S:.0f} s; "
          f"baseline {args.against} = {commit[:12]}; load " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    times: dict[str, list[float]] = {"baseline": [], "head": []}
    digests: dict[str, set[str]] = {"baseline": set(), "head": set()}
    with worktree(commit) as base:
        roots = {"baseline": base, "head": Path(__file__).resolve().parent.parent}
        for k in range(args.rounds):
            for side in ("baseline", "head") if k % 2 == 0 else ("head", "baseline"):
                cmd = [sys.executable, "-s", __file__, "--child", "--early", "no", "--playouts",
                       str(args.playouts), "--backends", backend, "--workers", str(args.workers)]
                out = subprocess.run(cmd, cwd=roots[side], env=child_env(roots[side]), check=True,
                                     capture_output=True, text=True).stdout
                row = json.loads(out.strip().splitlines()[-1])[0]
                times[side].append(row["seconds"])
                digests[side].add(row["digest"])
                if Path(roots[side]).resolve() not in Path(row["engine_file"]).resolve().parents:
                    raise SystemExit(f"the {side} child imported {row['engine_file']}, not {roots[side]}")
                print(f"  round {k + 1}: {side:<8} {row['seconds']:6.1f} s  ({row['candidates']} "
                      f"candidates x {row['playouts']} playouts, {backend})", flush=True)
    print(f"{'engine':<22} {'median s':>9} {'min-max':>13}  target")
    for side, values in times.items():
        med = statistics.median(values)
        label = f"python {args.against}" if side == "baseline" else "python working tree"
        verdict = ("met" if med <= TARGET_S else "NOT met") if args.playouts == 200 else "-"
        print(f"{label:<22} {med:>9.1f} {min(values):>6.1f}-{max(values):<6.1f}  {verdict}")
    print(f"speed-up (baseline median / head median): "
          f"{statistics.median(times['baseline']) / statistics.median(times['head']):.3f}")
    same = len(digests["baseline"] | digests["head"]) == 1
    print(f"IDENTICAL ANALYSES (digest of the frame, every run): {'yes' if same else 'NO'}")
    print(f"command: python benchmarks/analyze.py --against {args.against} --rounds {args.rounds} "
          f"--playouts {args.playouts} --backends {backend}")
    return 0 if same else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--playouts", type=int, default=200)
    ap.add_argument("--backends", default="processes,local")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--engines", default="python,compiled", help="python and/or compiled")
    ap.add_argument("--against", metavar="REV", help="compare the pure engine of commit REV side by side")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each engine with --against")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--early", default="yes", help=argparse.SUPPRESS)
    args = ap.parse_args()
    backends = args.backends.split(",")
    if args.child:
        print(json.dumps(measure(args.playouts, backends, args.workers, args.early == "yes")))
        return 0
    if args.against:
        return against(args)
    g = position()
    from powergrid_nb.play.analysis import default_candidates
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
