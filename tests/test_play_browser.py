"""Play notebooks/01_play.ipynb by clicking, in a real browser: JupyterLab, then Voila.

JupyterLab (a free local port, empty token, a temp copy of notebooks/) is opened in headless Debian
chromium via Playwright; Run All; in the first table (the setup form) a quick seeded game is set up
(3 players: "You" human, a random and a heuristic bot, bot delay 0) and started; then the human seat
plays a whole round through the panels: auction (choose a plant, open, pass or bid), resources (+, Buy,
Done), building (a city clicked on the map, one added from the list, Build, Done) and bureaucracy
(Power). Each click waits until the table has updated (tests/_lab.py). Checked: the status reaches
round 2, the map's plotly data holds the human's houses, the log shows the human's moves, the money
changed, no page errors, no console errors and no request to any host but the local server (every
request is routed: ``_lab.Offline``). Voila: the app (notebooks/app.ipynb, as `make app` serves it),
the same form, one click-driven move.

Screenshots and server logs go to test-artifacts/play/. Needs /usr/bin/chromium and playwright (as the
other browser tests: missing, they FAIL with install advice; POWERGRID_NO_BROWSER=1 skips them).
"""

from __future__ import annotations

import re
import time
from typing import Any

import _lab
import pytest

from powergrid_nb.views.mapboard import NOMINAL_WIDTH

pytestmark = pytest.mark.slow  # about 60 s for Lab, 30 s for Voila

SHOTS = _lab.ARTIFACTS
PLAYERS, SEED, BOTS = 3, 7, ("random", "heuristic")


def house_points(table: Any, player: str) -> list[list[float]]:
    """The (x, y) of ``player``'s houses in the plotly data of the map's pieces (the trace named after
    them)."""
    return table.evaluate("""(root, who) => {
      const gd = root.querySelector('.pg-map-box .pg-map-pieces');
      const t = gd.data.find(t => t.name === who && t.legendgroup === 'players' && t.mode === 'markers');
      return t ? t.x.map((x, i) => [x, t.y[i]]).filter(p => p[0] !== null) : null;
    }""", player)



MAP_FIT_JS = """root => { const gd = root.querySelector('.pg-map-box .js-plotly-plot');
  return [gd._fullLayout.width, root.querySelector('.pg-map-box').clientWidth]; }"""


def assert_map_fits(table: Any) -> None:
    """The map is as wide as its box (not Plotly's default 700 px: a gap beside it in a wide page), but
    not narrower than the width its labels were placed for."""
    drawn, box = table.evaluate(MAP_FIT_JS)
    assert abs(drawn - max(box, NOMINAL_WIDTH)) < 3, f"the map is {drawn:.0f} px wide in a box of {box} px"


READ_JS = """root => { const gd = root.querySelector('.pg-map-box .js-plotly-plot');
  const R = el => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const names = [], fonts = [];
  gd.querySelectorAll('.scatterlayer .trace').forEach(tr => {
    const d = tr.__data__ && tr.__data__[0] && tr.__data__[0].trace;
    if (!d || d.visible !== true) return;
    tr.querySelectorAll('.textpoint text').forEach(t => {
      if (!t.textContent) return;
      if (d.legendgroup === 'regions') names.push(R(t));
      fonts.push(parseFloat(getComputedStyle(t).fontSize));
    });
  });
  const hit = (a, b) => a[0] < b[2] - 0.5 && b[0] < a[2] - 0.5 && a[1] < b[3] - 0.5 && b[1] < a[3] - 0.5;
  let overlaps = 0;
  names.forEach((a, i) => names.slice(i + 1).forEach(b => { if (hit(a, b)) overlaps++; }));
  const land = R(gd.querySelector('.shapelayer path'));
  const doc = document.scrollingElement || document.documentElement;
  return {land: land[2] - land[0], font: Math.min(...fonts), overlaps, names: names.length,
          modebar: !!gd.querySelector('.modebar-container .modebar-group'),
          scroll: doc.scrollWidth - doc.clientWidth}; }"""


def assert_map_reads(table: Any, least_land: float) -> dict[str, Any]:
    """The table's map as drawn: its land at least ``least_land`` px across, names and costs 12 px or
    more, no two names overlapping, no mode bar, no horizontal scrollbar on the page."""
    m = table.evaluate(READ_JS)
    assert m["land"] >= least_land, f"the map's land is {m['land']:.0f} px across"
    assert m["font"] >= 12 and m["overlaps"] == 0 and m["names"] == 42, m
    assert not m["modebar"], "a mode bar over the map"
    assert m["scroll"] <= 0, f"a horizontal scrollbar ({m['scroll']} px)"
    return m


