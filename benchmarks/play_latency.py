"""Click → updated view latency of the play panels, in a real browser (JupyterLab + headless chromium).

    .venv/bin/python benchmarks/play_latency.py                 # about 60 clicks, 3 players, random bots
    .venv/bin/python benchmarks/play_latency.py --clicks 120 --bots heuristic --json latency.json
    .venv/bin/python benchmarks/play_latency.py --kernel-profile   # also cProfile the kernel's handlers
    .venv/bin/python benchmarks/play_latency.py --against 4391a61 --rounds 2   # side by side with a commit

It starts JupyterLab on a free port over a temp copy of notebooks/ (the same set-up as
tests/test_play_browser.py: tests/_lab.py), runs notebooks/01_play.ipynb, fills the setup form (seat 0
"You" human, the other seats bots, a fixed seed, bot delay 0) and plays the human seat by clicking the
panels: auction (choose a plant, open, bid or pass), resources (+, buy, done), build (add from the list,
a click on a map city, build, done), bureaucracy (power).

For each click, in the page: the click event's timeStamp; a MutationObserver on the table (plotly's hover
labels and modebar excluded) and plotly_afterplot listeners stamp every change with performance.now(),
plus the next animation frame after it; the click has settled once the kernel is idle and nothing
changed for --quiet-ms. Reported per click kind (median and p95, nearest rank):

  rendered   click → the animation frame after the table's last change (the view redrawn)
  sent       click → the click's message leaves on the kernel websocket
  1st in     click → the first websocket frame back (the kernel's "busy")
  kernel     time the kernel spent in the widget message handlers for the click (a probe cell wraps
             ipywidgets' Widget._handle_msg), including the figures' js2py echoes handled meanwhile
  first      click → the table's first DOM change (the panel or status begins to update)
  panel/map/tab  click → the last change inside the phase panel / the map / the visible tab's figure
  ws in      websocket frames and KiB received by the page for the click (widget messages)

"Game" clicks change the game (open, bid, pass, buy, done, build, power, discard); "pending" clicks
change only a choice shown by the panel (plant, more = resource +, add, map-add). Target: median ≤ 100 ms
(all clicks, "rendered"), in JupyterLab and in Voila.

``--against REV``: the commit REV (checked out into a temporary git worktree, as benchmarks/compare.py
does) and this checkout are measured alternately, ``--rounds`` runs each (REV, head, head, REV, ...), each
run a child process of its own checkout's script; then the medians side by side, and for the map clicks
also "map view": click → the map's last change (the table sends the map before the phase panel, which
may settle later). The machine is shared: compare the two columns of one such run, not figures from
different runs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import _lab  # noqa: E402  (tests/_lab.py: servers, browser and the panel driver, shared with the tests)
from _machine import cpu_model, nearest_rank  # noqa: E402  (benchmarks/_machine.py)

TARGET_MS = 100.0
GAME_KINDS = ("open", "bid", "pass", "discard", "buy", "done", "build", "power", "mark")
MAP_KINDS = ("build", "add", "map-add")  # the clicks that change the map (houses or the build plan)

# The probe cell (first cell of the copied notebook): time every widget message the kernel handles and
# show "<count> <total ms>" in a hidden label outside the table.
PROBE = '''\
# play_latency.py probe: the kernel's time in widget message handlers (a hidden label shows the total)
import time as _pg_time

import ipywidgets as _pg_w
from ipywidgets.widgets.widget import Widget as _PgWidget

_pg_kernel = _pg_w.HTML("0 0.0", layout=_pg_w.Layout(display="none"))
_pg_kernel.add_class("pg-bench-kernel")
_pg_stats = [0, 0.0]
_pg_handle = _PgWidget._handle_msg
_pg_profile = None  # PROFILE


def _pg_timed(self, msg):
    t = _pg_time.perf_counter()
    if _pg_profile is not None:
        _pg_profile.enable()
    try:
        return _pg_handle(self, msg)
    finally:
        if _pg_profile is not None:
            _pg_profile.disable()
        if self is not _pg_kernel:
            _pg_stats[0] += 1
            _pg_stats[1] += (_pg_time.perf_counter() - t) * 1000
            _pg_kernel.value = f"{_pg_stats[0]} {_pg_stats[1]:.2f}"
        if _pg_profile is not None:
            _pg_profile.dump_stats("kernel.prof")


_PgWidget._handle_msg = _pg_timed
_pg_kernel
'''
PROFILE = '''\
import cProfile as _pg_cprofile
_pg_profile = _pg_cprofile.Profile()'''


def versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    out = []
    for pkg in ("jupyterlab", "ipywidgets", "plotly", "anywidget", "playwright"):
        try:
            out.append(f"{pkg} {version(pkg)}")
        except PackageNotFoundError:
            out.append(f"{pkg} -")
    return ", ".join(out)


class Probe:
    """Per click: the kernel's handler time (the probe label) and the websocket traffic."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.frames_in = self.bytes_in = self.frames_out = 0
        page.on("websocket", self._ws)
        self.mark: tuple[float, ...] = ()

    def _ws(self, ws: Any) -> None:
        ws.on("framereceived", self._received)
        ws.on("framesent", self._sent)

    def _received(self, payload: Any) -> None:
        self.frames_in += 1
        self.bytes_in += len(payload)

    def _sent(self, _payload: Any) -> None:
        self.frames_out += 1

    def kernel(self) -> tuple[int, float]:
        text = self.page.locator(".pg-bench-kernel").first.text_content() or "0 0"
        n, ms = text.split()
        return int(n), float(ms)

    def start(self) -> None:
        n, ms = self.kernel()
        self.mark = (n, ms, self.frames_in, self.bytes_in, self.frames_out)

    def stop(self, click: _lab.Click) -> None:
        self.page.wait_for_timeout(30)  # the probe label's update follows the handler's own messages
        n, ms = self.kernel()
        n0, ms0, f0, b0, o0 = self.mark
        click.extra.update(kernel_ms=ms - ms0, kernel_msgs=n - n0, ws_in=self.frames_in - f0,
                           kib_in=(self.bytes_in - b0) / 1024, ws_out=self.frames_out - o0)


