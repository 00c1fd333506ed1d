"""Real-browser play helpers: JupyterLab / Voila servers and a Playwright driver of the play panels.

Used by the browser tests through tests/conftest.py (one Lab, one Voila per run: ``lab_server``,
``voila_server``, ``rooms_server``, ``lessons_server``) and by benchmarks/play_latency.py (which imports
this file by path). The servers are the venv's own (``sys.executable -m jupyterlab``,
``.venv/bin/voila``), on a free local port, with an empty token, a throw-away settings dir that switches
off the "Jupyter news?" toast, and the flags ``make lab`` / ``make app`` use (read from the Makefile):
Lab serves notebooks/ and lands on 01_play.ipynb, Voila serves the app notebook (app.ipynb) with the
``powergrid`` template. Their kernels import this checkout (PYTHONPATH). Chromium is Debian's
(``_browser.CHROMIUM``), launched with ``executable_path``; ``playwright install`` is never needed.
``Offline`` routes every request of a page: only the local server may answer.

``Driver`` plays the human seat through the panels. Every click waits until the table has settled and
is timed in the page (``INSTRUMENT_JS``): the click event's timeStamp, the table's DOM changes and
plotly redraws, the animation frame after the last one, and the kernel websocket's traffic.
"""

from __future__ import annotations

import contextlib
import dataclasses
import http.cookiejar
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# tests/ is on sys.path (pytest's rootdir insertion, or the benchmark's); re-exported for the benchmark
from _browser import CHROMIUM, chromium  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
PLAY_NB = "01_play.ipynb"
APP_NB = "app.ipynb"  # what `make app` serves: the game alone
ARTIFACTS = ROOT / "test-artifacts" / "play"
APP_CONFIG = ROOT / "powergrid_nb" / "jupyter_config"  # voila.json: the app's server (`make app`)
BIN = Path(sys.executable).parent

# Kernel really ready: the status bar says "<kernel> | Idle" (the execution indicator says idle before
# the kernel exists, and a Run All clicked then is lost).
KERNEL_IDLE_JS = """() => [...document.querySelectorAll('.jp-StatusBar-TextItem')]
  .some(e => /\\| Idle$/.test(e.textContent.trim()) && !/No Kernel/.test(e.textContent))"""
ALL_DONE_JS = """() => ![...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]
  .some(e => e.textContent.includes('*'))"""


def log(msg: str) -> None:
    print(f"[lab] {msg}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------------------------------- servers

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_http(url: str, timeout: float, proc: subprocess.Popen | None = None) -> float:
    """Seconds until ``url`` answers 200 (raises when ``proc`` exits or ``timeout`` passes)."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with code {proc.returncode} before {url} answered")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return time.perf_counter() - t0
        except OSError:
            pass
        time.sleep(0.1)
    raise TimeoutError(f"{url} not ready after {timeout:.0f}s")


@dataclass
class Server:
    """A running Jupyter server (Lab or Voila): its base URL, process, and the notebook dir it serves."""

    kind: str
    base: str
    proc: subprocess.Popen
    root: Path
    log_path: Path
    started: float = 0.0
    notebook: str = PLAY_NB  # the notebook served (Voila) or opened (Lab)
    tmp: Path | None = None  # the server's throw-away folder: notebooks/, settings, workspaces

    def notebook_url(self, name: str = PLAY_NB) -> str:
        if self.kind == "voila":
            return f"{self.base}/"  # voila started with one notebook serves it at the root
        if self.kind == "lessons":
            return f"{self.base}/voila/render/{urllib.parse.quote(name)}"  # voila over the lessons folder
        return f"{self.base}/lab/tree/{urllib.parse.quote(name)}?reset"

    def reset(self) -> None:
        """As if just started, for the next test of a shared server: Lab's sessions and kernels shut
        down, its saved workspaces forgotten, and the served notebooks/ copied afresh (edits, autosaved
        outputs and files a test wrote are gone). Voila starts a kernel per page: nothing to do."""
        if self.kind != "lab":
            return
        for kind in ("sessions", "kernels"):
            for one in json.loads(_request(f"{self.base}/api/{kind}")):
                _request(f"{self.base}/api/{kind}/{one['id']}", method="DELETE")
        if self.tmp is not None:
            shutil.rmtree(self.tmp / "workspaces", ignore_errors=True)
        for child in self.root.iterdir():
            if child.is_dir():
                shutil.rmtree(child)
            else:
                child.unlink()
        shutil.copytree(NOTEBOOKS, self.root, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints"))

    def log_tail(self, n: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""


def _request(url: str, method: str = "GET") -> bytes:
    """The body of a request to a local Jupyter server's REST API: no token, but a request that changes
    something carries the server's XSRF cookie back in a header, as the page does."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    headers = {}
    if method != "GET":
        base = urllib.parse.urlsplit(url)
        opener.open(f"{base.scheme}://{base.netloc}/lab", timeout=30).close()  # sets the _xsrf cookie
        headers = {"X-XSRFToken": next(c.value for c in jar if c.name == "_xsrf")}
    with opener.open(urllib.request.Request(url, method=method, headers=headers), timeout=30) as r:
        return r.read()


def stop(proc: subprocess.Popen, timeout: float = 20) -> None:
    """SIGTERM (Jupyter then shuts its kernels down), wait, SIGKILL if it hangs."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def make_flags(name: str) -> list[str]:
    """The flags a Makefile variable (``LAB_FLAGS``, ``APP_FLAGS``) holds: the tests run what make runs."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")
    m = re.search(rf"^{name}\s*:=(.*)$", text, re.M)
    if m is None:
        raise LookupError(f"no {name} in the Makefile")
    return shlex.split(m.group(1))


