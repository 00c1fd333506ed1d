"""The Plotly views render in a real browser, fully offline, and export to PNG.

Each view (powergrid_nb/views/<module>.py) is built for a few game states, written as a self-contained
HTML file (plotly.js inlined), opened in headless Debian Chromium via Playwright with every non-file://
request blocked, and checked: Plotly drew it, no console or page errors, the page holds exactly the
figure's traces, no network request was attempted. Screenshots go to test-artifacts/views/.

Needs /usr/bin/chromium (``apt-get install -y chromium``; ``make test`` installs it as root) and the
playwright package (dev extra). Without them these tests FAIL with instructions, unless
POWERGRID_NO_BROWSER=1 is set, which skips them.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from _browser import (
    ARTIFACTS,
    STATES,
    VIEWS,
    mid_game_usa,
    render,
    require_browser,
)

from powergrid_nb.views import map_figure

# the 2-player Trust game rests on the provisional Trust rules (O22)
CASES = [pytest.param(v, s, id=f"{v}-{s}", marks=[pytest.mark.provisional] if s == "trust2p" else [])
         for v in VIEWS for s in STATES]


@pytest.fixture(scope="module")
def games():
    """Each game state built once (seeded, so identical on every run)."""
    return {name: make() for name, make in STATES.items()}


@pytest.mark.parametrize(("view", "state"), CASES)
def test_view_renders_offline_in_chromium(browser, games, view: str, state: str, tmp_path: Path) -> None:
    """The view draws in Chromium from a self-contained HTML file, without errors or network access."""
    require_browser()
    fig = VIEWS[view](games[state].copy())
    html = tmp_path / f"{view}_{state}.html"
    fig.write_html(html, include_plotlyjs=True, full_html=True)
    assert '<script src="http' not in html.read_text(encoding="utf-8"), "the HTML loads a script from the web"

    rep = render(browser, html, ARTIFACTS / f"{view}_{state}.png")

    assert rep.page_errors == [], f"{view}/{state}: page errors {rep.page_errors}"
    assert rep.console_errors == [], f"{view}/{state}: console errors {rep.console_errors}"
    assert rep.blocked == [], f"{view}/{state}: network requests attempted (blocked): {rep.blocked}"
    assert rep.traces == len(fig.data), \
        f"{view}/{state}: {rep.traces} traces in the page, {len(fig.data)} in the figure"
    assert rep.seconds < 30, f"{view}/{state}: took {rep.seconds:.1f}s to render"


def test_write_image_png(tmp_path: Path) -> None:
    """Exporting a view to PNG works where a browser is available (kaleido drives the same chromium)."""
    require_browser()
    fig = map_figure(mid_game_usa())
    out = tmp_path / "map.png"
    t0 = time.perf_counter()
    fig.write_image(out, width=1100, height=750)
    seconds = time.perf_counter() - t0
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    assert len(data) > 10_000, f"suspiciously small PNG ({len(data)} bytes)"
    assert seconds < 60, f"write_image took {seconds:.1f}s"