IN_VIEW_JS = """root => { const gd = root.querySelector('.pg-map-box .js-plotly-plot');
  const scrolls = e => e.scrollHeight > e.clientHeight + 1
    && ['auto', 'scroll', 'overlay'].includes(getComputedStyle(e).overflowY);
  let s = gd.parentElement;
  while (s && s !== document.body && !scrolls(s)) s = s.parentElement;
  gd.scrollIntoView({block: 'start'});
  const view = s && s !== document.body ? s.getBoundingClientRect() : {top: 0, bottom: innerHeight};
  const fig = gd.getBoundingClientRect(), land = gd.querySelector('.shapelayer path').getBoundingClientRect();
  return {top: fig.top - view.top, land_top: land.top - view.top, land_bottom: land.bottom - view.top,
          view: view.bottom - view.top, land: land.right - land.left, width: fig.width}; }"""


# the map box alone on its line (the panel under it) and as wide as the line, the map drawn at that width
ROW_JS = """() => { const b = document.querySelector('.pg-map-box'), row = b.parentElement;
  const gd = b.querySelector('.js-plotly-plot'), panel = [...row.children].find(c => c !== b);
  return panel.getBoundingClientRect().top >= b.getBoundingClientRect().bottom - 1
         && Math.abs(b.clientWidth - row.clientWidth) < 2
         && Math.abs(gd._fullLayout.width - b.clientWidth) < 3; }"""


def assert_map_in_view(table: Any) -> dict[str, Any]:
    """Scrolled to the map's top, the whole map (its title to its land's bottom) is in the height the
    page scrolls in: a board seen whole at once."""
    m = table.evaluate(IN_VIEW_JS)
    assert abs(m["top"]) < 2 and m["land_top"] >= 0 and m["land_bottom"] <= m["view"], m
    return m


CUT_JS = """root => [...root.querySelectorAll('.pg-setup *')]
  .filter(e => e.textContent.trim() && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1
               && getComputedStyle(e).overflow !== 'visible')
  .map(e => e.textContent.trim())"""


def cut_labels(table: Any) -> list[str]:
    """Texts of the setup form cut by their box (an ellipsis, or hidden overflow)."""
    return table.evaluate(CUT_JS)


SPILL_JS = """root => { const box = root.querySelector('.pg-panel').getBoundingClientRect();
  return [...root.querySelectorAll('.pg-panel *')].filter(e => e.getClientRects().length)
    .filter(e => e.getBoundingClientRect().right > box.right + 0.5)
    .map(e => (e.className.baseVal ?? e.className) || e.tagName); }"""


def spilled(table: Any) -> list[str]:
    """Elements of the phase panel whose box runs past the panel's right edge (cut off by the page)."""
    return table.evaluate(SPILL_JS)


MONEY = re.compile(r"You(?: have |: [a-z ]+\()(\d+)")  # "You have 50", "You: build (38 Elektro)"