def _workdir(tmp: Path) -> tuple[Path, dict[str, str]]:
    """A copy of notebooks/ to serve (autosave and checkpoints stay out of the repo) and the server's
    environment: isolated Lab settings and workspaces, `make lab`'s default settings (no news pop-up, no
    autosave), the app's Voila template (JUPYTER_PATH, as `make app` sets it) and this checkout first on
    the kernels' path. The app's server configuration (JUPYTER_CONFIG_PATH, as `make app` and `make
    lessons-app` set it) takes the place of the Lab's settings in :func:`server` for Voila."""
    root = tmp / "notebooks"
    shutil.copytree(NOTEBOOKS, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"), PYTHONUNBUFFERED="1")
    # the Lab's default settings as `make lab` gives them (PLAY_CONFIG): no news pop-up, no autosave
    for key, path in (("PYTHONPATH", ROOT), ("JUPYTER_PATH", ROOT / "powergrid_nb" / "jupyter_data"),
                      ("JUPYTER_CONFIG_PATH", ROOT / "powergrid_nb" / "jupyter_config" / "play")):
        env[key] = os.pathsep.join(p for p in (str(path), os.environ.get(key, "")) if p)
    for key in ("SERVER_SOFTWARE", "POWERGRID_APP", "POWERGRID_SAVES", "POWERGRID_ROOMS"):  # the server's own
        env.pop(key, None)
    return root, env


def add_first_cell(nb_path: Path, source: str) -> None:
    """Put ``source`` in a new first code cell of the notebook at ``nb_path`` (a served copy)."""
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    nb["cells"].insert(0, {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                           "source": source.splitlines(keepends=True)})
    nb_path.write_text(json.dumps(nb, indent=1), encoding="utf-8")


@contextlib.contextmanager
def server(kind: str = "lab", *, log_dir: Path = ARTIFACTS, timeout: float = 90,
           first_cell: str | None = None, environ: dict[str, str] | None = None,
           flags: tuple[str, ...] = ()) -> Iterator[Server]:
    """Start JupyterLab (``kind="lab"``), Voila on the app (``"voila"``) or Voila on the lessons'
    folder as `make lessons-app` does (``"lessons"``) on a free port over a temp copy of notebooks/;
    always stopped (SIGTERM, then wait) and the temp dir removed on exit.

    ``first_cell``: code put in a new first cell of the notebook served (the benchmark's probes);
    ``environ``: more variables for the server and its kernels (e.g. ``POWERGRID_ROOMS``, as `make app
    ROOMS=...` sets it); ``flags``: more command-line options, after the Makefile's (e.g. a short
    culling timeout)."""
    tmp = Path(tempfile.mkdtemp(prefix=f"pg-{kind}-"))
    root, env = _workdir(tmp)
    if kind != "lab":  # Voila: the app's server configuration, as `make app` and `make lessons-app` find it
        env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
            p for p in (str(APP_CONFIG), os.environ.get("JUPYTER_CONFIG_PATH", "")) if p)
    env.update(environ or {})
    notebook = APP_NB if kind == "voila" else PLAY_NB
    if first_cell is not None:
        add_first_cell(root / notebook, first_cell)
    port = free_port()
    if kind == "lab":
        cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
               "--IdentityProvider.token=", "--ServerApp.password=", "--ServerApp.ip=127.0.0.1",
               f"--ServerApp.root_dir={root}", *make_flags("LAB_FLAGS"), *flags]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--allow-root")  # jupyter refuses to run as root otherwise
        ready = f"http://127.0.0.1:{port}/api/status"
    elif kind == "voila":
        voila = BIN / "voila"
        cmd = [str(voila) if voila.exists() else "voila", str(root / notebook), "--no-browser",
               f"--port={port}", "--Voila.ip=127.0.0.1", *make_flags("APP_FLAGS"), *flags]
        ready = f"http://127.0.0.1:{port}/"
    elif kind == "lessons":
        voila = BIN / "voila"
        cmd = [str(voila) if voila.exists() else "voila", str(root / "lessons"), "--no-browser",
               f"--port={port}", "--Voila.ip=127.0.0.1", *make_flags("LESSONS_APP_FLAGS"), *flags]
        ready = f"http://127.0.0.1:{port}/"
    else:
        raise ValueError(f"unknown server kind {kind!r}")
    log_dir.mkdir(parents=True, exist_ok=True)
    log_path = log_dir / f"{kind}.log"
    out = open(log_path, "w")  # noqa: SIM115 (closed in finally)
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=root)
    srv = Server(kind, f"http://127.0.0.1:{port}", proc, root, log_path, notebook=notebook, tmp=tmp)
    try:
        wait_http(ready, timeout, proc)
        srv.started = time.perf_counter() - t0
        log(f"{kind} pid={proc.pid} ready on port {port} after {srv.started:.1f}s")
        yield srv
    finally:
        stop(proc)
        out.close()
        shutil.rmtree(tmp, ignore_errors=True)


