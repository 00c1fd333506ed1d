"""A class room in real browsers (docs/benchmarks.md): the time from a move in one browser to its
appearance in another; target 1 s.

Set-up as tests/test_rooms_browser.py: a rooms file with one room (Germany, ``--seed``), seats Ann and
Ben (humans) and, unless ``--bot none``, Cy (a bot of the room, moved by the room's kernels under the
lease, ``--delay`` s after the last decision); Voila serves the app as `make app ROOMS=...` does; two
browser contexts, one per human, open their join links. The humans play by clicking their own table's
controls (tests/_lab.py's ``Driver``) until ``--moves`` human decisions were made (or the game ends).

Every page records its game log (a MutationObserver on ``.pg-log``, the lines and the time, on the
page's own clock: ``performance.timeOrigin + now``, i.e. the machine's wall clock). After the run the
room's log is replayed here: the log lines after each decision tell which decision a page showed when.
For each human decision: click (its event's time stamp in the actor's page) -> the decision's row in
the file (``Decision.at``, written by the actor's kernel) -> the other human's page shows it (its log
changed to that decision or a later one). For each bot decision: row -> each page shows it. A decision
whose log lines equal those before it (none in practice) is not timed.

Run ``python benchmarks/rooms_browser.py`` (``--help``); it prints the machine, the figures and the command.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import _lab  # noqa: E402  (tests/_lab.py: servers, browser and the panel driver, shared with the tests)
from _machine import cores, cpu_model, nearest_rank  # noqa: E402  (benchmarks/_machine.py)

from powergrid_nb import new_game  # noqa: E402
from powergrid_nb.engine.gamelog import log_lines  # noqa: E402
from powergrid_nb.panels.toolbar import LOG_LINES  # noqa: E402
from powergrid_nb.rooms import Seat, SQLiteStore  # noqa: E402

HUMANS = ("Ann", "Ben")

# the page's log lines and when they changed (DOM time; the frame painted follows within ~16 ms)
LOG_RECORDER_JS = """(root) => {
  const R = window.__pgLog = {snaps: []};
  const read = () => [...root.querySelectorAll('.pg-log .pg-log-lines > div')].map(e => e.textContent.trim());
  const now = () => performance.timeOrigin + performance.now();
  let last = JSON.stringify(read());
  R.snaps.push([now(), JSON.parse(last)]);
  const elem = n => (n.nodeType === 1 ? n : n.parentElement);
  new MutationObserver(recs => {
    if (!recs.some(r => { const e = elem(r.target); return e && e.closest('.pg-log'); })) return;
    const text = JSON.stringify(read());
    if (text !== last) { last = text; R.snaps.push([now(), JSON.parse(text)]); }
  }).observe(root, {subtree: true, childList: true, characterData: true});
}"""
CLICK_TIME_JS = "() => performance.timeOrigin + window.__pg.click.t"


class Player:
    """A human at their own browser context, clicking through ``_lab.Driver``; deciding clicks timed."""

    def __init__(self, browser: Any, srv: _lab.Server, seat: str, code: str) -> None:
        joined = _lab.open_room_page(browser, srv, seat, code, timeout_ms=180_000)
        self.seat, self.context, self.page, self.guard, self.table = (
            seat, joined.context, joined.page, joined.guard, joined.table)
        self.clicks: list[float] = []  # wall-clock seconds of each deciding click
        self.driver = _lab.Driver(self.page, self.table, lab=False, timeout_ms=120_000,
                                  on_click=self._clicked)
        self.table.evaluate(LOG_RECORDER_JS)

    def _clicked(self, c: _lab.Click) -> None:
        if c.changes_game:
            self.clicks.append(self.page.evaluate(CLICK_TIME_JS) / 1000)

    def snaps(self) -> list[tuple[float, tuple[str, ...]]]:
        return [(t / 1000, tuple(lines)) for t, lines in self.page.evaluate("() => window.__pgLog.snaps")]


def play(store: SQLiteStore, room: str, players: dict[str, Player], moves: int, limit_s: float) -> None:
    """Click the human to act's turns until ``moves`` human decisions are in the room (bots move alone)."""
    t_end = time.monotonic() + limit_s
    while time.monotonic() < t_end:
        g = store.game(room)
        if g.is_over or sum(d.seat in HUMANS for d in store.log(room)) >= moves:
            return
        actor = players.get(g.current_player)  # type: ignore[arg-type]
        if actor is None or actor.driver.phase() == "wait":
            time.sleep(0.1)  # a bot's turn, or the actor's page not there yet
            continue
        actor.driver.turn()
    raise TimeoutError(f"fewer than {moves} human decisions after {limit_s:.0f} s")


