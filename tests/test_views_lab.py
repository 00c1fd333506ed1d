"""Issue #10 in JupyterLab itself: the play table's map and plant market, as the FigureWidgets draw
them there, are readable (no city label on another label or marker, the legend not cut off by the
map's box, every card's text inside its card, the key of card colours clear).

The server is this checkout's (the kernel imports powergrid_nb from here: PYTHONPATH), started by
tests/_lab.py; the page is Debian's chromium via Playwright. A screenshot goes to
test-artifacts/readable/lab_table.png. Without chromium the test fails with instructions
(``POWERGRID_NO_BROWSER=1`` skips it).
"""

from __future__ import annotations

import os

import _lab
import pytest
from _browser import NO_BROWSER_ENV, browser_problem, chromium, require_browser
from test_views_readable import MEASURE_JS, SHOTS, card_clashes, inside, key_clashes, label_clashes


@pytest.fixture(scope="module")
def browser():
    if os.environ.get(NO_BROWSER_ENV) == "1" or browser_problem():
        yield None
        return
    with chromium() as b:
        yield b


def test_lab_table_map_and_market_readable(browser, monkeypatch) -> None:
    require_browser()
    monkeypatch.setenv("PYTHONPATH", str(_lab.ROOT))  # the kernel runs this checkout's package
    SHOTS.mkdir(parents=True, exist_ok=True)
    with _lab.server("lab", log_dir=SHOTS) as srv:
        page = browser.new_page(viewport={"width": 1500, "height": 1100})
        try:
            _lab.open_play_notebook(page, srv)
            assert _lab.cell_errors(page) == [], "a notebook cell failed"
            table = page.locator(".pg-table").first
            _lab.start_game(page, table, players=3, seed=7, bots=("random",), delay=0)
            page.wait_for_timeout(1000)
            plots = table.locator(".js-plotly-plot")
            assert plots.count() >= 2, "the map and the plant market should be drawn"
            map_gd, market_gd = plots.nth(0).element_handle(), plots.nth(1).element_handle()
            plots.nth(0).scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / "lab_table.png"))

            m = page.evaluate(MEASURE_JS, map_gd)
            box = page.evaluate("(gd) => { const b = gd.parentElement.getBoundingClientRect(); "
                                "return [b.left, b.top, b.right, b.bottom]; }", map_gd)
            assert len(m["cities"]) == 42 and len(m["legend"]) >= 12
            assert label_clashes(m) == []
            cut = [n for n, *b in m["legend"] if not inside(b, box)]
            assert cut == [], f"legend entries cut off by the map's box {box}: {cut}"

            plots.nth(1).scroll_into_view_if_needed()
            m = page.evaluate(MEASURE_JS, market_gd)
            assert len(m["cards"]) == 8
            assert card_clashes(m) == [] and key_clashes(m) == []
            assert inside(m["title"], m["figure"])
        except Exception:
            page.screenshot(path=str(SHOTS / "lab_failure.png"))
            print(srv.log_tail(20))
            raise