# ------------------------------------------------------------------------------------------- notebook

def open_play_notebook(page: Any, srv: Server, timeout_ms: int = 120_000, url: str | None = None) -> float:
    """Open the play notebook (Lab: 01_play.ipynb; Voila: the app) at ``url`` (default: its own address)
    and get its widgets shown: in Lab wait for the kernel, Run All and wait until every cell ran; in
    Voila wait for the rendered page. Returns the seconds it took."""
    t0 = time.perf_counter()
    page.goto(url or srv.notebook_url(), timeout=timeout_ms)
    if srv.kind == "lab":
        page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=timeout_ms)
        page.wait_for_function(KERNEL_IDLE_JS, timeout=timeout_ms)
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    page.wait_for_selector(".pg-table button.pg-start", timeout=timeout_ms)
    if srv.kind == "lab":
        page.wait_for_function(f"() => ({ALL_DONE_JS})() && ({KERNEL_IDLE_JS})()", timeout=timeout_ms)
    return time.perf_counter() - t0


LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


class Offline:
    """Guard a page as if the machine were offline: every request is routed, those to the local server
    (127.0.0.1 / localhost) go through, any other is aborted and recorded; so are websockets to other
    hosts, JavaScript errors (pageerror) and console errors. ``check()`` fails on any of them."""

    def __init__(self, page: Any) -> None:
        self.external: list[str] = []
        self.page_errors: list[str] = []
        self.console_errors: list[str] = []
        page.route("**/*", self._route)
        page.on("websocket", lambda ws: self._seen(ws.url))
        page.on("pageerror", lambda e: self.page_errors.append(str(e)))
        page.on("console", self._console)

    def _seen(self, url: str) -> bool:
        local = url.startswith(("data:", "blob:")) or urllib.parse.urlsplit(url).hostname in LOCAL_HOSTS
        if not local:
            self.external.append(url)
        return local

    def _route(self, route: Any) -> None:
        if self._seen(route.request.url):
            route.continue_()
        else:
            route.abort()

    def _console(self, msg: Any) -> None:
        if msg.type == "error":
            self.console_errors.append(f"{msg.text} ({msg.location.get('url', '')})")

    def check(self) -> None:
        assert self.external == [], f"requests to hosts other than the local server: {self.external}"
        assert self.page_errors == [], f"JavaScript errors in the page: {self.page_errors}"
        assert self.console_errors == [], f"console errors: {self.console_errors}"


