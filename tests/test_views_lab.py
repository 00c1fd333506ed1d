"""In JupyterLab itself: the play table's map (a FigureWidget) and plant market (HTML cards),
as drawn there, are readable (no city label on another label or marker, the legend not cut off by the
map's box, every card's print inside its card, no card on another, the key of card colours clear).

The server is this checkout's (the kernel imports powergrid_nb from here: PYTHONPATH), started by
tests/_lab.py; the page is Debian's chromium via Playwright. A screenshot goes to
test-artifacts/readable/lab_table.png. Without chromium the test fails with instructions
(``POWERGRID_NO_BROWSER=1`` skips it).
"""

from __future__ import annotations

import _lab
from test_views_readable import MEASURE_JS, SHOTS, hit, inside, label_clashes

# The HTML plant market (views.plants_html) as drawn: each card with the boxes of what it prints (and
# whether a text runs past its box), the key's entries, the row labels and the title, in page pixels.
MARKET_JS = """el => {
  const box = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const cut = e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1;
  return {
    market: box(el), title: box(el.querySelector('.pg-market-title')),
    cards: [...el.querySelectorAll('.pg-card')].map(c => ({
      name: c.dataset.plant || c.className, box: box(c), cut: cut(c),
      parts: [...c.querySelectorAll('*')].map(e => [e.textContent.trim(), ...box(e)])})),
    labels: [...el.querySelectorAll('.pg-market-label, .pg-market-note')]
      .map(e => [e.textContent, ...box(e)]),
    key: [...el.querySelectorAll('.pg-market-key > span')].map(e => [e.textContent, ...box(e)]),
  };
}"""


def market_clashes(m: dict) -> list[str]:
    """Print that leaves its card, cards on cards or on a row's label, key entries on one another, and
    anything outside the market's box."""
    bad = []
    cards = [(c["name"], c["box"]) for c in m["cards"]]
    for c in m["cards"]:
        bad += [f"card {c['name']}: {t!r} leaves it" for t, *b in c["parts"] if not inside(b, c["box"])]
        bad += [f"card {c['name']}: its print is cut"] if c["cut"] else []
    others = cards + [(t, b) for t, *b in m["labels"]]
    bad += [f"{a!r} on {b!r}" for i, (a, x) in enumerate(others) for b, y in others[i + 1:] if hit(x, y)]
    key = [(t, b) for t, *b in m["key"]]
    bad += [f"key {a!r} on {b!r}" for i, (a, x) in enumerate(key) for b, y in key[i + 1:] if hit(x, y)]
    parts = [("title", m["title"]), *others, *key]
    return bad + [f"{n!r} outside the market" for n, b in parts if not inside(b, m["market"])]


def test_lab_table_map_and_market_readable(browser, lab_server) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    srv = lab_server
    page = browser.new_page(viewport={"width": 1500, "height": 1100})
    try:
        _lab.open_play_notebook(page, srv)
        assert _lab.cell_errors(page) == [], "a notebook cell failed"
        table = page.locator(".pg-table").first
        _lab.start_game(page, table, players=3, seed=7, bots=("random",), delay=0)
        page.wait_for_timeout(1000)
        plots = table.locator(".js-plotly-plot")
        assert plots.count() >= 1, "the map should be drawn"
        map_gd = plots.nth(0).element_handle()
        plots.nth(0).scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "lab_table.png"))

        m = page.evaluate(MEASURE_JS, map_gd)
        box = page.evaluate("(gd) => { const b = gd.parentElement.getBoundingClientRect(); "
                            "return [b.left, b.top, b.right, b.bottom]; }", map_gd)
        assert len(m["cities"]) == 42 and len(m["legend"]) >= 12
        assert label_clashes(m) == []
        cut = [n for n, *b in m["legend"] if not inside(b, box)]
        assert cut == [], f"legend entries cut off by the map's box {box}: {cut}"

        market = table.locator(".pg-market-view .pg-market")
        market.scroll_into_view_if_needed()
        m = market.evaluate(MARKET_JS)
        assert len(m["cards"]) == 8 and len(m["key"]) == 8 and len(m["labels"]) == 2
        assert all(len(c["parts"]) >= 3 for c in m["cards"])  # number, print, its lines
        assert market_clashes(m) == []
    except Exception:
        page.screenshot(path=str(SHOTS / "lab_failure.png"))
        print(srv.log_tail(20))
        raise