def test_lab_play_a_round_by_clicking(browser, lab_server) -> None:
    t0 = time.perf_counter()
    srv = lab_server
    with _lab.offline_page(browser, srv, SHOTS / "lab_failure.png") as (page, watch):
        seconds = _lab.open_play_notebook(page, srv)
        print(f"server up in {srv.started:.1f}s, notebook run in {seconds:.1f}s")
        assert _lab.cell_errors(page) == [], "a notebook cell failed"
        assert page.locator(".pg-table").count() == 1, "Run All should show the setup form's table"
        table = page.locator(".pg-table").first
        page.screenshot(path=str(SHOTS / "lab_01_form.png"))
        assert cut_labels(table) == [], "labels of the setup form are cut"

        _lab.start_game(page, table, players=PLAYERS, seed=SEED, bots=BOTS, delay=0)
        drv = _lab.Driver(page, table, policy=dict(cities=2, tokens=2))
        status0 = drv.status()
        assert status0.startswith("Round 1 · Step 1 · Phase: auction"), status0
        assert house_points(table, "You") == [], "the human has no house yet"
        seats = {p: table.locator(f".pg-seat-{p} select").input_value() for p in ("You", "Bo", "Cy")}
        assert seats == {"You": "human", "Bo": BOTS[0], "Cy": BOTS[1]}, seats
        delay = table.locator(".pg-delay .widget-readout").inner_text()
        assert float(delay) == 0, f"the toolbar shows bot delay {delay}, the form set 0"
        page.screenshot(path=str(SHOTS / "lab_02_started.png"))
        print("Lab map:", assert_map_reads(table, 450))  # the file browser open beside the notebook
        print("Lab map in view:", assert_map_in_view(table))

        log: list[str] = []
        money: list[int] = []

        def seen(_click: _lab.Click) -> None:
            log.extend(table.locator(".pg-log").inner_text().splitlines())
            money.extend(int(m) for m in MONEY.findall(drv.panel_text()))

        spills: list[str] = []

        def round_two() -> bool:
            if drv.phase() == "build" and not (SHOTS / "lab_03_build.png").exists():
                page.screenshot(path=str(SHOTS / "lab_03_build.png"))
                spills.extend(spilled(table))  # the list of cities, the queue, the buttons
            return drv.status().startswith("Round 2")

        (SHOTS / "lab_03_build.png").unlink(missing_ok=True)
        drv.on_click = seen
        turns = drv.play(round_two, max_turns=40)
        page.screenshot(path=str(SHOTS / "lab_04_round2.png"))

        kinds = [c.kind for c in drv.clicks]
        print(f"{turns} turns, clicks: {kinds}; {time.perf_counter() - t0:.1f}s")
        assert drv.status().startswith("Round 2 · Step 1 · Phase: auction"), drv.status()
        for kind in ("open", "more", "buy", "map-add", "add", "build", "done", "power"):
            assert kind in kinds, f"no {kind!r} click in the round: {kinds}"
        houses = house_points(table, "You")
        assert houses is not None and len(houses) == 2, f"the map should show 2 houses of You: {houses}"
        text = "\n".join(log)
        for move in ("You open an auction", "You buy", "You build in", "You run"):
            assert move in text, f"{move!r} not in the game log:\n{text}"
        assert len(set(money)) > 1, f"the human's money never changed in the panels: {money}"
        slow = [c for c in drv.clicks if c.frame_ms is None or c.frame_ms > 5000]
        assert not slow, f"clicks that took over 5 s to show: {slow}"
        # the click guard: a press on a table's button is handled before the notebook sees it (no
        # cell selection and focus pass per click); text fields and menus still take the press
        pressed = table.evaluate("""root => [...root.querySelectorAll('button, input, select')]
          .map(el => {
            const e = new MouseEvent('mousedown', {bubbles: true, cancelable: true, button: 0});
            el.dispatchEvent(e);
            return [el.tagName, e.defaultPrevented];
        })""")
        assert all(handled == (tag == "BUTTON") for tag, handled in pressed), pressed
        assert_map_fits(table)
        assert (SHOTS / "lab_03_build.png").exists() and spills == [], f"past the panel's edge: {spills}"
        assert {tag for tag, _ in pressed} >= {"BUTTON", "SELECT"}, pressed

        # the Hint: worked out in the background, shown under the map, never played
        before = drv.status()
        table.locator("button.pg-hint").click()
        table.locator(".pg-hint-result .js-plotly-plot").wait_for(timeout=120_000)
        table.locator(".pg-hint-result").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "lab_05_hint.png"))
        text = table.locator(".pg-hint-text").inner_text()
        assert text.startswith("Engine's suggestion for You:") and "Nothing is played for you" in text, text
        assert drv.status() == before, "a hint must not move"

        # 1280x800 with the file browser open: no room for the panel beside the map, so it goes under
        # it, and the map, alone on its line, takes the whole line (not capped to the window's height)
        page.set_viewport_size({"width": 1280, "height": 800})
        page.wait_for_function(ROW_JS, timeout=30_000)
        assert_map_fits(table)
        watch.check()


def test_voila_start_and_open_an_auction(browser, voila_server) -> None:
    srv = voila_server
    with _lab.offline_page(browser, srv, SHOTS / "voila_failure.png", tail=30) as (page, watch):
        seconds = _lab.open_play_notebook(page, srv)
        print(f"server up in {srv.started:.1f}s, page rendered in {seconds:.1f}s")
        table = page.locator(".pg-table").first
        page.screenshot(path=str(SHOTS / "voila_01_form.png"))
        _lab.start_game(page, table, players=PLAYERS, seed=SEED, bots=BOTS, delay=0)
        drv = _lab.Driver(page, table, lab=False, quiet_ms=800)
        before = drv.status()
        assert before.startswith("Round 1 · Step 1 · Phase: auction"), before
        page.screenshot(path=str(SHOTS / "voila_02_started.png"))
        # the biggest thing on the table: at 1500 px, Germany's land at least 600 px across
        print("Voila map:", assert_map_reads(table, 600))
        # a card of the plant-market tab picks its plant for the opening bid, as the panel's button does
        drv.play(lambda: table.locator(".pg-market-view .pg-card-openable").count() > 0, max_turns=10)
        card = table.locator(".pg-market-view .pg-card-openable").last
        plant = card.get_attribute("data-plant")
        card.click()
        table.locator(".pg-panel button.pg-open", has_text=f"Open plant {plant} at").wait_for(timeout=30_000)
        # a bid typed and Open clicked at once (no Enter): the auction opens at the typed bid
        bid = type_into(page, table.locator(".pg-panel .pg-bid-amount input"), 2)
        drv.click(drv.button("pg-open"), "open", True)
        assert f"You open an auction for plant {plant} at {bid}." in table.locator(".pg-log").inner_text()
        # until the auction phase is over (the status line changes within it: whose auction, the bid)
        drv.play(lambda: not drv.status().startswith("Round 1 · Step 1 · Phase: auction"), max_turns=10)
        page.screenshot(path=str(SHOTS / "voila_03_moved.png"))

        kinds = [c.kind for c in drv.clicks]
        assert "open" in kinds, f"the human never opened an auction: {kinds}"
        assert drv.status().startswith("Round 1 · Step 1 · Phase: resources"), drv.status()
        assert "You open an auction" in table.locator(".pg-log").inner_text()
        assert_map_fits(table)
        watch.check()