PAGE_VIEWPORT = {"width": 1500, "height": 1100}


@contextlib.contextmanager
def offline_page(browser: Any, srv: Server, failure_shot: Path, viewport: dict[str, int] | None = None,
                 tail: int = 20) -> Iterator[tuple[Any, Offline]]:
    """A new page of ``browser`` guarded by :class:`Offline` (service workers blocked); on a failure a
    screenshot goes to ``failure_shot`` and the server's log tail is printed; the page is closed."""
    page = browser.new_page(viewport=viewport or PAGE_VIEWPORT, service_workers="block")
    watch = Offline(page)
    try:
        yield page, watch
    except Exception:
        page.screenshot(path=str(failure_shot))
        print(srv.log_tail(tail))
        raise
    finally:
        page.close()


@dataclasses.dataclass
class RoomPage:
    """A player's own browser (a new context) at the app joined with their seat's code: ``table`` is
    the room table's locator, ``guard`` the page's :class:`Offline` watch."""

    seat: str
    context: Any
    page: Any
    guard: Offline
    table: Any


def open_room_page(browser: Any, srv: Server, seat: str, code: str, timeout_ms: int = 120_000) -> RoomPage:
    """Open the app at the join link of ``code`` (``/?code=``) in a new browser context and wait until
    the seat's table is drawn (its room bar names the seat, its map has drawn)."""
    context = browser.new_context(viewport=PAGE_VIEWPORT, service_workers="block")
    page = context.new_page()
    guard = Offline(page)
    page.goto(f"{srv.base}/?code={code}", timeout=timeout_ms)
    # "attached": Playwright reports the bar hidden although the page draws it (cause not found)
    page.locator(".pg-room-bar").filter(has_text=f"you play {seat}").wait_for(state="attached",
                                                                              timeout=timeout_ms)
    table = page.locator(".pg-table").first
    table.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=timeout_ms)
    return RoomPage(seat, context, page, guard, table)


def play_turns(turn: Callable[[], Any], until: Callable[[], bool], max_turns: int,
               where: Callable[[], str]) -> int:
    """Call ``turn()`` until ``until()`` (checked before each turn) or a StopIteration (the game is over);
    returns the turns played. ``where()`` says where it got stuck when ``max_turns`` run out."""
    for n in range(max_turns):
        if until():
            return n
        try:
            turn()
        except StopIteration:
            return n
    raise AssertionError(f"not done after {max_turns} turns: {where()}")


def cell_errors(page: Any) -> list[str]:
    """Tracebacks shown in the notebook's outputs (Lab) or page (Voila)."""
    sel = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
    return [t for t in page.locator(sel).all_inner_texts() if "Traceback" in t or "Error" in t]


READOUT_IS_JS = "([e, v]) => parseFloat(e.querySelector('.widget-readout').textContent) === v"


def set_readout(page: Any, slider: Any, value: str) -> None:
    """Type a value into an ipywidgets slider's editable readout (keyboard, then Enter)."""
    readout = slider.locator(".widget-readout")
    readout.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(value)
    page.keyboard.press("Enter")


def start_game(page: Any, table: Any, *, players: int = 3, seed: int = 7, bots: tuple[str, ...] = ("random",),
               delay: float = 0.0, edition: str | None = None, map_name: str | None = None,
               timeout_ms: int = 60_000) -> None:
    """Fill the setup form of ``table`` (a locator of a ``.pg-table``) and press Start: seat 0 "You" is
    human, the other seats are bots (``bots`` cycled), a fixed seed, the bot delay set by keyboard;
    ``edition`` and ``map_name`` chosen in their menus when given (else the form's defaults)."""
    set_readout(page, table.locator(".pg-players"), str(players))
    table.locator(f".pg-name-{players - 1}").wait_for(timeout=timeout_ms)
    table.locator(f".pg-name-{players}").wait_for(state="detached", timeout=timeout_ms)
    for cls, value in ((".pg-edition", edition), (".pg-map", map_name)):
        if value is not None:
            table.locator(f"{cls} select").select_option(value)
    table.locator(".pg-seed input").fill(str(seed))
    table.locator(".pg-kind-0 select").select_option("human")
    for i in range(1, players):
        table.locator(f".pg-kind-{i} select").select_option(bots[(i - 1) % len(bots)])
    set_readout(page, table.locator(".pg-setup-delay"), f"{delay:g}")
    page.wait_for_function(READOUT_IS_JS, arg=[table.locator(".pg-setup-delay").element_handle(), delay],
                           timeout=timeout_ms)
    page.wait_for_timeout(300)  # the form's values reach the kernel (they sync on change)
    table.locator("button.pg-start").click()
    table.locator(".pg-status").wait_for(timeout=timeout_ms)
    table.locator(".pg-panel button").first.wait_for(timeout=timeout_ms)
    table.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=timeout_ms)


