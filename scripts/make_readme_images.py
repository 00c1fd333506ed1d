#!/usr/bin/env python
"""Write the README pictures: a seeded mid-game position drawn by the map and resources views (PNG).

    .venv/bin/python scripts/make_readme_images.py [--seed 5] [--out docs/images] [--no-dashboard]
    .venv/bin/python scripts/make_readme_images.py --analysis     # docs/images/analysis.png only

``--analysis`` draws docs/what-if.md's analysis: the position of its first example (4 players,
Germany, original, seed 1, HeuristicBots to round 5's auction), ``analyze(g, playouts=200, seed=1)``
on two processes, its figure. It depends on the bots: redraw it when they change.

PNG export goes through kaleido, which drives the system chromium (``apt-get install -y chromium``;
never ``kaleido_get_chrome``). The position is deterministic: new_game(seed=...) plus a seeded
random player that builds and fuels its plants, stopped at the building phase two rounds after
Step 2 began (4 players, USA, Recharged; with the default seed that is round 10, in Step 3).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

import plotly.graph_objects as go

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's package, installed or not

from powergrid_nb import Game, new_game  # noqa: E402
from powergrid_nb.bots import BuilderBot  # noqa: E402

WIDTH = 1100
IMAGES = {  # file name -> (views module, builder, height in px)
    "map.png": ("map", "map_figure", 760),
    "resources.png": ("resources", "resources_figure", 560),
}
DASHBOARD = {"dashboard.png": ("dashboard", "dashboard", 1000)}


def mid_game(seed: int) -> Game:
    """4 players, USA, Recharged: the building phase two rounds after Step 2 began."""
    g = new_game(4, map="usa", edition="recharged", seed=seed)
    bot = BuilderBot(seed)  # its rng is random.Random(seed), as before
    start = None
    for _ in range(10_000):
        if g.is_over:
            break
        if start is None and g.step >= 2:
            start = g.round
        if start is not None and g.round >= start + 2 and g.phase_name == "building":
            return g
        g.apply(bot.choose(g))
    raise SystemExit(f"seed {seed} did not reach a mid-game position; try another --seed")


def analysis_image(path: Path) -> int:
    """docs/what-if.md's first example at full size (200 playouts per candidate), drawn to ``path``."""
    from powergrid_nb import analyze
    from powergrid_nb.bots import HeuristicBot, play

    g = new_game(4, seed=1)
    play(g, [HeuristicBot(seed=k) for k in range(4)], until=lambda h: h.round >= 5 and h.phase == 2)
    t0 = time.perf_counter()
    a = analyze(g, playouts=200, seed=1, progress=False, backend="processes", workers=2)
    print(f"analysis of {g.current_player}'s decision in round {g.round}: {len(a.frame)} candidates, "
          f"{time.perf_counter() - t0:.0f} s")
    print(a.suggestion)
    fig = a.figure()
    fig.write_image(path, width=WIDTH, height=int(fig.layout.height or 560), scale=1)
    print(f"wrote {path} ({path.stat().st_size // 1024} KB)")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    ap.add_argument("--no-dashboard", action="store_true", help="skip docs/images/dashboard.png")
    ap.add_argument("--analysis", action="store_true", help="only docs/images/analysis.png (docs/what-if.md)")
    a = ap.parse_args()
    if a.analysis:
        return analysis_image(a.out / "analysis.png")

    g = mid_game(a.seed)
    print(f"position: {g!r}")
    a.out.mkdir(parents=True, exist_ok=True)
    todo = dict(IMAGES) if a.no_dashboard else {**IMAGES, **DASHBOARD}
    for fname, (module, func, height) in todo.items():
        try:
            builder = getattr(importlib.import_module(f"powergrid_nb.views.{module}"), func)
        except ModuleNotFoundError:
            if fname in DASHBOARD:
                print(f"skip {fname}: no powergrid_nb.views.{module} yet")
                continue
            raise
        fig = builder(g)
        if isinstance(fig, go.FigureWidget):
            fig = go.Figure(fig)
        t0 = time.perf_counter()
        fig.write_image(a.out / fname, width=WIDTH, height=height, scale=1)
        size = (a.out / fname).stat().st_size
        print(f"wrote {a.out / fname} ({size // 1024} KB, {time.perf_counter() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