FITTED_JS = """([lo, hi]) => { const b = document.querySelector('.pg-map-box');
  const gd = b && b.querySelector('.js-plotly-plot'), most = parseFloat(b.style.maxWidth);
  return lo <= most && most <= hi && gd && gd._fullLayout
         && Math.abs(gd._fullLayout.width - b.clientWidth) < 3; }"""


def test_voila_the_whole_map_in_view(browser, voila_server) -> None:
    """The map as wide as keeps it whole in the window (its title to its land's bottom), never narrower
    than its labels were placed for: at 1500x1100 Germany's map is seen whole once scrolled to its top,
    its land at least 600 px across; the window made 1280x800, the map follows, whole again at the 600
    px its labels are placed for; and back at 1500x1100."""
    srv = voila_server
    # the window, and the bounds of the map box's width there (the page's cap, then the map drawn at it)
    sizes = [((1500, 1100), (700, 900)), ((1280, 800), (600, 600)), ((1500, 1100), (700, 900))]
    with _lab.offline_page(browser, srv, SHOTS / "voila_map_failure.png") as (page, watch):
        _lab.open_play_notebook(page, srv)
        table = page.locator(".pg-table").first
        _lab.start_game(page, table, players=PLAYERS, seed=SEED, bots=BOTS, delay=0)
        for (width, height), bounds in sizes:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function(FITTED_JS, arg=list(bounds), timeout=30_000)
            m = assert_map_in_view(table)
            page.screenshot(path=str(SHOTS / f"voila_map_{width}x{height}.png"))
            assert_map_fits(table)
            print(f"Voila {width}x{height}:", m, assert_map_reads(table, 600 if width >= 1500 else 450))
        watch.check()


def type_keys(page: Any, box: Any, text: str) -> None:
    """Replace what a box holds by ``text``, typed key by key (no Enter, no Tab)."""
    box.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(text, delay=30)


def type_into(page: Any, box: Any, more: int) -> int:
    """Type ``more`` over the number a box shows (:func:`type_keys`); returns the number typed."""
    value = int(box.input_value()) + more
    type_keys(page, box, str(value))
    return value


def test_lab_a_typed_value_reaches_the_kernel_before_the_click(browser, lab_server) -> None:
    """A value typed into a box and a button clicked at once (no Enter, no Tab) act on the typed value:
    the opening bid typed, then Open; a save name typed key by key, then Save. The table's click guard
    keeps a button press from moving the focus (tests above), so the box's change must reach the kernel
    before the click's message all the same."""
    srv = lab_server
    with _lab.offline_page(browser, srv, SHOTS / "lab_typed_failure.png") as (page, watch):
        _lab.open_play_notebook(page, srv)
        table = page.locator(".pg-table").first
        _lab.start_game(page, table, players=PLAYERS, seed=SEED, bots=BOTS, delay=0)
        drv = _lab.Driver(page, table)
        drv.play(lambda: table.locator(".pg-panel button.pg-open").count() > 0, max_turns=10)
        bid = type_into(page, table.locator(".pg-panel .pg-bid-amount input"), 7)
        table.locator(".pg-panel button.pg-open").click()
        shows = "([sel, re]) => new RegExp(re).test(document.querySelector(sel).innerText)"
        opened = rf"You open an auction for plant \d+ at {bid}\."
        page.wait_for_function(shows, arg=[".pg-table .pg-log", opened], timeout=30_000)

        name = "typed_then_saved"
        type_keys(page, table.locator(".pg-path input"), name)
        table.locator(".pg-toolbar button.pg-save").first.click()
        page.wait_for_function(shows, arg=[".pg-table .pg-message", rf"^saved.*{name}"], timeout=30_000)
        assert [p.name for p in srv.root.rglob(f"{name}*")], "no save under the typed name"
        watch.check()