# ------------------------------------------------------------------------------------------- clicks

# One observer per page on the table: every DOM mutation inside it and every plotly_afterplot of its
# figures is stamped with performance.now(), plus the next animation frame after it (the browser has
# laid out and is about to paint). The click's own event.timeStamp is on the same clock.
INSTRUMENT_JS = """(root) => {
  if (window.__pg && window.__pg.root === root) return;
  const S = window.__pg = {root, events: [], click: null, last: null, frame: null};
  // Kept cheap, as it runs while the page renders: a callback stores its time and (a sample of) its
  // targets; they are sorted into regions only by result(). A callback whose first target is in plotly's
  // hover labels, modebar, drag cursors or zoom box follows the mouse, not the game: dropped.
  const NOISE = '.hoverlayer, .modebar-container, .draglayer, .zoomlayer';
  const elem = n => (n.nodeType === 1 ? n : n.parentElement);
  const note = (kind, targets) => {
    const t = performance.now();
    S.events.push([kind, t, targets]);
    S.last = t;
    requestAnimationFrame(() => { if (S.last === t) S.frame = performance.now(); });
  };
  new MutationObserver(recs => {
    const first = elem(recs[0].target);
    if (first && first.closest(NOISE)) return;
    note('dom', recs.slice(0, 40).map(r => r.target));
  }).observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
  // the kernel websocket: when the click's message left, when the replies came (same clock)
  S.ws = {out: [], in: []};
  if (!WebSocket.prototype.__pgSend) {
    const send = WebSocket.prototype.__pgSend = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
      if (window.__pg) window.__pg.ws.out.push(performance.now());
      if (!this.__pgIn) {
        this.__pgIn = true;
        this.addEventListener('message', () => window.__pg && window.__pg.ws.in.push(performance.now()));
      }
      return send.call(this, data);
    };
  }
  document.addEventListener('click', e => {
    if (root.contains(e.target)) S.click = {t: e.timeStamp, what: String(e.target.className)};
  }, true);
  S.hook = () => root.querySelectorAll('.js-plotly-plot').forEach(gd => {
    if (gd.__pgHooked || typeof gd.on !== 'function') return;
    gd.__pgHooked = true;
    gd.on('plotly_afterplot', () => note('plot', [gd]));
  });
  S.arm = () => {
    S.hook();
    Object.assign(S, {events: [], click: null, last: null, frame: null, ws: {out: [], in: []}});
  };
  const REGIONS = [['status', '.pg-status'], ['panel', '.pg-panel'], ['message', '.pg-message'],
                   ['log', '.pg-log'], ['toolbar', '.pg-toolbar'], ['tabs', '.pg-tabs'],
                   ['map', '.js-plotly-plot']];
  const region = n => {
    const el = elem(n);
    if (!el || !el.isConnected) return 'gone';
    for (const [name, sel] of REGIONS) if (el.closest(sel)) return name;
    return 'table';
  };
  S.result = () => {
    if (!S.click) return null;
    const t0 = S.click.t;
    const changes = S.events.filter(e => e[1] >= t0);
    const regions = {};
    for (const [kind, t, targets] of changes) {
      for (const where of new Set(targets.map(region))) {
        const r = regions[where] = regions[where] || {first: t - t0, last: t - t0, n: 0};
        r.first = Math.min(r.first, t - t0); r.last = Math.max(r.last, t - t0); r.n += 1;
      }
    }
    const span = ts => (ts.length ? {first: ts[0] - t0, last: ts[ts.length - 1] - t0, n: ts.length}
                                  : {first: null, last: null, n: 0});
    regions.ws_out = span(S.ws.out.filter(t => t >= t0));  // websocket frames sent, received
    regions.ws_in = span(S.ws.in.filter(t => t >= t0));
    if (!changes.length) return {click: t0, first: null, last: null, frame: null, plots: 0, n: 0, regions};
    return {click: t0, first: changes[0][1], last: S.last, frame: S.frame,
            plots: changes.filter(e => e[0] === 'plot').length, n: changes.length, regions};
  };
  // O(1): polled while the page renders
  S.settled = (quiet, busyRe) => {
    if (!S.click || S.last === null || S.last < S.click.t || S.frame === null) return false;
    if (performance.now() - S.last < quiet) return false;
    const panel = S.root.querySelector('.pg-panel');
    return !(panel && new RegExp(busyRe).test(panel.textContent));
  };
}"""

