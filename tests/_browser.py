"""Helpers of the real-browser view checks: view discovery, game states, headless Chromium via Playwright.

The browser is Debian's chromium (``apt-get install -y chromium``), driven by the ``playwright`` package
with ``executable_path``; ``playwright install`` is never needed (nor run). Set ``POWERGRID_NO_BROWSER=1``
to skip the browser tests on a machine without a browser; otherwise a missing browser FAILS them.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import pytest

from powergrid_nb import Game, new_game
from powergrid_nb.bots import BuilderBot, play
from powergrid_nb.views import (
    dashboard,
    history_figure,
    map_figure,
    plants_figure,
    players_figure,
    resources_figure,
)

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts" / "views"
CHROMIUM = os.environ.get("POWERGRID_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
NO_BROWSER_ENV = "POWERGRID_NO_BROWSER"
INSTALL_HINT = (
    "The browser tests need Debian's chromium at {chromium} and the Python package playwright.\n"
    "  Install: sudo apt-get update && sudo apt-get install -y chromium\n"
    "           .venv/bin/python -m pip install -e '.[dev]'   (playwright and kaleido)\n"
    "  `make test` installs chromium itself when run as root. Never run `playwright install`.\n"
    "  To skip these tests on a machine without a browser: POWERGRID_NO_BROWSER=1 make test"
)

# every view, by module name
VIEWS: dict[str, Callable[..., go.Figure]] = {
    "map": map_figure, "resources": resources_figure, "plants": plants_figure, "players": players_figure,
    "history": history_figure, "dashboard": dashboard}


# ---------------------------------------------------------------------------------------------- game states

def play_until(g: Game, seed: int, done: Callable[[Game], bool], limit: int = 5000) -> Game:
    """Builder-biased seeded play (one BuilderBot for every seat) until ``done(g)`` or the game ends."""
    return play(g, [BuilderBot(seed)] * len(g.players), until=done, max_decisions=limit)


def mid_game_usa(seed: int = 3, players: int = 5) -> Game:
    """USA Recharged, in Step 2 (or 3), two rounds after Step 2 began, at the building phase."""
    g = new_game(players, map="usa", edition="recharged", seed=seed)
    play_until(g, seed, lambda g: g.step >= 2)
    start = g.round
    return play_until(g, seed + 1, lambda g: g.round >= start + 2 and g.phase_name == "building")


def trust_game(seed: int = 1) -> Game:
    """2-player Recharged against the Trust (Germany), a few rounds in."""
    g = new_game(2, map="germany", edition="recharged", seed=seed)
    assert g.trust, "2-player Recharged should play against the Trust by default (O22)"
    return play_until(g, seed, lambda g: g.round >= 4 and g.phase_name == "building")


STATES: dict[str, Callable[[], Game]] = {
    "germany4_fresh": lambda: new_game(4, map="germany", edition="original", seed=7),
    "usa5_mid": mid_game_usa,
    "trust2p": trust_game,
}


# ---------------------------------------------------------------------------------------------- browser

def browser_problem() -> str | None:
    """Why the real-browser checks cannot run here (None when chromium and playwright are present)."""
    problems = []
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        problems.append(f"no chromium executable at {CHROMIUM}")
    if importlib.util.find_spec("playwright") is None:
        problems.append("the Python package playwright is not installed")
    return "; ".join(problems) or None


def require_browser() -> None:
    """Skip (POWERGRID_NO_BROWSER=1) or FAIL with install instructions when the browser is missing."""
    if os.environ.get(NO_BROWSER_ENV) == "1":
        pytest.skip(f"{NO_BROWSER_ENV}=1: real-browser checks switched off")
    problem = browser_problem()
    if problem:
        pytest.fail(problem + "\n" + INSTALL_HINT.format(chromium=CHROMIUM), pytrace=False)


@dataclass
class PageReport:
    """What one page load produced: console errors, page errors, blocked requests, traces drawn."""

    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    traces: int = -1
    seconds: float = 0.0


def render(browser: Any, html: Path, png: Path, *, width: int = 1200, height: int = 850,
           timeout_ms: int = 30_000) -> PageReport:
    """Open ``html`` (file://) in a fresh page with all non-file requests blocked; wait for Plotly to
    draw; screenshot to ``png``. Returns what went wrong, if anything (the caller asserts)."""
    import time

    rep = PageReport()
    t0 = time.perf_counter()
    page = browser.new_page(viewport={"width": width, "height": height})
    try:
        page.on("console", lambda m: rep.console_errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: rep.page_errors.append(str(e)))

        def gate(route: Any) -> None:
            if route.request.url.startswith("file://"):
                route.continue_()
            else:
                rep.blocked.append(route.request.url)
                route.abort()

        page.route("**/*", gate)
        page.goto(html.resolve().as_uri())
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=timeout_ms)
        page.wait_for_timeout(150)  # let late console errors and transitions land
        rep.traces = page.evaluate("() => document.querySelector('.js-plotly-plot').data.length")
        png.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(png), full_page=True)
    finally:
        page.close()
    rep.seconds = time.perf_counter() - t0
    return rep


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """A headless Debian chromium (a Playwright Browser); closed on exit."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def plotly_page(browser: Any, height: int = 1100) -> Any:
    """A 1500 px wide page of ``browser`` that loads nothing from outside, with plotly.js in it and an
    empty ``#box`` to draw figures in."""
    from plotly.offline import get_plotlyjs

    pg = browser.new_page(viewport={"width": 1500, "height": height})
    pg.route("**/*", lambda route: route.abort() if not route.request.url.startswith(("about:", "data:"))
             else route.continue_())
    pg.set_content("<html><body style='margin:0'><div id=box></div></body></html>")
    pg.add_script_tag(content=get_plotlyjs())
    return pg
