"""In a real browser: the game lands, works offline, and is safe as an app.

JupyterLab, started with `make lab`'s flags (tests/_lab.py reads them from the Makefile): the address
it prints is the play notebook's, and opening the server's root shows that notebook, not the Launcher.
Voila, started as `make app` starts it: the page shows the game only (no notebook text, no code), and
its Save takes plain names in the saves folder only (a '..' is refused), Download hands the game to the
browser through a data: link. In both, every request of the page is routed (``_lab.Offline``): any
request to a host other than the local server, any JavaScript error and any console error fails,
from opening the notebook to a started game.

Screenshots and server logs go to test-artifacts/play/ (needs /usr/bin/chromium and playwright;
POWERGRID_NO_BROWSER=1 skips).
"""

from __future__ import annotations

import json
import re
import urllib.parse
from pathlib import Path

import _lab
import pytest

pytestmark = pytest.mark.slow  # about 25 s for Lab, 20 s for Voila

SHOTS = _lab.ARTIFACTS
PLAYERS, SEED, BOTS = 3, 7, ("random", "heuristic")


def new_page(browser):
    page = browser.new_page(viewport={"width": 1500, "height": 1100}, service_workers="block",
                            accept_downloads=True)
    return page, _lab.Offline(page)


def test_lab_lands_on_the_play_notebook_offline(browser, lab_server) -> None:
    srv = lab_server
    printed = re.findall(r"http://127\.0\.0\.1:\d+/\S*", srv.log_path.read_text())
    assert printed and all(u.endswith("/lab/tree/01_play.ipynb") for u in printed), printed
    page, guard = new_page(browser)
    try:
        _lab.open_play_notebook(page, srv, url=f"{srv.base}/")  # the root, as a newcomer opens it
        assert urllib.parse.urlsplit(page.url).path == "/lab/tree/01_play.ipynb", page.url
        assert page.locator(".jp-Launcher").count() == 0, "the Launcher is shown"
        tab = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current").first.inner_text()
        assert "01_play.ipynb" in tab, tab
        assert _lab.cell_errors(page) == [], "a notebook cell failed"
        table = page.locator(".pg-table").first
        _lab.start_game(page, table, players=PLAYERS, seed=SEED, bots=BOTS, delay=0)
        assert table.locator(".pg-status").inner_text().startswith("Round 1"), "no game started"
        assert table.locator(".pg-path input").get_attribute("placeholder") == "save file path"
        page.wait_for_timeout(500)  # late requests and console errors land
        page.screenshot(path=str(SHOTS / "app_lab_started.png"))
        guard.check()
        # no pop-up asking about news; no autosave, so a played game leaves the notebook as it was; widget
        # messages to the kernel's main thread, one at a time in order (not to a subshell's thread beside it)
        assert page.get_by_text("official Jupyter news").count() == 0, "the news pop-up is shown"
        for plugin, key, value in (("apputils-extension:notification", "fetchNews", "false"),
                                   ("docmanager-extension:plugin", "autosave", False),
                                   ("apputils-extension:kernels-settings", "commsOverSubshells", "disabled")):
            found = json.loads(_lab._request(f"{srv.base}/lab/api/settings/@jupyterlab/{plugin}"))
            assert found["schema"]["properties"][key]["default"] == value, (plugin, key)
    except Exception:
        page.screenshot(path=str(SHOTS / "app_lab_failure.png"))
        print(srv.log_tail(20))
        raise
    finally:
        page.close()


def test_voila_app_shows_the_game_only_offline_and_saves_safely(browser, voila_server) -> None:
    srv = voila_server
    page, guard = new_page(browser)
    try:
        _lab.open_play_notebook(page, srv)
        assert page.title() == "Power Grid"
        body = page.locator("body").inner_text()
        for text in ("Run the cell below", "play(", "import", "Other ways to start"):
            assert text not in body, f"notebook text or code on the app's page: {text!r}"
        assert page.locator(".jp-MarkdownOutput, .jp-InputArea-editor, .jp-InputPrompt").count() == 0
        table = page.locator(".pg-table").first
        _lab.start_game(page, table, players=PLAYERS, seed=SEED, bots=BOTS, delay=0)
        assert table.locator(".pg-status").inner_text().startswith("Round 1"), "no game started"
        page.screenshot(path=str(SHOTS / "app_voila_started.png"))

        path = table.locator(".pg-path input")
        assert path.get_attribute("placeholder") == "save name"
        message = table.locator(".pg-message")

        def save_as(name: str, expect: str) -> None:
            path.fill(name)
            path.press("Enter")
            page.wait_for_timeout(300)  # the name reaches the kernel
            table.locator("button.pg-save").click()
            message.get_by_text(expect).wait_for(timeout=20_000)

        save_as("../escape", "could not save: '..' is not allowed")
        save_as("/tmp/escape.json", "could not save: paths are not allowed")
        assert str(srv.root) not in message.inner_text()
        save_as("my game", "saved as my game.json in the app's saves folder")
        saved = srv.root / "saves" / "my game.json"  # the kernel's folder: the app notebook's
        assert json.loads(saved.read_text())["format"]

        table.locator("button.pg-download").click()
        link = table.locator("a.pg-download-file")
        link.wait_for(timeout=20_000)
        assert link.get_attribute("href").startswith("data:application/json;base64,")
        with page.expect_download() as dl:
            link.click()
        assert dl.value.suggested_filename == "my game.json"
        got = json.loads(Path(dl.value.path()).read_text(encoding="utf-8"))
        assert got == json.loads(saved.read_text()), "the download is not the game saved"
        page.wait_for_timeout(500)
        page.screenshot(path=str(SHOTS / "app_voila_saved.png"))
        guard.check()
    except Exception:
        page.screenshot(path=str(SHOTS / "app_voila_failure.png"))
        print(srv.log_tail(30))
        raise
    finally:
        page.close()
