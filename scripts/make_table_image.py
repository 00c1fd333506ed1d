#!/usr/bin/env python
"""Write docs/images/table.png: the play table in JupyterLab, mid-game, as a player sees it.

    .venv/bin/python scripts/make_table_image.py [--seed 8] [--round 4] [--out docs/images/table.png]

It starts JupyterLab as the browser tests do (tests/_lab.py: a free local port, a temp copy of
notebooks/, Debian's chromium through Playwright; nothing leaves the machine), runs
notebooks/01_play.ipynb, fills the setup form (4 players: "You" human against three heuristic bots,
Recharged, Germany, the seed, bot delay 0) and plays the human seat by clicking the table's controls
(tests/_whole_game.py's policy, buying no more than two plants so money is left to build) until the
human is to build in round ``--round``. There it queues the cheapest cities it can pay for (the map
draws the plan) and takes a screenshot of the table: about 1400 px wide (the page drawn at
``--scale`` times its CSS size).

Takes about a minute. The position is deterministic: the same seed, the same clicks.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import _lab  # noqa: E402  (tests/_lab.py: servers, browser and the panel driver)
from _whole_game import DomSeat, Player, number, panel_kind, round_of  # noqa: E402

NAMES = 4  # players: "You" and three bots
VIEWPORT = {"width": 1500, "height": 1500}  # the notebook's table is about 1070 CSS px wide


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--round", type=int, default=4, help="stop at the human's building turn of this round")
    ap.add_argument("--queue", type=int, default=2, help="cities to queue (the map shows the plan)")
    ap.add_argument("--scale", type=float, default=1.28, help="device pixels per CSS pixel")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "images" / "table.png")
    args = ap.parse_args()

    t0 = time.perf_counter()
    logs = Path(tempfile.mkdtemp(prefix="pg-table-image-"))
    with _lab.chromium() as browser, _lab.server("lab", log_dir=logs) as srv:
        page = browser.new_page(viewport=VIEWPORT, device_scale_factor=args.scale, service_workers="block")
        watch = _lab.Offline(page)
        _lab.open_play_notebook(page, srv)
        table = page.locator(".pg-table").first
        _lab.start_game(page, table, players=NAMES, seed=args.seed, bots=("heuristic",), delay=0,
                        edition="recharged", map_name="germany")
        drv = _lab.Driver(page, table)
        seat = DomSeat(drv)
        player = Player(seat, max_plants=2)
        player.play(lambda: round_of(seat.status()) >= args.round and panel_kind(seat) == "build")
        money = number(r": build \((\d+) Elektro\)", seat.panel())
        spent = 0
        for _ in range(args.queue):
            options = seat.options("pg-candidates")
            if not options or spent + number(r"= (\d+)", options[0]) > money:
                break
            spent += number(r"= (\d+)", options[0])
            seat.pick("pg-candidates", 0)
            seat.click("pg-add", "add", False)
        page.mouse.move(2, 2)  # no hover label on the map
        page.wait_for_timeout(500)
        watch_errors = watch.page_errors + watch.console_errors + watch.external
        args.out.parent.mkdir(parents=True, exist_ok=True)
        table.screenshot(path=str(args.out))
        print(f"{seat.status()}; queued {spent} Elektro of cities; {len(drv.clicks)} clicks; "
              f"page problems: {watch_errors or 'none'}")
    shutil.rmtree(logs, ignore_errors=True)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB) in {time.perf_counter() - t0:.0f}s")


if __name__ == "__main__":
    main()
