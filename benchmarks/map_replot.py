"""What a map update costs in the browser, and why: headless chromium, plotly.js, the map view.

    .venv/bin/python benchmarks/map_replot.py [--map usa] [--repeat 15]

1. Which edits make plotly.js compute the figure again (``gd.calcdata`` replaced: every trace drawn
   anew) rather than restyle it. Plotly's FigureWidget sends every update from the kernel with an extra
   trace or layout key, ``_doNotReportToPy``, which plotly.js does not know; an unknown key counts as an
   edit that needs the whole figure computed again, whatever else changed.
2. The median time (ms) of such an update, to the next animation frame, for the whole map (a mid-game
   Germany of 6 players, Step 2) and for parts of it: without its text (names and link costs), without
   the country outline, and the houses and the plan alone (what changes when a player builds or queues
   a city); then the play table's two layers (``views.map_figure(..., layer=...)``) and the pieces
   layer without its slots or without its cities' (undrawn) click and hover targets.

The machine is shared: compare the rows of one run, not figures of different runs.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import _browser  # noqa: E402  (tests/_browser.py: game states, chromium and a plotly page)

from powergrid_nb import new_game, views  # noqa: E402
from powergrid_nb.views.mapboard import fit_height, table_width  # noqa: E402

EDITS_JS = """async (fig) => {
  const gd = document.getElementById('box');
  await Plotly.newPlot(gd, fig.data, fig.layout, {displayModeBar: false});
  const n = gd.data.length - 3;  // a trace of houses
  const shapes = gd.layout.shapes.slice();
  const probe = async (edit) => { const before = gd.calcdata; await edit(); return gd.calcdata === before ?
    'kept' : 'computed again'; };
  return {
    'relayout of shapes': await probe(() => Plotly.relayout(gd, {shapes: shapes})),
    'relayout of shapes, as FigureWidget sends it': await probe(() => Plotly.relayout(gd,
        {_doNotReportToPy: true, shapes: shapes})),
    'restyle of one trace, as FigureWidget sends it': await probe(() => Plotly.restyle(gd,
        {_doNotReportToPy: true, 'marker.size': 13}, [n])),
    'update (restyle + relayout), as FigureWidget sends it': await probe(() => Plotly.update(gd,
        {_doNotReportToPy: true}, {'annotations[0].text': 'x'}, [n])),
  };
}"""

TIME_JS = """async ([fig, repeat]) => {
  const gd = document.getElementById('box');
  await Plotly.newPlot(gd, fig.data, fig.layout, {displayModeBar: false});
  const frame = () => new Promise(r => requestAnimationFrame(() => r()));
  const times = [];
  for (let i = 0; i < repeat; i++) {
    const t = performance.now();
    await Plotly.restyle(gd, {_doNotReportToPy: true}, [0]);
    await frame();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}"""


def parts(full: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The map and its parts, as plotly JSON."""
    def without_text(f: dict[str, Any]) -> dict[str, Any]:
        for t in f["data"]:
            mode = t.get("mode", "")
            t["mode"] = "none" if mode == "text" else mode.replace("+text", "")
        return f

    out = {"whole map": copy.deepcopy(full), "without text": without_text(copy.deepcopy(full))}
    out["without the outline"] = copy.deepcopy(full)
    out["without the outline"]["layout"]["shapes"] = []
    pieces = copy.deepcopy(full)
    pieces["data"] = [t for t in pieces["data"] if t.get("legendgroup") in ("players", "plan")]
    pieces["layout"]["shapes"] = []
    out["houses and plan only"] = pieces
    return out


def layers(g: Any, width: int, height: int) -> dict[str, dict[str, Any]]:
    """The play table's two layers (``layer="board"`` and ``"pieces"``), and the pieces layer's parts."""
    def fig(layer: str) -> dict[str, Any]:
        return json.loads(views.map_figure(g, player=g.current_player, height=height, width=width,
                                           title=g.map.title, link_hover=False, layer=layer).to_json())

    out = {"board layer": fig("board"), "pieces layer": fig("pieces")}
    for name, group in (("pieces without slots", "slots"), ("pieces without targets", "regions")):
        part = copy.deepcopy(out["pieces layer"])
        part["data"] = [t for t in part["data"] if t.get("legendgroup") != group]
        out[name] = part
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--map", default="germany", choices=("germany", "usa"))
    ap.add_argument("--repeat", type=int, default=15)
    a = ap.parse_args()
    if a.map == "usa":
        g = _browser.mid_game_usa()
    else:
        g = new_game(6, map="germany", seed=3)
        _browser.play_until(g, 3, lambda g: g.step >= 2)
    width = table_width(g)
    fig = views.map_figure(g, player=g.current_player, height=fit_height(g, width), width=width,
                           title=g.map.title, link_hover=False)
    full = json.loads(fig.to_json())
    with _browser.chromium() as browser:
        page = _browser.plotly_page(browser)
        print("edit                                                   calcdata")
        for edit, what in page.evaluate(EDITS_JS, full).items():
            print(f"{edit:<55}{what}")
        print(f"\nan update as FigureWidget sends it, to the next frame (median of {a.repeat}), {a.map}:")
        for name, f in {**parts(full), **layers(g, width, fit_height(g, width))}.items():
            ms = page.evaluate(TIME_JS, [f, a.repeat])
            print(f"{name:<24}{len(f['data']):>3} traces {ms:7.0f} ms", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