def run(a: argparse.Namespace) -> dict[str, Any]:
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    probe_src = PROBE.replace("_pg_profile = None  # PROFILE", PROFILE) if a.kernel_profile else PROBE
    t_all = time.perf_counter()
    with _lab.server(a.app, log_dir=out, first_cell=probe_src) as srv, _lab.chromium() as browser:
        header = {
            "cpu": cpu_model(), "cpus": os.cpu_count(), "python": sys.version.split()[0],
            "platform": platform.platform(), "chromium": browser.version, "packages": versions(),
            "command": " ".join([Path(sys.executable).name, *sys.argv]),
            "game": f"{a.players} players, Germany original, seed {a.seed}, bots {a.bots}, bot delay 0",
            "app": "JupyterLab" if a.app == "lab" else "Voila",
        }
        for k, v in header.items():
            print(f"{k:>9}: {v}")
        page = browser.new_page(viewport={"width": 1500, "height": 1100})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
        probe = Probe(page)
        print(f"\nserver up in {srv.started:.1f} s; ", end="", flush=True)
        print(f"notebook run in {_lab.open_play_notebook(page, srv):.1f} s; ", end="", flush=True)
        table = page.locator(".pg-table").first
        t = time.perf_counter()
        _lab.start_game(page, table, players=a.players, seed=a.seed, bots=tuple(a.bots.split(",")))
        print(f"game started in {time.perf_counter() - t:.1f} s", flush=True)
        if a.app == "lab":
            page.wait_for_function(_lab.KERNEL_IDLE_JS, timeout=60_000)
        page.wait_for_timeout(1000)

        driver = _lab.Driver(page, table, lab=a.app == "lab", quiet_ms=a.quiet_ms,
                             policy=dict(buy_plants=True, plant_index=1, tokens=2, cities=2, overbid=3))
        original_click = driver.click

        def click(target: Any, kind: str, changes_game: bool) -> _lab.Click:
            probe.start()
            c = original_click(target, kind, changes_game)
            probe.stop(c)
            if a.verbose:
                print(f"  {kind:8s} rendered {c.frame_ms:6.0f} ms  first {c.first_ms:5.0f}  kernel "
                      f"{c.extra['kernel_ms']:5.0f}  ws in {c.extra['ws_in']:3d}  | {c.status}", flush=True)
            return c

        driver.click = click  # type: ignore[method-assign]
        cdp = None
        if a.js_profile:
            cdp = page.context.new_cdp_session(page)
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": 500})
            cdp.send("Profiler.start")
        t = time.perf_counter()
        rounds = 0
        try:
            while len(driver.clicks) < a.clicks:
                try:
                    driver.turn()
                except StopIteration:
                    break
                rounds = int(driver.status().split()[1])
        finally:
            page.screenshot(path=str(out / "latency_last.png"))
        played = time.perf_counter() - t
        js_profile = cdp.send("Profiler.stop")["profile"] if cdp is not None else None
        print(f"played {len(driver.clicks)} clicks in {played:.1f} s (to round {rounds}); "
              f"status now: {driver.status()}")
        if errors:
            print(f"\n{len(errors)} browser error(s):", *errors[:10], sep="\n  ")
        prof = out / "kernel.prof"
        if a.kernel_profile and (srv.root / "kernel.prof").exists():
            (srv.root / "kernel.prof").replace(prof)
    if a.kernel_profile:
        show_profile(prof)
    if js_profile is not None:
        (out / "page.cpuprofile").write_text(json.dumps(js_profile))  # for Chrome DevTools > Performance
        show_js_profile(js_profile, played)
    result = report(driver.clicks, header)
    result["errors"] = errors
    result["seconds"] = time.perf_counter() - t_all
    if a.json:
        Path(a.json).write_text(json.dumps(result, indent=1))
        print(f"\nwrote {a.json}")
    return result


