"""What a view's refresh costs in the kernel: ``views.update`` on a FigureWidget, per view.

    .venv/bin/python benchmarks/view_refresh.py                          # this checkout
    .venv/bin/python benchmarks/view_refresh.py --against 4391a61       # side by side with a commit

A seeded uniform-random 3-player game (Germany, original) is played; every ``--every`` decisions each
view (map with a player's build costs, plant market, resources for a player, players, history) is
refreshed in place (``views.update``) on a ``go.FigureWidget`` built at the start, and timed (CPU
clock, ms). No browser: this is the table's kernel-side part of a click (the figures' redraw in the
page is measured by play_latency.py).

``--against REV``: REV checked out into a temporary git worktree (as benchmarks/compare.py does), then
REV and this checkout measured alternately (``--rounds`` each), each in a fresh child process whose
``powergrid_nb`` is that checkout's; the table shows each view's median of the runs' medians.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VIEWS = ("map", "plants", "resources", "players", "history")


def measure(seed: int, every: int) -> dict[str, list[float]]:
    """Refresh times (ms) per view over one seeded random game, with the importable powergrid_nb."""
    import plotly.graph_objects as go

    from powergrid_nb import new_game, views

    g = new_game(3, seed=seed)
    who = g.players[0]
    build = {"map": lambda: views.map_figure(g, player=who, plan=[], title=g.map.title),
             "plants": lambda: views.plants_figure(g),
             "resources": lambda: views.resources_figure(g, player=who),
             "players": lambda: views.players_figure(g), "history": lambda: views.history_figure(g)}
    figs = {name: go.FigureWidget(make()) for name, make in build.items()}
    times: dict[str, list[float]] = {name: [] for name in VIEWS}
    rng = random.Random(seed)
    n = 0
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
        n += 1
        if n % every:
            continue
        for name, fig in figs.items():
            t = time.process_time()
            views.update(fig, g)
            times[name].append((time.process_time() - t) * 1000)
    return times


def child(root: Path, seed: int, every: int) -> dict[str, float]:
    """Each view's median refresh (ms) measured in a fresh process importing ``root``'s powergrid_nb."""
    code = (f"import json, sys; sys.path.insert(0, {str(ROOT / 'benchmarks')!r}); import view_refresh as v; "
            f"t = v.measure({seed}, {every}); "
            "print(json.dumps({k: sorted(x)[len(x) // 2] for k, x in t.items()}))")
    from compare import child_env  # benchmarks/compare.py

    out = subprocess.run([sys.executable, "-c", code], cwd=root, env=child_env(root), capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--every", type=int, default=6, help="refresh every n-th decision (default 6)")
    ap.add_argument("--against", metavar="REV", help="measure commit REV and this checkout alternately")
    ap.add_argument("--rounds", type=int, default=3, help="with --against: runs of each (default 3)")
    a = ap.parse_args()
    sys.path.insert(0, str(ROOT / "benchmarks"))
    if not a.against:
        times = measure(a.seed, a.every)
        for name in VIEWS:
            v = times[name]
            print(f"{name:10s} median {statistics.median(v):7.1f} ms  (n={len(v)})")
        return 0
    from compare import git, worktree

    rev = git("rev-parse", "--short", a.against)
    head = git("rev-parse", "--short", "HEAD") + (" (with changes)" if git("status", "--porcelain") else "")
    runs: dict[str, list[dict[str, float]]] = {"baseline": [], "head": []}
    with worktree(rev) as base:
        roots = {"baseline": base, "head": ROOT}
        for k in range(a.rounds):
            for which in (("baseline", "head") if k % 2 == 0 else ("head", "baseline")):
                runs[which].append(child(roots[which], a.seed, a.every))
                last = runs[which][-1]
                shown = "  ".join(f"{v} {last[v]:.1f}" for v in VIEWS)
                print(f"round {k + 1} {which:8s}: {shown}", flush=True)
    print(f"\nviews.update on a FigureWidget, ms: median of {a.rounds} runs' medians [min–max]; "
          f"baseline {rev}, head {head}")
    print(f"{'view':<10} {'baseline':>20} {'head':>20} {'baseline/head':>14}")
    for name in VIEWS:
        b, h = ([r[name] for r in runs[w]] for w in ("baseline", "head"))
        cells = [f"{statistics.median(x):.1f} [{min(x):.1f}–{max(x):.1f}]" for x in (b, h)]
        ratio = statistics.median(b) / statistics.median(h)
        print(f"{name:<10} {cells[0]:>20} {cells[1]:>20} {ratio:>14.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