def shown_at(snaps: list[tuple[float, tuple[str, ...]]], after: list[tuple[str, ...]]) -> list[float | None]:
    """For each decision k (1-based; ``after[k]``: the log lines after it), when the page first showed it
    or a later one; None when it never did or when its lines equal the previous (it cannot be told)."""
    index = {}
    for k, lines in enumerate(after):
        index[lines] = k  # the last decision with these lines
    first: list[float | None] = [None] * len(after)
    seen = -1
    for t, lines in snaps:
        k = index.get(lines, -1)
        while seen < k:
            seen += 1
            first[seen] = t
    return [None if k == 0 or after[k] == after[k - 1] else first[k] for k in range(len(after))]


def stats(values: list[float]) -> str:
    if not values:
        return "no samples"
    return (f"n {len(values):3d}  median {1000 * statistics.median(values):6.0f} ms  p95 "
            f"{1000 * nearest_rank(values, 0.95):6.0f} ms  max {1000 * max(values):6.0f} ms")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=40, help="human decisions to time (both humans)")
    ap.add_argument("--seed", type=int, default=9, help="the game's seed (9: Ann, Ben, Cy in order)")
    ap.add_argument("--bot", default="random", help="the third seat's bot, or 'none' for two players")
    ap.add_argument("--limit", type=float, default=600, help="seconds of play at most")
    args = ap.parse_args()
    load0 = os.getloadavg()
    print(f"{cpu_model()}, {cores()} cores, Python {platform.python_version()}; "
          f"load before {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}")
    seats = [Seat(h, "human") for h in HUMANS] + ([] if args.bot == "none" else [Seat("Cy", "bot", args.bot)])
    folder = Path(tempfile.mkdtemp(prefix="rooms-browser-"))
    store = SQLiteStore(folder / "class.sqlite")
    created = store.create_room(new_game([s.name for s in seats], map="germany", seed=args.seed), seats)
    room = created.room
    environ = {"POWERGRID_ROOMS": str(folder / "class.sqlite")}
    with _lab.chromium() as browser, _lab.server("voila", log_dir=folder, environ=environ) as srv:
        t0 = time.perf_counter()
        players = {s: Player(browser, srv, s, created.codes[s]) for s in HUMANS}
        print(f"two pages joined in {time.perf_counter() - t0:.1f} s; playing...")
        t0 = time.perf_counter()
        play(store, room, players, args.moves, args.limit)
        time.sleep(2)  # the last moves reach both pages
        played = time.perf_counter() - t0
        snaps = {s: p.snaps() for s, p in players.items()}
        for s, p in players.items():
            try:  # reported, not fatal: the log (HTML) is what is timed
                p.guard.check()
            except AssertionError as e:
                print(f"WARNING, {s}'s page: {e}")
            p.context.close()
    rows = store.log(room)
    g = new_game([s.name for s in seats], map="germany", seed=args.seed)
    after = [tuple(log_lines(g, LOG_LINES))]
    for d in rows:
        g.apply(d.action)
        after.append(tuple(log_lines(g, LOG_LINES)))
    seen = {s: shown_at(snaps[s], after) for s in HUMANS}
    click_to_other, click_to_row, row_to_other, bot_to_page = [], [], [], []
    clicks = {s: list(players[s].clicks) for s in HUMANS}
    for k, d in enumerate(rows, start=1):
        if d.seat in HUMANS:
            click = clicks[d.seat].pop(0) if clicks[d.seat] else None
            other = seen[HUMANS[1 - HUMANS.index(d.seat)]][k]
            if click is None or other is None:
                continue
            click_to_other.append(other - click)
            click_to_row.append(d.at - click)
            row_to_other.append(other - d.at)
        else:
            bot_to_page += [seen[s][k] - d.at for s in HUMANS if seen[s][k] is not None]
    load1 = os.getloadavg()
    print(f"{len(rows)} decisions in {played:.0f} s ({sum(d.seat in HUMANS for d in rows)} by the humans' "
          f"clicks, {sum(d.seat not in HUMANS for d in rows)} by the bot); round {g.round} reached")
    print(f"click in one page -> shown in the other's log:  {stats(click_to_other)}")
    print(f"  click -> row in the file (actor's kernel):     {stats(click_to_row)}")
    print(f"  row -> shown in the other page:                {stats(row_to_other)}")
    print(f"bot's row -> shown in each page:                 {stats(bot_to_page)}")
    target = "met" if click_to_other and nearest_rank(click_to_other, 0.95) <= 1.0 else "NOT met"
    print(f"target p95 <= 1 s: {target}")
    print(f"load after {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}")
    print("command: python " + " ".join(["benchmarks/rooms_browser.py", *sys.argv[1:]]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