def show_profile(prof: Path) -> None:
    import pstats

    if not prof.exists():
        print("\n(no kernel profile written)")
        return
    print("\nKernel cProfile of the widget message handlers (cumulative, top 30):")
    pstats.Stats(str(prof)).strip_dirs().sort_stats("cumulative").print_stats(30)


def show_js_profile(profile: dict[str, Any], seconds: float, top: int = 25) -> None:
    """The page's main-thread CPU time while playing, by function (self time) and by script."""
    nodes = {n["id"]: n["callFrame"] for n in profile["nodes"]}
    ms_per_sample = (profile["endTime"] - profile["startTime"]) / 1000 / max(1, len(profile["samples"]))
    by_fn: dict[str, float] = {}
    by_script: dict[str, float] = {}
    for nid in profile["samples"]:
        f = nodes[nid]
        script = f["url"].rsplit("/", 1)[-1].split("?")[0] or "(native)"
        name = f"{f['functionName'] or '(anonymous)'}  [{script}:{f['lineNumber'] + 1}]"
        by_fn[name] = by_fn.get(name, 0) + ms_per_sample
        by_script[script] = by_script.get(script, 0) + ms_per_sample
    idle = sum(v for k, v in by_fn.items() if k.startswith("(idle)"))
    busy = sum(by_script.values()) - idle
    print(f"\nBrowser main thread while playing ({seconds:.1f} s): {busy / 1000:.1f} s busy")
    ranked = sorted(((k, v) for k, v in by_script.items()), key=lambda kv: -kv[1])
    print("by script (self ms, idle included):", ", ".join(f"{k} {v:.0f}" for k, v in ranked[:8]))
    for name, ms in sorted(by_fn.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {ms:8.0f} ms  {name}")


def row(name: str, cs: list[_lab.Click]) -> str:
    def med(f: Any) -> str:
        vals = [v for v in map(f, cs) if v is not None]
        return f"{statistics.median(vals):7.0f}" if vals else "      -"

    def region(part: str, key: str = "last") -> Any:
        return lambda c: c.regions.get(part, {}).get(key)

    rendered = [c.frame_ms for c in cs if c.frame_ms is not None]
    return (f"{name:<9}{len(cs):>4} {statistics.median(rendered):9.0f} {nearest_rank(rendered, 0.95):7.0f} "
            f"{med(region('ws_out', 'first'))} {med(region('ws_in', 'first'))} "
            f"{med(lambda c: c.extra.get('kernel_ms'))} {med(lambda c: c.first_ms)} "
            f"{med(region('panel'))} {med(region('map'))} {med(region('tabs'))} "
            f"{med(lambda c: c.extra.get('ws_in'))} {med(lambda c: c.extra.get('kib_in'))}")


HEAD = (f"{'kind':<9}{'n':>4} {'rendered':>9} {'p95':>7} {'sent':>7} {'1st in':>7} {'kernel':>7} "
        f"{'first':>7} {'panel':>7} {'map':>7} {'tab':>7} {'ws in':>7} {'KiB in':>7}")


def grouped(clicks: list[Any]) -> dict[str, list[Any]]:
    """The clicks of each group: game, pending, map (they change the map) and all. ``clicks``: Click
    objects or their dicts (a run's JSON)."""
    def get(c: Any, k: str) -> Any:
        return c[k] if isinstance(c, dict) else getattr(c, k)

    return {"game": [c for c in clicks if get(c, "changes_game")],
            "pending": [c for c in clicks if not get(c, "changes_game")],
            "map": [c for c in clicks if get(c, "kind") in MAP_KINDS], "all": list(clicks)}


def report(clicks: list[_lab.Click], header: dict[str, Any]) -> dict[str, Any]:
    kinds = sorted({c.kind for c in clicks}, key=lambda k: (k not in GAME_KINDS, k))
    print("\nclick → updated view, ms (median unless marked p95)")
    print(HEAD)
    for k in kinds:
        print(row(k, [c for c in clicks if c.kind == k]))
    groups = grouped(clicks)
    print("-" * len(HEAD))
    for name, cs in groups.items():
        if cs:
            print(row(name, cs))
    rendered = [c.frame_ms for c in clicks if c.frame_ms is not None]
    med = statistics.median(rendered)
    verdict = "meets" if med <= TARGET_MS else "MISSES"
    print(f"\noverall median {med:.0f} ms, p95 {nearest_rank(rendered, 0.95):.0f} ms: {verdict} the target "
          f"(median ≤ {TARGET_MS:.0f} ms)")
    summary = {}
    for name, cs in [(k, [c for c in clicks if c.kind == k]) for k in kinds] + list(groups.items()):
        vals = [c.frame_ms for c in cs if c.frame_ms is not None]
        if vals:
            summary[name] = {"n": len(vals), "median_ms": statistics.median(vals),
                             "p95_ms": nearest_rank(vals, 0.95)}
    return {"header": header, "summary": summary, "target_ms": TARGET_MS,
            "clicks": [c.__dict__ for c in clicks]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clicks", type=int, default=60, help="measured clicks to make at least (default 60)")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--bots", default="random", help="bot kinds for seats 2.., comma-separated, cycled")
    ap.add_argument("--app", choices=("lab", "voila"), default="lab",
                    help="JupyterLab (default) or Voila (no kernel-idle signal: settled on --quiet-ms only)")
    ap.add_argument("--quiet-ms", type=int, default=400, help="no change for this long: settled")
    ap.add_argument("--out", default=str(ROOT / "test-artifacts" / "play"), help="logs and screenshot")
    ap.add_argument("--json", help="also write the figures and every click as JSON")
    ap.add_argument("--kernel-profile", action="store_true", help="cProfile the kernel's handlers")
    ap.add_argument("--js-profile", action="store_true", help="sample the page's JavaScript (CDP Profiler)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each click")
    ap.add_argument("--against", metavar="REV", help="measure commit REV and this checkout alternately")
    ap.add_argument("--rounds", type=int, default=2, help="with --against: runs of each (default 2)")
    a = ap.parse_args()
    problem = None if os.path.exists(_lab.CHROMIUM) else f"no chromium at {_lab.CHROMIUM}"
    if problem:
        print(problem + ": sudo apt-get install -y chromium (never `playwright install`)", file=sys.stderr)
        return 2
    if a.against:
        return side_by_side(a)
    run(a)
    return 0


GROUPS = ("game", "pending", "map", "all")


def group_median(result: dict[str, Any], group: str) -> float | None:
    """The median rendered time of a run's clicks of ``group``, from its clicks (a baseline's script
    may not know the group)."""
    vals = [c["frame_ms"] for c in grouped(result["clicks"])[group] if c["frame_ms"] is not None]
    return statistics.median(vals) if vals else None


def map_drawn_median(result: dict[str, Any]) -> float | None:
    """The median time from a map click to the map's last change (its view updated; the rest of the
    table, e.g. the phase panel, may settle later), from a run's clicks."""
    vals = [m["last"] for c in grouped(result["clicks"])["map"]
            if (m := (c.get("regions") or {}).get("map")) and m.get("last") is not None]
    return statistics.median(vals) if vals else None


def side_by_side(a: argparse.Namespace) -> int:
    """``a.rounds`` runs of commit ``a.against`` and of this checkout, alternating; medians side by side."""
    from compare import child_env, git, worktree  # benchmarks/compare.py

    rev = git("rev-parse", "--short", a.against)
    head = git("rev-parse", "--short", "HEAD") + (" (with changes)" if git("status", "--porcelain") else "")
    passed = [f"--app={a.app}", f"--clicks={a.clicks}", f"--players={a.players}", f"--seed={a.seed}",
              f"--bots={a.bots}", f"--quiet-ms={a.quiet_ms}"]
    runs: dict[str, list[dict[str, Any]]] = {"baseline": [], "head": []}
    with worktree(rev) as base, tempfile.TemporaryDirectory() as tmp:
        roots = {"baseline": base, "head": ROOT}
        for k in range(a.rounds):
            for which in (("baseline", "head") if k % 2 == 0 else ("head", "baseline")):
                out = Path(tmp) / f"{which}{k}.json"
                cmd = [sys.executable, str(roots[which] / "benchmarks" / "play_latency.py"), *passed,
                       f"--json={out}", f"--out={Path(tmp) / which}"]
                t = time.perf_counter()
                p = subprocess.run(cmd, cwd=roots[which], env=child_env(roots[which]), capture_output=True,
                                   text=True)
                if p.returncode or not out.exists():
                    print(p.stdout[-3000:], p.stderr[-3000:], sep="\n", file=sys.stderr)
                    print(f"the {which} run failed", file=sys.stderr)
                    return 1
                result = json.loads(out.read_text())
                runs[which].append(result)
                print(f"round {k + 1} {which:8s} ({time.perf_counter() - t:.0f} s): "
                      + "  ".join(f"{g} {m:.0f} ms" for g in GROUPS
                                  if (m := group_median(result, g)) is not None), flush=True)
    print(f"\nclick → updated view (rendered), {a.app}, median ms of each run's median [min–max over "
          f"{a.rounds} runs]; baseline {rev}, head {head}")
    print(f"{'clicks':<9} {'baseline':>22} {'head':>22} {'head/baseline':>14}")
    for group in GROUPS:
        cols = []
        for which in ("baseline", "head"):
            vals = [m for r in runs[which] if (m := group_median(r, group)) is not None]
            cols.append(vals)
        if not all(cols):
            continue
        b, h = (statistics.median(v) for v in cols)
        cell = [f"{statistics.median(v):.0f} [{min(v):.0f}–{max(v):.0f}]" for v in cols]
        print(f"{group:<9} {cell[0]:>22} {cell[1]:>22} {h / b:>14.2f}")
    drawn = [[m for r in runs[which] if (m := map_drawn_median(r)) is not None]
             for which in ("baseline", "head")]
    if all(drawn):
        b, h = (statistics.median(v) for v in drawn)
        cell = [f"{statistics.median(v):.0f} [{min(v):.0f}–{max(v):.0f}]" for v in drawn]
        print(f"{'map view':<9} {cell[0]:>22} {cell[1]:>22} {h / b:>14.2f}   (map clicks: click → the map's "
              "last change)")
    all_head = statistics.median(r["summary"]["all"]["median_ms"] for r in runs["head"])
    verdict = "meets" if all_head <= TARGET_MS else "MISSES"
    print(f"\nhead: median {all_head:.0f} ms over all clicks: {verdict} the target "
          f"(median ≤ {TARGET_MS:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