BOT_PLAYING = r"bot\) is playing"


@dataclass
class Click:
    """One measured click: what it was and its timings (ms after the click event)."""

    kind: str
    changes_game: bool
    first_ms: float | None  # first DOM change in the table
    last_ms: float | None  # last DOM change (or plotly redraw) in the table
    frame_ms: float | None  # the animation frame after that last change: the view re-rendered
    plots: int  # plotly_afterplot events seen
    status: str  # the status line after it
    regions: dict[str, dict[str, float]] = field(default_factory=dict)  # per part: first, last ms, n
    extra: dict[str, Any] = field(default_factory=dict)  # what a caller adds (benchmark: frames, kernel ms)


@dataclass
class Driver:
    """Play the human seat of the table by clicking its panels; each click waits until the table has
    settled (a DOM change after the click, then ``quiet_ms`` without one, the kernel idle in Lab, and
    no bot note in the panel) and is recorded in ``clicks``."""

    page: Any
    table: Any
    lab: bool = True
    quiet_ms: int = 400
    timeout_ms: int = 60_000
    policy: dict[str, Any] = field(default_factory=dict)
    clicks: list[Click] = field(default_factory=list)
    on_click: Callable[[Click], None] | None = None

    def __post_init__(self) -> None:
        self.page.evaluate(INSTRUMENT_JS, self.table.element_handle())

    # --- low level ---------------------------------------------------------------------------------
    def status(self) -> str:
        return self.table.locator(".pg-status").inner_text().strip()

    def panel_text(self) -> str:
        return self.table.locator(".pg-panel").inner_text()

    def has(self, selector: str, enabled: bool = False) -> bool:
        loc = self.table.locator(f".pg-panel {selector}")
        if not loc.count():
            return False
        return loc.first.is_enabled() if enabled else True

    def settle(self) -> None:
        idle = f"({KERNEL_IDLE_JS})()" if self.lab else "true"
        self.page.wait_for_function(
            f"([q, re]) => window.__pg.settled(q, re) && {idle}", arg=[self.quiet_ms, BOT_PLAYING],
            timeout=self.timeout_ms, polling=100)

    def click(self, target: Any, kind: str, changes_game: bool) -> Click:
        """Click ``target`` (a locator, or a callable doing the click), wait for the table to settle."""
        self.page.evaluate("() => window.__pg.arm()")
        if callable(target):
            target()
        else:
            target.scroll_into_view_if_needed()
            target.click()
        try:
            self.settle()
        except Exception as e:
            raise AssertionError(f"the table did not update after the {kind!r} click "
                                 f"({self.page.evaluate('() => window.__pg.result()')}); status "
                                 f"{self.status()!r}, panel {self.panel_text()[:300]!r}") from e
        r = self.page.evaluate("() => window.__pg.result()")

        def ms(key: str) -> float | None:
            return None if r[key] is None else r[key] - r["click"]

        c = Click(kind, changes_game, ms("first"), ms("last"), ms("frame"), r["plots"], self.status(),
                  r["regions"])
        self.clicks.append(c)
        if self.on_click is not None:
            self.on_click(c)
        return c

    def button(self, cls: str) -> Any:
        return self.table.locator(f".pg-panel button.{cls}").first

    # --- which panel --------------------------------------------------------------------------------
    def phase(self) -> str:
        """The panel shown: discard, opening, bidding, resources, build, power, start, over, wait."""
        for sel, name in ((".pg-ranking", "over"), ("button.pg-discard", "discard"),
                          ("button.pg-open", "opening"), ("button.pg-plant", "opening"),
                          ("button.pg-raise", "bidding"),
                          ("button.pg-buy", "resources"), ("button.pg-power", "power"),
                          (".pg-outcome", "power"), ("button.pg-mark", "start")):
            if self.has(sel):
                return name
        text = self.panel_text()
        if "Auction of plant" in text:
            return "bidding"
        if ": build (" in text:
            return "build"
        return "wait"

    # --- one turn -------------------------------------------------------------------------------------
    def turn(self) -> str:
        """Play the human's whole turn in the panel shown; returns the panel's name."""
        phase = self.phase()
        getattr(self, f"_{phase}")()
        return phase

    def _over(self) -> None:
        raise StopIteration("the game is over")

    def _wait(self) -> None:
        raise AssertionError(f"no panel for the human: status {self.status()!r}, panel {self.panel_text()!r}")

    def _start(self) -> None:
        self.table.locator(".pg-panel .pg-candidates select").select_option(index=0)
        self.click(self.button("pg-mark"), "mark", True)

    def _discard(self) -> None:
        self.click(self.button("pg-discard"), "discard", True)

    def _opening(self) -> None:
        round_ = int(self.status().split()[1])
        want = round_ == 1 or self.policy.get("buy_plants", False)
        if not want and self.has("button.pg-pass"):
            self.click(self.button("pg-pass"), "pass", True)
            return
        plants = self.table.locator(".pg-panel button.pg-plant:enabled")
        if not plants.count():
            self.click(self.button("pg-pass"), "pass", True)
            return
        choice = plants.nth(self.policy.get("plant_index", 0) % plants.count())
        if "mod-info" not in (choice.get_attribute("class") or ""):
            self.click(choice, "plant", False)  # a pending choice: the panel shows it selected
        self.click(self.button("pg-open"), "open", True)

    def _bidding(self) -> None:
        text = self.panel_text()
        plant = int(text.split("Auction of plant", 1)[1].split()[0])
        can_raise = self.has("button.pg-raise", enabled=True)
        amount = int(self.table.locator(".pg-panel .pg-bid-amount input").input_value()) if can_raise else 0
        if can_raise and amount <= plant + self.policy.get("overbid", 3):
            self.click(self.button("pg-raise"), "bid", True)
        else:
            self.click(self.button("pg-pass"), "pass", True)

    def _resources(self) -> None:
        for _ in range(self.policy.get("tokens", 2)):
            more = self.table.locator(".pg-panel button[class*='pg-more-']:enabled")
            if not more.count():
                break
            self.click(more.first, "more", False)
        if self.has("button.pg-buy", enabled=True):
            self.click(self.button("pg-buy"), "buy", True)
        if self.phase() == "resources":
            self.click(self.button("pg-done"), "done", True)

    def _build(self) -> None:
        clicked_map = not self.policy.get("map_click", True)
        for _ in range(self.policy.get("cities", 1)):
            options = self.table.locator(".pg-panel .pg-candidates select option")
            if not options.count():
                break
            # the Select shows no-break spaces; an option reads "Essen · 6 link + 10 house = 16"
            cities = [t.replace("\xa0", " ").split(" · ")[0].strip() for t in options.all_inner_texts()]
            city = None if clicked_map else self.isolated_city(cities)
            if city is not None:
                self.click_city(city)
                clicked_map = True
                continue
            self.table.locator(".pg-panel .pg-candidates select").select_option(index=0)
            self.click(self.button("pg-add"), "add", False)
            self._queued(cities[0])
        if self.has("button.pg-build", enabled=True):
            self.click(self.button("pg-build"), "build", True)
        if self.phase() == "build":
            self.click(self.button("pg-done"), "done", True)

    def _queued(self, city: str) -> None:
        queue = self.table.locator(".pg-panel .pg-queue")
        if not queue.count() or city not in queue.inner_text():
            raise AssertionError(f"{city} is not in the build queue after the click; "
                                 f"panel {self.panel_text()!r}")

    def _power(self) -> None:
        self.click(self.button("pg-power"), "power", True)

    # --- the map ----------------------------------------------------------------------------------------
    CITY_XY_JS = """(root) => {
      const gd = root.querySelector('.js-plotly-plot');
      const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
      const box = gd.querySelector('.nsewdrag').getBoundingClientRect();
      const out = {};
      for (const t of gd._fullData) {
        if (t.legendgroup !== 'regions' || !t.visible) continue;
        (t.text || []).forEach((c, i) => { out[c] = [box.left + xa.l2p(t.x[i]), box.top + ya.l2p(t.y[i])]; });
      }
      return out;
    }"""

    def city_points(self) -> dict[str, tuple[float, float]]:
        """Page coordinates of every city marker on the table's map (from the plotly axes)."""
        return {c: (xy[0], xy[1]) for c, xy in self.table.evaluate(self.CITY_XY_JS).items()}

    def isolated_city(self, cities: list[str], gap: float = 20) -> str | None:
        """The first of ``cities`` whose marker is at least ``gap`` px from every other city: a sure hit
        (plotly gives a click to the nearest hoverable point; overlapping markers, or a link-cost label
        between two close cities, would tie with it)."""
        self.table.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
        pts = self.city_points()
        for c in cities:
            if c in pts and all(((pts[c][0] - x) ** 2 + (pts[c][1] - y) ** 2) ** 0.5 >= gap
                                for o, (x, y) in pts.items() if o != c):
                return c
        return None

    def click_city(self, city: str) -> Click:
        """Click a city's marker on the map (a pending choice: the build panel queues it)."""
        self.table.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
        x, y = self.city_points()[city]
        self.page.mouse.move(x, y)  # plotly reports the point hovered last: hover first, then click
        self.page.wait_for_timeout(150)
        c = self.click(lambda: self.page.mouse.click(x, y), "map-add", False)
        self.page.mouse.move(5, 5)  # off the map: no hover label left over
        self._queued(city)
        return c

    # --- the toolbar ---------------------------------------------------------------------------------------
    def wait_until(self, done: Callable[[], bool], what: str, timeout_ms: int | None = None) -> None:
        """Poll ``done()`` (and, in Lab, the kernel idle) every 100 ms until both hold."""
        limit = time.perf_counter() + (timeout_ms or self.timeout_ms) / 1000
        while True:
            if done() and (not self.lab or self.page.evaluate(KERNEL_IDLE_JS)):
                return
            if time.perf_counter() > limit:
                raise AssertionError(f"timed out waiting for {what}: status {self.status()!r}, "
                                     f"message {self.message()!r}, panel {self.panel_text()[:300]!r}")
            self.page.wait_for_timeout(100)

    def message(self) -> str:
        return self.table.locator(".pg-message").inner_text().strip()

    def tool(self, cls: str, kind: str, changes_game: bool = True) -> Click:
        """Click a toolbar button (``pg-undo``, ``pg-save``, ``pg-load``, ...) and wait for the table."""
        return self.click(self.table.locator(f".pg-toolbar button.{cls}").first, kind, changes_game)

    def save(self, path: str) -> str:
        """Type ``path`` in the path box, click Save; returns the message shown."""
        self.table.locator(".pg-path input").fill(path)
        self.tool("pg-save", "save", False)
        return self.message()

    def load(self, path: str) -> str:
        """Type ``path`` in the path box, click Load; returns the message shown."""
        self.table.locator(".pg-path input").fill(path)
        self.tool("pg-load", "load", True)
        self.wait_until(lambda: self.message().startswith(("loaded", "could not")), "the load")
        return self.message()

    def set_seat(self, player: str, kind: str, done: Callable[[], bool] | None = None) -> None:
        """Choose ``kind`` ("human" or a bot's name) in ``player``'s seat menu; wait until the menu shows
        it and ``done()`` holds (default: the status line changed, as it does when the seat to act
        changes hands)."""
        before = self.status()
        seat = self.table.locator(f".pg-seat-{player} select")
        seat.select_option(kind)
        check = done or (lambda: self.status() != before)
        self.wait_until(lambda: seat.input_value() == kind and check(), f"{player}'s seat to be {kind}")

    def set_delay(self, seconds: float) -> None:
        """Type the bot delay in the toolbar's slider (the kernel gets it before any later click)."""
        box = self.table.locator(".pg-delay")
        set_readout(self.page, box, f"{seconds:g}")
        self.page.wait_for_function(READOUT_IS_JS, arg=[box.element_handle(), seconds],
                                    timeout=self.timeout_ms)

    def play(self, until: Callable[[], bool], max_turns: int = 200) -> int:
        """Play turns until ``until()`` (checked before each turn); returns the turns played."""
        return play_turns(self.turn, until, max_turns, lambda: f"status {self.status()!r}")
